//! The word-array steps every runtime-grid method shares: a [`BitGrid`]'s shape ([`Geo`]), one
//! shifted, masked step over the whole grid ([`step`], [`step_one_word`]) and the fused
//! Kogge-Stone / galloping pass ([`jump_pass`]).

#[cfg(doc)]
use crate::BitGrid;
use crate::Dir;

/// The shape of a [`BitGrid`]'s word array.
#[derive(Clone, Copy)]
pub(super) struct Geo {
    pub(super) h: usize,
    pub(super) wpr: usize,
}

/// How [`step`] combines the shifted, masked source `t` with the destination.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Mode {
    /// `dst = t`.
    Set,
    /// `dst = src | t`.
    OrSelf,
}

/// One step over the whole grid: `t = mask & shift(src, d, k)` combined into `dst` by `mode`.
/// Returns the OR of the bits `t` added (`t & !src` for `OrSelf`, `t` for `Set`), so a zero
/// means nothing moved.
pub(super) fn step(
    dst: &mut [u64],
    src: &[u64],
    mask: &[u64],
    geo: Geo,
    d: Dir,
    k: usize,
    mode: Mode,
) -> u64 {
    let (dx, dy) = d.delta();
    let Geo { h, wpr } = geo;
    if wpr == 1 {
        return step_one_word(dst, src, mask, None, h, dx, dy, k, mode);
    }
    let mut any = 0u64;
    let (q, r) = (k / 64, (k % 64) as u32);
    for y in 0..h {
        let sy = y as isize - dy * k as isize;
        let row = y * wpr;
        if sy < 0 || sy as usize >= h {
            match mode {
                Mode::Set => dst[row..row + wpr].fill(0),
                Mode::OrSelf => dst[row..row + wpr].copy_from_slice(&src[row..row + wpr]),
            }
            continue;
        }
        let srow = sy as usize * wpr;
        if wpr == 1 {
            let s = src[srow];
            let shifted = match dx {
                0 => s,
                1 => {
                    if k < 64 {
                        s << k
                    } else {
                        0
                    }
                }
                _ => {
                    if k < 64 {
                        s >> k
                    } else {
                        0
                    }
                }
            };
            let t = shifted & mask[row];
            match mode {
                Mode::Set => {
                    dst[row] = t;
                    any |= t;
                }
                Mode::OrSelf => {
                    let old = src[row];
                    dst[row] = old | t;
                    any |= t & !old;
                }
            }
            continue;
        }
        for i in 0..wpr {
            let shifted = match dx {
                0 => src[srow + i],
                1 => {
                    let mut v = 0;
                    if i >= q {
                        v = src[srow + i - q] << r;
                        if r != 0 && i > q {
                            v |= src[srow + i - q - 1] >> (64 - r);
                        }
                    }
                    v
                }
                _ => {
                    let mut v = 0;
                    if i + q < wpr {
                        v = src[srow + i + q] >> r;
                        if r != 0 && i + q + 1 < wpr {
                            v |= src[srow + i + q + 1] << (64 - r);
                        }
                    }
                    v
                }
            };
            let t = shifted & mask[row + i];
            match mode {
                Mode::Set => {
                    dst[row + i] = t;
                    any |= t;
                }
                Mode::OrSelf => {
                    let old = src[row + i];
                    dst[row + i] = old | t;
                    any |= t & !old;
                }
            }
        }
    }
    any
}

