//! Every flood fill engine of runtime grids (`fill`, `fill_sweep`, `fill_runs`, `fill_union`
//! and its portable copy, and with the `parallel` feature `fill_union_parallel`) against the
//! per-cell oracle `naive::fill`: random densities, mazes, serpentines, word-boundary widths,
//! single rows and columns, empty and full grids, many seeds and seeds on walls; and
//! `fill_from` (one start cell) from the first seed of each case, and `fill_count` (with
//! its default windows and with windows small enough to grow on these grids) from several.

use crate::common::{config, maze, SplitMix, CONNS};
use gridbits::algo::fill::{
    fill, fill_count, fill_count_windows, fill_from, fill_runs, fill_sweep, fill_union,
    try_fill_count, try_fill_from,
};
use gridbits::cpu::{with_level, Level};
use gridbits::naive::{fill as nf, NaiveGrid};
use gridbits::{BitGrid, Connectivity};
use gridbits_testkit::{percent_grid as random, serpentine};
use proptest::prelude::*;

/// Checks every engine on one grid and seed set, both connectivities.
fn check_engines(seeds: &BitGrid, passable: &BitGrid, what: &str) {
    let (ns, np) = (NaiveGrid::from_view(seeds), NaiveGrid::from_view(passable));
    for conn in CONNS {
        let expected = nf::fill(&ns, &np, conn);
        let engines: Vec<(&str, BitGrid)> = vec![
            ("fill", fill(seeds, passable, conn)),
            ("fill_sweep", fill_sweep(seeds, passable, conn)),
            ("fill_runs", fill_runs(seeds, passable, conn)),
            ("fill_union", fill_union(seeds, passable, conn)),
            (
                "fill_union portable",
                with_level(Level::Portable, || fill_union(seeds, passable, conn)),
            ),
            #[cfg(feature = "parallel")]
            (
                "fill_union_parallel",
                gridbits::algo::fill::fill_union_parallel(seeds, passable, conn),
            ),
        ];
        for (name, got) in engines {
            assert_eq!(
                NaiveGrid::from_view(&got),
                expected,
                "{name} {conn:?} on {what} {}x{}",
                passable.width(),
                passable.height()
            );
        }
        // One start cell: the first seed (on a wall or not).
        if let Some(start) = seeds.iter().next() {
            let mut one = seeds.empty_like();
            one.set(start.0, start.1);
            let expected = nf::fill(&NaiveGrid::from_view(&one), &np, conn);
            assert_eq!(
                NaiveGrid::from_view(&fill_from(passable, start, conn)),
                expected,
                "fill_from {start:?} {conn:?} on {what} {}x{}",
                passable.width(),
                passable.height()
            );
            let tried = try_fill_from(passable, start, conn).expect("a start on the grid");
            assert_eq!(
                NaiveGrid::from_view(&tried),
                expected,
                "try_fill_from {start:?}"
            );
        }
        check_counts(seeds, passable, conn, what);
    }
}

/// Windows of `fill_count_windows`: (rows above and below, words beside, share of the grid);
/// the first is `fill_count`'s default, the others grow on grids of a few words.
const WINDOWS: [((usize, usize), usize); 5] = [
    ((8, 1), 128),
    ((0, 0), 1),
    ((1, 0), 1),
    ((2, 1), 2),
    ((3, 0), 4),
];

/// `fill_count` and its windows against the oracle, from the first 8 seeds (on walls or not).
fn check_counts(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity, what: &str) {
    let np = NaiveGrid::from_view(passable);
    for start in seeds.iter().take(8) {
        let mut one = seeds.empty_like();
        one.set(start.0, start.1);
        let expected = nf::fill(&NaiveGrid::from_view(&one), &np, conn).count() as u64;
        let (w, h) = (passable.width(), passable.height());
        assert_eq!(
            fill_count(passable, start, conn),
            expected,
            "fill_count {start:?} {conn:?} on {what} {w}x{h}"
        );
        assert_eq!(try_fill_count(passable, start, conn), Ok(expected));
        for (first, share) in WINDOWS {
            assert_eq!(
                fill_count_windows(passable, start, conn, first, share),
                expected,
                "fill_count_windows {first:?} 1/{share} from {start:?} {conn:?} on {what} {w}x{h}"
            );
        }
    }
}

#[test]
#[should_panic(expected = "the start cell (0, 2) is off the 5x2 grid")]
fn fill_count_off_the_grid_panics() {
    let free = BitGrid::full(5, 2);
    let _ = fill_count(&free, (0, 2), Connectivity::Four);
}

#[test]
fn try_fill_count_names_a_start_off_the_grid() {
    let free = BitGrid::full(5, 2);
    let err = try_fill_count(&free, (5, 1), Connectivity::Eight).unwrap_err();
    assert_eq!(err.to_string(), "cell (5, 1) is off the 5x2 grid");
    assert!(matches!(err, gridbits::GridError::OffGrid(_)));
}

#[test]
fn try_fill_from_names_a_start_off_the_grid() {
    let free = BitGrid::full(5, 2);
    for start in [(5, 0), (0, 2), (usize::MAX, usize::MAX)] {
        let err = try_fill_from(&free, start, Connectivity::Four).unwrap_err();
        assert!(matches!(err, gridbits::GridError::OffGrid(_)), "{start:?}");
        assert_eq!(
            err.to_string(),
            format!("cell ({}, {}) is off the 5x2 grid", start.0, start.1)
        );
    }
}

