//! Using every core: the thread count, and the work that runs on several threads.
//!
//! With the feature `parallel` (rayon), the crate spreads four kinds of work over the
//! threads of the current rayon pool, with results identical to one thread, bit for bit:
//!
//! - **Labelling large grids** ([`crate::algo::label`], from [`LABEL_MIN_CELLS`] cells): row
//!   stripes, joined across their borders and renumbered to the one-thread order; value
//!   images ([`ValueLabeller`](crate::algo::label::ValueLabeller), `measure.label`) the
//!   same way, a band of rows a thread.
//! - **Distance maps and Voronoi owners of large grids** (the word-frontier BFS of
//!   [`distance_map`](crate::algo::distance::distance_map) and
//!   [`voronoi_owners`](crate::algo::voronoi::voronoi_owners)): a second thread writes the
//!   distances or owners of each layer while the first runs the BFS. With three threads or
//!   more, a distance map's BFS goes on in row bands, four a thread, once a layer's
//!   frontier has 1024 words: each band expands its rows' frontier and writes their
//!   distances, hands the words it pushed across its edges to the bands beside, and each
//!   thread waits at one barrier per layer; the bands hand back to one thread once their
//!   loss against their summed work would have paid for a restart (threads waiting for a
//!   core). Large distance maps and owner arrays are filled by every thread of such a pool.
//! - **Flood fill of large grids** ([`fill`](crate::algo::fill::fill), from
//!   [`FILL_MIN_CELLS`] cells, where the row sweeps hand over to the run union-find): the
//!   union-find by row stripes.
//! - **Batches of small boards**: [`simulate_many`](crate::games::puyo::simulate_many),
//!   [`components_many`](crate::algo::components::components_many),
//!   [`evaluate_many`](crate::games::amazons::evaluate_many).
//!
//! Without the feature every function here exists with the same signature and runs on the
//! calling thread.
//!
//! A batch call from outside the pool (a batch of games stepped from Python) runs on the
//! calling thread with the pool's threads helping; after a short one (under 0.5 ms) its
//! helpers stay awake, spinning, for up to 0.2 ms or until the next such call, so that a
//! loop of small calls finds them awake (OpenMP runtimes spin the same way, longer). Where
//! every core runs a process of its own, a one-thread [`Pool`] runs no other thread.
//!
//! The number of threads is rayon's (one per core, or `RAYON_NUM_THREADS`); the first large
//! call outside any pool builds rayon's global pool, so configure it first if you want to.
//! [`with_threads`] runs a closure on a pool of its own with a given number of threads:
//!
//! ```
//! use gridbits::parallel::{current_threads, with_threads};
//! let n = with_threads(1, current_threads).unwrap();
//! assert_eq!(n, 1);
//! ```

use std::fmt;

/// Grids of at least this many cells (1 Mpx, `2^20`) are labelled in stripes on several
/// threads, when the feature `parallel` is on and the current pool has more than one
/// thread. Smaller grids are labelled on the calling thread: below it the stripes would
/// cost more than they save.
pub const LABEL_MIN_CELLS: usize = 1 << 20;

/// Grids of at least this many cells (4 Mpx, `2^22`) whose flood fill hands over from the
/// row sweeps to the run union-find (mazes) run the union-find by stripes on several
/// threads, when the feature `parallel` is on and the current pool has more than one thread.
/// Measured on two cores (`gridbits-bench --filter fill`): on a 1024x1024 maze the stripes
/// took 1.4x the one-thread union-find (the stripe merge and the thread start cost more than
/// half of 1 ms of work saves), on a 4096x4096 maze 0.9x of it.
pub const FILL_MIN_CELLS: usize = 1 << 22;

/// The thread pool could not be built (the system refused a thread).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolError {
    message: String,
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot start the thread pool: {}", self.message)
    }
}

impl std::error::Error for PoolError {}

