//! The word-frontier BFS of [`BitGrid`] for step moves: the engine behind
//! [`distance_map`](super::distance_map) and the Voronoi of runtime grids
//! ([`voronoi`](crate::algo::voronoi::voronoi), [`voronoi_owners`](crate::algo::voronoi::voronoi_owners)).
//!
//! The frontier of a BFS layer is kept as its non-zero 64-cell words plus the list of those
//! words. A layer *pushes* each frontier word into its neighbours: one shift per direction
//! (with the carry into the word beside it), masked by the words not yet visited; a word that
//! receives its first bits joins the next list (a word already non-zero in the next frontier
//! is listed already, so no stamps are needed). The cost of a layer is a few word operations
//! per frontier *word*: a wide front moves 64 cells per operation, a thin corridor front pays
//! about what a per-cell queue pays, without its unpredictable branches per neighbour.
//! Distances are written per frontier word with a `tzcnt` loop.
//!
//! Without owners the layers are *thin* (`thin.rs`): runs of entries that carry their cells,
//! instead of the slots (`units.rs`), with the distances written in batches; [`run`] moves a layer
//! between the two forms when the limits say so (the row bands of `bands/` and the owners
//! read the slots).
//!
//! The grids are copied into the padded layout of `units.rs`: one 32-byte unit per word
//! position, with the cells not yet visited and three frontier slots that take turns as the
//! previous, current and next layer.
//!
//! On large grids with a second thread, the per-cell writes go to that thread
//! (`layer_writer.rs`): this one sends each frontier word (and with owners its predecessor
//! masks) instead of writing it.
//!
//! With owners (many-player Voronoi), each cell of a layer takes the owner of its predecessors
//! in the previous layer (the cells of that layer that reach it in one move): the single player
//! among them, or [`CONTESTED`](super::cells::CONTESTED) when two differ or one is contested.

use super::cells::{own_bits, prefetch, prefetch_rows, write_layer};
use super::layer_writer::{self, Feed};
use super::thin::{Entry, Limits, Thin};
use super::units::{cw, prefetch_around, Claim};
pub(super) use super::units::{push_word, slots, Cons, Pad, Unit, OPEN};
use super::Connections;
use crate::{BitGrid, Dir, Moves};

/// Runs the BFS from `seeds` (layer 0, whether passable or not) through `passable` minus the
/// seeds, writing every reached cell's layer into `dist` when given (row-major `w * h`, which
/// must hold [`UNREACHED`](super::cells::UNREACHED) elsewhere). With `owner` (row-major,
/// holding the seeds' owners), every other reached cell gets its owner. Returns the last layer reached (0 with only
/// seeds, or none).
///
/// `moves` must be `Four` or `Eight`; `passable`, `seeds` and the masks must have one size.
pub(crate) fn bfs(
    seeds: &BitGrid,
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
    dist: Option<&mut [u32]>,
    owner: Option<&mut [u32]>,
) -> u32 {
    match bfs_until(
        seeds,
        passable,
        moves,
        con,
        dist,
        owner,
        usize::MAX,
        Limits::AUTO,
        None,
    ) {
        Ok(last) | Err(last) => last,
    }
}

/// The distances of [`bfs`] (without owners), with thin layers within `limits`.
pub(super) fn distances(
    seeds: &BitGrid,
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
    dist: &mut [u32],
    limits: Limits,
) -> u32 {
    match distances_until(seeds, passable, moves, con, dist, usize::MAX, limits) {
        Ok(last) | Err(last) => last,
    }
}

/// The distances of [`bfs`] (without owners, thin layers within `limits`) on this thread
/// until a layer's frontier has `wide` words or more: `Ok` with the last layer, or
/// `Err(layer)` with every layer up to `layer` in `dist` (the row bands of `bands/` go on
/// from there).
pub(super) fn distances_until(
    seeds: &BitGrid,
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
    dist: &mut [u32],
    wide: usize,
    limits: Limits,
) -> Result<u32, u32> {
    bfs_until(
        seeds,
        passable,
        moves,
        con,
        Some(dist),
        None,
        wide,
        limits,
        None,
    )
}

