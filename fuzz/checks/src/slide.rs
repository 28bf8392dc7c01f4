//! Sliding reach: every ray method, galloping speed and approach, and the reaches of every
//! move kind, against `gridbits::naive::slide`; and the one-line problem on `u64`/`u128`.

use crate::boards::{assert_same, board_pair, on_any_board, AnyBoard, BoardCheck};
use crate::bytes::Bytes;
use gridbits::algo::slide::{
    self, generic_ray, line_reach_u128, line_reach_u128_with, line_reach_u64, line_reach_u64_with,
    reach, reach_with, subtract_ray, Approach, Method,
};
use gridbits::naive;
use gridbits::{Dir, Moves};

const MOVES: [Moves; 5] = [
    Moves::Four,
    Moves::Eight,
    Moves::Rook,
    Moves::Bishop,
    Moves::Queen,
];

/// Rays in one direction and the reach of one move kind on a board, pieces anywhere (on
/// walls too), then the line problem.
pub fn check_slide(data: &[u8]) {
    struct Check;
    impl BoardCheck for Check {
        fn run<B: AnyBoard>(&mut self, w: usize, h: usize, bytes: &mut Bytes<'_>) {
            let d = Dir::ALL[bytes.below(8)];
            let moves = MOVES[bytes.below(MOVES.len())];
            let (passable, nf) = board_pair::<B>(w, h, bytes);
            let (pieces, np) = board_pair::<B>(w, h, bytes);
            let want = naive::slide::ray(&np, &nf, d, true);
            for m in Method::ALL.into_iter().chain([Method::Auto]) {
                assert_same(
                    &pieces.ray_with(&passable, d, m),
                    &want,
                    &format!("{m:?} {d:?}"),
                );
            }
            for s in 1..=8 {
                for a in [Approach::Accelerate, Approach::Decelerate] {
                    let got = pieces.gallop_ray_at(&passable, d, s, a);
                    assert_same(&got, &want, &format!("gallop 2^{s} {a:?} {d:?}"));
                }
            }
            assert_same(&generic_ray(&pieces, &passable, d), &want, "generic_ray");
            assert_same(&slide::dumb7_ray(&pieces, &passable, d), &want, "dumb7");
            assert_same(&slide::gallop_ray(&pieces, &passable, d), &want, "gallop");
            assert_same(
                &slide::kogge_stone_ray(&pieces, &passable, d),
                &want,
                "kogge_stone",
            );
            match subtract_ray(&pieces, &passable, d) {
                Some(r) => {
                    assert!(matches!(d, Dir::E | Dir::W), "subtraction {d:?}");
                    assert_same(&r, &want, "subtract_ray");
                }
                None => assert!(!matches!(d, Dir::E | Dir::W), "no subtraction {d:?}"),
            }
            let step = naive::slide::ray(&np, &nf, d, false);
            assert_same(
                &slide::ray_fill(&pieces, &passable, d, false),
                &step,
                "step",
            );

            let want = naive::slide::reach(&np, &nf, moves);
            assert_same(&reach(&pieces, &passable, moves), &want, "reach");
            for m in Method::ALL {
                let got = reach_with(&pieces, &passable, moves, m);
                assert_same(&got, &want, &format!("reach_with {m:?}"));
            }
            let (queen, rook, bishop) = match moves {
                Moves::Queen => (true, false, false),
                Moves::Rook => (false, true, false),
                Moves::Bishop => (false, false, true),
                _ => (false, false, false),
            };
            if queen {
                assert_same(&slide::queen_reach(&pieces, &passable), &want, "queen");
            }
            if rook {
                assert_same(&slide::rook_reach(&pieces, &passable), &want, "rook");
            }
            if bishop {
                assert_same(&slide::bishop_reach(&pieces, &passable), &want, "bishop");
            }
        }
    }
    let mut bytes = Bytes::new(data);
    on_any_board(&mut bytes, &mut Check);
    check_line(&mut bytes);
}

/// The line problem of the galloping article against the per-cell walk.
fn check_line(bytes: &mut Bytes<'_>) {
    let n = bytes.byte() as u32 % 130;
    let (wl, wh, pl, ph) = (bytes.u64(), bytes.u64(), bytes.u64(), bytes.u64());
    let (walls, pieces) = (
        u128::from(wl) | u128::from(wh) << 64,
        u128::from(pl) | u128::from(ph) << 64,
    );
    let bits = |v: u128, n: u32| -> Vec<bool> { (0..n).map(|i| v >> i & 1 != 0).collect() };
    let pack =
        |v: &[bool]| -> u128 { v.iter().enumerate().map(|(i, &b)| u128::from(b) << i).sum() };
    // u64 lines: at most 64 cells.
    let n64 = n.min(64);
    let (right, left) = naive::slide::line_reach(&bits(walls, n64), &bits(pieces, n64));
    let want = (pack(&right) as u64, pack(&left) as u64);
    let r = line_reach_u64(wl, pl, n);
    assert_eq!((r.right, r.left), want, "line_reach_u64 n={n}");
    for m in Method::ALL.into_iter().chain([Method::Auto]) {
        let r = line_reach_u64_with(wl, pl, n, m);
        assert_eq!((r.right, r.left), want, "line_reach_u64_with {m:?} n={n}");
    }
    let n128 = n.min(128);
    let (right, left) = naive::slide::line_reach(&bits(walls, n128), &bits(pieces, n128));
    let want = (pack(&right), pack(&left));
    let r = line_reach_u128(walls, pieces, n);
    assert_eq!((r.right, r.left), want, "line_reach_u128 n={n}");
    for m in Method::ALL.into_iter().chain([Method::Auto]) {
        let r = line_reach_u128_with(walls, pieces, n, m);
        assert_eq!((r.right, r.left), want, "line_reach_u128_with {m:?} n={n}");
    }
}
