//! [`RowChunks`]: the chunked row layout of the "Line Clears" article, and its one-call clear
//! of every full row.

#[cfg(target_arch = "x86_64")]
use super::PEXT;
use super::{low_bits, remove_bits, shl, shr};
#[cfg(target_arch = "x86_64")]
use crate::cpu::has;
use crate::text::{CharGrid, ParseError, ParseErrorKind};
use crate::GridView;
use crate::SizeError;
use std::fmt;
use std::str::FromStr;

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
            // SAFETY: `PEXT = true` is reached only through `clear_full_lines_pext`, an
            // unsafe fn whose callers must have detected BMI2 (directly, or through
            // `clear_any_width::<true>` and `clear_stream::<true>`, which only it calls).
            // Bits of `c` outside the cells are zero, so extracting them adds only zeros.
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

/// A board in the chunked row layout of the "Line Clears" article: `w` bits per row,
/// `r = floor(64 / w)` rows per u64 chunk, the bottom row first. See the
/// [module documentation](super).
///
/// Cell positions `(x, y)` count `y` from the **top**. In the raw [`chunks`](Self::chunks),
/// cell `(x, y)` is bit `(f % r) * w + x` of chunk `f / r`, where `f = height - 1 - y` is its
/// row counted from the floor. Bits of rows past the height and the overflow bits of each
/// chunk are always zero.
///
/// Text (`FromStr`, `Display`): one line per row, top row first, `.` empty and any other
/// printable character filled; printed with `#`.
///
/// ```
/// use gridbits::algo::lines::RowChunks;
/// let mut b = RowChunks::new(10, 40);
/// b.set(0, 39); // the bottom-left cell
/// assert_eq!(b.chunks()[0], 1);
/// assert!(b.get(0, 39) && !b.get(0, 0));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RowChunks {
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) rows_per_chunk: u32,
    /// Every cell bit of a chunk (`r * w` low bits).
    pub(super) cells_mask: u64,
    /// The top bit of each row of a chunk.
    pub(super) row_high: u64,
    /// The low `w - 1` bits of each row of a chunk.
    pub(super) row_low: u64,
    /// The lowest bit of each row of a chunk.
    pub(super) row_one: u64,
    pub(super) chunks: Vec<u64>,
}

