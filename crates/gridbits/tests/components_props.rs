//! Property tests of `algo::components` (fast path, plain bit-BFS, the row-pair lookup
//! table, groups of K+, per-class components) against the queue BFS of
//! `naive::components`, on every core board size and both connectivities.

use crate::common::{check, config};

use gridbits::algo::components::{
    component_at, components, components_by_class, components_plain, groups_at_least,
    groups_at_least_any, isolated, table,
};
use gridbits::cpu::{with_level, Level};
use gridbits::naive::{components as nc, NaiveGrid};
use gridbits::{Board, Connectivity};
use proptest::prelude::*;

const CONNS: [Connectivity; 2] = [Connectivity::Four, Connectivity::Eight];

/// A deterministic pseudo-random cell predicate from a seed and a density in 0..=100.
fn cells(seed: u64, density: u32) -> impl Fn(usize, usize) -> bool {
    move |x, y| hash(seed, x, y) % 100 < density as u64
}

fn hash(seed: u64, x: usize, y: usize) -> u64 {
    let mut z = seed ^ ((x as u64) << 32 | y as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn naive_of<const W: usize, const H: usize, const N: usize>(b: &Board<W, H, N>) -> NaiveGrid {
    NaiveGrid::from_view(b)
}

/// Boards sorted by their lowest cell, as naive grids: the naive order.
fn sorted<const W: usize, const H: usize, const N: usize>(
    mut v: Vec<Board<W, H, N>>,
) -> Vec<NaiveGrid> {
    v.sort_by_key(|b| b.lowest_index());
    v.iter().map(naive_of).collect()
}

/// Checks every fixed-board method on one plane.
fn check_plane<const W: usize, const H: usize, const N: usize>(plane: Board<W, H, N>) {
    let np = naive_of(&plane);
    for conn in CONNS {
        let expected = nc::components(&np, conn);

        let fast: Vec<_> = components(plane, conn).collect();
        assert_eq!(
            sorted(fast.clone()),
            expected,
            "fast path {conn:?}\n{plane}"
        );
        // The documented order: the stars first, then the others (four cells or more, three
        // with 8-connectivity) in raster order of their lowest cell.
        let small = fast.iter().take_while(|c| star(**c, conn)).count();
        let min = if conn == Connectivity::Four { 4 } else { 3 };
        assert!(fast[small..]
            .iter()
            .all(|c| c.count() >= min && !star(*c, conn)));
        assert!(fast[small..]
            .windows(2)
            .all(|p| p[0].lowest_index() < p[1].lowest_index()));
        // `fold` (its own loops: on u128 for boards of one or two words with a guard
        // column, generic otherwise) gives the components of `next`, in the same order.
        let folded = components(plane, conn).fold(Vec::new(), |mut v, c| {
            v.push(c);
            v
        });
        assert_eq!(folded, fast, "fold {conn:?}\n{plane}");
        let plain: Vec<_> = components_plain(plane, conn)
            .map(|b| naive_of(&b))
            .collect();
        assert_eq!(plain, expected, "plain bit-BFS {conn:?}");

        // Iterator bookkeeping: size_hint brackets what is left, remaining() is exact.
        let mut it = components(plane, conn);
        let mut left = expected.len();
        loop {
            let (lo, hi) = it.size_hint();
            assert!(
                lo <= left && hi.is_some_and(|h| h >= left),
                "{lo} {hi:?} {left}"
            );
            let rem = it.remaining();
            match it.next() {
                Some(c) => {
                    assert!(c.is_subset(rem));
                    left -= 1;
                }
                None => {
                    assert!(rem.is_empty());
                    break;
                }
            }
        }
        assert_eq!(left, 0);
        assert!(it.next().is_none(), "fused");

        for k in 0..=9 {
            assert_eq!(
                naive_of(&groups_at_least(plane, k, conn)),
                nc::groups_at_least(&np, k, conn),
                "groups_at_least k={k} {conn:?}\n{plane}"
            );
        }
        assert_eq!(
            naive_of(&isolated(plane, conn)),
            nc::groups_at_least(&np, 2, conn).xor(&np),
            "isolated {conn:?}"
        );
        for comp in &expected {
            let (x, y) = comp.lowest().unwrap();
            assert_eq!(naive_of(&component_at(plane, x, y, conn)), *comp);
        }
    }
    // Empty cells have no component.
    if let Some((x, y)) = (!plane).lowest() {
        assert!(component_at(plane, x, y, Connectivity::Eight).is_empty());
    }
}

/// Whether a component is a star: one cell and neighbours of it with no other neighbour.
fn star<const W: usize, const H: usize, const N: usize>(
    c: Board<W, H, N>,
    conn: Connectivity,
) -> bool {
    let nbrs = |x: usize, y: usize| (Board::<W, H, N>::cell(x, y).dilate(conn) & c).count() - 1;
    c.iter().any(|(x, y)| {
        Board::<W, H, N>::cell(x, y).dilate(conn) & c == c
            && c.iter().all(|(a, b)| (a, b) == (x, y) || nbrs(a, b) == 1)
    })
}

/// The row-pair table on one plane (boards up to 8 wide).
fn check_table<const W: usize, const H: usize, const N: usize>(plane: Board<W, H, N>) {
    let np = naive_of(&plane);
    for conn in CONNS {
        let expected = nc::components(&np, conn);
        let got = table::components(plane, conn);
        assert_eq!(sorted(got), expected, "table {conn:?}\n{plane}");
        let mut n = 0;
        table::for_each_component(plane, conn, |c| {
            assert!(!c.is_empty());
            n += 1;
        });
        assert_eq!(n, expected.len());
    }
}

/// Per-class components: `classes` planes from one random class map (disjoint), and
/// overlapping planes.
fn check_classes<const W: usize, const H: usize, const N: usize>(seed: u64, density: u32) {
    let class_of = |x: usize, y: usize| -> u32 {
        if cells(seed, density)(x, y) {
            1 + (hash(seed ^ 0x51, x, y) % 3) as u32
        } else {
            0
        }
    };
    let planes: Vec<Board<W, H, N>> = (1..=3)
        .map(|c| Board::from_fn(|x, y| class_of(x, y) == c))
        .collect();
    let classes: Vec<u32> = (0..H)
        .flat_map(|y| (0..W).map(move |x| (x, y)))
        .map(|(x, y)| class_of(x, y))
        .collect();
    for conn in CONNS {
        let (labels, classes_of) = nc::label_classes(W, H, &classes, conn);
        // Expected: per label, (class index, cells) in raster order of first cell.
        let mut expected: Vec<(usize, NaiveGrid)> = classes_of
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let g = NaiveGrid::from_fn(W, H, |x, y| labels[y * W + x] == i as u32 + 1);
                (c as usize - 1, g)
            })
            .collect();
        let mut got: Vec<(usize, NaiveGrid)> = components_by_class(&planes, conn)
            .map(|(c, b)| (c, naive_of(&b)))
            .collect();
        let key = |e: &(usize, NaiveGrid)| e.1.lowest();
        expected.sort_by_key(key);
        got.sort_by_key(key);
        assert_eq!(got, expected, "by class {conn:?}");

        let any = groups_at_least_any(&planes, 4, conn);
        let mut want = NaiveGrid::new(W, H);
        for (_, g) in expected.iter().filter(|(_, g)| g.count() >= 4) {
            want = want.or(g);
        }
        assert_eq!(naive_of(&any), want, "groups_at_least_any {conn:?}");
    }
}

