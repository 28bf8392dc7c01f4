//! Property tests of `algo::label` (label image, statistics, summary, count, multi-class)
//! against the queue BFS of `naive::components`, on runtime grids of the core sizes and
//! around word boundaries, both connectivities.

use crate::common::config;

use gridbits::algo::label::{
    self, count, label, label_classes, label_with_stats, planes_by_char, stats, ComponentStats,
    LabelInput, LabelOrder, LabelStores, LabelWriter, Labeller, Labels,
};
use gridbits::cpu::Level;
use gridbits::naive::{components as nc, NaiveGrid};
use gridbits::text::CharGrid;
use gridbits::{BitGrid, Board, Board19x19, Board6x12, Board8x8, Connectivity};
use proptest::prelude::*;

const CONNS: [Connectivity; 2] = [Connectivity::Four, Connectivity::Eight];

fn hash(seed: u64, x: usize, y: usize) -> u64 {
    let mut z = seed ^ ((x as u64) << 32 | y as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A random grid; `blobs` makes it smoother (cells copy a coarse random pattern), so that
/// long runs and large components appear.
fn grid(w: usize, h: usize, seed: u64, density: u32, blobs: bool) -> BitGrid {
    BitGrid::from_fn(w, h, |x, y| {
        let (cx, cy) = if blobs { (x / 5, y / 3) } else { (x, y) };
        let noise = blobs && hash(seed ^ 7, x, y).is_multiple_of(10);
        (hash(seed, cx, cy) % 100 < density as u64) != noise
    })
    .unwrap()
}

fn naive_stats(g: &NaiveGrid, conn: Connectivity) -> Vec<ComponentStats> {
    nc::stats(g, conn)
        .into_iter()
        .map(|s| ComponentStats {
            size: s.size,
            min_x: s.min_x,
            min_y: s.min_y,
            max_x: s.max_x,
            max_y: s.max_y,
            sum_x: s.sum_x,
            sum_y: s.sum_y,
        })
        .collect()
}

/// The first cell of each label in the order of [`LabelOrder::RowPairs`]: the first pair of
/// rows (0-1, 2-3, ...) a component reaches, then its leftmost column there (8-connected);
/// raster order (4-connected).
fn pair_order_key(labels: &[u32], w: usize, conn: Connectivity) -> Vec<(usize, usize)> {
    let n = labels.iter().copied().max().unwrap_or(0) as usize;
    let mut key = vec![(usize::MAX, usize::MAX); n];
    for (i, &l) in labels.iter().enumerate() {
        if l != 0 {
            let (x, y) = (i % w, i / w);
            let k = match conn {
                Connectivity::Four => (y, x),
                Connectivity::Eight => (y / 2, x),
            };
            let e = &mut key[l as usize - 1];
            *e = (*e).min(k);
        }
    }
    key
}

/// `got` is the labelling `want` up to numbering, with labels 1..=n; returns `perm` with
/// `perm[want label - 1] = got label`.
fn same_partition(got: &[u32], want: &[u32], what: &str) -> Vec<u32> {
    assert_eq!(got.len(), want.len());
    let n = want.iter().copied().max().unwrap_or(0) as usize;
    let mut perm = vec![0u32; n];
    for (i, (&a, &b)) in got.iter().zip(want).enumerate() {
        assert_eq!(a == 0, b == 0, "{what}: cell {i}");
        if b != 0 {
            let p = &mut perm[b as usize - 1];
            if *p == 0 {
                *p = a;
            }
            assert_eq!(*p, a, "{what}: cell {i} splits a component");
        }
    }
    let mut seen = perm.clone();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), n, "{what}: components merged");
    assert!(
        seen.iter().enumerate().all(|(i, &l)| l == i as u32 + 1),
        "{what}: labels 1..=n"
    );
    perm
}

