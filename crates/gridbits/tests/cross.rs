//! `Board` and `BitGrid` of the same size agree with each other (and with the naive oracle) on
//! random sequences of operations.

use crate::common::*;
use gridbits::naive::NaiveGrid;
use gridbits::{Board, Connectivity, Dir};
use proptest::prelude::*;

/// One step of a sequence. Binary operations take a second board drawn from a seed.
#[derive(Clone, Debug)]
enum Op {
    Shift(Dir),
    ShiftBy(Dir, usize),
    Dilate(Connectivity),
    Erode(Connectivity),
    DilateWithin(Connectivity, u64, f64),
    ErodeWithin(Connectivity, u64, f64),
    And(u64, f64),
    Or(u64, f64),
    Xor(u64, f64),
    AndNot(u64, f64),
    Complement,
    Put(usize, usize, bool),
}

fn op() -> impl Strategy<Value = Op> {
    let other = (
        any::<u64>(),
        prop_oneof![Just(0.0), Just(1.0), 0.0f64..=1.0],
    );
    prop_oneof![
        3 => any_dir().prop_map(Op::Shift),
        2 => (any_dir(), prop_oneof![0..=4usize, 60..=70usize, 0..=140usize])
            .prop_map(|(d, k)| Op::ShiftBy(d, k)),
        2 => any_conn().prop_map(Op::Dilate),
        2 => any_conn().prop_map(Op::Erode),
        1 => (any_conn(), other.clone()).prop_map(|(c, (s, d))| Op::DilateWithin(c, s, d)),
        1 => (any_conn(), other.clone()).prop_map(|(c, (s, d))| Op::ErodeWithin(c, s, d)),
        1 => other.clone().prop_map(|(s, d)| Op::And(s, d)),
        2 => other.clone().prop_map(|(s, d)| Op::Or(s, d)),
        1 => other.clone().prop_map(|(s, d)| Op::Xor(s, d)),
        1 => other.prop_map(|(s, d)| Op::AndNot(s, d)),
        2 => Just(Op::Complement),
        1 => (any::<usize>(), any::<usize>(), any::<bool>()).prop_map(|(x, y, v)| Op::Put(x, y, v)),
    ]
}

fn run<const W: usize, const H: usize, const N: usize>(start: &[bool], ops: &[Op]) {
    let mut b: Board<W, H, N> = board_of(start);
    let mut g = grid_of(W, H, start);
    let mut n = naive_of(W, H, start);
    let other = |seed: u64, d: f64| {
        let bits = density_bits(W * H, d, seed);
        (
            board_of::<W, H, N>(&bits),
            grid_of(W, H, &bits),
            naive_of(W, H, &bits),
        )
    };
    for (i, op) in ops.iter().enumerate() {
        match *op {
            Op::Shift(d) => {
                b = b.shift(d);
                g = g.shift(d);
                n = n.shift(d);
            }
            Op::ShiftBy(d, k) => {
                b = b.shift_by(d, k);
                g = g.shift_by(d, k);
                n = n.shift_by(d, k);
            }
            Op::Dilate(c) => {
                b = b.dilate(c);
                g = g.dilate(c);
                n = n.dilate(c);
            }
            Op::Erode(c) => {
                b = b.erode(c);
                g = g.erode(c);
                n = n.erode(c);
            }
            Op::DilateWithin(c, s, d) => {
                let (ob, og, on) = other(s, d);
                b = b.dilate_within(c, ob);
                g = g.dilate_within(c, &og);
                n = n.dilate_within(c, &on);
            }
            Op::ErodeWithin(c, s, d) => {
                let (ob, og, on) = other(s, d);
                b = b.erode_within(c, ob);
                g = g.erode_within(c, &og);
                n = n.erode_within(c, &on);
            }
            Op::And(s, d) => {
                let (ob, og, on) = other(s, d);
                b &= ob;
                g &= &og;
                n = n.and(&on);
            }
            Op::Or(s, d) => {
                let (ob, og, on) = other(s, d);
                b |= ob;
                g |= &og;
                n = n.or(&on);
            }
            Op::Xor(s, d) => {
                let (ob, og, on) = other(s, d);
                b ^= ob;
                g ^= &og;
                n = n.xor(&on);
            }
            Op::AndNot(s, d) => {
                let (ob, og, on) = other(s, d);
                b = b.and_not(ob);
                g.and_not_assign(&og);
                n = n.and_not(&on);
            }
            Op::Complement => {
                b = !b;
                g = !g;
                n = n.not();
            }
            Op::Put(x, y, v) => {
                let (x, y) = (x % W, y % H);
                b.put(x, y, v);
                g.put(x, y, v);
                n.set(x, y, v);
            }
        }
        let what = format!("step {i}: {op:?}");
        check_board(b, &n, &what);
        check_grid(&g, &n, &what);
        assert_eq!(b.to_text(), g.to_text(), "{what}: text");
        assert_eq!(b.lowest(), g.lowest(), "{what}: lowest");
        assert!(b.iter().eq(g.iter()), "{what}: iteration");
        assert_eq!(b.is_full(), g.is_full(), "{what}: is_full");
        assert_eq!(NaiveGrid::from_view(&b), NaiveGrid::from_view(&g));
    }
}

macro_rules! cross_suite {
    ($name:ident, $w:literal, $h:literal, $n:literal) => {
        #[test]
        fn $name() {
            let ops = proptest::collection::vec(op(), 1..24);
            check(config(64), (pattern($w, $h), ops).boxed(), &|(
                start,
                ops,
            )| {
                run::<$w, $h, $n>(&start, &ops);
                Ok(())
            });
        }
    };
}

cross_suite!(cross_1x1, 1, 1, 1);
cross_suite!(cross_1x64, 1, 64, 1);
cross_suite!(cross_64x1, 64, 1, 1);
cross_suite!(cross_65x1, 65, 1, 2);
cross_suite!(cross_128x1, 128, 1, 2);
cross_suite!(cross_1x128, 1, 128, 2);
cross_suite!(cross_8x8, 8, 8, 1);
cross_suite!(cross_8x8_n2, 8, 8, 2);
cross_suite!(cross_16x8, 16, 8, 2);
cross_suite!(cross_6x12, 6, 12, 2);
cross_suite!(cross_9x9, 9, 9, 2);
cross_suite!(cross_10x10, 10, 10, 2);
cross_suite!(cross_10x40, 10, 40, 7);
cross_suite!(cross_19x19, 19, 19, 6);
cross_suite!(cross_30x20, 30, 20, 10);
