//! Amazons move generation against the per-cell oracle: move sets and counts on random
//! positions (random arrows, amazons anywhere, both sides, positions without moves), perft
//! 1 and 2, the known start values, notation and legality.

use crate::common::{check, config, SplitMix as Rng};

use gridbits::cpu::{self, with_level, Level};
use gridbits::games::amazons::{IllegalReason, Move, Position, Side};
use gridbits::naive::{amazons_moves, NaiveGrid};
use gridbits::Board10x10;
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A random position: each cell an arrow with probability `arrow_pct` in 100, then up to `nw`
/// white and `nb` black amazons on random cells (later ones overwrite earlier ones).
pub(crate) fn position(seed: u64, arrow_pct: u64, nw: usize, nb: usize) -> Position {
    let mut rng = Rng(seed);
    let mut kind = [0u8; 100];
    for k in kind.iter_mut() {
        if rng.below(100) < arrow_pct {
            *k = 3;
        }
    }
    for (side, n) in [(1u8, nw), (2u8, nb)] {
        for _ in 0..n {
            kind[rng.below(100) as usize] = side;
        }
    }
    let board = |k: u8| Board10x10::from_fn(|x, y| kind[y * 10 + x] == k);
    Position::try_new(board(1), board(2), board(3)).expect("disjoint by construction")
}

/// A random position strategy: arrows from none to almost full, 0 to 6 amazons a side.
fn any_position() -> BoxedStrategy<(Position, Side)> {
    (
        any::<u64>(),
        0u64..=100,
        0usize..=6,
        0usize..=6,
        any::<bool>(),
    )
        .prop_map(|(seed, pct, nw, nb, white)| {
            let side = if white { Side::White } else { Side::Black };
            (position(seed, pct, nw, nb), side)
        })
        .boxed()
}

/// The naive grids: (mover's amazons, waiting amazons, empty cells).
fn naive_of(p: &Position, side: Side) -> (NaiveGrid, NaiveGrid, NaiveGrid) {
    let own = NaiveGrid::from_view(&p.amazons(side));
    let other = NaiveGrid::from_view(&p.amazons(side.opponent()));
    (own, other, NaiveGrid::from_view(&p.empty()))
}

fn as_naive(m: Move) -> ((usize, usize), (usize, usize), (usize, usize)) {
    let c = |(x, y): (u8, u8)| (x as usize, y as usize);
    (c(m.from), c(m.to), c(m.arrow))
}

fn check_moves(p: &Position, side: Side) -> Result<(), TestCaseError> {
    let (own, _, empty) = naive_of(p, side);
    let want = amazons_moves::moves(&own, &empty);
    let want_set: BTreeSet<_> = want.iter().copied().collect();
    prop_assert_eq!(want_set.len(), want.len(), "naive lists a move twice");
    let got = p.moves(side);
    let got_set: BTreeSet<_> = got.iter().map(|&m| as_naive(m)).collect();
    prop_assert_eq!(got_set.len(), got.len(), "a move listed twice\n{}", p);
    prop_assert_eq!(
        &got_set,
        &want_set,
        "move sets differ, {:?} to move\n{}",
        side,
        p
    );
    let n = want.len() as u64;
    prop_assert_eq!(p.count_moves(side), n, "count, {:?} to move\n{}", side, p);
    prop_assert_eq!(amazons_moves::count(&own, &empty), n);
    prop_assert_eq!(p.perft(side, 1), n);
    prop_assert_eq!(p.has_moves(side), n > 0);
    // Listing order: amazons, targets and arrows each in row-major order.
    let key = |m: &Move| {
        let k = |(x, y): (u8, u8)| (y, x);
        (k(m.from), k(m.to), k(m.arrow))
    };
    prop_assert!(got.windows(2).all(|w| key(&w[0]) < key(&w[1])));
    Ok(())
}

#[test]
fn moves_equal_the_naive_ones_on_random_positions() {
    check(config(400), any_position(), &|(p, side)| {
        check_moves(&p, side)
    });
}

#[test]
fn moves_equal_the_naive_ones_on_sparse_positions() {
    // Long rays: few arrows, four amazons a side.
    let s = (any::<u64>(), 0u64..=8, any::<bool>())
        .prop_map(|(seed, pct, w)| {
            let side = if w { Side::White } else { Side::Black };
            (position(seed, pct, 4, 4), side)
        })
        .boxed();
    check(config(200), s, &|(p, side)| check_moves(&p, side));
}

