//! The word-frontier BFS of a large grid on many threads: the grid cut into row *bands*, one
//! per thread, each running the BFS of [`frontier`](super::frontier) on its own rows, in
//! step, one layer at a time.
//!
//! Each band keeps its own units (open cells and frontier slots) and writes the distances
//! of its own rows: within a layer no thread touches another's memory. A band's units have
//! one *ghost* row above and one below, holding the open cells of the neighbour band's edge
//! row as they were at the start: a push across the band's edge lands there like any other
//! push. After its layer, a band hands the ghost rows' new words (at most a row's words each,
//! only when its edge row had a frontier word) to the neighbour, clears them, and waits at
//! the layer's barrier. After the barrier, each band adds the words it was handed to its
//! next frontier, masked by its own open cells (a ghost row's copy of them goes stale, so
//! some words handed over are already visited: the mask drops them), and starts the layer.
//!
//! So a layer costs one barrier (a spinning one, yielding to the system after a while: with
//! more threads than cores the waiters give their core to the working threads) and at most
//! two rows of words per band handed over, while the work of the layer (its frontier words
//! and their cells' distances) is split by rows. Distances are those of the one-thread BFS,
//! for any number of bands: a cell enters the next frontier when any band pushes into it,
//! and its band learns of a push from the band beside within the same layer step.
//!
//! With owners (many-player Voronoi) the BFS still runs on one thread with the writer of
//! `layer_writer.rs`: a cell's owner reads its predecessors' owners, across the bands' edges.

use super::cells::{prefetch, write_layer, UNREACHED};
use super::frontier::{push_word, slots, Cons, Next, Pad, Unit, FAR_UNITS_BYTES, LIST_AHEAD};
use super::frontier::{OPEN, PREFETCH_CELLS};
use super::Connections;
use crate::BitGrid;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Grids of at least this many cells (2 Mi, an 8 MiB map, as the writer thread of
/// `layer_writer.rs`) run the distance BFS in bands when the current pool has two threads
/// or more. Below it a layer's work is too small for a barrier per layer to pay.
pub(super) const MIN_CELLS: usize = 1 << 21;

/// Threads from which the distance BFS runs in bands. With two, the second thread writes
/// the distances (`layer_writer.rs`), as before the bands: on the shared 2-core machine of
/// docs/benchmarks.md two bands took 1.4x the time of one thread (a layer waits for both
/// threads to have a core), where the writer costs nothing.
pub(super) const MIN_THREADS: usize = 3;

/// Rows per band at least: a band's ghost rows and hand-over cost about a row of words per
/// layer, its share of the layer's work about its height in rows.
pub(super) const MIN_ROWS: usize = 64;

/// The frontier words (of a layer) from which the BFS of a large grid goes on in bands: a
/// layer costs a barrier (a microsecond or two: the last thread's arrival seen by the
/// others) and a thread start per band once, and saves `1 - 1/bands` of the layer's work,
/// about 5 to 10 ns per frontier word (its pushes and its cells' distances). From about 400
/// words a layer the bands win on 16 threads; a frontier of 1024 words leaves margin for
/// the layers around it, which are thinner at the start and end of the BFS. A BFS whose
/// frontiers stay thin (a maze's corridors) never leaves the one-thread loop.
pub(super) const WIDE: usize = 1024;

/// Every this many layers the first band compares the time they took with the time the
/// bands spent working (summed over the bands: about one thread's time for them). When the
/// bands were no faster than one thread (thin frontiers, where the barriers dominate, or
/// threads that wait for a core on a busy machine: a layer waits for its slowest band), they
/// hand the BFS back to one thread, which goes on from the last layer (as one band).
const WINDOW: u32 = 16;

/// Spins at a barrier before yielding the core to the system on each further check.
const SPINS: u32 = 2000;

/// How many bands a distance BFS of a `w x h` grid runs in: one per thread of the current
/// pool on grids of [`MIN_CELLS`] or more, with at least [`MIN_ROWS`] rows each; 1 (the
/// one-thread BFS) otherwise.
pub(super) fn count(w: usize, h: usize) -> usize {
    let threads = crate::parallel::current_threads();
    if w.saturating_mul(h) < MIN_CELLS || threads < MIN_THREADS {
        return 1;
    }
    threads.min(h / MIN_ROWS).max(1)
}

/// A barrier for a fixed number of threads that spins, then yields; any thread may abort it
/// (a band that panicked), which releases every waiter for good.
struct Barrier {
    threads: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
    abort: AtomicBool,
}

impl Barrier {
    fn new(threads: usize) -> Self {
        Barrier {
            threads,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            abort: AtomicBool::new(false),
        }
    }

    /// Waits until every thread has arrived; `false` once the barrier is aborted. Every
    /// write before a thread's arrival is seen by every thread after the barrier.
    fn wait(&self) -> bool {
        let generation = self.generation.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.threads {
            // The last one in: the others wait for the generation, so the count is reset
            // before any of them can arrive again.
            self.arrived.store(0, Ordering::Relaxed);
            self.generation
                .store(generation.wrapping_add(1), Ordering::Release);
        } else {
            let mut spins = 0;
            while self.generation.load(Ordering::Acquire) == generation {
                if self.abort.load(Ordering::Relaxed) {
                    return false;
                }
                if spins < SPINS {
                    std::hint::spin_loop();
                    spins += 1;
                } else {
                    std::thread::yield_now();
                }
            }
        }
        !self.abort.load(Ordering::Relaxed)
    }

    fn abort(&self) {
        self.abort.store(true, Ordering::Relaxed);
    }
}

/// Aborts the barrier when the band that holds it unwinds (a panic), so that the other
/// bands stop waiting and the scope can report the panic.
struct AbortOnUnwind<'a>(&'a Barrier);

