//! Byte images in and out: every byte kernel (portable, SSE2, AVX2, AVX-512, those this CPU
//! runs) against the per-pixel definition, on widths 1..=200 and the word edges, strides
//! longer than a row, unaligned starts and the boundary thresholds; `numpy.packbits` rows;
//! generic `from_slice`; the `i32` writers of labels and distance maps against the naive
//! oracle; error cases.

use crate::common::*;
use gridbits::algo::distance::distance_map;
use gridbits::algo::label::label;
use gridbits::grid::ByteKernel;
use gridbits::naive::{components as nc, fill as nf, NaiveGrid};
use gridbits::{BitGrid, ImageError, Moves};
use proptest::prelude::*;

const THRESHOLDS: [u8; 6] = [0, 1, 127, 128, 254, 255];

/// The kernels this CPU runs (all four on an AVX-512 machine).
fn kernels() -> Vec<ByteKernel> {
    ByteKernel::ALL
        .into_iter()
        .filter(|k| k.is_available())
        .collect()
}

/// A byte that often sits at the threshold or next to it, or at the ends of the range.
fn pixel(rng: &mut SplitMix, t: u8) -> u8 {
    match rng.below(8) {
        0 => t,
        1 => t.wrapping_add(1),
        2 => t.wrapping_sub(1),
        3 => 0,
        4 => 255,
        5 => 127 + rng.below(2) as u8,
        _ => rng.next() as u8,
    }
}

/// A buffer holding `h` rows of `w` at `stride` from byte `off` (and not one byte more), the
/// bytes before `off` and in the padding random too.
fn image(w: usize, h: usize, stride: usize, off: usize, t: u8, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix(seed);
    let len = off + if h == 0 { 0 } else { (h - 1) * stride + w };
    (0..len).map(|_| pixel(&mut rng, t)).collect()
}

/// The per-pixel definition.
fn expected(px: &[u8], w: usize, h: usize, stride: usize, t: u8) -> NaiveGrid {
    NaiveGrid::from_fn(w, h, |x, y| px[y * stride + x] > t)
}

/// Packs with every kernel and checks each against the definition; then unpacks with every
/// kernel into a padded, pre-filled buffer at an unaligned start and checks each byte.
fn check_image(w: usize, h: usize, pad: usize, off: usize, t: u8, seed: u64) {
    let stride = w + pad;
    let buf = image(w, h, stride, off, t, seed);
    let px = &buf[off..];
    let want = expected(px, w, h, stride, t);
    for k in kernels() {
        let what = format!("{k:?} from_bytes {w}x{h} stride {stride} offset {off} t {t}");
        let g = BitGrid::from_bytes_with(k, px, w, h, stride, t).unwrap();
        check_grid(&g, &want, &what);
    }
    let g = BitGrid::from_bytes(px, w, h, stride, t).unwrap();
    check_grid(&g, &want, "from_bytes (best kernel)");
    let (set, empty) = (t.wrapping_add(7), t ^ 0x5a);
    for k in kernels() {
        let mut out = vec![0xa5u8; buf.len() + 3];
        g.write_bytes_with(k, &mut out[off..], stride, set, empty)
            .unwrap();
        for (i, &b) in out.iter().enumerate() {
            let (y, x) = (i.wrapping_sub(off) / stride, i.wrapping_sub(off) % stride);
            let want = if i >= off && y < h && x < w {
                if g.get(x, y) {
                    set
                } else {
                    empty
                }
            } else {
                0xa5
            };
            assert_eq!(
                b, want,
                "{k:?} write_bytes {w}x{h} stride {stride} byte {i}"
            );
        }
    }
}

#[test]
fn every_kernel_matches_the_definition_on_widths_1_to_200() {
    let mut rng = SplitMix(11);
    for w in 1..=200 {
        for h in [1, 3] {
            let pad = rng.below(70) as usize;
            let off = rng.below(64) as usize;
            let t = THRESHOLDS[rng.below(6) as usize];
            check_image(w, h, pad, off, t, rng.next());
        }
    }
}

