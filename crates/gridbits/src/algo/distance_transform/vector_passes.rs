//! City-block and chessboard distances by scipy's two raster passes, vectorised across the
//! row in `i16` lanes.
//!
//! The forward pass gives each cell `f[x] = min(g[x], f[x-1] + 1)` with
//! `g[x] = min(init, u + 1)`: `init` 0 on a background cell and "far" on a set one, `u` the
//! row above's cell (city block) or the smallest of its three cells up-left, up and up-right
//! (chessboard). `g` is plain lane-wise work over contiguous cells; the dependency on the
//! left neighbour is a min-plus prefix with slope 1,
//! `f[x] = min over j <= x of (g[j] + x - j)`, done in a register by a log-step scan
//! (`v = min(v, lanes shifted by k + k)` for `k = 1, 2, 4, ...`, "far" shifted in) and the
//! carry of the previous register (`v[i] = min(v[i], c + i + 1)`, `c` its last lane). The
//! backward pass is the same mirrored, reading the forward pass's row and the row below's
//! final values, and writes each output cell once, widened to `i32` or `f32` as it stores.
//!
//! The forward values go to an `i16` scratch plane (half the bytes of the output); the
//! sums saturate at `i16::MAX` ("far"), so the lanes are exact while every distance is
//! below it: for grids whose width plus height is below [`LANE_LIMIT`] (the callers take the
//! other engines past it). The two-pass 3 x 3 chamfer transform is exact for city block
//! and chessboard (see [`chamfer`](super::chamfer)).
//!
//! Three kernels, chosen at run time through [`cpu`](crate::cpu): AVX-512 BW (32 lanes a
//! register, the initial values straight from 32 bits by a masked move), AVX2 (16 lanes),
//! and a portable one that runs the same passes cell by cell; the tests check each against
//! the per-cell reference.

use super::sweeps::Distance;
use crate::error::try_vec;
use crate::{BitGrid, SizeError};

/// "Far": no background cell reached yet. Saturating sums stay here.
const FAR: i16 = i16::MAX;

/// The lanes are exact while the grid's width plus height is below this (every city-block
/// or chessboard distance is then at most `w + h - 2 < i16::MAX`).
pub(super) const LANE_LIMIT: usize = i16::MAX as usize;

/// Cells a row is processed in: the AVX-512 register's lanes (the AVX2 kernel takes two
/// registers of 16 per step), so every kernel shares one scratch layout.
const LANES: usize = 32;

/// An output distance the kernels can widen `i16` lanes into: `i32` (scipy) or `f32`
/// (OpenCV).
pub(super) trait Widened: Distance {
    /// Whether the lanes are stored as `f32` (else as `i32`); read by the x86-64 kernels.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    const FLOAT: bool;
}

impl Widened for i32 {
    const FLOAT: bool = false;
}

impl Widened for f32 {
    const FLOAT: bool = true;
}

/// Which kernel runs the passes (the vector ones exist on x86-64 only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) enum Kernel {
    /// Cell by cell, plain Rust.
    Portable,
    /// 16 `i16` lanes a register.
    Avx2,
    /// 32 `i16` lanes a register.
    Avx512,
}

impl Kernel {
    /// The fastest kernel the CPU (and the calling thread's [`cpu`](crate::cpu) cap) allows.
    pub(super) fn best() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            use crate::cpu::{has, Features};
            if has(Features::AVX512F | Features::AVX512BW | Features::AVX2) {
                return Kernel::Avx512;
            }
            if has(Features::AVX2) {
                return Kernel::Avx2;
            }
        }
        Kernel::Portable
    }
}

/// The row layout shared by the scratch plane and the row buffers: `stride` cells a row,
/// cell `x` at `1 + x`, "far" at 0 and from `1 + w` on (the vectors at `x0 - 1`, `x0`,
/// `x0 + 1` never leave the row).
#[derive(Clone, Copy)]
struct Layout {
    w: usize,
    h: usize,
    /// `w` rounded up to whole vectors (for the x86-64 kernels).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    r: usize,
    /// Cells a row: `r + LANES`.
    stride: usize,
}

