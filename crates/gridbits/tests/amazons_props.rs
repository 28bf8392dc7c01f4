//! The Amazons evaluator against the per-cell BFS: territories on thousands of random
//! positions, queen and king distance maps, mobility; and hand-made positions.

use crate::common::{config, SplitMix as Rng};

use gridbits::games::amazons::{Position, Side, SideDistances, Territory};
use gridbits::naive::{self, NaiveGrid};
use gridbits::{Board10x10, Moves};
use proptest::prelude::*;

/// A random position: `arrow_pct` arrows, then `nw` white and `nb` black amazons on distinct
/// cells.
fn position(seed: u64, arrow_pct: u64, nw: usize, nb: usize) -> Position {
    let mut rng = Rng(seed);
    let mut kind = [0u8; 100];
    for k in kind.iter_mut() {
        if rng.next() % 100 < arrow_pct {
            *k = 3;
        }
    }
    for (side, n) in [(1u8, nw), (2u8, nb)] {
        for _ in 0..n {
            let i = (rng.next() % 100) as usize;
            kind[i] = side;
        }
    }
    let board = |k: u8| Board10x10::from_fn(|x, y| kind[y * 10 + x] == k);
    Position::new(board(1), board(2), board(3))
}

fn grids(p: &Position) -> (NaiveGrid, NaiveGrid, NaiveGrid) {
    (
        NaiveGrid::from_view(&p.white()),
        NaiveGrid::from_view(&p.black()),
        NaiveGrid::from_view(&p.arrows()),
    )
}

fn check_distances(map: &SideDistances, naive: &[Option<u32>]) -> Result<(), TestCaseError> {
    for y in 0..10 {
        for x in 0..10 {
            prop_assert_eq!(
                map.get(x, y).map(u32::from),
                naive[y * 10 + x],
                "cell ({}, {})",
                x,
                y
            );
        }
    }
    Ok(())
}

fn check_position(p: &Position) -> Result<(), TestCaseError> {
    let (w, b, a) = grids(p);
    let want = naive::amazons::evaluate(&w, &b, &a);
    let got = p.evaluate();
    prop_assert_eq!(got, want, "position\n{}", p);
    let [qmap, kmap] = p.territory_maps();
    prop_assert_eq!(qmap.counts(), want.queen);
    prop_assert_eq!(kmap.counts(), want.king);
    let all = qmap.white | qmap.black | qmap.contested | qmap.unreachable;
    prop_assert_eq!(all, p.empty());
    Ok(())
}

proptest! {
    #![proptest_config(config(4000))]

    /// The bench's distribution: 4 + 4 amazons, 0-60% arrows.
    #[test]
    fn territory_matches_naive(seed in any::<u64>(), arrows in 0u64..=60) {
        check_position(&position(seed, arrows, 4, 4))?;
    }
}

proptest! {
    #![proptest_config(config(1500))]

    /// Any number of amazons per side (none too), any arrow density.
    #[test]
    fn territory_matches_naive_any_counts(seed in any::<u64>(), arrows in 0u64..=100,
                                         nw in 0usize..8, nb in 0usize..8) {
        check_position(&position(seed, arrows, nw, nb))?;
    }

    #[test]
    fn distance_maps_and_mobility_match_naive(seed in any::<u64>(), arrows in 0u64..=70,
                                              nw in 0usize..6, nb in 0usize..6) {
        let p = position(seed, arrows, nw, nb);
        let (w, b, a) = grids(&p);
        let empty = naive::amazons::empty_cells(&w, &b, &a);
        let [qw, qb] = p.queen_distances();
        check_distances(&qw, &naive::amazons::distances(&w, &empty, Moves::Queen))?;
        check_distances(&qb, &naive::amazons::distances(&b, &empty, Moves::Queen))?;
        let [kw, kb] = p.king_distances();
        check_distances(&kw, &naive::amazons::distances(&w, &empty, Moves::Eight))?;
        check_distances(&kb, &naive::amazons::distances(&b, &empty, Moves::Eight))?;
        for side in [Side::White, Side::Black] {
            let mut total = 0;
            for ((x, y), n) in p.mobility(side) {
                prop_assert_eq!(n, naive::amazons::mobility(&empty, x, y));
                prop_assert_eq!(p.moves_from(x, y).count(), n);
                total += n;
            }
            prop_assert_eq!(p.total_mobility(side), total);
        }
    }
}

