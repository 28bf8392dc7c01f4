//! The two-value check that the byte kernels fold into their packing: [`ByteValues`].
//!
//! OpenCV's morphology drop-ins take images of two values (0 and one `hi`: 0/255 masks).
//! Checking that with a pass of its own reads the whole image once more before the
//! morphology reads it; instead, every kernel that packs bytes can fold, for each byte it
//! packs, the OR of the bytes and the AND of the nonzero bytes (a zero byte counted as
//! `0xFF` in the AND): every nonzero byte is the same value exactly when the two are equal
//! at the end (or no byte was nonzero). That is a few vector instructions per 64 bytes,
//! while the bytes are in registers anyway.
//!
//! This file holds the one fold of each width: [`ByteValues::fold_word`] (eight bytes in a
//! `u64`, for the portable kernel), and on x86-64 `Acc128` (SSE2), `Acc256` (AVX2) and
//! `Acc512` (AVX-512), which the kernels of `x86.rs` and the one-pass morphology engines'
//! own AVX-512 loop (`algo::morph::three_rows::turn`) call; each reduces to a
//! [`ByteValues`] at the end of a row.

/// The low seven bits of every byte.
const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The high bit of every byte.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// What a checked packing saw in the bytes it packed: the OR of every byte and the AND of
/// the nonzero ones. Bytes past a row's end that a kernel pads with zeros change neither.
///
/// Made by [`morph_bytes_and_values`](crate::algo::morph::morph_bytes_and_values); the
/// question it answers is [`two_valued`](Self::two_valued): whether every byte is 0 or
/// [`or`](Self::or).
///
/// ```
/// use gridbits::grid::ByteValues;
/// let v = ByteValues::NONE.with_bytes(&[0, 255, 255, 0]);
/// assert!(v.two_valued());
/// assert_eq!((v.or(), v.and_nonzero()), (255, 255));
/// let three = v.with_bytes(&[7]);
/// assert!(!three.two_valued());
/// assert!(ByteValues::NONE.with_bytes(&[0, 0]).two_valued()); // zeros only
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ByteValues {
    /// The OR of the bytes, in eight byte lanes (folded by [`or`](Self::or)).
    or: u64,
    /// The AND of the nonzero bytes (zero bytes as `0xFF`), in eight byte lanes.
    and: u64,
}

impl Default for ByteValues {
    fn default() -> ByteValues {
        ByteValues::NONE
    }
}

impl PartialEq for ByteValues {
    /// Equal when the folded values are ([`or`](Self::or), [`and_nonzero`](Self::and_nonzero)).
    fn eq(&self, other: &ByteValues) -> bool {
        (self.or(), self.and_nonzero()) == (other.or(), other.and_nonzero())
    }
}

impl Eq for ByteValues {}

/// The eight bytes of `x` folded into one by `f`.
#[inline]
fn fold8(x: u64, f: impl Fn(u64, u64) -> u64) -> u8 {
    let x = f(x, x >> 32);
    let x = f(x, x >> 16);
    f(x, x >> 8) as u8
}

impl ByteValues {
    /// No byte seen: the OR is 0, the AND of the nonzero bytes `0xFF`.
    pub const NONE: ByteValues = ByteValues { or: 0, and: !0 };

    /// The OR of the bytes seen (the image's one nonzero value when
    /// [`two_valued`](Self::two_valued); 0 when every byte was 0).
    pub fn or(self) -> u8 {
        fold8(self.or, |a, b| a | b)
    }

    /// The AND of the nonzero bytes seen (`0xFF` when there was none).
    pub fn and_nonzero(self) -> u8 {
        fold8(self.and, |a, b| a & b)
    }

    /// Whether every byte seen was 0 or the one value [`or`](Self::or) (true for no byte,
    /// and for zeros alone).
    pub fn two_valued(self) -> bool {
        let or = self.or();
        or == 0 || or == self.and_nonzero()
    }

    /// Both folds: what the bytes seen by `self` and by `other` give together.
    #[must_use]
    pub fn merge(self, other: ByteValues) -> ByteValues {
        ByteValues {
            or: self.or | other.or,
            and: self.and & other.and,
        }
    }

    /// `self` with `bytes` folded in, a byte at a time (the plain form of the kernels'
    /// fold).
    #[must_use]
    pub fn with_bytes(self, bytes: &[u8]) -> ByteValues {
        bytes.iter().fold(self, |v, &b| {
            let b = u64::from(b);
            ByteValues {
                or: v.or | b,
                and: v.and & if b == 0 { !0 } else { b | !0xff },
            }
        })
    }

    /// Folds in eight bytes (`x`, one a byte lane): the portable kernel's fold, SWAR.
    #[inline(always)]
    pub(crate) fn fold_word(&mut self, x: u64) {
        // High bit of a byte set where the byte is nonzero (no carry crosses a byte: the low
        // seven bits sum to 0xfe at most).
        let nonzero = (((x & LOW7) + LOW7) | x) & HIGH;
        let zero = ((nonzero ^ HIGH) >> 7) * 0xff;
        self.or |= x;
        self.and &= x | zero;
    }

