//! The two-value check folded into the morphology engines' packing
//! (`morph_bytes_and_values`, `grid::ByteValues`) against a plain scan of the image's bytes:
//! images of zeros alone, of 0 and one value, of 0 and two values, and of 0 and one value
//! with a third value at the first, the last or a middle byte of a row; widths 1, 63-65,
//! 127-129, padding bytes between rows holding other values (never folded); footprints of
//! each engine (`three_rows`: the 3x3 square and the cross; `rect_rows`: rectangles and
//! the 15x15 square; the stripes: a disk), one or two steps or none; every CPU level. The
//! result bytes are those of `morph_bytes`. The one-pass gradient
//! (`morph_bytes_gradient_and_values`) against `naive::morph::gradient`, with the same
//! values.

use crate::common::SplitMix;
use crate::morph_bytes_props::byte_image;
use gridbits::algo::morph::{
    morph_bytes, morph_bytes_and_values, morph_bytes_gradient_and_values, ByteOutput, Footprint,
    Step,
};
use gridbits::cpu::{self, Level};
use gridbits::grid::{ByteImage, ByteValues};
use gridbits::naive::morph as nm;
use std::collections::BTreeSet;

const WIDTHS: &[usize] = &[1, 2, 63, 64, 65, 127, 128, 129];
const HEIGHTS: &[usize] = &[1, 3, 6];

/// What a plain scan of the image's bytes (padding left out) says: the largest byte, the
/// smallest nonzero one (`0xFF` for none) and whether at most one nonzero value occurs.
fn plain_scan(pixels: &[u8], w: usize, h: usize, stride: usize) -> (u8, u8, bool) {
    let bytes = (0..h).flat_map(|y| pixels[y * stride..y * stride + w].iter().copied());
    let nonzero: BTreeSet<u8> = bytes.filter(|&b| b != 0).collect();
    let high = nonzero.last().copied().unwrap_or(0);
    let low = nonzero.first().copied().unwrap_or(0xff);
    (high, low, nonzero.len() <= 1)
}

/// The kinds of images: how the bytes are drawn.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Zeros,
    OneHigh,
    TwoHighs,
    ThirdFirst,
    ThirdLast,
    ThirdMiddle,
}

const KINDS: [Kind; 6] = [
    Kind::Zeros,
    Kind::OneHigh,
    Kind::TwoHighs,
    Kind::ThirdFirst,
    Kind::ThirdLast,
    Kind::ThirdMiddle,
];

/// A `w x h` image of `kind` with `pad` bytes after each row (random, any value).
fn image_of(rng: &mut SplitMix, kind: Kind, w: usize, h: usize, pad: usize) -> Vec<u8> {
    let stride = w + pad;
    let hi = 1 + rng.below(255) as u8;
    let other = loop {
        let v = 1 + rng.below(255) as u8;
        if v != hi {
            break v;
        }
    };
    // Padding: random bytes, so that a kernel folding them would see a third value.
    let mut pixels: Vec<u8> = (0..stride * h).map(|_| rng.below(256) as u8).collect();
    for y in 0..h {
        for x in 0..w {
            let set = rng.below(2) == 1;
            pixels[y * stride + x] = match kind {
                Kind::Zeros => 0,
                Kind::TwoHighs if set && rng.below(2) == 1 => other,
                _ if set => hi,
                _ => 0,
            };
        }
    }
    let y = rng.below(h as u64) as usize;
    let x = match kind {
        Kind::ThirdFirst => Some(0),
        Kind::ThirdLast => Some(w - 1),
        Kind::ThirdMiddle => Some(w / 2),
        _ => None,
    };
    if let Some(x) = x {
        pixels[y * stride + x] = other;
    }
    pixels
}

/// Footprints that take each engine of `morph_bytes`.
fn footprints() -> Vec<Footprint> {
    vec![
        Footprint::square(3),
        Footprint::cross(),
        Footprint::square(15),
        Footprint::rect(5, 2),
        Footprint::disk(2),
    ]
}

