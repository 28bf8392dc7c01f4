//! Tetris: the matrix, the seven tetrominoes in their SRS orientations, collision, hard drop,
//! placement, line clears and the usual evaluation features, all as word operations.
//!
//! A [`Tetris`] matrix has `W` columns and 1 to 64 rows (10 x 40 by default); a [`Piece`] in a
//! [`Rotation`] is placed at `(x, y)`, the top-left corner of its SRS box, with `y` the row from
//! the top (see [`Piece::cells`] and [`Piece::x_range`]). [`Tetris::hard_drop`],
//! [`Tetris::drop_from_top`], [`Tetris::place`] and [`Tetris::clear_lines`] drop, lock and
//! clear; [`Tetris::moves`] lists every placement a piece can reach from its
//! [spawn](Tetris::spawn) with the SRS kicks ([`srs`]), each with its T-spin kind ([`spin`]),
//! and [`Tetris::moves_with_inputs`] adds a shortest input sequence ([`inputs`]); the search is
//! bit-parallel ([`moves`]). The matrix reads and writes the text grid format (`FromStr`,
//! `Display`). [`Game`] plays a guideline game on it: seeded 7-bag pieces ([`bag`]), next
//! queue, hold, top-out, scoring, attack and garbage ([`game`]).
//!
//! ```
//! use gridbits::games::tetris::{Piece, Rotation, Tetris};
//! let mut t = Tetris::<10>::default(); // 10 x 40
//! // An O dropped into columns 4-5 of the empty matrix: its 2 x 2 box lands at y = 38.
//! assert_eq!(t.drop_from_top(Piece::O, Rotation::Spawn, 4), Some(38));
//! t.drop_and_place(Piece::O, Rotation::Spawn, 4).unwrap();
//! assert!(t.get(4, 38) && t.get(5, 39) && t.get(4, t.height() - 1));
//! ```
//!
//! The rules in full (matrix, pieces, fit, drop, line clears, text form): docs/games.md. Why
//! one u64 per column: docs/algorithms.md.

pub mod bag;
mod drop_rows;
#[cfg(target_arch = "x86_64")]
mod drop_rows_x86;
pub mod game;
pub mod inputs;
pub mod moves;
mod piece;
pub(crate) use moves::{tight_offset, Locks};
pub(crate) use straight_drops::Tops;
pub mod spin;
pub mod srs;
mod straight_drops;

pub use bag::{PieceGen, Randomizer};
pub use game::{clear_reward, Action, Game, GameConfig, GameError, StepResult, TopOut};
pub use inputs::Input;
pub use moves::{MoveOptions, Placement};
pub use piece::{Piece, Rotation, RotationError};
pub use spin::Spin;
pub use srs::{kick_offsets, spawn_position, Kick, Turn};

use crate::algo::lines::ColumnBoard;
use crate::text::{CharGrid, ParseError, ParseErrorKind};
use crate::GridView;
use crate::SizeError;
use piece::Shape;
use std::fmt;
use std::str::FromStr;

/// The default number of rows of a matrix.
pub const DEFAULT_HEIGHT: usize = 40;

/// A Tetris matrix of `W` columns (10 by default) in the column layout. See the
/// [module documentation](self) for coordinates and placements, docs/games.md for the rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tetris<const W: usize = 10> {
    board: ColumnBoard<W>,
}

/// The placement `(x, y)` of `shape` in floor coordinates: the column and the row from the
/// floor of its tight box's lower-left cell, in `i64` so that no position overflows.
#[inline(always)]
fn tight_origin(height: usize, piece: Piece, s: &Shape, x: i32, y: i32) -> (i64, i64) {
    let bottom = height as i64 - piece.box_size() as i64 - i64::from(y);
    (i64::from(x) + i64::from(s.dx), bottom + i64::from(s.dy))
}

impl<const W: usize> Tetris<W> {
    /// An empty matrix of `height` rows, or an error unless `1 <= W <= 64` and
    /// `1 <= height <= 64`.
    ///
    /// ```
    /// use gridbits::games::tetris::Tetris;
    /// assert!(Tetris::<10>::try_new(40).is_ok());
    /// assert!(Tetris::<10>::try_new(0).is_err());
    /// assert!(Tetris::<10>::try_new(65).is_err());
    /// assert!(Tetris::<65>::try_new(40).is_err());
    /// ```
    pub const fn try_new(height: usize) -> Result<Self, SizeError> {
        if W > 64 {
            return Err(SizeError::new("board", W, height, "width 1 to 64"));
        }
        match ColumnBoard::try_new(height) {
            Ok(board) => Ok(Tetris { board }),
            Err(e) => Err(e),
        }
    }

