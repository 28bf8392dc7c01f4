//! The AVX-512 VL engine: the AVX2 engine's layout (two planes per 256-bit register, one
//! plane per 128-bit half; register 0 holds colours 0 and 1, register 1 colours 2 and 3,
//! register 2 colour 4 and the garbage plane) with the AVX-512 instructions on 256-bit
//! registers, which run at full speed on the CPUs that split 512-bit ones (AMD Zen 4).
//!
//! The step is bound by the latency of its dependency chain (vanish check, union of the
//! halves, gravity, next vanish check), so the engine shortens that chain:
//!
//! - the vanish check is 11 instructions deep instead of 15: `vpternlogq` merges the
//!   neighbour counts, and the dilation of the seeds is one three-input OR and one masked
//!   OR (26 instructions instead of 35, three of whose shifts up are additions, which run
//!   on every vector pipe);
//! - gravity moves each run of removed cells at once: the cells above the lowest run of a
//!   column fall by its length with one variable shift (`vpsrlvw`, the length a `vpopcntw`
//!   of the run), so a round is one run per column instead of one cell per column; a
//!   vertical group of four is one round instead of four. When no column lost two
//!   separate runs (most steps) the length is the `vpopcntw` of all removed cells,
//!   computed beside the shift's other operand: one round, 4 instructions deep. The shift
//!   moves each register's kept cells (the register without its own vanishing cells, known
//!   before the union of the halves), so from the union only the count (`vpopcntw`), the
//!   shift and the select are on the chain (`below` runs beside them);
//! - the union of the halves is `vperm2i128` (3 cycles on Zen 4; the compiler turns the
//!   intrinsic into `vpermq`, 4) and the shift is a plain `vpsrlvw` (the intrinsic adds a
//!   compare and a masked move for counts of 16 or more, which never occur here).

use super::super::kernel::{count_groups, Record};
use super::super::rules::{Tables, STC, TSU};
use super::super::{Chain, Field, Rules, ACTIVE, ALL};
use super::avx2::{
    and, down, fall_any, is_zero, left, load, or, right, settled, splat, with_planes,
};
use super::avx512::{A, AND3, AND_OR, B, C, MAJ, OR3, OR_AND, SELECT};
use std::arch::x86_64::*;
use std::mem::MaybeUninit;

/// `!(a | b) & c`.
const NOR_AND: i32 = !(A | B) & C & 0xff;

#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn tern<const F: i32>(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    _mm256_ternarylogic_epi64::<F>(a, b, c)
}

/// Row `y` to `y + 1` in every column of both planes: an addition (bits 13 to 15 of a
/// lane are zero, so no carry leaves a lane), which every vector pipe runs.
#[inline]
#[target_feature(enable = "avx2")]
fn up(a: __m256i) -> __m256i {
    _mm256_add_epi16(a, a)
}

/// The cells of groups of 4+ in both planes of `reg` within the rows `m.active`: the
/// neighbour-count filter of the other engines (a cell with three same-colour neighbours,
/// or two adjacent cells with two), then one dilation inside the planes. 26 instructions,
/// 11 deep from `reg`: the row mask is folded into the first neighbour tests.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn vanishing(reg: __m256i, m: &Masks) -> __m256i {
    let x = and(reg, m.active); // off the critical path: only the last step reads it
    let u = tern::<AND3>(reg, down(reg), m.pair_up); // a same-colour neighbour above
    let d = up(u); // ... below
    let l = tern::<AND3>(reg, right(reg), m.pair_left); // ... to the left
    let r = left(l); // ... to the right
    let maj = tern::<MAJ>(u, d, l);
    let any3 = tern::<OR3>(u, d, l);
    let all3 = tern::<AND3>(u, d, l);
    let twos = tern::<OR_AND>(maj, r, any3); // two neighbours or more
    let threes = tern::<OR_AND>(all3, r, maj); // three or more (a subset of `twos`)
                                               // The seeds: the threes and the twos next to a two, as `twos & (near twos | threes)`.
    let near = tern::<OR3>(up(twos), down(twos), left(twos));
    let side = tern::<AND_OR>(right(twos), threes, twos);
    let seeds = tern::<OR_AND>(side, near, twos);
    let vertical = tern::<OR3>(seeds, up(seeds), down(seeds));
    let horizontal = or(left(seeds), right(seeds));
    tern::<AND_OR>(vertical, horizontal, x)
}

/// The two 128-bit halves of `a` swapped, by `vperm2i128`: 3 cycles on AMD Zen 4 where the
/// `vpermq` the compiler turns every single-source swap into takes 4, and the swap is on
/// the step's dependency chain (the union of the two halves' vanishing cells).
#[inline]
#[target_feature(enable = "avx2")]
fn swap_halves(a: __m256i) -> __m256i {
    let out: __m256i;
    // SAFETY: one AVX2 instruction on registers (the caller runs only where AVX2 was
    // detected: every function of this engine enables it); no memory, stack or flags.
    unsafe {
        std::arch::asm!(
            "vperm2i128 {o}, {a}, {a}, 1",
            a = in(ymm_reg) a,
            o = lateout(ymm_reg) out,
            options(pure, nomem, nostack, preserves_flags)
        );
    }
    out
}

