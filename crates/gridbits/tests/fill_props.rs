//! Property tests of `algo::fill` (flood fill, layers, distance maps, connection masks,
//! Voronoi) against the per-cell reference `naive::fill`, on every core board size and on
//! runtime grids around word boundaries.

use crate::common::{maze, SplitMix};
use gridbits::algo::distance::{
    connections_from_walls, distance_map, layers, Connections, DistanceEngine, Wall,
};
use gridbits::algo::fill::{self, fill_dilate, fill_runs, fill_sweep};
use gridbits::algo::voronoi::{voronoi, voronoi_depths, voronoi_n, VoronoiEngine};
use gridbits::naive::{fill as nf, NaiveGrid};
use gridbits::{BitGrid, Board, Connectivity, Dir, GridView, Moves};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

fn config(cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(0x00f1_11ed),
        failure_persistence: None,
        ..Config::default()
    }
}

/// A deterministic pseudo-random cell predicate from a seed and a density in 0..=100.
fn cells(seed: u64, density: u32) -> impl Fn(usize, usize) -> bool {
    move |x, y| {
        let mut z = seed ^ ((x as u64) << 32 | y as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % 100) < density as u64
    }
}

/// Builds a board of the size under test from a cell predicate.
type Maker<'a, B> = &'a dyn Fn(&dyn Fn(usize, usize) -> bool) -> B;

fn naive(b: &impl GridView) -> NaiveGrid {
    NaiveGrid::from_view(b)
}

const ALL_MOVES: [Moves; 5] = [
    Moves::Four,
    Moves::Eight,
    Moves::Rook,
    Moves::Bishop,
    Moves::Queen,
];

/// Checks every operation of `algo::fill` on one board against the oracle. `make` builds a
/// board of the size under test from a predicate.
fn check_all<B: fill::FloodFill + DistanceEngine + VoronoiEngine>(
    make: Maker<'_, B>,
    seed: u64,
    density: u32,
) {
    let passable = make(&cells(seed, density));
    let seeds = make(&cells(seed ^ 0xabc, 4));
    let (np, ns) = (naive(&passable), naive(&seeds));
    let (w, h) = (passable.width(), passable.height());

    for conn in [Connectivity::Four, Connectivity::Eight] {
        let expected = nf::fill(&ns, &np, conn);
        assert_eq!(
            naive(&fill::fill(&seeds, &passable, conn)),
            expected,
            "fill {conn:?}"
        );
        assert_eq!(
            naive(&fill_dilate(&seeds, &passable, conn)),
            expected,
            "fill_dilate"
        );
    }

    // Random connection masks (not necessarily symmetric) and wall-built ones.
    let con: Connections<B> =
        std::array::from_fn(|i| make(&cells(seed ^ ((i as u64 + 1) * 77), 75)));
    let ncon: nf::NaiveConnections = std::array::from_fn(|i| naive(&con[i]));
    for moves in ALL_MOVES {
        for with_con in [false, true] {
            let c = with_con.then_some(&con);
            let nc = with_con.then_some(&ncon);
            let expected = nf::distance_map(&ns, &np, moves, nc);
            let got = distance_map(&seeds, &passable, moves, c);
            for y in 0..h {
                for x in 0..w {
                    assert_eq!(
                        got.get(x, y),
                        expected[y * w + x],
                        "distance {moves:?} con={with_con} at ({x}, {y})"
                    );
                }
            }
            // Layers: disjoint, depth-ordered, and exactly the cells at each distance.
            let mut seen = 0u64;
            for (depth, front) in layers(&seeds, &passable, moves, c) {
                let want = NaiveGrid::from_fn(w, h, |x, y| expected[y * w + x] == Some(depth));
                assert_eq!(naive(&front), want, "layer {depth} {moves:?}");
                seen += front.count();
            }
            assert_eq!(seen, expected.iter().filter(|d| d.is_some()).count() as u64);
        }
    }

    // Voronoi with 1 to 8 players; sources may be adjacent, and some share no room at all.
    for players in [1usize, 2, 3, 5, 8] {
        let sources: Vec<B> = (0..players)
            .map(|p| make(&cells(seed ^ ((p as u64 + 11) * 1_000_003), 2)))
            .collect();
        let nsrc: Vec<NaiveGrid> = sources.iter().map(naive).collect();
        for moves in [Moves::Four, Moves::Eight, Moves::Queen] {
            for with_con in [false, true] {
                let c = with_con.then_some(&con);
                let nc = with_con.then_some(&ncon);
                let want = nf::voronoi(&nsrc, &np, moves, nc);
                let (got, depth) = voronoi_depths(&sources, &passable, moves, c);
                let ctx = format!("voronoi players={players} {moves:?} con={with_con}");
                for p in 0..players {
                    assert_eq!(naive(&got.owned[p]), want.owned[p], "{ctx} player {p}");
                }
                assert_eq!(naive(&got.contested), want.contested, "{ctx} contested");
                for y in 0..h {
                    for x in 0..w {
                        assert_eq!(
                            depth.get(x, y),
                            want.depth[y * w + x],
                            "{ctx} depth ({x},{y})"
                        );
                        let claimed = want.depth[y * w + x].is_some();
                        assert_eq!(got.reached.get(x, y), claimed, "{ctx} reached ({x},{y})");
                    }
                }
                let plain = voronoi(&sources, &passable, moves, c);
                assert_eq!(plain, got);
                if players == 2 {
                    let n = voronoi_n(
                        &[sources[0].clone(), sources[1].clone()],
                        &passable,
                        moves,
                        c,
                    );
                    assert_eq!(
                        (&n.owned[..], &n.contested, n.depth),
                        (&plain.owned[..], &plain.contested, plain.depth)
                    );
                }
                assert_eq!(
                    plain.counts(),
                    want.owned.iter().map(|o| o.count()).collect::<Vec<_>>()
                );
            }
        }
    }

    // Connection masks from random walls, against the naive construction.
    let mut walls = Vec::new();
    let mut nwalls = Vec::new();
    for (i, (x, y)) in make(&cells(seed ^ 0x5eed, 30))
        .cells()
        .into_iter()
        .enumerate()
    {
        let dir = [Dir::N, Dir::E, Dir::S, Dir::W, Dir::NE][i % 5];
        walls.push(Wall { x, y, dir });
        nwalls.push((x, y, dir));
    }
    let con = connections_from_walls(&passable, &walls);
    let ncon = nf::connections_from_walls(w, h, &nwalls);
    for d in Dir::ALL {
        assert_eq!(naive(&con[d.index()]), ncon[d.index()], "connections {d:?}");
    }
}

