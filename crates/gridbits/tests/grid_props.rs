//! Property tests of the run-time sized [`BitGrid`] against the naive oracle, concentrating on
//! widths around word boundaries (63, 64, 65, 127, 128, 129) and on 1-wide and 1-high grids.
//!
//! Every check also asserts the storage invariant: bits past `width` in each row's last word
//! stay zero.

use crate::common::*;
use gridbits::naive::NaiveGrid;
use gridbits::text::CharGrid;
use gridbits::{BitGrid, Connectivity, Dir, GridView};
use proptest::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

const WIDTHS: [usize; 6] = [63, 64, 65, 127, 128, 129];
const HEIGHTS: [usize; 4] = [1, 2, 7, 64];

/// The sizes every deterministic test walks through.
fn listed_sizes() -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for w in WIDTHS {
        for h in HEIGHTS {
            v.push((w, h));
        }
    }
    v.extend([
        (1, 1),
        (1, 2),
        (1, 7),
        (1, 64),
        (1, 65),
        (1, 200),
        (2, 1),
        (7, 1),
        (200, 1),
        (256, 1),
        (3, 3),
        (192, 3),
        (193, 2),
    ]);
    v
}

/// A size: a listed one, a small random one, or a long thin one.
fn grid_size() -> impl Strategy<Value = (usize, usize)> {
    prop_oneof![
        3 => proptest::sample::select(listed_sizes()),
        2 => (1..=70usize, 1..=12usize),
        1 => (1..=260usize, 1..=3usize),
        1 => (1..=3usize, 1..=100usize),
    ]
}

/// A size and two patterns of that size.
fn sized_pair() -> impl Strategy<Value = (usize, usize, Vec<bool>, Vec<bool>)> {
    grid_size().prop_flat_map(|(w, h)| (Just(w), Just(h), pattern(w, h), pattern(w, h)))
}

/// A shift distance: small, around one or two words, or anything up to past the largest size.
fn distance() -> impl Strategy<Value = usize> {
    prop_oneof![0..=3usize, 60..=68usize, 124..=132usize, 0..=262usize]
}

/// The raw words of a grid with exactly the given cells.
fn raw_words(w: usize, h: usize, cells: &[(usize, usize)]) -> Vec<u64> {
    let wpr = w.div_ceil(64);
    let mut v = vec![0u64; wpr * h];
    for &(x, y) in cells {
        v[y * wpr + x / 64] |= 1 << (x % 64);
    }
    v
}

// ---------------------------------------------------------------------------------------------
// Deterministic tests.

#[test]
fn layout_and_cells() {
    for (w, h) in listed_sizes() {
        let wpr = w.div_ceil(64);
        let empty = BitGrid::new(w, h);
        check_grid(&empty, &NaiveGrid::new(w, h), &format!("new({w}, {h})"));
        assert_eq!(empty.lowest(), None);
        assert_eq!(empty.iter().next(), None);
        assert!(!empty.is_full());
        let full = BitGrid::full(w, h);
        check_grid(&full, &NaiveGrid::full(w, h), &format!("full({w}, {h})"));
        assert!(full.is_full());
        assert_eq!(full.lowest(), Some((0, 0)));
        assert_eq!(full.empty_like(), empty, "empty_like");
        assert_eq!(
            BitGrid::from_fn(w, h, |_, _| true).unwrap(),
            full,
            "from_fn true"
        );
        assert_eq!(full.words_per_row(), wpr);

        for y in 0..h {
            for x in 0..w {
                let i = empty.bit_index(x, y);
                assert_eq!(i, y * wpr * 64 + x, "bit_index({x}, {y}) of {w}x{h}");
                assert_eq!(empty.cell_of(i), Some((x, y)), "cell_of({i}) of {w}x{h}");
                let mut g = empty.clone();
                g.set(x, y);
                assert_eq!(g.words(), &raw_words(w, h, &[(x, y)])[..], "set({x}, {y})");
                assert!(g.get(x, y));
                assert_eq!(g.count(), 1);
                assert_eq!(g.lowest(), Some((x, y)));
                assert_eq!(g.iter().collect::<Vec<_>>(), vec![(x, y)]);
                g.clear(x, y);
                assert!(g.is_empty(), "clear({x}, {y})");
                g.put(x, y, true);
                assert_eq!(g.words(), &raw_words(w, h, &[(x, y)])[..], "put true");
                g.put(x, y, false);
                assert!(g.is_empty(), "put false");
                assert!(full.get(x, y));
            }
            // Padding bits past the width are not cells.
            for x in w..wpr * 64 {
                assert_eq!(
                    empty.cell_of(y * wpr * 64 + x),
                    None,
                    "cell_of padding bit ({x}, {y}) of {w}x{h}"
                );
            }
        }
        for i in [wpr * 64 * h, wpr * 64 * h + 1, 1 << 40, usize::MAX] {
            assert_eq!(empty.cell_of(i), None, "cell_of({i}) of {w}x{h}");
        }
        for (x, y) in [(w, 0), (0, h), (w, h), (usize::MAX, 0), (0, usize::MAX)] {
            assert!(!full.get(x, y), "get({x}, {y}) off the {w}x{h} grid");
            let mut g = empty.clone();
            assert!(catch_unwind(AssertUnwindSafe(|| g.set(x, y))).is_err());
            assert!(catch_unwind(AssertUnwindSafe(|| g.clear(x, y))).is_err());
            assert!(catch_unwind(AssertUnwindSafe(|| g.put(x, y, true))).is_err());
            assert!(catch_unwind(AssertUnwindSafe(|| g.bit_index(x, y))).is_err());
            assert!(g.is_empty());
        }
    }
}

