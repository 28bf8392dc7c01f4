//! The per-cell writes of the word-frontier BFS: distances, cache hints, and the owner of
//! each cell of a BFS layer in a many-player Voronoi
//! ([`voronoi_owners`](crate::algo::voronoi::voronoi_owners)): the single owner among the cell's
//! predecessors (its neighbours in the layer before that reach it in one move), or
//! [`CONTESTED`] when two differ or one is contested. Combined cell by cell (on the BFS's
//! thread, or on the writer thread of `layer_writer.rs`) once the layer before's owners are
//! all written.

use std::sync::atomic::{AtomicU32, Ordering};

/// Owner code of a cell reached first by two or more players at the same distance.
pub(crate) const CONTESTED: u32 = u32::MAX - 1;
/// Owner code of a cell no player reaches.
pub(crate) const UNREACHED: u32 = u32::MAX;

/// Writes `layer` into `dist` at the cells `bits` of the word whose first cell is `base`.
#[inline(always)]
pub(super) fn write_layer(dist: &mut [u32], base: usize, bits: u64, layer: u32) {
    let mut b = bits;
    while b != 0 {
        dist[base + b.trailing_zeros() as usize] = layer;
        b &= b - 1;
    }
}

/// Asks for the cache line at `p` ahead of a write: a hint that never faults, whatever the
/// address (on a large grid the distance map is far bigger than the caches, and a thin
/// frontier writes one cell per line, a layer after the push that found it).
#[inline(always)]
pub(super) fn prefetch(p: *const u32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program and cannot fault, whatever the
    // address (`p` may be one past a word's cells, or anything when no bit was pushed); SSE
    // is part of every x86-64 CPU.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Prefetches the lines of cell `at` of a row-major array `w` wide (`cells`) and of the
/// cells above and below it: where a frontier cell's predecessors' owners are read.
#[inline(always)]
pub(super) fn prefetch_rows(cells: &[u32], at: usize, w: usize) {
    prefetch_rows_at(cells.as_ptr(), at, w);
}

/// [`prefetch_rows`] of the array whose first cell is at `first`.
#[inline(always)]
pub(super) fn prefetch_rows_at(first: *const u32, at: usize, w: usize) {
    let p = first.wrapping_add(at);
    prefetch(p);
    prefetch(p.wrapping_sub(w));
    prefetch(p.wrapping_add(w));
}

/// Claims a source cell, holding `code`, for player `p` before the BFS: `p` if no other
/// player claimed it, [`CONTESTED`] if one did (a cell that is a source of two players).
pub(crate) fn claim_source(code: &mut u32, p: usize) {
    let p = p as u32;
    *code = if *code == UNREACHED || *code == p {
        p
    } else {
        CONTESTED
    };
}

/// The owner array a BFS writes: a plain array on one thread, or cells shared by the row
/// bands of `bands/`, where a band reads the owners of the edge row of the band beside (its
/// cells' predecessors, written a layer before, behind the layer's barrier) while that band
/// writes the owners of its own rows. Relaxed atomic loads and stores are plain moves; the
/// barrier orders them.
pub(super) trait OwnerCells {
    /// The owner of cell `i`.
    fn get(&self, i: usize) -> u32;
    /// Sets the owner of cell `i`.
    fn set(&mut self, i: usize, owner: u32);
}

impl OwnerCells for [u32] {
    #[inline(always)]
    fn get(&self, i: usize) -> u32 {
        self[i]
    }

    #[inline(always)]
    fn set(&mut self, i: usize, owner: u32) {
        self[i] = owner;
    }
}

impl OwnerCells for &[AtomicU32] {
    #[inline(always)]
    fn get(&self, i: usize) -> u32 {
        self[i].load(Ordering::Relaxed)
    }

    #[inline(always)]
    fn set(&mut self, i: usize, owner: u32) {
        self[i].store(owner, Ordering::Relaxed);
    }
}

/// The cells of `owner` as cells that threads may share ([`OwnerCells`] for the row bands).
pub(super) fn shared_cells(owner: &mut [u32]) -> &[AtomicU32] {
    const _: () = assert!(std::mem::align_of::<AtomicU32>() == std::mem::align_of::<u32>());
    // SAFETY: `AtomicU32` has the size and bit validity of `u32`, and (asserted above) its
    // alignment; the exclusive borrow of `owner` is held for the lifetime of the result, so
    // no other access to the cells exists while they are accessed atomically.
    unsafe { &*(std::ptr::from_mut(owner) as *const [AtomicU32]) }
}

/// The owners of the cells `f` (first cell `base`, in a grid `w` wide) of a layer `> 0`, from
/// the masks `from` of the cells with a predecessor in each direction (`predecessors` in
/// `frontier.rs`): for each cell, the single owner among its predecessors, or [`CONTESTED`]
/// when two differ or one is contested. `f` must have a cell (every frontier word has).
#[inline(always)]
pub(super) fn own_bits<const EIGHT: bool, O: OwnerCells + ?Sized>(
    from: &[u64; 8],
    w: usize,
    f: u64,
    base: usize,
    owner: &mut O,
) {
    // Each mask with the offset from a cell to that predecessor.
    let w = w as isize;
    let offsets = [-1, 1, -w, w, -w - 1, -w + 1, w - 1, w + 1];
    let n = if EIGHT { 8 } else { 4 };
    let (from, offsets) = (&from[..n], &offsets[..n]);
    // The first two cells without a loop: a large frontier's words hold one, two or more
    // cells in no predictable order, and a loop's exit would be mispredicted about once a
    // word. A word of one cell combines it twice:
    // the same owner, written twice (its predecessors are in the layer before, unchanged).
    debug_assert!(f != 0, "a frontier word has cells");
    let k0 = f.trailing_zeros();
    let rest = f & f.wrapping_sub(1);
    let k1 = if rest != 0 { rest.trailing_zeros() } else { k0 };
    own_cell(from, offsets, base + k0 as usize, k0, owner);
    own_cell(from, offsets, base + k1 as usize, k1, owner);
    let mut bits = rest & rest.wrapping_sub(1);
    while bits != 0 {
        let k = bits.trailing_zeros();
        bits &= bits - 1;
        own_cell(from, offsets, base + k as usize, k, owner);
    }
}

/// Writes the owner of cell `at`, bit `k` of the masks `from` of the cells with a
/// predecessor at each of `offsets`.
///
/// Its predecessors combined without a data-dependent branch. A missing predecessor reads
/// one that is present instead (every cell of a layer `> 0` has one; it was written a layer
/// ago, so it is in cache, unlike the cell's own slot): reading it twice changes nothing. Two
/// different owners, or a contested one, give [`CONTESTED`].
#[inline(always)]
fn own_cell<O: OwnerCells + ?Sized>(
    from: &[u64],
    offsets: &[isize],
    at: usize,
    k: u32,
    owner: &mut O,
) {
    let mut any = at;
    for (&m, &d) in from.iter().zip(offsets) {
        if (m >> k) & 1 != 0 {
            any = at.wrapping_add_signed(d);
        }
    }
    let mut o = owner.get(any);
    for (&m, &d) in from.iter().zip(offsets) {
        let v = owner.get(if (m >> k) & 1 != 0 {
            at.wrapping_add_signed(d)
        } else {
            any
        });
        // A select, not a branch (LLVM makes one of the `if`): where territories meet,
        // whether owners differ is unpredictable.
        o = std::hint::select_unpredictable(v == o, o, CONTESTED);
    }
    owner.set(at, o);
}
