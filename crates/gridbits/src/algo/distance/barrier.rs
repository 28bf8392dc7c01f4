//! The barrier of the row bands (`bands/`): a *dissemination* barrier that also ORs a
//! word of flags from every thread.
//!
//! A central barrier (one counter every thread increments, one generation word every
//! thread watches) costs a cache-line transfer per thread in a row: on a 16-core machine
//! (docs/benchmarks.md) about 4 to 5 us per barrier with 16 threads, against the 1 to 10 us
//! of work a band does in a layer. Here, in round `r` of `ceil(log2(n))` rounds, thread `i`
//! signals thread `i + 2^r (mod n)` on a flag of its own and waits for the signal of thread
//! `i - 2^r`: after the last round every thread has heard, through a chain of signals, from
//! every other one, with `log2(n)` transfers in a row instead of `n`. Each signal carries
//! the OR of the flags its sender has heard of so far, so every thread leaves the barrier
//! with the OR of all threads' flags (an OR counts a flag heard twice once, which the
//! rounds of a thread count that is not a power of two do).
//!
//! Each flag is written by one thread only and holds `episode << FLAG_BITS | flags`. A
//! thread can be at most one episode ahead of any other (it cannot leave episode `e + 1`
//! before every thread has arrived at it, which each does after leaving `e`), so two sets
//! of flags, by episode parity, keep a flag from being overwritten before it is read.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Low bits of a signal that carry flags; the rest is the episode.
pub(super) const FLAG_BITS: u32 = 8;

/// Spins at a barrier before yielding the core to the system on each further check.
const SPINS: u32 = 2000;

/// A flag on a cache line of its own (two: the adjacent-line prefetcher).
#[repr(align(128))]
#[derive(Default)]
struct Flag(AtomicU64);

/// A barrier for a fixed number of threads, each with its index; any thread may abort it (a
/// band that panicked), which releases every waiter for good.
pub(super) struct Barrier {
    threads: usize,
    rounds: usize,
    /// `flags[(parity * rounds + round) * threads + thread]`: the signal to `thread`.
    flags: Vec<Flag>,
    abort: AtomicBool,
}

impl Barrier {
    pub(super) fn new(threads: usize) -> Self {
        let rounds = threads.max(1).next_power_of_two().trailing_zeros() as usize;
        Barrier {
            threads,
            rounds,
            flags: (0..2 * rounds * threads).map(|_| Flag::default()).collect(),
            abort: AtomicBool::new(false),
        }
    }

    /// Thread `me`'s arrival at its next episode (`episode` counts them, from 0, one counter
    /// per thread) with `flags` (below `1 << FLAG_BITS`): waits until every thread has
    /// arrived at it and returns the OR of every thread's flags; `None` once the barrier is
    /// aborted. Every write a thread made before its arrival is seen by every thread after
    /// the barrier.
    pub(super) fn wait(&self, me: usize, episode: &mut u64, flags: u64) -> Option<u64> {
        debug_assert!(me < self.threads && flags < 1 << FLAG_BITS);
        *episode += 1;
        let e = *episode;
        let set = (e % 2) as usize * self.rounds;
        let mut heard = flags;
        for r in 0..self.rounds {
            let to = (me + (1 << r)) % self.threads;
            let row = (set + r) * self.threads;
            // Release: this thread's writes, and all it has heard of, go with the signal.
            self.flags[row + to]
                .0
                .store(e << FLAG_BITS | heard, Ordering::Release);
            let mine = &self.flags[row + me].0;
            let mut spins = 0;
            let signal = loop {
                let signal = mine.load(Ordering::Acquire);
                if signal >> FLAG_BITS >= e {
                    break signal;
                }
                if self.abort.load(Ordering::Relaxed) {
                    return None;
                }
                if spins < SPINS {
                    std::hint::spin_loop();
                    spins += 1;
                } else {
                    std::thread::yield_now();
                }
            };
            heard |= signal & ((1 << FLAG_BITS) - 1);
        }
        (!self.abort.load(Ordering::Relaxed)).then_some(heard)
    }

    /// Releases every waiter, now and later.
    pub(super) fn abort(&self) {
        self.abort.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every thread leaves each episode with the OR of every thread's flags of that episode,
    /// and only after every thread has arrived: 1 to 9 threads (powers of two and not), many
    /// episodes, each thread setting a bit of its own in some episodes.
    #[test]
    fn every_thread_hears_every_flag() {
        for threads in 1..=9usize {
            let barrier = Barrier::new(threads);
            let arrived: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
            std::thread::scope(|s| {
                for me in 0..threads {
                    let (barrier, arrived) = (&barrier, &arrived);
                    s.spawn(move || {
                        let mut episode = 0;
                        for round in 0..300u64 {
                            arrived[me].store(round + 1, Ordering::Relaxed);
                            let bit = |t: usize| {
                                u64::from((round + t as u64).is_multiple_of(3)) << (t % 8)
                            };
                            let heard = barrier.wait(me, &mut episode, bit(me));
                            let want = (0..threads).fold(0, |acc, t| acc | bit(t));
                            assert_eq!(heard, Some(want), "{threads} threads, episode {round}");
                            for a in arrived.iter() {
                                assert!(a.load(Ordering::Relaxed) > round, "left before all came");
                            }
                        }
                    });
                }
            });
        }
    }

    /// An aborted barrier releases a waiter whose partners never come.
    #[test]
    fn abort_releases_waiters() {
        let barrier = Barrier::new(3);
        std::thread::scope(|s| {
            let waiter = s.spawn(|| barrier.wait(0, &mut 0, 0));
            std::thread::sleep(std::time::Duration::from_millis(20));
            barrier.abort();
            assert_eq!(waiter.join().ok(), Some(None));
        });
    }
}
