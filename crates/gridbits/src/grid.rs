//! [`BitGrid`]: a bitboard whose size is chosen at run time (maps, binary images).
//!
//! Each row is stored as whole u64 words (`words_per_row = ceil(width / 64)`), bit `x % 64` of
//! word `x / 64` being column `x`. A row is therefore a word slice: east/west shifts carry bits
//! between the words of one row, north/south shifts move whole rows. Bits past `width` in a
//! row's last word are always zero. A 4096 x 4096 image takes 2 MiB.
//!
//! ```
//! use gridbits::{BitGrid, Connectivity};
//! let g = BitGrid::parse("....\n.#..\n....\n").unwrap();
//! let d = g.dilate(Connectivity::Four);
//! assert_eq!(d.count(), 5);
//! assert_eq!(d.to_text(), ".#..\n###.\n.#..\n");
//! ```

use crate::dir::{Connectivity, Dir};
use crate::text::{CharGrid, ParseError, ParseErrorKind, MAX_CELLS};
use crate::GridView;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// Why a grid of the requested size cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeError {
    /// Requested width.
    pub width: usize,
    /// Requested height.
    pub height: usize,
    /// Why it was refused.
    pub reason: &'static str,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot make a {}x{} grid: {}",
            self.width, self.height, self.reason
        )
    }
}

impl std::error::Error for SizeError {}

/// A `width x height` bitboard sized at run time. See the [module documentation](self).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct BitGrid {
    width: usize,
    height: usize,
    wpr: usize,
    words: Vec<u64>,
}

/// Mask of the valid bits of the last word of a row of `width` cells.
#[inline]
pub(crate) fn tail_mask(width: usize) -> u64 {
    match width % 64 {
        0 => !0,
        r => (1u64 << r) - 1,
    }
}

/// Shifts a row one cell east (towards larger x) into `out`, carrying between words.
#[inline]
pub(crate) fn row_east(src: &[u64], out: &mut [u64], tail: u64) {
    let mut carry = 0;
    for (o, &w) in out.iter_mut().zip(src) {
        *o = (w << 1) | carry;
        carry = w >> 63;
    }
    if let Some(last) = out.last_mut() {
        *last &= tail;
    }
}

/// Shifts a row one cell west (towards smaller x) into `out`.
#[inline]
pub(crate) fn row_west(src: &[u64], out: &mut [u64]) {
    let n = src.len();
    for i in 0..n {
        let next = if i + 1 < n { src[i + 1] << 63 } else { 0 };
        out[i] = (src[i] >> 1) | next;
    }
}

impl BitGrid {
    /// Checks a requested size and returns the words per row and total words.
    fn layout(width: usize, height: usize) -> Result<(usize, usize), SizeError> {
        let err = |reason| SizeError {
            width,
            height,
            reason,
        };
        if width == 0 || height == 0 {
            return Err(err("width and height must be at least 1"));
        }
        let cells = (width as u64).checked_mul(height as u64);
        match cells {
            Some(c) if c <= MAX_CELLS => {}
            _ => return Err(err("more than 2^34 cells")),
        }
        let wpr = width.div_ceil(64);
        let total = wpr.checked_mul(height).ok_or(err("too many words"))?;
        Ok((wpr, total))
    }

    /// An empty grid, or an error if the size is zero or too large to allocate.
    ///
    /// ```
    /// use gridbits::BitGrid;
    /// assert!(BitGrid::new(4096, 4096).is_ok());
    /// assert!(BitGrid::new(0, 5).is_err());
    /// assert!(BitGrid::new(1 << 40, 1 << 40).is_err());
    /// ```
    pub fn new(width: usize, height: usize) -> Result<Self, SizeError> {
        let (wpr, total) = Self::layout(width, height)?;
        let mut words = Vec::new();
        words.try_reserve_exact(total).map_err(|_| SizeError {
            width,
            height,
            reason: "not enough memory",
        })?;
        words.resize(total, 0);
        Ok(BitGrid {
            width,
            height,
            wpr,
            words,
        })
    }

    /// A grid with every cell set.
    pub fn full(width: usize, height: usize) -> Result<Self, SizeError> {
        let mut g = Self::new(width, height)?;
        let tail = tail_mask(width);
        for row in g.words.chunks_exact_mut(g.wpr) {
            row.fill(!0);
            if let Some(last) = row.last_mut() {
                *last = tail;
            }
        }
        Ok(g)
    }

