//! Flood fill: the cells of a passable mask reachable from seeds, on fixed [`Board`]s and
//! runtime [`BitGrid`]s.
//!
//! [`fill`] picks the engine of each board kind ([`FloodFill`], `engine.rs`):
//!
//! - fixed boards dilate to a fixpoint ([`fill_dilate`]: a few word operations per BFS layer);
//! - a [`BitGrid`] runs [`fill_sweep`]: the scanline run stack ([`fill_runs`]) finishes a small
//!   region in time proportional to its runs; a large one is closed by row sweeps of whole
//!   runs; mazes, whose paths reverse vertical direction over and over, hand over to the run
//!   union-find ([`fill_union`], by row stripes on every core with the `parallel` feature:
//!   `fill_union_parallel`).
//!
//! [`fill_from`] fills from one cell and [`fill_count`] counts a region without building its
//! grid. Each engine is public for tests and benchmarks; all give the same cells. The
//! algorithms are described in `docs/algorithms.md`.
//!
//! The `try_` forms ([`try_fill`], [`try_fill_from`], [`try_fill_count`]) return a
//! [`GridError`] for grids of different sizes, a start off the grid, or
//! memory that cannot be had, instead of panicking or aborting.
//!
//! ```
//! use gridbits::algo::fill::fill;
//! use gridbits::{bitboard, Board, Connectivity};
//! type B = Board<6, 4, 1>;
//! let walls = bitboard!(B; "..#...", "..#...", "..#...", "......");
//! let free = !walls;
//! // Flood fill from the top-left corner reaches every free cell.
//! assert_eq!(fill(&B::cell(0, 0), &free, Connectivity::Four), free);
//! ```

mod count;
mod dilate;
mod engine;
mod run_stack;
mod sweep;
mod union;
#[cfg(feature = "parallel")]
mod union_parallel;

#[doc(hidden)]
pub use count::fill_count_windows;
pub use count::{fill_count, try_fill_count};
pub use dilate::fill_dilate;
pub use engine::{fill_from, fill_sweep, try_fill_from, FloodFill};
pub use run_stack::fill_runs;
pub use union::fill_union;
#[cfg(feature = "parallel")]
pub use union_parallel::fill_union_parallel;

use crate::algo::checks::{check_sizes, fill_bytes, reserve};
#[cfg(doc)]
use crate::{BitGrid, Board};
use crate::{Connectivity, GridError};

/// Flood fill with the best method for the board type: see [`FloodFill`].
///
/// Returns the cells of `passable` reachable from `seeds & passable` under `conn`.
///
/// # Panics
///
/// If `seeds` and `passable` are runtime grids of different sizes ([`try_fill`] returns an
/// error instead).
pub fn fill<B: FloodFill>(seeds: &B, passable: &B, conn: Connectivity) -> B {
    B::flood_fill(seeds, passable, conn)
}

/// [`fill`] that returns an error instead of panicking or aborting: a
/// [`GridError::Mismatch`] when `seeds` and `passable` are runtime grids of different sizes,
/// a [`GridError::Size`] when the result and the fill's working memory (at most about 3
/// bytes per cell, mostly the run tables of [`fill_union`] on a grid of
/// short runs) cannot be allocated.
///
/// ```
/// use gridbits::algo::fill::try_fill;
/// use gridbits::{BitGrid, Connectivity};
/// let mut seed = BitGrid::new(6, 3);
/// seed.set(0, 0);
/// let free = BitGrid::full(6, 3);
/// assert_eq!(try_fill(&seed, &free, Connectivity::Four).unwrap(), free);
/// let err = try_fill(&seed, &BitGrid::full(6, 4), Connectivity::Four).unwrap_err();
/// assert_eq!(err.to_string(), "seeds is 6x3, expected 6x4 (the size of passable)");
/// ```
pub fn try_fill<B: FloodFill>(seeds: &B, passable: &B, conn: Connectivity) -> Result<B, GridError> {
    check_sizes(passable, "seeds", std::slice::from_ref(seeds), None, None)?;
    let (w, h) = (passable.width(), passable.height());
    reserve("flood fill", passable, fill_bytes(w, h))?;
    Ok(fill(seeds, passable, conn))
}
