//! The scanline flood fill of runtime grids over runs of passable cells ([`fill_runs`]): each
//! run found with bit scans, painted with a few word ORs and pushed on a stack once.

#[cfg(doc)]
use super::fill_sweep;
use crate::algo::checks::assert_sizes;
use crate::algo::runs::rows::close_runs;
use crate::{BitGrid, Connectivity};

/// Scanline flood fill of a [`BitGrid`] over runs of passable cells.
///
/// For runtime grids only, like [`fill_sweep`]; fixed boards use
/// [`fill_dilate`](super::fill_dilate).
///
/// Each horizontal run of passable cells is found with bit scans (trailing/leading ones),
/// painted with a few word ORs, and pushed on a stack once; popping a run looks for unfilled
/// passable cells in the overlapping span of the rows above and below (one cell wider each
/// side for 8-connectivity) a word at a time. The work is linear in the number of runs, so
/// it does not depend on the shape of the region: a maze costs what open ground of the same
/// run count costs. [`fill_sweep`] starts with this, for a budget of runs, so that a small
/// region costs only its runs.
///
/// # Panics
///
/// If `seeds` and `passable` have different sizes.
pub fn fill_runs(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity) -> BitGrid {
    assert_sizes(passable, "seeds", std::slice::from_ref(seeds), None, None);
    let mut cur = passable.empty_like();
    let mut stack = seed_runs(seeds, passable, &mut cur, usize::MAX).unwrap_or_default();
    run_stack_bounded(&mut cur, passable, conn, &mut stack, usize::MAX);
    cur
}

/// Paints into `cur` (empty) the runs of `passable` that hold a cell of `seeds`, and returns
/// them as a stack of `(y, first, last)` to explore; `None` (with every seed run still
/// painted) once more than `budget` runs were found.
pub(super) fn seed_runs(
    seeds: &BitGrid,
    passable: &BitGrid,
    cur: &mut BitGrid,
    budget: usize,
) -> Option<Vec<(usize, usize, usize)>> {
    let mut stack = Vec::new();
    let mut over = false;
    let mut closed = vec![0u64; passable.words_per_row()];
    for y in 0..passable.height() {
        let sel = seeds.row_words(y);
        if sel.iter().fold(0, |a, &w| a | w) == 0 {
            continue;
        }
        let (mask, row) = (passable.row_words(y), cur.row_words_mut(y));
        if over {
            let seed: Vec<u64> = sel.iter().zip(mask).map(|(&s, &m)| s & m).collect();
            close_runs(&seed, mask, &mut closed);
            for (r, &c) in row.iter_mut().zip(&closed) {
                *r |= c;
            }
            continue;
        }
        for (i, &s) in sel.iter().enumerate() {
            claim_runs(mask, row, y, i, s, &mut stack);
        }
        over = stack.len() > budget;
    }
    (!over).then_some(stack)
}

/// Explores the runs on `stack` (painted whole in `cur`, their neighbours not yet explored),
/// claiming and pushing every run they touch, until the stack is empty (returns `true`) or
/// `budget` runs were popped (returns `false`; `cur` then holds whole runs, some of whose
/// neighbours are unexplored).
pub(super) fn run_stack_bounded(
    cur: &mut BitGrid,
    passable: &BitGrid,
    conn: Connectivity,
    stack: &mut Vec<(usize, usize, usize)>,
    budget: usize,
) -> bool {
    let (w, h) = (passable.width(), passable.height());
    let wide = usize::from(conn == Connectivity::Eight);
    let mut popped = 0usize;
    while let Some((y, a, b)) = stack.pop() {
        if popped == budget {
            return false;
        }
        popped += 1;
        let lo = a.saturating_sub(wide);
        let hi = (b + wide).min(w - 1);
        let (fi, li) = (lo / 64, hi / 64);
        for ny in [y.wrapping_sub(1), y + 1] {
            if ny >= h {
                continue;
            }
            let mask = passable.row_words(ny);
            let row = cur.row_words_mut(ny);
            // After claiming a run, go on from the word where it ends: the words it covers
            // whole hold nothing more to claim (long runs cost their two ends, not their
            // length).
            let mut i = fi;
            while i <= li {
                let lo_bits = if i == fi { !0u64 << (lo % 64) } else { !0 };
                let hi_bits = if i == li { !0u64 >> (63 - hi % 64) } else { !0 };
                let cand = mask[i] & !row[i] & lo_bits & hi_bits;
                if cand == 0 {
                    i += 1;
                    continue;
                }
                let (a, b) = run_extent(mask, i * 64 + cand.trailing_zeros() as usize);
                paint_run(row, a, b);
                stack.push((ny, a, b));
                i = b / 64;
            }
        }
    }
    true
}

/// Claims every run of `mask` (a row `y` of words) that has an unclaimed cell among the bits
/// `select` of word `i`: paints the whole run into `row` and pushes it on `stack`.
#[inline]
pub(super) fn claim_runs(
    mask: &[u64],
    row: &mut [u64],
    y: usize,
    i: usize,
    select: u64,
    stack: &mut Vec<(usize, usize, usize)>,
) {
    loop {
        let cand = mask[i] & !row[i] & select;
        if cand == 0 {
            return;
        }
        let (a, b) = run_extent(mask, i * 64 + cand.trailing_zeros() as usize);
        paint_run(row, a, b);
        stack.push((y, a, b));
    }
}

/// The run of set bits of `row` containing bit `x` (which must be set): `(first, last)`.
#[inline]
fn run_extent(row: &[u64], x: usize) -> (usize, usize) {
    let (wi, b) = (x / 64, x % 64);
    let word = row[wi];
    // Within the word: ones upwards from bit b, and downwards from bit b.
    let up = (!(word >> b)).trailing_zeros() as usize;
    let down = (!(word << (63 - b))).leading_zeros() as usize;
    let mut last = x + up - 1;
    let mut first = x + 1 - down;
    if b + up == 64 {
        // The run reaches the top of the word: continue through the next words.
        for &w in &row[wi + 1..] {
            let ones = w.trailing_ones() as usize;
            last += ones;
            if ones < 64 {
                break;
            }
        }
    }
    if down == b + 1 {
        for &w in row[..wi].iter().rev() {
            let ones = w.leading_ones() as usize;
            first -= ones;
            if ones < 64 {
                break;
            }
        }
    }
    (first, last)
}

/// Sets bits `first..=last` of a row of words.
#[inline]
fn paint_run(row: &mut [u64], first: usize, last: usize) {
    let (fi, li) = (first / 64, last / 64);
    let lo = !0u64 << (first % 64);
    let hi = !0u64 >> (63 - last % 64);
    if fi == li {
        row[fi] |= lo & hi;
        return;
    }
    row[fi] |= lo;
    for w in &mut row[fi + 1..li] {
        *w = !0;
    }
    row[li] |= hi;
}
