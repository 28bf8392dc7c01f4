//! The one-pass engine of `morph_bytes` for full rectangles (`algo/morph/rect_rows.rs`:
//! runs by doubling shifts along each packed row, the vertical window by doubling over a
//! ring of rows) against the per-cell reference `naive::morph::steps`: rectangles 1x1 to
//! 17x17 (odd, even, 1xN, Nx1) with many centres, one to three steps with either border,
//! the edge shapes (widths 1, 63-65, 127-129; heights 1-3; empty, full, random densities),
//! at every CPU level.

use crate::common::{morph_check, SplitMix};
use crate::morph_bytes_props::{byte_image, step_lists};
use gridbits::algo::morph::{morph_bytes, morph_bytes_by_stripes, ByteOutput, Footprint, Step};
use gridbits::cpu::{self, Level};
use gridbits::grid::ByteImage;

/// A rectangle of `w x h` with its default centre, or a random one (inside the pattern or
/// up to a few cells out of it, on either side).
fn rect(rng: &mut SplitMix, w: usize, h: usize, centred: bool) -> Footprint {
    let fp = Footprint::rect(w, h);
    if centred {
        return fp;
    }
    let cx = rng.below(w as u64 + 6) as isize - 3;
    let cy = rng.below(h as u64 + 6) as isize - 3;
    fp.with_center(cx, cy)
}

#[test]
fn rect_rows_matches_naive_on_every_rectangle_to_17() {
    // Every rectangle 1x1 to 17x17, centred and with a random centre, on images whose
    // widths and heights cross the word and window edges.
    let mut rng = SplitMix::new(0x0031_5a01);
    let lists = step_lists();
    for fw in 1..=17 {
        for fh in 1..=17 {
            for centred in [true, false] {
                let fp = rect(&mut rng, fw, fh, centred);
                let w = [1, 63, 64, 65, 127, 128, 129, 20][rng.below(8) as usize];
                let h = [1, 2, 3, 5, 16, 30][rng.below(6) as usize];
                let pct = [0, 30, 50, 70, 90, 100][rng.below(6) as usize];
                let (pixels, cells) = byte_image(&mut rng, w, h, 0, pct, 0);
                let image = ByteImage::new(&pixels, w, h, w, 0);
                let steps = &lists[rng.below(lists.len() as u64) as usize];
                morph_check(&image, &cells, &fp, steps, &format!("{pct}%"));
            }
        }
    }
}

#[test]
fn rect_rows_matches_naive_on_edge_shapes_at_every_level() {
    let mut rng = SplitMix::new(0x0031_5a02);
    let mut lists = step_lists();
    lists.push(vec![
        Step::Erode { border: false },
        Step::Dilate { border: true },
        Step::Erode { border: true },
    ]);
    let fps = [
        Footprint::square(15),
        Footprint::square(4),
        Footprint::rect(1, 9),
        Footprint::rect(9, 1),
        Footprint::rect(16, 5).with_center(0, 4),
        Footprint::rect(7, 6).with_center(9, -2),
        Footprint::rect(64, 3),
        Footprint::rect(3, 2).with_center(-60, 1),
        Footprint::rect(17, 17),
    ];
    for w in [1, 2, 63, 64, 65, 127, 128, 129] {
        for h in [1, 2, 3, 4, 19] {
            for pct in [0, 50, 100] {
                let threshold = [0u8, 100][rng.below(2) as usize];
                let pad = rng.below(3) as usize;
                let (pixels, cells) = byte_image(&mut rng, w, h, pad, pct, threshold);
                let image = ByteImage::new(&pixels, w, h, w + pad, threshold);
                for fp in &fps {
                    let steps = &lists[rng.below(lists.len() as u64) as usize];
                    for level in Level::ALL {
                        cpu::with_level(level, || {
                            morph_check(&image, &cells, fp, steps, &format!("{pct}% {level:?}"));
                        });
                    }
                }
            }
        }
    }
}

#[test]
fn rect_rows_on_a_large_image_equals_the_stripes() {
    // 2048-wide rows (32 words), the size of the benchmarks, against the stripe engine.
    let mut rng = SplitMix::new(0x0031_5a03);
    let (w, h) = (2048 + 5, 70);
    let (pixels, _) = byte_image(&mut rng, w, h, 3, 50, 0);
    let image = ByteImage::new(&pixels, w, h, w + 3, 0);
    for fp in [
        Footprint::square(15),
        Footprint::rect(31, 7).with_center(2, 1),
    ] {
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
                    morph_bytes_by_stripes(&image, &fp, &steps, dst, 0)
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
