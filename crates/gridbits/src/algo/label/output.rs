//! Label images written into caller buffers, as array libraries want them.

use super::Labels;
use crate::grid::check_image;
use crate::ImageError;

impl Labels {
    /// Writes the labels into `out` as `i32`s, row `y` from `out[y * stride]` (`stride`
    /// elements per row, `>= width`; elements between rows are left as they are): `0` for
    /// background and `1..=count` for the components in raster order of their first cell,
    /// the array `scipy.ndimage.label` returns as `int32`. A straight conversion loop the
    /// compiler vectorises (each row is a copy).
    ///
    /// # Errors
    /// [`ImageError::Stride`] when `stride < width`, [`ImageError::TooShort`] when `out`
    /// cannot hold the rows (the last needs only `width` elements),
    /// [`ImageError::ValueTooLarge`] when there are more than `i32::MAX` components. Nothing
    /// is written then.
    ///
    /// ```
    /// use gridbits::algo::label::label;
    /// use gridbits::{BitGrid, Connectivity};
    /// let g = BitGrid::parse("#.#\n#..\n").unwrap();
    /// let labels = label(&g, Connectivity::Four).unwrap();
    /// let mut out = [-7i32; 8]; // stride 4: one spare element per row
    /// labels.write_i32(&mut out, 4).unwrap();
    /// assert_eq!(out, [1, 0, 2, -7, 1, 0, 0, -7]);
    /// assert!(labels.write_i32(&mut [0; 5], 3).is_err());
    /// ```
    pub fn write_i32(&self, out: &mut [i32], stride: usize) -> Result<(), ImageError> {
        if self.count() > i32::MAX as u32 {
            return Err(ImageError::ValueTooLarge {
                value: self.count().into(),
                max: i32::MAX as u64,
            });
        }
        write_rows(self, out, stride, |v| v as i32)
    }

    /// Writes the labels into `out` as `u32`s, row `y` from `out[y * stride]`, as
    /// [`write_i32`](Self::write_i32) does (the form with no limit on the count).
    ///
    /// # Errors
    /// [`ImageError::Stride`] or [`ImageError::TooShort`] when `out` cannot hold the rows.
    pub fn write_u32(&self, out: &mut [u32], stride: usize) -> Result<(), ImageError> {
        write_rows(self, out, stride, |v| v)
    }
}

/// Writes every row of `labels` converted by `f` into `out` at `stride`.
fn write_rows<T>(
    labels: &Labels,
    out: &mut [T],
    stride: usize,
    f: impl Fn(u32) -> T,
) -> Result<(), ImageError> {
    let (w, h) = (labels.width(), labels.height());
    check_image(out.len(), w, h, stride)?;
    if w == 0 {
        return Ok(());
    }
    for (y, src) in labels.as_slice().chunks_exact(w).enumerate() {
        let dst = &mut out[y * stride..y * stride + w];
        for (o, &v) in dst.iter_mut().zip(src) {
            *o = f(v);
        }
    }
    Ok(())
}
