//! The row pass of the separable transforms without nearest cells: given every cell's
//! column distance `g` ([`columns`](super::columns)), a cell's distance is the least
//! `cost(|x - x'|, g[x'])` over the columns `x'` of its row, with `cost` the metric's
//! ([`SquaredEuclidean`]: `dx^2 + g^2`; any metric whose cost is the sum of an offset's
//! share and a column's, grows with both and is 1 at `(0, 1)` and `(1, 0)` fits).
//!
//! A row whose column distances are all small (at most [`WINDOW`]: most rows of noise) is
//! solved whole by a window: no cell's nearest column is farther than the row's largest
//! column distance, so each cell takes the least of a few shifted costs, branch-free, eight
//! lanes a step. Other rows skip what they can:
//!
//! - a background cell cuts its row: no cell sees past it (the cut is nearer than anything
//!   beyond it), so each run of set cells between two cuts is solved alone;
//! - a run whose every cell has a column distance of 1 or touches a cut is all 1s (no set
//!   cell is nearer than 1), which is most of noise;
//! - a short run tries the columns outwards from each cell, stopping once a column's offset
//!   alone costs no less than the best so far; a long run takes the lower envelope over its
//!   columns (Meijster, Roerdink and Hesselink's second phase, in integers: linear in its
//!   length, however deep the shape).
//!
//! Large grids are cut into bands of rows, one thread a band: each band's column pass
//! starts from what lies beyond its ends, read from the bits
//! ([`column_distances`]).

pub(super) use super::columns::MAX_SIDE;
use super::columns::{column_distances, NONE};
use crate::error::try_vec;
use crate::{BitGrid, SizeError};
use std::mem::MaybeUninit;
use std::ops::Range;
use std::sync::{Mutex, PoisonError};

/// Runs longer than this take the envelope; shorter ones the outward search.
const SHORT_RUN: usize = 24;

/// Costs below this are looked up in a table made once per call.
const SMALL_COSTS: u64 = 1024;

/// A cost far above any real one (a column without background), clear of overflow when
/// an offset's cost is added.
const FAR: u64 = u64::MAX / 4;

/// A metric the row pass can take: the cost of a column at an offset, and where the
/// envelope passes from one column to a later one.
pub(super) trait RowMetric {
    /// The cost of column distance `g` at row offset `dx` ([`FAR`] for `g == NONE`).
    fn cost(dx: u64, g: u32) -> u64;
    /// The least cost of any column at offset `dx` (the offset's share alone).
    fn offset_cost(dx: u64) -> u64;
    /// The first `x` from which column `u` costs strictly less than column `c < u`, their
    /// column distances `gc` and `gu` (both below `NONE`).
    fn separation(c: i64, u: i64, gc: i64, gu: i64) -> i64;
}

/// Squared Euclidean distances: `dx^2 + g^2`.
pub(super) struct SquaredEuclidean;

impl RowMetric for SquaredEuclidean {
    #[inline(always)]
    fn cost(dx: u64, g: u32) -> u64 {
        if g >= NONE {
            FAR
        } else {
            dx * dx + u64::from(g) * u64::from(g)
        }
    }
    #[inline(always)]
    fn offset_cost(dx: u64) -> u64 {
        dx * dx
    }
    #[inline(always)]
    fn separation(c: i64, u: i64, gc: i64, gu: i64) -> i64 {
        (u * u - c * c + gu * gu - gc * gc).div_euclid(2 * (u - c)) + 1
    }
}

/// Grids of at least this many cells (1 Mpx, `2^20`) are cut into bands of rows (see
/// [`BAND_BYTES`]), shared by the threads of the current pool when the feature `parallel`
/// is on and the pool has two threads or more (the threshold of the chamfer sweeps,
/// `sweeps.rs`).
const SPLIT_CELLS: usize = 1 << 20;

