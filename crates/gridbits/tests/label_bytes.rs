//! `Labeller::label_bytes` and `ByteImage`: byte images labelled without a packing pass of
//! their own (each row stripe packed by the thread that labels it, or one packed grid kept
//! by the labeller) against the naive oracle on the pixels and against `label` of
//! `BitGrid::from_bytes`: 1x1, words of 63/64/65 pixels, exactly 64 and 128 pixels, single
//! rows and columns, padded strides, every threshold class, both connectivities and orders,
//! every code path, stripes forced on small images, large images on 1 and 2 threads, one
//! labeller reused across sizes; the image's errors and its use as a `LabelInput`.

use crate::common::{config, SplitMix as Rng, CONNS};

use gridbits::algo::label::{self, LabelOrder, Labeller, Labels};
use gridbits::cpu::Level;
use gridbits::grid::{ByteImage, ImageError};
use gridbits::naive::{components as nc, NaiveGrid};
use gridbits::parallel::{with_threads, LABEL_MIN_CELLS};
use gridbits::{BitGrid, Connectivity};
use proptest::prelude::*;

/// Image sizes: 1x1, rows of 63/64/65 pixels, exactly 64 and 128 pixels, one row, one
/// column, a few in between.
const SIZES: &[(usize, usize)] = &[
    (1, 1),
    (1, 40),
    (40, 1),
    (64, 1),
    (1, 64),
    (8, 8),
    (16, 8),
    (128, 1),
    (2, 64),
    (63, 9),
    (64, 7),
    (65, 8),
    (130, 5),
    (31, 33),
];

/// Random bytes, each above `threshold` with about `density` percent (grey levels spread on
/// both sides of it, including the threshold itself and its neighbours).
fn pixels(rng: &mut Rng, len: usize, threshold: u8, density: u32) -> Vec<u8> {
    (0..len)
        .map(|_| {
            let above = rng.percent(density);
            let near = rng.percent(30);
            match (above, near) {
                // 255 cannot be exceeded: such pixels stay clear.
                (true, _) if threshold == 255 => 255,
                (true, true) => threshold + 1,
                (true, false) => threshold + 1 + rng.below(u64::from(255 - threshold)) as u8,
                (false, true) => threshold,
                (false, false) => rng.below(u64::from(threshold) + 1) as u8,
            }
        })
        .collect()
}

/// The labeller of one code path and order.
fn labeller(path: &str, order: LabelOrder) -> Labeller {
    let l = Labeller::new().with_order(order);
    match path {
        "avx2" => l.with_level(Level::Avx2),
        "portable" => l.with_level(Level::Portable),
        _ => l,
    }
}

/// An image with its pixels as `BitGrid::from_bytes` packs them (the reference, packed by
/// other code than the stripes' `pack_rows`) and as the naive oracle reads them.
struct Case<'a> {
    image: ByteImage<'a>,
    packed: BitGrid,
    naive: NaiveGrid,
}

impl<'a> Case<'a> {
    fn new(px: &'a [u8], w: usize, h: usize, stride: usize, t: u8) -> Self {
        Case {
            image: ByteImage::new(px, w, h, stride, t),
            packed: BitGrid::from_bytes(px, w, h, stride, t).unwrap(),
            naive: NaiveGrid::from_fn(w, h, |x, y| px[y * stride + x] > t),
        }
    }
}

/// `label_bytes` of the case's image against `label` of its packed grid (the image, the
/// count) and, in raster order, against the naive labels of the pixels; `label_bytes_with_stats`
/// and `stats_bytes` against `label_with_stats` and `stats`; with the labeller `make` gives.
fn check(case: &Case<'_>, conn: Connectivity, make: &dyn Fn() -> Labeller, what: &str) {
    let Case {
        image,
        packed,
        naive,
    } = case;
    assert_eq!(&image.to_bit_grid().unwrap(), packed, "{what}: to_bit_grid");
    let (mut want, mut got) = (Labels::new(), Labels::new());
    let n = make().label(packed, conn, &mut want).unwrap();
    let m = make().label_bytes(image, conn, &mut got).unwrap();
    assert_eq!((got.width(), got.height()), packed.size(), "{what}: size");
    assert_eq!((m, got.count()), (n, n), "{what}: count");
    assert_eq!(got.as_slice(), want.as_slice(), "{what}: labels");
    if make().order() == LabelOrder::Raster {
        let (oracle, k) = nc::label(naive, conn);
        assert_eq!((got.as_slice(), m), (&oracle[..], k), "{what}: naive");
    }
    let (mut want_stats, mut got_stats, mut alone) = (Vec::new(), Vec::new(), Vec::new());
    make()
        .label_with_stats(packed, conn, &mut want, &mut want_stats)
        .unwrap();
    let m = make()
        .label_bytes_with_stats(image, conn, &mut got, &mut got_stats)
        .unwrap();
    assert_eq!(
        (m, got.as_slice()),
        (n, want.as_slice()),
        "{what}: with stats"
    );
    assert_eq!(got_stats, want_stats, "{what}: stats beside the image");
    let m = make().stats_bytes(image, conn, &mut alone).unwrap();
    assert_eq!((m, alone), (n, want_stats), "{what}: stats alone");
}

