//! Distance transforms of binary images: for every set cell, how far the nearest unset
//! (background) cell is, and which cell that is. (The move distance from sources through
//! passable cells, a BFS, is [`algo::distance`](crate::algo::distance).)
//!
//! - [`chamfer_transform`]: steps of a 3 x 3 [`Neighbourhood`] (city block, chessboard, or
//!   any structure), scipy's `distance_transform_cdt`, two raster passes;
//!   [`chamfer_distances_f32`] gives them as OpenCV's `DIST_L1` / `DIST_C` do. Without
//!   nearest cells, city-block and chessboard distances of shallow shapes (noise: every
//!   distance below 9, the layers thinning fast) come from erosion layers on the packed
//!   bits counted straight into the output (`counted_layers.rs`), the others from the same
//!   two passes vectorised across the row in `i16` lanes (`vector_passes/`, AVX-512 BW or
//!   AVX2; the same numbers); without those kernels (or past the lanes' range), from
//!   erosion layers in bit-sliced counters (`layers.rs`) and, for deep shapes, two
//!   vertical sweeps over whole rows (`sweeps.rs`).
//! - [`opencv_chamfer5_with_labels`]: OpenCV's `distanceTransformWithLabels` (5 x 5 masks in
//!   fixed point, the label of each cell's nearest background cell).
//! - [`euclidean_transform`]: the exact Euclidean distance with per-axis [`Sampling`],
//!   scipy's `distance_transform_edt` (Maurer's separable feature transform; the column pass
//!   reads the packed bits).
//!   [`EuclideanTransform::distances_f32`] gives them as OpenCV's
//!   `distanceTransform(DIST_L2, DIST_MASK_PRECISE)` does: the `f32` square root of the
//!   squared distance.
//! - [`euclidean_distances`] / [`euclidean_distances_f32`]: the same distances in cell units
//!   without the nearest cells, faster (a column pass on the bits, then per row a window of
//!   shifted minima where the column distances are small, else a lower envelope only where
//!   the column pass leaves the answer open; bands of rows on several threads; `exact.rs`).
//!
//! Each gives the results of the library it mirrors bit for bit, ties included (which
//! background cell is "nearest" when several are equally near); the tests check them
//! against the brute-force references in [`naive::distance_transform`](crate::naive::distance_transform)
//! and, from Python, against scipy and OpenCV themselves. Outside the grid is never
//! background: a grid without an unset cell has no distances (see each function).
//!
//! ```
//! use gridbits::algo::distance_transform::{chamfer_transform, euclidean_transform, Neighbourhood, Sampling};
//! use gridbits::BitGrid;
//! let g = BitGrid::parse("###\n###\n##.\n").unwrap();
//! let cdt = chamfer_transform(&g, Neighbourhood::chessboard(), false).unwrap();
//! assert_eq!(cdt.get(0, 0), 2);
//! let edt = euclidean_transform(&g, Sampling::default()).unwrap();
//! assert_eq!(edt.distances(Sampling::default()).unwrap()[0], 8f64.sqrt());
//! ```

mod chamfer;
mod chamfer5;
mod columns;
mod counted_layers;
mod euclidean;
mod exact;
mod layers;
mod rows;
mod sweeps;
mod vector_passes;

pub use chamfer::{chamfer_distances_f32, chamfer_transform, ChamferTransform, Neighbourhood};
#[doc(hidden)]
pub use chamfer::{chamfer_distances_f32_by, ChamferEngine};
pub use chamfer5::{opencv_chamfer5_with_labels, opencv_mask5_weights};
pub use euclidean::{euclidean_transform, EuclideanTransform, Sampling};
pub use exact::{euclidean_distances, euclidean_distances_f32};