macro_rules! fixed_board_tests {
    ($($name:ident: $w:literal x $h:literal in $n:literal;)*) => {$(
        mod $name {
            use super::*;
            type B = Board<$w, $h, $n>;
            fn make(f: &dyn Fn(usize, usize) -> bool) -> B {
                B::from_fn(|x, y| f(x, y))
            }
            #[test]
            fn matches_naive() {
                // Through `check`: the runner is compiled once, not once per size.
                let density = prop_oneof![Just(0u32), Just(100), 30..90u32];
                crate::common::check(config(24), (any::<u64>(), density).boxed(), &|(seed, density)| {
                    check_all(&make, seed, density);
                    Ok(())
                });
            }
            #[test]
            fn same_on_bitgrid() {
                // The fixed board and the runtime grid agree on the same input.
                for seed in 0..8u64 {
                    let f = cells(seed, 65);
                    let b = B::from_fn(|x, y| f(x, y));
                    let g = BitGrid::from_fn($w, $h, |x, y| f(x, y)).unwrap();
                    let s = B::cell(0, 0);
                    let mut gs = BitGrid::new($w, $h);
                    gs.set(0, 0);
                    for conn in [Connectivity::Four, Connectivity::Eight] {
                        assert_eq!(naive(&fill::fill(&s, &b, conn)), naive(&fill::fill(&gs, &g, conn)));
                    }
                }
            }
        }
    )*};
}

fixed_board_tests! {
    b1x1: 1 x 1 in 1;
    b1x40: 1 x 40 in 1;
    b40x1: 40 x 1 in 1;
    b64x1: 64 x 1 in 1;
    b1x128: 1 x 128 in 2;
    b6x12: 6 x 12 in 2;
    b8x8: 8 x 8 in 1;
    b16x8: 16 x 8 in 2;
    b9x9: 9 x 9 in 2;
    b10x10: 10 x 10 in 2;
    b10x40: 10 x 40 in 7;
    b30x20: 30 x 20 in 10;
}

fn grid_make(w: usize, h: usize) -> impl Fn(&dyn Fn(usize, usize) -> bool) -> BitGrid {
    move |f| BitGrid::from_fn(w, h, f).unwrap()
}

