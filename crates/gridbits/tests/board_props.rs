//! Property tests of the fixed-size [`Board`] against the naive oracle, one module per size.
//!
//! Every check also asserts the storage invariant: no bit outside the board is ever set.

use crate::common::*;
use gridbits::naive::NaiveGrid;
use gridbits::text::CharGrid;
use gridbits::{bitboard, Board, Connectivity, Dir, GridView};
use proptest::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

// ---------------------------------------------------------------------------------------------
// Deterministic checks, generic over the size.

/// Layout constants, the constant masks and the mask constructors.
fn layout<const W: usize, const H: usize, const N: usize>(guard: bool) {
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
fn cells_and_bits<const W: usize, const H: usize, const N: usize>() {
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
fn off_board_panics<const W: usize, const H: usize, const N: usize>() {
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
fn shifts_at_every_edge<const W: usize, const H: usize, const N: usize>() {
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

// ---------------------------------------------------------------------------------------------
// Properties, generic over the size.

fn bitwise<const W: usize, const H: usize, const N: usize>(a_bits: &[bool], b_bits: &[bool]) {
    let a: Board<W, H, N> = board_of(a_bits);
    let b: Board<W, H, N> = board_of(b_bits);
    let na = naive_of(W, H, a_bits);
    let nb = naive_of(W, H, b_bits);
    check_board(a, &na, "from_fn a");
    check_board(b, &nb, "from_fn b");

    let and = na.and(&nb);
    let or = na.or(&nb);
    let xor = na.xor(&nb);
    let and_not = na.and_not(&nb);
    let not = na.not();
    check_board(a.and(b), &and, "and");
    check_board(a & b, &and, "&");
    check_board(a.or(b), &or, "or");
    check_board(a | b, &or, "|");
    check_board(a.xor(b), &xor, "xor");
    check_board(a ^ b, &xor, "^");
    check_board(a.and_not(b), &and_not, "and_not");
    check_board(a.complement(), &not, "complement");
    check_board(!a, &not, "!");
    check_board(!!a, &na, "!!");
    let mut c = a;
    c &= b;
    check_board(c, &and, "&=");
    let mut c = a;
    c |= b;
    check_board(c, &or, "|=");
    let mut c = a;
    c ^= b;
    check_board(c, &xor, "^=");

    assert_eq!(a.is_subset(b), na.and_not(&nb).is_empty(), "is_subset");
    assert_eq!(b.is_subset(a), nb.and_not(&na).is_empty(), "is_subset rev");
    assert!(a.is_subset(a | b) && a.and(b).is_subset(a));
    assert_eq!(a.intersects(b), !and.is_empty(), "intersects");
    assert_eq!(a.is_full(), na.count() == (W * H) as u64, "is_full");
    assert_eq!(a == b, na == nb, "==");
    assert_eq!(a.eq_const(b), na == nb, "eq_const");
    assert_eq!(GridView::count(&a), na.count());
    assert_eq!((GridView::width(&a), GridView::height(&a)), (W, H));
}

fn iteration<const W: usize, const H: usize, const N: usize>(a_bits: &[bool]) {
    type B<const W: usize, const H: usize, const N: usize> = Board<W, H, N>;
    let a: B<W, H, N> = board_of(a_bits);
    let na = naive_of(W, H, a_bits);
    let cells = na.cells();
    assert_eq!(a.iter().collect::<Vec<_>>(), cells, "iter order");
    assert_eq!(a.into_iter().collect::<Vec<_>>(), cells, "into_iter");
    assert_eq!(a.iter().len(), cells.len(), "ExactSizeIterator");
    let mut it = a.iter();
    if it.next().is_some() {
        assert_eq!(it.size_hint(), (cells.len() - 1, Some(cells.len() - 1)));
    }
    assert_eq!(
        cells.iter().copied().collect::<B<W, H, N>>(),
        a,
        "FromIterator"
    );
    assert_eq!(
        cells.iter().rev().copied().collect::<B<W, H, N>>(),
        a,
        "FromIterator reversed"
    );

    assert_eq!(a.lowest(), na.lowest(), "lowest");
    assert_eq!(
        a.lowest_index(),
        na.lowest().map(|(x, y)| B::<W, H, N>::bit_index(x, y)),
        "lowest_index"
    );
    let lb = match na.lowest() {
        Some((x, y)) => naive_cell(W, H, x, y),
        None => NaiveGrid::new(W, H),
    };
    check_board(a.lowest_bit(), &lb, "lowest_bit");

    // pop_lowest drains the cells in order, the board always matching the rest.
    let mut b = a;
    let mut rest = na.clone();
    for &(x, y) in &cells {
        assert_eq!(b.pop_lowest(), Some((x, y)), "pop_lowest");
        rest.set(x, y, false);
        check_board(b, &rest, "after pop_lowest");
    }
    assert_eq!(b.pop_lowest(), None);
    assert!(b.is_empty());
}

/// `op`: 0 set, 1 clear, 2 put true, 3 put false, 4 with.
fn mutation<const W: usize, const H: usize, const N: usize>(
    a_bits: &[bool],
    ops: &[(usize, usize, u8)],
) {
    let mut a: Board<W, H, N> = board_of(a_bits);
    let mut na = naive_of(W, H, a_bits);
    for &(x, y, op) in ops {
        let (x, y) = (x % W, y % H);
        match op % 5 {
            0 => {
                a.set(x, y);
                na.set(x, y, true);
            }
            1 => {
                a.clear(x, y);
                na.set(x, y, false);
            }
            2 => {
                a.put(x, y, true);
                na.set(x, y, true);
            }
            3 => {
                a.put(x, y, false);
                na.set(x, y, false);
            }
            _ => {
                a = a.with(x, y);
                na.set(x, y, true);
            }
        }
        check_board(a, &na, &format!("op {op} at ({x}, {y})"));
        assert_eq!(a.get(x, y), na.get(x, y));
    }
}

fn shifts<const W: usize, const H: usize, const N: usize>(a_bits: &[bool]) {
    let a: Board<W, H, N> = board_of(a_bits);
    let na = naive_of(W, H, a_bits);
    let named = [
        (Dir::N, a.north()),
        (Dir::NE, a.north_east()),
        (Dir::E, a.east()),
        (Dir::SE, a.south_east()),
        (Dir::S, a.south()),
        (Dir::SW, a.south_west()),
        (Dir::W, a.west()),
        (Dir::NW, a.north_west()),
    ];
    for (d, got) in named {
        let expected = na.shift(d);
        check_board(got, &expected, &format!("named shift {d:?}"));
        check_board(a.shift(d), &expected, &format!("shift({d:?})"));
        for k in 0..=W.max(H) + 1 {
            check_board(
                a.shift_by(d, k),
                &na.shift_by(d, k),
                &format!("shift_by({d:?}, {k})"),
            );
        }
        // One step there and back keeps exactly the cells whose neighbour is on the board.
        let back = a.shift(d).shift(d.opposite());
        check_board(
            back,
            &na.shift(d).shift(d.opposite()),
            &format!("shift({d:?}) and back"),
        );
    }
}

fn morphology<const W: usize, const H: usize, const N: usize>(a_bits: &[bool], m_bits: &[bool]) {
    let a: Board<W, H, N> = board_of(a_bits);
    let m: Board<W, H, N> = board_of(m_bits);
    let na = naive_of(W, H, a_bits);
    let nm = naive_of(W, H, m_bits);
    for conn in CONNS {
        check_board(
            a.dilate(conn),
            &na.dilate(conn),
            &format!("dilate {conn:?}"),
        );
        check_board(a.erode(conn), &na.erode(conn), &format!("erode {conn:?}"));
        check_board(
            a.dilate_within(conn, m),
            &na.dilate_within(conn, &nm),
            &format!("dilate_within {conn:?}"),
        );
        check_board(
            a.erode_within(conn, m),
            &na.erode_within(conn, &nm),
            &format!("erode_within {conn:?}"),
        );
        // A few steps of a flood fill through the mask.
        let (mut f, mut nf) = (a.and(m), na.and(&nm));
        for i in 0..4 {
            f = f.dilate_within(conn, m);
            nf = nf.dilate_within(conn, &nm);
            check_board(f, &nf, &format!("flood step {i} {conn:?}"));
        }
    }
}

/// Raw words: `from_words` keeps exactly the cell bits, and the u128 conversions.
fn words<const W: usize, const H: usize, const N: usize>(raw: &[u64]) {
    type B<const W: usize, const H: usize, const N: usize> = Board<W, H, N>;
    let stride = B::<W, H, N>::STRIDE;
    let mut arr = [0u64; N];
    arr.copy_from_slice(raw);
    let b = B::<W, H, N>::from_words(arr);
    let expected = NaiveGrid::from_fn(W, H, |x, y| bit(&arr, y * stride + x));
    check_board(b, &expected, "from_words");
    for i in 0..64 * N {
        assert_eq!(
            bit(&b.words(), i),
            bit(&arr, i) && B::<W, H, N>::cell_of(i).is_some(),
            "from_words bit {i}"
        );
    }
    let lo_hi = |w: &[u64]| -> u128 {
        u128::from(w[0]) | (u128::from(w.get(1).copied().unwrap_or(0)) << 64)
    };
    assert_eq!(b.to_u128(), lo_hi(&b.words()), "to_u128");
    let v = lo_hi(&arr);
    let mut first_two = [0u64; N];
    first_two[0] = arr[0];
    if N > 1 {
        first_two[1] = arr[1];
    }
    let from = B::<W, H, N>::from_u128(v);
    assert_eq!(from, B::<W, H, N>::from_words(first_two), "from_u128");
    check_board(
        from,
        &NaiveGrid::from_fn(W, H, |x, y| bit(&first_two, y * stride + x)),
        "from_u128",
    );
    if N <= 2 {
        assert_eq!(B::<W, H, N>::from_u128(b.to_u128()), b, "u128 round trip");
        assert_eq!(from, b);
    }
    // The raw words of a board built cell by cell follow the documented layout.
    let c: B<W, H, N> = B::<W, H, N>::from_fn(|x, y| expected.get(x, y));
    assert_eq!(c.words(), b.words(), "from_fn vs from_words");
}

fn text<const W: usize, const H: usize, const N: usize>(a_bits: &[bool], set_char: u8) {
    type B<const W: usize, const H: usize, const N: usize> = Board<W, H, N>;
    let a: B<W, H, N> = board_of(a_bits);
    let na = naive_of(W, H, a_bits);
    let t = a.to_text();
    assert_eq!(t, na.to_text(), "to_text");
    assert_eq!(a.to_string(), t, "Display");
    assert_eq!(
        gridbits::render_text(&a, 'o', '_'),
        na.to_text().replace('#', "o").replace('.', "_")
    );
    assert!(format!("{a:?}").ends_with(&t), "Debug shows the grid");
    assert_eq!(B::<W, H, N>::parse(&t), Ok(a), "parse(to_text)");
    // Any printable character other than '.' is a set cell; CRLF is accepted.
    let other = t
        .replace('#', &char::from(set_char).to_string())
        .replace('\n', "\r\n");
    assert_eq!(
        B::<W, H, N>::parse(&other),
        Ok(a),
        "parse with {:?}",
        char::from(set_char)
    );
    // A custom mapping through CharGrid.
    let swapped = t.replace('#', "o").replace('.', "#");
    let grid = CharGrid::parse(swapped.as_bytes()).unwrap();
    assert_eq!(B::<W, H, N>::from_char_grid(&grid, |c| c == b'o'), Ok(a));
    assert_eq!(B::<W, H, N>::from_char_grid(&grid, |c| c == b'#'), Ok(!a));
    // from_rows (the bitboard! backend) agrees with parse.
    let rows: Vec<&str> = t.lines().collect();
    assert_eq!(B::<W, H, N>::from_rows(&rows), a, "from_rows");
}

fn rect<const W: usize, const H: usize, const N: usize>(
    x0: usize,
    x1: usize,
    y0: usize,
    y1: usize,
) {
    let expected = NaiveGrid::from_fn(W, H, |x, y| x0 <= x && x < x1 && y0 <= y && y < y1);
    check_board(
        Board::<W, H, N>::rect_mask(x0, x1, y0, y1),
        &expected,
        &format!("rect_mask({x0}, {x1}, {y0}, {y1})"),
    );
}

// ---------------------------------------------------------------------------------------------
// One module per size.

macro_rules! board_suite {
    ($name:ident, $ty:ty, $w:literal x $h:literal, n = $n:literal, guard = $guard:literal) => {
        mod $name {
            use super::*;

            const W: usize = $w;
            const H: usize = $h;
            const N: usize = $n;
            /// The type under test (an alias where the crate has one).
            type B = $ty;

            #[test]
            fn type_is_the_requested_size() {
                // The alias must be exactly Board<W, H, N>.
                use std::any::TypeId;
                assert_eq!(TypeId::of::<B>(), TypeId::of::<Board<W, H, N>>());
            }

            #[test]
            fn layout() {
                super::layout::<W, H, N>($guard);
            }

            #[test]
            fn cells_and_bits() {
                super::cells_and_bits::<W, H, N>();
            }

            #[test]
            fn off_board_panics() {
                super::off_board_panics::<W, H, N>();
            }

            #[test]
            fn shifts_at_every_edge() {
                super::shifts_at_every_edge::<W, H, N>();
            }

            // The properties: `check` compiles the proptest runner once per value type, not
            // once per size; the cases are the ones `proptest!` would draw.

            #[test]
            fn bitwise() {
                check(
                    config(96),
                    (pattern(W, H), pattern(W, H)).boxed(),
                    &|(a, b)| {
                        super::bitwise::<W, H, N>(&a, &b);
                        Ok(())
                    },
                );
            }

            #[test]
            fn iteration() {
                check(config(96), (pattern(W, H),).boxed(), &|(a,)| {
                    super::iteration::<W, H, N>(&a);
                    Ok(())
                });
            }

            #[test]
            fn mutation() {
                let ops = proptest::collection::vec((0..W, 0..H, 0u8..5), 0..40);
                check(config(96), (pattern(W, H), ops).boxed(), &|(a, ops)| {
                    super::mutation::<W, H, N>(&a, &ops);
                    Ok(())
                });
            }

            #[test]
            fn shifts() {
                check(config(96), (pattern(W, H),).boxed(), &|(a,)| {
                    super::shifts::<W, H, N>(&a);
                    Ok(())
                });
            }

            #[test]
            fn morphology() {
                check(
                    config(96),
                    (pattern(W, H), pattern(W, H)).boxed(),
                    &|(a, m)| {
                        super::morphology::<W, H, N>(&a, &m);
                        Ok(())
                    },
                );
            }

            #[test]
            fn words() {
                let raw = proptest::collection::vec(
                    prop_oneof![any::<u64>(), Just(0u64), Just(!0u64)],
                    N,
                );
                check(config(96), (raw,).boxed(), &|(raw,)| {
                    super::words::<W, H, N>(&raw);
                    Ok(())
                });
            }

            #[test]
            fn text() {
                check(
                    config(96),
                    (pattern(W, H), 0x21u8..=0x7e).boxed(),
                    &|(a, c)| {
                        let c = if c == b'.' { b'#' } else { c };
                        super::text::<W, H, N>(&a, c);
                        Ok(())
                    },
                );
            }

            #[test]
            fn rect_mask() {
                let strategy = (0..W + 3, 0..W + 3, 0..H + 3, 0..H + 3);
                check(config(96), strategy.boxed(), &|(x0, x1, y0, y1)| {
                    super::rect::<W, H, N>(x0, x1, y0, y1);
                    Ok(())
                });
            }
        }
    };
}

board_suite!(b1x1, Board<1, 1, 1>, 1 x 1, n = 1, guard = true);
board_suite!(b1x32, Board<1, 32, 1>, 1 x 32, n = 1, guard = true);
board_suite!(b1x40, Board<1, 40, 1>, 1 x 40, n = 1, guard = false);
board_suite!(b1x64, Board<1, 64, 1>, 1 x 64, n = 1, guard = false);
board_suite!(b40x1, Board<40, 1, 1>, 40 x 1, n = 1, guard = true);
board_suite!(b63x1, Board<63, 1, 1>, 63 x 1, n = 1, guard = true);
board_suite!(b64x1, Board<64, 1, 1>, 64 x 1, n = 1, guard = false);
board_suite!(b7x8, Board<7, 8, 1>, 7 x 8, n = 1, guard = true);
board_suite!(b8x8, gridbits::Board8x8, 8 x 8, n = 1, guard = false);
board_suite!(b8x8_n2, Board<8, 8, 2>, 8 x 8, n = 2, guard = true);
board_suite!(b65x1, Board<65, 1, 2>, 65 x 1, n = 2, guard = true);
board_suite!(b128x1, Board<128, 1, 2>, 128 x 1, n = 2, guard = false);
board_suite!(b1x128, Board<1, 128, 2>, 1 x 128, n = 2, guard = false);
board_suite!(b64x2, Board<64, 2, 2>, 64 x 2, n = 2, guard = false);
board_suite!(b6x12, gridbits::Board6x12, 6 x 12, n = 2, guard = true);
board_suite!(b6x13, gridbits::Board6x13, 6 x 13, n = 2, guard = true);
board_suite!(b16x8, Board<16, 8, 2>, 16 x 8, n = 2, guard = false);
board_suite!(b9x9, gridbits::Board9x9, 9 x 9, n = 2, guard = true);
board_suite!(b10x10, gridbits::Board10x10, 10 x 10, n = 2, guard = true);
board_suite!(b10x40, gridbits::Board10x40, 10 x 40, n = 7, guard = true);
board_suite!(b19x19, gridbits::Board19x19, 19 x 19, n = 6, guard = true);
board_suite!(b30x20, gridbits::Board30x20, 30 x 20, n = 10, guard = true);
board_suite!(b10x10_n3, Board<10, 10, 3>, 10 x 10, n = 3, guard = true);

// ---------------------------------------------------------------------------------------------
// The bitboard! macro and the crate examples.

#[test]
fn bitboard_macro_builds_the_drawn_board() {
    const B: Board<4, 3, 1> = bitboard!(Board<4, 3, 1>; "#..#", ".x..", "...o");
    let expected = NaiveGrid::from_fn(4, 3, |x, y| {
        matches!((x, y), (0, 0) | (3, 0) | (1, 1) | (3, 2))
    });
    check_board(B, &expected, "bitboard! 4x3");

    let b = bitboard!(gridbits::Board6x12;
        "......", "......", "......", "......", "......", "......",
        "......", "......", "......", "..#...", "..##..", "#....#");
    assert_eq!(
        b.iter().collect::<Vec<_>>(),
        vec![(2, 9), (2, 10), (3, 10), (0, 11), (5, 11)]
    );
    assert_eq!(b, gridbits::Board6x12::parse(&b.to_text()).unwrap());
    // Trailing comma accepted.
    let one = bitboard!(Board<1, 1, 1>; "#",);
    assert!(one.is_full());
    let empty = bitboard!(Board<2, 2, 1>; "..", "..");
    assert!(empty.is_empty());
}

#[test]
fn flood_fill_example_from_the_crate_docs() {
    use gridbits::Board10x10;
    let walls = bitboard!(Board10x10;
        "..........", "..........", "..#####...", "......#...", "......#...",
        "..........", "..........", "..........", "..........", "..........");
    let free = !walls;
    let mut region = Board10x10::cell(0, 0);
    let mut naive = naive_cell(10, 10, 0, 0);
    let nfree = NaiveGrid::from_view(&free);
    for _ in 0..30 {
        region = region.dilate_within(Connectivity::Four, free);
        naive = naive.dilate_within(Connectivity::Four, &nfree);
        check_board(region, &naive, "flood");
    }
    assert_eq!(region, free, "the free cells are connected");
}

#[test]
fn from_rows_rejects_wrong_shapes() {
    type B = Board<3, 2, 1>;
    assert!(
        catch_unwind(|| B::from_rows(&["###"])).is_err(),
        "too few rows"
    );
    assert!(
        catch_unwind(|| B::from_rows(&["###", "##"])).is_err(),
        "short row"
    );
    assert!(
        catch_unwind(|| B::from_rows(&["###", "####"])).is_err(),
        "long row"
    );
    assert!(
        catch_unwind(|| B::from_rows(&["# #", "###"])).is_err(),
        "space"
    );
    assert!(
        catch_unwind(|| B::from_rows(&["#é", "###"])).is_err(),
        "non-ASCII"
    );
    assert_eq!(B::from_rows(&["#.#", ".#."]).count(), 3);
}

#[test]
fn wrong_size_parse_is_an_error() {
    use gridbits::text::ParseErrorKind;
    type B = Board<3, 2, 1>;
    let err = B::parse("###\n").unwrap_err();
    assert_eq!(
        err.kind,
        ParseErrorKind::WrongSize {
            expected: (3, 2),
            found: (3, 1)
        }
    );
    assert_eq!((err.line, err.column), (2, 1));
    let err = B::parse("##\n##\n").unwrap_err();
    assert_eq!(
        err.kind,
        ParseErrorKind::WrongSize {
            expected: (3, 2),
            found: (2, 2)
        }
    );
    assert_eq!((err.line, err.column), (1, 3));
    let err = B::parse("####\n####\n").unwrap_err();
    assert_eq!(
        err.kind,
        ParseErrorKind::WrongSize {
            expected: (3, 2),
            found: (4, 2)
        }
    );
    assert_eq!((err.line, err.column), (1, 4));
    let err = B::parse("###\n###\n###\n").unwrap_err();
    assert_eq!(
        err.kind,
        ParseErrorKind::WrongSize {
            expected: (3, 2),
            found: (3, 3)
        }
    );
    assert_eq!((err.line, err.column), (3, 1));
    assert_eq!(
        err.to_string(),
        "line 3, column 1: grid is 3x3, expected 3x2"
    );
    // Errors of the text itself come first.
    let err = B::parse("#.\t\n").unwrap_err();
    assert_eq!(err.kind, ParseErrorKind::BadByte(b'\t'));
    assert_eq!(B::parse("").unwrap_err().kind, ParseErrorKind::Empty);
}

/// Masks of rows and columns past the board are empty, whatever the index.
#[test]
fn row_and_column_masks_of_huge_indices_are_empty() {
    type B = gridbits::Board8x8;
    assert!(B::row(usize::MAX).is_empty());
    assert!(B::column(usize::MAX).is_empty());
}
