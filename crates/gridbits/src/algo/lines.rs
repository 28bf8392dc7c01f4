//! Line clears and gravity, in the two layouts Tetris engines use.
//!
//! Rows here are counted **from the floor** (row 0 is the bottom row), as game engines do;
//! text forms still print the top row first.
//!
//! - [`RowChunks`]: seed 002's layout. A row is `w` bits, `r = floor(64 / w)` whole rows share
//!   one u64 chunk (the top `64 - r * w` "overflow" bits stay zero), and the board is any
//!   number of chunks: a 10 x 40 board is 7 chunks of 6 rows.
//!   [`RowChunks::clear_full_lines`] removes **every** full row in one call, consecutive or
//!   not, anywhere on the board, however many: each chunk's full rows are found with one
//!   SWAR zero-field test, the chunk is compacted, and the kept rows are streamed down across
//!   the chunk boundaries. The seed's own `clear_lines` + `clear_check` (one run of
//!   consecutive full rows in one chunk per call) are kept as [`RowChunks::seed_clear_lines`],
//!   [`RowChunks::seed_clear_check`] and [`RowChunks::seed_clear_all`], the baseline of the
//!   benchmark.
//! - [`ColumnBoard`]: one u64 per column, bit `y` = row `y`. The full rows are the AND of all
//!   columns; a clear compacts every column with BMI2 `pext` when the CPU has it (detected at
//!   run time) and otherwise removes each run of full rows with two shifts and a mask.
//!   [`ColumnBoard::settle`] and [`settle_planes`] are gravity: every column falls to close
//!   its gaps.
//! - [`settle_down`]: gravity for any [`BitBoard`] (rows from the top, cells fall to the
//!   bottom row), by parallel one-row falls.
//!
//! ```
//! use gridbits::algo::lines::RowChunks;
//! // A 4-wide board: rows 0 and 2 are full, row 1 is not.
//! let mut b = RowChunks::parse("..#.\n####\n#.##\n####\n").unwrap();
//! assert_eq!(b.clear_full_lines(), 2);
//! assert_eq!(b.to_text(), "....\n....\n..#.\n#.##\n");
//! ```

use crate::text::{CharGrid, ParseError, ParseErrorKind};
use crate::{BitBoard, Dir, GridView};
use std::fmt;

/// `v >> s`, 0 when `s >= 64`.
#[inline(always)]
fn shr(v: u64, s: u32) -> u64 {
    v.checked_shr(s).unwrap_or(0)
}

/// `v << s`, 0 when `s >= 64`.
#[inline(always)]
fn shl(v: u64, s: u32) -> u64 {
    v.checked_shl(s).unwrap_or(0)
}

/// The low `n` bits set (`n` up to 64).
#[inline(always)]
fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        !0
    } else {
        (1u64 << n) - 1
    }
}

/// `v` with the bits `start .. start + len` removed and the bits above moved down by `len`.
#[inline(always)]
fn remove_bits(v: u64, start: u32, len: u32) -> u64 {
    let low = low_bits(start);
    (v & low) | (shr(v, len) & !low)
}

/// Chunk `c` without the rows of `rows` (`fh`: their top bits), the kept rows moved down.
#[inline(always)]
fn compact<const PEXT: bool>(c: u64, rows: u64, mut fh: u64, w: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if PEXT {
        // SAFETY: only instantiated with PEXT = true inside a BMI2 target-feature function
        // that is called after run-time detection.
        return unsafe { std::arch::x86_64::_pext_u64(c, !rows) };
    }
    let _ = rows;
    let mut c = c;
    while fh != 0 {
        let top = 63 - fh.leading_zeros();
        c = remove_bits(c, top + 1 - w, w);
        fh &= !(1u64 << top);
    }
    c
}

/// Why a board of the requested size cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinesSizeError {
    /// Requested width.
    pub width: usize,
    /// Requested height.
    pub height: usize,
    /// The limit that was exceeded.
    pub reason: &'static str,
}

impl fmt::Display for LinesSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot make a {}x{} board: {}",
            self.width, self.height, self.reason
        )
    }
}

impl std::error::Error for LinesSizeError {}

