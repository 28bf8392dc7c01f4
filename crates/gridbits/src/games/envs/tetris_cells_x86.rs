//! Bit planes of the Tetris matrix (its cells, the lock planes) as bytes on SSE2 (every
//! x86-64 CPU), planes up to 16 wide:
//! the column words transposed once into eight vectors of byte lanes (vector `b`, byte `x`:
//! bits `8b .. 8b + 8` of column `x`, by four rounds of unpacks), then each row one shift,
//! one mask and one 16-byte store. No memset and no stack height: empty rows come out zero
//! by the same rule. The portable form and the rule are in
//! [`tetris_cells`](super::tetris_cells).

use std::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cvtsi32_si128, _mm_loadl_epi64, _mm_set1_epi8, _mm_setzero_si128,
    _mm_srl_epi64, _mm_srli_epi64, _mm_storeu_si128, _mm_unpackhi_epi16, _mm_unpackhi_epi32,
    _mm_unpackhi_epi64, _mm_unpacklo_epi16, _mm_unpacklo_epi32, _mm_unpacklo_epi64,
    _mm_unpacklo_epi8,
};

/// The widest matrix this module takes (one 16-byte vector a row).
pub(super) const MAX_WIDTH: usize = 16;

/// The low eight bytes of column `x` (0 past the matrix).
#[inline]
#[target_feature(enable = "sse2")]
fn column<const W: usize>(cols: &[u64; W], x: usize) -> __m128i {
    match cols.get(x) {
        // SAFETY: `c` is a reference to 8 bytes; the load is unaligned.
        Some(c) => unsafe { _mm_loadl_epi64((c as *const u64).cast()) },
        None => _mm_setzero_si128(),
    }
}

/// The byte lanes: vector `b`, byte `x` holds bits `8b .. 8b + 8` of column `x` (0 past
/// the matrix). A 16 x 8 byte transposition: bytes, then pairs, quads and eights of
/// columns interleaved.
#[inline]
#[target_feature(enable = "sse2")]
fn lanes<const W: usize>(cols: &[u64; W]) -> [__m128i; 8] {
    // Byte pairs (columns 2k, 2k + 1), for b = 0 .. 8.
    let mut b = [_mm_setzero_si128(); 8];
    for (k, o) in b.iter_mut().enumerate() {
        *o = _mm_unpacklo_epi8(column(cols, 2 * k), column(cols, 2 * k + 1));
    }
    // Four columns a 32-bit unit: b = 0 .. 4 (`lo`), 4 .. 8 (`hi`).
    let (mut lo, mut hi) = ([_mm_setzero_si128(); 4], [_mm_setzero_si128(); 4]);
    for m in 0..4 {
        lo[m] = _mm_unpacklo_epi16(b[2 * m], b[2 * m + 1]);
        hi[m] = _mm_unpackhi_epi16(b[2 * m], b[2 * m + 1]);
    }
    // Eight columns a 64-bit unit: b = 0 1, 2 3, 4 5, 6 7 (columns 0 .. 8, then 8 .. 16).
    let mut d = [[_mm_setzero_si128(); 4]; 2];
    for (n, d) in d.iter_mut().enumerate() {
        *d = [
            _mm_unpacklo_epi32(lo[2 * n], lo[2 * n + 1]),
            _mm_unpackhi_epi32(lo[2 * n], lo[2 * n + 1]),
            _mm_unpacklo_epi32(hi[2 * n], hi[2 * n + 1]),
            _mm_unpackhi_epi32(hi[2 * n], hi[2 * n + 1]),
        ];
    }
    let mut out = [_mm_setzero_si128(); 8];
    for (q, o) in out.chunks_exact_mut(2).enumerate() {
        o[0] = _mm_unpacklo_epi64(d[0][q], d[1][q]);
        o[1] = _mm_unpackhi_epi64(d[0][q], d[1][q]);
    }
    out
}

