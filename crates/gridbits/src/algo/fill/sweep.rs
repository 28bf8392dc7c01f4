//! The row-sweep flood fill of runtime grids ([`fill_sweep`]): a small region is finished by
//! the scanline run stack; a large one by rows kept as unions of whole runs of passable cells,
//! closed by word additions and revisited only when a neighbouring row grew next to their
//! unfilled cells; mazes hand over to the run union-find ([`fill_union`](super::fill_union)).

use super::runs::{claim_runs, run_stack_bounded, seed_runs};
use super::union::union_fill_into;
#[cfg(doc)]
use super::{fill_runs, fill_union};
use crate::{BitGrid, Connectivity, OffGrid};

/// Flood fill of a [`BitGrid`]: run stack first, then alternating row sweeps, then the run
/// union-find if the sweeps do not converge.
///
/// For runtime grids only: it works on rows of whole words. Fixed boards, a few words in all,
/// fill fastest by dilation ([`fill_dilate`](super::fill_dilate)); [`fill`](super::fill) picks
/// the engine of each board kind.
///
/// 1. **Small regions.** The runs of the seeds go on the scanline run stack of
///    [`fill_runs`], which explores up to a budget of runs (a sixteenth of the grid's words,
///    at least 64). A pocket of a few hundred cells is done here, in time proportional to its
///    runs, without a pass over the grid.
/// 2. **Row sweeps.** Every row of the result is kept *closed*: a union of whole runs of
///    passable cells. A row is evaluated when a neighbouring row gained cells next to its
///    unfilled passable cells (a bitset of dirty rows, scanned with trailing/leading zero
///    counts): those cells seed new runs, closed in one pass of word additions upwards and one
///    parallel-prefix smear downwards. Sweeps go down then up, so a path that goes down (or up)
///    while zig-zagging sideways is filled in one sweep; only vertical reversals need another.
///    Open ground, serpentines and noise up to about 35% walls finish in one to six sweeps.
/// 3. **Mazes**, whose paths reverse vertical direction over and over, would need hundreds of
///    sweeps: after eight sweeps, unless the sweeps are shrinking geometrically (the tail of a
///    fill that converges), the fill hands over to the union-find of [`fill_union`], run on
///    the passable cells not filled yet, whose cost is linear in the grid size whatever the
///    shape.
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
/// // Down, right, up, along the top, down the right side.
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
    let mut cur = passable.empty_like();
    let budget = 64 + passable.words().len() / 16;
    if let Some(mut stack) = seed_runs(seeds, passable, &mut cur, budget) {
        if run_stack_bounded(&mut cur, passable, conn, &mut stack, budget) {
            return cur;
        }
    }
    sweep_fill(&mut cur, passable, conn, MIN_SWEEPS);
    cur
}

/// The flood fill of [`fill_sweep`] from one cell: the cells of `passable` reachable from
/// `start = (x, y)` under `conn` (none if the start is not passable).
///
/// The same engines, without a seed grid: the start's run goes straight on the run stack, so
/// a small pocket costs its runs and the pages of the result it touches, nothing in
/// proportion to the grid (no seed grid to build or scan).
///
/// ```
/// use gridbits::algo::fill::fill_from;
/// use gridbits::{BitGrid, Connectivity};
/// let free = !BitGrid::parse("..#..\n..#..\n###..").unwrap();
/// let left = fill_from(&free, (0, 0), Connectivity::Four);
/// assert_eq!(left.count(), 4);
/// assert!(!left.get(3, 0));
/// assert_eq!(fill_from(&free, (2, 0), Connectivity::Four).count(), 0);
/// ```
///
/// # Panics
///
/// If `start` lies off the grid ([`try_fill_from`](super::try_fill_from) returns an error
/// instead).
pub fn fill_from(passable: &BitGrid, start: (usize, usize), conn: Connectivity) -> BitGrid {
    let (x, y) = start;
    if let Err(e) = OffGrid::check(x, y, passable.width(), passable.height()) {
        panic!("the start {e}");
    }
    let mut cur = passable.empty_like();
    let mut stack = Vec::new();
    let (i, bit) = (x / 64, 1u64 << (x % 64));
    claim_runs(
        passable.row_words(y),
        cur.row_words_mut(y),
        y,
        i,
        bit,
        &mut stack,
    );
    let budget = 64 + passable.words().len() / 16;
    if !run_stack_bounded(&mut cur, passable, conn, &mut stack, budget) {
        sweep_fill(&mut cur, passable, conn, MIN_SWEEPS);
    }
    cur
}

/// How many sweeps [`fill_sweep`] makes before it may hand over to the run union-find: after
/// these, it goes on only while each sweep evaluates fewer than half the rows of the one
/// before (the tail of a converging fill). Open ground and noise up to about 35% walls finish
/// in one to ten sweeps, the last few shrinking fast; mazes would need hundreds of sweeps of
/// about the same size.
const MIN_SWEEPS: usize = 8;

/// Completes a fill whose filled cells `cur` are whole runs of `passable` (a subset of the
/// answer, whose neighbours may be unexplored) by row sweeps, handing over to the union-find
/// when the sweeps stop converging: after `min_sweeps` sweeps ([`MIN_SWEEPS`] in
/// [`fill_sweep`]), as soon as one evaluates more than half the rows of the one before.
fn sweep_fill(cur: &mut BitGrid, passable: &BitGrid, conn: Connectivity, min_sweeps: usize) {
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
            return;
        }
        sweeps += 1;
        // Past the first sweeps, go on only while the sweeps shrink geometrically.
        if sweeps >= min_sweeps && evals * 2 > last {
            break;
        }
        last = evals;
        down = !down;
    }
    hand_over_to_union(cur, passable, conn);
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