#[test]
fn huge_dimensions() {
    assert!(BitGrid::try_new(1 << 20, 1 << 20).is_err());
    assert!(BitGrid::try_new(usize::MAX, 2).is_err());
    assert!(BitGrid::try_new(2, usize::MAX).is_err());
    assert!(BitGrid::try_new(usize::MAX, usize::MAX).is_err());
    assert!(BitGrid::try_new(1 << 33, 3).is_err());
    let e = BitGrid::try_new(0, 3).unwrap_err();
    assert_eq!((e.width, e.height), (0, 3));
    assert!(e.to_string().starts_with("cannot make a 0x3 grid: "), "{e}");
    assert!(BitGrid::try_new(3, 0).is_err());
    assert!(BitGrid::try_new(0, 0).is_err());
    assert!(BitGrid::try_full(0, 1).is_err());
    assert!(BitGrid::try_full(1 << 20, 1 << 20).is_err());
    assert!(BitGrid::from_fn(0, 1, |_, _| true).is_err());
    assert!(BitGrid::from_fn(1 << 20, 1 << 20, |_, _| true).is_err());
    assert!(BitGrid::rect_mask(1 << 20, 1 << 20, 0, 1, 0, 1).is_err());
    assert!(BitGrid::row_mask(0, 1, 0).is_err());
    assert!(BitGrid::column_mask(1, 0, 0).is_err());
    assert!(BitGrid::border_mask(0, 5).is_err());
    assert!(BitGrid::border_mask(5, 0).is_err());
    assert!(BitGrid::border_mask(usize::MAX, 2).is_err());

    let g = BitGrid::new(16384, 16384);
    assert_eq!(
        (g.width(), g.height(), g.words_per_row()),
        (16384, 16384, 256)
    );
    assert_eq!(g.words().len(), 256 * 16384);
    assert!(g.is_empty());
    assert_eq!(g.lowest(), None);
}

/// Single cells near every edge and word boundary, shifted every way by distances around the
/// word size and the grid size.
#[test]
fn shifts_at_every_edge() {
    for (w, h) in listed_sizes() {
        let xs: Vec<usize> = if w <= 8 {
            (0..w).collect()
        } else {
            let mut v = vec![0, 1, 2, 62, 63, 64, 65, 66, 126, 127, 128, 129, w / 2];
            v.extend([w - 2, w - 1]);
            v.retain(|&x| x < w);
            v
        };
        let ys: Vec<usize> = if h <= 8 {
            (0..h).collect()
        } else {
            vec![0, 1, h / 2, h - 2, h - 1]
        };
        let mut ks = vec![0, 1, 2, 3, 62, 63, 64, 65, 66, 127, 128, 129, 130, 200, 300];
        ks.extend([w - 1, w, w + 1, h - 1, h, h + 1, usize::MAX / 2, usize::MAX]);
        let empty = BitGrid::new(w, h);
        let full = BitGrid::full(w, h);
        for &y in &ys {
            for &x in &xs {
                let mut c = empty.clone();
                c.set(x, y);
                let hole = full.and_not(&c);
                let nhole = naive_cell(w, h, x, y).not();
                for d in Dir::ALL {
                    for &k in &ks {
                        let cells: Vec<_> = step(x, y, d, k, w, h).into_iter().collect();
                        assert_eq!(
                            c.shift_by(d, k).words(),
                            &raw_words(w, h, &cells)[..],
                            "{w}x{h}: cell ({x}, {y}) shift_by({d:?}, {k})"
                        );
                    }
                    assert_eq!(
                        c.shift(d).words(),
                        &raw_words(
                            w,
                            h,
                            &step(x, y, d, 1, w, h).into_iter().collect::<Vec<_>>()
                        )[..],
                        "{w}x{h}: cell ({x}, {y}) shift({d:?})"
                    );
                    for k in [1, 63, 64, 65] {
                        check_grid(
                            &hole.shift_by(d, k),
                            &nhole.shift_by(d, k),
                            &format!("{w}x{h}: full minus ({x}, {y}), shift_by({d:?}, {k})"),
                        );
                    }
                }
            }
        }
        for d in Dir::ALL {
            for &k in &ks {
                let expected = if k <= isize::MAX as usize {
                    NaiveGrid::full(w, h).shift_by(d, k)
                } else {
                    NaiveGrid::new(w, h)
                };
                check_grid(
                    &full.shift_by(d, k),
                    &expected,
                    &format!("{w}x{h}: full.shift_by({d:?}, {k})"),
                );
            }
        }
    }
}