impl Drop for AbortOnUnwind<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.abort();
        }
    }
}

/// Words handed to a band for one of its edge rows: `(word index, bits)`.
type Inbox = Mutex<Vec<(usize, u64)>>;

/// What the bands share: the barrier, how many bands had a next frontier or handed words
/// over in each layer (three counters in turn: one counted, one read, one reset), the
/// deepest layer with a cell, and the inboxes: `inbox[band][side][layer % 2]`, side 0 for
/// its first row (from the band above), 1 for its last row (from the band below).
///
/// Words handed over may all be visited already (the ghost rows' open cells go stale): the
/// bands then run one layer without cells before they stop, so the last layer is the
/// deepest one that had a cell, not the one they stop at.
struct Shared {
    barrier: Barrier,
    active: [AtomicUsize; 3],
    deepest: AtomicU32,
    /// The nanoseconds the bands spent on their layers since the last look (see [`WINDOW`]).
    busy: AtomicU64,
    /// The layer after whose barrier the bands give up ([`WINDOW`]), `u32::MAX` for none.
    stop_at: AtomicU32,
    inbox: Vec<[[Inbox; 2]; 2]>,
}

/// Takes the lock of an inbox, whether or not another band panicked holding it (the
/// barrier is aborted then, and no result is used).
fn lock(inbox: &Inbox) -> std::sync::MutexGuard<'_, Vec<(usize, u64)>> {
    inbox
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Goes on with the distance BFS of [`frontier::bfs`](super::frontier::bfs) (without owners)
/// from layer `start`, in `bands` bands of rows on as many threads (this one and `bands - 1`
/// scoped threads): `dist` (row-major) holds the layers up to `start` and [`UNREACHED`]
/// elsewhere; the cells at `start` are the frontier, those of `passable` not reached yet the
/// open cells. Writes every further cell's layer and returns the last layer reached. `None`
/// when the system refuses a thread (`dist` then holds a part of the layers after `start`).
///
/// (From the start of a BFS: `dist` at 0 on the sources, `start` 0.)
pub(super) fn bfs(
    bands: usize,
    passable: &BitGrid,
    eight: bool,
    con: Option<&Connections<BitGrid>>,
    dist: &mut [u32],
    start: u32,
) -> Option<u32> {
    match in_bands(bands, passable, eight, con, dist, start)? {
        Ok(last) => Some(last),
        // The bands gave up: the rest on this thread, as one band.
        Err(layer) => match in_bands(1, passable, eight, con, dist, layer)? {
            Ok(last) | Err(last) => Some(last),
        },
    }
}

