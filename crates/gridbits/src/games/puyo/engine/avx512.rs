//! The AVX-512 engine: the four colour planes 0-3 in one 512-bit register (one plane per
//! 128-bit lane; `vpslldq` and `vpsrldq` shift each lane on its own), colour 4 and the
//! garbage plane in a second one. `vpternlogq` merges three-input boolean steps into one
//! instruction, so the vanish check of four colours is 25 instructions and a gravity round
//! moves a register with a shift and one select.

use super::super::kernel::{groups_and_bonus, Record};
use super::super::rules::{Tables, STC, TSU};
use super::super::{Chain, Field, Rules, ACTIVE};
use std::arch::x86_64::*;
use std::mem::MaybeUninit;

// `vpternlogq` truth tables: bit `4a + 2b + c` of the immediate is f(a, b, c).
pub(super) const A: i32 = 0xf0;
pub(super) const B: i32 = 0xcc;
pub(super) const C: i32 = 0xaa;
/// At least two of three.
pub(super) const MAJ: i32 = (A & B) | (A & C) | (B & C);
pub(super) const OR3: i32 = A | B | C;
pub(super) const AND3: i32 = A & B & C;
/// `a | (b & c)`.
pub(super) const OR_AND: i32 = A | (B & C);
/// `(a | b) & c`.
pub(super) const AND_OR: i32 = (A | B) & C;
/// `a ? b : c`, bit by bit.
pub(super) const SELECT: i32 = (A & B) | (!A & C & 0xff);
/// `!a & b & c`.
pub(super) const ANDN_AND: i32 = !A & B & C & 0xff;
/// `(!a & b) | c`.
pub(super) const ANDN_OR: i32 = (!A & B & 0xff) | C;

#[inline]
#[target_feature(enable = "avx512f")]
fn tern<const F: i32>(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<F>(a, b, c)
}

/// A 128-bit plane in every lane.
#[inline]
#[target_feature(enable = "avx512f")]
fn splat(v: u128) -> __m512i {
    let (lo, hi) = (v as u64 as i64, (v >> 64) as u64 as i64);
    _mm512_set_epi64(hi, lo, hi, lo, hi, lo, hi, lo)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn and(a: __m512i, b: __m512i) -> __m512i {
    _mm512_and_si512(a, b)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn or(a: __m512i, b: __m512i) -> __m512i {
    _mm512_or_si512(a, b)
}

/// `!a & b`.
#[inline]
#[target_feature(enable = "avx512f")]
fn andnot(a: __m512i, b: __m512i) -> __m512i {
    _mm512_andnot_si512(a, b)
}

/// Row `y` to `y + 1` in every column of every plane.
#[inline]
#[target_feature(enable = "avx512bw")]
fn up(a: __m512i) -> __m512i {
    _mm512_slli_epi16::<1>(a)
}

/// Row `y` to `y - 1`.
#[inline]
#[target_feature(enable = "avx512bw")]
fn down(a: __m512i) -> __m512i {
    _mm512_srli_epi16::<1>(a)
}

/// Column `x` to `x + 1` (within each plane).
#[inline]
#[target_feature(enable = "avx512bw")]
fn right(a: __m512i) -> __m512i {
    _mm512_bslli_epi128::<2>(a)
}

/// Column `x` to `x - 1`.
#[inline]
#[target_feature(enable = "avx512bw")]
fn left(a: __m512i) -> __m512i {
    _mm512_bsrli_epi128::<2>(a)
}

#[inline]
#[target_feature(enable = "avx512f")]
fn is_zero(a: __m512i) -> bool {
    _mm512_test_epi64_mask(a, a) == 0
}

/// The cells of groups of 4+ in every plane of `x` (restricted to the active rows):
/// the neighour-count filter of the other engines, with the counts as majority
/// functions, then one dilation inside `x`. Branch-free, 25 instructions.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn vanishing(x: __m512i) -> __m512i {
    let u = and(x, down(x)); // a same-colour neighbour above
    let d = up(u); // ... below
    let l = and(x, right(x)); // ... to the left
    let r = left(l); // ... to the right
    let maj = tern::<MAJ>(u, d, l);
    let any3 = tern::<OR3>(u, d, l);
    let all3 = tern::<AND3>(u, d, l);
    let twos = tern::<OR_AND>(maj, r, any3); // two neighbours or more
    let threes = tern::<OR_AND>(all3, r, maj); // three or more
    let near = tern::<OR3>(up(twos), down(twos), left(twos));
    let two_pairs = tern::<AND_OR>(near, right(twos), twos);
    let seeds = or(threes, two_pairs);
    let grown = tern::<OR3>(seeds, up(seeds), down(seeds));
    let grown = tern::<AND_OR>(grown, left(seeds), x);
    tern::<OR_AND>(grown, right(seeds), x)
}

/// `v` with the OR of its four lanes in every lane.
#[inline]
#[target_feature(enable = "avx512f")]
fn fold(v: __m512i) -> __m512i {
    let v = or(v, _mm512_shuffle_i64x2::<0b01_00_11_10>(v, v));
    or(v, _mm512_shuffle_i64x2::<0b10_11_00_01>(v, v))
}

/// Gravity on a settled field from which the cells `removed` (in every lane) were just
/// taken, as in the AVX2 engine; `two`: register 1 holds something.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn fall_removed(regs: &mut [__m512i; 2], mut removed: __m512i, two: bool) {
    let minus_one = _mm512_set1_epi16(-1);
    loop {
        let below = andnot(removed, _mm512_add_epi16(removed, minus_one));
        regs[0] = tern::<SELECT>(below, regs[0], down(regs[0]));
        if two {
            regs[1] = tern::<SELECT>(below, regs[1], down(regs[1]));
        }
        removed = andnot(below, down(removed));
        if is_zero(removed) {
            return;
        }
    }
}

