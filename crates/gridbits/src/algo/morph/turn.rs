//! The row kernels of the one-step passes of [`three_rows`](super::three_rows) and
//! [`rect_rows`](super::rect_rows) (an erosion or a dilation of a byte image, the Python
//! drop-ins' commonest call): one *turn* packs an image row into words and writes an output
//! row from three word rows in the same loop, 64 cells a step, so that the loads of one row
//! and the stores of the other are in flight together. [`Avx512`] and [`Avx2`] are the same
//! turn for two register widths; the passes are generic over [`Turn`] and compiled once per
//! kernel, inside a function enabling its CPU features (the kernels inline there).

use super::row_runs::op;
use crate::grid::ByteValues;
use std::arch::x86_64::*;

/// A turn kernel and its fold of the two-value check.
pub(super) trait Turn {
    /// The fold of the bytes packed (largest and smallest nonzero), carried from row to
    /// row and reduced once.
    type Acc;

    /// A fold that has seen no byte.
    ///
    /// # Safety
    /// The CPU must have the kernel's features (AVX-512 F and BW for [`Avx512`], AVX2 for
    /// [`Avx2`]).
    unsafe fn fold() -> Self::Acc;

    /// Adds what `acc` folded to `values`.
    ///
    /// # Safety
    /// As [`Turn::fold`].
    unsafe fn reduce(acc: Self::Acc, values: &mut ByteValues);

    /// Packs `row` (when `PACK`: a cell is set where its byte is above `threshold`) into
    /// `fresh[1..]` and writes the output row (when `EMIT`) into `o`: word `i` of the three
    /// `rows` AND-ed (erosion, `ALL`) or OR-ed, `set` for a set cell, `empty` for a clear
    /// one. `width` cells; `fresh` holds the row's words after one word of border, `rows`
    /// at least the row's words. When `CHECK`, the packed bytes are folded into `acc`.
    ///
    /// Only called from code compiled for the kernel's features (see [`Turn::fold`]).
    #[allow(clippy::too_many_arguments)]
    fn turn<const ALL: bool, const PACK: bool, const EMIT: bool, const CHECK: bool>(
        row: &[u8],
        threshold: u8,
        fresh: &mut [u64],
        rows: [&[u64]; 3],
        o: &mut [u8],
        bytes: (u8, u8),
        width: usize,
        acc: &mut Self::Acc,
    );
}

/// The turn with AVX-512 F and BW: one unsigned compare of 64 bytes packs a word into a
/// mask register, one masked blend unpacks it; the row's last cells by masked loads and
/// stores.
pub(super) struct Avx512;

impl Turn for Avx512 {
    type Acc = crate::grid::Acc512;

    #[inline(always)]
    unsafe fn fold() -> Self::Acc {
        // SAFETY: the caller guarantees AVX-512 F and BW, all `Acc512::new` needs.
        unsafe { crate::grid::Acc512::new() }
    }

    #[inline(always)]
    unsafe fn reduce(acc: Self::Acc, values: &mut ByteValues) {
        // SAFETY: as in `fold`.
        unsafe { acc.reduce(values) }
    }

