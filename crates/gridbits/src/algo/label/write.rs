//! The portable label writer, and the choice of writer.

use super::source::Source;
#[cfg(target_arch = "x86_64")]
use super::x86;
#[cfg(target_arch = "x86_64")]
use super::AVX2_WRITER;
use super::{memory_error, ComponentStats, Labeller, Labels, CHUNK};
use crate::{BitGrid, Connectivity, SizeError};

impl Labeller {
    /// Labels `grid` into `out` (reusing its memory) and returns the number of components.
    /// Errors only when the label image or the scratch space cannot be allocated, or the
    /// grid has 2^32 runs or more; `out` then holds its previous image or an empty (0 x 0)
    /// one, never a partly written image.
    pub fn label(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        out: &mut Labels,
    ) -> Result<u32, SizeError> {
        self.label_dispatch(grid, conn, out, None)
    }

    /// Labels `grid` into `out` and fills `stats` with the size and bounding box of every
    /// component (`stats[label - 1]`).
    pub fn label_with_stats(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        out: &mut Labels,
        stats: &mut Vec<ComponentStats>,
    ) -> Result<u32, SizeError> {
        self.label_dispatch(grid, conn, out, Some(stats))
    }

    fn label_dispatch(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        out: &mut Labels,
        stats: Option<&mut Vec<ComponentStats>>,
    ) -> Result<u32, SizeError> {
        let bytes = grid.width().saturating_mul(grid.height()).saturating_mul(4);
        self.stream = self.stores.streams(bytes);
        self.stream_runs = self.stores.streams_runs(bytes);
        if let Some(rows) = self.stripe_rows(grid.size(), conn) {
            return self.striped(Source::Grid(grid), conn, rows, Some(out), stats);
        }
        self.reserve_row_tables(grid)?;
        #[cfg(target_arch = "x86_64")]
        {
            if stats.is_none() && self.may(AVX2_WRITER) {
                // SAFETY: `cpu::has(AVX2_WRITER)` checked AVX2, POPCNT, BMI1, BMI2 and LZCNT just
                // above: the features `x86::label_avx2` is compiled for, its only requirement.
                return unsafe { x86::label_avx2(self, grid, conn, out) };
            }
        }
        dispatch!(self, x86::label, label_body(grid, conn, out, stats))
    }

    /// The portable writer: each gap and each run in chunks of [`CHUNK`] cells.
    #[inline(always)]
    pub(super) fn label_body(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        out: &mut Labels,
        mut stats: Option<&mut Vec<ComponentStats>>,
    ) -> Result<u32, SizeError> {
        let (w, h) = (grid.width(), grid.height());
        out.resize(w, h)?;
        let count = self.scan_body(grid, conn)?;
        if let Some(s) = stats.as_deref_mut() {
            s.clear();
            s.try_reserve_exact(count as usize).map_err(|_| {
                let n = count as usize;
                memory_error::<ComponentStats>(w, h, n, "not enough memory for the statistics")
            })?;
            s.resize(count as usize, ComponentStats::EMPTY);
        }
        let data = out.cells_mut();
        self.for_each_row(grid, conn, 0, |y, starts, ends, labels| {
            // The row and everything after it: chunks may spill into the next row (which
            // is written later) or the spare cells after the last one.
            let cells = &mut data[y * w..];
            let mut x = 0usize;
            for ((&s, &e), &label) in starts.iter().zip(ends).zip(labels) {
                let (s, e) = (s as usize, e as usize);
                fill_chunks(cells, x, s, 0);
                fill_chunks(cells, s, e, label);
                x = e;
                if let Some(st) = stats.as_deref_mut() {
                    st[label as usize - 1].add_run(y, s, e);
                }
            }
            fill_chunks(cells, x, w, 0);
        });
        out.count = count;
        Ok(count)
    }
}

/// Writes `value` over cells `from..to` of `cells` in chunks of [`CHUNK`], at least one: the
/// last chunk may write up to `CHUNK - 1` cells past `to`, which the caller overwrites next
/// (or which are spare cells).
#[inline(always)]
fn fill_chunks(cells: &mut [u32], from: usize, to: usize, value: u32) {
    let chunk = [value; CHUNK];
    let mut i = from;
    loop {
        cells[i..i + CHUNK].copy_from_slice(&chunk);
        i += CHUNK;
        if i >= to {
            break;
        }
    }
}
