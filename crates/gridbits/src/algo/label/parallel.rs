//! Striped labelling: a large grid is cut into horizontal stripes of whole units (rows, or
//! row pairs with 8-connectivity), each stripe is labelled on its own (in parallel with the
//! feature `parallel`), and the stripes' components are joined across the borders and
//! renumbered so that the result is exactly the one-thread result.
//!
//! 1. **Stripes.** Each stripe is copied into a grid of its own (a few words per row) and
//!    scanned by a labeller of its own, with the same order and code path as the caller's:
//!    its components get local labels `1..=n` in the one-thread order restricted to the
//!    stripe. The labels of its first and last rows are kept.
//! 2. **Borders** (one thread, `O(width)` per border). Only the labels of a stripe's first
//!    and last rows can meet another stripe: they are the ids of one union-find, stripe by
//!    stripe in label order. The cells that touch across each border join their ids, the
//!    smallest id of a set its root; the labels whose id is no root are "joined".
//! 3. **Renumbering.** A component's first cell (raster order), or with
//!    [`LabelOrder::RowPairs`](super::LabelOrder) its first run, lies in the first stripe it
//!    reaches, in its piece with the smallest local label there: the piece whose id is the
//!    root. So the one-thread labels are the roots in id order: stripe `s`'s roots get the
//!    consecutive labels after those of the stripes above, in local order, and a joined label
//!    takes its root's. Each stripe builds its map from local to final labels and rewrites
//!    its run labels (in parallel; the labels between two joined ones move by one offset,
//!    and most of a stripe's lie in one such run, which takes an addition instead of a
//!    lookup); the statistics of its roots go straight to their own slots of the result,
//!    those of the few joined pieces are merged after. Both passes and the join run inside
//!    the pool, so that a caller outside it is woken once.
//! 4. **Write.** Each stripe writes its rows of the label image (disjoint slices).
//!
//! **Pipelined** (the image without statistics): the writes are bound by memory bandwidth
//! (one thread streams them as fast as two; figures in docs/benchmarks.md), so they
//! overlap the scans where they can. Only the labels of the first stripe's last row can be
//! joined (through the stripes below), each to a smaller one, and the first stripe numbers
//! from 1: its labels below the second smallest of that row are final as soon as it is
//! scanned, and labels are given unit by unit, so every row above the unit that gave that
//! label holds only final labels ([`final_units`]). The first stripe's thread writes those
//! rows, in pieces that idle threads take, while the other threads scan the rest; the last
//! pass writes its other rows (on noise, a few above its border; on a comb whose teeth meet
//! below it, all of them). Its share of the rows is smaller by what writing costs.

use super::bits::{merged, starts, upto};
use super::scratch::Stripe;
use super::source::Source;
use super::{memory_error, try_resize, unit_rows, ComponentStats, Labeller, Labels};
#[cfg(feature = "parallel")]
use crate::parallel::in_current_pool;
use crate::parallel::{current_threads, LABEL_MIN_CELLS};
use crate::{BitGrid, Connectivity, SizeError};
use join::join_borders;
use std::mem::MaybeUninit;
use stripe_stats::{merge, stripe_stats};
use stripe_write::{final_units, write_in_pieces, write_stripe};

mod join;
mod stripe_stats;
mod stripe_write;

/// Stripes per thread: more than one, so that the threads stay busy when one core is slower
/// (4 were slower than 2 on two threads: more borders, a smaller share per task).
const STRIPES_PER_THREAD: usize = 2;
/// Stripes per thread after a pipelined labelling's first stripe: one (on two threads
/// faster than two on noise and a comb, 4- and 8-connected: fewer stripes to set up and
/// renumber; the first stripe's writing, in pieces, keeps the threads busy).
const PIPELINED_STRIPES_PER_THREAD: usize = 1;
/// A pipelined labelling's first stripe has `FIRST_SHARE / (FIRST_SHARE * threads + 1)` of
/// the rows, the best of the shares tried on two threads (8/17 with two threads). Its
/// thread also writes it, and its scan is one task that no other thread can share.
const FIRST_SHARE: usize = 8;
/// Fewest rows of a stripe chosen by default.
const MIN_STRIPE_ROWS: usize = 16;