    /// An empty matrix of `height` rows.
    ///
    /// # Panics
    /// Unless `1 <= W <= 64` and `1 <= height <= 64`; [`try_new`](Self::try_new) returns an
    /// error instead.
    pub const fn new(height: usize) -> Self {
        assert!(W >= 1 && W <= 64, "width must be 1 to 64");
        Tetris {
            board: ColumnBoard::new(height),
        }
    }

    /// A matrix from a column board.
    ///
    /// # Panics
    /// When `W > 64`.
    pub const fn from_board(board: ColumnBoard<W>) -> Self {
        assert!(W <= 64, "width must be 1 to 64");
        Tetris { board }
    }

    /// The underlying column board.
    pub const fn board(&self) -> &ColumnBoard<W> {
        &self.board
    }

    /// Mutable access to the column board (for setting up positions cell by cell).
    pub fn board_mut(&mut self) -> &mut ColumnBoard<W> {
        &mut self.board
    }

    /// Number of columns, `W`.
    pub const fn width(&self) -> usize {
        W
    }

    /// Number of rows.
    pub const fn height(&self) -> usize {
        self.board.height()
    }

    /// Raw column `x`: bit `i` is the `i`-th row from the floor, that is
    /// `y = height - 1 - i` (see [`ColumnBoard::column`]).
    ///
    /// # Panics
    /// When `x >= W`.
    #[inline(always)]
    pub fn column(&self, x: usize) -> u64 {
        self.board.column(x)
    }

    /// Whether `(x, y)` is filled, `y` from the top; `false` off the matrix.
    pub fn get(&self, x: usize, y: usize) -> bool {
        self.board.get(x, y)
    }

    /// Number of filled cells.
    pub fn count(&self) -> u64 {
        self.board.count()
    }

    /// Whether the piece fits at placement `(x, y)`: inside the matrix and on no filled cell.
    ///
    /// ```
    /// use gridbits::games::tetris::{Piece, Rotation, Tetris};
    /// let t = Tetris::<10>::default();
    /// // The spawn I fills the second row of its box: at y = -1 it is on the top row.
    /// assert!(t.fits(Piece::I, Rotation::Spawn, 0, -1));
    /// assert!(!t.fits(Piece::I, Rotation::Spawn, 0, -2));
    /// assert!(!t.fits(Piece::I, Rotation::Spawn, 7, 0)); // past the right wall
    /// ```
    #[inline]
    pub fn fits(&self, piece: Piece, rotation: Rotation, x: i32, y: i32) -> bool {
        let s = piece.shape(rotation);
        let (cx, cy) = tight_origin(self.height(), piece, s, x, y);
        self.fits_tight(s, cx, cy)
    }

    /// Whether `s` fits with its tight box's lower-left cell at column `cx`, row `cy` from the
    /// floor.
    #[inline(always)]
    fn fits_tight(&self, s: &Shape, cx: i64, cy: i64) -> bool {
        if cx < 0
            || cy < 0
            || cx + i64::from(s.w) > W as i64
            || cy + i64::from(s.h) > self.height() as i64
        {
            return false;
        }
        let cols = self.board.columns();
        let mut hit = 0;
        for k in 0..s.w as usize {
            hit |= cols[cx as usize + k] & (s.cols[k] << cy);
        }
        hit == 0
    }

    /// How many rows a piece that fits at `(x, y)` falls before it would hit a cell or the
    /// floor: per piece column, the highest filled cell below the piece's lowest cell, found
    /// with one leading-zero count. `None` when the piece does not fit at `(x, y)`.
    #[inline]
    pub fn drop_distance(&self, piece: Piece, rotation: Rotation, x: i32, y: i32) -> Option<i32> {
        let s = piece.shape(rotation);
        let (cx, cy) = tight_origin(self.height(), piece, s, x, y);
        if !self.fits_tight(s, cx, cy) {
            return None;
        }
        let (cx, cy) = (cx as usize, cy as u32);
        let cols = self.board.columns();
        let mut d = i32::MAX;
        for k in 0..s.w as usize {
            let b = cy + u32::from(s.bottom[k]);
            let below = cols[cx + k] & ((1u64 << b) - 1);
            let top = 64 - below.leading_zeros(); // rows 0..top are at or under a cell
            d = d.min((b - top) as i32);
        }
        Some(d)
    }

