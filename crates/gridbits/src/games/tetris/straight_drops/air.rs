//! The search over the air near the top (a part of the straight drops, the
//! [module above](super)).
//!
//! # Why it is exact
//!
//! When a drop rests above the spawn row (or the piece fits above the stack nowhere in some
//! column), items 2 and 3 of the [straight drops' proof](super) fail: the spawn row is blocked
//! somewhere. Call *the air* of `(r, cx)` every position `0 <= cy <= land(r, cx)` (all fit, item 1,
//! with the landing rows on the plain per-column rule). A search over the air marks positions
//! reachable, keeping per orientation and column the highest row reached (`top`): the positions
//! from `top` down to `land` are then reachable too (soft drop through the air). It starts at the
//! spawn after the blocked-spawn rule (declining when that is not in the air) and follows only
//! moves that certainly end in the air: a slide from row `top(r, cx)` into a neighbour whose air
//! reaches that row; a quarter turn from row `top(r, cx)` whose kick tests, taken in order, reach a
//! test landing in the air while every earlier test does not fit (a test that fits under the
//! stack's surface ends the turn there: not followed). Everything it marks is reachable, so a
//! column it reaches has its highest lock at `land(r, cx)` (item 4). When it reaches every column
//! of every reported orientation (or of one with the same cells), the highest locks are the landing
//! rows; else (a column out of reach over a tall column, or one only a move under the surface
//! reaches) it declines. The T's spins follow [their rule](super::t_spins) with "in the air" read
//! as "at or below a reached row", in all four orientations (a lock in `2` at the top row has its
//! box's top row above the matrix).

use super::{Drops, Tops};
use crate::games::tetris::moves::{distinct, kick_shifts, GEO};
use crate::games::tetris::{spawn_position, Piece, Rotation, Tetris, Turn};

/// The columns the air search reached, per reported orientation (bit `x` of `r & same`, the
/// orientations with the same cells sharing one), and how many are still missing.
struct Reached {
    bits: [u64; 4],
    missing: usize,
    same: usize,
}

impl Reached {
    #[inline(always)]
    fn mark(&mut self, r: usize, x: usize) {
        let (b, bit) = (&mut self.bits[r & self.same], 1u64 << x);
        self.missing -= usize::from(*b & bit == 0);
        *b |= bit;
    }
}

impl<const W: usize> Tetris<W> {
    /// The landing rows of every orientation and column of `piece` on the plain per-column
    /// rule, written over `tops`; `false` when a column has none (the piece fits above the
    /// stack nowhere there).
    fn plain_landing_rows(&self, piece: Piece, tops: &mut Tops<W>) -> bool {
        let h = self.height() as i32;
        let cols = self.board().columns();
        let heights: [i32; W] = std::array::from_fn(|x| 64 - cols[x].leading_zeros() as i32);
        for (r, g) in GEO[piece as usize][..distinct(piece)].iter().enumerate() {
            let s = piece.shape(Rotation::ALL[r]);
            for cx in 0..=W - usize::from(g.w) {
                let rest = (0..usize::from(s.w))
                    .map(|k| heights[cx + k] - i32::from(s.bottom[k]))
                    .max()
                    .unwrap_or(0)
                    .max(0);
                let land = h - i32::from(s.h) - rest;
                if land < 0 {
                    return false;
                }
                tops.0[r][cx] = land as u8;
            }
        }
        true
    }

