//! The row sweeps of the flood fill of runtime grids ([`fill_sweep`](super::fill_sweep)):
//! rows kept as unions of whole runs of passable cells, closed by word additions and
//! revisited only when a neighbouring row grew next to their unfilled cells.

use crate::algo::runs::rows::close_runs;
use crate::{BitGrid, Connectivity};

/// Grows a fill whose filled cells `cur` are whole runs of `passable` (a subset of the
/// answer, whose neighbours may be unexplored) by row sweeps. Returns `true` when the fill
/// is complete; `false` when the sweeps stopped converging (after `min_sweeps` sweeps, as
/// soon as one evaluates more than half the rows of the one before), with `cur` still a
/// union of whole runs for another engine to finish ([`unfilled_touching`]).
pub(super) fn sweep_rows(
    cur: &mut BitGrid,
    passable: &BitGrid,
    conn: Connectivity,
    min_sweeps: usize,
) -> bool {
    let (h, n) = (passable.height(), passable.words_per_row());
    let eight = conn == Connectivity::Eight;
    let mut rows = Rows {
        n,
        h,
        eight,
        dirty: vec![0u64; h.div_ceil(64)],
        v: vec![0u64; n],
        new: vec![0u64; n],
    };
    // Every neighbour of a filled row is dirty.
    for y in 0..h {
        if cur.row_words(y).iter().any(|&w| w != 0) {
            if y > 0 {
                rows.mark(y - 1);
            }
            if y + 1 < h {
                rows.mark(y + 1);
            }
        }
    }
    let mask = passable.words();
    let words = cur.words_mut();
    let mut down = true;
    let (mut sweeps, mut last) = (0usize, usize::MAX);
    loop {
        let mut evals = 0usize;
        let mut next = if down { Some(0) } else { h.checked_sub(1) };
        while let Some(start) = next {
            let found = if down {
                next_set_at_or_after(&rows.dirty, start, h)
            } else {
                next_set_at_or_before(&rows.dirty, start)
            };
            let Some(y) = found else { break };
            rows.dirty[y / 64] &= !(1 << (y % 64));
            evals += 1;
            if rows.eval(words, mask, y) {
                rows.mark_touched(words, mask, y);
            }
            next = if down { Some(y + 1) } else { y.checked_sub(1) };
        }
        if rows.dirty.iter().all(|&w| w == 0) {
            return true;
        }
        sweeps += 1;
        // Past the first sweeps, go on only while the sweeps shrink geometrically.
        if sweeps >= min_sweeps && evals * 2 > last {
            break;
        }
        last = evals;
        down = !down;
    }
    false
}

/// The state of the row sweeps: the dirty rows and two row buffers.
struct Rows {
    n: usize,
    h: usize,
    eight: bool,
    /// Rows to evaluate, one bit each.
    dirty: Vec<u64>,
    /// The new seeds of the row being evaluated.
    v: Vec<u64>,
    /// The cells the last evaluation added.
    new: Vec<u64>,
}

impl Rows {
    fn mark(&mut self, y: usize) {
        self.dirty[y / 64] |= 1 << (y % 64);
    }

    /// Evaluates row `y` of `words` (rows of `n` words, `mask` the passable cells): its
    /// passable unfilled cells that touch filled cells of the rows above and below seed new
    /// runs, closed whole. The added cells go to `self.new`; returns whether there are any.
    fn eval(&mut self, words: &mut [u64], mask: &[u64], y: usize) -> bool {
        let (n, h) = (self.n, self.h);
        let at = y * n;
        self.v.fill(0);
        for ny in [y.wrapping_sub(1), y + 1] {
            if ny >= h {
                continue;
            }
            let r = &words[ny * n..ny * n + n];
            if self.eight {
                spread_or(r, &mut self.v);
            } else {
                for (v, &w) in self.v.iter_mut().zip(r) {
                    *v |= w;
                }
            }
        }
        let (m, row) = (&mask[at..at + n], &mut words[at..at + n]);
        let mut any = 0u64;
        for i in 0..n {
            self.v[i] &= m[i] & !row[i];
            any |= self.v[i];
        }
        if any == 0 {
            return false;
        }
        close_runs(&self.v, m, &mut self.new);
        for (r, &nw) in row.iter_mut().zip(&self.new) {
            *r |= nw;
        }
        true
    }

    /// Marks the rows next to `y` in which the cells just added to row `y` (`self.new`) touch
    /// passable cells not filled yet.
    fn mark_touched(&mut self, words: &[u64], mask: &[u64], y: usize) {
        let n = self.n;
        if self.eight {
            // The cells that touch the new ones, in the rows above and below.
            std::mem::swap(&mut self.v, &mut self.new);
            self.new.fill(0);
            spread_or(&self.v, &mut self.new);
        }
        for ny in [y.wrapping_sub(1), y + 1] {
            if ny >= self.h {
                continue;
            }
            let (m, r) = (&mask[ny * n..ny * n + n], &words[ny * n..ny * n + n]);
            let open = (0..n).fold(0u64, |acc, i| acc | (self.new[i] & m[i] & !r[i]));
            if open != 0 {
                self.mark(ny);
            }
        }
    }
}

/// ORs into `out` a row of words and its one-cell shifts east and west (carried across words).
#[inline]
fn spread_or(r: &[u64], out: &mut [u64]) {
    let n = r.len();
    for i in 0..n {
        let lo = if i > 0 { r[i - 1] >> 63 } else { 0 };
        let hi = if i + 1 < n { r[i + 1] << 63 } else { 0 };
        out[i] |= r[i] | (r[i] << 1) | lo | (r[i] >> 1) | hi;
    }
}

/// What another engine needs to finish a sweep fill `cur` (rows closed: unions of whole
/// runs): `(touch, rest)`, the passable cells not filled yet, and those of them next to a
/// filled cell (the seeds of the rest).
pub(super) fn unfilled_touching(
    cur: &BitGrid,
    passable: &BitGrid,
    conn: Connectivity,
) -> (BitGrid, BitGrid) {
    let (h, n) = (passable.height(), passable.words_per_row());
    let eight = conn == Connectivity::Eight;
    let mut rest = passable.empty_like();
    let mut touch = passable.empty_like();
    let mut v = vec![0u64; n];
    for y in 0..h {
        v.fill(0);
        for ny in [y.wrapping_sub(1), y + 1] {
            if ny >= h {
                continue;
            }
            if eight {
                spread_or(cur.row_words(ny), &mut v);
            } else {
                for (v, &w) in v.iter_mut().zip(cur.row_words(ny)) {
                    *v |= w;
                }
            }
        }
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
    (touch, rest)
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
