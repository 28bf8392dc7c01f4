//! The AVX2 engine: two planes per 256-bit register, one plane per 128-bit half (`vpslldq`
//! and `vpsrldq` shift each half on its own, so a horizontal shift never crosses from one
//! plane into the other). Register 0 holds colours 0 and 1, register 1 colours 2 and 3,
//! register 2 colour 4 and the garbage plane; the vanish check, the removal and every
//! gravity round handle two planes per instruction. The step's bookkeeping is branch-free
//! (ten `popcnt`s and table look-ups) except for colours with 8 or more vanishing cells.

use super::super::kernel::{groups_and_bonus, Record};
use super::super::rules::{STC, TSU};
use super::super::{Chain, Field, Rules, ACTIVE};
use std::arch::x86_64::*;
use std::mem::MaybeUninit;

/// A 128-bit plane in both halves of a register.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn splat(v: u128) -> __m256i {
    let (lo, hi) = (v as u64 as i64, (v >> 64) as u64 as i64);
    _mm256_set_epi64x(hi, lo, hi, lo)
}

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn or(a: __m256i, b: __m256i) -> __m256i {
    _mm256_or_si256(a, b)
}

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn and(a: __m256i, b: __m256i) -> __m256i {
    _mm256_and_si256(a, b)
}

/// `a & !b`.
#[inline]
#[target_feature(enable = "avx2")]
fn and_not(a: __m256i, b: __m256i) -> __m256i {
    _mm256_andnot_si256(b, a)
}

/// Row `y` to `y + 1` in every column of both planes.
#[inline]
#[target_feature(enable = "avx2")]
fn up(a: __m256i) -> __m256i {
    _mm256_slli_epi16::<1>(a)
}

/// Row `y` to `y - 1`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn down(a: __m256i) -> __m256i {
    _mm256_srli_epi16::<1>(a)
}

/// Column `x` to `x + 1` (within each plane).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn right(a: __m256i) -> __m256i {
    _mm256_bslli_epi128::<2>(a)
}

/// Column `x` to `x - 1`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn left(a: __m256i) -> __m256i {
    _mm256_bsrli_epi128::<2>(a)
}

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn is_zero(a: __m256i) -> bool {
    _mm256_testz_si256(a, a) != 0
}

/// Cells of `x` and their four neighbours.
#[inline]
#[target_feature(enable = "avx2")]
fn dilate(x: __m256i) -> __m256i {
    or(or(x, up(x)), or(or(down(x), left(x)), right(x)))
}

/// The cells of groups of 4+ in both planes of `x` (restricted to the active rows):
/// puyoai's neighbour-count filter (a cell with 3 same-colour neighbours, or two adjacent
/// cells with 2), then one dilation inside `x`. Branch-free, 35 instructions.
#[inline]
#[target_feature(enable = "avx2")]
fn vanishing(x: __m256i) -> __m256i {
    let u = and(x, down(x)); // a same-colour neighbour above
    let d = up(u); // ... below
    let l = and(x, right(x)); // ... to the left
    let r = left(l); // ... to the right
    let ud_and = and(u, d);
    let lr_and = and(l, r);
    let ud_or = or(u, d);
    let lr_or = or(l, r);
    let threes = or(and(ud_and, lr_or), and(lr_and, ud_or));
    let twos = or(or(ud_and, lr_and), and(ud_or, lr_or));
    let two_pairs = and(
        or(or(up(twos), down(twos)), or(left(twos), right(twos))),
        twos,
    );
    and(dilate(or(threes, two_pairs)), x)
}

