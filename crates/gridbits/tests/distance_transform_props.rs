//! Property tests of `algo::distance_transform` against `naive::distance_transform`: the
//! chamfer transform equals scipy's two passes written cell by cell (distances and nearest
//! cells) for all 16 neighbourhoods, and brute force for city block and chessboard; the
//! Euclidean transform's distances equal brute force to the last bit and its nearest cells
//! are at that distance; on sizes around word boundaries, 1 x 1, thin and tall grids, empty
//! and full grids and densities from sparse to dense.

use crate::common::config;

use gridbits::algo::distance_transform::{
    chamfer_distances_f32, chamfer_transform, euclidean_distances, euclidean_distances_f32,
    euclidean_transform, opencv_chamfer5_with_labels, opencv_mask5_weights, Neighbourhood,
    Sampling,
};
use gridbits::cpu::{self, Level};
use gridbits::naive::distance_transform::{brute_force, two_pass_chamfer, Metric};
use gridbits::naive::NaiveGrid;
use gridbits::BitGrid;
use gridbits_testkit::{percent_grid, SplitMix};
use proptest::prelude::*;

/// Sizes worth testing: word boundaries, single cells, thin and tall grids.
fn size() -> impl Strategy<Value = (usize, usize)> {
    prop_oneof![
        (1usize..20, 1usize..20),
        prop::sample::select(vec![63usize, 64, 65, 127, 128, 129])
            .prop_flat_map(|w| (Just(w), 1usize..8)),
        (1usize..4, 1usize..90),
        Just((1, 1)),
    ]
}

/// A grid of `size()` with a density from empty to full.
fn grid() -> impl Strategy<Value = BitGrid> {
    (
        size(),
        prop::sample::select(vec![0u32, 3, 30, 50, 70, 90, 97, 100]),
        any::<u64>(),
    )
        .prop_map(|((w, h), pct, seed)| percent_grid(&mut SplitMix::new(seed), w, h, pct))
}