/// Every labelling entry point on one grid, with a shared (dirty) labeller and image.
fn check(g: &BitGrid, labeller: &mut Labeller, image: &mut Labels) {
    let ng = NaiveGrid::from_view(g);
    let w = g.width();
    for conn in CONNS {
        let (want, n) = nc::label(&ng, conn);
        let naive_stats = naive_stats(&ng, conn);

        let got = label(g, conn).unwrap();
        assert_eq!((got.width(), got.height()), (g.width(), g.height()));
        assert_eq!(got.count(), n, "{conn:?}\n{g}");
        // Raster order with both connectivities: exactly the naive labels.
        assert_eq!(got.as_slice(), want, "{conn:?}\n{g}");
        let want_stats = naive_stats;
        // Any grid type: the naive grid is converted once and labels the same.
        assert_eq!(label(&ng, conn).unwrap(), got);
        // One grid per component, in label order.
        let parts = label::grid_components(g, conn).unwrap();
        assert_eq!(parts.len(), n as usize);
        assert_eq!(parts.stats(), want_stats);
        let parts: Vec<NaiveGrid> = parts.map(|p| NaiveGrid::from_view(&p)).collect();
        assert_eq!(parts, nc::components(&ng, conn));
        for s in &want_stats {
            let (cx, cy) = s.centroid();
            assert_eq!(
                (cx, cy),
                (
                    s.sum_x as f64 / s.size as f64,
                    s.sum_y as f64 / s.size as f64
                )
            );
            assert!((s.min_x as f64..=s.max_x as f64).contains(&cx));
            assert!((s.min_y as f64..=s.max_y as f64).contains(&cy));
            assert_eq!(s.bbox(), (s.min_x, s.min_y, s.width(), s.height()));
            assert!(s.size <= (s.width() * s.height()) as u64);
        }
        for y in 0..g.height() {
            assert_eq!(got.row(y), &got.as_slice()[y * w..(y + 1) * w]);
        }
        assert_eq!(got.get(g.width(), 0), 0);
        assert_eq!(got.get(0, g.height()), 0);

        // Reused buffers give the same.
        assert_eq!(labeller.label(g, conn, image).unwrap(), n);
        assert_eq!(image.as_slice(), got.as_slice());

        let (l2, s2) = label_with_stats(g, conn).unwrap();
        assert_eq!(l2.as_slice(), got.as_slice());
        assert_eq!(s2, want_stats, "{conn:?}");
        assert_eq!(stats(g, conn).unwrap(), want_stats);
        let mut s3 = vec![ComponentStats {
            size: 9,
            min_x: 9,
            min_y: 9,
            max_x: 9,
            max_y: 9,
            sum_x: 9,
            sum_y: 9,
        }];
        assert_eq!(labeller.stats(g, conn, &mut s3).unwrap(), n);
        assert_eq!(s3, want_stats);
        assert_eq!(count(g, conn).unwrap(), n);
        assert_eq!(labeller.count(g, conn).unwrap(), n);

        // The portable code gives the same as the run-time detected one.
        let mut portable = Labeller::new().with_level(Level::Portable);
        let mut img = Labels::new();
        assert_eq!(portable.label(g, conn, &mut img).unwrap(), n);
        assert_eq!(img.as_slice(), got.as_slice(), "portable {conn:?}\n{g}");
        let mut st = Vec::new();
        assert_eq!(
            portable
                .label_with_stats(g, conn, &mut img, &mut st)
                .unwrap(),
            n
        );
        assert_eq!(img.as_slice(), got.as_slice());
        assert_eq!(st, want_stats);
        assert_eq!(portable.stats(g, conn, &mut st).unwrap(), n);
        assert_eq!(st, want_stats);
        assert_eq!(portable.count(g, conn).unwrap(), n);
        assert_eq!(got.clone().into_vec(), got.as_slice());

        // The AVX2 writer (where the run-time detected one is AVX-512) gives the same.
        let mut avx2 = Labeller::new().with_level(Level::Avx2);
        assert_eq!(avx2.label(g, conn, &mut img).unwrap(), n);
        assert_eq!(img.as_slice(), got.as_slice(), "AVX2 writer {conn:?}\n{g}");

        // Both store kinds of both vector writers (the automatic choice takes ordinary
        // stores for images this small), and each AVX-512 writer (by 16 cells, run by run,
        // the automatic choice per unit), give the same.
        for stores in [LabelStores::Cached, LabelStores::Streaming] {
            for level in [Level::Avx2, Level::Avx512] {
                for writer in [LabelWriter::Auto, LabelWriter::Cells, LabelWriter::Runs] {
                    let mut l = Labeller::new()
                        .with_level(level)
                        .with_stores(stores)
                        .with_writer(writer);
                    assert_eq!(l.label(g, conn, &mut img).unwrap(), n);
                    let what = format!("{level:?} {stores:?} {writer:?} {conn:?}");
                    assert_eq!(img.as_slice(), want, "{what}\n{g}");
                }
            }
        }

        // The row-pair order: the same components, numbered as documented, and the
        // statistics follow the labels.
        for mut pairs in [
            Labeller::new().with_order(LabelOrder::RowPairs),
            Labeller::new()
                .with_order(LabelOrder::RowPairs)
                .with_level(Level::Portable),
        ] {
            let mut img = Labels::new();
            let mut st = Vec::new();
            assert_eq!(
                pairs.label_with_stats(g, conn, &mut img, &mut st).unwrap(),
                n
            );
            let perm = same_partition(img.as_slice(), &want, &format!("pairs {conn:?}\n{g}"));
            let key = pair_order_key(img.as_slice(), w, conn);
            assert!(key.windows(2).all(|k| k[0] < k[1]), "pair order");
            for (i, &l) in perm.iter().enumerate() {
                assert_eq!(st[l as usize - 1], want_stats[i]);
            }
            assert_eq!(pairs.stats(g, conn, &mut st).unwrap(), n);
            for (i, &l) in perm.iter().enumerate() {
                assert_eq!(st[l as usize - 1], want_stats[i]);
            }
            if conn == Connectivity::Four {
                assert_eq!(img.as_slice(), want);
            }
        }
    }
}

