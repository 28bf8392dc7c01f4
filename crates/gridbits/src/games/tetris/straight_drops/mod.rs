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
//! Two parts have files of their own: the spins of the T's locks ([`t_spins`]: when the
//! fast path can tell them, and when it declines) and the search over the air when a drop
//! rests above the spawn row ([`air`]).

use super::drop_rows::Heights;
use super::moves::{distinct, Locks, GEO};
use super::{spawn_position, Piece, Rotation, Spin, Tetris};

mod air;
mod t_spins;

/// The highest lock position of each orientation and column, one byte each: the hard-drop
/// action space's state of a game (40 bytes on a 10-wide matrix, where the lock planes
/// [`Locks`] take 960). Byte `[r][cx]` is [`Tops::NONE`] when orientation `r` has no lock in
/// tight column `cx`, else `cy | spin << 6`: `cy` the tight box's top row (from the top,
/// below 64) and `spin` 0, 1 or 2 for [`Spin::None`], [`Spin::Mini`], [`Spin::Full`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tops<const W: usize>(pub(crate) [[u8; W]; 4]);

impl<const W: usize> Tops<W> {
    /// The byte of "no lock" (no lock can be `cy = 63` with spin 3).
    pub(crate) const NONE: u8 = 0xFF;
    /// No lock anywhere.
    pub(crate) const EMPTY: Self = Tops([[Self::NONE; W]; 4]);

    /// The highest lock `(cy, spin)` of orientation `r` in tight column `cx`, if any.
    #[inline(always)]
    pub(crate) fn get(&self, r: usize, cx: usize) -> Option<(u32, Spin)> {
        let b = self.0[r][cx];
        (b != Self::NONE).then(|| {
            let spin = match b >> 6 {
                0 => Spin::None,
                1 => Spin::Mini,
                _ => Spin::Full,
            };
            (u32::from(b & 63), spin)
        })
    }

    /// The highest lock of each column of `lk` (its lowest set bit, `cy` from the top) with
    /// its spin.
    pub(crate) fn from_locks(lk: &Locks<W>) -> Self {
        let mut out = Self::EMPTY;
        for (r, (o, plane)) in out.0.iter_mut().zip(&lk.lock).enumerate() {
            for (cx, (o, &col)) in o.iter_mut().zip(plane).enumerate() {
                if col != 0 {
                    let cy = col.trailing_zeros();
                    *o = cy as u8 | (lk.spin(r, cx, cy) as u8) << 6;
                }
            }
        }
        out
    }
}

/// Where the straight drops of one piece come to rest: per orientation, the spawn row of the
/// tight box (`c0`) and its width; the landing rows are the `cy` of the [`Tops`] written
/// with it. When a drop rests above the spawn row (`above`), the air is searched instead
/// ([`air`]): `top[r][cx]` is the highest row the search reached in that column
/// ([`Tops::NONE`] when none).
struct Drops<const W: usize> {
    c0: [u8; 4],
    width: [u8; 4],
    above: bool,
    /// A column where the piece fits above the stack nowhere (its landing row in [`Tops`]
    /// is not exact then).
    no_air: bool,
    top: [[u8; W]; 4],
}

impl<const W: usize> Drops<W> {
    /// Before [`Tetris::straight_drops`] fills it: nothing above, no row reached.
    const START: Self = Drops {
        c0: [0; 4],
        width: [0; 4],
        above: false,
        no_air: false,
        top: [[Tops::<W>::NONE; W]; 4],
    };

    /// Whether the tight position `(r, cx, cy)` is in the air and known reachable: reached
    /// by sliding along the spawn row and dropping (items 1 and 3 of the
    /// [module documentation](self)), or at or below a row the search reached in that
    /// column when `above`; `tops` holds the landing rows.
    fn in_air(&self, tops: &Tops<W>, r: usize, cx: i32, cy: i32) -> bool {
        if cx < 0 || cx as usize + usize::from(self.width[r]) > W {
            return false;
        }
        let first = if self.above {
            self.top[r][cx as usize]
        } else {
            self.c0[r]
        };
        cy >= i32::from(first) && cy <= i32::from(tops.0[r][cx as usize] & 63)
    }
}