/// Writes every cell's city-block (`diagonal` false) or chessboard distance into `out`
/// (`w * h` cells on return, row-major), with `kernel`. The grid must hold an unset cell
/// and its width plus height must be below [`LANE_LIMIT`].
///
/// # Errors
///
/// A [`SizeError`] if the scratch plane or the output cannot be had.
pub(super) fn vector_distances<T: Widened>(
    grid: &BitGrid,
    diagonal: bool,
    kernel: Kernel,
) -> Result<Vec<T>, SizeError> {
    let (w, h) = grid.size();
    debug_assert!(w + h < LANE_LIMIT);
    let mut out: Vec<T> = try_vec("chamfer distances", w, h, (w * h) as u128)?;
    if w == 0 || h == 0 {
        return Ok(out);
    }
    let r = w.div_ceil(LANES) * LANES;
    let lay = Layout {
        w,
        h,
        r,
        stride: r + LANES,
    };
    let mut scratch: Vec<i16> =
        try_vec("chamfer scratch", w, h, (lay.stride as u128) * (h as u128))?;
    // A row of "far" (above the first row, below the last) and two buffers for the
    // backward pass's rows; each with a spare cell at the end.
    let mut rows = vec![FAR; 3 * (lay.stride + 1)];
    #[cfg(target_arch = "x86_64")]
    {
        use crate::cpu::{has, Features};
        let avx512 = Features::AVX512F | Features::AVX512BW | Features::AVX2;
        let kernel = if kernel == Kernel::Avx512 && has(avx512) {
            Kernel::Avx512
        } else if kernel != Kernel::Portable && has(Features::AVX2) {
            Kernel::Avx2
        } else {
            Kernel::Portable
        };
        if kernel != Kernel::Portable {
            let s = scratch.spare_capacity_mut().as_mut_ptr().cast::<i16>();
            let dst = out.spare_capacity_mut().as_mut_ptr().cast::<T>();
            let (inf_row, bufs) = rows.split_at_mut(lay.stride + 1);
            let (a, b) = bufs.split_at_mut(lay.stride + 1);
            let bufs = [a.as_mut_ptr(), b.as_mut_ptr()];
            // SAFETY: the kernel's features were checked just above; `s` has capacity for
            // `stride * h` cells and `dst` for `w * h`; the row buffers hold `stride + 1`
            // cells each, all "far". The kernels write every scratch cell of a row before
            // it is read and every output cell once (see `x86`), so the output's first
            // `w * h` cells are initialised when they return.
            unsafe {
                if kernel == Kernel::Avx512 {
                    x86::passes_avx512::<T>(grid, diagonal, lay, s, inf_row, bufs, dst);
                } else {
                    x86::passes_avx2::<T>(grid, diagonal, lay, s, inf_row, bufs, dst);
                }
                out.set_len(w * h);
            }
            return Ok(out);
        }
    }
    let _ = kernel;
    scratch.resize(lay.stride * h, FAR);
    portable::passes::<T>(grid, diagonal, lay, &mut scratch, &mut rows, &mut out);
    Ok(out)
}

/// The passes cell by cell, on the same layout (the kernels' reference and the fallback).
mod portable {
    use super::{Layout, Widened, FAR};
    use crate::BitGrid;

    /// The smallest of the row `prev`'s cells that reach cell `x` (at `1 + x`).
    #[inline(always)]
    fn reach(prev: &[i16], x: usize, diagonal: bool) -> i16 {
        if diagonal {
            prev[x].min(prev[x + 1]).min(prev[x + 2])
        } else {
            prev[x + 1]
        }
    }

    pub(super) fn passes<T: Widened>(
        grid: &BitGrid,
        diagonal: bool,
        lay: Layout,
        scratch: &mut [i16],
        rows: &mut [i16],
        out: &mut Vec<T>,
    ) {
        let Layout { w, h, stride, .. } = lay;
        let far = vec![FAR; stride];
        for y in 0..h {
            let (done, rest) = scratch.split_at_mut(y * stride);
            let prev = if y == 0 {
                &far[..]
            } else {
                &done[(y - 1) * stride..]
            };
            let cur = &mut rest[..stride];
            let bits = grid.row_words(y);
            let mut run = FAR;
            for x in 0..w {
                let init = if (bits[x / 64] >> (x % 64)) & 1 == 1 {
                    FAR
                } else {
                    0
                };
                let g = init.min(reach(prev, x, diagonal).saturating_add(1));
                run = g.min(run.saturating_add(1));
                cur[1 + x] = run;
            }
        }
        out.clear();
        out.resize(w * h, T::of(0));
        let (a, b) = rows.split_at_mut(stride + 1);
        let (mut below, mut this) = (a, b);
        below.fill(FAR);
        this.fill(FAR);
        for y in (0..h).rev() {
            let cur = &scratch[y * stride..(y + 1) * stride];
            let mut run = FAR;
            for x in (0..w).rev() {
                let g = cur[1 + x].min(reach(below, x, diagonal).saturating_add(1));
                run = g.min(run.saturating_add(1));
                this[1 + x] = run;
                out[y * w + x] = T::of(run as u32);
            }
            std::mem::swap(&mut below, &mut this);
        }
    }
}