/// [`bfs`] in `bands` bands: `Ok` with the last layer, or `Err(layer)` when the bands gave
/// up after `layer` (see [`WINDOW`]; `dist` then holds every layer up to `layer`).
fn in_bands(
    bands: usize,
    passable: &BitGrid,
    eight: bool,
    con: Option<&Connections<BitGrid>>,
    dist: &mut [u32],
    start: u32,
) -> Option<Result<u32, u32>> {
    let (w, h) = passable.size();
    debug_assert!(bands >= 1 && bands <= h.max(1) && dist.len() == w * h);
    let shared = Shared {
        barrier: Barrier::new(bands),
        active: Default::default(),
        deepest: AtomicU32::new(start),
        busy: AtomicU64::new(0),
        stop_at: AtomicU32::new(u32::MAX),
        inbox: (0..bands).map(|_| Default::default()).collect(),
    };
    let prefetch = dist.len() >= PREFETCH_CELLS;
    // The bands' rows and distance rows.
    let mut parts = Vec::with_capacity(bands);
    let mut rest = &mut *dist;
    for b in 0..bands {
        let (top, bottom) = (b * h / bands, (b + 1) * h / bands);
        let (mine, tail) = std::mem::take(&mut rest).split_at_mut((bottom - top) * w);
        parts.push((top, bottom - top, mine));
        rest = tail;
    }
    let job = Job {
        bands,
        start,
        passable,
        con,
        prefetch,
        shared: &shared,
    };
    std::thread::scope(|scope| {
        let mut parts = parts.into_iter().enumerate();
        let (_, (top, rows, first)) = parts.next()?;
        let mut handles = Vec::with_capacity(bands - 1);
        let job = &job;
        for (b, (top, rows, mine)) in parts {
            let spawned = std::thread::Builder::new()
                .spawn_scoped(scope, move || job.run(eight, b, top, rows, mine));
            match spawned {
                Ok(handle) => handles.push(handle),
                Err(_) => {
                    // The bands started wait at the first barrier: released, they stop.
                    shared.barrier.abort();
                    break;
                }
            }
        }
        let mine = if handles.len() + 1 == bands {
            job.run(eight, 0, top, rows, first)
        } else {
            None
        };
        for handle in handles {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
        let deepest = shared.deepest.load(Ordering::Relaxed);
        mine.map(|end| end.map(|_| deepest))
    })
}

/// The inputs every band reads.
struct Job<'a> {
    bands: usize,
    start: u32,
    passable: &'a BitGrid,
    con: Option<&'a Connections<BitGrid>>,
    prefetch: bool,
    shared: &'a Shared,
}