/// The column plane (`u32` a cell) of a band of rows on a grid past [`SPLIT_CELLS`] is
/// about this many bytes (2 MiB): bands of 256 rows at a width of 2048, fresh pages and
/// traffic of a few MiB instead of the grid's whole plane. Measured against one band and
/// 512 KiB (docs/benchmarks.md, "edt3"): 2-12% less CPU time than one band, within 3% of
/// 512 KiB.
const BAND_BYTES: usize = 2 << 20;

/// Every cell's distance under `M` through `f`, row-major, from the column distances;
/// `None` for a grid without background or with a side of [`MAX_SIDE`] or more.
///
/// # Errors
///
/// A [`SizeError`] if the memory cannot be had.
pub(super) fn separable_distances<M: RowMetric, T: Copy + Send + Sync>(
    grid: &BitGrid,
    f: impl Fn(u64) -> T + Sync,
) -> Result<Option<Vec<T>>, SizeError> {
    let (w, h) = grid.size();
    let threads = crate::parallel::current_threads();
    let bands = if w * h < SPLIT_CELLS {
        1
    } else {
        // Bands of a column plane of about `BAND_BYTES`, on one thread too; and two bands a
        // thread at least, each taken by the next free thread, so that a thread held up (or
        // a band of deeper shapes) does not hold up the call.
        let small = (4 * w * h).div_ceil(BAND_BYTES).min(h / 16).max(1);
        let shared = if threads < 2 {
            1
        } else {
            (2 * threads).min(h / 64).max(1)
        };
        small.max(shared)
    };
    separable_in_bands::<M, T>(grid, f, bands)
}

