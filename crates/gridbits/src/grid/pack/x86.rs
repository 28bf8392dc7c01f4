//! The x86-64 kernels: SSE2 (baseline of x86-64), AVX2 and AVX-512 (F + BW).
//!
//! The AVX2 and AVX-512 functions are compiled for those features (`#[target_feature]`) and
//! must only be called once the CPU is known to have them ([`super::ByteKernel::is_available`]);
//! SSE2 is part of every x86-64 CPU. Loads and stores are unaligned, from references to
//! fixed-size chunks of the rows, so each one is in bounds by its type.

use super::values::{Acc128, Acc256, Acc512};
use super::{row_words, row_words_mut, ByteValues, Rows};
use std::arch::x86_64::*;

// ---------------------------------------------------------------------------------------------
// SSE2

/// Bytes greater than the threshold, as 64 bits: `bias` is `threshold ^ 0x80` in every byte
/// (the compare is signed, so both sides get their sign bit flipped). The bytes are folded
/// into `acc` when `CHECK`.
#[inline]
#[target_feature(enable = "sse2")]
fn pack64_sse2<const CHECK: bool>(bytes: &[u8; 64], bias: __m128i, acc: &mut Acc128) -> u64 {
    let flip = _mm_set1_epi8(i8::MIN);
    let mut w = 0u64;
    for (i, c) in bytes.as_chunks::<16>().0.iter().enumerate() {
        // SAFETY: `c` is a reference to 16 bytes; the load is unaligned.
        let v = unsafe { _mm_loadu_si128(c.as_ptr().cast()) };
        if CHECK {
            acc.fold(v);
        }
        let gt = _mm_cmpgt_epi8(_mm_xor_si128(v, flip), bias);
        w |= u64::from(_mm_movemask_epi8(gt) as u16) << (16 * i);
    }
    w
}

/// See [`super::pack`]. SSE2 is part of every x86-64 CPU.
#[target_feature(enable = "sse2")]
pub(super) fn pack_sse2<const CHECK: bool>(
    src: &[u8],
    rows: Rows,
    threshold: u8,
    words: &mut [u64],
    values: &mut ByteValues,
) {
    let bias = _mm_set1_epi8((threshold ^ 0x80) as i8);
    for y in 0..rows.height {
        let (row, out) = (rows.row(src, y), row_words_mut(words, rows, y));
        let (full, tail) = row.as_chunks::<64>();
        let mut acc = Acc128::new();
        for (o, c) in out.iter_mut().zip(full) {
            *o = pack64_sse2::<CHECK>(c, bias, &mut acc);
        }
        if !tail.is_empty() {
            // Zero bytes are never greater than the threshold (and change no fold).
            let mut buf = [0u8; 64];
            buf[..tail.len()].copy_from_slice(tail);
            out[full.len()] = pack64_sse2::<CHECK>(&buf, bias, &mut acc);
        }
        if CHECK {
            acc.reduce(values);
        }
    }
}

/// 64 bytes from one word: `s` where a bit is set, `e` elsewhere.
#[inline]
#[target_feature(enable = "sse2")]
fn unpack64_sse2(w: u64, s: __m128i, e: __m128i, out: &mut [u8; 64]) {
    // Byte i of a vector tests bit i % 8 of its byte of the word.
    let sel = _mm_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
    for (i, c) in out.as_chunks_mut::<16>().0.iter_mut().enumerate() {
        let x = _mm_cvtsi32_si128(i32::from((w >> (16 * i)) as u16));
        let x = _mm_unpacklo_epi8(x, x); // b0 b0 b1 b1
        let x = _mm_unpacklo_epi16(x, x); // b0 x4, b1 x4
        let x = _mm_unpacklo_epi32(x, x); // b0 x8, b1 x8
        let m = _mm_cmpeq_epi8(_mm_and_si128(x, sel), sel);
        let v = _mm_or_si128(_mm_and_si128(m, s), _mm_andnot_si128(m, e));
        // SAFETY: `c` is a mutable reference to 16 bytes; the store is unaligned.
        unsafe { _mm_storeu_si128(c.as_mut_ptr().cast(), v) };
    }
}

