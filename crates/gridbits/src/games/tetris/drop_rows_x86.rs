//! The straight drops of one orientation on SSE2 (every x86-64 CPU): the column heights one
//! byte each in one 128-bit register (matrices up to 16 wide), a byte shift, a saturating
//! subtract and a byte maximum per run of the piece. The same arithmetic as the portable
//! byte lanes of [`drop_rows`](super::drop_rows) (there with a bias and a SWAR
//! maximum of about nine instructions a word), in one instruction each.
//!
//! Every function here is `#[inline]`: SSE2 is in every x86-64 target, so they inline into
//! the straight drops, where a call would pass each register through the stack (the
//! target-feature ABI) and wait on the store (9% of the hard-drop step, measured).

use std::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cvtsi128_si32, _mm_cvtsi128_si64, _mm_max_epu8,
    _mm_or_si128, _mm_set1_epi8, _mm_set_epi64x, _mm_srli_si128, _mm_sub_epi8, _mm_subs_epu8,
};

/// The widest matrix this module takes.
pub(super) const MAX_WIDTH: usize = 16;

/// The column heights (cells from the floor to the highest filled one, at most 64) in byte
/// `x`, 0 past the matrix.
///
/// The caller checked `W <= MAX_WIDTH` and that the CPU runs SSE2
/// ([`crate::cpu::has`]); every x86-64 CPU does.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn heights<const W: usize>(columns: &[u64; W]) -> __m128i {
    let (mut lo, mut hi) = (0u64, 0u64);
    for (x, c) in columns.iter().enumerate().take(MAX_WIDTH) {
        let h = u64::from(64 - c.leading_zeros());
        if x < 8 {
            lo |= h << (8 * x);
        } else {
            hi |= h << (8 * (x - 8));
        }
    }
    _mm_set_epi64x(hi as i64, lo as i64)
}

/// Byte `x` takes byte `x + k` (`k` at most 3: a run of a piece's tight box).
#[inline]
#[target_feature(enable = "sse2")]
fn down(v: __m128i, k: usize) -> __m128i {
    match k {
        0 => v,
        1 => _mm_srli_si128::<1>(v),
        2 => _mm_srli_si128::<2>(v),
        _ => _mm_srli_si128::<3>(v),
    }
}

/// The first `n` bytes all ones (`n` at most 16), the others 0.
#[inline]
#[target_feature(enable = "sse2")]
fn below(n: usize) -> __m128i {
    let ones = |b: usize| match b {
        0 => 0,
        8.. => !0u64,
        b => (1u64 << (8 * b)) - 1,
    };
    _mm_set_epi64x(ones(n.saturating_sub(8)) as i64, ones(n.min(8)) as i64)
}

/// One orientation's straight drops: for each tight column `cx < n` the resting row of the
/// tight box counted from the floor, `rest = max_k(height[cx + k] - bottoms[k], 0)`; writes
/// the landing rows from the top (`land_top - rest`) into `out[cx]` for `cx < n` and
/// [`Tops::NONE`](super::Tops::NONE) past them, and returns the highest `rest`.
///
/// `bottoms` has at most 4 runs; `n` is at most `W`, and `land_top` at least the highest
/// rest where the caller keeps the rows (it checks the returned maximum).
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn drop_rows<const W: usize>(
    heights: __m128i,
    bottoms: &[u8],
    n: usize,
    land_top: u8,
    out: &mut [u8; W],
) -> u32 {
    let mut rest = _mm_set1_epi8(0);
    for (k, &b) in bottoms.iter().enumerate() {
        let col = _mm_subs_epu8(down(heights, k), _mm_set1_epi8(b as i8));
        rest = _mm_max_epu8(rest, col);
    }
    let valid = below(n.min(MAX_WIDTH));
    let rest = _mm_and_si128(rest, valid);
    let mut m = _mm_max_epu8(rest, _mm_srli_si128::<8>(rest));
    m = _mm_max_epu8(m, _mm_srli_si128::<4>(m));
    m = _mm_max_epu8(m, _mm_srli_si128::<2>(m));
    m = _mm_max_epu8(m, _mm_srli_si128::<1>(m));
    let high = (_mm_cvtsi128_si32(m) & 0xFF) as u32;
    // Past `n`: all ones (NONE) whatever the subtraction left there.
    let none = _mm_set1_epi8(-1);
    let land = _mm_or_si128(
        _mm_sub_epi8(_mm_set1_epi8(land_top as i8), rest),
        _mm_andnot_si128(valid, none),
    );
    let lo = _mm_cvtsi128_si64(land) as u64;
    let hi = _mm_cvtsi128_si64(_mm_srli_si128::<8>(land)) as u64;
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&lo.to_le_bytes());
    bytes[8..].copy_from_slice(&hi.to_le_bytes());
    let w = W.min(MAX_WIDTH);
    out[..w].copy_from_slice(&bytes[..w]);
    high
}