    /// The placement `y` a piece at `(x, y)` lands on after a hard drop (at least `y`, as `y`
    /// grows downwards), or `None` if it does not fit at `(x, y)`.
    ///
    /// ```
    /// use gridbits::games::tetris::{Piece, Rotation, Tetris};
    /// let t = Tetris::<10>::default();
    /// assert_eq!(t.hard_drop(Piece::O, Rotation::Spawn, 0, 0), Some(38));
    /// ```
    #[inline]
    pub fn hard_drop(&self, piece: Piece, rotation: Rotation, x: i32, y: i32) -> Option<i32> {
        Some(y + self.drop_distance(piece, rotation, x, y)?)
    }

    /// Fills the piece's cells at placement `(x, y)` and clears the full rows; returns the
    /// number of rows cleared, or `None` (matrix unchanged) when the piece does not fit there.
    #[inline]
    pub fn place(&mut self, piece: Piece, rotation: Rotation, x: i32, y: i32) -> Option<u32> {
        let s = piece.shape(rotation);
        let (cx, cy) = tight_origin(self.height(), piece, s, x, y);
        if !self.fits_tight(s, cx, cy) {
            return None;
        }
        Some(self.lock(s, cx as usize, cy as u32))
    }

    /// Fills `s` with its tight box's lower-left cell at column `cx`, row `cy` from the floor
    /// (where it fits), then clears the full rows.
    #[inline(always)]
    fn lock(&mut self, s: &Shape, cx: usize, cy: u32) -> u32 {
        let cols = self.board.columns_mut();
        for k in 0..s.w as usize {
            cols[cx + k] |= s.cols[k] << cy;
        }
        self.board.clear_full_lines()
    }

    /// The row from the floor where the tight box of `s` comes to rest when dropped from above
    /// the stack with its left column at `cx`: the highest of the column heights under the
    /// piece, less each column's bottom offset. `None` when it leaves the matrix sideways or
    /// rests too high to fit.
    #[inline(always)]
    fn landing_tight(&self, s: &Shape, cx: i64) -> Option<u32> {
        if cx < 0 || cx + i64::from(s.w) > W as i64 {
            return None;
        }
        let cols = self.board.columns();
        let mut land = 0i32;
        for k in 0..s.w as usize {
            let h = 64 - cols[cx as usize + k].leading_zeros() as i32;
            land = land.max(h - i32::from(s.bottom[k]));
        }
        if land + i32::from(s.h) > self.height() as i32 {
            return None;
        }
        Some(land as u32)
    }

    /// The placement `y` where a piece dropped from above the matrix at box column `x` comes
    /// to rest (the rows above the top count as empty). `None` when it leaves the matrix
    /// sideways or rests with a cell above the top row.
    #[inline]
    pub fn drop_from_top(&self, piece: Piece, rotation: Rotation, x: i32) -> Option<i32> {
        let s = piece.shape(rotation);
        let land = self.landing_tight(s, i64::from(x) + i64::from(s.dx))?;
        Some(self.height() as i32 - piece.box_size() as i32 - (land as i32 - i32::from(s.dy)))
    }

    /// Drops the piece from above the matrix at box column `x` (see
    /// [`drop_from_top`](Self::drop_from_top)), places it and clears lines. Returns the rows
    /// cleared, or `None` (matrix unchanged) when it does not fit.
    ///
    /// ```
    /// use gridbits::games::tetris::{Piece, Rotation, Tetris};
    /// let mut t = Tetris::<10>::default();
    /// // Two flat I pieces side by side, twice, fill columns 0-7 of the two bottom rows...
    /// for x in [0, 4, 0, 4] {
    ///     assert_eq!(t.drop_and_place(Piece::I, Rotation::Spawn, x), Some(0));
    /// }
    /// // ...and an O in columns 8-9 completes both.
    /// assert_eq!(t.drop_and_place(Piece::O, Rotation::Spawn, 8), Some(2));
    /// assert_eq!(t.count(), 0);
    /// ```
    #[inline]
    pub fn drop_and_place(&mut self, piece: Piece, rotation: Rotation, x: i32) -> Option<u32> {
        let s = piece.shape(rotation);
        let cx = i64::from(x) + i64::from(s.dx);
        let land = self.landing_tight(s, cx)?;
        Some(self.lock(s, cx as usize, land))
    }

    /// Clears every full row (see the rules of Tetris in docs/games.md); returns how many.
    pub fn clear_lines(&mut self) -> u32 {
        self.board.clear_full_lines()
    }