    /// An empty grid of the same size as `self`.
    pub fn empty_like(&self) -> Self {
        BitGrid {
            width: self.width,
            height: self.height,
            wpr: self.wpr,
            words: vec![0; self.words.len()],
        }
    }

    /// A grid built from a predicate on `(x, y)`.
    pub fn from_fn(
        width: usize,
        height: usize,
        mut f: impl FnMut(usize, usize) -> bool,
    ) -> Result<Self, SizeError> {
        let mut g = Self::new(width, height)?;
        for y in 0..height {
            for x in 0..width {
                if f(x, y) {
                    g.set(x, y);
                }
            }
        }
        Ok(g)
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of u64 words per row.
    pub fn words_per_row(&self) -> usize {
        self.wpr
    }

    /// All words, row after row.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The words of row `y`. Panics when `y >= height`.
    pub fn row_words(&self, y: usize) -> &[u64] {
        &self.words[y * self.wpr..(y + 1) * self.wpr]
    }

    /// The words of row `y`, mutable. Bits past `width` must be left zero. Panics when
    /// `y >= height`.
    pub fn row_words_mut(&mut self, y: usize) -> &mut [u64] {
        &mut self.words[y * self.wpr..(y + 1) * self.wpr]
    }

    /// The bit index of `(x, y)` in [`words`](Self::words): `y * 64 * words_per_row + x`.
    /// Panics when the cell is off the grid.
    pub fn bit_index(&self, x: usize, y: usize) -> usize {
        assert!(x < self.width && y < self.height, "cell off the grid");
        y * self.wpr * 64 + x
    }

    /// The cell at a bit index, or `None` past the end of a row or of the grid.
    pub fn cell_of(&self, index: usize) -> Option<(usize, usize)> {
        let (x, y) = (index % (self.wpr * 64), index / (self.wpr * 64));
        (x < self.width && y < self.height).then_some((x, y))
    }

    /// Whether `(x, y)` is set; `false` off the grid.
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> bool {
        if x >= self.width || y >= self.height {
            return false;
        }
        self.words[y * self.wpr + x / 64] >> (x % 64) & 1 != 0
    }

    /// Sets `(x, y)`. Panics when the cell is off the grid.
    #[inline]
    pub fn set(&mut self, x: usize, y: usize) {
        let i = self.bit_index(x, y);
        self.words[i / 64] |= 1 << (i % 64);
    }

    /// Clears `(x, y)`. Panics when the cell is off the grid.
    #[inline]
    pub fn clear(&mut self, x: usize, y: usize) {
        let i = self.bit_index(x, y);
        self.words[i / 64] &= !(1 << (i % 64));
    }

    /// Sets `(x, y)` to `value`. Panics when the cell is off the grid.
    pub fn put(&mut self, x: usize, y: usize, value: bool) {
        if value {
            self.set(x, y)
        } else {
            self.clear(x, y)
        }
    }

    /// Number of set cells.
    pub fn count(&self) -> u64 {
        self.words.iter().map(|w| w.count_ones() as u64).sum()
    }

    /// Whether no cell is set.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Whether every cell is set.
    pub fn is_full(&self) -> bool {
        self.count() == (self.width * self.height) as u64
    }

    /// The lowest set cell (smallest `y`, then smallest `x`), if any.
    pub fn lowest(&self) -> Option<(usize, usize)> {
        let i = self.words.iter().position(|&w| w != 0)?;
        let bit = i * 64 + self.words[i].trailing_zeros() as usize;
        self.cell_of(bit)
    }

    /// Iterates over the set cells, lowest first.
    pub fn iter(&self) -> GridCells<'_> {
        GridCells {
            grid: self,
            word: 0,
            bits: self.words.first().copied().unwrap_or(0),
        }
    }

    /// The mask of row `y` of a `width x height` grid (empty when `y >= height`).
    pub fn row_mask(width: usize, height: usize, y: usize) -> Result<Self, SizeError> {
        Self::rect_mask(width, height, 0, width, y, y.saturating_add(1))
    }

    /// The mask of column `x` of a `width x height` grid (empty when `x >= width`).
    pub fn column_mask(width: usize, height: usize, x: usize) -> Result<Self, SizeError> {
        Self::rect_mask(width, height, x, x.saturating_add(1), 0, height)
    }

    /// The cells on the edge of a `width x height` grid.
    pub fn border_mask(width: usize, height: usize) -> Result<Self, SizeError> {
        let mut g = Self::full(width, height)?;
        let inner = Self::rect_mask(width, height, 1, width - 1, 1, height - 1)?;
        g.and_not_assign(&inner);
        Ok(g)
    }