/// See [`super::unpack`]. SSE2 is part of every x86-64 CPU.
#[target_feature(enable = "sse2")]
pub(super) fn unpack_sse2(words: &[u64], rows: Rows, set: u8, empty: u8, out: &mut [u8]) {
    let (s, e) = (_mm_set1_epi8(set as i8), _mm_set1_epi8(empty as i8));
    for y in 0..rows.height {
        let src = row_words(words, rows, y);
        let (full, tail) = rows.row_mut(out, y).as_chunks_mut::<64>();
        let n = full.len();
        for (c, &w) in full.iter_mut().zip(src) {
            unpack64_sse2(w, s, e, c);
        }
        if !tail.is_empty() {
            let mut buf = [0u8; 64];
            unpack64_sse2(src[n], s, e, &mut buf);
            tail.copy_from_slice(&buf[..tail.len()]);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// AVX2

/// As [`pack64_sse2`], 32 bytes per compare (`bias`: the threshold with its top bit
/// flipped, in every byte). Also the packing of the one-step passes' AVX2 turn
/// (`algo::morph::turn`), where it inlines.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn pack64_avx2<const CHECK: bool>(
    bytes: &[u8; 64],
    bias: __m256i,
    acc: &mut Acc256,
) -> u64 {
    let flip = _mm256_set1_epi8(i8::MIN);
    let mut w = 0u64;
    for (i, c) in bytes.as_chunks::<32>().0.iter().enumerate() {
        // SAFETY: `c` is a reference to 32 bytes; the load is unaligned.
        let v = unsafe { _mm256_loadu_si256(c.as_ptr().cast()) };
        if CHECK {
            acc.fold(v);
        }
        let gt = _mm256_cmpgt_epi8(_mm256_xor_si256(v, flip), bias);
        w |= u64::from(_mm256_movemask_epi8(gt) as u32) << (32 * i);
    }
    w
}

/// See [`super::pack`].
///
/// # Safety
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn pack_avx2<const CHECK: bool>(
    src: &[u8],
    rows: Rows,
    threshold: u8,
    words: &mut [u64],
    values: &mut ByteValues,
) {
    for y in 0..rows.height {
        let out = row_words_mut(words, rows, y);
        pack_row_avx2::<CHECK>(rows.row(src, y), threshold, out, values);
    }
}

/// Packs one row (`row`, every byte a cell) into `out` (at least `row.len().div_ceil(64)`
/// words, those overwritten): a bit is set where its byte is greater than `threshold`;
/// when `CHECK`, the bytes are folded into `values` too. The row kernel of [`pack_avx2`],
/// for engines that pack a row at a time in code compiled for AVX2 (where it inlines).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn pack_row_avx2<const CHECK: bool>(
    row: &[u8],
    threshold: u8,
    out: &mut [u64],
    values: &mut ByteValues,
) {
    let bias = _mm256_set1_epi8((threshold ^ 0x80) as i8);
    let (full, tail) = row.as_chunks::<64>();
    let mut acc = Acc256::new();
    for (o, c) in out.iter_mut().zip(full) {
        *o = pack64_avx2::<CHECK>(c, bias, &mut acc);
    }
    if !tail.is_empty() {
        let mut buf = [0u8; 64];
        buf[..tail.len()].copy_from_slice(tail);
        out[full.len()] = pack64_avx2::<CHECK>(&buf, bias, &mut acc);
    }
    if CHECK {
        acc.reduce(values);
    }
}

/// 64 bytes from one word (`s` in every byte for a set bit, `e` for a clear one), 32 per
/// step: the word is broadcast to every 64-bit lane once, and each byte of it copied to
/// the 8 bytes it describes (`vpshufb` within each 128-bit lane, which holds the whole
/// word), which test their own bit. Also the unpacking of the one-step passes' AVX2 turn
/// (`algo::morph::turn`), where it inlines.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn unpack64_avx2(w: u64, s: __m256i, e: __m256i, out: &mut [u8; 64]) {
    let sel = _mm256_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
    #[rustfmt::skip]
    let spread = [
        _mm256_setr_epi8(
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
            2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
        ),
        _mm256_setr_epi8(
            4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5,
            6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7,
        ),
    ];
    let x = _mm256_set1_epi64x(w as i64);
    for (c, &spread) in out.as_chunks_mut::<32>().0.iter_mut().zip(&spread) {
        let x = _mm256_shuffle_epi8(x, spread);
        let m = _mm256_cmpeq_epi8(_mm256_and_si256(x, sel), sel);
        let v = _mm256_blendv_epi8(e, s, m);
        // SAFETY: `c` is a mutable reference to 32 bytes; the store is unaligned.
        unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), v) };
    }
}

/// See [`super::unpack`].
///
/// # Safety
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn unpack_avx2(words: &[u64], rows: Rows, set: u8, empty: u8, out: &mut [u8]) {
    for y in 0..rows.height {
        unpack_row_avx2(row_words(words, rows, y), set, empty, rows.row_mut(out, y));
    }
}

