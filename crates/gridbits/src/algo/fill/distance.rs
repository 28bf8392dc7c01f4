//! Per-cell move distances: [`DistanceMap`] and [`distance_map`].

#[cfg(doc)]
use super::layers;
use super::{Connections, Territory};
#[cfg(doc)]
use crate::BitGrid;
use crate::{BitBoard, Moves};

/// Move distances of every cell of a grid: `None` for cells never reached.
#[derive(Clone, Debug)]
pub struct DistanceMap {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) dist: Vec<u32>,
    /// The largest finite distance when the engine that wrote `dist` knows it (the last
    /// layer of a BFS), so that [`DistanceMap::max`] needs no pass over the map.
    pub(super) known_max: Option<Option<u32>>,
}

impl PartialEq for DistanceMap {
    /// Maps are equal when their sizes and distances are (whether a maximum is cached or
    /// not).
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.height) == (other.width, other.height) && self.dist == other.dist
    }
}

impl Eq for DistanceMap {}

impl DistanceMap {
    /// The value stored for unreachable cells in [`DistanceMap::as_slice`].
    pub const UNREACHABLE: u32 = u32::MAX;

    /// A map of the given size with every cell unreachable. Allocates like `Vec` (aborting
    /// if memory runs out); [`DistanceMap::try_new`] returns an error instead.
    pub fn new(width: usize, height: usize) -> Self {
        DistanceMap {
            width,
            height,
            dist: crate::huge_pages::filled(width * height, Self::UNREACHABLE),
            known_max: None,
        }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The distance of `(x, y)`, `None` if unreachable or off the grid.
    pub fn get(&self, x: usize, y: usize) -> Option<u32> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let d = self.dist[y * self.width + x];
        (d != Self::UNREACHABLE).then_some(d)
    }

    /// Row-major distances, [`DistanceMap::UNREACHABLE`] for unreachable cells.
    pub fn as_slice(&self) -> &[u32] {
        &self.dist
    }

    /// The largest finite distance, if any cell was reached: known without a pass over the
    /// map when the word-frontier BFS computed it (its last layer).
    pub fn max(&self) -> Option<u32> {
        if let Some(known) = self.known_max {
            debug_assert_eq!(known, self.scan_max());
            return known;
        }
        self.scan_max()
    }

    /// The largest finite distance, by a pass over the map.
    fn scan_max(&self) -> Option<u32> {
        self.dist
            .iter()
            .copied()
            .filter(|&d| d != Self::UNREACHABLE)
            .max()
    }

    /// Writes `depth` into every set cell of `cells`.
    pub(super) fn paint(&mut self, cells: &impl BitBoard, depth: u32) {
        for (x, y) in cells.cells() {
            self.dist[y * self.width + x] = depth;
        }
    }
}

/// The move distance from the nearest of `sources` to every cell (see [`layers`] for the
/// rules; sources are at distance 0).
///
/// On a [`BitGrid`] with step moves this is the word-frontier BFS: each layer is the list of
/// its non-zero 64-cell words, each pushed into its neighbour words with a few shifts and masks
/// and no data-dependent branch; distances are written per word with a `tzcnt` loop. A layer
/// costs a few word operations per frontier word, so a long winding corridor costs about its
/// length, and a wide front moves up to 64 cells per operation. When the free cells form long
/// horizontal runs (at least 8 cells on average) and there are no connection masks, row
/// sweeps run first: each row takes one more than the distances of the rows beside it, then
/// an exact distance transform along its runs, in passes down and up until no row improves
/// (an open room or a serpentine settles in one pass each way, in straight loops over the
/// rows); sweeps that would need more than 3 row relaxations per free cell give up and the
/// BFS runs. Both give the same distances. Fixed boards and sliding moves expand whole boards
/// per layer (see [`Territory`]). With the feature `parallel` and a second thread in the
/// pool, the BFS of a grid of 2 Mi cells or more has its distances written by the second
/// thread (see [`crate::parallel`]).
///
/// ```
/// use gridbits::algo::fill::distance_map;
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
/// ([`try_distance_map`](super::try_distance_map) returns an error instead).
pub fn distance_map<B: Territory>(
    sources: &B,
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> DistanceMap {
    B::distances(sources, passable, moves, con)
}
