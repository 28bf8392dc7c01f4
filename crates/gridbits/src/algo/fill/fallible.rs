//! The fallible forms of the fill family: the same work as [`fill`], [`fill_from`], [`layers`],
//! [`distance_map`], [`voronoi`] and [`voronoi_depths`], but grids of different sizes are a
//! [`SizeMismatch`](super::SizeMismatch) and memory that cannot be had is a [`SizeError`],
//! both in a [`GridError`], never a panic or an abort (see
//! [Allocation](crate::error#allocation)).
//!
//! Each computes the most memory its engines can ask for on the grid's size (outputs, working
//! arrays, run tables) and reserves it with `try_reserve` before any work: the estimates are
//! upper bounds, so an engine that starts also finishes.

use super::{
    check_sizes, distance_map, fill, fill_from, layers, voronoi, voronoi_depths, Connections,
    DistanceMap, FloodFill, Layers, Territory, Voronoi,
};
use crate::error::{check_memory, try_filled};
use crate::{BitBoard, BitGrid, Connectivity, GridError, Moves, OffGrid, SizeError};

/// Bytes of working memory the word-frontier BFS needs beside its output on a
/// `width x height` grid: its units (the open cells and three frontier slots, 32 bytes per
/// padded word of 64 cells) and its lists of frontier words (16 bytes per word, up to three
/// of them): 80 bytes per padded word.
pub(crate) fn bfs_working_bytes(width: usize, height: usize) -> u128 {
    let words = (width.div_ceil(64) as u128 + 2) * (height as u128 + 2);
    words * 80
}

/// Bytes of one `width x height` grid of rows of 64-bit words.
pub(crate) fn grid_bytes(width: usize, height: usize) -> u128 {
    width.div_ceil(64) as u128 * 8 * height as u128
}

/// Bytes a flood fill may need on a `width x height` grid: the result and three word arrays
/// of the grid's size (the row sweeps' two, the run union-find's run starts), and the run
/// union-find's tables: a parent (4 bytes) and a seed mark (1 byte) per run of free cells, at
/// most `ceil(width / 2)` runs a row, and a run offset (4 bytes) per row.
pub(crate) fn fill_bytes(width: usize, height: usize) -> u128 {
    let runs = width.div_ceil(2) as u128 * height as u128;
    4 * grid_bytes(width, height) + 5 * runs + 4 * (height as u128 + 1)
}

/// Bytes a distance map needs: the map (4 bytes per cell) and the BFS's working memory.
fn distance_bytes(width: usize, height: usize) -> u128 {
    4 * width as u128 * height as u128 + bfs_working_bytes(width, height)
}

/// Bytes a Voronoi of `players` needs, at most: a plane per player and three more (contested,
/// reached, the seeds), a distance map (the depths asked for, or with one player the BFS's
/// own; none otherwise on a [`BitGrid`](crate::BitGrid)) and an owner per cell (4 bytes
/// each), the BFS's working memory.
fn voronoi_bytes(players: usize, width: usize, height: usize) -> u128 {
    (players as u128 + 3) * grid_bytes(width, height)
        + 4 * width as u128 * height as u128
        + distance_bytes(width, height)
}

/// Checks that `bytes` for a `what` on `passable`'s size can be allocated.
fn reserve<B: BitBoard>(what: &'static str, passable: &B, bytes: u128) -> Result<(), SizeError> {
    check_memory(what, passable.width(), passable.height(), bytes)
}

impl DistanceMap {
    /// [`DistanceMap::new`] that returns an error instead of aborting when the map (4 bytes
    /// per cell) cannot be allocated: more than [`MAX_CELLS`](crate::text::MAX_CELLS) cells,
    /// more bytes than the address space, or an allocator that refuses.
    ///
    /// ```
    /// use gridbits::algo::fill::DistanceMap;
    /// assert_eq!(DistanceMap::try_new(3, 2).unwrap().get(2, 1), None);
    /// // The byte count overflows a 64-bit usize: refused without allocating.
    /// let err = DistanceMap::try_new(usize::MAX, 2).unwrap_err();
    /// assert_eq!(err.bytes, 8 * usize::MAX as u128);
    /// ```
    pub fn try_new(width: usize, height: usize) -> Result<Self, SizeError> {
        let cells = width as u128 * height as u128;
        let dist = try_filled("distance map", width, height, cells, Self::UNREACHABLE)?;
        Ok(DistanceMap {
            width,
            height,
            dist,
            known_max: None,
        })
    }
}

