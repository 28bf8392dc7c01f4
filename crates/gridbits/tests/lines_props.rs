//! Line clears and gravity against the per-cell reference: both layouts, any row sets, both
//! the `pext` and the portable paths; the text round trip and the coordinate convention
//! (`y` from the top).

#![allow(clippy::needless_range_loop)] // cell-by-cell comparisons read best with indices

use crate::common::{config, SplitMix as Rng};

use gridbits::algo::lines::{settle_down, settle_planes, ColumnBoard, RowChunks, PEXT};
use gridbits::cpu::{self, with_level, Level};
use gridbits::naive::lines::{settle_values, NaiveLines};
use gridbits::{BitBoard, Board};
use proptest::prelude::*;

/// A random board: density `d`/256, rows in `full` (a bit mask over rows, repeated every 64
/// rows) forced full.
fn random_naive(w: usize, h: usize, seed: u64, d: u64, full: u64) -> NaiveLines {
    let mut rng = Rng(seed);
    NaiveLines::from_fn(w, h, |_, y| full >> (y % 64) & 1 != 0 || rng.chance_256(d))
}

fn chunked_of(n: &NaiveLines) -> RowChunks {
    RowChunks::from_fn(n.width(), n.height(), |x, y| n.get(x, y)).unwrap()
}

fn assert_same(c: &RowChunks, n: &NaiveLines) {
    for y in 0..n.height() {
        for x in 0..n.width() {
            assert_eq!(c.get(x, y), n.get(x, y), "cell ({x}, {y})\n{c:?}\n{n:?}");
        }
    }
    // Bits outside the board (overflow bits, rows past the height) stay zero.
    assert_eq!(c.count(), n.count());
}

const SIZES: &[(usize, usize)] = &[
    (1, 1),
    (1, 70),
    (9, 1),
    (6, 12),
    (8, 8),
    (10, 10),
    (10, 40),
    (30, 20),
    (21, 30),
    (32, 9),
    (33, 7),
    (63, 5),
    (64, 6),
    (64, 1),
    (5, 200),
];

proptest! {
    #![proptest_config(config(600))]

    #[test]
    fn chunked_clear_matches_naive(
        size in 0..SIZES.len(), seed: u64, d in prop::sample::select(vec![0u64, 128, 200, 250, 256]),
        full: u64,
    ) {
        let (w, h) = SIZES[size];
        let n = random_naive(w, h, seed, d, full);
        let mut c = chunked_of(&n);
        let full_before: Vec<usize> = n.full_rows();
        prop_assert_eq!(c.full_rows(), full_before.clone());
        let mut expect = n.clone();
        let removed = expect.clear_full_lines();
        prop_assert_eq!(removed, full_before.len());
        // Both compaction paths, then the dispatching one.
        let mut q = chunked_of(&n);
        prop_assert_eq!(with_level(Level::Portable, || q.clear_full_lines()), removed);
        assert_same(&q, &expect);
        #[cfg(target_arch = "x86_64")]
        if cpu::has(PEXT) {
            let mut q = chunked_of(&n);
            // SAFETY: `cpu::has(PEXT)` detected BMI2 and POPCNT (the enabled features) just above.
            prop_assert_eq!(unsafe { q.clear_full_lines_pext() }, removed);
            assert_same(&q, &expect);
        }
        prop_assert_eq!(c.clear_full_lines(), removed);
        assert_same(&c, &expect);
        // Nothing left to clear.
        prop_assert_eq!(c.clear_full_lines(), 0);
        prop_assert_eq!(with_level(Level::Portable, || c.clear_full_lines()), 0);
        // The article's cascade, run to completion, reaches the same board.
        let mut s = chunked_of(&n);
        prop_assert_eq!(s.cascade_clear_all(), removed);
        assert_same(&s, &expect);
    }

    #[test]
    fn chunked_cells_and_rows(size in 0..SIZES.len(), seed: u64, x: usize, y: usize, bits: u64) {
        let (w, h) = SIZES[size];
        let n = random_naive(w, h, seed, 128, 0);
        let mut c = chunked_of(&n);
        let (x, y) = (x % w, y % h);
        let expect_row: u64 = (0..w).map(|i| u64::from(n.get(i, y)) << i).sum();
        prop_assert_eq!(c.row(y), expect_row);
        c.set_row(y, bits);
        for i in 0..w {
            prop_assert_eq!(c.get(i, y), bits >> i & 1 != 0);
        }
        c.clear(x, y);
        prop_assert!(!c.get(x, y));
        c.set(x, y);
        prop_assert!(c.get(x, y));
        prop_assert!(!c.get(w, y) && !c.get(x, h));
        let mask = c.row_mask(y % c.rows_per_chunk());
        prop_assert_eq!(mask.count_ones() as usize, w);
    }

    #[test]
    fn chunked_text_round_trip(size in 0..SIZES.len(), seed: u64, d in 0u64..=256) {
        let (w, h) = SIZES[size];
        let c = chunked_of(&random_naive(w, h, seed, d, 0));
        let text = c.to_string();
        prop_assert_eq!(&text, &gridbits::render_text(&c, '#', '.'));
        prop_assert_eq!(text.parse::<RowChunks>().unwrap(), c);
    }

    #[test]
    fn column_text_round_trip(seed: u64, h in 1usize..=64, d in 0u64..=256) {
        round_trip_columns::<1>(seed, h, d);
        round_trip_columns::<10>(seed, h, d);
        round_trip_columns::<64>(seed, h, d);
    }

    #[test]
    fn column_clear_matches_naive(seed: u64, h in 1usize..=64, d in prop::sample::select(vec![0u64, 160, 230, 256]), full: u64) {
        check_columns::<1>(seed, h, d, full);
        check_columns::<6>(seed, h, d, full);
        check_columns::<8>(seed, h, d, full);
        check_columns::<10>(seed, h, d, full);
        check_columns::<30>(seed, h, d, full);
        check_columns::<64>(seed, h, d, full);
    }

    #[test]
    fn planes_settle_matches_naive(seed: u64, h in 1usize..=64, d in 0u64..=256, k in 1usize..5) {
        check_planes::<1>(seed, h, d, k);
        check_planes::<6>(seed, h, d, k);
        check_planes::<10>(seed, h, d, k);
        check_planes::<64>(seed, h, d, k);
    }

    #[test]
    fn settle_down_matches_naive(seed: u64, d in 0u64..=256) {
        check_settle_down::<1, 1, 1>(seed, d);
        check_settle_down::<1, 20, 1>(seed, d);
        check_settle_down::<6, 12, 2>(seed, d);
        check_settle_down::<8, 8, 1>(seed, d);
        check_settle_down::<10, 40, 7>(seed, d);
        check_settle_down::<30, 20, 10>(seed, d);
        for (w, h) in [(63, 3), (64, 5), (65, 4), (129, 3)] {
            let mut rng = Rng(seed);
            let g = gridbits::BitGrid::from_fn(w, h, |_, _| rng.chance_256(d)).unwrap();
            check_settle_down_view(&g);
        }
    }
}

