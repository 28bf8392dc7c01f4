//! [`ColumnBoard`]: one u64 per column, full rows as the AND of the columns, clears with
//! `pext` or with shifts.

#[cfg(target_arch = "x86_64")]
use super::PEXT;
use super::{low_bits, remove_bits};
#[cfg(target_arch = "x86_64")]
use crate::cpu::has;
use crate::text::{CharGrid, ParseError, ParseErrorKind};
use crate::GridView;
use crate::SizeError;
use std::fmt;
use std::str::FromStr;

/// A board stored as one u64 per column, `W` columns (up to 64 make sense for Tetris) and a
/// height from 1 to 64 chosen at run time. See the [module documentation](super).
///
/// Cell positions `(x, y)` count `y` from the **top**. In the raw [`columns`](Self::columns),
/// bit `i` of column `x` is the `i`-th row from the floor, that is `y = height - 1 - i`; bits
/// at or above the height are always zero.
///
/// Text (`FromStr`, `Display`): one line per row, top row first, `.` empty and any other
/// printable character filled; printed with `#`.
///
/// ```
/// use gridbits::algo::lines::ColumnBoard;
/// let mut b: ColumnBoard<4> = "....\n..#.\n....\n####\n#...\n".parse().unwrap();
/// assert_eq!(b.full_rows(), [3]); // y from the top
/// assert_eq!(b.full_rows_mask(), 0b10); // raw: the second row from the floor
/// assert_eq!(b.clear_full_lines(), 1);
/// assert_eq!(b.to_string(), "....\n....\n..#.\n....\n#...\n");
/// b.settle();
/// assert_eq!(b.to_string(), "....\n....\n....\n....\n#.#.\n");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColumnBoard<const W: usize> {
    pub(super) cols: [u64; W],
    pub(super) height: u32,
}

impl<const W: usize> ColumnBoard<W> {
    /// An empty board of `W` columns and `height` rows, or an error unless `W >= 1` and
    /// `1 <= height <= 64`.
    ///
    /// ```
    /// use gridbits::algo::lines::ColumnBoard;
    /// assert!(ColumnBoard::<10>::try_new(40).is_ok());
    /// assert_eq!(
    ///     ColumnBoard::<10>::try_new(65).unwrap_err().to_string(),
    ///     "cannot make a 10x65 board: a column must fit one u64: height 1 to 64"
    /// );
    /// ```
    pub const fn try_new(height: usize) -> Result<Self, SizeError> {
        let reason = if W == 0 {
            "a board has at least one column"
        } else if height == 0 || height > 64 {
            "a column must fit one u64: height 1 to 64"
        } else {
            return Ok(ColumnBoard {
                cols: [0; W],
                height: height as u32,
            });
        };
        Err(SizeError::new("board", W, height, reason))
    }

    /// An empty board of `W` columns and `height` rows.
    ///
    /// # Panics
    /// Unless `W >= 1` and `1 <= height <= 64`; [`try_new`](Self::try_new) returns an error
    /// instead.
    pub const fn new(height: usize) -> Self {
        assert!(W >= 1, "a board has at least one column");
        assert!(height >= 1 && height <= 64, "height must be 1 to 64");
        ColumnBoard {
            cols: [0; W],
            height: height as u32,
        }
    }

    /// A board from its raw columns (bit `i` of `cols[x]` = column `x` of the `i`-th row from
    /// the floor, that is of `y = height - 1 - i`); bits at or above the height are dropped.
    ///
    /// ```
    /// let b = gridbits::algo::lines::ColumnBoard::<2>::from_columns([0b01, 0b10], 2);
    /// assert_eq!(b.to_string(), ".#\n#.\n");
    /// ```
    ///
    /// # Panics
    /// Unless `1 <= height <= 64`.
    pub fn from_columns(cols: [u64; W], height: usize) -> Self {
        let mut b = Self::new(height);
        let m = b.height_mask();
        for (d, s) in b.cols.iter_mut().zip(cols) {
            *d = s & m;
        }
        b
    }

    /// A board from a predicate on `(x, y)`, `y` from the top.
    ///
    /// # Panics
    /// Unless `1 <= height <= 64`.
    pub fn from_fn(height: usize, mut f: impl FnMut(usize, usize) -> bool) -> Self {
        let mut b = Self::new(height);
        for x in 0..W {
            for y in 0..height {
                if f(x, y) {
                    b.cols[x] |= 1 << (height - 1 - y);
                }
            }
        }
        b
    }

