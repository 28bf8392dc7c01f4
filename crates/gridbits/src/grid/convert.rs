//! Conversions of a [`BitGrid`]: the text format (`FromStr`, `Display`), `bool` slices and
//! byte images.

use super::pack::{self, ByteKernel, Rows};
use super::BitGrid;
use crate::error::check_image;
use crate::error::SizeMismatch;
use crate::text::{CharGrid, ParseError, ParseErrorKind};
use crate::{ImageError, SizeError};
use std::fmt;

/// Elements of a generic row tested per chunk into a byte buffer before packing (a multiple
/// of 64, so that chunks start on word boundaries).
const SLICE_CHUNK: usize = 1024;

/// Packs one row of elements into words: bit `x` is set where `is_set(row[x])`. The
/// predicate writes bytes (a loop the compiler can vectorise for simple tests), which the byte
/// kernel packs.
fn pack_row<T: Copy>(kernel: ByteKernel, row: &[T], out: &mut [u64], is_set: impl Fn(T) -> bool) {
    let mut buf = [0u8; SLICE_CHUNK];
    for (chunk, words) in row
        .chunks(SLICE_CHUNK)
        .zip(out.chunks_mut(SLICE_CHUNK / 64))
    {
        for (b, &v) in buf.iter_mut().zip(chunk) {
            *b = u8::from(is_set(v));
        }
        let rows = Rows {
            width: chunk.len(),
            height: 1,
            stride: chunk.len(),
        };
        pack::pack(kernel, &buf[..chunk.len()], rows, 0, words);
    }
}

impl BitGrid {
    /// Parses a text grid: `.` empty, any other printable character set. Errors name the line
    /// and column. The same as `text.parse::<BitGrid>()`.
    ///
    /// ```
    /// use gridbits::BitGrid;
    /// let g = BitGrid::parse("#.\n.#\n").unwrap();
    /// assert_eq!(g.count(), 2);
    /// let err = BitGrid::parse("#.\n.\n").unwrap_err();
    /// assert_eq!((err.line, err.column), (2, 2));
    /// ```
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
        let mut g = Self::try_new(grid.width(), grid.height())?;
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
    /// [`parse`](Self::parse) reads it back. Allocates `(width + 1) * height` bytes like
    /// `String` (8 times the grid's memory); [`try_to_text`](Self::try_to_text) returns an
    /// error instead of aborting, and `write!(out, "{grid}")` streams a row at a time.
    pub fn to_text(&self) -> String {
        crate::render_text(self, '#', '.')
    }

    /// [`to_text`](Self::to_text) with the text's memory reserved first: a [`SizeError`]
    /// instead of an abort when it cannot be had.
    ///
    /// ```
    /// use gridbits::BitGrid;
    /// let g = BitGrid::parse("#.\n.#\n").unwrap();
    /// assert_eq!(g.try_to_text().unwrap(), "#.\n.#\n");
    /// ```
    pub fn try_to_text(&self) -> Result<String, SizeError> {
        let (w, h) = (self.width, self.height);
        let bytes = (w as u128 + 1) * h as u128;
        let mut out = crate::error::try_vec::<u8>("text", w, h, bytes)?;
        for y in 0..h {
            out.extend((0..w).map(|x| if self.get(x, y) { b'#' } else { b'.' }));
            out.push(b'\n');
        }
        // Only ASCII bytes were written.
        Ok(String::from_utf8(out).unwrap_or_default())
    }

    /// A grid from `width * height` booleans in row-major order (row 0 first). A `bool` is a
    /// byte holding 0 or 1, so this runs the byte kernels of [`from_bytes`](Self::from_bytes)
    /// (a numpy `bool` array is such a buffer).
    ///
    /// # Errors
    /// [`ImageError::Size`] for a zero or too large size, [`ImageError::TooShort`] or
    /// [`ImageError::WrongLength`] unless `cells.len() == width * height`.
    ///
    /// ```
    /// use gridbits::BitGrid;
    /// let g = BitGrid::from_bools(&[true, false, false, true], 2, 2).unwrap();
    /// assert_eq!(g.to_string(), "#.\n.#\n");
    /// assert!(BitGrid::from_bools(&[true; 3], 2, 2).is_err());
    /// ```
    pub fn from_bools(cells: &[bool], width: usize, height: usize) -> Result<Self, ImageError> {
        // SAFETY: `bool` has the size and alignment of `u8`, and its two values (0 and 1) are
        // valid `u8`s; the new slice covers exactly the memory of `cells`, borrowed as long.
        let bytes = unsafe { std::slice::from_raw_parts(cells.as_ptr().cast::<u8>(), cells.len()) };
        let g = Self::from_bytes(bytes, width, height, width, 0)?;
        if cells.len() != width * height {
            return Err(ImageError::WrongLength {
                expected: width * height,
                found: cells.len(),
            });
        }
        Ok(g)
    }

