//! Per-cell line clears and gravity: a board as a `Vec` of rows of booleans, top row first.
//! The reference of [`algo::lines`](crate::algo::lines).
//!
//! ```
//! use gridbits::naive::lines::NaiveLines;
//! let mut b = NaiveLines::new(3, 4);
//! for x in 0..3 {
//!     b.set(x, 3, true);
//!     b.set(x, 1, true);
//! }
//! b.set(1, 0, true);
//! assert_eq!(b.full_rows(), vec![1, 3]);
//! assert_eq!(b.clear_full_lines(), 2);
//! assert!(b.get(1, 2) && b.count() == 1);
//! ```

use crate::GridView;

/// A Tetris-style board: row `y` (from the top) is `rows[y]`, `width` cells of a
/// `[bool; 64]` used.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NaiveLines {
    width: usize,
    rows: Vec<[bool; 64]>,
}

impl NaiveLines {
    /// An empty board.
    ///
    /// # Panics
    /// When `width` is 0 or more than 64.
    pub fn new(width: usize, height: usize) -> Self {
        assert!((1..=64).contains(&width), "width must be 1 to 64");
        NaiveLines {
            width,
            rows: vec![[false; 64]; height],
        }
    }

    /// A board from a predicate on `(x, y)`, `y` from the top.
    ///
    /// # Panics
    /// When `width` is 0 or more than 64.
    pub fn from_fn(width: usize, height: usize, mut f: impl FnMut(usize, usize) -> bool) -> Self {
        let mut b = Self::new(width, height);
        for y in 0..height {
            for x in 0..width {
                b.rows[y][x] = f(x, y);
            }
        }
        b
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.rows.len()
    }

    /// Whether `(x, y)` is filled, `y` from the top; `false` off the board.
    pub fn get(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.rows.len() && self.rows[y][x]
    }

    /// Sets `(x, y)`, `y` from the top.
    ///
    /// # Panics
    /// When the cell is off the board.
    pub fn set(&mut self, x: usize, y: usize, v: bool) {
        assert!(x < self.width && y < self.rows.len(), "cell off the board");
        self.rows[y][x] = v;
    }

    /// Number of filled cells.
    pub fn count(&self) -> u64 {
        let mut n = 0;
        for row in &self.rows {
            for &c in &row[..self.width] {
                n += u64::from(c);
            }
        }
        n
    }

    /// Whether row `y` (from the top) is full; `false` off the board.
    pub fn row_is_full(&self, y: usize) -> bool {
        y < self.rows.len() && self.rows[y][..self.width].iter().all(|&c| c)
    }

    /// The full rows, as `y` from the top, top first.
    pub fn full_rows(&self) -> Vec<usize> {
        (0..self.rows.len())
            .filter(|&y| self.row_is_full(y))
            .collect()
    }

    /// Removes every full row; the rows above fall, empty rows come in at the top. Returns
    /// the number removed.
    pub fn clear_full_lines(&mut self) -> usize {
        let h = self.rows.len();
        let w = self.width;
        self.rows.retain(|r| !r[..w].iter().all(|&c| c));
        let removed = h - self.rows.len();
        self.rows.resize(h, [false; 64]);
        self.rows.rotate_right(removed);
        removed
    }

    /// Removes the listed rows (`y` from the top, before removal); the rows above fall and
    /// empty rows come in at the top. Rows off the board are ignored.
    pub fn remove_rows(&mut self, rows: &[usize]) {
        let h = self.rows.len();
        let mut y = 0;
        self.rows.retain(|_| {
            let keep = !rows.contains(&y);
            y += 1;
            keep
        });
        let removed = h - self.rows.len();
        self.rows.resize(h, [false; 64]);
        self.rows.rotate_right(removed);
    }

    /// Gravity: each column's filled cells fall to the bottom row.
    pub fn settle(&mut self) {
        let h = self.rows.len();
        for x in 0..self.width {
            let n = (0..h).filter(|&y| self.rows[y][x]).count();
            for (y, row) in self.rows.iter_mut().enumerate() {
                row[x] = y >= h - n;
            }
        }
    }
}

/// The same cells as the inherent accessors, `y` from the top.
impl GridView for NaiveLines {
    fn width(&self) -> usize {
        self.width
    }
    fn height(&self) -> usize {
        self.rows.len()
    }
    fn get(&self, x: usize, y: usize) -> bool {
        NaiveLines::get(self, x, y)
    }
    fn count(&self) -> u64 {
        NaiveLines::count(self)
    }
}

/// Gravity for a grid of values (`cells[x][y]`: column `x`, row `y` from the top, 0 empty):
/// in every column the non-zero cells fall to the bottom row, keeping their order.
pub fn settle_values(cells: &mut [Vec<u8>]) {
    for col in cells.iter_mut() {
        let h = col.len();
        let mut kept: Vec<u8> = col.iter().copied().filter(|&v| v != 0).collect();
        col.clear();
        col.resize(h - kept.len(), 0);
        col.append(&mut kept);
    }
}

/// Gravity on a grid of booleans (`rows[y][x]`, `y` from the top): every set cell falls
/// towards the last row.
pub fn settle_down(rows: &mut [Vec<bool>]) {
    let h = rows.len();
    let w = rows.first().map_or(0, Vec::len);
    for x in 0..w {
        let n = (0..h).filter(|&y| rows[y][x]).count();
        for (y, row) in rows.iter_mut().enumerate() {
            row[x] = y >= h - n;
        }
    }
}
