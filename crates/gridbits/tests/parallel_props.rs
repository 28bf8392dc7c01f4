//! The `parallel` feature: striped labelling against one thread and the naive oracle (the
//! stripes forced on small grids by a test knob, so that many stripes of 1 to 5 rows meet
//! components that snake across all of them), and large grids above and below the
//! threshold on 1 and 2 threads. Without the feature the stripes run one after the other:
//! the same results are checked. The thread-count API and the batch functions are in
//! `parallel_batches.rs`.

use crate::common::{config, SplitMix as Rng, CONNS};

use gridbits::algo::label::{ComponentStats, LabelOrder, Labeller, Labels};
use gridbits::cpu::Level;
use gridbits::naive::{components as nc, NaiveGrid};
use gridbits::parallel::{current_threads, with_threads, LABEL_MIN_CELLS};
use gridbits::{BitGrid, Connectivity};
use proptest::prelude::*;

/// Widths and heights of the striped checks: 1x1, words of 63/64/65 cells, exactly 64 and
/// 128 cells, one row, one column, a few in between.
const SIZES: &[(usize, usize)] = &[
    (1, 1),
    (1, 2),
    (2, 1),
    (1, 37),
    (37, 1),
    (64, 1),
    (1, 64),
    (8, 8),
    (16, 8),
    (128, 1),
    (1, 128),
    (2, 64),
    (63, 7),
    (64, 9),
    (65, 6),
    (63, 13),
    (65, 12),
    (130, 5),
    (5, 31),
    (20, 20),
];

/// Everything one labeller computes on `g`: the image, the statistics beside it, the
/// statistics alone, the count.
#[derive(Debug, PartialEq)]
struct Outcome {
    labels: Vec<u32>,
    count: u32,
    with_stats: Vec<ComponentStats>,
    stats: Vec<ComponentStats>,
    counted: u32,
}

