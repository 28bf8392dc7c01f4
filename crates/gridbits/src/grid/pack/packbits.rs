//! Rows already packed eight pixels per byte, most significant bit first, as
//! `numpy.packbits` gives them (its default `bitorder="big"`).

use super::Rows;
use crate::error::check_image;
use crate::grid::{tail_mask, BitGrid, ImageError};

/// One word of a row from up to 8 packed bytes, first pixel in the top bit of the first byte:
/// read big-endian, the first pixel is bit 63, and reversing the bits makes it bit 0.
#[inline(always)]
fn word_of(bytes: [u8; 8]) -> u64 {
    u64::from_be_bytes(bytes).reverse_bits()
}

impl BitGrid {
    /// A grid from rows packed eight pixels per byte, the first pixel of each byte in its
    /// most significant bit: what `numpy.packbits(image, axis=1)` returns for a 2D boolean
    /// image. Each row takes `width.div_ceil(8)` bytes and starts `row_bytes` bytes after the
    /// previous one (`row_bytes >= width.div_ceil(8)`); the bits past `width` in a row's last
    /// byte, and any padding bytes, are ignored. A byte swap and a bit reversal per 64 cells.
    ///
    /// # Errors
    /// [`ImageError::Size`] for a zero or too large size, [`ImageError::Stride`] when
    /// `row_bytes` is shorter than a packed row and [`ImageError::TooShort`] when `bytes` does
    /// not hold every row (both in bytes).
    ///
    /// ```
    /// use gridbits::BitGrid;
    /// // numpy.packbits([[1, 0, 1], [0, 1, 1]], axis=1) == [[0b1010_0000], [0b0110_0000]]
    /// let g = BitGrid::from_packbits(&[0b1010_0000, 0b0110_0111], 3, 2, 1).unwrap();
    /// assert_eq!(g.to_string(), "#.#\n.##\n");
    /// assert!(BitGrid::from_packbits(&[0], 9, 1, 1).is_err());
    /// ```
    pub fn from_packbits(
        bytes: &[u8],
        width: usize,
        height: usize,
        row_bytes: usize,
    ) -> Result<Self, ImageError> {
        let mut g = Self::try_new(width, height)?;
        let rows = Rows {
            width: width.div_ceil(8),
            height,
            stride: row_bytes,
        };
        check_image(bytes.len(), rows.width, height, row_bytes)?;
        let tail = tail_mask(width);
        for (y, out) in g.words.chunks_exact_mut(g.wpr).enumerate() {
            let (full, rest) = rows.row(bytes, y).as_chunks::<8>();
            for (o, c) in out.iter_mut().zip(full) {
                *o = word_of(*c);
            }
            if !rest.is_empty() {
                let mut buf = [0u8; 8];
                buf[..rest.len()].copy_from_slice(rest);
                out[full.len()] = word_of(buf);
            }
            if let Some(last) = out.last_mut() {
                *last &= tail;
            }
        }
        Ok(g)
    }

    /// Writes the grid packed eight cells per byte, first cell in the most significant bit
    /// (what `numpy.unpackbits(out, axis=1, count=width)` reads back): row `y` takes the
    /// `width.div_ceil(8)` bytes from `y * row_bytes`; the bits past `width` in its last byte
    /// are zero, padding bytes are left as they are. The inverse of
    /// [`from_packbits`](Self::from_packbits).
    ///
    /// # Errors
    /// [`ImageError::Stride`] or [`ImageError::TooShort`] (in bytes) when `out` cannot hold
    /// the rows; nothing is written then.
    ///
    /// ```
    /// use gridbits::BitGrid;
    /// let g = BitGrid::parse("#.#\n.##\n").unwrap();
    /// let mut out = [0xffu8; 4];
    /// g.write_packbits(&mut out, 2).unwrap();
    /// assert_eq!(out, [0b1010_0000, 0xff, 0b0110_0000, 0xff]);
    /// ```
    pub fn write_packbits(&self, out: &mut [u8], row_bytes: usize) -> Result<(), ImageError> {
        let rows = Rows {
            width: self.width.div_ceil(8),
            height: self.height,
            stride: row_bytes,
        };
        check_image(out.len(), rows.width, self.height, row_bytes)?;
        for (y, src) in self.words.chunks_exact(self.wpr).enumerate() {
            let (full, rest) = rows.row_mut(out, y).as_chunks_mut::<8>();
            let n = full.len();
            for (c, &w) in full.iter_mut().zip(src) {
                *c = w.reverse_bits().to_be_bytes();
            }
            if !rest.is_empty() {
                let b = src[n].reverse_bits().to_be_bytes();
                rest.copy_from_slice(&b[..rest.len()]);
            }
        }
        Ok(())
    }
}
