//! The engines that run a chain, and the run-time CPU detection that picks one.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod portable;
#[cfg(target_arch = "x86_64")]
mod sse2;

use super::{Chain, Field};

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
            Engine::Avx512 if has_avx512() => {
                // SAFETY: AVX-512 F and BW, BMI2 and POPCNT were detected just above.
                unsafe { avx512::simulate(field) }
            }
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2 if has_avx2() => {
                // SAFETY: AVX2, BMI2 and POPCNT were detected on this CPU just above.
                unsafe { avx2::simulate(field) }
            }
            #[cfg(target_arch = "x86_64")]
            Engine::Sse2Bmi2 if crate::algo::lines::has_bmi2() => {
                // SAFETY: BMI2 and POPCNT (`has_bmi2` checks both) were detected just above.
                unsafe { sse2::simulate_bmi2(field) }
            }
            #[cfg(target_arch = "x86_64")]
            Engine::Sse2 | Engine::Sse2Bmi2 if sse2::has_popcnt() => {
                // SAFETY: POPCNT was detected on this CPU just above.
                unsafe { sse2::simulate_popcnt(field) }
            }
            #[cfg(target_arch = "x86_64")]
            Engine::Sse2 | Engine::Sse2Bmi2 => sse2::simulate(field),
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
        if has_avx512() {
            return Engine::Avx512;
        }
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            return Engine::Avx2;
        }
        if cfg!(target_arch = "x86_64") {
            Engine::Sse2
        } else {
            Engine::Portable
        }
    }

    /// Every engine this CPU runs.
    pub fn available() -> Vec<Engine> {
        let mut v = vec![Engine::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            v.push(Engine::Sse2);
            if crate::algo::lines::has_bmi2() {
                v.push(Engine::Sse2Bmi2);
            }
            if has_avx2() {
                v.push(Engine::Avx2);
            }
            if has_avx512() {
                v.push(Engine::Avx512);
            }
        }
        v
    }
}

/// Whether this CPU runs [`Engine::Avx512`] (AVX-512 F and BW, BMI2 and POPCNT). Detected
/// once, then one relaxed atomic load.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) fn has_avx512() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    // 0: not detected yet, 1: no, 2: yes.
    static AVX512: AtomicU8 = AtomicU8::new(0);
    match AVX512.load(Ordering::Relaxed) {
        0 => {
            let yes = std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && crate::algo::lines::has_bmi2();
            AVX512.store(1 + u8::from(yes), Ordering::Relaxed);
            yes
        }
        v => v == 2,
    }
}

/// Whether this CPU runs [`Engine::Avx2`] (AVX2, BMI2 and POPCNT). Detected once, then one
/// relaxed atomic load.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) fn has_avx2() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    // 0: not detected yet, 1: no, 2: yes.
    static AVX2: AtomicU8 = AtomicU8::new(0);
    match AVX2.load(Ordering::Relaxed) {
        0 => {
            let yes = std::arch::is_x86_feature_detected!("avx2") && crate::algo::lines::has_bmi2();
            AVX2.store(1 + u8::from(yes), Ordering::Relaxed);
            yes
        }
        v => v == 2,
    }
}