#[test]
fn moves_equal_the_naive_ones_with_many_amazons() {
    // More than 7 amazons a side: the counter counts them 7 at a time.
    let s = (
        any::<u64>(),
        0u64..=40,
        8usize..=40,
        0usize..=40,
        any::<bool>(),
    )
        .prop_map(|(seed, pct, nw, nb, w)| {
            let side = if w { Side::White } else { Side::Black };
            (position(seed, pct, nw, nb), side)
        })
        .boxed();
    check(config(100), s, &|(p, side)| check_moves(&p, side));
}

#[test]
fn perft_two_equals_the_naive_one_on_random_positions() {
    check(config(48), any_position(), &|(p, side)| {
        let (own, other, empty) = naive_of(&p, side);
        for depth in 0..=2 {
            prop_assert_eq!(
                p.perft(side, depth),
                amazons_moves::perft(&own, &other, &empty, depth),
                "perft({}), {:?} to move\n{}",
                depth,
                side,
                p
            );
        }
        Ok(())
    });
}

#[test]
fn every_listed_move_plays_and_counts_like_the_naive_child() {
    check(config(24), any_position(), &|(p, side)| {
        let moves = p.moves(side);
        let mut rng = Rng(moves.len() as u64);
        for _ in 0..moves.len().min(8) {
            let m = moves[rng.below(moves.len() as u64) as usize];
            prop_assert_eq!(p.check_move(side, m), Ok(()));
            let c = p.play(side, m);
            prop_assert_eq!(c.empty().count() + 1, p.empty().count());
            prop_assert!(c.arrows().get(m.arrow.0 as usize, m.arrow.1 as usize));
            prop_assert!(c.amazons(side).get(m.to.0 as usize, m.to.1 as usize));
            let (own, _, empty) = naive_of(&c, side.opponent());
            prop_assert_eq!(
                c.count_moves(side.opponent()),
                amazons_moves::count(&own, &empty)
            );
        }
        Ok(())
    });
}

#[test]
fn portable_and_fast_engines_agree() {
    check(config(200), any_position(), &|(p, side)| {
        let n = with_level(Level::Portable, || p.count_moves(side));
        prop_assert_eq!(p.count_moves(side), n);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        with_level(Level::Portable, || p.for_each_move(side, |m| a.push(m)));
        p.for_each_move(side, |m| b.push(m));
        prop_assert_eq!(a.len() as u64, n);
        prop_assert_eq!(&a, &b);
        for depth in 0..=2 {
            prop_assert_eq!(
                with_level(Level::Portable, || p.perft(side, depth)),
                p.perft(side, depth)
            );
        }
        Ok(())
    });
    let p = Position::start();
    assert_eq!(
        with_level(Level::Portable, || p.perft(Side::White, 2)),
        4_307_152
    );
}

#[test]
fn perft_three_equals_the_naive_one_on_crowded_positions() {
    // Many arrows keep the tree small; depth 3 goes through the recursive ply.
    let s = (
        any::<u64>(),
        55u64..=80,
        1usize..=4,
        1usize..=4,
        any::<bool>(),
    )
        .prop_map(|(seed, pct, nw, nb, w)| {
            let side = if w { Side::White } else { Side::Black };
            (position(seed, pct, nw, nb), side)
        })
        .boxed();
    check(config(24), s, &|(p, side)| {
        let (own, other, empty) = naive_of(&p, side);
        for level in [cpu::level(), Level::Portable] {
            prop_assert_eq!(
                with_level(level, || p.perft(side, 3)),
                amazons_moves::perft(&own, &other, &empty, 3),
                "{:?}\n{}",
                level,
                p
            );
        }
        Ok(())
    });
}

#[test]
fn start_position_perft() {
    let p = Position::start();
    for side in [Side::White, Side::Black] {
        assert_eq!(p.count_moves(side), 2176);
        assert_eq!(p.moves(side).len(), 2176);
        assert_eq!(p.perft(side, 0), 1);
        assert_eq!(p.perft(side, 1), 2176);
    }
    assert_eq!(p.perft(Side::White, 2), 4_307_152);
    let (own, other, empty) = naive_of(&p, Side::White);
    assert_eq!(amazons_moves::count(&own, &empty), 2176);
    assert_eq!(amazons_moves::perft(&own, &other, &empty, 1), 2176);
}

#[test]
fn start_position_perft_two_naive() {
    let p = Position::start();
    let (own, other, empty) = naive_of(&p, Side::White);
    assert_eq!(amazons_moves::perft(&own, &other, &empty, 2), 4_307_152);
}

