//! The passes cell by cell, on the same layout (the kernels' reference and the fallback).

use super::{Layout, Widened, FAR};
use crate::BitGrid;

/// The smallest of the row `prev`'s cells that reach cell `x` (at `1 + x`).
#[inline(always)]
fn reach(prev: &[i16], x: usize, diagonal: bool) -> i16 {
    if diagonal {
        prev[x].min(prev[x + 1]).min(prev[x + 2])
    } else {
        prev[x + 1]
    }
}

pub(super) fn passes<T: Widened>(
    grid: &BitGrid,
    diagonal: bool,
    lay: Layout,
    scratch: &mut [i16],
    rows: &mut [i16],
    out: &mut Vec<T>,
) {
    let Layout { w, h, stride, .. } = lay;
    let far = vec![FAR; stride];
    for y in 0..h {
        let (done, rest) = scratch.split_at_mut(y * stride);
        let prev = if y == 0 {
            &far[..]
        } else {
            &done[(y - 1) * stride..]
        };
        let cur = &mut rest[..stride];
        let bits = grid.row_words(y);
        let mut run = FAR;
        for x in 0..w {
            let init = if (bits[x / 64] >> (x % 64)) & 1 == 1 {
                FAR
            } else {
                0
            };
            let g = init.min(reach(prev, x, diagonal).saturating_add(1));
            run = g.min(run.saturating_add(1));
            cur[1 + x] = run;
        }
    }
    out.clear();
    out.resize(w * h, T::of(0));
    let (a, b) = rows.split_at_mut(stride + 1);
    let (mut below, mut this) = (a, b);
    below.fill(FAR);
    this.fill(FAR);
    for y in (0..h).rev() {
        let cur = &scratch[y * stride..(y + 1) * stride];
        let mut run = FAR;
        for x in (0..w).rev() {
            let g = cur[1 + x].min(reach(below, x, diagonal).saturating_add(1));
            run = g.min(run.saturating_add(1));
            this[1 + x] = run;
            out[y * w + x] = T::of(run as u32);
        }
        std::mem::swap(&mut below, &mut this);
    }
}