proptest! {
    #![proptest_config(config(24))]
    #[test]
    fn bitgrid_matches_naive(
        w in prop_oneof![Just(1usize), Just(63), Just(64), Just(65), Just(127), Just(128), Just(129)],
        h in prop_oneof![Just(1usize), Just(2), Just(7), Just(33)],
        seed in any::<u64>(),
        density in prop_oneof![Just(0u32), Just(100), 40..90u32],
    ) {
        check_all(&grid_make(w, h), seed, density);
        // The two large-grid fills directly, 4- and 8-connected.
        let make = grid_make(w, h);
        let passable = make(&cells(seed, density));
        let seeds = make(&cells(seed ^ 0x77, 3));
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let want = nf::fill(&naive(&seeds), &naive(&passable), conn);
            prop_assert_eq!(naive(&fill_runs(&seeds, &passable, conn)), want.clone());
            prop_assert_eq!(naive(&fill_sweep(&seeds, &passable, conn)), want);
        }
    }
}

#[test]
fn sweep_fill_on_mazes_and_serpentines() {
    // Mazes: every cell of a perfect maze is reachable from the corner.
    for seed in 1..6u64 {
        let m = maze(&mut SplitMix(seed), 2 * 40 - 1, 2 * 33 - 1);
        let mut s = m.empty_like();
        s.set(0, 0);
        for conn in [Connectivity::Four, Connectivity::Eight] {
            // Long enough that the sweeps run out of budget and hand over to the run stack.
            let got = fill_sweep(&s, &m, conn);
            let want = nf::fill(&naive(&s), &naive(&m), conn);
            assert_eq!(naive(&got), want);
            assert_eq!(naive(&fill_runs(&s, &m, conn)), want);
        }
        assert_eq!(fill_sweep(&s, &m, Connectivity::Four), m);
    }
    // A vertical serpentine: every corridor reverses direction (worst case for sweeps).
    let (w, h) = (130, 20);
    let serp = BitGrid::from_fn(w, h, |x, y| {
        x % 2 == 0 || (y == 0 && x % 4 == 1) || (y == h - 1 && x % 4 == 3)
    })
    .unwrap();
    let mut s = serp.empty_like();
    s.set(w - 2, h - 1);
    let got = fill_sweep(&s, &serp, Connectivity::Four);
    assert_eq!(
        naive(&got),
        nf::fill(&naive(&s), &naive(&serp), Connectivity::Four)
    );
    assert_eq!(got, serp);
    assert_eq!(fill_runs(&s, &serp, Connectivity::Four), serp);
    // Runs spanning several words, reached from a seed in the middle of a word.
    let wide = BitGrid::from_fn(300, 3, |x, y| y != 1 || x == 299).unwrap();
    let mut s = wide.empty_like();
    s.set(100, 0);
    assert_eq!(fill_runs(&s, &wide, Connectivity::Four), wide);
    assert_eq!(fill_sweep(&s, &wide, Connectivity::Four), wide);
}

#[test]
fn voronoi_example_of_the_bit_shift_bfs_article() {
    // Amazonial-style: two players, 8-connected, on an 8x8 board; each owns its side.
    type B = Board<8, 8, 1>;
    let free = B::FULL;
    let v = voronoi(&[B::cell(0, 0), B::cell(7, 7)], &free, Moves::Eight, None);
    // Chebyshev distance: cells with max(|dx|,|dy|) equal from both corners are contested.
    let expect_contested = B::from_fn(|x, y| x.max(y) == (7 - x).max(7 - y));
    assert_eq!(v.contested, expect_contested);
    assert_eq!(v.owned[0].count(), v.owned[1].count());
    assert_eq!(
        v.owned[0].count() + v.owned[1].count() + v.contested.count(),
        64
    );
}

#[test]
fn walls_off_the_board_are_ignored() {
    type B = Board<9, 9, 2>;
    let off = [
        Wall {
            x: 9,
            y: 0,
            dir: Dir::W,
        },
        Wall {
            x: 0,
            y: 9,
            dir: Dir::N,
        },
        Wall {
            x: usize::MAX,
            y: 3,
            dir: Dir::E,
        },
        Wall {
            x: 8,
            y: 8,
            dir: Dir::E,
        },
    ];
    let con = connections_from_walls(&B::EMPTY, &off);
    let free = connections_from_walls(&B::EMPTY, &[]);
    assert_eq!(con, free);
    let g = BitGrid::new(9, 9);
    assert_eq!(
        connections_from_walls(&g, &off),
        connections_from_walls(&g, &[])
    );
}

