//! SSE2 planes. SSE2 is part of the x86_64 baseline (every x86_64 CPU has it and the
//! target enables it), so these intrinsics need no run-time detection.
use super::super::kernel::{simulate_impl, Plane};
use super::super::{Chain, Field};
use std::arch::x86_64::*;
use std::mem::MaybeUninit;

/// A plane in an SSE2 register.
#[derive(Clone, Copy)]
pub(super) struct Sse2(__m128i);

// Every `unsafe` block below calls SSE2 intrinsics, which are always available on x86_64
// (the target enables SSE2) and take and return registers only: no memory is read or written.
impl Plane for Sse2 {
    #[inline(always)]
    fn from_u128(v: u128) -> Self {
        // SAFETY: SSE2 is in the x86_64 baseline; registers only, no memory.
        Sse2(unsafe { _mm_set_epi64x((v >> 64) as i64, v as i64) })
    }
    #[inline(always)]
    fn to_u128(self) -> u128 {
        // SAFETY: SSE2 is in the x86_64 baseline; registers only, no memory.
        let (lo, hi) = unsafe {
            (
                _mm_cvtsi128_si64(self.0) as u64,
                _mm_cvtsi128_si64(_mm_unpackhi_epi64(self.0, self.0)) as u64,
            )
        };
        (u128::from(hi) << 64) | u128::from(lo)
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: SSE2 is in the x86_64 baseline; registers only, no memory.
        Sse2(unsafe { _mm_and_si128(self.0, o.0) })
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: SSE2 is in the x86_64 baseline; registers only, no memory.
        Sse2(unsafe { _mm_or_si128(self.0, o.0) })
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        // SAFETY: SSE2 is in the x86_64 baseline; registers only, no memory.
        Sse2(unsafe { _mm_andnot_si128(o.0, self.0) })
    }
    #[inline(always)]
    fn up(self) -> Self {
        // SAFETY: SSE2 is in the x86_64 baseline; registers only, no memory.
        Sse2(unsafe { _mm_slli_epi16::<1>(self.0) })
    }
    #[inline(always)]
    fn down(self) -> Self {
        // SAFETY: SSE2 is in the x86_64 baseline; registers only, no memory.
        Sse2(unsafe { _mm_srli_epi16::<1>(self.0) })
    }
    #[inline(always)]
    fn right(self) -> Self {
        // SAFETY: SSE2 is in the x86_64 baseline; registers only, no memory.
        Sse2(unsafe { _mm_slli_si128::<2>(self.0) })
    }
    #[inline(always)]
    fn left(self) -> Self {
        // SAFETY: SSE2 is in the x86_64 baseline; registers only, no memory.
        Sse2(unsafe { _mm_srli_si128::<2>(self.0) })
    }
    #[inline(always)]
    fn add_lane_ones(self) -> Self {
        // SAFETY: SSE2 is in the x86_64 baseline; registers only, no memory.
        Sse2(unsafe { _mm_add_epi16(self.0, _mm_set1_epi16(1)) })
    }
    #[inline(always)]
    fn neg_lanes(self) -> Self {
        // SAFETY: SSE2 is in the x86_64 baseline; registers only, no memory.
        Sse2(unsafe { _mm_sub_epi16(_mm_setzero_si128(), self.0) })
    }
    #[inline(always)]
    fn sub_lane_ones(self) -> Self {
        // SAFETY: SSE2 is in the x86_64 baseline; registers only, no memory.
        Sse2(unsafe { _mm_sub_epi16(self.0, _mm_set1_epi16(1)) })
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        // SAFETY: SSE2 is in the x86_64 baseline; registers only, no memory.
        unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(self.0, _mm_setzero_si128())) == 0xffff }
    }
    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: SSE2 is in the x86_64 baseline; registers only, no memory.
        Sse2(unsafe { _mm_setzero_si128() })
    }
}

/// The SSE2 kernel with gravity by `pext`/`pdep`.
///
/// # Safety
/// The CPU must support BMI2 and POPCNT.
#[target_feature(enable = "bmi2,popcnt")]
pub(super) unsafe fn simulate_bmi2(field: &Field, out: &mut MaybeUninit<Chain>) {
    simulate_impl::<Sse2, true>(field, out)
}

/// The SSE2 kernel with the POPCNT instruction for the step counts (not in the x86_64
/// baseline, so detected at run time).
///
/// # Safety
/// The CPU must support POPCNT.
#[target_feature(enable = "popcnt")]
pub(super) unsafe fn simulate_popcnt(field: &Field, out: &mut MaybeUninit<Chain>) {
    simulate_impl::<Sse2, false>(field, out)
}

/// The SSE2 kernel without POPCNT (a CPU without it).
pub(super) fn simulate(field: &Field, out: &mut MaybeUninit<Chain>) {
    simulate_impl::<Sse2, false>(field, out)
}
