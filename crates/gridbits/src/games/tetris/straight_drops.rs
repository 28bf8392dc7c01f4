//! The highest lock position of every orientation and column from the column heights alone,
//! when the stack is low enough: the hard-drop action space's fast path.
//!
//! # When it holds, and why
//!
//! Let the piece's nominal spawn put its SRS box (`b x b`, `b` = [`Piece::box_size`]) at
//! `(x_s, y_s)`, `y` from the top, with the box on the matrix (`x_s >= 0`, `y_s >= 0`,
//! `x_s + b <= W`), and let the rows `0 .. y_s + b` (the box's rows and every row above) be
//! empty in every column: the **free band**. Then, with the guideline moves of
//! [`Tetris::moves`] (no half turns, start at the spawn):
//!
//! 1. **Every orientation is reachable in the spawn box.** The spawn fits (its cells are in
//!    the box, on empty cells), so the blocked-spawn rule starts the piece there. Every
//!    orientation's cells lie inside the same SRS box, and the first kick test of every
//!    quarter turn is `(0, 0)` ([`kick_offsets`](super::kick_offsets)): turning in place fits,
//!    so `R` and `L` are one turn from spawn and `2` one more turn from `R`, all in the box.
//! 2. **Every column is reachable in the band.** Orientation `r`'s tight box in the spawn box
//!    has its top at row `c0 = y_s + ty_r` and its rows inside the band; in the band every
//!    tight position `(cx, c0)` with `0 <= cx <= W - w_r` fits, so sliding left and right
//!    reaches all of them.
//! 3. **The highest lock in column `cx` is the straight drop from `c0`.** A lock position is
//!    one where the piece fits at `cy` and not at `cy + 1`. For `cy < c0` the rows
//!    `cy + 1 .. cy + 1 + h_r` are inside the band, so `cy + 1` fits: no lock above `c0`.
//!    From `c0` down, soft drops reach every fitting row until the first `cy` whose `cy + 1`
//!    does not fit: that is the highest lock. The piece's columns are vertical runs of
//!    cells, so falling from above the stack the first overlap is a run's lowest cell
//!    meeting its column's highest filled cell (or the floor): the tight bottom comes to rest
//!    at `max_k(height[cx + k] - bottom_k)` rows above the floor, where `bottom_k` is the
//!    offset of run `k`'s lowest cell from the tight bottom.
//!
//! Orientations with the same cells (`2` and `L` of I, S, Z; all of O's) are merged into the
//! lower one exactly as the full generator merges them, with the same straight drop. The
//! spin: a T's lock is a spin only when at least 3 corners of its box are filled (the
//! [three-corner rule](super::spin)); where a highest lock has 3, whether a rotation reaches
//! it needs the full search, so the fast path declines the whole piece and the caller runs
//! the full generator. Elsewhere the spin is [`Spin::None`](super::Spin::None) as the full
//! generator finds it.

use super::moves::{distinct, Locks, GEO};
use super::{spawn_position, Piece, Rotation, Tetris};

impl<const W: usize> Tetris<W> {
    /// The highest lock position of each orientation and column of `piece` (the lowest set bit
    /// of each column of [`Locks::lock`] that the full generator
    /// ([`lock_planes`](Self::lock_planes)) writes, that bit alone), with no spin, written
    /// over `out`; `false` (and `out` left as it was) when the stack reaches the free band
    /// of the [module documentation](self) or a T's highest lock has 3 filled corners: then
    /// the caller runs the full generator.
    pub(crate) fn straight_drop_locks(&self, piece: Piece, out: &mut Locks<W>) -> bool {
        let h = self.height();
        let b = piece.box_size();
        let (sx, sy) = spawn_position(piece, W, h);
        if sx < 0 || sy < 0 || sx as usize + b > W {
            return false;
        }
        let band = sy as usize + b;
        let heights = self.heights();
        let top = heights.iter().copied().max().unwrap_or(0) as usize;
        if band + top > h {
            return false;
        }
        let mut lock = [[0u64; W]; 4];
        for (r, plane) in lock.iter_mut().enumerate().take(distinct(piece)) {
            let rotation = Rotation::ALL[r];
            let s = piece.shape(rotation);
            let g = &GEO[piece as usize][r];
            let (w, gh) = (usize::from(s.w), usize::from(s.h));
            for cx in 0..=W - w {
                let mut land = 0u32;
                for k in 0..w {
                    land = land.max(heights[cx + k].saturating_sub(u32::from(s.bottom[k])));
                }
                // In the band: land + gh <= top + gh <= h.
                let cy = h - land as usize - gh;
                if piece == Piece::T
                    && self
                        .filled_corners(cx as i32 - i32::from(g.dx), cy as i32 - i32::from(g.ty))
                        .count_ones()
                        >= 3
                {
                    return false;
                }
                plane[cx] = 1u64 << cy;
            }
        }
        out.lock = lock;
        out.full = [[0; W]; 4];
        out.mini = [[0; W]; 4];
        true
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
        fast.lock[0][0] = 1; // overwritten when the fast path runs
        if !t.straight_drop_locks(piece, &mut fast) {
            assert_eq!(fast.lock[0][0], 1, "out written on decline");
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

    fn run<const W: usize>(h: usize, seed: u64) -> (usize, usize) {
        let mut rng = GameRng::new(seed);
        let (mut ran, mut all) = (0, 0);
        for i in 0..600 {
            let max = rng.below(h as u64 + 1);
            let holes = [0, 40, 128][i % 3];
            let t = ragged::<W>(&mut rng, h, max, holes);
            for p in Piece::ALL {
                all += 1;
                ran += usize::from(check(&t, p));
            }
        }
        (ran, all)
    }

    #[test]
    fn equals_the_full_generator_on_ragged_stacks() {
        for (h, seed) in [(24, 1), (40, 2), (22, 3), (8, 4), (64, 5)] {
            let (ran, all) = run::<10>(h, seed);
            assert!(ran > all / 10, "fast path ran {ran} of {all} at height {h}");
        }
        run::<4>(24, 6);
        run::<5>(10, 7);
        run::<64>(30, 8);
        run::<1>(10, 9);
        run::<3>(12, 10);
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
    fn declines_a_t_with_three_corners() {
        // The T in `R` dropped at column 1: its stem on the floor, its nub on the block of
        // column 2, the tall column 0 beside it: three corners filled.
        let rows = "..........\n".repeat(20) + "#.........\n".repeat(3).as_str() + "#.#.......\n";
        let t: Tetris<10> = rows.parse().unwrap();
        let mut out = Locks::EMPTY;
        assert!(!t.straight_drop_locks(Piece::T, &mut out));
        assert!(check(&t, Piece::J));
    }
}
