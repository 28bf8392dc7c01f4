//! [`Field::from_codes`] and [`Field::write_codes`] with AVX2 (detected at run time by the
//! callers in `codes.rs`).
//!
//! In: the `rows * 6` bytes are loaded as five 16-byte chunks (the last one ends at the last
//! byte, so nothing past the field is read), each broadcast to both halves of a 256-bit
//! register; three registers of 32 bytes are gathered from them by `vpshufb`, holding the
//! cells column-major in 16-byte lanes, lowest row first, zeros above the field: the byte
//! layout of the planes. Comparing each register with a code and taking its byte mask gives
//! 32 bits of that code's plane (two columns), with no bit shuffling at all.
//!
//! Out: the reverse. Each code's plane is turned back into bytes (one mask bit per byte),
//! the codes summed bit by bit, and the column-major bytes gathered back into row order by
//! `vpshufb` from the three registers and their half-swapped copies.

use super::{Field, Rules, COLORS, COLUMNS, GARBAGE};
use std::arch::x86_64::*;

/// `vpshufb` indices of the gather into column-major order: `[rules][register][chunk]`.
/// Byte `p` of register `r` is lane row `p % 16` of column `2r + p / 16`.
static GATHER: [[[[u8; 32]; 5]; 3]; 2] = [gather_table(12), gather_table(13)];

/// `vpshufb` indices of the gather back into row order: `[rules][output][source]`; sources
/// 0-2 are the column-major registers (columns `2s`, `2s + 1`), 3-5 the same with their
/// halves swapped (columns `2s + 1`, `2s`).
static SCATTER: [[[[u8; 32]; 6]; 3]; 2] = [scatter_table(12), scatter_table(13)];

/// Start of each of the five 16-byte input chunks of a field of `len` bytes.
const fn chunk_starts(len: usize) -> [usize; 5] {
    [0, 16, 32, 48, len - 16]
}

/// Start of each of the three 32-byte output blocks of a field of `len` bytes.
const fn block_starts(len: usize) -> [usize; 3] {
    [0, 32, len - 32]
}

const fn gather_table(rows: usize) -> [[[u8; 32]; 5]; 3] {
    let len = rows * COLUMNS;
    let starts = chunk_starts(len);
    let mut t = [[[0x80u8; 32]; 5]; 3];
    let mut r = 0;
    while r < 3 {
        let mut k = 0;
        while k < 5 {
            let mut p = 0;
            while p < 32 {
                let (x, lane_row) = (2 * r + p / 16, p % 16);
                if lane_row < rows {
                    let i = COLUMNS * (rows - 1 - lane_row) + x;
                    if i >= starts[k] && i < starts[k] + 16 {
                        t[r][k][p] = (i - starts[k]) as u8;
                    }
                }
                p += 1;
            }
            k += 1;
        }
        r += 1;
    }
    t
}

const fn scatter_table(rows: usize) -> [[[u8; 32]; 6]; 3] {
    let len = rows * COLUMNS;
    let starts = block_starts(len);
    let mut t = [[[0x80u8; 32]; 6]; 3];
    let mut j = 0;
    while j < 3 {
        let mut s = 0;
        while s < 6 {
            let mut p = 0;
            while p < 32 {
                let i = starts[j] + p;
                let (x, lane_row) = (i % COLUMNS, rows - 1 - i / COLUMNS);
                let half = p / 16;
                let column = if s < 3 {
                    2 * s + half
                } else {
                    2 * (s - 3) + 1 - half
                };
                if column == x {
                    t[j][s][p] = lane_row as u8;
                }
                p += 1;
            }
            s += 1;
        }
        j += 1;
    }
    t
}

fn table_index(rules: Rules) -> usize {
    match rules {
        Rules::SmashTheCode => 0,
        Rules::Tsu => 1,
    }
}