/// Gravity on any field: every floating cell falls one row per round.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn fall_any(regs: &mut [__m512i; 2]) {
    let ones = _mm512_set1_epi16(1);
    let mut occ = fold(or(regs[0], regs[1]));
    loop {
        // Cells resting on the floor through a solid stack: occ & !(occ + 1).
        let resting = andnot(_mm512_add_epi16(occ, ones), occ);
        let floating = andnot(resting, occ);
        if is_zero(floating) {
            return;
        }
        for r in regs.iter_mut() {
            *r = tern::<ANDN_OR>(floating, *r, down(and(*r, floating)));
        }
        occ = or(resting, down(floating));
    }
}

/// The whole chain; see [`Field::simulate`].
///
/// # Safety
/// The CPU must support AVX-512 F and BW, BMI2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,bmi2,popcnt")]
pub(super) unsafe fn simulate(field: &Field, out: &mut MaybeUninit<Chain>) {
    let rules = field.rules;
    let t: &Tables = match rules {
        Rules::SmashTheCode => &STC,
        Rules::Tsu => &TSU,
    };
    let mut record = Record::new(t, out);
    let p = field.planes.as_ptr();
    // SAFETY: `planes` is six u128s: one 64-byte load of planes 0-3, one 32-byte load of
    // planes 4-5 (the upper half of register 1 is zero).
    let mut regs = unsafe {
        [
            _mm512_loadu_si512(p.cast()),
            _mm512_zextsi256_si512(_mm256_loadu_si256(p.add(4).cast())),
        ]
    };
    let active = splat(ACTIVE);
    // Colour 4 only: the garbage lane never vanishes by itself.
    let active4 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, (ACTIVE >> 64) as i64, ACTIVE as i64);
    let garbage_lane = _mm512_set_epi64(0, 0, 0, 0, !0, !0, 0, 0);
    // Colour 4 in every row: what is live and what moves counts the ghost row too, whose
    // cells fall into the active rows and can form groups there.
    let colour4 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, !0, !0);
    let zero = _mm512_setzero_si512();
    let live0 = !is_zero(regs[0]);
    let live4 = !is_zero(and(regs[1], colour4));
    let two = !is_zero(regs[1]);
    let garbage_live = !is_zero(and(regs[1], garbage_lane));
    let mut settled = {
        let o = fold(or(regs[0], regs[1]));
        let resting = andnot(_mm512_add_epi16(o, _mm512_set1_epi16(1)), o);
        is_zero(andnot(resting, o))
    };
    let live = u32::from(live0) | u32::from(live4) << 1;
    let mut dirty = live;
    loop {
        let v0 = if dirty & 1 != 0 {
            vanishing(and(regs[0], active))
        } else {
            zero
        };
        let v1 = if dirty & 2 != 0 {
            vanishing(and(regs[1], active4))
        } else {
            zero
        };
        let any = or(v0, v1);
        if is_zero(any) {
            break;
        }
        // Every lane: the union of every plane's vanishing cells.
        let all = fold(any);
        let a = _mm512_castsi512_si128(all);
        let cleared = (_mm_cvtsi128_si64(a) as u64).count_ones()
            + (_mm_extract_epi64::<1>(a) as u64).count_ones();
        // Bits 2c and 2c + 1: the words of colour c that are not zero.
        let words = u32::from(_mm512_test_epi64_mask(v0, v0))
            | u32::from(_mm512_test_epi64_mask(v1, v1)) << 8;
        let colors = ((words | words >> 1) & 0x155).count_ones();
        // Every group has 4 cells or more: when the cells are four times the colours,
        // each colour cleared one group of 4 (group bonus 0 under both rules).
        let (groups, gb) = if cleared == 4 * colors {
            (colors, 0)
        } else {
            let mut sets = [0u128; 8];
            // SAFETY: two 64-byte stores into 128 bytes.
            unsafe {
                _mm512_storeu_si512(sets.as_mut_ptr().cast(), v0);
                _mm512_storeu_si512(sets.as_mut_ptr().add(4).cast(), v1);
            }
            groups_and_bonus(&[sets[0], sets[1], sets[2], sets[3], sets[4]], t, rules)
        };
        // Garbage next to a vanishing cell (never in the ghost row).
        let mut removed = all;
        let mut garbage = 0;
        if garbage_live {
            let near = and(
                tern::<OR3>(up(all), down(all), or(left(all), right(all))),
                active,
            );
            let g = tern::<AND3>(regs[1], near, garbage_lane);
            let g1 = _mm512_extracti32x4_epi32::<1>(g);
            garbage = (_mm_cvtsi128_si64(g1) as u64).count_ones()
                + (_mm_extract_epi64::<1>(g1) as u64).count_ones();
            removed = or(all, _mm512_shuffle_i64x2::<0b01_01_01_01>(g, g));
        }
        regs[0] = andnot(removed, regs[0]);
        if two {
            regs[1] = andnot(removed, regs[1]);
        }
        if settled {
            // Only registers with a cell above a removed one move, so only they can
            // form a new group.
            let below = andnot(removed, _mm512_add_epi16(removed, _mm512_set1_epi16(-1)));
            dirty = live
                & (u32::from(!is_zero(andnot(below, regs[0])))
                    | u32::from(!is_zero(tern::<ANDN_AND>(below, regs[1], colour4))) << 1);
            fall_removed(&mut regs, removed, two);
        } else {
            fall_any(&mut regs);
            settled = true;
        }
        record.push(cleared, garbage, groups, colors, gb);
    }
    let mut end = *field;
    let p = end.planes.as_mut_ptr();
    // SAFETY: as for the loads.
    unsafe {
        _mm512_storeu_si512(p.cast(), regs[0]);
        _mm256_storeu_si256(p.add(4).cast(), _mm512_castsi512_si256(regs[1]));
    }
    record.finish(end);
}
