//! Hit-or-miss: where one footprint fits the set cells and another the empty ones.

use super::binary::once_or_panic;
use super::footprint::Footprint;
use crate::BitGrid;

/// The cells `p` where every offset of `hit` lands on a set cell and every offset of `miss`
/// on an empty one, cells off the grid counting as empty (scipy's `binary_hit_or_miss`).
///
/// ```
/// use gridbits::algo::morph::{hit_or_miss, Footprint};
/// use gridbits::BitGrid;
/// // Isolated cells: the centre set, its 8 neighbours empty.
/// let hit = Footprint::try_from_fn(3, 3, |x, y| (x, y) == (1, 1)).unwrap();
/// let miss = Footprint::try_from_fn(3, 3, |x, y| (x, y) != (1, 1)).unwrap();
/// let g = BitGrid::parse("#...\n..##\n....\n").unwrap();
/// assert_eq!(hit_or_miss(&g, &hit, &miss).to_text(), "#...\n....\n....\n");
/// ```
///
/// # Panics
///
/// If the engine's tables cannot be allocated (footprints far larger than the grid are cut
/// to it first, so this needs both to be huge).
#[track_caller]
pub fn hit_or_miss(grid: &BitGrid, hit: &Footprint, miss: &Footprint) -> BitGrid {
    let mut out = once_or_panic(grid, hit, true, false);
    out.and_assign(&once_or_panic(&!grid, miss, true, true));
    out
}
