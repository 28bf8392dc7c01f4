//! The two-value check that the byte kernels fold into their packing: [`ByteValues`].
//!
//! OpenCV's morphology drop-ins take images of two values (0 and one `hi`: 0/255 masks).
//! Checking that with a pass of its own reads the whole image once more before the
//! morphology reads it; instead, every kernel that packs bytes can fold, for each byte it
//! packs, the largest byte and the smallest nonzero byte: every nonzero byte is the same
//! value exactly when the two are equal at the end (or no byte was nonzero). That is two
//! to four vector instructions per 64 bytes, while the bytes are in registers anyway: with
//! AVX-512 and the threshold 0, an unsigned maximum and a minimum under the mask of
//! nonzero bytes, which the packing's compare has just made.
//!
//! This file holds the one fold of each width: [`ByteValues::fold_word`] (eight bytes in a
//! `u64`, for the portable kernel), and on x86-64 `Acc128` (SSE2), `Acc256` (AVX2) and
//! `Acc512` (AVX-512), which the kernels of `x86.rs` and the one-pass morphology engines'
//! own AVX-512 loop (`algo::morph::three_rows::turn`) call; each reduces to a
//! [`ByteValues`] at the end of a row.

/// What a checked packing saw in the bytes it packed: the largest byte and the smallest
/// nonzero one. Bytes past a row's end that a kernel pads with zeros change neither.
///
/// Made by [`morph_bytes_and_values`](crate::algo::morph::morph_bytes_and_values); the
/// question it answers is [`two_valued`](Self::two_valued): whether every byte is 0 or
/// [`high`](Self::high).
///
/// ```
/// use gridbits::grid::ByteValues;
/// let v = ByteValues::NONE.with_bytes(&[0, 255, 255, 0]);
/// assert!(v.two_valued());
/// assert_eq!((v.high(), v.low_nonzero()), (255, 255));
/// let three = v.with_bytes(&[7]);
/// assert!(!three.two_valued());
/// assert!(ByteValues::NONE.with_bytes(&[0, 0]).two_valued()); // zeros only
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ByteValues {
    /// The largest byte (0 for none).
    high: u8,
    /// The smallest nonzero byte (`0xFF` for none).
    low: u8,
}

impl Default for ByteValues {
    fn default() -> ByteValues {
        ByteValues::NONE
    }
}

impl ByteValues {
    /// No byte seen: the largest is 0, the smallest nonzero `0xFF`.
    pub const NONE: ByteValues = ByteValues { high: 0, low: 0xff };

    /// The largest byte seen (the image's one nonzero value when
    /// [`two_valued`](Self::two_valued); 0 when every byte was 0).
    pub fn high(self) -> u8 {
        self.high
    }

    /// The smallest nonzero byte seen (`0xFF` when there was none).
    pub fn low_nonzero(self) -> u8 {
        self.low
    }

    /// Whether every byte seen was 0 or the one value [`high`](Self::high) (true for no
    /// byte, and for zeros alone).
    pub fn two_valued(self) -> bool {
        self.high == 0 || self.high == self.low
    }

    /// What the bytes seen by `self` and by `other` give together.
    #[must_use]
    pub fn merge(self, other: ByteValues) -> ByteValues {
        ByteValues {
            high: self.high.max(other.high),
            low: self.low.min(other.low),
        }
    }

    /// `self` with `bytes` folded in, a byte at a time (the plain form of the kernels'
    /// fold).
    #[must_use]
    pub fn with_bytes(self, bytes: &[u8]) -> ByteValues {
        bytes.iter().fold(self, |v, &b| ByteValues {
            high: v.high.max(b),
            low: if b == 0 { v.low } else { v.low.min(b) },
        })
    }

    /// Folds in eight bytes (`x`, one a byte lane): the portable kernel's fold.
    #[inline(always)]
    pub(crate) fn fold_word(&mut self, x: u64) {
        *self = self.with_bytes(&x.to_le_bytes());
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use x86::{Acc128, Acc256, Acc512};

/// The vector folds: an accumulator of the largest bytes and of the smallest nonzero bytes
/// per register width, reduced to a [`ByteValues`] at the end of a row.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::ByteValues;
    use std::arch::x86_64::*;

    /// The largest and the smallest byte of `high` and `low` (16 lanes each) into
    /// `values`: halved by shifts of 8, 4, 2 and 1 bytes.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn reduce128(high: __m128i, low: __m128i, values: &mut ByteValues) {
        let (mut h, mut l) = (high, low);
        h = _mm_max_epu8(h, _mm_srli_si128::<8>(h));
        l = _mm_min_epu8(l, _mm_srli_si128::<8>(l));
        h = _mm_max_epu8(h, _mm_srli_si128::<4>(h));
        l = _mm_min_epu8(l, _mm_srli_si128::<4>(l));
        h = _mm_max_epu8(h, _mm_srli_si128::<2>(h));
        l = _mm_min_epu8(l, _mm_srli_si128::<2>(l));
        h = _mm_max_epu8(h, _mm_srli_si128::<1>(h));
        l = _mm_min_epu8(l, _mm_srli_si128::<1>(l));
        let row = ByteValues {
            high: _mm_cvtsi128_si32(h) as u8,
            low: _mm_cvtsi128_si32(l) as u8,
        };
        *values = values.merge(row);
    }

