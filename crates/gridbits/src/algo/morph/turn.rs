//! The row kernels of the one-step passes of [`three_rows`](super::three_rows) and
//! [`rect_rows`](super::rect_rows) (an erosion or a dilation of a byte image, the Python
//! drop-ins' commonest call): one *turn* packs an image row into words and writes an output
//! row from three word rows in the same loop, 64 cells a step, so that the loads of one row
//! and the stores of the other are in flight together. [`Avx512`] and [`Avx2`] are the same
//! turn for two register widths (they differ in how a word of 64 cells is packed and
//! unpacked and in a row's last cells); the passes are generic over [`Turn`] and compiled
//! once per kernel, inside [`one_step_avx512`] or [`one_step_avx2`], which enable its CPU
//! features (the kernels inline there).

use super::row_runs::op;
use crate::grid::ByteValues;
use std::arch::x86_64::*;

/// A turn kernel and its fold of the two-value check.
pub(super) trait Turn {
    /// The fold of the bytes packed (largest and smallest nonzero), carried from row to
    /// row and reduced once.
    type Acc;

    /// A row's constants: the threshold, the output bytes `set` and `empty`, broadcast.
    type Consts: Copy;

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

    /// The constants of a row: a cell is set where its byte is above `threshold`; `set`
    /// and `empty` are the output bytes. Only called from code compiled for the kernel's
    /// features (see [`Turn::fold`]), as are the methods below.
    fn consts(threshold: u8, set: u8, empty: u8) -> Self::Consts;

    /// Packs 64 bytes into a word (folding them into `acc` when `CHECK`).
    fn pack<const CHECK: bool>(bytes: &[u8; 64], c: Self::Consts, acc: &mut Self::Acc) -> u64;

    /// Writes a word as 64 bytes, `set` for a set bit and `empty` for a clear one.
    fn unpack(word: u64, c: Self::Consts, out: &mut [u8; 64]);

    /// [`Turn::pack`] for a row's last `bytes.len()` (under 64) cells: no bit set beyond
    /// them, nothing folded. This default goes through a buffer of 64 zeros.
    #[inline(always)]
    fn pack_tail<const CHECK: bool>(bytes: &[u8], c: Self::Consts, acc: &mut Self::Acc) -> u64 {
        let mut buf = [0u8; 64];
        buf[..bytes.len()].copy_from_slice(bytes);
        Self::pack::<CHECK>(&buf, c, acc)
    }

    /// [`Turn::unpack`] into a row's last `out.len()` (under 64) cells. This default goes
    /// through a buffer.
    #[inline(always)]
    fn unpack_tail(word: u64, c: Self::Consts, out: &mut [u8]) {
        let mut buf = [0u8; 64];
        Self::unpack(word, c, &mut buf);
        out.copy_from_slice(&buf[..out.len()]);
    }

    /// Packs `row` (when `PACK`: a cell is set where its byte is above `threshold`) into
    /// `fresh[1..]` and writes the output row (when `EMIT`) into `o`: word `i` of the three
    /// `rows` AND-ed (erosion, `ALL`) or OR-ed, `set` for a set cell, `empty` for a clear
    /// one. `width` cells; `fresh` holds the row's words after one word of border, `rows`
    /// at least the row's words. When `CHECK`, the packed bytes are folded into `acc`.
    ///
    /// Only called from code compiled for the kernel's features (see [`Turn::fold`]).
    #[allow(clippy::too_many_arguments)]
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
        let c = Self::consts(threshold, set, empty);
        let (full, tail) = (width / 64, width % 64);
        let wpr = width.div_ceil(64);
        let [a, b, d] = rows;
        let (a, b, d) = (&a[..wpr], &b[..wpr], &d[..wpr]);
        let fresh = &mut fresh[1..=wpr];
        let src = &row.as_chunks::<64>().0[..if PACK { full } else { 0 }];
        let dst = &mut o.as_chunks_mut::<64>().0[..if EMIT { full } else { 0 }];
        for i in 0..full {
            if PACK {
                fresh[i] = Self::pack::<CHECK>(&src[i], c, acc);
            }
            if EMIT {
                Self::unpack(op::<ALL>(op::<ALL>(a[i], b[i]), d[i]), c, &mut dst[i]);
            }
        }
        if tail != 0 {
            if PACK {
                fresh[full] = Self::pack_tail::<CHECK>(&row[full * 64..width], c, acc);
            }
            if EMIT {
                let w = op::<ALL>(op::<ALL>(a[full], b[full]), d[full]);
                Self::unpack_tail(w, c, &mut o[full * 64..width]);
            }
        }
    }
}

/// The turn with AVX-512 F and BW: one unsigned compare of 64 bytes packs a word into a
/// mask register, one masked blend unpacks it; the row's last cells by masked loads and
/// stores.
pub(super) struct Avx512;

// SAFETY (every intrinsic in this impl): its methods are only called from code compiled
// for AVX-512 F and BW, which runs on CPUs that have them; loads and stores go through
// references to 64-byte chunks (in bounds by their type) or are masked to the slice's own
// bytes.
impl Turn for Avx512 {
    type Acc = crate::grid::Acc512;
    /// The threshold's byte and its broadcast, `set` and `empty` broadcast.
    type Consts = (u8, __m512i, __m512i, __m512i);

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
    fn consts(threshold: u8, set: u8, empty: u8) -> Self::Consts {
        // SAFETY: see the impl.
        unsafe {
            (
                threshold,
                _mm512_set1_epi8(threshold as i8),
                _mm512_set1_epi8(set as i8),
                _mm512_set1_epi8(empty as i8),
            )
        }
    }

