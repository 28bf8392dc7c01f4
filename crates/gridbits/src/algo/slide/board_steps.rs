//! The word helpers every fixed-board method shares: raw signed shifts, the propagator that
//! keeps a step from wrapping into the next row, the longest ray and the bit offset of a step.

use crate::Board;

/// Raw shift by a signed bit offset (positive: towards higher bits).
#[inline(always)]
pub(super) fn sh<const W: usize, const H: usize, const N: usize>(
    b: Board<W, H, N>,
    delta: isize,
) -> Board<W, H, N> {
    if delta >= 0 {
        b.shl_raw(delta as usize)
    } else {
        b.shr_raw(delta.unsigned_abs())
    }
}

/// The passable cells a step with horizontal part `dx` may land on. With a guard column every
/// raw shift lands either on a cell or on a guard bit (never passable); without one, a step
/// with a horizontal part may not land in the column it would wrap into.
#[inline(always)]
pub(super) fn propagator<const W: usize, const H: usize, const N: usize>(
    passable: Board<W, H, N>,
    dx: isize,
) -> Board<W, H, N> {
    if Board::<W, H, N>::GUARD {
        return passable;
    }
    match dx {
        1 => passable.and(Board::<W, H, N>::NOT_FIRST_COL),
        -1 => passable.and(Board::<W, H, N>::NOT_LAST_COL),
        _ => passable,
    }
}

/// The longest ray on a `w x h` board in a direction with parts `dx`, `dy`.
pub(super) const fn max_ray_len(w: usize, h: usize, dx: isize, dy: isize) -> usize {
    match (dx != 0, dy != 0) {
        (true, true) => {
            if w < h {
                w - 1
            } else {
                h - 1
            }
        }
        (true, false) => w - 1,
        _ => h - 1,
    }
}

/// The bit offset of one step `(dx, dy)` on this board.
impl<const W: usize, const H: usize, const N: usize> Board<W, H, N> {
    pub(super) const fn slide_delta(dx: isize, dy: isize) -> isize {
        dy * Self::STRIDE as isize + dx
    }
}