/// Largest height a [`RowChunks`] accepts (2^24 rows), so its storage stays small and
/// counts fit a u32.
pub const MAX_CHUNKED_HEIGHT: usize = 1 << 24;

/// A board in seed 002's layout: `w` bits per row, `r = floor(64 / w)` rows per u64 chunk.
/// See the [module documentation](self).
///
/// Cell `(x, y)` (row `y` from the floor) is bit `(y % r) * w + x` of chunk `y / r`. Bits of
/// rows past the height and the overflow bits of each chunk are always zero.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RowChunks {
    width: u32,
    height: u32,
    rows_per_chunk: u32,
    /// Every cell bit of a chunk (`r * w` low bits).
    cells_mask: u64,
    /// The top bit of each row of a chunk.
    row_high: u64,
    /// The low `w - 1` bits of each row of a chunk.
    row_low: u64,
    chunks: Vec<u64>,
}

impl RowChunks {
    /// An empty `width x height` board. Widths 1 to 64, heights 1 to [`MAX_CHUNKED_HEIGHT`].
    ///
    /// ```
    /// let b = gridbits::algo::lines::RowChunks::new(10, 40).unwrap();
    /// assert_eq!((b.rows_per_chunk(), b.chunks().len()), (6, 7));
    /// ```
    pub fn new(width: usize, height: usize) -> Result<Self, LinesSizeError> {
        let err = |reason| LinesSizeError {
            width,
            height,
            reason,
        };
        if width == 0 || height == 0 {
            return Err(err("width and height must be at least 1"));
        }
        if width > 64 {
            return Err(err("a row must fit one u64: width at most 64"));
        }
        if height > MAX_CHUNKED_HEIGHT {
            return Err(err("height at most 2^24"));
        }
        let w = width as u32;
        let r = 64 / w;
        let mut row_high = 0;
        let mut row_low = 0;
        for j in 0..r {
            row_high |= 1u64 << (j * w + w - 1);
            row_low |= low_bits(w - 1) << (j * w);
        }
        Ok(RowChunks {
            width: w,
            height: height as u32,
            rows_per_chunk: r,
            cells_mask: low_bits(r * w),
            row_high,
            row_low,
            chunks: vec![0; height.div_ceil(r as usize)],
        })
    }

    /// A board from a predicate on `(x, y)`, `y` from the floor.
    pub fn from_fn(
        width: usize,
        height: usize,
        mut f: impl FnMut(usize, usize) -> bool,
    ) -> Result<Self, LinesSizeError> {
        let mut b = Self::new(width, height)?;
        for y in 0..height {
            for x in 0..width {
                if f(x, y) {
                    b.set(x, y);
                }
            }
        }
        Ok(b)
    }

