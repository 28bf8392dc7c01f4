//! Per-cell pair placements: the oracle of [`Field::drops`](crate::games::puyo::Field::drops)
//! and [`Field::placements`](crate::games::puyo::Field::placements), and their benchmark
//! baseline. Every rule is checked cell by cell on a [`NaivePuyo`] grid; the rules are in the
//! [placement documentation](crate::games::puyo::placement).
//!
//! ```
//! use gridbits::games::puyo::{Field, Pair, Rules};
//! use gridbits::naive::puyo::NaivePuyo;
//! use gridbits::naive::puyo_moves::naive_placements;
//! let open = NaivePuyo::new(Rules::Tsu);
//! assert_eq!(naive_placements(&open, 0, 1).len(), 22);
//! assert_eq!(naive_placements(&open, 3, 3).len(), 11);
//! ```

use super::puyo::NaivePuyo;
use crate::games::puyo::{Cell, Rules, COLUMNS};

/// One placement: the axis column, the rotation (0 child right, 1 above, 2 left, 3 below)
/// and the field right after the pair fell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaivePlacement {
    /// The axis column.
    pub column: usize,
    /// The rotation.
    pub rotation: u8,
    /// The field after the drop, before any chain.
    pub field: NaivePuyo,
}

/// The row of the cells (from the top) that is row 12 counted from the floor.
fn row12(f: &NaivePuyo) -> usize {
    f.rows() - 12
}

/// Whether the game is over: Tsu's death cell (column 3, row 12) holds something, or under
/// Smash the Code no pair fits anywhere.
pub fn naive_game_over(f: &NaivePuyo) -> bool {
    match f.rules {
        Rules::Tsu => f.cells[2][row12(f)] != Cell::Empty,
        Rules::SmashTheCode => naive_placements(f, 0, 1).is_empty(),
    }
}

/// Whether the pair, which appears in column 2, can move to column `x`: under Tsu every
/// column from 2 to `x` must have row 12 empty.
fn reachable(f: &NaivePuyo, x: usize) -> bool {
    if f.rules == Rules::SmashTheCode {
        return true;
    }
    let r = row12(f);
    let (from, to) = if x < 2 { (x, 2) } else { (2, x) };
    (from..=to).all(|c| f.cells[c][r] == Cell::Empty)
}

/// Drops one puyo of colour `c` into column `x`: it stops on the highest occupied cell.
/// Returns `false` when the column has no empty cell on top: under Tsu the puyo vanishes
/// (row 14) and that is fine, under Smash the Code it does not fit.
fn drop_one(f: &mut NaivePuyo, x: usize, c: u8) -> bool {
    // The empty cells on top of the column, top first; the puyo takes the lowest of them.
    let landing = (0..f.rows())
        .take_while(|&y| f.cells[x][y] == Cell::Empty)
        .last();
    match landing {
        Some(y) => {
            f.cells[x][y] = Cell::Color(c);
            true
        }
        None => f.rules == Rules::Tsu,
    }
}

/// Every placement of the pair (`axis`, `child`) on `f`, in order of column then rotation,
/// rotations 2 and 3 left out when both colours are one; checked cell by cell.
pub fn naive_placements(f: &NaivePuyo, axis: u8, child: u8) -> Vec<NaivePlacement> {
    let mut out = Vec::new();
    if axis >= 5 || child >= 5 {
        return out; // not colours: no moves, as in `Field::drops`
    }
    if f.rules == Rules::Tsu && f.cells[2][row12(f)] != Cell::Empty {
        return out;
    }
    for x in 0..COLUMNS {
        for rotation in 0..4u8 {
            if axis == child && rotation >= 2 {
                continue;
            }
            let xc = match rotation {
                0 => x + 1,
                2 if x > 0 => x - 1,
                2 => continue,
                _ => x,
            };
            if xc >= COLUMNS || !reachable(f, x) || !reachable(f, xc) {
                continue;
            }
            let mut g = f.clone();
            let ok = match rotation {
                // Vertical: the lower puyo falls first, the upper one lands on it.
                1 => drop_one(&mut g, x, axis) && drop_one(&mut g, x, child),
                3 => drop_one(&mut g, x, child) && drop_one(&mut g, x, axis),
                _ => drop_one(&mut g, x, axis) && drop_one(&mut g, xc, child),
            };
            if ok {
                out.push(NaivePlacement {
                    column: x,
                    rotation,
                    field: g,
                });
            }
        }
    }
    out
}
