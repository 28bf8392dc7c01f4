//! The area of every region with its holes filled: the cells of its bounding box that the
//! outside of the box cannot reach through cells of other labels (8-connected, as
//! `scipy.ndimage.binary_fill_holes` with the full 3x3 structure that skimage's
//! `area_filled` uses). The box's cells of other labels become a bit grid (a vectorized
//! compare per block of 64 cells); a region whose grid has no cell that can start a hole
//! is done there, the others take one bit-parallel flood fill from the box's border.

use super::{check_len, table, LabelValue, Region};
use crate::algo::fill::try_fill;
use crate::{BitGrid, Connectivity, GridError, SizeError};

/// The filled area of every region of `labels` (a `width x height` image, row-major, 0 the
/// background) given its [`Region`]s (from [`regions`](fn@super::regions) on the same image):
/// `result[label - 1]`.
///
/// Errors when `labels.len()` is not `width * height`, `regions` does not fit the image, or
/// memory cannot be had.
///
/// ```
/// use gridbits::algo::measure::{filled_areas, regions};
/// let ring: [u8; 12] = [1, 1, 1, 0,
///                       1, 2, 1, 0,
///                       1, 1, 1, 0];
/// let r = regions(&ring, 4, 3, false).unwrap();
/// assert_eq!(filled_areas(&ring, 4, 3, &r).unwrap(), [9, 1]);
/// ```
pub fn filled_areas<T: LabelValue>(
    labels: &[T],
    width: usize,
    height: usize,
    regions: &[Region],
) -> Result<Vec<u64>, GridError> {
    check_len(labels, width, height)?;
    let mut out = table(regions.len(), 0u64, (width, height))?;
    for (i, r) in regions.iter().enumerate() {
        out[i] = filled_area(labels, width, height, i as u64 + 1, r.area, r.bbox())?;
    }
    Ok(out)
}

/// The filled area of the region of label `label` (`area` cells, bounding box `(x0, y0, x1,
/// y1)`, ends exclusive) of `labels` (a `width x height` image, row-major): its area and the
/// cells of its box that the box's border cannot reach through cells of other labels,
/// 8-connected.
///
/// Errors when `labels.len()` is not `width * height`, the box lies off the image, or memory
/// cannot be had.
///
/// ```
/// use gridbits::algo::measure::filled_area;
/// let ring: [u8; 9] = [1, 1, 1,
///                      1, 0, 1,
///                      1, 1, 1];
/// assert_eq!(filled_area(&ring, 3, 3, 1, 8, (0, 0, 3, 3)).unwrap(), 9);
/// ```
pub fn filled_area<T: LabelValue>(
    labels: &[T],
    width: usize,
    height: usize,
    label: u64,
    area: u64,
    (x0, y0, x1, y1): (usize, usize, usize, usize),
) -> Result<u64, GridError> {
    check_len(labels, width, height)?;
    if x0 > x1 || y0 > y1 || x1 > width || y1 > height {
        return Err(SizeError::new(
            "label image",
            width,
            height,
            "a region's bounding box lies off the image",
        )
        .into());
    }
    let (bw, bh) = (x1 - x0, y1 - y0);
    if area == 0 || bw < 3 || bh < 3 || area == (bw * bh) as u64 {
        return Ok(area); // no cell of the box can be enclosed
    }
    // The box's cells of other labels.
    let mut outside = BitGrid::try_new(bw, bh)?;
    for y in 0..bh {
        let row = &labels[(y0 + y) * width + x0..(y0 + y) * width + x1];
        for (word, cells) in outside.row_words_mut(y).iter_mut().zip(row.chunks(64)) {
            let mut m = 0u64;
            for (i, v) in cells.iter().enumerate() {
                m |= u64::from(v.label() != label) << i;
            }
            *word = m;
        }
    }
    if !may_enclose(&outside) {
        return Ok(area);
    }
    let mut seeds = BitGrid::try_new(bw, bh)?;
    for y in [0, bh - 1] {
        seeds.row_words_mut(y).copy_from_slice(outside.row_words(y));
    }
    for y in 1..bh - 1 {
        for x in [0, bw - 1] {
            if outside.get(x, y) {
                seeds.set(x, y);
            }
        }
    }
    let reached = try_fill(&seeds, &outside, Connectivity::Eight)?;
    Ok((bw * bh) as u64 - reached.count())
}

/// Whether a box's grid of cells of other labels (`outside`, at least 3x3) has a cell that
/// can be the first, in raster order, of a hole: off the box's border, with its left,
/// upper-left, upper and upper-right neighbours in the region (the first cell of a hole
/// has them so: they come before it, so they are not of the hole, and a hole's neighbours
/// are of the hole or of the region). Without one, the region encloses nothing.
fn may_enclose(outside: &BitGrid) -> bool {
    let (bw, bh) = (outside.width(), outside.height());
    let wpr = outside.words_per_row();
    for y in 1..bh - 1 {
        let (up, cur) = (outside.row_words(y - 1), outside.row_words(y));
        for k in 0..wpr {
            // Bit x of `left(v)`: cell x - 1 of `v`; of `right(v)`: cell x + 1.
            let left = |v: &[u64]| (v[k] << 1) | k.checked_sub(1).map_or(0, |j| v[j] >> 63);
            let right = |v: &[u64]| (v[k] >> 1) | v.get(k + 1).map_or(0, |&w| w << 63);
            let region = !(left(cur) | left(up) | up[k] | right(up));
            // Columns 1 to bw - 2 of this word.
            let lo = if k == 0 { !1u64 } else { !0 };
            let end = bw - 1 - 64 * k; // columns below bw - 1, from this word's first
            let hi = if end >= 64 { !0 } else { (1u64 << end) - 1 };
            if cur[k] & region & lo & hi != 0 {
                return true;
            }
        }
    }
    false
}