#[test]
fn positions_without_moves() {
    // Walled in: every neighbour of the white amazon is an arrow or an amazon.
    let p: Position = "W#B.......\n##........\n..........\n..........\n..........\n\
                       ..........\n..........\n..........\n..........\n.........B\n"
        .parse()
        .unwrap();
    assert_eq!(p.count_moves(Side::White), 0);
    assert!(p.moves(Side::White).is_empty());
    assert!(!p.has_moves(Side::White));
    assert_eq!(p.perft(Side::White, 2), 0);
    assert!(p.has_moves(Side::Black));
    // No amazons at all; a full board.
    let none = Position::default();
    assert_eq!(
        (none.count_moves(Side::White), none.perft(Side::Black, 3)),
        (0, 0)
    );
    let full = Position::try_new(
        Board10x10::cell(0, 0),
        Board10x10::EMPTY,
        !Board10x10::cell(0, 0),
    );
    let full = full.unwrap();
    assert_eq!(full.count_moves(Side::White), 0);
}

#[test]
fn one_amazon_on_an_empty_board() {
    // a1 (0, 9): 27 targets; each shoots the queen reach of its target with a1 empty.
    let p = Position::new(Board10x10::cell(0, 9), Board10x10::EMPTY, Board10x10::EMPTY);
    let (own, _, empty) = naive_of(&p, Side::White);
    assert_eq!(p.moves_from(0, 9).count(), 27);
    assert_eq!(
        p.count_moves(Side::White),
        amazons_moves::count(&own, &empty)
    );
    // To b2, with a1 vacated: the queen reach of b2 on an empty board, 9+9+9+5... counted.
    let arrows = p.arrow_targets((0, 9), (1, 8));
    assert_eq!(arrows.count(), 9 + 9 + 9 + 2);
    assert!(arrows.get(0, 9), "the square left behind is a target");
    assert!(p.arrow_targets((0, 9), (2, 9)).get(0, 9));
    assert!(
        p.arrow_targets((0, 9), (2, 8)).is_empty(),
        "not a queen move"
    );
}

#[test]
fn notation_round_trips_and_matches_the_coordinates() {
    let p = Position::start();
    for m in p.moves(Side::White) {
        let text = m.to_string();
        assert_eq!(text.parse::<Move>().unwrap(), m, "{text}");
    }
    let m: Move = "a4-a6/j6".parse().unwrap();
    assert_eq!((m.from, m.to, m.arrow), ((0, 6), (0, 4), (9, 4)));
    assert_eq!(" A10-b9/C8 ".parse::<Move>().unwrap().from, (0, 0));
    for bad in [
        "",
        "a1",
        "a1-a2",
        "a1/a2-a3",
        "a0-a1/a2",
        "a11-a1/a2",
        "k1-a1/a2",
        "a01-a1/a2",
    ] {
        let err = bad.parse::<Move>().unwrap_err();
        assert!(err.to_string().starts_with("bad move"), "{bad}: {err}");
    }
}

#[test]
fn illegal_moves_are_rejected_with_their_reason() {
    let p = Position::start();
    let mv = |s: &str| s.parse::<Move>().unwrap();
    let reason = |side, s| p.try_play(side, mv(s)).unwrap_err().reason;
    assert_eq!(reason(Side::Black, "d1-d7/g7"), IllegalReason::NoAmazon);
    assert_eq!(reason(Side::White, "d1-e3/e4"), IllegalReason::BlockedMove);
    assert_eq!(reason(Side::White, "d1-d10/d9"), IllegalReason::BlockedMove);
    assert_eq!(
        reason(Side::White, "d1-d7/d10"),
        IllegalReason::BlockedArrow
    );
    assert_eq!(reason(Side::White, "a4-a6/a7"), IllegalReason::BlockedArrow);
    let off = Move {
        from: (3, 9),
        to: (3, 3),
        arrow: (10, 3),
    };
    let err = p.try_play(Side::White, off).unwrap_err();
    assert_eq!(err.reason, IllegalReason::OffBoard);
    assert!(err.to_string().contains("off the board"), "{err}");
    // Shooting back onto the square left behind is legal.
    let back = p.play(Side::White, mv("d1-d5/d1"));
    assert!(back.arrows().get(3, 9) && back.white().get(3, 5));
    assert_eq!(back.perft(Side::Black, 1), back.count_moves(Side::Black));
}

#[test]
#[should_panic(expected = "illegal move")]
fn play_panics_on_an_illegal_move() {
    let _ = Position::start().play(Side::White, "a7-a6/a5".parse().unwrap());
}