#[test]
fn every_kernel_matches_the_definition_at_word_edges_and_thresholds() {
    let mut rng = SplitMix(12);
    let sizes = [
        (63, 5),
        (64, 5),
        (65, 5),
        (127, 4),
        (128, 4),
        (129, 4),
        (64, 1),
        (1, 64),
        (128, 1),
        (1, 128),
        (8, 8),
        (16, 8),
        (1, 1),
        (1, 300),
        (300, 2),
        (1000, 3),
    ];
    for (w, h) in sizes {
        for t in THRESHOLDS {
            for pad in [0, 1, 63, 64] {
                check_image(w, h, pad, rng.below(64) as usize, t, rng.next());
            }
        }
    }
}

#[test]
fn random_images_through_every_kernel() {
    let sizes = prop_oneof![
        (1..=200usize, 1..=9usize),
        (1..=3usize, 1..=200usize),
        proptest::sample::select(vec![
            (63, 7),
            (64, 7),
            (65, 7),
            (129, 3),
            (512, 2),
            (2049, 2)
        ]),
    ];
    let strategy = (
        sizes,
        0..130usize,
        0..64usize,
        prop_oneof![proptest::sample::select(THRESHOLDS.to_vec()), any::<u8>()],
        any::<u64>(),
    );
    check(config(64), strategy.boxed(), &|(
        (w, h),
        pad,
        off,
        t,
        seed,
    )| {
        check_image(w, h, pad, off, t, seed);
        Ok(())
    });
}

#[test]
fn empty_and_full_images() {
    for (w, h) in [(1, 1), (64, 1), (65, 2), (200, 3), (128, 1), (8, 16)] {
        for k in kernels() {
            let zeros = vec![0u8; w * h];
            let ones = vec![255u8; w * h];
            let g0 = BitGrid::from_bytes_with(k, &zeros, w, h, w, 0).unwrap();
            let g1 = BitGrid::from_bytes_with(k, &ones, w, h, w, 0).unwrap();
            check_grid(&g0, &NaiveGrid::new(w, h), "zeros");
            check_grid(&g1, &NaiveGrid::full(w, h), "255s");
            // Nothing is greater than 255.
            let none = BitGrid::from_bytes_with(k, &ones, w, h, w, 255).unwrap();
            assert!(none.is_empty(), "{k:?}: threshold 255 sets nothing");
            let mut out = vec![3u8; w * h];
            g1.write_bytes_with(k, &mut out, w, 1, 0).unwrap();
            assert!(
                out.iter().all(|&b| b == 1),
                "{k:?}: full grid writes set bytes"
            );
            g0.write_bytes_with(k, &mut out, w, 1, 0).unwrap();
            assert!(
                out.iter().all(|&b| b == 0),
                "{k:?}: empty grid writes empty bytes"
            );
        }
    }
}

#[test]
fn round_trips_through_bytes_and_packbits() {
    let sizes = prop_oneof![(1..=200usize, 1..=6usize), (1..=3usize, 1..=100usize)];
    let strategy = sizes.prop_flat_map(|(w, h)| (Just(w), Just(h), pattern(w, h), 0..20usize));
    check(config(96), strategy.boxed(), &|(w, h, bits, pad)| {
        let g = grid_of(w, h, &bits);
        for k in kernels() {
            let mut img = vec![9u8; (w + pad) * h];
            g.write_bytes_with(k, &mut img, w + pad, 200, 3).unwrap();
            prop_assert_eq!(
                &BitGrid::from_bytes_with(k, &img, w, h, w + pad, 3).unwrap(),
                &g
            );
        }
        let row_bytes = w.div_ceil(8) + pad;
        let mut packed = vec![0xffu8; row_bytes * h];
        g.write_packbits(&mut packed, row_bytes).unwrap();
        prop_assert_eq!(
            &BitGrid::from_packbits(&packed, w, h, row_bytes).unwrap(),
            &g
        );
        // numpy's layout: bit 7 - x % 8 of byte x / 8, padding bytes untouched.
        for y in 0..h {
            for x in 0..row_bytes * 8 {
                let bit = packed[y * row_bytes + x / 8] >> (7 - x % 8) & 1 == 1;
                let want = if x < w {
                    g.get(x, y)
                } else {
                    x >= w.div_ceil(8) * 8 // padding bytes keep 0xff, tail bits are 0
                };
                prop_assert_eq!(bit, want, "packbits bit ({}, {})", x, y);
            }
        }
        prop_assert_eq!(BitGrid::from_bools(&bits, w, h).unwrap(), g);
        Ok(())
    });
}

