//! The run union-find flood fill of runtime grids ([`fill_union`]): every horizontal run of
//! passable cells gets an index, runs of neighbouring rows that touch are joined in a
//! union-find, and the runs whose set holds a seed are painted. No cell or run is ever put in
//! a queue, so nothing depends on the shape of the region.

#[cfg(doc)]
use super::fill_sweep;
use crate::algo::runs::union_find::{flatten, union};
use crate::grid::first_marks;
use crate::{BitGrid, Connectivity};

/// Flood fill of a [`BitGrid`] through a union-find over its horizontal runs.
///
/// For runtime grids only, like [`fill_sweep`]; fixed boards use
/// [`fill_dilate`](super::fill_dilate).
///
/// Three passes over the rows, each a few word operations per word plus a little work per run
/// or contact:
///
/// 1. **Runs.** The run starts of each row (`m & !(m << 1)`, carried across words) and their
///    count give every run an index, in row order.
/// 2. **Contacts.** Two runs of neighbouring rows touch exactly when one of them starts at a
///    cell `x` that the other row covers (4-connectivity), or covers at `x` or `x - 1`
///    (8-connectivity); the other run is then the last one of its row starting at or before
///    `x`. These cells are found with word operations, each run index is a prefix count
///    plus a `popcount`, and the two runs are joined in a union-find (Rem's algorithm with
///    splicing, the root of a set being its smallest index).
/// 3. **Paint.** One pass flattens the union-find (a parent never has a larger index); the
///    roots of the seeded runs are marked; each row's selected run starts are closed into
///    whole runs by one word addition per word.
///
/// The cost is linear in the cells of the grid, whatever the shape: a maze, whose paths turn
/// back on themselves everywhere, costs no more than noise with as many runs. It does not
/// depend on how much of the grid is reached, so [`fill`](super::fill) starts with row
/// sweeps, which finish open ground and noise in a few passes, and hands over to this engine
/// when the sweeps do not converge.
///
/// ```
/// use gridbits::algo::fill::fill_union;
/// use gridbits::{BitGrid, Connectivity};
/// let free = !&BitGrid::parse("\
/// .x......\n\
/// .x.xxxx.\n\
/// .x.x..x.\n\
/// ...xxxx.\n\
/// xxxx....\n").unwrap();
/// let mut seed = BitGrid::new(8, 5).unwrap();
/// seed.set(0, 0);
/// let filled = fill_union(&seed, &free, Connectivity::Four);
/// assert!(filled.get(7, 4) && !filled.get(4, 2));
/// assert_eq!(filled.count(), free.count() - 2);
/// // The pocket is walled in diagonally too.
/// assert_eq!(fill_union(&seed, &free, Connectivity::Eight), filled);
/// ```
///
/// # Panics
///
/// If `seeds` and `passable` have different sizes ([`try_fill`](super::try_fill) returns an
/// error instead).
pub fn fill_union(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity) -> BitGrid {
    super::assert_sizes(passable, "seeds", std::slice::from_ref(seeds), None, None);
    let mut out = passable.empty_like();
    union_fill_into(seeds, passable, conn, &mut out);
    out
}

/// The run starts of a grid and the index of the first run of each row.
pub(super) struct Runs {
    /// Run starts, row after row, like the words of a grid.
    pub starts: Vec<u64>,
    /// `base[y]`: the index of the first run of row `y`; `base[height]` is the run count.
    pub base: Vec<u32>,
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
pub(super) fn count_runs(
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
pub(super) fn link_rows<const FRESH: bool>(
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
pub(super) fn seeded_runs(
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
pub(super) fn mark_seeds(
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
pub(super) fn paint_row(
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

/// [`fill_union`] with the portable code only, never the copy compiled for POPCNT and BMI
/// that [`fill_union`] picks at run time on x86-64 CPUs that have them. For tests and
/// benchmarks of both paths; the results are identical.
#[doc(hidden)]
pub fn fill_union_portable(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity) -> BitGrid {
    super::assert_sizes(passable, "seeds", std::slice::from_ref(seeds), None, None);
    let mut out = passable.empty_like();
    union_body(seeds, passable, conn, &mut out);
    out
}

/// Whether the CPU has the bit instructions the x86-64 copies of the engines (this one's and
/// the stripes' of `fill_union_parallel`) are compiled for; always `false` elsewhere.
pub(super) fn has_bit_instructions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The engine compiled for POPCNT and BMI: `count_ones`, `trailing_zeros` and the masks
/// become single instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn union_x86(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity, out: &mut BitGrid) {
    union_body(seeds, passable, conn, out);
}

/// [`fill_union`] into `out` (a grid of the size of `passable`, overwritten): the copy
/// compiled for POPCNT and BMI when the CPU has them, else the portable code. Sizes must
/// match.
pub(super) fn union_fill_into(
    seeds: &BitGrid,
    passable: &BitGrid,
    conn: Connectivity,
    out: &mut BitGrid,
) {
    #[cfg(target_arch = "x86_64")]
    if has_bit_instructions() {
        // SAFETY: `union_x86` is only compiled for POPCNT, BMI1, BMI2 and LZCNT, which the
        // CPU was just checked to support; it has no other requirement.
        unsafe { union_x86(seeds, passable, conn, out) };
        return;
    }
    union_body(seeds, passable, conn, out);
}

/// The engine behind [`fill_union`], inlined into each compiled copy.
#[inline(always)]
fn union_body(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity, out: &mut BitGrid) {
    let (h, n) = (passable.height(), passable.words_per_row());
    let eight = conn == Connectivity::Eight;
    let mut starts = vec![0u64; h * n];
    let mut base = vec![0u32; h + 1];
    if count_runs(passable, 0..h, &mut starts, &mut base[1..]).is_none() {
        // More runs than u32 indices: the run stack has no such limit.
        *out = super::fill_runs(seeds, passable, conn);
        return;
    }
    for y in 0..h {
        base[y + 1] += base[y];
    }
    let runs = Runs { starts, base };
    let mut parent: Vec<u32> = (0..runs.base[h]).collect();
    for y in 1..h {
        link_rows::<true>(
            passable.row_words(y - 1),
            passable.row_words(y),
            &runs.starts[(y - 1) * n..y * n],
            &runs.starts[y * n..(y + 1) * n],
            runs.base[y - 1] as usize,
            runs.base[y] as usize,
            eight,
            &mut parent,
        );
    }
    flatten(&mut parent, 0);
    let mut keep = vec![false; parent.len()];
    for y in 0..h {
        mark_seeds(
            seeds.row_words(y),
            passable.row_words(y),
            &runs.starts[y * n..(y + 1) * n],
            runs.base[y] as usize,
            &parent,
            &mut keep,
        );
    }
    for y in 0..h {
        paint_row(
            passable.row_words(y),
            &runs.starts[y * n..(y + 1) * n],
            runs.base[y] as usize,
            &parent,
            &keep,
            out.row_words_mut(y),
        );
    }
}