impl<const W: usize> Tetris<W> {
    /// The highest lock position of each orientation and column of `piece` (the lowest set
    /// bit of each column of [`Locks::lock`] that the full generator
    /// ([`lock_planes`](Self::lock_planes)) writes) with its spin, written over `out`;
    /// `false` when a straight drop comes to rest above the spawn row, or a T's spin there
    /// needs the full search (the [module documentation](self)): then `out` is left partly
    /// written and the caller runs the full generator.
    pub(crate) fn straight_drop_tops(&self, piece: Piece, out: &mut Tops<W>) -> bool {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has(crate::cpu::Features::BIT_INSTRUCTIONS) {
            // SAFETY: the CPU runs POPCNT, BMI1, BMI2 and LZCNT (checked just above), all
            // that `straight_drop_tops_bits` is compiled for.
            return unsafe { straight_drop_tops_bits(self, piece, out) };
        }
        self.straight_drop_tops_here(piece, out)
    }

    /// [`straight_drop_tops`](Self::straight_drop_tops) compiled for the caller's CPU
    /// features (the steps below are inlined into it).
    #[inline(always)]
    fn straight_drop_tops_here(&self, piece: Piece, out: &mut Tops<W>) -> bool {
        // Filled in place: a `Drops` returned by value was copied with wide loads right
        // after its narrow stores, which the CPU cannot forward (a stall on every call).
        let mut d = Drops::START;
        if !self.straight_drops(piece, out, &mut d) {
            return false;
        }
        if d.above && !self.search_air(piece, out, &mut d) {
            return false;
        }
        if piece != Piece::T {
            return true;
        }
        self.mark_t_spins(&d, out)
    }

    /// The straight drops of every orientation and column, their landing rows written over
    /// `out` (no spin) and the rest into `d` (from [`Drops::START`]); `false` when the spawn
    /// box is off the matrix. Computed on [`Heights`]: every column of an orientation at
    /// once.
    #[inline(always)]
    fn straight_drops(&self, piece: Piece, out: &mut Tops<W>, d: &mut Drops<W>) -> bool {
        let h = self.height();
        let b = piece.box_size();
        let (sx, sy) = spawn_position(piece, W, h);
        if sx < 0 || sy < 0 || sx as usize + b > W {
            return false;
        }
        let cols = self.board().columns();
        let heights = Heights::new(cols);
        *out = Tops::EMPTY;
        let geo = &GEO[piece as usize][..distinct(piece)];
        for (r, g) in geo.iter().enumerate() {
            let s = piece.shape(Rotation::ALL[r]);
            let (w, gh) = (usize::from(s.w), usize::from(s.h));
            let c0 = sy as usize + usize::from(g.ty);
            // The landing rows of the columns the piece fits in (NONE past them) and the
            // highest resting row from the floor.
            let high = heights.drop_rows(&s.bottom[..w], W + 1 - w, h - gh, &mut out.0[r]);
            // A drop resting above the spawn row, or a column where the piece fits above
            // the stack nowhere (its landing row is not exact then): the air is searched.
            d.above |= high as usize + gh + c0 > h;
            d.no_air |= high as usize + gh > h;
            (d.c0[r], d.width[r]) = (c0 as u8, w as u8);
        }
        for r in geo.len()..4 {
            d.width[r] = d.width[r % geo.len()];
        }
        true
    }
}

/// The straight drops compiled with the bit instructions: the column heights by `lzcnt`
/// (the baseline's `bsr` takes several cycles each, ten a piece), the corner counts by
/// `popcnt`, the searches' lowest bits by `tzcnt` (timings in docs/benchmarks.md).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn straight_drop_tops_bits<const W: usize>(t: &Tetris<W>, piece: Piece, out: &mut Tops<W>) -> bool {
    t.straight_drop_tops_here(piece, out)
}

#[cfg(test)]
mod tests {
    use super::super::{MoveOptions, Tetris};
    use super::*;
    use crate::games::rng::GameRng;