    /// Height of each column: the number of rows from the floor up to and including its
    /// highest filled cell (0 for an empty column).
    pub fn heights(&self) -> [u32; W] {
        let mut h = [0; W];
        for (o, c) in h.iter_mut().zip(self.board.columns()) {
            *o = 64 - c.leading_zeros();
        }
        h
    }

    /// The highest column height.
    pub fn max_height(&self) -> u32 {
        64 - self
            .board
            .columns()
            .iter()
            .fold(0, |a, c| a | c)
            .leading_zeros()
    }

    /// Holes: empty cells below their column's highest filled cell.
    pub fn holes(&self) -> u32 {
        self.board
            .columns()
            .iter()
            .map(|c| (64 - c.leading_zeros()) - c.count_ones())
            .sum()
    }

    /// Row transitions: over every row of the matrix, the number of horizontally adjacent
    /// pairs of cells that differ, the walls left and right counting as filled.
    pub fn row_transitions(&self) -> u32 {
        let cols = self.board.columns();
        let m = self.board.height_mask();
        let mut t = (!cols[0] & m).count_ones() + (!cols[W - 1] & m).count_ones();
        for x in 1..W {
            t += ((cols[x - 1] ^ cols[x]) & m).count_ones();
        }
        t
    }

    /// Column transitions: over every column, the number of vertically adjacent pairs of
    /// cells that differ, the floor counting as filled (the space above the top is not
    /// counted).
    pub fn column_transitions(&self) -> u32 {
        let m = self.board.height_mask();
        self.board
            .columns()
            .iter()
            .map(|&c| ((c ^ (c << 1 | 1)) & m).count_ones())
            .sum()
    }

    /// Bumpiness: the sum of the absolute differences of adjacent column heights.
    pub fn bumpiness(&self) -> u32 {
        let h = self.heights();
        h.windows(2).map(|p| p[0].abs_diff(p[1])).sum()
    }

    /// Parses the text form (Tetris in docs/games.md); the same as [`str::parse`].
    ///
    /// ```
    /// use gridbits::games::tetris::Tetris;
    /// let e = Tetris::<10>::parse("..........\n.........\n").unwrap_err();
    /// assert_eq!(e.to_string(), "line 2, column 10: row has 9 columns, expected 10");
    /// let e = Tetris::<10>::parse("...\n").unwrap_err();
    /// assert_eq!(e.to_string(), "line 1, column 4: grid is 3x1, expected 10x1");
    /// ```
    ///
    /// ```
    /// use gridbits::games::tetris::{Piece, Rotation, Tetris};
    /// let mut t: Tetris<4> = "....\n....\n##..\n###.\n".parse().unwrap();
    /// // A vertical I in the last column completes the bottom row only.
    /// assert_eq!(t.drop_and_place(Piece::I, Rotation::Right, 1), Some(1));
    /// assert_eq!(t.to_string(), "....\n...#\n...#\n##.#\n");
    /// ```
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        if W > 64 {
            // No matrix this wide exists: refuse the text at the 65th column.
            let grid = CharGrid::parse(text.as_bytes())?;
            let (w, h) = (grid.width(), grid.height());
            return Err(ParseError::new(
                1,
                w.min(64) + 1,
                ParseErrorKind::WrongSize {
                    expected: (64, h),
                    found: (w, h),
                },
            ));
        }
        Ok(Tetris {
            board: ColumnBoard::parse(text)?,
        })
    }

    /// The text form: top row first, `#` filled, `.` empty (the same as `to_string()`).
    pub fn to_text(&self) -> String {
        self.board.to_text()
    }
}

/// A 40-row matrix.
impl<const W: usize> Default for Tetris<W> {
    fn default() -> Self {
        Tetris::new(DEFAULT_HEIGHT)
    }
}

/// The cells, `y` from the top.
impl<const W: usize> GridView for Tetris<W> {
    fn width(&self) -> usize {
        W
    }
    fn height(&self) -> usize {
        self.board.height()
    }
    fn get(&self, x: usize, y: usize) -> bool {
        self.board.get(x, y)
    }
    fn count(&self) -> u64 {
        self.board.count()
    }
}

impl<const W: usize> fmt::Debug for Tetris<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Tetris<{W}> height {}", self.height())?;
        f.write_str(&self.to_text())
    }
}

/// The text form: top row first, `#` filled, `.` empty.
impl<const W: usize> fmt::Display for Tetris<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// Parses the text form, see [`Tetris::parse`].
impl<const W: usize> FromStr for Tetris<W> {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        Self::parse(s)
    }
}
