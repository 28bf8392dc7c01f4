//! Component statistics: the summary path that never writes a label image.

use super::bits::push_bits;
use super::component_stats::{ComponentStats, StatsSink};
use super::source::Source;
#[cfg(target_arch = "x86_64")]
use super::x86;
use super::{memory_error, Labeller};
use crate::{BitGrid, Connectivity, SizeError};

/// Sum of the positions of the set bits of `v`: bit `k` of each position, weighted.
#[inline(always)]
fn position_sum(v: u64) -> u64 {
    const BIT: [u64; 6] = [
        0xaaaa_aaaa_aaaa_aaaa,
        0xcccc_cccc_cccc_cccc,
        0xf0f0_f0f0_f0f0_f0f0,
        0xff00_ff00_ff00_ff00,
        0xffff_0000_ffff_0000,
        0xffff_ffff_0000_0000,
    ];
    let mut s = 0;
    for (k, m) in BIT.iter().enumerate() {
        s += u64::from((v & m).count_ones()) << k;
    }
    s
}

impl Labeller {
    /// The size and bounding box of every component, in label order (raster order of their
    /// first cell), without writing a label image: the summary path. Returns the count.
    pub fn stats(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        stats: &mut Vec<ComponentStats>,
    ) -> Result<u32, SizeError> {
        if let Some(rows) = self.stripe_rows(grid.size(), conn) {
            return self.striped(Source::Grid(grid), conn, rows, None, Some(stats));
        }
        self.reserve_row_tables(grid)?;
        dispatch!(self, x86::stats, stats_body(grid, conn, stats))
    }

    #[inline(always)]
    pub(super) fn stats_body(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        stats: &mut Vec<ComponentStats>,
    ) -> Result<u32, SizeError> {
        let (w, h) = (grid.width(), grid.height());
        let count = self.scan_body(grid, conn)?;
        stats.clear();
        stats.try_reserve_exact(count as usize).map_err(|_| {
            memory_error::<ComponentStats>(
                w,
                h,
                count as usize,
                "not enough memory for the statistics",
            )
        })?;
        stats.resize(count as usize, ComponentStats::EMPTY);
        self.accumulate_body(grid, conn, 0, &mut stats[..]);
        Ok(count)
    }

    /// After [`scan`](Self::scan): adds every run of `grid`, moved down by `dy` rows, to
    /// the statistics of its label in `sink`.
    pub(super) fn accumulate<S: StatsSink + ?Sized>(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        dy: usize,
        sink: &mut S,
    ) {
        dispatch!(self, x86::accumulate, accumulate_body(grid, conn, dy, sink))
    }

    #[inline(always)]
    pub(super) fn accumulate_body<S: StatsSink + ?Sized>(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        dy: usize,
        sink: &mut S,
    ) {
        match conn {
            Connectivity::Four => {
                self.for_each_row(grid, conn, 0, |y, starts, ends, labels| {
                    for ((&s, &e), &label) in starts.iter().zip(ends).zip(labels) {
                        sink.at(label).add_run(y + dy, s as usize, e as usize);
                    }
                });
            }
            Connectivity::Eight => self.stats_pairs(grid, dy, sink),
        }
    }