/// Stores the first `W` bytes of `v` as row `i` of `board`: one 16-byte store for a row
/// below `direct` (the rows with 16 bytes of `board` from their start), else through a
/// buffer (the last rows).
#[inline]
#[target_feature(enable = "sse2")]
fn store_row<const W: usize>(board: &mut [u8], i: usize, direct: usize, v: __m128i) {
    if i < direct {
        let dst = &mut board[i * W..i * W + 16];
        // SAFETY: `dst` is 16 bytes of `board`; the store is unaligned.
        unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), v) };
    } else {
        let mut buf = [0u8; 16];
        // SAFETY: `buf` is 16 bytes; the store is unaligned.
        unsafe { _mm_storeu_si128(buf.as_mut_ptr().cast(), v) };
        board[i * W..i * W + W].copy_from_slice(&buf[..W]);
    }
}

/// Writes every row of the plane whose columns are `cols` (`h` rows, at most 64) into the
/// first `h * W` bytes of `out`, from the top, 1 = set, bit `y` of a column row `y` from the
/// top when `FROM_TOP`, else from the floor (the rule of
/// [`write_cells`](super::tetris_cells::write_cells)); the bytes of `out` past the plane
/// may be overwritten.
///
/// The caller checked `W <= MAX_WIDTH` and that the CPU runs SSE2 ([`crate::cpu::has`]);
/// every x86-64 CPU does.
#[target_feature(enable = "sse2")]
pub(super) fn write_cells<const W: usize, const FROM_TOP: bool>(
    cols: &[u64; W],
    h: usize,
    out: &mut [u8],
) {
    let board = out;
    let lanes = lanes(cols);
    let ones = _mm_set1_epi8(1);
    // Bit `y` is bit `y % 8` of the bytes of vector `y / 8`. Rows are stored from the top
    // down (the bytes a 16-byte store writes past its row are the next rows', written
    // after it, or past the plane): the rows of the partial block of `h % 8` bits one at a
    // time (first from the floor, last from the top), the whole blocks of eight with the
    // shifts known at compile time.
    // The rows that take a 16-byte store: those with 16 bytes of `out` from their start.
    let direct = board.len().checked_sub(16).map_or(0, |n| n / W + 1);
    let (blocks, part) = (h / 8, h % 8);
    let row = |y: usize| {
        _mm_and_si128(
            _mm_srl_epi64(lanes[y / 8], _mm_cvtsi32_si128((y % 8) as i32)),
            ones,
        )
    };
    let mut i = 0;
    if !FROM_TOP {
        for y in (8 * blocks..h).rev() {
            store_row::<W>(board, i, direct, row(y));
            i += 1;
        }
    }
    for b in 0..blocks {
        let v = lanes[if FROM_TOP { b } else { blocks - 1 - b }];
        let mut rows: [__m128i; 8] = [
            v,
            _mm_srli_epi64::<1>(v),
            _mm_srli_epi64::<2>(v),
            _mm_srli_epi64::<3>(v),
            _mm_srli_epi64::<4>(v),
            _mm_srli_epi64::<5>(v),
            _mm_srli_epi64::<6>(v),
            _mm_srli_epi64::<7>(v),
        ];
        if !FROM_TOP {
            rows.reverse();
        }
        // One bounds check a block where all its rows take a 16-byte store.
        if i + 8 <= direct {
            let at = board[i * W..].as_mut_ptr();
            for (k, &r) in rows.iter().enumerate() {
                // SAFETY: row `i + k` is below `direct`: bytes `(i + k) * W .. (i + k) * W +
                // 16` are inside `board`; the store is unaligned.
                unsafe { _mm_storeu_si128(at.add(k * W).cast(), _mm_and_si128(r, ones)) };
            }
        } else {
            for (k, &r) in rows.iter().enumerate() {
                store_row::<W>(board, i + k, direct, _mm_and_si128(r, ones));
            }
        }
        i += 8;
    }
    if FROM_TOP {
        for y in 8 * blocks..8 * blocks + part {
            store_row::<W>(board, i, direct, row(y));
            i += 1;
        }
    }
}
