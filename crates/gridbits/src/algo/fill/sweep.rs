//! The row-sweep flood fill of runtime grids ([`fill_sweep`]): rows kept as unions of whole
//! runs of passable cells, closed by word additions, revisited only when a neighbouring row
//! changed; hands over to the run union-find ([`fill_union`](super::fill_union)) on mazes.

#[cfg(doc)]
use super::fill_union;
use super::union::union_fill_into;
use crate::{BitGrid, Connectivity};

/// Runs of `mask` (a row of words, bit `x % 64` of word `x / 64` = column `x`) that contain a
/// bit of `seed`, OR-ed into `out`. `seed` must be a subset of `mask`.
///
/// Upward (towards larger x) an addition carries each seed to the top of its run; downward
/// the same on bit-reversed words. Carries cross word boundaries, so runs may span words.
#[inline]
fn close_runs(seed: &[u64], mask: &[u64], out: &mut [u64]) {
    let n = mask.len();
    let mut carry = false;
    for i in 0..n {
        let (s1, c1) = mask[i].overflowing_add(seed[i]);
        let (s2, c2) = s1.overflowing_add(carry as u64);
        carry = c1 | c2;
        out[i] |= ((s2 ^ mask[i]) | seed[i]) & mask[i];
    }
    let mut carry = false;
    for i in (0..n).rev() {
        let (m, s) = (mask[i].reverse_bits(), seed[i].reverse_bits());
        let (s1, c1) = m.overflowing_add(s);
        let (s2, c2) = s1.overflowing_add(carry as u64);
        carry = c1 | c2;
        out[i] |= (((s2 ^ m) | s) & m).reverse_bits();
    }
}

/// Flood fill of a [`BitGrid`] by alternating row sweeps.
///
/// For runtime grids only: it works on rows of whole words. Fixed boards, a few words in all,
/// fill fastest by dilation ([`fill_dilate`](super::fill_dilate)); [`fill`](super::fill) picks
/// the engine of each board kind.
///
/// Every row of the result is kept *closed*: a union of whole runs of passable cells. A row is
/// re-evaluated only when a neighbouring row changed (a bitset of dirty rows, scanned with
/// trailing/leading zero counts): the cells of the row that touch the neighbours' filled cells
/// seed new runs, which are closed in one pass of word additions (`close_runs`). Sweeps go
/// down then up, so a path that goes down (or up) while zig-zagging sideways is filled in one
/// sweep; only vertical reversals need another. On open ground and noise this takes a few
/// passes' worth of work where dilation to a fixpoint needs one pass per BFS layer. A maze
/// reverses direction too often for sweeps, so after a budget of row
/// evaluations (one sweep's worth) the fill hands over to the union-find of [`fill_union`],
/// run on the passable cells not filled yet, whose cost is linear in the grid size whatever
/// the shape.
///
/// ```
/// use gridbits::algo::fill::fill_sweep;
/// use gridbits::{BitGrid, Connectivity};
/// let maze = BitGrid::parse("\
/// .x......\n\
/// .x.xxxx.\n\
/// .x.x..x.\n\
/// ...xxxx.\n\
/// xxxx....\n").unwrap();
/// let free = !&maze;
/// let mut seed = BitGrid::new(8, 5).unwrap();
/// seed.set(0, 0);
/// let filled = fill_sweep(&seed, &free, Connectivity::Four);
/// // Down, right, up, along the top, down the right side: one sweep each way.
/// assert!(filled.get(7, 4) && filled.get(4, 4));
/// // The pocket at (4, 2)-(5, 2) is walled in.
/// assert!(!filled.get(4, 2) && !filled.get(5, 2));
/// assert_eq!(filled.count(), free.count() - 2);
/// ```
///
/// # Panics
///
/// If `seeds` and `passable` have different sizes ([`try_fill`](super::try_fill) returns an
/// error instead).
pub fn fill_sweep(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity) -> BitGrid {
    super::assert_sizes(passable, "seeds", std::slice::from_ref(seeds), None, None);
    let (h, n) = (passable.height(), passable.words_per_row());
    let eight = conn == Connectivity::Eight;
    let mut cur = seeds.clone();
    cur.and_assign(passable);
    let mut dirty = vec![0u64; h.div_ceil(64)];
    let mark = |dirty: &mut [u64], y: usize| dirty[y / 64] |= 1 << (y % 64);
    let mut closed = vec![0u64; n];
    let mut v = vec![0u64; n];
    // Close the seed rows, and mark their neighbours.
    for y in 0..h {
        if cur.row_words(y).iter().all(|&w| w == 0) {
            continue;
        }
        closed.fill(0);
        close_runs(cur.row_words(y), passable.row_words(y), &mut closed);
        cur.row_words_mut(y).copy_from_slice(&closed);
        if y > 0 {
            mark(&mut dirty, y - 1);
        }
        if y + 1 < h {
            mark(&mut dirty, y + 1);
        }
    }
    let mut down = true;
    // Row evaluations allowed before handing over to the union-find (see below).
    let mut budget = SWEEP_BUDGET_PER_ROW * h;
    loop {
        if budget == 0 {
            hand_over_to_union(&mut cur, passable, conn);
            return cur;
        }
        let mut any = false;
        // Visit dirty rows in sweep order; rows marked ahead of the sweep are visited in it.
        let mut next = if down { Some(0) } else { h.checked_sub(1) };
        while let Some(start) = next {
            let y = if down {
                match next_set_at_or_after(&dirty, start, h) {
                    Some(y) => y,
                    None => break,
                }
            } else {
                match next_set_at_or_before(&dirty, start) {
                    Some(y) => y,
                    None => break,
                }
            };
            dirty[y / 64] &= !(1 << (y % 64));
            budget = budget.saturating_sub(1);
            // New seeds: passable cells of row y next to filled cells above or below, not yet
            // filled.
            touching_rows(&cur, y, eight, &mut v);
            let (row, mask) = (cur.row_words(y), passable.row_words(y));
            let mut fresh = false;
            for i in 0..n {
                v[i] &= mask[i] & !row[i];
                fresh |= v[i] != 0;
            }
            if fresh {
                any = true;
                closed.copy_from_slice(row);
                close_runs(&v, mask, &mut closed);
                cur.row_words_mut(y).copy_from_slice(&closed);
                if y > 0 {
                    mark(&mut dirty, y - 1);
                }
                if y + 1 < h {
                    mark(&mut dirty, y + 1);
                }
            }
            next = if down { Some(y + 1) } else { y.checked_sub(1) };
        }
        if !any && dirty.iter().all(|&w| w == 0) {
            return cur;
        }
        down = !down;
    }
}

