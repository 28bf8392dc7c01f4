//! The flattening of the union-find into labels: in index order, and the raster order of
//! two-row units (8-connectivity), whose new components are renumbered by their first
//! top-row cell.

use super::bits::{merged, starts, upto};
use super::Labeller;
use crate::BitGrid;

/// Flattens runs `from..to`: roots get labels `next + 1, next + 2, ...` in index order, the
/// others their root's label (already one: a parent comes before its child and is
/// flattened first). Returns the last label given. Branch-free: roots are unpredictable.
#[inline(always)]
pub(super) fn flatten(parent: &mut [u32], from: usize, to: usize, mut next: u32) -> u32 {
    for i in from..to {
        let p = parent[i];
        let root = p == i as u32;
        next += u32::from(root);
        let inherited = parent[p as usize];
        // A select, not a branch (which LLVM otherwise makes of it, skipping the load).
        parent[i] = std::hint::select_unpredictable(root, next, inherited);
    }
    next
}

/// The root of run `r` when it is a run of its unit (index `base` or more), or `usize::MAX`
/// when the component is an earlier unit's (a parent below `base`, whose entry holds a
/// label). Chains of up to two parents, the usual, are followed without a branch.
#[inline(always)]
fn unit_root(parent: &[u32], r: usize, base: usize) -> usize {
    let a = parent[r] as usize;
    let b = parent[a] as usize;
    let old = a < base || (a != r && b < base);
    if a == r || b == a || old {
        let root = std::hint::select_unpredictable(a == r, r, a);
        return std::hint::select_unpredictable(old, usize::MAX, root);
    }
    // Deeper: follow the chain.
    let mut r = b;
    loop {
        let p = parent[r] as usize;
        if p < base {
            return usize::MAX;
        }
        if p == r {
            return r;
        }
        r = p;
    }
}

/// Whether a root of unit `k` (a row pair, both rows in the grid; its first run has index
/// `base`) is a run of the merged row without a cell in the top row. Without one, root
/// order is raster order: every new component's root, its leftmost run in the unit, holds
/// its leftmost top-row cells, and those are its first cells.
///
/// A merged run is bottom-only when a carry added at its start runs through its cells not
/// in the top row to its end: the first cell after the carry stops is outside the merged
/// row.
#[inline(always)]
fn bottom_only_root(words: &[u64], wpr: usize, k: usize, parent: &[u32], base: usize) -> bool {
    let top = &words[2 * k * wpr..(2 * k + 1) * wpr];
    let bottom = &words[(2 * k + 1) * wpr..(2 * k + 2) * wpr];
    let (mut before, mut carry_m, mut carry) = (base as u32, 0u64, false);
    for (&t, &b) in top.iter().zip(bottom) {
        let m = t | b;
        let sm = starts(m, carry_m);
        let x = b & !t;
        let (s1, c1) = x.overflowing_add(sm & x);
        let (sum, c2) = s1.overflowing_add(u64::from(carry));
        carry = c1 | c2;
        // The cells where a carry stopped outside the merged row: one past a bottom-only
        // run's last cell.
        let mut ends = sum & !x & !m;
        while ends != 0 {
            let bit = ends.trailing_zeros();
            ends &= ends - 1;
            // The run: the last one starting before `bit`.
            let run = (before + (sm & !(u64::MAX << bit)).count_ones() - 1) as usize;
            if parent[run] as usize == run {
                return true;
            }
        }
        before += sm.count_ones();
        carry_m = m >> 63;
    }
    // A bottom-only run reaching the end of a row of whole words.
    carry && parent[before as usize - 1] as usize == before as usize - 1
}

