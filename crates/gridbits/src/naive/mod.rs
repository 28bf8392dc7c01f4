//! The plain per-cell reference: every board operation written for obviousness, not speed.
//!
//! It is the oracle of the property tests and the baseline of the benchmark
//! (`cargo run --release -p gridbits-bench`), so it is real,
//! public code. Cells are a `Vec<bool>` in row-major order; each operation visits every cell.
//!
//! ```
//! use gridbits::naive::NaiveGrid;
//! use gridbits::{Connectivity, Dir};
//! let mut g = NaiveGrid::new(3, 3);
//! g.set(1, 1, true);
//! assert_eq!(g.dilate(Connectivity::Eight).count(), 9);
//! assert!(g.shift(Dir::SE).get(2, 2));
//! ```

pub mod amazons;
pub mod amazons_moves;
pub mod components;
pub mod distance_transform;
pub mod fill;
pub mod lines;
pub mod measure;
pub mod morph;
pub mod puyo;
pub mod puyo_moves;
pub mod skeleton;
pub mod slide;
pub mod tetris;
pub mod tetris_moves;

use crate::algo::label::LabelInput;
use crate::dir::{step, Connectivity, Dir};
use crate::{BitGrid, GridView, SizeError};
use std::borrow::Cow;
use std::fmt;

/// A grid of booleans, one per cell.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct NaiveGrid {
    width: usize,
    height: usize,
    cells: Vec<bool>,
}

/// Copied cell by cell, as the labeller copies any grid that is not a [`BitGrid`].
impl LabelInput for NaiveGrid {
    fn to_bit_grid(&self) -> Result<Cow<'_, BitGrid>, SizeError> {
        BitGrid::from_fn(self.width, self.height, |x, y| self.get(x, y)).map(Cow::Owned)
    }
}

impl NaiveGrid {
    /// An empty `width x height` grid.
    pub fn new(width: usize, height: usize) -> Self {
        NaiveGrid {
            width,
            height,
            cells: vec![false; width * height],
        }
    }

    /// A grid built from a predicate on `(x, y)`.
    pub fn from_fn(width: usize, height: usize, mut f: impl FnMut(usize, usize) -> bool) -> Self {
        let mut g = Self::new(width, height);
        for y in 0..height {
            for x in 0..width {
                g.set(x, y, f(x, y));
            }
        }
        g
    }

    /// A copy of any grid type, cell by cell.
    pub fn from_view(view: &impl GridView) -> Self {
        Self::from_fn(view.width(), view.height(), |x, y| view.get(x, y))
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Whether `(x, y)` is set; `false` off the grid.
    pub fn get(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.height && self.cells[y * self.width + x]
    }

    /// Sets `(x, y)` to `value`. Panics off the grid.
    pub fn set(&mut self, x: usize, y: usize, value: bool) {
        assert!(x < self.width && y < self.height, "cell off the grid");
        self.cells[y * self.width + x] = value;
    }

    /// Number of set cells.
    pub fn count(&self) -> u64 {
        self.cells.iter().filter(|&&c| c).count() as u64
    }

    /// Whether no cell is set.
    pub fn is_empty(&self) -> bool {
        self.count() == 0
    }

    /// The set cells in row-major order (top row first, left to right).
    pub fn cells(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                if self.get(x, y) {
                    out.push((x, y));
                }
            }
        }
        out
    }

    /// The first set cell in row-major order.
    pub fn lowest(&self) -> Option<(usize, usize)> {
        self.cells().first().copied()
    }

    /// Mask of row `y`.
    pub fn row_mask(width: usize, height: usize, y: usize) -> Self {
        Self::from_fn(width, height, |_, cy| cy == y)
    }

    /// Mask of column `x`.
    pub fn column_mask(width: usize, height: usize, x: usize) -> Self {
        Self::from_fn(width, height, |cx, _| cx == x)
    }

    /// Mask of the cells on the edge.
    pub fn border_mask(width: usize, height: usize) -> Self {
        Self::from_fn(width, height, |x, y| {
            x == 0 || y == 0 || x + 1 == width || y + 1 == height
        })
    }

    /// Mask of every cell.
    pub fn full(width: usize, height: usize) -> Self {
        Self::from_fn(width, height, |_, _| true)
    }

    fn zip(&self, other: &Self, f: impl Fn(bool, bool) -> bool) -> Self {
        assert_eq!((self.width, self.height), (other.width, other.height));
        Self::from_fn(self.width, self.height, |x, y| {
            f(self.get(x, y), other.get(x, y))
        })
    }

    /// Intersection.
    pub fn and(&self, other: &Self) -> Self {
        self.zip(other, |a, b| a && b)
    }

    /// Union.
    pub fn or(&self, other: &Self) -> Self {
        self.zip(other, |a, b| a || b)
    }

    /// Symmetric difference.
    pub fn xor(&self, other: &Self) -> Self {
        self.zip(other, |a, b| a != b)
    }

    /// Cells of `self` not in `other`.
    pub fn and_not(&self, other: &Self) -> Self {
        self.zip(other, |a, b| a && !b)
    }

    /// Complement.
    pub fn not(&self) -> Self {
        Self::from_fn(self.width, self.height, |x, y| !self.get(x, y))
    }

    /// Every cell moved `k` steps in `dir`; cells leaving the grid vanish.
    pub fn shift_by(&self, dir: Dir, k: usize) -> Self {
        let mut out = Self::new(self.width, self.height);
        for (x, y) in self.cells() {
            if let Some((nx, ny)) = step(x, y, dir, k, self.width, self.height) {
                out.set(nx, ny, true);
            }
        }
        out
    }

    /// Every cell moved one step in `dir`.
    pub fn shift(&self, dir: Dir) -> Self {
        self.shift_by(dir, 1)
    }

    /// Dilation: a cell is set if it or any neighbour under `conn` is set.
    pub fn dilate(&self, conn: Connectivity) -> Self {
        Self::from_fn(self.width, self.height, |x, y| {
            self.get(x, y)
                || conn.dirs().iter().any(|&d| {
                    step(x, y, d, 1, self.width, self.height)
                        .is_some_and(|(nx, ny)| self.get(nx, ny))
                })
        })
    }

    /// Dilation clipped to `mask`.
    pub fn dilate_within(&self, conn: Connectivity, mask: &Self) -> Self {
        self.dilate(conn).and(mask)
    }

    /// Erosion: a cell stays if it and every neighbour under `conn` is set; off-grid
    /// neighbours count as empty.
    pub fn erode(&self, conn: Connectivity) -> Self {
        Self::from_fn(self.width, self.height, |x, y| {
            self.get(x, y)
                && conn.dirs().iter().all(|&d| {
                    step(x, y, d, 1, self.width, self.height)
                        .is_some_and(|(nx, ny)| self.get(nx, ny))
                })
        })
    }

    /// Erosion clipped to `mask`.
    pub fn erode_within(&self, conn: Connectivity, mask: &Self) -> Self {
        self.erode(conn).and(mask)
    }

    /// The text form: `#` set, `.` empty, one line per row.
    pub fn to_text(&self) -> String {
        crate::render_text(self, '#', '.')
    }
}

impl GridView for NaiveGrid {
    fn width(&self) -> usize {
        self.width
    }
    fn height(&self) -> usize {
        self.height
    }
    fn get(&self, x: usize, y: usize) -> bool {
        NaiveGrid::get(self, x, y)
    }
    fn count(&self) -> u64 {
        NaiveGrid::count(self)
    }
}

impl fmt::Debug for NaiveGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "NaiveGrid {}x{}", self.width, self.height)?;
        f.write_str(&self.to_text())
    }
}
