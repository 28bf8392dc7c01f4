//! Exact Euclidean distances without the nearest cells, in cell units: the squared
//! distance of every cell as an integer, from the column distances of
//! [`columns`](super::columns) and the row pass of [`rows`](super::rows) (a window of
//! shifted minima on rows of small column distances; elsewhere runs cut by background, and
//! Meijster, Roerdink and Hesselink's lower envelope in integers where the runs are long);
//! large grids in bands of rows on the pool's threads (feature `parallel`).
//!
//! Without sampling the distance is the square root of an integer whichever of several
//! equally near background cells is taken, so the ties that
//! [`euclidean_transform`](super::euclidean_transform) settles as scipy does do not
//! matter here.

use super::rows::{separable_distances, SquaredEuclidean, MAX_SIDE};
use crate::error::try_filled;
use crate::{BitGrid, SizeError};

/// The exact Euclidean distance from every cell to the nearest unset (background) cell, in
/// cell units, row-major, as `f64`: the values of `scipy.ndimage.distance_transform_edt`
/// without `sampling`. `None` for a grid without background (scipy then measures to
/// leftover indices: [`euclidean_transform`](super::euclidean_transform) gives those
/// values) or with a side of `2^28` cells or more.
///
/// This is the fast way to the distances alone: the first pass reads the packed bits, the
/// second skips the runs of each row that the first pass already decides.
///
/// ```
/// use gridbits::algo::distance_transform::euclidean_distances;
/// use gridbits::BitGrid;
/// let g = BitGrid::parse("###\n###\n##.\n").unwrap();
/// let d = euclidean_distances(&g).unwrap().unwrap();
/// assert_eq!(d[0], 8f64.sqrt());
/// assert_eq!(euclidean_distances(&BitGrid::full(2, 2)).unwrap(), None);
/// ```
///
/// # Errors
///
/// A [`SizeError`] if the memory cannot be had.
pub fn euclidean_distances(grid: &BitGrid) -> Result<Option<Vec<f64>>, SizeError> {
    squared_distances(grid, |d| (d as f64).sqrt())
}

/// The exact Euclidean distances of [`euclidean_distances`] as OpenCV's
/// `distanceTransform(DIST_L2, DIST_MASK_PRECISE)` gives them: the `f32` square root of the
/// squared distance rounded to `f32`, and `sqrt(f32::MAX)` everywhere on a grid without
/// background. The same values as
/// [`EuclideanTransform::distances_f32`](super::EuclideanTransform::distances_f32), faster.
///
/// ```
/// use gridbits::algo::distance_transform::euclidean_distances_f32;
/// use gridbits::BitGrid;
/// let g = BitGrid::parse("##.\n").unwrap();
/// assert_eq!(euclidean_distances_f32(&g).unwrap(), vec![2.0, 1.0, 0.0]);
/// assert_eq!(euclidean_distances_f32(&BitGrid::full(1, 1)).unwrap(), vec![f32::MAX.sqrt()]);
/// ```
///
/// # Errors
///
/// A [`SizeError`] if the memory cannot be had.
pub fn euclidean_distances_f32(grid: &BitGrid) -> Result<Vec<f32>, SizeError> {
    if let Some(d) = squared_distances(grid, |d| (d as f32).sqrt())? {
        return Ok(d);
    }
    let (w, h) = grid.size();
    if w.max(h) >= MAX_SIDE {
        return super::euclidean_transform(grid, super::Sampling::default())?.distances_f32();
    }
    try_filled("distances", w, h, (w * h) as u128, f32::MAX.sqrt())
}

/// Every cell's squared distance through `f`, row-major; `None` without background or
/// past [`MAX_SIDE`].
fn squared_distances<T: Copy + Send + Sync>(
    grid: &BitGrid,
    f: impl Fn(u64) -> T + Sync,
) -> Result<Option<Vec<T>>, SizeError> {
    separable_distances::<SquaredEuclidean, T>(grid, f)
}