/// Writes the `out.len()` cells of one packed row (`words`, at least `out.len().div_ceil(64)`
/// of them) into `out`: `set` for a set bit, `empty` for a clear one. The row kernel of
/// [`unpack_avx2`], for engines that unpack a row at a time in code compiled for AVX2
/// (where it inlines).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn unpack_row_avx2(words: &[u64], set: u8, empty: u8, out: &mut [u8]) {
    let (s, e) = (_mm256_set1_epi8(set as i8), _mm256_set1_epi8(empty as i8));
    let (full, tail) = out.as_chunks_mut::<64>();
    let n = full.len();
    for (c, &w) in full.iter_mut().zip(words) {
        unpack64_avx2(w, s, e, c);
    }
    if !tail.is_empty() {
        let mut buf = [0u8; 64];
        unpack64_avx2(words[n], s, e, &mut buf);
        let len = tail.len();
        tail.copy_from_slice(&buf[..len]);
    }
}

// ---------------------------------------------------------------------------------------------
// AVX-512 (F + BW)

/// See [`super::pack`]: one unsigned compare of 64 bytes gives the word as a mask register.
/// The tail of a row is read with a masked load, which touches only the row's own bytes.
///
/// # Safety
/// The CPU must have AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn pack_avx512<const CHECK: bool>(
    src: &[u8],
    rows: Rows,
    threshold: u8,
    words: &mut [u64],
    values: &mut ByteValues,
) {
    for y in 0..rows.height {
        let out = row_words_mut(words, rows, y);
        pack_row_avx512::<CHECK>(rows.row(src, y), threshold, out, values);
    }
}

/// Packs one row (`row`, every byte a cell) into `out` (at least `row.len().div_ceil(64)`
/// words, those overwritten): a bit is set where its byte is greater than `threshold`; when
/// `CHECK`, the bytes are folded into `values` too. The row kernel of [`pack_avx512`], for
/// engines that pack a row at a time in code compiled for AVX-512 (where it inlines).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn pack_row_avx512<const CHECK: bool>(
    row: &[u8],
    threshold: u8,
    out: &mut [u64],
    values: &mut ByteValues,
) {
    let t = _mm512_set1_epi8(threshold as i8);
    let (full, tail) = row.as_chunks::<64>();
    let mut acc = Acc512::new();
    for (o, c) in out.iter_mut().zip(full) {
        // SAFETY: `c` is a reference to 64 bytes; the load is unaligned.
        let v = unsafe { _mm512_loadu_si512(c.as_ptr().cast()) };
        *o = _mm512_cmpgt_epu8_mask(v, t);
        if CHECK {
            acc.fold(v, threshold, *o);
        }
    }
    if !tail.is_empty() {
        // tail.len() < 64, so the shift does not overflow.
        let mask = (1u64 << tail.len()) - 1;
        // SAFETY: the mask selects the first `tail.len()` bytes, all inside `tail`;
        // masked-off bytes are not read (AVX-512 masked loads suppress faults) and are
        // zero in `v` (which changes no fold).
        let v = unsafe { _mm512_maskz_loadu_epi8(mask, tail.as_ptr().cast()) };
        out[full.len()] = _mm512_cmpgt_epu8_mask(v, t);
        if CHECK {
            acc.fold(v, threshold, out[full.len()]);
        }
    }
    if CHECK {
        acc.reduce(values);
    }
}

/// See [`super::unpack`]: one masked blend of 64 bytes per word; the tail of a row is written
/// with a masked store, which touches only the row's own bytes.
///
/// # Safety
/// The CPU must have AVX-512 F and BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn unpack_avx512(words: &[u64], rows: Rows, set: u8, empty: u8, out: &mut [u8]) {
    for y in 0..rows.height {
        unpack_row_avx512(row_words(words, rows, y), set, empty, rows.row_mut(out, y));
    }
}

/// Writes the `out.len()` cells of one packed row (`words`, at least `out.len().div_ceil(64)`
/// of them) into `out`: `set` for a set bit, `empty` for a clear one. The row kernel of
/// [`unpack_avx512`], for engines that unpack a row at a time in code compiled for AVX-512
/// (where it inlines).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn unpack_row_avx512(words: &[u64], set: u8, empty: u8, out: &mut [u8]) {
    let (s, e) = (_mm512_set1_epi8(set as i8), _mm512_set1_epi8(empty as i8));
    let (full, tail) = out.as_chunks_mut::<64>();
    let n = full.len();
    for (c, &w) in full.iter_mut().zip(words) {
        let v = _mm512_mask_blend_epi8(w, e, s);
        // SAFETY: `c` is a mutable reference to 64 bytes; the store is unaligned.
        unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), v) };
    }
    if !tail.is_empty() {
        let mask = (1u64 << tail.len()) - 1; // tail.len() < 64
        let v = _mm512_mask_blend_epi8(words[n], e, s);
        // SAFETY: the mask selects the first `tail.len()` bytes, all inside `tail`; the
        // other bytes are not written (masked stores suppress faults).
        unsafe { _mm512_mask_storeu_epi8(tail.as_mut_ptr().cast(), mask, v) };
    }
}
