//! The word-frontier BFS of a large grid on many threads: the grid cut into row *bands*,
//! [`BANDS_PER_THREAD`] a thread dealt in turn, each running the BFS of
//! [`frontier`](super::frontier) on its own rows, in step, one layer at a time.
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
//! So a layer costs one barrier of the threads (`barrier.rs`: a dissemination barrier,
//! `log2(threads)` signals in a row, spinning, then yielding to the system after a while:
//! with more threads than cores the waiters give their core to the working threads; it also
//! tells every thread whether any band has a next layer, and whether the bands give up) and
//! at most
//! two rows of words per band handed over, while the work of the layer (its frontier words
//! and their cells' distances) is split by rows. Distances are those of the one-thread BFS,
//! for any number of bands: a cell enters the next frontier when any band pushes into it,
//! and its band learns of a push from the band beside within the same layer step.
//!
//! With owners (many-player Voronoi) a cell's owner is read from its predecessors (its
//! neighbours in the layer before, `cells.rs`), which for a band's edge row lie in the band
//! beside: after its layer a band also hands its edge rows' frontier words to the bands
//! beside, which put them in their ghost rows' slot of that layer (so a ghost row holds the
//! neighbour's predecessors when the next layer's owners are combined), and the owners are
//! one array that every band writes in its own rows and reads across its edges
//! (`cells::OwnerCells`: the owners read were written a layer before, behind the barrier).
//! The bands start from the frontier the one-thread BFS hands them ([`Front`]: the words of
//! its last layer and the next), not from a distance map, which a Voronoi need not have.

mod band;
mod job;

use super::barrier::Barrier;
use super::cells::shared_cells;
use super::frontier::{Front, PREFETCH_CELLS};
use super::Connections;
use crate::BitGrid;
use band::Band;
use job::{lock_front, Job, Owned, Part, Shared, Tally};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
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
/// layer costs a barrier (about a microsecond with 16 threads) and a thread start per
/// thread once, and saves `1 - 1/bands` of the layer's work,
/// about 5 to 10 ns per frontier word (its pushes and its cells' distances). From about 400
/// words a layer the bands win on 16 threads; a frontier of 1024 words leaves margin for
/// the layers around it, which are thinner at the start and end of the BFS. A BFS whose
/// frontiers stay thin (a maze's corridors) never leaves the one-thread loop.
pub(super) const WIDE: usize = 1024;

/// Bands per thread (at most; each band has [`MIN_ROWS`] rows or more): thread `t` runs bands
/// `t`, `t + threads`, ... in turn each layer. A BFS from a corner reaches the bands one
/// after another, and a layer waits for its slowest thread: with one band a thread, on 16
/// threads of the 16-core machine of docs/benchmarks.md, the slowest band of a layer took
/// 2.9x the mean band's time (16384x16384, 30% walls); with bands dealt in turn, every
/// thread has a share of the front once it spans a few bands.
pub(super) const BANDS_PER_THREAD: usize = 4;

/// Every this many layers the first thread compares the time they took with the time the
/// threads spent working (summed over the threads: about one thread's time for them). When the
/// bands lose to one thread ([`give_up`]: thin frontiers, where the barriers dominate, or
/// threads that wait for a core on a busy machine: a layer waits for its slowest band), they
/// hand the BFS back to one thread, which goes on from the last layer (as one band).
const WINDOW: u32 = 16;

