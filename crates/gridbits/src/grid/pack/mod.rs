//! Byte images to bits and back at memory speed: the kernels behind
//! [`BitGrid::from_bytes`], [`BitGrid::write_bytes`] and their `_with` forms.
//!
//! The kernel table is in the documentation of [`ByteKernel`].

#[cfg(doc)]
use super::BitGrid;

mod packbits;
mod portable;
mod values;
#[cfg(target_arch = "x86_64")]
mod x86;
pub use values::ByteValues;
#[cfg(target_arch = "x86_64")]
pub(crate) use values::{Acc256, Acc512};
#[cfg(target_arch = "x86_64")]
pub(crate) use x86::{
    pack64_avx2, pack_row_avx2, pack_row_avx512, unpack64_avx2, unpack_row_avx2, unpack_row_avx512,
};

#[cfg(target_arch = "x86_64")]
use crate::cpu::has;
use crate::cpu::Features;

/// A kernel for byte images.
///
/// Four kernels do the same work; [`ByteKernel::best`] picks the fastest one this CPU runs,
/// detected once at run time ([`crate::cpu`], which also forces a lower level):
///
/// | kernel | packs 64 pixels (bytes to one word) with | unpacks 64 pixels with |
/// |---|---|---|
/// | [`ByteKernel::Avx512`] (AVX-512 F + BW) | one unsigned byte compare into a mask register, which *is* the word | one masked byte blend per 64 bytes |
/// | [`ByteKernel::Avx2`] | two signed compares (after flipping the sign bit) and two `movemask`s | a byte shuffle, a bit test and a blend per 32 bytes |
/// | [`ByteKernel::Sse2`] (every x86-64 CPU) | four compares and `movemask`s | unpacks, a bit test and a select per 16 bytes |
/// | [`ByteKernel::Portable`] (any CPU) | SWAR: eight bytes per `u64` step, a carry trick for `>` and one multiply to gather the bits | a 256-entry table of byte masks, eight bytes per step |
///
/// Row tails (widths that are not a multiple of 64) go through a zeroed 64-byte buffer, or
/// with AVX-512 through masked loads and stores that never touch memory past the row, so any
/// width, row stride and start address works. All kernels give identical results; the
/// property tests compare each against the per-pixel definition.
///
/// [`BitGrid::from_bytes`] and [`BitGrid::write_bytes`] always use [`ByteKernel::best`]; the
/// `_with` forms ([`BitGrid::from_bytes_with`], [`BitGrid::write_bytes_with`]) take a kernel,
/// for tests and benchmarks. A kernel this CPU lacks is never run: the portable one runs
/// instead.
///
/// ```
/// use gridbits::grid::ByteKernel;
/// use gridbits::BitGrid;
/// let pixels = [0u8, 9, 200, 3];
/// for k in ByteKernel::ALL.into_iter().filter(|k| k.is_available()) {
///     let g = BitGrid::from_bytes_with(k, &pixels, 2, 2, 2, 5).unwrap();
///     assert_eq!(g.to_string(), ".#\n#.\n");
/// }
/// assert!(ByteKernel::best().is_available());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ByteKernel {
    /// Plain Rust, any CPU: eight bytes per `u64` step (SWAR).
    Portable,
    /// x86-64 SSE2 (every x86-64 CPU): 16 bytes per step.
    Sse2,
    /// x86-64 AVX2: 32 bytes per step.
    Avx2,
    /// x86-64 AVX-512 F and BW: 64 bytes, one word, per step.
    Avx512,
}

impl ByteKernel {
    /// Every kernel, slowest first.
    pub const ALL: [ByteKernel; 4] = [
        ByteKernel::Portable,
        ByteKernel::Sse2,
        ByteKernel::Avx2,
        ByteKernel::Avx512,
    ];

    /// The fastest kernel this CPU runs (under the level [`crate::cpu`] allows now).
    #[inline]
    pub fn best() -> ByteKernel {
        let f = crate::cpu::features();
        if f.contains(Features::AVX512F | Features::AVX512BW) {
            ByteKernel::Avx512
        } else if f.contains(Features::AVX2) {
            ByteKernel::Avx2
        } else if f.contains(Features::SSE2) {
            ByteKernel::Sse2
        } else {
            ByteKernel::Portable
        }
    }

    /// Whether this CPU runs the kernel (`Portable` always does).
    pub fn is_available(self) -> bool {
        match self {
            ByteKernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            ByteKernel::Sse2 => has(Features::SSE2),
            #[cfg(target_arch = "x86_64")]
            ByteKernel::Avx2 => has(Features::AVX2),
            #[cfg(target_arch = "x86_64")]
            ByteKernel::Avx512 => has(Features::AVX512F | Features::AVX512BW),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The kernel's name, as in the benchmark rows: `portable`, `sse2`, `avx2`, `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            ByteKernel::Portable => "portable",
            ByteKernel::Sse2 => "sse2",
            ByteKernel::Avx2 => "avx2",
            ByteKernel::Avx512 => "avx512",
        }
    }

    /// `self` if this CPU runs it, else `Portable`.
    fn or_portable(self) -> ByteKernel {
        if self.is_available() {
            self
        } else {
            ByteKernel::Portable
        }
    }
}

