//! The thin layers of the word-frontier BFS (`frontier.rs`): layers without the slot
//! machinery, whose distances are written in batches. Made for frontiers of a few words (a
//! maze's corridors), they won on wide fronts too ([`Limits::AUTO`]).
//!
//! A wide layer keeps its words in the units' frontier slots and lists each word once (a
//! word reached from several neighbours is listed by the first push). In a maze a layer is
//! about six words of one cell each, and those steps cost more than the push itself: a read
//! and a clear of the slot per word, a read-or-write of the next slot per push, and the
//! distance written at once into a map far larger than the first-level cache (a store that
//! holds its place in the store queue until its line arrives, with the dozen stores of the
//! word's pushes queued behind it).
//!
//! Here each layer is a run of *entries* (unit, first cell, cells), appended after the layer
//! before in one buffer. A push claims its cells from the unit's open word and writes an
//! entry after the layer being built, kept when it claimed any: a word reached from two
//! neighbours gets two entries with disjoint cells, which is harmless (each cell is claimed
//! once), rare in a thin front and, measured, cheaper than the slots in a wide one. The
//! frontier word comes from the buffer, in order. The distances wait in the buffer until a
//! few thousand entries have gathered and are then written layer after layer in one tight
//! loop, where the stores of many cells are in flight at once.
//!
//! When the BFS switches (tests switch every few layers; the row bands take over from the
//! slots), a layer moves between the two forms in one pass over its words: to the slots by
//! OR-ing each entry into its unit's slot and listing the unit when the slot was empty, from
//! them by reading and clearing each listed word's slot.

use super::units::{push_word, Claim, Cons, Pad, Unit, OPEN};

/// When a BFS runs thin layers: [`Limits::AUTO`], or others in tests.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    /// Layers of at most this many words (listed once each, in the slots of a wide layer)
    /// go on as thin layers; 0: never.
    pub(super) enter: usize,
    /// A thin layer of more than this many entries goes back to the slots.
    pub(super) exit: usize,
    /// The distances of the thin layers are written once this many entries are held.
    pub(super) flush: usize,
}

impl Limits {
    /// The limits of every BFS: thin layers throughout, the distances written every 2048
    /// entries (32 KiB, in the first-level cache). Thin layers won on every shape measured,
    /// wide fronts included, where a word gets an entry from each neighbour that reaches it:
    /// a perfect maze 1024x1024 and 4096x4096, noise with 30% and 35% walls, an open room and
    /// noise with 15% walls with connection masks (which keep the row sweeps away), against
    /// switching to the slots above 64 entries (docs/benchmarks.md, "Distance maps of
    /// mazes"). The slots stay for owners (read from the slots of the layer before), for
    /// grids too large for an entry's 32 bits, and for the row bands.
    pub(super) const AUTO: Limits = Limits::THIN;

    /// No thin layers: the slots throughout.
    pub(super) const SLOTS: Limits = Limits {
        enter: 0,
        exit: 0,
        flush: 0,
    };

    /// Thin layers throughout (until the row bands take over).
    pub(super) const THIN: Limits = Limits {
        enter: usize::MAX,
        exit: usize::MAX,
        flush: 2048,
    };
}

/// A frontier word of a thin layer: its unit and first cell (the unit in the low 32 bits of
/// `key`, the cell in the high ones) and its cells.
#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    key: u64,
    /// The word's cells in the layer (non-zero in every entry of a layer).
    pub(super) bits: u64,
}

impl Entry {
    /// The entry of `bits` at unit `unit`, first cell `base` (kept to 32 bits each: an entry
    /// that claims no cell may have any `base`).
    #[inline(always)]
    fn new(unit: usize, base: usize, bits: u64) -> Self {
        Entry {
            key: u64::from(unit as u32) | ((base as u64) << 32),
            bits,
        }
    }

    /// The word's unit.
    #[inline(always)]
    pub(super) fn unit(self) -> usize {
        self.key as u32 as usize
    }

    /// The word's first cell.
    #[inline(always)]
    pub(super) fn base(self) -> usize {
        (self.key >> 32) as usize
    }
}