/// How many threads a distance BFS of a `w x h` grid runs its bands on: every thread of the
/// current pool (of [`MIN_THREADS`] or more) on grids of [`MIN_CELLS`] or more, at most one
/// per [`MIN_ROWS`] rows; 1 (the one-thread BFS) otherwise.
pub(super) fn threads(w: usize, h: usize) -> usize {
    let threads = crate::parallel::current_threads();
    if w.saturating_mul(h) < MIN_CELLS || threads < MIN_THREADS {
        return 1;
    }
    threads.min(h / MIN_ROWS).max(1)
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

/// Whether the bands give up after a [`WINDOW`] of layers that took `spent` ns against
/// `work` ns of work summed over the bands (about what one thread would have taken), with
/// `excess` the time earlier windows took beyond their work (net of the windows where the
/// bands won, never below zero) and `restart` what one thread takes to start over from the
/// distances (the bands' setup times summed: the same scan of every cell). As in renting
/// against buying, bands that lose to one thread go on until their loss has reached the
/// cost of the restart, then hand the BFS back: never more than twice the better of the
/// two. That gives up fast where the bands lose much (threads that wait for a core on a
/// busy machine: a layer waits for its slowest band), and keeps the bands through a short
/// thin end of a BFS, where a barrier a layer costs less than scanning a large map again.
fn give_up(excess: &mut u64, spent: u64, work: u64, restart: u64) -> bool {
    *excess = excess.saturating_add(spent).saturating_sub(work);
    *excess > restart
}

/// The barrier's flags: this band has a next layer (its frontier, or words it handed over);
/// the bands give up after this layer (set by the first band, see [`WINDOW`]).
const ACTIVE: u64 = 1;
const STOP: u64 = 2;

/// Goes on with the distance BFS of [`frontier::bfs`](super::frontier::bfs) (without owners)
/// from layer `start`, on `threads` threads (this one and `threads - 1` scoped threads), in
/// bands of rows ([`Split::layout`]): `dist` (row-major) holds the layers up to `start` and
/// [`UNREACHED`](super::cells::UNREACHED) elsewhere; the cells at `start` are the frontier, those of `passable` not
/// reached yet the open cells. Writes every further cell's layer and returns the last layer
/// reached. `None` when the system refuses a thread (`dist` then holds a part of the layers
/// after `start`).
///
/// (From the start of a BFS: `dist` at 0 on the sources, `start` 0.)
pub(super) fn bfs(
    threads: usize,
    passable: &BitGrid,
    eight: bool,
    con: Option<&Connections<BitGrid>>,
    dist: &mut [u32],
    start: u32,
) -> Option<u32> {
    match in_bands(
        Split::layout(threads, passable.height()),
        passable,
        eight,
        con,
        dist,
        start,
        None,
    )? {
        Ok(last) => Some(last),
        // The bands gave up: the rest on this thread, as one band.
        Err(layer) => match in_bands(Split::ONE, passable, eight, con, dist, layer, None)? {
            Ok(last) | Err(last) => Some(last),
        },
    }
}

/// Goes on with the BFS with owners of
/// [`frontier::owners_until`](super::frontier::owners_until) from layer `start` (the one
/// after the last it wrote), on `threads` threads in bands of rows ([`Split::layout`]): `owner`
/// (row-major) holds the owners of the layers before `start` and [`UNREACHED`](super::cells::UNREACHED) elsewhere,
/// `front` the words of the layer before `start` and of `start`, and `dist`, empty or
/// row-major, the layers before `start` and [`UNREACHED`](super::cells::UNREACHED) elsewhere. Writes every further
/// cell's owner (and layer, into a `dist` that is not empty) and returns the last layer
/// reached. When the system refuses a thread (before any layer), or the bands give up
/// ([`WINDOW`]), this thread goes on as one band.
#[allow(clippy::too_many_arguments)]
pub(super) fn bfs_owned(
    threads: usize,
    passable: &BitGrid,
    eight: bool,
    con: Option<&Connections<BitGrid>>,
    dist: &mut [u32],
    owner: &mut [u32],
    start: u32,
    mut front: Front,
) -> u32 {
    let owner = shared_cells(owner);
    let split = Split::layout(threads, passable.height());
    owned_from(split, passable, eight, con, dist, owner, start, &mut front)
}

/// [`bfs_owned`] on `split` (the owner array shared), then from where the bands stop, on
/// this thread as one band.
#[allow(clippy::too_many_arguments)]
fn owned_from(
    mut split: Split,
    passable: &BitGrid,
    eight: bool,
    con: Option<&Connections<BitGrid>>,
    dist: &mut [u32],
    owner: &[AtomicU32],
    mut start: u32,
    front: &mut Front,
) -> u32 {
    loop {
        match in_bands(
            split,
            passable,
            eight,
            con,
            dist,
            start,
            Some((owner, front)),
        ) {
            Some(Ok(last)) => return last,
            // The bands gave up after `layer`, handing back the frontier of the next.
            Some(Err(layer)) => start = layer + 1,
            // No thread was started: no layer ran.
            None => {}
        }
        split = Split::ONE;
    }
}

/// How a BFS runs in bands: on `threads` threads, in `bands` bands (`threads <= bands <=`
/// the grid's height), handing back to one thread at the latest after layer `stop_after`
/// (the tests' way to run the hand-back; `u32::MAX` otherwise).
#[derive(Clone, Copy)]
struct Split {
    threads: usize,
    bands: usize,
    stop_after: u32,
}

impl Split {
    /// One band on this thread.
    const ONE: Split = Split::new(1, 1);

    const fn new(threads: usize, bands: usize) -> Self {
        Split {
            threads,
            bands,
            stop_after: u32::MAX,
        }
    }

    /// The bands of a grid of `h` rows on `threads` threads: [`BANDS_PER_THREAD`] a thread,
    /// each of [`MIN_ROWS`] rows or more, and at least one a thread.
    fn layout(threads: usize, h: usize) -> Self {
        Split::new(
            threads,
            (threads * BANDS_PER_THREAD).min(h / MIN_ROWS).max(threads),
        )
    }
}

/// [`bfs`] as `split` says, with owners ([`bfs_owned`]: the owner array and the frontier to
/// start from) when given: `Ok` with the last layer, or `Err(layer)` when the bands gave up
/// after `layer` (see [`WINDOW`]; `dist` and the owners then hold every layer up to `layer`,
/// and with owners the frontier holds the words of `layer` and of the next).
fn in_bands(
    split: Split,
    passable: &BitGrid,
    eight: bool,
    con: Option<&Connections<BitGrid>>,
    dist: &mut [u32],
    start: u32,
    owned: Option<(&[AtomicU32], &mut Front)>,
) -> Option<Result<u32, u32>> {
    let (w, h) = passable.size();
    let Split { threads, bands, .. } = split;
    debug_assert!(threads >= 1 && threads <= bands && bands <= h.max(1));
    debug_assert!(dist.len() == w * h || (owned.is_some() && dist.is_empty()));
    let (owner, front) = owned.unzip();
    let owned = owner
        .zip(front.as_deref())
        .map(|(owner, front)| Owned { owner, front });
    let inboxes = || (0..bands).map(|_| Default::default()).collect();
    let shared = Shared {
        barrier: Barrier::new(threads),
        tally: (0..threads).map(|_| Tally::default()).collect(),
        // With owners the layer before `start` is the last one written.
        deepest: AtomicU32::new(start - u32::from(owned.is_some())),
        inbox: inboxes(),
        edges: if owned.is_some() {
            inboxes()
        } else {
            Vec::new()
        },
        back: Mutex::default(),
    };
    let prefetch = w * h >= PREFETCH_CELLS;
    // The bands' rows and distance rows, dealt to the threads in turn.
    let mut parts: Vec<Vec<Part<'_>>> = (0..threads).map(|_| Vec::new()).collect();
    let mut rest = &mut *dist;
    for b in 0..bands {
        let (top, bottom) = (b * h / bands, (b + 1) * h / bands);
        let cells = if rest.is_empty() {
            0
        } else {
            (bottom - top) * w
        };
        let (mine, tail) = std::mem::take(&mut rest).split_at_mut(cells);
        parts[b % threads].push(Part {
            b,
            top,
            rows: bottom - top,
            dist: mine,
        });
        rest = tail;
    }
    let job = Job {
        bands,
        stop_after: split.stop_after,
        start,
        passable,
        con,
        eight,
        prefetch,
        owned,
        shared: &shared,
    };
    let end = std::thread::scope(|scope| {
        let mut parts = parts.into_iter().enumerate();
        let (_, first) = parts.next()?;
        let mut handles = Vec::with_capacity(threads - 1);
        let job = &job;
        for (t, mine) in parts {
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || job.run(t, mine));
            match spawned {
                Ok(handle) => handles.push(handle),
                Err(_) => {
                    // The threads started wait at the first barrier: released, they stop.
                    shared.barrier.abort();
                    break;
                }
            }
        }
        let mine = if handles.len() + 1 == threads {
            job.run(0, first)
        } else {
            None
        };
        for handle in handles {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
        let deepest = shared.deepest.load(Relaxed);
        mine.map(|end| end.map(|_| deepest))
    });
    if let (Some(Err(_)), Some(front)) = (end, front) {
        *front = std::mem::take(&mut *lock_front(&shared.back));
    }
    end
}

impl Job<'_> {
    /// Thread `t`, with its bands: the BFS of its neighbourhood, masks and owners. `None`
    /// when the barrier was aborted.
    fn run(&self, t: usize, parts: Vec<Part<'_>>) -> Option<Result<u32, u32>> {
        let _guard = AbortOnUnwind(&self.shared.barrier);
        match (self.eight, self.con.is_some(), self.owned.is_some()) {
            (false, false, false) => self.thread::<false, false, false>(t, parts),
            (false, true, false) => self.thread::<false, true, false>(t, parts),
            (true, false, false) => self.thread::<true, false, false>(t, parts),
            (true, true, false) => self.thread::<true, true, false>(t, parts),
            (false, false, true) => self.thread::<false, false, true>(t, parts),
            (false, true, true) => self.thread::<false, true, true>(t, parts),
            (true, false, true) => self.thread::<true, false, true>(t, parts),
            (true, true, true) => self.thread::<true, true, true>(t, parts),
        }
    }

    /// [`Job::run`] for one neighbourhood, masks and owners: each layer, every band of the
    /// thread in turn, then the barrier.
    fn thread<const EIGHT: bool, const CON: bool, const OWN: bool>(
        &self,
        t: usize,
        parts: Vec<Part<'_>>,
    ) -> Option<Result<u32, u32>> {
        let setup = Instant::now();
        let shared = self.shared;
        let mut bands: Vec<Band<'_>> = parts.into_iter().map(|p| Band::new(self, p)).collect();
        // Every band set up before the first window starts: a band's setup (its units, the
        // scan of its distances) takes milliseconds on a large grid, and counted in the
        // window against a few microseconds of work per layer it handed every BFS back to
        // one thread after 16 layers (on a 16-core machine the bands never scaled).
        shared.tally[t]
            .setup
            .store(setup.elapsed().as_nanos() as u64, Relaxed);
        let mut episode = 0;
        shared.barrier.wait(t, &mut episode, 0)?;
        let (mut window, mut excess) = (Instant::now(), 0);
        let mut layer = self.start;
        loop {
            let began = Instant::now();
            let mut active = false;
            for band in &mut bands {
                active |= band.layer::<EIGHT, CON, OWN>(self, layer);
            }
            shared.tally[t]
                .busy
                .fetch_add(began.elapsed().as_nanos() as u64, Relaxed);
            let mut flags = if active { ACTIVE } else { 0 };
            if t == 0 && self.bands > 1 && (layer - self.start) % WINDOW == WINDOW - 1 {
                // The window's time against its work summed over the threads (about what
                // one thread would have taken; a thread still on this layer counts it in the
                // next window).
                let spent = window.elapsed().as_nanos() as u64;
                let (mut work, mut restart) = (0u64, 0u64);
                for tally in &shared.tally {
                    work = work.saturating_add(tally.busy.swap(0, Relaxed));
                    restart = restart.saturating_add(tally.setup.load(Relaxed));
                }
                if give_up(&mut excess, spent, work, restart) {
                    flags |= STOP;
                }
                window = Instant::now();
            }
            if layer >= self.stop_after && self.bands > 1 {
                flags |= STOP;
            }
            let heard = shared.barrier.wait(t, &mut episode, flags)?;
            if heard & (ACTIVE | STOP) != ACTIVE {
                let deepest = bands.iter().map(|band| band.deepest).max();
                shared
                    .deepest
                    .fetch_max(deepest.unwrap_or(self.start), Relaxed);
                if heard & ACTIVE == 0 {
                    return Some(Ok(layer));
                }
                if OWN {
                    // One thread goes on from the bands' frontier (every band has handed
                    // its words over: the barrier is behind).
                    for band in &mut bands {
                        band.hand_back(self, layer);
                    }
                }
                return Some(Err(layer));
            }
            layer += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::cells::UNREACHED;
    use super::super::frontier::tests::NAIVE;
    use super::super::test_shapes::{assert_distances, for_each_case};
    use super::*;
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

    /// The grids of the tests: one cell, one column, one row, widths around the word size,
    /// tall, wide and square.
    const SIZES: [(usize, usize); 10] = [
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

    /// Threads and bands: one band a thread, and several a thread (dealt in turn).
    const LAYOUTS: [(usize, usize); 7] = [(1, 1), (2, 2), (3, 3), (7, 7), (1, 3), (2, 5), (3, 7)];

    /// [`bfs`] with `bands` bands on `threads` threads.
    fn run(
        threads: usize,
        bands: usize,
        g: &BitGrid,
        eight: bool,
        con: Option<&Connections<BitGrid>>,
        dist: &mut [u32],
    ) -> Option<u32> {
        match in_bands(Split::new(threads, bands), g, eight, con, dist, 0, None)? {
            Ok(last) => Some(last),
            Err(layer) => match in_bands(Split::ONE, g, eight, con, dist, layer, None)? {
                Ok(last) | Err(last) => Some(last),
            },
        }
    }

    /// The banded BFS equals the naive BFS with 1, 2, 3 and 7 bands (as many as there are
    /// rows at most), on as many threads and on fewer threads than bands on tall, wide, one-row and one-column grids, widths around the word
    /// size, densities from empty to full, 4- and 8-moves, with and without connection
    /// masks, none to several sources (free or walled); the last layer is the largest
    /// distance.
    #[test]
    fn bands_equal_the_naive_bfs() {
        let mut rng = Rng(0xba2d_5eed);
        for (w, h) in SIZES {
            for pct in [0, 30, 60, 75, 100] {
                let g = grid(w, h, &mut rng, pct);
                for_each_case(&g, &mut rng, NAIVE, |case| {
                    let eight = case.moves == Moves::Eight;
                    for (threads, bands) in LAYOUTS.into_iter().filter(|&(_, b)| b <= h) {
                        let mut dist = vec![UNREACHED; w * h];
                        for (x, y) in case.seeds.iter() {
                            dist[y * w + x] = 0;
                        }
                        let last = run(threads, bands, &g, eight, case.con.as_ref(), &mut dist);
                        let how = format!("{pct}% threads={threads} bands={bands}");
                        assert_eq!(last, Some(case.most), "{} {how}: the last layer", case.ctx);
                        assert_distances(&dist, w, case, &how);
                    }
                });
            }
        }
    }

    /// Going on from any layer of a map (as after the bands give up, or the one-thread BFS
    /// hands over at a wide frontier) gives the map of a BFS from the start, whatever the
    /// threads and bands.
    #[test]
    fn resuming_from_a_layer_equals_the_whole_bfs() {
        let mut rng = Rng(0x2e5e);
        let (w, h) = (130, 41);
        let g = grid(w, h, &mut rng, 72);
        let mut whole = vec![UNREACHED; w * h];
        whole[0] = 0;
        whole[w * h - 1] = 0;
        let mut from_start = whole.clone();
        let last = run(1, 1, &g, false, None, &mut whole);
        for cut in [0, 1, 5, 17, last.unwrap_or(0)] {
            for (threads, bands) in LAYOUTS {
                let mut dist: Vec<u32> = whole
                    .iter()
                    .map(|&d| if d <= cut { d } else { UNREACHED })
                    .collect();
                let split = Split::new(threads, bands);
                let resumed = match in_bands(split, &g, false, None, &mut dist, cut, None) {
                    Some(Ok(l)) => Some(l),
                    Some(Err(l)) => run_from(&g, &mut dist, l),
                    None => None,
                };
                assert_eq!(resumed, last, "cut {cut}, {threads} threads, {bands} bands");
                assert!(dist == whole, "cut {cut}, {threads} threads, {bands} bands");
            }
        }
        assert_eq!(run(3, 7, &g, false, None, &mut from_start), last);
    }

    /// One band from `layer` on.
    fn run_from(g: &BitGrid, dist: &mut [u32], layer: u32) -> Option<u32> {
        match in_bands(Split::ONE, g, false, None, dist, layer, None)? {
            Ok(last) | Err(last) => Some(last),
        }
    }

    /// Owners (and distances, when written) in bands equal the naive Voronoi: the
    /// one-thread BFS with owners hands over at a frontier of `wide` words, then the bands go
    /// on in every layout, to the end or handing back to one thread a few layers in; players
    /// with one or two cells (free or walled), one cell shared by two players; 4- and
    /// 8-moves, with and without connection masks; tall, wide, one-row and one-column grids,
    /// widths around the word size, densities from empty to full.
    #[test]
    fn owners_in_bands_equal_the_naive_voronoi() {
        use super::super::cells::{claim_source, shared_cells};
        use super::super::frontier::owners_until;
        use crate::naive::{fill as nf, NaiveGrid};
        let mut rng = Rng(0x0e4e_2b4d);
        for (w, h) in SIZES {
            for pct in [0, 40, 70, 100] {
                let g = grid(w, h, &mut rng, pct);
                for (moves, with_con) in [
                    (Moves::Four, false),
                    (Moves::Eight, false),
                    (Moves::Four, true),
                    (Moves::Eight, true),
                ] {
                    let con: Option<Connections<BitGrid>> =
                        with_con.then(|| std::array::from_fn(|_| grid(w, h, &mut rng, 85)));
                    let mut cell = || {
                        let k = (rng.next_u64() % (w * h) as u64) as usize;
                        (k % w, k / w)
                    };
                    let shared = cell();
                    let players: Vec<Vec<(usize, usize)>> = vec![
                        vec![shared, cell()],
                        vec![cell()],
                        vec![shared],
                        vec![cell()],
                    ];
                    let planes: Vec<NaiveGrid> = players
                        .iter()
                        .map(|cells| {
                            let mut p = NaiveGrid::new(w, h);
                            for &(x, y) in cells {
                                p.set(x, y, true);
                            }
                            p
                        })
                        .collect();
                    let ncon: Option<nf::NaiveConnections> = con
                        .as_ref()
                        .map(|c| std::array::from_fn(|k| NaiveGrid::from_view(&c[k])));
                    let want =
                        nf::voronoi(&planes, &NaiveGrid::from_view(&g), moves, ncon.as_ref());
                    let most = want.depth.iter().flatten().copied().max().unwrap_or(0);
                    let eight = moves == Moves::Eight;
                    for wide in [1, 3] {
                        for (threads, bands) in LAYOUTS.into_iter().filter(|&(_, b)| b <= h) {
                            for stop in [u32::MAX, 0, 2] {
                                let mut seeds = g.empty_like();
                                let mut owner = vec![UNREACHED; w * h];
                                let mut dist = vec![UNREACHED; w * h];
                                for (p, cells) in players.iter().enumerate() {
                                    for &(x, y) in cells {
                                        seeds.set(x, y);
                                        claim_source(&mut owner[y * w + x], p);
                                        dist[y * w + x] = 0;
                                    }
                                }
                                let mut front = Front::default();
                                let (c, d) = (con.as_ref(), Some(&mut dist[..]));
                                let o = &mut owner[..];
                                let until =
                                    owners_until(&seeds, &g, moves, c, d, o, wide, &mut front);
                                let last = match until {
                                    Ok(last) => last,
                                    Err(layer) => {
                                        let split = Split {
                                            threads,
                                            bands,
                                            stop_after: (layer + 1).saturating_add(stop),
                                        };
                                        let owner = shared_cells(&mut owner);
                                        let (d, start) = (&mut dist[..], layer + 1);
                                        owned_from(split, &g, eight, c, d, owner, start, &mut front)
                                    }
                                };
                                let how = format!(
                                    "{w}x{h} {pct}% {moves:?} masks={with_con} wide={wide} \
                                     threads={threads} bands={bands} stop={stop}"
                                );
                                assert_eq!(last, most, "{how}: the last layer");
                                for k in 0..w * h {
                                    let (x, y) = (k % w, k / w);
                                    let code = want.owner_code(x, y);
                                    assert_eq!(owner[k], code, "{how}: owner of ({x}, {y})");
                                    let depth = want.depth[k].unwrap_or(UNREACHED);
                                    assert_eq!(dist[k], depth, "{how}: distance of ({x}, {y})");
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
