//! The one-pass engine of `morph_bytes` for footprints within one cell of their centre
//! (`algo/morph/three_rows.rs`: a ring of three packed rows per step) against the per-cell
//! reference `naive::morph::steps`: every pattern of the 3x3 box (each centre that keeps it
//! within one cell), one to three steps with either border, the edge shapes (widths 1,
//! 63-65, 127-129; heights 1-3; empty, full, random densities), at every CPU level.

use crate::common::{morph_check, SplitMix};
use crate::morph_bytes_props::{byte_image, step_lists};
use gridbits::algo::morph::{morph_bytes, ByteOutput, Footprint, Step};
use gridbits::cpu::{self, Level};
use gridbits::grid::ByteImage;

const WIDTHS: &[usize] = &[1, 2, 63, 64, 65, 127, 128, 129];
const HEIGHTS: &[usize] = &[1, 2, 3, 4, 7];
const DENSITIES: &[u32] = &[0, 50, 100];

/// The 3x3 square, the cross, the footprints of one row or column, and the 3x3 box with
/// its corner cells as centre (offsets 0..2: within one cell only for erosion's or
/// dilation's own side, so the engine must refuse where the reflection reaches out).
fn footprints() -> Vec<Footprint> {
    vec![
        Footprint::square(3),
        Footprint::cross(),
        Footprint::rect(3, 1),
        Footprint::rect(1, 3),
        Footprint::rect(2, 2),
        Footprint::rect(2, 2).with_center(0, 0),
        Footprint::rect(1, 1),
        Footprint::square(3).with_center(0, 0),
        Footprint::rect(2, 3).with_center(1, 2),
    ]
}

#[test]
fn three_rows_matches_naive_on_edge_shapes_at_every_level() {
    let mut rng = SplitMix::new(0x0031_3a01);
    let mut lists = step_lists();
    lists.push(vec![
        Step::Erode { border: false },
        Step::Dilate { border: true },
        Step::Erode { border: true },
    ]);
    for &w in WIDTHS {
        for &h in HEIGHTS {
            for &pct in DENSITIES {
                let threshold = [0u8, 100][rng.below(2) as usize];
                let pad = rng.below(3) as usize;
                let (pixels, cells) = byte_image(&mut rng, w, h, pad, pct, threshold);
                let image = ByteImage::new(&pixels, w, h, w + pad, threshold);
                for fp in footprints() {
                    for steps in &lists {
                        for level in Level::ALL {
                            cpu::with_level(level, || {
                                morph_check(
                                    &image,
                                    &cells,
                                    &fp,
                                    steps,
                                    &format!("{pct}% {level:?}"),
                                );
                            });
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn three_rows_matches_naive_for_every_pattern_of_the_box() {
    // All 511 non-empty patterns of the 3x3 box centred, on random images whose widths
    // cross a word boundary, each step kind and border.
    let mut rng = SplitMix::new(0x0031_3a02);
    let lists = [
        vec![Step::Erode { border: false }],
        vec![Step::Erode { border: true }],
        vec![Step::Dilate { border: false }],
        vec![Step::Dilate { border: true }],
        vec![Step::Dilate { border: false }, Step::Erode { border: true }],
    ];
    for pattern in 1u32..512 {
        let fp = Footprint::try_from_fn(3, 3, |x, y| pattern >> (3 * y + x) & 1 != 0)
            .expect("a valid size");
        let (w, h) = ([65, 129, 7][pattern as usize % 3], 1 + pattern as usize % 5);
        let pct = [30, 50, 70][rng.below(3) as usize];
        let (pixels, cells) = byte_image(&mut rng, w, h, 0, pct, 0);
        let image = ByteImage::new(&pixels, w, h, w, 0);
        for steps in &lists {
            morph_check(&image, &cells, &fp, steps, &format!("pattern {pattern:#x}"));
        }
    }
}

#[test]
fn three_rows_on_a_large_image_equals_the_stripes() {
    // 2048-wide rows (32 words), the size of the benchmarks, against the stripe engine.
    let mut rng = SplitMix::new(0x0031_3a03);
    let (w, h) = (2048 + 5, 70);
    let (pixels, _) = byte_image(&mut rng, w, h, 3, 50, 0);
    let image = ByteImage::new(&pixels, w, h, w + 3, 0);
    for fp in [Footprint::square(3), Footprint::cross()] {
        for steps in step_lists() {
            let run = |stripes: bool| {
                let mut out = vec![0u8; w * h];
                let dst = ByteOutput {
                    pixels: &mut out,
                    stride: w,
                    set: 1,
                    empty: 0,
                };
                if stripes {
                    gridbits::algo::morph::morph_bytes_by_stripes(&image, &fp, &steps, dst, 0)
                } else {
                    morph_bytes(&image, &fp, &steps, dst)
                }
                .expect("fits");
                out
            };
            assert!(run(false) == run(true), "{steps:?} by\n{fp}");
        }
    }
}

#[test]
fn one_step_matches_naive_for_every_pattern_at_every_level() {
    // One step (the engine's own loop with AVX-512: a ring of four rows, a row packed and
    // a row written per turn) by each of the 511 patterns of the 3x3 box, at every CPU
    // level, on the heights where the turns overlap (1-3 rows) and past them, widths at
    // and around the word edges, padded rows and a threshold.
    let mut rng = SplitMix::new(0x0031_3a04);
    let steps = [
        [Step::Erode { border: false }],
        [Step::Erode { border: true }],
        [Step::Dilate { border: false }],
        [Step::Dilate { border: true }],
    ];
    for pattern in 1u32..512 {
        let fp = Footprint::try_from_fn(3, 3, |x, y| pattern >> (3 * y + x) & 1 != 0)
            .expect("a valid size");
        let w = [1, 63, 64, 65, 127, 128, 129][pattern as usize % 7];
        let h = 1 + pattern as usize % 6;
        let pct = [0, 30, 50, 70, 100][rng.below(5) as usize];
        let threshold = [0u8, 100][rng.below(2) as usize];
        let pad = rng.below(3) as usize;
        let (pixels, cells) = byte_image(&mut rng, w, h, pad, pct, threshold);
        let image = ByteImage::new(&pixels, w, h, w + pad, threshold);
        for step in &steps {
            for level in Level::ALL {
                cpu::with_level(level, || {
                    morph_check(
                        &image,
                        &cells,
                        &fp,
                        step,
                        &format!("pattern {pattern:#x} {level:?}"),
                    );
                });
            }
        }
    }
}