/// Multi-class labelling against the naive per-class BFS: same partition, right classes.
fn check_classes(w: usize, h: usize, seed: u64, density: u32, classes: u32) {
    let class_of = |x: usize, y: usize| -> u32 {
        if hash(seed, x, y) % 100 < density as u64 {
            1 + (hash(seed ^ 0x99, x / 2, y) % classes as u64) as u32
        } else {
            0
        }
    };
    let cls: Vec<u32> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| class_of(x, y))
        .collect();
    let planes: Vec<BitGrid> = (1..=classes)
        .map(|c| BitGrid::from_fn(w, h, |x, y| class_of(x, y) == c).unwrap())
        .collect();
    for conn in CONNS {
        let (want, want_classes) = nc::label_classes(w, h, &cls, conn);
        let (got, got_classes) = label_classes(&planes, conn).unwrap();
        assert_eq!(got.count() as usize, want_classes.len());
        // Numbered class by class, each class in raster order: the same numbers exactly.
        assert_eq!(got.as_slice(), &want[..]);
        assert_eq!(got_classes.len(), want_classes.len());
        for (i, &c) in got_classes.iter().enumerate() {
            assert!(c < classes, "class of label {}", i + 1);
        }
        // Same partition: a bijection between labels, preserving classes.
        let mut map = vec![0u32; want_classes.len() + 1];
        for (i, (&a, &b)) in got.as_slice().iter().zip(&want).enumerate() {
            assert_eq!(a == 0, b == 0, "cell {i}");
            if a == 0 {
                continue;
            }
            if map[b as usize] == 0 {
                map[b as usize] = a;
            }
            assert_eq!(map[b as usize], a, "cell {i}");
            assert_eq!(
                got_classes[a as usize - 1] + 1,
                want_classes[b as usize - 1]
            );
        }
        // Within a class, labels follow raster order; classes come one after the other.
        let key = pair_order_key(got.as_slice(), w, Connectivity::Four);
        for l in 1..key.len() {
            if got_classes[l] == got_classes[l - 1] {
                assert!(key[l - 1] < key[l], "{conn:?} label {l}");
            } else {
                assert!(got_classes[l] > got_classes[l - 1]);
            }
        }
    }
}