/// Runs `f` with `threads` threads for every parallel function it calls (`0`: one per
/// core), on a thread pool built for the call, and returns its result. Without the feature
/// `parallel` it runs `f` on the calling thread. To run many calls on one pool, build a
/// [`Pool`] once.
///
/// # Errors
///
/// When the pool cannot be built (the system refuses a thread).
///
/// ```
/// use gridbits::algo::label::count;
/// use gridbits::parallel::with_threads;
/// use gridbits::{BitGrid, Connectivity};
/// let g = BitGrid::from_fn(1024, 1024, |x, y| (x ^ y) % 3 == 0).unwrap();
/// let one = with_threads(1, || count(&g, Connectivity::Four)).unwrap().unwrap();
/// let two = with_threads(2, || count(&g, Connectivity::Four)).unwrap().unwrap();
/// assert_eq!(one, two);
/// ```
pub fn with_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> Result<R, PoolError> {
    Ok(Pool::try_new(threads)?.install(f))
}

/// A pool of threads of its own, kept to run many calls with one thread count (see
/// [`with_threads`] for one call). Without the feature `parallel` it holds no thread and
/// [`install`](Self::install) runs on the calling thread.
///
/// ```
/// use gridbits::parallel::{current_threads, Pool};
/// let pool = Pool::try_new(2).unwrap();
/// let n = pool.install(current_threads);
/// assert_eq!(n, if cfg!(feature = "parallel") { 2 } else { 1 });
/// ```
///
/// [`install`](Self::install) runs its closure on the calling thread, unless that is a
/// thread of another rayon pool: the crate's parallel functions called in it hand their
/// work to the pool's threads (the calling thread taking its share where it can), and its
/// small calls run without waking a thread at all. A pool of one thread holds no thread:
/// every parallel function runs serially in its `install` ([`current_threads`] is 1
/// there). Rayon's own `install` would hand each call to a thread of the pool and put the
/// caller to sleep until it ends: a wake-up of tens of microseconds a call on each side
/// (docs/benchmarks.md), more than a small call's work.
#[derive(Debug)]
pub struct Pool {
    /// The threads; `None`: one thread, the caller's.
    #[cfg(feature = "parallel")]
    pool: Option<std::sync::Arc<rayon::ThreadPool>>,
}

/// The pool a thread's parallel work goes to, as [`Pool::install`] set it.
#[cfg(feature = "parallel")]
#[derive(Clone, Default)]
enum Here {
    /// Rayon's current pool: the pool of this thread when it is one of its workers, the
    /// global pool otherwise.
    #[default]
    Rayon,
    /// No other thread: inside a one-thread [`Pool`].
    One,
    /// A [`Pool`] of several threads installed on this thread, outside rayon.
    Pool(std::sync::Arc<rayon::ThreadPool>),
}

#[cfg(feature = "parallel")]
thread_local! {
    /// This thread's [`Here`].
    static HERE: std::cell::RefCell<Here> = const { std::cell::RefCell::new(Here::Rayon) };
}

/// Runs `f` with `here` as this thread's [`Here`] (put back when `f` returns or unwinds).
#[cfg(feature = "parallel")]
fn with_here<R>(here: Here, f: impl FnOnce() -> R) -> R {
    /// Puts the setting back as it was.
    struct Restore(Here);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = std::mem::take(&mut self.0);
            HERE.with(|h| *h.borrow_mut() = before);
        }
    }
    let _restore = Restore(HERE.with(|h| h.replace(here)));
    f()
}

/// The pool installed on this thread from outside rayon ([`Here::Pool`]), if any.
#[cfg(feature = "parallel")]
fn own_pool() -> Option<std::sync::Arc<rayon::ThreadPool>> {
    HERE.with(|h| match &*h.borrow() {
        Here::Pool(p) => Some(p.clone()),
        _ => None,
    })
}

