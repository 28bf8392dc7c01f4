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
//!   SWAR carry test, the chunk is compacted (`pext`, or shifts without BMI2), and each
//!   output chunk is two shifts of two compacted chunks, with no data-dependent branch (a
//!   streaming loop takes over once `r` or more rows are gone); about 5 ns on 10 x 40. The
//!   seed's own `clear_lines` + `clear_check` (one run of consecutive full rows in one chunk
//!   per call) are kept as [`RowChunks::seed_clear_lines`], [`RowChunks::seed_clear_check`]
//!   and [`RowChunks::seed_clear_all`], the baseline of the benchmark.
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

/// The masks of a chunk of `r = floor(64 / w)` rows of `w` bits. Built from a constant width
/// it folds into immediates (the clear is specialised for width 10).
#[derive(Clone, Copy)]
struct Geom {
    w: u32,
    r: u32,
    /// Every cell bit of a chunk (`r * w` low bits).
    cells: u64,
    /// The top bit of each row.
    high: u64,
    /// The low `w - 1` bits of each row.
    low: u64,
    /// The lowest bit of each row.
    one: u64,
    /// The `w` bits of row 0.
    row: u64,
}

impl Geom {
    /// The masks for width `w` (1 to 64).
    #[inline(always)]
    const fn new(w: u32) -> Self {
        let r = 64 / w;
        let (mut high, mut low, mut one) = (0u64, 0u64, 0u64);
        let mut j = 0;
        while j < r {
            one |= 1u64 << (j * w);
            high |= 1u64 << (j * w + w - 1);
            low |= ((1u64 << (w - 1)) - 1) << (j * w);
            j += 1;
        }
        let cells = if r * w == 64 {
            !0
        } else {
            (1u64 << (r * w)) - 1
        };
        let row = if w == 64 { !0 } else { (1u64 << w) - 1 };
        Geom {
            w,
            r,
            cells,
            high,
            low,
            one,
            row,
        }
    }

    /// Bits of cells per chunk, `r * w`.
    #[inline(always)]
    const fn rw(self) -> u32 {
        self.r * self.w
    }

    /// The full rows of chunk `c`, all `w` bits of each: adding 1 to the low `w - 1` bits
    /// of a row carries into its top bit exactly when they are all set (no carry leaves the
    /// row), so `((c & low) + 1) & c` has the top bit of a row set when the row is full;
    /// moved to bit 0 of the row and multiplied by `2^w - 1` it fills the row.
    #[inline(always)]
    const fn full_rows(self, c: u64) -> u64 {
        (((((c & self.low) + self.one) & c) >> (self.w - 1)) & self.one).wrapping_mul(self.row)
    }