/// Runs `f(i, item)` for every item, on all threads with the feature `parallel`; the first
/// error wins.
fn each<T: Send>(
    items: &mut [T],
    f: impl Fn(usize, &mut T) -> Result<(), SizeError> + Sync + Send,
) -> Result<(), SizeError> {
    #[cfg(feature = "parallel")]
    if current_threads() >= 2 {
        use rayon::prelude::*;
        return in_current_pool(|| {
            items
                .par_iter_mut()
                .with_max_len(1)
                .enumerate()
                .try_for_each(|(i, t)| f(i, t))
        });
    }
    items.iter_mut().enumerate().try_for_each(|(i, t)| f(i, t))
}

/// The rows of each piece when a `w x h` image is cut into pieces of whole rows for the
/// threads (stripes here, the value labeller's bands): an image of at least
/// [`LABEL_MIN_CELLS`] cells on a pool of several threads, `per_thread` pieces a thread of
/// at least `min_rows` rows, or as a test knob `split` (fewest cells, rows) says; rounded up
/// to whole units of `unit` rows. `None`: one piece.
pub(super) fn piece_rows(
    split: Option<(usize, usize)>,
    (w, h): (usize, usize),
    (per_thread, min_rows, unit): (usize, usize, usize),
) -> Option<usize> {
    let cells = w.saturating_mul(h);
    let rows = match split {
        Some((min, rows)) => {
            if cells < min {
                return None;
            }
            rows
        }
        None => {
            let threads = current_threads();
            if threads < 2 || cells < LABEL_MIN_CELLS {
                return None;
            }
            h.div_ceil(threads * per_thread).max(min_rows)
        }
    };
    let rows = rows.div_ceil(unit) * unit;
    (rows < h).then_some(rows)
}

/// A stripe's job of the last pass: its rows of the image (the first [`Stripe::written`]
/// units of them already final when `written`: a pipelined first stripe) and the slots of
/// its new components' statistics.
struct Job<'a> {
    stripe: &'a mut Stripe,
    cells: Option<&'a mut [MaybeUninit<u32>]>,
    stats: Option<&'a mut [MaybeUninit<ComponentStats>]>,
    written: bool,
}

impl Stripe {
    /// The stripe's units (rows, or row pairs with 8-connectivity).
    fn units(&self, conn: Connectivity) -> usize {
        self.rows.div_ceil(unit_rows(conn))
    }
}

/// Runs `f` on a thread of the current pool with the feature `parallel` (the calling
/// thread when it is one), so that the parallel calls inside it start and end without
/// waking a thread outside the pool.
fn in_pool<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    #[cfg(feature = "parallel")]
    if current_threads() >= 2 {
        return in_current_pool(|| rayon::scope(|_| f()));
    }
    f()
}

/// Runs `a` and `b`, side by side with the feature `parallel`.
fn both<A: Send, B: Send>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    #[cfg(feature = "parallel")]
    if current_threads() >= 2 {
        return in_current_pool(|| rayon::join(a, b));
    }
    (a(), b())
}

/// The first pass of one stripe: its rows copied (or packed) into a grid of its own,
/// scanned (local labels `1..=count`) with the code paths and order of `like` (the caller's
/// labeller), and the labels of its first and last rows kept as border ids.
fn scan_stripe(
    s: &mut Stripe,
    src: Source<'_>,
    conn: Connectivity,
    like: &Labeller,
) -> Result<(), SizeError> {
    let ((w, h), sh) = (src.size(), s.rows);
    let g = match &mut s.grid {
        Some(g) if g.size() == (w, sh) => g,
        slot => slot.insert(BitGrid::try_new(w, sh)?),
    };
    src.rows_into(s.y0, g);
    let l = &mut s.labeller;
    // The caller's code paths and order; never stripes of its own.
    (l.cap, l.order, l.writer) = (like.cap, like.order, like.writer);
    (l.stream, l.stream_runs) = (like.stream, like.stream_runs);
    l.split = Some((usize::MAX, 1));
    s.count = l.scan(g, conn)?;
    border_labels(l, g, conn, 0, &mut s.top)?;
    border_labels(l, g, conn, sh - 1, &mut s.bottom)?;
    s.border.clear();
    let most = s.top.len() + s.bottom.len();
    s.border
        .try_reserve(most)
        .map_err(|_| memory_error::<u32>(w, h, most, "not enough memory for the stripe borders"))?;
    let mut last = 0;
    for &l in s.top.iter().chain(&s.bottom) {
        if l != last && l != 0 {
            s.border.push(l);
        }
        last = l;
    }
    s.border.sort_unstable();
    s.border.dedup();
    to_index(&mut s.top, &s.border);
    to_index(&mut s.bottom, &s.border);
    Ok(())
}

