//! Building a board of a size the fuzz input picks: a fixed [`Board`] of one of a few
//! shapes (word edges, guard column or none, one row, one column) or a [`BitGrid`] up to
//! 200 a side and 4096 cells.

use crate::bytes::Bytes;
use gridbits::algo::distance::DistanceEngine;
use gridbits::algo::fill::FloodFill;
use gridbits::algo::label::LabelInput;
use gridbits::algo::slide::Slide;
use gridbits::algo::voronoi::VoronoiEngine;
use gridbits::naive::NaiveGrid;
use gridbits::{BitGrid, Board, GridView};

/// Largest side of a runtime grid in the fuzz targets.
pub const MAX_SIDE: usize = 200;

/// Most cells of a runtime grid in the fuzz targets: a wide grid gets fewer rows. Every
/// width up to [`MAX_SIDE`] (word edges included) stays reachable, and each execution's
/// per-cell reference stays cheap, so a target runs thousands of cases a second.
pub const MAX_CELLS: usize = 4096;

/// A board type the checks run on, built from row-major cells.
pub trait AnyBoard:
    FloodFill + DistanceEngine + VoronoiEngine + Slide + LabelInput + 'static
{
    /// The board of `w x h` (ignored by fixed boards) with `cells[y * w + x]`.
    fn make(w: usize, h: usize, cells: &[bool]) -> Self;
}

impl<const W: usize, const H: usize, const N: usize> AnyBoard for Board<W, H, N> {
    fn make(_: usize, _: usize, cells: &[bool]) -> Self {
        Self::from_fn(|x, y| cells[y * W + x])
    }
}

impl AnyBoard for BitGrid {
    fn make(w: usize, h: usize, cells: &[bool]) -> Self {
        // The size is at most MAX_SIDE a side: never too large.
        BitGrid::from_fn(w, h, |x, y| cells[y * w + x]).expect("a bounded size")
    }
}

/// A check generic over the board type: [`on_any_board`] calls it with the type and size
/// the input picks.
pub trait BoardCheck {
    /// Runs the check on a `w x h` board of type `B`, reading the rest of the input.
    fn run<B: AnyBoard>(&mut self, w: usize, h: usize, bytes: &mut Bytes<'_>);
}

/// Picks a board type and size from the next bytes and runs `check` on it: one of the fixed
/// boards half of the time, else a [`BitGrid`] up to [`MAX_SIDE`] a side and
/// [`MAX_CELLS`] cells.
pub fn on_any_board(bytes: &mut Bytes<'_>, check: &mut impl BoardCheck) {
    match bytes.byte() % 24 {
        0 => check.run::<Board<1, 1, 1>>(1, 1, bytes),
        1 => check.run::<Board<64, 1, 1>>(64, 1, bytes),
        2 => check.run::<Board<1, 128, 2>>(1, 128, bytes),
        3 => check.run::<Board<5, 3, 1>>(5, 3, bytes),
        4 => check.run::<Board<7, 9, 1>>(7, 9, bytes),
        5 | 6 => check.run::<Board<6, 12, 2>>(6, 12, bytes),
        7 => check.run::<Board<8, 8, 1>>(8, 8, bytes),
        8 => check.run::<Board<9, 9, 2>>(9, 9, bytes),
        9 | 10 => check.run::<Board<10, 10, 2>>(10, 10, bytes),
        11 => check.run::<Board<10, 40, 7>>(10, 40, bytes),
        12 => check.run::<Board<19, 19, 6>>(19, 19, bytes),
        13 => check.run::<Board<30, 20, 10>>(30, 20, bytes),
        14 => check.run::<Board<64, 64, 64>>(64, 64, bytes),
        _ => {
            let w = bytes.side(MAX_SIDE);
            let h = bytes.side(MAX_SIDE).min(MAX_CELLS / w);
            check.run::<BitGrid>(w, h, bytes)
        }
    }
}

/// The board and its naive copy, from the next bytes' cell pattern.
pub fn board_pair<B: AnyBoard>(w: usize, h: usize, bytes: &mut Bytes<'_>) -> (B, NaiveGrid) {
    let cells = bytes.cells(w, h);
    let b = B::make(w, h, &cells);
    let n = NaiveGrid::from_fn(w, h, |x, y| cells[y * w + x]);
    assert_same(&b, &n, "board built from cells");
    (b, n)
}

/// Panics unless `got` has the size and cells of `want`.
pub fn assert_same(view: &impl GridView, want: &NaiveGrid, what: &str) {
    let got = NaiveGrid::from_view(view);
    assert!(
        got == *want && view.count() == want.count(),
        "{what}: mismatch\ngot:\n{}want:\n{}",
        got.to_text(),
        want.to_text()
    );
}