/// Pockets of every size around the default windows on a grid large enough to use the first
/// two (1024 x 1344: 21,504 words; the windows 51 and 165 words, each used while at most
/// 1/128 of the grid), starts everywhere, edges included.
#[test]
fn fill_count_matches_fill_from_on_a_large_grid() {
    let (w, h) = (1024, 1344);
    let mut rng = SplitMix(13);
    for pct in [45, 52, 58, 75] {
        let p = random(&mut rng, w, h, pct);
        let mut starts = random_seeds(&mut rng, w, h, 24);
        for (x, y) in [
            (0, 0),
            (w - 1, h - 1),
            (0, h - 1),
            (w - 1, 0),
            (64, 17),
            (63, 200),
        ] {
            starts.set(x, y);
        }
        for conn in CONNS {
            for start in starts.iter() {
                assert_eq!(
                    fill_count(&p, start, conn),
                    fill_from(&p, start, conn).count(),
                    "{pct}% {start:?} {conn:?}"
                );
            }
        }
    }
}

#[test]
#[should_panic(expected = "the start cell (5, 0) is off the 5x2 grid")]
fn fill_from_off_the_grid_panics() {
    let free = BitGrid::full(5, 2);
    let _ = fill_from(&free, (5, 0), Connectivity::Four);
}

/// Seeds: `k` random cells (some on walls, some off the passable cells).
fn random_seeds(rng: &mut SplitMix, w: usize, h: usize, k: usize) -> BitGrid {
    let mut s = BitGrid::new(w, h);
    for _ in 0..k {
        s.set(rng.below(w as u64) as usize, rng.below(h as u64) as usize);
    }
    s
}

/// Sizes around word boundaries and degenerate shapes: 1x1, one row, one column, 64 and
/// 128 cells, widths 63/64/65/127/128/129.
const SIZES: [(usize, usize); 16] = [
    (1, 1),
    (1, 37),
    (37, 1),
    (200, 1),
    (1, 200),
    (64, 1),
    (8, 8),
    (128, 1),
    (16, 8),
    (63, 17),
    (64, 20),
    (65, 9),
    (127, 5),
    (128, 33),
    (129, 70),
    (97, 130),
];

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn engines_match_naive_on_random_grids(size in 0..SIZES.len(), pct in 0u32..=100,
                                           k in 1usize..20, seed: u64) {
        let (w, h) = SIZES[size];
        let mut rng = SplitMix(seed);
        let passable = random(&mut rng, w, h, pct);
        let seeds = random_seeds(&mut rng, w, h, k);
        check_engines(&seeds, &passable, &format!("{pct}% noise"));
    }
}

#[test]
fn engines_match_naive_on_mazes_and_serpentines() {
    let mut rng = SplitMix(7);
    for &(w, h) in SIZES.iter().chain(&[(200, 150), (255, 257), (300, 64)]) {
        let m = maze(&mut rng, w, h);
        for k in [1, 3, 40] {
            let seeds = random_seeds(&mut rng, w, h, k);
            check_engines(&seeds, &m, "maze");
        }
        // Seeds on every wall of the maze: nothing is reached.
        check_engines(&!&m, &m, "maze, seeds on walls");
        let s = serpentine(w, h);
        check_engines(&random_seeds(&mut rng, w, h, 2), &s, "serpentine");
    }
}

#[test]
fn engines_match_naive_on_empty_and_full_grids() {
    let mut rng = SplitMix(11);
    for &(w, h) in &SIZES {
        let (empty, full) = (BitGrid::new(w, h), BitGrid::full(w, h));
        let seeds = random_seeds(&mut rng, w, h, 3);
        check_engines(&seeds, &full, "full");
        check_engines(&seeds, &empty, "empty");
        check_engines(&empty, &full, "full, no seeds");
        check_engines(&full, &full, "full, every cell a seed");
        let half = random(&mut rng, w, h, 50);
        check_engines(&full, &half, "every cell a seed");
    }
}

/// Large enough that the row sweeps hand over to the union-find (a maze). `fill` takes the
/// union-find by stripes only from `FILL_MIN_CELLS` (4 Mpx), too large for this test, so the
/// striped engine is checked here by calling it directly.
#[test]
fn fill_hands_over_on_large_mazes() {
    let mut rng = SplitMix(3);
    for (w, h) in [(700, 300), (1030, 1025)] {
        let m = maze(&mut rng, w, h);
        let seeds = random_seeds(&mut rng, w, h, 5);
        let holes = random(&mut rng, w, h, 8);
        let mut cut = m.clone();
        cut.and_assign(&!&holes);
        for conn in [Connectivity::Four, Connectivity::Eight] {
            for p in [&m, &cut] {
                let expected = with_level(Level::Portable, || fill_union(&seeds, p, conn));
                assert_eq!(fill(&seeds, p, conn), expected, "fill {conn:?} {w}x{h}");
                // One thread and two.
                for threads in [1, 2] {
                    let got = gridbits::parallel::with_threads(threads, || fill(&seeds, p, conn));
                    assert_eq!(
                        got.unwrap(),
                        expected,
                        "fill {conn:?} {w}x{h} {threads} threads"
                    );
                }
                assert_eq!(fill_union(&seeds, p, conn), expected);
                assert_eq!(fill_runs(&seeds, p, conn), expected);
                #[cfg(feature = "parallel")]
                assert_eq!(
                    gridbits::algo::fill::fill_union_parallel(&seeds, p, conn),
                    expected
                );
            }
        }
        // The union-find agrees with the oracle on the smaller grid.
        if w * h < 300_000 {
            check_engines(&seeds, &m, "large maze");
        }
    }
}

/// Noise of 40% walls: the sweeps hand over with part of the grid filled.
#[test]
fn fill_hands_over_on_noise() {
    let mut rng = SplitMix(5);
    for pct in [55, 60, 65] {
        let p = random(&mut rng, 260, 200, pct);
        let seeds = random_seeds(&mut rng, 260, 200, 2);
        check_engines(&seeds, &p, "noise");
    }
}
