//! Properties of the fixed-size [`Board`] against the naive oracle, generic over the size.

use crate::common::*;
use gridbits::naive::NaiveGrid;
use gridbits::text::CharGrid;
use gridbits::{Board, Dir, GridView};

pub(super) fn bitwise<const W: usize, const H: usize, const N: usize>(
    a_bits: &[bool],
    b_bits: &[bool],
) {
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

pub(super) fn iteration<const W: usize, const H: usize, const N: usize>(a_bits: &[bool]) {
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
pub(super) fn mutation<const W: usize, const H: usize, const N: usize>(
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

pub(super) fn shifts<const W: usize, const H: usize, const N: usize>(a_bits: &[bool]) {
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

pub(super) fn morphology<const W: usize, const H: usize, const N: usize>(
    a_bits: &[bool],
    m_bits: &[bool],
) {
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
pub(super) fn words<const W: usize, const H: usize, const N: usize>(raw: &[u64]) {
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

pub(super) fn text<const W: usize, const H: usize, const N: usize>(a_bits: &[bool], set_char: u8) {
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

pub(super) fn rect<const W: usize, const H: usize, const N: usize>(
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
