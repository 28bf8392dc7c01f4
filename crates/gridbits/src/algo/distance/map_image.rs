//! Distance maps written into caller buffers, as array libraries want them.

use super::DistanceMap;
use crate::grid::check_image;
use crate::ImageError;

impl DistanceMap {
    /// Writes the distances into `out` as `i32`s, `-1` for unreachable cells, row `y` from
    /// `out[y * stride]` (`stride` elements per row, `>= width`; elements between rows are
    /// left as they are): the `int32` array a numpy user expects. The stored
    /// [`UNREACHABLE`](Self::UNREACHABLE) is `u32::MAX`, whose `i32` bits are `-1`, so each
    /// row is a straight conversion loop the compiler vectorises (a copy).
    ///
    /// # Errors
    /// [`ImageError::Stride`] when `stride < width`, [`ImageError::TooShort`] when `out`
    /// cannot hold the rows (the last needs only `width` elements),
    /// [`ImageError::ValueTooLarge`] when a distance is above `i32::MAX` (only possible on
    /// maps of more than 2^31 cells, which are then checked). Nothing is written then.
    ///
    /// ```
    /// use gridbits::algo::distance::distance_map;
    /// use gridbits::{BitGrid, Moves};
    /// let free = BitGrid::parse("##.#\n").unwrap();
    /// let mut start = BitGrid::new(4, 1);
    /// start.set(0, 0);
    /// let d = distance_map(&start, &free, Moves::Four, None);
    /// let mut out = [0i32; 4];
    /// d.write_i32(&mut out, 4).unwrap();
    /// assert_eq!(out, [0, 1, -1, -1]);
    /// assert!(d.write_i32(&mut out[..3], 4).is_err());
    /// ```
    pub fn write_i32(&self, out: &mut [i32], stride: usize) -> Result<(), ImageError> {
        let (w, h) = (self.width(), self.height());
        check_image(out.len(), w, h, stride)?;
        // A finite distance is below the number of cells: BFS adds a cell per layer at least.
        if w.saturating_mul(h) > i32::MAX as usize {
            if let Some(max) = self.max().filter(|&m| m > i32::MAX as u32) {
                return Err(ImageError::ValueTooLarge {
                    value: max.into(),
                    max: i32::MAX as u64,
                });
            }
        }
        if w == 0 {
            return Ok(());
        }
        for (y, src) in self.as_slice().chunks_exact(w).enumerate() {
            let dst = &mut out[y * stride..y * stride + w];
            for (o, &d) in dst.iter_mut().zip(src) {
                // UNREACHABLE (u32::MAX) becomes -1; finite distances fit (checked above).
                *o = d as i32;
            }
        }
        Ok(())
    }
}