#[test]
fn mismatched_sizes_panic() {
    let a = BitGrid::new(64, 2);
    let b = BitGrid::new(65, 2);
    let c = BitGrid::new(64, 3);
    for other in [&b, &c] {
        let mut g = a.clone();
        assert!(catch_unwind(AssertUnwindSafe(|| g.and_assign(other))).is_err());
        assert!(catch_unwind(AssertUnwindSafe(|| g.or_assign(other))).is_err());
        assert!(catch_unwind(AssertUnwindSafe(|| g.xor_assign(other))).is_err());
        assert!(catch_unwind(AssertUnwindSafe(|| g.and_not_assign(other))).is_err());
        assert!(catch_unwind(AssertUnwindSafe(|| g.and_not(other))).is_err());
        assert!(catch_unwind(AssertUnwindSafe(|| g.is_subset(other))).is_err());
        assert!(catch_unwind(AssertUnwindSafe(|| &g & other)).is_err());
        assert!(catch_unwind(AssertUnwindSafe(|| &g | other)).is_err());
        assert!(catch_unwind(AssertUnwindSafe(|| &g ^ other)).is_err());
        assert!(catch_unwind(AssertUnwindSafe(|| g &= other)).is_err());
        for conn in CONNS {
            assert!(catch_unwind(AssertUnwindSafe(|| g.dilate_within(conn, other))).is_err());
            assert!(catch_unwind(AssertUnwindSafe(|| g.erode_within(conn, other))).is_err());
            let mut out = other.clone();
            assert!(
                catch_unwind(AssertUnwindSafe(|| g.dilate_into(conn, None, &mut out))).is_err()
            );
        }
        assert!(g.is_empty());
    }
}

/// `dilate_into` documents "Panics if the sizes differ", but only `out` is checked: a mask of
/// another size is read with the wrong row stride (or out of bounds).
#[test]
fn dilate_into_with_a_mask_of_another_size_panics() {
    let g = BitGrid::full(64, 2);
    let mask = BitGrid::full(65, 2);
    let mut out = BitGrid::new(64, 2);
    let r = catch_unwind(AssertUnwindSafe(|| {
        g.dilate_into(Connectivity::Four, Some(&mask), &mut out)
    }));
    assert!(r.is_err(), "no panic; result:\n{out}");
}

#[test]
fn row_words_mut_writes_cells() {
    let mut g = BitGrid::new(130, 3);
    g.row_words_mut(1).copy_from_slice(&[1, 1 << 63, 0b10]);
    let expected = NaiveGrid::from_fn(130, 3, |x, y| y == 1 && [0, 127, 129].contains(&x));
    check_grid(&g, &expected, "row_words_mut");
}