    /// Parses a text grid, top row first: `.` empty, any other printable character filled.
    /// A grid wider than 64 is an error naming column 65 of line 1.
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        Self::from_char_grid(&CharGrid::parse(text.as_bytes())?, |c| c != b'.')
    }

    /// A board from a parsed character grid (top row first); `filled` says which characters
    /// are filled cells.
    pub fn from_char_grid(
        grid: &CharGrid,
        mut filled: impl FnMut(u8) -> bool,
    ) -> Result<Self, ParseError> {
        let (w, h) = (grid.width(), grid.height());
        if w > 64 {
            return Err(ParseError::new(
                1,
                65,
                ParseErrorKind::WrongSize {
                    expected: (64, h),
                    found: (w, h),
                },
            ));
        }
        if h > MAX_CHUNKED_HEIGHT {
            return Err(ParseError::new(
                MAX_CHUNKED_HEIGHT + 1,
                1,
                ParseErrorKind::TooLarge,
            ));
        }
        let mut b = Self::new(w, h).map_err(|_| ParseError::new(1, 1, ParseErrorKind::Empty))?;
        for row in 0..h {
            for x in 0..w {
                if filled(grid.get(x, row)) {
                    b.set(x, h - 1 - row);
                }
            }
        }
        Ok(b)
    }

    /// Number of columns `w`.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Rows per chunk, `r = floor(64 / w)`.
    pub fn rows_per_chunk(&self) -> usize {
        self.rows_per_chunk as usize
    }

    /// The chunks, bottom chunk first.
    pub fn chunks(&self) -> &[u64] {
        &self.chunks
    }

    /// Copies another board of the same size into this one without allocating.
    /// Panics when the sizes differ.
    pub fn copy_from(&mut self, other: &RowChunks) {
        assert_eq!(
            (self.width, self.height),
            (other.width, other.height),
            "boards of different sizes"
        );
        self.chunks.copy_from_slice(&other.chunks);
    }

    #[inline]
    fn locate(&self, x: usize, y: usize) -> (usize, u32) {
        assert!(x < self.width() && y < self.height(), "cell off the board");
        let r = self.rows_per_chunk as usize;
        (y / r, (y % r) as u32 * self.width + x as u32)
    }

    /// Whether cell `(x, y)` is filled (`y` from the floor); `false` off the board.
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> bool {
        if x >= self.width() || y >= self.height() {
            return false;
        }
        let (c, b) = self.locate(x, y);
        self.chunks[c] >> b & 1 != 0
    }

    /// Fills cell `(x, y)`. Panics off the board.
    #[inline]
    pub fn set(&mut self, x: usize, y: usize) {
        let (c, b) = self.locate(x, y);
        self.chunks[c] |= 1 << b;
    }

    /// Empties cell `(x, y)`. Panics off the board.
    #[inline]
    pub fn clear(&mut self, x: usize, y: usize) {
        let (c, b) = self.locate(x, y);
        self.chunks[c] &= !(1 << b);
    }

    /// Row `y` as `w` bits (bit `x` = column `x`); 0 past the top.
    #[inline]
    pub fn row(&self, y: usize) -> u64 {
        if y >= self.height() {
            return 0;
        }
        let r = self.rows_per_chunk as usize;
        shr(self.chunks[y / r], (y % r) as u32 * self.width) & low_bits(self.width)
    }

    /// Replaces row `y` with the low `w` bits of `bits`. Panics past the top.
    pub fn set_row(&mut self, y: usize, bits: u64) {
        assert!(y < self.height(), "row off the board");
        let r = self.rows_per_chunk as usize;
        let at = (y % r) as u32 * self.width;
        let m = low_bits(self.width) << at;
        let c = &mut self.chunks[y / r];
        *c = (*c & !m) | ((bits << at) & m);
    }

    /// The mask of row `j` inside a chunk (`j < r`): the seed's `LINES[j]`.
    #[inline]
    pub fn row_mask(&self, j: usize) -> u64 {
        if j >= self.rows_per_chunk() {
            return 0;
        }
        low_bits(self.width) << (j as u32 * self.width)
    }

    /// Number of filled cells.
    pub fn count(&self) -> u64 {
        self.chunks.iter().map(|c| u64::from(c.count_ones())).sum()
    }

    /// Full rows of one chunk, as the top bit of each full row: a row is full when its
    /// complement is a zero field, found for all rows at once with `((t & L) + L) | t`.
    #[inline(always)]
    fn full_high(&self, chunk: u64) -> u64 {
        let t = !chunk & self.cells_mask;
        let nonzero = ((t & self.row_low) + self.row_low) | t;
        self.row_high & !nonzero
    }

    /// Mask of the full rows of chunk `i` (all `w` bits of each full row).
    pub fn full_rows_of_chunk(&self, i: usize) -> u64 {
        let fh = self.full_high(self.chunks[i]);
        (fh - shr(fh, self.width - 1)) | fh
    }

    /// The rows that are full, lowest first.
    pub fn full_rows(&self) -> Vec<usize> {
        (0..self.height())
            .filter(|&y| self.row_is_full(y))
            .collect()
    }

    /// Whether row `y` is full; `false` past the top.
    pub fn row_is_full(&self, y: usize) -> bool {
        y < self.height() && self.row(y) == low_bits(self.width)
    }

    /// Removes every full row at once, wherever they are (consecutive or not, any number,
    /// across any chunks); the rows above fall by the number of full rows removed below them.
    /// Returns the number of rows removed.
    ///
    /// Chunks below the lowest full row are not written. From there on each chunk's full rows
    /// are cut out (highest first, two shifts and a mask each) and the kept rows are appended
    /// to an output chunk that is written whenever it holds `r` rows.
    ///
    /// ```
    /// use gridbits::algo::lines::RowChunks;
    /// let mut b = RowChunks::new(10, 40).unwrap();
    /// for y in [0, 5, 6, 13, 39] {
    ///     b.set_row(y, 0x3ff); // five full rows, in three chunks
    /// }
    /// b.set(3, 7);
    /// assert_eq!(b.clear_full_lines(), 5);
    /// assert!(b.get(3, 4) && b.count() == 1);
    /// ```
    pub fn clear_full_lines(&mut self) -> usize {
        #[cfg(target_arch = "x86_64")]
        if has_bmi2() {
            // SAFETY: BMI2 was detected on this CPU just above.
            return unsafe { self.clear_full_lines_pext() };
        }
        self.clear_impl::<false>()
    }

    /// [`clear_full_lines`](Self::clear_full_lines) with `pext` compacting each chunk.
    ///
    /// # Safety
    /// The CPU must support BMI2 and POPCNT (check with [`has_bmi2`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,popcnt")]
    pub unsafe fn clear_full_lines_pext(&mut self) -> usize {
        self.clear_impl::<true>()
    }

    /// [`clear_full_lines`](Self::clear_full_lines) without BMI2: each full row of a chunk is
    /// cut out with two shifts and a mask, highest first.
    pub fn clear_full_lines_portable(&mut self) -> usize {
        self.clear_impl::<false>()
    }

    /// The clear: chunks below the lowest full row are left alone; from there on each chunk
    /// is compacted and its kept rows are appended to an accumulator that is written out
    /// whenever it holds `r` rows.
    #[inline(always)]
    fn clear_impl<const PEXT: bool>(&mut self) -> usize {
        let n = self.chunks.len();
        let mut i = 0;
        while i < n && self.full_high(self.chunks[i]) == 0 {
            i += 1;
        }
        if i == n {
            return 0;
        }
        let (w, r) = (self.width, self.rows_per_chunk);
        let mut removed = 0u32;
        let mut out = i;
        let mut acc = 0u64;
        let mut filled = 0u32; // rows held in `acc`
        for j in i..n {
            let c = self.chunks[j];
            let fh = self.full_high(c);
            let k = fh.count_ones();
            removed += k;
            let kept = r - k;
            let v = if k == 0 {
                c
            } else {
                compact::<PEXT>(c, (fh - shr(fh, w - 1)) | fh, fh, w)
            };
            acc |= v << (filled * w);
            filled += kept;
            if filled >= r {
                self.chunks[out] = acc & self.cells_mask;
                out += 1;
                filled -= r;
                acc = shr(v, (kept - filled) * w);
            }
        }
        // At least one row was removed, so `out` is still a chunk of the board.
        self.chunks[out] = acc & self.cells_mask;
        for c in &mut self.chunks[out + 1..] {
            *c = 0;
        }
        removed as usize
    }

    /// The seed's `clear_lines(b, lines, i)`: shifts chunk `i` down by `lines` rows and
    /// cascades every chunk above down by the same number of rows, refilling each chunk's top
    /// rows from the chunk above. Only right for `lines` full rows at the bottom of chunk `i`;
    /// `lines` at most `r`.
    ///
    /// Unlike the C original, shifts of 64 bits (width 64, one row per chunk) are defined, and
    /// the rows pulled from the chunk above are masked so that the overflow bits stay zero.
    pub fn seed_clear_lines(&mut self, lines: usize, i: usize) {
        let (w, r) = (self.width, self.rows_per_chunk);
        let l = (lines as u32).min(r);
        let n = self.chunks.len();
        let mut i = i;
        self.chunks[i] = shr(self.chunks[i], l * w);
        i += 1;
        while i < n {
            self.chunks[i - 1] |= shl(self.chunks[i], (r - l) * w) & self.cells_mask;
            self.chunks[i] = shr(self.chunks[i], l * w);
            i += 1;
        }
    }

    /// The seed's `clear_check(b, i)`: finds the lowest run of consecutive full rows inside
    /// chunk `i`, clears it with [`seed_clear_lines`](Self::seed_clear_lines), restores the
    /// rows below the run, and returns the run's length (0 when chunk `i` has no full row).
    /// Full rows above a gap in the chunk, or in other chunks, need more calls.
    pub fn seed_clear_check(&mut self, i: usize) -> usize {
        let mut mask = 0u64;
        let mut pres = 0u64;
        let mut lines = 0;
        for j in 0..self.rows_per_chunk() {
            let line = self.row_mask(j);
            let row = line & self.chunks[i];
            if row == line {
                lines += 1;
            } else {
                if lines > 0 {
                    break;
                }
                mask |= line;
                pres |= row;
            }
        }
        if lines == 0 {
            return 0;
        }
        self.seed_clear_lines(lines, i);
        self.chunks[i] = (self.chunks[i] & !mask) | pres;
        lines
    }

    /// The seed's procedure run to completion: `clear_check` on each chunk from the bottom,
    /// repeated on a chunk until it reports nothing. Returns the rows removed. Gives the same
    /// board as [`clear_full_lines`](Self::clear_full_lines), more slowly.
    pub fn seed_clear_all(&mut self) -> usize {
        let mut total = 0;
        for i in 0..self.chunks.len() {
            loop {
                let l = self.seed_clear_check(i);
                if l == 0 {
                    break;
                }
                total += l;
            }
        }
        total
    }

    /// The text form: top row first, `#` filled, `.` empty.
    pub fn to_text(&self) -> String {
        crate::render_text(self, '#', '.')
    }
}