/// The field of `codes` (`rules.rows() * 6` bytes), or `None` when a byte is 7 or more.
///
/// # Safety
///
/// The CPU must have AVX2, and `codes.len()` must be `rules.rows() * 6`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn from_codes(codes: &[u8], rules: Rules) -> Option<Field> {
    let len = rules.rows() * COLUMNS;
    debug_assert_eq!(codes.len(), len);
    let starts = chunk_starts(len);
    let mut chunks = [_mm256_setzero_si256(); 5];
    let mut max = _mm_setzero_si128();
    for (c, &s) in chunks.iter_mut().zip(&starts) {
        // SAFETY: `s + 16 <= len == codes.len()` for every chunk start (len is 72 or 78).
        let v = unsafe { _mm_loadu_si128(codes.as_ptr().add(s).cast()) };
        max = _mm_max_epu8(max, v);
        *c = _mm256_broadcastsi128_si256(v);
    }
    let six = _mm_set1_epi8(6);
    if _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(max, six), six)) != 0xffff {
        return None;
    }
    let table = &GATHER[table_index(rules)];
    let mut cols = [_mm256_setzero_si256(); 3];
    for (col, idx) in cols.iter_mut().zip(table) {
        for (c, i) in chunks.iter().zip(idx) {
            // SAFETY: `i` is 32 bytes.
            let i = unsafe { _mm256_loadu_si256(i.as_ptr().cast()) };
            *col = _mm256_or_si256(*col, _mm256_shuffle_epi8(*c, i));
        }
    }
    let mut planes = [0u128; COLORS + 1];
    for (i, plane) in planes.iter_mut().enumerate() {
        // Colour c is code c + 1, garbage (plane 5) code 6.
        let k = _mm256_set1_epi8(if i == GARBAGE { 6 } else { i as i8 + 1 });
        for (r, &c) in cols.iter().enumerate() {
            let m = _mm256_movemask_epi8(_mm256_cmpeq_epi8(c, k)) as u32;
            *plane |= u128::from(m) << (32 * r);
        }
    }
    let mut f = Field::new(rules);
    f.planes = planes;
    Some(f)
}

/// 32 bytes, each `0xff` where its bit of `m` is set.
#[target_feature(enable = "avx2")]
#[inline]
fn expand(m: u32) -> __m256i {
    let v = _mm256_set1_epi32(m as i32);
    let spread = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3,
        3, 3,
    );
    let bits = _mm256_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
    _mm256_cmpeq_epi8(_mm256_and_si256(_mm256_shuffle_epi8(v, spread), bits), bits)
}

/// Writes the codes of `f` into `out` (`rows * 6` bytes).
///
/// # Safety
///
/// The CPU must have AVX2, and `out.len()` must be `f.rows() * 6`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn write_codes(f: &Field, out: &mut [u8]) {
    let len = f.rows() * COLUMNS;
    debug_assert_eq!(out.len(), len);
    let p = &f.planes;
    // The three bits of the codes: colour c is code c + 1, garbage 6.
    let bit_planes = [
        p[0] | p[2] | p[4],
        p[1] | p[2] | p[GARBAGE],
        p[3] | p[4] | p[GARBAGE],
    ];
    let mut cols = [_mm256_setzero_si256(); 6];
    for r in 0..3 {
        let mut v = _mm256_setzero_si256();
        for (b, &plane) in bit_planes.iter().enumerate() {
            let e = expand((plane >> (32 * r)) as u32);
            v = _mm256_or_si256(v, _mm256_and_si256(e, _mm256_set1_epi8(1 << b)));
        }
        cols[r] = v;
        cols[r + 3] = _mm256_permute2x128_si256(v, v, 0x01);
    }
    let table = &SCATTER[table_index(f.rules)];
    for (&start, idx) in block_starts(len).iter().zip(table) {
        let mut v = _mm256_setzero_si256();
        for (c, i) in cols.iter().zip(idx) {
            // SAFETY: `i` is 32 bytes.
            let i = unsafe { _mm256_loadu_si256(i.as_ptr().cast()) };
            v = _mm256_or_si256(v, _mm256_shuffle_epi8(*c, i));
        }
        // SAFETY: `start + 32 <= len == out.len()` for every block (len is 72 or 78); the
        // blocks overlap and write equal bytes there.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(start).cast(), v) };
    }
}
