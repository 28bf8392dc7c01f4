//! The spins of the T locks the straight drops find (the fast path of the
//! [module above](super)): when they can be told without the full search, and when the
//! fast path declines.
//!
//! # The rule
//!
//! Only a T spins: its lock is a spin when at least 3 corners of its box are filled ([three-corner
//! rule](crate::games::tetris::spin)) and a rotation from a reachable position ends there. The
//! locks here are straight drops, every cell of the piece above its column's highest filled cell,
//! so every cell above a cell of the piece is empty: in orientations `0` and `2` the two top
//! corners of the 3 x 3 box are above the flat row's end cells (on the matrix: the box's top row is
//! at or below the spawn box's, `y_s >= 0`), so at most 2 corners are filled and these locks never
//! spin; only `R` and `L` are checked; full when both front corners are filled or that rotation
//! used the fifth kick test, else mini. A quarter turn ends at the lock from exactly one position
//! per turn and kick test `k`: the lock less test `k`'s shift, when the piece fits there and tests
//! `0 .. k` from there do not fit. Such a position in the air is reachable (item 3 of the [straight
//! drops' proof](super)); one outside it (under an overhang, or above the spawn row) may or may not
//! be. So where a lock has 3 filled corners: full when a position in the air enters with both front
//! corners filled or with the fifth test; mini when one in the air enters and no position outside
//! the air can enter with the fifth test; no spin when no fitting position enters at all; otherwise
//! (the answer depends on a position outside the air) the fast path declines the whole piece and
//! the caller runs the full generator.

use super::{Drops, Tops};
use crate::games::tetris::moves::{kick_shifts, solid_columns, GEO};
use crate::games::tetris::spin::{CORNERS, FRONT};
use crate::games::tetris::{Piece, Rotation, Spin, Tetris, Turn};

/// What the rotations into one T lock are known to do (the spin rule of the
/// [module documentation](self)).
#[derive(Default)]
struct Entries {
    /// A position in the air turns into the lock (with any test; with the fifth).
    air: bool,
    air_fifth: bool,
    /// A position outside the air that fits turns into the lock (with any test; with the
    /// fifth): whether it is reachable needs the full search.
    other: bool,
    other_fifth: bool,
}

impl<const W: usize> Tetris<W> {
    /// Whether the T fits at the tight position `(r, cx, cy)` (`cy` from the top): the
    /// tight box's lowest row is `height - cy - h` from the floor.
    #[inline(always)]
    fn t_fits(&self, r: usize, cx: i32, cy: i32) -> bool {
        let s = Piece::T.shape(Rotation::ALL[r]);
        let floor = self.height() as i64 - i64::from(cy) - i64::from(s.h);
        self.fits_tight(s, i64::from(cx), floor)
    }

    /// The rotations that end at the T lock `(r, cx, cy)`: every position one quarter turn
    /// away whose kick tests before the one landing there all fail.
    fn t_entries(&self, d: &Drops<W>, tops: &Tops<W>, r: usize, cx: i32, cy: i32) -> Entries {
        let mut e = Entries::default();
        for turn in [Turn::Cw, Turn::Ccw] {
            // The orientation this turn starts from.
            let from = (r + 4 - turn.quarters()) & 3;
            let (shifts, n) = kick_shifts(Piece::T, Rotation::ALL[from], turn);
            for k in 0..n {
                let (sx, sy) = shifts[k];
                let (fx, fy) = (cx - sx, cy - sy);
                if !self.t_fits(from, fx, fy)
                    || shifts[..k]
                        .iter()
                        .any(|&(ex, ey)| self.t_fits(r, fx + ex, fy + ey))
                {
                    continue;
                }
                let fifth = k == 4;
                if d.in_air(tops, from, fx, fy) {
                    e.air = true;
                    e.air_fifth |= fifth;
                } else {
                    e.other = true;
                    e.other_fifth |= fifth;
                }
            }
        }
        e
    }

    /// The spin the full generator gives the T lock `(r, cx, cy)` where at least 3 corners
    /// are filled (`front`: both front corners among them), or `None` when it depends on
    /// positions only the full search can tell reachable.
    fn t_lock_spin(
        &self,
        d: &Drops<W>,
        tops: &Tops<W>,
        (r, cx, cy): (usize, usize, u32),
        front: bool,
    ) -> Option<Spin> {
        let e = self.t_entries(d, tops, r, cx as i32, cy as i32);
        if e.air && (front || e.air_fifth) {
            Some(Spin::Full)
        } else if e.air && !e.other_fifth {
            Some(Spin::Mini)
        } else if !e.air && !e.other {
            Some(Spin::None)
        } else {
            None
        }
    }

    /// Marks the spins of the T locks in `out` (the landing rows, no spin yet); `false` when
    /// one depends on positions only the full search can tell reachable.
    #[inline(always)]
    pub(super) fn mark_t_spins(&self, d: &Drops<W>, out: &mut Tops<W>) -> bool {
        let piece = Piece::T;
        let solid = solid_columns(self);
        // Only `R` and `L` can have three corners filled when every drop rests at or below
        // the spawn row (the spin rule of the module documentation): in `0` and `2` both top
        // corners are empty. Near the top, all four are checked.
        let step = if d.above { 1 } else { 2 };
        for (r, g) in GEO[piece as usize]
            .iter()
            .enumerate()
            .skip(usize::from(!d.above))
            .step_by(step)
        {
            for cx in 0..=W - usize::from(d.width[r]) {
                if out.0[r][cx] == Tops::<W>::NONE {
                    continue; // no air there (near the top): no lock
                }
                let cy = u32::from(out.0[r][cx]);
                // The corners of this one lock, a bit each (outside the matrix counts as
                // filled). Any three include a top one: when both top corners are empty (the
                // common case) the bottom ones are not read.
                let (bx, by) = (cx as i32 - i32::from(g.dx), cy as i32 - i32::from(g.ty));
                let corner = |i: usize| {
                    let (x, y) = (bx + CORNERS[i].0, by + CORNERS[i].1);
                    let off = x < 0 || x >= W as i32 || !(0..64).contains(&y);
                    u8::from(off || solid[x as usize] >> y & 1 != 0) << i
                };
                let top = corner(0) | corner(1);
                if top == 0 {
                    continue;
                }
                let filled = top | corner(2) | corner(3);
                if filled.count_ones() < 3 {
                    continue;
                }
                let front = FRONT[r];
                match self.t_lock_spin(d, out, (r, cx, cy), filled & front == front) {
                    Some(Spin::Full) => out.0[r][cx] |= 2 << 6,
                    Some(Spin::Mini) => out.0[r][cx] |= 1 << 6,
                    Some(Spin::None) => {}
                    None => return false,
                }
            }
        }
        true
    }
}