    /// The mask of columns `x0..x1` and rows `y0..y1` of a `width x height` grid; ranges are
    /// clipped to the grid.
    pub fn rect_mask(
        width: usize,
        height: usize,
        x0: usize,
        x1: usize,
        y0: usize,
        y1: usize,
    ) -> Result<Self, SizeError> {
        let mut g = Self::new(width, height)?;
        let (x1, y1) = (x1.min(width), y1.min(height));
        if x0 >= x1 || y0 >= y1 {
            return Ok(g);
        }
        let mut pattern = vec![0u64; g.wpr];
        for x in x0..x1 {
            pattern[x / 64] |= 1 << (x % 64);
        }
        for y in y0..y1 {
            g.row_words_mut(y).copy_from_slice(&pattern);
        }
        Ok(g)
    }

    fn assert_same_size(&self, other: &Self) {
        assert!(
            self.width == other.width && self.height == other.height,
            "grids of different sizes: {}x{} and {}x{}",
            self.width,
            self.height,
            other.width,
            other.height
        );
    }

    /// `self &= other`. Panics if the sizes differ.
    pub fn and_assign(&mut self, other: &Self) {
        self.assert_same_size(other);
        self.words
            .iter_mut()
            .zip(&other.words)
            .for_each(|(a, b)| *a &= b);
    }

    /// `self |= other`. Panics if the sizes differ.
    pub fn or_assign(&mut self, other: &Self) {
        self.assert_same_size(other);
        self.words
            .iter_mut()
            .zip(&other.words)
            .for_each(|(a, b)| *a |= b);
    }

    /// `self ^= other`. Panics if the sizes differ.
    pub fn xor_assign(&mut self, other: &Self) {
        self.assert_same_size(other);
        self.words
            .iter_mut()
            .zip(&other.words)
            .for_each(|(a, b)| *a ^= b);
    }

    /// `self = self & !other`. Panics if the sizes differ.
    pub fn and_not_assign(&mut self, other: &Self) {
        self.assert_same_size(other);
        self.words
            .iter_mut()
            .zip(&other.words)
            .for_each(|(a, b)| *a &= !b);
    }

    /// The cells of `self` not in `other`. Panics if the sizes differ.
    pub fn and_not(&self, other: &Self) -> Self {
        let mut g = self.clone();
        g.and_not_assign(other);
        g
    }

    /// Complements in place, inside the grid.
    pub fn complement_assign(&mut self) {
        let (wpr, tail) = (self.wpr, tail_mask(self.width));
        for row in self.words.chunks_exact_mut(wpr) {
            row.iter_mut().for_each(|w| *w = !*w);
            if let Some(last) = row.last_mut() {
                *last &= tail;
            }
        }
    }

    /// The complement inside the grid.
    pub fn complement(&self) -> Self {
        let mut g = self.clone();
        g.complement_assign();
        g
    }

    /// Whether every cell of `self` is in `other`. Panics if the sizes differ.
    pub fn is_subset(&self, other: &Self) -> bool {
        self.assert_same_size(other);
        self.words
            .iter()
            .zip(&other.words)
            .all(|(a, b)| a & !b == 0)
    }

    /// Every cell moved one step in `dir`; cells pushed off the grid vanish.
    pub fn shift(&self, dir: Dir) -> Self {
        self.shift_by(dir, 1)
    }

    /// Every cell moved `k` steps in `dir`; cells pushed off the grid vanish.
    ///
    /// ```
    /// use gridbits::{BitGrid, Dir};
    /// let mut g = BitGrid::new(100, 3).unwrap();
    /// g.set(10, 2);
    /// let s = g.shift_by(Dir::NE, 2);
    /// assert_eq!(s.lowest(), Some((12, 0)));
    /// ```
    pub fn shift_by(&self, dir: Dir, k: usize) -> Self {
        let mut out = self.empty_like();
        let (dx, dy) = dir.delta();
        if k == 0 {
            return self.clone();
        }
        if (dx != 0 && k >= self.width) || (dy != 0 && k >= self.height) {
            return out;
        }
        let wpr = self.wpr;
        let tail = tail_mask(self.width);
        let (q, r) = (k / 64, k % 64);
        for y in 0..self.height {
            let sy = y as isize - dy * k as isize;
            if sy < 0 || sy as usize >= self.height {
                continue;
            }
            let src = self.row_words(sy as usize);
            let dst = &mut out.words[y * wpr..(y + 1) * wpr];
            match dx {
                0 => dst.copy_from_slice(src),
                1 => {
                    // Towards larger x: dst[i] = src[i - q] << r | src[i - q - 1] >> (64 - r).
                    for i in q..wpr {
                        let mut v = src[i - q] << r;
                        if r != 0 && i > q {
                            v |= src[i - q - 1] >> (64 - r);
                        }
                        dst[i] = v;
                    }
                    dst[wpr - 1] &= tail;
                }
                _ => {
                    for i in 0..wpr - q {
                        let mut v = src[i + q] >> r;
                        if r != 0 && i + q + 1 < wpr {
                            v |= src[i + q + 1] << (64 - r);
                        }
                        dst[i] = v;
                    }
                }
            }
        }
        out
    }