/// Runs `f` where rayon's parallel functions (`join`, `scope`, parallel iterators) use the
/// current pool: on a thread of the [`Pool`] installed on this thread from outside rayon (a
/// hand-over: for calls on large grids), here otherwise.
#[cfg(feature = "parallel")]
pub(crate) fn in_current_pool<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    release_kept_awake();
    match own_pool() {
        Some(p) => p.install(f),
        None => f(),
    }
}

impl Pool {
    /// A pool of `threads` threads (`0`: one per core, or `RAYON_NUM_THREADS`; `1`: the
    /// calling thread).
    ///
    /// # Errors
    ///
    /// When the system refuses a thread.
    pub fn try_new(threads: usize) -> Result<Self, PoolError> {
        #[cfg(feature = "parallel")]
        {
            if threads == 1 {
                return Ok(Pool { pool: None });
            }
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| PoolError {
                    message: e.to_string(),
                })?;
            Ok(Pool {
                pool: Some(std::sync::Arc::new(pool)),
            })
        }
        #[cfg(not(feature = "parallel"))]
        {
            let _ = threads;
            Ok(Pool {})
        }
    }

    /// The number of threads of the pool (1 without the feature `parallel`).
    pub fn threads(&self) -> usize {
        #[cfg(feature = "parallel")]
        {
            self.pool.as_ref().map_or(1, |p| p.current_num_threads())
        }
        #[cfg(not(feature = "parallel"))]
        {
            1
        }
    }

    /// Runs `f` with the pool's thread count: every parallel function of this crate it
    /// calls uses the pool's threads ([`current_threads`] is the pool's). `f` runs on the
    /// calling thread unless that is a thread of another rayon pool (then on one of this
    /// pool's, as rayon's `install`): rayon calls of your own in `f` then run on rayon's
    /// current pool, the global one; give them a rayon pool of their own.
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        #[cfg(feature = "parallel")]
        {
            match &self.pool {
                None => with_here(Here::One, f),
                Some(pool) if rayon::current_thread_index().is_none() => {
                    with_here(Here::Pool(pool.clone()), f)
                }
                Some(pool) => pool.install(f),
            }
        }
        #[cfg(not(feature = "parallel"))]
        {
            f()
        }
    }
}

/// The number of threads parallel work uses here: the current rayon pool's (the global
/// pool's outside [`with_threads`]) or the [`Pool`]'s installed on this thread (1 for a
/// one-thread pool); always 1 without the feature `parallel`.
pub fn current_threads() -> usize {
    #[cfg(feature = "parallel")]
    {
        HERE.with(|h| match &*h.borrow() {
            Here::Rayon => rayon::current_num_threads(),
            Here::One => 1,
            Here::Pool(p) => p.current_num_threads(),
        })
    }
    #[cfg(not(feature = "parallel"))]
    {
        1
    }
}

/// Runs `a` here and `b` beside it: as a rayon task when this is a thread of the pool, on a
/// thread of its own otherwise: called from outside the pool, a rayon task often waits for a
/// sleeping worker longer than the task takes (docs/benchmarks.md). If the system refuses
/// the thread, this one runs both. With one thread ([`current_threads`]), `a` then `b` here.
#[cfg(feature = "parallel")]
pub(crate) fn halves<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if current_threads() < 2 {
        return (a(), b());
    }
    release_kept_awake();
    if rayon::current_thread_index().is_some() {
        return rayon::join(a, b);
    }
    // Taken by whichever thread runs it: the spawned one, or this one if the spawn fails.
    let b = std::sync::Mutex::new(Some(b));
    let run_b = || {
        let b = b.lock().unwrap_or_else(|e| e.into_inner()).take();
        b.map(|b| b())
    };
    std::thread::scope(|scope| {
        let second = std::thread::Builder::new().spawn_scoped(scope, run_b);
        let first = a();
        let second = match second {
            Ok(t) => t
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => run_b(),
        };
        (first, second.expect("the second half runs once"))
    })
}

/// Without the feature `parallel`: `a`, then `b`, on this thread.
#[cfg(not(feature = "parallel"))]
pub(crate) fn halves<A, B>(a: impl FnOnce() -> A, b: impl FnOnce() -> B) -> (A, B) {
    (a(), b())
}