impl RowChunks {
    /// An empty `width x height` board. Widths 1 to 64, heights 1 to [`MAX_CHUNKED_HEIGHT`];
    /// other sizes are an error.
    ///
    /// ```
    /// let b = gridbits::algo::lines::RowChunks::try_new(10, 40).unwrap();
    /// assert_eq!((b.rows_per_chunk(), b.chunks().len()), (6, 7));
    /// let e = gridbits::algo::lines::RowChunks::try_new(65, 40).unwrap_err();
    /// assert_eq!(e.to_string(), "cannot make a 65x40 board: a row must fit one u64: width at most 64");
    /// ```
    pub fn try_new(width: usize, height: usize) -> Result<Self, SizeError> {
        let err = |reason| SizeError::new("board", width, height, reason);
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

    /// An empty `width x height` board.
    ///
    /// # Panics
    ///
    /// With the [`SizeError`] message for the sizes [`try_new`](Self::try_new) refuses.
    #[track_caller]
    pub fn new(width: usize, height: usize) -> Self {
        Self::try_new(width, height).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A board from a predicate on `(x, y)`, `y` from the top.
    ///
    /// ```
    /// let b = gridbits::algo::lines::RowChunks::from_fn(3, 2, |_, y| y == 1).unwrap();
    /// assert_eq!(b.to_string(), "...\n###\n");
    /// ```
    pub fn from_fn(
        width: usize,
        height: usize,
        mut f: impl FnMut(usize, usize) -> bool,
    ) -> Result<Self, SizeError> {
        let mut b = Self::try_new(width, height)?;
        for y in 0..height {
            for x in 0..width {
                if f(x, y) {
                    b.set(x, y);
                }
            }
        }
        Ok(b)
    }

    /// Parses a text grid, top row first: `.` empty, any other printable character filled
    /// (the same as [`str::parse`]). A grid wider than 64 is an error naming column 65 of
    /// line 1.
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
        let mut b =
            Self::try_new(w, h).map_err(|_| ParseError::new(1, 1, ParseErrorKind::Empty))?;
        for row in 0..h {
            for x in 0..w {
                if filled(grid.get(x, row)) {
                    b.set(x, row);
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

    /// The raw chunks, bottom chunk first: bit `j * w + x` of chunk `i` is column `x` of the
    /// row `f = i * r + j` counted from the floor, that is of `y = height - 1 - f`.
    pub fn chunks(&self) -> &[u64] {
        &self.chunks
    }

    /// Copies another board of the same size into this one without allocating.
    ///
    /// # Panics
    /// When the sizes differ.
    pub fn copy_from(&mut self, other: &RowChunks) {
        assert_eq!(
            (self.width, self.height),
            (other.width, other.height),
            "boards of different sizes"
        );
        self.chunks.copy_from_slice(&other.chunks);
    }

    /// The chunk and bit of cell `(x, y)`, `y` from the top.
    #[inline]
    fn locate(&self, x: usize, y: usize) -> (usize, u32) {
        assert!(x < self.width() && y < self.height(), "cell off the board");
        let r = self.rows_per_chunk as usize;
        let f = self.height() - 1 - y;
        (f / r, (f % r) as u32 * self.width + x as u32)
    }

    /// Whether cell `(x, y)` is filled (`y` from the top); `false` off the board.
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> bool {
        if x >= self.width() || y >= self.height() {
            return false;
        }
        let (c, b) = self.locate(x, y);
        self.chunks[c] >> b & 1 != 0
    }

    /// Fills cell `(x, y)`, `y` from the top.
    ///
    /// # Panics
    /// When the cell is off the board.
    #[inline]
    pub fn set(&mut self, x: usize, y: usize) {
        let (c, b) = self.locate(x, y);
        self.chunks[c] |= 1 << b;
    }

    /// Empties cell `(x, y)`, `y` from the top.
    ///
    /// # Panics
    /// When the cell is off the board.
    #[inline]
    pub fn clear(&mut self, x: usize, y: usize) {
        let (c, b) = self.locate(x, y);
        self.chunks[c] &= !(1 << b);
    }

    /// Row `y` (from the top) as `w` bits, bit `x` = column `x`; 0 off the board.
    #[inline]
    pub fn row(&self, y: usize) -> u64 {
        if y >= self.height() {
            return 0;
        }
        let r = self.rows_per_chunk as usize;
        let f = self.height() - 1 - y;
        shr(self.chunks[f / r], (f % r) as u32 * self.width) & low_bits(self.width)
    }

    /// Replaces row `y` (from the top) with the low `w` bits of `bits` (bit `x` = column `x`).
    ///
    /// # Panics
    /// When `y >= height`.
    pub fn set_row(&mut self, y: usize, bits: u64) {
        assert!(y < self.height(), "row off the board");
        let r = self.rows_per_chunk as usize;
        let f = self.height() - 1 - y;
        let at = (f % r) as u32 * self.width;
        let m = low_bits(self.width) << at;
        let c = &mut self.chunks[f / r];
        *c = (*c & !m) | ((bits << at) & m);
    }

    /// The raw mask of row `j` inside a chunk, `j` counted from the chunk's bottom (`j < r`;
    /// 0 otherwise): the `w` bits `j * w ..` that the article's cascade tests one by one.
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

    /// Raw mask of the full rows of chunk `i` (all `w` bits of each full row, in the chunk's
    /// own bit layout, see [`chunks`](Self::chunks)).
    ///
    /// # Panics
    /// When `i` is not a chunk index.
    pub fn full_rows_of_chunk(&self, i: usize) -> u64 {
        let g = self.geom();
        g.full_rows(self.chunks[i])
    }

    /// The rows that are full, as `y` from the top, top first.
    pub fn full_rows(&self) -> Vec<usize> {
        (0..self.height())
            .filter(|&y| self.row_is_full(y))
            .collect()
    }

    /// Whether row `y` (from the top) is full; `false` off the board.
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
    /// let mut b = RowChunks::new(10, 40);
    /// for y in [0, 26, 33, 34, 39] {
    ///     b.set_row(y, 0x3ff); // five full rows, in three chunks
    /// }
    /// b.set(3, 32);
    /// assert_eq!(b.clear_full_lines(), 5);
    /// // Three full rows were below it: the cell falls by three.
    /// assert!(b.get(3, 35) && b.count() == 1);
    /// ```
    #[inline]
    pub fn clear_full_lines(&mut self) -> usize {
        #[cfg(target_arch = "x86_64")]
        if has(PEXT) {
            // SAFETY: `has(PEXT)` detected BMI2 and POPCNT (the enabled features) just above.
            return unsafe { self.clear_full_lines_pext() };
        }
        self.clear_full_lines_portable()
    }

    /// [`clear_full_lines`](Self::clear_full_lines) with `pext` compacting each chunk.
    ///
    /// # Safety
    /// The CPU must support BMI2 and POPCNT (check with
    /// [`cpu::has`](crate::cpu::has)`(`[`PEXT`]`)`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,popcnt")]
    pub unsafe fn clear_full_lines_pext(&mut self) -> usize {
        self.clear_impl::<true>()
    }

    /// [`clear_full_lines`](Self::clear_full_lines) without BMI2: each full row of a chunk is
    /// cut out with two shifts and a mask, highest first.
    #[inline(never)]
    fn clear_full_lines_portable(&mut self) -> usize {
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

    /// The text form: top row first, `#` filled, `.` empty (the same as `to_string()`).
    pub fn to_text(&self) -> String {
        crate::render_text(self, '#', '.')
    }
}

/// The same cells as the inherent accessors, `y` from the top.
impl GridView for RowChunks {
    fn width(&self) -> usize {
        self.width as usize
    }
    fn height(&self) -> usize {
        self.height as usize
    }
    fn get(&self, x: usize, y: usize) -> bool {
        RowChunks::get(self, x, y)
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

/// The text form: top row first, `#` filled, `.` empty.
impl fmt::Display for RowChunks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// Parses the text form, see [`RowChunks::parse`].
impl FromStr for RowChunks {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        Self::parse(s)
    }
}
