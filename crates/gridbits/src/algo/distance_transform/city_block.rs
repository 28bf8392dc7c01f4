//! City-block distances of deep shapes, separably: the column distances of
//! [`columns`](super::columns) (read from the packed bits), then per row the distance is
//! `min over x' of |x - x'| + g[x']`, two sweeps along the row (left to right, then right to
//! left, each taking the smaller of the cell's own and its neighbour's plus one). Every cell
//! is touched a fixed number of times, however deep the shapes: this is what the erosion
//! layers hand over to past their budget. Each sweep is a chain of dependent steps, so the
//! rows go [`LANES`] at a time, their chains interleaved.

use super::columns::column_distances;
use crate::{BitGrid, SizeError};

/// Rows swept together.
const LANES: usize = 4;

/// Writes every cell's city-block distance through `f` into `out` (row-major, one per
/// cell). The grid must hold a background cell (then every cell has a distance) and its
/// sides must be below [`MAX_SIDE`](super::columns::MAX_SIDE).
///
/// # Errors
///
/// A [`SizeError`] if the scratch memory cannot be had.
pub(super) fn city_block_distances<T: Copy>(
    grid: &BitGrid,
    out: &mut [T],
    f: impl Fn(u32) -> T,
) -> Result<(), SizeError> {
    let (w, h) = grid.size();
    // Up to LANES rows of column distances, row-major, and the first row's index.
    let mut block = vec![0u32; LANES * w];
    let mut first = 0;
    column_distances(grid, |y, g| {
        let k = y - first;
        block[k * w..(k + 1) * w].copy_from_slice(g);
        if k + 1 == LANES || y + 1 == h {
            let rows = &mut out[first * w..(y + 1) * w];
            if k + 1 == LANES {
                sweep_block(&mut block, rows, w, &f);
            } else {
                for (b, o) in block.chunks_mut(w).zip(rows.chunks_mut(w)) {
                    sweep_row(b, o, &f);
                }
            }
            first = y + 1;
        }
    })
}

/// Both sweeps of one row `g` (overwritten with the forward sweep) into `out`.
fn sweep_row<T: Copy>(g: &mut [u32], out: &mut [T], f: &impl Fn(u32) -> T) {
    let mut run = u32::MAX / 2;
    for g in g.iter_mut() {
        run = (*g).min(run + 1);
        *g = run;
    }
    let mut run = u32::MAX / 2;
    for (o, &r) in out.iter_mut().zip(g.iter()).rev() {
        run = r.min(run + 1);
        *o = f(run);
    }
}

/// [`sweep_row`] on [`LANES`] rows at once (`block` and `out` row-major, `w` a row), the
/// rows' chains interleaved.
fn sweep_block<T: Copy>(block: &mut [u32], out: &mut [T], w: usize, f: &impl Fn(u32) -> T) {
    let (b0, rest) = block.split_at_mut(w);
    let (b1, rest) = rest.split_at_mut(w);
    let (b2, b3) = rest.split_at_mut(w);
    let mut run = [u32::MAX / 2; LANES];
    for x in 0..w {
        run[0] = b0[x].min(run[0] + 1);
        run[1] = b1[x].min(run[1] + 1);
        run[2] = b2[x].min(run[2] + 1);
        run[3] = b3[x].min(run[3] + 1);
        b0[x] = run[0];
        b1[x] = run[1];
        b2[x] = run[2];
        b3[x] = run[3];
    }
    let (o0, rest) = out.split_at_mut(w);
    let (o1, rest) = rest.split_at_mut(w);
    let (o2, o3) = rest.split_at_mut(w);
    let mut run = [u32::MAX / 2; LANES];
    for x in (0..w).rev() {
        run[0] = b0[x].min(run[0] + 1);
        run[1] = b1[x].min(run[1] + 1);
        run[2] = b2[x].min(run[2] + 1);
        run[3] = b3[x].min(run[3] + 1);
        o0[x] = f(run[0]);
        o1[x] = f(run[1]);
        o2[x] = f(run[2]);
        o3[x] = f(run[3]);
    }
}