/// Runs `f` on every item of `items` (in no particular order), on this thread and on the
/// other threads of the current pool (the pool this runs in, else rayon's global pool): each
/// takes the next item under a lock when it is done with its last. The calling thread works
/// from the first item on, where a parallel iterator called from outside the pool would hand
/// the whole loop to the pool's workers and sleep until they end; a worker that wakes late
/// or is preempted takes fewer items instead of holding a share of them. For loops of a few
/// dozen items of tens of microseconds each (the batched environments' 64-game chunks).
/// Without the feature `parallel`, or with one thread, a plain loop here.
pub(crate) fn share<I>(items: I, f: impl Fn(I::Item) + Sync)
where
    I: Iterator + Send,
    I::Item: Send,
{
    #[cfg(feature = "parallel")]
    {
        use std::sync::{Mutex, PoisonError};
        let helpers = helpers_for(&items);
        if helpers > 0 {
            let queue = Mutex::new(items);
            on_threads(helpers, || loop {
                // The lock is held only to take an item (the guard is a temporary).
                let item = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
                match item {
                    Some(item) => f(item),
                    None => break,
                }
            });
            return;
        }
    }
    items.for_each(f);
}

/// [`share`] in two passes with one hand-over to the other threads: `check(&item)` on
/// every item, then, once every check has returned and if `go()` then holds, `f(item)` on
/// every item; returns whether the second pass ran. A thread done with the checks waits for
/// the checks the others are running (awake up to `AWAKE_WAIT`, then asleep). Where a
/// batch is checked whole before any of it is played (the environments' action check),
/// this saves the second wake-up of the helpers and the wait for the last of them at the end
/// of the first pass: one helper woken late still finds work in the second. The items are
/// kept between the passes (one vector of them a call). A panic in a check ends both passes
/// on every thread and is passed on.
pub(crate) fn share_checked<I>(
    items: I,
    check: impl Fn(&I::Item) + Sync,
    go: impl Fn() -> bool + Sync,
    f: impl Fn(I::Item) + Sync,
) -> bool
where
    I: Iterator + Send,
    I::Item: Send,
{
    #[cfg(feature = "parallel")]
    {
        use std::sync::{Condvar, Mutex, PoisonError};
        /// The items not yet checked (and whether they ran out), the number being checked,
        /// the checked ones, and whether a check panicked.
        struct Queue<I: Iterator> {
            items: I,
            out: bool,
            checking: usize,
            checked: Vec<I::Item>,
            aborted: bool,
        }
        /// The queue and the signal of its checks' end (every item taken and checked, or
        /// a check unwound), for the threads that wait past their spin.
        struct Shared<Q> {
            queue: Mutex<Q>,
            ended: Condvar,
        }
        /// Counts a check as ended when it unwinds (and ends the passes).
        struct Unwinding<'a, Q>(&'a Shared<Q>, fn(&mut Q));
        impl<Q> Drop for Unwinding<'_, Q> {
            fn drop(&mut self) {
                (self.1)(&mut self.0.queue.lock().unwrap_or_else(PoisonError::into_inner));
                self.0.ended.notify_all();
            }
        }
        let helpers = helpers_for(&items);
        if helpers > 0 {
            let checked = Vec::with_capacity(items.size_hint().0);
            let shared = Shared {
                queue: Mutex::new(Queue {
                    items,
                    out: false,
                    checking: 0,
                    checked,
                    aborted: false,
                }),
                ended: Condvar::new(),
            };
            let lock = || shared.queue.lock().unwrap_or_else(PoisonError::into_inner);
            on_threads(helpers, || {
                loop {
                    let item = {
                        let mut q = lock();
                        let item = q.items.next();
                        q.checking += usize::from(item.is_some());
                        q.out |= item.is_none();
                        item
                    };
                    let Some(item) = item else { break };
                    let unwinding = Unwinding(&shared, |q: &mut Queue<I>| {
                        q.checking -= 1;
                        q.aborted = true;
                    });
                    check(&item);
                    std::mem::forget(unwinding);
                    let mut q = lock();
                    q.checking -= 1;
                    q.checked.push(item);
                    let last = q.checking == 0 && q.out;
                    drop(q);
                    if last {
                        shared.ended.notify_all();
                    }
                }
                // Every item is taken: wait for the checks still running elsewhere, awake
                // for a while (a chunk's check takes under a microsecond), then asleep: a
                // check whose thread was preempted by another process can take a time
                // slice, and a sleeping thread frees its core for it.
                let start = std::time::Instant::now();
                let mut q = lock();
                while !q.aborted && q.checking > 0 {
                    if start.elapsed() < AWAKE_WAIT {
                        drop(q);
                        std::hint::spin_loop();
                        q = lock();
                    } else {
                        q = shared.ended.wait(q).unwrap_or_else(PoisonError::into_inner);
                    }
                }
                let aborted = q.aborted;
                drop(q);
                if aborted {
                    return;
                }
                if !go() {
                    return;
                }
                loop {
                    let item = lock().checked.pop();
                    match item {
                        Some(item) => f(item),
                        None => break,
                    }
                }
            });
            return go();
        }
    }
    let items: Vec<I::Item> = items.collect();
    items.iter().for_each(&check);
    let go = go();
    if go {
        items.into_iter().for_each(f);
    }
    go
}

