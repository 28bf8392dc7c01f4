//! The second thread of a large word-frontier BFS ([`frontier`](super::frontier)): the BFS
//! thread finds each layer's frontier words and hands them over in chunks; this thread
//! writes their distances (when a distance map is wanted) and, with owners (many-player
//! Voronoi), each cell's owner.
//!
//! The BFS itself needs neither array: the bits of the units say what is visited. What
//! moves to the other core is the per-cell work: a store per cell into a map far larger than
//! the caches, and with owners a look at each cell's predecessors. The BFS thread still
//! finds, per frontier word, which cells have a predecessor in each direction (a few word
//! operations, [`predecessors`](super::frontier)) and sends those masks along; the writer
//! combines the owners cell by cell ([`own_bits`]). Layers arrive in
//! order, so every owner of the layer before is written when a cell's predecessors are read.

use super::cells::{own_bits, prefetch, prefetch_rows, write_layer};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

/// Grids of at least this many cells (1 Mpx) run a many-player BFS (with owners) with a
/// writer thread when the current pool has two threads or more.
pub(super) const OWNERS_MIN_CELLS: usize = 1 << 20;

/// Grids of at least this many cells (2 Mpx, an 8 MiB map) run a BFS without owners with a
/// writer thread. Below it a cell's write costs about what handing its word over costs, and
/// starting the thread costs what a small region's whole BFS takes (docs/benchmarks.md).
pub(super) const MIN_CELLS: usize = 1 << 21;

/// Words per chunk: 256 KiB (fits the second-level cache). With 64 KiB chunks the two
/// threads handed over four times as often, and about one run in three of a 2000x1500
/// two-player Voronoi took 2.5x as long (the threads waking each other).
const CHUNK: usize = 32768;

/// How many entries ahead the writer prefetches.
const AHEAD: usize = 24;

/// How many words ahead the writer asks for a chunk's lines (4 KiB).
const CHUNK_AHEAD: usize = 512;

/// Chunks queued for the writer at most before the BFS waits for it.
const QUEUED: usize = 8;

/// Whether a BFS of `cells` cells, with or without owners, runs with a writer thread: on
/// large grids, when the pool the caller runs in has a second thread.
pub(super) fn wanted(cells: usize, owners: bool) -> bool {
    let min = if owners { OWNERS_MIN_CELLS } else { MIN_CELLS };
    cells >= min && crate::parallel::current_threads() >= 2
}

/// The BFS thread's end: collects entries and hands full chunks to the writer. An entry is
/// `[layer, 0]` where a layer after the first begins (the writer starts in layer 0), or a
/// frontier word `[first cell, bits]` (bits non-zero: a word is listed only when it gets
/// bits), followed in layers after the first, with owners, by its predecessor masks (4, or 8
/// with 8-neighbour moves).
pub(super) struct Feed {
    chunk: Vec<u64>,
    to_writer: SyncSender<Vec<u64>>,
    spare: Receiver<Vec<u64>>,
}

impl Feed {
    /// The frontier word at cell `base` with cells `bits` (non-zero).
    #[inline(always)]
    pub(super) fn word(&mut self, base: usize, bits: u64) {
        self.put(&[base as u64, bits]);
    }

    /// [`Feed::word`] with the masks of the cells' predecessors (at most 8).
    #[inline(always)]
    pub(super) fn word_from(&mut self, base: usize, bits: u64, from: &[u64]) {
        let mut entry = [0u64; 10];
        entry[0] = base as u64;
        entry[1] = bits;
        entry[2..2 + from.len()].copy_from_slice(from);
        self.put(&entry[..2 + from.len()]);
    }

    /// The words that follow are of layer `layer`.
    #[inline(always)]
    pub(super) fn layer(&mut self, layer: u32) {
        self.put(&[u64::from(layer), 0]);
    }

    /// Appends an entry (at most 10 words) with streaming stores where the CPU has them,
    /// then hands the chunk over once it holds [`CHUNK`] words.
    ///
    /// Streaming: a chunk's lines were last in the writer's cache (it read them, and chunks
    /// are reused), so a plain store waits for each line to be taken back from the other
    /// core; at a few cells per frontier word that makes the BFS thread slower than the
    /// whole BFS on one thread.
    #[inline(always)]
    fn put(&mut self, entry: &[u64]) {
        let len = self.chunk.len();
        // The chunk's capacity is at least `CHUNK` (`with_writer`, `hand_over`).
        debug_assert!(self.chunk.capacity() >= CHUNK);
        assert!(entry.len() <= 10 && len + entry.len() <= CHUNK);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the words `len..len + entry.len()` lie in the chunk's capacity (checked
        // above against `CHUNK`, which every chunk's capacity reaches); each is written
        // before `set_len` makes it part of the vector; `movnti` is SSE2, part of every
        // x86-64 CPU. `hand_over` and `finish` fence the streaming stores before the chunk
        // moves to the writer, and `Drop` before a chunk left behind by a panic is freed.
        unsafe {
            let at = self.chunk.as_mut_ptr().add(len).cast::<i64>();
            for (i, &word) in entry.iter().enumerate() {
                std::arch::x86_64::_mm_stream_si64(at.add(i), word as i64);
            }
            self.chunk.set_len(len + entry.len());
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.chunk.extend_from_slice(entry);
        self.check();
    }

    /// Hands the chunk over once it holds [`CHUNK`] words (an entry is at most 10).
    #[inline(always)]
    fn check(&mut self) {
        if self.chunk.len() >= CHUNK - 10 {
            self.hand_over();
        }
    }

    /// Sends the chunk (waiting while [`QUEUED`] are queued) and starts a new one, reusing
    /// one the writer has finished where there is one.
    #[cold]
    fn hand_over(&mut self) {
        let mut next = self
            .spare
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(CHUNK));
        // Every chunk `put` writes into holds `CHUNK` words (a no-op for reused ones).
        next.reserve(CHUNK);
        let full = std::mem::replace(&mut self.chunk, next);
        fence_streams();
        // The writer only stops when this end is dropped (or it panicked, which the scope
        // that joins it reports).
        let _ = self.to_writer.send(full);
    }

