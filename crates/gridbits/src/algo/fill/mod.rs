//! Flood fill, BFS distance layers, distance maps and Voronoi territory, bit-parallel, on
//! fixed [`Board`]s and runtime [`BitGrid`]s alike.
//!
//! Moves are [`Moves`](crate::Moves): one step (`Four`, `Eight`) or sliding (`Rook`, `Bishop`, `Queen`,
//! through [`slide`](crate::algo::slide)). Optional per-direction *connection masks*
//! ([`Connections`]) restrict where a move may leave a cell: a cell may move in direction `d`
//! only where `con[d.index()]` has its bit. [`connections_from_walls`] builds them from a list
//! of walls between cells (The Great Escape).
//!
//! # Entry points and their engines
//!
//! - [`fill`]: the cells reachable from a seed set inside a passable mask, through
//!   [`FloodFill`]. Fixed boards dilate to a fixpoint ([`fill_dilate`], `dilate.rs`: a few
//!   word operations per BFS layer). [`BitGrid`]s use [`fill_sweep`] (`sweep.rs`): a small
//!   region is finished on the scanline run stack ([`fill_runs`], `runs.rs`) in time
//!   proportional to its runs; a large one by row sweeps that close whole runs of passable
//!   cells per word operation and revisit only rows next to new cells; on mazes, whose paths
//!   reverse vertical direction over and over, the sweeps hand over to the run union-find
//!   ([`fill_union`], `union.rs`), linear in the grid size whatever the shape (by row
//!   stripes on several threads, `parallel.rs`, for grids of 1 Mpx or more). `fill_sweep`,
//!   `fill_runs` and `fill_union` work on rows of words and exist for [`BitGrid`] only; on
//!   fixed boards, a handful of words, dilation is the fastest.
//! - [`layers`] (`layers.rs`): the BFS frontiers at depth 0, 1, 2, ... as boards, one
//!   whole-board step ([`expand`]) per layer.
//! - [`voronoi_with`] and [`voronoi_n`] (`shift_bfs.rs`): the simultaneous BFS of "BFS and
//!   Voronoi diagrams using bit-shift operations" (Amazonial, The Great Escape), generalised
//!   to any number of players: all players expand at once by whole-board shifts, under the
//!   connection masks, with a shared visited set; a cell goes to the player that reaches it at
//!   the strictly smallest depth, ties are contested.
//! - [`voronoi`], [`voronoi_depths`] and [`distance_map`] (`territory.rs`, `distance.rs`):
//!   through [`Territory`]. Fixed boards, and sliding moves anywhere, use the whole-board
//!   simultaneous BFS; a [`BitGrid`] with step moves uses the word-frontier BFS
//!   (`frontier.rs`): each layer is the list of its non-zero words, each pushed into its
//!   neighbour words by shifts, so a layer costs a few word operations per frontier word
//!   whatever the grid's size, and all players share one BFS that carries an owner per cell.
//!   A distance map on a [`BitGrid`] whose free cells form long horizontal runs (open rooms,
//!   halls, corridors folded across the grid), with step moves and no connection masks, is
//!   computed first by row sweeps (`distance_sweeps.rs`: each row relaxed from the rows beside
//!   it, then an exact distance transform along its runs, in passes down and up until no row
//!   improves); mazes and noise, whose shortest paths turn up and down too often, exhaust the
//!   sweeps' budget (or fail the run-length test up front) and use the frontier BFS.
//! - [`voronoi_owners`] (`owners.rs`): Voronoi of any number of players on a [`BitGrid`] as an
//!   owner per cell ([`Owners`]), in a time independent of the number of players (about 1.5
//!   distance maps), without a plane per player; [`voronoi_owners_with_distances`] writes the
//!   distance map as well.
//!
//! Every function that takes several boards needs them of one size (fixed boards always
//! are). The panicking forms say so under `# Panics`. Cells are `(x, y)` with `y` the row
//! from the top.
//!
//! Memory: a [`DistanceMap`] and an [`Owners`] hold a `u32` per cell, 32 times the bits of
//! their grid; the run tables of [`fill_union`] up to 2.5 bytes per cell. The fallible forms
//! ([`try_fill`], [`try_fill_from`], [`try_layers`], [`try_distance_map`], [`try_voronoi`],
//! [`try_voronoi_depths`], [`try_voronoi_owners`], [`try_voronoi_owners_with_distances`],
//! [`DistanceMap::try_new`]) check the sizes
//! and compute the memory they need, reserving it with `try_reserve` before any work: they
//! return a [`GridError`](crate::GridError) (a [`SizeMismatch`], or a
//! [`SizeError`](crate::SizeError) in cells and bytes) instead of panicking or aborting. The
//! other forms allocate like `Vec` and abort when memory runs out.
//!
//! ```
//! use gridbits::algo::fill::{distance_map, fill, voronoi};
//! use gridbits::{bitboard, Board, Connectivity, Moves};
//! type B = Board<6, 4, 1>;
//! let walls = bitboard!(B; "..#...", "..#...", "..#...", "......");
//! let free = !walls;
//! // Flood fill from the top-left corner reaches every free cell.
//! assert_eq!(fill(&B::cell(0, 0), &free, Connectivity::Four), free);
//! // Distances go around the wall.
//! let d = distance_map(&B::cell(0, 0), &free, Moves::Four, None);
//! assert_eq!(d.get(3, 0), Some(9));
//! // Two players: left and right of the wall.
//! let v = voronoi(&[B::cell(0, 0), B::cell(5, 0)], &free, Moves::Four, None);
//! assert_eq!((v.owned[0].count(), v.owned[1].count()), (9, 12));
//! ```

