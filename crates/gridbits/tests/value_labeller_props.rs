//! The multi-class run labeller (`ValueLabeller`) against the flood of `naive::measure` on
//! the edges (0xN, 1x1, widths 63/64/65, several blocks per row), one class, 255 classes,
//! all background, full, both connectivities, with and without a background; its outputs
//! (`u32`, `u64`, `i64`, uninitialised buffers), its portable, AVX2 and AVX-512 copies and
//! writers (widths 1, 7, 8, 9, 63-65, 127-130, tall and wide), byte
//! and wide value types, a labeller reused across sizes, and every route forced
//! (`ValueRoute`: row by row, row pairs with 1 to 4 classes and the fallback beyond, one
//! class as a binary image) at every CPU level, each also in row bands of 2, 4 and 6 rows
//! (the labelling of large images on several threads, forced on small ones).

use crate::common::{config, CONNS};

use gridbits::algo::label::{ValueLabeller, ValueRoute};
use gridbits::cpu::{with_level, Level};
use gridbits::naive::measure as nm;
use gridbits::Connectivity;
use gridbits_testkit::SplitMix;
use proptest::prelude::*;

const SIZES: [(usize, usize); 23] = [
    (0, 0),
    (7, 3),
    (8, 2),
    (9, 3),
    (3, 40),
    (0, 4),
    (4, 0),
    (1, 1),
    (1, 9),
    (9, 1),
    (63, 3),
    (64, 4),
    (65, 5),
    (127, 3),
    (128, 2),
    (129, 7),
    (130, 6),
    (200, 5),
    (17, 19),
    (64, 1),
    (65, 2),
    (63, 8),
    (129, 1),
];

/// The routes forced, besides the automatic choice.
const ROUTES: [ValueRoute; 3] = [ValueRoute::Rows, ValueRoute::Pairs, ValueRoute::Binary];

/// Rows per band of the labellers forced into bands (the last band shorter or not, one
/// band of two rows, bands longer than small images: one band).
const BANDS: [usize; 3] = [2, 4, 6];

/// One labeller per forced route, each kept across the images of a test, then the
/// automatic and every forced route in row bands of every height of [`BANDS`] (whatever
/// the image's size), each named.
fn routed() -> Vec<(String, ValueLabeller)> {
    let one = ROUTES
        .iter()
        .map(|&r| (format!("{r:?}"), ValueLabeller::new().with_route(r)));
    let banded = BANDS.iter().flat_map(|&rows| {
        [ValueRoute::Auto].into_iter().chain(ROUTES).map(move |r| {
            let l = ValueLabeller::new().with_route(r).with_bands(0, rows);
            (format!("{r:?} in bands of {rows} rows"), l)
        })
    });
    one.chain(banded).collect()
}

/// [`smooth_values`](crate::common::smooth_values) as `u8`s.
fn values(rng: &mut SplitMix, w: usize, h: usize, classes: u64, smooth: u32) -> Vec<u8> {
    crate::common::smooth_values(rng, (w, h), classes, smooth, |v| v as u8)
}

/// Labels `v` into a fresh `i64` buffer (every cell written: the buffer starts at -1).
fn label_i64<T: Copy + PartialEq + Send + Sync + 'static>(
    l: &mut ValueLabeller,
    v: &[T],
    (w, h): (usize, usize),
    bg: Option<T>,
    conn: Connectivity,
) -> (Vec<i64>, u32) {
    let mut out = vec![-1i64; w * h];
    let n = l.label_into(v, w, h, bg, conn, &mut out).expect("labels");
    (out, n)
}

/// Checks every output and path of the labeller on `v` against the flood.
fn check(v: &[u8], w: usize, h: usize, l: &mut ValueLabeller) -> Result<(), TestCaseError> {
    check_routes(v, w, h, &mut routed())?;
    check_auto(v, w, h, l)
}