    /// Statistics from the runs of the merged row pairs: a run's cells in each row, and the
    /// sum of their columns, are prefix popcounts of the rows at its end minus those at the
    /// previous run's end (the gap between two runs is empty in both rows); its columns are
    /// its span.
    #[inline(always)]
    fn stats_pairs<S: StatsSink + ?Sized>(&mut self, grid: &BitGrid, dy: usize, sink: &mut S) {
        let (w, h, wpr) = (grid.width(), grid.height(), grid.words_per_row());
        let words = grid.words();
        let cap = w / 2 + 2;
        if self.run_start.len() < cap {
            self.run_start.resize(cap, 0);
            self.run_end.resize(cap, 0);
            self.run_label.resize(cap, 0);
        }
        // A merged run covers every column of its span in one row or both, so its cells are
        // its span plus the columns set in both rows (`v`), and their columns' sum the span's
        // plus those of `v`. Before each word: the cells of `v`, of the bottom row, and the
        // sum of the columns of `v`.
        self.unit_prefix.resize(2 * (wpr + 1), 0);
        self.column_sums.resize(wpr + 1, 0);
        (
            self.unit_prefix[0],
            self.unit_prefix[wpr + 1],
            self.column_sums[0],
        ) = (0, 0, 0);
        let mut base = 0usize;
        for k in 0..h.div_ceil(2) {
            let y0 = 2 * k;
            let rows = 2.min(h - y0);
            // The rows of the pair (the second empty past the last row).
            let top = &words[y0 * wpr..(y0 + 1) * wpr];
            let bottom = if rows == 2 {
                &words[(y0 + 1) * wpr..(y0 + 2) * wpr]
            } else {
                &self.unit_starts[..0]
            };
            let (mut ns, mut ne) = (0usize, 0usize);
            let mut carry = 0u64;
            for (j, &t) in top.iter().enumerate() {
                let b = bottom.get(j).copied().unwrap_or(0);
                let m = t | b;
                let shifted = (m << 1) | carry;
                let at = (j * 64) as u32;
                push_bits(m & !shifted, at, &mut self.run_start, &mut ns);
                push_bits(!m & shifted, at, &mut self.run_end, &mut ne);
                carry = m >> 63;
                let v = t & b;
                let cv = v.count_ones();
                self.unit_prefix[j + 1] = self.unit_prefix[j] + cv;
                self.unit_prefix[wpr + 1 + j + 1] = self.unit_prefix[wpr + 1 + j] + b.count_ones();
                self.column_sums[j + 1] =
                    self.column_sums[j] + position_sum(v) + (j as u64 * 64) * u64::from(cv);
            }
            if carry != 0 {
                self.run_end[ne] = w as u32;
                ne += 1;
            }
            debug_assert_eq!(ns, ne);
            // Per run: the cells of `v` and of the bottom row before its end, and the sum of
            // the columns of `v`, minus the same before the previous run's end (the gap
            // between two runs is empty in both rows). (Straight code, no closure, so that it
            // is compiled with the caller's POPCNT.)
            let (mut v_before, mut bottom_before, mut sum_before) = (0u32, 0u32, 0u64);
            for i in 0..ns {
                let (s, e) = (self.run_start[i] as usize, self.run_end[i] as usize);
                let (j, bit) = (e / 64, e % 64);
                let (mut v_after, mut bottom_after) =
                    (self.unit_prefix[j], self.unit_prefix[wpr + 1 + j]);
                let mut sum_after = self.column_sums[j];
                if bit != 0 {
                    let below = (1u64 << bit) - 1;
                    let b = bottom.get(j).copied().unwrap_or(0) & below;
                    let v = top[j] & b;
                    let cv = v.count_ones();
                    v_after += cv;
                    bottom_after += b.count_ones();
                    sum_after += position_sum(v) + (j as u64 * 64) * u64::from(cv);
                }
                let span = (e - s) as u64;
                let size = span + u64::from(v_after - v_before);
                let b = u64::from(bottom_after - bottom_before);
                let t = size - b;
                let st = sink.at(self.parent[base + i]);
                let y = y0 + dy;
                st.size += size;
                st.min_x = st.min_x.min(s);
                st.max_x = st.max_x.max(e - 1);
                st.min_y = st.min_y.min(if t > 0 { y } else { y + 1 });
                st.max_y = if b > 0 { y + 1 } else { st.max_y.max(y) };
                // s + ... + (e - 1), plus the columns counted twice.
                st.sum_x += (s + e - 1) as u64 * span / 2 + (sum_after - sum_before);
                st.sum_y += y as u64 * t + (y as u64 + 1) * b;
                (v_before, bottom_before, sum_before) = (v_after, bottom_after, sum_after);
            }
            base += ns;
        }
    }
}