fn rows_of(steps: u16) -> [[bool; 3]; 3] {
    let mut rows = [[false; 3]; 3];
    for (i, r) in rows.iter_mut().flatten().enumerate() {
        *r = steps >> i & 1 == 1;
    }
    rows
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn chamfer_is_scipys_two_passes(g in grid(), structure in 0u16..512) {
        let rows = rows_of(structure);
        let naive = NaiveGrid::from_view(&g);
        let (d, f) = two_pass_chamfer(&naive, rows);
        let t = chamfer_transform(&g, Neighbourhood::from_rows(rows), true).unwrap();
        prop_assert_eq!(t.distances(), &d[..]);
        let nearest: Vec<usize> = t.nearest().unwrap().iter().map(|&i| i as usize).collect();
        prop_assert_eq!(nearest, f);
        let plain = chamfer_transform(&g, Neighbourhood::from_rows(rows), false).unwrap();
        prop_assert_eq!(plain.distances(), &d[..]);
        prop_assert!(plain.nearest().is_none());
    }

    #[test]
    fn chamfer_taxicab_and_chessboard_are_exact(g in grid()) {
        let naive = NaiveGrid::from_view(&g);
        let w = g.width();
        for (n, metric) in [
            (Neighbourhood::taxicab(), Metric::Taxicab),
            (Neighbourhood::chessboard(), Metric::Chessboard),
        ] {
            let t = chamfer_transform(&g, n, true).unwrap();
            let brute = brute_force(&naive, metric);
            let as_f32: Vec<f32> = t.distances().iter().map(|&d| if d < 0 { f32::MAX } else { d as f32 }).collect();
            prop_assert_eq!(chamfer_distances_f32(&g, n).unwrap(), as_f32);
            let nearest = t.nearest().unwrap();
            for (i, (&d, b)) in t.distances().iter().zip(&brute).enumerate() {
                prop_assert_eq!(d, b.map_or(-1, |b| b as i32));
                if d >= 0 {
                    let (nx, ny) = (nearest[i] as usize % w, nearest[i] as usize / w);
                    prop_assert!(!g.get(nx, ny));
                    let (x, y) = (i % w, i / w);
                    prop_assert_eq!(metric.between(nx.abs_diff(x) as u64, ny.abs_diff(y) as u64), d as u64);
                }
            }
        }
    }

    #[test]
    fn euclidean_is_exact(g in grid()) {
        let naive = NaiveGrid::from_view(&g);
        let brute = brute_force(&naive, Metric::SquaredEuclidean);
        let t = euclidean_transform(&g, Sampling::default()).unwrap();
        let d = t.distances(Sampling::default()).unwrap();
        let d32 = t.distances_f32().unwrap();
        let w = g.width();
        prop_assert_eq!(t.has_background(), !g.is_full());
        for (i, b) in brute.iter().enumerate() {
            let (x, y) = (i % w, i / w);
            match *b {
                Some(b) => {
                    prop_assert_eq!(d[i], (b as f64).sqrt());
                    prop_assert_eq!(d32[i], (b as f32).sqrt());
                    let (nx, ny) = t.nearest(x, y).unwrap();
                    prop_assert!(!g.get(nx, ny));
                    prop_assert_eq!(Metric::SquaredEuclidean.between(nx.abs_diff(x) as u64, ny.abs_diff(y) as u64), b);
                }
                None => {
                    // scipy's values without background: nearest (-1, 0) in (row, col).
                    prop_assert_eq!(t.nearest(x, y), None);
                    prop_assert_eq!(d[i], (((y + 1) * (y + 1) + x * x) as f64).sqrt());
                    prop_assert_eq!(d32[i], f32::MAX.sqrt());
                }
            }
        }
    }

    #[test]
    fn euclidean_distances_are_exact(g in grid()) {
        let naive = NaiveGrid::from_view(&g);
        let brute = brute_force(&naive, Metric::SquaredEuclidean);
        let d = euclidean_distances(&g).unwrap();
        let d32 = euclidean_distances_f32(&g).unwrap();
        if g.is_full() {
            prop_assert!(d.is_none());
            prop_assert!(d32.iter().all(|&v| v == f32::MAX.sqrt()));
        } else {
            let d = d.unwrap();
            prop_assert_eq!(d.len(), brute.len());
            for (i, b) in brute.iter().enumerate() {
                let b = b.unwrap();
                prop_assert_eq!(d[i], (b as f64).sqrt(), "cell {}", i);
                prop_assert_eq!(d32[i], (b as f32).sqrt(), "cell {}", i);
            }
        }
    }

    #[test]
    fn euclidean_with_sampling_is_nearest(g in grid(), sx in 0.1f64..4.0, sy in 0.1f64..4.0) {
        prop_assume!(!g.is_full());
        let s = Sampling { x: sx, y: sy };
        let t = euclidean_transform(&g, s).unwrap();
        let d = t.distances(s).unwrap();
        let w = g.width();
        let background: Vec<(usize, usize)> = NaiveGrid::from_view(&g).not().cells();
        for (i, &di) in d.iter().enumerate() {
            let (x, y) = (i % w, i / w);
            let best = background
                .iter()
                .map(|&(bx, by)| {
                    let dx = (bx as f64 - x as f64) * sx;
                    let dy = (by as f64 - y as f64) * sy;
                    (dy * dy + dx * dx).sqrt()
                })
                .fold(f64::INFINITY, f64::min);
            prop_assert!((di - best).abs() <= 1e-9 * best.max(1.0), "{} vs {}", di, best);
        }
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// OpenCV's 5 x 5 passes with the `DIST_L1` and `DIST_C` weights are exact, and each
    /// cell's label is the label of a background cell at that distance.
    #[test]
    fn opencv_mask5_is_exact_with_nearest_labels(g in grid()) {
        let naive = NaiveGrid::from_view(&g);
        let w = g.width();
        let background = naive.not().cells();
        let start: Vec<i32> = (0..w * g.height())
            .map(|i| background.iter().position(|&(x, y)| y * w + x == i).map_or(0, |k| k as i32 + 1))
            .collect();
        for (kind, metric) in [("l1", Metric::Taxicab), ("c", Metric::Chessboard)] {
            let mut labels = start.clone();
            let d = opencv_chamfer5_with_labels(&g, opencv_mask5_weights(kind).unwrap(), &mut labels).unwrap();
            let brute = brute_force(&naive, metric);
            for (i, b) in brute.iter().enumerate() {
                let (x, y) = (i % w, i / w);
                match *b {
                    Some(b) => {
                        prop_assert_eq!(d[i], b as f32);
                        let (bx, by) = background[labels[i] as usize - 1];
                        prop_assert_eq!(metric.between(bx.abs_diff(x) as u64, by.abs_diff(y) as u64), b);
                    }
                    None => {
                        prop_assert_eq!(d[i], (u32::MAX - opencv_mask5_weights(kind).unwrap()[2]) as f32 / 65536.0);
                        prop_assert_eq!(labels[i], 0);
                    }
                }
            }
        }
    }
}

/// Ties along a column go to the upper cell, along a row to the left one (scipy's rule).
#[test]
fn euclidean_ties_go_up_then_left() {
    let g = BitGrid::parse(".\n#\n.\n").unwrap();
    let t = euclidean_transform(&g, Sampling::default()).unwrap();
    assert_eq!(t.nearest(0, 1), Some((0, 0)));
    let g = BitGrid::parse(".#.\n").unwrap();
    let t = euclidean_transform(&g, Sampling::default()).unwrap();
    assert_eq!(t.nearest(1, 0), Some((0, 0)));
}

/// Chamfer distances grow past a word and along a whole large grid.
#[test]
fn chamfer_long_distances() {
    let mut g = BitGrid::full(300, 5);
    g.clear(0, 0);
    let t = chamfer_transform(&g, Neighbourhood::taxicab(), false).unwrap();
    assert_eq!(t.get(299, 4), 299 + 4);
    let t = chamfer_transform(&g, Neighbourhood::chessboard(), false).unwrap();
    assert_eq!(t.get(299, 4), 299);
    let t = chamfer_transform(&BitGrid::full(70, 3), Neighbourhood::taxicab(), true).unwrap();
    assert!(t.distances().iter().all(|&d| d == -1));
    assert!(t
        .nearest()
        .unwrap()
        .iter()
        .enumerate()
        .all(|(i, &f)| f as usize == i));
}

/// The distances alone past the short runs and through deep shapes: a few background cells
/// on large grids (long runs take the lower envelope), against brute force.
#[test]
fn euclidean_distances_of_deep_shapes() {
    let mut rng = SplitMix::new(0xd15);
    for &(w, h, holes) in &[
        (300, 40, 1),
        (130, 130, 3),
        (65, 200, 2),
        (1000, 3, 5),
        (64, 64, 40),
    ] {
        let mut g = BitGrid::full(w, h);
        for _ in 0..holes {
            g.clear(rng.below(w as u64) as usize, rng.below(h as u64) as usize);
        }
        let brute = brute_force(&NaiveGrid::from_view(&g), Metric::SquaredEuclidean);
        let d = euclidean_distances(&g).unwrap().unwrap();
        let d32 = euclidean_distances_f32(&g).unwrap();
        for (i, b) in brute.iter().enumerate() {
            let b = b.unwrap();
            assert_eq!(d[i], (b as f64).sqrt(), "{w}x{h} cell {i}");
            assert_eq!(d32[i], (b as f32).sqrt(), "{w}x{h} cell {i}");
        }
    }
}

/// City-block and chessboard distances of shapes deeper than the erosion layers' budget
/// (both then go by the vertical sweeps, with or without trying the layers first), against
/// brute force: full grids with a few holes, and large discs in 30% noise (deep blobs
/// among short runs, at word edges).
#[test]
fn chamfer_distances_of_deep_shapes() {
    let mut rng = SplitMix::new(0xdee9);
    for &(w, h, holes, discs) in &[
        (300, 40, 1, false),
        (130, 130, 3, false),
        (65, 200, 2, false),
        (1000, 3, 5, false),
        (63, 64, 2, false),
        (64, 150, 0, true),
        (65, 129, 0, true),
        (200, 170, 0, true),
        // Large grids (from 2^20 cells the sweeps split over two threads with the feature
        // `parallel`), holes in the first and last rows and in the middle rows where the
        // halves meet.
        (700, 400, 6, false),
        (2049, 520, 4, false),
        (97, 2800, 5, false),
    ] {
        let mut g = if discs {
            percent_grid(&mut rng, w, h, 30)
        } else {
            BitGrid::full(w, h)
        };
        if discs {
            // Two discs of radius 50 through the grid's edges.
            for (cx, cy) in [(w / 3, h / 3), (w, h)] {
                for y in 0..h {
                    for x in 0..w {
                        let (dx, dy) = (x.abs_diff(cx), y.abs_diff(cy));
                        if dx * dx + dy * dy <= 2500 {
                            g.set(x, y);
                        }
                    }
                }
            }
        }
        for _ in 0..holes {
            g.clear(rng.below(w as u64) as usize, rng.below(h as u64) as usize);
        }
        if w * h >= 1 << 18 {
            for y in [0, h / 2 - 1, h / 2, h - 1] {
                g.clear(rng.below(w as u64) as usize, y);
            }
        }
        let naive = NaiveGrid::from_view(&g);
        for (n, metric) in [
            (Neighbourhood::taxicab(), Metric::Taxicab),
            (Neighbourhood::chessboard(), Metric::Chessboard),
        ] {
            let want: Vec<i32> = brute_force(&naive, metric)
                .iter()
                .map(|b| b.unwrap() as i32)
                .collect();
            let t = chamfer_transform(&g, n, false).unwrap();
            assert_eq!(t.distances(), &want[..], "{w}x{h} {metric:?}");
            let as_f32: Vec<f32> = want.iter().map(|&d| d as f32).collect();
            assert_eq!(
                chamfer_distances_f32(&g, n).unwrap(),
                as_f32,
                "{w}x{h} {metric:?}"
            );
        }
    }
}

/// The distances alone on grids past the threshold of the bands of rows (1 Mpx), on one
/// thread and on several (with the feature `parallel`: bands taken by several threads, each
/// starting from the bits beyond it), against the feature transform's distances: noise
/// whose rows take the window, deep discs whose rows take the runs, columns without
/// background crossing every band.
#[test]
fn euclidean_distances_in_bands() {
    use gridbits::parallel::with_threads;
    let mut rng = SplitMix::new(0xba5d);
    for &(w, h, pct) in &[(1025, 1024, 70), (2049, 520, 97), (600, 1800, 99)] {
        let mut g = percent_grid(&mut rng, w, h, pct);
        // Deep discs, and a few whole columns set.
        for _ in 0..6 {
            let (cx, cy) = (rng.below(w as u64) as i64, rng.below(h as u64) as i64);
            let r = 20 + rng.below(150) as i64;
            for y in (cy - r).max(0)..(cy + r).min(h as i64) {
                for x in (cx - r).max(0)..(cx + r).min(w as i64) {
                    if (x - cx).pow(2) + (y - cy).pow(2) <= r * r {
                        g.set(x as usize, y as usize);
                    }
                }
            }
        }
        for _ in 0..3 {
            let x = rng.below(w as u64) as usize;
            for y in 0..h {
                g.set(x, y);
            }
        }
        let want = euclidean_transform(&g, Sampling::default())
            .unwrap()
            .distances(Sampling::default())
            .unwrap();
        for threads in [1, 2, 3] {
            let d = with_threads(threads, || euclidean_distances(&g)).unwrap();
            assert!(
                d.unwrap().unwrap() == want,
                "{w}x{h} {pct}% {threads} threads"
            );
            let d32 = with_threads(threads, || euclidean_distances_f32(&g))
                .unwrap()
                .unwrap();
            for (i, (&a, &b)) in d32.iter().zip(&want).enumerate() {
                assert_eq!(a, ((b * b).round() as f32).sqrt(), "{w}x{h} cell {i}");
            }
        }
    }
}

/// Sizes around the vector passes' registers (16 and 32 `i16` lanes) and words.
fn lane_size() -> impl Strategy<Value = (usize, usize)> {
    (
        prop::sample::select(vec![1usize, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 96, 97]),
        prop::sample::select(vec![1usize, 2, 3, 33, 70]),
    )
}

proptest! {
    #![proptest_config(config(128))]

    /// City-block and chessboard distances without nearest cells, `i32` and `f32`, at every
    /// CPU level (portable: the layers and the sweeps; AVX2 and AVX-512: the vector passes'
    /// kernels), equal scipy's two passes written cell by cell.
    #[test]
    fn chamfer_distances_at_every_level(
        (w, h) in lane_size(),
        pct in prop::sample::select(vec![0u32, 30, 50, 90, 99, 100]),
        seed in any::<u64>(),
    ) {
        let g = percent_grid(&mut SplitMix::new(seed), w, h, pct);
        let naive = NaiveGrid::from_view(&g);
        for n in [Neighbourhood::taxicab(), Neighbourhood::chessboard()] {
            let s = n.steps();
            let rows = [[s[0], s[1], s[2]], [s[3], true, s[3]], [s[2], s[1], s[0]]];
            let (d, _) = two_pass_chamfer(&naive, rows);
            let d32: Vec<f32> = d.iter().map(|&d| if d < 0 { f32::MAX } else { d as f32 }).collect();
            for level in Level::ALL {
                let t = cpu::with_level(level, || chamfer_transform(&g, n, false)).unwrap();
                prop_assert_eq!(t.distances(), &d[..], "{:?}", level);
                let f = cpu::with_level(level, || chamfer_distances_f32(&g, n)).unwrap();
                prop_assert_eq!(&f, &d32, "{:?}", level);
            }
        }
    }
}
