//! Bench workloads of the engines behind the city-block and chessboard distances as
//! `float32` (OpenCV's `DIST_L1` / `DIST_C`): the automatic choice against each engine
//! forced through the hidden `chamfer_distances_f32_by` knob (the erosion layers counted
//! into the output, the vector passes, the sweeps) and the plain two raster passes a
//! careful user writes, on noise (shallow), blobs and a deep image (few background cells),
//! 2048 x 2048.

use crate::Bench;
use gridbits::algo::distance_transform::{chamfer_distances_f32_by, ChamferEngine, Neighbourhood};
use gridbits::BitGrid;
use gridbits_testkit::SplitMix;

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    let side = if bench.quick() { 256 } else { 2048 };
    for (label, g) in &crate::distance_transform::images(rng, side, &[0.3, 0.7]) {
        for taxicab in [true, false] {
            engines(bench, g, label, side, taxicab);
        }
    }
}

fn engines(bench: &mut Bench, g: &BitGrid, label: &str, side: usize, taxicab: bool) {
    let (metric, n) = if taxicab {
        ("L1", Neighbourhood::taxicab())
    } else {
        ("C", Neighbourhood::chessboard())
    };
    let name = format!("cdt engines {metric} {side}x{side} {label}");
    if !bench.wants(&name) {
        return;
    }
    let run = |e: ChamferEngine| {
        chamfer_distances_f32_by(g, n, e)
            .unwrap_or_else(|err| panic!("{err}"))
            .map_or(0, |d| d[side * side / 2] as u64)
    };
    let bytes: Vec<u8> = (0..side * side)
        .map(|i| u8::from(g.get(i % side, i / side)))
        .collect();
    bench
        .workload(&name, "auto")
        .case("auto", 1, || run(ChamferEngine::Auto))
        .case("counted layers", 1, || run(ChamferEngine::CountedLayers))
        .case("vector passes", 1, || run(ChamferEngine::VectorPasses))
        .case("sweeps", 1, || run(ChamferEngine::Sweeps))
        .case("plain", 1, || plain_f32(&bytes, side, taxicab))
        .finish();
}

/// Two raster passes over a padded `f32` copy of a byte image (nonzero: set), as a careful
/// user writes OpenCV's `DIST_L1` / `DIST_C`; the centre cell's distance.
fn plain_f32(img: &[u8], side: usize, taxicab: bool) -> u64 {
    let pw = side + 2;
    let mut d = vec![f32::MAX; pw * (side + 2)];
    for y in 0..side {
        for x in 0..side {
            if img[y * side + x] == 0 {
                d[(y + 1) * pw + x + 1] = 0.0;
            }
        }
    }
    let fwd: &[usize] = if taxicab {
        &[pw, 1]
    } else {
        &[pw + 1, pw, pw - 1, 1]
    };
    for y in 1..=side {
        for x in 1..=side {
            let i = y * pw + x;
            let mut m = d[i];
            for &o in fwd {
                m = m.min(d[i - o] + 1.0);
            }
            d[i] = m;
        }
    }
    for y in (1..=side).rev() {
        for x in (1..=side).rev() {
            let i = y * pw + x;
            let mut m = d[i];
            for &o in fwd {
                m = m.min(d[i + o] + 1.0);
            }
            d[i] = m;
        }
    }
    d[(side / 2 + 1) * pw + side / 2 + 1] as u64
}
