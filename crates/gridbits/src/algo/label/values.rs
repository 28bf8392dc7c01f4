//! Multi-class labelling of a value image ([`label_values`]): cells join only neighbours of
//! the same value, every value but the background is a class of its own, as
//! `skimage.measure.label` labels an integer image.
//!
//! One scan splits each row into runs of equal values and joins each run to the runs of the
//! same value it touches in the row above (the one union-find of the crate, runs numbered in
//! raster order, so that every root is the first run of its component); a second pass numbers
//! the roots and writes the labels run by run.

use super::{size_error, try_resize, Labels};
use crate::algo::runs::union_find::{flatten, union};
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
    if width.checked_mul(height) != Some(values.len()) {
        return Err(size_error(
            width,
            height,
            "the value slice does not hold width * height values",
        ));
    }
    let size = (width, height);
    let reach = usize::from(conn == Connectivity::Eight);
    // Runs of the whole image: start, end (exclusive) and union-find parent; `row_runs[y]` is
    // the index of row y's first run.
    let mut start: Vec<u32> = Vec::new();
    let mut end: Vec<u32> = Vec::new();
    let mut parent: Vec<u32> = Vec::new();
    let mut row_runs: Vec<usize> = Vec::new();
    try_resize(&mut row_runs, height + 1, 0, size, "not enough memory")?;
    let is_background = |v: T| background == Some(v);
    for y in 0..height {
        let row = &values[y * width..(y + 1) * width];
        let first = start.len();
        row_runs[y] = first;
        let mut x = 0;
        while x < width {
            let v = row[x];
            if is_background(v) {
                x += 1;
                continue;
            }
            let s = x;
            while x < width && row[x] == v {
                x += 1;
            }
            let index = start.len();
            if index >= u32::MAX as usize {
                return Err(size_error(width, height, "2^32 runs or more"));
            }
            if start.len() == start.capacity() {
                let more = start.len().max(1024);
                for v in [&mut start, &mut end, &mut parent] {
                    v.try_reserve(more).map_err(|_| {
                        super::memory_error::<u32>(width, height, 2 * more, "not enough memory")
                    })?;
                }
            }
            start.push(s as u32);
            end.push(x as u32);
            parent.push(index as u32);
        }
        if y == 0 {
            continue;
        }
        // Join the runs of this row to the touching runs of the same value above.
        let above = &values[(y - 1) * width..y * width];
        let (lo, hi) = (row_runs[y - 1], first);
        let mut j = lo;
        for i in first..start.len() {
            let (s, e) = (start[i] as usize, end[i] as usize);
            while j < hi && end[j] as usize + reach <= s {
                j += 1;
            }
            let v = row[s];
            let mut k = j;
            while k < hi && (start[k] as usize) < e + reach {
                if above[start[k] as usize] == v {
                    union(&mut parent, k as u32, i as u32);
                }
                k += 1;
            }
        }
    }
    row_runs[height] = start.len();
    flatten(&mut parent, 0);
    // Number the roots in run order (raster order of first cells); `parent` becomes the label.
    let mut count = 0u32;
    for i in 0..parent.len() {
        let p = parent[i] as usize;
        parent[i] = if p == i {
            count += 1;
            count
        } else {
            parent[p]
        };
    }
    let mut out = Labels::new();
    out.resize(width, height)?;
    let cells = out.cells_mut();
    for y in 0..height {
        let row = &mut cells[y * width..(y + 1) * width];
        for i in row_runs[y]..row_runs[y + 1] {
            row[start[i] as usize..end[i] as usize].fill(parent[i]);
        }
    }
    out.count = count;
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
