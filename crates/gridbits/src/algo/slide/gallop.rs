//! Galloping, the algorithm of "Sub-linear bitfield flood fill with galloping".
//!
//! A ray moving one cell per step needs as many steps as its length. Galloping moves the
//! front `2^s` cells per step instead, through a propagator whose walls are *smeared*: a cell
//! may be landed on only if it and the `2^s - 1` cells before it (in the direction of travel)
//! are passable, so the front never phases through a wall. The cells a gallop skips are filled
//! by the steps before it (*accelerate*: jumps of 1, 2, ..., `2^(s-1)` from the pieces, each
//! doubling the smeared propagator) or after it (*decelerate*: gallop from the first cells,
//! then jumps of `2^(s-1)`, ..., 1). Either way every cell of the ray is filled, and the
//! gallop stops as soon as a step adds nothing. The speed defaults to about the square root
//! of the longest ray ([`auto_gallop_speed`](super::auto_gallop_speed)).

use super::board_steps::{max_ray_len, propagator, sh};
use super::grid_steps::{jump_pass, step, Geo, Mode};
use super::Approach;
use crate::{Board, Dir};

impl<const W: usize, const H: usize, const N: usize> Board<W, H, N> {
    /// The ray of a fixed board by galloping at speed `2^speed_log2`, direction `(DX, DY)`.
    #[inline(always)]
    pub(super) fn slide_gallop<const DX: isize, const DY: isize>(
        self,
        passable: Self,
        speed_log2: u32,
        approach: Approach,
    ) -> Self {
        let len = const { max_ray_len(W, H, DX, DY) };
        let p = propagator(passable, DX);
        let dl = const { Self::slide_delta(DX, DY) };
        let speed_log2 = speed_log2.clamp(1, 7) as usize;
        let mut acc = sh(self, dl).and(p);
        if acc.is_empty() || len <= 1 {
            return acc;
        }
        match approach {
            Approach::Accelerate => {
                let (mut pj, mut j) = (p, 1isize);
                for _ in 0..speed_log2 {
                    acc = acc.or(pj.and(sh(acc, j * dl)));
                    pj = pj.and(sh(pj, j * dl));
                    j *= 2;
                }
                loop {
                    let next = acc.or(pj.and(sh(acc, j * dl)));
                    if next == acc {
                        return acc;
                    }
                    acc = next;
                }
            }
            Approach::Decelerate => {
                let mut smeared = [p; 8];
                let mut j = 1isize;
                for s in 1..=speed_log2 {
                    smeared[s] = smeared[s - 1].and(sh(smeared[s - 1], j * dl));
                    j *= 2;
                }
                loop {
                    let next = acc.or(smeared[speed_log2].and(sh(acc, j * dl)));
                    if next == acc {
                        break;
                    }
                    acc = next;
                }
                for s in (0..speed_log2).rev() {
                    j /= 2;
                    acc = acc.or(smeared[s].and(sh(acc, j * dl)));
                }
                acc
            }
        }
    }
}

/// The ray on a runtime grid's words by galloping (`acc` is zeroed scratch of the grid's size).
#[allow(clippy::too_many_arguments)]
pub(super) fn grid_gallop(
    g: &[u64],
    p: &[u64],
    geo: Geo,
    d: Dir,
    len: usize,
    approach: Approach,
    speed_log2: u32,
    mut acc: Vec<u64>,
) -> Vec<u64> {
    let n = g.len();
    let mut other = vec![0u64; n];
    if step(&mut acc, g, p, geo, d, 1, Mode::Set) == 0 || len <= 1 {
        return acc;
    }
    let s = speed_log2.clamp(1, 7) as usize;
    if approach == Approach::Accelerate {
        // Jumps of 1, 2, ..., 2^(s-1), each pass doubling the propagator; then gallop.
        let (mut pj, mut ptmp) = (p.to_vec(), vec![0u64; n]);
        let mut j = 1;
        for _ in 0..s {
            jump_pass(&mut other, &acc, &mut ptmp, &pj, geo, d, j, true);
            std::mem::swap(&mut acc, &mut other);
            std::mem::swap(&mut pj, &mut ptmp);
            j *= 2;
        }
        while step(&mut other, &acc, &pj, geo, d, j, Mode::OrSelf) != 0 {
            std::mem::swap(&mut acc, &mut other);
        }
        return acc;
    }
    let mut smeared: Vec<Vec<u64>> = vec![p.to_vec()];
    let mut j = 1;
    for i in 1..=s {
        let mut next = vec![0u64; n];
        step(
            &mut next,
            &smeared[i - 1],
            &smeared[i - 1],
            geo,
            d,
            j,
            Mode::Set,
        );
        smeared.push(next);
        j *= 2;
    }
    match approach {
        Approach::Accelerate => {
            let mut j = 1;
            for pj in &smeared[..s] {
                step(&mut other, &acc, pj, geo, d, j, Mode::OrSelf);
                std::mem::swap(&mut acc, &mut other);
                j *= 2;
            }
            while step(&mut other, &acc, &smeared[s], geo, d, j, Mode::OrSelf) != 0 {
                std::mem::swap(&mut acc, &mut other);
            }
        }
        Approach::Decelerate => {
            while step(&mut other, &acc, &smeared[s], geo, d, j, Mode::OrSelf) != 0 {
                std::mem::swap(&mut acc, &mut other);
            }
            for pj in smeared[..s].iter().rev() {
                j /= 2;
                step(&mut other, &acc, pj, geo, d, j, Mode::OrSelf);
                std::mem::swap(&mut acc, &mut other);
            }
        }
    }
    acc
}
