//! Components of several planes, one per class (colour).

use super::components;
use crate::{Board, Connectivity};

/// The components of several planes (one per class, e.g. one per colour), each with the
/// index of its plane. Cells join only cells of their own plane; the planes need not be
/// disjoint.
///
/// ```
/// use gridbits::algo::components::components_by_class;
/// use gridbits::{bitboard, Board, Connectivity};
/// type B = Board<4, 1, 1>;
/// let red = bitboard!(B; "##.#");
/// let blue = bitboard!(B; "..#.");
/// let found: Vec<(usize, u32)> = components_by_class(&[red, blue], Connectivity::Four)
///     .map(|(class, c)| (class, c.count()))
///     .collect();
/// assert_eq!(found, [(0, 1), (0, 2), (1, 1)]);
/// ```
pub fn components_by_class<const W: usize, const H: usize, const N: usize>(
    planes: &[Board<W, H, N>],
    conn: Connectivity,
) -> impl Iterator<Item = (usize, Board<W, H, N>)> + '_ {
    planes
        .iter()
        .enumerate()
        .flat_map(move |(i, &p)| components(p, conn).map(move |c| (i, c)))
}
