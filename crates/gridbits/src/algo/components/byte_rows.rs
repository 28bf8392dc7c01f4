//! The vector engine of the fast path on boards at most 7 cells wide and 16 rows tall
//! (6x12, 6x13, 7x9, ...): the board's rows as the bytes of one vector register.
//!
//! `pdep` spreads a board into the 16 bytes of an `xmm` register, row `y` in byte `y`, cells
//! in bits 0-6 and bit 7 always clear (the *byte-row form*). There every shift of a dilation
//! is one instruction on a constant: east and west a shift of the 16-bit lanes by one bit (a
//! cell leaving its byte lands in a guard bit, cleared by the mask), north and south a shift
//! of the register by one byte; the OR of the shifts and the AND with the mask take two
//! ternary-logic instructions with AVX-512 VL, three plain ones with AVX2 (the
//! [`Logic`](x86::Logic) kernels: the engine is written once over them). A dilation step
//! costs 3-4 cycles of latency, against about 5 on the two `u64` words of the scalar split
//! form ([`super::fixpoint_split`]), in 6-7 vector instructions against 22.
//!
//! - [`fold_four`]: `fold` of the components iterator of a 4-connected plane: the star sets
//!   of [`super::components`] (single cells, centres, the rest) on the byte-row form in about
//!   30 vector instructions, and the components in the iterator's order.
//! - [`fold_rest`]: the larger components of an 8-connected plane (whose stars the scalar
//!   code finds), and the last step of [`fold_four`]: the components filled two at a time
//!   in the two 128-bit lanes of a `ymm` register, one from the lowest cell of what is left
//!   (its run first, by one addition), one from its highest cell. When the two fills find
//!   different components the second is held back until its turn comes, so the order stays
//!   the raster order of the lowest cells; while one is held back the fills go one at a
//!   time. One exit of the fill loop (a mispredicted branch) then serves two components.
//!
//! Used when the CPU has AVX-512 F, BW and VL, BMI2 and AVX2 (the AVX-512 kernel), or AVX2
//! and BMI2 with a `pdep` that is not microcoded ([`cpu::slow_pdep`]: the AVX2 kernel)
//! ([`available`]); the scalar code of [`super::bit_bfs`] runs otherwise (and under
//! `cpu::with_level` below [`Level::Avx2`](crate::cpu::Level::Avx2)). The results are the
//! same sets in the same order; the tests run every level. Measured in docs/benchmarks.md
//! ("6x12 components", "comp6").

use crate::cpu::{self, Features};
use crate::Board;

/// What the engine's AVX2 kernel needs of the CPU (and a fast `pdep`).
const AVX2: Features = Features::SSE41
    .union(Features::BIT_INSTRUCTIONS)
    .union(Features::AVX2);
/// What its AVX-512 kernel needs.
const AVX512: Features = AVX2
    .union(Features::AVX512F)
    .union(Features::AVX512BW)
    .union(Features::AVX512VL);

/// Whether boards of this size fit the byte-row form: at most 7 cells wide (a guard bit per
/// byte), 16 rows and two words.
#[inline(always)]
pub(super) const fn fits<const W: usize, const H: usize, const N: usize>() -> bool {
    W <= 7 && H <= 16 && N <= 2 && Board::<W, H, N>::STRIDE <= 8
}

/// Whether the engine may run now: an x86-64 CPU with [`AVX512`], or with [`AVX2`] and a
/// fast `pdep`, not capped below them by `cpu::with_level` or `GRIDBITS_CPU`. Two relaxed
/// loads.
#[inline(always)]
pub(super) fn available() -> bool {
    cfg!(target_arch = "x86_64") && cpu::has(AVX2) && (cpu::has(AVX512) || !cpu::slow_pdep())
}

