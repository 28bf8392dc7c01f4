//! A per-cell Tetris matrix: rows of booleans, pieces moved one row at a time. The reference
//! of [`games::tetris`](crate::games::tetris), with the same placements: `(x, y)` is the
//! top-left corner of the piece's SRS bounding box, `y` from the top.
//!
//! ```
//! use gridbits::games::tetris::{Piece, Rotation};
//! use gridbits::naive::tetris::NaiveTetris;
//! let mut t = NaiveTetris::new(4, 6);
//! assert_eq!(t.drop_and_place(Piece::I, Rotation::Spawn, 0), Some(1));
//! assert_eq!(t.lines.count(), 0);
//! ```

use crate::games::tetris::{Piece, Rotation};
use crate::naive::lines::NaiveLines;

/// A Tetris matrix over [`NaiveLines`] (row `y` from the top).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaiveTetris {
    /// The cells.
    pub lines: NaiveLines,
}

impl NaiveTetris {
    /// An empty matrix.
    ///
    /// # Panics
    /// When `width` is 0 or more than 64.
    pub fn new(width: usize, height: usize) -> Self {
        NaiveTetris {
            lines: NaiveLines::new(width, height),
        }
    }

    /// The matrix cells of the piece at placement `(x, y)`, in `i64` so that none overflows.
    fn cells_at(piece: Piece, rotation: Rotation, x: i32, y: i32) -> [(i64, i64); 4] {
        piece
            .cells(rotation)
            .map(|(dx, dy)| (i64::from(x) + i64::from(dx), i64::from(y) + i64::from(dy)))
    }

    /// Whether every cell of the piece at `(x, y)` is inside and empty.
    pub fn fits(&self, piece: Piece, rotation: Rotation, x: i32, y: i32) -> bool {
        let (w, h) = (self.lines.width() as i64, self.lines.height() as i64);
        Self::cells_at(piece, rotation, x, y)
            .iter()
            .all(|&(px, py)| {
                px >= 0 && py >= 0 && px < w && py < h && !self.lines.get(px as usize, py as usize)
            })
    }

    /// The placement `y` a hard drop from `(x, y)` lands on, stepping down one row at a time.
    pub fn hard_drop(&self, piece: Piece, rotation: Rotation, x: i32, y: i32) -> Option<i32> {
        if !self.fits(piece, rotation, x, y) {
            return None;
        }
        let mut y = y;
        while self.fits(piece, rotation, x, y + 1) {
            y += 1;
        }
        Some(y)
    }

    /// Places the piece at `(x, y)` and clears lines; `None` when it does not fit.
    pub fn place(&mut self, piece: Piece, rotation: Rotation, x: i32, y: i32) -> Option<u32> {
        if !self.fits(piece, rotation, x, y) {
            return None;
        }
        for (px, py) in Self::cells_at(piece, rotation, x, y) {
            self.lines.set(px as usize, py as usize, true);
        }
        Some(self.lines.clear_full_lines() as u32)
    }

    /// Drops the piece from above the matrix at box column `x` (the rows above the top
    /// count as empty), one row at a time, places it and clears lines; `None` when it leaves
    /// the matrix sideways or comes to rest with a cell above the top.
    pub fn drop_and_place(&mut self, piece: Piece, rotation: Rotation, x: i32) -> Option<u32> {
        let (w, h) = (self.lines.width() as i64, self.lines.height() as i64);
        let free = |y: i32| {
            Self::cells_at(piece, rotation, x, y)
                .iter()
                .all(|&(px, py)| {
                    px >= 0
                        && px < w
                        && py < h
                        && (py < 0 || !self.lines.get(px as usize, py as usize))
                })
        };
        // The whole box above the top row.
        let mut y = -(piece.box_size() as i32);
        if !free(y) {
            return None;
        }
        while free(y + 1) {
            y += 1;
        }
        self.place(piece, rotation, x, y)
    }

    /// Column heights: rows from the floor up to and including the highest filled cell.
    pub fn heights(&self) -> Vec<u32> {
        let h = self.lines.height();
        (0..self.lines.width())
            .map(|x| {
                (0..h)
                    .find(|&y| self.lines.get(x, y))
                    .map_or(0, |y| (h - y) as u32)
            })
            .collect()
    }

    /// The highest column.
    pub fn max_height(&self) -> u32 {
        self.heights().into_iter().max().unwrap_or(0)
    }

    /// Empty cells below their column's highest filled cell.
    pub fn holes(&self) -> u32 {
        let h = self.lines.height();
        let mut n = 0;
        for (x, &hx) in self.heights().iter().enumerate() {
            for y in h - hx as usize..h {
                n += u32::from(!self.lines.get(x, y));
            }
        }
        n
    }

    /// Horizontally adjacent differing pairs over every row, walls filled.
    pub fn row_transitions(&self) -> u32 {
        let w = self.lines.width();
        let mut n = 0;
        for y in 0..self.lines.height() {
            let mut prev = true;
            for x in 0..w {
                let c = self.lines.get(x, y);
                n += u32::from(c != prev);
                prev = c;
            }
            n += u32::from(!prev);
        }
        n
    }

    /// Vertically adjacent differing pairs over every column, floor filled (from the floor
    /// up; the space above the top is not counted).
    pub fn column_transitions(&self) -> u32 {
        let mut n = 0;
        for x in 0..self.lines.width() {
            let mut prev = true;
            for y in (0..self.lines.height()).rev() {
                let c = self.lines.get(x, y);
                n += u32::from(c != prev);
                prev = c;
            }
        }
        n
    }

    /// Sum of absolute differences of adjacent heights.
    pub fn bumpiness(&self) -> u32 {
        let h = self.heights();
        h.windows(2).map(|p| p[0].abs_diff(p[1])).sum()
    }
}
