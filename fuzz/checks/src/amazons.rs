//! Game of the Amazons: territory evaluation, distance maps, mobility and move generation
//! (both engines) against `gridbits::naive::amazons` and `gridbits::naive::amazons_moves`;
//! a move played against its naive effect.

use crate::bytes::Bytes;
use gridbits::cpu::{self, with_level, Level};
use gridbits::games::amazons::{Move, Position, Side, SideDistances};
use gridbits::naive::{self, amazons_moves, NaiveGrid};
use gridbits::{Board10x10, Moves};
use std::collections::BTreeSet;

type NaiveMove = ((usize, usize), (usize, usize), (usize, usize));

/// A position from the input: every cell empty, an arrow, or an amazon of either side.
pub fn check_amazons(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let arrows = bytes.byte();
    let mut kind = [0u8; 100];
    for k in kind.iter_mut() {
        *k = match bytes.byte() {
            // Arrows at the density of the first byte, a few amazons.
            b if b < 8 => 1,
            b if b < 16 => 2,
            b if b - 16 < arrows => 3,
            _ => 0,
        };
    }
    let board = |k: u8| Board10x10::from_fn(|x, y| kind[y * 10 + x] == k);
    let p = Position::try_new(board(1), board(2), board(3)).expect("disjoint by construction");
    let (w, b, a) = (
        NaiveGrid::from_view(&p.white()),
        NaiveGrid::from_view(&p.black()),
        NaiveGrid::from_view(&p.arrows()),
    );
    let want = naive::amazons::evaluate(&w, &b, &a);
    assert_eq!(p.evaluate(), want, "evaluate\n{p}");
    let [qmap, kmap] = p.territory_maps();
    assert_eq!(qmap.counts(), want.queen);
    assert_eq!(kmap.counts(), want.king);
    assert_eq!(
        qmap.white | qmap.black | qmap.contested | qmap.unreachable,
        p.empty()
    );

    let empty = naive::amazons::empty_cells(&w, &b, &a);
    let [qw, qb] = p.queen_distances();
    let [kw, kb] = p.king_distances();
    for (map, side, moves) in [
        (qw, &w, Moves::Queen),
        (qb, &b, Moves::Queen),
        (kw, &w, Moves::Eight),
        (kb, &b, Moves::Eight),
    ] {
        same_distances(&map, &naive::amazons::distances(side, &empty, moves));
    }
    for side in [Side::White, Side::Black] {
        let mut total = 0;
        for ((x, y), n) in p.mobility(side) {
            assert_eq!(
                n,
                naive::amazons::mobility(&empty, x, y),
                "mobility ({x}, {y})"
            );
            assert_eq!(p.moves_from(x, y).count(), n);
            total += n;
        }
        assert_eq!(p.total_mobility(side), total);
    }

    let side = if bytes.bool() {
        Side::White
    } else {
        Side::Black
    };
    let own = NaiveGrid::from_view(&p.amazons(side));
    let want: BTreeSet<NaiveMove> = amazons_moves::moves(&own, &empty).into_iter().collect();
    let got = p.moves(side);
    let got_set: BTreeSet<NaiveMove> = got.iter().map(|&m| as_naive(m)).collect();
    assert_eq!(got_set.len(), got.len(), "a move listed twice\n{p}");
    assert!(got_set == want, "move sets differ, {side:?} to move\n{p}");
    let n = want.len() as u64;
    assert_eq!(p.count_moves(side), n);
    assert_eq!(p.has_moves(side), n > 0);
    let key = |m: &Move| {
        let k = |(x, y): (u8, u8)| (y, x);
        (k(m.from), k(m.to), k(m.arrow))
    };
    assert!(
        got.windows(2).all(|w| key(&w[0]) < key(&w[1])),
        "move order"
    );
    for level in [cpu::level(), Level::Portable] {
        with_level(level, || {
            assert_eq!(p.count_moves(side), n, "{level:?}");
            assert_eq!(p.perft(side, 1), n, "{level:?} perft 1");
            let mut listed = Vec::new();
            p.for_each_move(side, |m| listed.push(m));
            assert_eq!(listed, got, "{level:?} for_each_move");
        });
    }
    // Perft 2 where the tree is small.
    if n <= 300 {
        let other = NaiveGrid::from_view(&p.amazons(side.opponent()));
        assert_eq!(
            p.perft(side, 2),
            amazons_moves::perft(&own, &other, &empty, 2),
            "perft 2\n{p}"
        );
    }
    // One move played: the amazon moves, the arrow lands, nothing else changes.
    if !got.is_empty() {
        let m = got[bytes.below(got.len())];
        assert!(p.check_move(side, m).is_ok());
        let q = p.play(side, m);
        let mut after = kind;
        let code = if side == Side::White { 1 } else { 2 };
        let i = |(x, y): (u8, u8)| usize::from(y) * 10 + usize::from(x);
        after[i(m.from)] = 0;
        after[i(m.to)] = code;
        after[i(m.arrow)] = 3;
        let board = |k: u8| Board10x10::from_fn(|x, y| after[y * 10 + x] == k);
        assert_eq!(
            (q.white(), q.black(), q.arrows()),
            (board(1), board(2), board(3))
        );
    }
    let text = p.to_text();
    assert_eq!(text.parse::<Position>().ok(), Some(p), "text round trip");
}

fn as_naive(m: Move) -> NaiveMove {
    let c = |(x, y): (u8, u8)| (usize::from(x), usize::from(y));
    (c(m.from), c(m.to), c(m.arrow))
}

fn same_distances(map: &SideDistances, naive: &[Option<u32>]) {
    for y in 0..10 {
        for x in 0..10 {
            assert_eq!(
                map.get(x, y).map(u32::from),
                naive[y * 10 + x],
                "distance ({x}, {y})"
            );
        }
    }
}
