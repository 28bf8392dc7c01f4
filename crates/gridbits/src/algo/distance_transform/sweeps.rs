//! City-block and chessboard distances of deep shapes in two vertical sweeps over whole
//! rows: what the erosion layers ([`layers`](super::layers)) hand over to past their budget.
//!
//! Split each cell's nearest background cell by whether it lies in a row at or above the
//! cell's or at or below it. Going down, the distance to the nearest at or above is
//!
//! ```text
//! A[y][x] = min(h[y][x], A[y-1][x] + 1)                                    (city block)
//! A[y][x] = min(h[y][x], min(A[y-1][x-1], A[y-1][x], A[y-1][x+1]) + 1)     (chessboard)
//! ```
//!
//! with `h[y][x]` the distance along row `y` to the nearest unset cell of that row (0 on
//! an unset cell). City block: `|dx| + dy` is `dy - 1` more than the row below the target
//! row needs. Chessboard: from a background cell `(x', y')` with `y' < y`, the neighbour
//! above that steps towards `x'` (or straight up when `x = x'`) is exactly one closer in
//! `max(|dx|, dy)`, and no neighbour above is more than one closer. Going up, the same
//! gives `B`, and the distance is `min(A, B)`, written in the second sweep.
//!
//! No cell waits on its left or right neighbour (the raster passes' row scans do): a row is
//! a few vectorised operations over the whole row, plus, along each run of set cells, its
//! distances to the run's ends (`h`, a ramp from the bits). The scratch is three rows; the
//! output is written in the first sweep and finished in place in the second.

use super::columns::step;
use crate::BitGrid;
use std::mem::MaybeUninit;

/// Larger than any real distance: no unset cell at or above (below) the cell yet. Sums
/// with real distances stay below `2^31` (the callers keep the sides below [`MAX_SUM`]).
const FAR: u32 = 1 << 30;

/// The sides' sum must stay below this (`2^24`): every distance and the sums of the sweeps
/// are then exact as `f32`, and `FAR` plus any distance fits an `i32`.
pub(super) const MAX_SUM: usize = 1 << 24;

/// A distance as an output holds it: `i32` (scipy's `distance_transform_cdt`), `f32`
/// (OpenCV's `distanceTransform`), `u64` (the tests).
pub(super) trait Distance: Copy + Send {
    /// The distance `d` (below `2^31`).
    fn of(d: u32) -> Self;
    /// The smaller of two distances.
    fn min(self, other: Self) -> Self;
}

impl Distance for i32 {
    #[inline(always)]
    fn of(d: u32) -> Self {
        d as i32
    }
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        Ord::min(self, other)
    }
}

impl Distance for f32 {
    #[inline(always)]
    fn of(d: u32) -> Self {
        // Through `i32`: a signed conversion is one vector instruction, an unsigned one
        // several (and `d` is below 2^31).
        d as i32 as f32
    }
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        // Distances are whole and non-negative, where the order of `f32`s is the order of
        // their bits as `i32`s: one integer vector minimum (a comparison and a select of
        // floats becomes a masked store, slow on some CPUs).
        f32::from_bits(Ord::min(self.to_bits() as i32, other.to_bits() as i32) as u32)
    }
}

impl Distance for u64 {
    #[inline(always)]
    fn of(d: u32) -> Self {
        u64::from(d)
    }
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        Ord::min(self, other)
    }
}

/// Grids of at least this many cells (1 Mpx, `2^20`) sweep on two threads when the
/// feature `parallel` is on and the current pool has two threads or more: the sweep down
/// takes the top half while the sweep up takes the bottom half, then each goes on through
/// the other half, finishing it. Each thread does half the work, whatever the shapes.
pub(super) const SWEEPS_SPLIT_CELLS: usize = 1 << 20;

