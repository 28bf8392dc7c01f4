//! Tetris against the per-cell matrix: collision, hard drop, placement + clear, features.

mod common;
use common::SplitMix as Rng;

use gridbits::algo::lines::ColumnBoard;
use gridbits::games::tetris::{Piece, Tetris};
use gridbits::naive::tetris::NaiveTetris;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

impl Rng {
    fn next(&mut self) -> u64 {
        self.next_u64()
    }
}

/// A random stack: columns of random height with holes; some rows near full.
fn random_pair<const W: usize>(seed: u64, h: usize) -> (Tetris<W>, NaiveTetris) {
    let mut rng = Rng(seed);
    let top = (rng.next() % (h as u64 + 1)) as usize;
    let b = ColumnBoard::<W>::from_fn(h, |_, y| y < top && !rng.next().is_multiple_of(8));
    let mut n = NaiveTetris::new(W, h);
    for x in 0..W {
        for y in 0..h {
            n.lines.set(x, y, b.get(x, y));
        }
    }
    (Tetris::from_board(b), n)
}

fn same<const W: usize>(t: &Tetris<W>, n: &NaiveTetris) {
    for y in 0..t.height() {
        for x in 0..W {
            assert_eq!(t.get(x, y), n.lines.get(x, y), "({x}, {y})\n{t:?}");
        }
    }
}

fn check<const W: usize>(seed: u64, h: usize, moves: &[(usize, u8, i32, i32)]) {
    let (mut t, mut n) = random_pair::<W>(seed, h);
    assert_eq!(t.heights().to_vec(), n.heights());
    assert_eq!(t.holes(), n.holes());
    assert_eq!(t.row_transitions(), n.row_transitions());
    assert_eq!(t.column_transitions(), n.column_transitions());
    assert_eq!(t.bumpiness(), n.bumpiness());
    assert_eq!(t.max_height(), n.max_height());
    for &(p, r, x, y) in moves {
        let p = Piece::ALL[p % 7];
        let x = x % (W as i32 + 4) - 2;
        let y = y % (h as i32 + 4) - 2;
        assert_eq!(
            t.fits(p, r, x, y),
            n.fits(p, r, x, y),
            "{p:?} {r} at ({x}, {y})"
        );
        assert_eq!(t.hard_drop(p, r, x, y), n.hard_drop(p, r, x, y));
        if let Some(land) = t.hard_drop(p, r, x, y) {
            assert_eq!(t.place(p, r, x, land), n.place(p, r, x, land));
        } else {
            assert_eq!(t.place(p, r, x, y), None);
        }
        same(&t, &n);
        assert_eq!(
            t.drop_and_place(p, r, x),
            n.drop_and_place(p, r, x),
            "{p:?} {r} x {x}"
        );
        same(&t, &n);
        assert_eq!(t.heights().to_vec(), n.heights());
        assert_eq!(t.holes(), n.holes());
        assert_eq!(t.row_transitions(), n.row_transitions());
        assert_eq!(t.column_transitions(), n.column_transitions());
        assert_eq!(t.bumpiness(), n.bumpiness());
    }
}

proptest! {
    #![proptest_config(Config {
        cases: 400,
        rng_seed: RngSeed::Fixed(0x7465_7472),
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn tetris_matches_naive(
        seed: u64,
        h in 1usize..=64,
        moves in prop::collection::vec((0usize..7, 0u8..4, 0i32..100, 0i32..100), 1..24),
    ) {
        check::<10>(seed, h.clamp(4, 40), &moves);
        check::<4>(seed, h, &moves);
        check::<1>(seed, h, &moves);
        check::<6>(seed, h, &moves);
        check::<64>(seed, h, &moves);
        check::<30>(seed, h, &moves);
    }
}

#[test]
fn srs_orientations() {
    // T spawns pointing up, R points right.
    let mut t = Tetris::<10>::new(40);
    assert_eq!(t.drop_and_place(Piece::T, 0, 0), Some(0));
    assert_eq!(
        t.to_text().lines().rev().take(2).collect::<Vec<_>>(),
        ["###.......", ".#........"]
    );
    let mut t = Tetris::<10>::new(40);
    t.drop_and_place(Piece::T, 1, 0).unwrap();
    assert_eq!(
        t.to_text().lines().rev().take(3).collect::<Vec<_>>(),
        [".#........", ".##.......", ".#........"]
    );
    // The I box is 4 x 4; vertical I in R sits in box column 2.
    let mut t = Tetris::<10>::new(40);
    t.drop_and_place(Piece::I, 1, 0).unwrap();
    assert!((0..4).all(|y| t.get(2, y)) && t.count() == 4);
    // Every orientation has 4 cells.
    for p in Piece::ALL {
        for r in 0..4 {
            assert_eq!(p.cells(r).len(), 4);
            let mut t = Tetris::<10>::new(8);
            let (lo, hi) = p.x_range(r, 10);
            assert!(t.drop_and_place(p, r, lo).is_some());
            assert!(t.drop_and_place(p, r, hi).is_some());
            assert_eq!(t.drop_and_place(p, r, hi + 1), None);
            assert_eq!(t.drop_and_place(p, r, lo - 1), None);
        }
    }
}

#[test]
fn drop_stops_on_overhang_and_floor() {
    let mut t = Tetris::<10>::new(20);
    // A roof at row 5 over columns 0..3 with a gap under it.
    for x in 0..3 {
        t.board_mut().set(x, 5);
    }
    // An O under the roof (box at y = 0, x = 0) fits; dropped from y = 2 it lands on the floor.
    assert_eq!(t.hard_drop(Piece::O, 0, 0, 2), Some(0));
    // Dropped from above the roof it lands on the roof.
    assert_eq!(t.drop_from_top(Piece::O, 0, 0), Some(6));
    assert_eq!(t.hard_drop(Piece::O, 0, 0, 10), Some(6));
    // Colliding start: no drop.
    assert_eq!(t.hard_drop(Piece::O, 0, 0, 4), None);
    assert!(!t.fits(Piece::O, 0, 9, 0)); // leaves the matrix
}

#[test]
fn tetris_clear_of_four_and_features() {
    let mut t = Tetris::<10>::new(40);
    for y in 0..4 {
        for x in 0..9 {
            t.board_mut().set(x, y);
        }
    }
    t.board_mut().set(0, 4);
    assert_eq!(t.holes(), 0);
    assert_eq!(t.bumpiness(), 1 + 4);
    assert_eq!(t.place(Piece::I, 1, 7, 0), Some(4));
    assert_eq!(t.count(), 1);
    assert!(t.get(0, 0));
    assert_eq!(t.heights()[0], 1);
    assert_eq!(t.max_height(), 1);
}