fn round_trip_columns<const W: usize>(seed: u64, h: usize, d: u64) {
    let n = random_naive(W, h, seed, d, 0);
    let b = ColumnBoard::<W>::from_fn(h, |x, y| n.get(x, y));
    assert_eq!(b.to_string().parse::<ColumnBoard<W>>().unwrap(), b);
    assert_eq!(b.to_string(), gridbits::render_text(&n, '#', '.'));
}

fn check_columns<const W: usize>(seed: u64, h: usize, d: u64, full: u64) {
    let n = random_naive(W, h, seed, d, full);
    let b = ColumnBoard::<W>::from_fn(h, |x, y| n.get(x, y));
    // The raw row mask counts rows from the floor.
    let expect_full: u64 = n.full_rows().iter().map(|&y| 1u64 << (h - 1 - y)).sum();
    assert_eq!(b.full_rows_mask(), expect_full);
    assert_eq!(b.full_rows(), n.full_rows());
    let mut expect = n.clone();
    let removed = expect.clear_full_lines() as u32;
    let same = |b: &ColumnBoard<W>| {
        for y in 0..h {
            for x in 0..W {
                assert_eq!(b.get(x, y), expect.get(x, y), "({x}, {y}) W={W} h={h}");
            }
        }
        assert_eq!(b.count(), expect.count());
    };
    let mut a = b;
    assert_eq!(a.clear_full_lines(), removed);
    same(&a);
    let mut p = b;
    assert_eq!(
        with_level(Level::Portable, || p.clear_full_lines()),
        removed
    );
    same(&p);
    #[cfg(target_arch = "x86_64")]
    if cpu::has(PEXT) {
        let mut q = b;
        // SAFETY: `cpu::has(PEXT)` detected BMI2 and POPCNT (the enabled features) just above.
        assert_eq!(unsafe { q.clear_full_lines_pext() }, removed);
        same(&q);
    }
    // Removing an arbitrary row set (not only full rows), given as a raw mask.
    let rows = full & b.height_mask();
    let list: Vec<usize> = (0..h).filter(|&y| rows >> (h - 1 - y) & 1 != 0).collect();
    let mut r = b;
    r.remove_rows(rows);
    let mut nr = n.clone();
    nr.remove_rows(&list);
    for y in 0..h {
        for x in 0..W {
            assert_eq!(r.get(x, y), nr.get(x, y));
        }
    }
    // Gravity of one plane.
    let mut s = b;
    s.settle();
    let mut ns = n.clone();
    ns.settle();
    for y in 0..h {
        for x in 0..W {
            assert_eq!(s.get(x, y), ns.get(x, y));
        }
    }
}