/// Writes into `v` the cells of row `y` that touch a set cell of the rows above and below:
/// those rows themselves (4-connectivity), or dilated one cell sideways (8-connectivity).
#[inline]
fn touching_rows(cur: &BitGrid, y: usize, eight: bool, v: &mut [u64]) {
    let (h, n) = (cur.height(), cur.words_per_row());
    v.fill(0);
    for ny in [y.wrapping_sub(1), y + 1] {
        if ny >= h {
            continue;
        }
        let r = cur.row_words(ny);
        for i in 0..n {
            v[i] |= if eight {
                let lo = if i > 0 { r[i - 1] >> 63 } else { 0 };
                let hi = if i + 1 < n { r[i + 1] << 63 } else { 0 };
                r[i] | (r[i] << 1) | lo | (r[i] >> 1) | hi
            } else {
                r[i]
            };
        }
    }
}

/// How many sweeps' worth of row evaluations [`fill_sweep`] spends before switching to the
/// run union-find. Open ground and noise finish in a few sweeps; mazes, whose paths reverse
/// vertical direction over and over, would need hundreds.
const SWEEP_BUDGET_PER_ROW: usize = 1;

/// Completes a sweep fill (rows closed: unions of whole runs) with the run union-find, on
/// the passable cells not filled yet, seeded by those next to a filled cell.
fn hand_over_to_union(cur: &mut BitGrid, passable: &BitGrid, conn: Connectivity) {
    let (h, n) = (passable.height(), passable.words_per_row());
    let eight = conn == Connectivity::Eight;
    let mut rest = passable.empty_like();
    let mut touch = passable.empty_like();
    let mut v = vec![0u64; n];
    for y in 0..h {
        touching_rows(cur, y, eight, &mut v);
        let (mask, row) = (passable.row_words(y), cur.row_words(y));
        let r = rest.row_words_mut(y);
        for i in 0..n {
            r[i] = mask[i] & !row[i];
        }
        let t = touch.row_words_mut(y);
        for i in 0..n {
            t[i] = v[i] & mask[i] & !row[i];
        }
    }
    let mut more = passable.empty_like();
    union_fill_into(&touch, &rest, conn, &mut more);
    cur.or_assign(&more);
}

/// The first set bit at index `>= from` (and `< len`) of a bitset.
fn next_set_at_or_after(bits: &[u64], from: usize, len: usize) -> Option<usize> {
    let mut i = from / 64;
    let mut w = *bits.get(i)? & (!0u64 << (from % 64));
    loop {
        if w != 0 {
            let y = i * 64 + w.trailing_zeros() as usize;
            return (y < len).then_some(y);
        }
        i += 1;
        w = *bits.get(i)?;
    }
}

/// The last set bit at index `<= from` of a bitset.
fn next_set_at_or_before(bits: &[u64], from: usize) -> Option<usize> {
    let mut i = from / 64;
    let keep = if from % 64 == 63 {
        !0
    } else {
        (1u64 << (from % 64 + 1)) - 1
    };
    let mut w = bits[i] & keep;
    loop {
        if w != 0 {
            return Some(i * 64 + 63 - w.leading_zeros() as usize);
        }
        i = i.checked_sub(1)?;
        w = bits[i];
    }
}
