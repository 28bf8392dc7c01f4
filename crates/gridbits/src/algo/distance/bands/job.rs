//! What the bands of a BFS share ([`Shared`]: the barrier, the inboxes, the tallies) and
//! read ([`Job`]), and each band's rows ([`Part`]).

use super::super::barrier::Barrier;
use super::super::frontier::Front;
use super::super::Connections;
use crate::BitGrid;
use std::sync::atomic::{AtomicU32, AtomicU64};
use std::sync::Mutex;

/// Words handed to a band for one of its edge rows: `(word index, bits)`.
pub(super) type Inbox = Mutex<Vec<(usize, u64)>>;

/// What a band counts for the [`WINDOW`](super::WINDOW) check, on cache lines of its own (the counters of
/// 16 bands on one line cost as much as a central barrier).
#[repr(align(128))]
#[derive(Default)]
pub(super) struct Tally {
    /// Nanoseconds spent on layers since the first band last looked.
    pub(super) busy: AtomicU64,
    /// Nanoseconds the band's setup took.
    pub(super) setup: AtomicU64,
}

/// What the bands share: the barrier, each band's [`Tally`], the deepest layer with a cell
/// (each band's, when it stops), and the inboxes: `inbox[band][side][layer % 2]`, side 0
/// for its first row (from the band above), 1 for its last row (from the band below).
/// With owners, `edges[band][side][layer % 2]` likewise for its ghost rows (side 0 the one
/// above): the edge rows' frontier words of the bands beside, and `back` the frontier the
/// bands hand back to one thread when they give up.
///
/// Words handed over may all be visited already (the ghost rows' open cells go stale): the
/// bands then run one layer without cells before they stop, so the last layer is the
/// deepest one that had a cell, not the one they stop at.
pub(super) struct Shared {
    pub(super) barrier: Barrier,
    pub(super) tally: Vec<Tally>,
    pub(super) deepest: AtomicU32,
    pub(super) inbox: Vec<[[Inbox; 2]; 2]>,
    pub(super) edges: Vec<[[Inbox; 2]; 2]>,
    pub(super) back: Mutex<Front>,
}

/// The owners of a BFS in bands: the owner array, shared by the bands ([`shared_cells`](super::super::cells::shared_cells)),
/// and the frontier they start from.
#[derive(Clone, Copy)]
pub(super) struct Owned<'a> {
    pub(super) owner: &'a [AtomicU32],
    pub(super) front: &'a Front,
}

/// Takes the lock of an inbox, whether or not another band panicked holding it (the
/// barrier is aborted then, and no result is used).
pub(super) fn lock(inbox: &Inbox) -> std::sync::MutexGuard<'_, Vec<(usize, u64)>> {
    inbox
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// [`lock`] of the frontier handed back.
pub(super) fn lock_front(back: &Mutex<Front>) -> std::sync::MutexGuard<'_, Front> {
    back.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Band `b`: rows `top..top + rows`, and their distances.
pub(super) struct Part<'a> {
    pub(super) b: usize,
    pub(super) top: usize,
    pub(super) rows: usize,
    pub(super) dist: &'a mut [u32],
}

/// The inputs every band reads.
pub(super) struct Job<'a> {
    pub(super) bands: usize,
    pub(super) stop_after: u32,
    pub(super) start: u32,
    pub(super) passable: &'a BitGrid,
    pub(super) con: Option<&'a Connections<BitGrid>>,
    pub(super) eight: bool,
    pub(super) prefetch: bool,
    pub(super) owned: Option<Owned<'a>>,
    pub(super) shared: &'a Shared,
}