/// The row masks of one register's vanish check.
struct Masks {
    /// The cells that can vanish.
    active: __m256i,
    /// Cells of `active` whose upper neighbour is in `active` too.
    pair_up: __m256i,
    /// Cells of `active` whose left neighbour is in `active` too.
    pair_left: __m256i,
}

impl Masks {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(active: __m256i) -> Masks {
        Masks {
            active,
            pair_up: and(active, down(active)),
            pair_left: and(active, right(active)),
        }
    }
}

/// Gravity on a settled field from which the cells `removed` (in both halves) vanish now
/// (they are still in the planes); `kept[i]`: `regs[i]` without them; `below`: in each
/// column the rows under its lowest removed cell (all rows where nothing is removed).
/// `three`: register 2 holds something.
///
/// When every column lost one run of cells at most (most steps), the kept cells fall by
/// the column's count of removed cells in one variable shift: the kept cells under the run
/// land under it too, where the select keeps the old cells. From `removed` that is 4
/// instructions deep (the count's `vpopcntw`, the shift, the select; `below`, 2 deep, and
/// `kept`, computed from each register's own vanishing cells before the union of the
/// halves, run beside them). Else each round takes the lowest run out of every column at
/// once ([`fall_runs`]).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512bitalg")]
fn fall(
    regs: &mut [__m256i; 3],
    kept: [__m256i; 3],
    removed: __m256i,
    below: __m256i,
    three: bool,
) {
    let zero = _mm256_setzero_si256();
    let low = and(removed, _mm256_sub_epi16(zero, removed));
    // The lowest run cleared and the bit above it set: a column with another removed
    // cell above still meets `removed` there.
    if !is_zero(and(removed, _mm256_add_epi16(removed, low))) {
        fall_runs(regs, removed, three);
        return;
    }
    // The removed cells are in the active rows only, so the count is below 16.
    let len = _mm256_popcnt_epi16(removed);
    let fall = |r: __m256i, k: __m256i| tern::<SELECT>(below, r, shift_down(k, len));
    regs[0] = fall(regs[0], kept[0]);
    regs[1] = fall(regs[1], kept[1]);
    if three {
        regs[2] = fall(regs[2], kept[2]);
    }
}

/// `vpsrlvw`: each 16-bit lane of `a` shifted down by the same lane of `count` (below 16).
/// Written out because the intrinsic compiles to a compare and a masked move beside the
/// shift (lanes shifted by 16 or more are zero), one more level on the step's dependency
/// chain, unless the count is masked first (one level too).
#[inline]
#[target_feature(enable = "avx512bw,avx512vl")]
fn shift_down(a: __m256i, count: __m256i) -> __m256i {
    let out: __m256i;
    // SAFETY: one AVX-512 BW/VL instruction on registers (every caller runs only where
    // they were detected); no memory, stack or flags.
    unsafe {
        std::arch::asm!(
            "vpsrlvw {o}, {a}, {c}",
            a = in(ymm_reg) a,
            c = in(ymm_reg) count,
            o = lateout(ymm_reg) out,
            options(pure, nomem, nostack, preserves_flags)
        );
    }
    out
}

/// Gravity by rounds: each round takes the lowest run of removed cells out of every column
/// of every plane at once and moves the cells above it down by the run's length; the
/// rounds are the most runs in one column. As [`fall`], for steps where a column lost two
/// separate runs.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512bitalg")]
fn fall_runs(regs: &mut [__m256i; 3], mut removed: __m256i, three: bool) {
    let zero = _mm256_setzero_si256();
    let ones = _mm256_set1_epi16(1);
    let field = _mm256_set1_epi16(ALL as u16 as i16);
    loop {
        let low = and(removed, _mm256_sub_epi16(zero, removed));
        // The lowest run cleared and the bit above it set.
        let carried = _mm256_add_epi16(removed, low);
        // (Masked to the field's rows, as in `fall`.)
        let run = and(_mm256_andnot_si256(carried, removed), field);
        // The rows under the run: every row where nothing is removed.
        let below = _mm256_sub_epi16(low, ones);
        let len = _mm256_popcnt_epi16(run);
        let fall = |r: __m256i| {
            let above = tern::<NOR_AND>(below, run, r);
            tern::<SELECT>(below, r, _mm256_srlv_epi16(above, len))
        };
        regs[0] = fall(regs[0]);
        regs[1] = fall(regs[1]);
        if three {
            regs[2] = fall(regs[2]);
        }
        removed = _mm256_srlv_epi16(and(removed, carried), len);
        if is_zero(removed) {
            return;
        }
    }
}