fn outcome(mut l: Labeller, g: &BitGrid, conn: Connectivity) -> Outcome {
    let mut image = Labels::new();
    let count = l.label(g, conn, &mut image).unwrap();
    assert_eq!(image.count(), count);
    let labels = image.as_slice().to_vec();
    // Again with statistics, into the same (dirty) image.
    let mut with_stats = vec![ComponentStats {
        size: 7,
        min_x: 7,
        min_y: 7,
        max_x: 7,
        max_y: 7,
        sum_x: 7,
        sum_y: 7,
    }];
    assert_eq!(
        l.label_with_stats(g, conn, &mut image, &mut with_stats)
            .unwrap(),
        count
    );
    assert_eq!(image.as_slice(), labels);
    let mut stats = Vec::new();
    assert_eq!(l.stats(g, conn, &mut stats).unwrap(), count);
    let counted = l.count(g, conn).unwrap();
    Outcome {
        labels,
        count,
        with_stats,
        stats,
        counted,
    }
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

/// Striped labelling of `g` (stripes of 1 to 5 rows, and `extra`) equals one thread, for
/// both connectivities, both orders, every code path (the best this CPU has, the AVX2
/// writer, portable); raster order equals the naive labels.
fn check_striped(g: &BitGrid, extra: &[usize]) {
    let ng = NaiveGrid::from_view(g);
    for conn in CONNS {
        let (want, n) = nc::label(&ng, conn);
        let want_stats = naive_stats(&ng, conn);
        for order in [LabelOrder::Raster, LabelOrder::RowPairs] {
            for path in ["best", "avx2", "portable"] {
                let base = || {
                    let l = Labeller::new().with_order(order);
                    match path {
                        "avx2" => l.with_level(Level::Avx2),
                        "portable" => l.with_level(Level::Portable),
                        _ => l,
                    }
                };
                let one = outcome(base(), g, conn);
                assert_eq!(one.count, n);
                if order == LabelOrder::Raster {
                    assert_eq!(one.labels, want, "{conn:?}\n{g}");
                    assert_eq!(one.stats, want_stats);
                }
                for &rows in (1..=5).collect::<Vec<_>>().iter().chain(extra) {
                    let striped = outcome(base().with_stripes(0, rows), g, conn);
                    assert_eq!(
                        striped, one,
                        "{conn:?} {order:?} {path} stripes of {rows}\n{g}"
                    );
                }
            }
        }
    }
}

fn hash(seed: u64, x: usize, y: usize) -> u64 {
    let mut r = Rng(seed ^ ((x as u64) << 32 | y as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    r.next_u64()
}

/// Random cells at `density` percent; `blobs` copies a coarse pattern, for long runs and
/// large components.
fn noise(w: usize, h: usize, seed: u64, density: u64, blobs: bool) -> BitGrid {
    BitGrid::from_fn(w, h, |x, y| {
        let (cx, cy) = if blobs { (x / 4, y / 3) } else { (x, y) };
        hash(seed, cx, cy) % 100 < density
    })
    .unwrap()
}

/// The kit's serpentine: full rows every other row, joined at alternate ends, one component
/// that crosses every stripe border many times. `diagonal` leaves the joins at the right end
/// (rows `y % 4 == 1`) out of a one-column grid, as this test's own copy did.
fn serpentine(w: usize, h: usize, diagonal: bool) -> BitGrid {
    let g = gridbits_testkit::serpentine(w, h);
    if diagonal && w == 1 {
        BitGrid::from_fn(w, h, |x, y| g.get(x, y) && y % 4 != 1).unwrap()
    } else {
        g
    }
}

/// A square spiral: one long component that enters every stripe several times.
fn spiral(w: usize, h: usize) -> BitGrid {
    let mut g = BitGrid::new(w, h);
    let (mut x0, mut y0, mut x1, mut y1) = (0i64, 0i64, w as i64 - 1, h as i64 - 1);
    while x0 <= x1 && y0 <= y1 {
        for x in x0..=x1 {
            g.set(x as usize, y0 as usize);
        }
        for y in y0..=y1 {
            g.set(x1 as usize, y as usize);
        }
        if y1 > y0 + 1 {
            for x in x0..=x1 {
                g.set(x as usize, y1 as usize);
            }
        }
        if x1 > x0 + 2 && y1 > y0 + 2 {
            for y in y0 + 2..=y1 {
                g.set(x0 as usize, y as usize);
            }
            if y0 + 2 <= y1 && x0 < x1 {
                g.set((x0 + 1) as usize, (y0 + 2) as usize);
            }
        }
        (x0, y0, x1, y1) = (x0 + 2, y0 + 2, x1 - 2, y1 - 2);
    }
    g
}

/// Shapes that join stripes in awkward ways: U shapes opening downwards (two pieces of a
/// stripe joined below it), diagonal staircases (8-connected across the borders only), a
/// checkerboard.
fn shapes(w: usize, h: usize, kind: u32) -> BitGrid {
    BitGrid::from_fn(w, h, |x, y| match kind {
        0 => x % 4 != 1 && (y % 6 == 5 || x % 4 == 0 || x % 4 == 2),
        1 => (x + y).is_multiple_of(5),
        2 => (x + y).is_multiple_of(2),
        _ => (w - 1 - x.min(w - 1) + y).is_multiple_of(3),
    })
    .unwrap()
}

#[test]
fn striped_labels_empty_full_and_patterns() {
    for &(w, h) in SIZES {
        check_striped(&BitGrid::new(w, h), &[]);
        check_striped(&BitGrid::full(w, h), &[h.saturating_sub(1).max(1)]);
        for diagonal in [false, true] {
            check_striped(&serpentine(w, h, diagonal), &[]);
        }
        check_striped(&spiral(w, h), &[7]);
        for kind in 0..4 {
            check_striped(&shapes(w, h, kind), &[]);
        }
    }
}

#[test]
fn striped_labels_on_larger_patterns() {
    for (w, h) in [(65, 40), (130, 33), (64, 64)] {
        check_striped(&spiral(w, h), &[8, 16]);
        check_striped(&serpentine(w, h, true), &[6]);
        check_striped(&shapes(w, h, 0), &[6]);
    }
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn striped_labels_match_one_thread_on_core_sizes(
        seed in any::<u64>(), density in 0u64..=100, blobs in any::<bool>(),
    ) {
        for &(w, h) in SIZES {
            check_striped(&noise(w, h, seed, density, blobs), &[]);
        }
    }

    #[test]
    fn striped_labels_match_one_thread_on_random_sizes(
        w in 1usize..=140, h in 1usize..=30, seed in any::<u64>(), density in 0u64..=100,
        blobs in any::<bool>(), rows in 1usize..=12,
    ) {
        check_striped(&noise(w, h, seed, density, blobs), &[rows]);
    }
}

/// Large grids, above and below [`LABEL_MIN_CELLS`]: 2 threads (stripes of the default
/// size) equal 1 thread and the naive labels.
#[test]
fn threshold_grids_on_one_and_two_threads() {
    let side = 1 << 10; // 1024 x 1024 = LABEL_MIN_CELLS
    assert_eq!(side * side, LABEL_MIN_CELLS);
    for (w, h, density, blobs) in [
        (side, side, 50, false),
        (side + 1, side, 62, true),
        (side - 1, side, 45, false),
        (side, side - 1, 35, true),
    ] {
        let g = noise(w, h, 0x5eed ^ w as u64, density, blobs);
        let ng = NaiveGrid::from_view(&g);
        for conn in CONNS {
            let (want, n) = nc::label(&ng, conn);
            let want_stats = naive_stats(&ng, conn);
            for order in [LabelOrder::Raster, LabelOrder::RowPairs] {
                let run = |threads| {
                    with_threads(threads, || {
                        let want = if cfg!(feature = "parallel") {
                            threads
                        } else {
                            1
                        };
                        assert_eq!(current_threads(), want);
                        outcome(Labeller::new().with_order(order), &g, conn)
                    })
                    .unwrap()
                };
                let (one, two) = (run(1), run(2));
                assert_eq!(one.count, n);
                if order == LabelOrder::Raster {
                    assert_eq!(one.labels, want);
                    assert_eq!(one.stats, want_stats);
                }
                assert_eq!(two, one, "{w}x{h} {conn:?} {order:?}");
            }
            // The free functions, on the default pool.
            assert_eq!(
                gridbits::algo::label::label(&g, conn).unwrap().as_slice(),
                want
            );
            assert_eq!(gridbits::algo::label::stats(&g, conn).unwrap(), want_stats);
            assert_eq!(gridbits::algo::label::count(&g, conn).unwrap(), n);
        }
    }
}

/// A comb: a tooth every `gap` columns from the top row down, all joined by the bottom
/// row, and noise between the teeth, off the columns beside them (none with a gap of 3).
/// Its first stripe holds the teeth as separate pieces, joined only through the last
/// stripe, so a pipelined labelling can write none of that stripe's rows early.
fn comb(w: usize, h: usize, gap: usize) -> BitGrid {
    let mut g = noise(w, h, 0xc0b, 30, false);
    for y in 0..h {
        for x in 0..w {
            let tooth = x % gap == 0;
            if tooth || y + 1 == h {
                g.set(x, y);
            } else if x % gap == 1 || x % gap == gap - 1 {
                // Keep the noise off the teeth: each tooth a piece of its own above.
                g.clear(x, y);
            }
        }
    }
    g
}

/// The pipelined first stripe (its final rows written during the scans of the others, the
/// rest after the borders are joined), on the default layout with 2 threads, in both orders
/// and on every code path: the comb, whose teeth meet below the first stripe (none of its
/// rows final early), and a comb with its bar in the first stripe (all of them).
#[test]
fn pipelined_first_stripe_equals_one_thread() {
    let side = 1 << 10;
    assert_eq!(side * side, LABEL_MIN_CELLS);
    let mut bar_high = comb(side, side, 4);
    for x in 0..side {
        bar_high.set(x, 3);
    }
    for g in [comb(side, side, 4), comb(side + 3, side, 7), bar_high] {
        let ng = NaiveGrid::from_view(&g);
        for conn in CONNS {
            let (want, n) = nc::label(&ng, conn);
            for order in [LabelOrder::Raster, LabelOrder::RowPairs] {
                for path in ["best", "avx2", "portable"] {
                    let run = |threads| {
                        with_threads(threads, || {
                            let l = Labeller::new().with_order(order);
                            let mut l = match path {
                                "avx2" => l.with_level(Level::Avx2),
                                "portable" => l.with_level(Level::Portable),
                                _ => l,
                            };
                            let mut image = Labels::new();
                            let count = l.label(&g, conn, &mut image).unwrap();
                            (image.as_slice().to_vec(), count)
                        })
                        .unwrap()
                    };
                    let one = run(1);
                    assert_eq!(one.1, n);
                    if order == LabelOrder::Raster {
                        assert_eq!(one.0, want, "{conn:?} {path} one thread");
                    }
                    assert_eq!(run(2), one, "{conn:?} {order:?} {path} two threads");
                }
            }
        }
    }
}

/// The first stripe's rows written early end above the unit that gave the second smallest
/// label of its last row, a label joined to the first: the only one its unit gives, one
/// unit below that first one (4-connected, stripes of 6 rows), and with 8-connectivity a
/// piece whose first cell is in the bottom row of its row pair (stripes of 8 rows). Writing
/// one unit more early leaves a wrong label.
#[test]
fn pipelined_early_rows_end_at_the_second_label_of_the_last_row() {
    let grid = |cells: &[(usize, usize)]| {
        let mut g = BitGrid::new(5, 12);
        for &(x, y) in cells {
            g.set(x, y);
        }
        g
    };
    // A dot; a column from row 2 and one from row 3, joined by row 6 (the second stripe).
    let mut four = vec![(0, 0)];
    four.extend((2..6).map(|y| (1, y)));
    four.extend((3..6).map(|y| (3, y)));
    four.extend((1..4).map(|x| (x, 6)));
    // A dot; a column from row 2 and one from row 5 (the bottom row of the pair 4-5),
    // joined by row 8 (the second stripe).
    let mut eight = vec![(0, 0)];
    eight.extend((2..8).map(|y| (1, y)));
    eight.extend((5..8).map(|y| (4, y)));
    eight.extend((1..5).map(|x| (x, 8)));
    for g in [grid(&four), grid(&eight)] {
        check_striped(&g, &[6, 8]);
    }
}

/// The rows of the first stripe left for the last pass are renumbered with a map that starts
/// at their smallest label, not at the label of their first run: here a column at x = 1000
/// (label 1, in every row) lies right of the first run of those rows (the column at x = 2,
/// label 2, whose start ends the rows written early), and two columns joined by a bar in the
/// second stripe make label 3 and 4 one component. On the default layout with 2 threads.
#[test]
fn pipelined_map_starts_at_the_smallest_label_left() {
    let side = 1 << 10;
    let mut g = BitGrid::new(side, side);
    for y in 0..side {
        g.set(1000, y);
        if y >= 10 {
            g.set(2, y);
        }
        if (20..=700).contains(&y) {
            g.set(4, y);
        }
        if (21..=700).contains(&y) {
            g.set(6, y);
        }
    }
    g.set(5, 700);
    for y in (30..440).step_by(3) {
        for x in (20..900).step_by(4) {
            g.set(x, y);
        }
    }
    let ng = NaiveGrid::from_view(&g);
    for conn in CONNS {
        let (want, n) = nc::label(&ng, conn);
        let (labels, count) = with_threads(2, || {
            let mut image = Labels::new();
            let count = Labeller::new().label(&g, conn, &mut image).unwrap();
            (image.as_slice().to_vec(), count)
        })
        .unwrap();
        assert_eq!(count, n, "{conn:?}");
        assert_eq!(labels, want, "{conn:?}");
    }
}

/// Pieces of several units (the first stripe of 18 to 36 rows, in 8 pieces) on every code
/// path and both connectivities, on noise and a spiral.
#[test]
fn pipelined_pieces_of_several_units() {
    check_striped(&noise(100, 80, 0x9ec3, 45, false), &[18, 34]);
    check_striped(&noise(100, 80, 0x9ec4, 60, true), &[18, 34]);
    check_striped(&spiral(65, 80), &[18, 36]);
    for (w, h) in [(40, 30), (65, 17), (9, 64)] {
        check_striped(&comb(w, h, 4), &[7, 10]);
    }
}