    /// A grid from a byte image: `height` rows of `width` bytes, each row starting `stride`
    /// bytes after the previous one (`stride >= width`; padding bytes are ignored). A cell is
    /// set where its byte is greater than `threshold` (`0` for "nonzero").
    ///
    /// Runs the fastest [`ByteKernel`] of this CPU (AVX-512, AVX2, SSE2 or portable SWAR,
    /// detected once at run time): a small share of the time of labelling the image (larger
    /// images run at the memory bandwidth; figures in docs/benchmarks.md). Any
    /// width, stride and start address. To label a byte image, [`ByteImage`] and
    /// [`Labeller::label_bytes`](crate::algo::label::Labeller::label_bytes) skip this
    /// packing pass.
    ///
    /// [`ByteImage`]: super::ByteImage
    ///
    /// # Errors
    /// [`ImageError::Size`] for a zero or too large size, [`ImageError::Stride`] when
    /// `stride < width`, [`ImageError::TooShort`] when `pixels` does not hold every row (the
    /// last row needs only `width` bytes).
    ///
    /// ```
    /// use gridbits::BitGrid;
    /// // Two rows of 3 pixels, stride 4 (one padding byte per row).
    /// let pixels = [0, 200, 90, 7, 255, 0, 128, 7];
    /// let g = BitGrid::from_bytes(&pixels, 3, 2, 4, 100).unwrap();
    /// assert_eq!(g.to_string(), ".#.\n#.#\n");
    /// let nonzero = BitGrid::from_bytes(&pixels, 3, 2, 4, 0).unwrap();
    /// assert_eq!(nonzero.to_string(), ".##\n#.#\n");
    /// ```
    pub fn from_bytes(
        pixels: &[u8],
        width: usize,
        height: usize,
        stride: usize,
        threshold: u8,
    ) -> Result<Self, ImageError> {
        Self::from_bytes_with(ByteKernel::best(), pixels, width, height, stride, threshold)
    }

    /// [`from_bytes`](Self::from_bytes) with a chosen kernel (for tests and benchmarks; a
    /// kernel this CPU lacks runs as [`ByteKernel::Portable`]). Every kernel gives the same
    /// grid.
    ///
    /// # Errors
    /// As [`from_bytes`](Self::from_bytes).
    pub fn from_bytes_with(
        kernel: ByteKernel,
        pixels: &[u8],
        width: usize,
        height: usize,
        stride: usize,
        threshold: u8,
    ) -> Result<Self, ImageError> {
        let mut g = Self::try_new(width, height)?;
        check_image(pixels.len(), width, height, stride)?;
        let rows = Rows {
            width,
            height,
            stride,
        };
        pack::pack(kernel, pixels, rows, threshold, &mut g.words);
        Ok(g)
    }

    /// A grid from any strided image of `T`: a cell is set where `is_set(value)`. The general
    /// form of [`from_bytes`](Self::from_bytes) for other pixel types (`u16`, `i32`, `f32`,
    /// ...): the predicate fills a small byte buffer per chunk of a row (a loop the compiler
    /// vectorises for simple tests such as `|v| v != 0`), which the byte kernel packs.
    ///
    /// # Errors
    /// As [`from_bytes`](Self::from_bytes), with sizes in elements.
    ///
    /// ```
    /// use gridbits::BitGrid;
    /// let depth = [0.0f32, 0.5, 1.5, 0.2];
    /// let g = BitGrid::from_slice(&depth, 2, 2, 2, |d| d > 0.3).unwrap();
    /// assert_eq!(g.to_string(), ".#\n#.\n");
    /// ```
    pub fn from_slice<T: Copy>(
        pixels: &[T],
        width: usize,
        height: usize,
        stride: usize,
        is_set: impl Fn(T) -> bool,
    ) -> Result<Self, ImageError> {
        let mut g = Self::try_new(width, height)?;
        check_image(pixels.len(), width, height, stride)?;
        let rows = Rows {
            width,
            height,
            stride,
        };
        let (kernel, wpr) = (ByteKernel::best(), g.wpr);
        for (y, out) in g.words.chunks_exact_mut(wpr).enumerate() {
            pack_row(kernel, rows.row(pixels, y), out, &is_set);
        }
        Ok(g)
    }

    /// The cells as `width * height` booleans in row-major order (8 times the grid's memory,
    /// allocated like `Vec`: [`write_bytes`](Self::write_bytes) into a buffer of your own is
    /// the form that never allocates).
    pub fn to_bools(&self) -> Vec<bool> {
        let mut out = Vec::with_capacity(self.width * self.height);
        self.extend_bools(&mut out);
        out
    }