    /// Folds in lanes made by a vector accumulator (OR lanes, AND lanes).
    #[inline(always)]
    pub(crate) fn fold_lanes(&mut self, or: u64, and: u64) {
        self.or |= or;
        self.and &= and;
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use x86::{Acc128, Acc256, Acc512};

/// The vector folds: an accumulator of OR and AND lanes per register width, reduced to a
/// [`ByteValues`] at the end of a row.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::ByteValues;
    use std::arch::x86_64::*;

    /// The fold in SSE2 registers (16 bytes a step).
    #[derive(Clone, Copy)]
    pub(crate) struct Acc128 {
        or: __m128i,
        and: __m128i,
    }

    impl Acc128 {
        /// No byte seen.
        #[inline]
        #[target_feature(enable = "sse2")]
        pub(crate) fn new() -> Acc128 {
            Acc128 {
                or: _mm_setzero_si128(),
                and: _mm_set1_epi8(-1),
            }
        }

        /// Folds in the 16 bytes of `v`.
        #[inline]
        #[target_feature(enable = "sse2")]
        pub(crate) fn fold(&mut self, v: __m128i) {
            let zero = _mm_cmpeq_epi8(v, _mm_setzero_si128());
            self.or = _mm_or_si128(self.or, v);
            self.and = _mm_and_si128(self.and, _mm_or_si128(v, zero));
        }

        /// Adds what was folded to `values`.
        #[inline]
        #[target_feature(enable = "sse2")]
        pub(crate) fn reduce(self, values: &mut ByteValues) {
            let or = _mm_or_si128(self.or, _mm_unpackhi_epi64(self.or, self.or));
            let and = _mm_and_si128(self.and, _mm_unpackhi_epi64(self.and, self.and));
            values.fold_lanes(_mm_cvtsi128_si64(or) as u64, _mm_cvtsi128_si64(and) as u64);
        }
    }

    /// The fold in AVX2 registers (32 bytes a step).
    #[derive(Clone, Copy)]
    pub(crate) struct Acc256 {
        or: __m256i,
        and: __m256i,
    }

    impl Acc256 {
        /// No byte seen.
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(crate) fn new() -> Acc256 {
            Acc256 {
                or: _mm256_setzero_si256(),
                and: _mm256_set1_epi8(-1),
            }
        }

        /// Folds in the 32 bytes of `v`.
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(crate) fn fold(&mut self, v: __m256i) {
            let zero = _mm256_cmpeq_epi8(v, _mm256_setzero_si256());
            self.or = _mm256_or_si256(self.or, v);
            self.and = _mm256_and_si256(self.and, _mm256_or_si256(v, zero));
        }

        /// Adds what was folded to `values`.
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(crate) fn reduce(self, values: &mut ByteValues) {
            let or = _mm_or_si128(
                _mm256_castsi256_si128(self.or),
                _mm256_extracti128_si256::<1>(self.or),
            );
            let and = _mm_and_si128(
                _mm256_castsi256_si128(self.and),
                _mm256_extracti128_si256::<1>(self.and),
            );
            let or = _mm_or_si128(or, _mm_unpackhi_epi64(or, or));
            let and = _mm_and_si128(and, _mm_unpackhi_epi64(and, and));
            values.fold_lanes(_mm_cvtsi128_si64(or) as u64, _mm_cvtsi128_si64(and) as u64);
        }
    }

    /// The fold in AVX-512 registers (64 bytes, one packed word, a step).
    #[derive(Clone, Copy)]
    pub(crate) struct Acc512 {
        or: __m512i,
        and: __m512i,
    }

    impl Acc512 {
        /// No byte seen.
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw")]
        pub(crate) fn new() -> Acc512 {
            Acc512 {
                or: _mm512_setzero_si512(),
                and: _mm512_set1_epi8(-1),
            }
        }

        /// Folds in the 64 bytes of `v`: a zero byte is replaced by `0xFF` (a blend under
        /// the mask of nonzero bytes) before the AND.
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw")]
        pub(crate) fn fold(&mut self, v: __m512i) {
            let nonzero = _mm512_test_epi8_mask(v, v);
            self.or = _mm512_or_si512(self.or, v);
            let v = _mm512_mask_blend_epi8(nonzero, _mm512_set1_epi8(-1), v);
            self.and = _mm512_and_si512(self.and, v);
        }

        /// Adds what was folded to `values`.
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw")]
        pub(crate) fn reduce(self, values: &mut ByteValues) {
            let or = _mm512_reduce_or_epi64(self.or) as u64;
            let and = _mm512_reduce_and_epi64(self.and) as u64;
            values.fold_lanes(or, and);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ByteValues;

    /// The SWAR fold against the byte-at-a-time one, on every byte value in every lane.
    #[test]
    fn fold_word_matches_bytes() {
        for b in 0..=255u8 {
            for lane in 0..8 {
                for other in [0u8, 1, 128, 255, b] {
                    let mut bytes = [other; 8];
                    bytes[lane] = b;
                    let mut v = ByteValues::NONE;
                    v.fold_word(u64::from_le_bytes(bytes));
                    assert_eq!(v, ByteValues::NONE.with_bytes(&bytes), "{bytes:?}");
                }
            }
        }
    }
}
