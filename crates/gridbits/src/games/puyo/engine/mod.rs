//! The engines that run a chain, and the run-time CPU detection that picks one.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod portable;
#[cfg(target_arch = "x86_64")]
mod sse2;

use super::{Chain, Field};
#[cfg(target_arch = "x86_64")]
use crate::cpu::{has, Features};

/// Which implementation [`Field::simulate_with`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
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
}

impl Engine {
    /// Runs the whole chain of `field` on this engine, or on [`Engine::Portable`] when the CPU
    /// lacks it.
    pub(super) fn run(self, field: &Field) -> Chain {
        match self {
            #[cfg(target_arch = "x86_64")]
            Engine::Avx512 if has(AVX512) => {
                // SAFETY: AVX-512 F and BW, BMI2 and POPCNT were detected just above.
                unsafe { avx512::simulate(field) }
            }
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2 if has(AVX2) => {
                // SAFETY: AVX2, BMI2 and POPCNT were detected on this CPU just above.
                unsafe { avx2::simulate(field) }
            }
            #[cfg(target_arch = "x86_64")]
            Engine::Sse2Bmi2 if has(SSE2_BMI2) => {
                // SAFETY: BMI2 and POPCNT were detected just above.
                unsafe { sse2::simulate_bmi2(field) }
            }
            #[cfg(target_arch = "x86_64")]
            Engine::Sse2 | Engine::Sse2Bmi2 if has(SSE2_POPCNT) => {
                // SAFETY: POPCNT was detected on this CPU just above.
                unsafe { sse2::simulate_popcnt(field) }
            }
            #[cfg(target_arch = "x86_64")]
            Engine::Sse2 | Engine::Sse2Bmi2 if has(Features::SSE2) => sse2::simulate(field),
            _ => portable::simulate(field),
        }
    }

    /// The fastest engine this CPU runs: [`Engine::Avx512`], else [`Engine::Avx2`], where the
    /// CPU has them, else [`Engine::Sse2`] on x86_64 (measured faster than [`Engine::Sse2Bmi2`]: after a step
    /// only the columns under a vanished cell move, and cutting those cells out, lowest first
    /// in every column at once, takes a few register rounds, while `pext`/`pdep` costs two
    /// register-to-GPR round trips per plane), [`Engine::Portable`] elsewhere.
    pub fn best() -> Engine {
        #[cfg(target_arch = "x86_64")]
        {
            let f = crate::cpu::features();
            if f.contains(AVX512) {
                return Engine::Avx512;
            }
            if f.contains(AVX2) {
                return Engine::Avx2;
            }
            if f.contains(Features::SSE2) {
                return Engine::Sse2;
            }
        }
        Engine::Portable
    }

    /// Every engine this CPU runs.
    pub fn available() -> Vec<Engine> {
        let mut v = vec![Engine::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if has(Features::SSE2) {
                v.push(Engine::Sse2);
            }
            if has(SSE2_BMI2) {
                v.push(Engine::Sse2Bmi2);
            }
            if has(AVX2) {
                v.push(Engine::Avx2);
            }
            if has(AVX512) {
                v.push(Engine::Avx512);
            }
        }
        v
    }
}

/// The features [`Engine::Avx512`] needs: AVX-512 F and BW, BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
const AVX512: Features = Features::AVX512F
    .union(Features::AVX512BW)
    .union(Features::BMI2)
    .union(Features::POPCNT);
/// The features [`Engine::Avx2`] needs: AVX2, BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
const AVX2: Features = Features::AVX2.union(Features::BMI2).union(Features::POPCNT);
/// The features [`Engine::Sse2Bmi2`] needs: SSE2, BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
const SSE2_BMI2: Features = Features::SSE2.union(Features::BMI2).union(Features::POPCNT);
/// The features of the SSE2 engines' POPCNT copy.
#[cfg(target_arch = "x86_64")]
const SSE2_POPCNT: Features = Features::SSE2.union(Features::POPCNT);