/// The owners (and distances, when given) of [`bfs`] on this thread until the frontier after
/// a layer has `wide` words or more: `Ok` with the last layer, or `Err(layer)` with every
/// cell of the layers up to `layer` written and `front` holding the words of `layer` and of
/// the next one (the row bands of `bands/` go on from there).
#[allow(clippy::too_many_arguments)]
pub(super) fn owners_until(
    seeds: &BitGrid,
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
    dist: Option<&mut [u32]>,
    owner: &mut [u32],
    wide: usize,
    front: &mut Front,
) -> Result<u32, u32> {
    let owner = Some(owner);
    bfs_until(
        seeds,
        passable,
        moves,
        con,
        dist,
        owner,
        wide,
        Limits::AUTO,
        Some(front),
    )
}

/// The frontier a BFS with owners hands to the row bands: the words of the last layer it
/// wrote (`prev`: the predecessors of the next layer's cells) and of the next layer
/// (`cur`), each as `(first cell, bits)` in row-major cell indices.
#[derive(Default)]
pub(super) struct Front {
    pub(super) prev: Vec<(usize, u64)>,
    pub(super) cur: Vec<(usize, u64)>,
}

/// [`bfs`], or with distances alone and `wide` not `usize::MAX`, [`distances_until`], or
/// with owners [`owners_until`] (which fills `front`), with thin layers within `limits`.
#[allow(clippy::too_many_arguments)]
fn bfs_until(
    seeds: &BitGrid,
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
    mut dist: Option<&mut [u32]>,
    mut owner: Option<&mut [u32]>,
    wide: usize,
    limits: Limits,
    mut front: Option<&mut Front>,
) -> Result<u32, u32> {
    let pad = Pad::new(passable);
    let cells = pad.w * pad.h;
    debug_assert!(dist.as_ref().is_none_or(|d| d.len() == cells));
    debug_assert!(owner.as_ref().is_none_or(|o| o.len() == cells));
    debug_assert!(
        dist.is_some() || owner.is_some(),
        "a BFS that writes something"
    );
    let cons: Option<Cons> = con.map(|c| std::array::from_fn(|k| pad.copy(&c[k])));
    let empty: Cons = Default::default();
    let c = cons.as_ref().unwrap_or(&empty);
    let eight = match moves {
        Moves::Four => false,
        Moves::Eight => true,
        _ => unreachable!("the word-frontier BFS takes step moves"),
    };
    macro_rules! each_shape {
        ($own:expr, $sink:expr, $front:expr) => {
            match (eight, cons.is_some()) {
                (false, false) => run::<false, false, $own, _>(
                    pad, seeds, passable, c, $sink, wide, limits, $front,
                ),
                (false, true) => run::<false, true, $own, _>(
                    pad, seeds, passable, c, $sink, wide, limits, $front,
                ),
                (true, false) => run::<true, false, $own, _>(
                    pad, seeds, passable, c, $sink, wide, limits, $front,
                ),
                (true, true) => {
                    run::<true, true, $own, _>(pad, seeds, passable, c, $sink, wide, limits, $front)
                }
            }
        };
    }
    // On large grids with a second thread, that thread writes the distances and the owners
    // (also until a wide frontier, after which the row bands of `bands/` go on: a maze's
    // frontiers never get wide, and on 16 cores its BFS took 1.4x the time of the pool of
    // two without the writer), unless the system refuses the thread: then this one does.
    let own = owner.is_some();
    if layer_writer::wanted(cells, own) {
        let two = layer_writer::with_writer(
            dist.as_deref_mut(),
            owner.as_deref_mut(),
            pad.w,
            eight,
            |feed| {
                if own {
                    each_shape!(true, feed, front.as_deref_mut())
                } else {
                    each_shape!(false, feed, None)
                }
            },
        );
        if let Some(end) = two {
            return end;
        }
    }
    let mut direct = Direct {
        dist,
        owner: owner.unwrap_or(&mut []),
        w: pad.w,
    };
    if own {
        each_shape!(true, &mut direct, front)
    } else {
        each_shape!(false, &mut direct, None)
    }
}

