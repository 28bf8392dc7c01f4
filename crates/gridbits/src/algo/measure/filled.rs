//! The area of every region with its holes filled: the cells of its bounding box that the
//! outside of the box cannot reach through cells of other labels (8-connected, as
//! `scipy.ndimage.binary_fill_holes` with the full 3x3 structure that skimage's
//! `area_filled` uses), one bit-parallel flood fill per region with holes possible.

use super::{index, table, LabelValue, Region};
use crate::algo::fill::try_fill;
use crate::{BitGrid, Connectivity, GridError};

/// The filled area of every region of `labels` (a `width x height` image, row-major, 0 the
/// background) given its [`Region`]s (from [`regions`](super::regions) on the same image):
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
    super::check(labels, width, height)?;
    let mut out = table(regions.len(), 0u64, (width, height))?;
    for (i, r) in regions.iter().enumerate() {
        out[i] = r.area;
        let (bw, bh) = (r.x1.saturating_sub(r.x0), r.y1.saturating_sub(r.y0));
        if r.area == 0 || bw < 3 || bh < 3 || r.area == (bw * bh) as u64 {
            continue; // no cell of the box can be enclosed
        }
        if r.x1 > width || r.y1 > height {
            return Err(crate::SizeError::new(
                "label image",
                width,
                height,
                "a region's bounding box lies off the image",
            )
            .into());
        }
        let l = i + 1;
        let outside = BitGrid::from_fn(bw, bh, |x, y| {
            index(labels[(r.y0 + y) * width + r.x0 + x]) != l
        })?;
        let mut seeds = BitGrid::try_new(bw, bh)?;
        for x in 0..bw {
            seeds.set(x, 0);
            seeds.set(x, bh - 1);
        }
        for y in 0..bh {
            seeds.set(0, y);
            seeds.set(bw - 1, y);
        }
        let reached = try_fill(&seeds, &outside, Connectivity::Eight)?;
        out[i] = (bw * bh) as u64 - reached.count();
    }
    Ok(out)
}
