//! Sharing a loop between the calling thread and the pool's other threads ([`share`],
//! [`share_checked`]), and keeping those helpers awake between short calls.
//!
//! The calling thread works from the first item on; helpers spawned into the current pool
//! ([`super::current_threads`], [`super::Pool`]) join it as they wake and take the next item
//! each. After a short call from outside the pool its helpers spin for the next one
//! (`KEEP_AWAKE`); rayon's `join` and parallel iterators end the spin first
//! (`release_kept_awake`).

#[cfg(feature = "parallel")]
use super::{current_threads, own_pool};

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
pub(super) fn release_kept_awake() {
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

#[cfg(test)]
mod tests {
    use super::super::{current_threads, with_threads};
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
}
