//! Every ray method, on every board type and size, against the per-cell ray walk.

use crate::common::{check, config, SplitMix as Rng};

use gridbits::algo::slide::{
    self, generic_ray, reach, reach_with, subtract_ray, Approach, Method, Slide,
};
use gridbits::naive::{self, NaiveGrid};
use gridbits::{BitGrid, Board, Dir, Moves};
use proptest::prelude::*;

/// The (pieces, passable) cell predicates of one case: walls at `wall_pct`, pieces at
/// `piece_pct` anywhere (on walls too: a piece need not stand on a passable cell).
fn cells(w: usize, h: usize, seed: u64, wall_pct: u32, piece_pct: u32) -> Vec<(bool, bool)> {
    let mut rng = Rng(seed);
    (0..w * h)
        .map(|_| (rng.percent(piece_pct), !rng.percent(wall_pct)))
        .collect()
}

const MOVES: [Moves; 5] = [
    Moves::Four,
    Moves::Eight,
    Moves::Rook,
    Moves::Bishop,
    Moves::Queen,
];

/// Checks every method, galloping speed and approach, and every reach, on one case.
fn check_all<B: Slide>(pieces: &B, passable: &B) -> Result<(), TestCaseError> {
    let np = NaiveGrid::from_view(pieces);
    let nf = NaiveGrid::from_view(passable);
    for d in Dir::ALL {
        let expect = naive::slide::ray(&np, &nf, d, true);
        let got = |b: &B| NaiveGrid::from_view(b);
        for m in Method::ALL.into_iter().chain([Method::Auto]) {
            prop_assert_eq!(
                got(&pieces.ray_with(passable, d, m)),
                expect.clone(),
                "method {:?}, dir {:?}",
                m,
                d
            );
        }
        for s in 1..=4 {
            for a in [Approach::Accelerate, Approach::Decelerate] {
                prop_assert_eq!(
                    got(&pieces.gallop_ray_at(passable, d, s, a)),
                    expect.clone(),
                    "gallop 2^{} {:?}, dir {:?}",
                    s,
                    a,
                    d
                );
            }
        }
        prop_assert_eq!(got(&generic_ray(pieces, passable, d)), expect.clone());
        prop_assert_eq!(got(&slide::dumb7_ray(pieces, passable, d)), expect.clone());
        prop_assert_eq!(got(&slide::gallop_ray(pieces, passable, d)), expect.clone());
        prop_assert_eq!(
            got(&slide::kogge_stone_ray(pieces, passable, d)),
            expect.clone()
        );
        match subtract_ray(pieces, passable, d) {
            Some(r) => {
                prop_assert!(matches!(d, Dir::E | Dir::W));
                prop_assert_eq!(got(&r), expect.clone());
            }
            None => prop_assert!(!matches!(d, Dir::E | Dir::W)),
        }
        prop_assert_eq!(
            got(&slide::ray_fill(pieces, passable, d, false)),
            naive::slide::ray(&np, &nf, d, false)
        );
    }
    for moves in MOVES {
        let expect = naive::slide::reach(&np, &nf, moves);
        prop_assert_eq!(
            NaiveGrid::from_view(&reach(pieces, passable, moves)),
            expect.clone()
        );
        prop_assert_eq!(
            NaiveGrid::from_view(&reach_with(pieces, passable, moves, Method::Gallop)),
            expect.clone()
        );
    }
    let queen = naive::slide::reach(&np, &nf, Moves::Queen);
    prop_assert_eq!(
        NaiveGrid::from_view(&slide::queen_reach(pieces, passable)),
        queen
    );
    prop_assert_eq!(
        NaiveGrid::from_view(&slide::rook_reach(pieces, passable)),
        naive::slide::reach(&np, &nf, Moves::Rook)
    );
    prop_assert_eq!(
        NaiveGrid::from_view(&slide::bishop_reach(pieces, passable)),
        naive::slide::reach(&np, &nf, Moves::Bishop)
    );
    Ok(())
}

fn board_case<const W: usize, const H: usize, const N: usize>(
    seed: u64,
    wall_pct: u32,
    piece_pct: u32,
) -> Result<(), TestCaseError> {
    let c = cells(W, H, seed, wall_pct, piece_pct);
    let pieces = Board::<W, H, N>::from_fn(|x, y| c[y * W + x].0);
    let passable = Board::<W, H, N>::from_fn(|x, y| c[y * W + x].1);
    check_all(&pieces, &passable)
}

fn grid_case(
    w: usize,
    h: usize,
    seed: u64,
    wall_pct: u32,
    piece_pct: u32,
) -> Result<(), TestCaseError> {
    let c = cells(w, h, seed, wall_pct, piece_pct);
    let pieces = BitGrid::from_fn(w, h, |x, y| c[y * w + x].0).unwrap();
    let passable = BitGrid::from_fn(w, h, |x, y| c[y * w + x].1).unwrap();
    check_all(&pieces, &passable)
}

/// The values of one case: (seed, wall_pct, piece_pct). Every size runs through `check`, so
/// the proptest runner is compiled once, not once per size.
fn case() -> BoxedStrategy<(u64, u32, u32)> {
    (any::<u64>(), 0u32..=100, 0u32..=40).boxed()
}