/// The whole chain; see [`Field::simulate`].
///
/// # Safety
/// The CPU must support AVX2, AVX-512 F, BW, VL and BITALG, BMI2 and POPCNT.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512bitalg,bmi2,popcnt")]
pub(super) unsafe fn simulate(field: &Field, out: &mut MaybeUninit<Chain>) {
    let rules = field.rules;
    let t: &Tables = match rules {
        Rules::SmashTheCode => &STC,
        Rules::Tsu => &TSU,
    };
    let mut record = Record::new(t, out);
    let mut regs = load(field);
    let active = splat(ACTIVE);
    let masks = Masks::new(active);
    // Colour 4 only: the garbage half never vanishes by itself.
    let masks4 = Masks::new(_mm256_set_epi64x(
        0,
        0,
        (ACTIVE >> 64) as i64,
        ACTIVE as u64 as i64,
    ));
    let garbage_half = _mm256_set_epi64x(!0, !0, 0, 0);
    // Colour 4 in every row: what is live and what moves counts the ghost row too, whose
    // cells fall into the active rows and can form groups there.
    let colour4 = _mm256_set_epi64x(0, 0, !0, !0);
    let zero = _mm256_setzero_si256();
    let live0 = !is_zero(regs[0]);
    let live1 = !is_zero(regs[1]);
    let live4 = !is_zero(and(regs[2], colour4));
    let three = !is_zero(regs[2]);
    let garbage_live = !is_zero(and(regs[2], garbage_half));
    let mut settled = settled(&regs);
    let live = u32::from(live0) | u32::from(live1) << 1 | u32::from(live4) << 2;
    let mut dirty = live;
    loop {
        let v0 = if dirty & 1 != 0 {
            vanishing(regs[0], &masks)
        } else {
            zero
        };
        let v1 = if dirty & 2 != 0 {
            vanishing(regs[1], &masks)
        } else {
            zero
        };
        let v2 = if dirty & 4 != 0 {
            vanishing(regs[2], &masks4)
        } else {
            zero
        };
        let any = tern::<OR3>(v0, v1, v2);
        if is_zero(any) {
            break;
        }
        // Both halves: the union of every plane's vanishing cells.
        let all = or(any, swap_halves(any));
        let cleared = (_mm256_extract_epi64::<0>(all) as u64).count_ones()
            + (_mm256_extract_epi64::<1>(all) as u64).count_ones();
        // Bits 2c and 2c + 1: the words of colour c that are not zero.
        let words = u32::from(_mm256_test_epi64_mask(v0, v0))
            | u32::from(_mm256_test_epi64_mask(v1, v1)) << 4
            | u32::from(_mm256_test_epi64_mask(v2, v2)) << 8;
        let colors = ((words | words >> 1) & 0x155).count_ones();
        // Every group has 4 cells or more: when the cells are four times the colours,
        // each colour cleared one group of 4 (group bonus 0 under both rules).
        let fours = cleared == 4 * colors;
        let (groups, gb) = if fours {
            (colors, 0)
        } else {
            let mut sets = [0u128; 6];
            // SAFETY: three 32-byte stores into 96 bytes.
            unsafe {
                let s = sets.as_mut_ptr().cast::<__m256i>();
                _mm256_storeu_si256(s, v0);
                _mm256_storeu_si256(s.add(1), v1);
                _mm256_storeu_si256(s.add(2), v2);
            }
            count_groups(&[sets[0], sets[1], sets[2], sets[3], sets[4]], t, rules)
        };
        // Garbage next to a vanishing cell (never in the ghost row).
        let mut removed = all;
        let mut garbage = 0;
        if garbage_live {
            let near = tern::<OR3>(up(all), down(all), or(left(all), right(all)));
            let g = tern::<AND3>(regs[2], and(near, active), garbage_half);
            garbage = (_mm256_extract_epi64::<2>(g) as u64).count_ones()
                + (_mm256_extract_epi64::<3>(g) as u64).count_ones();
            removed = or(all, _mm256_permute4x64_epi64::<0b11_10_11_10>(g));
        }
        if settled {
            // Only planes with a cell above a removed one move, so only they can form
            // a new group.
            // The rows under the lowest removed cell of each column: `!removed &
            // (removed - 1)`, two instructions deep.
            let below =
                _mm256_andnot_si256(removed, _mm256_add_epi16(removed, _mm256_set1_epi16(-1)));
            let moves = |r: __m256i| !is_zero(tern::<NOR_AND>(below, removed, r));
            dirty = live
                & (u32::from(moves(regs[0]))
                    | u32::from(moves(regs[1])) << 1
                    | u32::from(moves(and(regs[2], colour4))) << 2);
            // The cells that stay: registers 0 and 1 lose their own vanishing cells only
            // (known before the union of the halves), register 2 the garbage too.
            let kept = [
                _mm256_andnot_si256(v0, regs[0]),
                _mm256_andnot_si256(v1, regs[1]),
                _mm256_andnot_si256(removed, regs[2]),
            ];
            fall(&mut regs, kept, removed, below, three);
        } else {
            regs[0] = _mm256_andnot_si256(removed, regs[0]);
            regs[1] = _mm256_andnot_si256(removed, regs[1]);
            regs[2] = _mm256_andnot_si256(removed, regs[2]);
            fall_any(&mut regs);
            settled = true;
        }
        if fours {
            record.push_fours(cleared, garbage, colors);
        } else {
            record.push(cleared, garbage, groups, colors, gb);
        }
    }
    record.finish(with_planes(field, &regs));
}