/// The helpers [`share`] hands `items` to: one less than the threads (the calling thread is
/// one), none past the items.
#[cfg(feature = "parallel")]
fn helpers_for<I: Iterator>(items: &I) -> usize {
    current_threads()
        .min(items.size_hint().1.unwrap_or(usize::MAX))
        .saturating_sub(1)
}

/// Runs `work` on this thread and on `helpers` tasks spawned into the current pool, and
/// returns when every one has returned (a panic in one is passed on). When this thread is
/// done while helpers are still at work (their last item: microseconds), it waits for them
/// awake, up to [`AWAKE_WAIT`], rather than asleep in the scope: a thread put to sleep takes
/// tens of microseconds to wake, longer on a virtual machine whose idle core has halted
/// (docs/benchmarks.md, "drop4").
#[cfg(feature = "parallel")]
fn on_threads(helpers: usize, work: impl Fn() + Sync) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    /// Counts a helper out when its work returns or unwinds.
    struct Out<'a>(&'a AtomicUsize);
    impl Drop for Out<'_> {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::Release);
        }
    }
    /// The scope's body: the helpers spawned, this thread's share, the wait.
    fn body<'s>(
        scope: &rayon::Scope<'s>,
        helpers: usize,
        working: &'s AtomicUsize,
        work: &'s (impl Fn() + Sync),
    ) {
        for _ in 0..helpers {
            scope.spawn(move |_| {
                working.fetch_add(1, Ordering::AcqRel);
                let _out = Out(working);
                work();
            });
        }
        work();
        // A helper not started yet (still waking) finds no work left: the scope waits for it.
        let start = std::time::Instant::now();
        let mut spins = 0u32;
        while working.load(Ordering::Acquire) > 0 {
            std::hint::spin_loop();
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(64) && start.elapsed() > AWAKE_WAIT {
                break;
            }
        }
    }
    // The helpers that started and have not returned.
    let working = AtomicUsize::new(0);
    // The helpers kept awake after the last call stop spinning.
    let call = CALLS.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
    // The helpers go to the current pool: the one installed on this thread, else rayon's.
    let pool = own_pool();
    let start = std::time::Instant::now();
    match &pool {
        Some(p) => p.in_place_scope(|scope| body(scope, helpers, &working, &work)),
        None => rayon::in_place_scope(|scope| body(scope, helpers, &working, &work)),
    }
    if rayon::current_thread_index().is_none() && start.elapsed() < SHORT_CALL {
        keep_awake(pool.as_deref(), helpers, call);
    }
}