/// Writes every cell's city-block (`diagonal` false) or chessboard distance into `out`
/// (any length on entry; `w * h` cells on return, row-major). The grid must hold an unset
/// cell (then every distance is real) and its width plus height must be below
/// [`MAX_SUM`].
pub(super) fn sweep_distances<T: Distance>(grid: &BitGrid, diagonal: bool, out: &mut Vec<T>) {
    let (w, h) = grid.size();
    debug_assert!(w + h < MAX_SUM);
    out.clear();
    if w == 0 || h == 0 {
        return;
    }
    out.reserve_exact(w * h);
    // The code is chosen here, on the calling thread (a `cpu::with_level` cap holds for
    // the second thread too).
    #[cfg(target_arch = "x86_64")]
    let avx2 = crate::cpu::has(crate::cpu::Features::AVX2);
    #[cfg(not(target_arch = "x86_64"))]
    let avx2 = false;
    let two = w * h >= SWEEPS_SPLIT_CELLS && crate::parallel::current_threads() >= 2;
    let both = |a: &mut (dyn FnMut() + Send), b: &mut (dyn FnMut() + Send)| {
        if two {
            crate::parallel::halves(a, b);
        } else {
            a();
            b();
        }
    };
    let m = h / 2;
    let mut down = vec![FAR; w];
    let mut up = vec![FAR; w];
    let part = Part {
        grid,
        diagonal,
        avx2,
    };
    // First the fresh output, each half's pages first touched by the thread that writes
    // them: the top half going down, the bottom half going up.
    let (top, bottom) = out.spare_capacity_mut()[..w * h].split_at_mut(m * w);
    both(
        &mut || {
            part.run(
                0..m,
                &mut down,
                Fresh {
                    half: &mut *top,
                    base: 0,
                    w,
                },
            )
        },
        &mut || {
            part.run(
                (m..h).rev(),
                &mut up,
                Fresh {
                    half: &mut *bottom,
                    base: m,
                    w,
                },
            )
        },
    );
    // SAFETY: the two parts above wrote every one of the first `w * h` cells (rows `0..m`
    // and `m..h`, each row whole), and the capacity is at least `w * h`.
    unsafe { out.set_len(w * h) };
    let (top, bottom) = out.split_at_mut(m * w);
    both(
        &mut || {
            part.run(
                m..h,
                &mut down,
                Meet {
                    half: &mut *bottom,
                    base: m,
                    w,
                },
            )
        },
        &mut || {
            part.run(
                (0..m).rev(),
                &mut up,
                Meet {
                    half: &mut *top,
                    base: 0,
                    w,
                },
            )
        },
    );
}

/// Where a part of the sweeps hands its rows.
trait Rows {
    /// Row `y`'s distances `cur`.
    fn put(&mut self, y: usize, cur: &[u32]);
}

/// The first sweep's writer into the rows of `half` (the output's rows from `base` on, `w`
/// cells each, not yet written).
struct Fresh<'a, T> {
    half: &'a mut [MaybeUninit<T>],
    base: usize,
    w: usize,
}

impl<T: Distance> Rows for Fresh<'_, T> {
    // Inlined into the caller's compilation (AVX2), as a closure would not be.
    #[inline(always)]
    fn put(&mut self, y: usize, cur: &[u32]) {
        let (b, w) = (self.base, self.w);
        for (o, &d) in self.half[(y - b) * w..(y - b + 1) * w].iter_mut().zip(cur) {
            o.write(T::of(d));
        }
    }
}

/// The second sweep's writer: the smaller of its distances and the first sweep's, into
/// the rows of `half` (from `base` on).
struct Meet<'a, T> {
    half: &'a mut [T],
    base: usize,
    w: usize,
}

impl<T: Distance> Rows for Meet<'_, T> {
    #[inline(always)]
    fn put(&mut self, y: usize, cur: &[u32]) {
        let (b, w) = (self.base, self.w);
        min_into(&mut self.half[(y - b) * w..(y - b + 1) * w], cur);
    }
}

/// What every part of the sweeps shares: the grid, the metric and the code.
#[derive(Clone, Copy)]
struct Part<'a> {
    grid: &'a BitGrid,
    diagonal: bool,
    /// Whether to run the AVX2 compilation (read only on x86-64, where it exists).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    avx2: bool,
}

impl Part<'_> {
    /// Sweeps rows `ys` (in the sweep's order) on from `prev` (the row before them in the
    /// sweep; left as the last row swept), handing each row's distances to `emit`.
    fn run(&self, ys: impl Iterator<Item = usize>, prev: &mut Vec<u32>, emit: impl Rows) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only after detecting AVX2 (in `sweep_distances`), the
            // only requirement of `run_avx2` (the portable code compiled with AVX2:
            // `vpminud` and eight lanes a step).
            return unsafe { self.run_avx2(ys, prev, emit) };
        }
        self.run_body(ys, prev, emit)
    }

    /// [`Part::run`] compiled with AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn run_avx2(&self, ys: impl Iterator<Item = usize>, prev: &mut Vec<u32>, emit: impl Rows) {
        self.run_body(ys, prev, emit)
    }

    /// The body of [`Part::run`], inlined into each compilation.
    #[inline(always)]
    fn run_body(&self, ys: impl Iterator<Item = usize>, prev: &mut Vec<u32>, mut emit: impl Rows) {
        let w = self.grid.width();
        let mut cur = vec![0u32; w];
        let mut mins = vec![0u32; w];
        for y in ys {
            sweep_row(
                self.grid.row_words(y),
                prev,
                &mut cur,
                &mut mins,
                self.diagonal,
            );
            emit.put(y, &cur);
            std::mem::swap(prev, &mut cur);
        }
    }
}

