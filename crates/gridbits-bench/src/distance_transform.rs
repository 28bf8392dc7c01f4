//! Bench workloads of the distance transforms: the chamfer transform (city block,
//! chessboard) and the exact Euclidean transform (with the nearest cells, and the distances
//! alone) on noise, blobs and a deep image (few background cells), against the per-cell
//! references of `naive::distance_transform` and the plain implementation a careful user
//! writes on a byte image (two raster passes over `u32`; Felzenszwalb and Huttenlocher's
//! lower envelope over `f64`, column pass then row pass).

use crate::Bench;
use gridbits::algo::distance_transform::{
    chamfer_transform, euclidean_distances, euclidean_transform, Neighbourhood, Sampling,
};
use gridbits::naive::distance_transform::{brute_force, two_pass_chamfer, Metric};
use gridbits::naive::NaiveGrid;
use gridbits::BitGrid;
use gridbits_testkit::{discs, random_grid, SplitMix};
use std::hint::black_box;

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    let side = if bench.quick() { 256 } else { 1024 };
    for (label, g) in &images(rng, side, &[0.3, 0.5, 0.9]) {
        chamfer(bench, g, label, side, true);
        chamfer(bench, g, label, side, false);
        euclidean(bench, g, label, side);
    }
    // Brute force only on a small image (it tries every background cell for every cell).
    let small = random_grid(rng, 64, 64, 0.9);
    let ns = NaiveGrid::from_view(&small);
    let name = "edt 64x64 noise 90% vs brute force";
    if bench.wants(name) {
        bench
            .workload(name, "gridbits")
            .case("gridbits", 1, || {
                let t = euclidean_transform(&small, Sampling::default())
                    .unwrap_or_else(|e| panic!("{e}"));
                t.nearest_planes()[0] as u64
            })
            .case("naive", 1, || {
                brute_force(&ns, Metric::SquaredEuclidean)[0].unwrap_or(0)
            })
            .finish();
    }
}

fn bytes_of(g: &BitGrid) -> Vec<u8> {
    let (w, h) = g.size();
    (0..w * h).map(|i| u8::from(g.get(i % w, i / w))).collect()
}

/// The distance transforms' images, `side` x `side`: noise of each density of `noise`
/// (named "noise 30%" ...), blobs (discs) and a deep image (background cells 0.05% of the
/// grid, distances in the tens: past the erosion layers' budget, the separable passes).
pub(crate) fn images(rng: &mut SplitMix, side: usize, noise: &[f64]) -> Vec<(String, BitGrid)> {
    let mut inputs: Vec<(String, BitGrid)> = noise
        .iter()
        .map(|&p| {
            (
                format!("noise {}%", (p * 100.0) as u32),
                random_grid(rng, side, side, p),
            )
        })
        .collect();
    let mut blobs = BitGrid::new(side, side);
    discs(rng, side, |x, y| blobs.set(x, y));
    inputs.push(("blobs".to_string(), blobs));
    inputs.push(("deep".to_string(), random_grid(rng, side, side, 0.9995)));
    inputs
}

fn chamfer(bench: &mut Bench, g: &BitGrid, label: &str, side: usize, taxicab: bool) {
    let metric = if taxicab { "taxicab" } else { "chessboard" };
    let name = format!("cdt {metric} {side}x{side} {label}");
    if !bench.wants(&name) {
        return;
    }
    let n = if taxicab {
        Neighbourhood::taxicab()
    } else {
        Neighbourhood::chessboard()
    };
    let rows = if taxicab {
        [
            [false, true, false],
            [true, true, true],
            [false, true, false],
        ]
    } else {
        [[true; 3]; 3]
    };
    let ng = NaiveGrid::from_view(g);
    let bytes = bytes_of(g);
    bench
        .workload(&name, "gridbits")
        .case("gridbits", 1, || {
            let t = chamfer_transform(g, n, false).unwrap_or_else(|e| panic!("{e}"));
            t.distances()[side * side / 2] as u64
        })
        .case("gridbits+indices", 1, || {
            let t = chamfer_transform(g, n, true).unwrap_or_else(|e| panic!("{e}"));
            t.distances()[side * side / 2] as u64
        })
        .case("plain", 1, || {
            plain_chamfer(&bytes, side, side, taxicab)[side * side / 2] as u64
        })
        .case("naive", 1, || {
            two_pass_chamfer(&ng, rows).0[side * side / 2] as u64
        })
        .finish();
}

fn euclidean(bench: &mut Bench, g: &BitGrid, label: &str, side: usize) {
    let name = format!("edt {side}x{side} {label}");
    if !bench.wants(&name) {
        return;
    }
    let bytes = bytes_of(g);
    bench
        .workload(&name, "gridbits")
        .case("gridbits", 1, || {
            let s = Sampling::default();
            let t = euclidean_transform(g, s).unwrap_or_else(|e| panic!("{e}"));
            let d = t.distances(s).unwrap_or_else(|e| panic!("{e}"));
            black_box(d[side * side / 2]).to_bits()
        })
        .case("gridbits distances", 1, || {
            let d = euclidean_distances(g).unwrap_or_else(|e| panic!("{e}"));
            black_box(d.map_or(0.0, |d| d[side * side / 2])).to_bits()
        })
        .case("plain", 1, || {
            black_box(plain_euclidean(&bytes, side, side)[side * side / 2]).to_bits()
        })
        .finish();
}