/// Where the frontier words of each layer go: written on the BFS's thread ([`Direct`]) or
/// handed to a writer thread ([`Feed`]).
trait Sink {
    /// The frontier word `f` (first cell `base`) of layer `layer`, with the masks of its
    /// cells' [`predecessors`] when owners are computed (layers after the first).
    fn word<const EIGHT: bool>(&mut self, f: u64, base: usize, layer: u32, from: Option<&[u64; 8]>);

    /// The words that follow are of layer `layer`.
    fn layer(&mut self, layer: u32);

    /// The distance map, when one is written on this thread (the target of prefetches).
    fn map(&self) -> Option<&[u32]>;

    /// A word whose first set cell is `first` will come soon: prefetch the lines its
    /// owners are read from, when they are read on this thread.
    fn ahead(&self, first: usize);
}

/// Distances (when wanted) and owners written on the BFS's thread.
struct Direct<'a> {
    dist: Option<&'a mut [u32]>,
    owner: &'a mut [u32],
    /// The grid's width.
    w: usize,
}

impl Sink for Direct<'_> {
    #[inline(always)]
    fn word<const EIGHT: bool>(
        &mut self,
        f: u64,
        base: usize,
        layer: u32,
        from: Option<&[u64; 8]>,
    ) {
        if let Some(from) = from {
            own_bits::<EIGHT, _>(from, self.w, f, base, self.owner);
        }
        if let Some(dist) = self.dist.as_deref_mut() {
            write_layer(dist, base, f, layer);
        }
    }

    #[inline(always)]
    fn layer(&mut self, _: u32) {}

    fn map(&self) -> Option<&[u32]> {
        self.dist.as_deref()
    }

    #[inline(always)]
    fn ahead(&self, first: usize) {
        // With many players a layer's words are spread over the whole owner array.
        prefetch_rows(self.owner, first, self.w);
    }
}

impl Sink for Feed {
    #[inline(always)]
    fn word<const EIGHT: bool>(&mut self, f: u64, base: usize, _: u32, from: Option<&[u64; 8]>) {
        match from {
            // The writer thread runs the per-cell part of the owners.
            Some(from) => self.word_from(base, f, &from[..if EIGHT { 8 } else { 4 }]),
            None => Feed::word(self, base, f),
        }
    }

    #[inline(always)]
    fn layer(&mut self, layer: u32) {
        Feed::layer(self, layer);
    }

    fn map(&self) -> Option<&[u32]> {
        None
    }

    /// The writer prefetches its own lines.
    #[inline(always)]
    fn ahead(&self, _: usize) {}
}

/// The next frontier being built: its slot in the units and the list of its non-zero words,
/// `(unit, first cell)`, in a buffer of one entry per unit (a unit is listed at most once per
/// layer).
pub(super) struct Next {
    pub(super) slot: usize,
    pub(super) list: Vec<(usize, usize)>,
    pub(super) len: usize,
    /// The distance map's first cell: on maps larger than the caches ([`PREFETCH_CELLS`]),
    /// the line a new frontier word's first cell will be written to (in the next layer) is
    /// prefetched when the word gets its bits.
    pub(super) dist: *const u32,
    pub(super) prefetch: bool,
}

/// Distance maps of at least this many cells (16 MiB) have their lines prefetched a layer
/// ahead: the write of a thin frontier's cell otherwise waits for memory. Smaller maps sit
/// in the caches, where the prefetches cost more than they save.
pub(super) const PREFETCH_CELLS: usize = 1 << 22;

impl Claim for Next {
    /// Adds `bits` minus the visited cells at unit `t` (whose first cell is `base`), without a
    /// branch: the entry after the list is always written, and kept only when `t` gets its
    /// first bits.
    #[inline(always)]
    fn push(&mut self, units: &mut [Unit], t: usize, base: usize, bits: u64) {
        let unit = &mut units[t].0;
        let b = bits & unit[OPEN];
        unit[OPEN] ^= b;
        let was = unit[self.slot];
        unit[self.slot] = was | b;
        self.list[self.len] = (t, base);
        self.len += (was == 0 && b != 0) as usize;
        if self.prefetch {
            prefetch(
                self.dist
                    .wrapping_add(base.wrapping_add(b.trailing_zeros() as usize)),
            );
        }
    }
}