fn patterns<const W: usize, const H: usize, const N: usize>() -> Vec<Board<W, H, N>> {
    vec![
        Board::EMPTY,
        Board::FULL,
        Board::from_fn(|x, y| (x + y) % 2 == 0),
        Board::from_fn(|x, y| (x + y) % 2 == 1),
        Board::from_fn(|x, y| x % 2 == 0 && y % 2 == 0),
        Board::from_fn(|x, _| x % 2 == 0),
        Board::from_fn(|_, y| y % 2 == 0),
        Board::from_fn(|x, y| x % 3 != 2 && y % 3 != 2),
        Board::BORDER,
        // A serpentine: one long component with a large diameter.
        Board::from_fn(|x, y| y % 2 == 0 || (y % 4 == 1 && x + 1 == W) || (y % 4 == 3 && x == 0)),
        spiral(),
        !spiral::<W, H, N>(),
    ]
}

/// A square spiral from the top-left corner inwards, its arms one cell apart: one component
/// whose diameter is about its size, wound around the board.
fn spiral<const W: usize, const H: usize, const N: usize>() -> Board<W, H, N> {
    let (w, h) = (W as isize, H as isize);
    let mut b = Board::<W, H, N>::EMPTY;
    let inside = |x: isize, y: isize| (0..w).contains(&x) && (0..h).contains(&y);
    let (mut x, mut y, mut d) = (0isize, 0isize, 0usize);
    let dirs = [(1isize, 0isize), (0, 1), (-1, 0), (0, -1)];
    b.set(0, 0);
    let mut turns = 0;
    while turns < 2 {
        let (dx, dy) = dirs[d];
        let free = |b: &Board<W, H, N>, x: isize, y: isize| {
            !inside(x, y) || !b.get(x as usize, y as usize)
        };
        if inside(x + dx, y + dy) && free(&b, x + dx, y + dy) && free(&b, x + 2 * dx, y + 2 * dy) {
            x += dx;
            y += dy;
            b.set(x as usize, y as usize);
            turns = 0;
        } else {
            d = (d + 1) % 4;
            turns += 1;
        }
    }
    b
}