    /// [`to_bools`](Self::to_bools) with the memory reserved first: a [`SizeError`] instead
    /// of an abort when it cannot be had.
    ///
    /// ```
    /// use gridbits::BitGrid;
    /// let g = BitGrid::parse("#.\n").unwrap();
    /// assert_eq!(g.try_to_bools().unwrap(), [true, false]);
    /// ```
    pub fn try_to_bools(&self) -> Result<Vec<bool>, SizeError> {
        let (w, h) = (self.width, self.height);
        let mut out = crate::error::try_vec("cell list", w, h, w as u128 * h as u128)?;
        self.extend_bools(&mut out);
        Ok(out)
    }

    /// Appends the cells, row-major, to `out`.
    fn extend_bools(&self, out: &mut Vec<bool>) {
        for y in 0..self.height {
            out.extend((0..self.width).map(|x| self.get(x, y)));
        }
    }

    /// Writes the cells into a byte image of `stride` bytes per row: `set` for a set cell,
    /// `empty` for an empty one; padding bytes are left as they are. Runs the fastest
    /// [`ByteKernel`] of this CPU, as [`from_bytes`](Self::from_bytes).
    ///
    /// # Errors
    /// [`ImageError::Stride`] when `stride < width`, [`ImageError::TooShort`] when `out`
    /// cannot hold the rows (the last row needs only `width` bytes); nothing is written then.
    ///
    /// ```
    /// use gridbits::BitGrid;
    /// let g: BitGrid = "#.\n.#\n".parse().unwrap();
    /// let mut img = [9u8; 6];
    /// g.write_bytes(&mut img, 3, 255, 0).unwrap();
    /// assert_eq!(img, [255, 0, 9, 0, 255, 9]);
    /// ```
    pub fn write_bytes(
        &self,
        out: &mut [u8],
        stride: usize,
        set: u8,
        empty: u8,
    ) -> Result<(), ImageError> {
        self.write_bytes_with(ByteKernel::best(), out, stride, set, empty)
    }

    /// [`write_bytes`](Self::write_bytes) with a chosen kernel (a kernel this CPU lacks runs
    /// as [`ByteKernel::Portable`]). Every kernel writes the same bytes.
    ///
    /// # Errors
    /// As [`write_bytes`](Self::write_bytes).
    pub fn write_bytes_with(
        &self,
        kernel: ByteKernel,
        out: &mut [u8],
        stride: usize,
        set: u8,
        empty: u8,
    ) -> Result<(), ImageError> {
        check_image(out.len(), self.width, self.height, stride)?;
        let rows = Rows {
            width: self.width,
            height: self.height,
            stride,
        };
        pack::unpack(kernel, &self.words, rows, set, empty, out);
        Ok(())
    }

    /// Writes rows `y0..y0 + n` of the grid into the byte rows of `out` (`stride` bytes
    /// apart, row `y0` into the first): `set` for a set cell, `empty` for an empty one, with
    /// the fastest [`ByteKernel`]. The caller checked that `out` holds `n` rows of `width`
    /// bytes.
    ///
    /// # Panics
    /// When rows `y0..y0 + n` are not all in the grid, or `out` is too short.
    pub(crate) fn write_rows_bytes(
        &self,
        y0: usize,
        n: usize,
        out: &mut [u8],
        stride: usize,
        (set, empty): (u8, u8),
    ) {
        let rows = Rows {
            width: self.width,
            height: n,
            stride,
        };
        let words = &self.words[y0 * self.wpr..(y0 + n) * self.wpr];
        pack::unpack(ByteKernel::best(), words, rows, set, empty, out);
    }

    /// Copies `other` into `self`, or an error when the sizes differ.
    pub fn try_copy_from(&mut self, other: &Self) -> Result<(), SizeMismatch> {
        self.check_same_size(other)?;
        self.words.copy_from_slice(&other.words);
        Ok(())
    }
}

impl std::str::FromStr for BitGrid {
    type Err = ParseError;

    /// Parses the text format, as [`BitGrid::parse`].
    fn from_str(s: &str) -> Result<Self, ParseError> {
        BitGrid::parse(s)
    }
}

impl fmt::Display for BitGrid {
    /// The text format, as [`BitGrid::to_text`]: `#` set, `.` empty, a `\n` after each row.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = String::with_capacity(self.width + 1);
        for y in 0..self.height {
            line.clear();
            line.extend((0..self.width).map(|x| if self.get(x, y) { '#' } else { '.' }));
            line.push('\n');
            f.write_str(&line)?;
        }
        Ok(())
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
            fmt::Display::fmt(self, f)?;
        }
        Ok(())
    }
}