/// Units of at least this many bytes (1 MiB, a second-level cache) are prefetched
/// `2 * LIST_AHEAD` frontier words ahead, and with owners on this thread the owner lines of
/// the word [`LIST_AHEAD`] ahead (found from its unit's bits, prefetched before).
pub(super) const FAR_UNITS_BYTES: usize = 1 << 20;

/// How many frontier words ahead the owner lines are prefetched (with owners on this
/// thread); the units are prefetched twice as far ahead.
pub(super) const LIST_AHEAD: usize = 16;

/// For each cell of unit `u`, which neighbours in the previous layer (slot `pk`) reach it in
/// one move: masks of the cells with a predecessor to the west, east, north, south, then
/// (8-neighbour moves) north-west, north-east, south-west and south-east.
#[inline(always)]
pub(super) fn predecessors<const EIGHT: bool, const CON: bool>(
    units: &[Unit],
    pk: usize,
    c: &Cons,
    u: usize,
    s: usize,
) -> [u64; 8] {
    let prev = |i: usize| units[i].0[pk];
    // The cells reached from the west (a predecessor at x - 1 moving east), etc.
    let from_w = ((prev(u) & cw::<CON>(c, Dir::E, u)) << 1)
        | ((prev(u - 1) & cw::<CON>(c, Dir::E, u - 1)) >> 63);
    let from_e = ((prev(u) & cw::<CON>(c, Dir::W, u)) >> 1)
        | ((prev(u + 1) & cw::<CON>(c, Dir::W, u + 1)) << 63);
    let from_n = prev(u - s) & cw::<CON>(c, Dir::S, u - s);
    let from_s = prev(u + s) & cw::<CON>(c, Dir::N, u + s);
    let (mut from_nw, mut from_ne, mut from_sw, mut from_se) = (0, 0, 0, 0);
    if EIGHT {
        let (a, b) = (u - s, u + s);
        from_nw = ((prev(a) & cw::<CON>(c, Dir::SE, a)) << 1)
            | ((prev(a - 1) & cw::<CON>(c, Dir::SE, a - 1)) >> 63);
        from_ne = ((prev(a) & cw::<CON>(c, Dir::SW, a)) >> 1)
            | ((prev(a + 1) & cw::<CON>(c, Dir::SW, a + 1)) << 63);
        from_sw = ((prev(b) & cw::<CON>(c, Dir::NE, b)) << 1)
            | ((prev(b - 1) & cw::<CON>(c, Dir::NE, b - 1)) >> 63);
        from_se = ((prev(b) & cw::<CON>(c, Dir::NW, b)) >> 1)
            | ((prev(b + 1) & cw::<CON>(c, Dir::NW, b + 1)) << 63);
    }
    [
        from_w, from_e, from_n, from_s, from_nw, from_ne, from_sw, from_se,
    ]
}

