//! Fixed boards: [`Slide`] for [`Board`] and the per-direction dispatch to the methods (the
//! helpers they share are in `board_steps.rs`).
//!
//! Every ray function takes the direction (`DX`, `DY`) and the method (`M`) as const
//! generics, so all shift amounts are constants: on small boards a ray compiles to
//! straight-line word operations.

use super::board_steps::max_ray_len;
use super::{auto_gallop_speed, Approach, Method, Slide};
use crate::{Board, Dir, Moves};

const M_DUMB7: u8 = 0;
const M_GALLOP: u8 = 1;
const M_KOGGE_STONE: u8 = 2;
const M_SUBTRACT: u8 = 3;
const M_AUTO: u8 = 4;

/// Rays of at most this many cells go by Dumb7Fill on boards of several words: its loop
/// stops as soon as every ray has hit a blocker, which on boards up to 19 x 19 comes before
/// Kogge-Stone's fixed steps pay off.
const SHORT_RAY: usize = 19;

/// The method [`Method::Auto`] uses on a fixed `w x h` board in direction `(dx, dy)`, from
/// the benchmark (`cargo run --release -p gridbits-bench -- --filter "queen reach"`, rows of
/// 8x8 to 64x64 at 10% and 40% walls; the run lists any row where it trails another method
/// by more than 10%):
/// - one-word boards (up to 64 cells, e.g. 8x8): galloping (doubling steps on one word);
/// - rays of at most 19 cells (boards up to 20 on that axis: 10x10, 19x19, the vertical
///   rays of 30x20): Dumb7Fill, whose loop ends when the last ray is blocked;
/// - longer rays: the subtraction east (a borrow chain, no loop), and west too when rays are
///   longer than 15 cells (the bit reversal pays off on big boards); Kogge-Stone everywhere
///   else (branch-free up to 15 cells, early exit beyond).
pub const fn auto_board_method(w: usize, h: usize, dx: isize, dy: isize) -> Method {
    if crate::board::words_for(w, h) == 1 {
        Method::Gallop
    } else if max_ray_len(w, h, dx, dy) <= SHORT_RAY {
        Method::Dumb7
    } else if dy == 0 && (dx == 1 || max_ray_len(w, h, dx, dy) > 15) {
        Method::Subtract
    } else {
        Method::KoggeStone
    }
}

/// Board rays, one function per method, direction as const generics.
impl<const W: usize, const H: usize, const N: usize> Board<W, H, N> {
    /// The ray with method `M` (a `M_*` constant), direction `(DX, DY)`.
    #[inline(always)]
    fn slide_ray_m<const DX: isize, const DY: isize, const M: u8>(self, passable: Self) -> Self {
        let m = if M == M_AUTO {
            match const { auto_board_method(W, H, DX, DY) } {
                Method::Dumb7 => M_DUMB7,
                Method::Gallop => M_GALLOP,
                Method::Subtract | Method::Sweep => M_SUBTRACT,
                _ => M_KOGGE_STONE,
            }
        } else {
            M
        };
        match m {
            M_DUMB7 => self.slide_dumb7::<DX, DY>(passable),
            M_GALLOP => self.slide_gallop::<DX, DY>(
                passable,
                auto_gallop_speed(max_ray_len(W, H, DX, DY)),
                Approach::Accelerate,
            ),
            M_SUBTRACT => self.slide_subtract::<DX, DY>(passable),
            _ => self.slide_kogge_stone::<DX, DY>(passable),
        }
    }

    /// The ray in a runtime direction, method `M`.
    #[inline(always)]
    fn slide_ray_d<const M: u8>(self, passable: Self, d: Dir) -> Self {
        match d {
            Dir::N => self.slide_ray_m::<0, -1, M>(passable),
            Dir::NE => self.slide_ray_m::<1, -1, M>(passable),
            Dir::E => self.slide_ray_m::<1, 0, M>(passable),
            Dir::SE => self.slide_ray_m::<1, 1, M>(passable),
            Dir::S => self.slide_ray_m::<0, 1, M>(passable),
            Dir::SW => self.slide_ray_m::<-1, 1, M>(passable),
            Dir::W => self.slide_ray_m::<-1, 0, M>(passable),
            Dir::NW => self.slide_ray_m::<-1, -1, M>(passable),
        }
    }

