//! Tetris against the per-cell matrix: collision, hard drop, placement + clear, features;
//! the text round trip, sizes and rotations that are errors, and the coordinate convention
//! (`y` from the top, a placement is the top-left corner of the SRS box).

use crate::common::{config, SplitMix as Rng};

use gridbits::algo::lines::ColumnBoard;
use gridbits::games::tetris::{Piece, Rotation, Tetris};
use gridbits::naive::tetris::NaiveTetris;
use proptest::prelude::*;

/// A random stack: columns of random height with holes; some rows near full.
fn random_pair<const W: usize>(seed: u64, h: usize) -> (Tetris<W>, NaiveTetris) {
    let mut rng = Rng(seed);
    let top = (rng.next() % (h as u64 + 1)) as usize;
    let b = ColumnBoard::<W>::from_fn(h, |_, y| h - y <= top && !rng.next().is_multiple_of(8));
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
    assert_eq!(t.to_string().parse::<Tetris<W>>().unwrap(), t);
    for &(p, r, x, y) in moves {
        let p = Piece::ALL[p % 7];
        let r = Rotation::try_from(r).unwrap();
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
        assert_eq!(t.to_string().parse::<Tetris<W>>().unwrap(), t);
        assert_eq!(t.heights().to_vec(), n.heights());
        assert_eq!(t.holes(), n.holes());
        assert_eq!(t.row_transitions(), n.row_transitions());
        assert_eq!(t.column_transitions(), n.column_transitions());
        assert_eq!(t.bumpiness(), n.bumpiness());
    }
}