/// The planes of [`engines_agree_with_naive`]: the patterns, their mirror images (the spiral
/// from every corner) and random planes at every tenth density.
fn engine_planes<const W: usize, const H: usize, const N: usize>() -> Vec<Board<W, H, N>> {
    let mut out = Vec::new();
    for p in patterns::<W, H, N>() {
        out.push(p);
        out.push(Board::from_fn(|x, y| p.get(W - 1 - x, y)));
        out.push(Board::from_fn(|x, y| p.get(x, H - 1 - y)));
        out.push(Board::from_fn(|x, y| p.get(W - 1 - x, H - 1 - y)));
    }
    for density in (0..=100).step_by(10) {
        for seed in 0..24 {
            out.push(Board::from_fn(cells(
                seed * 7919 + u64::from(density),
                density,
            )));
        }
    }
    out
}

/// Every engine of the fast path against the naive reference: the byte-row engine with its
/// AVX-512 kernel (boards at most 7 wide and 16 tall with a guard column, where this CPU
/// has AVX-512 VL; the board tests above run it too) and with its AVX2 kernel (capped at
/// `Avx2`, where the CPU has AVX2 and a fast `pdep`), and the scalar code under the caps
/// below, on the same planes.
#[test]
fn engines_agree_with_naive() {
    fn all<const W: usize, const H: usize, const N: usize>() {
        for p in engine_planes::<W, H, N>() {
            check_plane(p);
        }
    }
    for level in [Level::Avx512, Level::Avx2, Level::Bmi, Level::Portable] {
        with_level(level, || {
            all::<6, 12, 2>();
            all::<6, 13, 2>();
            all::<7, 16, 2>();
            all::<5, 5, 1>();
            all::<1, 1, 1>();
            all::<3, 16, 1>();
            all::<7, 7, 1>();
        });
    }
}

macro_rules! board_tests {
    ($name:ident, $w:literal, $h:literal, $n:literal, cases: $cases:literal) => {
        mod $name {
            use super::*;
            type B = Board<$w, $h, $n>;

            #[test]
            fn fast_plain_groups() {
                check(config($cases), (any::<u64>(), 0u32..=100).boxed(), &|(seed, density)| {
                    check_plane(B::from_fn(cells(seed, density)));
                    Ok(())
                });
            }

            #[test]
            fn by_class() {
                check(config($cases), (any::<u64>(), 30u32..=100).boxed(), &|(seed, density)| {
                    check_classes::<$w, $h, $n>(seed, density);
                    Ok(())
                });
            }

            #[test]
            fn empty_full_and_patterns() {
                for p in patterns::<$w, $h, $n>() {
                    check_plane(p);
                }
            }
        }
    };
    ($name:ident, $w:literal, $h:literal, $n:literal, cases: $cases:literal, table) => {
        mod $name {
            use super::*;
            board_tests!(plane, $w, $h, $n, cases: $cases);
            mod table {
            use super::super::*;
            type B = Board<$w, $h, $n>;

            #[test]
            fn table_matches_naive() {
                check(config($cases), (any::<u64>(), 0u32..=100).boxed(), &|(seed, density)| {
                    check_table(B::from_fn(cells(seed, density)));
                    Ok(())
                });
            }

            #[test]
            fn table_on_patterns() {
                for p in patterns::<$w, $h, $n>() {
                    check_table(p);
                }
            }
        }
        }
    };
}