/// Where the rows of a strided image are: `height` rows of `width` elements, row `y` starting
/// at element `y * stride`. The buffer was checked to hold them all.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rows {
    pub width: usize,
    pub height: usize,
    pub stride: usize,
}

impl Rows {
    /// Row `y` of `buf` (bounds-checked: a wrong geometry panics, it never reads out of bounds).
    #[inline]
    pub fn row<T>(self, buf: &[T], y: usize) -> &[T] {
        &buf[y * self.stride..y * self.stride + self.width]
    }

    /// Row `y` of `buf`, mutable.
    #[inline]
    pub fn row_mut<T>(self, buf: &mut [T], y: usize) -> &mut [T] {
        &mut buf[y * self.stride..y * self.stride + self.width]
    }
}

/// Packs the byte image `src` into `words` (`words_per_row = width.div_ceil(64)` words per row,
/// every word overwritten): bit `x` of a row is set where the byte is greater than
/// `threshold`. `src` must hold the rows (checked by the caller).
pub(crate) fn pack(kernel: ByteKernel, src: &[u8], rows: Rows, threshold: u8, words: &mut [u64]) {
    pack_with::<false>(
        kernel,
        src,
        rows,
        threshold,
        words,
        &mut ByteValues::default(),
    );
}

/// [`pack`], folding every byte packed into `values` ([`ByteValues`]: the two-value check)
/// in the same loop.
pub(crate) fn pack_checked(
    kernel: ByteKernel,
    src: &[u8],
    rows: Rows,
    threshold: u8,
    words: &mut [u64],
    values: &mut ByteValues,
) {
    pack_with::<true>(kernel, src, rows, threshold, words, values);
}

/// [`pack`], and [`pack_checked`] when `CHECK`.
#[inline]
fn pack_with<const CHECK: bool>(
    kernel: ByteKernel,
    src: &[u8],
    rows: Rows,
    threshold: u8,
    words: &mut [u64],
    values: &mut ByteValues,
) {
    match kernel.or_portable() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `or_portable` returned Avx512 only because the CPU has AVX-512 F and BW.
        ByteKernel::Avx512 => unsafe {
            x86::pack_avx512::<CHECK>(src, rows, threshold, words, values)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `or_portable` returned Avx2 only because the CPU has AVX2.
        ByteKernel::Avx2 => unsafe { x86::pack_avx2::<CHECK>(src, rows, threshold, words, values) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of every x86-64 CPU.
        ByteKernel::Sse2 => unsafe { x86::pack_sse2::<CHECK>(src, rows, threshold, words, values) },
        _ => portable::pack::<CHECK>(src, rows, threshold, words, values),
    }
}

/// Writes `words` (as [`pack`] lays them out) into the rows of `out`: `set` for a set bit,
/// `empty` for a clear one; bytes between rows are left as they are.
pub(crate) fn unpack(
    kernel: ByteKernel,
    words: &[u64],
    rows: Rows,
    set: u8,
    empty: u8,
    out: &mut [u8],
) {
    match kernel.or_portable() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `or_portable` returned Avx512 only because the CPU has AVX-512 F and BW.
        ByteKernel::Avx512 => unsafe { x86::unpack_avx512(words, rows, set, empty, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `or_portable` returned Avx2 only because the CPU has AVX2.
        ByteKernel::Avx2 => unsafe { x86::unpack_avx2(words, rows, set, empty, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of every x86-64 CPU.
        ByteKernel::Sse2 => unsafe { x86::unpack_sse2(words, rows, set, empty, out) },
        _ => portable::unpack(words, rows, set, empty, out),
    }
}

/// Writes the `out.len()` cells of one packed row (`words`, at least `out.len().div_ceil(64)`
/// of them) into `out`: `set` for a set bit, `empty` for a clear one.
#[inline]
pub(crate) fn unpack_row(kernel: ByteKernel, words: &[u64], set: u8, empty: u8, out: &mut [u8]) {
    let rows = Rows {
        width: out.len(),
        height: 1,
        stride: out.len(),
    };
    unpack(kernel, words, rows, set, empty, out);
}

/// Packs the bytes of one row (`row`, every byte a cell) into `words` (`row.len().div_ceil(64)`
/// of them, each overwritten; bits past the row clear): a bit is set where its byte is
/// greater than `threshold`; when `CHECK`, the bytes are folded into `values` too
/// ([`pack_checked`]).
#[inline]
pub(crate) fn pack_row_with<const CHECK: bool>(
    kernel: ByteKernel,
    row: &[u8],
    threshold: u8,
    words: &mut [u64],
    values: &mut ByteValues,
) {
    let rows = Rows {
        width: row.len(),
        height: 1,
        stride: row.len(),
    };
    pack_with::<CHECK>(kernel, row, rows, threshold, words, values);
}

/// The words of row `y` of a packed image of `rows.width` columns.
#[inline]
pub(crate) fn row_words(words: &[u64], rows: Rows, y: usize) -> &[u64] {
    let wpr = rows.width.div_ceil(64);
    &words[y * wpr..(y + 1) * wpr]
}

/// The words of row `y`, mutable.
#[inline]
pub(crate) fn row_words_mut(words: &mut [u64], rows: Rows, y: usize) -> &mut [u64] {
    let wpr = rows.width.div_ceil(64);
    &mut words[y * wpr..(y + 1) * wpr]
}
