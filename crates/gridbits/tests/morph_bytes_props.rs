//! The fused byte path of binary morphology (`algo::morph::morph_bytes`) against the per-cell
//! reference `naive::morph::steps`: byte images of any values (nonzero or above a threshold)
//! and row strides, one or two steps with either border, every footprint kind, many stripe
//! heights (stripe edges crossing the footprint's reach), sizes around the word boundaries;
//! the output's padding bytes untouched and its errors.

use crate::common::SplitMix;
use gridbits::algo::morph::{morph_bytes, morph_bytes_by_stripes, ByteOutput, Footprint, Step};
use gridbits::cpu::{self, Level};
use gridbits::grid::{ByteImage, ImageError};
use gridbits::naive::{morph as nm, NaiveGrid};

const SIZES: &[(usize, usize)] = &[
    (1, 1),
    (1, 9),
    (9, 1),
    (63, 7),
    (64, 12),
    (65, 21),
    (17, 40),
    (130, 9),
];
const DENSITIES: &[u32] = &[0, 30, 50, 70, 100];

/// The step lists: each single step, and openings and closings with each border pair.
pub(crate) fn step_lists() -> Vec<Vec<Step>> {
    let mut v = Vec::new();
    for b in [false, true] {
        v.push(vec![Step::Erode { border: b }]);
        v.push(vec![Step::Dilate { border: b }]);
        for c in [false, true] {
            v.push(vec![Step::Erode { border: b }, Step::Dilate { border: c }]);
            v.push(vec![Step::Dilate { border: b }, Step::Erode { border: c }]);
        }
    }
    v.push(Vec::new());
    v
}

fn footprints(rng: &mut SplitMix) -> Vec<Footprint> {
    let mut v = vec![
        Footprint::cross(),
        Footprint::square(3),
        Footprint::square(4),
        Footprint::rect(1, 5),
        Footprint::disk(2),
        Footprint::diamond(3),
        Footprint::square(3).with_center(0, 3),
        Footprint::rect(3, 2).with_center(-1, -2),
        // Past the word engine's reach: the general engine.
        Footprint::rect(1, 3).with_center(-64, 1),
        Footprint::rect(129, 1),
    ];
    for _ in 0..4 {
        let (w, h) = (1 + rng.below(5) as usize, 1 + rng.below(5) as usize);
        let cells: Vec<bool> = (0..w * h).map(|_| rng.percent(60)).collect();
        let fp = Footprint::try_from_cells(w, h, &cells).expect("a valid size");
        let cx = rng.below(w as u64 + 2) as isize - 1;
        let cy = rng.below(h as u64 + 2) as isize - 1;
        v.push(fp.with_center(cx, cy));
    }
    v
}

/// A `w x h` byte image with `pad` bytes after each row: set pixels are random bytes above
/// `threshold`, empty ones random bytes at most `threshold`; padding bytes random.
pub(crate) fn byte_image(
    rng: &mut SplitMix,
    w: usize,
    h: usize,
    pad: usize,
    pct: u32,
    threshold: u8,
) -> (Vec<u8>, NaiveGrid) {
    let stride = w + pad;
    let mut pixels: Vec<u8> = (0..stride * h).map(|_| rng.below(256) as u8).collect();
    let mut cells = NaiveGrid::new(w, h);
    for y in 0..h {
        for x in 0..w {
            let set = rng.percent(pct);
            let t = u64::from(threshold);
            pixels[y * stride + x] = if set {
                (t + 1 + rng.below(255 - t)) as u8
            } else {
                rng.below(t + 1) as u8
            };
            cells.set(x, y, set);
        }
    }
    (pixels, cells)
}