    /// Parses a text grid, top row first: `.` empty, any other printable character filled
    /// (the same as [`str::parse`]). The width must be `W` and the height 1 to 64; errors
    /// name the line and column.
    ///
    /// ```
    /// use gridbits::algo::lines::ColumnBoard;
    /// let b = ColumnBoard::<3>::parse("#..\n###\n").unwrap();
    /// assert!(b.get(0, 0) && !b.get(1, 0) && b.get(1, 1));
    /// let e = ColumnBoard::<3>::parse("#..\n####\n").unwrap_err();
    /// assert_eq!(e.to_string(), "line 2, column 4: row has 4 columns, expected 3");
    /// ```
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        let grid = CharGrid::parse(text.as_bytes())?;
        let (w, h) = (grid.width(), grid.height());
        let wrong = |line, column| {
            ParseError::new(
                line,
                column,
                ParseErrorKind::WrongSize {
                    expected: (W, h.min(64)),
                    found: (w, h),
                },
            )
        };
        if w != W {
            return Err(wrong(1, w.min(W) + 1));
        }
        if h > 64 {
            return Err(wrong(65, 1));
        }
        Ok(Self::from_fn(h, |x, y| grid.get(x, y) != b'.'))
    }

    /// Number of columns.
    pub const fn width(&self) -> usize {
        W
    }

    /// Number of rows.
    pub const fn height(&self) -> usize {
        self.height as usize
    }

    /// The low `height` bits: every row.
    #[inline(always)]
    pub const fn height_mask(&self) -> u64 {
        if self.height >= 64 {
            !0
        } else {
            (1u64 << self.height) - 1
        }
    }

    /// The raw columns, left to right: bit `i` of column `x` is the `i`-th row from the
    /// floor, that is `y = height - 1 - i`.
    #[inline(always)]
    pub const fn columns(&self) -> &[u64; W] {
        &self.cols
    }

    /// Raw column `x`: bit `i` is the `i`-th row from the floor, that is `y = height - 1 - i`.
    ///
    /// # Panics
    /// When `x >= W`.
    #[inline(always)]
    pub const fn column(&self, x: usize) -> u64 {
        self.cols[x]
    }

    /// Mutable raw columns (see [`columns`](Self::columns)); keep bits at or above the height
    /// zero.
    #[inline(always)]
    pub fn columns_mut(&mut self) -> &mut [u64; W] {
        &mut self.cols
    }

    /// Whether `(x, y)` is filled, `y` from the top; `false` off the board.
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> bool {
        x < W && y < self.height() && self.cols[x] >> (self.height() - 1 - y) & 1 != 0
    }

    /// Fills `(x, y)`, `y` from the top.
    ///
    /// # Panics
    /// When the cell is off the board.
    #[inline]
    pub fn set(&mut self, x: usize, y: usize) {
        assert!(x < W && y < self.height(), "cell off the board");
        self.cols[x] |= 1 << (self.height() - 1 - y);
    }

    /// Empties `(x, y)`, `y` from the top.
    ///
    /// # Panics
    /// When the cell is off the board.
    #[inline]
    pub fn clear(&mut self, x: usize, y: usize) {
        assert!(x < W && y < self.height(), "cell off the board");
        self.cols[x] &= !(1 << (self.height() - 1 - y));
    }

    /// Number of filled cells.
    pub fn count(&self) -> u64 {
        self.cols.iter().map(|c| u64::from(c.count_ones())).sum()
    }

    /// The rows that are full, as `y` from the top, top first (as
    /// [`RowChunks::full_rows`](super::RowChunks::full_rows)).
    pub fn full_rows(&self) -> Vec<usize> {
        let (mut mask, h) = (self.full_rows_mask(), self.height());
        let mut rows = Vec::with_capacity(mask.count_ones() as usize);
        while mask != 0 {
            rows.push(h - 1 - mask.trailing_zeros() as usize);
            mask &= mask - 1;
        }
        rows.reverse();
        rows
    }

    /// The full rows as a raw row mask in the column layout (bit `i` = the `i`-th row from the
    /// floor, `y = height - 1 - i`): the AND of every column.
    #[inline(always)]
    pub fn full_rows_mask(&self) -> u64 {
        self.cols.iter().fold(self.height_mask(), |a, &c| a & c)
    }

    /// Removes every full row; the rows above fall. Returns the number removed. Uses `pext`
    /// when the CPU has BMI2 ([`crate::cpu`]), else cuts each run of full rows out with shifts.
    #[inline]
    pub fn clear_full_lines(&mut self) -> u32 {
        let full = self.full_rows_mask();
        if full == 0 {
            return 0;
        }
        #[cfg(target_arch = "x86_64")]
        if has(PEXT) {
            // SAFETY: `has(PEXT)` detected BMI2 and POPCNT (the enabled features) just above.
            unsafe { self.remove_rows_pext(full) };
            return full.count_ones();
        }
        self.remove_rows_portable(full);
        full.count_ones()
    }

    /// [`clear_full_lines`](Self::clear_full_lines) with `pext` on every column.
    ///
    /// # Safety
    /// The CPU must support BMI2 and POPCNT (check with
    /// [`cpu::has`](crate::cpu::has)`(`[`PEXT`]`)`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,popcnt")]
    pub unsafe fn clear_full_lines_pext(&mut self) -> u32 {
        let full = self.full_rows_mask();
        if full != 0 {
            self.remove_rows_pext(full);
        }
        full.count_ones()
    }

    /// Removes the rows of `rows` (a raw row mask in the column layout, bit `i` = the `i`-th
    /// row from the floor) from every column; rows above fall. Bits at or above the height are
    /// ignored.
    pub fn remove_rows(&mut self, rows: u64) {
        let rows = rows & self.height_mask();
        if rows == 0 {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if has(PEXT) {
            // SAFETY: `has(PEXT)` detected BMI2 and POPCNT (the enabled features) just above.
            unsafe { self.remove_rows_pext(rows) };
            return;
        }
        self.remove_rows_portable(rows);
    }

    /// Removes `rows` from every column with one `pext` per column.
    ///
    /// # Safety
    /// The CPU must support BMI2 and POPCNT (the enabled target features).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,popcnt")]
    unsafe fn remove_rows_pext(&mut self, rows: u64) {
        use std::arch::x86_64::_pext_u64;
        let keep = !rows;
        for c in &mut self.cols {
            *c = _pext_u64(*c, keep);
        }
    }

    #[inline]
    fn remove_rows_portable(&mut self, mut rows: u64) {
        while rows != 0 {
            // The highest run of consecutive rows: removing it moves nothing below it.
            let top = 64 - rows.leading_zeros();
            let below = (!rows & low_bits(top)).checked_ilog2().map_or(0, |b| b + 1);
            let len = top - below;
            for c in &mut self.cols {
                *c = remove_bits(*c, below, len);
            }
            rows &= low_bits(below);
        }
    }

    /// Gravity: every column falls to the floor, closing its gaps. For one plane this is just
    /// the column's popcount as a run of low bits; see [`settle_planes`](super::settle_planes) for several planes
    /// (colours) that fall together.
    pub fn settle(&mut self) {
        for c in &mut self.cols {
            *c = low_bits(c.count_ones());
        }
    }

    /// The text form: top row first, `#` filled, `.` empty (the same as `to_string()`).
    pub fn to_text(&self) -> String {
        crate::render_text(self, '#', '.')
    }
}

/// The same cells as the inherent accessors, `y` from the top.
impl<const W: usize> GridView for ColumnBoard<W> {
    fn width(&self) -> usize {
        W
    }
    fn height(&self) -> usize {
        self.height as usize
    }
    fn get(&self, x: usize, y: usize) -> bool {
        ColumnBoard::get(self, x, y)
    }
    fn count(&self) -> u64 {
        ColumnBoard::count(self)
    }
}

impl<const W: usize> fmt::Debug for ColumnBoard<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "ColumnBoard<{W}> height {}", self.height)?;
        f.write_str(&self.to_text())
    }
}

/// The text form: top row first, `#` filled, `.` empty.
impl<const W: usize> fmt::Display for ColumnBoard<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// Parses the text form, see [`ColumnBoard::parse`].
impl<const W: usize> FromStr for ColumnBoard<W> {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        Self::parse(s)
    }
}
