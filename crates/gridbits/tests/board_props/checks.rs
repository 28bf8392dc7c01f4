//! Deterministic checks of the fixed-size [`Board`], generic over the size.

use crate::common::*;
use gridbits::naive::NaiveGrid;
use gridbits::{Board, Dir};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Layout constants, the constant masks and the mask constructors.
pub(super) fn layout<const W: usize, const H: usize, const N: usize>(guard: bool) {
    type B<const W: usize, const H: usize, const N: usize> = Board<W, H, N>;
    assert_eq!(B::<W, H, N>::WIDTH, W);
    assert_eq!(B::<W, H, N>::HEIGHT, H);
    assert_eq!(B::<W, H, N>::CELLS, W * H);
    assert_eq!(B::<W, H, N>::GUARD, guard, "guard column");
    assert_eq!(guard, (W + 1) * H <= 64 * N, "documented guard rule");
    assert_eq!(B::<W, H, N>::STRIDE, if guard { W + 1 } else { W });
    assert_eq!(std::mem::size_of::<B<W, H, N>>(), 8 * N);
    assert!(gridbits::board::words_for(W, H) <= N);
    assert_eq!(gridbits::board::words_for(W, H), (W * H).div_ceil(64));

    let empty = NaiveGrid::new(W, H);
    let full = NaiveGrid::full(W, H);
    for (b, what) in [
        (B::<W, H, N>::EMPTY, "EMPTY"),
        (B::<W, H, N>::new(), "new()"),
        (B::<W, H, N>::default(), "default()"),
    ] {
        check_board(b, &empty, what);
        assert!(!b.is_full(), "{what} is_full");
        assert_eq!(b.lowest(), None);
        assert_eq!(b.lowest_index(), None);
        assert_eq!(b.iter().next(), None);
    }
    for (b, what) in [
        (B::<W, H, N>::FULL, "FULL"),
        (B::<W, H, N>::full(), "full()"),
    ] {
        check_board(b, &full, what);
        assert!(b.is_full(), "{what} is_full");
        // Counted from the raw words, independently of count().
        let ones: u32 = b.words().iter().map(|w| w.count_ones()).sum();
        assert_eq!(ones as usize, W * H);
    }
    let border = NaiveGrid::border_mask(W, H);
    check_board(B::<W, H, N>::BORDER, &border, "BORDER");
    check_board(B::<W, H, N>::border(), &border, "border()");
    for y in 0..H + 3 {
        check_board(
            B::<W, H, N>::row(y),
            &NaiveGrid::row_mask(W, H, y),
            &format!("row({y})"),
        );
    }
    for x in 0..W + 3 {
        check_board(
            B::<W, H, N>::column(x),
            &NaiveGrid::column_mask(W, H, x),
            &format!("column({x})"),
        );
    }
    // The union of all rows and the union of all columns are the full board.
    let rows = (0..H).fold(B::<W, H, N>::EMPTY, |acc, y| acc | B::<W, H, N>::row(y));
    let cols = (0..W).fold(B::<W, H, N>::EMPTY, |acc, x| acc | B::<W, H, N>::column(x));
    assert_eq!(rows, B::<W, H, N>::FULL);
    assert_eq!(cols, B::<W, H, N>::FULL);
}

/// Bit indices, cells, guard bits, single-cell constructors and per-cell mutation.
pub(super) fn cells_and_bits<const W: usize, const H: usize, const N: usize>() {
    type B<const W: usize, const H: usize, const N: usize> = Board<W, H, N>;
    let stride = B::<W, H, N>::STRIDE;
    let mut mapped = vec![false; 64 * N];
    for y in 0..H {
        for x in 0..W {
            let i = B::<W, H, N>::bit_index(x, y);
            assert_eq!(i, y * stride + x, "bit_index({x}, {y})");
            assert!(i < 64 * N);
            assert!(!mapped[i], "two cells share bit {i}");
            mapped[i] = true;
            assert_eq!(B::<W, H, N>::cell_of(i), Some((x, y)), "cell_of({i})");

            let single = naive_cell(W, H, x, y);
            let c = B::<W, H, N>::cell(x, y);
            check_board(c, &single, &format!("cell({x}, {y})"));
            let mut raw = [0u64; N];
            raw[i / 64] = 1 << (i % 64);
            assert_eq!(c.words(), raw, "raw layout of cell({x}, {y})");
            assert_eq!(B::<W, H, N>::from_bit(i), c, "from_bit({i})");
            assert_eq!(B::<W, H, N>::EMPTY.with(x, y), c, "with({x}, {y})");
            assert_eq!(c.lowest_index(), Some(i));
            assert_eq!(c.lowest(), Some((x, y)));
            assert_eq!(c.lowest_bit(), c);
            assert_eq!(c.iter().collect::<Vec<_>>(), vec![(x, y)]);

            let mut b = B::<W, H, N>::EMPTY;
            b.set(x, y);
            assert_eq!(b, c, "set({x}, {y})");
            b.set(x, y);
            assert_eq!(b, c, "set twice");
            b.clear(x, y);
            assert!(b.is_empty(), "clear({x}, {y})");
            b.put(x, y, true);
            assert_eq!(b, c, "put true");
            b.put(x, y, false);
            assert!(b.is_empty(), "put false");

            let mut f = B::<W, H, N>::FULL;
            f.clear(x, y);
            check_board(f, &single.not(), &format!("FULL.clear({x}, {y})"));
            assert_eq!(f, !c);
            f.put(x, y, true);
            assert!(f.is_full());
            assert_eq!(B::<W, H, N>::FULL.with(x, y), B::<W, H, N>::FULL);
        }
    }
    // Every other index is a guard bit or lies past the board.
    for (i, &m) in mapped.iter().enumerate() {
        if !m {
            assert_eq!(
                B::<W, H, N>::cell_of(i),
                None,
                "cell_of({i}) of a non-cell bit"
            );
            assert!(
                B::<W, H, N>::from_bit(i).is_empty(),
                "from_bit({i}) of a non-cell bit"
            );
        }
    }
    if B::<W, H, N>::GUARD {
        for y in 0..H {
            let g = y * stride + W;
            assert_eq!(B::<W, H, N>::cell_of(g), None, "guard bit of row {y}");
            assert!(B::<W, H, N>::from_bit(g).is_empty());
        }
    }
    for i in [64 * N, 64 * N + 1, 64 * N + 63, 1 << 40, usize::MAX] {
        assert_eq!(B::<W, H, N>::cell_of(i), None, "cell_of({i})");
        assert!(B::<W, H, N>::from_bit(i).is_empty(), "from_bit({i})");
    }
    // Reads off the board are false, even on the full board.
    let f = B::<W, H, N>::FULL;
    for (x, y) in [
        (W, 0),
        (0, H),
        (W, H),
        (usize::MAX, 0),
        (0, usize::MAX),
        (W + 64, 0),
    ] {
        assert!(!f.get(x, y), "get({x}, {y}) off the board");
    }
}

