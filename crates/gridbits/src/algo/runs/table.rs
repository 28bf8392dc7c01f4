//! The run table of a grid for the run union-find engines: the run starts of every row, an
//! index per run, the links between runs of neighbouring rows, and the painting of the runs
//! whose set holds a seed. Rows are slices of words (bit `x % 64` of word `x / 64` is column
//! `x`).

use super::union_find::union;
use crate::grid::first_marks;
use crate::BitGrid;

/// The run starts of a grid and the index of the first run of each row.
pub(crate) struct Runs {
    /// Run starts, row after row, like the words of a grid.
    pub(crate) starts: Vec<u64>,
    /// `base[y]`: the index of the first run of row `y`; `base[height]` is the run count.
    pub(crate) base: Vec<u32>,
}

/// Writes the run starts of one row into `out` and returns their count.
#[inline(always)]
fn row_starts(m: &[u64], out: &mut [u64]) -> u32 {
    let mut carry = 0u64;
    let mut count = 0;
    for (o, &w) in out.iter_mut().zip(m) {
        let s = w & !((w << 1) | carry);
        carry = w >> 63;
        *o = s;
        count += s.count_ones();
    }
    count
}

/// Runs of rows `rows` of `passable` (their starts into `starts`, their per-row counts
/// into `base[y + 1]`, not yet summed). Returns the total count, `None` past `u32` indices.
#[inline(always)]
pub(crate) fn count_runs(
    passable: &BitGrid,
    rows: std::ops::Range<usize>,
    starts: &mut [u64],
    counts: &mut [u32],
) -> Option<u64> {
    let n = passable.words_per_row();
    let mut total = 0u64;
    for (k, y) in rows.enumerate() {
        let c = row_starts(passable.row_words(y), &mut starts[k * n..(k + 1) * n]);
        counts[k] = c;
        total += u64::from(c);
    }
    (total < u64::from(u32::MAX)).then_some(total)
}

/// Joins the touching runs of rows `y - 1` (`a`) and `y` (`b`). `sa`, `sb` are their run
/// starts and `ia`, `ib` the indices of their first runs in `parent`.
///
/// With `FRESH`, every run of `b` must still be alone in its set (rows linked top to
/// bottom, `b` not yet linked to anything): with 4-connectivity the first contact of each
/// run of `b` (its first cell over `a`, where an addition carrying from the run's start
/// through its cells not over `a` stops) then only takes its `a` run's parent, without a
/// union.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn link_rows<const FRESH: bool>(
    a: &[u64],
    b: &[u64],
    sa: &[u64],
    sb: &[u64],
    ia: usize,
    ib: usize,
    eight: bool,
    parent: &mut [u32],
) {
    let (mut ca, mut cb) = (ia, ib);
    let (mut carry_a, mut carry_b) = (0u64, 0u64);
    // Whether the run of `b` reaching the next word has no contact yet.
    let mut pending = 0u64;
    for i in 0..a.len() {
        let (wa, wb, xa, xb) = (a[i], b[i], sa[i], sb[i]);
        let mut contacts = if eight {
            let ga = wa | (wa << 1) | carry_a;
            let gb = wb | (wb << 1) | carry_b;
            (xa & gb) | (xb & ga)
        } else {
            (xa | xb) & wa & wb
        };
        carry_a = wa >> 63;
        carry_b = wb >> 63;
        // The last run of each row starting at or before the lowest contact of `c`.
        let runs = |c: u64| {
            let upto = u64::MAX >> (63 - c.trailing_zeros());
            let ra = ca + (xa & upto).count_ones() as usize - 1;
            (ra, cb + (xb & upto).count_ones() as usize - 1)
        };
        if FRESH && !eight {
            let mut first = first_marks(wb, xb, contacts, &mut pending);
            contacts &= !first;
            while first != 0 {
                let (ra, rb) = runs(first);
                parent[rb] = parent[ra];
                first &= first - 1;
            }
        }
        while contacts != 0 {
            let (ra, rb) = runs(contacts);
            union(parent, ra as u32, rb as u32);
            contacts &= contacts - 1;
        }
        ca += xa.count_ones() as usize;
        cb += xb.count_ones() as usize;
    }
}

/// Calls `f(run)` for each run of a row (mask `m`, starts `s`, first run `first`) that holds
/// a cell of `seed` (a row of words), once per stretch of seeds.
#[inline(always)]
pub(crate) fn seeded_runs(
    seed: &[u64],
    m: &[u64],
    s: &[u64],
    first: usize,
    mut f: impl FnMut(usize),
) {
    let mut c = first;
    let mut carry = 0u64;
    for i in 0..m.len() {
        let w = seed[i] & m[i];
        // One cell per stretch of seeds: a stretch lies inside one run.
        let mut pts = w & !((w << 1) | carry);
        carry = w >> 63;
        while pts != 0 {
            let upto = u64::MAX >> (63 - pts.trailing_zeros());
            f(c + (s[i] & upto).count_ones() as usize - 1);
            pts &= pts - 1;
        }
        c += s[i].count_ones() as usize;
    }
}

/// Marks (in `keep`, indexed by run) the roots of the runs of row `y` that hold a cell of
/// `seed` (a row of words). `parent` must be flat.
#[inline(always)]
pub(crate) fn mark_seeds(
    seed: &[u64],
    m: &[u64],
    s: &[u64],
    first: usize,
    parent: &[u32],
    keep: &mut [bool],
) {
    seeded_runs(seed, m, s, first, |r| keep[parent[r] as usize] = true);
}

/// Paints into `out` the runs of a row (mask `m`, starts `s`, first run `first`) whose root
/// is kept. `parent` must be flat.
#[inline(always)]
pub(crate) fn paint_row(
    m: &[u64],
    s: &[u64],
    first: usize,
    parent: &[u32],
    keep: &[bool],
    out: &mut [u64],
) {
    let mut idx = first;
    let mut carry = false;
    for i in 0..m.len() {
        let mut w = s[i];
        let mut sel = 0u64;
        while w != 0 {
            let bit = w & w.wrapping_neg();
            sel |= bit & 0u64.wrapping_sub(u64::from(keep[parent[idx] as usize]));
            idx += 1;
            w ^= bit;
        }
        // Each selected start carries to the end of its run, across words.
        let (s1, c1) = m[i].overflowing_add(sel);
        let (s2, c2) = s1.overflowing_add(u64::from(carry));
        carry = c1 | c2;
        out[i] = (s2 ^ m[i]) & m[i];
    }
}
