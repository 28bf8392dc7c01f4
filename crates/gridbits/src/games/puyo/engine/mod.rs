//! The engines that run a chain, and the run-time CPU detection that picks one.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod avx512vl;
mod portable;
#[cfg(target_arch = "x86_64")]
mod sse2;

use super::{Chain, Field};
#[cfg(target_arch = "x86_64")]
use crate::cpu::{has, Features};
use std::mem::MaybeUninit;

/// Which implementation [`Field::simulate_with`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChainEngine {
    /// Planes as `u128`: runs everywhere.
    Portable,
    /// Planes in SSE2 registers (x86_64). Gravity cuts the removed cells out of every column
    /// at once, lowest first (one-row falls on the first step if the field had floating cells).
    Sse2,
    /// SSE2 planes and gravity by `pext`/`pdep` (x86_64 with BMI2, detected at run time).
    Sse2Bmi2,
    /// Two planes per AVX2 register, so the vanish check, the removal and each gravity round
    /// handle two colours per instruction (x86_64 with AVX2, BMI2 and POPCNT, detected at run
    /// time).
    Avx2,
    /// Four planes per AVX-512 register and three-input logic (`vpternlogq`): the vanish
    /// check of four colours is one 25-instruction check (x86_64 with AVX-512 F and BW, BMI2
    /// and POPCNT, detected at run time).
    Avx512,
    /// The AVX2 engine's layout (two planes per 256-bit register) with AVX-512 instructions
    /// on 256-bit registers: a vanish check four instructions shorter (`vpternlogq`) and
    /// gravity by runs (`vpsrlvw` by the `vpopcntw` of each column's lowest run of removed
    /// cells: a vertical group of four falls in one round, not four). x86_64 with AVX2,
    /// AVX-512 F, BW, VL and BITALG, BMI2 and POPCNT, detected at run time.
    Avx512Vl,
}

impl ChainEngine {
    /// Runs the whole chain of `field` on this engine, or on [`ChainEngine::Portable`] when the CPU
    /// lacks it.
    #[inline]
    pub(super) fn run(self, field: &Field) -> Chain {
        let mut out = MaybeUninit::uninit();
        self.run_into(field, &mut out);
        // SAFETY: every engine writes the whole chain (its length, score, field and the
        // steps up to the length).
        unsafe { out.assume_init() }
    }

    /// [`run`](Self::run) writing the chain to `out` (the batch writes straight into its
    /// result, without a copy of each chain).
    pub(super) fn run_into(self, field: &Field, out: &mut MaybeUninit<Chain>) {
        match self {
            #[cfg(target_arch = "x86_64")]
            ChainEngine::Avx512Vl if has(AVX512VL) => {
                // SAFETY: every feature the engine needs was detected just above.
                unsafe { avx512vl::simulate(field, out) }
            }
            #[cfg(target_arch = "x86_64")]
            ChainEngine::Avx512 if has(AVX512) => {
                // SAFETY: AVX-512 F and BW, BMI2 and POPCNT were detected just above.
                unsafe { avx512::simulate(field, out) }
            }
            #[cfg(target_arch = "x86_64")]
            ChainEngine::Avx2 if has(AVX2) => {
                // SAFETY: AVX2, BMI2 and POPCNT were detected on this CPU just above.
                unsafe { avx2::simulate(field, out) }
            }
            #[cfg(target_arch = "x86_64")]
            ChainEngine::Sse2Bmi2 if has(SSE2_BMI2) => {
                // SAFETY: BMI2 and POPCNT were detected just above.
                unsafe { sse2::simulate_bmi2(field, out) }
            }
            #[cfg(target_arch = "x86_64")]
            ChainEngine::Sse2 | ChainEngine::Sse2Bmi2 if has(SSE2_POPCNT) => {
                // SAFETY: POPCNT was detected on this CPU just above.
                unsafe { sse2::simulate_popcnt(field, out) }
            }
            #[cfg(target_arch = "x86_64")]
            ChainEngine::Sse2 | ChainEngine::Sse2Bmi2 if has(Features::SSE2) => {
                sse2::simulate(field, out)
            }
            _ => portable::simulate(field, out),
        }
    }