/// `out[x] = min(out[x], cur[x])`: the two sweeps met. Eight cells are read before any is
/// written, so the compiler needs no proof that `out` and `cur` do not overlap to keep
/// the loop in vectors.
#[inline(always)]
fn min_into<T: Distance>(out: &mut [T], cur: &[u32]) {
    let mut o = out.chunks_exact_mut(8);
    let mut c = cur.chunks_exact(8);
    for (o, c) in (&mut o).zip(&mut c) {
        let v: [T; 8] = std::array::from_fn(|k| o[k].min(T::of(c[k])));
        o.copy_from_slice(&v);
    }
    for (o, &d) in o.into_remainder().iter_mut().zip(c.remainder()) {
        *o = o.min(T::of(d));
    }
}

/// One row of a sweep: `cur` becomes `min(h, prev's neighbours + 1)` for the row of
/// `words` (`prev` the row before in the sweep, all [`FAR`] before the first; `mins`
/// scratch of a row).
#[inline(always)]
fn sweep_row(words: &[u64], prev: &[u32], cur: &mut [u32], mins: &mut [u32], diagonal: bool) {
    let w = cur.len();
    if diagonal && w > 1 {
        mins[0] = prev[0].min(prev[1]);
        mins[w - 1] = prev[w - 2].min(prev[w - 1]);
        for (((m, &a), &b), &c) in mins[1..w - 1]
            .iter_mut()
            .zip(&prev[..w - 2])
            .zip(&prev[1..w - 1])
            .zip(&prev[2..])
        {
            *m = a.min(b).min(c);
        }
        step(words, mins, cur);
    } else {
        step(words, prev, cur);
    }
    ramps(words, cur);
}

/// `cur[x] = min(cur[x], h[x])` on the set cells: along each run of set cells, the distance
/// to the nearer of its ends' unset cells (none past the row's ends).
///
/// The runs' ends are the bits where a row changes (a word xor itself shifted by one, the
/// previous word's top bit carried in), taken lowest first: one `tzcnt` per end, nothing
/// for a word inside a run or between runs.
///
/// Inside a run, `cur` (the previous row's neighbours plus one) changes by at most 1 from
/// cell to cell: the distances of a row are 1-Lipschitz along it (the row's own `h` is,
/// and so is a minimum or a three-cell minimum of such rows, plus one), so each ramp stops
/// at the first cell it does not lower, and a ramp costs the cells it changes.
#[inline(always)]
fn ramps(words: &[u64], cur: &mut [u32]) {
    let w = cur.len();
    // The start of the run of set cells being read, if any.
    let mut open: Option<usize> = None;
    let mut carry = 0u64;
    for (i, &bits) in words.iter().enumerate() {
        // Bit `k` of `edges`: cell `64 i + k` differs from the one before (an unset cell
        // before the row): a run starts there (set) or ends just before (unset).
        let mut edges = bits ^ ((bits << 1) | carry);
        carry = bits >> 63;
        while edges != 0 {
            let x = 64 * i + edges.trailing_zeros() as usize;
            edges &= edges - 1;
            match open.take() {
                // The bits past `w` are unset: a run ends at `w` at the latest.
                Some(a) => ramp_run(cur, a, x.min(w)),
                None => open = Some(x),
            }
        }
    }
    if let Some(a) = open {
        ramp_run(cur, a, w);
    }
}

/// The ramps of the run of set cells `a..b` of the row `cur`: from the unset cell before
/// it (unless `a` is 0) and the one after it (unless `b` ends the row).
#[inline(always)]
fn ramp_run(cur: &mut [u32], a: usize, b: usize) {
    match (a > 0, b < cur.len()) {
        (true, true) => {
            // Cells up to the middle are nearer the left end (x - a + 1 <= b - x).
            let mid = (a + b).div_ceil(2);
            let (left, right) = cur[a..b].split_at_mut(mid - a);
            ramp_up(left);
            ramp_down(right);
        }
        (true, false) => ramp_up(&mut cur[a..b]),
        (false, true) => ramp_down(&mut cur[a..b]),
        (false, false) => {}
    }
}

