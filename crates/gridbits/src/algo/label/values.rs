//! Multi-class labelling of a value image ([`label_values`]): cells join only neighbours of
//! the same value, every value but the background is a class of its own, as
//! `skimage.measure.label` labels an integer image.
//!
//! [`label_values`] runs the multi-class run labeller ([`ValueLabeller`]: runs of equal values
//! per row, joined to the touching runs of the same value above in the one union-find of the
//! crate, labels written once in raster order).

use super::{size_error, try_resize, Labels, ValueLabeller};
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
pub fn label_values<T: Copy + PartialEq>(
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

/// Most distinct values [`label_byte_values`] labels as bit planes; with more it labels runs
/// ([`label_values`]).
pub const MAX_BYTE_PLANES: usize = 8;

/// [`label_values`] of a byte image, with the same labels: with at most
/// [`MAX_BYTE_PLANES`] distinct values (besides `background`) one bit plane per value is
/// labelled by the bit-parallel labeller ([`Labeller::label_classes`](super::Labeller::label_classes))
/// and the labels renumbered in raster order (one value: the labeller's own labels, as
/// [`label`](super::label)); otherwise, and for an empty image, the runs of [`label_values`].
///
/// Errors as [`label_values`].
///
/// ```
/// use gridbits::algo::label::{label_byte_values, label_values};
/// use gridbits::Connectivity;
/// let img: [u8; 8] = [1, 2, 2, 0,
///                     1, 0, 2, 1];
/// let fast = label_byte_values(&img, 4, 2, Some(0), Connectivity::Four).unwrap();
/// assert_eq!(fast.as_slice(), [1, 2, 2, 0, 1, 0, 2, 3]);
/// assert_eq!(fast, label_values(&img, 4, 2, Some(0), Connectivity::Four).unwrap());
/// ```
pub fn label_byte_values(
    values: &[u8],
    width: usize,
    height: usize,
    background: Option<u8>,
    conn: Connectivity,
) -> Result<Labels, SizeError> {
    if width.checked_mul(height) != Some(values.len()) || values.is_empty() {
        return label_values(values, width, height, background, conn);
    }
    let mut present = [false; 256];
    for &v in values {
        present[v as usize] = true;
    }
    if let Some(b) = background {
        present[b as usize] = false;
    }
    let classes: Vec<usize> = (0..256).filter(|&v| present[v]).collect();
    if classes.is_empty() || classes.len() > MAX_BYTE_PLANES {
        return label_values(values, width, height, background, conn);
    }
    let k = classes.len();
    let mut planes = Vec::with_capacity(k);
    for _ in 0..k {
        planes.push(crate::BitGrid::try_new(width, height)?);
    }
    // One comparison of each block of 64 values per class, into a mask (vector code).
    for y in 0..height {
        let row = &values[y * width..(y + 1) * width];
        for (w, chunk) in row.chunks(64).enumerate() {
            for (plane, &v) in planes.iter_mut().zip(&classes) {
                plane.row_words_mut(y)[w] = equal_mask(chunk, v as u8);
            }
        }
    }
    let mut out = Labels::new();
    if let [plane] = planes.as_slice() {
        // One value: the labeller's own raster order, on every core for large images.
        super::Labeller::new().label(plane, conn, &mut out)?;
        return Ok(out);
    }
    super::Labeller::new().label_classes(&planes, conn, &mut out)?;
    drop(planes);
    // Class by class to raster order of first cells: a label's new number is given when the
    // scan first meets it (unnumbered labels are `u32::MAX`; the background stays 0, so the
    // loop has no branch per cell but the one, rarely taken, for a new label).
    let mut renumber: Vec<u32> = Vec::new();
    try_resize(
        &mut renumber,
        out.count as usize + 1,
        u32::MAX,
        (width, height),
        "not enough memory",
    )?;
    renumber[0] = 0;
    let mut next = 0;
    for c in &mut out.cells_mut()[..width * height] {
        let mut m = renumber[*c as usize];
        if m == u32::MAX {
            next += 1;
            m = next;
            renumber[*c as usize] = m;
        }
        *c = m;
    }
    Ok(out)
}

/// Bit `i` set where `chunk[i] == value` (`chunk` at most 64 values).
#[inline]
fn equal_mask(chunk: &[u8], value: u8) -> u64 {
    if let Ok(full) = <&[u8; 64]>::try_from(chunk) {
        let mut word = 0u64;
        for (bit, &v) in full.iter().enumerate() {
            word |= u64::from(v == value) << bit;
        }
        return word;
    }
    let mut word = 0u64;
    for (bit, &v) in chunk.iter().enumerate() {
        word |= u64::from(v == value) << bit;
    }
    word
}