/// Grid view with `y` from the **top**, like every text and image interface.
impl GridView for RowChunks {
    fn width(&self) -> usize {
        self.width as usize
    }
    fn height(&self) -> usize {
        self.height as usize
    }
    fn get(&self, x: usize, y: usize) -> bool {
        y < self.height() && RowChunks::get(self, x, self.height() - 1 - y)
    }
    fn count(&self) -> u64 {
        RowChunks::count(self)
    }
}

impl fmt::Debug for RowChunks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "RowChunks {}x{} ({} rows per chunk)",
            self.width, self.height, self.rows_per_chunk
        )?;
        f.write_str(&self.to_text())
    }
}

/// Whether this CPU has BMI2 (`pext`/`pdep`) and POPCNT (every BMI2 CPU has it; the
/// `pext` paths use both). Detected at run time, cached by the standard library.
#[inline]
pub fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A board stored as one u64 per column: bit `y` of `cols[x]` is cell `(x, y)`, `y` from the
/// floor. `W` columns (up to 64 make sense for Tetris), a height from 1 to 64 chosen at run
/// time; bits at or above the height are always zero.
///
/// ```
/// use gridbits::algo::lines::ColumnBoard;
/// let mut b = ColumnBoard::<4>::new(6);
/// for x in 0..4 {
///     b.set(x, 1);
/// }
/// b.set(2, 3);
/// b.set(0, 0);
/// assert_eq!(b.full_rows(), 0b10);
/// assert_eq!(b.clear_full_lines(), 1);
/// assert!(b.get(2, 2) && b.get(0, 0) && b.count() == 2);
/// b.settle();
/// assert!(b.get(2, 0));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColumnBoard<const W: usize> {
    cols: [u64; W],
    height: u32,
}

