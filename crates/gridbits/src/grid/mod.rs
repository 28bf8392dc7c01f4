//! [`BitGrid`]: a bitboard whose size is chosen at run time (maps, binary images).
//!
//! Each row is stored as whole u64 words (`words_per_row = ceil(width / 64)`), bit `x % 64` of
//! word `x / 64` being column `x`. A row is therefore a word slice: east/west shifts carry bits
//! between the words of one row, north/south shifts move whole rows. Bits past `width` in a
//! row's last word are always zero. A 4096 x 4096 image takes 2 MiB.
//!
//! Byte images come in through [`BitGrid::from_bytes`] (and [`from_bools`](BitGrid::from_bools),
//! [`from_slice`](BitGrid::from_slice), [`from_packbits`](BitGrid::from_packbits) for rows
//! packed as `numpy.packbits` packs them) and go out through
//! [`write_bytes`](BitGrid::write_bytes) and [`write_packbits`](BitGrid::write_packbits), with
//! SIMD kernels (AVX-512, AVX2, SSE2) chosen at run time and a portable SWAR fallback: see
//! [`ByteKernel`]; the kernels can also fold the two-value check of OpenCV's binary images
//! into their packing ([`ByteValues`]). A [`ByteImage`] is a byte image checked but not
//! packed, for the labeller to pack where it reads it
//! ([`Labeller::label_bytes`](crate::algo::label::Labeller::label_bytes)).
//!
//! ```
//! use gridbits::{BitGrid, Connectivity};
//! let g = BitGrid::parse("....\n.#..\n....\n").unwrap();
//! let d = g.dilate(Connectivity::Four);
//! assert_eq!(d.count(), 5);
//! assert_eq!(d.to_text(), ".#..\n###.\n.#..\n");
//! ```

use crate::error::OffGrid;
pub use crate::error::SizeError;
use crate::GridView;

mod byte_image;
mod convert;
pub(crate) use crate::error::check_image;
pub use crate::error::ImageError;
pub use byte_image::ByteImage;
mod morph;
mod ops;
mod pack;
mod popcount;
#[cfg(target_arch = "x86_64")]
pub(crate) use pack::{
    pack64_avx2, pack_row_avx2, pack_row_avx512, unpack64_avx2, unpack_row_avx2, unpack_row_avx512,
    Acc256, Acc512,
};
pub(crate) use pack::{pack_row_with, unpack_row};
pub use pack::{ByteKernel, ByteValues};

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

