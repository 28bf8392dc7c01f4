//! The run union-find flood fill on every core (feature `parallel`): horizontal stripes of
//! rows find their runs, join them and paint them independently; only the rows where two
//! stripes meet are joined on one thread.

use super::union::BIT_PATH;
use crate::algo::checks::assert_sizes;
use crate::algo::runs::table::{count_runs, link_rows, paint_row, seeded_runs};
use crate::algo::runs::union_find::flatten;
use crate::{BitGrid, Connectivity};
use rayon::prelude::*;
use std::mem::MaybeUninit;
use std::ops::Range;

/// [`fill_union`](super::fill_union) on every core: the same result, computed by horizontal
/// stripes (in a one-thread [`Pool`](crate::parallel::Pool), `fill_union` itself).
///
/// Each stripe of rows numbers its runs, joins the touching ones in its own part of the
/// union-find and flattens it; the row pairs where stripes meet are then joined on one
/// thread (and the roots they touch pointed at their final roots), and the stripes find
/// each run's final root and paint their runs in parallel again.
///
/// [`fill`](super::fill) routes to it where its row sweeps hand over to the union-find
/// (mazes) on grids of [`FILL_MIN_CELLS`](crate::parallel::FILL_MIN_CELLS) cells or more
/// on a pool of several threads. Noise, which the sweeps fill without the union-find, does
/// not reach it: there it is slower than one thread (both walk tens of megabytes of run
/// arrays). The measurements are in docs/benchmarks.md.
///
/// ```
/// use gridbits::algo::fill::{fill_union, fill_union_parallel};
/// use gridbits::{BitGrid, Connectivity};
/// let free = BitGrid::from_fn(300, 200, |x, y| (x * 7 + y * 13) % 10 < 6).unwrap();
/// let mut seed = BitGrid::new(300, 200);
/// seed.set(1, 0);
/// let conn = Connectivity::Four;
/// assert_eq!(fill_union_parallel(&seed, &free, conn), fill_union(&seed, &free, conn));
/// ```
///
/// # Panics
///
/// If `seeds` and `passable` have different sizes.
pub fn fill_union_parallel(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity) -> BitGrid {
    assert_sizes(passable, "seeds", std::slice::from_ref(seeds), None, None);
    let threads = crate::parallel::current_threads();
    if threads < 2 {
        return super::fill_union(seeds, passable, conn);
    }
    let mut out = passable.empty_like();
    let stripes = threads * 4;
    crate::parallel::in_current_pool(|| {
        parallel_fill_into(seeds, passable, conn, &mut out, stripes)
    });
    out
}

