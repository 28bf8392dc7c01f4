//! The subtraction trick for rays along the bits: with `o` the blockers plus the pieces `g`,
//! `o ^ (o - 2g)` is every cell a piece reaches towards higher bits (each borrow runs up to
//! the next set bit of `o`), exact for many pieces on one line. East is contiguous in the bits
//! of both board kinds; west runs the same on bit-reversed words. Directions with a vertical
//! part fall back to Kogge-Stone.

use super::board_steps::propagator;
use super::grid_steps::Geo;
use crate::Board;

impl<const W: usize, const H: usize, const N: usize> Board<W, H, N> {
    #[inline(always)]
    pub(super) fn slide_subtract<const DX: isize, const DY: isize>(self, passable: Self) -> Self {
        match (DX, DY) {
            (1, 0) => Board {
                words: subtract_up(self.words, propagator(passable, DX).words),
            },
            (-1, 0) => Board {
                words: rev_words(subtract_up(
                    rev_words(self.words),
                    rev_words(propagator(passable, DX).words),
                )),
            },
            _ => self.slide_kogge_stone::<DX, DY>(passable),
        }
    }
}

/// `a - b` over the whole word array (wrapping).
#[inline(always)]
fn sub_words<const N: usize>(a: [u64; N], b: [u64; N]) -> [u64; N] {
    let mut out = [0u64; N];
    let mut borrow = false;
    for i in 0..N {
        let (d1, b1) = a[i].overflowing_sub(b[i]);
        let (d2, b2) = d1.overflowing_sub(borrow as u64);
        out[i] = d2;
        borrow = b1 | b2;
    }
    out
}

/// The word array with its bit order reversed (bit `i` to bit `64 N - 1 - i`).
#[inline(always)]
fn rev_words<const N: usize>(a: [u64; N]) -> [u64; N] {
    let mut out = [0u64; N];
    for i in 0..N {
        out[i] = a[N - 1 - i].reverse_bits();
    }
    out
}

/// `(o ^ (o - 2g)) & p` with `o = !p | g`: the rays towards higher bits of every bit of `g`.
#[inline(always)]
fn subtract_up<const N: usize>(g: [u64; N], p: [u64; N]) -> [u64; N] {
    let mut o = [0u64; N];
    let mut two_g = [0u64; N];
    for i in 0..N {
        o[i] = !p[i] | g[i];
        two_g[i] = (g[i] << 1) | if i > 0 { g[i - 1] >> 63 } else { 0 };
    }
    let d = sub_words(o, two_g);
    let mut out = [0u64; N];
    for i in 0..N {
        out[i] = (o[i] ^ d[i]) & p[i];
    }
    out
}

/// The subtraction along each row: east directly, west on the bit-reversed row.
pub(super) fn rows_subtract(g: &[u64], p: &[u64], geo: Geo, east: bool, out: &mut [u64]) {
    let wpr = geo.wpr;
    if wpr == 1 {
        for y in 0..geo.h {
            let (gw, pw) = if east {
                (g[y], p[y])
            } else {
                (g[y].reverse_bits(), p[y].reverse_bits())
            };
            let o = !pw | gw;
            let r = (o ^ o.wrapping_sub(gw << 1)) & pw;
            out[y] = if east { r } else { r.reverse_bits() };
        }
        return;
    }
    let mut gr = vec![0u64; wpr];
    let mut pr = vec![0u64; wpr];
    for y in 0..geo.h {
        let row = y * wpr..(y + 1) * wpr;
        if east {
            gr.copy_from_slice(&g[row.clone()]);
            pr.copy_from_slice(&p[row.clone()]);
        } else {
            for i in 0..wpr {
                gr[i] = g[y * wpr + wpr - 1 - i].reverse_bits();
                pr[i] = p[y * wpr + wpr - 1 - i].reverse_bits();
            }
        }
        let mut borrow = false;
        let mut carry = 0u64;
        for i in 0..wpr {
            let o = !pr[i] | gr[i];
            let two = (gr[i] << 1) | carry;
            carry = gr[i] >> 63;
            let (d1, b1) = o.overflowing_sub(two);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            borrow = b1 | b2;
            gr[i] = (o ^ d2) & pr[i];
        }
        if east {
            out[row].copy_from_slice(&gr);
        } else {
            for i in 0..wpr {
                out[y * wpr + wpr - 1 - i] = gr[i].reverse_bits();
            }
        }
    }
}