/// `s[k] = min(s[k], k + 1)`: the distances from an unset cell just before `s`. `s` changes
/// by at most 1 from cell to cell (see [`ramps`]), so once the ramp reaches it, it stays
/// at or above it: the loop stops there.
#[inline(always)]
fn ramp_up(s: &mut [u32]) {
    for (k, c) in s.iter_mut().enumerate() {
        let r = k as u32 + 1;
        if r >= *c {
            return;
        }
        *c = r;
    }
}

/// `s[k] = min(s[k], len - k)`: the distances from an unset cell just after `s`, from the
/// end (stopping as [`ramp_up`] does).
#[inline(always)]
fn ramp_down(s: &mut [u32]) {
    for (k, c) in s.iter_mut().rev().enumerate() {
        let r = k as u32 + 1;
        if r >= *c {
            return;
        }
        *c = r;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::{self, Level};
    use crate::naive::distance_transform::{brute_force, Metric};
    use crate::naive::NaiveGrid;
    use crate::test_rng::XorShift;

    /// Both sweeps against brute force: word edges, one row or column, single unset cells
    /// (deep), runs touching the row's ends, noise of every density.
    #[test]
    fn sweeps_equal_brute_force() {
        let mut rng = XorShift(0x5eeb);
        for &(w, h) in &[
            (1, 1),
            (1, 9),
            (9, 1),
            (2, 2),
            (63, 7),
            (64, 30),
            (65, 12),
            (129, 40),
            (3, 150),
        ] {
            for pct in [0, 30, 70, 90, 97, 99, 100] {
                let mut g = BitGrid::new(w, h);
                for y in 0..h {
                    for x in 0..w {
                        if rng.percent(pct) {
                            g.set(x, y);
                        }
                    }
                }
                if g.is_full() {
                    g.clear((rng.next_u64() % w as u64) as usize, h / 2);
                }
                let naive = NaiveGrid::from_view(&g);
                for (metric, diagonal) in [(Metric::Taxicab, false), (Metric::Chessboard, true)] {
                    let want: Vec<u64> = brute_force(&naive, metric)
                        .iter()
                        .map(|b| b.unwrap_or(u64::MAX))
                        .collect();
                    for level in [Level::Portable, cpu::level()] {
                        let mut got = vec![7u64; 3];
                        cpu::with_level(level, || sweep_distances(&g, diagonal, &mut got));
                        assert_eq!(got, want, "{w}x{h} {pct}% diagonal {diagonal} {level:?}");
                        let mut got: Vec<f32> = Vec::new();
                        cpu::with_level(level, || sweep_distances(&g, diagonal, &mut got));
                        let want: Vec<f32> = want.iter().map(|&d| d as f32).collect();
                        assert_eq!(got, want, "{w}x{h} {pct}% diagonal {diagonal} {level:?}");
                    }
                }
            }
        }
    }

    /// `ramps` after a column step against the row distances cell by cell: rows of every
    /// density over word edges, the previous row a random 1-Lipschitz walk (as the rows of
    /// distances are) or all [`FAR`].
    #[test]
    fn ramps_lower_to_the_row_distances() {
        let mut rng = XorShift(0x7a3b);
        for _ in 0..600 {
            let w = 1 + (rng.next_u64() % 200) as usize;
            let pct = [0, 10, 50, 90, 98, 100][(rng.next_u64() % 6) as usize];
            let mut words = vec![0u64; w.div_ceil(64)];
            for x in 0..w {
                if rng.percent(pct) {
                    words[x / 64] |= 1 << (x % 64);
                }
            }
            let mut prev = vec![FAR; w];
            if rng.percent(70) {
                let mut d = (rng.next_u64() % 40) as u32;
                for p in prev.iter_mut() {
                    *p = d;
                    d = match rng.next_u64() % 3 {
                        0 => d.saturating_sub(1),
                        1 => d,
                        _ => d + 1,
                    };
                }
            }
            let mut cur = vec![0u32; w];
            step(&words, &prev, &mut cur);
            let set = |x: usize| words[x / 64] >> (x % 64) & 1 == 1;
            let want: Vec<u32> = (0..w)
                .map(|x| {
                    let left = (0..=x).rev().find(|&u| !set(u)).map(|u| (x - u) as u32);
                    let right = (x..w).find(|&u| !set(u)).map(|u| (u - x) as u32);
                    // No unset cell in the row: nothing to lower.
                    let h = left.into_iter().chain(right).min();
                    h.map_or(cur[x], |h| cur[x].min(h))
                })
                .collect();
            ramps(&words, &mut cur);
            assert_eq!(cur, want, "w {w} {pct}%");
        }
    }
}