    #[inline(always)]
    fn turn<const ALL: bool, const PACK: bool, const EMIT: bool, const CHECK: bool>(
        row: &[u8],
        threshold: u8,
        fresh: &mut [u64],
        rows: [&[u64]; 3],
        o: &mut [u8],
        (set, empty): (u8, u8),
        width: usize,
        acc: &mut Self::Acc,
    ) {
        // SAFETY (every intrinsic below): this kernel is only called from code compiled for
        // AVX-512 F and BW, which runs on CPUs that have them; loads and stores go through
        // references to 64-byte chunks (in bounds by their type) or are masked to the row's
        // own bytes.
        unsafe {
            let t = _mm512_set1_epi8(threshold as i8);
            let (s, e) = (_mm512_set1_epi8(set as i8), _mm512_set1_epi8(empty as i8));
            let (full, tail) = (width / 64, width % 64);
            let wpr = width.div_ceil(64);
            let [a, b, c] = rows;
            let (a, b, c) = (&a[..wpr], &b[..wpr], &c[..wpr]);
            let fresh = &mut fresh[1..=wpr];
            let src = &row.as_chunks::<64>().0[..if PACK { full } else { 0 }];
            let dst = &mut o.as_chunks_mut::<64>().0[..if EMIT { full } else { 0 }];
            for i in 0..full {
                if PACK {
                    let v = _mm512_loadu_si512(src[i].as_ptr().cast());
                    let k = _mm512_cmpgt_epu8_mask(v, t);
                    fresh[i] = k;
                    if CHECK {
                        acc.fold(v, threshold, k);
                    }
                }
                if EMIT {
                    let w = op::<ALL>(op::<ALL>(a[i], b[i]), c[i]);
                    let v = _mm512_mask_blend_epi8(w, e, s);
                    _mm512_storeu_si512(dst[i].as_mut_ptr().cast(), v);
                }
            }
            if tail != 0 {
                let mask = (1u64 << tail) - 1;
                if PACK {
                    let v = _mm512_maskz_loadu_epi8(mask, row[full * 64..].as_ptr().cast());
                    let k = _mm512_cmpgt_epu8_mask(v, t);
                    fresh[full] = k;
                    if CHECK {
                        acc.fold(v, threshold, k);
                    }
                }
                if EMIT {
                    let w = op::<ALL>(op::<ALL>(a[full], b[full]), c[full]);
                    let v = _mm512_mask_blend_epi8(w, e, s);
                    _mm512_mask_storeu_epi8(o[full * 64..].as_mut_ptr().cast(), mask, v);
                }
            }
        }
    }
}

/// The turn with AVX2: a word packed from two signed compares of 32 bytes and their
/// `vpmovmskb`, unpacked by [`unpack64_avx2`](crate::grid::unpack64_avx2) (one broadcast,
/// byte shuffles and a compare); a row's last cells through a buffer of 64 bytes (zeros:
/// no bit set, nothing folded).
pub(super) struct Avx2;

impl Turn for Avx2 {
    type Acc = crate::grid::Acc256;

    #[inline(always)]
    unsafe fn fold() -> Self::Acc {
        // SAFETY: the caller guarantees AVX2, all `Acc256::new` needs.
        unsafe { crate::grid::Acc256::new() }
    }

    #[inline(always)]
    unsafe fn reduce(acc: Self::Acc, values: &mut ByteValues) {
        // SAFETY: as in `fold`.
        unsafe { acc.reduce(values) }
    }

    #[inline(always)]
    fn turn<const ALL: bool, const PACK: bool, const EMIT: bool, const CHECK: bool>(
        row: &[u8],
        threshold: u8,
        fresh: &mut [u64],
        rows: [&[u64]; 3],
        o: &mut [u8],
        (set, empty): (u8, u8),
        width: usize,
        acc: &mut Self::Acc,
    ) {
        use crate::grid::{pack64_avx2, unpack64_avx2};
        // SAFETY (every call below): this kernel is only called from code compiled for
        // AVX2, which runs on CPUs that have it; the kernels read and write through
        // references to 64-byte chunks.
        unsafe {
            let bias = _mm256_set1_epi8((threshold ^ 0x80) as i8);
            let (s, e) = (_mm256_set1_epi8(set as i8), _mm256_set1_epi8(empty as i8));
            let (full, tail) = (width / 64, width % 64);
            let wpr = width.div_ceil(64);
            let [a, b, c] = rows;
            let (a, b, c) = (&a[..wpr], &b[..wpr], &c[..wpr]);
            let fresh = &mut fresh[1..=wpr];
            let src = &row.as_chunks::<64>().0[..if PACK { full } else { 0 }];
            let dst = &mut o.as_chunks_mut::<64>().0[..if EMIT { full } else { 0 }];
            for i in 0..full {
                if PACK {
                    fresh[i] = pack64_avx2::<CHECK>(&src[i], bias, acc);
                }
                if EMIT {
                    let w = op::<ALL>(op::<ALL>(a[i], b[i]), c[i]);
                    unpack64_avx2(w, s, e, &mut dst[i]);
                }
            }
            if tail != 0 {
                let mut buf = [0u8; 64];
                if PACK {
                    buf[..tail].copy_from_slice(&row[full * 64..]);
                    fresh[full] = pack64_avx2::<CHECK>(&buf, bias, acc);
                }
                if EMIT {
                    let w = op::<ALL>(op::<ALL>(a[full], b[full]), c[full]);
                    unpack64_avx2(w, s, e, &mut buf);
                    o[full * 64..width].copy_from_slice(&buf[..tail]);
                }
            }
        }
    }
}
