//! The one-dimensional problem of "Sub-linear bitfield flood fill with galloping" (a line of
//! walls and queen-like pieces), every method, against the per-cell walk; and a worked case.

use gridbits::algo::slide::{
    line_reach_u128, line_reach_u128_with, line_reach_u64, line_reach_u64_with, LineReach, Method,
};
use gridbits::naive::slide::line_reach;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

fn config() -> Config {
    Config {
        cases: 2000,
        rng_seed: RngSeed::Fixed(0x11e),
        failure_persistence: None,
        ..Config::default()
    }
}

/// The naive answer as bitfields of a line of `n` cells.
fn naive(walls: u128, pieces: u128, n: u32) -> LineReach<u128> {
    let bit = |x: u128, i: u32| x >> i & 1 != 0;
    let w: Vec<bool> = (0..n).map(|i| bit(walls, i)).collect();
    let p: Vec<bool> = (0..n).map(|i| bit(pieces, i)).collect();
    let (r, l) = line_reach(&w, &p);
    let pack = |v: Vec<bool>| {
        v.iter()
            .enumerate()
            .fold(0u128, |a, (i, &b)| a | (b as u128) << i)
    };
    LineReach {
        right: pack(r),
        left: pack(l),
    }
}

/// Sparse or dense bits from three random words.
fn mix(a: u128, b: u128, c: u128, sel: u8) -> u128 {
    match sel % 4 {
        0 => a & b & c,
        1 => a & b,
        2 => a,
        _ => a | b,
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn line_u64_matches_naive(a in any::<u128>(), b in any::<u128>(), c in any::<u128>(),
                              sw in any::<u8>(), sp in any::<u8>(), n in 0u32..=64) {
        let walls = mix(a, b, c, sw) as u64;
        let pieces = mix(c, a.rotate_left(7), b.rotate_left(3), sp) as u64;
        let want = naive(walls as u128, pieces as u128, n);
        let want = LineReach { right: want.right as u64, left: want.left as u64 };
        prop_assert_eq!(line_reach_u64(walls, pieces, n), want);
        for m in Method::ALL.into_iter().chain([Method::Auto]) {
            prop_assert_eq!(line_reach_u64_with(walls, pieces, n, m), want, "{:?}", m);
        }
    }

    #[test]
    fn line_u128_matches_naive(a in any::<u128>(), b in any::<u128>(), c in any::<u128>(),
                               sw in any::<u8>(), sp in any::<u8>(), n in 0u32..=128) {
        let walls = mix(a, b, c, sw);
        let pieces = mix(c, a.rotate_left(7), b.rotate_left(3), sp);
        let want = naive(walls, pieces, n);
        prop_assert_eq!(line_reach_u128(walls, pieces, n), want);
        for m in Method::ALL.into_iter().chain([Method::Auto]) {
            prop_assert_eq!(line_reach_u128_with(walls, pieces, n, m), want, "{:?}", m);
        }
    }
}

/// Reads a line drawn as text: `#` wall, `Q` piece, `.` empty; cell 0 on the left.
fn line(s: &str) -> (u128, u128) {
    let mut walls = 0;
    let mut pieces = 0;
    for (i, c) in s.bytes().enumerate() {
        match c {
            b'#' => walls |= 1 << i,
            b'Q' => pieces |= 1 << i,
            _ => {}
        }
    }
    (walls, pieces)
}

fn draw(bits: u128, n: usize) -> String {
    (0..n)
        .map(|i| if bits >> i & 1 != 0 { 'x' } else { '.' })
        .collect()
}

/// The galloping article's example: pieces on a line with walls; every reachable cell to the
/// right and to the left. (The article's picture is not in its text; this is the case it
/// describes: two pieces sharing a stretch, walls stopping both, a long empty run to cross.)
#[test]
fn galloping_article_worked_case() {
    let s = "..Q...#.Q..Q....#Q..............";
    let (walls, pieces) = line(s);
    let n = s.len() as u32;
    let r64 = line_reach_u64(walls as u64, pieces as u64, n);
    let r = line_reach_u128(walls, pieces, n);
    assert_eq!(r.right as u64, r64.right);
    assert_eq!(r.left as u64, r64.left);
    assert_eq!(draw(r.right, s.len()), "...xxx...xxxxxxx..xxxxxxxxxxxxxx");
    assert_eq!(draw(r.left, s.len()), "xx.....xxxx.....................");
}

#[test]
fn a_full_line_of_128_cells() {
    // One piece at each end of an empty 128-cell line: everything else is reached both ways.
    let pieces = 1u128 | 1 << 127;
    let r = line_reach_u128(0, pieces, 128);
    assert_eq!(r.right, !0 << 1);
    assert_eq!(r.left, !0 >> 1);
    let r = line_reach_u64(0, 1 | 1 << 63, 64);
    assert_eq!((r.right, r.left), (!0 << 1, !0 >> 1));
    // Bits at n and above are never reached, and neither are walls.
    let r = line_reach_u64(1 << 5, 1, 10);
    assert_eq!((r.right, r.left), (0b11110, 0));
}
