//! Sliding moves (rook, bishop, queen): occluded fills through passable cells.

use crate::{BitBoard, Dir, Moves};

/// The cells reachable in one sliding move by any of `pieces`, through `passable` cells, in
/// the directions of `moves` (a `Four`/`Eight` move is one step). The pieces' own cells are
/// not included unless another piece reaches them; a slide stops before the first cell that
/// is not passable.
///
/// This is the plain shift-by-one loop (Dumb7Fill), correct for any set of pieces at once.
///
/// ```
/// use gridbits::{algo::slide::reach, bitboard, Board, Moves};
/// type B = Board<5, 3, 1>;
/// let pieces = bitboard!(B; ".....", "..#..", ".....");
/// let free = bitboard!(B; ".....", "#...#", ".....").complement().and_not(pieces);
/// let r = reach(&pieces, &free, Moves::Rook);
/// assert_eq!(r, bitboard!(B; "..#..", ".#.#.", "..#.."));
/// ```
pub fn reach<B: BitBoard>(pieces: &B, passable: &B, moves: Moves) -> B {
    let mut out = pieces.empty_like();
    for &d in moves.dirs() {
        out.or_assign(&ray_fill(pieces, passable, d, moves.is_sliding()));
    }
    out
}

/// The cells reached from `pieces` moving in direction `d` through `passable` cells: one step
/// if `!sliding`, else any number of steps (the pieces' cells themselves are not included).
pub fn ray_fill<B: BitBoard>(pieces: &B, passable: &B, d: Dir, sliding: bool) -> B {
    let mut front = pieces.shift(d);
    front.and_assign(passable);
    if !sliding {
        return front;
    }
    let mut all = front.clone();
    while !front.is_empty() {
        front = front.shift(d);
        front.and_assign(passable);
        front.and_not_assign(&all);
        all.or_assign(&front);
    }
    all
}
