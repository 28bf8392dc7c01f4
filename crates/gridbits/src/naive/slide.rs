//! Per-cell reference for sliding moves: every ray walked cell by cell.
//!
//! The oracle of [`algo::slide`](crate::algo::slide) and its benchmark baseline.
//!
//! ```
//! use gridbits::naive::{slide, NaiveGrid};
//! use gridbits::Moves;
//! let mut rook = NaiveGrid::new(3, 3);
//! rook.set(0, 0, true);
//! let free = NaiveGrid::full(3, 3).and_not(&rook);
//! assert_eq!(slide::reach(&rook, &free, Moves::Rook).count(), 4);
//! ```

use super::NaiveGrid;
use crate::dir::{step, Dir, Moves};

/// The cells reached from any of `pieces` moving in direction `dir` through `passable` cells:
/// one step if `!sliding`, else any number of steps, stopping before the first cell that is
/// not passable. A piece's own cell is included only when another piece reaches it.
pub fn ray(pieces: &NaiveGrid, passable: &NaiveGrid, dir: Dir, sliding: bool) -> NaiveGrid {
    let (w, h) = (pieces.width(), pieces.height());
    let mut out = NaiveGrid::new(w, h);
    for (x, y) in pieces.cells() {
        let mut k = 1;
        while let Some((nx, ny)) = step(x, y, dir, k, w, h) {
            if !passable.get(nx, ny) {
                break;
            }
            out.set(nx, ny, true);
            if !sliding {
                break;
            }
            k += 1;
        }
    }
    out
}

/// The cells reached in one move by any of `pieces` through `passable` cells, in every
/// direction of `moves`.
pub fn reach(pieces: &NaiveGrid, passable: &NaiveGrid, moves: Moves) -> NaiveGrid {
    let mut out = NaiveGrid::new(pieces.width(), pieces.height());
    for &d in moves.dirs() {
        out = out.or(&ray(pieces, passable, d, moves.is_sliding()));
    }
    out
}

/// The one-dimensional problem of "Sub-linear bitfield flood fill with galloping": on a line of cells (`walls[i]`, `pieces[i]` for cell `i`),
/// the cells reachable by a piece moving towards larger indices (`right`) and towards
/// smaller ones (`left`). Only walls block; a piece's own cell counts only when another
/// piece reaches it.
///
/// ```
/// let walls = [false, false, true, false];
/// let pieces = [true, false, false, true];
/// let (right, left) = gridbits::naive::slide::line_reach(&walls, &pieces);
/// assert_eq!(right, vec![false, true, false, false]);
/// assert_eq!(left, vec![false, false, false, false]);
/// ```
pub fn line_reach(walls: &[bool], pieces: &[bool]) -> (Vec<bool>, Vec<bool>) {
    let n = walls.len().min(pieces.len());
    let mut right = vec![false; n];
    let mut left = vec![false; n];
    for i in (0..n).filter(|&i| pieces[i]) {
        for j in i + 1..n {
            if walls[j] {
                break;
            }
            right[j] = true;
        }
        for j in (0..i).rev() {
            if walls[j] {
                break;
            }
            left[j] = true;
        }
    }
    (right, left)
}