    #[inline(always)]
    fn pack<const CHECK: bool>(bytes: &[u8; 64], c: Self::Consts, acc: &mut Self::Acc) -> u64 {
        // SAFETY: see the impl.
        unsafe {
            let v = _mm512_loadu_si512(bytes.as_ptr().cast());
            let k = _mm512_cmpgt_epu8_mask(v, c.1);
            if CHECK {
                acc.fold(v, c.0, k);
            }
            k
        }
    }

    #[inline(always)]
    fn unpack(word: u64, c: Self::Consts, out: &mut [u8; 64]) {
        // SAFETY: see the impl.
        unsafe {
            let v = _mm512_mask_blend_epi8(word, c.3, c.2);
            _mm512_storeu_si512(out.as_mut_ptr().cast(), v);
        }
    }

    #[inline(always)]
    fn pack_tail<const CHECK: bool>(bytes: &[u8], c: Self::Consts, acc: &mut Self::Acc) -> u64 {
        let mask = (1u64 << bytes.len()) - 1;
        // SAFETY: see the impl; the load is masked to the slice's bytes (under 64).
        unsafe {
            let v = _mm512_maskz_loadu_epi8(mask, bytes.as_ptr().cast());
            let k = _mm512_cmpgt_epu8_mask(v, c.1);
            if CHECK {
                acc.fold(v, c.0, k);
            }
            k
        }
    }

    #[inline(always)]
    fn unpack_tail(word: u64, c: Self::Consts, out: &mut [u8]) {
        let mask = (1u64 << out.len()) - 1;
        // SAFETY: see the impl; the store is masked to the slice's bytes (under 64).
        unsafe {
            let v = _mm512_mask_blend_epi8(word, c.3, c.2);
            _mm512_mask_storeu_epi8(out.as_mut_ptr().cast(), mask, v);
        }
    }
}

/// The turn with AVX2: a word packed from two signed compares of 32 bytes and their
/// `vpmovmskb`, unpacked by [`unpack64_avx2`](crate::grid::unpack64_avx2) (one broadcast,
/// byte shuffles and a compare); a row's last cells through a buffer of 64 bytes (zeros:
/// no bit set, nothing folded).
pub(super) struct Avx2;

// SAFETY (every call in this impl): its methods are only called from code compiled for
// AVX2, which runs on CPUs that have it; the kernels read and write through references to
// 64-byte chunks.
impl Turn for Avx2 {
    type Acc = crate::grid::Acc256;
    /// The threshold biased for a signed compare, `set` and `empty`, broadcast.
    type Consts = (__m256i, __m256i, __m256i);

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
    fn consts(threshold: u8, set: u8, empty: u8) -> Self::Consts {
        // SAFETY: see the impl.
        unsafe {
            (
                _mm256_set1_epi8((threshold ^ 0x80) as i8),
                _mm256_set1_epi8(set as i8),
                _mm256_set1_epi8(empty as i8),
            )
        }
    }

    #[inline(always)]
    fn pack<const CHECK: bool>(bytes: &[u8; 64], c: Self::Consts, acc: &mut Self::Acc) -> u64 {
        // SAFETY: see the impl.
        unsafe { crate::grid::pack64_avx2::<CHECK>(bytes, c.0, acc) }
    }

    #[inline(always)]
    fn unpack(word: u64, c: Self::Consts, out: &mut [u8; 64]) {
        // SAFETY: see the impl.
        unsafe { crate::grid::unpack64_avx2(word, c.1, c.2, out) }
    }
}

/// A one-step pass (an erosion or a dilation of an image into an output, bundled) generic
/// over the turn kernel, run by [`one_step_avx512`] or [`one_step_avx2`].
pub(super) trait OneStep {
    /// Whether the step erodes (else it dilates).
    fn erode(&self) -> bool;

    /// The pass with the kernel `K`, eroding when `ALL`, folding every byte packed into
    /// `values` when `CHECK`. Only called from code compiled for `K`'s features (see
    /// [`Turn::fold`]).
    fn run<K: Turn, const ALL: bool, const CHECK: bool>(self, values: &mut ByteValues);
}

/// `step` with AVX-512's turn.
///
/// # Safety
/// The CPU must have AVX2 and AVX-512 F and BW.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(super) unsafe fn one_step_avx512<S: OneStep, const CHECK: bool>(
    step: S,
    values: &mut ByteValues,
) {
    if step.erode() {
        step.run::<Avx512, true, CHECK>(values);
    } else {
        step.run::<Avx512, false, CHECK>(values);
    }
}

/// `step` with AVX2's turn.
///
/// # Safety
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn one_step_avx2<S: OneStep, const CHECK: bool>(
    step: S,
    values: &mut ByteValues,
) {
    if step.erode() {
        step.run::<Avx2, true, CHECK>(values);
    } else {
        step.run::<Avx2, false, CHECK>(values);
    }
}