/// The calls after which [`keep_awake`] keeps the helpers awake: those shorter than this,
/// where a helper's wake-up (tens of microseconds) is a large part of the next such call. A
/// longer call loses a few percent at most to it, less than a spinning helper can take from
/// a busy machine.
#[cfg(feature = "parallel")]
const SHORT_CALL: std::time::Duration = std::time::Duration::from_micros(500);

/// How long the helpers of a short call ([`SHORT_CALL`]) from outside the pool
/// ([`on_threads`]) stay awake after it, spinning, for the next call: a loop that steps a
/// batch of games and chooses the next actions between steps (tens of microseconds) then
/// finds them awake. Woken from sleep, a helper joins a call tens of microseconds late, on
/// a virtual machine often after the call has ended (docs/benchmarks.md, "Nineteenth
/// session"). It is the rule of OpenMP runtimes' spin before blocking (200 ms by default
/// there), kept short: a helper spins at most this long a call, and only where the call had
/// helpers (`gridbits.threads(1)` and one-thread pools have none).
#[cfg(feature = "parallel")]
const KEEP_AWAKE: std::time::Duration = std::time::Duration::from_micros(200);

/// Calls of [`on_threads`] so far, and of the other parallel functions: a helper kept awake
/// stops when it changes.
#[cfg(feature = "parallel")]
static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Ends the spin of the helpers kept awake ([`keep_awake`]): called before parallel work
/// that is not [`on_threads`]' (rayon's `join` and parallel iterators), which would
/// otherwise wait for those threads.
#[cfg(feature = "parallel")]
fn release_kept_awake() {
    CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// Occupies `helpers` threads of `pool` (else rayon's current pool) for up to
/// [`KEEP_AWAKE`] or until the next call after call `call` of [`on_threads`] starts. The
/// tasks own nothing of the call: they read only [`CALLS`] and the clock.
#[cfg(feature = "parallel")]
fn keep_awake(pool: Option<&rayon::ThreadPool>, helpers: usize, call: usize) {
    use std::sync::atomic::Ordering;
    let spin = move || {
        let start = std::time::Instant::now();
        let mut spins = 0u32;
        while CALLS.load(Ordering::Relaxed) == call {
            std::hint::spin_loop();
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(64) && start.elapsed() > KEEP_AWAKE {
                break;
            }
        }
    };
    for _ in 0..helpers {
        match pool {
            Some(p) => p.spawn(spin),
            None => rayon::spawn(spin),
        }
    }
}

/// How long a thread done with its items waits awake for the others ([`on_threads`]' end,
/// [`share_checked`]'s checks) before it sleeps until they end: a little more than the
/// environments' chunk (64 games, about 18 us), the most a thread that is running can still
/// have to do when the items run out. Longer would hold the core from a helper that another
/// process has preempted, which the sleeping thread's idle core takes over.
#[cfg(feature = "parallel")]
const AWAKE_WAIT: std::time::Duration = std::time::Duration::from_micros(50);

/// Items per task of the batch functions: small boards take well under a microsecond
/// each, so tasks take many.
const BATCH_MIN_LEN: usize = 64;

/// `items.map(f)` in order, on all threads with the feature `parallel` (and more than one).
pub(crate) fn map_slice<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(&T) -> R + Sync + Send,
) -> Vec<R> {
    #[cfg(feature = "parallel")]
    if current_threads() >= 2 {
        use rayon::prelude::*;
        return in_current_pool(|| {
            items
                .par_iter()
                .with_min_len(BATCH_MIN_LEN)
                .map(f)
                .collect()
        });
    }
    let _ = BATCH_MIN_LEN;
    items.iter().map(f).collect()
}

