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
//! The grids are copied into a padded layout (one zero word after each row, one zero row above
//! and below), so every neighbour of a real word exists and needs no bounds check. Each padded
//! word position (a *unit*) keeps its four words side by side, 32 bytes: the cells not yet
//! visited and three frontier slots that take turns as the previous, current and next layer.
//! A push into a neighbour then touches one cache line, not one per array, which is what a
//! thin frontier scattered over a large grid pays for.
//!
//! On large grids with a second thread, the per-cell writes go to that thread
//! (`layer_writer.rs`): this one sends each frontier word (and with owners its predecessor
//! masks) instead of writing it.
//!
//! With owners (many-player Voronoi), each cell of a layer takes the owner of its predecessors
//! in the previous layer (the cells of that layer that reach it in one move): the single player
//! among them, or [`CONTESTED`] when two differ or one is contested.

use super::cells::{own_bits, prefetch, prefetch_rows, write_layer};
use super::layer_writer::{self, Feed};
use super::Connections;
use crate::{BitGrid, Dir, Moves};

/// The padded word layout of a `w x h` grid: one zero word first, then `h + 2` rows of
/// `s = n + 1` words (the last word of each row zero; rows `0` and `h + 1` zero), then one
/// zero word: every word of the grid has its eight neighbours.
#[derive(Clone, Copy)]
pub(super) struct Pad {
    pub(super) w: usize,
    pub(super) h: usize,
    pub(super) n: usize,
    pub(super) s: usize,
}

impl Pad {
    fn new(g: &BitGrid) -> Self {
        Self::rows(g, g.height())
    }

    /// The layout of `h` rows of `g` (a band of its rows).
    pub(super) fn rows(g: &BitGrid, h: usize) -> Self {
        let n = g.words_per_row();
        Pad {
            w: g.width(),
            h,
            n,
            s: n + 1,
        }
    }

    /// Number of padded words.
    pub(super) fn len(&self) -> usize {
        (self.h + 2) * self.s + 2
    }

    /// The unit of word `i` of row `y` (`y` may be `h`, the zero row below, or `usize::MAX`,
    /// the zero row above).
    pub(super) fn unit(&self, y: usize, i: usize) -> usize {
        y.wrapping_add(1) * self.s + i + 1
    }

    /// A padded copy of `g`'s words.
    fn copy(&self, g: &BitGrid) -> Vec<u64> {
        self.copy_rows(g, 0)
    }

    /// A padded copy of the words of `g`'s rows `top..top + h`.
    pub(super) fn copy_rows(&self, g: &BitGrid, top: usize) -> Vec<u64> {
        let mut out = vec![0u64; self.len()];
        for y in 0..self.h {
            let at = self.unit(y, 0);
            out[at..at + self.n].copy_from_slice(g.row_words(top + y));
        }
        out
    }

    /// Zeroed memory for the units of `g` (with one unit to spare for alignment): pages of
    /// the allocator's zeroes, which a small region in a large grid never touches.
    pub(super) fn unit_store(&self) -> Vec<u64> {
        let words = 4 * (self.len() + 1);
        crate::huge_pages::zeroed(words).unwrap_or_else(|| {
            // As `vec!` does when memory runs out (the fallible entry points checked first).
            std::alloc::handle_alloc_error(std::alloc::Layout::new::<Unit>())
        })
    }

    /// The units in `store` (from [`Pad::unit_store`]), aligned, with `g`'s words as the
    /// open cells (slot [`OPEN`]) and the frontier slots zero.
    fn units<'a>(&self, store: &'a mut [u64], g: &BitGrid) -> &'a mut [Unit] {
        self.units_rows(store, g, 0)
    }

    /// The units in `store` (from [`Pad::unit_store`]), aligned, as they are.
    pub(super) fn view<'a>(&self, store: &'a mut [u64]) -> &'a mut [Unit] {
        let len = self.len();
        assert!(store.len() >= 4 * (len + 1), "a unit store of this pad");
        // The first word at a multiple of 32 bytes: at most 3 words in (words are 8-aligned).
        let skip = store.as_ptr().align_offset(std::mem::align_of::<Unit>());
        assert!(skip <= 3);
        // SAFETY: `skip + 4 * len <= 3 + 4 * len < store.len()` words, so the `len` units lie
        // inside `store`, whose mutable borrow they take over for `'a`; the start is aligned
        // for `Unit` (`align_offset` above); `Unit` is four `u64`s (`repr(C)`), so any bits
        // of the words are a valid unit.
        unsafe { std::slice::from_raw_parts_mut(store.as_mut_ptr().add(skip).cast::<Unit>(), len) }
    }

    /// [`Pad::units`] of `g`'s rows `top..top + h` (a band of its rows).
    pub(super) fn units_rows<'a>(
        &self,
        store: &'a mut [u64],
        g: &BitGrid,
        top: usize,
    ) -> &'a mut [Unit] {
        let units = self.view(store);
        for y in 0..self.h {
            let at = self.unit(y, 0);
            for (u, &word) in units[at..at + self.n].iter_mut().zip(g.row_words(top + y)) {
                u.0[OPEN] = word;
            }
        }
        units
    }
}