/// Every forced route at every CPU level against the flood.
fn check_routes(
    v: &[u8],
    w: usize,
    h: usize,
    routed: &mut [(String, ValueLabeller)],
) -> Result<(), TestCaseError> {
    for conn in CONNS {
        for bg in [Some(0u8), Some(1), None] {
            let (want, n) = nm::label_values(v, w, h, bg, conn);
            let want64: Vec<i64> = want.iter().map(|&x| i64::from(x)).collect();
            for (route, l) in routed.iter_mut() {
                for level in Level::ALL {
                    let (got, m) = with_level(level, || label_i64(l, v, (w, h), bg, conn));
                    prop_assert_eq!(
                        &got,
                        &want64,
                        "{} {:?} {}x{} {:?} {:?}",
                        route,
                        level,
                        w,
                        h,
                        conn,
                        bg
                    );
                    prop_assert_eq!(m, n);
                }
                let mut out32 = vec![u32::MAX; w * h];
                l.label_into(v, w, h, bg, conn, &mut out32).expect("labels");
                prop_assert_eq!(&out32, &want, "{} u32", route);
            }
        }
    }
    Ok(())
}

/// The automatic route, every output and value type, against the flood.
fn check_auto(v: &[u8], w: usize, h: usize, l: &mut ValueLabeller) -> Result<(), TestCaseError> {
    for conn in CONNS {
        for bg in [Some(0u8), Some(1), Some(255), None] {
            let (want, n) = nm::label_values(v, w, h, bg, conn);
            let want64: Vec<i64> = want.iter().map(|&x| i64::from(x)).collect();
            let (got, m) = label_i64(l, v, (w, h), bg, conn);
            prop_assert_eq!(&got, &want64, "{}x{} {:?} {:?}", w, h, conn, bg);
            prop_assert_eq!(m, n);
            // The portable copy, and wide values (no byte compares).
            let (portable, _) = with_level(Level::Portable, || label_i64(l, v, (w, h), bg, conn));
            prop_assert_eq!(&portable, &want64, "portable {}x{}", w, h);
            // The AVX2 copy's own writer (below the AVX-512 one where the CPU has it).
            let (avx2, _) = with_level(Level::Avx2, || label_i64(l, v, (w, h), bg, conn));
            prop_assert_eq!(&avx2, &want64, "avx2 {}x{}", w, h);
            let wide: Vec<i64> = v.iter().map(|&x| i64::from(x) - 7).collect();
            let (got, _) = label_i64(l, &wide, (w, h), bg.map(|b| i64::from(b) - 7), conn);
            prop_assert_eq!(&got, &want64, "i64 values {}x{}", w, h);
            let signed: Vec<i8> = v.iter().map(|&x| x as i8).collect();
            let (got, _) = label_i64(l, &signed, (w, h), bg.map(|b| b as i8), conn);
            prop_assert_eq!(&got, &want64, "i8 values {}x{}", w, h);
            // u32 and u64 outputs, and an uninitialised buffer.
            let mut out32 = vec![u32::MAX; w * h];
            l.label_into(v, w, h, bg, conn, &mut out32).expect("labels");
            prop_assert_eq!(&out32, &want);
            let mut out64: Vec<u64> = Vec::with_capacity(w * h);
            let k = l
                .label_uninit(v, w, h, bg, conn, out64.spare_capacity_mut())
                .expect("labels");
            // SAFETY: `label_uninit` returned Ok: the first `w * h` values are written.
            unsafe { out64.set_len(w * h) };
            prop_assert_eq!(k, n);
            prop_assert!(out64.iter().zip(&want).all(|(&a, &b)| a == u64::from(b)));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn value_labeller_matches_the_flood(seed in any::<u64>(), classes in 1u64..7, smooth in 0u32..95) {
        let mut rng = SplitMix::new(seed);
        // One labeller for every size: its kept memory never leaks into another image.
        let mut l = ValueLabeller::new();
        for (w, h) in SIZES {
            let v = values(&mut rng, w, h, classes, smooth);
            check(&v, w, h, &mut l)?;
        }
    }

    /// Images of one value on a background at densities around the binary path's
    /// threshold (40% of the cells set, a run per 6 cells): 8-connected, the dense ones go
    /// to the binary labeller, the others not; every size and both connectivities.
    #[test]
    fn value_labeller_on_binary_images(seed in any::<u64>(), percent in 20u64..95, value in 1u8..=255) {
        let mut rng = SplitMix::new(seed);
        let mut l = ValueLabeller::new();
        for (w, h) in SIZES.into_iter().chain([(129, 40), (64, 3), (1, 30)]) {
            let v: Vec<u8> = (0..w * h)
                .map(|_| if rng.below(100) < percent { value } else { 0 })
                .collect();
            check(&v, w, h, &mut l)?;
        }
    }

    #[test]
    fn value_labeller_on_255_classes(seed in any::<u64>(), smooth in 0u32..60) {
        let mut rng = SplitMix::new(seed);
        let mut l = ValueLabeller::new();
        for (w, h) in [(65, 9), (130, 4), (64, 64)] {
            let v = values(&mut rng, w, h, 256, smooth);
            check(&v, w, h, &mut l)?;
        }
    }
}

#[test]
fn value_labeller_edges() {
    let mut l = ValueLabeller::new();
    for (w, h) in SIZES {
        // All background, full of one class, one class on a background stripe pattern.
        for v in [
            vec![0u8; w * h],
            vec![3u8; w * h],
            (0..w * h).map(|i| ((i % w) % 2) as u8).collect(),
        ] {
            check(&v, w, h, &mut l).expect("matches the flood");
        }
    }
    // Errors: a slice of the wrong length, an output too short.
    let mut out = [0u32; 4];
    assert!(l
        .label_into(&[1u8; 3], 2, 2, Some(0), Connectivity::Four, &mut out)
        .is_err());
    assert!(l
        .label_into(&[1u8; 4], 2, 2, Some(0), Connectivity::Four, &mut out[..3])
        .is_err());
    assert!(l
        .label_into(&[1u8; 4], usize::MAX, 2, None, Connectivity::Four, &mut out)
        .is_err());
}

/// An image of more than 8 MiB of `i64` labels (the AVX-512 writer streams its stores
/// there), 1031 cells wide (rows not a multiple of 8 cells: unaligned and masked stores):
/// every copy and every route gives the labels of the portable one, which the flood checks
/// above.
#[test]
fn value_labeller_large_images_match_the_portable_copy() {
    let (w, h) = (1031, 1040);
    let mut rng = SplitMix::new(31);
    let mut l = ValueLabeller::new();
    let mut routes = routed();
    for smooth in [0, 60] {
        let v = values(&mut rng, w, h, 3, smooth);
        for conn in CONNS {
            let (portable, n) = with_level(Level::Portable, || {
                label_i64(&mut l, &v, (w, h), Some(0), conn)
            });
            let (got, m) = label_i64(&mut l, &v, (w, h), Some(0), conn);
            assert_eq!(m, n);
            assert!(got == portable, "{conn:?} smooth {smooth}");
            // The AVX2 writers (below the AVX-512 ones where the CPU has them), one class
            // too (the widening of the binary route).
            let (got, m) = with_level(Level::Avx2, || label_i64(&mut l, &v, (w, h), Some(0), conn));
            assert!(m == n && got == portable, "avx2 {conn:?} smooth {smooth}");
            let ones: Vec<u8> = v.iter().map(|&x| u8::from(x != 0)).collect();
            let (want, k) = with_level(Level::Portable, || {
                label_i64(&mut l, &ones, (w, h), Some(0), conn)
            });
            let (got, m) = with_level(Level::Avx2, || {
                label_i64(&mut l, &ones, (w, h), Some(0), conn)
            });
            assert!(m == k && got == want, "avx2 {conn:?} one class");
            // Every forced route (row pairs with three classes and with one).
            for (route, l) in routes.iter_mut() {
                let (got, m) = label_i64(l, &v, (w, h), Some(0), conn);
                assert!(
                    m == n && got == portable,
                    "{route} {conn:?} smooth {smooth}"
                );
                let ones: Vec<u8> = v.iter().map(|&x| u8::from(x != 0)).collect();
                let (want, k) = with_level(Level::Portable, || {
                    label_i64(l, &ones, (w, h), Some(0), conn)
                });
                let (got, m) = label_i64(l, &ones, (w, h), Some(0), conn);
                assert!(m == k && got == want, "{route} {conn:?} one class");
            }
            let mut out: Vec<u64> = Vec::with_capacity(w * h);
            l.label_uninit(&v, w, h, Some(0), conn, out.spare_capacity_mut())
                .expect("labels");
            // SAFETY: `label_uninit` returned Ok: the first `w * h` values are written.
            unsafe { out.set_len(w * h) };
            assert!(out.iter().zip(&portable).all(|(&a, &b)| a as i64 == b));
        }
    }
}

/// The one-class check before pass 1 (bytes packed to bits with their largest and smallest
/// nonzero value folded in, the binary labeller on the bits when they are one value): one
/// class of the values 1 and 255 at several densities, and a second value at the first,
/// the middle or the last byte (the check stops at its row: the other routes label it);
/// widths 63/64/65 and 127-129, odd and even heights, both connectivities, every route at
/// every CPU level and every output type (`check`).
#[test]
fn value_labeller_one_class_check() {
    let mut rng = SplitMix::new(131);
    let mut l = ValueLabeller::new();
    let sizes = [
        (63, 4),
        (64, 5),
        (65, 6),
        (127, 3),
        (128, 4),
        (129, 5),
        (1, 1),
        (0, 3),
    ];
    for (w, h) in sizes {
        for value in [1u8, 255] {
            for percent in [0, 30, 50, 70, 100] {
                let v: Vec<u8> = (0..w * h)
                    .map(|_| if rng.below(100) < percent { value } else { 0 })
                    .collect();
                check(&v, w, h, &mut l).expect("one class");
                if v.is_empty() {
                    continue;
                }
                // A second value at the first, the middle and the last byte.
                let other = if value == 1 { 2 } else { 254 };
                for at in [0, v.len() / 2, v.len() - 1] {
                    let mut two = v.clone();
                    two[at] = other;
                    check(&two, w, h, &mut l).expect("a second value");
                }
            }
        }
    }
}

/// The automatic route's row sample for `u8` images (dense rows of short runs take the
/// one-class check and the binary labeller: 4-connected on every CPU, 8-connected on CPUs
/// without AVX-512, `check` runs both at every level): images taller than the sample (rows
/// skipped by it), dense and not (around the 40% and 60% thresholds), with a second value
/// in a row the sample skips or reads, against the flood through every route.
#[test]
fn value_labeller_four_connected_sample() {
    let mut rng = SplitMix::new(733);
    let mut l = ValueLabeller::new();
    for (w, h) in [(65, 100), (64, 67), (129, 33), (1, 70), (200, 1)] {
        for percent in [0, 30, 38, 45, 55, 65, 70, 90, 100] {
            let v: Vec<u8> = (0..w * h)
                .map(|_| u8::from(rng.below(100) < percent))
                .collect();
            check(&v, w, h, &mut l).expect("one class");
            for y in [1.min(h - 1), h / 2, h - 1] {
                let mut two = v.clone();
                two[y * w + w / 2] = 2;
                check(&two, w, h, &mut l).expect("a second value");
            }
        }
    }
}

#[test]
fn value_labeller_pairs_with_a_run_every_column() {
    // 4-connected, the pairs of rows whose runs abut most: a cell only in the top row beside
    // one only in the bottom row, every column its own pair run (twice the 8-connected
    // bound of half the width), one class and two, at widths across the blocks; every
    // route at every level.
    for w in [1usize, 2, 3, 15, 16, 17, 63, 64, 65, 127, 128, 129] {
        for h in [2usize, 3, 4, 5] {
            for classes in [1u8, 2] {
                let v: Vec<u8> = (0..w * h)
                    .map(|i| {
                        let (x, y) = (i % w, i / w);
                        if (x + y) % 2 == 0 {
                            1 + (x as u8 / 3) % classes
                        } else {
                            0
                        }
                    })
                    .collect();
                check_routes(&v, w, h, &mut routed()).expect("equal to the flood");
            }
        }
    }
}