impl Labeller {
    /// Test knob: labels grids of at least `min_cells` cells in stripes of `rows` rows
    /// (rounded up to even with 8-connectivity), whatever the thread count, so that small
    /// grids exercise the stripe merge. Results are identical either way.
    #[doc(hidden)]
    pub fn with_stripes(mut self, min_cells: usize, rows: usize) -> Self {
        self.split = Some((min_cells, rows.max(1)));
        self
    }

    /// The rows per stripe when a `w x h` grid is to be labelled in stripes: a grid of at
    /// least [`LABEL_MIN_CELLS`] on a pool of several threads (or as the test knob says).
    pub(super) fn stripe_rows(&self, size: (usize, usize), conn: Connectivity) -> Option<usize> {
        let cut = (STRIPES_PER_THREAD, MIN_STRIPE_ROWS, unit_rows(conn));
        piece_rows(self.split, size, cut)
    }

    /// Labels `grid` in stripes of `rows` rows: the image into `out`, the statistics into
    /// `stats`, each when given. Returns the number of components.
    pub(super) fn striped(
        &mut self,
        src: Source<'_>,
        conn: Connectivity,
        rows: usize,
        out: Option<&mut Labels>,
        stats: Option<&mut Vec<ComponentStats>>,
    ) -> Result<u32, SizeError> {
        let pipelined = out.is_some() && stats.is_none();
        let (w, h) = src.size();
        let bytes = w.saturating_mul(h).saturating_mul(4);
        (self.stream, self.stream_runs) =
            (self.stores.streams(bytes), self.stores.streams_runs(bytes));
        let starts = self.stripe_starts(src.size().1, conn, rows, pipelined);
        let mut stripes = std::mem::take(&mut self.stripes);
        stripes.resize_with(starts.len() - 1, Stripe::default);
        for (s, y) in stripes.iter_mut().zip(starts.windows(2)) {
            (s.y0, s.rows) = (y[0], y[1] - y[0]);
        }
        // Both passes and the join between them on the pool's threads: a caller outside
        // the pool waits (and is woken) once, not once per pass.
        // The stripes run on the pool's threads: they take this thread's features (its
        // `cpu::with_level` cap included), fixed for the whole labelling.
        let now = self.features();
        let cap = self.cap.replace(now);
        let result = in_pool(|| self.striped_in(&mut stripes, src, conn, pipelined, out, stats));
        self.cap = cap;
        self.stripes = stripes;
        result
    }

    /// The first row of each stripe, then the height: stripes of `rows` rows (the last may
    /// be shorter), or when
    /// `pipelined` (the image alone is wanted) on the default layout, a first stripe of
    /// about `1 / (threads + 1/8)` of the rows ([`FIRST_SHARE`]), whose thread also writes
    /// it while the others scan the rest ([`striped_in`](Self::striped_in)), and the rest in
    /// [`PIPELINED_STRIPES_PER_THREAD`] stripes per thread of equal height.
    fn stripe_starts(
        &self,
        h: usize,
        conn: Connectivity,
        rows: usize,
        pipelined: bool,
    ) -> Vec<usize> {
        let unit = unit_rows(conn);
        let mut starts = vec![0];
        let mut rows = rows;
        if pipelined && self.split.is_none() {
            let threads = current_threads();
            let first = (h * FIRST_SHARE / (FIRST_SHARE * threads + 1)).div_ceil(unit) * unit;
            if first >= MIN_STRIPE_ROWS && first < h {
                starts.push(first);
                let rest = PIPELINED_STRIPES_PER_THREAD * threads;
                rows = (h - first)
                    .div_ceil(rest)
                    .max(MIN_STRIPE_ROWS)
                    .div_ceil(unit)
                    * unit;
            }
        }
        let mut y = starts[starts.len() - 1] + rows;
        while y < h {
            starts.push(y);
            y += rows;
        }
        starts.push(h);
        starts
    }