const SIZES: [(usize, usize); 16] = [
    (1, 1),
    (1, 40),
    (40, 1),
    (6, 12),
    (8, 8),
    (10, 10),
    (10, 40),
    (30, 20),
    (63, 9),
    (64, 9),
    (65, 9),
    (127, 5),
    (128, 5),
    (129, 5),
    (200, 7),
    (3, 70),
];

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn label_matches_naive_on_core_sizes(seed in any::<u64>(), density in 0u32..=100, blobs in any::<bool>()) {
        let mut labeller = Labeller::new();
        let mut image = Labels::new();
        for (w, h) in SIZES {
            check(&grid(w, h, seed, density, blobs), &mut labeller, &mut image);
        }
    }

    #[test]
    fn label_matches_naive_on_random_sizes(
        w in 1usize..=200, h in 1usize..=40, seed in any::<u64>(), density in 0u32..=100,
        blobs in any::<bool>(),
    ) {
        check(&grid(w, h, seed, density, blobs), &mut Labeller::new(), &mut Labels::new());
    }

    #[test]
    fn classes_match_naive(
        w in 1usize..=140, h in 1usize..=20, seed in any::<u64>(), density in 20u32..=100,
        classes in 1u32..=4,
    ) {
        check_classes(w, h, seed, density, classes);
    }
}

#[test]
fn empty_full_and_patterns() {
    let mut labeller = Labeller::new();
    let mut image = Labels::new();
    for (w, h) in SIZES {
        let patterns: [&dyn Fn(usize, usize) -> bool; 8] = [
            &|_, _| false,
            &|_, _| true,
            &|x, y| (x + y) % 2 == 0,
            &|x, y| x % 2 == 0 && y % 2 == 0,
            &|x, _| x % 2 == 1,
            &|_, y| y % 2 == 1,
            // Serpentine: one component that turns at both ends, merging at every row.
            &move |x, y| y % 2 == 0 || (y % 4 == 1 && x + 1 == w) || (y % 4 == 3 && x == 0),
            // Comb: teeth that join only at the bottom row (merges late).
            &move |x, y| x % 2 == 0 || y + 1 == h,
        ];
        for p in patterns {
            check(
                &BitGrid::from_fn(w, h, p).unwrap(),
                &mut labeller,
                &mut image,
            );
        }
    }
}

/// Fixed-size boards label exactly like the same cells in a `BitGrid`.
fn check_board<const W: usize, const H: usize, const N: usize>(b: Board<W, H, N>) {
    let g = BitGrid::from_fn(W, H, |x, y| b.get(x, y)).unwrap();
    assert_eq!(b.to_bit_grid().unwrap().as_ref(), &g);
    for conn in CONNS {
        assert_eq!(label(&b, conn).unwrap(), label(&g, conn).unwrap());
        assert_eq!(stats(&b, conn).unwrap(), stats(&g, conn).unwrap());
        assert_eq!(
            label_with_stats(&b, conn).unwrap(),
            label_with_stats(&g, conn).unwrap()
        );
        assert_eq!(count(&b, conn).unwrap(), count(&g, conn).unwrap());
        let from_board: Vec<BitGrid> = label::grid_components(&b, conn).unwrap().collect();
        let from_grid: Vec<BitGrid> = label::grid_components(&g, conn).unwrap().collect();
        assert_eq!(from_board, from_grid);
    }
}

proptest! {
    #![proptest_config(config(32))]

    #[test]
    fn fixed_boards_label_like_grids(seed in any::<u64>(), density in 0u32..=100) {
        let f = |x: usize, y: usize| hash(seed, x, y) % 100 < density as u64;
        check_board(Board6x12::from_fn(f));
        check_board(Board8x8::from_fn(f));
        check_board(Board19x19::from_fn(f));
        check_board(Board::<1, 1, 1>::from_fn(f));
    }
}

#[test]
fn accelerated_path_is_used_where_available() {
    let l = Labeller::new();
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") && std::is_x86_feature_detected!("bmi2") {
        assert!(l.accelerated());
    }
    assert!(!l.with_level(Level::Portable).accelerated());
}

