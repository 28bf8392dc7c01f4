//! Kogge-Stone doubling: jumps of 1, 2, 4, 8, ... cells, the propagator ANDed with a shifted
//! copy of itself before each doubling, so a ray of up to `L` cells takes `ceil(log2 L)`
//! steps. Fixed boards run an unrolled schedule computed at compile time ([`ks_plan`]);
//! runtime grids fuse each jump with the doubling of the propagator.

use super::board_steps::{max_ray_len, propagator, sh};
use super::grid_steps::{jump_pass, step, Geo, Mode};
use crate::{Board, Dir};

/// A Kogge-Stone schedule for rays of up to `len` cells: `(jumps, smear, count)`. Before jump
/// `i`, if `smear[i]`, the propagator is doubled; `jumps[i]` is the jump length.
///
/// The fill starts with every cell at distance 1; a jump of `j <= covered` through `P_j`
/// (`j` passable cells in a row) extends the cells at distances `1..=covered` to
/// `1..=covered + j`.
pub(super) const fn ks_plan(len: usize) -> ([usize; 40], [bool; 40], usize) {
    let mut jumps = [0usize; 40];
    let mut smear = [false; 40];
    let (mut j, mut covered, mut n) = (1usize, 1usize, 0usize);
    while covered < len && n < 40 {
        if covered + j < len && 2 * j <= covered {
            smear[n] = true;
            j *= 2;
        }
        jumps[n] = j;
        covered += j;
        n += 1;
    }
    (jumps, smear, n)
}

impl<const W: usize, const H: usize, const N: usize> Board<W, H, N> {
    /// The ray of a fixed board with the Kogge-Stone schedule, direction `(DX, DY)`.
    #[inline(always)]
    pub(super) fn slide_kogge_stone<const DX: isize, const DY: isize>(
        self,
        passable: Self,
    ) -> Self {
        let (jumps, smear, count) = const { ks_plan(max_ray_len(W, H, DX, DY)) };
        if count > 12 {
            // Rays longer than 4095 cells (boards too large to keep by value anyway).
            return self.slide_dumb7::<DX, DY>(passable);
        }
        let p = propagator(passable, DX);
        let dl = const { Self::slide_delta(DX, DY) };
        let mut acc = sh(self, dl).and(p);
        let (mut pj, mut j) = (p, 1isize);
        // Long rays (big boards): stop at the first jump that adds nothing, as on runtime
        // grids. Short ones stay branch-free.
        let early_exit = const { max_ray_len(W, H, DX, DY) > 15 };
        // Unrolled so that every shift amount is a constant, whatever the board size (the
        // schedule has at most 12 jumps for rays of up to 4095 cells).
        macro_rules! jump {
            ($i:literal) => {
                if $i < count {
                    if smear[$i] {
                        pj = pj.and(sh(pj, j * dl));
                        j *= 2;
                    }
                    let next = acc.or(pj.and(sh(acc, jumps[$i] as isize * dl)));
                    if early_exit && next == acc {
                        return acc;
                    }
                    acc = next;
                }
            };
        }
        jump!(0);
        jump!(1);
        jump!(2);
        jump!(3);
        jump!(4);
        jump!(5);
        jump!(6);
        jump!(7);
        jump!(8);
        jump!(9);
        jump!(10);
        jump!(11);
        let _ = j;
        acc
    }
}

/// The ray on a runtime grid's words with Kogge-Stone doubling, stopping at the first jump
/// that adds nothing (`acc` is zeroed scratch of the grid's size).
pub(super) fn grid_kogge_stone(
    g: &[u64],
    p: &[u64],
    geo: Geo,
    d: Dir,
    len: usize,
    mut acc: Vec<u64>,
) -> Vec<u64> {
    let n = g.len();
    let mut other = vec![0u64; n];
    let mut pj = p.to_vec();
    let mut ptmp = vec![0u64; n];
    // A jump that adds nothing ends the fill: rays are contiguous, so with no cell at
    // distances covered+1..=covered+j there is none further either.
    if step(&mut acc, g, p, geo, d, 1, Mode::Set) == 0 {
        return acc;
    }
    // Each pass jumps by j and doubles the propagator for the next jump (same shift).
    let (mut j, mut covered) = (1usize, 1usize);
    while covered < len {
        // The next jump doubles when the plain schedule would (see `ks_plan`).
        let c2 = covered + j;
        let smear = c2 < len && c2 + j < len && 2 * j <= c2;
        let next_j = if smear { 2 * j } else { j };
        let added = jump_pass(&mut other, &acc, &mut ptmp, &pj, geo, d, j, smear);
        std::mem::swap(&mut acc, &mut other);
        covered += j;
        if added == 0 {
            break;
        }
        if smear {
            std::mem::swap(&mut pj, &mut ptmp);
            j = next_j;
        }
    }
    acc
}