/// Gravity on a settled field from which the cells `removed` (in both halves) were just
/// taken: each round cuts the lowest removed cell out of every column of every plane at
/// once; the rounds are the most cells removed from one column. `three`: register 2
/// holds something. A round is three instructions deep: `below = !removed & (removed - 1)`
/// (the rows under the lowest removed cell, every row where nothing is removed), then
/// `(r & below) | (r >> 1 & !below)` (bits 13 to 15 of a lane are always zero, so no
/// field mask is needed).
#[inline]
#[target_feature(enable = "avx2")]
fn fall_removed(regs: &mut [__m256i; 3], mut removed: __m256i, three: bool) {
    let minus_one = _mm256_set1_epi16(-1);
    loop {
        let below = _mm256_andnot_si256(removed, _mm256_add_epi16(removed, minus_one));
        let fall = |r: __m256i| or(and(r, below), _mm256_andnot_si256(below, down(r)));
        regs[0] = fall(regs[0]);
        regs[1] = fall(regs[1]);
        if three {
            regs[2] = fall(regs[2]);
        }
        removed = _mm256_andnot_si256(below, down(removed));
        if is_zero(removed) {
            return;
        }
    }
}

/// Gravity on any field: every floating cell falls one row per round.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn fall_any(regs: &mut [__m256i; 3]) {
    let ones = _mm256_set1_epi16(1);
    let o = or(or(regs[0], regs[1]), regs[2]);
    let folded = _mm_or_si128(_mm256_castsi256_si128(o), _mm256_extracti128_si256::<1>(o));
    let mut occ = _mm256_broadcastsi128_si256(folded);
    loop {
        // Cells resting on the floor through a solid stack: occ & !(occ + 1).
        let resting = and_not(occ, _mm256_add_epi16(occ, ones));
        let floating = and_not(occ, resting);
        if is_zero(floating) {
            return;
        }
        for r in regs.iter_mut() {
            *r = or(and_not(*r, floating), down(and(*r, floating)));
        }
        occ = or(resting, down(floating));
    }
}

/// The six planes of `field`, two per register (colours 0-1, 2-3, 4 and garbage).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn load(field: &Field) -> [__m256i; 3] {
    let p = field.planes.as_ptr().cast::<__m256i>();
    // SAFETY: `planes` is six u128s, so three whole 32-byte loads stay inside it.
    unsafe {
        [
            _mm256_loadu_si256(p),
            _mm256_loadu_si256(p.add(1)),
            _mm256_loadu_si256(p.add(2)),
        ]
    }
}

/// `field` with the planes of `regs` (as [`load`] reads them).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn with_planes(field: &Field, regs: &[__m256i; 3]) -> Field {
    let mut out = *field;
    let p = out.planes.as_mut_ptr().cast::<__m256i>();
    // SAFETY: as for the loads.
    unsafe {
        _mm256_storeu_si256(p, regs[0]);
        _mm256_storeu_si256(p.add(1), regs[1]);
        _mm256_storeu_si256(p.add(2), regs[2]);
    }
    out
}

/// No cell of the planes of `regs` floats: every column is a solid stack from the floor.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn settled(regs: &[__m256i; 3]) -> bool {
    let o = or(or(regs[0], regs[1]), regs[2]);
    let o = _mm_or_si128(_mm256_castsi256_si128(o), _mm256_extracti128_si256::<1>(o));
    let resting = _mm_andnot_si128(_mm_add_epi16(o, _mm_set1_epi16(1)), o);
    _mm_testc_si128(resting, o) != 0
}