    /// Chunk `c` without its full rows `full`, the kept rows moved down to
    /// close the gaps: `pext`, or without BMI2 each full row cut out with two shifts and a
    /// mask, highest first.
    #[inline(always)]
    fn compact<const PEXT: bool>(self, c: u64, full: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if PEXT {
            // SAFETY: only instantiated with PEXT = true inside a BMI2 target-feature
            // function that is called after run-time detection. Bits of `c` outside the
            // cells are zero, so extracting them too adds only zeros on top.
            return unsafe { std::arch::x86_64::_pext_u64(c, !full) };
        }
        let w = self.w;
        let (mut c, mut fh) = (c, full & self.high);
        while fh != 0 {
            let top = 63 - fh.leading_zeros();
            c = remove_bits(c, top + 1 - w, w);
            fh &= !(1u64 << top);
        }
        c
    }
}

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
    /// The lowest bit of each row of a chunk.
    row_one: u64,
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
        let mut row_one = 0;
        for j in 0..r {
            row_one |= 1u64 << (j * w);
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
            row_one,
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

    /// The masks of this board's chunks.
    #[inline(always)]
    fn geom(&self) -> Geom {
        Geom {
            w: self.width,
            r: self.rows_per_chunk,
            cells: self.cells_mask,
            high: self.row_high,
            low: self.row_low,
            one: self.row_one,
            row: low_bits(self.width),
        }
    }

    /// Mask of the full rows of chunk `i` (all `w` bits of each full row).
    pub fn full_rows_of_chunk(&self, i: usize) -> u64 {
        let g = self.geom();
        g.full_rows(self.chunks[i])
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
    /// Chunks above the highest non-empty one are not touched. Below it, each chunk is
    /// compacted (its full rows cut out) and output chunk `j` is the rest of compacted chunk
    /// `j` with the bottom of compacted chunk `j + 1` on top: two shifts, no data-dependent
    /// branch while fewer than `r` rows are removed; more go through a streaming loop.
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
    #[inline]
    pub fn clear_full_lines(&mut self) -> usize {
        #[cfg(target_arch = "x86_64")]
        if has_bmi2() {
            // SAFETY: BMI2 was detected on this CPU just above.
            return unsafe { self.clear_full_lines_pext() };
        }
        self.clear_full_lines_portable()
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
    #[inline(never)]
    pub fn clear_full_lines_portable(&mut self) -> usize {
        self.clear_impl::<false>()
    }

    /// The clear. Chunks above the highest non-empty one stay empty and are not touched.
    /// Below, one pass with no data-dependent branch while fewer than `r` rows have been
    /// removed (every real Tetris clear): chunk `j` is compacted to `v[j]`, `P[j]` is the
    /// number of bits removed below it, and output chunk `j - 1` is
    /// `(v[j-1] >> P[j-1]) | (v[j] << (r*w - P[j]))`. Once `r` rows or more are gone,
    /// [`clear_stream`](Self::clear_stream) finishes the board.
    #[inline(always)]
    fn clear_impl<const PEXT: bool>(&mut self) -> usize {
        // Width 10 (Tetris) with its masks as immediates; any other width with the stored ones.
        if self.width == 10 {
            self.clear_core::<PEXT>(const { Geom::new(10) })
        } else {
            self.clear_any_width::<PEXT>()
        }
    }

    /// [`clear_core`](Self::clear_core) with the stored masks, out of line so that the
    /// width-10 path keeps few registers.
    #[inline(never)]
    fn clear_any_width<const PEXT: bool>(&mut self) -> usize {
        self.clear_core::<PEXT>(self.geom())
    }

    /// [`clear_impl`](Self::clear_impl) for the masks `g` (those of this board).
    #[inline(always)]
    fn clear_core<const PEXT: bool>(&mut self, g: Geom) -> usize {
        let mut t = self.chunks.len();
        while t > 0 && self.chunks[t - 1] == 0 {
            t -= 1;
        }
        if t == 0 {
            return 0;
        }
        let rw = g.rw();
        let ch = &mut self.chunks[..t];
        let c0 = ch[0];
        let full0 = g.full_rows(c0);
        let mut v_prev = g.compact::<PEXT>(c0, full0);
        let mut p_prev = 0u32; // bits removed below chunk j - 1
        let mut p = full0.count_ones(); // bits removed below chunk j
        if p >= rw {
            return self.clear_stream::<PEXT>(1, 0, 0, 0);
        }
        for j in 1..ch.len() {
            let c = ch[j];
            let full = g.full_rows(c);
            let v = g.compact::<PEXT>(c, full);
            let p_next = p + full.count_ones();
            if p_next >= rw {
                // `r` rows or more removed: output chunk j - 1 may need rows from above
                // chunk j. Stream from chunk j, holding the rows of chunk j - 1 not yet out
                // (it has `rw - (p - p_prev)` kept bits; its low `p_prev` went to chunk j - 2).
                return self.clear_stream::<PEXT>(j, j - 1, v_prev >> p_prev, rw - p);
            }
            // The rest of chunk j - 1 (`rw - p` bits), then the low `p` bits of chunk j on
            // top: `v << (64 - p) >> (64 - rw)` keeps just those (`p < rw <= 64`, so both
            // shifts are in range) and needs no mask.
            ch[j - 1] = (v_prev >> p_prev) | (((v << 1) << (63 - p)) >> (64 - rw));
            v_prev = v;
            p_prev = p;
            p = p_next;
        }
        ch[ch.len() - 1] = v_prev >> p_prev;
        (p / g.w) as usize
    }

    /// The general clear, from chunk `j` on: `acc` holds `filled` bits of kept rows (fewer
    /// than `r * w`) that go to output chunk `out`, and chunks `out..j` are consumed. Each
    /// chunk is compacted and its kept rows appended, writing a chunk whenever `r` rows are
    /// held; chunks past the last written one are zeroed. Returns the rows removed from the
    /// whole board.
    #[inline(never)]
    fn clear_stream<const PEXT: bool>(
        &mut self,
        j: usize,
        mut out: usize,
        mut acc: u64,
        mut filled: u32,
    ) -> usize {
        let g = self.geom();
        let rw = g.rw();
        let n = self.chunks.len();
        for i in j..n {
            let c = self.chunks[i];
            let full = g.full_rows(c);
            let kb = rw - full.count_ones();
            let v = g.compact::<PEXT>(c, full);
            acc |= shl(v, filled);
            filled += kb;
            if filled >= rw {
                self.chunks[out] = acc & g.cells;
                out += 1;
                filled -= rw;
                acc = shr(v, kb - filled);
            }
        }
        if out < n {
            self.chunks[out] = acc & g.cells;
            for c in &mut self.chunks[out + 1..] {
                *c = 0;
            }
        }
        // The kept bits are `out * rw + filled`; every chunk holds `r` rows.
        (n as u32 * self.rows_per_chunk - (out as u32 * rw + filled) / self.width) as usize
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
/// `pext` paths use both). Detected at run time once, then one relaxed atomic load.
#[inline]
pub fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::sync::atomic::{AtomicU8, Ordering};
        // 0: not detected yet, 1: no, 2: yes.
        static BMI2: AtomicU8 = AtomicU8::new(0);
        match BMI2.load(Ordering::Relaxed) {
            0 => {
                let yes = std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("popcnt");
                BMI2.store(1 + u8::from(yes), Ordering::Relaxed);
                yes
            }
            v => v == 2,
        }
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
