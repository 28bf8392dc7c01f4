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

/// Visits the cells of every region block by block: for each block of 64 cells of each
/// row, `visit(label, y, base, piece)` with `piece` a mask of cells (bit `i`: cell `base +
/// i` of row `y`) of one region: a block of one region (the common case) is one piece,
/// whatever its gaps; a block of several regions is cut into its runs of equal labels (a
/// run that crosses blocks comes in one piece per block). Errors are those of `visit`.
#[inline(always)]
pub(super) fn for_each_piece<T: LabelValue, E>(
    labels: &[T],
    width: usize,
    height: usize,
    mut visit: impl FnMut(u64, usize, usize, u64) -> Result<(), E>,
) -> Result<(), E> {
    for y in 0..height {
        let row = &labels[y * width..(y + 1) * width];
        for (b, block) in row.chunks(64).enumerate() {
            let base = b * 64;
            let mut cells = [0u64; 64];
            for (c, &v) in cells.iter_mut().zip(block) {
                *c = v.label();
            }
            let set = mask(&cells, |c| c != 0);
            if set == 0 {
                continue;
            }
            let first = cells[set.trailing_zeros() as usize];
            if mask(&cells, |c| c == first) == set {
                visit(first, y, base, set)?;
                continue;
            }
            // Runs within the block: from a cell that differs from the one before (the
            // block's first cell starts one) to one that differs from the one after.
            let mut previous = [0u64; 64];
            previous[1..].copy_from_slice(&cells[..63]);
            let differs = mask_pairs(&cells, &previous) | 1;
            let mut starts = set & differs;
            let mut ends = set & ((differs >> 1) | (1 << 63));
            while starts != 0 {
                let (s, e) = (starts.trailing_zeros(), ends.trailing_zeros());
                starts &= starts - 1;
                ends &= ends - 1;
                // Bits s..=e.
                let piece = (u64::MAX >> (63 - e)) & (u64::MAX << s);
                visit(cells[s as usize], y, base, piece)?;
            }
        }
    }
    Ok(())
}

/// Bit `i` set where `keep(cells[i])`: one loop the compiler vectorizes.
#[inline(always)]
fn mask(cells: &[u64; 64], keep: impl Fn(u64) -> bool) -> u64 {
    let mut m = 0u64;
    for (i, &c) in cells.iter().enumerate() {
        m |= u64::from(keep(c)) << i;
    }
    m
}

/// Bit `i` set where `a[i] != b[i]`.
#[inline(always)]
fn mask_pairs(a: &[u64; 64], b: &[u64; 64]) -> u64 {
    let mut m = 0u64;
    for i in 0..64 {
        m |= u64::from(a[i] != b[i]) << i;
    }
    m
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