// ---------------------------------------------------------------------------------------------
// Properties.

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn bitwise((w, h, a_bits, b_bits) in sized_pair()) {
        let a = grid_of(w, h, &a_bits);
        let b = grid_of(w, h, &b_bits);
        let na = naive_of(w, h, &a_bits);
        let nb = naive_of(w, h, &b_bits);
        check_grid(&a, &na, "from_fn a");
        check_grid(&b, &nb, "from_fn b");
        let (and, or, xor, and_not, not) =
            (na.and(&nb), na.or(&nb), na.xor(&nb), na.and_not(&nb), na.not());

        let mut g = a.clone();
        g.and_assign(&b);
        check_grid(&g, &and, "and_assign");
        let mut g = a.clone();
        g.or_assign(&b);
        check_grid(&g, &or, "or_assign");
        let mut g = a.clone();
        g.xor_assign(&b);
        check_grid(&g, &xor, "xor_assign");
        let mut g = a.clone();
        g.and_not_assign(&b);
        check_grid(&g, &and_not, "and_not_assign");
        check_grid(&a.and_not(&b), &and_not, "and_not");
        check_grid(&a.complement(), &not, "complement");
        let mut g = a.clone();
        g.complement_assign();
        check_grid(&g, &not, "complement_assign");
        g.complement_assign();
        check_grid(&g, &na, "complement_assign twice");

        check_grid(&(&a & &b), &and, "&");
        check_grid(&(&a | &b), &or, "|");
        check_grid(&(&a ^ &b), &xor, "^");
        check_grid(&!&a, &not, "!&g");
        check_grid(&!a.clone(), &not, "!g");
        let mut g = a.clone();
        g &= &b;
        check_grid(&g, &and, "&=");
        let mut g = a.clone();
        g |= &b;
        check_grid(&g, &or, "|=");
        let mut g = a.clone();
        g ^= &b;
        check_grid(&g, &xor, "^=");

        prop_assert_eq!(a.is_subset(&b), na.and_not(&nb).is_empty());
        prop_assert_eq!(b.is_subset(&a), nb.and_not(&na).is_empty());
        prop_assert!(a.is_subset(&(&a | &b)));
        prop_assert_eq!(a.is_full(), na.count() == (w * h) as u64);
        prop_assert_eq!(a == b, na == nb);
        prop_assert_eq!(GridView::count(&a), na.count());
        prop_assert_eq!((GridView::width(&a), GridView::height(&a)), (w, h));
    }

    #[test]
    fn iteration((w, h, a_bits, _b) in sized_pair()) {
        let a = grid_of(w, h, &a_bits);
        let na = naive_of(w, h, &a_bits);
        let cells = na.cells();
        prop_assert_eq!(a.iter().collect::<Vec<_>>(), cells.clone());
        prop_assert_eq!((&a).into_iter().collect::<Vec<_>>(), cells.clone());
        prop_assert_eq!(a.lowest(), na.lowest());
        // Draining through lowest/clear visits the cells in order.
        let mut g = a.clone();
        let mut rest = na.clone();
        for &(x, y) in cells.iter().take(64) {
            prop_assert_eq!(g.lowest(), Some((x, y)));
            g.clear(x, y);
            rest.set(x, y, false);
            check_grid(&g, &rest, "after clearing the lowest");
        }
    }

    #[test]
    fn mutation(
        (w, h, a_bits, _b) in sized_pair(),
        ops in proptest::collection::vec((any::<usize>(), any::<usize>(), 0u8..4), 0..40),
    ) {
        let mut a = grid_of(w, h, &a_bits);
        let mut na = naive_of(w, h, &a_bits);
        for (x, y, op) in ops {
            let (x, y) = (x % w, y % h);
            match op {
                0 => a.set(x, y),
                1 => a.clear(x, y),
                2 => a.put(x, y, true),
                _ => a.put(x, y, false),
            }
            na.set(x, y, op % 2 == 0);
            check_grid(&a, &na, &format!("op {op} at ({x}, {y})"));
        }
    }

    #[test]
    fn shifts(
        (w, h, a_bits, _b) in sized_pair(),
        ks in proptest::collection::vec(distance(), 1..4),
    ) {
        let a = grid_of(w, h, &a_bits);
        let na = naive_of(w, h, &a_bits);
        for d in Dir::ALL {
            check_grid(&a.shift(d), &na.shift(d), &format!("shift({d:?})"));
            for &k in &ks {
                check_grid(
                    &a.shift_by(d, k),
                    &na.shift_by(d, k),
                    &format!("shift_by({d:?}, {k})"),
                );
            }
            for k in [w - 1, h - 1] {
                check_grid(
                    &a.shift_by(d, k),
                    &na.shift_by(d, k),
                    &format!("shift_by({d:?}, {k})"),
                );
            }
            check_grid(
                &a.shift(d).shift(d.opposite()),
                &na.shift(d).shift(d.opposite()),
                &format!("shift({d:?}) and back"),
            );
        }
    }

    #[test]
    fn morphology((w, h, a_bits, m_bits) in sized_pair()) {
        let a = grid_of(w, h, &a_bits);
        let m = grid_of(w, h, &m_bits);
        let na = naive_of(w, h, &a_bits);
        let nm = naive_of(w, h, &m_bits);
        for conn in CONNS {
            let dil = na.dilate(conn);
            let dil_m = na.dilate_within(conn, &nm);
            check_grid(&a.dilate(conn), &dil, &format!("dilate {conn:?}"));
            check_grid(&a.erode(conn), &na.erode(conn), &format!("erode {conn:?}"));
            check_grid(&a.dilate_within(conn, &m), &dil_m, &format!("dilate_within {conn:?}"));
            check_grid(
                &a.erode_within(conn, &m),
                &na.erode_within(conn, &nm),
                &format!("erode_within {conn:?}"),
            );
            // dilate_into overwrites whatever `out` held.
            let mut out = a.complement();
            a.dilate_into(conn, None, &mut out);
            check_grid(&out, &dil, &format!("dilate_into {conn:?}"));
            let mut out = BitGrid::full(w, h);
            a.dilate_into(conn, Some(&m), &mut out);
            check_grid(&out, &dil_m, &format!("dilate_into masked {conn:?}"));
            // A few steps of a flood fill through the mask.
            let (mut f, mut nf) = (&a & &m, na.and(&nm));
            for i in 0..3 {
                f = f.dilate_within(conn, &m);
                nf = nf.dilate_within(conn, &nm);
                check_grid(&f, &nf, &format!("flood step {i} {conn:?}"));
            }
        }
    }

    #[test]
    fn masks(
        (w, h) in grid_size(),
        (x0, x1, y0, y1) in (0..300usize, 0..300usize, 0..70usize, 0..70usize),
    ) {
        let (x0, x1) = (x0 % (w + 3), x1 % (w + 3));
        let (y0, y1) = (y0 % (h + 3), y1 % (h + 3));
        check_grid(
            &BitGrid::rect_mask(w, h, x0, x1, y0, y1).unwrap(),
            &NaiveGrid::from_fn(w, h, |x, y| x0 <= x && x < x1 && y0 <= y && y < y1),
            &format!("rect_mask({x0}, {x1}, {y0}, {y1})"),
        );
        check_grid(
            &BitGrid::row_mask(w, h, y0).unwrap(),
            &NaiveGrid::row_mask(w, h, y0),
            &format!("row_mask({y0})"),
        );
        check_grid(
            &BitGrid::column_mask(w, h, x0).unwrap(),
            &NaiveGrid::column_mask(w, h, x0),
            &format!("column_mask({x0})"),
        );
        check_grid(
            &BitGrid::border_mask(w, h).unwrap(),
            &NaiveGrid::border_mask(w, h),
            "border_mask",
        );
        check_grid(&BitGrid::full(w, h), &NaiveGrid::full(w, h), "full");
    }

    #[test]
    fn text((w, h, a_bits, _b) in sized_pair(), c in 0x21u8..=0x7e) {
        let a = grid_of(w, h, &a_bits);
        let na = naive_of(w, h, &a_bits);
        let t = a.to_text();
        prop_assert_eq!(&t, &na.to_text());
        prop_assert_eq!(&a.to_string(), &t);
        let dbg = format!("{:?}", a);
        let header = format!("BitGrid {}x{} ({} set)\n", w, h, na.count());
        if w <= 256 && h <= 256 {
            prop_assert_eq!(dbg, header + &t);
        } else {
            prop_assert_eq!(dbg, header);
        }
        prop_assert_eq!(BitGrid::parse(&t), Ok(a.clone()));
        prop_assert_eq!(BitGrid::parse_bytes(t.as_bytes()), Ok(a.clone()));
        let c = if c == b'.' { b'@' } else { c };
        let other = t.replace('#', &char::from(c).to_string()).replace('\n', "\r\n");
        prop_assert_eq!(BitGrid::parse(&other), Ok(a.clone()));
        let cg = CharGrid::parse(other.as_bytes()).unwrap();
        prop_assert_eq!(BitGrid::from_char_grid(&cg, |ch| ch == c), Ok(a.clone()));
        prop_assert_eq!(BitGrid::from_char_grid(&cg, |ch| ch == b'.'), Ok(a.complement()));
    }
}

/// Masks of rows and columns past the grid are empty, whatever the index.
#[test]
fn row_and_column_masks_of_huge_indices_are_empty() {
    assert!(BitGrid::row_mask(70, 3, usize::MAX).unwrap().is_empty());
    assert!(BitGrid::column_mask(70, 3, usize::MAX).unwrap().is_empty());
}