impl Job<'_> {
    /// Band `b` (rows `top..top + rows`, distances `dist`): the BFS of its neighbourhood and
    /// masks. `None` when the barrier was aborted.
    fn run(
        &self,
        eight: bool,
        b: usize,
        top: usize,
        rows: usize,
        dist: &mut [u32],
    ) -> Option<Result<u32, u32>> {
        let _guard = AbortOnUnwind(&self.shared.barrier);
        match (eight, self.con.is_some()) {
            (false, false) => self.band::<false, false>(b, top, rows, dist),
            (false, true) => self.band::<false, true>(b, top, rows, dist),
            (true, false) => self.band::<true, false>(b, top, rows, dist),
            (true, true) => self.band::<true, true>(b, top, rows, dist),
        }
    }

    /// [`Job::run`] for one neighbourhood and masks.
    fn band<const EIGHT: bool, const CON: bool>(
        &self,
        b: usize,
        top: usize,
        rows: usize,
        dist: &mut [u32],
    ) -> Option<Result<u32, u32>> {
        let (passable, shared) = (self.passable, self.shared);
        let pad = Pad::rows(passable, rows);
        let Pad { w, n, s, .. } = pad;
        let len = pad.len();
        let mut store = pad.unit_store();
        let units = pad.units_rows(&mut store, passable, top);
        // The ghost rows: the passable cells of the rows beside, where there are some (their
        // distances are the other bands' to write).
        let (above, below) = (b > 0, b + 1 < self.bands);
        if above {
            let row = passable.row_words(top - 1);
            for (i, &word) in row.iter().enumerate() {
                units[pad.unit(usize::MAX, i)].0[OPEN] = word;
            }
        }
        if below {
            let row = passable.row_words(top + rows);
            for (i, &word) in row.iter().enumerate() {
                units[pad.unit(rows, i)].0[OPEN] = word;
            }
        }
        let cons: Option<Cons> = self
            .con
            .map(|c| std::array::from_fn(|k| pad.copy_rows(&c[k], top)));
        let empty: Cons = Default::default();
        let c = cons.as_ref().unwrap_or(&empty);
        // The band's own units, and those of its first and last rows.
        let (first, end) = (pad.unit(0, 0), pad.unit(rows, 0));
        let (first_end, last_start) = (first + s, end - s);
        let start = self.start;
        let (ck, _, _) = slots(start);
        // The cells reached so far leave the open cells; those at `start` are the frontier.
        let mut list: Vec<(usize, usize)> = Vec::new();
        for (y, row) in dist.chunks_exact(w).enumerate() {
            for (i, cells) in row.chunks(64).enumerate() {
                let (mut seen, mut front) = (0u64, 0u64);
                for (k, &d) in cells.iter().enumerate() {
                    seen |= u64::from(d != UNREACHED) << k;
                    front |= u64::from(d == start) << k;
                }
                let u = pad.unit(y, i);
                units[u].0[OPEN] &= !seen;
                if front != 0 {
                    units[u].0[ck] = front;
                    list.push((u, y * w + i * 64));
                }
            }
        }
        let mut count = list.len();
        let mut next = Next {
            slot: 0,
            list: Vec::new(),
            len: 0,
            dist: dist.as_ptr(),
            prefetch: self.prefetch,
        };
        let far = len * std::mem::size_of::<Unit>() >= FAR_UNITS_BYTES;
        let mut layer = start;
        let mut window = Instant::now();
        loop {
            let began = Instant::now();
            let (ck, nk, _) = slots(layer);
            if layer > start {
                // The words the bands beside pushed into this band's edge rows.
                let parity = (layer % 2) as usize;
                for (side, y) in [(0, 0), (1, rows - 1)] {
                    let mut words = lock(&shared.inbox[b][side][parity]);
                    for &(i, bits) in words.iter() {
                        let u = pad.unit(y, i);
                        let unit = &mut units[u].0;
                        let add = bits & unit[OPEN];
                        unit[OPEN] ^= add;
                        let was = unit[ck];
                        unit[ck] = was | add;
                        if was == 0 && add != 0 {
                            let entry = (u, y * w + i * 64);
                            if count < list.len() {
                                list[count] = entry;
                            } else {
                                list.push(entry);
                            }
                            count += 1;
                        }
                    }
                    words.clear();
                }
            }
            next.slot = nk;
            let need = (count * if EIGHT { 9 } else { 5 }).min(len) + 1;
            if next.list.len() < need {
                next.list.resize(need, (0, 0));
            }
            let ahead = far && count > 2 * LIST_AHEAD;
            let mut edges = 0u8;
            let mut cells = false;
            for (i, &(u, base)) in list[..count].iter().enumerate() {
                if ahead {
                    // As in the one-thread BFS: the units of the word `2 * LIST_AHEAD` on.
                    let (v, _) = list.get(i + 2 * LIST_AHEAD).copied().unwrap_or_default();
                    let at = units.as_ptr().wrapping_add(v);
                    prefetch(at.wrapping_sub(s).cast());
                    prefetch(at.wrapping_sub(1).cast());
                    prefetch(at.wrapping_add(1).cast());
                    prefetch(at.wrapping_add(s).cast());
                }
                // Ghost units are listed when pushed into; they are handed over below.
                if u < first || u >= end {
                    continue;
                }
                edges |= u8::from(u < first_end) | (u8::from(u >= last_start) << 1);
                cells = true;
                let f = units[u].0[ck];
                units[u].0[ck] = 0;
                write_layer(dist, base, f, layer);
                push_word::<EIGHT, CON>(units, &mut next, c, u, base, f, s, w);
            }
            if cells {
                shared.deepest.fetch_max(layer, Ordering::Relaxed);
            }
            // Hand the ghost rows' new words to the bands beside, for their next layer.
            let parity = ((layer + 1) % 2) as usize;
            for (side, ghost, to) in [(1, usize::MAX, b.wrapping_sub(1)), (0, rows, b + 1)] {
                let pushed = if side == 1 { edges & 1 } else { edges & 2 };
                if to >= self.bands || pushed == 0 {
                    continue;
                }
                let mut words = lock(&shared.inbox[to][side][parity]);
                for i in 0..n {
                    let slot = &mut units[pad.unit(ghost, i)].0[nk];
                    if *slot != 0 {
                        words.push((i, *slot));
                        *slot = 0;
                    }
                }
            }
            // Ghost words listed count: a band that handed words over has a next layer.
            let turn = (layer % 3) as usize;
            shared.active[turn].fetch_add(usize::from(next.len > 0), Ordering::Relaxed);
            let busy = began.elapsed().as_nanos() as u64;
            shared.busy.fetch_add(busy, Ordering::Relaxed);
            if b == 0 && self.bands > 1 && (layer - start) % WINDOW == WINDOW - 1 {
                // The window's time against its work, summed over the bands: about what one
                // thread would have taken. Not faster: the bands stop after the next layer
                // (every band reads the layer after the barrier that follows this store).
                let spent = window.elapsed().as_nanos() as u64;
                let work = shared.busy.swap(0, Ordering::Relaxed);
                if spent >= work {
                    shared.stop_at.store(layer + 1, Ordering::Relaxed);
                }
                window = Instant::now();
            }
            if !shared.barrier.wait() {
                return None;
            }
            if b == 0 {
                // Read by every band after the barrier before last: free until the layer
                // after next counts into it, which starts after the next barrier.
                shared.active[((layer + 2) % 3) as usize].store(0, Ordering::Relaxed);
            }
            if shared.active[turn].load(Ordering::Relaxed) == 0 {
                return Some(Ok(layer));
            }
            if layer >= shared.stop_at.load(Ordering::Relaxed) {
                return Some(Err(layer));
            }
            layer += 1;
            std::mem::swap(&mut list, &mut next.list);
            count = next.len;
            next.len = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive::{fill as nf, NaiveGrid};
    use crate::test_rng::XorShift as Rng;
    use crate::Moves;

    fn grid(w: usize, h: usize, rng: &mut Rng, pct: u64) -> BitGrid {
        let mut g = BitGrid::new(w, h);
        for y in 0..h {
            for x in 0..w {
                if rng.percent(pct) {
                    g.set(x, y);
                }
            }
        }
        g
    }

    /// The banded BFS equals the naive BFS with 1, 2, 3 and 7 bands (as many as there are
    /// rows at most) on tall, wide, one-row and one-column grids, widths around the word
    /// size, densities from empty to full, 4- and 8-moves, with and without connection
    /// masks, none to several sources (free or walled); the last layer is the largest
    /// distance.
    #[test]
    fn bands_equal_the_naive_bfs() {
        let mut rng = Rng(0xba2d_5eed);
        let sizes = [
            (1, 1),
            (1, 40),
            (40, 1),
            (63, 9),
            (64, 7),
            (65, 11),
            (130, 3),
            (5, 90),
            (200, 30),
            (17, 17),
        ];
        for (w, h) in sizes {
            for pct in [0, 30, 60, 75, 100] {
                let g = grid(w, h, &mut rng, pct);
                for (moves, eight) in [(Moves::Four, false), (Moves::Eight, true)] {
                    for with_con in [false, true] {
                        let con: Option<Connections<BitGrid>> =
                            with_con.then(|| std::array::from_fn(|_| grid(w, h, &mut rng, 85)));
                        let ncon: Option<nf::NaiveConnections> = con
                            .as_ref()
                            .map(|c| std::array::from_fn(|k| NaiveGrid::from_view(&c[k])));
                        for sources in [0, 1, 3] {
                            let mut seeds = g.empty_like();
                            for _ in 0..sources {
                                let k = (rng.next_u64() % (w * h) as u64) as usize;
                                seeds.set(k % w, k / w);
                            }
                            let (ns, np) = (NaiveGrid::from_view(&seeds), NaiveGrid::from_view(&g));
                            let want = nf::distance_map(&ns, &np, moves, ncon.as_ref());
                            let most = want.iter().flatten().copied().max().unwrap_or(0);
                            for bands in [1, 2, 3, 7].into_iter().filter(|&b| b <= h) {
                                let mut dist = vec![UNREACHED; w * h];
                                for (x, y) in seeds.iter() {
                                    dist[y * w + x] = 0;
                                }
                                let last = bfs(bands, &g, eight, con.as_ref(), &mut dist, 0);
                                let ctx = format!("{w}x{h} {pct}% {moves:?} masks={with_con} sources={sources} bands={bands}");
                                assert_eq!(last, Some(most), "{ctx}: the last layer");
                                for (k, (&d, &e)) in dist.iter().zip(&want).enumerate() {
                                    let got = (d != UNREACHED).then_some(d);
                                    assert_eq!(got, e, "{ctx} at {:?}", (k % w, k / w));
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// More threads than cores: 16 bands of a few rows each still agree with one band (the
    /// barrier yields to the system).
    #[test]
    fn many_bands_on_few_cores() {
        let mut rng = Rng(0x1616);
        let g = grid(300, 64, &mut rng, 70);
        let mut seeds = g.empty_like();
        seeds.set(0, 0);
        seeds.set(299, 63);
        let mut one = vec![UNREACHED; 300 * 64];
        one[0] = 0;
        one[300 * 64 - 1] = 0;
        let mut many = one.clone();
        let a = bfs(1, &g, false, None, &mut one, 0);
        let b = bfs(16, &g, false, None, &mut many, 0);
        assert_eq!(a, b);
        assert!(one == many);
    }
}