    /// The fastest engine this CPU runs, among those the features left by
    /// [`with_level`](crate::cpu::with_level) and `GRIDBITS_CPU` allow:
    ///
    /// - [`ChainEngine::Avx512`] where the CPU has it and runs 512-bit instructions at full
    ///   width (Intel, AMD Zen 5 desktop and server: the CPU table of
    ///   [`cpu::splits_512`](crate::cpu::splits_512); the choice there is the vendors'
    ///   description of their vector units, not a measurement);
    /// - else [`ChainEngine::Avx512Vl`] where the CPU has it: on CPUs that split 512-bit
    ///   instructions into two halves (AMD Zen 4) it takes 0.64-0.70x the AVX2 engine's time
    ///   on the Tsu 19-chain (wall time within one run; 0.68x in CPU time: docs/benchmarks.md);
    /// - else [`ChainEngine::Avx2`] where the CPU has it: on split CPUs without BITALG the
    ///   AVX-512 engine does the same work as the AVX2 one in two 256-bit halves plus a
    ///   fourth plane-pair, and takes 16-25% more time;
    /// - else [`ChainEngine::Sse2`] on x86_64 (measured faster than [`ChainEngine::Sse2Bmi2`]:
    ///   after a step only the columns under a vanished cell move, and cutting those cells
    ///   out, lowest first in every column at once, takes a few register rounds, while
    ///   `pext`/`pdep` costs two register-to-GPR round trips per plane);
    /// - [`ChainEngine::Portable`] elsewhere.
    pub fn best() -> ChainEngine {
        #[cfg(target_arch = "x86_64")]
        {
            let f = crate::cpu::features();
            if f.contains(AVX512) && !crate::cpu::splits_512() {
                return ChainEngine::Avx512;
            }
            if f.contains(AVX512VL) {
                return ChainEngine::Avx512Vl;
            }
            if f.contains(AVX2) {
                return ChainEngine::Avx2;
            }
            if f.contains(AVX512) {
                return ChainEngine::Avx512;
            }
            if f.contains(Features::SSE2) {
                return ChainEngine::Sse2;
            }
        }
        ChainEngine::Portable
    }

    /// Every engine this CPU runs.
    pub fn available() -> Vec<ChainEngine> {
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut v = vec![ChainEngine::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if has(Features::SSE2) {
                v.push(ChainEngine::Sse2);
            }
            if has(SSE2_BMI2) {
                v.push(ChainEngine::Sse2Bmi2);
            }
            if has(AVX2) {
                v.push(ChainEngine::Avx2);
            }
            if has(AVX512) {
                v.push(ChainEngine::Avx512);
            }
            if has(AVX512VL) {
                v.push(ChainEngine::Avx512Vl);
            }
        }
        v
    }
}

/// The features [`ChainEngine::Avx512`] needs: AVX-512 F and BW, BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
const AVX512: Features = Features::AVX512F
    .union(Features::AVX512BW)
    .union(Features::BMI2)
    .union(Features::POPCNT);
/// The features [`ChainEngine::Avx512Vl`] needs: AVX2, AVX-512 F, BW, VL and BITALG, BMI2
/// and POPCNT.
#[cfg(target_arch = "x86_64")]
const AVX512VL: Features = AVX2
    .union(Features::AVX512F)
    .union(Features::AVX512BW)
    .union(Features::AVX512VL)
    .union(Features::AVX512BITALG);
/// The features [`ChainEngine::Avx2`] needs: AVX2, BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
const AVX2: Features = Features::AVX2.union(Features::BMI2).union(Features::POPCNT);
/// The features [`ChainEngine::Sse2Bmi2`] needs: SSE2, BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
const SSE2_BMI2: Features = Features::SSE2.union(Features::BMI2).union(Features::POPCNT);
/// The features of the SSE2 engines' POPCNT copy.
#[cfg(target_arch = "x86_64")]
const SSE2_POPCNT: Features = Features::SSE2.union(Features::POPCNT);