/// A ray slides through cells the other side claimed first: the propagator is the set of
/// empty cells, not the empty cells nobody has reached yet.
#[test]
fn rays_slide_through_cells_the_other_side_claimed() {
    // White climbs column 0 in one move, then sweeps row 0 in a second, through (4..=6, 0)
    // that black reached in one move. Treating those as blocked would hand (7..=9, 0) to
    // black; they are contested (both at distance 2).
    let p = Position::parse(
        "..........\n\
         .####B####\n\
         .#########\n\
         .#########\n\
         .#########\n\
         .#########\n\
         .#########\n\
         .#########\n\
         .#########\n\
         W#########\n",
    )
    .unwrap();
    let [qw, qb] = p.queen_distances();
    assert_eq!(qw.get(0, 0), Some(1));
    assert_eq!(qw.get(9, 0), Some(2));
    assert_eq!(qb.get(5, 0), Some(1));
    assert_eq!(qb.get(9, 0), Some(2));
    assert_eq!(qb.get(0, 5), Some(3));
    let e = p.evaluate();
    assert_eq!(
        e.queen,
        Territory {
            white: 9,
            black: 3,
            contested: 6,
            unreachable: 0
        }
    );
}

#[test]
fn opening_position() {
    let p = Position::parse(
        "...B..B...\n\
         ..........\n\
         ..........\n\
         B........B\n\
         ..........\n\
         ..........\n\
         W........W\n\
         ..........\n\
         ..........\n\
         ...W..W...\n",
    )
    .unwrap();
    let e = p.evaluate();
    let (w, b, a) = grids(&p);
    assert_eq!(e, naive::amazons::evaluate(&w, &b, &a));
    assert_eq!(e.queen.white, e.queen.black);
    assert_eq!(e.king.white, e.king.black);
    assert_eq!(e.queen.unreachable, 0);
    // Every amazon of the opening has the same number of moves by symmetry pairs.
    assert_eq!(p.total_mobility(Side::White), p.total_mobility(Side::Black));
}

#[test]
fn walled_off_regions_are_unreachable() {
    let p = Position::parse(
        "W..#......\n\
         ...#......\n\
         ####......\n\
         ..........\n\
         ......####\n\
         ......#...\n\
         ......#..B\n\
         ......#...\n\
         ......#...\n\
         ......#...\n",
    )
    .unwrap();
    let e = p.evaluate();
    assert_eq!(e.queen.white, 5);
    assert_eq!(e.queen.black, 14);
    assert_eq!(e.queen.contested, 0);
    assert_eq!(e.queen.unreachable, 100 - 15 - 2 - 5 - 14);
    assert_eq!(e.king, e.queen);
}

#[test]
fn parse_errors_name_line_and_column() {
    let err = |s: &str| Position::parse(s).unwrap_err().to_string();
    assert_eq!(
        err("W.\n.B\n"),
        "line 1, column 3: grid is 2x2, expected 10x10"
    );
    let mut rows = [".........."; 10];
    rows[3] = "....Q.....";
    assert_eq!(
        err(&rows.join("\n")),
        "line 4, column 5: unknown character 'Q'"
    );
    rows[3] = "..........";
    let nine = rows[..9].join("\n");
    assert_eq!(
        err(&nine),
        "line 10, column 1: grid is 10x9, expected 10x10"
    );
    assert!(err("").contains("empty grid"));
    // Lower-case x is an arrow, and any number of amazons is fine.
    rows[0] = "WWWWWxxxxx";
    rows[9] = "BBBBBBBBB#";
    let p = Position::parse(&rows.join("\n")).unwrap();
    assert_eq!(
        (p.white().count(), p.black().count(), p.arrows().count()),
        (5, 9, 6)
    );
    assert_eq!(p.to_text().lines().next(), Some("WWWWW#####"));
}