impl Labeller {
    /// The flattening of two-row units in raster order. A root is the leftmost run of its
    /// component in the first unit (pair of rows) it reaches, but the component's first
    /// cell in raster order may lie further right in that unit's top row, or the root may
    /// hold cells of the bottom row only. Only the second makes the orders differ (a root
    /// with a top-row cell holds its component's first one, [`bottom_only_root`]), so a
    /// unit with two new components or more, one of whose roots lies in the bottom row
    /// alone, numbers them first by their first top-row run (a walk over the top row's runs, each finding
    /// its root), then the others by their root, as one pass over the unit's runs flattens
    /// them. Labels of earlier units are final when a unit reads them: a root search stops
    /// there.
    #[inline(always)]
    pub(super) fn flatten_raster(&mut self, grid: &BitGrid) -> u32 {
        let (h, wpr) = (grid.height(), grid.words_per_row());
        let words = grid.words();
        let Self {
            parent,
            unit_base,
            renumber,
            unit_labels,
            ..
        } = self;
        // `unit_labels` was cleared and reserved with the unit bases (`scan_body`).
        // `renumber[r - base]`: the label given to the root `r` of the unit from its top
        // row, 0 for none yet; every entry set is cleared again by the flattening pass.
        renumber.clear();
        let mut next = 0u32;
        for k in 0..unit_base.len() - 1 {
            let (base, end) = (unit_base[k] as usize, unit_base[k + 1] as usize);
            // In a one-row unit, with fewer than two new components, or when every new
            // root has a top-row cell, root order is raster order.
            let roots = || -> u32 {
                parent[base..end]
                    .iter()
                    .zip(base as u32..)
                    .map(|(&p, i)| u32::from(p == i))
                    .sum()
            };
            if 2 * k + 1 >= h || roots() < 2 || !bottom_only_root(words, wpr, k, parent, base) {
                next = flatten(parent, base, end, next);
                unit_labels.push(next);
                continue;
            }
            if renumber.len() < end - base {
                renumber.resize(end - base, 0);
            }
            // Slices, so that the loops below keep their lengths in registers.
            let (ren, runs) = (&mut renumber[..end - base], &mut parent[..end]);
            // The unit's top row, its runs in order: each names its unit run by rank. Only
            // the runs that touch no cell of the row above can open a component (the
            // others are in one of an earlier unit); each is named by its last cell, where
            // a carry from its start through its cells that touch nothing stops.
            let top = &words[2 * k * wpr..(2 * k + 1) * wpr];
            let above = if k == 0 {
                &[][..]
            } else {
                &words[(2 * k - 1) * wpr..2 * k * wpr]
            };
            let (mut before, mut carry_m, mut carry_t) = (base as u32, 0u64, 0u64);
            let (mut carry_u, mut carry_free, mut pending) = (0u64, 0u64, 0u64);
            for (j, &t) in top.iter().enumerate() {
                let m = merged(words, wpr, h, 2, k, j);
                let sm = starts(m, carry_m);
                let u = above.get(j).copied().unwrap_or(0);
                let next_u = above.get(j + 1).map_or(0, |&n| n << 63);
                let next_t = top.get(j + 1).map_or(0, |&n| n & 1);
                let near = u | (u << 1) | carry_u | (u >> 1) | next_u;
                let free = t & !near;
                let seeds = (starts(t, carry_t) & starts(free, carry_free)) | (pending & free & 1);
                let (sum, over) = free.overflowing_add(seeds);
                // A run ending at the word's last cell: its carry leaves the word.
                let ends_here = u64::from(over) & (next_t ^ 1);
                let mut st = ((sum & !free & !t) >> 1) | (ends_here << 63);
                pending = u64::from(over) & next_t;
                (carry_u, carry_free) = (u >> 63, free >> 63);
                while st != 0 {
                    let bit = st.trailing_zeros();
                    st &= st - 1;
                    let run = (before + (sm & upto(bit)).count_ones() - 1) as usize;
                    let r = unit_root(runs, run, base);
                    // Branch-free (which run opens a new component is unpredictable): a
                    // run of an earlier unit's component rewrites slot 0 unchanged.
                    let inside = r != usize::MAX;
                    let slot = if inside { r - base } else { 0 };
                    let given = ren[slot];
                    let fresh = inside && given == 0;
                    next += u32::from(fresh);
                    ren[slot] = std::hint::select_unpredictable(fresh, next, given);
                }
                before += sm.count_ones();
                (carry_m, carry_t) = (m >> 63, t >> 63);
            }
            // Flatten: a root takes its top-row label or the next one (no top-row cell: in
            // root order, after those), the others their parent's (final: parents first).
            // Branch-free: which run is a root is unpredictable.
            for i in base..end {
                let p = runs[i] as usize;
                let root = p == i;
                let given = ren[i - base];
                ren[i - base] = 0;
                next += u32::from(root && given == 0);
                let own = std::hint::select_unpredictable(given == 0, next, given);
                let inherited = runs[p];
                runs[i] = std::hint::select_unpredictable(root, own, inherited);
            }
            unit_labels.push(next);
        }
        next
    }
}