#[test]
fn checkerboard_counts() {
    let g = BitGrid::from_fn(129, 7, |x, y| (x + y) % 2 == 0).unwrap();
    assert_eq!(count(&g, Connectivity::Four).unwrap(), g.count() as u32);
    assert_eq!(count(&g, Connectivity::Eight).unwrap(), 1);
}

#[test]
fn classes_from_characters() {
    let text = CharGrid::parse(b"RRG.\nR.GG\nBB.G\n").unwrap();
    let planes = planes_by_char(&text, b".").unwrap();
    let chars: Vec<u8> = planes.iter().map(|(c, _)| *c).collect();
    assert_eq!(chars, b"BGR");
    let grids: Vec<BitGrid> = planes.into_iter().map(|(_, g)| g).collect();
    let (labels, classes) = label_classes(&grids, Connectivity::Four).unwrap();
    assert_eq!(classes, [0, 1, 2]);
    assert_eq!(labels.as_slice(), [3, 3, 2, 0, 3, 0, 2, 2, 1, 1, 0, 2]);
    // No planes: an empty image; planes of different sizes: an error.
    assert_eq!(label_classes(&[], Connectivity::Four).unwrap().0.count(), 0);
    let a = BitGrid::new(3, 3);
    let b = BitGrid::new(4, 3);
    assert!(label_classes(&[a, b], Connectivity::Four).is_err());
}

#[test]
fn module_doc_example_numbers() {
    let g = BitGrid::parse("#.\n.#\n").unwrap();
    let l = label::label(&g, Connectivity::Four).unwrap();
    assert_eq!(l.as_slice(), [1, 0, 0, 2]);
    let l = label::label(&g, Connectivity::Eight).unwrap();
    assert_eq!(l.as_slice(), [1, 0, 0, 1]);
    // Raster order with 8-connectivity too: the component of (2, 0) comes first, although the
    // other one reaches column 0 of the same pair of rows.
    let g = BitGrid::parse("..#\n#..\n").unwrap();
    let l = label::label(&g, Connectivity::Eight).unwrap();
    assert_eq!(l.as_slice(), [0, 0, 1, 2, 0, 0]);
    let mut pairs = Labeller::new().with_order(LabelOrder::RowPairs);
    let mut img = Labels::new();
    pairs.label(&g, Connectivity::Eight, &mut img).unwrap();
    assert_eq!(img.as_slice(), [0, 0, 2, 1, 0, 0]);
    // A component whose root run (leftmost in the pair) has bottom cells only, and whose
    // first cell lies right of another component's.
    let g2 = BitGrid::parse("....#..#\n##....#.\n.#..#...\n.####...\n").unwrap();
    let (want, _) = nc::label(&NaiveGrid::from_view(&g2), Connectivity::Eight);
    assert_eq!(want[..8], [0, 0, 0, 0, 1, 0, 0, 2]);
    assert_eq!(
        label::label(&g2, Connectivity::Eight).unwrap().as_slice(),
        want
    );
    let l = label::label(&g, Connectivity::Four).unwrap();
    assert_eq!(l.as_slice(), [0, 0, 1, 2, 0, 0]);
}

/// Every grid of 4x4 and 3x6 cells, 8-connected: raster order where a row pair's new
/// components have their first cells in its bottom row, or in its top row right of
/// another component's root (joined through the pairs below), and where neither.
#[test]
fn every_small_grid_numbers_eight_connected_components_in_raster_order() {
    let mut labeller = Labeller::new();
    let mut image = Labels::new();
    for (w, h) in [(4usize, 4usize), (3, 6)] {
        for bits in 0u32..1 << (w * h) {
            let g = BitGrid::from_fn(w, h, |x, y| bits >> (y * w + x) & 1 == 1).unwrap();
            let (want, n) = nc::label(&NaiveGrid::from_view(&g), Connectivity::Eight);
            assert_eq!(
                labeller.label(&g, Connectivity::Eight, &mut image).ok(),
                Some(n)
            );
            assert_eq!(image.as_slice(), want, "{w}x{h} grid {bits:#x}");
        }
    }
}
