//! Groups of `K` or more cells: the Puyo vanish mask, without enumerating components.

use super::{fill_lowest, grow, has, lowest, nb, neighboured, two_neighbours, with_conn};
use crate::{Board, Connectivity, Dir};

/// The 4-connected groups of four or more cells (puyoai's `findVanishingBits` idea): a cell
/// with three neighbours, or two adjacent cells with two or more each, lies in such a group
/// and every group has one; every cell of a group is such a seed or next to one.
#[inline(always)]
fn groups4<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
) -> Board<W, H, N> {
    let n = has(plane, Dir::N);
    let s = has(plane, Dir::S);
    let e = has(plane, Dir::E);
    let w = has(plane, Dir::W);
    let (ns_and, ew_and) = (n & s, e & w);
    let (ns_or, ew_or) = (n | s, e | w);
    let three = (ns_and & ew_or) | (ew_and & ns_or);
    let two = ns_and | ew_and | (ns_or & ew_or);
    let pairs = two & (nb(two, Dir::N) | nb(two, Dir::S) | nb(two, Dir::E) | nb(two, Dir::W));
    grow(three | pairs, plane, Connectivity::Four)
}

/// The cells of every component of `plane` with at least `k` cells.
///
/// No component is enumerated for `k <= 3` (any connectivity) or `k = 4` with 4-connectivity:
///
/// - `k = 2`: the cells with a neighbour;
/// - `k = 3`: the cells with two or more neighbours, and their neighbours (a connected set of
///   three or more cells has such a cell, and every other cell is next to one);
/// - `k = 4`, 4-connected: the Puyo vanish mask. A cell with three neighbours, or two adjacent
///   cells with two or more each, seeds a group of 4+; every group of 4+ has a seed and every
///   of its cells is a seed or next to one (a grid has no triangles), so one dilation of the
///   seeds inside the plane gives the mask. About 30 word operations, no branch.
///
/// Larger `k` (and `k = 4` with 8-connectivity, where triangles break the argument) start
/// from the `k = 4` or `k = 3` mask, which holds whole components only, and fill the
/// components left in it, stopping as soon as fewer than `k` cells remain.
///
/// ```
/// use gridbits::algo::components::groups_at_least;
/// use gridbits::{bitboard, Board, Connectivity};
/// type B = Board<6, 3, 1>;
/// let plane = bitboard!(B; "##..#.", ".#..#.", ".#.##.");
/// assert_eq!(groups_at_least(plane, 4, Connectivity::Four), plane);
/// assert_eq!(groups_at_least(plane, 5, Connectivity::Four).count(), 0);
/// assert_eq!(groups_at_least(plane, 4, Connectivity::Eight), plane);
/// assert!(groups_at_least(plane, 5, Connectivity::Eight).is_empty());
/// ```
pub fn groups_at_least<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    k: usize,
    conn: Connectivity,
) -> Board<W, H, N> {
    with_conn(conn, |conn| groups_impl(plane, k, conn))
}

#[inline(always)]
fn groups_impl<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    k: usize,
    conn: Connectivity,
) -> Board<W, H, N> {
    match (k, conn) {
        (0 | 1, _) => plane,
        (2, _) => neighboured(plane, conn),
        (3, _) => grow(two_neighbours(plane, conn), plane, conn),
        (4, Connectivity::Four) => groups4(plane),
        _ => {
            let mut rest = match conn {
                Connectivity::Four => groups4(plane),
                Connectivity::Eight => grow(two_neighbours(plane, conn), plane, conn),
            };
            let mut out = Board::EMPTY;
            while rest.count() as usize >= k {
                let c = fill_lowest(lowest(rest), rest, conn);
                rest ^= c;
                if c.count() as usize >= k {
                    out |= c;
                }
            }
            out
        }
    }
}

/// The union of [`groups_at_least`] over several planes (one per colour): for a Puyo field,
/// every cell that vanishes.
///
/// ```
/// use gridbits::algo::components::groups_at_least_any;
/// use gridbits::{bitboard, Board, Connectivity};
/// type B = Board<4, 2, 1>;
/// let red = bitboard!(B; "###.", "#...");
/// let green = bitboard!(B; "...#", ".###");
/// assert_eq!(groups_at_least_any(&[red, green], 4, Connectivity::Four), red | green);
/// ```
pub fn groups_at_least_any<const W: usize, const H: usize, const N: usize>(
    planes: &[Board<W, H, N>],
    k: usize,
    conn: Connectivity,
) -> Board<W, H, N> {
    planes
        .iter()
        .fold(Board::EMPTY, |acc, &p| acc | groups_at_least(p, k, conn))
}
