//! Region properties of a label image: the per-label accumulations behind
//! `skimage.measure.regionprops_table`, each one pass over the labels.
//!
//! A label image is a row-major slice of any integer type (`u8` to `u64`, `i8` to `i64`),
//! `0` and negative values the background; label `l` is the region at index `l - 1` of every result, which has one entry per
//! label up to the largest one in the image (an absent label has area 0).
//!
//! - [`regions`](fn@regions): area, bounding box and the raw moments up to order 3
//!   ([`Region`]; from them the centroid and the central moments), in one pass over the runs of equal labels;
//!   [`region_boxes`] the same pass without the moments, to a compact table ([`RegionBox`]);
//! - [`perimeters`]: skimage's perimeter estimator (weighted counts of border-cell
//!   configurations, [`PerimeterCounts`]);
//! - [`euler_numbers`]: the Euler number of each region from the 2x2 configurations (Ohser's
//!   coefficients, as `skimage.measure.euler_number`);
//! - [`filled_areas`] ([`filled_area`] of one region): the area of each region with its
//!   holes filled;
//! - [`perimeters_and_euler_numbers`]: both from one pass of label compares;
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
mod neighbours;
mod perimeter;
mod regions;
mod scan;

pub use euler::euler_numbers;
pub use filled::{filled_area, filled_areas};
pub use intensity::{intensity_stats, IntensityStats, IntensityValue};
pub use perimeter::{perimeters, PerimeterCounts};
pub use regions::{region_boxes, regions, Region, RegionBox};

use crate::SizeError;

/// [`perimeters`] and [`euler_numbers`] (regions joined under `conn`) of one label image
/// from one pass of label compares (the masks of equal neighbours both read).
///
/// Errors when `labels.len()` is not `width * height` or memory cannot be had.
///
/// ```
/// use gridbits::algo::measure::perimeters_and_euler_numbers;
/// use gridbits::Connectivity;
/// let ring = [1u8, 1, 1, 1, 0, 1, 1, 1, 1];
/// let (p, e) = perimeters_and_euler_numbers(&ring, 3, 3, Connectivity::Eight).unwrap();
/// assert_eq!((p[0].perimeter(), e[0]), (8.0, 0));
/// ```
#[allow(clippy::type_complexity)]
pub fn perimeters_and_euler_numbers<T: LabelValue>(
    labels: &[T],
    width: usize,
    height: usize,
    conn: crate::Connectivity,
) -> Result<(Vec<PerimeterCounts>, Vec<i64>), SizeError> {
    check_len(labels, width, height)?;
    let masks = neighbours::Neighbours::new(labels, width, height)?;
    // One entry per label up to the largest, which the Euler pass meets (no pass for it).
    let e = euler::counts(&masks, labels, width, conn)?;
    let out = table(e.len(), PerimeterCounts::default(), (width, height))?;
    let p = perimeter::counts(&masks, labels, width, out)?;
    Ok((p, e))
}

/// A label image's cell type: an integer whose value is the label. Negative values (of the
/// signed types) are background, as skimage and scipy ignore them.
pub trait LabelValue: Copy + PartialEq + 'static {
    /// The label, 0 for the background (and for a negative value).
    fn label(self) -> u64;
}

macro_rules! label_value {
    ($($t:ty),*; $($s:ty),*) => {
        $(impl LabelValue for $t {
            #[inline(always)]
            fn label(self) -> u64 {
                u64::from(self)
            }
        })*
        $(impl LabelValue for $s {
            #[inline(always)]
            fn label(self) -> u64 {
                self.max(0) as u64
            }
        })*
    };
}
label_value!(bool, u8, u16, u32, u64; i8, i16, i32, i64);

/// The label of a cell as an index into the tables (`label`, 0 for the background).
#[inline(always)]
fn index<T: LabelValue>(v: T) -> usize {
    v.label() as usize
}

/// Bit `i` set where `cells[i]` is of a region (`cells` at most 64 labels): one loop the
/// compiler vectorizes.
#[inline(always)]
fn nonzero_mask<T: LabelValue>(cells: &[T]) -> u64 {
    let mut set = 0u64;
    for (i, v) in cells.iter().enumerate() {
        set |= u64::from(v.label() != 0) << i;
    }
    set
}

/// Checks that `labels` holds `width x height` cells.
fn check_len<T>(labels: &[T], width: usize, height: usize) -> Result<(), SizeError> {
    if width.checked_mul(height) != Some(labels.len()) {
        return Err(SizeError::new(
            "label image",
            width,
            height,
            "the label slice does not hold width * height labels",
        ));
    }
    Ok(())
}

/// Checks that `labels` holds `width x height` cells and returns the largest label.
fn check<T: LabelValue>(labels: &[T], width: usize, height: usize) -> Result<usize, SizeError> {
    check_len(labels, width, height)?;
    let max = labels.iter().fold(0u64, |m, &v| m.max(v.label()));
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

/// Grows `table` (indexed by label, `value` in the new entries) to hold index `label`: at
/// least doubled, so that the growth costs a constant per entry. Errors when the table
/// cannot be had (a label too large for the machine's memory).
#[cold]
fn grow<V: Clone>(
    table: &mut Vec<V>,
    label: u64,
    value: V,
    (width, height): (usize, usize),
) -> Result<(), SizeError> {
    let fail = || {
        SizeError::memory(
            "label image",
            width,
            height,
            (label as u128 + 1) * std::mem::size_of::<V>() as u128,
            "not enough memory for the region table",
        )
    };
    let need = usize::try_from(label)
        .ok()
        .and_then(|l| l.checked_add(1))
        .ok_or_else(fail)?;
    let len = need.max(table.len().saturating_mul(2)).max(64);
    // Doubling past what is needed may fail where the need alone does not.
    let len = if table.try_reserve_exact(len - table.len()).is_ok() {
        len
    } else {
        table
            .try_reserve_exact(need - table.len())
            .map_err(|_| fail())?;
        need
    };
    table.resize(len, value);
    Ok(())
}
