//! BFS distances on fixed [`Board`]s and runtime [`BitGrid`]s: the frontier of each BFS layer
//! ([`layers`](fn@layers), [`expand`]) and the move distance of every cell from the nearest source
//! ([`distance_map`] into a [`DistanceMap`]).
//!
//! Moves are [`Moves`]: one step (`Four`, `Eight`) or sliding (`Rook`, `Bishop`,
//! `Queen`). Optional per-direction *connection masks* ([`Connections`]) restrict where a move
//! may leave a cell: a cell may move in direction `d` only where `con[d.index()]` has its bit;
//! [`connections_from_walls`] builds them from walls between cells (The Great Escape).
//!
//! [`distance_map`] picks the engine of each board kind ([`DistanceEngine`], `engine.rs`):
//! fixed boards and sliding moves expand whole boards per layer; a [`BitGrid`] with step
//! moves runs row sweeps when its free cells form long runs, else the word-frontier BFS
//! (`frontier.rs`), whose cost follows the frontier, not the grid. The algorithms are
//! described in `docs/algorithms.md`.
//!
//! A [`DistanceMap`] holds a `u32` per cell. The `try_` forms ([`try_distance_map`],
//! [`try_layers`], [`DistanceMap::try_new`]) return a [`GridError`] for
//! grids of different sizes or memory that cannot be had, instead of panicking or aborting.
//!
//! ```
//! use gridbits::algo::distance::distance_map;
//! use gridbits::{bitboard, Board, Moves};
//! type B = Board<6, 4, 1>;
//! let walls = bitboard!(B; "..#...", "..#...", "..#...", "......");
//! // Distances go around the wall.
//! let d = distance_map(&B::cell(0, 0), &!walls, Moves::Four, None);
//! assert_eq!(d.get(3, 0), Some(9));
//! ```

mod bands;
mod barrier;
mod cells;
mod connections;
mod engine;
mod frontier;
mod layer_writer;
mod layers;
mod map;
mod map_image;
mod run_scan;
mod sweeps;
#[cfg(test)]
mod test_shapes;
mod thin;
mod units;

pub(crate) use cells::{claim_source, CONTESTED, UNREACHED};
pub use connections::{connections_from_walls, Connections, Wall};
pub(crate) use engine::bfs;
pub use engine::{distance_map_with, DistanceEngine, FrontierLayers};
pub use layers::{expand, layers, try_layers, Layers};
pub use map::DistanceMap;

use crate::algo::checks::{check_sizes, distance_bytes, reserve};
#[cfg(doc)]
use crate::{BitGrid, Board};
use crate::{GridError, Moves};

/// The move distance from the nearest of `sources` to every cell (see [`layers`](fn@layers) for the
/// rules; sources are at distance 0).
///
/// On a [`BitGrid`] with step moves this is the word-frontier BFS: each layer is the list of
/// its non-zero 64-cell words, each pushed into its neighbour words with a few shifts and masks
/// and no data-dependent branch; distances are written with a `tzcnt` loop per word, in
/// batches of a few thousand words (thin layers, [`FrontierLayers`]). A layer costs a few word
/// operations per frontier word, so a long winding corridor (a maze) costs about its length,
/// and a wide front moves up to 64 cells per operation. When the free cells form long
/// horizontal runs (at least 8 cells on average) and there are no connection masks, row
/// sweeps run first: each row takes one more than the distances of the rows beside it, then
/// an exact distance transform along its runs, in passes down and up until no row improves
/// (an open room or a serpentine settles in one pass each way, in straight loops over the
/// rows); sweeps that would need more than 3 row relaxations per free cell give up and the
/// BFS runs. Both give the same distances. Fixed boards and sliding moves expand whole boards
/// per layer (see [`DistanceEngine`]). With the feature `parallel` and a second thread in the
/// pool, the BFS of a grid of 2 Mi cells or more has its distances written by the second
/// thread; with three threads or more, once a layer's frontier is wide, it goes on in row
/// bands (four a thread), a barrier per layer, and hands back to one thread when the bands
/// lose to it (see [`crate::parallel`] and `docs/algorithms.md`).
///
/// ```
/// use gridbits::algo::distance::distance_map;
/// use gridbits::{BitGrid, Moves};
/// let free = !BitGrid::parse("....\n.##.\n....").unwrap();
/// let mut s = free.empty_like();
/// s.set(0, 1);
/// let d = distance_map(&s, &free, Moves::Four, None);
/// assert_eq!(d.get(3, 1), Some(5));
/// assert_eq!(d.get(1, 1), None);
/// ```
///
/// # Panics
///
/// If `sources`, `passable` and the connection masks are runtime grids of different sizes
/// ([`try_distance_map`] returns an error instead).
pub fn distance_map<B: DistanceEngine>(
    sources: &B,
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> DistanceMap {
    B::distances(sources, passable, moves, con)
}

/// [`distance_map`] that returns an error instead of panicking or aborting: a
/// [`GridError::Mismatch`] when `sources`, `passable` and the connection masks differ in
/// size, a [`GridError::Size`] when the map and the BFS's working memory (about 5.3 bytes
/// per cell on a [`BitGrid`]) cannot be allocated.
///
/// ```
/// use gridbits::algo::distance::try_distance_map;
/// use gridbits::{BitGrid, GridError, Moves};
/// let mut s = BitGrid::new(5, 5);
/// s.set(0, 0);
/// let free = BitGrid::full(5, 5);
/// let d = try_distance_map(&s, &free, Moves::Queen, None).unwrap();
/// assert_eq!(d.get(4, 4), Some(1));
/// let err = try_distance_map(&s, &BitGrid::full(5, 6), Moves::Queen, None);
/// assert_eq!(err.unwrap_err().to_string(), "sources is 5x5, expected 5x6 (the size of passable)");
/// ```
pub fn try_distance_map<B: DistanceEngine>(
    sources: &B,
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> Result<DistanceMap, GridError> {
    check_sizes(
        passable,
        "sources",
        std::slice::from_ref(sources),
        con,
        None,
    )?;
    let (w, h) = (passable.width(), passable.height());
    reserve("distance map", passable, distance_bytes(w, h))?;
    Ok(distance_map(sources, passable, moves, con))
}