    /// Dilation: every set cell plus its neighbours under `conn`, in one pass over the rows.
    pub fn dilate(&self, conn: Connectivity) -> Self {
        let mut out = self.empty_like();
        self.dilate_into(conn, None, &mut out);
        out
    }

    /// Dilation clipped to `mask`: one step of a flood fill. Panics if the sizes differ.
    pub fn dilate_within(&self, conn: Connectivity, mask: &Self) -> Self {
        self.assert_same_size(mask);
        let mut out = self.empty_like();
        self.dilate_into(conn, Some(mask), &mut out);
        out
    }

    /// Writes the dilation of `self` (clipped to `mask` if given) into `out`, which must have
    /// the same size; no allocation. Panics if the sizes differ.
    pub fn dilate_into(&self, conn: Connectivity, mask: Option<&Self>, out: &mut Self) {
        self.morph_into(conn, mask, out, false)
    }

    /// Erosion: the set cells whose every neighbour under `conn` is set; cells off the grid
    /// count as empty, so border cells never survive.
    pub fn erode(&self, conn: Connectivity) -> Self {
        let mut out = self.empty_like();
        self.morph_into(conn, None, &mut out, true);
        out
    }

    /// Erosion clipped to `mask`. Panics if the sizes differ.
    pub fn erode_within(&self, conn: Connectivity, mask: &Self) -> Self {
        self.assert_same_size(mask);
        let mut out = self.empty_like();
        self.morph_into(conn, Some(mask), &mut out, true);
        out
    }

    /// Shared row loop of dilation (OR of neighbours) and erosion (AND of neighbours).
    ///
    /// Per row it forms the horizontal combination `h = row op east(row) op west(row)` (for
    /// 8-connectivity) and combines it with the rows above and below, so each output word is
    /// a handful of word operations.
    fn morph_into(&self, conn: Connectivity, mask: Option<&Self>, out: &mut Self, erode: bool) {
        self.assert_same_size(out);
        if let Some(m) = mask {
            self.assert_same_size(m);
        }
        let (w, h, wpr) = (self.width, self.height, self.wpr);
        let tail = tail_mask(w);
        // Horizontal combinations of the previous, current and next row.
        let mut hp = vec![0u64; wpr];
        let mut hc = vec![0u64; wpr];
        let mut hn = vec![0u64; wpr];
        let mut e = vec![0u64; wpr];
        let mut wv = vec![0u64; wpr];
        let horiz = |src: &[u64], dst: &mut [u64], e: &mut [u64], wv: &mut [u64]| {
            row_east(src, e, tail);
            row_west(src, wv);
            for i in 0..wpr {
                dst[i] = if erode {
                    src[i] & e[i] & wv[i]
                } else {
                    src[i] | e[i] | wv[i]
                };
            }
        };
        // Value of an off-grid row: empty for both (erosion treats outside as empty).
        let eight = conn == Connectivity::Eight;
        for y in 0..h {
            let cur = self.row_words(y);
            if y == 0 {
                if eight {
                    horiz(cur, &mut hc, &mut e, &mut wv);
                } else {
                    hc.copy_from_slice(cur);
                }
            }
            if y + 1 < h {
                let next = self.row_words(y + 1);
                if eight {
                    horiz(next, &mut hn, &mut e, &mut wv);
                } else {
                    hn.copy_from_slice(next);
                }
            } else {
                hn.fill(0);
            }
            // Above row: hp (zero at y == 0).
            if !eight {
                row_east(cur, &mut e, tail);
                row_west(cur, &mut wv);
            }
            let dst = &mut out.words[y * wpr..(y + 1) * wpr];
            for i in 0..wpr {
                let up = if y > 0 { hp[i] } else { 0 };
                let mut v = if eight {
                    if erode {
                        hc[i] & up & hn[i]
                    } else {
                        hc[i] | up | hn[i]
                    }
                } else if erode {
                    cur[i] & e[i] & wv[i] & up & hn[i]
                } else {
                    cur[i] | e[i] | wv[i] | up | hn[i]
                };
                if let Some(m) = mask {
                    v &= m.words[y * wpr + i];
                }
                dst[i] = v;
            }
            // Rotate: previous <- current <- next.
            std::mem::swap(&mut hp, &mut hc);
            std::mem::swap(&mut hc, &mut hn);
        }
    }