/// Two raster passes over a padded `u32` copy of a byte image (nonzero: set), the chamfer
/// transform as a careful user writes it.
fn plain_chamfer(img: &[u8], w: usize, h: usize, taxicab: bool) -> Vec<u32> {
    const INF: u32 = u32::MAX / 2;
    let pw = w + 2;
    let mut d = vec![INF; pw * (h + 2)];
    for y in 0..h {
        for x in 0..w {
            if img[y * w + x] == 0 {
                d[(y + 1) * pw + x + 1] = 0;
            }
        }
    }
    for y in 1..=h {
        for x in 1..=w {
            let i = y * pw + x;
            let mut m = d[i].min(d[i - pw] + 1).min(d[i - 1] + 1);
            if !taxicab {
                m = m.min(d[i - pw - 1] + 1).min(d[i - pw + 1] + 1);
            }
            d[i] = m;
        }
    }
    for y in (1..=h).rev() {
        for x in (1..=w).rev() {
            let i = y * pw + x;
            let mut m = d[i].min(d[i + pw] + 1).min(d[i + 1] + 1);
            if !taxicab {
                m = m.min(d[i + pw + 1] + 1).min(d[i + pw - 1] + 1);
            }
            d[i] = m;
        }
    }
    d
}

/// Felzenszwalb and Huttenlocher's exact Euclidean transform over `f64`: squared column
/// distances, then the lower envelope of parabolas along each row.
fn plain_euclidean(img: &[u8], w: usize, h: usize) -> Vec<f64> {
    let inf = 1e20;
    let mut f: Vec<f64> = img
        .iter()
        .map(|&v| if v == 0 { 0.0 } else { inf })
        .collect();
    let mut col = vec![0.0; h];
    let mut out = vec![0.0; h];
    for x in 0..w {
        for y in 0..h {
            col[y] = f[y * w + x];
        }
        dt1(&col, &mut out);
        for y in 0..h {
            f[y * w + x] = out[y];
        }
    }
    let mut row = vec![0.0; w];
    let mut res = vec![0.0; w];
    for y in 0..h {
        row.copy_from_slice(&f[y * w..(y + 1) * w]);
        dt1(&row, &mut res);
        for (o, r) in f[y * w..(y + 1) * w].iter_mut().zip(&res) {
            *o = r.sqrt();
        }
    }
    f
}

/// One-dimensional squared distance transform of the sampled function `f`.
fn dt1(f: &[f64], d: &mut [f64]) {
    let n = f.len();
    let mut v = vec![0usize; n];
    let mut z = vec![0.0; n + 1];
    let mut k = 0;
    z[0] = f64::NEG_INFINITY;
    z[1] = f64::INFINITY;
    let meet = |q: usize, p: usize| {
        ((f[q] + (q * q) as f64) - (f[p] + (p * p) as f64)) / (2.0 * (q - p) as f64)
    };
    for q in 1..n {
        let mut s = meet(q, v[k]);
        while s <= z[k] {
            k -= 1;
            s = meet(q, v[k]);
        }
        k += 1;
        v[k] = q;
        z[k] = s;
        z[k + 1] = f64::INFINITY;
    }
    k = 0;
    for (q, dq) in d.iter_mut().enumerate() {
        while z[k + 1] < q as f64 {
            k += 1;
        }
        let p = v[k];
        *dq = (q as f64 - p as f64).powi(2) + f[p];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The baselines compute what gridbits computes.
    #[test]
    fn plain_versions_agree() {
        let mut rng = SplitMix::new(9);
        for p in [0.3, 0.9, 0.99] {
            let g = random_grid(&mut rng, 70, 40, p);
            let bytes = bytes_of(&g);
            let s = Sampling::default();
            let want = euclidean_transform(&g, s).unwrap().distances(s).unwrap();
            let got = plain_euclidean(&bytes, 70, 40);
            for (a, b) in got.iter().zip(&want) {
                assert!((a - b).abs() < 1e-9, "{a} {b}");
            }
            for (taxicab, n) in [
                (true, Neighbourhood::taxicab()),
                (false, Neighbourhood::chessboard()),
            ] {
                let want = chamfer_transform(&g, n, false).unwrap();
                let got = plain_chamfer(&bytes, 70, 40, taxicab);
                for y in 0..40 {
                    for x in 0..70 {
                        assert_eq!(got[(y + 1) * 72 + x + 1] as i32, want.get(x, y));
                    }
                }
            }
        }
    }
}
