//! Component statistics: the summary path that never writes a label image.

use super::labeller::{merged, push_bits};
#[cfg(target_arch = "x86_64")]
use super::x86;
use super::{size_error, Labeller};
use crate::{BitGrid, Connectivity, SizeError};

/// Size and bounding box of one component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ComponentStats {
    /// Number of cells.
    pub size: u64,
    /// Smallest `x` of a cell.
    pub min_x: usize,
    /// Smallest `y` of a cell.
    pub min_y: usize,
    /// Largest `x` of a cell.
    pub max_x: usize,
    /// Largest `y` of a cell.
    pub max_y: usize,
}

impl ComponentStats {
    pub(super) const EMPTY: ComponentStats = ComponentStats {
        size: 0,
        min_x: usize::MAX,
        min_y: usize::MAX,
        max_x: 0,
        max_y: 0,
    };

    #[inline(always)]
    pub(super) fn add_run(&mut self, y: usize, start: usize, end: usize) {
        self.size += (end - start) as u64;
        self.min_x = self.min_x.min(start);
        self.max_x = self.max_x.max(end - 1);
        self.min_y = self.min_y.min(y);
        self.max_y = y;
    }
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
        stats
            .try_reserve_exact(count as usize)
            .map_err(|_| size_error(w, h, "not enough memory for the statistics"))?;
        stats.resize(count as usize, ComponentStats::EMPTY);
        match conn {
            Connectivity::Four => {
                self.for_each_row(grid, conn, 0, |y, starts, ends, labels| {
                    for ((&s, &e), &label) in starts.iter().zip(ends).zip(labels) {
                        stats[label as usize - 1].add_run(y, s as usize, e as usize);
                    }
                });
            }
            Connectivity::Eight => self.stats_pairs(grid, stats),
        }
        Ok(count)
    }

    /// Statistics from the runs of the merged row pairs: a run's cells in each row are
    /// prefix popcounts of the row at its ends, its columns are its span.
    #[inline(always)]
    fn stats_pairs(&mut self, grid: &BitGrid, stats: &mut [ComponentStats]) {
        let (w, h, wpr) = (grid.width(), grid.height(), grid.words_per_row());
        let words = grid.words();
        let cap = w / 2 + 2;
        if self.run_start.len() < cap {
            self.run_start.resize(cap, 0);
            self.run_end.resize(cap, 0);
            self.run_label.resize(cap, 0);
        }
        // Cells of each row of the pair before each word.
        self.unit_prefix.resize(2 * (wpr + 1), 0);
        let mut base = 0usize;
        for k in 0..h.div_ceil(2) {
            let y0 = 2 * k;
            let rows = 2.min(h - y0);
            let (mut ns, mut ne) = (0usize, 0usize);
            let mut carry = 0u64;
            for j in 0..wpr {
                let m = merged(words, wpr, h, 2, k, j);
                let shifted = (m << 1) | carry;
                let at = (j * 64) as u32;
                push_bits(m & !shifted, at, &mut self.run_start, &mut ns);
                push_bits(!m & shifted, at, &mut self.run_end, &mut ne);
                carry = m >> 63;
                for r in 0..2 {
                    let cells = if r < rows {
                        words[(y0 + r) * wpr + j].count_ones()
                    } else {
                        0
                    };
                    self.unit_prefix[r * (wpr + 1) + j + 1] =
                        self.unit_prefix[r * (wpr + 1) + j] + cells;
                }
            }
            if carry != 0 {
                self.run_end[ne] = w as u32;
                ne += 1;
            }
            debug_assert_eq!(ns, ne);
            // Set cells of row `r` of the pair before column `x`.
            let prefix = |r: usize, x: usize| -> u32 {
                if r >= rows {
                    return 0;
                }
                let (j, bit) = (x / 64, x % 64);
                let before = if bit == 0 {
                    0
                } else {
                    (words[(y0 + r) * wpr + j] << (64 - bit)).count_ones()
                };
                self.unit_prefix[r * (wpr + 1) + j] + before
            };
            for i in 0..ns {
                let (s, e) = (self.run_start[i] as usize, self.run_end[i] as usize);
                let top = prefix(0, e) - prefix(0, s);
                let bottom = prefix(1, e) - prefix(1, s);
                let st = &mut stats[self.parent[base + i] as usize - 1];
                st.size += u64::from(top + bottom);
                st.min_x = st.min_x.min(s);
                st.max_x = st.max_x.max(e - 1);
                st.min_y = st.min_y.min(if top > 0 { y0 } else { y0 + 1 });
                st.max_y = if bottom > 0 { y0 + 1 } else { st.max_y.max(y0) };
            }
            base += ns;
        }
    }
}