/// The first cell of `marks` in each run of `cells` (a word of a row; `starts`: the runs
/// starting in it), for the words of a row taken in order. An addition carries from each
/// run's start through its unmarked cells and stops at the first marked one. `pending`
/// (0 before the row's first word) carries whether the run reaching the next word has met
/// no mark yet.
#[inline(always)]
pub(crate) fn first_marks(cells: u64, starts: u64, marks: u64, pending: &mut u64) -> u64 {
    let unmarked = cells & !marks;
    let open = starts | (*pending & cells & 1);
    let (sum, over) = unmarked.overflowing_add(open & unmarked);
    *pending = u64::from(over);
    ((sum & !unmarked) | open) & marks
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
    /// Checks a requested size and returns the words per row and the zeroed words (reserved
    /// with `try_reserve`: a size the allocator refuses is an error, not an abort).
    /// The checks of [`BitGrid::try_new`] before it allocates (the errors it reports for a
    /// size), and the error of a failed allocation.
    pub(crate) fn check_size(
        width: usize,
        height: usize,
    ) -> Result<impl Fn(&'static str) -> SizeError, SizeError> {
        if width == 0 || height == 0 {
            return Err(SizeError::new(
                "grid",
                width,
                height,
                "width and height must be at least 1",
            ));
        }
        let total = width.div_ceil(64) as u128 * height as u128;
        crate::error::check_count::<u64>("grid", width, height, total)
    }

    fn layout(width: usize, height: usize) -> Result<(usize, Vec<u64>), SizeError> {
        // Checks the size, then allocates zeroed memory: pages a sparse grid never sets are
        // never touched.
        let err = Self::check_size(width, height)?;
        let wpr = width.div_ceil(64);
        let total = wpr as u128 * height as u128;
        let words =
            crate::huge_pages::zeroed(total as usize).ok_or_else(|| err("not enough memory"))?;
        Ok((wpr, words))
    }

    /// An empty grid, or an error if the size is zero or too large to allocate (more than
    /// [`MAX_CELLS`](crate::text::MAX_CELLS) cells, or more memory than the allocator gives: never an abort).
    ///
    /// ```
    /// use gridbits::BitGrid;
    /// assert!(BitGrid::try_new(4096, 4096).is_ok());
    /// assert!(BitGrid::try_new(0, 5).is_err());
    /// let err = BitGrid::try_new(1 << 40, 1 << 40).unwrap_err();
    /// assert!(err.is_out_of_memory());
    /// ```
    pub fn try_new(width: usize, height: usize) -> Result<Self, SizeError> {
        let (wpr, words) = Self::layout(width, height)?;
        Ok(BitGrid {
            width,
            height,
            wpr,
            words,
        })
    }

    /// An empty `width x height` grid.
    ///
    /// ```
    /// let g = gridbits::BitGrid::new(5, 3);
    /// assert_eq!((g.size(), g.count()), ((5, 3), 0));
    /// ```
    ///
    /// # Panics
    ///
    /// With the [`SizeError`] message if the size is zero or too large to allocate;
    /// [`try_new`](Self::try_new) returns it instead.
    #[track_caller]
    pub fn new(width: usize, height: usize) -> Self {
        Self::try_new(width, height).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A grid with every cell set, or an error for the sizes [`try_new`](Self::try_new)
    /// refuses.
    pub fn try_full(width: usize, height: usize) -> Result<Self, SizeError> {
        let mut g = Self::try_new(width, height)?;
        let tail = tail_mask(width);
        for row in g.words.chunks_exact_mut(g.wpr) {
            row.fill(!0);
            if let Some(last) = row.last_mut() {
                *last = tail;
            }
        }
        Ok(g)
    }

    /// A grid with every cell set.
    ///
    /// # Panics
    ///
    /// With the [`SizeError`] message if the size is zero or too large to allocate;
    /// [`try_full`](Self::try_full) returns it instead.
    #[track_caller]
    pub fn full(width: usize, height: usize) -> Self {
        Self::try_full(width, height).unwrap_or_else(|e| panic!("{e}"))
    }

    /// An empty grid of the same size as `self`. Allocates like `Vec` (aborting if memory
    /// runs out); [`BitGrid::try_new`] with [`size`](Self::size) is the fallible form.
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
        let mut g = Self::try_new(width, height)?;
        for y in 0..height {
            for x in 0..width {
                if f(x, y) {
                    g.set(x, y);
                }
            }
        }
        Ok(g)
    }

    /// `(width, height)`.
    pub fn size(&self) -> (usize, usize) {
        (self.width, self.height)
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

    /// All words, row after row, mutable. Bits past `width` must be left zero.
    pub(crate) fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }

    /// The words of row `y`.
    ///
    /// # Panics
    /// When `y >= height`.
    pub fn row_words(&self, y: usize) -> &[u64] {
        &self.words[y * self.wpr..(y + 1) * self.wpr]
    }

    /// The words of row `y`, mutable. Bits past `width` must be left zero.
    ///
    /// # Panics
    /// When `y >= height`.
    pub fn row_words_mut(&mut self, y: usize) -> &mut [u64] {
        &mut self.words[y * self.wpr..(y + 1) * self.wpr]
    }

    /// The bit index of `(x, y)` in [`words`](Self::words): `y * 64 * words_per_row + x`.
    ///
    /// # Panics
    /// When the cell is off the grid; [`cell_of`](Self::cell_of) is the checked inverse.
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

    /// Sets `(x, y)`.
    ///
    /// # Panics
    /// When the cell is off the grid; [`try_set`](Self::try_set) returns an error instead.
    #[inline]
    pub fn set(&mut self, x: usize, y: usize) {
        let i = self.bit_index(x, y);
        self.words[i / 64] |= 1 << (i % 64);
    }

    /// Clears `(x, y)`.
    ///
    /// # Panics
    /// When the cell is off the grid; [`try_clear`](Self::try_clear) returns an error instead.
    #[inline]
    pub fn clear(&mut self, x: usize, y: usize) {
        let i = self.bit_index(x, y);
        self.words[i / 64] &= !(1 << (i % 64));
    }

    /// Sets `(x, y)`, or an error when the cell is off the grid.
    ///
    /// ```
    /// let mut g = gridbits::BitGrid::new(3, 3);
    /// assert!(g.try_set(2, 2).is_ok());
    /// assert!(g.try_set(3, 0).is_err());
    /// ```
    pub fn try_set(&mut self, x: usize, y: usize) -> Result<(), OffGrid> {
        OffGrid::check(x, y, self.width, self.height)?;
        self.set(x, y);
        Ok(())
    }

    /// Clears `(x, y)`, or an error when the cell is off the grid.
    pub fn try_clear(&mut self, x: usize, y: usize) -> Result<(), OffGrid> {
        OffGrid::check(x, y, self.width, self.height)?;
        self.clear(x, y);
        Ok(())
    }

    /// Sets `(x, y)` to `value`.
    ///
    /// # Panics
    /// When the cell is off the grid; [`try_set`](Self::try_set) and [`try_clear`](Self::try_clear) return an error instead.
    pub fn put(&mut self, x: usize, y: usize, value: bool) {
        if value {
            self.set(x, y)
        } else {
            self.clear(x, y)
        }
    }

    /// Number of set cells, with the widest population count this CPU has (POPCNT, AVX2 or
    /// AVX-512 VPOPCNTDQ, detected at run time).
    pub fn count(&self) -> u64 {
        popcount::count_words(&self.words)
    }

    /// Whether no cell is set.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Whether every cell is set.
    pub fn is_full(&self) -> bool {
        self.count() == (self.width * self.height) as u64
    }

    /// The first set cell in raster order (smallest `y`, then smallest `x`: the top-left
    /// one), if any. "Lowest" is the lowest bit index, not the row nearest the floor.
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
        let mut g = Self::try_full(width, height)?;
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
        let mut g = Self::try_new(width, height)?;
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