/// Writes into `out` the runs of `mask` (a row of words, bit `x % 64` of word `x / 64` =
/// column `x`) that contain a bit of `seed` (a subset of `mask`). Runs may span words.
///
/// Upwards (towards larger x) one addition per word carries each seed to the top of its run;
/// downwards a parallel-prefix smear (six shift steps) carries it to the bottom, word by word
/// from the top of the row.
#[inline]
pub(super) fn close_runs(seed: &[u64], mask: &[u64], out: &mut [u64]) {
    let n = mask.len();
    let mut carry = false;
    for i in 0..n {
        let (s1, c1) = mask[i].overflowing_add(seed[i]);
        let (s2, c2) = s1.overflowing_add(carry as u64);
        carry = c1 | c2;
        out[i] = ((s2 ^ mask[i]) | seed[i]) & mask[i];
    }
    let mut below = 0u64;
    for i in (0..n).rev() {
        let mut p = mask[i];
        let mut g = seed[i] | (below << 63 & p);
        g |= p & (g >> 1);
        p &= p >> 1;
        g |= p & (g >> 2);
        p &= p >> 2;
        g |= p & (g >> 4);
        p &= p >> 4;
        g |= p & (g >> 8);
        p &= p >> 8;
        g |= p & (g >> 16);
        p &= p >> 16;
        g |= p & (g >> 32);
        below = g & 1;
        out[i] |= g;
    }
}

/// Completes a sweep fill (rows closed: unions of whole runs) with the run union-find, on
/// the passable cells not filled yet, seeded by those next to a filled cell.
fn hand_over_to_union(cur: &mut BitGrid, passable: &BitGrid, conn: Connectivity) {
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
    // Large grids on several threads: the union-find by stripes, on every core.
    #[cfg(feature = "parallel")]
    if passable.width() * passable.height() >= crate::parallel::FILL_MIN_CELLS
        && crate::parallel::current_threads() >= 2
    {
        cur.or_assign(&super::fill_union_parallel(&touch, &rest, conn));
        return;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive::{fill as nf, NaiveGrid};

    use crate::test_rng::XorShift as Rng;

    /// A grid with `p`% free cells, or a comb of vertical corridors joined alternately at
    /// the top and bottom (every path reverses vertical direction: sweeps never converge).
    fn grid(rng: &mut Rng, w: usize, h: usize, p: u64) -> BitGrid {
        if p == 0 {
            return BitGrid::from_fn(w, h, |x, y| {
                x % 2 == 0 || (y == 0 && x % 4 == 1) || (y == h - 1 && x % 4 == 3)
            })
            .unwrap();
        }
        BitGrid::from_fn(w, h, |_, _| rng.percent(p)).unwrap()
    }

    fn expected(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity) -> BitGrid {
        let got = nf::fill(
            &NaiveGrid::from_view(seeds),
            &NaiveGrid::from_view(passable),
            conn,
        );
        BitGrid::from_fn(passable.width(), passable.height(), |x, y| got.get(x, y)).unwrap()
    }

    /// Every way through the engine: the run stack cut short after `budget` runs (or the seed
    /// runs over budget), then sweeps handing over to the union-find after `min_sweeps`.
    #[test]
    fn every_path_matches_naive() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for (w, h) in [
            (1, 1),
            (1, 40),
            (40, 1),
            (63, 9),
            (64, 8),
            (65, 33),
            (130, 70),
        ] {
            for p in [0, 35, 55, 65, 80, 100] {
                let passable = grid(&mut rng, w, h, p);
                let seeds = grid(&mut rng, w, h, 3);
                for conn in [Connectivity::Four, Connectivity::Eight] {
                    let want = expected(&seeds, &passable, conn);
                    assert_eq!(fill_sweep(&seeds, &passable, conn), want);
                    for budget in [0, 1, 5] {
                        for min_sweeps in [1, 2, 8] {
                            let mut cur = passable.empty_like();
                            if let Some(mut stack) = seed_runs(&seeds, &passable, &mut cur, budget)
                            {
                                run_stack_bounded(&mut cur, &passable, conn, &mut stack, budget);
                            }
                            sweep_fill(&mut cur, &passable, conn, min_sweeps);
                            assert_eq!(cur, want, "{w}x{h} {p}% {conn:?} {budget} {min_sweeps}");
                        }
                    }
                }
            }
        }
    }

    /// The downward smear of `close_runs` crosses words; runs spanning three words close whole.
    #[test]
    fn close_runs_spans_words() {
        let mask = [!0u64 << 60, !0, 0b111, 1 << 40];
        let mut seed = [0u64; 4];
        seed[1] = 1 << 7;
        let mut out = [0u64; 4];
        close_runs(&seed, &mask, &mut out);
        assert_eq!(out, [!0u64 << 60, !0, 0b111, 0]);
        seed = [0, 0, 0, 1 << 40];
        close_runs(&seed, &mask, &mut out);
        assert_eq!(out, [0, 0, 0, 1 << 40]);
    }
}
