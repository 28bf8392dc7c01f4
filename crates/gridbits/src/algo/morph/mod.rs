//! Binary morphology on [`BitGrid`](crate::BitGrid)s: erosion, dilation, opening, closing,
//! propagation (reconstruction by dilation), hit-or-miss and hole filling, by any
//! [`Footprint`] (squares, rectangles, crosses, disks, diamonds, arbitrary patterns with any
//! centre).
//!
//! Conventions are scipy.ndimage's: erosion keeps `p` when `grid(p + d)` is set for every
//! offset `d` of the footprint; dilation sets `p` when `grid(p - d)` is set for some `d`
//! (the footprint reflected, so that a set cell stamps the footprint at its place); cells off
//! the grid read as the border value (`false` by default); `iterations` and `mask` as
//! [`MorphOptions`] says.
//!
//! - [`footprint`]: the structuring element and its constructors.
//! - `row_runs`: the engine. A footprint is a set of horizontal runs; a run's AND/OR along
//!   a row is built by doubling shifts (`log` of its length in word passes) and each output
//!   row is one shift and one word operation per run; full rectangles go separably (runs
//!   along rows, then the same doubling down columns), so large footprints cost little more
//!   than small ones.
//! - [`binary`]: erosion, dilation, opening and closing, with [`MorphOptions`].
//! - [`bytes`]: [`morph_bytes`], the same steps from a byte image straight into a byte
//!   image, a stripe of rows at a time (no whole-image grids), by `near_runs` (the runs
//!   with every shift inside a word) when the footprint reaches less than 64 columns, or,
//!   for footprints within one cell of their centre, by `three_rows` (one pass over the
//!   image, a ring of three packed rows per step, each output row unpacked as it is made),
//!   and for full rectangles up to 64 columns wide (the 15x15 square) by `rect_rows` (one
//!   pass, runs by doubling shifts along each packed row and down a ring of rows).
//!   [`morph_bytes_and_values`] is the same with the image's values checked in the loops
//!   that pack its bytes ([`ByteValues`](crate::grid::ByteValues): whether it holds 0 and
//!   one other value, OpenCV's binary images), and [`morph_bytes_gradient_and_values`] the
//!   morphological gradient (dilation without erosion; one pass for the 3x3 box).
//! - [`reconstruct`]: [`propagation`] and [`fill_holes`] (a flood fill for the cross and the
//!   3x3 square).
//! - [`hit_or_miss`](mod@hit_or_miss).
//!
//! The per-cell reference is [`naive::morph`](crate::naive::morph).
//!
//! ```
//! use gridbits::algo::morph::{closing, opening, Footprint};
//! use gridbits::BitGrid;
//! let g = BitGrid::parse("......\n.####.\n.#.##.\n.####.\n......\n").unwrap();
//! let closed = closing(&g, &Footprint::square(3));
//! assert_eq!(closed.to_text(), "......\n.####.\n.####.\n.####.\n......\n");
//! assert_eq!(opening(&closed, &Footprint::square(3)), closed);
//! ```

pub mod binary;
pub mod bytes;
pub mod footprint;
pub mod hit_or_miss;
mod near_runs;
pub mod reconstruct;
mod rect_rows;
pub(crate) mod row_runs;
mod three_rows;
#[cfg(target_arch = "x86_64")]
mod turn;

pub use binary::{
    closing, closing_with, dilation, dilation_with, erosion, erosion_with, opening, opening_with,
    try_closing_with, try_dilation_with, try_erosion_with, try_opening_with, Iterations,
    MorphOptions,
};
pub use bytes::{
    morph_bytes, morph_bytes_and_values, morph_bytes_by_stripes, morph_bytes_gradient_and_values,
    ByteOutput, Step,
};
pub use footprint::{Footprint, MAX_FOOTPRINT_SIDE};
pub use hit_or_miss::hit_or_miss;
pub use reconstruct::{fill_holes, propagation, try_fill_holes, try_propagation};