    /// [`Tetris::straight_drops`] as an option: `None` when the spawn box is off the matrix.
    fn drops<const W: usize>(t: &Tetris<W>, p: Piece, tops: &mut Tops<W>) -> Option<Drops<W>> {
        let mut d = Drops::START;
        t.straight_drops(p, tops, &mut d).then_some(d)
    }

    /// The fast tops against the full generator's highest locks, where the fast path runs;
    /// returns whether it ran.
    fn check<const W: usize>(t: &Tetris<W>, piece: Piece) -> bool {
        let mut full = Locks::EMPTY;
        let ok = t.lock_planes(piece, &MoveOptions::default(), &mut full);
        let mut fast = Tops::EMPTY;
        if !t.straight_drop_tops(piece, &mut fast) {
            return false;
        }
        assert!(ok, "fast path on a blocked spawn\n{t}");
        let want = Tops::from_locks(&full);
        for r in 0..4 {
            for x in 0..W {
                assert_eq!(fast.get(r, x), want.get(r, x), "{piece} r {r} x {x}\n{t}");
                let col = full.lock[r][x];
                if let Some((cy, spin)) = fast.get(r, x) {
                    assert_eq!(col & col.wrapping_neg(), 1 << cy, "{piece}\n{t}");
                    assert_eq!(spin, full.spin(r, x, cy), "{piece} spin\n{t}");
                } else {
                    assert_eq!(col, 0, "{piece} r {r} x {x}\n{t}");
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
                    let mut tops = Tops::EMPTY;
                    if fast && t.straight_drop_tops(p, &mut tops) {
                        let spun = |b: &u8| *b != Tops::<W>::NONE && *b >> 6 != 0;
                        ts.spins += usize::from(tops.0.iter().flatten().any(spun));
                    }
                    ts.spin_declines += usize::from(!fast && drops(&t, p, &mut tops).is_some());
                }
            }
        }
        (ran, all)
    }

    /// Every filling of the lowest rows of a few small matrices, for the T: each corner of a
    /// lock at the walls, the floor and near the top (the corner bits of `mark_t_spins`)
    /// against the full generator.
    #[test]
    fn every_small_board_for_the_t() {
        fn all<const W: usize>(h: usize, rows: usize) -> (usize, usize) {
            let (mut ran, mut spins) = (0, 0);
            for bits in 0u32..1 << (W * rows) {
                let mut t = Tetris::<W>::new(h);
                for i in (0..W * rows).filter(|i| bits >> i & 1 != 0) {
                    t.board_mut().set(i % W, h - 1 - i / W);
                }
                if check(&t, Piece::T) {
                    ran += 1;
                    let mut tops = Tops::EMPTY;
                    t.straight_drop_tops(Piece::T, &mut tops);
                    let spun = |b: &u8| *b != Tops::<W>::NONE && *b >> 6 != 0;
                    spins += usize::from(tops.0.iter().flatten().any(spun));
                }
            }
            (ran, spins)
        }
        let sizes = [
            all::<3>(10, 5),
            all::<4>(10, 4),
            all::<5>(10, 3),
            all::<4>(6, 4),
            all::<6>(64, 3),
        ];
        for (ran, spins) in sizes {
            assert!(ran > 0, "the fast path never ran");
            assert!(spins > 0, "no spin among {ran} boards");
        }
    }

    #[test]
    fn equals_the_full_generator_on_ragged_stacks() {
        // The SSE2 form of the heights where the CPU has it (x86-64, W <= 16), and the
        // portable byte lanes.
        ragged_stacks();
        crate::cpu::with_level(crate::cpu::Level::Portable, ragged_stacks);
    }

