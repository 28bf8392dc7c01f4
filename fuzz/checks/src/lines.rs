//! Line clears and gravity against `gridbits::naive::lines`: the row-chunk layout (any
//! width up to 64, up to 200 rows), the column layout (up to 64 rows), multi-plane gravity,
//! and `settle_down` on any board; `pext` and portable paths both.

use crate::boards::{on_any_board, AnyBoard, BoardCheck};
use crate::bytes::Bytes;
use gridbits::algo::lines::{settle_down, settle_planes, ColumnBoard, RowChunks, PEXT};
use gridbits::cpu::{self, with_level, Level};
use gridbits::naive::lines::{settle_values, NaiveLines};
use gridbits::naive::NaiveGrid;
use gridbits::GridView;

/// One layout chosen by the input: row chunks, columns of a fixed width, or gravity on any
/// board.
pub fn check_lines(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let b = &mut bytes;
    match b.byte() % 9 {
        0 | 1 => row_chunks(b),
        2 => columns::<1>(b),
        3 => columns::<4>(b),
        4 => columns::<6>(b),
        5 => columns::<10>(b),
        6 => columns::<33>(b),
        7 => columns::<64>(b),
        _ => on_any_board(b, &mut SettleDown),
    }
}

/// Cells with some rows forced full (so that clears happen at every position).
fn lines(w: usize, h: usize, bytes: &mut Bytes<'_>) -> NaiveLines {
    let cells = bytes.cells(w, h);
    let full = bytes.cells(1, h);
    NaiveLines::from_fn(w, h, |x, y| full[y] || cells[y * w + x])
}

fn same(what: &str, got: &impl GridView, want: &NaiveLines) {
    let (w, h) = (want.width(), want.height());
    for y in 0..h {
        for x in 0..w {
            assert_eq!(got.get(x, y), want.get(x, y), "{what}: cell ({x}, {y})");
        }
    }
    // Bits outside the board stay zero.
    assert_eq!(got.count(), want.count(), "{what}: count");
}

fn row_chunks(bytes: &mut Bytes<'_>) {
    let (w, h) = (bytes.side(64), bytes.side(200));
    let n = lines(w, h, bytes);
    let c = RowChunks::from_fn(w, h, |x, y| n.get(x, y)).expect("a valid size");
    same("from_fn", &c, &n);
    assert_eq!(c.full_rows(), n.full_rows());
    let mut want = n.clone();
    let removed = want.clear_full_lines();
    let mut a = c.clone();
    assert_eq!(a.clear_full_lines(), removed);
    same("clear_full_lines", &a, &want);
    assert_eq!(a.clear_full_lines(), 0, "nothing left to clear");
    let mut p = c.clone();
    assert_eq!(
        with_level(Level::Portable, || p.clear_full_lines()),
        removed
    );
    same("portable", &p, &want);
    #[cfg(target_arch = "x86_64")]
    if cpu::has(PEXT) {
        let mut q = c.clone();
        // SAFETY: BMI2 and POPCNT were detected on this CPU just above (`cpu::has(PEXT)`).
        assert_eq!(unsafe { q.clear_full_lines_pext() }, removed);
        same("pext", &q, &want);
    }
    let mut s = c.clone();
    assert_eq!(s.cascade_clear_all(), removed);
    same("cascade", &s, &want);
    assert_eq!(c.to_string().parse::<RowChunks>().expect("round trip"), c);
}

fn columns<const W: usize>(bytes: &mut Bytes<'_>) {
    let h = bytes.side(64);
    let n = lines(W, h, bytes);
    let b = ColumnBoard::<W>::from_fn(h, |x, y| n.get(x, y));
    same("from_fn", &b, &n);
    assert_eq!(b.full_rows(), n.full_rows());
    let mut want = n.clone();
    let removed = want.clear_full_lines() as u32;
    let mut a = b;
    assert_eq!(a.clear_full_lines(), removed);
    same("clear_full_lines", &a, &want);
    let mut p = b;
    assert_eq!(
        with_level(Level::Portable, || p.clear_full_lines()),
        removed
    );
    same("portable", &p, &want);
    #[cfg(target_arch = "x86_64")]
    if cpu::has(PEXT) {
        let mut q = b;
        // SAFETY: BMI2 and POPCNT were detected on this CPU just above (`cpu::has(PEXT)`).
        assert_eq!(unsafe { q.clear_full_lines_pext() }, removed);
        same("pext", &q, &want);
    }
    // Any row set, as a raw mask (bit 0 the floor).
    let rows = bytes.u64() & b.height_mask();
    let list: Vec<usize> = (0..h).filter(|&y| rows >> (h - 1 - y) & 1 != 0).collect();
    let mut r = b;
    r.remove_rows(rows);
    let mut nr = n.clone();
    nr.remove_rows(&list);
    same("remove_rows", &r, &nr);
    let mut s = b;
    s.settle();
    let mut ns = n.clone();
    ns.settle();
    same("settle", &s, &ns);
    assert_eq!(
        b.to_string().parse::<ColumnBoard<W>>().expect("round trip"),
        b
    );

    // Gravity of disjoint planes (values 1..=k per cell).
    let k = 1 + bytes.below(4);
    let mut values: Vec<Vec<u8>> = (0..W)
        .map(|_| (0..h).map(|_| bytes.below(k + 1) as u8).collect())
        .collect();
    let planes: Vec<ColumnBoard<W>> = (1..=k as u8)
        .map(|v| ColumnBoard::from_fn(h, |x, y| values[x][y] == v))
        .collect();
    settle_values(&mut values);
    let check = |what: &str, ps: &[ColumnBoard<W>]| {
        for (i, p) in ps.iter().enumerate() {
            let want = NaiveLines::from_fn(W, h, |x, y| values[x][y] == i as u8 + 1);
            same(&format!("{what} plane {i}"), p, &want);
        }
    };
    let mut a = planes.clone();
    settle_planes(&mut a).expect("one height");
    check("settle_planes", &a);
    let mut p = planes.clone();
    with_level(Level::Portable, || settle_planes(&mut p)).expect("one height");
    check("settle_planes_portable", &p);
    #[cfg(target_arch = "x86_64")]
    if cpu::has(PEXT) {
        let mut q = planes.clone();
        // SAFETY: BMI2 and POPCNT were detected on this CPU just above (`cpu::has(PEXT)`).
        unsafe { gridbits::algo::lines::settle_planes_pext(&mut q) }.expect("one height");
        check("settle_planes_pext", &q);
    }
}

struct SettleDown;

impl BoardCheck for SettleDown {
    fn run<B: AnyBoard>(&mut self, w: usize, h: usize, bytes: &mut Bytes<'_>) {
        let cells = bytes.cells(w, h);
        let b = B::make(w, h, &cells);
        let mut rows: Vec<Vec<bool>> = (0..h).map(|y| cells[y * w..(y + 1) * w].to_vec()).collect();
        gridbits::naive::lines::settle_down(&mut rows);
        let want = NaiveGrid::from_fn(w, h, |x, y| rows[y][x]);
        crate::boards::assert_same(&settle_down(&b), &want, "settle_down");
    }
}