fn step_lists() -> Vec<Vec<Step>> {
    vec![
        vec![Step::Erode { border: true }],
        vec![Step::Dilate { border: false }],
        vec![Step::Dilate { border: false }, Step::Erode { border: true }],
        vec![Step::Erode { border: false }, Step::Dilate { border: true }],
        Vec::new(),
    ]
}

/// Runs both forms on `image`, checks the values against the plain scan and the bytes
/// against `morph_bytes`.
fn check(image: &ByteImage<'_>, fp: &Footprint, steps: &[Step], what: &str) {
    let (w, h) = image.size();
    let (or, and, two) = plain_scan(image.pixels(), w, h, image.stride());
    let mut want = vec![9u8; w * h];
    let dst = ByteOutput {
        pixels: &mut want,
        stride: w,
        set: 200,
        empty: 0,
    };
    morph_bytes(image, fp, steps, dst).expect("fits");
    let mut got = vec![9u8; w * h];
    let dst = ByteOutput {
        pixels: &mut got,
        stride: w,
        set: 200,
        empty: 0,
    };
    let values = morph_bytes_and_values(image, fp, steps, dst).expect("fits");
    let ctx = || {
        format!(
            "{w}x{h} {what} by {}x{} steps {steps:?}",
            fp.width(),
            fp.height()
        )
    };
    assert_eq!(
        (values.high(), values.low_nonzero(), values.two_valued()),
        (or, and, two),
        "{}",
        ctx()
    );
    assert_eq!(got, want, "{}", ctx());
}

