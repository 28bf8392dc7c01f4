//! The engine of [`morph_bytes`](super::morph_bytes) for footprints whose offsets lie
//! within 63 columns of their centre (every 3x3, 15x15 or disk footprint of radius up to
//! 63): the runs of `row_runs` with every shift inside one word, so that each pass over a
//! row is one loop of plain word operations (a shifted read is two neighbouring words).
//!
//! Per source row: the power-of-two levels `T_1 = src`, `T_2p(x) = T_p(x) op T_p(x + p)`,
//! then each distinct run `(dx, len)` of the footprint as `T_p(x + dx) op T_p(x + dx + len -
//! p)`, kept in a ring as tall as the footprint. Per output row: one aligned pass per run
//! of the footprint. Cells off the row read the border value: the levels are built on the
//! row widened by a word of it on either side (so that a level's cells left of the row,
//! which cover cells on it, are right), and the bits past the width hold it.

use super::footprint::{Footprint, RunRow};
use super::row_runs::op;
use crate::grid::tail_mask;

/// `dst(x) = op(dst(x), a(x + k))` (`INIT`: `dst(x) = a(x + k)`) for `|k| < 64`, where
/// `a` is a widened row: one word before the row's first (cells -64..0) and one after its
/// last, so that `a` has two words more than `dst`.
#[inline(always)]
fn shifted<const ALL: bool, const INIT: bool>(dst: &mut [u64], a: &[u64], k: isize) {
    let put = |d: &mut u64, v: u64| *d = if INIT { v } else { op::<ALL>(*d, v) };
    if k == 0 {
        for (d, &v) in dst.iter_mut().zip(&a[1..]) {
            put(d, v);
        }
    } else if k > 0 {
        let r = k as u32;
        for (d, w) in dst.iter_mut().zip(a[1..].windows(2)) {
            put(d, (w[0] >> r) | (w[1] << (64 - r)));
        }
    } else {
        let r = (-k) as u32;
        for (d, w) in dst.iter_mut().zip(a.windows(2)) {
            put(d, (w[1] << r) | (w[0] >> (64 - r)));
        }
    }
}

/// The next level of a widened row: `cur(x) = op(prev(x), prev(x + p))` for `0 < p < 64`,
/// reading `fill` past the widened row's end.
#[inline(always)]
fn level<const ALL: bool>(cur: &mut [u64], prev: &[u64], p: u32, fill: u64) {
    let n = prev.len();
    for (d, w) in cur.iter_mut().zip(prev.windows(2)) {
        *d = op::<ALL>(w[0], (w[0] >> p) | (w[1] << (64 - p)));
    }
    cur[n - 1] = op::<ALL>(prev[n - 1], (prev[n - 1] >> p) | (fill << (64 - p)));
}

/// A footprint's gather offsets as this engine runs them.
pub(crate) struct Plan {
    /// The distinct runs `(dx, len)`.
    runs: Vec<(isize, usize)>,
    /// Per footprint row: `dy` and the slots of its runs in `runs`.
    rows: Vec<(isize, Vec<usize>)>,
    /// The number of power-of-two levels (1 for runs of length 1).
    levels: usize,
    dy_min: isize,
    dy_max: isize,
}

impl Plan {
    /// The plan for the gather offsets of `fp` (its reflection for a dilation), or `None`
    /// when a run reaches 64 columns or more from the centre, or none is set.
    pub(crate) fn new(fp: &Footprint, erode: bool) -> Option<Plan> {
        let rows: Vec<RunRow> = if erode {
            fp.run_rows()
        } else {
            fp.reflected().run_rows()
        };
        if rows.is_empty() {
            return None;
        }
        let mut runs: Vec<(isize, usize)> = Vec::new();
        let mut plan_rows = Vec::new();
        for row in &rows {
            let mut slots = Vec::new();
            for &(dx, len) in &row.runs {
                if dx <= -64 || dx + len as isize > 64 {
                    return None;
                }
                let slot = match runs.iter().position(|&r| r == (dx, len)) {
                    Some(s) => s,
                    None => {
                        runs.push((dx, len));
                        runs.len() - 1
                    }
                };
                slots.push(slot);
            }
            plan_rows.push((row.dy, slots));
        }
        let max = runs.iter().map(|&(_, l)| l).max().unwrap_or(1);
        let levels = (usize::BITS - max.leading_zeros()) as usize;
        let dy_min = rows.iter().map(|r| r.dy).min().unwrap_or(0);
        let dy_max = rows.iter().map(|r| r.dy).max().unwrap_or(0);
        Some(Plan {
            runs,
            rows: plan_rows,
            levels,
            dy_min,
            dy_max,
        })
    }
}