#[cfg(target_arch = "x86_64")]
pub(super) use x86::{fold_four, fold_rest};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::super::grow_u128;
    use crate::Connectivity;
    use std::arch::x86_64::*;

    /// The `pdep`/`pext` mask of a board with row stride `s` (at most 8): the low `s` bits
    /// of each byte.
    #[inline(always)]
    const fn byte_mask(s: u32) -> u64 {
        ((1u64 << s) - 1) * 0x0101_0101_0101_0101
    }

    /// A board's `u128` (row stride `s`) in the byte-row form, as a `u128`: rows 0-7 in the
    /// low word, rows 8-15 in the high word.
    #[inline(always)]
    unsafe fn to_bytes(p: u128, s: u32) -> u128 {
        let m = byte_mask(s);
        // SAFETY (for every intrinsic in this module): the callers are `unsafe fn`s with
        // the target features these instructions need, called only where `available()`
        // found them; none of them touches memory.
        let (lo, hi) = unsafe { (_pdep_u64(p as u64, m), _pdep_u64((p >> (8 * s)) as u64, m)) };
        u128::from(lo) | u128::from(hi) << 64
    }

    /// [`to_bytes`] undone: the byte-row form back to row stride `s`.
    #[inline(always)]
    unsafe fn from_bytes(v: u128, s: u32) -> u128 {
        let m = byte_mask(s);
        // SAFETY: see `to_bytes`.
        let (lo, hi) = unsafe { (_pext_u64(v as u64, m), _pext_u64((v >> 64) as u64, m)) };
        u128::from(lo) | u128::from(hi) << (8 * s)
    }

    #[inline(always)]
    unsafe fn to_xmm(v: u128) -> __m128i {
        // SAFETY: see `to_bytes`.
        unsafe { _mm_set_epi64x((v >> 64) as i64, v as i64) }
    }

    #[inline(always)]
    unsafe fn from_xmm(v: __m128i) -> u128 {
        // SAFETY: see `to_bytes`.
        unsafe {
            u128::from(_mm_cvtsi128_si64(v) as u64)
                | u128::from(_mm_extract_epi64::<1>(v) as u64) << 64
        }
    }

    /// `ternlog` truth tables (inputs a, b, c): `a | b | c`, `(a | b) & c`, the majority of
    /// three, `a | (b & c)`, `a & b & !c`, `a & !b & !c`.
    const OR3: i32 = 0xFE;
    const OR_AND: i32 = 0xA8;
    const MAJ3: i32 = 0xE8;
    const A_OR_BC: i32 = 0xF8;
    const AB_NOT_C: i32 = 0x40;
    const A_NOT_B_NOT_C: i32 = 0x10;

    /// The three-input logic of the engine, on `xmm` (the stars, one fill) and `ymm` (two
    /// fills) registers, and the fixpoint test of a fill. Only called from the engine's
    /// entry points, compiled for the kernel's features (see [`to_bytes`]).
    pub(super) trait Logic {
        /// `a | b | c`.
        fn or3(a: __m128i, b: __m128i, c: __m128i) -> __m128i;
        /// The majority of three.
        fn maj3(a: __m128i, b: __m128i, c: __m128i) -> __m128i;
        /// `a | (b & c)`.
        fn a_or_bc(a: __m128i, b: __m128i, c: __m128i) -> __m128i;
        /// `a & b & !c`.
        fn ab_not_c(a: __m128i, b: __m128i, c: __m128i) -> __m128i;
        /// `a & !b & !c`.
        fn a_not_b_not_c(a: __m128i, b: __m128i, c: __m128i) -> __m128i;
        /// `(a | b) & c`.
        fn or_and(a: __m128i, b: __m128i, c: __m128i) -> __m128i;
        /// `a | b | c` on `ymm`.
        fn or3_ymm(a: __m256i, b: __m256i, c: __m256i) -> __m256i;
        /// `(a | b) & c` on `ymm`.
        fn or_and_ymm(a: __m256i, b: __m256i, c: __m256i) -> __m256i;
        /// Whether the fill `n`, grown from `x` (so `n` holds `x`), equals it.
        fn same(n: __m128i, x: __m128i) -> bool;
        /// [`Logic::same`] on `ymm`.
        fn same_ymm(n: __m256i, x: __m256i) -> bool;
    }

    /// The kernel of AVX-512 VL: each combination one ternary-logic instruction, the
    /// fixpoint test a compare into a mask register.
    pub(super) struct Avx512;

    // SAFETY (every intrinsic in this impl): see `to_bytes`; the kernel runs only inside
    // the AVX-512 entry points.
    impl Logic for Avx512 {
        #[inline(always)]
        fn or3(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
            unsafe { _mm_ternarylogic_epi64::<OR3>(a, b, c) }
        }
        #[inline(always)]
        fn maj3(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
            unsafe { _mm_ternarylogic_epi64::<MAJ3>(a, b, c) }
        }
        #[inline(always)]
        fn a_or_bc(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
            unsafe { _mm_ternarylogic_epi64::<A_OR_BC>(a, b, c) }
        }
        #[inline(always)]
        fn ab_not_c(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
            unsafe { _mm_ternarylogic_epi64::<AB_NOT_C>(a, b, c) }
        }
        #[inline(always)]
        fn a_not_b_not_c(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
            unsafe { _mm_ternarylogic_epi64::<A_NOT_B_NOT_C>(a, b, c) }
        }
        #[inline(always)]
        fn or_and(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
            unsafe { _mm_ternarylogic_epi64::<OR_AND>(a, b, c) }
        }
        #[inline(always)]
        fn or3_ymm(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
            unsafe { _mm256_ternarylogic_epi64::<OR3>(a, b, c) }
        }
        #[inline(always)]
        fn or_and_ymm(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
            unsafe { _mm256_ternarylogic_epi64::<OR_AND>(a, b, c) }
        }
        #[inline(always)]
        fn same(n: __m128i, x: __m128i) -> bool {
            unsafe { _mm_cmpneq_epi8_mask(n, x) == 0 }
        }
        #[inline(always)]
        fn same_ymm(n: __m256i, x: __m256i) -> bool {
            unsafe { _mm256_cmpneq_epi8_mask(n, x) == 0 }
        }
    }

    /// The kernel of AVX2: each combination two to four plain logic instructions, the
    /// fixpoint test a `vptest` (no cell of `n` outside `x`).
    pub(super) struct Avx2;

    // SAFETY (every intrinsic in this impl): see `to_bytes`; the kernel runs only inside
    // the AVX2 entry points.
    impl Logic for Avx2 {
        #[inline(always)]
        fn or3(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
            unsafe { _mm_or_si128(_mm_or_si128(a, b), c) }
        }
        #[inline(always)]
        fn maj3(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
            unsafe { _mm_or_si128(_mm_and_si128(a, b), _mm_and_si128(c, _mm_or_si128(a, b))) }
        }
        #[inline(always)]
        fn a_or_bc(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
            unsafe { _mm_or_si128(a, _mm_and_si128(b, c)) }
        }
        #[inline(always)]
        fn ab_not_c(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
            unsafe { _mm_andnot_si128(c, _mm_and_si128(a, b)) }
        }
        #[inline(always)]
        fn a_not_b_not_c(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
            unsafe { _mm_andnot_si128(_mm_or_si128(b, c), a) }
        }
        #[inline(always)]
        fn or_and(a: __m128i, b: __m128i, c: __m128i) -> __m128i {
            unsafe { _mm_and_si128(_mm_or_si128(a, b), c) }
        }
        #[inline(always)]
        fn or3_ymm(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
            unsafe { _mm256_or_si256(_mm256_or_si256(a, b), c) }
        }
        #[inline(always)]
        fn or_and_ymm(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
            unsafe { _mm256_and_si256(_mm256_or_si256(a, b), c) }
        }
        #[inline(always)]
        fn same(n: __m128i, x: __m128i) -> bool {
            unsafe { _mm_testc_si128(x, n) != 0 }
        }
        #[inline(always)]
        fn same_ymm(n: __m256i, x: __m256i) -> bool {
            unsafe { _mm256_testc_si256(x, n) != 0 }
        }
    }

    /// The four 4-neighbour shifts of `x` on the byte-row form: (east, west, south, north).
    /// Cells shifted out of a row land in guard bits, to be cleared by a mask.
    #[inline(always)]
    unsafe fn shifts(x: __m128i) -> (__m128i, __m128i, __m128i, __m128i) {
        // SAFETY: see `to_bytes`.
        unsafe {
            (
                _mm_slli_epi16::<1>(x),
                _mm_srli_epi16::<1>(x),
                _mm_bslli_si128::<1>(x),
                _mm_bsrli_si128::<1>(x),
            )
        }
    }

    /// The star sets of `components_u128` with 4-connectivity on the byte-row form `p`:
    /// `(singles, centres, rest)`.
    #[inline(always)]
    unsafe fn stars_four<K: Logic>(p: __m128i) -> (__m128i, __m128i, __m128i) {
        // SAFETY: see `to_bytes`.
        unsafe {
            let (e, w, so, no) = shifts(p);
            // Neighbour counts saturated at two: `one` at least one, `two` at least two.
            let or3 = K::or3(e, w, so);
            let maj3 = K::maj3(e, w, so);
            let one = _mm_or_si128(or3, no);
            let two = K::a_or_bc(maj3, no, or3);
            let leaves = K::ab_not_c(p, one, two);
            let inner = _mm_andnot_si128(leaves, p);
            let (ie, iw, is, inn) = shifts(inner);
            let around = K::or3(_mm_or_si128(ie, iw), is, inn);
            // The neighbours before a cell in raster order: west and north.
            let before = _mm_or_si128(e, so);
            let singles = _mm_andnot_si128(one, p);
            let centres =
                _mm_andnot_si128(_mm_and_si128(leaves, before), K::ab_not_c(p, one, around));
            let (ce, cw, cs, cn) = shifts(centres);
            let small = K::or3(_mm_or_si128(centres, ce), cw, _mm_or_si128(cs, cn));
            let rest = K::a_not_b_not_c(p, small, singles);
            (singles, centres, rest)
        }
    }

    /// `Components::fold` of a 4-connected board (its `u128`, row stride `s`), from the
    /// plane: the stars on the byte-row form, then the single cells, the other stars and the
    /// larger components (as [`fold_rest`]), each passed to `f` in row stride `s`. The
    /// AVX-512 kernel where the CPU has it, else the AVX2 one.
    ///
    /// # Safety
    ///
    /// The engine must be available (`available()`).
    #[inline(always)]
    pub(in crate::algo::components) unsafe fn fold_four<B, F>(
        plane: u128,
        s: u32,
        init: B,
        f: F,
    ) -> B
    where
        F: FnMut(B, u128) -> B,
    {
        // SAFETY: `available()` held: the CPU has AVX2, BMI2 and the rest of the AVX2
        // kernel's features, and the AVX-512 ones where `has` says so now.
        unsafe {
            if crate::cpu::has(super::AVX512) {
                fold_four_avx512(plane, s, init, f)
            } else {
                fold_four_avx2(plane, s, init, f)
            }
        }
    }

    /// [`fold_four`] with the AVX-512 kernel.
    ///
    /// # Safety
    ///
    /// The CPU must have `super::AVX512`.
    #[target_feature(enable = "sse4.1,popcnt,bmi1,bmi2,lzcnt,avx2,avx512f,avx512bw,avx512vl")]
    unsafe fn fold_four_avx512<B, F>(plane: u128, s: u32, init: B, f: F) -> B
    where
        F: FnMut(B, u128) -> B,
    {
        // SAFETY: this function has the kernel's features.
        unsafe { fold_four_with::<Avx512, B, F>(plane, s, init, f) }
    }

    /// [`fold_four`] with the AVX2 kernel.
    ///
    /// # Safety
    ///
    /// The CPU must have `super::AVX2`.
    #[target_feature(enable = "sse4.1,popcnt,bmi1,bmi2,lzcnt,avx2")]
    unsafe fn fold_four_avx2<B, F>(plane: u128, s: u32, init: B, f: F) -> B
    where
        F: FnMut(B, u128) -> B,
    {
        // SAFETY: this function has the kernel's features.
        unsafe { fold_four_with::<Avx2, B, F>(plane, s, init, f) }
    }

    /// The body of [`fold_four`] with the kernel `K`.
    #[inline(always)]
    unsafe fn fold_four_with<K: Logic, B, F>(plane: u128, s: u32, init: B, mut f: F) -> B
    where
        F: FnMut(B, u128) -> B,
    {
        // SAFETY: inlined into an entry point with the kernel's features; see `to_bytes`.
        unsafe {
            let (singles, centres, rest) = stars_four::<K>(to_xmm(to_bytes(plane, s)));
            let singles = from_bytes(from_xmm(singles), s);
            let mut centres = from_bytes(from_xmm(centres), s);
            let mut acc = init;
            for (i, mut w) in [singles as u64, (singles >> 64) as u64]
                .into_iter()
                .enumerate()
            {
                while w != 0 {
                    let b = w & w.wrapping_neg();
                    w ^= b;
                    acc = f(acc, u128::from(b) << (64 * i));
                }
            }
            while centres != 0 {
                let b = centres & centres.wrapping_neg();
                centres ^= b;
                acc = f(acc, grow_u128(b, plane, s, Connectivity::Four));
            }
            fold_bytes::<K, false, B, F>(from_xmm(rest), s, 4, acc, f)
        }
    }

    /// One dilation step of the fills in each 128-bit lane of `x` inside `m`.
    #[inline(always)]
    unsafe fn grow_ymm<K: Logic, const EIGHT: bool>(x: __m256i, m: __m256i) -> __m256i {
        // SAFETY: see `to_bytes`.
        unsafe {
            let h = K::or3_ymm(x, _mm256_slli_epi16::<1>(x), _mm256_srli_epi16::<1>(x));
            let t = if EIGHT { h } else { x };
            let v = _mm256_or_si256(_mm256_bslli_epi128::<1>(t), _mm256_bsrli_epi128::<1>(t));
            K::or_and_ymm(h, v, m)
        }
    }

    /// [`grow_ymm`] on one lane.
    #[inline(always)]
    unsafe fn grow_xmm<K: Logic, const EIGHT: bool>(x: __m128i, m: __m128i) -> __m128i {
        // SAFETY: see `to_bytes`.
        unsafe {
            let h = K::or3(x, _mm_slli_epi16::<1>(x), _mm_srli_epi16::<1>(x));
            let t = if EIGHT { h } else { x };
            let v = _mm_or_si128(_mm_bslli_si128::<1>(t), _mm_bsrli_si128::<1>(t));
            K::or_and(h, v, m)
        }
    }

    /// The components of `rest` holding the cells of `a` and of `b` (each inside one
    /// component), all three on the byte-row form: `a` and `b` grown to their fixpoints
    /// inside `rest`, side by side.
    #[inline(always)]
    unsafe fn fill_two<K: Logic, const EIGHT: bool>(a: u128, b: u128, rest: u128) -> (u128, u128) {
        // SAFETY: see `to_bytes`.
        unsafe {
            let m = _mm256_set_m128i(to_xmm(rest), to_xmm(rest));
            let mut x = _mm256_set_m128i(to_xmm(b), to_xmm(a));
            loop {
                let n = grow_ymm::<K, EIGHT>(x, m);
                if K::same_ymm(n, x) {
                    break;
                }
                x = n;
            }
            (
                from_xmm(_mm256_castsi256_si128(x)),
                from_xmm(_mm256_extracti128_si256::<1>(x)),
            )
        }
    }

    /// [`fill_two`] with one seed, on an `xmm` register.
    #[inline(always)]
    unsafe fn fill_one<K: Logic, const EIGHT: bool>(a: u128, rest: u128) -> u128 {
        // SAFETY: see `to_bytes`.
        unsafe {
            let m = to_xmm(rest);
            let mut x = to_xmm(a);
            loop {
                let n = grow_xmm::<K, EIGHT>(x, m);
                if K::same(n, x) {
                    return from_xmm(x);
                }
                x = n;
            }
        }
    }

    /// Folds `f` over the components of `rest` (row stride `s`; each component of at least
    /// `smallest` cells) in raster order of their lowest cell, each passed in row stride
    /// `s`: the rest loop of `Components::fold_u128`.
    ///
    /// The AVX-512 kernel where the CPU has it, else the AVX2 one.
    ///
    /// # Safety
    ///
    /// The engine must be available (`available()`).
    #[inline(always)]
    pub(in crate::algo::components) unsafe fn fold_rest<B, F>(
        rest: u128,
        s: u32,
        conn: Connectivity,
        smallest: u32,
        init: B,
        f: F,
    ) -> B
    where
        F: FnMut(B, u128) -> B,
    {
        // SAFETY: as in `fold_four`.
        unsafe {
            if crate::cpu::has(super::AVX512) {
                fold_rest_avx512(rest, s, conn, smallest, init, f)
            } else {
                fold_rest_avx2(rest, s, conn, smallest, init, f)
            }
        }
    }

    /// [`fold_rest`] with the AVX-512 kernel.
    ///
    /// # Safety
    ///
    /// The CPU must have `super::AVX512`.
    #[target_feature(enable = "sse4.1,popcnt,bmi1,bmi2,lzcnt,avx2,avx512f,avx512bw,avx512vl")]
    unsafe fn fold_rest_avx512<B, F>(
        rest: u128,
        s: u32,
        conn: Connectivity,
        smallest: u32,
        init: B,
        f: F,
    ) -> B
    where
        F: FnMut(B, u128) -> B,
    {
        // SAFETY: this function has the kernel's features.
        unsafe { fold_rest_with::<Avx512, B, F>(rest, s, conn, smallest, init, f) }
    }

    /// [`fold_rest`] with the AVX2 kernel.
    ///
    /// # Safety
    ///
    /// The CPU must have `super::AVX2`.
    #[target_feature(enable = "sse4.1,popcnt,bmi1,bmi2,lzcnt,avx2")]
    unsafe fn fold_rest_avx2<B, F>(
        rest: u128,
        s: u32,
        conn: Connectivity,
        smallest: u32,
        init: B,
        f: F,
    ) -> B
    where
        F: FnMut(B, u128) -> B,
    {
        // SAFETY: this function has the kernel's features.
        unsafe { fold_rest_with::<Avx2, B, F>(rest, s, conn, smallest, init, f) }
    }

    /// The body of [`fold_rest`] with the kernel `K`.
    #[inline(always)]
    unsafe fn fold_rest_with<K: Logic, B, F>(
        rest: u128,
        s: u32,
        conn: Connectivity,
        smallest: u32,
        init: B,
        f: F,
    ) -> B
    where
        F: FnMut(B, u128) -> B,
    {
        // SAFETY: inlined into an entry point with the kernel's features.
        unsafe {
            let rest = to_bytes(rest, s);
            match conn {
                Connectivity::Four => fold_bytes::<K, false, B, F>(rest, s, smallest, init, f),
                Connectivity::Eight => fold_bytes::<K, true, B, F>(rest, s, smallest, init, f),
            }
        }
    }

    /// [`fold_rest`] on the byte-row form of `rest`, with the connectivity as a constant.
    #[inline(always)]
    unsafe fn fold_bytes<K: Logic, const EIGHT: bool, B, F>(
        rest: u128,
        s: u32,
        smallest: u32,
        init: B,
        mut f: F,
    ) -> B
    where
        F: FnMut(B, u128) -> B,
    {
        // SAFETY: see `to_bytes`.
        unsafe {
            let mut rest = rest;
            let mut acc = init;
            // A component found by the second lane whose lowest cell comes after the lowest
            // cell of `rest`: it waits for its turn.
            let mut held = 0u128;
            while rest != 0 {
                let seed = rest & rest.wrapping_neg();
                if held != 0 && held.trailing_zeros() < seed.trailing_zeros() {
                    acc = f(acc, from_bytes(held, s));
                    held = 0;
                }
                // Fewer than twice the smallest size: one component.
                if rest.count_ones() < 2 * smallest {
                    acc = f(acc, from_bytes(rest, s));
                    break;
                }
                // The lowest cell's run (one addition: the carry stops at the guard bit).
                let run = (rest.wrapping_add(seed) ^ rest) & rest;
                let c = if held == 0 {
                    let top = 1u128 << (127 - rest.leading_zeros());
                    let (c, d) = fill_two::<K, EIGHT>(run, top, rest);
                    if c & top == 0 {
                        held = d;
                        rest ^= d;
                    }
                    c
                } else {
                    fill_one::<K, EIGHT>(run, rest)
                };
                rest ^= c;
                acc = f(acc, from_bytes(c, s));
            }
            if held != 0 {
                acc = f(acc, from_bytes(held, s));
            }
            acc
        }
    }
}
