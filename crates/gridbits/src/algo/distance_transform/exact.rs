//! Exact Euclidean distances without the nearest cells, in cell units: the squared
//! distance of every cell as an integer, from the column distances of
//! [`columns`](super::columns) and one lower envelope per row (Meijster, Roerdink and
//! Hesselink's second phase, in integers).
//!
//! Without sampling the distance is the square root of an integer whichever of several
//! equally near background cells is taken, so the ties that
//! [`euclidean_transform`](super::euclidean_transform) settles as scipy does do not
//! matter here, and the row pass can skip work:
//!
//! - a background cell cuts its row: no cell sees past it (the cut is nearer than
//!   anything beyond it), so each run of set cells between two cuts is solved alone;
//! - a run whose every cell has a column distance of 1 or touches a cut is all 1s (no set
//!   cell is nearer than 1), which is most of noise;
//! - a short run tries the columns outwards from each cell, stopping once a column's row
//!   offset alone is no nearer than the best so far; a long run takes the envelope over
//!   its columns (linear in its length, however deep the shape).

use super::columns::{column_distances, NONE};
use crate::error::try_filled;
use crate::{BitGrid, SizeError};

/// Runs longer than this take the envelope; shorter ones the outward search.
const SHORT_RUN: usize = 24;

/// Sides up to this keep every squared distance and the envelope's arithmetic in `i64`.
const MAX_SIDE: usize = 1 << 28;

/// The exact Euclidean distance from every cell to the nearest unset (background) cell, in
/// cell units, row-major, as `f64`: the values of `scipy.ndimage.distance_transform_edt`
/// without `sampling`. `None` for a grid without background (scipy then measures to
/// leftover indices: [`euclidean_transform`](super::euclidean_transform) gives those
/// values) or with a side of `2^28` cells or more.
///
/// This is the fast way to the distances alone: the first pass reads the packed bits, the
/// second skips the runs of each row that the first pass already decides.
///
/// ```
/// use gridbits::algo::distance_transform::euclidean_distances;
/// use gridbits::BitGrid;
/// let g = BitGrid::parse("###\n###\n##.\n").unwrap();
/// let d = euclidean_distances(&g).unwrap().unwrap();
/// assert_eq!(d[0], 8f64.sqrt());
/// assert_eq!(euclidean_distances(&BitGrid::full(2, 2)).unwrap(), None);
/// ```
///
/// # Errors
///
/// A [`SizeError`] if the memory cannot be had.
pub fn euclidean_distances(grid: &BitGrid) -> Result<Option<Vec<f64>>, SizeError> {
    squared_distances(grid, |d| (d as f64).sqrt())
}

/// The exact Euclidean distances of [`euclidean_distances`] as OpenCV's
/// `distanceTransform(DIST_L2, DIST_MASK_PRECISE)` gives them: the `f32` square root of the
/// squared distance rounded to `f32`, and `sqrt(f32::MAX)` everywhere on a grid without
/// background. The same values as
/// [`EuclideanTransform::distances_f32`](super::EuclideanTransform::distances_f32), faster.
///
/// ```
/// use gridbits::algo::distance_transform::euclidean_distances_f32;
/// use gridbits::BitGrid;
/// let g = BitGrid::parse("##.\n").unwrap();
/// assert_eq!(euclidean_distances_f32(&g).unwrap(), vec![2.0, 1.0, 0.0]);
/// assert_eq!(euclidean_distances_f32(&BitGrid::full(1, 1)).unwrap(), vec![f32::MAX.sqrt()]);
/// ```
///
/// # Errors
///
/// A [`SizeError`] if the memory cannot be had.
pub fn euclidean_distances_f32(grid: &BitGrid) -> Result<Vec<f32>, SizeError> {
    if let Some(d) = squared_distances(grid, |d| (d as f32).sqrt())? {
        return Ok(d);
    }
    let (w, h) = grid.size();
    if w.max(h) >= MAX_SIDE {
        return super::euclidean_transform(grid, super::Sampling::default())?.distances_f32();
    }
    try_filled("distances", w, h, (w * h) as u128, f32::MAX.sqrt())
}