proptest! {
    #![proptest_config(config(48))]

    /// Every size class with padded strides (up to a word and more past the row) and bytes
    /// after the last row, thresholds from 0 to 255, both connectivities and orders, every
    /// code path, with and without forced stripes of 1 to 5 rows.
    #[test]
    fn label_bytes_equals_label_of_the_packed_image(
        size in 0..SIZES.len(),
        pad in prop_oneof![0usize..3, Just(63), Just(64), Just(65), Just(200)],
        extra in 0usize..3,
        threshold in prop_oneof![Just(0u8), Just(1), Just(127), Just(254), Just(255), any::<u8>()],
        density in 0u32..=100,
        seed in any::<u64>(),
    ) {
        let (w, h) = SIZES[size];
        let stride = w + pad;
        let mut rng = Rng(seed);
        // The last row needs only `w` bytes; `extra` more are ignored.
        let px = pixels(&mut rng, (h - 1) * stride + w + extra, threshold, density);
        let case = Case::new(&px, w, h, stride, threshold);
        let image = &case.image;
        prop_assert_eq!((image.width(), image.height(), image.stride()), (w, h, stride));
        prop_assert_eq!(image.size(), (w, h));
        prop_assert_eq!((image.threshold(), image.pixels().len()), (threshold, px.len()));
        for conn in CONNS {
            for order in [LabelOrder::Raster, LabelOrder::RowPairs] {
                for path in ["best", "avx2", "portable"] {
                    for stripes in [0, 1, 2, 5] {
                        let make = || {
                            let l = labeller(path, order);
                            if stripes == 0 { l } else { l.with_stripes(0, stripes) }
                        };
                        let what = format!(
                            "{w}x{h}+{pad} t={threshold} {conn:?} {order:?} {path} stripes {stripes}"
                        );
                        check(&case, conn, &make, &what);
                    }
                }
            }
        }
    }
}

/// Large images, labelled in stripes on two threads (the pipelined layout) and in one piece
/// on one thread: 1024x1024 (exactly the striping threshold), a padded 1025x1023 and a
/// single row and column of 2^20 pixels, on noise and on a comb whose teeth meet in the
/// last row; in raster order on the best code path, in row-pair order on the portable one.
#[test]
fn large_images_on_one_and_two_threads() {
    let side = 1024;
    assert_eq!(side * side, LABEL_MIN_CELLS);
    let mut rng = Rng(0xb17e5);
    let shapes = [
        (side, side, side),
        (1025, 1023, 1031),
        (1 << 20, 1, 1 << 20),
        (1, 1 << 20, 3),
    ];
    let ways = [
        (LabelOrder::Raster, "best"),
        (LabelOrder::RowPairs, "portable"),
    ];
    for (w, h, stride) in shapes {
        let len = (h - 1) * stride + w;
        let noise = pixels(&mut rng, len, 100, 45);
        let mut comb = vec![0u8; len];
        for y in 0..h {
            for x in 0..w {
                if x % 4 == 0 || y + 1 == h {
                    comb[y * stride + x] = 200;
                }
            }
        }
        for px in [&noise, &comb] {
            let case = Case::new(px, w, h, stride, 100);
            for conn in CONNS {
                for (order, path) in ways {
                    for threads in [1, 2] {
                        with_threads(threads, || {
                            let what = format!(
                                "{w}x{h} stride {stride} {conn:?} {order:?} {path} {threads} threads"
                            );
                            check(&case, conn, &|| labeller(path, order), &what);
                        })
                        .unwrap();
                    }
                }
            }
        }
    }
}