    fn striped_in(
        &mut self,
        stripes: &mut [Stripe],
        src: Source<'_>,
        conn: Connectivity,
        pipelined: bool,
        out: Option<&mut Labels>,
        stats: Option<&mut Vec<ComponentStats>>,
    ) -> Result<u32, SizeError> {
        let (w, h) = src.size();
        // The image's rows of each stripe.
        let mut out = out;
        let image = out.is_some();
        let mut cells: Vec<Option<&mut [MaybeUninit<u32>]>> = Vec::with_capacity(stripes.len());
        let mut rest = match out.as_deref_mut() {
            Some(out) => Some(out.resize_uninit(w, h)?),
            None => None,
        };
        for s in stripes.iter() {
            cells.push(rest.take().map(|c| {
                let (a, b) = c.split_at_mut(s.rows * w);
                rest = Some(b);
                a
            }));
        }

        // 1. Each stripe on its own. Pipelined: the first stripe's local labels are final
        // down to the unit that gave the second smallest label of its last row (on noise, a
        // few rows above its border: `final_units`), so its thread writes those rows while
        // the other threads scan the rest; the last pass writes the others.
        let like = &*self;
        let scan = |s: &mut Stripe| scan_stripe(s, src, conn, like);
        let first_written = match (pipelined, cells.first_mut(), stripes.split_first_mut()) {
            (true, Some(Some(first_cells)), Some((first, others))) => {
                let (a, b) = both(
                    || {
                        scan(first)?;
                        let g = first.grid.as_ref().expect("stripe grid made by its scan");
                        first.written = final_units(first);
                        let rows = (first.written * unit_rows(conn)).min(first.rows);
                        let cells = &mut first_cells[..rows * w];
                        write_in_pieces(&mut first.labeller, g, conn, 0..first.written, cells)
                    },
                    || each(others, |_, s| scan(s)),
                );
                a?;
                b?;
                true
            }
            _ => {
                each(stripes, |_, s| scan(s))?;
                false
            }
        };

        // 2. Join across the borders.
        let count = join_borders(stripes, &mut self.parent, conn, (w, h))?;

        // 3 and 4. Renumber, write the image and the new components' statistics.
        if !image && stats.is_none() {
            return Ok(count);
        }
        let mut jobs: Vec<Job<'_>> = Vec::with_capacity(stripes.len());
        let mut slots = match stats {
            Some(stats) => {
                stats.clear();
                stats.try_reserve_exact(count as usize).map_err(|_| {
                    let n = count as usize;
                    memory_error::<ComponentStats>(w, h, n, "not enough memory for the statistics")
                })?;
                Some(stats)
            }
            None => None,
        };
        // Each stripe initialises the slots of its own new components (the labels
        // `first + 1..=first + new`; together `1..=count`) before it adds to them.
        let mut rest_stats = slots
            .as_deref_mut()
            .map(|s| &mut s.spare_capacity_mut()[..count as usize]);
        for (i, (stripe, stripe_cells)) in stripes.iter_mut().zip(cells).enumerate() {
            let new = (stripe.count - stripe.joined.len() as u32) as usize;
            let stripe_stats = rest_stats.take().map(|s| {
                let (a, b) = s.split_at_mut(new);
                rest_stats = Some(b);
                a
            });
            jobs.push(Job {
                stripe,
                cells: stripe_cells,
                stats: stripe_stats,
                written: first_written && i == 0,
            });
        }
        each(&mut jobs, |_, job| {
            let s = &mut *job.stripe;
            // The runs to renumber: all of the stripe's, or a pipelined first stripe's
            // after the units it wrote.
            let (from, units) = (if job.written { s.written } else { 0 }, s.units(conn));
            let runs = s
                .map_runs(conn, from)
                .map_err(|n| memory_error::<u32>(w, h, n, "not enough memory to label"))?;
            if let Some(slots) = job.stats.take() {
                for slot in slots.iter_mut() {
                    slot.write(ComponentStats::EMPTY);
                }
                // SAFETY: every element was initialised just above, and `MaybeUninit<T>`
                // has the layout of `T`.
                let own = unsafe {
                    &mut *(slots as *mut [MaybeUninit<ComponentStats>] as *mut [ComponentStats])
                };
                stripe_stats(s, conn, own)?;
            }
            if let Some(cells) = job.cells.as_deref_mut() {
                // The units written in the first pass (pipelined) are final.
                if from < units {
                    s.remap_runs(runs);
                    let g = s.grid.as_ref().expect("stripe grid made in the first pass");
                    let at = (from * unit_rows(conn) * w).min(cells.len());
                    let (l, cells) = (&mut s.labeller, &mut cells[at..]);
                    // A first stripe's rows left for this pass (all of them on a comb whose
                    // teeth meet below it) in pieces that idle threads take.
                    if job.written {
                        write_in_pieces(l, g, conn, from..units, cells)?;
                    } else {
                        write_stripe(l, g, conn, from..units, cells);
                    }
                }
            }
            Ok(())
        })?;
        drop(jobs);
        if let Some(out) = out {
            // SAFETY: `cells` came from `resize_uninit(w, h)` and was cut into the stripes'
            // rows (each stripe `s.rows * w` cells, together `w * h`); every job returned
            // `Ok`, so each stripe's rows were all written, by `write_stripe` or
            // `write_in_pieces` (each writes every cell of the units it is given): when
            // pipelined, the first stripe's first `written` units in the first pass and the
            // rest in the last, the other stripes' all in the last.
            unsafe { out.set_written(w, h, count) };
        }
        if let Some(all) = slots {
            // SAFETY: the capacity was reserved for `count` statistics above, and every job
            // returned `Ok`, so each initialised its slots first; the stripes' slots are
            // together the first `count` of the spare capacity (their new components number
            // `count - joined` each, and `count` is the sum of those).
            unsafe { all.set_len(count as usize) };
            for s in stripes.iter() {
                for ((&l, &f), side) in s.joined.iter().zip(&s.joined_final).zip(&s.side) {
                    if s.slot_of[l as usize] >= s.count - s.joined.len() as u32 {
                        merge(&mut all[f as usize - 1], side);
                    }
                }
            }
        }
        Ok(count)
    }
}