impl<const W: usize> ColumnBoard<W> {
    /// An empty board of `W` columns and `height` rows. Panics unless `1 <= height <= 64`
    /// and `W >= 1`.
    pub const fn new(height: usize) -> Self {
        assert!(W >= 1, "a board has at least one column");
        assert!(height >= 1 && height <= 64, "height must be 1 to 64");
        ColumnBoard {
            cols: [0; W],
            height: height as u32,
        }
    }

    /// A board from its columns; bits at or above the height are dropped.
    pub fn from_columns(cols: [u64; W], height: usize) -> Self {
        let mut b = Self::new(height);
        let m = b.height_mask();
        for (d, s) in b.cols.iter_mut().zip(cols) {
            *d = s & m;
        }
        b
    }

    /// A board from a predicate on `(x, y)`, `y` from the floor.
    pub fn from_fn(height: usize, mut f: impl FnMut(usize, usize) -> bool) -> Self {
        let mut b = Self::new(height);
        for x in 0..W {
            for y in 0..height {
                if f(x, y) {
                    b.cols[x] |= 1 << y;
                }
            }
        }
        b
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

    /// The columns, left to right.
    #[inline(always)]
    pub const fn columns(&self) -> &[u64; W] {
        &self.cols
    }

    /// Column `x` as bits, bit `y` = row `y`. Panics when `x >= W`.
    #[inline(always)]
    pub const fn column(&self, x: usize) -> u64 {
        self.cols[x]
    }

    /// Mutable columns; keep bits at or above the height zero.
    #[inline(always)]
    pub fn columns_mut(&mut self) -> &mut [u64; W] {
        &mut self.cols
    }

    /// Whether `(x, y)` is filled; `false` off the board.
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> bool {
        x < W && y < self.height() && self.cols[x] >> y & 1 != 0
    }

    /// Fills `(x, y)`. Panics off the board.
    #[inline]
    pub fn set(&mut self, x: usize, y: usize) {
        assert!(x < W && y < self.height(), "cell off the board");
        self.cols[x] |= 1 << y;
    }

    /// Empties `(x, y)`. Panics off the board.
    #[inline]
    pub fn clear(&mut self, x: usize, y: usize) {
        assert!(x < W && y < self.height(), "cell off the board");
        self.cols[x] &= !(1 << y);
    }

    /// Number of filled cells.
    pub fn count(&self) -> u64 {
        self.cols.iter().map(|c| u64::from(c.count_ones())).sum()
    }

    /// The full rows as a mask (bit `y` = row `y`): the AND of every column.
    #[inline(always)]
    pub fn full_rows(&self) -> u64 {
        self.cols.iter().fold(self.height_mask(), |a, &c| a & c)
    }

    /// Removes every full row; the rows above fall. Returns the number removed. Uses `pext`
    /// when the CPU has BMI2, else [`clear_full_lines_portable`](Self::clear_full_lines_portable).
    #[inline]
    pub fn clear_full_lines(&mut self) -> u32 {
        let full = self.full_rows();
        if full == 0 {
            return 0;
        }
        #[cfg(target_arch = "x86_64")]
        if has_bmi2() {
            // SAFETY: BMI2 was detected on this CPU just above.
            unsafe { self.remove_rows_pext(full) };
            return full.count_ones();
        }
        self.remove_rows_portable(full);
        full.count_ones()
    }

    /// [`clear_full_lines`](Self::clear_full_lines) with `pext` on every column.
    ///
    /// # Safety
    /// The CPU must support BMI2 and POPCNT (check with [`has_bmi2`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,popcnt")]
    pub unsafe fn clear_full_lines_pext(&mut self) -> u32 {
        let full = self.full_rows();
        if full != 0 {
            self.remove_rows_pext(full);
        }
        full.count_ones()
    }

    /// [`clear_full_lines`](Self::clear_full_lines) without BMI2: each run of consecutive full
    /// rows, highest first (found by leading zeros), is cut out of every column with two
    /// shifts and a mask.
    pub fn clear_full_lines_portable(&mut self) -> u32 {
        let full = self.full_rows();
        if full != 0 {
            self.remove_rows_portable(full);
        }
        full.count_ones()
    }

    /// Removes the rows of `rows` (a row mask) from every column; rows above fall.
    pub fn remove_rows(&mut self, rows: u64) {
        let rows = rows & self.height_mask();
        if rows == 0 {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if has_bmi2() {
            // SAFETY: BMI2 was detected on this CPU just above.
            unsafe { self.remove_rows_pext(rows) };
            return;
        }
        self.remove_rows_portable(rows);
    }

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
    /// the column's popcount as a run of low bits; see [`settle_planes`] for several planes
    /// (colours) that fall together.
    pub fn settle(&mut self) {
        for c in &mut self.cols {
            *c = low_bits(c.count_ones());
        }
    }

    /// The text form: top row first, `#` filled, `.` empty.
    pub fn to_text(&self) -> String {
        crate::render_text(self, '#', '.')
    }
}

/// Grid view with `y` from the **top**, like every text and image interface.
impl<const W: usize> GridView for ColumnBoard<W> {
    fn width(&self) -> usize {
        W
    }
    fn height(&self) -> usize {
        self.height as usize
    }
    fn get(&self, x: usize, y: usize) -> bool {
        y < self.height() && ColumnBoard::get(self, x, self.height() - 1 - y)
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

/// Gravity for several planes of the same size that fall together (e.g. the colours of a
/// Puyo field): in every column the cells of the union fall to the floor, keeping their
/// order, and each plane follows its own cells. Panics when the heights differ.
///
/// With BMI2 each plane's column is `pext(plane, union)`; without, each gap of the union
/// (found by trailing zeros) is cut out of every plane.
///
/// ```
/// use gridbits::algo::lines::{settle_planes, ColumnBoard};
/// let mut planes = [ColumnBoard::<1>::from_columns([0b1000], 4), ColumnBoard::from_columns([0b0100], 4)];
/// settle_planes(&mut planes);
/// assert_eq!((planes[0].column(0), planes[1].column(0)), (0b10, 0b01));
/// ```
pub fn settle_planes<const W: usize>(planes: &mut [ColumnBoard<W>]) {
    #[cfg(target_arch = "x86_64")]
    if has_bmi2() {
        // SAFETY: BMI2 was detected on this CPU just above.
        unsafe { settle_planes_pext(planes) };
        return;
    }
    settle_planes_portable(planes);
}

/// [`settle_planes`] with `pext`.
///
/// # Safety
/// The CPU must support BMI2 and POPCNT (check with [`has_bmi2`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
pub unsafe fn settle_planes_pext<const W: usize>(planes: &mut [ColumnBoard<W>]) {
    use std::arch::x86_64::_pext_u64;
    check_heights(planes);
    for x in 0..W {
        let occ = planes.iter().fold(0, |a, p| a | p.cols[x]);
        for p in planes.iter_mut() {
            p.cols[x] = _pext_u64(p.cols[x], occ);
        }
    }
}

/// [`settle_planes`] without BMI2: for each column, every gap of the union is cut out of
/// every plane, lowest gap first.
pub fn settle_planes_portable<const W: usize>(planes: &mut [ColumnBoard<W>]) {
    check_heights(planes);
    for x in 0..W {
        let mut occ = planes.iter().fold(0, |a, p| a | p.cols[x]);
        let mut base = 0;
        loop {
            let run = (occ >> base).trailing_ones() + base;
            let rest = shr(occ, run);
            if rest == 0 {
                break;
            }
            let gap = rest.trailing_zeros();
            for p in planes.iter_mut() {
                p.cols[x] = remove_bits(p.cols[x], run, gap);
            }
            occ = remove_bits(occ, run, gap);
            base = run;
        }
    }
}

fn check_heights<const W: usize>(planes: &[ColumnBoard<W>]) {
    if let Some(first) = planes.first() {
        assert!(
            planes.iter().all(|p| p.height == first.height),
            "planes of different heights"
        );
    }
}

/// Gravity for any [`BitBoard`] whose rows are counted from the top: every set cell falls
/// towards the bottom row (`y = height - 1`) until it rests on the floor or another cell.
///
/// Each round moves, all at once, every cell that has an empty cell below it; a column with
/// `k` cells settles within `height` rounds.
///
/// ```
/// use gridbits::{algo::lines::settle_down, bitboard, Board};
/// type B = Board<3, 3, 1>;
/// let b = bitboard!(B; "#.#", "...", ".#.");
/// assert_eq!(settle_down(&b), bitboard!(B; "...", "..." , "###"));
/// ```
pub fn settle_down<B: BitBoard>(board: &B) -> B {
    let mut b = board.clone();
    loop {
        let mut empty = b.clone();
        empty.complement_assign();
        // Cells whose southern neighbour is empty (the bottom row has no such neighbour).
        let mut movers = empty.shift(Dir::N);
        movers.and_assign(&b);
        if movers.is_empty() {
            return b;
        }
        b.and_not_assign(&movers);
        b.or_assign(&movers.shift(Dir::S));
    }
}