fn check_planes<const W: usize>(seed: u64, h: usize, d: u64, k: usize) {
    let mut rng = Rng(seed);
    let mut values: Vec<Vec<u8>> = (0..W)
        .map(|_| {
            (0..h)
                .map(|_| {
                    if rng.chance_256(d) {
                        1 + (rng.next() % k as u64) as u8
                    } else {
                        0
                    }
                })
                .collect()
        })
        .collect();
    let planes: Vec<ColumnBoard<W>> = (1..=k as u8)
        .map(|v| ColumnBoard::from_fn(h, |x, y| values[x][y] == v))
        .collect();
    settle_values(&mut values);
    let check = |ps: &[ColumnBoard<W>]| {
        for (i, p) in ps.iter().enumerate() {
            for x in 0..W {
                for y in 0..h {
                    assert_eq!(
                        p.get(x, y),
                        values[x][y] == i as u8 + 1,
                        "plane {i} ({x}, {y})"
                    );
                }
            }
        }
    };
    let mut a = planes.clone();
    settle_planes(&mut a).unwrap();
    check(&a);
    let mut b = planes.clone();
    with_level(Level::Portable, || settle_planes(&mut b)).unwrap();
    check(&b);
    #[cfg(target_arch = "x86_64")]
    if cpu::has(PEXT) {
        let mut c = planes.clone();
        // SAFETY: `cpu::has(PEXT)` detected BMI2 and POPCNT (the enabled features) just above.
        unsafe { gridbits::algo::lines::settle_planes_pext(&mut c) }.unwrap();
        check(&c);
    }
}

fn check_settle_down<const W: usize, const H: usize, const N: usize>(seed: u64, d: u64) {
    let mut rng = Rng(seed);
    let b = Board::<W, H, N>::from_fn(|_, _| rng.chance_256(d));
    check_settle_down_view(&b);
}

fn check_settle_down_view<B: BitBoard>(b: &B) {
    let (w, h) = (b.width(), b.height());
    let mut rows: Vec<Vec<bool>> = (0..h)
        .map(|y| (0..w).map(|x| b.get(x, y)).collect())
        .collect();
    gridbits::naive::lines::settle_down(&mut rows);
    let s = settle_down(b);
    for y in 0..h {
        for x in 0..w {
            assert_eq!(s.get(x, y), rows[y][x], "({x}, {y}) of {w}x{h}");
        }
    }
}

#[test]
fn clears_of_any_row_sets() {
    // none, all, scattered, more than four, whole chunks, across chunk boundaries
    let sets: &[&[usize]] = &[
        &[],
        &(0..40).collect::<Vec<_>>(),
        &[0, 2, 4, 6, 8, 10, 12, 39],
        &[1, 3, 5, 7, 9],
        &[5, 6],
        &[6, 7, 8, 9, 10, 11],
        &[36, 37, 38, 39],
        &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 20, 33],
    ];
    for set in sets {
        let mut n = NaiveLines::from_fn(10, 40, |x, y| set.contains(&y) || (x + 3 * y) % 4 == 0);
        let mut c = chunked_of(&n);
        let mut s = c.clone();
        let mut col = ColumnBoard::<10>::from_fn(40, |x, y| n.get(x, y));
        let removed = n.clear_full_lines();
        assert_eq!(removed, set.len());
        let mut p = c.clone();
        assert_eq!(
            with_level(Level::Portable, || p.clear_full_lines()),
            removed
        );
        assert_same(&p, &n);
        assert_eq!(c.clear_full_lines(), removed);
        assert_eq!(s.cascade_clear_all(), removed);
        assert_eq!(col.clear_full_lines() as usize, removed);
        assert_same(&c, &n);
        assert_same(&s, &n);
        assert_eq!(col.to_text(), c.to_text());
    }
}

#[test]
fn cascade_clear_check_clears_one_run_per_call() {
    // A 10 x 12 board (two chunks of 6 rows): in the bottom chunk, the bottom row and the two
    // rows above the one after it are full; the article's check needs two calls.
    let mut b = RowChunks::new(10, 12);
    b.set_row(11, 0x3ff);
    b.set_row(10, 0b1);
    b.set_row(9, 0x3ff);
    b.set_row(8, 0x3ff);
    b.set_row(7, 0b10);
    b.set_row(5, 0b100);
    assert_eq!(b.cascade_clear_check(0), 1);
    assert_eq!(b.row(11), 0b1);
    assert_eq!(b.cascade_clear_check(0), 2);
    assert_eq!((b.row(11), b.row(10), b.row(9)), (0b1, 0b10, 0));
    assert_eq!(b.row(8), 0b100);
    assert_eq!(b.cascade_clear_check(0), 0);
    // Overflow bits (60..64) stay zero after a cascade.
    assert!(b.chunks().iter().all(|c| c >> 60 == 0));
}