#[test]
fn packbits_reads_numpy_rows_and_ignores_padding_bits() {
    let mut rng = SplitMix(5);
    for w in (1..=200usize).chain([255, 256, 257, 511, 512, 513]) {
        let h = 1 + (w % 3);
        let row_bytes = w.div_ceil(8) + (w % 5);
        let off = w % 7;
        let buf: Vec<u8> = (0..off + row_bytes * h).map(|_| rng.next() as u8).collect();
        let px = &buf[off..];
        let want = NaiveGrid::from_fn(w, h, |x, y| {
            px[y * row_bytes + x / 8] >> (7 - x % 8) & 1 == 1
        });
        let g = BitGrid::from_packbits(px, w, h, row_bytes).unwrap();
        check_grid(&g, &want, &format!("from_packbits width {w}"));
    }
}

#[test]
fn generic_slices_match_the_definition() {
    let mut rng = SplitMix(6);
    for (w, h) in [
        (1, 1),
        (63, 3),
        (64, 2),
        (65, 2),
        (1023, 2),
        (1024, 2),
        (1025, 2),
        (2100, 2),
        (3, 50),
    ] {
        let stride = w + (rng.below(5) as usize);
        let n = (h - 1) * stride + w;
        let ints: Vec<i32> = (0..n).map(|_| rng.below(3) as i32 - 1).collect();
        let floats: Vec<f32> = (0..n).map(|_| rng.below(1000) as f32 / 1000.0).collect();
        let g = BitGrid::from_slice(&ints, w, h, stride, |v| v != 0).unwrap();
        check_grid(
            &g,
            &NaiveGrid::from_fn(w, h, |x, y| ints[y * stride + x] != 0),
            "i32 != 0",
        );
        let g = BitGrid::from_slice(&floats, w, h, stride, |v| v > 0.5).unwrap();
        check_grid(
            &g,
            &NaiveGrid::from_fn(w, h, |x, y| floats[y * stride + x] > 0.5),
            "f32 > 0.5",
        );
    }
}

#[test]
fn labels_write_i32_as_scipy_gives_them() {
    let strategy = (1..=140usize, 1..=12usize, 0..5usize)
        .prop_flat_map(|(w, h, pad)| (Just(w), Just(h), Just(pad), pattern(w, h), any_conn()));
    check(config(64), strategy.boxed(), &|(w, h, pad, bits, conn)| {
        let g = grid_of(w, h, &bits);
        let labels = label(&g, conn).unwrap();
        let (want, _) = nc::label(&naive_of(w, h, &bits), conn);
        let stride = w + pad;
        let mut out = vec![-5i32; stride * h + 2];
        labels.write_i32(&mut out, stride).unwrap();
        let mut out32 = vec![7u32; stride * h];
        labels.write_u32(&mut out32, stride).unwrap();
        for y in 0..h {
            for x in 0..stride {
                let (i, pad_cell) = (y * stride + x, x >= w);
                let v = if pad_cell { -5 } else { want[y * w + x] as i32 };
                prop_assert_eq!(out[i], v, "label ({}, {})", x, y);
                prop_assert_eq!(out32[i], if pad_cell { 7 } else { want[y * w + x] });
            }
        }
        prop_assert_eq!(&out[stride * h..], &[-5, -5]);
        Ok(())
    });
}

#[test]
fn distance_maps_write_i32_with_minus_one_for_unreachable() {
    let strategy = (1..=140usize, 1..=12usize, 0..5usize)
        .prop_flat_map(|(w, h, pad)| (Just(w), Just(h), Just(pad), pattern(w, h), 0..w * h));
    check(config(48), strategy.boxed(), &|(w, h, pad, bits, src)| {
        let free = grid_of(w, h, &bits);
        let mut start = BitGrid::new(w, h);
        start.set(src % w, src / w);
        let d = distance_map(&start, &free, Moves::Four, None);
        let want = nf::distance_map(
            &naive_of(w, h, &start.to_bools()),
            &naive_of(w, h, &bits),
            Moves::Four,
            None,
        );
        let stride = w + pad;
        let mut out = vec![-9i32; stride * h];
        d.write_i32(&mut out, stride).unwrap();
        for y in 0..h {
            for x in 0..stride {
                let v = if x >= w {
                    -9
                } else {
                    want[y * w + x].map_or(-1, |d| d as i32)
                };
                prop_assert_eq!(out[y * stride + x], v, "distance ({}, {})", x, y);
            }
        }
        Ok(())
    });
}