    /// Parses a text grid: `.` empty, any other printable character set.
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        Self::parse_bytes(text.as_bytes())
    }

    /// Parses a text grid from raw bytes (non-UTF-8 input gets a line/column error).
    pub fn parse_bytes(text: &[u8]) -> Result<Self, ParseError> {
        let grid = CharGrid::parse(text)?;
        Self::from_char_grid(&grid, |c| c != b'.')
            .map_err(|_| ParseError::new(1, 1, ParseErrorKind::TooLarge))
    }

    /// Maps a parsed character grid to a bit grid: a cell is set where `is_set` says so.
    pub fn from_char_grid(
        grid: &CharGrid,
        mut is_set: impl FnMut(u8) -> bool,
    ) -> Result<Self, SizeError> {
        let mut g = Self::new(grid.width(), grid.height())?;
        for y in 0..grid.height() {
            for (x, &c) in grid.row(y).iter().enumerate() {
                if is_set(c) {
                    g.set(x, y);
                }
            }
        }
        Ok(g)
    }

    /// The text form: one line per row, `#` set and `.` empty, each line ending in `\n`.
    pub fn to_text(&self) -> String {
        crate::render_text(self, '#', '.')
    }
}

impl GridView for BitGrid {
    fn width(&self) -> usize {
        self.width
    }
    fn height(&self) -> usize {
        self.height
    }
    fn get(&self, x: usize, y: usize) -> bool {
        BitGrid::get(self, x, y)
    }
    fn count(&self) -> u64 {
        BitGrid::count(self)
    }
}

/// Iterator over the set cells of a [`BitGrid`], lowest first.
#[derive(Clone, Debug)]
pub struct GridCells<'a> {
    grid: &'a BitGrid,
    word: usize,
    bits: u64,
}

impl Iterator for GridCells<'_> {
    type Item = (usize, usize);
    fn next(&mut self) -> Option<(usize, usize)> {
        while self.bits == 0 {
            self.word += 1;
            self.bits = *self.grid.words.get(self.word)?;
        }
        let b = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        let (wpr, word) = (self.grid.wpr, self.word);
        Some(((word % wpr) * 64 + b, word / wpr))
    }
}

impl<'a> IntoIterator for &'a BitGrid {
    type Item = (usize, usize);
    type IntoIter = GridCells<'a>;
    fn into_iter(self) -> GridCells<'a> {
        self.iter()
    }
}

macro_rules! grid_binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $m:ident) => {
        impl $tr<&BitGrid> for &BitGrid {
            type Output = BitGrid;
            /// Panics if the sizes differ.
            fn $f(self, rhs: &BitGrid) -> BitGrid {
                let mut g = self.clone();
                g.$m(rhs);
                g
            }
        }
        impl $atr<&BitGrid> for BitGrid {
            /// Panics if the sizes differ.
            fn $af(&mut self, rhs: &BitGrid) {
                self.$m(rhs);
            }
        }
    };
}
grid_binop!(BitAnd, bitand, BitAndAssign, bitand_assign, and_assign);
grid_binop!(BitOr, bitor, BitOrAssign, bitor_assign, or_assign);
grid_binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, xor_assign);

impl Not for &BitGrid {
    type Output = BitGrid;
    /// Complement inside the grid.
    fn not(self) -> BitGrid {
        self.complement()
    }
}

impl Not for BitGrid {
    type Output = BitGrid;
    /// Complement inside the grid.
    fn not(mut self) -> BitGrid {
        self.complement_assign();
        self
    }
}

impl fmt::Display for BitGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl fmt::Debug for BitGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "BitGrid {}x{} ({} set)",
            self.width,
            self.height,
            self.count()
        )?;
        if self.width <= 256 && self.height <= 256 {
            f.write_str(&self.to_text())?;
        }
        Ok(())
    }
}