    /// Near the top (a straight drop rests above the spawn row, or the piece fits above the
    /// stack nowhere in some column): searches the positions in the air (each column's
    /// positions from the top row down to its straight drop's landing row) reachable from
    /// the spawn by slides, soft drops and rotations from each column's highest reached row,
    /// writes `d.top` and the landing rows into `tops`; `true` when every orientation's every
    /// column is reached (then its highest lock is its landing row), `false` when one is not
    /// (or has no air) and the full generator decides. The search follows only moves that
    /// certainly end in the air (the [module documentation](self)): what it reaches
    /// is reachable.
    #[inline(always)]
    pub(super) fn search_air(&self, piece: Piece, tops: &mut Tops<W>, d: &mut Drops<W>) -> bool {
        let n = distinct(piece);
        let (sx, sy) = spawn_position(piece, W, self.height());
        let Some((x, y)) = self.spawn_near(piece, Rotation::Spawn, sx, sy) else {
            return false;
        };
        // Where the piece fits nowhere above the stack in a column, the lanes' landing rows
        // are not exact: the plain rule tells that column (no air there, no search).
        if d.no_air && !self.plain_landing_rows(piece, tops) {
            return false;
        }
        // Per orientation the number of tight columns on the matrix, and the orientation
        // whose landing rows it shares (`n` is 1, 2 or 4: `r % n` is `r & (n - 1)`).
        let cols_of: [usize; 4] = std::array::from_fn(|r| W + 1 - usize::from(d.width[r]));
        let same = n - 1;
        let land = |r: usize, tx: i32| -> Option<i32> {
            // A negative column converts past every column.
            let x = tx as usize;
            (x < cols_of[r]).then(|| i32::from(tops.0[r & same][x]))
        };
        let g = &GEO[piece as usize][0];
        let (cx, cy) = (x + i32::from(g.dx), y + i32::from(g.ty));
        // The start in the air (not in a hole under the stack), or no search.
        if land(0, cx).is_none_or(|l| cy > l) {
            return false;
        }
        let top = &mut d.top;
        top[0][cx as usize] = cy as u8;
        // The columns reached per reported orientation (bit `x` of `r & same`) and how many
        // are not: when every column is reached, the highest locks are the landing rows
        // whatever else the search finds, so a piece without spins stops there (a T goes on:
        // its spins read the highest rows reached).
        let mut reached = Reached {
            bits: [0; 4],
            missing: cols_of[..n].iter().sum(),
            same,
        };
        reached.mark(0, cx as usize);
        let early = piece != Piece::T;
        let mut done = [[Tops::<W>::NONE; W]; 4];
        // The orientations with rows reached since they were last looked at.
        let mut dirty = 1u8;
        while dirty != 0 {
            if early && reached.missing == 0 {
                return true;
            }
            let r = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let cols = W + 1 - usize::from(d.width[r]);
            let lands = &tops.0[r % n];
            // Slides: the highest reached row moves on while the air beside reaches it, then
            // drops (right, then left: the minimum spreads both ways).
            for x in 1..cols {
                let t = top[r][x - 1];
                if t < top[r][x] && t <= lands[x] {
                    top[r][x] = t;
                    reached.mark(r, x);
                }
            }
            for x in (0..cols.saturating_sub(1)).rev() {
                let t = top[r][x + 1];
                if t < top[r][x] && t <= lands[x] {
                    top[r][x] = t;
                    reached.mark(r, x);
                }
            }
            if piece == Piece::O {
                continue;
            }
            let turns = [Turn::Cw, Turn::Ccw].map(|turn| {
                let (shifts, k) = kick_shifts(piece, Rotation::ALL[r], turn);
                (turn.apply(Rotation::ALL[r]).index(), shifts, k)
            });
            // Rotations from each column's highest reached row, once per new row.
            for x in 0..cols {
                let t = top[r][x];
                if t >= done[r][x] {
                    continue;
                }
                done[r][x] = t;
                for (to, shifts, k) in &turns {
                    let to = *to;
                    for &(kx, ky) in &shifts[..*k] {
                        let (tx, ty) = (x as i32 + kx, i32::from(t) + ky);
                        match land(to, tx) {
                            Some(l) if ty >= 0 && ty <= l => {
                                // This test fits, in the air.
                                if (ty as u8) < top[to][tx as usize] {
                                    top[to][tx as usize] = ty as u8;
                                    reached.mark(to, tx as usize);
                                    dirty |= 1 << to;
                                }
                                break;
                            }
                            Some(_) if ty >= 0 => {
                                // Fits under the stack's surface: that move is left to the
                                // full generator; else the next test.
                                let tg = &GEO[piece as usize][to];
                                if self.fits(
                                    piece,
                                    Rotation::ALL[to],
                                    tx - i32::from(tg.dx),
                                    ty - i32::from(tg.ty),
                                ) {
                                    break;
                                }
                            }
                            // Off the matrix: does not fit, the next test.
                            _ => {}
                        }
                    }
                }
            }
        }
        // Every column of every reported orientation reached (in it or in an orientation
        // with the same cells).
        (0..n).all(|r| {
            (0..=W - usize::from(d.width[r]))
                .all(|x| (r..4).step_by(n).any(|q| top[q][x] != Tops::<W>::NONE))
        })
    }
}
