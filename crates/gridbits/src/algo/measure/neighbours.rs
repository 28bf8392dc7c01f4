//! Which neighbours of each cell hold its label, as bit masks: one pass of vector compares
//! over the label image gives, per block of 64 cells, the cells of a region and the cells
//! equal to their left, upper, upper-left and upper-right neighbours; the other four
//! directions are these masks shifted (a cell equals its right neighbour when that one
//! equals its left, ...). The perimeter and Euler passes read them instead of comparing
//! labels again.

use super::{nonzero_mask, table, LabelValue};
use crate::algo::runs::masks::shifted_eq;
use crate::SizeError;

/// The neighbour masks of a label image, `words` words a row (bit `i` of word `j` of row
/// `y`: cell `64 j + i`), 0 past the row's end and off the image.
pub(super) struct Neighbours {
    /// Words per row.
    pub(super) words: usize,
    height: usize,
    /// Cells of a region (label not 0).
    set: Vec<u64>,
    /// Cells equal to their left neighbour.
    left: Vec<u64>,
    /// Cells equal to their upper neighbour.
    up: Vec<u64>,
    /// Cells equal to their upper-left neighbour.
    up_left: Vec<u64>,
    /// Cells equal to their upper-right neighbour.
    up_right: Vec<u64>,
}

/// The masks of one block of 64 cells: `[set, left, right, up, down, up_left, up_right,
/// down_left, down_right]`, each neighbour mask "equal to that neighbour" (so meaningful
/// where `set`).
pub(super) type Block = [u64; 9];

impl Neighbours {
    /// The masks of `labels` (`width x height`, row-major, `labels.len()` checked by the
    /// caller).
    pub(super) fn new<T: LabelValue>(
        labels: &[T],
        width: usize,
        height: usize,
    ) -> Result<Self, SizeError> {
        let features = crate::cpu::Features::AVX2;
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has(features) {
            // SAFETY: `cpu::has` checked AVX2 just above: the feature `avx2` is compiled
            // for, its only requirement.
            return unsafe { Self::avx2(labels, width, height) };
        }
        let _ = features;
        Self::build(labels, width, height)
    }

    /// [`build`](Self::build) compiled for AVX2 (compares of wide labels four or more at a
    /// time).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn avx2<T: LabelValue>(labels: &[T], width: usize, height: usize) -> Result<Self, SizeError> {
        Self::build(labels, width, height)
    }

    #[inline(always)]
    fn build<T: LabelValue>(labels: &[T], width: usize, height: usize) -> Result<Self, SizeError> {
        let size = (width, height);
        let words = width.div_ceil(64);
        let n = words * height;
        let mut m = Neighbours {
            words,
            height,
            set: table(n, 0, size)?,
            left: table(n, 0, size)?,
            up: table(n, 0, size)?,
            up_left: table(n, 0, size)?,
            up_right: table(n, 0, size)?,
        };
        let row = |y: usize| &labels[y * width..(y + 1) * width];
        for y in 0..height {
            let r = row(y);
            for j in 0..words {
                let (x0, k) = (j * 64, y * words + j);
                let n = (width - x0).min(64);
                let set = nonzero_mask(&r[x0..x0 + n]);
                m.set[k] = set;
                if set == 0 {
                    continue; // no region cell: the equalities are not read
                }
                m.left[k] = shifted_eq(r, r, x0, n, -1);
                if y > 0 {
                    let above = row(y - 1);
                    m.up[k] = shifted_eq(r, above, x0, n, 0);
                    m.up_left[k] = shifted_eq(r, above, x0, n, -1);
                    m.up_right[k] = shifted_eq(r, above, x0, n, 1);
                }
            }
        }
        Ok(m)
    }

    /// The masks of block `j` of row `y` (see [`Block`]).
    #[inline(always)]
    pub(super) fn block(&self, y: usize, j: usize) -> Block {
        let k = y * self.words + j;
        let below = (y + 1 < self.height).then_some(k + self.words);
        let at = |v: &[u64], i: Option<usize>| i.map_or(0, |i| v[i]);
        // Bit x of `from_right(v, i)`: bit x + 1 of word i (the next word's first past the
        // end); of `from_left`: bit x - 1.
        let from_right = |v: &[u64], i: Option<usize>| {
            i.map_or(0, |i| {
                (v[i] >> 1)
                    | if j + 1 < self.words {
                        v[i + 1] << 63
                    } else {
                        0
                    }
            })
        };
        let from_left = |v: &[u64], i: Option<usize>| {
            i.map_or(0, |i| (v[i] << 1) | if j > 0 { v[i - 1] >> 63 } else { 0 })
        };
        [
            self.set[k],
            self.left[k],
            from_right(&self.left, Some(k)),
            self.up[k],
            at(&self.up, below),
            self.up_left[k],
            self.up_right[k],
            from_left(&self.up_right, below),
            from_right(&self.up_left, below),
        ]
    }
}