/// One labeller across images of other sizes and strides (its packed grid and its stripes'
/// grids resized or reused), with `label`, `stats` and `count` of other grids of the same
/// size in between (the stripes' grids then hold another grid's rows), each image labelled
/// twice; on one thread and with forced stripes, in both orders.
#[test]
fn one_labeller_across_sizes_and_calls() {
    let mut rng = Rng(0x5eed);
    for stripes in [None, Some(1), Some(3)] {
        for order in [LabelOrder::Raster, LabelOrder::RowPairs] {
            let make = || {
                let l = Labeller::new().with_order(order);
                match stripes {
                    Some(rows) => l.with_stripes(0, rows),
                    None => l,
                }
            };
            let mut l = make();
            let mut out = Labels::new();
            for (i, &(w, h)) in SIZES.iter().chain(SIZES.iter().rev()).enumerate() {
                let stride = w + [0, 1, 64][i % 3];
                let px = pixels(&mut rng, (h - 1) * stride + w, 90, 50);
                let case = Case::new(&px, w, h, stride, 90);
                for conn in CONNS {
                    if i % 2 == 0 {
                        let full = BitGrid::full(w, h);
                        l.label(&full, conn, &mut out).unwrap();
                        l.stats(&full, conn, &mut Vec::new()).unwrap();
                        l.count(&full, conn).unwrap();
                    }
                    let (mut want, mut want_stats) = (Labels::new(), Vec::new());
                    let k = make()
                        .label_with_stats(&case.packed, conn, &mut want, &mut want_stats)
                        .unwrap();
                    let mut stats = Vec::new();
                    l.stats_bytes(&case.image, conn, &mut stats).unwrap();
                    assert_eq!(stats, want_stats, "{w}x{h} {conn:?} {order:?} {stripes:?}");
                    for again in [false, true] {
                        let n = l.label_bytes(&case.image, conn, &mut out).unwrap();
                        let what = format!(
                            "{w}x{h} stride {stride} {conn:?} {order:?} stripes {stripes:?} again {again}"
                        );
                        assert_eq!((out.as_slice(), n), (want.as_slice(), k), "{what}");
                    }
                }
            }
        }
    }
}

/// `ByteImage::try_new` reports the errors `BitGrid::from_bytes` reports for the same arguments:
/// zero sizes, more than 2^34 pixels (before the stride and the length), a short stride, a
/// short buffer; and accepts what it accepts.
#[test]
fn byte_image_errors_equal_those_of_from_bytes() {
    let px = [7u8; 16];
    let cases: &[(usize, usize, usize, usize)] = &[
        (16, 0, 1, 0),
        (16, 1, 0, 1),
        (16, 0, 0, 0),
        (16, 5, 0, 4),
        (16, 3, 3, 2),
        (16, 4, 5, 4),
        (16, 4, 4, 4),
        (13, 4, 4, 3),
        (15, 4, 4, 4),
        (16, 16, 1, 16),
        (16, 1 << 35, 1, 1 << 35),
        (16, 1 << 35, 1, 1),
        (16, 1 << 20, 1 << 20, 1 << 20),
        (16, usize::MAX, 2, usize::MAX),
        (16, 1, 1 << 40, 1),
    ];
    for &(len, w, h, stride) in cases {
        let ours = ByteImage::try_new(&px[..len], w, h, stride, 0).map(|_| ());
        let theirs = BitGrid::from_bytes(&px[..len], w, h, stride, 0).map(|_| ());
        assert_eq!(ours, theirs, "{w}x{h} stride {stride}, {len} bytes");
    }
}

/// The image's errors by kind, its `Debug` form (not its pixels), and the image as a
/// `LabelInput` of the free functions.
#[test]
fn byte_image_errors_and_free_functions() {
    let px = [0u8, 200, 90, 7, 255, 0, 128, 7];
    assert!(matches!(
        ByteImage::try_new(&px, 0, 2, 4, 0),
        Err(ImageError::Size(_))
    ));
    assert!(matches!(
        ByteImage::try_new(&px, 5, 2, 4, 0),
        Err(ImageError::Stride {
            stride: 4,
            width: 5
        })
    ));
    assert!(matches!(
        ByteImage::try_new(&px, 3, 3, 4, 0),
        Err(ImageError::TooShort {
            needed: 11,
            given: 8
        })
    ));
    // The last row needs only `width` bytes.
    let image = ByteImage::new(&px[..7], 3, 2, 4, 100);
    assert_eq!(
        format!("{image:?}"),
        "ByteImage { width: 3, height: 2, stride: 4, threshold: 100, bytes: 7 }"
    );
    let grid = BitGrid::from_bytes(&px, 3, 2, 4, 100).unwrap();
    assert_eq!(image.to_bit_grid().unwrap(), grid);
    let mut rng = Rng(0xf4ee);
    let (w, h, stride) = (131, 77, 140);
    let big = pixels(&mut rng, (h - 1) * stride + w, 60, 40);
    let case = Case::new(&big, w, h, stride, 60);
    for (image, grid) in [(&image, &grid), (&case.image, &case.packed)] {
        for conn in CONNS {
            let (a, b) = (
                label::label(image, conn).unwrap(),
                label::label(grid, conn).unwrap(),
            );
            assert_eq!(a.as_slice(), b.as_slice());
            let stats = label::stats(image, conn).unwrap();
            assert_eq!(stats, label::stats(grid, conn).unwrap());
            let count = label::count(image, conn).unwrap();
            assert_eq!(count, label::count(grid, conn).unwrap());
        }
    }
}
