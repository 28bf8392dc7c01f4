//! Region properties of a label image: the per-label accumulations behind
//! `skimage.measure.regionprops_table`, each one pass over the labels.
//!
//! A label image is a row-major slice of any unsigned integer type (`u8` to `u64`), `0` the
//! background; label `l` is the region at index `l - 1` of every result, which has one entry per
//! label up to the largest one in the image (an absent label has area 0).
//!
//! - [`regions`]: area, bounding box and the raw moments up to order 3 ([`Region`]; from them
//!   the centroid and the central moments), in one pass over the runs of equal labels;
//! - [`perimeters`]: skimage's perimeter estimator (weighted counts of border-cell
//!   configurations, [`PerimeterCounts`]);
//! - [`euler_numbers`]: the Euler number of each region from the 2x2 configurations (Ohser's
//!   coefficients, as `skimage.measure.euler_number`);
//! - [`filled_areas`]: the area of each region with its holes filled;
//! - [`intensity_stats`]: sum, minimum and maximum of an intensity image over each region.
//!
//! ```
//! use gridbits::algo::measure::{regions, perimeters, euler_numbers};
//! use gridbits::Connectivity;
//! let labels: [u32; 12] = [1, 1, 1, 0,
//!                          1, 0, 1, 2,
//!                          1, 1, 1, 2];
//! let r = regions(&labels, 4, 3, true).unwrap();
//! assert_eq!((r[0].area, r[0].bbox()), (8, (0, 0, 3, 3)));
//! assert_eq!(r[1].centroid(), (3.0, 1.5));
//! assert_eq!(euler_numbers(&labels, 4, 3, Connectivity::Eight).unwrap(), [0, 1]);
//! assert_eq!(perimeters(&labels, 4, 3).unwrap()[0].perimeter(), 8.0);
//! ```

mod euler;
mod filled;
mod intensity;
mod perimeter;
mod regions;

pub use euler::euler_numbers;
pub use filled::filled_areas;
pub use intensity::{intensity_stats, IntensityStats};
pub use perimeter::{perimeters, PerimeterCounts};
pub use regions::{regions, Region};

use crate::SizeError;

/// A label image's cell type: an unsigned integer whose value is the label.
pub trait LabelValue: Copy + Into<u64> {}
impl<T: Copy + Into<u64>> LabelValue for T {}

/// The label of a cell as an index into the tables (`label`, 0 for the background).
#[inline(always)]
fn index<T: LabelValue>(v: T) -> usize {
    v.into() as usize
}

/// Calls `f(y, start, end, label)` for every run of equal nonzero labels (`start..end` of
/// row `y`), in raster order.
#[inline(always)]
fn for_each_run<T: LabelValue>(
    labels: &[T],
    width: usize,
    height: usize,
    mut f: impl FnMut(usize, usize, usize, usize),
) {
    for y in 0..height {
        let row = &labels[y * width..(y + 1) * width];
        let mut x = 0;
        while x < width {
            let l = index(row[x]);
            let s = x;
            x += 1;
            while x < width && index(row[x]) == l {
                x += 1;
            }
            if l != 0 {
                f(y, s, x, l);
            }
        }
    }
}

/// Checks that `labels` holds `width x height` cells and returns the largest label.
fn check<T: LabelValue>(labels: &[T], width: usize, height: usize) -> Result<usize, SizeError> {
    if width.checked_mul(height) != Some(labels.len()) {
        return Err(SizeError::new(
            "label image",
            width,
            height,
            "the label slice does not hold width * height labels",
        ));
    }
    let max = labels.iter().fold(0u64, |m, &v| m.max(v.into()));
    usize::try_from(max).map_err(|_| {
        SizeError::new(
            "label image",
            width,
            height,
            "a label too large for this machine",
        )
    })
}

/// A table of `count` copies of `value`, or the [`SizeError`] of a table that cannot be had.
fn table<V: Clone>(
    count: usize,
    value: V,
    (width, height): (usize, usize),
) -> Result<Vec<V>, SizeError> {
    let mut v = Vec::new();
    let bytes = count as u128 * std::mem::size_of::<V>() as u128;
    v.try_reserve_exact(count).map_err(|_| {
        SizeError::memory(
            "label image",
            width,
            height,
            bytes,
            "not enough memory for the region table",
        )
    })?;
    v.resize(count, value);
    Ok(v)
}