#[test]
fn no_players_and_isolated_players() {
    type B = Board<5, 5, 1>;
    let v = voronoi::<B>(&[], &B::FULL, Moves::Four, None);
    assert!(v.owned.is_empty() && v.reached.is_empty());
    // Player 1 is walled in: it owns only its source.
    let walls = B::from_fn(|x, y| (x, y) == (3, 4) || (x, y) == (4, 3));
    let v = voronoi(&[B::cell(0, 0), B::cell(4, 4)], &!walls, Moves::Four, None);
    assert_eq!(v.counts(), vec![22, 1]);
    // Two players on the same cell: it is contested.
    let v = voronoi(&[B::cell(2, 2), B::cell(2, 2)], &B::FULL, Moves::Four, None);
    assert!(v.contested.get(2, 2));
}

#[test]
fn grids_of_different_sizes_are_an_error_not_a_panic() {
    use gridbits::algo::distance::{try_distance_map, try_layers};
    use gridbits::algo::fill::try_fill;
    use gridbits::algo::voronoi::{try_voronoi, try_voronoi_depths};
    use gridbits::GridError;
    use gridbits::SizeMismatch;
    let free = BitGrid::full(7, 5);
    let mut a = BitGrid::new(7, 5);
    a.set(0, 0);
    let mut b = BitGrid::new(7, 5);
    b.set(6, 4);
    let odd = BitGrid::new(7, 6);
    let err = |what| {
        GridError::Mismatch(SizeMismatch {
            what,
            reference: "passable",
            expected: (7, 5),
            found: (7, 6),
        })
    };
    for conn in [Connectivity::Four, Connectivity::Eight] {
        assert_eq!(try_fill(&odd, &free, conn), Err(err("seeds")));
        assert_eq!(try_fill(&a, &free, conn).unwrap(), free);
    }
    let bad_con = connections_from_walls(&odd, &[]);
    let good_con = connections_from_walls(&free, &[]);
    for moves in ALL_MOVES {
        assert_eq!(
            try_layers(&odd, &free, moves, None).err(),
            Some(err("sources"))
        );
        assert_eq!(
            try_layers(&a, &free, moves, Some(&bad_con)).err(),
            Some(err("a connection mask"))
        );
        assert_eq!(
            try_distance_map(&odd, &free, moves, None),
            Err(err("sources"))
        );
        assert_eq!(
            try_distance_map(&a, &free, moves, Some(&good_con)).unwrap(),
            distance_map(&a, &free, moves, None)
        );
        let two = [a.clone(), odd.clone()];
        assert_eq!(
            try_voronoi(&two, &free, moves, None).err(),
            Some(err("a source"))
        );
        assert_eq!(
            try_voronoi_depths(&two, &free, moves, None).err(),
            Some(err("a source"))
        );
        assert_eq!(
            try_voronoi(&[a.clone(), b.clone()], &free, moves, Some(&bad_con)).err(),
            Some(err("a connection mask"))
        );
        let ok = try_voronoi(&[a.clone(), b.clone()], &free, moves, None).unwrap();
        assert_eq!(ok, voronoi(&[a.clone(), b.clone()], &free, moves, None));
    }
    assert_eq!(
        err("a source").to_string(),
        "a source is 7x6, expected 7x5 (the size of passable)"
    );
}

#[test]
#[should_panic(expected = "a source is 7x6, expected 7x5 (the size of passable)")]
fn voronoi_names_the_mismatched_source() {
    let free = BitGrid::full(7, 5);
    let odd = BitGrid::new(7, 6);
    let _ = voronoi(&[free.clone(), odd], &free, Moves::Four, None);
}

#[test]
#[should_panic(expected = "seeds is 8x5, expected 7x5 (the size of passable)")]
fn fill_names_the_mismatched_seeds() {
    let free = BitGrid::full(7, 5);
    let _ = fill::fill(&BitGrid::new(8, 5), &free, Connectivity::Four);
}

#[test]
fn no_sources_reach_nothing_on_both_board_kinds() {
    type B = Board<9, 9, 2>;
    let grid = BitGrid::full(70, 3);
    for moves in ALL_MOVES {
        let v = voronoi::<B>(&[], &B::FULL, moves, None);
        assert!(v.owned.is_empty() && v.reached.is_empty() && v.contested.is_empty());
        assert_eq!(v.depth, 0);
        let v = voronoi::<BitGrid>(&[], &grid, moves, None);
        assert!(v.owned.is_empty() && v.reached.is_empty() && v.depth == 0);
        let (v, d) = voronoi_depths::<BitGrid>(&[], &grid, moves, None);
        assert!(v.reached.is_empty() && d.max().is_none());
        let d = distance_map(&B::EMPTY, &B::FULL, moves, None);
        assert_eq!(d.max(), None);
        assert_eq!(layers(&B::EMPTY, &B::FULL, moves, None).count(), 0);
    }
}
