//! The highest lock position of every orientation and column from the column heights alone,
//! when every straight drop comes to rest at or below the spawn: the hard-drop action space's
//! fast path.
//!
//! # When it holds, and why
//!
//! Let the piece's nominal spawn put its SRS box (`b x b`, `b` = [`Piece::box_size`]) at
//! `(x_s, y_s)`, `y` from the top, with the box on the matrix (`x_s >= 0`, `y_s >= 0`,
//! `x_s + b <= W`). In orientation `r` the tight box (the piece's own bounding box, `w_r x
//! h_r`) sits in the spawn box with its top at row `c0_r = y_s + ty_r`. The piece's columns
//! are vertical runs of cells, so dropped from above the stack in column `cx` its tight top
//! comes to rest at row `land(r, cx) = H - h_r - max_k(height[cx + k] - bottom_k)` (`bottom_k`
//! the offset of run `k`'s lowest cell from the tight bottom): the first row where a run's
//! lowest cell meets its column's highest filled cell, or the floor. The fast path runs when
//! **every drop comes to rest at or below the spawn row**: `land(r, cx) >= c0_r` for every
//! orientation and column. Then, with the guideline moves of [`Tetris::moves`] (no half
//! turns, start at the spawn):
//!
//! 1. **The air.** A position `(r, cx, cy)` with `0 <= cy <= land(r, cx)` fits: every run of
//!    the piece is above its column's highest filled cell. Call the positions with
//!    `c0_r <= cy <= land(r, cx)` *the air*.
//! 2. **Every orientation is reachable in the spawn box.** The spawn is in the air, so it fits
//!    and the blocked-spawn rule starts the piece there. Every orientation's cells lie inside
//!    the same SRS box and the first kick test of every quarter turn is `(0, 0)`
//!    ([`kick_offsets`](super::kick_offsets)); turning in place lands in the air, so it fits:
//!    `R` and `L` are one turn from spawn and `2` one more turn from `R`.
//! 3. **Every position in the air is reachable**: slide along row `c0_r` (all in the air) to
//!    column `cx`, then soft drop to `cy` (all in the air).
//! 4. **The highest lock in column `cx` is `land(r, cx)`.** A lock position is one where the
//!    piece fits at `cy` and not at `cy + 1`. Above `land(r, cx)` the piece fits one row lower
//!    (1.), and at `land(r, cx)` it does not (a run rests on a cell or the floor); that lock
//!    is reachable (3.).
//!
//! Orientations with the same cells (`2` and `L` of I, S, Z; all of O's) are merged into the
//! lower one exactly as the full generator merges them, with the same straight drop.
//!
//! **The spin.** Only a T spins: its lock is a spin when at least 3 corners of its box are
//! filled ([three-corner rule](super::spin)) and a rotation from a reachable position ends
//! there; full when both front corners are filled or that rotation used the fifth kick test,
//! else mini. A quarter turn ends at the lock from exactly one position per turn and kick
//! test `k`: the lock less test `k`'s shift, when the piece fits there and tests `0 .. k`
//! from there do not fit. Such a position in the air is reachable (3.); one outside it (under
//! an overhang, or above the spawn row) may or may not be. So where a lock has 3 filled
//! corners: full when a position in the air enters with both front corners filled or with the
//! fifth test; mini when one in the air enters and no position outside the air can enter with
//! the fifth test; no spin when no fitting position enters at all; otherwise (the answer
//! depends on a position outside the air) the fast path declines the whole piece and the
//! caller runs the full generator.

use super::moves::{distinct, kick_shifts, solid_columns, Locks, GEO};
use super::spin::corners_at;
use super::{spawn_position, Piece, Rotation, Spin, Tetris, Turn};

/// Where the straight drops of one piece come to rest: per orientation, the spawn row of the
/// tight box (`c0`), its width, and the landing row of each column (tight top, from the top).
struct Drops<const W: usize> {
    c0: [u8; 4],
    width: [u8; 4],
    land: [[u8; W]; 4],
}