/// Writes off the board panic.
pub(super) fn off_board_panics<const W: usize, const H: usize, const N: usize>() {
    type B<const W: usize, const H: usize, const N: usize> = Board<W, H, N>;
    for (x, y) in [(W, 0), (0, H), (W, H - 1), (usize::MAX, 0)] {
        let what = format!("({x}, {y})");
        assert!(
            catch_unwind(|| B::<W, H, N>::bit_index(x, y)).is_err(),
            "bit_index{what}"
        );
        assert!(
            catch_unwind(|| B::<W, H, N>::cell(x, y)).is_err(),
            "cell{what}"
        );
        assert!(
            catch_unwind(|| B::<W, H, N>::EMPTY.with(x, y)).is_err(),
            "with{what}"
        );
        let mut b = B::<W, H, N>::EMPTY;
        assert!(
            catch_unwind(AssertUnwindSafe(|| b.set(x, y))).is_err(),
            "set{what}"
        );
        assert!(
            catch_unwind(AssertUnwindSafe(|| b.clear(x, y))).is_err(),
            "clear{what}"
        );
        assert!(
            catch_unwind(AssertUnwindSafe(|| b.put(x, y, true))).is_err(),
            "put{what}"
        );
        assert!(b.is_empty());
        assert!(
            catch_unwind(|| [(x, y)].into_iter().collect::<B<W, H, N>>()).is_err(),
            "from_iter{what}"
        );
    }
}

/// Every cell alone, shifted in every direction by every distance: catches wraps between rows,
/// across words and through the guard column. Shifts are linear (cell by cell), so this covers
/// every board.
pub(super) fn shifts_at_every_edge<const W: usize, const H: usize, const N: usize>() {
    type B<const W: usize, const H: usize, const N: usize> = Board<W, H, N>;
    let full = B::<W, H, N>::FULL;
    for y in 0..H {
        for x in 0..W {
            let c = B::<W, H, N>::cell(x, y);
            let single = naive_cell(W, H, x, y);
            let hole = full.and_not(c);
            for d in Dir::ALL {
                check_board(
                    c.shift(d),
                    &single.shift(d),
                    &format!("cell({x}, {y}).shift({d:?})"),
                );
                check_board(
                    hole.shift(d),
                    &single.not().shift(d),
                    &format!("FULL minus ({x}, {y}), shift({d:?})"),
                );
                for k in 0..=W.max(H) + 1 {
                    let expected = match step(x, y, d, k, W, H) {
                        Some((tx, ty)) => B::<W, H, N>::cell(tx, ty),
                        None => B::<W, H, N>::EMPTY,
                    };
                    let got = c.shift_by(d, k);
                    assert_eq!(
                        got.words(),
                        expected.words(),
                        "cell({x}, {y}).shift_by({d:?}, {k})"
                    );
                }
            }
        }
    }
    for d in Dir::ALL {
        check_board(
            full.shift(d),
            &NaiveGrid::full(W, H).shift(d),
            &format!("FULL.shift({d:?})"),
        );
        for k in [W, H, 64, 64 * N, 1 << 33, usize::MAX / 2] {
            check_board(
                full.shift_by(d, k),
                &NaiveGrid::full(W, H).shift_by(d, k),
                &format!("FULL.shift_by({d:?}, {k})"),
            );
        }
        // Past isize::MAX (the naive oracle cannot go there: see naive_oracle.rs).
        for k in [usize::MAX / 2 + 1, usize::MAX - 1, usize::MAX] {
            check_board(
                full.shift_by(d, k),
                &NaiveGrid::new(W, H),
                &format!("FULL.shift_by({d:?}, {k})"),
            );
        }
    }
}
