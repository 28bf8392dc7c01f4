//! Dumb7Fill: shift the front one cell, AND with the passable cells, OR into the result,
//! until the front is empty. One shift per cell of the longest ray; the baseline every other
//! method is measured against.

use super::board_steps::{propagator, sh};
use super::grid_steps::{step, step_one_word, Geo, Mode};
use crate::{Board, Dir};

impl<const W: usize, const H: usize, const N: usize> Board<W, H, N> {
    /// The ray of a fixed board with Dumb7Fill, direction `(DX, DY)`.
    #[inline(always)]
    pub(super) fn slide_dumb7<const DX: isize, const DY: isize>(self, passable: Self) -> Self {
        let p = propagator(passable, DX);
        let dl = const { Self::slide_delta(DX, DY) };
        let mut front = sh(self, dl).and(p);
        let mut acc = front;
        while !front.is_empty() {
            front = sh(front, dl).and(p);
            acc = acc.or(front);
        }
        acc
    }
}

/// The ray on a runtime grid's words with Dumb7Fill (`acc` is zeroed scratch of the grid's size).
pub(super) fn grid_dumb7(g: &[u64], p: &[u64], geo: Geo, d: Dir, mut acc: Vec<u64>) -> Vec<u64> {
    let n = g.len();
    let mut front = vec![0u64; n];
    let mut next = vec![0u64; n];
    let mut any = step(&mut front, g, p, geo, d, 1, Mode::Set);
    acc.copy_from_slice(&front);
    let (dx, dy) = d.delta();
    while any != 0 {
        any = if geo.wpr == 1 {
            step_one_word(
                &mut next,
                &front,
                p,
                Some(&mut acc),
                geo.h,
                dx,
                dy,
                1,
                Mode::Set,
            )
        } else {
            let a = step(&mut next, &front, p, geo, d, 1, Mode::Set);
            for (a, f) in acc.iter_mut().zip(&next) {
                *a |= f;
            }
            a
        };
        std::mem::swap(&mut front, &mut next);
    }
    acc
}
