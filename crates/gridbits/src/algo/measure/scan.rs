//! The runs of equal nonzero labels of a label image, row by row, found without a branch per
//! cell: each block of 64 cells becomes two bit masks (cells that start a run, cells just
//! past the end of one) built from comparisons that the compiler turns into vector code,
//! and only the set bits are visited. A row of long runs costs a few operations per 64
//! cells; a row of noise one per run end, where a per-cell loop mispredicts a branch at
//! every change of label.

use super::LabelValue;

/// The runs of one row: `starts[i]..ends[i]` is the `i`-th run of equal nonzero labels.
pub(super) struct RowRuns {
    starts: Vec<u32>,
    ends: Vec<u32>,
    count: usize,
}

impl RowRuns {
    /// Buffers for rows of `width` cells (at most `width` runs each); `None` when `width`
    /// does not fit the `u32` positions or the memory cannot be had.
    pub(super) fn new(width: usize) -> Option<Self> {
        let cap = width + 1;
        u32::try_from(width).ok()?;
        let mut starts = Vec::new();
        let mut ends = Vec::new();
        starts.try_reserve_exact(cap).ok()?;
        ends.try_reserve_exact(cap).ok()?;
        starts.resize(cap, 0);
        ends.resize(cap, 0);
        Some(RowRuns {
            starts,
            ends,
            count: 0,
        })
    }

    /// The runs found by the last [`scan`](Self::scan), as `(start, end)` pairs.
    #[inline(always)]
    pub(super) fn runs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.starts[..self.count]
            .iter()
            .zip(&self.ends[..self.count])
            .map(|(&s, &e)| (s as usize, e as usize))
    }

    /// Finds the runs of equal nonzero labels of `row` (at most the `width` given to
    /// [`new`](Self::new) cells).
    pub(super) fn scan<T: LabelValue>(&mut self, row: &[T]) {
        let (mut ns, mut ne) = (0usize, 0usize);
        // The label of the cell before the block (0 before the row).
        let mut before = 0u64;
        for (b, block) in row.chunks(64).enumerate() {
            let base = (b * 64) as u32;
            let mut labels = [0u64; 64];
            for (l, &v) in labels.iter_mut().zip(block) {
                *l = v.label();
            }
            let n = block.len();
            // Bit i: cell i differs from the cell before it; cell i is nonzero (the same
            // shape of loop twice, over whole arrays: vector compares).
            let mut previous = [0u64; 64];
            previous[0] = before;
            previous[1..].copy_from_slice(&labels[..63]);
            let (mut differs, mut nonzero) = (0u64, 0u64);
            for (i, (&l, &p)) in labels.iter().zip(&previous).enumerate() {
                differs |= u64::from(l != p) << i;
                nonzero |= u64::from(l != 0) << i;
            }
            let valid = if n == 64 { !0 } else { (1u64 << n) - 1 };
            differs &= valid;
            nonzero &= valid;
            let nonzero_before = (nonzero << 1) | u64::from(before != 0);
            let mut starts = differs & nonzero;
            let mut ends = differs & nonzero_before;
            while starts != 0 {
                self.starts[ns] = base + starts.trailing_zeros();
                ns += 1;
                starts &= starts - 1;
            }
            while ends != 0 {
                self.ends[ne] = base + ends.trailing_zeros();
                ne += 1;
                ends &= ends - 1;
            }
            before = labels[n - 1];
        }
        if before != 0 {
            self.ends[ne] = row.len() as u32;
            ne += 1;
        }
        debug_assert_eq!(ns, ne);
        self.count = ns;
    }
}

#[cfg(test)]
mod tests {
    use super::RowRuns;

    /// The runs of a row, found one cell at a time.
    fn plain(row: &[i16]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut x = 0;
        while x < row.len() {
            let s = x;
            while x < row.len() && row[x].max(0) == row[s].max(0) {
                x += 1;
            }
            if row[s] > 0 {
                out.push((s, x));
            }
        }
        out
    }

    #[test]
    fn runs_as_a_plain_scan_finds_them() {
        // xorshift64: the test kit is for the integration tests only.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for width in [0usize, 1, 2, 63, 64, 65, 127, 128, 129, 300] {
            for classes in [1u64, 2, 3, 7] {
                for _ in 0..20 {
                    let long = next(2) == 0;
                    let mut row: Vec<i16> = Vec::with_capacity(width);
                    for x in 0..width {
                        let copy = x > 0 && long && next(5) != 0;
                        row.push(if copy {
                            row[x - 1]
                        } else {
                            next(classes) as i16 - 1
                        });
                    }
                    let mut runs = RowRuns::new(width).expect("buffers");
                    runs.scan(&row);
                    assert_eq!(runs.runs().collect::<Vec<_>>(), plain(&row), "{row:?}");
                }
            }
        }
    }
}
