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

mod share;

#[cfg(feature = "parallel")]
use share::release_kept_awake;
pub(crate) use share::{share, share_checked};
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
    use std::sync::Mutex;

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