/// The four words of a unit: the open (not yet visited, passable) cells, then three frontier
/// slots (previous, current and next layer, in turn). Aligned to its 32 bytes, so that a
/// unit never straddles two cache lines.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(crate) struct Unit(pub(crate) [u64; 4]);

/// The slot of the open cells in a [`Unit`].
pub(super) const OPEN: usize = 0;

/// The slots of layer `layer`'s frontier, the next one and the previous one.
#[inline(always)]
pub(super) fn slots(layer: u32) -> (usize, usize, usize) {
    let k = (layer % 3) as usize;
    (1 + k, 1 + (k + 1) % 3, 1 + (k + 2) % 3)
}

/// The masks a move in each direction may start from, padded (only with connection masks).
pub(super) type Cons = [Vec<u64>; 8];

/// The word of `con` for direction `d` at unit `u`, all ones without masks.
#[inline(always)]
fn cw<const CON: bool>(con: &Cons, d: Dir, u: usize) -> u64 {
    if CON {
        con[d.index()][u]
    } else {
        !0
    }
}

/// Runs the BFS from `seeds` (layer 0, whether passable or not) through `passable` minus the
/// seeds, writing every reached cell's layer into `dist` when given (row-major `w * h`, which
/// must hold [`UNREACHED`] elsewhere). With `owner` (row-major, holding the seeds' owners),
/// every other reached cell gets its owner. Returns the last layer reached (0 with only
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
    match bfs_until(seeds, passable, moves, con, dist, owner, usize::MAX) {
        Ok(last) | Err(last) => last,
    }
}

/// The distances of [`bfs`] (without owners) on this thread until a layer's frontier has
/// `wide` words or more: `Ok` with the last layer, or `Err(layer)` with every layer up to
/// `layer` in `dist` (the row bands of `bands.rs` go on from there).
pub(super) fn distances_until(
    seeds: &BitGrid,
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
    dist: &mut [u32],
    wide: usize,
) -> Result<u32, u32> {
    bfs_until(seeds, passable, moves, con, Some(dist), None, wide)
}

