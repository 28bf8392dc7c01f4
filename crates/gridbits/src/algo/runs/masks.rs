//! Bit masks of 64 cells from comparisons of values: a cell equal to another row's cell (or
//! its own row's) at an offset of -1, 0 or +1, or to one value. Bytes (`u8`, `i8`) are
//! compared 16 at a time with SSE2 (part of every x86-64 CPU); other types cell by cell in
//! loops the compiler vectorizes. The multi-class labeller and the perimeter pass share them.

/// Bit `i` set where `a[i] == b[i]` (`a` and `b` of one length, at most 64).
#[inline(always)]
fn eq_mask<T: Copy + PartialEq + 'static>(a: &[T], b: &[T]) -> u64 {
    if let (Ok(a), Ok(b)) = (<&[T; 64]>::try_from(a), <&[T; 64]>::try_from(b)) {
        #[cfg(target_arch = "x86_64")]
        if let (Some(a), Some(b)) = (as_bytes(a), as_bytes(b)) {
            // SAFETY: SSE2, the only feature `eq64` is compiled for, is part of every
            // x86-64 CPU.
            return unsafe { sse2::eq64(a, b) };
        }
        return eq64_portable(a, b);
    }
    let mut m = 0u64;
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        m |= u64::from(x == y) << i;
    }
    m
}

/// [`eq_mask`] of 64 values, cell by cell (vector code where the compiler finds it).
#[inline(always)]
fn eq64_portable<T: Copy + PartialEq>(a: &[T; 64], b: &[T; 64]) -> u64 {
    let mut m = 0u64;
    for i in 0..64 {
        m |= u64::from(a[i] == b[i]) << i;
    }
    m
}

/// Bit `i` set where `a[i] == v` (`a` at most 64 values).
#[inline(always)]
pub(crate) fn value_mask<T: Copy + PartialEq + 'static>(a: &[T], v: T) -> u64 {
    if let Ok(a) = <&[T; 64]>::try_from(a) {
        #[cfg(target_arch = "x86_64")]
        if let (Some(a), Some(v)) = (as_bytes(a), as_bytes(&[v; 64])) {
            // SAFETY: SSE2, the only feature `eq64` is compiled for, is part of every
            // x86-64 CPU.
            return unsafe { sse2::eq64(a, v) };
        }
        return eq64_portable(a, &[v; 64]);
    }
    let mut m = 0u64;
    for (i, &x) in a.iter().enumerate() {
        m |= u64::from(x == v) << i;
    }
    m
}

/// The bytes of 64 values of a byte type (`u8`, `i8`: equal exactly when their bytes are),
/// `None` for another type.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn as_bytes<T: 'static>(a: &[T; 64]) -> Option<&[u8; 64]> {
    use std::any::TypeId;
    let t = TypeId::of::<T>();
    if t == TypeId::of::<u8>() || t == TypeId::of::<i8>() {
        // SAFETY: `T` is `u8` or `i8` (checked just above): the same size and alignment as
        // `u8`, every bit pattern valid, so `[T; 64]` reads as `[u8; 64]`.
        Some(unsafe { &*(a as *const [T; 64]).cast::<[u8; 64]>() })
    } else {
        None
    }
}

/// Byte compares with SSE2, part of every x86-64 CPU.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::*;

    /// Bit `i` set where `a[i] == b[i]`: four compares of 16 bytes and their sign masks.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) fn eq64(a: &[u8; 64], b: &[u8; 64]) -> u64 {
        let mut m = 0u64;
        for (i, (x, y)) in a
            .as_chunks::<16>()
            .0
            .iter()
            .zip(b.as_chunks::<16>().0)
            .enumerate()
        {
            // SAFETY: `x` and `y` are references to 16 bytes each; the loads are unaligned.
            let (x, y) = unsafe {
                (
                    _mm_loadu_si128(x.as_ptr().cast()),
                    _mm_loadu_si128(y.as_ptr().cast()),
                )
            };
            m |= u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) as u16) << (16 * i);
        }
        m
    }
}

/// Bit `i` set where `row[x0 + i] == other[x0 + i + d]` for `i < n`, `d` in `-1..=1`; 0 where
/// `x0 + i + d` is off the row.
#[inline(always)]
pub(crate) fn shifted_eq<T: Copy + PartialEq + 'static>(
    row: &[T],
    other: &[T],
    x0: usize,
    n: usize,
    d: isize,
) -> u64 {
    let w = row.len();
    // Cells i with 0 <= x0 + i + d < w.
    let lo = if d < 0 && x0 == 0 { 1 } else { 0 };
    let hi = if d > 0 && x0 + n == w { n - 1 } else { n };
    if lo >= hi {
        return 0;
    }
    let a = &row[x0 + lo..x0 + hi];
    let s = (x0 + lo) as isize + d;
    let b = &other[s as usize..s as usize + (hi - lo)];
    eq_mask(a, b) << lo
}

/// Bits `0..=p` of a word.
#[inline(always)]
pub(crate) fn upto(p: u32) -> u64 {
    u64::MAX >> (63 - p)
}

/// Bits `0..n` of a word (`n` at most 64).
#[inline(always)]
pub(crate) fn low(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}