/// The features of the AVX-512 copy of [`step`].
#[cfg(target_arch = "x86_64")]
const AVX512_PATH: crate::cpu::Features = crate::cpu::Features::AVX512F
    .union(crate::cpu::Features::AVX512BW)
    .union(crate::cpu::Features::AVX2);

/// One erosion (`ALL`) or dilation of the `height` rows of `wpr` words in `src` (`width`
/// cells each, zero past it) into `dst` (the same shape), cells off the rows reading
/// `border`. The copy compiled for AVX-512 or AVX2 runs when the CPU has them (the word
/// loops are vectorised), else the portable code; all give the same result.
pub(crate) fn step<const ALL: bool>(
    plan: &Plan,
    src: &[u64],
    dst: &mut [u64],
    size: (usize, usize),
    border: bool,
) {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::cpu::has(AVX512_PATH) {
            // SAFETY: `step_avx512` is only compiled for AVX-512 F and BW and AVX2, which the
            // CPU was just checked to support; it has no other requirement.
            return unsafe { step_avx512::<ALL>(plan, src, dst, size, border) };
        }
        if crate::cpu::has(crate::cpu::Features::AVX2) {
            // SAFETY: `step_avx2` is only compiled for AVX2, which the CPU was just checked
            // to support; it has no other requirement.
            return unsafe { step_avx2::<ALL>(plan, src, dst, size, border) };
        }
    }
    step_body::<ALL>(plan, src, dst, size, border)
}

/// [`step`] compiled for AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx2")]
fn step_avx512<const ALL: bool>(
    plan: &Plan,
    src: &[u64],
    dst: &mut [u64],
    size: (usize, usize),
    border: bool,
) {
    step_body::<ALL>(plan, src, dst, size, border)
}

/// [`step`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn step_avx2<const ALL: bool>(
    plan: &Plan,
    src: &[u64],
    dst: &mut [u64],
    size: (usize, usize),
    border: bool,
) {
    step_body::<ALL>(plan, src, dst, size, border)
}

/// The engine behind [`step`], inlined into each compiled copy.
#[inline(always)]
fn step_body<const ALL: bool>(
    plan: &Plan,
    src: &[u64],
    dst: &mut [u64],
    (width, height): (usize, usize),
    border: bool,
) {
    let wpr = width.div_ceil(64);
    let tail = tail_mask(width);
    let fill = if border { !0u64 } else { 0 };
    let nr = plan.runs.len();
    let span = (plan.dy_max - plan.dy_min + 1) as usize;
    let mut ring = vec![0u64; span * nr * wpr];
    // The levels of the widened row: a word of `fill` on either side.
    let ww = wpr + 2;
    let mut levels = vec![0u64; plan.levels * ww];
    let off_row_kills = ALL != border;
    let mut next_src = 0usize;
    for y in 0..height {
        let need = (y as isize + plan.dy_max).min(height as isize - 1);
        while (next_src as isize) <= need {
            let row = &src[next_src * wpr..(next_src + 1) * wpr];
            levels[0] = fill;
            levels[1..=wpr].copy_from_slice(row);
            levels[wpr] |= fill & !tail;
            levels[wpr + 1] = fill;
            for l in 1..plan.levels {
                let (done, rest) = levels.split_at_mut(l * ww);
                level::<ALL>(&mut rest[..ww], &done[(l - 1) * ww..], 1 << (l - 1), fill);
            }
            let slot = next_src % span;
            let table = &mut ring[slot * nr * wpr..(slot + 1) * nr * wpr];
            for (s, &(dx, len)) in plan.runs.iter().enumerate() {
                let l = (usize::BITS - 1 - len.leading_zeros()) as usize;
                let p = 1usize << l;
                let t = &levels[l * ww..(l + 1) * ww];
                let out = &mut table[s * wpr..(s + 1) * wpr];
                shifted::<ALL, true>(out, t, dx);
                if p != len {
                    shifted::<ALL, false>(out, t, dx + (len - p) as isize);
                }
            }
            next_src += 1;
        }
        let acc = &mut dst[y * wpr..(y + 1) * wpr];
        acc.fill(if ALL { !0 } else { 0 });
        for (dy, slots) in &plan.rows {
            let ys = y as isize + dy;
            if ys < 0 || ys >= height as isize {
                if off_row_kills {
                    acc.fill(if ALL { 0 } else { !0 });
                    break;
                }
                continue;
            }
            let base = (ys as usize % span) * nr * wpr;
            for &s in slots {
                let t = &ring[base + s * wpr..base + (s + 1) * wpr];
                for (a, &v) in acc.iter_mut().zip(t) {
                    *a = op::<ALL>(*a, v);
                }
            }
        }
        acc[wpr - 1] &= tail;
    }
}