    fn ragged_stacks() {
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
    fn tops_round_trip_the_lock_planes() {
        // Every spin and a lock in the last row a u64 column holds.
        let mut lk = Locks::<10>::EMPTY;
        lk.lock[0][0] = 1 << 63 | 1 << 6;
        lk.lock[1][3] = 1 << 5;
        lk.full[1][3] = 1 << 5;
        lk.lock[2][9] = 1 << 40 | 1;
        lk.mini[2][9] = 1;
        let t = Tops::from_locks(&lk);
        assert_eq!(t.get(0, 0), Some((6, Spin::None)));
        assert_eq!(t.get(1, 3), Some((5, Spin::Full)));
        assert_eq!(t.get(2, 9), Some((0, Spin::Mini)));
        assert_eq!(t.get(3, 4), None);
        let mut high = Locks::<10>::EMPTY;
        high.lock[3][2] = 1 << 63;
        high.full[3][2] = 1 << 63;
        assert_eq!(Tops::from_locks(&high).get(3, 2), Some((63, Spin::Full)));
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
        let straight = |t: &Tetris<10>, p: Piece| {
            let mut tops = Tops::EMPTY;
            drops(t, p, &mut tops).is_some_and(|d| !d.above)
        };
        let mut searched = 0;
        for p in Piece::ALL {
            assert_eq!(straight(&t, p), p == Piece::O, "{p}");
            // Where the air search decides the others: the same highest locks.
            searched += usize::from(p != Piece::O && check(&t, p));
        }
        assert!(searched > 0);
        // One row more: the O over column 0 would rest above the spawn, out of its reach
        // (the search declines: the full generator says no lock there).
        t.board_mut().set(0, 3);
        assert!(!straight(&t, Piece::O));
        assert!(!check(&t, Piece::O));
    }

    #[test]
    fn a_wall_with_a_cave_near_the_top() {
        // A wall at column 8 from row 3 down, roofed to column 9 at row 2: the cave under
        // the roof is reached only by moves under the surface. Whatever the search decides
        // equals the full generator (`check`).
        let rows =
            String::from("..........\n").repeat(2) + "........##\n" + &"........#.\n".repeat(21);
        let t: Tetris<10> = rows.parse().unwrap();
        for p in Piece::ALL {
            check(&t, p);
        }
    }

    /// Plays uniform random hard drops (the env's masks, so the games reach the top and end)
    /// and checks every piece against the full generator; returns (searched and decided,
    /// near the top).
    fn played_games() -> (usize, usize) {
        use crate::games::envs::{TetrisActions, TetrisEnv, TetrisEnvConfig};
        let n = 64;
        let cfg = TetrisEnvConfig {
            actions: TetrisActions::HardDrop,
            ..Default::default()
        };
        let Ok(mut env) = TetrisEnv::<10>::new(cfg, n) else {
            panic!("env refused");
        };
        let (ol, al) = (env.obs_len(), env.action_count());
        let (mut obs, mut masks) = (vec![0u8; n * ol], vec![0u8; n * al]);
        let seeds: Vec<u64> = (0..n as u64).collect();
        env.reset(&seeds, &mut obs, &mut masks).unwrap();
        let mut rng = GameRng::new(7);
        let (mut rewards, mut terminated) = (vec![0f32; n], vec![0u8; n]);
        let (mut searched, mut near_top) = (0, 0);
        for _ in 0..150 {
            for i in 0..n {
                let g = env.game(i);
                if g.game_over().is_some() {
                    continue;
                }
                let (t, p) = (g.matrix(), g.current());
                let mut tops = Tops::EMPTY;
                let above = drops(t, p, &mut tops).is_none_or(|d| d.above);
                // Every piece, not only the current one: more stacks near the top.
                for q in Piece::ALL {
                    let ran = check(t, q);
                    if q == p && above {
                        near_top += 1;
                        searched += usize::from(ran);
                    }
                }
            }
            let actions: Vec<u32> = masks
                .chunks(al)
                .map(|m| {
                    let legal: Vec<usize> = (0..al).filter(|&a| m[a] == 1).collect();
                    legal[rng.below(legal.len() as u64) as usize] as u32
                })
                .collect();
            env.step(
                &actions,
                &mut obs,
                &mut masks,
                &mut rewards,
                &mut terminated,
            )
            .unwrap();
        }
        (searched, near_top)
    }

    #[test]
    fn the_air_search_equals_the_full_generator_in_played_games() {
        for level in [crate::cpu::Level::Portable, crate::cpu::level()] {
            let (searched, near_top) = crate::cpu::with_level(level, played_games);
            // The games reach the top often, and the search decides many of those pieces.
            assert!(near_top > 500, "{near_top}");
            assert!(searched * 3 > near_top, "{searched} of {near_top}");
        }
    }
}
