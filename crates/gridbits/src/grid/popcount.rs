//! Counting the set cells of a grid ([`BitGrid::count`](super::BitGrid::count)) with the
//! widest population count the CPU has, chosen at run time: the x86-64 baseline has no
//! `popcnt` instruction (a dozen instructions per word), so the loop is compiled also for
//! POPCNT, for AVX2 (a byte-table lookup per 32 bytes) and for AVX-512 VPOPCNTDQ (eight
//! words per instruction).

#[cfg(target_arch = "x86_64")]
use crate::cpu::{has, Features};

/// Below this many words the plain loop runs (the dispatch would cost more than it saves).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const DISPATCH_WORDS: usize = 16;

/// The number of set bits in `words`.
pub(crate) fn count_words(words: &[u64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if words.len() >= DISPATCH_WORDS {
        if has(Features::AVX512F | Features::AVX512VPOPCNTDQ) {
            // SAFETY: AVX-512F and AVX-512 VPOPCNTDQ were detected just above, the only
            // requirement of `count_avx512` (the portable loop compiled with them).
            return unsafe { count_avx512(words) };
        }
        if has(Features::AVX2 | Features::POPCNT) {
            // SAFETY: AVX2 and POPCNT were detected just above, the requirement of
            // `count_avx2`.
            return unsafe { count_avx2(words) };
        }
        if has(Features::POPCNT) {
            // SAFETY: POPCNT was detected just above, the requirement of `count_popcnt`.
            return unsafe { count_popcnt(words) };
        }
    }
    count_portable(words)
}

/// The plain loop, inlined into each compilation below.
#[inline(always)]
fn count_portable(words: &[u64]) -> u64 {
    words.iter().map(|w| u64::from(w.count_ones())).sum()
}

/// [`count_portable`] compiled with AVX-512F and VPOPCNTDQ.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
fn count_avx512(words: &[u64]) -> u64 {
    count_portable(words)
}

/// [`count_portable`] compiled with AVX2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn count_avx2(words: &[u64]) -> u64 {
    count_portable(words)
}

/// [`count_portable`] compiled with POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_popcnt(words: &[u64]) -> u64 {
    count_portable(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every compilation this CPU runs equals the plain loop, on lengths around the vector
    /// widths and the dispatch threshold, with sparse, dense and full words.
    #[test]
    fn every_compilation_counts_alike() {
        let mut rng = crate::test_rng::XorShift(0x2545_f491_4f6c_dd1d);
        for len in (0..80).chain([255, 256, 257, 1000, 4096]) {
            for density in 0..3 {
                let words: Vec<u64> = (0..len)
                    .map(|_| {
                        let s = rng.next_u64();
                        match density {
                            0 => s & (s >> 17) & (s >> 31),
                            1 => s,
                            _ => !0,
                        }
                    })
                    .collect();
                let want = count_portable(&words);
                assert_eq!(count_words(&words), want, "dispatched, {len} words");
                #[cfg(target_arch = "x86_64")]
                {
                    use crate::cpu::{detected, Features};
                    let cpu = detected();
                    if cpu.contains(Features::AVX512F | Features::AVX512VPOPCNTDQ) {
                        // SAFETY: detected just above.
                        assert_eq!(unsafe { count_avx512(&words) }, want, "avx512, {len}");
                    }
                    if cpu.contains(Features::AVX2 | Features::POPCNT) {
                        // SAFETY: detected just above.
                        assert_eq!(unsafe { count_avx2(&words) }, want, "avx2, {len}");
                    }
                    if cpu.contains(Features::POPCNT) {
                        // SAFETY: detected just above.
                        assert_eq!(unsafe { count_popcnt(&words) }, want, "popcnt, {len}");
                    }
                }
            }
        }
    }
}