/// The whole chain; see [`Field::simulate`].
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(super) unsafe fn simulate(field: &Field, out: &mut MaybeUninit<Chain>) {
    let rules = field.rules;
    let t = match rules {
        Rules::SmashTheCode => &STC,
        Rules::Tsu => &TSU,
    };
    let mut record = Record::new(t, out);
    let mut regs = load(field);
    let active = splat(ACTIVE);
    // Colour 4 only: the garbage half never vanishes by itself.
    let active_lo = _mm256_set_epi64x(0, 0, (ACTIVE >> 64) as i64, ACTIVE as u64 as i64);
    let garbage_half = _mm256_set_epi64x(!0, !0, 0, 0);
    // Colour 4 in every row: what is live and what moves counts the ghost row too, whose
    // cells fall into the active rows and can form groups there.
    let colour4 = _mm256_set_epi64x(0, 0, !0, !0);
    let zero = _mm256_setzero_si256();
    let (live0, live1) = (!is_zero(regs[0]), !is_zero(regs[1]));
    let live4 = !is_zero(and(regs[2], colour4));
    let three = !is_zero(regs[2]);
    let garbage_live = !is_zero(and(regs[2], garbage_half));
    let mut settled = settled(&regs);
    let live = u32::from(live0) | u32::from(live1) << 1 | u32::from(live4) << 2;
    let mut dirty = live;
    loop {
        let v0 = if dirty & 1 != 0 {
            vanishing(and(regs[0], active))
        } else {
            zero
        };
        let v1 = if dirty & 2 != 0 {
            vanishing(and(regs[1], active))
        } else {
            zero
        };
        let v2 = if dirty & 4 != 0 {
            vanishing(and(regs[2], active_lo))
        } else {
            zero
        };
        let any = or(or(v0, v1), v2);
        if is_zero(any) {
            break;
        }
        // Both halves: the union of every plane's vanishing cells.
        let all = or(any, _mm256_permute4x64_epi64::<0b01_00_11_10>(any));
        let cleared = (_mm256_extract_epi64::<0>(all) as u64).count_ones()
            + (_mm256_extract_epi64::<1>(all) as u64).count_ones();
        // Bit c: colour c vanished something (its two words are not both zero).
        let z = |v: __m256i| {
            _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(v, zero))) as u32
        };
        let zeros = z(v0) | z(v1) << 4 | z(v2) << 8;
        let colors = _pext_u32(!(zeros & zeros >> 1), 0x155).count_ones();
        // Every group has 4 cells or more: when the cells are four times the colours,
        // each colour cleared one group of 4 (group bonus 0 under both rules).
        let (groups, gb) = if cleared == 4 * colors {
            (colors, 0)
        } else {
            let w = |v: __m256i, i: usize| {
                let lo = _mm256_castsi256_si128(v);
                let hi = _mm256_extracti128_si256::<1>(v);
                let h = if i == 0 { lo } else { hi };
                (_mm_extract_epi64::<1>(h) as u64 as u128) << 64
                    | _mm_cvtsi128_si64(h) as u64 as u128
            };
            groups_and_bonus(
                &[w(v0, 0), w(v0, 1), w(v1, 0), w(v1, 1), w(v2, 0)],
                t,
                rules,
            )
        };
        // Garbage next to a vanishing cell (never in the ghost row).
        let mut removed = all;
        let mut garbage = 0;
        if garbage_live {
            let g = and(and(regs[2], and(dilate(all), active)), garbage_half);
            garbage = (_mm256_extract_epi64::<2>(g) as u64).count_ones()
                + (_mm256_extract_epi64::<3>(g) as u64).count_ones();
            removed = or(all, _mm256_permute4x64_epi64::<0b11_10_11_10>(g));
        }
        regs[0] = and_not(regs[0], removed);
        regs[1] = and_not(regs[1], removed);
        if three {
            regs[2] = and_not(regs[2], removed);
        }
        if settled {
            // Only planes with a cell above a removed one move, so only they can form
            // a new group.
            let below =
                _mm256_andnot_si256(removed, _mm256_add_epi16(removed, _mm256_set1_epi16(-1)));
            dirty = live
                & (u32::from(_mm256_testc_si256(below, regs[0]) == 0)
                    | u32::from(_mm256_testc_si256(below, regs[1]) == 0) << 1
                    | u32::from(_mm256_testc_si256(below, and(regs[2], colour4)) == 0) << 2);
            fall_removed(&mut regs, removed, three);
        } else {
            fall_any(&mut regs);
            settled = true;
        }
        record.push(cleared, garbage, groups, colors, gb);
    }
    record.finish(with_planes(field, &regs));
}
