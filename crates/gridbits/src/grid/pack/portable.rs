//! The portable kernels: SWAR, eight bytes per `u64` step.

use super::{row_words, row_words_mut, ByteValues, Rows};

/// The low seven bits of every byte.
const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The high bit of every byte.
const HIGH: u64 = 0x8080_8080_8080_8080;
/// Moves bit 0 of byte `i` to bit `56 + i` (no two partial products overlap, so no carry
/// reaches the top byte).
const GATHER: u64 = 0x0102_0408_1020_4080;

/// Eight bits, bit `i` set where byte `i` of `x` (little-endian) is greater than `t`, with
/// `k` = `255 - t` in every byte: byte `i` > `t` exactly when `x_i + k_i` carries out of the
/// byte. The carry out of bit 7 is the majority of bit 7 of `x_i`, of `k_i` and of the carry
/// into bit 7, which the sum of the low seven bits gives without crossing bytes.
#[inline(always)]
fn gt_bits(x: u64, k: u64) -> u64 {
    let low = (x & LOW7) + (k & LOW7);
    let carry = ((x & k) | ((x | k) & low)) & HIGH;
    (carry >> 7).wrapping_mul(GATHER) >> 56
}

/// One word from 64 bytes, folding them into `values` when `CHECK`.
#[inline(always)]
fn pack64<const CHECK: bool>(bytes: &[u8; 64], k: u64, values: &mut ByteValues) -> u64 {
    let mut w = 0;
    for (i, b) in bytes.as_chunks::<8>().0.iter().enumerate() {
        let x = u64::from_le_bytes(*b);
        if CHECK {
            values.fold_word(x);
        }
        w |= gt_bits(x, k) << (8 * i);
    }
    w
}

/// Packs one row (`out.len() == row.len().div_ceil(64)`).
#[inline]
fn pack_row<const CHECK: bool>(row: &[u8], out: &mut [u64], k: u64, values: &mut ByteValues) {
    let (full, tail) = row.as_chunks::<64>();
    for (o, c) in out.iter_mut().zip(full) {
        *o = pack64::<CHECK>(c, k, values);
    }
    if !tail.is_empty() {
        // Zero bytes are never greater than the threshold (and change no fold).
        let mut buf = [0u8; 64];
        buf[..tail.len()].copy_from_slice(tail);
        out[full.len()] = pack64::<CHECK>(&buf, k, values);
    }
}

/// See [`super::pack`].
pub(super) fn pack<const CHECK: bool>(
    src: &[u8],
    rows: Rows,
    threshold: u8,
    words: &mut [u64],
    values: &mut ByteValues,
) {
    let k = u64::from_ne_bytes([255 - threshold; 8]);
    for y in 0..rows.height {
        pack_row::<CHECK>(rows.row(src, y), row_words_mut(words, rows, y), k, values);
    }
}

/// `SPREAD[b]` has byte `i` all ones where bit `i` of `b` is set.
static SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 != 0 {
                t[b] |= 0xff << (8 * i);
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// 64 bytes from one word: `s` (every byte `set`) where a bit is set, else `e`.
#[inline(always)]
fn unpack64(w: u64, s: u64, e: u64, out: &mut [u8; 64]) {
    for (i, o) in out.as_chunks_mut::<8>().0.iter_mut().enumerate() {
        let m = SPREAD[usize::from((w >> (8 * i)) as u8)];
        *o = ((s & m) | (e & !m)).to_le_bytes();
    }
}

/// See [`super::unpack`].
pub(super) fn unpack(words: &[u64], rows: Rows, set: u8, empty: u8, out: &mut [u8]) {
    let s = u64::from_ne_bytes([set; 8]);
    let e = u64::from_ne_bytes([empty; 8]);
    for y in 0..rows.height {
        let src = row_words(words, rows, y);
        let (full, tail) = rows.row_mut(out, y).as_chunks_mut::<64>();
        let n = full.len();
        for (c, &w) in full.iter_mut().zip(src) {
            unpack64(w, s, e, c);
        }
        if !tail.is_empty() {
            let mut buf = [0u8; 64];
            unpack64(src[n], s, e, &mut buf);
            tail.copy_from_slice(&buf[..tail.len()]);
        }
    }
}