#[test]
fn morph_bytes_matches_naive_steps() {
    let mut rng = SplitMix::new(0x0031_00b1);
    let fps = footprints(&mut rng);
    let lists = step_lists();
    for &(w, h) in SIZES {
        for &pct in DENSITIES {
            let pad = rng.below(3) as usize;
            let threshold = [0u8, 100][rng.below(2) as usize];
            let (pixels, cells) = byte_image(&mut rng, w, h, pad, pct, threshold);
            let image = ByteImage::new(&pixels, w, h, w + pad, threshold);
            for fp in &fps {
                for steps in &lists {
                    let want = nm::steps(&cells, fp, steps);
                    for stripe in [0, 1, 2, 3, 5, 16] {
                        let out_pad = rng.below(2) as usize;
                        let os = w + out_pad;
                        let mut out = vec![77u8; os * h];
                        let dst = ByteOutput {
                            pixels: &mut out,
                            stride: os,
                            set: 255,
                            empty: 3,
                        };
                        morph_bytes_by_stripes(&image, fp, steps, dst, stripe).expect("fits");
                        for y in 0..h {
                            for x in 0..w {
                                let b = out[y * os + x];
                                let expect = if want.get(x, y) { 255 } else { 3 };
                                assert_eq!(
                                    b, expect,
                                    "({x}, {y}) of {w}x{h} {pct}% steps {steps:?} stripe {stripe} by\n{fp}centre {:?}",
                                    fp.center()
                                );
                            }
                            for x in w..os {
                                assert_eq!(out[y * os + x], 77, "padding byte written");
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn morph_bytes_default_stripes_on_a_tall_image() {
    // Taller than one default stripe at every footprint reach.
    let mut rng = SplitMix::new(0x0031_00b2);
    let (w, h) = (70, 9000);
    let (pixels, cells) = byte_image(&mut rng, w, h, 0, 50, 0);
    let image = ByteImage::new(&pixels, w, h, w, 0);
    for fp in [
        Footprint::square(3),
        Footprint::disk(7),
        Footprint::rect(3, 31),
    ] {
        for steps in [&Step::OPENING[..], &Step::CLOSING[..]] {
            let mut out = vec![0u8; w * h];
            let dst = ByteOutput {
                pixels: &mut out,
                stride: w,
                set: 1,
                empty: 0,
            };
            morph_bytes(&image, &fp, steps, dst).expect("fits");
            let mut want = nm::steps(&cells, &fp, &steps[..1]);
            want = nm::steps(&want, &fp, &steps[1..]);
            let got = NaiveGrid::from_fn(w, h, |x, y| out[y * w + x] == 1);
            assert!(got == want, "{steps:?} by\n{fp}");
        }
    }
}

#[test]
fn morph_bytes_is_the_same_at_every_cpu_level() {
    let mut rng = SplitMix::new(0x0031_00b3);
    let (w, h) = (200, 90);
    let (pixels, _) = byte_image(&mut rng, w, h, 0, 50, 0);
    let image = ByteImage::new(&pixels, w, h, w, 0);
    for fp in [
        Footprint::square(3),
        Footprint::disk(5),
        Footprint::rect(40, 2),
    ] {
        for steps in step_lists() {
            let run = || {
                let mut out = vec![0u8; w * h];
                let dst = ByteOutput {
                    pixels: &mut out,
                    stride: w,
                    set: 1,
                    empty: 0,
                };
                morph_bytes(&image, &fp, &steps, dst).expect("fits");
                out
            };
            let best = run();
            for level in [Level::Portable, Level::Avx2] {
                assert_eq!(
                    cpu::with_level(level, run),
                    best,
                    "{level:?} {steps:?} by\n{fp}"
                );
            }
        }
    }
}

#[test]
fn morph_bytes_refuses_a_short_or_narrow_output() {
    let pixels = [1u8; 12];
    let image = ByteImage::new(&pixels, 4, 3, 4, 0);
    let fp = Footprint::square(3);
    let mut out = [9u8; 11];
    let dst = ByteOutput {
        pixels: &mut out,
        stride: 4,
        set: 1,
        empty: 0,
    };
    let err = morph_bytes(&image, &fp, &Step::OPENING, dst).unwrap_err();
    assert!(matches!(err, ImageError::TooShort { .. }), "{err:?}");
    assert_eq!(out, [9u8; 11], "nothing written");
    let mut out = [9u8; 12];
    let dst = ByteOutput {
        pixels: &mut out,
        stride: 3,
        set: 1,
        empty: 0,
    };
    let err = morph_bytes(&image, &fp, &Step::OPENING, dst).unwrap_err();
    assert!(matches!(err, ImageError::Stride { .. }), "{err:?}");
}
