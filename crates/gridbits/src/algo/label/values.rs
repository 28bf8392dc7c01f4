//! Multi-class labelling of a value image ([`label_values`]): cells join only neighbours of
//! the same value, every value but the background is a class of its own, as
//! `skimage.measure.label` labels an integer image.
//!
//! [`label_values`] runs the multi-class run labeller ([`ValueLabeller`]: runs of equal values
//! per row, joined to the touching runs of the same value above in the one union-find of the
//! crate, labels written once in raster order).

use super::{size_error, Labels, ValueLabeller};
use crate::{Connectivity, SizeError};

/// Labels the value image `values` (`width x height`, row-major): two neighbouring cells (under
/// `conn`) are in one component when their values are equal; cells whose value is
/// `background` are label 0 (with `None` every cell is labelled). Components are numbered
/// `1..=n` in raster order of their first cell, as [`label`](super::label) numbers them and as
/// `skimage.measure.label` does.
///
/// Errors when `values.len()` is not `width * height`, when memory for the runs or the image
/// cannot be had, or when the image has 2^32 runs or more.
///
/// ```
/// use gridbits::algo::label::label_values;
/// use gridbits::Connectivity;
/// let img = [1, 1, 2,
///            0, 2, 2,
///            2, 0, 1];
/// let labels = label_values(&img, 3, 3, Some(0), Connectivity::Four).unwrap();
/// assert_eq!(labels.as_slice(), [1, 1, 2, 0, 2, 2, 3, 0, 4]);
/// // With 8-connectivity the 2 at the bottom left joins the 2s above it diagonally.
/// let labels = label_values(&img, 3, 3, Some(0), Connectivity::Eight).unwrap();
/// assert_eq!(labels.as_slice(), [1, 1, 2, 0, 2, 2, 2, 0, 3]);
/// // Without a background the 0s are a class too.
/// assert_eq!(label_values(&img, 3, 3, None, Connectivity::Four).unwrap().count(), 6);
/// ```
pub fn label_values<T: Copy + PartialEq + Send + Sync + 'static>(
    values: &[T],
    width: usize,
    height: usize,
    background: Option<T>,
    conn: Connectivity,
) -> Result<Labels, SizeError> {
    let mut out = Labels::new();
    if width.checked_mul(height) != Some(values.len()) {
        return Err(size_error(
            width,
            height,
            "the value slice does not hold width * height values",
        ));
    }
    let cells = out.resize_uninit(width, height)?;
    let count =
        ValueLabeller::new().label_uninit(values, width, height, background, conn, cells)?;
    // SAFETY: `resize_uninit(width, height)` just above, and `label_uninit` returned Ok: it
    // wrote the first `width * height` cells.
    unsafe { out.set_written(width, height, count) };
    Ok(out)
}
