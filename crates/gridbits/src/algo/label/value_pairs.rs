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
//! in the top row, else in the bottom row), and only the boundaries between pairs are
//! linked, half the row boundaries of the row-by-row route: per class, from its masks alone
//! (no value compares), pair run to pair run in the crate's union-find ([`link_pairs`], as
//! the binary labeller links its two-row units). The runs stay the row runs of the
//! row-by-row route (indexed in raster order), so the root of a component is still its
//! first row run in raster order, and the numbering and the writers are the row-by-row
//! route's.
//!
//! Measured (docs/benchmarks.md, "label5"): 0.87-0.99x the time of the row-by-row route on
//! 8-connected images of one class, 1.1-1.7x with two classes at random (short runs: the
//! parent of every row run costs about what the saved links do), so the automatic choice
//! takes it for 8-connected images of one class only.

use crate::algo::runs::masks::{upto, value_mask};
use crate::algo::runs::union_find::union;

/// The most classes (values besides the background) the row-pair route takes.
pub(super) const MAX_CLASSES: usize = 4;

/// One bit mask per class, row and block of 64 cells, for the row-pair route, and per class
/// a table of its pair runs in the current and in the previous pair; kept for the next
/// image.
#[derive(Clone, Debug, Default)]
pub(super) struct ClassMasks {
    /// `masks[c][y * bpr + j]`: the cells of block `j` of row `y` of value class `c`.
    masks: [Vec<u64>; MAX_CLASSES],
    /// Classes found so far.
    count: usize,
    /// Per class and pair run of the current pair: its first row run plus one (an entry
    /// up to the pair's first row run is unset).
    first: [Vec<u32>; MAX_CLASSES],
    /// The same of the previous pair.
    prev: [Vec<u32>; MAX_CLASSES],
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
        (at, blocks): (usize, usize),
    ) -> Result<bool, std::collections::TryReserveError> {
        let mut rest = set;
        for (&v, masks) in values.iter().zip(&mut self.masks).take(self.count) {
            let m = value_mask(block, v) & set;
            masks[at] = m;
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

    /// Takes the set cells `set` (every block of an image) as the mask of its one class
    /// (`any`: the image has a set cell; else it has no class).
    pub(super) fn one_class(
        &mut self,
        set: &[u64],
        any: bool,
    ) -> Result<(), std::collections::TryReserveError> {
        let masks = &mut self.masks[0];
        masks.clear();
        masks.try_reserve(set.len())?;
        masks.extend_from_slice(set);
        self.count = usize::from(any);
        Ok(())
    }

    /// Makes the tables of pair runs hold `n` entries (a pair's runs of one class), all
    /// unset.
    pub(super) fn reserve_tables(
        &mut self,
        n: usize,
    ) -> Result<(), std::collections::TryReserveError> {
        for t in self.first.iter_mut().chain(self.prev.iter_mut()) {
            t.clear();
            t.try_reserve(n)?;
            t.resize(n, 0);
        }
        Ok(())
    }

    /// Moves on to the next pair: the current pair's tables become the previous pair's,
    /// and the previous pair's the next pair's (whose entries, earlier row runs, read as
    /// unset there).
    #[inline(always)]
    pub(super) fn next_pair(&mut self) {
        for c in 0..self.count {
            std::mem::swap(&mut self.first[c], &mut self.prev[c]);
        }
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
    // Table entries (a row run's index plus one) up to the pair's first row run are an
    // earlier pair's, or 0: not set here.
    let base = row_base[top];
    for c in 0..classes.count {
        let masks = &classes.masks[c];
        let first = &mut classes.first[c][..];
        let mt = &masks[top * bpr..(top + 1) * bpr];
        let mb = if bottom {
            &masks[(top + 1) * bpr..(top + 2) * bpr]
        } else {
            mt
        };
        // The top row: a row run is the first of its pair run where the pair run starts,
        // or where a carry from the pair run's start through its cells outside the top
        // row stops (its first top-row cell). Each takes the last first one met as parent
        // (itself for a first one), and the pair run's entry in the table is set.
        let (st, mut rc) = (&starts[top * bpr..(top + 1) * bpr], row_base[top]);
        let (mut pc, mut carry, mut add_carry) = (0u32, (0u64, 0u64), false);
        let mut last = 0u32;
        for j in 0..bpr {
            let (t, b) = if bottom { (mt[j], mb[j]) } else { (mt[j], 0) };
            let sp = pair_starts::<EIGHT>(t, b, carry);
            let x = (t | b) & !t;
            let (s1, c1) = x.overflowing_add(sp & x);
            let (sum, c2) = s1.overflowing_add(u64::from(add_carry));
            add_carry = c1 | c2;
            let firsts = t & (sp | (sum & !x));
            let s = st[j];
            let mut own = s & t;
            while own != 0 {
                let bit = own.trailing_zeros();
                own &= own - 1;
                let r = rc + (s & upto(bit)).count_ones() - 1;
                last = std::hint::select_unpredictable((firsts >> bit) & 1 != 0, r, last);
                parent[r as usize] = last;
                first[(pc + (sp & upto(bit)).count_ones() - 1) as usize] = last + 1;
            }
            rc += s.count_ones();
            pc += sp.count_ones();
            carry = (t >> 63, b >> 63);
        }
        if !bottom {
            continue;
        }
        // The bottom row: a pair run without a top-row cell takes its first bottom-row run.
        let (st, mut rc) = (&starts[(top + 1) * bpr..(top + 2) * bpr], row_base[top + 1]);
        let (mut pc, mut carry) = (0u32, (0u64, 0u64));
        for j in 0..bpr {
            let (t, b) = (mt[j], mb[j]);
            let sp = pair_starts::<EIGHT>(t, b, carry);
            let s = st[j];
            let mut own = s & b;
            while own != 0 {
                let bit = own.trailing_zeros();
                own &= own - 1;
                let r = rc + (s & upto(bit)).count_ones() - 1;
                let p = (pc + (sp & upto(bit)).count_ones() - 1) as usize;
                let v = first[p];
                let id = std::hint::select_unpredictable(v > base, v.wrapping_sub(1), r);
                first[p] = id + 1;
                parent[r as usize] = id;
            }
            rc += s.count_ones();
            pc += sp.count_ones();
            carry = (t >> 63, b >> 63);
        }
    }
}

/// Links the pair runs of the pair whose top row is `top` (`bottom`: it has a second row)
/// to the touching pair runs of the same class in the pair above, as the binary labeller
/// links its units: for each class, from its masks in the two rows at the boundary, one
/// link per stretch of vertical overlap and (with 8-connectivity) per diagonal contact of
/// row runs that do not overlap; each end is a pair run, by rank (`popcount` of the pair-run
/// starts), whose first row run the tables of [`join_pair`] hold. A pair run's first link
/// takes the other's parent without a search (its set is the pair run alone: every link
/// joins it to an earlier pair).
#[inline(always)]
pub(super) fn link_pairs<const EIGHT: bool>(
    classes: &ClassMasks,
    parent: &mut [u32],
    bpr: usize,
    top: usize,
    bottom: bool,
) {
    for c in 0..classes.count {
        let masks = &classes.masks[c];
        let row = |y: usize| &masks[y * bpr..(y + 1) * bpr];
        let (above2, above, cur) = (row(top - 2), row(top - 1), row(top));
        let below = if bottom { row(top + 1) } else { cur };
        let (first, prev) = (&classes.first[c][..], &classes.prev[c][..]);
        let (mut pc, mut pu) = (0u32, 0u32); // pair runs before the block, both pairs
        let (mut cu, mut cd, mut ca2, mut cb) = (0u64, 0u64, 0u64, 0u64);
        let mut cv = 0u64;
        for j in 0..bpr {
            let (u, d) = (above[j], cur[j]);
            let b = if bottom { below[j] } else { 0 };
            let su = pair_starts::<EIGHT>(above2[j], u, (ca2, cu));
            let sd = pair_starts::<EIGHT>(d, b, (cd, cb));
            let mu = above2[j] | u;
            let v = u & d;
            let (left_u, left_d) = ((u << 1) | cu, (d << 1) | cd);
            let mut links = v & !((v << 1) | cv);
            let mut right = 0u64;
            if EIGHT {
                // Runs that touch only diagonally: the upper row run ends at x - 1 where
                // the lower one starts at x (the pair run above holds x - 1: its rank is
                // the count up to x, x not starting one) ...
                links |= d & !left_d & left_u & !u;
                // ... or starts at x + 1 where the lower one ends at x: the pair run
                // above holding x + 1 is one more than the count up to x if x is not in
                // the pair above.
                let (next_u, next_d) = if j + 1 < bpr {
                    (above[j + 1] << 63, cur[j + 1] << 63)
                } else {
                    (0, 0)
                };
                right = d & !((d >> 1) | next_d) & ((u >> 1) | next_u) & !u;
            }
            // Pair runs up to x (global ranks plus one).
            let (cur_rank, up_rank) = (
                |bit: u32| pc + (sd & upto(bit)).count_ones() - 1,
                |bit: u32| pu + (su & upto(bit)).count_ones(),
            );
            while links != 0 {
                let bit = links.trailing_zeros();
                links &= links - 1;
                let ci = first[cur_rank(bit) as usize] - 1;
                let pi = prev[up_rank(bit) as usize - 1] - 1;
                join(parent, ci, pi);
            }
            while right != 0 {
                let bit = right.trailing_zeros();
                right &= right - 1;
                let ci = first[cur_rank(bit) as usize] - 1;
                let pi = prev[(up_rank(bit) + ((!mu >> bit) & 1) as u32) as usize - 1] - 1;
                join(parent, ci, pi);
            }
            pc += sd.count_ones();
            pu += su.count_ones();
            (cu, cd, ca2, cb, cv) = (u >> 63, d >> 63, above2[j] >> 63, b >> 63, v >> 63);
        }
    }
}

/// Joins pair run `c` (its first row run) to the earlier pair run `u`: a pair run still a
/// root has no link yet and takes `u`'s parent, else the union-find unites them.
#[inline(always)]
fn join(parent: &mut [u32], c: u32, u: u32) {
    if parent[c as usize] == c {
        parent[c as usize] = parent[u as usize];
    } else {
        union(parent, c, u);
    }
}