    /// Sends what is left; the writer finishes when this end is dropped.
    fn finish(mut self) {
        if !self.chunk.is_empty() {
            let chunk = std::mem::take(&mut self.chunk);
            fence_streams();
            let _ = self.to_writer.send(chunk);
        }
    }
}

impl Drop for Feed {
    /// Fences the streaming stores of a chunk that was never sent (the BFS panicked) before
    /// its memory goes back to the allocator.
    fn drop(&mut self) {
        fence_streams();
    }
}

/// Orders the streaming stores of [`Feed::put`] before the chunk is sent (the channel's
/// own ordering covers plain stores only).
fn fence_streams() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `sfence` is SSE, part of every x86-64 CPU.
    unsafe {
        std::arch::x86_64::_mm_sfence();
    }
}

/// Runs `bfs` on this thread with a [`Feed`], and on a scoped thread of its own the writer
/// of `dist` (row-major, `width` columns) and `owner` (holding the seeds' owners, `eight`
/// for 8-neighbour moves), each when given. Returns `bfs`'s result once both are done, or
/// `None`, before any work, when the system refuses the thread.
///
/// The writer is a thread of its own, not a rayon task: it must run while the BFS runs (a
/// task might wait behind the BFS in the queue of a busy pool, and the BFS waits for it when
/// its queue is full).
pub(super) fn with_writer<R>(
    dist: Option<&mut [u32]>,
    owner: Option<&mut [u32]>,
    width: usize,
    eight: bool,
    bfs: impl FnOnce(&mut Feed) -> R,
) -> Option<R> {
    let (to_writer, from_bfs) = sync_channel::<Vec<u64>>(QUEUED);
    let (to_bfs, spare) = sync_channel::<Vec<u64>>(QUEUED + 2);
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
            let mut w = Writer {
                dist,
                owner,
                width,
                eight,
                layer: 0,
            };
            for mut chunk in from_bfs {
                w.write(&chunk);
                chunk.clear();
                let _ = to_bfs.try_send(chunk);
            }
        });
        let writer = spawned.ok()?;
        let mut feed = Feed {
            chunk: Vec::with_capacity(CHUNK),
            to_writer,
            spare,
        };
        let out = bfs(&mut feed);
        feed.finish();
        if let Err(panic) = writer.join() {
            std::panic::resume_unwind(panic);
        }
        Some(out)
    })
}

/// The writer thread's state.
struct Writer<'a> {
    dist: Option<&'a mut [u32]>,
    owner: Option<&'a mut [u32]>,
    width: usize,
    eight: bool,
    layer: u32,
}

impl Writer<'_> {
    fn write(&mut self, chunk: &[u64]) {
        let masks = if self.eight { 8 } else { 4 };
        let w = self.width;
        let mut i = 0;
        while i + 1 < chunk.len() {
            // The lines of the word `AHEAD` entries on (if no layer starts in between: a
            // guess, and a prefetch of any address is harmless): its first cell's distance
            // and owner slots and its predecessors' rows, which are written and read far
            // apart on a wide frontier (many players).
            let with_masks = self.owner.is_some() && self.layer > 0;
            let ahead = i + AHEAD * (2 + if with_masks { masks } else { 0 });
            if ahead + 1 < chunk.len() {
                let first = (chunk[ahead] as usize)
                    .wrapping_add(chunk[ahead + 1].trailing_zeros() as usize);
                if let Some(dist) = self.dist.as_deref() {
                    prefetch(dist.as_ptr().wrapping_add(first));
                }
                if let (Some(owner), true) = (self.owner.as_deref(), with_masks) {
                    prefetch_rows(owner, first, w);
                }
            }
            // The chunk came from the other core by streaming stores: it is in memory, not
            // in a cache, and its lines are asked for well ahead.
            prefetch(chunk.as_ptr().wrapping_add(i + CHUNK_AHEAD).cast());
            let (a, bits) = (chunk[i], chunk[i + 1]);
            i += 2;
            if bits == 0 {
                self.layer = a as u32;
                continue;
            }
            let base = a as usize;
            if let Some(dist) = self.dist.as_deref_mut() {
                write_layer(dist, base, bits, self.layer);
            }
            if let (Some(owner), true) = (self.owner.as_deref_mut(), with_masks) {
                // Fixed-size copies (a copy of a run-time length is a call to `memmove`).
                let mut from = [0u64; 8];
                if self.eight {
                    from.copy_from_slice(&chunk[i..i + 8]);
                    own_bits::<true, _>(&from, self.width, bits, base, owner);
                } else {
                    from[..4].copy_from_slice(&chunk[i..i + 4]);
                    own_bits::<false, _>(&from, self.width, bits, base, owner);
                }
                i += masks;
            }
        }
    }
}