    /// Every ray of `moves` with method `M`, directions unrolled.
    #[inline(always)]
    fn slide_reach_m<const M: u8>(self, passable: Self, moves: Moves) -> Self {
        let rook = |g: Self| {
            g.slide_ray_m::<0, -1, M>(passable)
                .or(g.slide_ray_m::<1, 0, M>(passable))
                .or(g.slide_ray_m::<0, 1, M>(passable))
                .or(g.slide_ray_m::<-1, 0, M>(passable))
        };
        let bishop = |g: Self| {
            g.slide_ray_m::<1, -1, M>(passable)
                .or(g.slide_ray_m::<1, 1, M>(passable))
                .or(g.slide_ray_m::<-1, 1, M>(passable))
                .or(g.slide_ray_m::<-1, -1, M>(passable))
        };
        match moves {
            Moves::Rook => rook(self),
            Moves::Bishop => bishop(self),
            Moves::Queen => rook(self).or(bishop(self)),
            // One step: the neighbours only (a dilation would keep unreached pieces).
            Moves::Four => self
                .north()
                .or(self.south())
                .or(self.east())
                .or(self.west())
                .and(passable),
            Moves::Eight => {
                let (e, w) = (self.east(), self.west());
                let h = self.or(e).or(w);
                h.north().or(h.south()).or(e).or(w).and(passable)
            }
        }
    }

    /// The method [`Method::Auto`] uses on this board in direction `d`: see
    /// [`auto_board_method`].
    pub const fn auto_method(d: Dir) -> Method {
        let (dx, dy) = d.delta();
        auto_board_method(W, H, dx, dy)
    }

    #[inline(always)]
    fn method_id(method: Method) -> u8 {
        match method {
            Method::Dumb7 => M_DUMB7,
            Method::Gallop => M_GALLOP,
            Method::KoggeStone => M_KOGGE_STONE,
            Method::Subtract | Method::Sweep => M_SUBTRACT,
            Method::Auto => M_AUTO,
        }
    }
}

impl<const W: usize, const H: usize, const N: usize> Slide for Board<W, H, N> {
    #[inline]
    fn ray_with(&self, passable: &Self, dir: Dir, method: Method) -> Self {
        let (g, p) = (*self, *passable);
        match Self::method_id(method) {
            M_DUMB7 => g.slide_ray_d::<M_DUMB7>(p, dir),
            M_GALLOP => g.slide_ray_d::<M_GALLOP>(p, dir),
            M_SUBTRACT => g.slide_ray_d::<M_SUBTRACT>(p, dir),
            M_AUTO => g.slide_ray_d::<M_AUTO>(p, dir),
            _ => g.slide_ray_d::<M_KOGGE_STONE>(p, dir),
        }
    }

    #[inline]
    fn reach_with(&self, passable: &Self, moves: Moves, method: Method) -> Self {
        let (g, p) = (*self, *passable);
        match Self::method_id(method) {
            M_DUMB7 => g.slide_reach_m::<M_DUMB7>(p, moves),
            M_GALLOP => g.slide_reach_m::<M_GALLOP>(p, moves),
            M_SUBTRACT => g.slide_reach_m::<M_SUBTRACT>(p, moves),
            M_AUTO => g.slide_reach_m::<M_AUTO>(p, moves),
            _ => g.slide_reach_m::<M_KOGGE_STONE>(p, moves),
        }
    }

    fn gallop_ray_at(
        &self,
        passable: &Self,
        dir: Dir,
        speed_log2: u32,
        approach: Approach,
    ) -> Self {
        let (g, p) = (*self, *passable);
        match dir {
            Dir::N => g.slide_gallop::<0, -1>(p, speed_log2, approach),
            Dir::NE => g.slide_gallop::<1, -1>(p, speed_log2, approach),
            Dir::E => g.slide_gallop::<1, 0>(p, speed_log2, approach),
            Dir::SE => g.slide_gallop::<1, 1>(p, speed_log2, approach),
            Dir::S => g.slide_gallop::<0, 1>(p, speed_log2, approach),
            Dir::SW => g.slide_gallop::<-1, 1>(p, speed_log2, approach),
            Dir::W => g.slide_gallop::<-1, 0>(p, speed_log2, approach),
            Dir::NW => g.slide_gallop::<-1, -1>(p, speed_log2, approach),
        }
    }
}
