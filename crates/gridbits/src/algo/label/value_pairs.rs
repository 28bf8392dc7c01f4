//! The row-pair route of the [`ValueLabeller`](super::ValueLabeller) for images of few
//! classes (at most [`MAX_CLASSES`] values besides the background; one class included).
//!
//! Pass 1 keeps one bit mask per class and row ([`ClassMasks`]). Rows are taken in pairs;
//! in a pair, the cells of one class that form one *pair run* are connected inside the
//! pair:
//!
//! - with 8-connectivity a pair run is a run of the OR of the class's two row masks (any
//!   cell of a column touches any cell of the next);
//! - with 4-connectivity it is such a run cut where one column holds the class in the top
//!   row only and the next in the bottom row only (or the other way round): those two
//!   columns touch only diagonally.
//!
//! So no link is needed inside a pair: every row run of a pair run takes as parent the first
//! of them in raster order ([`join_pair`], one table entry per pair run: its first row run
//! in the top row, else in the bottom row), and only the boundaries between pairs are linked
//! (in the crate's union-find), half the row boundaries of the row-by-row route. The runs
//! stay the row runs of the row-by-row route (indexed in raster order), so the root of a
//! component is still its first row run in raster order, and the numbering and the writer
//! are the row-by-row route's.

use crate::algo::runs::masks::{upto, value_mask};
use crate::algo::runs::union_find::union;

/// The most classes (values besides the background) the row-pair route takes.
pub(super) const MAX_CLASSES: usize = 4;

/// One bit mask per class, row and block of 64 cells, for the row-pair route; and a table
/// of the pair runs of one class in a pair, kept for the next image.
#[derive(Clone, Debug, Default)]
pub(super) struct ClassMasks {
    /// `masks[c][y * bpr + j]`: the cells of block `j` of row `y` of value class `c`.
    masks: [Vec<u64>; MAX_CLASSES],
    /// Classes found so far.
    count: usize,
    /// Per pair run of one class in one pair: its first row run (`u32::MAX` before one).
    first: Vec<u32>,
}

impl ClassMasks {
    /// Starts an image: no class yet.
    pub(super) fn begin(&mut self) {
        self.count = 0;
    }

    /// Records block `at` (cells `block`, `set` the set ones among them) of an image of
    /// `blocks` blocks: its cells of each class, a class met for the first time added
    /// (`values`, its value; earlier blocks get no cell of it). Returns false when the
    /// block holds a value beyond the [`MAX_CLASSES`]-th (the route is then not taken; the
    /// masks are left incomplete).
    #[inline(always)]
    pub(super) fn block<T: Copy + PartialEq + 'static>(
        &mut self,
        values: &mut [T; MAX_CLASSES],
        block: &[T],
        set: u64,
        at: usize,
        blocks: usize,
    ) -> Result<bool, std::collections::TryReserveError> {
        let mut rest = set;
        for c in 0..self.count {
            let m = value_mask(block, values[c]) & set;
            self.masks[c][at] = m;
            rest &= !m;
        }
        while rest != 0 {
            if self.count == MAX_CLASSES {
                return Ok(false);
            }
            let c = self.count;
            values[c] = block[rest.trailing_zeros() as usize];
            let masks = &mut self.masks[c];
            masks.clear();
            masks.try_reserve(blocks.saturating_sub(masks.capacity()))?;
            masks.resize(blocks, 0);
            let m = value_mask(block, values[c]) & set;
            masks[at] = m;
            rest &= !m;
            self.count += 1;
        }
        Ok(true)
    }

    /// Makes the table of pair runs hold `n` entries (a pair's runs of one class), all
    /// unset.
    pub(super) fn reserve_table(
        &mut self,
        n: usize,
    ) -> Result<(), std::collections::TryReserveError> {
        if self.first.len() < n {
            self.first.try_reserve(n - self.first.len())?;
            self.first.resize(n, u32::MAX);
        }
        Ok(())
    }
}