/// [`separable_distances`] in `bands` bands of rows (as even as can be), shared by the
/// threads of the current pool (one thread without the feature `parallel`).
fn separable_in_bands<M: RowMetric, T: Copy + Send + Sync>(
    grid: &BitGrid,
    f: impl Fn(u64) -> T + Sync,
    bands: usize,
) -> Result<Option<Vec<T>>, SizeError> {
    let (w, h) = grid.size();
    if w.max(h) >= MAX_SIDE || grid.is_full() {
        return Ok(None);
    }
    let mut out: Vec<T> = try_vec("distances", w, h, (w * h) as u128)?;
    // Most costs are small: theirs through `f` once (a square root saved per cell).
    let small: Vec<T> = (0..SMALL_COSTS).map(&f).collect();
    let f = |d: u64| small.get(d as usize).copied().unwrap_or_else(|| f(d));
    // The code is chosen here, on the calling thread (a `cpu::with_level` cap holds for
    // the other threads too).
    #[cfg(target_arch = "x86_64")]
    let avx2 = crate::cpu::has(crate::cpu::Features::AVX2);
    #[cfg(not(target_arch = "x86_64"))]
    let avx2 = false;
    let per = h.div_ceil(bands.clamp(1, h));
    let failed = Mutex::new(None);
    let parts = out.spare_capacity_mut()[..w * h].chunks_mut(per * w);
    crate::parallel::share(parts.enumerate(), |(i, part)| {
        let rows = i * per..(i * per + per).min(h);
        if let Err(e) = band::<M, T>(grid, rows, part, &f, avx2) {
            *failed.lock().unwrap_or_else(PoisonError::into_inner) = Some(e);
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return Err(e);
    }
    // SAFETY: every band wrote each cell of its rows (`row_distances` writes every cell of
    // a row), the bands cover the rows `0..h`, and the capacity is at least `w * h`.
    unsafe { out.set_len(w * h) };
    Ok(Some(out))
}

/// The rows `rows` of the grid into `part` (their cells, row-major).
fn band<M: RowMetric, T: Copy>(
    grid: &BitGrid,
    rows: Range<usize>,
    part: &mut [MaybeUninit<T>],
    f: &impl Fn(u64) -> T,
    avx2: bool,
) -> Result<(), SizeError> {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: the caller detected AVX2, the only requirement of `band_avx2` (the
        // portable code compiled with AVX2: `vpminud` in the column pass, eight lanes a
        // step).
        return unsafe { band_avx2::<M, T>(grid, rows, part, f) };
    }
    let _ = avx2;
    band_body::<M, T>(grid, rows, part, f)
}

/// [`band`] compiled with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn band_avx2<M: RowMetric, T: Copy>(
    grid: &BitGrid,
    rows: Range<usize>,
    part: &mut [MaybeUninit<T>],
    f: &impl Fn(u64) -> T,
) -> Result<(), SizeError> {
    band_body::<M, T>(grid, rows, part, f)
}

/// The body of [`band`], inlined into each compilation.
#[inline(always)]
fn band_body<M: RowMetric, T: Copy>(
    grid: &BitGrid,
    rows: Range<usize>,
    part: &mut [MaybeUninit<T>],
    f: &impl Fn(u64) -> T,
) -> Result<(), SizeError> {
    let w = grid.width();
    let y0 = rows.start;
    let mut env = Envelope::default();
    column_distances(grid, rows, |y, g| {
        row_distances::<M, T>(g, &mut part[(y - y0) * w..(y - y0 + 1) * w], f, &mut env);
    })
}

/// Scratch of the row pass: the envelope's candidate columns and where each starts to be
/// nearest; the window's padded column costs and the row's costs.
#[derive(Default)]
struct Envelope {
    s: Vec<i64>,
    t: Vec<i64>,
    costs: Vec<u32>,
    best: Vec<u32>,
}

/// Rows whose column distances are all at most this are solved by [`window`] (its cost
/// grows with the row's largest column distance, the runs' with the row's structure).
/// Measured (docs/benchmarks.md, "edt3", CPU time on 2048 x 2048 images): 12 is within 8%
/// of the best of 0, 4, 8, 12 and 16 on every image; 16 makes the blobs 28% slower, 8
/// leaves noise 70% on the runs (1.35x 12's time).
const WINDOW: u32 = 12;

/// One row: `g` its column distances (the grid has background, so some column has a
/// finite one), `out` its cells, each written.
#[inline(always)]
fn row_distances<M: RowMetric, T: Copy>(
    g: &[u32],
    out: &mut [MaybeUninit<T>],
    f: &impl Fn(u64) -> T,
    env: &mut Envelope,
) {
    let top = g.iter().copied().max().unwrap_or(0);
    if top <= WINDOW {
        window::<M, T>(g, out, f, top, env);
    } else {
        runs::<M, T>(g, out, f, env);
    }
}

/// A row by its runs of set cells: each run cut by background is solved alone (see the
/// module's notes).
#[inline(always)]
fn runs<M: RowMetric, T: Copy>(
    g: &[u32],
    out: &mut [MaybeUninit<T>],
    f: &impl Fn(u64) -> T,
    env: &mut Envelope,
) {
    let w = g.len();
    let (zero, one) = (f(0), f(1));
    let mut x = 0;
    while x < w {
        if g[x] == 0 {
            out[x].write(zero);
            x += 1;
            continue;
        }
        // A run of set cells a..b, cut by background at a - 1 (if a > 0) and b (if b < w).
        let a = x;
        let mut ones = true;
        while x < w && g[x] != 0 {
            ones &= g[x] == 1;
            x += 1;
        }
        let b = x;
        let run = b - a;
        let cut_left = a > 0;
        let cut_right = b < w;
        if ones || (run <= 2 && cut_left && cut_right) || (run == 1 && (cut_left || cut_right)) {
            for o in &mut out[a..b] {
                o.write(one);
            }
            continue;
        }
        let lo = if cut_left { a - 1 } else { a };
        let hi = if cut_right { b } else { b - 1 };
        if run <= SHORT_RUN {
            outward::<M, T>(g, out, f, a, b, lo, hi);
        } else {
            envelope::<M, T>(g, out, f, a, b, lo, hi, env);
        }
    }
}

/// A row whose column distances are all at most `top` (at most [`WINDOW`]): no cell's
/// nearest column is `top` or more cells away (its own column costs at most `top`'s), so
/// each cell takes the least cost over the columns within `top - 1` of it, whatever cuts
/// the row: a few shifted minima over the whole row, eight lanes a step, without a branch.
#[inline(always)]
fn window<M: RowMetric, T: Copy>(
    g: &[u32],
    out: &mut [MaybeUninit<T>],
    f: &impl Fn(u64) -> T,
    top: u32,
    env: &mut Envelope,
) {
    let w = g.len();
    let pad = WINDOW as usize;
    // Past the row's ends: a cost no column reaches, clear of overflow when added to.
    let far = u32::MAX / 2;
    let costs = &mut env.costs;
    costs.clear();
    costs.resize(pad, far);
    costs.extend(g.iter().map(|&v| M::cost(0, v) as u32));
    costs.resize(w + 2 * pad, far);
    let best = &mut env.best;
    best.clear();
    best.extend_from_slice(&costs[pad..pad + w]);
    for k in 1..top as usize {
        let kk = M::offset_cost(k as u64) as u32;
        let left = &costs[pad - k..pad - k + w];
        let right = &costs[pad + k..pad + k + w];
        for ((b, &l), &r) in best.iter_mut().zip(left).zip(right) {
            *b = (*b).min(l.min(r) + kk);
        }
    }
    for (o, &d) in out.iter_mut().zip(best.iter()) {
        o.write(f(u64::from(d)));
    }
}

/// Cells `a..b` by trying the columns `lo..=hi` outwards from each, stopping on each side
/// once the offset alone costs no less than the best so far.
#[inline]
fn outward<M: RowMetric, T: Copy>(
    g: &[u32],
    out: &mut [MaybeUninit<T>],
    f: &impl Fn(u64) -> T,
    a: usize,
    b: usize,
    lo: usize,
    hi: usize,
) {
    for x in a..b {
        let mut best = M::cost(0, g[x]);
        if best > 1 {
            let mut k = 1usize;
            while x >= lo + k && M::offset_cost(k as u64) < best {
                best = best.min(M::cost(k as u64, g[x - k]));
                k += 1;
            }
            let mut k = 1usize;
            while x + k <= hi && M::offset_cost(k as u64) < best {
                best = best.min(M::cost(k as u64, g[x + k]));
                k += 1;
            }
        }
        out[x].write(f(best));
    }
}

/// Cells `a..b` by the lower envelope of the columns `lo..=hi` that have background.
#[allow(clippy::too_many_arguments)]
fn envelope<M: RowMetric, T: Copy>(
    g: &[u32],
    out: &mut [MaybeUninit<T>],
    f: &impl Fn(u64) -> T,
    a: usize,
    b: usize,
    lo: usize,
    hi: usize,
    env: &mut Envelope,
) {
    let cost = |x: i64, c: i64| M::cost(x.abs_diff(c), g[c as usize]);
    let (s, t) = (&mut env.s, &mut env.t);
    s.clear();
    t.clear();
    let (lo, hi) = (lo as i64, hi as i64);
    for u in lo..=hi {
        let gu = g[u as usize];
        if gu >= NONE {
            continue;
        }
        while let (Some(&sc), Some(&tc)) = (s.last(), t.last()) {
            if cost(tc, sc) > cost(tc, u) {
                s.pop();
                t.pop();
            } else {
                break;
            }
        }
        match s.last() {
            None => {
                s.push(u);
                t.push(lo);
            }
            Some(&sc) => {
                let from = M::separation(sc, u, i64::from(g[sc as usize]), i64::from(gu));
                if from <= hi {
                    s.push(u);
                    t.push(from);
                }
            }
        }
    }
    // Every run is cut by background or crosses a column with background: `s` is not empty.
    let mut q = s.len() - 1;
    for x in (a as i64..b as i64).rev() {
        while x < t[q] {
            q -= 1;
        }
        out[x as usize].write(f(cost(x, s[q])));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::{self, Level};
    use crate::naive::distance_transform::{brute_force, Metric};
    use crate::naive::NaiveGrid;
    use crate::test_rng::XorShift;

    /// The window and the runs on the same rows of column distances up to [`WINDOW`]
    /// (background cells, runs of 1s, short and long runs, at the row's ends), and both
    /// against the least cost over every column.
    #[test]
    fn window_equals_runs() {
        let mut rng = XorShift(0x3d17);
        let mut env = Envelope::default();
        for w in [1usize, 2, 3, 5, 12, 13, 24, 25, 63, 64, 65, 200] {
            for top in 0..=WINDOW {
                for zeros in [0, 5, 30, 90] {
                    let g: Vec<u32> = (0..w)
                        .map(|_| {
                            if rng.percent(zeros) {
                                0
                            } else {
                                (rng.next_u64() % u64::from(top + 1)) as u32
                            }
                        })
                        .collect();
                    let want: Vec<u64> = (0..w)
                        .map(|x| {
                            (0..w)
                                .map(|c| SquaredEuclidean::cost(x.abs_diff(c) as u64, g[c]))
                                .min()
                                .unwrap_or(0)
                        })
                        .collect();
                    let top = g.iter().copied().max().unwrap_or(0);
                    let mut a = vec![MaybeUninit::<u64>::uninit(); w];
                    let mut b = vec![MaybeUninit::<u64>::uninit(); w];
                    window::<SquaredEuclidean, u64>(&g, &mut a, &|d| d, top, &mut env);
                    runs::<SquaredEuclidean, u64>(&g, &mut b, &|d| d, &mut env);
                    // SAFETY: both write every cell of the row.
                    let a: Vec<u64> = a.iter().map(|v| unsafe { v.assume_init() }).collect();
                    let b: Vec<u64> = b.iter().map(|v| unsafe { v.assume_init() }).collect();
                    assert_eq!(a, want, "window {w} {top} {zeros}% {g:?}");
                    assert_eq!(b, want, "runs {w} {top} {zeros}% {g:?}");
                }
            }
        }
    }

    /// The separable passes (squared Euclidean), portable and at the CPU's level, in one
    /// band of rows or several, against brute force, on grids whose rows hold long runs
    /// over many columns with background (the envelope), short runs (the outward search)
    /// and runs of 1s, at word edges.
    #[test]
    fn separable_rows_equal_brute_force() {
        let mut rng = XorShift(0x5e9a);
        for &(w, h) in &[
            (1, 1),
            (1, 9),
            (9, 1),
            (63, 7),
            (64, 30),
            (65, 12),
            (200, 60),
            (3, 150),
        ] {
            for pct in [50, 90, 97, 99, 100] {
                let mut g = BitGrid::new(w, h);
                for y in 0..h {
                    for x in 0..w {
                        if rng.percent(pct) {
                            g.set(x, y);
                        }
                    }
                }
                let naive = NaiveGrid::from_view(&g);
                let full = g.is_full();
                let want: Vec<u64> = brute_force(&naive, Metric::SquaredEuclidean)
                    .iter()
                    .map(|b| b.unwrap_or(u64::MAX))
                    .collect();
                for level in [Level::Portable, cpu::level()] {
                    // Bands of rows: each starts from the rows beyond it, read from the bits.
                    for bands in [1, 2, 3, 7, h] {
                        let got = cpu::with_level(level, || {
                            separable_in_bands::<SquaredEuclidean, u64>(&g, |d| d, bands).unwrap()
                        });
                        match got {
                            Some(got) => {
                                assert_eq!(got, want, "{w}x{h} {pct}% {level:?} {bands} bands")
                            }
                            None => assert!(full, "{w}x{h} {pct}% {level:?}"),
                        }
                    }
                }
            }
        }
    }
}
