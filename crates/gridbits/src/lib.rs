//! # gridbits
//!
//! Bit-parallel algorithms on 2D grids. Every cell is one bit, and a whole board moves per
//! machine word with shifts, ANDs and ORs instead of per-cell loops.
//!
//! - [`Board`]: a `W x H` board fixed at compile time, in `[u64; N]` (a u64, a u128 or more),
//!   with a guard column between rows where it fits. Aliases for common games:
//!   [`Board6x12`], [`Board8x8`], [`Board10x10`], [`Board30x20`], ...
//! - [`BitGrid`]: a board sized at run time, rows as whole u64 words, for maps and images.
//! - [`naive`]: the per-cell reference of every operation, used as the test oracle and the
//!   benchmark baseline.
//! - [`text`]: the strict text grid format (`.` empty), with line/column errors.
//!
//! Coordinates are `(x, y)`: `x` the column from the left, `y` the row from the top, both
//! from 0.
//!
//! ```
//! use gridbits::{bitboard, Board10x10, Connectivity, Dir};
//! let walls = bitboard!(Board10x10;
//!     "..........", "..........", "..#####...", "......#...", "......#...",
//!     "..........", "..........", "..........", "..........", "..........");
//! let free = !walls;
//! // Grow a region from one corner, three steps, never through walls.
//! let mut region = Board10x10::cell(0, 0);
//! for _ in 0..3 {
//!     region = region.dilate_within(Connectivity::Four, free);
//! }
//! assert_eq!(region.count(), 10);
//! assert!(region.shift(Dir::S).get(0, 4));
//! ```

#![warn(missing_docs)]

pub mod algo;
pub mod bitboard;
pub mod board;
pub mod dir;
pub mod error;
pub mod games;
pub mod grid;
pub mod naive;
pub mod text;

#[cfg(feature = "serde")]
mod serde_impls;

pub use bitboard::BitBoard;
pub use board::{
    Board, Board10x10, Board10x40, Board19x19, Board30x20, Board6x12, Board6x13, Board8x8, Board9x9,
};
pub use dir::{Connectivity, Dir, Moves, NotAdjacency, UnknownName};
pub use error::{OffGrid, SizeMismatch};
pub use grid::{BitGrid, ImageError, SizeError};
pub use text::{CharGrid, ParseError};

/// Read access shared by every grid type: size and cells. Generic code (tests, renderers,
/// conversions) works through it.
pub trait GridView {
    /// Number of columns.
    fn width(&self) -> usize;
    /// Number of rows.
    fn height(&self) -> usize;
    /// Whether `(x, y)` is set; `false` off the grid.
    fn get(&self, x: usize, y: usize) -> bool;
    /// Number of set cells.
    fn count(&self) -> u64;
}

/// Draws any grid as text, one line per row, `set` and `empty` for the cells.
///
/// ```
/// let b = gridbits::Board::<2, 2, 1>::cell(1, 0);
/// assert_eq!(gridbits::render_text(&b, 'o', '.'), ".o\n..\n");
/// ```
pub fn render_text(view: &impl GridView, set: char, empty: char) -> String {
    let (w, h) = (view.width(), view.height());
    let mut out = String::with_capacity((w + 1) * h);
    for y in 0..h {
        for x in 0..w {
            out.push(if view.get(x, y) { set } else { empty });
        }
        out.push('\n');
    }
    out
}

/// The crate README's examples, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