/// The pair-run starts of one class in one block: `t` and `b` the class's cells in the top
/// and bottom row of the pair, `(ct, cb)` bit 63 of the previous block's `t` and `b` in bit
/// 0. With `EIGHT` the starts of the runs of `t | b`; else also the cells where the class
/// moves from one row alone to the other row alone (a diagonal contact only).
#[inline(always)]
fn pair_starts<const EIGHT: bool>(t: u64, b: u64, (ct, cb): (u64, u64)) -> u64 {
    let m = t | b;
    let (lt, lb) = ((t << 1) | ct, (b << 1) | cb);
    let s = m & !(lt | lb);
    if EIGHT {
        s
    } else {
        let (only_t, only_b) = (t & !b, b & !t);
        s | (only_t & lb & !lt) | (only_b & lt & !lb)
    }
}

/// Gives every row run of the pair of rows `top` and `top + 1` (the latter only when
/// `bottom` is true) its parent in `parent`: the first row run (the smallest index) of its
/// pair run, itself for that one. Row runs are numbered as pass 1 numbers them:
/// `row_base[y]` is row `y`'s first, and the others follow its run starts `starts` (blocks
/// of 64 cells, `bpr` a row). The parents are set before any link of the pair, so a row run
/// keeps the rule of the union-find (a parent never after its child).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn join_pair<const EIGHT: bool>(
    classes: &mut ClassMasks,
    parent: &mut [u32],
    starts: &[u64],
    row_base: &[u32],
    bpr: usize,
    top: usize,
    bottom: bool,
) {
    let rows = if bottom { 2 } else { 1 };
    for c in 0..classes.count {
        let masks = &classes.masks[c];
        let first = &mut classes.first[..];
        let mt = &masks[top * bpr..(top + 1) * bpr];
        let mb = if bottom {
            &masks[(top + 1) * bpr..(top + 2) * bpr]
        } else {
            mt
        };
        let mut runs = 0u32;
        // The top row first, then the bottom row: a pair run's first row run in raster
        // order is met first, and keeps its own index.
        for row in 0..rows {
            let y = top + row;
            let (mine, st) = (
                if row == 0 { mt } else { mb },
                &starts[y * bpr..(y + 1) * bpr],
            );
            let mut rc = row_base[y]; // row runs before the block
            let mut pc = 0u32; // pair runs before the block
            let mut carry = (0u64, 0u64);
            for j in 0..bpr {
                let (t, b) = if bottom { (mt[j], mb[j]) } else { (mt[j], 0) };
                let sp = pair_starts::<EIGHT>(t, b, carry);
                let s = st[j];
                let mut own = s & mine[j];
                while own != 0 {
                    let bit = own.trailing_zeros();
                    own &= own - 1;
                    let r = rc + (s & upto(bit)).count_ones() - 1;
                    let p = (pc + (sp & upto(bit)).count_ones() - 1) as usize;
                    let id = first[p].min(r);
                    first[p] = id;
                    parent[r as usize] = id;
                }
                rc += s.count_ones();
                pc += sp.count_ones();
                carry = (t >> 63, b >> 63);
            }
            runs = pc;
        }
        first[..runs as usize].fill(u32::MAX);
    }
}

/// Joins row run `c` of a pair's top row to row run `u` of the row above (the previous
/// pair's). Every link of a pair joins it to an earlier one, so a pair run whose first row
/// run (`parent[c]`, at or after `base`, the first row run of the pair) is still a root has
/// no link yet: its set is the pair run alone, and it takes `u`'s parent without a search.
#[inline(always)]
pub(super) fn link_pair(parent: &mut [u32], base: u32, c: u32, u: u32) {
    let p = parent[c as usize];
    if p >= base && parent[p as usize] == p {
        parent[p as usize] = parent[u as usize];
    } else {
        union(parent, c, u);
    }
}
