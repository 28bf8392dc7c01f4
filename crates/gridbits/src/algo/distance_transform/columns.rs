//! The first pass of the separable transforms: per cell, how many rows away the nearest
//! background cell of its column is, read from the packed bits.
//!
//! Going up, each cell's distance to the nearest background cell below it is the cell
//! below's plus one, or 0 on a background cell: one branch-free `u32` lane per column, 64
//! lanes per word of the grid (the set bit of a lane becomes a mask of all ones), into a
//! scratch plane. Going down, the same from above, and the smaller of the two is final: each
//! row is handed over as soon as it is, top row first, while it is still in cache (so the
//! callers write their output once, in order).

use crate::error::try_filled;
use crate::{BitGrid, SizeError};
use std::ops::Range;

/// The least column distance of a cell whose column holds no background cell (larger than
/// any real one): such cells count up from it, `NONE` to `NONE + height`, so every value
/// from `NONE` up means "none" (the callers keep the height below [`MAX_SIDE`]).
pub(super) const NONE: u32 = u32::MAX / 2;

/// Sides below this keep the column distances (up to `NONE + height`) and the row passes'
/// arithmetic clear of overflow.
pub(super) const MAX_SIDE: usize = 1 << 28;

/// Calls `row(y, g)` for every row `y` of `rows` (a band of the grid, or all of it), from
/// the top row down, with `g[x]` the distance from `(x, y)` to the nearest background cell in
/// column `x` of the whole grid (0 on a background cell, [`NONE`] or more in a column
/// without one). The grid's sides must be below [`MAX_SIDE`]. A band starts from what lies
/// beyond its ends, read from the bits ([`boundary`]), so bands are independent of each
/// other: threads can take one each.
///
/// # Errors
///
/// A [`SizeError`] if the scratch plane (one `u32` per cell of the band) cannot be had.
#[inline(always)]
pub(super) fn column_distances(
    grid: &BitGrid,
    rows: Range<usize>,
    mut row: impl FnMut(usize, &[u32]),
) -> Result<(), SizeError> {
    let (w, h) = grid.size();
    debug_assert!(w.max(h) < MAX_SIDE && rows.end <= h);
    let (y0, y1) = (rows.start, rows.end);
    if w == 0 || y0 >= y1 {
        return Ok(());
    }
    let n = y1 - y0;
    // Going up: the distance to the nearest background cell below, kept for every cell,
    // from the rows below the band.
    let mut below: Vec<u32> = try_filled("column distances", w, h, (w * n) as u128, 0)?;
    let mut prev: Vec<u32> = try_filled("column distances", w, h, w as u128, NONE)?;
    boundary(grid, y1..h, &mut prev);
    for y in (y0..y1).rev() {
        let cur = &mut below[(y - y0) * w..(y - y0 + 1) * w];
        step(grid.row_words(y), &prev, cur);
        prev.copy_from_slice(cur);
    }
    // Going down: from above (the rows above the band first), on the fly, and each row
    // handed over at once.
    boundary(grid, (0..y0).rev(), &mut prev);
    let mut above = vec![0u32; w];
    for y in y0..y1 {
        step(grid.row_words(y), &prev, &mut above);
        let cur = &mut below[(y - y0) * w..(y - y0 + 1) * w];
        for (c, &a) in cur.iter_mut().zip(&above) {
            *c = (*c).min(a);
        }
        row(y, cur);
        std::mem::swap(&mut prev, &mut above);
    }
    Ok(())
}

/// What a column scan carries in from the rows `rows` beyond a band, nearest first: `out[x]`
/// becomes the number of those rows before the first with column `x` unset (the distance
/// from the first of them to it), or [`NONE`] plus their number where none is, as the scan
/// itself would have left it. Reads the bits, a word of 64 columns at a time, and stops
/// once every column has its answer.
fn boundary(grid: &BitGrid, rows: impl ExactSizeIterator<Item = usize>, out: &mut [u32]) {
    let w = out.len();
    let count = rows.len() as u32;
    out.fill(NONE + count);
    // The columns of each word still without a background cell.
    let mut open: Vec<u64> = (0..w.div_ceil(64))
        .map(|k| {
            let cols = (w - 64 * k).min(64);
            u64::MAX >> (64 - cols)
        })
        .collect();
    let mut left = open.len();
    for (k, y) in rows.enumerate() {
        if left == 0 {
            break;
        }
        for (i, (o, &word)) in open.iter_mut().zip(grid.row_words(y)).enumerate() {
            let mut hit = *o & !word;
            if hit == 0 {
                continue;
            }
            *o &= !hit;
            left -= usize::from(*o == 0);
            while hit != 0 {
                out[64 * i + hit.trailing_zeros() as usize] = k as u32;
                hit &= hit - 1;
            }
        }
    }
}

/// One row of a column scan: `out[x]` is `prev[x] + 1` where the bit of column `x` in
/// `words` is set, else 0 (the caller keeps `NONE + height` below `u32::MAX`). Each
/// half-word's bits are tested against constant lane masks, a loop the compiler turns into
/// vector compares.
#[inline(always)]
pub(super) fn step(words: &[u64], prev: &[u32], out: &mut [u32]) {
    for ((o, p), &word) in out.chunks_mut(64).zip(prev.chunks(64)).zip(words) {
        if word == 0 {
            o.fill(0);
        } else if o.len() == 64 {
            let (lo, hi) = (word as u32, (word >> 32) as u32);
            let (o_lo, o_hi) = o.split_at_mut(32);
            let (p_lo, p_hi) = p.split_at(32);
            let (o_lo, o_hi, p_lo, p_hi) =
                (&mut o_lo[..32], &mut o_hi[..32], &p_lo[..32], &p_hi[..32]);
            for k in 0..32 {
                o_lo[k] = (p_lo[k] + 1) & 0u32.wrapping_sub(u32::from(lo & (1 << k) != 0));
                o_hi[k] = (p_hi[k] + 1) & 0u32.wrapping_sub(u32::from(hi & (1 << k) != 0));
            }
        } else {
            for (i, (o, &p)) in o.iter_mut().zip(p).enumerate() {
                *o = if (word >> i) & 1 == 1 { p + 1 } else { 0 };
            }
        }
    }
}
