//! City-block distances of deep shapes, separably: the column distances of
//! [`columns`](super::columns) (read from the packed bits), then per row the distance is
//! `min over x' of |x - x'| + g[x']`, two sweeps along the row (left to right, then right to
//! left, each taking the smaller of the cell's own and its neighbour's plus one). Every cell
//! is touched a fixed number of times, however deep the shapes: this is what the erosion
//! layers hand over to past their budget.

use super::columns::column_distances;
use crate::{BitGrid, SizeError};

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
    let w = grid.width();
    let mut run_row = vec![0u32; w];
    column_distances(grid, |y, g| {
        let mut run = u32::MAX / 2;
        for (r, &g) in run_row.iter_mut().zip(g) {
            run = g.min(run + 1);
            *r = run;
        }
        let mut run = u32::MAX / 2;
        for (o, &r) in out[y * w..(y + 1) * w].iter_mut().zip(&run_row).rev() {
            run = r.min(run + 1);
            *o = f(run);
        }
    })
}
