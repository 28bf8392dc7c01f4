//! The text form of a [`Board`]: compile-time rows (`bitboard!`), parsing (`FromStr`),
//! printing (`Display`), and conversion from `bool` slices.

use super::Board;
use crate::error::SizeMismatch;
use crate::text::{CharGrid, ParseError};
use crate::{BitGrid, ImageError};
use std::fmt;

impl<const W: usize, const H: usize, const N: usize> Board<W, H, N> {
    /// Builds a board from text rows at compile time; used by [`bitboard!`](crate::bitboard!).
    /// `.` is empty, any other printable character is set. Panics (at compile time in a const
    /// context) if the rows do not match `W x H`.
    pub const fn from_rows(rows: &[&str]) -> Self {
        assert!(rows.len() == H, "wrong number of rows for this board");
        let mut b = Self::EMPTY;
        let mut y = 0;
        while y < H {
            let row = rows[y].as_bytes();
            assert!(row.len() == W, "wrong row length for this board");
            let mut x = 0;
            while x < W {
                let c = row[x];
                assert!(c > b' ' && c < 0x7f, "rows may hold printable ASCII only");
                if c != b'.' {
                    b = b.or(Self::cell(x, y));
                }
                x += 1;
            }
            y += 1;
        }
        b
    }

    /// Parses a text grid (`.` empty, any other printable character set) of exactly `W x H`.
    ///
    /// ```
    /// use gridbits::Board;
    /// let b = Board::<3, 2, 1>::parse("#..\n.#.\n").unwrap();
    /// assert_eq!(b.count(), 2);
    /// assert!(Board::<3, 2, 1>::parse("#..\n").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        Self::from_char_grid(&CharGrid::parse(text.as_bytes())?, |c| c != b'.')
    }

    /// Maps a parsed character grid of exactly `W x H` to a board: a cell is set where
    /// `is_set` says so.
    pub fn from_char_grid(
        grid: &CharGrid,
        mut is_set: impl FnMut(u8) -> bool,
    ) -> Result<Self, ParseError> {
        grid.check_size(W, H)?;
        Ok(Self::from_fn(|x, y| is_set(grid.get(x, y))))
    }

    /// The text form: one line per row, `#` for set and `.` for empty, each line ending in `\n`.
    pub fn to_text(self) -> String {
        crate::render_text(&self, '#', '.')
    }
}

impl<const W: usize, const H: usize, const N: usize> fmt::Display for Board<W, H, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl<const W: usize, const H: usize, const N: usize> fmt::Debug for Board<W, H, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board<{W}, {H}, {N}> ({} set)", self.count())?;
        f.write_str(&self.to_text())
    }
}

/// Builds a fixed-size board from string rows at compile time (`.` empty, anything else set).
///
/// A wrong row count, row length or character is a compile-time error.
///
/// ```
/// use gridbits::{bitboard, Board};
/// const B: Board<4, 2, 1> = bitboard!(Board<4, 2, 1>; "#..#", ".##.");
/// assert_eq!(B.count(), 4);
/// ```
#[macro_export]
macro_rules! bitboard {
    ($ty:ty; $($row:expr),+ $(,)?) => {
        const { <$ty>::from_rows(&[$($row),+]) }
    };
}

impl<const W: usize, const H: usize, const N: usize> std::str::FromStr for Board<W, H, N> {
    type Err = ParseError;

    /// Parses the text format, as [`Board::parse`].
    ///
    /// ```
    /// use gridbits::Board8x8;
    /// let text = "#.......\n".repeat(8);
    /// let b: Board8x8 = text.parse().unwrap();
    /// assert_eq!(b.count(), 8);
    /// assert_eq!(b.to_string(), text);
    /// ```
    fn from_str(s: &str) -> Result<Self, ParseError> {
        Self::parse(s)
    }
}

impl<const W: usize, const H: usize, const N: usize> Board<W, H, N> {
    /// A board from `W * H` booleans in row-major order (row 0 first), or an error when the
    /// slice has another length.
    ///
    /// ```
    /// use gridbits::Board;
    /// let b = Board::<2, 2, 1>::from_bools(&[true, false, false, true]).unwrap();
    /// assert_eq!(b.to_string(), "#.\n.#\n");
    /// assert!(Board::<2, 2, 1>::from_bools(&[true; 5]).is_err());
    /// ```
    pub fn from_bools(cells: &[bool]) -> Result<Self, ImageError> {
        if cells.len() != W * H {
            return Err(ImageError::WrongLength {
                expected: W * H,
                found: cells.len(),
            });
        }
        Ok(Self::from_fn(|x, y| cells[y * W + x]))
    }

    /// A board with the cells of a [`BitGrid`] of exactly `W x H`, or an error.
    ///
    /// ```
    /// use gridbits::{BitGrid, Board8x8};
    /// let mut g = BitGrid::new(8, 8);
    /// g.set(3, 5);
    /// let b = Board8x8::try_from_grid(&g).unwrap();
    /// assert!(b.get(3, 5));
    /// assert_eq!(BitGrid::from(b), g);
    /// assert!(Board8x8::try_from_grid(&BitGrid::new(9, 8)).is_err());
    /// ```
    pub fn try_from_grid(grid: &BitGrid) -> Result<Self, SizeMismatch> {
        SizeMismatch::check(&Self::EMPTY, "the board type", grid, "grid")?;
        Ok(Self::from_fn(|x, y| grid.get(x, y)))
    }
}

impl<const W: usize, const H: usize, const N: usize> TryFrom<&BitGrid> for Board<W, H, N> {
    type Error = SizeMismatch;

    /// As [`Board::try_from_grid`].
    fn try_from(grid: &BitGrid) -> Result<Self, SizeMismatch> {
        Self::try_from_grid(grid)
    }
}

impl<const W: usize, const H: usize, const N: usize> From<Board<W, H, N>> for BitGrid {
    /// A [`BitGrid`] with the board's size and cells.
    fn from(b: Board<W, H, N>) -> BitGrid {
        let mut g = match BitGrid::try_new(W, H) {
            Ok(g) => g,
            // W and H are at least 1 and W * H <= 64 * N fits in memory: a board always
            // converts.
            Err(e) => unreachable!("{e}"),
        };
        for (x, y) in b {
            g.set(x, y);
        }
        g
    }
}