#[test]
fn cascade_clear_lines_crosses_chunks() {
    let mut b = RowChunks::new(10, 18);
    b.set_row(17, 0x3ff);
    b.set_row(11, 0b11);
    b.set_row(5, 0b111);
    b.cascade_clear_lines(1, 0);
    assert_eq!((b.row(12), b.row(6), b.row(0)), (0b11, 0b111, 0));
    assert!(b.chunks().iter().all(|c| c >> 60 == 0));
}

#[test]
fn width_64_one_row_per_chunk() {
    let mut b = RowChunks::new(64, 3);
    b.set_row(0, !0);
    b.set_row(1, 5);
    b.set_row(2, !0);
    let mut s = b.clone();
    assert_eq!(b.clear_full_lines(), 2);
    assert_eq!((b.row(0), b.row(1), b.row(2)), (0, 0, 5));
    assert_eq!(s.cascade_clear_all(), 2);
    assert_eq!(s, b);
}

#[test]
fn sizes_are_checked() {
    assert!(RowChunks::try_new(0, 3).is_err());
    assert!(RowChunks::try_new(65, 3).is_err());
    assert!(RowChunks::try_new(3, 0).is_err());
    let e = RowChunks::parse(&format!("{}\n", ".".repeat(65))).unwrap_err();
    assert_eq!((e.line, e.column), (1, 65));
    let b = RowChunks::parse("#.\n##\n").unwrap();
    assert_eq!(b.full_rows(), vec![1]);
    assert!(b.get(0, 0) && !b.get(1, 0));
    assert!(ColumnBoard::<3>::try_new(0).is_err());
    assert!(ColumnBoard::<3>::try_new(65).is_err());
    assert!(ColumnBoard::<0>::try_new(5).is_err());
    // Column boards: the width must be W, the height 1 to 64.
    let e = ColumnBoard::<3>::parse("....\n").unwrap_err();
    assert_eq!((e.line, e.column), (1, 4));
    let e = ColumnBoard::<3>::parse("..\n").unwrap_err();
    assert_eq!((e.line, e.column), (1, 3));
    let e = ColumnBoard::<3>::parse(&"...\n".repeat(65)).unwrap_err();
    assert_eq!((e.line, e.column), (65, 1));
    assert!(ColumnBoard::<3>::parse(&"...\n".repeat(64)).is_ok());
    let e = ColumnBoard::<3>::parse("...\n..x\n.. \n").unwrap_err();
    assert_eq!((e.line, e.column), (3, 3));
    // Planes of different heights are an error, and nothing moves.
    let mut planes = [
        ColumnBoard::<2>::from_columns([0b10, 0], 2),
        ColumnBoard::new(3),
    ];
    let e = settle_planes(&mut planes).unwrap_err();
    assert_eq!((e.plane, e.height, e.expected), (1, 3, 2));
    assert_eq!(planes[0].column(0), 0b10);
}

#[test]
fn rows_count_from_the_top() {
    // Row 0 is the top text line, y = height - 1 the bottom one; the raw words count from the
    // floor.
    let text = "#...\n....\n.#..\n";
    let c: RowChunks = text.parse().unwrap();
    let k: ColumnBoard<4> = text.parse().unwrap();
    let n = NaiveLines::from_fn(4, 3, |x, y| (x, y) == (0, 0) || (x, y) == (1, 2));
    for (x, y) in [(0, 0), (1, 2)] {
        assert!(c.get(x, y) && k.get(x, y) && n.get(x, y));
    }
    assert_eq!(c.count() + k.count() + n.count(), 6);
    assert_eq!(c.row(2), 0b10);
    assert_eq!(c.chunks()[0], 0b10 | 1 << 8); // bottom row first
    assert_eq!(k.column(0), 0b100);
    assert_eq!(k.column(1), 0b001);
    // Gravity moves cells towards y = height - 1.
    let mut k2 = k;
    k2.settle();
    assert!(k2.get(0, 2) && k2.get(1, 2));
    let mut n2 = n.clone();
    n2.settle();
    assert!(n2.get(0, 2) && n2.get(1, 2));
    // A full bottom row is cleared and the rest falls.
    let mut c: RowChunks = "#...\n####\n".parse().unwrap();
    assert_eq!(c.full_rows(), vec![1]);
    assert_eq!(c.clear_full_lines(), 1);
    assert!(c.get(0, 1) && !c.get(0, 0));
}
