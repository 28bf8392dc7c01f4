//! Per-cell reference for Amazons move generation: every queen move and every arrow shot walks
//! its ray cell by cell.
//!
//! The oracle of the move generator of [`games::amazons`](crate::games::amazons) and its
//! benchmark baseline. It works on any board size. A move is `(from, to, arrow)`, squares as
//! `(x, y)` with `y` from the top.
//!
//! ```
//! use gridbits::naive::{amazons_moves, NaiveGrid};
//! // One amazon in the corner of an empty 2x2 board.
//! let mut own = NaiveGrid::new(2, 2);
//! own.set(0, 0, true);
//! let empty = own.not();
//! // 3 targets, 3 arrows each (the square left behind included).
//! assert_eq!(amazons_moves::count(&own, &empty), 9);
//! assert_eq!(amazons_moves::moves(&own, &empty).len(), 9);
//! ```

use super::NaiveGrid;
use crate::dir::{step, Moves};

/// A move: `(from, to, arrow)`.
pub type NaiveMove = ((usize, usize), (usize, usize), (usize, usize));

/// Calls `f(to)` for every cell a queen on `(x, y)` reaches through `empty`, walking each ray
/// in the order of [`Moves::Queen`]'s directions.
fn walk(empty: &NaiveGrid, x: usize, y: usize, mut f: impl FnMut((usize, usize))) {
    for &dir in Moves::Queen.dirs() {
        let mut k = 1;
        while let Some(c) = step(x, y, dir, k, empty.width(), empty.height()) {
            if !empty.get(c.0, c.1) {
                break;
            }
            f(c);
            k += 1;
        }
    }
}

/// Calls `f` on every move of the amazons `own` through the `empty` cells; `empty` is changed
/// while a move is being expanded (the amazon's square emptied) and restored.
fn for_each(own: &NaiveGrid, empty: &mut NaiveGrid, mut f: impl FnMut(NaiveMove)) {
    for from in own.cells() {
        let mut targets = Vec::new();
        walk(empty, from.0, from.1, |to| targets.push(to));
        empty.set(from.0, from.1, true);
        for &to in &targets {
            empty.set(to.0, to.1, false);
            walk(empty, to.0, to.1, |arrow| f((from, to, arrow)));
            empty.set(to.0, to.1, true);
        }
        empty.set(from.0, from.1, false);
    }
}

/// Every move of the amazons `own` through the `empty` cells (the mover's amazons are not
/// empty cells), amazon by amazon in row-major order.
pub fn moves(own: &NaiveGrid, empty: &NaiveGrid) -> Vec<NaiveMove> {
    let mut out = Vec::new();
    for_each(own, &mut empty.clone(), |m| out.push(m));
    out
}

/// The number of moves of the amazons `own` through `empty`: every arrow walked, none stored.
pub fn count(own: &NaiveGrid, empty: &NaiveGrid) -> u64 {
    let mut n = 0;
    for_each(own, &mut empty.clone(), |_| n += 1);
    n
}

/// Perft: the number of move sequences of length `depth`, `own` moving first and the sides
/// alternating, each move made and unmade in place on the grids (`perft(0)` is 1).
pub fn perft(own: &NaiveGrid, other: &NaiveGrid, empty: &NaiveGrid, depth: u32) -> u64 {
    let (mut own, mut other, mut empty) = (own.clone(), other.clone(), empty.clone());
    perft_in_place(&mut own, &mut other, &mut empty, depth)
}

fn perft_in_place(
    own: &mut NaiveGrid,
    other: &mut NaiveGrid,
    empty: &mut NaiveGrid,
    depth: u32,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        let mut n = 0;
        for_each(own, empty, |_| n += 1);
        return n;
    }
    let mut total = 0;
    for (from, to, arrow) in moves(own, empty) {
        own.set(from.0, from.1, false);
        own.set(to.0, to.1, true);
        empty.set(from.0, from.1, true);
        empty.set(to.0, to.1, false);
        empty.set(arrow.0, arrow.1, false);
        total += perft_in_place(other, own, empty, depth - 1);
        empty.set(arrow.0, arrow.1, true);
        empty.set(to.0, to.1, true);
        empty.set(from.0, from.1, false);
        own.set(to.0, to.1, false);
        own.set(from.0, from.1, true);
    }
    total
}