/// The BFS of [`bfs`], monomorphised per neighbourhood, masks, owners (read from the
/// previous layer's slots, on this thread) and sink: `Ok` with the last layer, or `Err(layer)`
/// when the frontier after `layer` has `wide` words or more (the sink has every cell of the
/// layers up to `layer`; the row bands of `bands/` go on from there, with owners from
/// `front`, which then holds the words of `layer` and of the next layer).
#[allow(clippy::too_many_arguments)]
fn run<const EIGHT: bool, const CON: bool, const OWN: bool, S: Sink>(
    pad: Pad,
    seeds: &BitGrid,
    passable: &BitGrid,
    c: &Cons,
    sink: &mut S,
    wide: usize,
    limits: Limits,
    front: Option<&mut Front>,
) -> Result<u32, u32> {
    // Previous layers' slots are kept a layer longer only for owners read from them.
    let keep = OWN;
    let Pad { w, h, s, .. } = pad;
    let len = pad.len();
    // Zeroed memory: a few seeds in a large grid touch a few pages of the frontier slots
    // beyond the open cells' copy.
    let mut store = pad.unit_store();
    let units = pad.units(&mut store, passable);
    let (ck, _, _) = slots(0);
    // The lists grow with the frontiers (a small region never pays for a grid-sized list).
    let mut list: Vec<(usize, usize)> = Vec::new();
    for y in 0..h {
        for (i, &word) in seeds.row_words(y).iter().enumerate() {
            if word != 0 {
                let u = pad.unit(y, i);
                units[u].0[ck] = word;
                units[u].0[OPEN] &= !word;
                list.push((u, y * w + i * 64));
            }
        }
    }
    let mut count = list.len();
    let map = sink.map().unwrap_or(&[]);
    let mut next = Next {
        slot: 0,
        list: Vec::new(),
        len: 0,
        dist: map.as_ptr(),
        prefetch: map.len() >= PREFETCH_CELLS,
    };
    // Units beyond the second-level cache: the words of a frontier spread over the grid
    // (many players) each wait for their units unless asked for ahead.
    let far = len * std::mem::size_of::<Unit>() >= FAR_UNITS_BYTES;
    let mut prev_list: Vec<(usize, usize)> = Vec::new();
    let mut prev_count = 0;
    let mut layer = 0u32;
    // Thin layers (`thin.rs`): without owners (read from the slots of the layer before),
    // on grids whose units and cells fit their entries.
    // A thin layer of `wide` entries or more goes back to the slots, where its words are
    // counted once.
    let limits = Limits {
        exit: limits.exit.min(wide.saturating_sub(1)),
        ..limits
    };
    let thin_ok = !OWN && limits.enter > 0 && Thin::fits(&pad);
    let mut thin = Thin::new();
    loop {
        let (ck, nk, pk) = slots(layer);
        if thin_ok && count <= limits.enter {
            // The layer's words leave the slots (all slots are clear in thin layers).
            thin.begin(layer);
            for &(u, base) in &list[..count] {
                let f = units[u].0[ck];
                units[u].0[ck] = 0;
                thin.add(u, base, f);
            }
            let Some(wider) = run_thin::<EIGHT, CON, S>(&mut thin, units, c, sink, s, w, limits)
            else {
                return Ok(thin.layer() - 1);
            };
            // A wide layer: back to the slots, each word listed once.
            layer = wider;
            let (ck, _, _) = slots(layer);
            count = 0;
            if list.len() < thin.current().len() {
                list.resize(thin.current().len(), (0, 0));
            }
            for e in thin.current() {
                let (u, base) = (e.unit(), e.base());
                let was = units[u].0[ck];
                units[u].0[ck] = was | e.bits;
                list[count] = (u, base);
                count += (was == 0) as usize;
            }
            if count >= wide {
                return Err(layer - 1);
            }
            continue;
        }
        if layer > 0 {
            sink.layer(layer);
        }
        next.slot = nk;
        // Each word pushes into at most 9 words, each listed once per layer, plus the entry
        // written past the end.
        let need = (count * if EIGHT { 9 } else { 5 }).min(len) + 1;
        if next.list.len() < need {
            next.list.resize(need, (0, 0));
        }
        // Layers of a few words (a maze's) would only prefetch stale entries.
        let ahead = far && count > 2 * LIST_AHEAD;
        for (i, &(u, base)) in list[..count].iter().enumerate() {
            if ahead {
                // The units a word `2 * LIST_AHEAD` entries on reads and pushes into (any
                // index is harmless to a prefetch: entries past the layer's are stale).
                let (v, _) = list.get(i + 2 * LIST_AHEAD).copied().unwrap_or_default();
                prefetch_around(units, v, s);
                if OWN {
                    // That word's unit was asked for `LIST_AHEAD` entries ago: its first
                    // cell names the owner lines it will read.
                    let (v, b) = list.get(i + LIST_AHEAD).copied().unwrap_or_default();
                    let bits = units.get(v).map_or(0, |unit| unit.0[ck]);
                    sink.ahead(b.wrapping_add(bits.trailing_zeros() as usize));
                }
            }
            let f = units[u].0[ck];
            if !keep {
                // Read for the last time: the slot is clean for the layer after next.
                units[u].0[ck] = 0;
            }
            if OWN && layer > 0 {
                let from = predecessors::<EIGHT, CON>(units, pk, c, u, s);
                sink.word::<EIGHT>(f, base, layer, Some(&from));
            } else {
                sink.word::<EIGHT>(f, base, layer, None);
            }
            push_word::<EIGHT, CON>(units, &mut next, c, u, base, f, s, w);
        }
        if next.len == 0 {
            return Ok(layer);
        }
        if next.len >= wide {
            if let Some(front) = front {
                // With owners the layer's slot was kept (its cells are the predecessors).
                let words = |list: &[(usize, usize)], k: usize| {
                    let bits = |&(u, base): &(usize, usize)| (base, units[u].0[k]);
                    list.iter().map(bits).collect()
                };
                front.prev = words(&list[..count], ck);
                front.cur = words(&next.list[..next.len], nk);
            }
            return Err(layer);
        }
        layer += 1;
        // The slot of the layer before this one becomes the next layer's. Without owners it
        // was cleared as it was read; with owners it was kept until this layer's owners were
        // read from it, and is cleared now.
        if keep {
            for &(u, _) in &prev_list[..prev_count] {
                units[u].0[pk] = 0;
            }
            std::mem::swap(&mut prev_list, &mut list);
            prev_count = count;
        }
        std::mem::swap(&mut list, &mut next.list);
        count = next.len;
        next.len = 0;
    }
}