/// `f(item, slot)` for every item of `items` and the slot of `out` at its index (`out` as
/// long as `items`), on all threads with the feature `parallel`: a batch that writes its
/// results in place instead of returning them.
pub(crate) fn fill_slice<T: Sync, R: Send>(
    items: &[T],
    out: &mut [R],
    f: impl Fn(&T, &mut R) + Sync + Send,
) {
    debug_assert_eq!(items.len(), out.len());
    #[cfg(feature = "parallel")]
    if current_threads() >= 2 {
        use rayon::prelude::*;
        in_current_pool(|| {
            items
                .par_iter()
                .zip(out.par_iter_mut())
                .with_min_len(BATCH_MIN_LEN)
                .for_each(|(t, r)| f(t, r));
        });
        return;
    }
    items.iter().zip(out.iter_mut()).for_each(|(t, r)| f(t, r));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;

    /// The items `share` ran, sorted, with `threads` threads (`None`: called from outside
    /// any pool), and the number of distinct threads that ran them.
    fn shared(threads: Option<usize>, n: usize) -> (Vec<usize>, usize) {
        shared_in(threads, n, false)
    }

    /// As `shared`, through [`share`] (`checked` false) or [`share_checked`] (`checked`
    /// true: every item checked before any is run, which the run asserts).
    fn shared_in(threads: Option<usize>, n: usize, checked: bool) -> (Vec<usize>, usize) {
        let run = || {
            let seen = Mutex::new(Vec::new());
            let checks = Mutex::new(Vec::new());
            let f = |i: usize| {
                // Long enough for a second thread to join.
                let spin = (0..2000u64).fold(i as u64, |a, b| a.wrapping_mul(31) ^ b);
                std::hint::black_box(spin);
                if checked {
                    assert_eq!(checks.lock().unwrap().len(), n, "run before every check");
                }
                seen.lock().unwrap().push((i, std::thread::current().id()));
            };
            if checked {
                let ran = share_checked(0..n, |&i| checks.lock().unwrap().push(i), || true, f);
                assert!(ran);
                let mut c = checks.into_inner().unwrap();
                c.sort();
                assert_eq!(c, (0..n).collect::<Vec<_>>(), "checks");
            } else {
                share(0..n, f);
            }
            let mut seen = seen.into_inner().unwrap();
            let mut ids: Vec<_> = seen.iter().map(|s| format!("{:?}", s.1)).collect();
            ids.sort();
            ids.dedup();
            seen.sort_by_key(|s| s.0);
            (seen.into_iter().map(|s| s.0).collect(), ids.len())
        };
        match threads {
            Some(t) => with_threads(t, run).unwrap(),
            None => run(),
        }
    }

    #[test]
    fn share_checked_checks_every_item_then_runs_each_once() {
        for threads in [None, Some(1), Some(2), Some(3), Some(5)] {
            for n in [0, 1, 2, 3, 64, 1000] {
                let (items, ran_on) = shared_in(threads, n, true);
                assert_eq!(
                    items,
                    (0..n).collect::<Vec<_>>(),
                    "{threads:?} threads, {n} items"
                );
                assert!(ran_on <= threads.unwrap_or_else(current_threads).max(1).min(n.max(1)));
            }
        }
    }

    #[test]
    fn share_checked_runs_nothing_when_told_not_to() {
        for threads in [1, 2, 3] {
            let checks = AtomicUsize::new(0);
            let runs = AtomicUsize::new(0);
            let ran = with_threads(threads, || {
                share_checked(
                    0..100,
                    |_| {
                        checks.fetch_add(1, Ordering::Relaxed);
                    },
                    || checks.load(Ordering::Relaxed) < 100,
                    |_| {
                        runs.fetch_add(1, Ordering::Relaxed);
                    },
                )
            })
            .unwrap();
            assert!(!ran);
            assert_eq!(checks.into_inner(), 100);
            assert_eq!(runs.into_inner(), 0);
        }
    }

    #[test]
    fn share_checked_passes_a_panic_on() {
        for threads in [1, 2, 3] {
            let runs = AtomicUsize::new(0);
            let caught = std::panic::catch_unwind(|| {
                with_threads(threads, || {
                    share_checked(
                        0..100,
                        |&i| assert!(i != 57, "item 57"),
                        || true,
                        |_| {
                            runs.fetch_add(1, Ordering::Relaxed);
                        },
                    )
                })
                .unwrap()
            });
            assert!(caught.is_err());
            assert_eq!(runs.into_inner(), 0, "{threads} threads");
        }
    }

    #[test]
    fn share_runs_every_item_once() {
        for threads in [None, Some(1), Some(2), Some(5)] {
            for n in [0, 1, 2, 3, 64, 1000] {
                let (items, ran_on) = shared(threads, n);
                assert_eq!(
                    items,
                    (0..n).collect::<Vec<_>>(),
                    "{threads:?} threads, {n} items"
                );
                assert!(ran_on <= threads.unwrap_or_else(current_threads).max(1).min(n.max(1)));
                if threads == Some(1) {
                    assert!(ran_on <= 1);
                }
            }
        }
    }

    #[test]
    fn share_passes_a_panic_on() {
        let caught = std::panic::catch_unwind(|| {
            with_threads(2, || share(0..100, |i| assert!(i != 57, "item 57"))).unwrap()
        });
        assert!(caught.is_err());
    }

    /// A one-thread pool runs its calls on the calling thread, where every parallel
    /// function sees one thread, and puts the count back when the call returns or unwinds.
    /// So does a pool of several threads, whose threads help.
    #[test]
    fn pools_run_their_calls_on_the_calling_thread() {
        let pool = Pool::try_new(1).unwrap();
        assert_eq!(pool.threads(), 1);
        let here = std::thread::current().id();
        let outside = current_threads();
        let (on, threads, halves_on) = pool.install(|| {
            let (a, b) = halves(
                || std::thread::current().id(),
                || std::thread::current().id(),
            );
            (std::thread::current().id(), current_threads(), [a, b])
        });
        assert_eq!((on, threads, halves_on), (here, 1, [here, here]));
        assert_eq!(current_threads(), outside);
        let ran = Mutex::new(Vec::new());
        pool.install(|| {
            share(0..200, |i| {
                ran.lock().unwrap().push((i, std::thread::current().id()))
            })
        });
        let ran = ran.into_inner().unwrap();
        assert_eq!(ran.len(), 200);
        assert!(ran
            .iter()
            .enumerate()
            .all(|(k, &(i, t))| i == k && t == here));
        let squares = pool.install(|| map_slice(&(0..300).collect::<Vec<u32>>(), |&x| x * x));
        assert_eq!(squares, (0..300).map(|x| x * x).collect::<Vec<u32>>());
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.install(|| panic!("inside"))
        }));
        assert!(caught.is_err());
        assert_eq!(current_threads(), outside);
        // A pool of several threads runs its calls on the calling thread too (outside
        // rayon), with its own count, its helpers from its threads; calls nest.
        if cfg!(feature = "parallel") {
            let two = Pool::try_new(2).unwrap();
            assert_eq!(pool.install(|| two.install(current_threads)), 2);
            let (on, n, inner, after) = two.install(|| {
                let inner = pool.install(current_threads);
                (
                    std::thread::current().id(),
                    current_threads(),
                    inner,
                    current_threads(),
                )
            });
            assert_eq!((on, n, inner, after), (here, 2, 1, 2));
            let threads = Mutex::new(std::collections::HashSet::new());
            two.install(|| {
                share(0..64, |_| {
                    threads.lock().unwrap().insert(std::thread::current().id());
                    std::thread::sleep(std::time::Duration::from_micros(200));
                })
            });
            assert!(threads.into_inner().unwrap().len() <= 2);
            let squares = two.install(|| map_slice(&(0..300).collect::<Vec<u32>>(), |&x| x * x));
            assert_eq!(squares, (0..300).map(|x| x * x).collect::<Vec<u32>>());
        }
    }
}