/// [`fill_union_parallel`] into `out` (overwritten) with `stripes` stripes (at least one).
///
/// On one thread only the rows where stripes meet are joined and the seeded roots marked;
/// every pass over all the runs (numbering, joining, flattening, finding the final roots,
/// painting) runs stripe by stripe on all threads, from the copy compiled for POPCNT and
/// BMI where the CPU has them.
pub(super) fn parallel_fill_into(
    seeds: &BitGrid,
    passable: &BitGrid,
    conn: Connectivity,
    out: &mut BitGrid,
    stripes: usize,
) {
    let (h, n) = (passable.height(), passable.words_per_row());
    let eight = conn == Connectivity::Eight;
    let rows = h.div_ceil(stripes.clamp(1, h));
    let bits = crate::cpu::has(BIT_PATH);
    // 1. Runs of each stripe.
    let mut starts = vec![0u64; h * n];
    let mut counts = vec![0u32; h];
    let ok = starts
        .par_chunks_mut(rows * n)
        .zip(counts.par_chunks_mut(rows))
        .enumerate()
        .map(|(k, (s, c))| {
            let first = k * rows;
            count_runs(passable, first..first + c.len(), s, c).map(|_| ())
        })
        .collect::<Option<Vec<()>>>();
    let mut base = vec![0u64; h + 1];
    for y in 0..h {
        base[y + 1] = base[y] + u64::from(counts[y]);
    }
    if ok.is_none() || base[h] >= u64::from(u32::MAX) {
        *out = super::fill_runs(seeds, passable, conn);
        return;
    }
    let base: Vec<u32> = base.into_iter().map(|b| b as u32).collect();
    let job = Job {
        passable,
        seeds,
        starts: &starts,
        base: &base,
        n,
        eight,
    };
    // 2. Joins inside each stripe, on its own part of the union-find, flattened: every run
    // then points at its stripe's root.
    let total = base[h] as usize;
    let mut parent = run_array(total);
    stripe_parts(&mut parent, &base, rows)
        .into_par_iter()
        .for_each(|(range, part)| job.run(bits, Phase::Link(range, part)));
    // SAFETY: the capacity is `total`, and the stripes' parts, which cover it, were each
    // initialised by their `Link` phase (it writes every entry first; it cannot fail).
    unsafe { parent.set_len(total) };
    // 3. Joins where stripes meet, on one thread. They touch only the runs of the rows
    // where stripes meet and their stripes' roots; those roots are then pointed straight at
    // their final roots (in index order: a parent is never larger than its child), so that
    // every run is at most two steps from its final root.
    let mut touched: Vec<u32> = Vec::new();
    for y in (rows..h).step_by(rows) {
        for x in base[y - 1]..base[y + 1] {
            touched.push(parent[x as usize]);
        }
    }
    touched.sort_unstable();
    touched.dedup();
    for y in (rows..h).step_by(rows) {
        link_rows::<false>(
            passable.row_words(y - 1),
            passable.row_words(y),
            &starts[(y - 1) * n..y * n],
            &starts[y * n..(y + 1) * n],
            base[y - 1] as usize,
            base[y] as usize,
            eight,
            &mut parent,
        );
    }
    for &r in &touched {
        parent[r as usize] = final_root(&parent, r as usize);
    }
    // 4. Every run's final root (the union-find only read), and the roots of the seeded
    // runs, stripe by stripe.
    let mut root = run_array(total);
    let parent = &parent;
    let seeded: Vec<Vec<u32>> = stripe_parts(&mut root, &base, rows)
        .into_par_iter()
        .map(|(range, part)| {
            let mut seeded = Vec::new();
            job.run(bits, Phase::Roots(range, parent, part, &mut seeded));
            seeded
        })
        .collect();
    // SAFETY: as for `parent`: each `Roots` phase wrote every entry of its part.
    unsafe { root.set_len(total) };
    let mut keep = vec![false; total];
    for r in seeded.iter().flatten() {
        keep[*r as usize] = true;
    }
    // 5. Paint, stripe by stripe, straight into the result's rows.
    let (root, keep) = (&root, &keep);
    out.words_mut()
        .par_chunks_mut(rows * n)
        .enumerate()
        .for_each(|(k, chunk)| {
            let first = k * rows;
            job.run(
                bits,
                Phase::Paint(first..first + chunk.len() / n, root, keep, chunk),
            );
        });
}

/// What every stripe shares.
struct Job<'a> {
    passable: &'a BitGrid,
    seeds: &'a BitGrid,
    starts: &'a [u64],
    base: &'a [u32],
    n: usize,
    eight: bool,
}