    /// The fold in SSE2 registers (16 bytes a step).
    #[derive(Clone, Copy)]
    pub(crate) struct Acc128 {
        high: __m128i,
        low: __m128i,
    }

    impl Acc128 {
        /// No byte seen.
        #[inline]
        #[target_feature(enable = "sse2")]
        pub(crate) fn new() -> Acc128 {
            Acc128 {
                high: _mm_setzero_si128(),
                low: _mm_set1_epi8(-1),
            }
        }

        /// Folds in the 16 bytes of `v` (a zero byte raised to `0xFF` for the minimum).
        #[inline]
        #[target_feature(enable = "sse2")]
        pub(crate) fn fold(&mut self, v: __m128i) {
            let zero = _mm_cmpeq_epi8(v, _mm_setzero_si128());
            self.high = _mm_max_epu8(self.high, v);
            self.low = _mm_min_epu8(self.low, _mm_or_si128(v, zero));
        }

        /// Adds what was folded to `values`.
        #[inline]
        #[target_feature(enable = "sse2")]
        pub(crate) fn reduce(self, values: &mut ByteValues) {
            reduce128(self.high, self.low, values);
        }
    }

    /// The fold in AVX2 registers (32 bytes a step). `low` keeps the smallest byte less
    /// one (wrapping: a zero byte becomes `0xFF`, so it never lowers the minimum), two
    /// instructions where raising the zero bytes takes three; [`Acc256::reduce`] adds the
    /// one back, saturating (`0xFF`, nothing nonzero seen, stays `0xFF` as in the other
    /// folds).
    #[derive(Clone, Copy)]
    pub(crate) struct Acc256 {
        high: __m256i,
        low: __m256i,
    }

    impl Acc256 {
        /// No byte seen.
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(crate) fn new() -> Acc256 {
            Acc256 {
                high: _mm256_setzero_si256(),
                low: _mm256_set1_epi8(-1),
            }
        }

        /// Folds in the 32 bytes of `v`.
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(crate) fn fold(&mut self, v: __m256i) {
            self.high = _mm256_max_epu8(self.high, v);
            let less_one = _mm256_add_epi8(v, _mm256_set1_epi8(-1));
            self.low = _mm256_min_epu8(self.low, less_one);
        }

        /// Adds what was folded to `values`.
        #[inline]
        #[target_feature(enable = "avx2")]
        pub(crate) fn reduce(self, values: &mut ByteValues) {
            let high = _mm_max_epu8(
                _mm256_castsi256_si128(self.high),
                _mm256_extracti128_si256::<1>(self.high),
            );
            let low = _mm_min_epu8(
                _mm256_castsi256_si128(self.low),
                _mm256_extracti128_si256::<1>(self.low),
            );
            reduce128(high, _mm_adds_epu8(low, _mm_set1_epi8(1)), values);
        }
    }

    /// The fold in AVX-512 registers (64 bytes, one packed word, a step).
    #[derive(Clone, Copy)]
    pub(crate) struct Acc512 {
        high: __m512i,
        low: __m512i,
    }

    impl Acc512 {
        /// No byte seen.
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw")]
        pub(crate) fn new() -> Acc512 {
            Acc512 {
                high: _mm512_setzero_si512(),
                low: _mm512_set1_epi8(-1),
            }
        }

        /// Folds in the 64 bytes of `v` whose nonzero bytes are `nonzero` (the packing's
        /// own compare when the threshold is 0): a maximum, and a minimum under the mask.
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw")]
        pub(crate) fn fold_nonzero(&mut self, v: __m512i, nonzero: __mmask64) {
            self.high = _mm512_max_epu8(self.high, v);
            self.low = _mm512_mask_min_epu8(self.low, nonzero, self.low, v);
        }

        /// Folds in the 64 bytes of `v`, packed with `threshold` into the mask `packed`
        /// (its nonzero bytes when the threshold is 0).
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw")]
        pub(crate) fn fold(&mut self, v: __m512i, threshold: u8, packed: __mmask64) {
            let nonzero = if threshold == 0 {
                packed
            } else {
                _mm512_test_epi8_mask(v, v)
            };
            self.fold_nonzero(v, nonzero);
        }

        /// Adds what was folded to `values`.
        #[inline]
        #[target_feature(enable = "avx512f,avx512bw")]
        pub(crate) fn reduce(self, values: &mut ByteValues) {
            let high = _mm256_max_epu8(
                _mm512_castsi512_si256(self.high),
                _mm512_extracti64x4_epi64::<1>(self.high),
            );
            let low = _mm256_min_epu8(
                _mm512_castsi512_si256(self.low),
                _mm512_extracti64x4_epi64::<1>(self.low),
            );
            let high = _mm_max_epu8(
                _mm256_castsi256_si128(high),
                _mm256_extracti128_si256::<1>(high),
            );
            let low = _mm_min_epu8(
                _mm256_castsi256_si128(low),
                _mm256_extracti128_si256::<1>(low),
            );
            reduce128(high, low, values);
        }
    }
}