#[test]
fn fused_check_matches_a_plain_scan_at_every_level() {
    let mut rng = SplitMix::new(0x0031_cf01);
    for &w in WIDTHS {
        for &h in HEIGHTS {
            for kind in KINDS {
                let pad = rng.below(3) as usize;
                let threshold = [0u8, 100][rng.below(2) as usize];
                let pixels = image_of(&mut rng, kind, w, h, pad);
                let image = ByteImage::new(&pixels, w, h, w + pad, threshold);
                for fp in footprints() {
                    for steps in step_lists() {
                        for level in Level::ALL {
                            cpu::with_level(level, || {
                                check(&image, &fp, &steps, &format!("{kind:?} {level:?}"));
                            });
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn a_third_value_anywhere_in_a_row_is_seen() {
    // Every position of one row of 129 (three words, the last one byte), each engine.
    let (w, h) = (129, 3);
    let mut pixels = vec![0u8; w * h];
    for x in (0..w).step_by(2) {
        pixels[w + x] = 255;
    }
    for x in 0..w {
        let mut p = pixels.clone();
        p[w + x] = 17;
        let image = ByteImage::new(&p, w, h, w, 0);
        for fp in [
            Footprint::square(3),
            Footprint::square(15),
            Footprint::disk(2),
        ] {
            for level in Level::ALL {
                cpu::with_level(level, || {
                    let mut out = vec![0u8; w * h];
                    let dst = ByteOutput {
                        pixels: &mut out,
                        stride: w,
                        set: 255,
                        empty: 0,
                    };
                    let steps = [Step::Erode { border: true }];
                    let v = morph_bytes_and_values(&image, &fp, &steps, dst).expect("fits");
                    assert!(!v.two_valued(), "x {x} {level:?}");
                    assert_eq!((v.high(), v.low_nonzero()), (255, 17), "x {x} {level:?}");
                });
            }
        }
    }
}

#[test]
fn the_extreme_values_fold_exactly() {
    // The values next to the folds' sentinels: 1 (the AVX2 fold keeps each byte less one)
    // and 255 (the "nothing nonzero" mark), alone and with each other, at every CPU level.
    let (w, h) = (129, 4);
    for (hi, other) in [
        (1u8, None),
        (255, None),
        (1, Some(255u8)),
        (255, Some(1)),
        (1, Some(2)),
        (255, Some(254)),
    ] {
        let mut p = vec![0u8; w * h];
        for (i, b) in p.iter_mut().enumerate() {
            if i % 3 == 0 {
                *b = hi;
            }
        }
        if let Some(o) = other {
            p[2 * w + 70] = o;
        }
        let image = ByteImage::new(&p, w, h, w, 0);
        for fp in [Footprint::square(3), Footprint::square(15)] {
            for level in Level::ALL {
                cpu::with_level(level, || {
                    check(
                        &image,
                        &fp,
                        &[Step::Erode { border: true }],
                        &format!("{hi} {other:?} {level:?}"),
                    );
                });
            }
        }
    }
}

#[test]
fn byte_values_merge_and_fold_as_a_scan() {
    let mut rng = SplitMix::new(0x0031_cf02);
    for _ in 0..200 {
        let n = rng.below(20) as usize;
        let bytes: Vec<u8> = (0..n)
            .map(|_| [0u8, 255, rng.below(256) as u8][rng.below(3) as usize])
            .collect();
        let cut = rng.below(n as u64 + 1) as usize;
        let (a, b) = bytes.split_at(cut);
        let whole = ByteValues::NONE.with_bytes(&bytes);
        let merged = ByteValues::NONE
            .with_bytes(a)
            .merge(ByteValues::NONE.with_bytes(b));
        assert_eq!(whole, merged);
        let (or, and, two) = plain_scan(&bytes, n, 1, n);
        assert_eq!(
            (whole.high(), whole.low_nonzero(), whole.two_valued()),
            (or, and, two)
        );
    }
}

#[test]
fn gradient_matches_naive_at_every_level() {
    let mut rng = SplitMix::new(0x0031_cf03);
    let fps = [
        Footprint::square(3),
        Footprint::cross(),
        Footprint::rect(3, 1),
        Footprint::rect(1, 3),
        Footprint::square(3).with_center(0, 0),
        Footprint::square(5),
        Footprint::disk(2),
    ];
    for &w in WIDTHS {
        for &h in &[1usize, 2, 3, 5] {
            for pct in [0u32, 50, 100] {
                let pad = rng.below(3) as usize;
                let threshold = [0u8, 100][rng.below(2) as usize];
                let (pixels, cells) = byte_image(&mut rng, w, h, pad, pct, threshold);
                let image = ByteImage::new(&pixels, w, h, w + pad, threshold);
                let (or, and, two) = plain_scan(&pixels, w, h, w + pad);
                for fp in &fps {
                    for (db, eb) in [(false, true), (false, false), (true, true), (true, false)] {
                        let want = nm::gradient(&cells, fp, db, eb);
                        for level in Level::ALL {
                            cpu::with_level(level, || {
                                let os = w + 1;
                                let mut out = vec![77u8; os * h];
                                let dst = ByteOutput {
                                    pixels: &mut out,
                                    stride: os,
                                    set: 255,
                                    empty: 3,
                                };
                                let v = morph_bytes_gradient_and_values(&image, fp, db, eb, dst)
                                    .expect("fits");
                                let ctx = format!(
                                    "{w}x{h} {pct}% by {}x{} borders {db} {eb} {level:?}",
                                    fp.width(),
                                    fp.height()
                                );
                                assert_eq!(
                                    (v.high(), v.low_nonzero(), v.two_valued()),
                                    (or, and, two),
                                    "{ctx}"
                                );
                                for y in 0..h {
                                    for x in 0..w {
                                        let e = if want.get(x, y) { 255 } else { 3 };
                                        assert_eq!(out[y * os + x], e, "({x}, {y}) {ctx}");
                                    }
                                    assert_eq!(out[y * os + w], 77, "padding written, {ctx}");
                                }
                            });
                        }
                    }
                }
            }
        }
    }
}