/// [`fill`] that returns an error instead of panicking or aborting: a
/// [`GridError::Mismatch`] when `seeds` and `passable` are runtime grids of different sizes,
/// a [`GridError::Size`] when the result and the fill's working memory (at most about 3
/// bytes per cell, mostly the run tables of [`fill_union`](super::fill_union) on a grid of
/// short runs) cannot be allocated.
///
/// ```
/// use gridbits::algo::fill::try_fill;
/// use gridbits::{BitGrid, Connectivity};
/// let mut seed = BitGrid::new(6, 3).unwrap();
/// seed.set(0, 0);
/// let free = BitGrid::full(6, 3).unwrap();
/// assert_eq!(try_fill(&seed, &free, Connectivity::Four).unwrap(), free);
/// let err = try_fill(&seed, &BitGrid::full(6, 4).unwrap(), Connectivity::Four).unwrap_err();
/// assert_eq!(err.to_string(), "seeds is 6x3, expected 6x4 (the size of passable)");
/// ```
pub fn try_fill<B: FloodFill>(seeds: &B, passable: &B, conn: Connectivity) -> Result<B, GridError> {
    check_sizes(passable, "seeds", std::slice::from_ref(seeds), None, None)?;
    let (w, h) = (passable.width(), passable.height());
    reserve("flood fill", passable, fill_bytes(w, h))?;
    Ok(fill(seeds, passable, conn))
}

/// [`fill_from`] that returns an error instead of panicking or aborting: a
/// [`GridError::OffGrid`] when `start` lies off the grid, a [`GridError::Size`] when the
/// result and the fill's working memory (as for [`try_fill`]) cannot be allocated.
///
/// ```
/// use gridbits::algo::fill::try_fill_from;
/// use gridbits::{BitGrid, Connectivity, GridError};
/// let free = BitGrid::full(6, 3).unwrap();
/// assert_eq!(try_fill_from(&free, (5, 2), Connectivity::Four).unwrap(), free);
/// let err = try_fill_from(&free, (6, 0), Connectivity::Four).unwrap_err();
/// assert!(matches!(err, GridError::OffGrid(_)));
/// assert_eq!(err.to_string(), "cell (6, 0) is off the 6x3 grid");
/// ```
pub fn try_fill_from(
    passable: &BitGrid,
    start: (usize, usize),
    conn: Connectivity,
) -> Result<BitGrid, GridError> {
    let (w, h) = (passable.width(), passable.height());
    OffGrid::check(start.0, start.1, w, h).map_err(GridError::OffGrid)?;
    reserve("flood fill", passable, fill_bytes(w, h))?;
    Ok(fill_from(passable, start, conn))
}

/// [`layers`] that returns an error instead of panicking or aborting: a
/// [`GridError::Mismatch`] when `sources`, `passable` and the connection masks are runtime
/// grids of different sizes, a [`GridError::Size`] when the iterator's boards (four of the
/// grid's size) cannot be allocated.
pub fn try_layers<'a, B: BitBoard>(
    sources: &B,
    passable: &B,
    moves: Moves,
    con: Option<&'a Connections<B>>,
) -> Result<Layers<'a, B>, GridError> {
    check_sizes(
        passable,
        "sources",
        std::slice::from_ref(sources),
        con,
        None,
    )?;
    let (w, h) = (passable.width(), passable.height());
    reserve("BFS layers", passable, 4 * grid_bytes(w, h))?;
    Ok(layers(sources, passable, moves, con))
}