/// The labels of row `y` of a scanned grid into `out`, one per cell (a [`SizeError`] when
/// the row's tables cannot be allocated).
fn border_labels(
    l: &mut Labeller,
    g: &BitGrid,
    conn: Connectivity,
    y: usize,
    out: &mut Vec<u32>,
) -> Result<(), SizeError> {
    let (w, h, wpr) = (g.width(), g.height(), g.words_per_row());
    let words = g.words();
    let why = "not enough memory for a stripe's border row";
    out.clear();
    try_resize(out, w, 0, (w, h), why)?;
    let n = l.row_runs(&words[y * wpr..(y + 1) * wpr], w);
    let eight = conn == Connectivity::Eight;
    let base = l.unit_base[if eight { y / 2 } else { y }];
    if eight {
        // Ranks of the runs of the row pair's merged row.
        try_resize(&mut l.unit_starts, wpr, 0, (w, h), why)?;
        try_resize(&mut l.unit_prefix, wpr + 1, 0, (w, h), why)?;
        l.unit_prefix[0] = 0;
        let mut carry = 0;
        for j in 0..wpr {
            let m = merged(words, wpr, h, 2, y / 2, j);
            l.unit_starts[j] = starts(m, carry);
            l.unit_prefix[j + 1] = l.unit_prefix[j] + l.unit_starts[j].count_ones();
            carry = m >> 63;
        }
    }
    for i in 0..n {
        let (s, e) = (l.run_start[i] as usize, l.run_end[i] as usize);
        let index = if eight {
            let (j, bit) = (s / 64, (s % 64) as u32);
            base + l.unit_prefix[j] + (l.unit_starts[j] & upto(bit)).count_ones() - 1
        } else {
            base + i as u32
        };
        out[s..e].fill(l.parent[index as usize]);
    }
    Ok(())
}

/// Replaces each label of `row` by `1 +` its index in `border` (which holds it).
fn to_index(row: &mut [u32], border: &[u32]) {
    let (mut last, mut index) = (0, 0);
    for c in row.iter_mut().filter(|c| **c != 0) {
        if *c != last {
            last = *c;
            index = border.partition_point(|&b| b < last) as u32 + 1;
        }
        *c = index;
    }
}
