//! The argument checks and memory estimates of the fill, distance and Voronoi engines: the
//! size checks behind their `# Panics` and their `try_` forms, and the most memory each
//! engine can ask for on a grid's size. The fallible forms reserve that memory with
//! `try_reserve` before any work: the estimates are upper bounds, so an engine that starts
//! also finishes.

use crate::error::{check_memory, try_vec};
use crate::{BitBoard, SizeError, SizeMismatch};

/// Checks that `seeds` (the argument named `what`), every connection mask and, if given, the
/// distance map have the size of `passable`.
pub(crate) fn check_sizes<B: BitBoard>(
    passable: &B,
    what: &'static str,
    seeds: &[B],
    con: Option<&[B; 8]>,
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
pub(crate) fn assert_sizes<B: BitBoard>(
    passable: &B,
    what: &'static str,
    seeds: &[B],
    con: Option<&[B; 8]>,
    depth: Option<(usize, usize)>,
) {
    if let Err(e) = check_sizes(passable, what, seeds, con, depth) {
        panic!("{e}");
    }
}

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
pub(crate) fn distance_bytes(width: usize, height: usize) -> u128 {
    4 * width as u128 * height as u128 + bfs_working_bytes(width, height)
}

/// Bytes a Voronoi of `players` needs, at most: a plane per player and three more (contested,
/// reached, the seeds), a distance map (the depths asked for, or with one player the BFS's
/// own; none otherwise on a [`BitGrid`](crate::BitGrid)) and an owner per cell (4 bytes
/// each), the BFS's working memory.
pub(crate) fn voronoi_bytes(players: usize, width: usize, height: usize) -> u128 {
    (players as u128 + 3) * grid_bytes(width, height)
        + 4 * width as u128 * height as u128
        + distance_bytes(width, height)
}

/// Checks that `bytes` for a `what` on `passable`'s size can be allocated.
pub(crate) fn reserve<B: BitBoard>(
    what: &'static str,
    passable: &B,
    bytes: u128,
) -> Result<(), SizeError> {
    check_memory(what, passable.width(), passable.height(), bytes)
}

/// Checks that `count` values of `T` for a `width x height` `what` can be allocated, then
/// allocates them filled with `value` (by every thread of a large pool on large grids:
/// [`fill`](crate::huge_pages::fill)): the owner arrays of the Voronoi entry points and
/// [`DistanceMap::try_new`](crate::algo::distance::DistanceMap::try_new).
pub(crate) fn cells_of<T: Clone + Send + Sync>(
    what: &'static str,
    width: usize,
    height: usize,
    value: T,
) -> Result<Vec<T>, SizeError> {
    let count = width as u128 * height as u128;
    let mut v = try_vec(what, width, height, count)?;
    crate::huge_pages::fill(&mut v, count as usize, value);
    Ok(v)
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
        let g = BitGrid::new(w, h);
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