/// Every cell's squared distance through `f`, row-major; `None` without background or
/// past [`MAX_SIDE`].
fn squared_distances<T: Copy + Default>(
    grid: &BitGrid,
    f: impl Fn(u64) -> T,
) -> Result<Option<Vec<T>>, SizeError> {
    let (w, h) = grid.size();
    if w.max(h) >= MAX_SIDE || grid.is_full() {
        return Ok(None);
    }
    let mut out: Vec<T> = try_filled("distances", w, h, (w * h) as u128, T::default())?;
    let mut env = Envelope::default();
    column_distances(grid, |y, g| {
        row_distances(g, &mut out[y * w..(y + 1) * w], &f, &mut env);
    })?;
    Ok(Some(out))
}

/// Scratch of the envelope: the candidate columns and where each starts to be nearest.
#[derive(Default)]
struct Envelope {
    s: Vec<i64>,
    t: Vec<i64>,
}

/// One row: `g` its column distances (some 0: the grid has background), `out` its cells
/// (holding `f(0)`; background cells stay so).
#[inline]
fn row_distances<T: Copy>(g: &[u32], out: &mut [T], f: &impl Fn(u64) -> T, env: &mut Envelope) {
    let w = g.len();
    let one = f(1);
    let mut x = 0;
    while x < w {
        if g[x] == 0 {
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
        if ones
            || (run <= 2 && cut_left && cut_right)
            || (run == 1 && (cut_left || cut_right))
        {
            out[a..b].fill(one);
            continue;
        }
        let lo = if cut_left { a - 1 } else { a };
        let hi = if cut_right { b } else { b - 1 };
        if run <= SHORT_RUN {
            outward(g, out, f, a, b, lo, hi);
        } else {
            envelope(g, out, f, a, b, lo, hi, env);
        }
    }
}

/// The squared column distance of `g` (`NONE`: farther than any real distance).
#[inline(always)]
fn sq(g: u32) -> u64 {
    if g >= NONE {
        u64::MAX / 4
    } else {
        u64::from(g) * u64::from(g)
    }
}

/// Cells `a..b` by trying the columns `lo..=hi` outwards from each, stopping on each side
/// once the column offset alone is no nearer than the best so far.
#[inline]
fn outward<T: Copy>(
    g: &[u32],
    out: &mut [T],
    f: &impl Fn(u64) -> T,
    a: usize,
    b: usize,
    lo: usize,
    hi: usize,
) {
    for x in a..b {
        let mut best = sq(g[x]);
        if best > 1 {
            let mut k = 1u64;
            while k * k < best && x >= lo + k as usize {
                best = best.min(k * k + sq(g[x - k as usize]));
                k += 1;
            }
            let mut k = 1u64;
            while k * k < best && x + (k as usize) <= hi {
                best = best.min(k * k + sq(g[x + k as usize]));
                k += 1;
            }
        }
        out[x] = f(best);
    }
}

/// Cells `a..b` by the lower envelope of the parabolas `(x - c)^2 + g[c]^2` of the columns
/// `c` in `lo..=hi` that have background (Meijster's separation in integers).
#[allow(clippy::too_many_arguments)]
fn envelope<T: Copy>(
    g: &[u32],
    out: &mut [T],
    f: &impl Fn(u64) -> T,
    a: usize,
    b: usize,
    lo: usize,
    hi: usize,
    env: &mut Envelope,
) {
    let gi = |c: i64| sq(g[c as usize]) as i64;
    let fx = |x: i64, c: i64| (x - c) * (x - c) + gi(c);
    // Separation: the first x from which `u` is no farther than `c` (c < u).
    let sep = |c: i64, u: i64| (u * u - c * c + gi(u) - gi(c)).div_euclid(2 * (u - c)) + 1;
    let (s, t) = (&mut env.s, &mut env.t);
    s.clear();
    t.clear();
    let (lo, hi) = (lo as i64, hi as i64);
    for u in lo..=hi {
        if g[u as usize] >= NONE {
            continue;
        }
        while let (Some(&sc), Some(&tc)) = (s.last(), t.last()) {
            if fx(tc, sc) > fx(tc, u) {
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
                let from = sep(sc, u);
                if from <= hi {
                    s.push(u);
                    t.push(from);
                }
            }
        }
    }
    // Every run is cut by background or has a column with background: `s` is not empty.
    let mut q = s.len() - 1;
    for x in (a as i64..b as i64).rev() {
        while x < t[q] {
            q -= 1;
        }
        out[x as usize] = f(fx(x, s[q]) as u64);
    }
}
