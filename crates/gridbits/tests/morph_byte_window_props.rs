//! The byte engine of the 3x3 square and the cross (`algo::morph::byte_window`, which
//! `morph_bytes_and_values` takes for one erosion or dilation by them) against the per-cell
//! reference `naive::morph`: widths 1, 2, 3, 63-65, 127-129, heights 1-4 and 7, densities
//! from empty to full, thresholds 0 and random ones (the bytes drawn on both sides of the
//! threshold), both borders, any `set` / `empty` bytes, padding bytes between rows, every
//! CPU level forced. The values it folds against a plain scan, and a third value at the
//! first, a middle or the last byte of the image making the image fail the two-value
//! check.

use crate::common::SplitMix;
use gridbits::algo::morph::{morph_bytes_and_values, ByteOutput, Footprint, Step};
use gridbits::cpu::{self, Level};
use gridbits::grid::{ByteImage, ByteValues};
use gridbits::naive::{morph as nm, NaiveGrid};

const WIDTHS: &[usize] = &[1, 2, 3, 63, 64, 65, 127, 128, 129];
const HEIGHTS: &[usize] = &[1, 2, 3, 4, 7];
const PERCENTS: &[u64] = &[0, 10, 50, 90, 100];

/// A `w x h` image with `pad` random bytes after each row: set cells (`percent` of them)
/// are random bytes above `t`, the others random bytes up to `t` (or `hi` and 0 when
/// `two`).
fn image(
    rng: &mut SplitMix,
    w: usize,
    h: usize,
    pad: usize,
    t: u8,
    percent: u64,
    two: bool,
) -> Vec<u8> {
    let stride = w + pad;
    let hi = t + 1 + rng.below(u64::from(255 - t)) as u8;
    let mut pixels: Vec<u8> = (0..stride * h).map(|_| rng.below(256) as u8).collect();
    for y in 0..h {
        for x in 0..w {
            let set = rng.below(100) < percent;
            pixels[y * stride + x] = match (set, two) {
                (true, true) => hi,
                (false, true) => 0,
                (true, false) => t + 1 + rng.below(u64::from(255 - t)) as u8,
                (false, false) => rng.below(u64::from(t) + 1) as u8,
            };
        }
    }
    pixels
}

/// The largest byte and the smallest nonzero one of the image (padding left out).
fn plain_values(pixels: &[u8], w: usize, h: usize, stride: usize) -> ByteValues {
    (0..h).fold(ByteValues::NONE, |v, y| {
        v.with_bytes(&pixels[y * stride..y * stride + w])
    })
}

/// Checks one call against the reference at the current CPU level.
#[allow(clippy::too_many_arguments)]
fn check_one(
    pixels: &[u8],
    w: usize,
    h: usize,
    stride: usize,
    t: u8,
    fp: &Footprint,
    step: Step,
    what: &str,
) {
    let image = ByteImage::new(pixels, w, h, stride, t);
    let grid = NaiveGrid::from_fn(w, h, |x, y| pixels[y * stride + x] > t);
    let want = match step {
        Step::Erode { border } => nm::erosion(&grid, fp, border),
        Step::Dilate { border } => nm::dilation(&grid, fp, border),
    };
    let ostride = w + 3;
    let mut out = vec![77u8; ostride * h];
    let dst = ByteOutput {
        pixels: &mut out,
        stride: ostride,
        set: 200,
        empty: 9,
    };
    let values = morph_bytes_and_values(&image, fp, &[step], dst).unwrap();
    assert_eq!(values, plain_values(pixels, w, h, stride), "{what}: values");
    for y in 0..h {
        for x in 0..w {
            let b = out[y * ostride + x];
            let expected = if want.get(x, y) { 200 } else { 9 };
            assert_eq!(b, expected, "{what}: cell ({x}, {y})");
        }
        assert_eq!(
            &out[y * ostride + w..(y + 1) * ostride],
            &[77, 77, 77],
            "{what}: padding"
        );
    }
}

#[test]
fn byte_window_matches_naive_at_every_level() {
    let mut rng = SplitMix::new(0x5eed_c3055);
    let fps = [
        ("square", Footprint::square(3)),
        ("cross", Footprint::cross()),
    ];
    for level in Level::ALL {
        cpu::with_level(level, || {
            for &w in WIDTHS {
                for &h in HEIGHTS {
                    for &percent in PERCENTS {
                        for (name, fp) in &fps {
                            for step in [
                                Step::Erode { border: false },
                                Step::Erode { border: true },
                                Step::Dilate { border: false },
                                Step::Dilate { border: true },
                            ] {
                                let t = if rng.below(2) == 0 {
                                    0
                                } else {
                                    rng.below(255) as u8
                                };
                                let two = rng.below(2) == 0;
                                let pad = rng.below(3) as usize;
                                let pixels = image(&mut rng, w, h, pad, t, percent, two);
                                let what = format!(
                                    "{} {name} {w}x{h} {percent}% t={t} {step:?}",
                                    level.name()
                                );
                                check_one(&pixels, w, h, w + pad, t, fp, step, &what);
                            }
                        }
                    }
                }
            }
        });
    }
}

#[test]
fn byte_window_gives_up_on_a_third_value() {
    let mut rng = SplitMix::new(0x0007_431d);
    let fps = [Footprint::square(3), Footprint::cross()];
    for level in Level::ALL {
        cpu::with_level(level, || {
            for &w in WIDTHS {
                for &h in HEIGHTS {
                    let pixels = image(&mut rng, w, h, 0, 0, 50, true);
                    let hi = pixels.iter().copied().max().unwrap_or(0).max(2);
                    let n = w * h;
                    for at in [0, n / 2, n - 1] {
                        let mut p = pixels.clone();
                        for b in &mut p {
                            if *b != 0 {
                                *b = hi;
                            }
                        }
                        p[at] = hi - 1;
                        for fp in &fps {
                            for step in
                                [Step::Erode { border: true }, Step::Dilate { border: false }]
                            {
                                let what = format!("{} {w}x{h} third at {at}", level.name());
                                check_one(&p, w, h, w, 0, fp, step, &what);
                                let image = ByteImage::new(&p, w, h, w, 0);
                                let mut out = vec![0u8; n];
                                let dst = ByteOutput {
                                    pixels: &mut out,
                                    stride: w,
                                    set: hi,
                                    empty: 0,
                                };
                                let v = morph_bytes_and_values(&image, fp, &[step], dst).unwrap();
                                let others = p.contains(&hi);
                                assert_eq!(v.two_valued(), !others, "{what}");
                            }
                        }
                    }
                }
            }
        });
    }
}
