//! Bench workloads of the fused byte path of binary morphology
//! (`gridbits::algo::morph::morph_bytes`, what the Python drop-ins run): erosion, dilation,
//! opening and closing of 2048x2048 byte images (noise 30/50/70% and blobs, 0/1 bytes) into a
//! byte image, by 3x3 and 15x15 squares and disks of radius 1 and 7, against the same work
//! through whole grids (`BitGrid::from_bytes`, `erosion_with` / `dilation_with` per step,
//! `write_bytes`), against the stripe engine (`morph_bytes_by_stripes`, which `morph_bytes`
//! runs for footprints past one cell from their centre, and ran for all before the one-pass
//! engine of 3x3 footprints) and against the pack and unpack alone.

use crate::Bench;
use gridbits::algo::morph::{
    dilation_with, erosion_with, morph_bytes, morph_bytes_by_stripes, ByteOutput, Footprint,
    MorphOptions, Step,
};
use gridbits::grid::ByteImage;
use gridbits::BitGrid;
use gridbits_testkit::SplitMix;

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    let size = if bench.quick() { 1024 } else { 2048 };
    let (images, footprints) = crate::morph::inputs(rng, size);
    let ops: [(&str, &[Step]); 4] = [
        ("erosion", &[Step::Erode { border: false }]),
        ("dilation", &[Step::Dilate { border: false }]),
        ("opening", &Step::OPENING),
        ("closing", &Step::CLOSING),
    ];
    for (image, grid) in &images {
        for (fp_name, fp) in &footprints {
            for (op, steps) in ops {
                let name = format!("morph_bytes {op} {image} {fp_name} {size}x{size}");
                if bench.wants(&name) {
                    workload(bench, &name, grid, fp, steps);
                }
            }
        }
    }
}

/// The fused path against whole grids and against the pack and unpack alone.
fn workload(bench: &mut Bench, name: &str, grid: &BitGrid, fp: &Footprint, steps: &[Step]) {
    let (w, h) = grid.size();
    let mut bytes = vec![0u8; w * h];
    if grid.write_bytes(&mut bytes, w, 1, 0).is_err() {
        return;
    }
    let Ok(image) = ByteImage::try_new(&bytes, w, h, w, 0) else {
        return;
    };
    let mut out = vec![0u8; w * h];
    let count = |out: &[u8]| out.iter().map(|&b| u64::from(b)).sum::<u64>();
    let fused = |out: &mut Vec<u8>| {
        let dst = ByteOutput {
            pixels: out,
            stride: w,
            set: 1,
            empty: 0,
        };
        morph_bytes(&image, fp, steps, dst).map_or(0, |()| 1)
    };
    let stripes = |out: &mut Vec<u8>| {
        let dst = ByteOutput {
            pixels: out,
            stride: w,
            set: 1,
            empty: 0,
        };
        morph_bytes_by_stripes(&image, fp, steps, dst, 0).map_or(0, |()| 1)
    };
    let whole = |out: &mut Vec<u8>| {
        let Ok(mut g) = BitGrid::from_bytes(&bytes, w, h, w, 0) else {
            return 0;
        };
        for s in steps {
            g = match *s {
                Step::Erode { border } => {
                    let opts = MorphOptions {
                        border,
                        ..MorphOptions::default()
                    };
                    erosion_with(&g, fp, &opts)
                }
                Step::Dilate { border } => {
                    let opts = MorphOptions {
                        border,
                        ..MorphOptions::default()
                    };
                    dilation_with(&g, fp, &opts)
                }
            };
        }
        g.write_bytes(out, w, 1, 0).map_or(0, |()| 1)
    };
    let pack_unpack = |out: &mut Vec<u8>| {
        let Ok(g) = BitGrid::from_bytes(&bytes, w, h, w, 0) else {
            return 0;
        };
        g.write_bytes(out, w, 1, 0).map_or(0, |()| 1)
    };
    let mut a = out.clone();
    let mut b = out.clone();
    let mut c = out.clone();
    bench
        .workload(name, "fused")
        .warm_up()
        .case("fused", 1, || fused(&mut out) + count(&out[..64]))
        .case("stripes", 1, || stripes(&mut c) + count(&c[..64]))
        .case("whole grids", 1, || whole(&mut a) + count(&a[..64]))
        .case("pack and unpack alone", 1, || {
            pack_unpack(&mut b) + count(&b[..64])
        })
        .finish();
}