/// [`step`] on grids of one word per row: whole-row slices, one branch-free loop per
/// (direction, mode), optionally ORing the new cells into `acc` too.
#[allow(clippy::too_many_arguments)]
pub(super) fn step_one_word(
    dst: &mut [u64],
    src: &[u64],
    mask: &[u64],
    acc: Option<&mut [u64]>,
    h: usize,
    dx: isize,
    dy: isize,
    k: usize,
    mode: Mode,
) -> u64 {
    let off = dy * k as isize;
    // Rows y0..y1 have a source row y - off; the others get nothing.
    let (y0, y1) = if off.unsigned_abs() >= h {
        (0, 0)
    } else if off >= 0 {
        (off as usize, h)
    } else {
        (0, h - off.unsigned_abs())
    };
    for y in (0..y0).chain(y1.max(y0)..h) {
        dst[y] = match mode {
            Mode::Set => 0,
            Mode::OrSelf => src[y],
        };
    }
    if y0 >= y1 {
        return 0;
    }
    let (s0, s1) = ((y0 as isize - off) as usize, (y1 as isize - off) as usize);
    let from = &src[s0..s1];
    let own = &src[y0..y1];
    let m = &mask[y0..y1];
    let out = &mut dst[y0..y1];
    let k32 = k as u32;
    let shift = |v: u64| -> u64 {
        match dx {
            0 => v,
            1 => v.checked_shl(k32).unwrap_or(0),
            _ => v.checked_shr(k32).unwrap_or(0),
        }
    };
    let mut any = 0u64;
    match (mode, acc) {
        (Mode::Set, None) => {
            for ((o, &f), &mk) in out.iter_mut().zip(from).zip(m) {
                let t = shift(f) & mk;
                *o = t;
                any |= t;
            }
        }
        (Mode::Set, Some(acc)) => {
            let acc = &mut acc[y0..y1];
            for (((o, a), &f), &mk) in out.iter_mut().zip(acc.iter_mut()).zip(from).zip(m) {
                let t = shift(f) & mk;
                *o = t;
                *a |= t;
                any |= t;
            }
            // Rows without a source are empty fronts: nothing to add to `acc`.
        }
        (Mode::OrSelf, _) => {
            for (((o, &f), &mk), &old) in out.iter_mut().zip(from).zip(m).zip(own) {
                let t = shift(f) & mk;
                *o = old | t;
                any |= t & !old;
            }
        }
    }
    any
}

/// One fused Kogge-Stone / galloping pass: `acc_out = acc | p & shift(acc, j)` and, if
/// `smear`, `p_out = p & shift(p, j)` (the propagator for a jump of `2j`), reading each row
/// once. Returns the OR of the cells added to `acc`.
#[allow(clippy::too_many_arguments)]
pub(super) fn jump_pass(
    acc_out: &mut [u64],
    acc: &[u64],
    p_out: &mut [u64],
    p: &[u64],
    geo: Geo,
    d: Dir,
    j: usize,
    smear: bool,
) -> u64 {
    let (dx, dy) = d.delta();
    if geo.wpr != 1 {
        if smear {
            step(p_out, p, p, geo, d, j, Mode::Set);
        }
        return step(acc_out, acc, p, geo, d, j, Mode::OrSelf);
    }
    let h = geo.h;
    let off = dy * j as isize;
    let (y0, y1) = if off.unsigned_abs() >= h {
        (0, 0)
    } else if off >= 0 {
        (off as usize, h)
    } else {
        (0, h - off.unsigned_abs())
    };
    for y in (0..y0).chain(y1.max(y0)..h) {
        acc_out[y] = acc[y];
        p_out[y] = 0;
    }
    if y0 >= y1 {
        return 0;
    }
    let (s0, s1) = ((y0 as isize - off) as usize, (y1 as isize - off) as usize);
    let k = j as u32;
    let shift = |v: u64| -> u64 {
        match dx {
            0 => v,
            1 => v.checked_shl(k).unwrap_or(0),
            _ => v.checked_shr(k).unwrap_or(0),
        }
    };
    let mut any = 0u64;
    let n = y1 - y0;
    let (acc_out, acc_own, acc_from) = (&mut acc_out[y0..y1], &acc[y0..y1], &acc[s0..s1]);
    let (p_own, p_from) = (&p[y0..y1], &p[s0..s1]);
    if smear {
        let p_out = &mut p_out[y0..y1];
        for i in 0..n {
            let t = shift(acc_from[i]) & p_own[i];
            acc_out[i] = acc_own[i] | t;
            any |= t & !acc_own[i];
            p_out[i] = p_own[i] & shift(p_from[i]);
        }
    } else {
        for i in 0..n {
            let t = shift(acc_from[i]) & p_own[i];
            acc_out[i] = acc_own[i] | t;
            any |= t & !acc_own[i];
        }
    }
    any
}
