//! The vector kernels. Both keep the layout's promises: every scratch row is written whole
//! (the vectors, then "far" at 0 and from `1 + r`) before the next row reads it; the lanes
//! past the width are set to "far" before they are stored, so a row's neighbours past its
//! end read "far"; the row buffers' cells at 0 and from `1 + r` are never written (they
//! stay "far"); the output is stored lane by lane only inside the width.

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