board_tests!(b1x1, 1, 1, 1, cases: 16, table);
board_tests!(b1x32, 1, 32, 1, cases: 48, table);
board_tests!(b1x64, 1, 64, 1, cases: 48, table);
board_tests!(b1x100, 1, 100, 2, cases: 48, table);
board_tests!(b8x1, 8, 1, 1, cases: 48, table);
board_tests!(b30x1, 30, 1, 1, cases: 48);
board_tests!(b64x1, 64, 1, 1, cases: 48);
board_tests!(b3x5, 3, 5, 1, cases: 64, table);
board_tests!(b4x16, 4, 16, 1, cases: 64, table);
board_tests!(b7x9, 7, 9, 1, cases: 64, table);
board_tests!(b6x12, 6, 12, 2, cases: 256, table);
board_tests!(b6x13, 6, 13, 2, cases: 64, table);
// Byte rows with a stride of 8 (the widest the AVX-512 engine takes) and with 16 rows.
board_tests!(b7x16, 7, 16, 2, cases: 64);
board_tests!(b8x8, 8, 8, 1, cases: 128, table);
board_tests!(b8x16, 8, 16, 2, cases: 64, table);
board_tests!(b5x40, 5, 40, 4, cases: 32, table);
board_tests!(b9x9, 9, 9, 2, cases: 64);
board_tests!(b10x10, 10, 10, 2, cases: 128);
// Guard-column boards off the split form: the rows past the low word need 66 bits (10x11),
// rows as wide as a word (63x1).
board_tests!(b10x11, 10, 11, 2, cases: 48);
board_tests!(b63x1, 63, 1, 1, cases: 48);
board_tests!(b10x40, 10, 40, 7, cases: 48);
board_tests!(b19x19, 19, 19, 6, cases: 32);
board_tests!(b30x20, 30, 20, 10, cases: 32);

/// The two-row table entries agree with a direct reading of the article's definition on
/// every entry of the small widths: slot j holds the j-th run of the lower row, and its index
/// names the upper runs in the same component of the two-row window.
#[test]
fn table_entries_match_window_components() {
    for conn in CONNS {
        for width in 1..=6usize {
            let t = table::RowPairTable::get(width, conn);
            assert_eq!(t.len(), 1 << (2 * width));
            assert_eq!(t.width(), width);
            assert_eq!(t.connectivity(), conn);
            for upper in 0..1u32 << width {
                for lower in 0..1u32 << width {
                    let g = NaiveGrid::from_fn(width, 2, |x, y| [upper, lower][y] >> x & 1 != 0);
                    let (labels, _) = nc::label(&g, conn);
                    let runs = |row: u32| -> Vec<u32> {
                        let mut out = Vec::new();
                        let mut x = 0;
                        while x < width {
                            if row >> x & 1 != 0 {
                                let mut run = 0;
                                while x < width && row >> x & 1 != 0 {
                                    run |= 1 << x;
                                    x += 1;
                                }
                                out.push(run);
                            } else {
                                x += 1;
                            }
                        }
                        out
                    };
                    let (ur, lr) = (runs(upper), runs(lower));
                    assert!(lr.len() <= table::slots(width));
                    for slot in 0..4 {
                        let (index, row) = (t.index(upper, lower, slot), t.row(upper, lower, slot));
                        match lr.get(slot) {
                            None => assert_eq!((index, row), (0, 0)),
                            Some(&run) => {
                                assert_eq!(row, run);
                                let label = labels[width + run.trailing_zeros() as usize];
                                let want = ur.iter().enumerate().fold(0, |acc, (i, &r)| {
                                    let same = labels[r.trailing_zeros() as usize] == label;
                                    acc | (u32::from(same) << i)
                                });
                                assert_eq!(index, want, "{upper:b} {lower:b} slot {slot}");
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn tables_build_for_every_width() {
    for width in 1..=table::MAX_WIDTH {
        for conn in CONNS {
            let t = table::RowPairTable::build(width, conn);
            assert_eq!(t.len(), 1 << (2 * width));
            assert!(!t.is_empty());
        }
    }
}

#[test]
#[should_panic(expected = "1 to 8 cells wide")]
fn table_refuses_wide_boards() {
    let _ = table::RowPairTable::get(9, Connectivity::Four);
}