#[test]
fn empty_and_full_positions() {
    let none = Position::new(Board10x10::EMPTY, Board10x10::EMPTY, Board10x10::EMPTY);
    let e = none.evaluate();
    assert_eq!(
        e.queen,
        Territory {
            white: 0,
            black: 0,
            contested: 0,
            unreachable: 100
        }
    );
    assert_eq!(e.king, e.queen);
    let full = Position::try_new(
        Board10x10::cell(0, 0),
        Board10x10::EMPTY,
        !Board10x10::cell(0, 0),
    );
    assert_eq!(full.unwrap().evaluate().queen, Territory::default());
    assert!(Position::try_new(Board10x10::FULL, Board10x10::FULL, Board10x10::EMPTY).is_err());
}

/// The territory of `algo::voronoi::voronoi` with the amazons as sources and the empty cells as
/// passable, counted over the empty cells.
fn voronoi_territory<B: gridbits::algo::voronoi::VoronoiEngine>(
    white: &B,
    black: &B,
    empty: &B,
    moves: Moves,
) -> Territory {
    let v = gridbits::algo::voronoi::voronoi(&[white.clone(), black.clone()], empty, moves, None);
    let on_empty = |b: &B| {
        let mut b = b.clone();
        b.and_assign(empty);
        b.count() as u32
    };
    let mut unreached = empty.clone();
    unreached.and_not_assign(&v.reached);
    Territory {
        white: on_empty(&v.owned[0]),
        black: on_empty(&v.owned[1]),
        contested: on_empty(&v.contested),
        unreachable: unreached.count() as u32,
    }
}

proptest! {
    #![proptest_config(config(300))]

    /// Display then FromStr gives the position back, `x` arrows read as `#`.
    #[test]
    fn text_round_trip(seed in any::<u64>(), arrows in 0u64..=100, nw in 0usize..6, nb in 0usize..6) {
        let p = position(seed, arrows, nw, nb);
        let text = p.to_string();
        prop_assert_eq!(text.parse::<Position>().unwrap(), p);
        prop_assert_eq!(text.replace('#', "x").parse::<Position>().unwrap(), p);
        prop_assert_eq!(Position::parse(&p.to_text()).unwrap(), p);
    }

    /// The same territory on the other board kind (a runtime grid) and on a fixed board,
    /// through the generic Voronoi of `algo::fill`.
    #[test]
    fn territory_is_the_generic_voronoi(seed in any::<u64>(), arrows in 0u64..=60) {
        let p = position(seed, arrows, 4, 4);
        let e = p.evaluate();
        let (w, b, empty) = (p.white(), p.black(), p.empty());
        prop_assert_eq!(voronoi_territory(&w, &b, &empty, Moves::Queen), e.queen);
        prop_assert_eq!(voronoi_territory(&w, &b, &empty, Moves::Eight), e.king);
        let g = |x: &Board10x10| gridbits::BitGrid::from_fn(10, 10, |cx, cy| x.get(cx, cy)).unwrap();
        let (gw, gb, ge) = (g(&w), g(&b), g(&empty));
        prop_assert_eq!(voronoi_territory(&gw, &gb, &ge, Moves::Queen), e.queen);
        prop_assert_eq!(voronoi_territory(&gw, &gb, &ge, Moves::Eight), e.king);
    }
}

#[test]
fn the_standard_start() {
    let p = Position::start();
    assert_eq!(p.white().count(), 4);
    assert_eq!(p.black().count(), 4);
    assert!(p.arrows().is_empty());
    // Chess notation: a4 is column 0, row 10 - 4 = 6 from the top.
    for (x, y) in [(0, 6), (3, 9), (6, 9), (9, 6)] {
        assert_eq!(p.char_at(x, y), 'W');
    }
    for (x, y) in [(0, 3), (3, 0), (6, 0), (9, 3)] {
        assert_eq!(p.char_at(x, y), 'B');
    }
    assert_eq!(p.to_string().lines().next(), Some("...B..B..."));
    assert_eq!(p.to_string().lines().last(), Some("...W..W..."));
}