impl<const W: usize> Drops<W> {
    /// Whether the tight position `(r, cx, cy)` is in the air: reached by sliding along the
    /// spawn row and dropping (items 1 and 3 of the [module documentation](self)).
    fn in_air(&self, r: usize, cx: i32, cy: i32) -> bool {
        cx >= 0
            && cx as usize + usize::from(self.width[r]) <= W
            && cy >= i32::from(self.c0[r])
            && cy <= i32::from(self.land[r][cx as usize])
    }
}

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
    /// Whether the T fits at the tight position `(r, cx, cy)` (`cy` from the top).
    fn t_fits(&self, r: usize, cx: i32, cy: i32) -> bool {
        let g = &GEO[Piece::T as usize][r];
        self.fits(
            Piece::T,
            Rotation::ALL[r],
            cx - i32::from(g.dx),
            cy - i32::from(g.ty),
        )
    }

    /// The rotations that end at the T lock `(r, cx, cy)`: every position one quarter turn
    /// away whose kick tests before the one landing there all fail.
    fn t_entries(&self, d: &Drops<W>, r: usize, cx: i32, cy: i32) -> Entries {
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
                if d.in_air(from, fx, fy) {
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
        (r, cx, cy): (usize, usize, u32),
        front: bool,
    ) -> Option<Spin> {
        let e = self.t_entries(d, r, cx as i32, cy as i32);
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

    /// The highest lock position of each orientation and column of `piece` (the lowest set bit
    /// of each column of [`Locks::lock`] that the full generator
    /// ([`lock_planes`](Self::lock_planes)) writes, that bit alone) with its spin, written
    /// over `out`; `false` when a straight drop comes to rest above the spawn row, or a T's
    /// spin there needs the full search (the [module documentation](self)): then `out` is
    /// left partly written and the caller runs the full generator.
    pub(crate) fn straight_drop_locks(&self, piece: Piece, out: &mut Locks<W>) -> bool {
        let Some(d) = self.straight_drops(piece, &mut out.lock) else {
            return false;
        };
        out.full = [[0; W]; 4];
        out.mini = [[0; W]; 4];
        if piece != Piece::T {
            return true;
        }
        let solid = solid_columns(self);
        for (r, g) in GEO[piece as usize].iter().enumerate() {
            for cx in 0..=W - usize::from(d.width[r]) {
                let bit = out.lock[r][cx];
                let (three, front) = corners_at(
                    &solid,
                    cx,
                    Rotation::ALL[r],
                    i32::from(g.dx),
                    i32::from(g.ty),
                );
                if three & bit == 0 {
                    continue;
                }
                let at = (r, cx, bit.trailing_zeros());
                match self.t_lock_spin(&d, at, front & bit != 0) {
                    Some(Spin::Full) => out.full[r][cx] = bit,
                    Some(Spin::Mini) => out.mini[r][cx] = bit,
                    Some(Spin::None) => {}
                    None => return false,
                }
            }
        }
        true
    }

    /// The straight drops of every orientation and column, with their lock planes written
    /// over `lock`; `None` when one comes to rest above the spawn row (or the spawn box is
    /// off the matrix).
    fn straight_drops(&self, piece: Piece, lock: &mut [[u64; W]; 4]) -> Option<Drops<W>> {
        let h = self.height();
        let b = piece.box_size();
        let (sx, sy) = spawn_position(piece, W, h);
        if sx < 0 || sy < 0 || sx as usize + b > W {
            return None;
        }
        let heights = self.heights();
        let mut d = Drops {
            c0: [0; 4],
            width: [0; 4],
            land: [[0; W]; 4],
        };
        *lock = [[0; W]; 4];
        for r in 0..distinct(piece) {
            let s = piece.shape(Rotation::ALL[r]);
            let g = &GEO[piece as usize][r];
            let (w, gh) = (usize::from(s.w), usize::from(s.h));
            let c0 = sy as usize + usize::from(g.ty);
            // Each column's resting row from the floor, run by run of the piece.
            let mut rest = [0u32; W];
            for (k, &bottom) in s.bottom[..w].iter().enumerate() {
                for (o, &hk) in rest[..=W - w].iter_mut().zip(&heights[k..]) {
                    *o = (*o).max(hk.saturating_sub(u32::from(bottom)));
                }
            }
            // At or below the spawn row everywhere, or no fast path.
            let high = rest[..=W - w].iter().copied().max().unwrap_or(0) as usize;
            if high + gh + c0 > h {
                return None;
            }
            (d.c0[r], d.width[r]) = (c0 as u8, w as u8);
            for ((l, o), &up) in d.land[r]
                .iter_mut()
                .zip(lock[r].iter_mut())
                .zip(&rest[..=W - w])
            {
                let cy = h - gh - up as usize;
                *l = cy as u8;
                *o = 1u64 << cy;
            }
        }
        Some(d)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{MoveOptions, Tetris};
    use super::*;
    use crate::games::rng::GameRng;

    /// The fast planes against the full generator's highest locks, where the fast path runs;
    /// returns whether it ran.
    fn check<const W: usize>(t: &Tetris<W>, piece: Piece) -> bool {
        let mut full = Locks::EMPTY;
        let ok = t.lock_planes(piece, &MoveOptions::default(), &mut full);
        let mut fast = Locks::EMPTY;
        if !t.straight_drop_locks(piece, &mut fast) {
            return false;
        }
        assert!(ok, "fast path on a blocked spawn\n{t}");
        for r in 0..4 {
            for x in 0..W {
                let col = full.lock[r][x];
                let top = col & col.wrapping_neg();
                assert_eq!(fast.lock[r][x], top, "{piece} r {r} x {x}\n{t}");
                if top != 0 {
                    let cy = top.trailing_zeros();
                    assert_eq!(
                        fast.spin(r, x, cy),
                        full.spin(r, x, cy),
                        "{piece} spin\n{t}"
                    );
                }
            }
        }
        true
    }

    /// A ragged stack: column `x` filled up to a random height below `max` with random holes
    /// (density `holes` in 256ths).
    fn ragged<const W: usize>(rng: &mut GameRng, h: usize, max: u64, holes: u64) -> Tetris<W> {
        let mut t = Tetris::<W>::new(h);
        for x in 0..W {
            let top = rng.below(max + 1) as usize;
            for y in (h - top.min(h))..h {
                if rng.below(256) >= holes {
                    t.board_mut().set(x, y);
                }
            }
        }
        t
    }

    /// Of the T's on random ragged stacks: the fast path's locks with a spin, and its
    /// declines where every drop rests at or below the spawn (for the spin alone).
    #[derive(Default)]
    struct TStats {
        spins: usize,
        spin_declines: usize,
    }

    fn run<const W: usize>(h: usize, seed: u64, ts: &mut TStats) -> (usize, usize) {
        let mut rng = GameRng::new(seed);
        let (mut ran, mut all) = (0, 0);
        for i in 0..600 {
            let max = rng.below(h as u64 + 1);
            let holes = [0, 40, 128][i % 3];
            let t = ragged::<W>(&mut rng, h, max, holes);
            for p in Piece::ALL {
                all += 1;
                let fast = check(&t, p);
                ran += usize::from(fast);
                if p == Piece::T {
                    let mut lk = Locks::EMPTY;
                    if fast && t.straight_drop_locks(p, &mut lk) {
                        let any = |pl: &[[u64; W]; 4]| pl.iter().flatten().any(|&c| c != 0);
                        ts.spins += usize::from(any(&lk.full) || any(&lk.mini));
                    }
                    ts.spin_declines +=
                        usize::from(!fast && t.straight_drops(p, &mut lk.lock).is_some());
                }
            }
        }
        (ran, all)
    }

    #[test]
    fn equals_the_full_generator_on_ragged_stacks() {
        let mut ts = TStats::default();
        for (h, seed) in [(24, 1), (40, 2), (22, 3), (8, 4), (64, 5)] {
            let (ran, all) = run::<10>(h, seed, &mut ts);
            assert!(ran > all / 10, "fast path ran {ran} of {all} at height {h}");
        }
        // Both T cases happen: spins decided without the search, and declines for the spin.
        assert!(ts.spins > 20, "{} T spins", ts.spins);
        assert!(ts.spin_declines > 0, "no T declined for its spin");
        let mut ts = TStats::default();
        run::<4>(24, 6, &mut ts);
        run::<5>(10, 7, &mut ts);
        run::<64>(30, 8, &mut ts);
        run::<1>(10, 9, &mut ts);
        run::<3>(12, 10, &mut ts);
    }

    #[test]
    fn near_the_top_it_declines_or_agrees() {
        // Stacks reaching the band's edge, row by row.
        for top in 15..24 {
            let mut t = Tetris::<10>::new(24);
            for y in (24 - top)..24 {
                for x in 0..10 {
                    if (x + y) % 4 != 0 {
                        t.board_mut().set(x, y);
                    }
                }
            }
            for p in Piece::ALL {
                check(&t, p);
            }
        }
    }

    #[test]
    fn runs_on_an_empty_matrix() {
        let t = Tetris::<10>::new(24);
        for p in Piece::ALL {
            assert!(check(&t, p), "{p}");
        }
    }

    #[test]
    fn a_t_with_three_corners() {
        // The T in `R` dropped at column 1: its stem on the floor, its nub on the block of
        // column 2, the tall column 0 beside it: three corners filled. A rotation in the air
        // enters it, so the fast path decides its spin.
        let rows = "..........\n".repeat(20) + "#.........\n".repeat(3).as_str() + "#.#.......\n";
        let t: Tetris<10> = rows.parse().unwrap();
        assert!(check(&t, Piece::T));
        assert!(check(&t, Piece::J));
    }

    #[test]
    fn stacks_into_the_spawn_rows() {
        // Columns 0 and 9 twenty high (the spawn box's bottom row), the middle low: the
        // flat O rests on them at the spawn row, so its fast path runs although the stack
        // reaches into the spawn box; a vertical piece over them would rest above it.
        let mut t = Tetris::<10>::new(24);
        for y in 4..24 {
            t.board_mut().set(0, y);
            t.board_mut().set(9, y);
        }
        for p in Piece::ALL {
            assert_eq!(check(&t, p), p == Piece::O, "{p}");
        }
        // One row more: the O over column 0 would rest above the spawn.
        t.board_mut().set(0, 3);
        assert!(!check(&t, Piece::O));
    }
}