/// The vector kernels. Both keep the layout's promises: every scratch row is written whole
/// (the vectors, then "far" at 0 and from `1 + r`) before the next row reads it; the lanes
/// past the width are set to "far" before they are stored, so a row's neighbours past its
/// end read "far"; the row buffers' cells at 0 and from `1 + r` are never written (they
/// stay "far"); the output is stored lane by lane only inside the width.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Layout, Widened, FAR, LANES};
    use crate::BitGrid;
    use core::arch::x86_64::*;

    /// The 32 cells from `x0` (a multiple of 32) of a row's bits.
    #[inline(always)]
    fn bits32(words: &[u64], x0: usize) -> u32 {
        (words[x0 / 64] >> (x0 % 64)) as u32
    }

    /// The lanes of the 32 cells from `x0` inside a width `w`, one bit each.
    #[inline(always)]
    fn valid32(w: usize, x0: usize) -> u32 {
        if x0 + LANES <= w {
            !0
        } else {
            (1u32 << (w - x0)) - 1
        }
    }

    /// Lane `i` holds `i + 1` (forward carry ramp) and `32 - i` (backward).
    const RAMP_UP: [i16; 32] = {
        let mut a = [0i16; 32];
        let mut i = 0;
        while i < 32 {
            a[i] = i as i16 + 1;
            i += 1;
        }
        a
    };
    const RAMP_DOWN: [i16; 32] = {
        let mut a = [0i16; 32];
        let mut i = 0;
        while i < 32 {
            a[i] = 32 - i as i16;
            i += 1;
        }
        a
    };

    /// Both passes with 32 lanes a register.
    ///
    /// # Safety
    ///
    /// The CPU has AVX-512 F and BW and AVX2; `scratch` has room for `stride * h` cells,
    /// `dst` for `w * h`; `inf_row` and both `bufs` hold `stride + 1` cells of "far".
    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    pub(super) unsafe fn passes_avx512<T: Widened>(
        grid: &BitGrid,
        diagonal: bool,
        lay: Layout,
        scratch: *mut i16,
        inf_row: &[i16],
        bufs: [*mut i16; 2],
        dst: *mut T,
    ) {
        let Layout { w, h, r, stride } = lay;
        let far = _mm512_set1_epi16(FAR);
        let one = _mm512_set1_epi16(1);
        // SAFETY (for the loads of the constants): each array holds 32 `i16`s.
        let ramp_up = _mm512_loadu_si512(RAMP_UP.as_ptr().cast());
        let ramp_down = _mm512_loadu_si512(RAMP_DOWN.as_ptr().cast());
        let lane = _mm512_loadu_si512(RAMP_UP.as_ptr().cast());
        let lane = _mm512_sub_epi16(lane, one); // lane i holds i
        let ks: [i16; 5] = [1, 2, 4, 8, 16];
        let mut up_idx = [far; 5];
        let mut down_idx = [far; 5];
        for (i, &k) in ks.iter().enumerate() {
            up_idx[i] = _mm512_sub_epi16(lane, _mm512_set1_epi16(k));
            down_idx[i] = _mm512_add_epi16(lane, _mm512_set1_epi16(k));
        }
        let kv = ks.map(|k| _mm512_set1_epi16(k));
        let last = _mm512_set1_epi16(31);
        // The three (or one) cells of `prev` that reach the 32 cells from `x0`.
        let reach = |prev: *const i16, x0: usize| -> __m512i {
            // SAFETY: `x0 + 2 + 32 <= stride + 1`: inside the row (or its spare cell).
            unsafe {
                let u = _mm512_loadu_si512(prev.add(x0 + 1).cast());
                if diagonal {
                    let l = _mm512_loadu_si512(prev.add(x0).cast());
                    let rr = _mm512_loadu_si512(prev.add(x0 + 2).cast());
                    _mm512_min_epi16(_mm512_min_epi16(l, u), rr)
                } else {
                    u
                }
            }
        };
        // Registers of the row before that needed the whole scan: the first step's test
        // skips the rest where it lowers no lane, a branch worth taking only while it is
        // predictable (few registers need the scan: long runs, as in a page scan).
        let mut scans = 0u32;
        for y in 0..h {
            let prev: *const i16 = if y == 0 {
                inf_row.as_ptr()
            } else {
                scratch.add((y - 1) * stride)
            };
            let cur = scratch.add(y * stride);
            cur.write(FAR);
            let bits = grid.row_words(y);
            let mut carry = far;
            let mut x0 = 0;
            let skip = skips(scans, r);
            scans = 0;
            while x0 < w {
                let mut v = _mm512_maskz_mov_epi16(bits32(bits, x0), far);
                v = _mm512_min_epi16(v, _mm512_adds_epi16(reach(prev, x0), one));
                // The first step lowers no lane (every lane at most its left neighbour plus
                // one: the row above's values are, and no background cell in the register
                // breaks that): the longer steps lower none either.
                let s = _mm512_mask_permutexvar_epi16(far, !0u32 << 1, up_idx[0], v);
                let s = _mm512_adds_epi16(s, one);
                let lowers = _mm512_cmplt_epi16_mask(s, v) != 0;
                scans += u32::from(lowers);
                if !skip || lowers {
                    v = _mm512_min_epi16(v, s);
                    for i in 1..5 {
                        let s = _mm512_mask_permutexvar_epi16(far, !0u32 << ks[i], up_idx[i], v);
                        v = _mm512_min_epi16(v, _mm512_adds_epi16(s, kv[i]));
                    }
                }
                v = _mm512_min_epi16(v, _mm512_adds_epi16(carry, ramp_up));
                let valid = valid32(w, x0);
                if valid != !0 {
                    v = _mm512_mask_mov_epi16(far, valid, v);
                }
                _mm512_storeu_si512(cur.add(1 + x0).cast(), v);
                carry = _mm512_permutexvar_epi16(last, v);
                x0 += LANES;
            }
            // "Far" from `1 + r` to the row's end (31 cells).
            _mm512_mask_storeu_epi16(cur.add(1 + r), !0u32 >> 1, far);
        }
        let first = _mm512_setzero_si512();
        for y in (0..h).rev() {
            let below: *const i16 = if y + 1 == h {
                inf_row.as_ptr()
            } else {
                bufs[(y + 1) & 1]
            };
            let this = bufs[y & 1];
            let cur = scratch.add(y * stride);
            let out = dst.add(y * w);
            let mut carry = far;
            let mut x0 = r;
            let skip = skips(scans, r);
            scans = 0;
            while x0 > 0 {
                x0 -= LANES;
                let mut v = _mm512_loadu_si512(cur.add(1 + x0).cast());
                v = _mm512_min_epi16(v, _mm512_adds_epi16(reach(below, x0), one));
                // As in the forward pass, mirrored: no lane lowered by its right neighbour
                // means none by any farther one.
                let s = _mm512_mask_permutexvar_epi16(far, !0u32 >> 1, down_idx[0], v);
                let s = _mm512_adds_epi16(s, one);
                let lowers = _mm512_cmplt_epi16_mask(s, v) != 0;
                scans += u32::from(lowers);
                if !skip || lowers {
                    v = _mm512_min_epi16(v, s);
                    for i in 1..5 {
                        let s = _mm512_mask_permutexvar_epi16(far, !0u32 >> ks[i], down_idx[i], v);
                        v = _mm512_min_epi16(v, _mm512_adds_epi16(s, kv[i]));
                    }
                }
                v = _mm512_min_epi16(v, _mm512_adds_epi16(carry, ramp_down));
                let valid = valid32(w, x0);
                if valid != !0 {
                    v = _mm512_mask_mov_epi16(far, valid, v);
                }
                _mm512_storeu_si512(this.add(1 + x0).cast(), v);
                carry = _mm512_permutexvar_epi16(first, v);
                let mut lo = _mm512_cvtepi16_epi32(_mm512_castsi512_si256(v));
                let mut hi = _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64::<1>(v));
                if T::FLOAT {
                    lo = _mm512_castps_si512(_mm512_cvtepi32_ps(lo));
                    hi = _mm512_castps_si512(_mm512_cvtepi32_ps(hi));
                }
                let o = out.add(x0).cast::<i32>();
                if valid == !0 {
                    _mm512_storeu_si512(o.cast(), lo);
                    _mm512_storeu_si512(o.add(16).cast(), hi);
                } else {
                    // Masked stores: the lanes past the width touch no memory.
                    _mm512_mask_storeu_epi32(o, valid as u16, lo);
                    _mm512_mask_storeu_epi32(o.add(16), (valid >> 16) as u16, hi);
                }
            }
        }
    }

    /// `v`'s lanes moved up by `K` (lane `i` takes lane `i - K`), "far" shifted in.
    #[inline(always)]
    unsafe fn shift_up<const K: i32, const B: i32>(v: __m256i, far: __m256i) -> __m256i {
        // `t`: "far" in the low half, `v`'s low half in the high half.
        let t = _mm256_permute2x128_si256::<0x02>(v, far);
        if K == 8 {
            t
        } else {
            _mm256_alignr_epi8::<B>(v, t)
        }
    }

    /// Whether a row skips the scan where its first step lowers no lane: when at most one
    /// register in three of the row before (`r` cells) needed the whole scan.
    #[inline(always)]
    fn skips(scans: u32, r: usize) -> bool {
        (scans as usize) * 3 * LANES <= r
    }

    /// `v`'s lanes moved down by `K` (lane `i` takes lane `i + K`), "far" shifted in.
    #[inline(always)]
    unsafe fn shift_down<const K: i32, const B: i32>(v: __m256i, far: __m256i) -> __m256i {
        // `t`: `v`'s high half in the low half, "far" in the high half.
        let t = _mm256_permute2x128_si256::<0x21>(v, far);
        if K == 8 {
            t
        } else {
            _mm256_alignr_epi8::<B>(t, v)
        }
    }

    /// The 16 lanes of `m`'s low 16 bits as 0 / -1.
    #[inline(always)]
    unsafe fn lanes_of(m: u32, sel: __m256i) -> __m256i {
        let b = _mm256_set1_epi16(m as u16 as i16);
        _mm256_cmpeq_epi16(_mm256_and_si256(b, sel), sel)
    }

    /// The forward scan of one register of 16 lanes, with the carry.
    #[inline(always)]
    unsafe fn scan_up(mut v: __m256i, carry: __m256i, ramp: __m256i, far: __m256i) -> __m256i {
        let k = |x: i16| _mm256_set1_epi16(x);
        v = _mm256_min_epi16(v, _mm256_adds_epi16(shift_up::<1, 14>(v, far), k(1)));
        v = _mm256_min_epi16(v, _mm256_adds_epi16(shift_up::<2, 12>(v, far), k(2)));
        v = _mm256_min_epi16(v, _mm256_adds_epi16(shift_up::<4, 8>(v, far), k(4)));
        v = _mm256_min_epi16(v, _mm256_adds_epi16(shift_up::<8, 0>(v, far), k(8)));
        _mm256_min_epi16(v, _mm256_adds_epi16(carry, ramp))
    }

    /// The backward scan of one register of 16 lanes, with the carry.
    #[inline(always)]
    unsafe fn scan_down(mut v: __m256i, carry: __m256i, ramp: __m256i, far: __m256i) -> __m256i {
        let k = |x: i16| _mm256_set1_epi16(x);
        v = _mm256_min_epi16(v, _mm256_adds_epi16(shift_down::<1, 2>(v, far), k(1)));
        v = _mm256_min_epi16(v, _mm256_adds_epi16(shift_down::<2, 4>(v, far), k(2)));
        v = _mm256_min_epi16(v, _mm256_adds_epi16(shift_down::<4, 8>(v, far), k(4)));
        v = _mm256_min_epi16(v, _mm256_adds_epi16(shift_down::<8, 0>(v, far), k(8)));
        _mm256_min_epi16(v, _mm256_adds_epi16(carry, ramp))
    }

    /// Lane 15 of `v` in every lane.
    #[inline(always)]
    unsafe fn last_lane(v: __m256i) -> __m256i {
        let top = _mm256_permutevar8x32_epi32(v, _mm256_set1_epi32(7));
        _mm256_shuffle_epi8(top, _mm256_set1_epi16(0x0302))
    }

    /// Stores 16 lanes widened to `T` at `o`, only the first `n` (at most 16).
    #[inline(always)]
    unsafe fn store16<T: Widened>(o: *mut T, v: __m256i, n: usize) {
        let mut lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(v));
        let mut hi = _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(v));
        if T::FLOAT {
            lo = _mm256_castps_si256(_mm256_cvtepi32_ps(lo));
            hi = _mm256_castps_si256(_mm256_cvtepi32_ps(hi));
        }
        let o = o.cast::<i32>();
        if n == 16 {
            _mm256_storeu_si256(o.cast(), lo);
            _mm256_storeu_si256(o.add(8).cast(), hi);
        } else {
            let mut tmp = [0i32; 16];
            _mm256_storeu_si256(tmp.as_mut_ptr().cast(), lo);
            _mm256_storeu_si256(tmp.as_mut_ptr().add(8).cast(), hi);
            core::ptr::copy_nonoverlapping(tmp.as_ptr(), o, n);
        }
    }

    /// Both passes with 16 lanes a register (two registers a 32-cell step).
    ///
    /// # Safety
    ///
    /// As [`passes_avx512`], with AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn passes_avx2<T: Widened>(
        grid: &BitGrid,
        diagonal: bool,
        lay: Layout,
        scratch: *mut i16,
        inf_row: &[i16],
        bufs: [*mut i16; 2],
        dst: *mut T,
    ) {
        let Layout { w, h, r, stride } = lay;
        let far = _mm256_set1_epi16(FAR);
        let one = _mm256_set1_epi16(1);
        let ramp_up = _mm256_loadu_si256(RAMP_UP.as_ptr().cast());
        let ramp_down = _mm256_loadu_si256(RAMP_DOWN.as_ptr().add(16).cast());
        let sel = _mm256_setr_epi16(
            1,
            2,
            4,
            8,
            16,
            32,
            64,
            128,
            256,
            512,
            1024,
            2048,
            4096,
            8192,
            16384,
            i16::MIN,
        );
        let reach = |prev: *const i16, x: usize| -> __m256i {
            // SAFETY: `x + 2 + 16 <= stride + 1`: inside the row (or its spare cell).
            unsafe {
                let u = _mm256_loadu_si256(prev.add(x + 1).cast());
                if diagonal {
                    let l = _mm256_loadu_si256(prev.add(x).cast());
                    let rr = _mm256_loadu_si256(prev.add(x + 2).cast());
                    _mm256_min_epi16(_mm256_min_epi16(l, u), rr)
                } else {
                    u
                }
            }
        };
        for y in 0..h {
            let prev: *const i16 = if y == 0 {
                inf_row.as_ptr()
            } else {
                scratch.add((y - 1) * stride)
            };
            let cur = scratch.add(y * stride);
            cur.write(FAR);
            let bits = grid.row_words(y);
            let mut carry = far;
            let mut x0 = 0;
            while x0 < w {
                let b = bits32(bits, x0);
                let valid = valid32(w, x0);
                for half in 0..2 {
                    let x = x0 + 16 * half;
                    let m = b >> (16 * half);
                    let mut v = _mm256_and_si256(lanes_of(m, sel), far);
                    v = _mm256_min_epi16(v, _mm256_adds_epi16(reach(prev, x), one));
                    v = scan_up(v, carry, ramp_up, far);
                    let vm = valid >> (16 * half);
                    if vm & 0xffff != 0xffff {
                        v = _mm256_blendv_epi8(far, v, lanes_of(vm, sel));
                    }
                    _mm256_storeu_si256(cur.add(1 + x).cast(), v);
                    carry = last_lane(v);
                }
                x0 += LANES;
            }
            // "Far" from `1 + r` to the row's end (31 cells).
            _mm256_storeu_si256(cur.add(1 + r).cast(), far);
            core::ptr::copy_nonoverlapping(inf_row.as_ptr(), cur.add(17 + r), 15);
        }
        for y in (0..h).rev() {
            let below: *const i16 = if y + 1 == h {
                inf_row.as_ptr()
            } else {
                bufs[(y + 1) & 1]
            };
            let this = bufs[y & 1];
            let cur = scratch.add(y * stride);
            let out = dst.add(y * w);
            let mut carry = far;
            let mut x = r;
            while x > 0 {
                x -= 16;
                let mut v = _mm256_loadu_si256(cur.add(1 + x).cast());
                v = _mm256_min_epi16(v, _mm256_adds_epi16(reach(below, x), one));
                v = scan_down(v, carry, ramp_down, far);
                if x + 16 > w {
                    let vm = if x >= w { 0 } else { (1u32 << (w - x)) - 1 };
                    v = _mm256_blendv_epi8(far, v, lanes_of(vm, sel));
                }
                _mm256_storeu_si256(this.add(1 + x).cast(), v);
                carry = _mm256_broadcastw_epi16(_mm256_castsi256_si128(v));
                if x < w {
                    store16(out.add(x), v, (w - x).min(16));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive::distance_transform::two_pass_chamfer;
    use crate::naive::NaiveGrid;

    struct XorShift(u64);
    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    fn kernels() -> Vec<Kernel> {
        let mut k = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            use crate::cpu::{has, Features};
            if has(Features::AVX2) {
                k.push(Kernel::Avx2);
            }
            if has(Features::AVX512F | Features::AVX512BW | Features::AVX2) {
                k.push(Kernel::Avx512);
            }
        }
        k
    }

    fn check(g: &BitGrid) {
        if g.count() as usize == g.width() * g.height() {
            return;
        }
        let ng = NaiveGrid::from_view(g);
        for diagonal in [false, true] {
            let structure = if diagonal {
                [[true; 3]; 3]
            } else {
                [
                    [false, true, false],
                    [true, true, true],
                    [false, true, false],
                ]
            };
            let want = two_pass_chamfer(&ng, structure).0;
            for k in kernels() {
                let got = vector_distances::<i32>(g, diagonal, k).unwrap();
                assert_eq!(
                    got,
                    want,
                    "{k:?} diagonal {diagonal} {}x{}",
                    g.width(),
                    g.height()
                );
                let got = vector_distances::<f32>(g, diagonal, k).unwrap();
                let wf: Vec<f32> = want.iter().map(|&d| d as f32).collect();
                assert_eq!(got, wf, "{k:?} f32 diagonal {diagonal}");
            }
        }
    }

    #[test]
    fn kernels_equal_the_naive_passes() {
        let mut rng = XorShift(0x5eed_cafe);
        let widths = [1usize, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 95, 97, 130];
        let heights = [1usize, 2, 3, 17, 40];
        for &w in &widths {
            for &h in &heights {
                for percent in [0u64, 30, 70, 95, 99, 100] {
                    let mut g = BitGrid::new(w, h);
                    for y in 0..h {
                        for x in 0..w {
                            if rng.next() % 100 < percent {
                                g.set(x, y);
                            }
                        }
                    }
                    check(&g);
                }
                // Full but one cell: the deepest distances, at each corner.
                for (x, y) in [(0, 0), (w - 1, h - 1), (w / 2, 0), (0, h - 1)] {
                    let mut g = BitGrid::full(w, h);
                    g.clear(x, y);
                    check(&g);
                }
            }
        }
    }

    /// Distances near the lanes' limit: a long grid with one background cell at an end.
    #[test]
    fn large_distances_stay_exact() {
        for (w, h) in [(32_000usize, 3usize), (2, 16_000)] {
            let mut g = BitGrid::full(w, h);
            g.clear(0, 0);
            g.clear(w - 1, h - 1);
            let mut g2 = BitGrid::full(w, h);
            g2.clear(0, 0);
            for g in [g, g2] {
                for diagonal in [false, true] {
                    for k in kernels() {
                        let got = vector_distances::<i32>(&g, diagonal, k).unwrap();
                        for y in 0..h {
                            for x in 0..w {
                                let a = if diagonal { x.max(y) } else { x + y };
                                let b = if g.get(w - 1, h - 1) {
                                    usize::MAX
                                } else {
                                    let (dx, dy) = (w - 1 - x, h - 1 - y);
                                    if diagonal {
                                        dx.max(dy)
                                    } else {
                                        dx + dy
                                    }
                                };
                                assert_eq!(got[y * w + x], a.min(b) as i32, "{k:?} {x} {y}");
                            }
                        }
                    }
                }
            }
        }
    }
}