proptest! {
    #![proptest_config(config(400))]

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
    assert_eq!(t.drop_and_place(Piece::T, Rotation::Spawn, 0), Some(0));
    assert_eq!(
        t.to_text().lines().skip(38).collect::<Vec<_>>(),
        [".#........", "###......."]
    );
    let mut t = Tetris::<10>::new(40);
    t.drop_and_place(Piece::T, Rotation::Right, 0).unwrap();
    assert_eq!(
        t.to_text().lines().skip(37).collect::<Vec<_>>(),
        [".#........", ".##.......", ".#........"]
    );
    // The I box is 4 x 4; vertical I in R sits in box column 2, in L in box column 1.
    let mut t = Tetris::<10>::new(40);
    t.drop_and_place(Piece::I, Rotation::Right, 0).unwrap();
    assert!((36..40).all(|y| t.get(2, y)) && t.count() == 4);
    let mut t = Tetris::<10>::new(40);
    t.drop_and_place(Piece::I, Rotation::Left, 0).unwrap();
    assert!((36..40).all(|y| t.get(1, y)) && t.count() == 4);
    // Every orientation has 4 distinct cells inside its box, and x_range is exact.
    for p in Piece::ALL {
        for r in Rotation::ALL {
            let cells = p.cells(r);
            let n = p.box_size() as i32;
            assert!(cells
                .iter()
                .all(|&(x, y)| (0..n).contains(&x) && (0..n).contains(&y)));
            assert!((1..4).all(|i| !cells[..i].contains(&cells[i])));
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
fn rotations_are_checked() {
    for (v, r) in (0u8..).zip(Rotation::ALL) {
        assert_eq!(Rotation::try_from(v), Ok(r));
        assert_eq!(u8::from(r), v);
        assert_eq!(r.to_string().parse::<Rotation>(), Ok(r));
        assert_eq!(v.to_string().parse::<Rotation>(), Ok(r));
        assert_eq!(r.cw().ccw(), r);
        assert_eq!(r.cw().cw().cw().cw(), r);
    }
    assert_eq!(Rotation::Right.cw(), Rotation::Two);
    for v in [4u8, 5, 255] {
        let e = Rotation::try_from(v).unwrap_err();
        assert_eq!(e.input(), v.to_string());
        assert!(e.to_string().contains(&format!("'{v}'")), "{e}");
    }
    assert!("4".parse::<Rotation>().is_err());
    assert!("".parse::<Rotation>().is_err());
}

#[test]
fn sizes_are_checked() {
    assert!(Tetris::<10>::try_new(0).is_err());
    assert!(Tetris::<10>::try_new(65).is_err());
    assert!(Tetris::<0>::try_new(40).is_err());
    assert!(Tetris::<65>::try_new(40).is_err());
    assert_eq!(Tetris::<64>::try_new(64).unwrap().height(), 64);
    let e = Tetris::<10>::try_new(65).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot make a 10x65 board: a column must fit one u64: height 1 to 64"
    );
    assert_eq!(Tetris::<10>::default().height(), 40);
    // Text: the width must be W, the height 1 to 64, errors at a line and column.
    let e = "..........\n...........\n".parse::<Tetris>().unwrap_err();
    assert_eq!((e.line, e.column), (2, 11));
    let e = ".........\n".parse::<Tetris>().unwrap_err();
    assert_eq!((e.line, e.column), (1, 10));
    let e = "..........\n".repeat(65).parse::<Tetris>().unwrap_err();
    assert_eq!((e.line, e.column), (65, 1));
    let e = "".parse::<Tetris>().unwrap_err();
    assert_eq!(e.to_string(), "line 1, column 1: empty grid");
    let e = ".\n".parse::<Tetris<65>>().unwrap_err();
    assert_eq!((e.line, e.column), (1, 2));
    let t: Tetris<3> = "x..\n.@.\n".parse().unwrap();
    assert_eq!(t.to_string(), "#..\n.#.\n");
}

#[test]
fn rows_count_from_the_top() {
    // An O dropped on the empty 10 x 40 matrix rests on the two bottom rows, y = 38 and 39.
    let mut t = Tetris::<10>::new(40);
    assert_eq!(t.drop_from_top(Piece::O, Rotation::Spawn, 3), Some(38));
    assert_eq!(t.drop_and_place(Piece::O, Rotation::Spawn, 3), Some(0));
    let filled: Vec<(usize, usize)> = (0..40)
        .flat_map(|y| (0..10).map(move |x| (x, y)))
        .filter(|&(x, y)| t.get(x, y))
        .collect();
    assert_eq!(filled, [(3, 38), (4, 38), (3, 39), (4, 39)]);
    // get(x, height - 1) is the bottom row; the raw column counts from the floor.
    assert!(t.get(3, t.height() - 1));
    assert_eq!(t.column(3), 0b11);
    assert_eq!(t.heights()[3], 2);
    let n = {
        let mut n = NaiveTetris::new(10, 40);
        n.drop_and_place(Piece::O, Rotation::Spawn, 3);
        n
    };
    assert!(n.lines.get(3, 39) && n.lines.get(4, 38));
    // A placement is the top-left corner of the SRS box: the spawn I fills the box's second
    // row, so on the top row its box is at y = -1.
    let t = Tetris::<10>::new(40);
    assert!(t.fits(Piece::I, Rotation::Spawn, 0, -1));
    assert!(!t.fits(Piece::I, Rotation::Spawn, 0, -2));
    assert_eq!(t.hard_drop(Piece::I, Rotation::Spawn, 0, -1), Some(38));
    assert_eq!(t.drop_distance(Piece::I, Rotation::Spawn, 0, -1), Some(39));
    // Positions far off the matrix are simply not fitting.
    for (x, y) in [(i32::MIN, 0), (i32::MAX, 0), (0, i32::MIN), (0, i32::MAX)] {
        assert!(!t.fits(Piece::T, Rotation::Two, x, y));
        assert_eq!(t.hard_drop(Piece::T, Rotation::Two, x, y), None);
    }
    assert_eq!(t.drop_from_top(Piece::T, Rotation::Two, i32::MAX), None);
    assert_eq!(t.drop_from_top(Piece::T, Rotation::Two, i32::MIN), None);
}

#[test]
fn drop_stops_on_overhang_and_floor() {
    let mut t = Tetris::<10>::new(20);
    // A roof on row 14 over columns 0..3 with a gap of 5 rows under it.
    for x in 0..3 {
        t.board_mut().set(x, 14);
    }
    // An O under the roof (box at y = 15) fits, and lands on the floor (box at y = 18).
    assert_eq!(t.hard_drop(Piece::O, Rotation::Spawn, 0, 15), Some(18));
    // Dropped from above the roof it lands on the roof.
    assert_eq!(t.drop_from_top(Piece::O, Rotation::Spawn, 0), Some(12));
    assert_eq!(t.hard_drop(Piece::O, Rotation::Spawn, 0, 0), Some(12));
    // Colliding start: no drop.
    assert_eq!(t.hard_drop(Piece::O, Rotation::Spawn, 0, 14), None);
    assert!(!t.fits(Piece::O, Rotation::Spawn, 9, 18)); // leaves the matrix
}

#[test]
fn tetris_clear_of_four_and_features() {
    let mut t = Tetris::<10>::new(40);
    for y in 36..40 {
        for x in 0..9 {
            t.board_mut().set(x, y);
        }
    }
    t.board_mut().set(0, 35);
    assert_eq!(t.holes(), 0);
    assert_eq!(t.bumpiness(), 1 + 4);
    // A vertical I (R) in the last column: its box's third column is x = 9.
    assert_eq!(t.place(Piece::I, Rotation::Right, 7, 36), Some(4));
    assert_eq!(t.count(), 1);
    assert!(t.get(0, 39));
    assert_eq!(t.heights()[0], 1);
    assert_eq!(t.max_height(), 1);
}