mod count;
mod dilate;
mod distance;
mod distance_out;
mod distance_sweeps;
mod fallible;
mod frontier;
mod layer_writer;
mod layers;
mod owner_cells;
mod owners;
#[cfg(feature = "parallel")]
mod parallel;
mod run_scan;
mod runs;
mod shift_bfs;
mod sweep;
mod territory;
mod union;
mod walls;

pub use crate::algo::slide::SizeMismatch;
#[doc(hidden)]
pub use count::fill_count_windows;
pub use count::{fill_count, try_fill_count};
pub use dilate::fill_dilate;
pub use distance::{distance_map, DistanceMap};
pub use fallible::{
    try_distance_map, try_fill, try_fill_from, try_layers, try_voronoi, try_voronoi_depths,
};
pub use layers::{expand, layers, Layers};
pub use owners::{
    try_voronoi_owners, try_voronoi_owners_with_distances, voronoi_owners,
    voronoi_owners_with_distances, Owners, OwnersError,
};
#[cfg(feature = "parallel")]
pub use parallel::fill_union_parallel;
pub use runs::fill_runs;
pub use shift_bfs::{voronoi_n, voronoi_with, Voronoi, VoronoiN};
pub use sweep::{fill_from, fill_sweep};
pub use territory::{voronoi, voronoi_depths, Territory};
pub use union::{fill_union, fill_union_portable};
pub use walls::{connections_from_walls, Wall};

#[cfg(doc)]
use crate::Dir;
use crate::{BitBoard, BitGrid, Board, Connectivity};

/// Per-direction connection masks, indexed by [`Dir::index`]: a cell may move in direction
/// `d` only where `con[d.index()]` is set.
pub type Connections<B> = [B; 8];

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

/// Board types with a flood fill: fixed boards dilate to a fixpoint (straight-line word code
/// per step); [`BitGrid`] uses [`fill_sweep`]: the run stack for small regions, row sweeps
/// for large ones, handing over to [`fill_union`] when the sweeps do not converge.
pub trait FloodFill: BitBoard {
    /// The cells of `passable` reachable from `seeds & passable` under `conn`.
    ///
    /// # Panics
    ///
    /// If `seeds` and `passable` are runtime grids of different sizes.
    fn flood_fill(seeds: &Self, passable: &Self, conn: Connectivity) -> Self;
}

impl<const W: usize, const H: usize, const N: usize> FloodFill for Board<W, H, N> {
    #[inline]
    fn flood_fill(seeds: &Self, passable: &Self, conn: Connectivity) -> Self {
        fill_dilate(seeds, passable, conn)
    }
}

impl FloodFill for BitGrid {
    fn flood_fill(seeds: &Self, passable: &Self, conn: Connectivity) -> Self {
        fill_sweep(seeds, passable, conn)
    }
}

/// Checks that `seeds` (the argument named `what`), every connection mask and, if given, the
/// distance map have the size of `passable`.
fn check_sizes<B: BitBoard>(
    passable: &B,
    what: &'static str,
    seeds: &[B],
    con: Option<&Connections<B>>,
    depth: Option<(usize, usize)>,
) -> Result<(), SizeMismatch> {
    for s in seeds {
        SizeMismatch::check(passable, "passable", s, what)?;
    }
    for c in con.into_iter().flatten() {
        SizeMismatch::check(passable, "passable", c, "a connection mask")?;
    }
    match depth {
        Some(found) if found != (passable.width(), passable.height()) => Err(SizeMismatch {
            what: "the distance map",
            reference: "passable",
            expected: (passable.width(), passable.height()),
            found,
        }),
        _ => Ok(()),
    }
}

/// Panics with the [`SizeMismatch`] message if [`check_sizes`] fails.
#[track_caller]
fn assert_sizes<B: BitBoard>(
    passable: &B,
    what: &'static str,
    seeds: &[B],
    con: Option<&Connections<B>>,
    depth: Option<(usize, usize)>,
) {
    if let Err(e) = check_sizes(passable, what, seeds, con, depth) {
        panic!("{e}");
    }
}