/// [`bfs`], or with distances alone and `wide` not `usize::MAX`, [`distances_until`].
fn bfs_until(
    seeds: &BitGrid,
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
    mut dist: Option<&mut [u32]>,
    mut owner: Option<&mut [u32]>,
    wide: usize,
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
    macro_rules! each_shape_until {
        ($own:expr, $sink:expr, $wide:expr) => {
            match (eight, cons.is_some()) {
                (false, false) => {
                    run::<false, false, $own, _>(pad, seeds, passable, c, $sink, $wide)
                }
                (false, true) => run::<false, true, $own, _>(pad, seeds, passable, c, $sink, $wide),
                (true, false) => run::<true, false, $own, _>(pad, seeds, passable, c, $sink, $wide),
                (true, true) => run::<true, true, $own, _>(pad, seeds, passable, c, $sink, $wide),
            }
        };
    }
    macro_rules! each_shape {
        ($own:expr, $sink:expr) => {
            match each_shape_until!($own, $sink, usize::MAX) {
                Ok(last) | Err(last) => last,
            }
        };
    }
    // Until a wide frontier (the row bands of `bands.rs` go on from there): on this thread,
    // with the writer thread on a large grid as below (a maze's frontiers never get wide: on
    // 16 cores its BFS took 1.4x the time of the pool of two without the writer).
    let own = owner.is_some();
    if wide != usize::MAX && !own {
        if layer_writer::wanted(cells, false) {
            let two = layer_writer::with_writer(dist.as_deref_mut(), None, pad.w, eight, |feed| {
                each_shape_until!(false, feed, wide)
            });
            if let Some(end) = two {
                return end;
            }
        }
        let mut direct = Direct {
            dist,
            owner: &mut [],
            w: pad.w,
        };
        return each_shape_until!(false, &mut direct, wide);
    }
    // On large grids with a second thread, that thread writes the owners (and distances
    // with them), unless the system refuses the thread: then this one does.
    if layer_writer::wanted(cells, own) {
        let two = layer_writer::with_writer(
            dist.as_deref_mut(),
            owner.as_deref_mut(),
            pad.w,
            eight,
            |feed| {
                if own {
                    each_shape!(true, feed)
                } else {
                    each_shape!(false, feed)
                }
            },
        );
        if let Some(last) = two {
            return Ok(last);
        }
    }
    let mut direct = Direct {
        dist,
        owner: owner.unwrap_or(&mut []),
        w: pad.w,
    };
    Ok(if own {
        each_shape!(true, &mut direct)
    } else {
        each_shape!(false, &mut direct)
    })
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
            own_bits::<EIGHT>(from, self.w, f, base, self.owner);
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

impl Next {
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

    /// [`Next::push`] for the one bit carried into the word beside: rarely set, so a branch
    /// (well predicted) skips the push.
    #[inline(always)]
    fn push_carry(&mut self, units: &mut [Unit], t: usize, base: usize, bit: u64) {
        if bit != 0 {
            self.push(units, t, base, bit);
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

/// Pushes the frontier word `f` at unit `u` (first cell `base`; `s` units and `w` cells a
/// row) into its neighbour words of the next layer.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn push_word<const EIGHT: bool, const CON: bool>(
    units: &mut [Unit],
    next: &mut Next,
    c: &Cons,
    u: usize,
    base: usize,
    f: u64,
    s: usize,
    w: usize,
) {
    // Moves west (towards bit 0, and bit 0 into bit 63 of the word before), east,
    // north and south, each from the cells whose mask allows it.
    let (fw, fe) = (f & cw::<CON>(c, Dir::W, u), f & cw::<CON>(c, Dir::E, u));
    let (up, down) = (u - s, u + s);
    let (bup, bdown) = (base.wrapping_sub(w), base.wrapping_add(w));
    let (bl, br) = (base.wrapping_sub(64), base.wrapping_add(64));
    next.push(units, u, base, (fw >> 1) | (fe << 1));
    next.push_carry(units, u - 1, bl, fw << 63);
    next.push_carry(units, u + 1, br, fe >> 63);
    let fnn = f & cw::<CON>(c, Dir::N, u);
    let fs = f & cw::<CON>(c, Dir::S, u);
    if EIGHT {
        let fnw = f & cw::<CON>(c, Dir::NW, u);
        let fne = f & cw::<CON>(c, Dir::NE, u);
        let fsw = f & cw::<CON>(c, Dir::SW, u);
        let fse = f & cw::<CON>(c, Dir::SE, u);
        let (l, r) = (bup.wrapping_sub(64), bup.wrapping_add(64));
        next.push(units, up, bup, fnn | (fnw >> 1) | (fne << 1));
        next.push_carry(units, up - 1, l, fnw << 63);
        next.push_carry(units, up + 1, r, fne >> 63);
        let (l, r) = (bdown.wrapping_sub(64), bdown.wrapping_add(64));
        next.push(units, down, bdown, fs | (fsw >> 1) | (fse << 1));
        next.push_carry(units, down - 1, l, fsw << 63);
        next.push_carry(units, down + 1, r, fse >> 63);
    } else {
        next.push(units, up, bup, fnn);
        next.push(units, down, bdown, fs);
    }
}

/// For each cell of unit `u`, which neighbours in the previous layer (slot `pk`) reach it in
/// one move: masks of the cells with a predecessor to the west, east, north, south, then
/// (8-neighbour moves) north-west, north-east, south-west and south-east.
#[inline(always)]
fn predecessors<const EIGHT: bool, const CON: bool>(
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
/// layers up to `layer`; the row bands of `bands.rs` go on from there).
fn run<const EIGHT: bool, const CON: bool, const OWN: bool, S: Sink>(
    pad: Pad,
    seeds: &BitGrid,
    passable: &BitGrid,
    c: &Cons,
    sink: &mut S,
    wide: usize,
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
    loop {
        let (ck, nk, pk) = slots(layer);
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
                let at = units.as_ptr().wrapping_add(v);
                // Two units a line: the lines of the units beside cover the unit itself.
                prefetch(at.wrapping_sub(s).cast());
                prefetch(at.wrapping_sub(1).cast());
                prefetch(at.wrapping_add(1).cast());
                prefetch(at.wrapping_add(s).cast());
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
            return Err(layer);
        }
        layer += 1;
        sink.layer(layer);
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