/// Runs thin layers (`thin.rs`) from the current layer of `thin`, handing their words to
/// `sink` in batches: `None` when the BFS is over (the last layer is `thin.layer() - 1`, all
/// written), or `Some(layer)` when layer `layer` (current in `thin`, not written) has more
/// than `limits.exit` entries; every layer before it is written.
fn run_thin<const EIGHT: bool, const CON: bool, S: Sink>(
    thin: &mut Thin,
    units: &mut [Unit],
    c: &Cons,
    sink: &mut S,
    s: usize,
    w: usize,
    limits: Limits,
) -> Option<u32> {
    let mut write = |layer: u32, words: &[Entry]| {
        if layer > 0 {
            sink.layer(layer);
        }
        for e in words {
            sink.word::<EIGHT>(e.bits, e.base(), layer, None);
        }
    };
    loop {
        let n = thin.step::<EIGHT, CON>(units, c, s, w);
        if n == 0 || n > limits.exit || thin.held() >= limits.flush {
            thin.drain(&mut write);
            if n == 0 {
                return None;
            }
            if n > limits.exit {
                return Some(thin.layer());
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::test_shapes::Reference;
    use super::super::test_shapes::{assert_distances, for_each_case, maze, spiral};
    use super::super::DistanceMap;
    use super::*;
    use crate::naive::{fill as nf, NaiveGrid};
    use crate::test_rng::XorShift as Rng;

    /// The naive BFS's distances (the [`Reference`] of the engines' tests).
    pub(in crate::algo::distance) const NAIVE: Reference = |seeds, passable, moves, con| {
        let con: Option<nf::NaiveConnections> =
            con.map(|c| std::array::from_fn(|k| NaiveGrid::from_view(&c[k])));
        let (s, p) = (NaiveGrid::from_view(seeds), NaiveGrid::from_view(passable));
        nf::distance_map(&s, &p, moves, con.as_ref())
    };

    /// Every way of running the BFS: the automatic limits, the slots throughout, thin layers
    /// throughout, and limits that switch between the two every few layers and write the
    /// distances after every layer or every few entries.
    const LIMITS: [Limits; 6] = [
        Limits::AUTO,
        Limits::SLOTS,
        Limits::THIN,
        Limits {
            enter: usize::MAX,
            exit: usize::MAX,
            flush: usize::MAX,
        },
        Limits {
            enter: 2,
            exit: 3,
            flush: 1,
        },
        Limits {
            enter: 6,
            exit: 12,
            flush: 7,
        },
    ];

    /// Mazes (perfect, and with loops where fronts meet), spirals, noise of several
    /// densities, and the full and empty grids.
    fn shapes(w: usize, h: usize, rng: &mut Rng) -> Vec<BitGrid> {
        let mut out = vec![
            maze(w, h, 0, rng),
            maze(w, h, (w * h).div_ceil(20), rng),
            spiral(w, h),
            BitGrid::full(w, h),
            BitGrid::new(w, h),
        ];
        for p in [30, 55, 70, 90] {
            out.push(BitGrid::from_fn(w, h, |_, _| rng.percent(p)).unwrap());
        }
        out
    }

    /// The sizes: 1x1, single rows and columns, widths around the word size, and grids
    /// whose mazes have fronts of more than 64 words.
    const SIZES: [(usize, usize); 13] = [
        (1, 1),
        (1, 50),
        (70, 1),
        (63, 9),
        (64, 8),
        (65, 13),
        (128, 5),
        (129, 31),
        (7, 7),
        (33, 65),
        (200, 61),
        (257, 40),
        (500, 300),
    ];

    /// The distance BFS equals the naive BFS with every limits, 4- and 8-moves, with and
    /// without connection masks, from none to several sources (free or walled); the last
    /// layer is the largest distance.
    #[test]
    fn thin_and_wide_layers_equal_the_naive_bfs() {
        let mut rng = Rng(0x7412_5eed);
        for (w, h) in SIZES {
            for g in shapes(w, h, &mut rng) {
                for_each_case(&g, &mut rng, NAIVE, |case| {
                    for limits in LIMITS {
                        let mut dist = vec![DistanceMap::UNREACHABLE; w * h];
                        let d = Some(&mut dist[..]);
                        let con = case.con.as_ref();
                        let last = bfs_until(
                            &case.seeds,
                            &g,
                            case.moves,
                            con,
                            d,
                            None,
                            usize::MAX,
                            limits,
                            None,
                        );
                        let how = format!("{limits:?}");
                        assert_eq!(last, Ok(case.most), "{} {how}: the last layer", case.ctx);
                        assert_distances(&dist, w, case, &how);
                    }
                });
            }
        }
    }

    /// Stopped at the first frontier of `wide` words or more (where the row bands take
    /// over), every limits gives the same layer, with exactly the layers up to it written.
    #[test]
    fn stops_at_the_first_wide_frontier_with_every_limits() {
        let mut rng = Rng(0x3_71de);
        for (w, h) in [(200, 61), (500, 300), (65, 13)] {
            for g in shapes(w, h, &mut rng) {
                let mut seeds = g.empty_like();
                seeds.set(w / 2, h / 2);
                seeds.set(0, 0);
                let (ns, np) = (NaiveGrid::from_view(&seeds), NaiveGrid::from_view(&g));
                let want = nf::distance_map(&ns, &np, Moves::Four, None);
                // The words of each layer's frontier, from the naive distances.
                let mut words = vec![std::collections::BTreeSet::new(); w * h + 1];
                for (k, d) in want.iter().enumerate() {
                    if let Some(d) = d {
                        words[*d as usize].insert((k / w, k % w / 64));
                    }
                }
                for wide in [1, 3, 10, 40, 100] {
                    // The first layer whose next frontier has `wide` words or more.
                    let stop = (0..w * h).find(|&l| words[l + 1].len() >= wide);
                    for limits in LIMITS {
                        let mut dist = vec![DistanceMap::UNREACHABLE; w * h];
                        let d = Some(&mut dist[..]);
                        let got =
                            bfs_until(&seeds, &g, Moves::Four, None, d, None, wide, limits, None);
                        let ctx = format!("{w}x{h} wide={wide} {limits:?}");
                        match stop {
                            Some(l) => assert_eq!(got, Err(l as u32), "{ctx}"),
                            None => assert!(got.is_ok(), "{ctx}"),
                        }
                        let upto = match got {
                            Ok(last) | Err(last) => last,
                        };
                        for (k, (&d, &e)) in dist.iter().zip(&want).enumerate() {
                            let e = e.filter(|&e| e <= upto);
                            let got = (d != DistanceMap::UNREACHABLE).then_some(d);
                            assert_eq!(got, e, "{ctx} at {:?}", (k % w, k / w));
                        }
                    }
                }
            }
        }
    }
}