/// The thin layers of one BFS: the entries of the layers whose distances are not written
/// yet, then those of the current layer, then room for the next.
pub(super) struct Thin {
    buf: Vec<Entry>,
    /// Where each held layer starts in `buf`: the last is the current layer, which ends at
    /// `end`.
    starts: Vec<usize>,
    end: usize,
    /// The layer of `starts[0]`.
    first: u32,
}

/// The layer being built: entries written from `buf[0]`, `n` of them kept.
struct Out<'a> {
    buf: &'a mut [Entry],
    n: usize,
}

impl Claim for Out<'_> {
    /// Claims `bits` minus the visited cells of unit `t`: the entry is always written and
    /// kept when it claimed a cell.
    #[inline(always)]
    fn push(&mut self, units: &mut [Unit], t: usize, base: usize, bits: u64) {
        let open = &mut units[t].0[OPEN];
        let b = bits & *open;
        *open ^= b;
        self.buf[self.n] = Entry::new(t, base, b);
        self.n += (b != 0) as usize;
    }
}

impl Thin {
    /// Whether the units and cells of `pad` fit the 32 bits of an [`Entry`].
    pub(super) fn fits(pad: &Pad) -> bool {
        let most = u32::MAX as usize;
        pad.len() <= most && pad.w.saturating_mul(pad.h) <= most
    }

    /// No layers held.
    pub(super) fn new() -> Self {
        Thin {
            buf: Vec::new(),
            starts: vec![0],
            end: 0,
            first: 0,
        }
    }

    /// Starts over with an empty current layer `layer` (nothing else held).
    pub(super) fn begin(&mut self, layer: u32) {
        self.starts.clear();
        self.starts.push(0);
        self.end = 0;
        self.first = layer;
    }

    /// Adds the word `bits` (non-zero) at unit `unit`, first cell `base`, to the current
    /// layer.
    pub(super) fn add(&mut self, unit: usize, base: usize, bits: u64) {
        debug_assert!(bits != 0);
        self.buf.truncate(self.end);
        self.buf.push(Entry::new(unit, base, bits));
        self.end += 1;
    }

    /// The current layer.
    pub(super) fn layer(&self) -> u32 {
        self.first + (self.starts.len() - 1) as u32
    }

    /// The entries of the current layer.
    pub(super) fn current(&self) -> &[Entry] {
        &self.buf[self.start()..self.end]
    }

    /// The entries held, the current layer's included.
    pub(super) fn held(&self) -> usize {
        self.end
    }

    /// Where the current layer starts.
    fn start(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    /// Pushes every word of the current layer into its neighbours (`s` units and `w` cells
    /// a row; moves as in [`push_word`]): the words reached form the next layer, which
    /// becomes the current one. Returns its number of entries.
    #[inline(always)]
    pub(super) fn step<const EIGHT: bool, const CON: bool>(
        &mut self,
        units: &mut [Unit],
        c: &Cons,
        s: usize,
        w: usize,
    ) -> usize {
        let (start, end) = (self.start(), self.end);
        // Each word pushes into at most 9 words (5 with 4-neighbour moves), plus the entry
        // written past the last kept one.
        let need = end + (end - start) * if EIGHT { 9 } else { 5 } + 1;
        if self.buf.len() < need {
            self.buf.resize(need, Entry::default());
        }
        let (held, rest) = self.buf.split_at_mut(end);
        let mut out = Out { buf: rest, n: 0 };
        for &e in &held[start..] {
            push_word::<EIGHT, CON>(units, &mut out, c, e.unit(), e.base(), e.bits, s, w);
        }
        self.starts.push(end);
        self.end = end + out.n;
        out.n
    }

    /// Hands every held layer before the current one to `write` (its layer and entries, in
    /// order of layers), then keeps the current layer alone.
    pub(super) fn drain(&mut self, mut write: impl FnMut(u32, &[Entry])) {
        let start = self.start();
        for (k, run) in self.starts.windows(2).enumerate() {
            write(self.first + k as u32, &self.buf[run[0]..run[1]]);
        }
        self.first = self.layer();
        self.buf.copy_within(start..self.end, 0);
        self.end -= start;
        self.starts.clear();
        self.starts.push(0);
    }
}