/// One stripe's work of one pass: its rows and its part of an array indexed by run.
enum Phase<'a> {
    /// Join the runs of the rows (their part of the union-find, local indices) and flatten.
    Link(Range<usize>, &'a mut [MaybeUninit<u32>]),
    /// Each run's final root (from the whole union-find, only read), and the roots of the
    /// seeded runs.
    Roots(
        Range<usize>,
        &'a [u32],
        &'a mut [MaybeUninit<u32>],
        &'a mut Vec<u32>,
    ),
    /// Paint the runs with a kept root (`root` and `keep` by run) into the rows' words.
    Paint(Range<usize>, &'a [u32], &'a [bool], &'a mut [u64]),
}

impl Job<'_> {
    /// Runs `phase`, from the copy compiled for POPCNT and BMI when `bits`.
    fn run(&self, bits: bool, phase: Phase<'_>) {
        #[cfg(target_arch = "x86_64")]
        if bits {
            // SAFETY: `bits` is `has_bit_instructions()`: the CPU has POPCNT, BMI1, BMI2
            // and LZCNT, the only requirement of `run_x86`.
            unsafe { self.run_x86(phase) };
            return;
        }
        let _ = bits;
        self.run_body(phase);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn run_x86(&self, phase: Phase<'_>) {
        self.run_body(phase);
    }

    #[inline(always)]
    fn run_body(&self, phase: Phase<'_>) {
        let (n, starts, base) = (self.n, self.starts, self.base);
        let row_starts = |y: usize| &starts[y * n..(y + 1) * n];
        match phase {
            Phase::Link(rows, part) => {
                let offset = base[rows.start] as usize;
                for (i, p) in part.iter_mut().enumerate() {
                    p.write(i as u32);
                }
                // SAFETY: every element was initialised just above, and `MaybeUninit<u32>`
                // has the layout of `u32`.
                let part = unsafe { &mut *(part as *mut [MaybeUninit<u32>] as *mut [u32]) };
                for y in rows.start + 1..rows.end {
                    link_rows::<true>(
                        self.passable.row_words(y - 1),
                        self.passable.row_words(y),
                        row_starts(y - 1),
                        row_starts(y),
                        base[y - 1] as usize - offset,
                        base[y] as usize - offset,
                        self.eight,
                        part,
                    );
                }
                flatten(part, 0);
                for p in part.iter_mut() {
                    *p += offset as u32;
                }
            }
            Phase::Roots(rows, parent, part, seeded) => {
                let offset = base[rows.start] as usize;
                for (i, r) in part.iter_mut().enumerate() {
                    r.write(final_root(parent, offset + i));
                }
                // SAFETY: every element was initialised just above, and `MaybeUninit<u32>`
                // has the layout of `u32`.
                let part = unsafe { &*(part as *mut [MaybeUninit<u32>] as *const [u32]) };
                for y in rows {
                    seeded_runs(
                        self.seeds.row_words(y),
                        self.passable.row_words(y),
                        row_starts(y),
                        base[y] as usize - offset,
                        |r| seeded.push(part[r]),
                    );
                }
            }
            Phase::Paint(rows, root, keep, words) => {
                for (y, row) in rows.zip(words.chunks_exact_mut(n)) {
                    paint_row(
                        self.passable.row_words(y),
                        row_starts(y),
                        base[y] as usize,
                        root,
                        keep,
                        row,
                    );
                }
            }
        }
    }
}

/// The root of run `x`: its parents followed to the end.
#[inline(always)]
fn final_root(parent: &[u32], mut x: usize) -> u32 {
    while parent[x] as usize != x {
        x = parent[x] as usize;
    }
    x as u32
}

/// An empty vector with room for `len` run entries, on huge pages when large: each stripe
/// writes its own entries first, so the pages are first touched on every thread at once, in
/// a few faults instead of thousands.
fn run_array(len: usize) -> Vec<u32> {
    let mut v = Vec::with_capacity(len);
    crate::huge_pages::advise(&mut v);
    v
}

/// The stripes of `rows` rows (`base`: the first run of each row, then the run count) and
/// their parts of the (uninitialised) capacity of `v`, which holds every run.
fn stripe_parts<'a>(
    v: &'a mut Vec<u32>,
    base: &[u32],
    rows: usize,
) -> Vec<(Range<usize>, &'a mut [MaybeUninit<u32>])> {
    let h = base.len() - 1;
    let mut parts = Vec::new();
    let mut rest = &mut v.spare_capacity_mut()[..base[h] as usize];
    for first in (0..h).step_by(rows) {
        let last = (first + rows).min(h);
        let (part, tail) = rest.split_at_mut((base[last] - base[first]) as usize);
        parts.push((first..last, part));
        rest = tail;
    }
    parts
}