#[test]
fn bad_buffers_are_errors_not_panics() {
    let px = [1u8; 64];
    for k in ByteKernel::ALL {
        // Height or width 0, and sizes past the cell limit.
        assert!(matches!(
            BitGrid::from_bytes_with(k, &px, 4, 0, 4, 0),
            Err(ImageError::Size(_))
        ));
        assert!(matches!(
            BitGrid::from_bytes_with(k, &[], 0, 0, 0, 0),
            Err(ImageError::Size(_))
        ));
        assert!(matches!(
            BitGrid::from_bytes_with(k, &px, 1 << 40, 1 << 40, 1 << 40, 0),
            Err(ImageError::Size(_))
        ));
        assert_eq!(
            BitGrid::from_bytes_with(k, &px, 8, 2, 7, 0),
            Err(ImageError::Stride {
                stride: 7,
                width: 8
            })
        );
        assert_eq!(
            BitGrid::from_bytes_with(k, &px, 8, 8, 9, 0),
            Err(ImageError::TooShort {
                needed: 71,
                given: 64
            })
        );
        // A stride whose product overflows.
        assert!(matches!(
            BitGrid::from_bytes_with(k, &px, 2, 3, usize::MAX / 2, 0),
            Err(ImageError::TooShort { .. })
        ));
        let g = BitGrid::full(8, 8);
        let mut out = [0u8; 64];
        assert!(g.write_bytes_with(k, &mut out[..63], 8, 1, 0).is_err());
        assert!(g.write_bytes_with(k, &mut out, 7, 1, 0).is_err());
        assert!(out.iter().all(|&b| b == 0), "nothing written on error");
    }
    assert!(matches!(
        BitGrid::from_packbits(&px, 9, 8, 1),
        Err(ImageError::Stride { .. })
    ));
    assert!(matches!(
        BitGrid::from_packbits(&px, 16, 40, 2),
        Err(ImageError::TooShort { .. })
    ));
    assert!(matches!(
        BitGrid::from_packbits(&px, 0, 1, 1),
        Err(ImageError::Size(_))
    ));
    let g = BitGrid::full(9, 3);
    assert!(g.write_packbits(&mut [0u8; 5], 2).is_err());
    assert!(g.write_packbits(&mut [0u8; 6], 1).is_err());
    assert!(g.write_packbits(&mut [0u8; 6], 2).is_ok());
    assert!(BitGrid::from_slice(&[0i32; 5], 3, 2, 3, |v| v != 0).is_err());
    assert!(BitGrid::from_bools(&[true; 3], 2, 2).is_err());

    let labels = label(&g, gridbits::Connectivity::Four).unwrap();
    assert_eq!(
        labels.write_i32(&mut [0; 26], 9),
        Err(ImageError::TooShort {
            needed: 27,
            given: 26
        })
    );
    assert!(labels.write_i32(&mut [0; 40], 8).is_err());
    assert!(labels.write_u32(&mut [0; 26], 9).is_err());
    let d = distance_map(&BitGrid::new(9, 3), &g, Moves::Four, None);
    assert!(d.write_i32(&mut [0; 26], 9).is_err());
    assert!(d.write_i32(&mut [0; 40], 5).is_err());
    let mut ok = [0; 27];
    d.write_i32(&mut ok, 9).unwrap();
    assert!(ok.iter().all(|&v| v == -1), "no source: nothing reachable");
    assert_eq!(
        ImageError::ValueTooLarge {
            value: 1 << 31,
            max: i32::MAX as u64
        }
        .to_string(),
        "value 2147483648 does not fit the output type (at most 2147483647)"
    );
}

#[test]
fn kernel_detection_is_cached_and_consistent() {
    let best = ByteKernel::best();
    assert!(best.is_available());
    assert_eq!(ByteKernel::best(), best);
    assert_eq!(
        kernels().last(),
        Some(&best),
        "best is the fastest available"
    );
    assert!(ByteKernel::Portable.is_available());
    #[cfg(target_arch = "x86_64")]
    assert!(ByteKernel::Sse2.is_available());
    let names: Vec<_> = ByteKernel::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(names, ["portable", "sse2", "avx2", "avx512"]);
    eprintln!("byte kernels on this CPU: {:?}", kernels());
}
