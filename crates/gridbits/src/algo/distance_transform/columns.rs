//! The first pass of the separable transforms: per cell, how many rows away the nearest
//! background cell of its column is, read from the packed bits.
//!
//! Going down, each cell's distance to the nearest background cell above it is the cell
//! above's plus one, or 0 on a background cell: one branch-free `u32` lane per column, 64
//! lanes per word of the grid (the set bit of a lane becomes a mask of all ones), into a
//! scratch plane. Going up, the same from below, and the smaller of the two is final: each
//! row is handed over as soon as it is, bottom row first, while it is still in cache.

use crate::error::try_filled;
use crate::{BitGrid, SizeError};

/// The column distance of a cell whose column holds no background cell (larger than any
/// real one; `+ 1` on it stays clear of overflow).
pub(super) const NONE: u32 = u32::MAX / 2;

/// Calls `row(y, g)` for every row `y`, from the bottom row up, with `g[x]` the distance
/// from `(x, y)` to the nearest background cell in column `x` (0 on a background cell,
/// [`NONE`] in a column without one).
///
/// # Errors
///
/// A [`SizeError`] if the scratch plane (one `u32` per cell) cannot be had.
pub(super) fn column_distances(
    grid: &BitGrid,
    mut row: impl FnMut(usize, &[u32]),
) -> Result<(), SizeError> {
    let (w, h) = grid.size();
    if w == 0 || h == 0 {
        return Ok(());
    }
    let mut above: Vec<u32> = try_filled("column distances", w, h, (w * h) as u128, 0)?;
    let mut prev: Vec<u32> = try_filled("column distances", w, h, w as u128, NONE)?;
    for y in 0..h {
        let cur = &mut above[y * w..(y + 1) * w];
        step(grid.row_words(y), &prev, cur);
        prev.copy_from_slice(cur);
    }
    // `prev` now runs from below.
    prev.fill(NONE);
    let mut below = vec![0u32; w];
    for y in (0..h).rev() {
        step(grid.row_words(y), &prev, &mut below);
        let cur = &mut above[y * w..(y + 1) * w];
        for (c, &b) in cur.iter_mut().zip(&below) {
            *c = (*c).min(b);
        }
        row(y, cur);
        std::mem::swap(&mut prev, &mut below);
    }
    Ok(())
}

/// One row of a column scan: `out[x]` is `prev[x] + 1` (at most [`NONE`]) where the bit of
/// column `x` in `words` is set, else 0.
#[inline]
fn step(words: &[u64], prev: &[u32], out: &mut [u32]) {
    for ((o, p), &word) in out.chunks_mut(64).zip(prev.chunks(64)).zip(words) {
        if word == 0 {
            o.fill(0);
            continue;
        }
        for (i, (o, &p)) in o.iter_mut().zip(p).enumerate() {
            let m = 0u32.wrapping_sub(((word >> i) & 1) as u32);
            *o = (p + 1).min(NONE) & m;
        }
    }
}