/// [`distance_map`] that returns an error instead of panicking or aborting: a
/// [`GridError::Mismatch`] when `sources`, `passable` and the connection masks differ in
/// size, a [`GridError::Size`] when the map and the BFS's working memory (about 5.3 bytes
/// per cell on a [`BitGrid`](crate::BitGrid)) cannot be allocated.
///
/// ```
/// use gridbits::algo::fill::try_distance_map;
/// use gridbits::{BitGrid, GridError, Moves};
/// let mut s = BitGrid::new(5, 5).unwrap();
/// s.set(0, 0);
/// let free = BitGrid::full(5, 5).unwrap();
/// let d = try_distance_map(&s, &free, Moves::Queen, None).unwrap();
/// assert_eq!(d.get(4, 4), Some(1));
/// let err = try_distance_map(&s, &BitGrid::full(5, 6).unwrap(), Moves::Queen, None);
/// assert_eq!(err.unwrap_err().to_string(), "sources is 5x5, expected 5x6 (the size of passable)");
/// ```
pub fn try_distance_map<B: Territory>(
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

/// [`voronoi`] that returns an error instead of panicking or aborting: a
/// [`GridError::Mismatch`] when a source, `passable` or a connection mask are runtime grids
/// of different sizes, a [`GridError::Size`] when a plane per player and the BFS's memory
/// cannot be allocated ([`try_voronoi_owners`](super::try_voronoi_owners) needs no planes).
///
/// ```
/// use gridbits::algo::fill::try_voronoi;
/// use gridbits::{BitGrid, Moves};
/// let (mut a, mut b) = (BitGrid::new(4, 1).unwrap(), BitGrid::new(4, 1).unwrap());
/// a.set(0, 0);
/// b.set(3, 0);
/// let free = BitGrid::full(4, 1).unwrap();
/// assert_eq!(try_voronoi(&[a.clone(), b], &free, Moves::Four, None).unwrap().counts(), [2, 2]);
/// let err = try_voronoi(&[a, BitGrid::new(5, 1).unwrap()], &free, Moves::Four, None);
/// assert_eq!(err.unwrap_err().to_string(), "a source is 5x1, expected 4x1 (the size of passable)");
/// ```
pub fn try_voronoi<B: Territory>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> Result<Voronoi<B>, GridError> {
    check_voronoi(sources, passable, con)?;
    Ok(voronoi(sources, passable, moves, con))
}

/// [`voronoi_depths`] that returns an error instead of panicking or aborting, as
/// [`try_voronoi`].
pub fn try_voronoi_depths<B: Territory>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> Result<(Voronoi<B>, DistanceMap), GridError> {
    check_voronoi(sources, passable, con)?;
    Ok(voronoi_depths(sources, passable, moves, con))
}

/// The sizes and memory of a Voronoi by planes.
fn check_voronoi<B: Territory>(
    sources: &[B],
    passable: &B,
    con: Option<&Connections<B>>,
) -> Result<(), GridError> {
    check_sizes(passable, "a source", sources, con, None)?;
    let (w, h) = (passable.width(), passable.height());
    reserve("Voronoi", passable, voronoi_bytes(sources.len(), w, h))?;
    Ok(())
}

/// Checks that `count` values of `T` for a `width x height` `what` can be allocated, then
/// allocates them filled with `value`: the owner arrays of the Voronoi entry points.
pub(crate) fn cells_of<T: Clone>(
    what: &'static str,
    width: usize,
    height: usize,
    value: T,
) -> Result<Vec<T>, SizeError> {
    try_filled(what, width, height, width as u128 * height as u128, value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BitGrid;

    /// The estimates cover what the engines allocate on a grid of the worst shape for each
    /// (alternating cells: the most runs), and a fixed board costs a few bytes.
    #[test]
    fn estimates_cover_the_engines_tables() {
        let (w, h) = (1000usize, 7usize);
        // Runs: 500 a row, each a parent (4) and a mark (1).
        assert!(fill_bytes(w, h) >= 5 * 500 * 7 + 4 * grid_bytes(w, h));
        assert_eq!(grid_bytes(64, 3), 24);
        assert_eq!(grid_bytes(65, 3), 48);
        assert!(voronoi_bytes(2, w, h) > distance_bytes(w, h) + 5 * grid_bytes(w, h));
        let g = BitGrid::new(w, h).unwrap();
        assert!(reserve("flood fill", &g, fill_bytes(w, h)).is_ok());
    }

    /// A size whose memory cannot exist is an error from every form, before any work.
    #[test]
    fn impossible_sizes_are_errors() {
        let huge = usize::MAX / 4;
        assert!(fill_bytes(huge, huge) > isize::MAX as u128);
        let e = check_memory("flood fill", huge, huge, fill_bytes(huge, huge)).unwrap_err();
        assert!(e.is_out_of_memory());
        assert!(e.to_string().starts_with("cannot make a "), "{e}");
    }
}