macro_rules! board_tests {
    ($($name:ident: $w:expr, $h:expr, $n:expr, $cases:expr;)*) => {$(
        #[test]
        fn $name() {
            check(config($cases), case(), &|(seed, wall_pct, piece_pct)| {
                board_case::<$w, $h, $n>(seed, wall_pct, piece_pct)
            });
        }
    )*};
}

board_tests! {
    board_1x1: 1, 1, 1, 16;
    board_1x10: 1, 10, 1, 32;
    board_10x1: 10, 1, 1, 32;
    board_1x64_no_guard: 1, 64, 1, 32;
    board_64x1_no_guard: 64, 1, 1, 32;
    board_5x3: 5, 3, 1, 48;
    board_7x9_no_guard: 7, 9, 1, 48;
    board_6x12: 6, 12, 2, 64;
    board_8x8_no_guard: 8, 8, 1, 64;
    board_9x9: 9, 9, 2, 48;
    board_10x10: 10, 10, 2, 96;
    board_11x11_no_guard: 11, 11, 2, 48;
    board_10x40: 10, 40, 7, 32;
    board_30x20: 30, 20, 10, 24;
    board_64x64_no_guard: 64, 64, 64, 6;
}

macro_rules! grid_tests {
    ($($name:ident: $w:expr, $h:expr, $cases:expr;)*) => {$(
        #[test]
        fn $name() {
            check(config($cases), case(), &|(seed, wall_pct, piece_pct)| {
                grid_case($w, $h, seed, wall_pct, piece_pct)
            });
        }
    )*};
}

grid_tests! {
    grid_1x1: 1, 1, 8;
    grid_1x70: 1, 70, 8;
    grid_70x1: 70, 1, 8;
    grid_63x5: 63, 5, 16;
    grid_64x64: 64, 64, 6;
    grid_65x4: 65, 4, 16;
    grid_127x3: 127, 3, 12;
    grid_128x3: 128, 3, 12;
    grid_129x4: 129, 4, 12;
    grid_10x10: 10, 10, 24;
    grid_6x12: 6, 12, 16;
}

#[test]
fn empty_and_full_boards() {
    type B = Board<10, 10, 2>;
    for (pieces, passable) in [
        (B::EMPTY, B::FULL),
        (B::FULL, B::FULL),
        (B::FULL, B::EMPTY),
        (B::cell(0, 0), B::FULL),
        (B::cell(9, 9), B::FULL),
    ] {
        check_all(&pieces, &passable).unwrap();
    }
    let g = BitGrid::new(129, 65);
    let full = g.full_like();
    check_all(&g, &full).unwrap();
    check_all(&full, &full).unwrap();
    let mut corner = g.clone();
    corner.set(128, 64);
    check_all(&corner, &full).unwrap();
}

use gridbits::BitBoard;

#[test]
fn a_rook_on_an_empty_board_sees_its_lines() {
    type B = Board<8, 8, 1>;
    let rook = B::cell(3, 4);
    let r = slide::rook_reach(&rook, &!rook);
    assert_eq!(r, (B::row(4) | B::column(3)).and_not(rook));
    let q = slide::queen_reach(&rook, &!rook);
    assert_eq!(q.count(), 14 + 13);
}

#[test]
fn grids_of_different_sizes_are_an_error_not_a_panic() {
    use gridbits::algo::slide::{try_ray_fill, try_reach, try_reach_with};
    use gridbits::SizeMismatch;
    let mut pieces = BitGrid::new(9, 7);
    pieces.set(4, 3);
    let wide = BitGrid::full(10, 7);
    let want = SizeMismatch {
        what: "passable",
        reference: "pieces",
        expected: (9, 7),
        found: (10, 7),
    };
    for moves in MOVES {
        assert_eq!(try_reach(&pieces, &wide, moves), Err(want));
        for m in Method::ALL {
            assert_eq!(try_reach_with(&pieces, &wide, moves, m), Err(want));
        }
    }
    for d in Dir::ALL {
        assert_eq!(try_ray_fill(&pieces, &wide, d, true), Err(want));
        assert_eq!(try_ray_fill(&pieces, &wide, d, false), Err(want));
    }
    assert_eq!(
        want.to_string(),
        "passable is 10x7, expected 9x7 (the size of pieces)"
    );
    // Same sizes: the try_ forms agree with the panicking ones.
    let free = BitGrid::full(9, 7);
    assert_eq!(
        try_reach(&pieces, &free, Moves::Queen).unwrap(),
        reach(&pieces, &free, Moves::Queen)
    );
    assert_eq!(
        try_reach(&pieces, &free, Moves::Queen).unwrap().count(),
        8 + 6 + 6 + 6
    );
    // Fixed boards cannot differ in size.
    let b = Board::<8, 8, 1>::cell(0, 0);
    assert_eq!(
        try_reach(&b, &Board::<8, 8, 1>::FULL, Moves::Rook)
            .unwrap()
            .count(),
        14
    );
}

#[test]
#[should_panic(expected = "passable is 10x7, expected 9x7")]
fn the_panicking_form_names_the_sizes() {
    let pieces = BitGrid::new(9, 7);
    let _ = reach(&pieces, &BitGrid::full(10, 7), Moves::Queen);
}
