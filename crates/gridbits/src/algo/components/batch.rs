//! Many boards at once, on every core: [`components_many`], [`count_components_many`].

use super::components;
use crate::parallel::map_slice;
use crate::{Board, Connectivity};

/// The components of every plane ([`components`], in its order), one
/// `Vec` per plane, in the order of the planes. With the feature `parallel` the planes are
/// shared out over the threads of the current pool ([`crate::parallel`]); without it they
/// run one after the other. The result is the same either way.
///
/// ```
/// use gridbits::algo::components::components_many;
/// use gridbits::{bitboard, Board8x8, Connectivity};
/// let a = bitboard!(Board8x8; "#.#.....", "........", "........", "........",
///                             "........", "........", "........", "#.......");
/// let parts = components_many(&[a, Board8x8::EMPTY], Connectivity::Four);
/// assert_eq!(parts[0].len(), 3);
/// assert!(parts[1].is_empty());
/// ```
pub fn components_many<const W: usize, const H: usize, const N: usize>(
    planes: &[Board<W, H, N>],
    conn: Connectivity,
) -> Vec<Vec<Board<W, H, N>>> {
    map_slice(planes, |&p| components(p, conn).collect())
}

/// The number of components of every plane, in the order of the planes, on every core as
/// [`components_many`] (which it equals in length, without collecting the boards).
///
/// ```
/// use gridbits::algo::components::count_components_many;
/// use gridbits::{bitboard, Board8x8, Connectivity};
/// let a = bitboard!(Board8x8; "#.#.....", ".#......", "........", "........",
///                             "........", "........", "........", "........");
/// assert_eq!(count_components_many(&[a], Connectivity::Four), [3]);
/// assert_eq!(count_components_many(&[a], Connectivity::Eight), [1]);
/// ```
pub fn count_components_many<const W: usize, const H: usize, const N: usize>(
    planes: &[Board<W, H, N>],
    conn: Connectivity,
) -> Vec<u32> {
    map_slice(planes, |&p| components(p, conn).count() as u32)
}
