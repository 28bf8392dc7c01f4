//! The fallible ways in for the fill family's large outputs: a [`DistanceMap`] holds a `u32`
//! per cell (32 times the bits of its grid), so a size from the input can ask for more memory
//! than the machine has. These check it up front and return a [`SizeError`] instead of
//! aborting (see [Allocation](crate::error#allocation)).

use super::{check_sizes, distance_map, Connections, DistanceMap, Territory};
use crate::error::{check_memory, try_filled};
use crate::{GridError, Moves, SizeError};

/// Bytes of working memory the word-frontier BFS needs beside its output on a
/// `width x height` grid: its padded word arrays (the frontier, the open cells, the next
/// frontier and, with owners, the previous one: 8 bytes each per word) and its lists of
/// frontier words (16 bytes per word, two or three of them), rounded up to 80 bytes per padded
/// word of 64 cells.
pub(crate) fn bfs_working_bytes(width: usize, height: usize) -> u128 {
    let words = (width.div_ceil(64) as u128 + 2) * (height as u128 + 2);
    words * 80
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
        })
    }

    /// [`distance_map`] that returns an error instead of panicking or aborting: a
    /// [`GridError::Mismatch`] when `sources`, `passable` and the connection masks differ in
    /// size, a [`GridError::Size`] when the map and the BFS's working memory (about 5.3
    /// bytes per cell on a [`BitGrid`](crate::BitGrid)) cannot be allocated. The memory is
    /// computed and reserved with `try_reserve` before the work starts.
    ///
    /// ```
    /// use gridbits::algo::fill::DistanceMap;
    /// use gridbits::{BitGrid, Moves};
    /// let free = !BitGrid::parse("....\n.##.\n....").unwrap();
    /// let mut s = free.empty_like();
    /// s.set(0, 1);
    /// let d = DistanceMap::try_compute(&s, &free, Moves::Four, None).unwrap();
    /// assert_eq!((d.get(3, 1), d.get(1, 1)), (Some(5), None));
    /// let err = DistanceMap::try_compute(&s, &BitGrid::full(4, 4).unwrap(), Moves::Four, None);
    /// assert_eq!(err.unwrap_err().to_string(), "sources is 4x3, expected 4x4 (the size of passable)");
    /// ```
    pub fn try_compute<B: Territory>(
        sources: &B,
        passable: &B,
        moves: Moves,
        con: Option<&Connections<B>>,
    ) -> Result<Self, GridError> {
        check_sizes(
            passable,
            "sources",
            std::slice::from_ref(sources),
            con,
            None,
        )?;
        let (w, h) = (passable.width(), passable.height());
        let cells = w as u128 * h as u128;
        check_memory("distance map", w, h, cells * 4 + bfs_working_bytes(w, h))?;
        Ok(distance_map(sources, passable, moves, con))
    }
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
