//! The owner of each cell of a BFS layer in a many-player Voronoi
//! ([`voronoi_owners`](super::voronoi_owners)): the single owner among the cell's
//! predecessors (its neighbours in the layer before that reach it in one move), or
//! [`CONTESTED`] when two differ or one is contested. Combined cell by cell (on the BFS's
//! thread, or on the writer thread of `layer_writer.rs`) once the layer before's owners are
//! all written.

use super::frontier::CONTESTED;

/// The owners of the cells `f` (first cell `base`, in a grid `w` wide) of a layer `> 0`, from
/// the masks `from` of the cells with a predecessor in each direction (`predecessors` in
/// `frontier.rs`): for each cell, the single owner among its predecessors, or [`CONTESTED`]
/// when two differ or one is contested.
#[inline(always)]
pub(super) fn own_bits<const EIGHT: bool>(
    from: &[u64; 8],
    w: usize,
    f: u64,
    base: usize,
    owner: &mut [u32],
) {
    // Each mask with the offset from a cell to that predecessor.
    let w = w as isize;
    let offsets = [-1, 1, -w, w, -w - 1, -w + 1, w - 1, w + 1];
    let n = if EIGHT { 8 } else { 4 };
    let (from, offsets) = (&from[..n], &offsets[..n]);
    // Each cell's predecessors, combined without a data-dependent branch. A missing
    // predecessor reads one that is present instead (every cell of a layer `> 0` has one; it
    // was written a layer ago, so it is in cache, unlike the cell's own slot): reading it
    // twice changes nothing. Two different owners, or a contested one, give [`CONTESTED`].
    let mut bits = f;
    while bits != 0 {
        let k = bits.trailing_zeros();
        bits &= bits - 1;
        let at = base + k as usize;
        let mut any = at;
        for (&m, &d) in from.iter().zip(offsets) {
            if (m >> k) & 1 != 0 {
                any = at.wrapping_add_signed(d);
            }
        }
        let mut o = owner[any];
        for (&m, &d) in from.iter().zip(offsets) {
            let v = owner[if (m >> k) & 1 != 0 {
                at.wrapping_add_signed(d)
            } else {
                any
            }];
            // A select, not a branch (LLVM makes one of the `if`): where territories meet,
            // whether owners differ is unpredictable.
            o = std::hint::select_unpredictable(v == o, o, CONTESTED);
        }
        owner[at] = o;
    }
}
