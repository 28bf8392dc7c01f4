//! The 3x3 square and the cross on bytes, without packing: `run`.
//!
//! A pixel is set where its byte is above the threshold `t`, so the erosion of a cell is set
//! exactly when the minimum of the bytes under the footprint is above `t`, and its dilation
//! when their maximum is. For the footprints within one cell of their centre that matter
//! most (the 3x3 square and the cross, OpenCV's 3x3 `MORPH_RECT` and `MORPH_ELLIPSE`), each
//! output row is then the minimum (maximum) of the shifted input rows, written as `set`
//! where it is above `t` and `empty` elsewhere: plain byte loops that the compiler
//! vectorises (64 bytes a step with AVX-512), with no packing of the bytes to bits nor
//! unpacking of the result, which cost more than the rule in `three_rows`.
//!
//! - the cross: `min(up[x], down[x], row[x - 1], row[x], row[x + 1])`, five loads a vector;
//! - the square: the minimum of the three rows into a row buffer padded by the border,
//!   then the minimum of its three shifts.
//!
//! Cells off the image are the border byte: 255 (above any threshold but 255) for a set
//! border, 0 for an unset one; which is also what leaves erosion's set border and
//! dilation's unset border out of the minimum and the maximum.
//!
//! With `CHECK`, each input byte is folded once into a [`ByteValues`] in the loop that
//! reads it as the row below (the first row before): the largest byte and the smallest
//! nonzero byte, reduced per row, as the packing engines do.

use super::footprint::Footprint;
use crate::grid::{ByteImage, ByteValues};

use super::three_rows::Out;

/// The footprints this engine takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// The five cells of the cross about the centre.
    Cross,
    /// The nine cells of the 3x3 square about the centre.
    Square,
}

/// One step of the byte engine: the footprint's shape, erosion or dilation, and the byte of
/// cells off the image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ByteWindow {
    /// The cells read.
    shape: Shape,
    /// Erosion (minimum) or dilation (maximum).
    erode: bool,
    /// The byte of cells off the image (255 for a set border, 0 for an unset one).
    pad: u8,
}

impl ByteWindow {
    /// The step by `fp` (an erosion when `erode`, else a dilation) with `border`, on an
    /// image of `threshold`; `None` unless `fp` is the 3x3 square or the cross about its
    /// centre (both symmetric: the dilation's reflection changes neither), or when a set
    /// border cannot be a byte above `threshold` (255).
    pub(crate) fn new(fp: &Footprint, erode: bool, border: bool, threshold: u8) -> Option<Self> {
        if border && threshold == u8::MAX {
            return None;
        }
        let mut offsets = fp.offsets();
        offsets.sort_unstable();
        let square: Vec<(isize, isize)> = (-1..=1)
            .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
            .collect();
        let cross = [(-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)];
        let shape = if offsets == square {
            Shape::Square
        } else if offsets == cross {
            Shape::Cross
        } else {
            return None;
        };
        Some(ByteWindow {
            shape,
            erode,
            pad: if border { u8::MAX } else { 0 },
        })
    }
}

/// Runs `win` on `image` into `out` (whose size the caller has checked), folding every input
/// byte into `values` when `CHECK`: at the best CPU level `cpu` allows, the same plain code
/// compiled for AVX-512 BW, for AVX2, or for the base target.
pub(crate) fn run<const CHECK: bool>(
    image: &ByteImage<'_>,
    win: ByteWindow,
    out: Out<'_>,
    values: &mut ByteValues,
) {
    #[cfg(target_arch = "x86_64")]
    {
        use crate::cpu::{has, Features};
        if has(Features::AVX512BW
            .union(Features::AVX512F)
            .union(Features::AVX2))
        {
            // SAFETY: the CPU has AVX-512 F and BW and AVX2 (checked just above), all that
            // `avx512::run` is compiled for; the caller checked that `out` holds the rows.
            return unsafe { avx512::run::<CHECK>(image, win, out, values) };
        }
        if has(Features::AVX2) {
            // SAFETY: the CPU has AVX2 (checked just above), all that `run_avx2` requires.
            return unsafe { run_avx2::<CHECK>(image, win, out, values) };
        }
    }
    run_body::<CHECK>(image, win, out, values);
}

/// [`run_body`] compiled for AVX2 (32-byte vectors).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn run_avx2<const CHECK: bool>(
    image: &ByteImage<'_>,
    win: ByteWindow,
    out: Out<'_>,
    values: &mut ByteValues,
) {
    run_body::<CHECK>(image, win, out, values);
}

/// The engine: each output row from the rows above, at and below it (the border row off
/// the image).
#[inline(always)]
fn run_body<const CHECK: bool>(
    image: &ByteImage<'_>,
    win: ByteWindow,
    out: Out<'_>,
    values: &mut ByteValues,
) {
    let (w, h) = image.size();
    if w == 0 || h == 0 {
        return;
    }
    let (pixels, stride) = (image.pixels(), image.stride());
    let row = |y: usize| &pixels[y * stride..y * stride + w];
    let pad_row = vec![win.pad; w];
    // The square's vertical extremes, with a border byte on either side.
    let mut vertical = vec![win.pad; if win.shape == Shape::Square { w + 2 } else { 0 }];
    let mut fold = Fold::new();
    if CHECK {
        *values = values.with_bytes(row(0));
    }
    let lut = Lut {
        t: image.threshold(),
        set: out.set,
        empty: out.empty,
        pad: win.pad,
    };
    for y in 0..h {
        let up = if y > 0 { row(y - 1) } else { &pad_row };
        let below = y + 1 < h;
        let down = if below { row(y + 1) } else { &pad_row };
        let o = &mut out.pixels[y * out.stride..y * out.stride + w];
        let rows = [up, row(y), down];
        match (win.shape, win.erode, CHECK && below) {
            (Shape::Cross, true, true) => cross::<true, true>(rows, o, lut, &mut fold),
            (Shape::Cross, true, false) => cross::<true, false>(rows, o, lut, &mut fold),
            (Shape::Cross, false, true) => cross::<false, true>(rows, o, lut, &mut fold),
            (Shape::Cross, false, false) => cross::<false, false>(rows, o, lut, &mut fold),
            (Shape::Square, true, true) => {
                square::<true, true>(rows, &mut vertical, o, lut, &mut fold)
            }
            (Shape::Square, true, false) => {
                square::<true, false>(rows, &mut vertical, o, lut, &mut fold);
            }
            (Shape::Square, false, true) => {
                square::<false, true>(rows, &mut vertical, o, lut, &mut fold);
            }
            (Shape::Square, false, false) => {
                square::<false, false>(rows, &mut vertical, o, lut, &mut fold);
            }
        }
    }
    if CHECK {
        fold.reduce(values);
    }
}

/// How an extreme becomes an output byte, and the border byte.
#[derive(Clone, Copy)]
struct Lut {
    /// The threshold: set above it.
    t: u8,
    /// The byte of a set cell.
    set: u8,
    /// The byte of an empty cell.
    empty: u8,
    /// The byte of cells off the image.
    pad: u8,
}

impl Lut {
    /// The output byte of the extreme `v`.
    #[inline(always)]
    fn write(self, v: u8) -> u8 {
        if v > self.t {
            self.set
        } else {
            self.empty
        }
    }
}

/// The running fold of the bytes read: their maximum, and the minimum of `b - 1` (wrapping:
/// a zero byte gives 255), whose successor is the smallest nonzero byte; two reductions
/// the compiler keeps in vector registers.
struct Fold {
    /// The largest byte.
    high: u8,
    /// The smallest `b - 1`, wrapping.
    low_less_one: u8,
}

impl Fold {
    /// No byte folded.
    fn new() -> Fold {
        Fold {
            high: 0,
            low_less_one: u8::MAX,
        }
    }

    /// Folds in one byte.
    #[inline(always)]
    fn add(&mut self, b: u8) {
        self.high = self.high.max(b);
        self.low_less_one = self.low_less_one.min(b.wrapping_sub(1));
    }

    /// Adds what was folded to `values`, through [`ByteValues::with_bytes`]: the largest
    /// and the smallest nonzero byte, when a byte was nonzero.
    fn reduce(self, values: &mut ByteValues) {
        if self.high != 0 {
            *values = values.with_bytes(&[self.high, self.low_less_one.wrapping_add(1)]);
        }
    }
}

/// The minimum (`ERODE`) or the maximum of two bytes.
#[inline(always)]
fn pick<const ERODE: bool>(a: u8, b: u8) -> u8 {
    if ERODE {
        a.min(b)
    } else {
        a.max(b)
    }
}

/// One output row of the cross from `[up, row, down]`, folding `down` when `CHECK`.
#[inline(always)]
fn cross<const ERODE: bool, const CHECK: bool>(
    [up, c, down]: [&[u8]; 3],
    o: &mut [u8],
    lut: Lut,
    fold: &mut Fold,
) {
    let w = o.len();
    // The cell `x` at the row's ends, the border byte off them.
    let at = |x: usize, dx: isize| {
        x.checked_add_signed(dx)
            .and_then(|i| c.get(i))
            .copied()
            .unwrap_or(lut.pad)
    };
    let edge = |x: usize| {
        let v = pick::<ERODE>(pick::<ERODE>(up[x], down[x]), at(x, -1));
        lut.write(pick::<ERODE>(pick::<ERODE>(v, c[x]), at(x, 1)))
    };
    o[0] = edge(0);
    if CHECK {
        fold.add(down[0]);
    }
    if w < 2 {
        return;
    }
    o[w - 1] = edge(w - 1);
    if CHECK {
        fold.add(down[w - 1]);
    }
    let n = w - 2;
    let (u, d, out) = (&up[1..1 + n], &down[1..1 + n], &mut o[1..1 + n]);
    let (l, m, r) = (&c[..n], &c[1..1 + n], &c[2..2 + n]);
    let (mut high, mut low) = (fold.high, fold.low_less_one);
    for i in 0..n {
        let v = pick::<ERODE>(pick::<ERODE>(u[i], d[i]), pick::<ERODE>(l[i], r[i]));
        out[i] = lut.write(pick::<ERODE>(v, m[i]));
        if CHECK {
            high = high.max(d[i]);
            low = low.min(d[i].wrapping_sub(1));
        }
    }
    fold.high = high;
    fold.low_less_one = low;
}

/// One output row of the 3x3 square from `[up, row, down]`, through `vertical` (`w + 2`
/// bytes, the border byte at both ends), folding `down` when `CHECK`.
#[inline(always)]
fn square<const ERODE: bool, const CHECK: bool>(
    [up, c, down]: [&[u8]; 3],
    vertical: &mut [u8],
    o: &mut [u8],
    lut: Lut,
    fold: &mut Fold,
) {
    let w = o.len();
    let (u, m, d) = (&up[..w], &c[..w], &down[..w]);
    let v = &mut vertical[1..1 + w];
    let (mut high, mut low) = (fold.high, fold.low_less_one);
    for i in 0..w {
        v[i] = pick::<ERODE>(pick::<ERODE>(u[i], d[i]), m[i]);
        if CHECK {
            high = high.max(d[i]);
            low = low.min(d[i].wrapping_sub(1));
        }
    }
    fold.high = high;
    fold.low_less_one = low;
    let vertical = &vertical[..w + 2];
    let (l, m, r) = (&vertical[..w], &vertical[1..1 + w], &vertical[2..2 + w]);
    for i in 0..w {
        o[i] = lut.write(pick::<ERODE>(pick::<ERODE>(l[i], r[i]), m[i]));
    }
}

/// The engine in AVX-512 BW intrinsics, 64 bytes a step, the row's ends by masked loads
/// and stores (the border byte in the lanes off the row), the values folded by
/// [`Acc512`](crate::grid::Acc512).
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{ByteWindow, Out, Shape};
    use crate::grid::{Acc512, ByteImage, ByteValues};
    use std::arch::x86_64::*;

    /// The constants of a step: the threshold, the set and empty bytes, the border byte.
    #[derive(Clone, Copy)]
    struct Consts {
        t: __m512i,
        set: __m512i,
        empty: __m512i,
        pad: __m512i,
    }

    /// The minimum (`ERODE`) or the maximum of two vectors.
    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    fn pick<const ERODE: bool>(a: __m512i, b: __m512i) -> __m512i {
        if ERODE {
            _mm512_min_epu8(a, b)
        } else {
            _mm512_max_epu8(a, b)
        }
    }

    /// The lanes `0..len` of a 64-byte step.
    #[inline]
    fn lanes(len: usize) -> __mmask64 {
        if len >= 64 {
            !0
        } else {
            (1u64 << len) - 1
        }
    }

    /// `run_body` in intrinsics.
    ///
    /// # Safety
    /// The CPU must have AVX-512 F and BW; `out` must hold the image's rows (checked by
    /// the caller).
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    pub(super) unsafe fn run<const CHECK: bool>(
        image: &ByteImage<'_>,
        win: ByteWindow,
        out: Out<'_>,
        values: &mut ByteValues,
    ) {
        let (w, h) = image.size();
        if w == 0 || h == 0 {
            return;
        }
        let (pixels, stride) = (image.pixels(), image.stride());
        let row = |y: usize| &pixels[y * stride..y * stride + w];
        let pad_row = vec![win.pad; w];
        let mut vertical = vec![win.pad; w + 2];
        let k = Consts {
            t: _mm512_set1_epi8(image.threshold() as i8),
            set: _mm512_set1_epi8(out.set as i8),
            empty: _mm512_set1_epi8(out.empty as i8),
            pad: _mm512_set1_epi8(win.pad as i8),
        };
        let mut acc = Acc512::new();
        if CHECK {
            *values = values.with_bytes(row(0));
        }
        for y in 0..h {
            let up = if y > 0 { row(y - 1) } else { &pad_row };
            let below = y + 1 < h;
            let down = if below { row(y + 1) } else { &pad_row };
            let o = &mut out.pixels[y * out.stride..y * out.stride + w];
            let rows = [up, row(y), down];
            // SAFETY: the rows and `o` hold `w` bytes, `vertical` `w + 2`; the CPU has
            // AVX-512 F and BW (this function's requirement).
            unsafe {
                match (win.shape, win.erode, CHECK && below) {
                    (Shape::Cross, true, true) => cross::<true, true>(rows, o, k, &mut acc),
                    (Shape::Cross, true, false) => cross::<true, false>(rows, o, k, &mut acc),
                    (Shape::Cross, false, true) => cross::<false, true>(rows, o, k, &mut acc),
                    (Shape::Cross, false, false) => cross::<false, false>(rows, o, k, &mut acc),
                    (Shape::Square, true, true) => {
                        square::<true, true>(rows, &mut vertical, o, k, &mut acc);
                    }
                    (Shape::Square, true, false) => {
                        square::<true, false>(rows, &mut vertical, o, k, &mut acc);
                    }
                    (Shape::Square, false, true) => {
                        square::<false, true>(rows, &mut vertical, o, k, &mut acc);
                    }
                    (Shape::Square, false, false) => {
                        square::<false, false>(rows, &mut vertical, o, k, &mut acc);
                    }
                }
            }
        }
        if CHECK {
            acc.reduce(values);
        }
    }

    /// One output row of the cross, folding `down` when `CHECK`.
    ///
    /// # Safety
    /// AVX-512 F and BW; `up`, `c`, `down` and `o` of one length.
    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    unsafe fn cross<const ERODE: bool, const CHECK: bool>(
        [up, c, down]: [&[u8]; 3],
        o: &mut [u8],
        k: Consts,
        acc: &mut Acc512,
    ) {
        let w = o.len();
        let (up, c, down) = (&up[..w], &c[..w], &down[..w]);
        // The steps inside the row, plain loads and stores (masked ones cost more).
        let full = |x: usize| x > 0 && x + 65 <= w;
        let mut x = 0;
        while x < w {
            if full(x) {
                // SAFETY: bytes `x - 1..x + 65` of rows of `w` bytes.
                unsafe {
                    let p = c.as_ptr().add(x);
                    let u = _mm512_loadu_si512(up.as_ptr().add(x).cast());
                    let d = _mm512_loadu_si512(down.as_ptr().add(x).cast());
                    let l = _mm512_loadu_si512(p.sub(1).cast());
                    let r = _mm512_loadu_si512(p.add(1).cast());
                    let cc = _mm512_loadu_si512(p.cast());
                    let v = pick::<ERODE>(pick::<ERODE>(u, d), pick::<ERODE>(l, r));
                    let v = pick::<ERODE>(v, cc);
                    let gt = _mm512_cmpgt_epu8_mask(v, k.t);
                    let res = _mm512_mask_blend_epi8(gt, k.empty, k.set);
                    _mm512_storeu_si512(o.as_mut_ptr().add(x).cast(), res);
                    if CHECK {
                        acc.fold_nonzero(d, _mm512_test_epi8_mask(d, d));
                    }
                }
                x += 64;
                continue;
            }
            let len = (w - x).min(64);
            let m = lanes(len);
            // The left neighbours: lane 0 is off the row at x = 0; the right ones: the
            // last lane is off the row at the row's end.
            let ml = if x == 0 { m & !1 } else { m };
            let mr = if x + len == w { m >> 1 } else { m };
            // SAFETY: every lane loaded or stored is in `m` (bytes `x..x + len` of rows of
            // `w` bytes), shifted by one for `l` and `r` with the lanes that would leave
            // the row masked off (masked lanes are not accessed); the pointer offsets are
            // made by `wrapping_*`, so stay defined.
            unsafe {
                let u = _mm512_maskz_loadu_epi8(m, up.as_ptr().add(x).cast());
                let d = _mm512_maskz_loadu_epi8(m, down.as_ptr().add(x).cast());
                let cc = _mm512_maskz_loadu_epi8(m, c.as_ptr().add(x).cast());
                let l = _mm512_mask_loadu_epi8(
                    k.pad,
                    ml,
                    c.as_ptr().wrapping_add(x).wrapping_sub(1).cast(),
                );
                let r = _mm512_mask_loadu_epi8(k.pad, mr, c.as_ptr().wrapping_add(x + 1).cast());
                let v = pick::<ERODE>(pick::<ERODE>(u, d), pick::<ERODE>(l, r));
                let v = pick::<ERODE>(v, cc);
                let gt = _mm512_cmpgt_epu8_mask(v, k.t);
                let res = _mm512_mask_blend_epi8(gt, k.empty, k.set);
                _mm512_mask_storeu_epi8(o.as_mut_ptr().add(x).cast(), m, res);
                if CHECK {
                    acc.fold_nonzero(d, _mm512_test_epi8_mask(d, d));
                }
            }
            x += len;
        }
    }

    /// One output row of the 3x3 square through `vertical` (`w + 2` bytes, the border byte
    /// at both ends), folding `down` when `CHECK`.
    ///
    /// # Safety
    /// AVX-512 F and BW; `up`, `c`, `down` and `o` of one length `w`, `vertical` of `w + 2`.
    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    unsafe fn square<const ERODE: bool, const CHECK: bool>(
        [up, c, down]: [&[u8]; 3],
        vertical: &mut [u8],
        o: &mut [u8],
        k: Consts,
        acc: &mut Acc512,
    ) {
        let w = o.len();
        let (up, c, down, vertical) = (&up[..w], &c[..w], &down[..w], &mut vertical[..w + 2]);
        let mut x = 0;
        while x + 64 <= w {
            // SAFETY: bytes `x..x + 64` of the rows, and of `vertical` from 1.
            unsafe {
                let u = _mm512_loadu_si512(up.as_ptr().add(x).cast());
                let d = _mm512_loadu_si512(down.as_ptr().add(x).cast());
                let cc = _mm512_loadu_si512(c.as_ptr().add(x).cast());
                let v = pick::<ERODE>(pick::<ERODE>(u, d), cc);
                _mm512_storeu_si512(vertical.as_mut_ptr().add(x + 1).cast(), v);
                if CHECK {
                    acc.fold_nonzero(d, _mm512_test_epi8_mask(d, d));
                }
            }
            x += 64;
        }
        while x < w {
            let len = (w - x).min(64);
            let m = lanes(len);
            // SAFETY: the lanes in `m` are bytes `x..x + len` of the rows, and of
            // `vertical` from 1 (it holds `w + 2`).
            unsafe {
                let u = _mm512_maskz_loadu_epi8(m, up.as_ptr().add(x).cast());
                let d = _mm512_maskz_loadu_epi8(m, down.as_ptr().add(x).cast());
                let cc = _mm512_maskz_loadu_epi8(m, c.as_ptr().add(x).cast());
                let v = pick::<ERODE>(pick::<ERODE>(u, d), cc);
                _mm512_mask_storeu_epi8(vertical.as_mut_ptr().add(x + 1).cast(), m, v);
                if CHECK {
                    acc.fold_nonzero(d, _mm512_test_epi8_mask(d, d));
                }
            }
            x += len;
        }
        let mut x = 0;
        while x + 64 <= w {
            // SAFETY: bytes `x..x + 66` of `vertical`, which holds `w + 2`, and `x..x + 64`
            // of `o`.
            unsafe {
                let p = vertical.as_ptr().add(x);
                let l = _mm512_loadu_si512(p.cast());
                let cc = _mm512_loadu_si512(p.add(1).cast());
                let r = _mm512_loadu_si512(p.add(2).cast());
                let v = pick::<ERODE>(pick::<ERODE>(l, r), cc);
                let gt = _mm512_cmpgt_epu8_mask(v, k.t);
                let res = _mm512_mask_blend_epi8(gt, k.empty, k.set);
                _mm512_storeu_si512(o.as_mut_ptr().add(x).cast(), res);
            }
            x += 64;
        }
        while x < w {
            let len = (w - x).min(64);
            let m = lanes(len);
            // SAFETY: bytes `x..x + len + 2` of `vertical`, which holds `w + 2`.
            unsafe {
                let p = vertical.as_ptr().add(x);
                let l = _mm512_maskz_loadu_epi8(m, p.cast());
                let cc = _mm512_maskz_loadu_epi8(m, p.add(1).cast());
                let r = _mm512_maskz_loadu_epi8(m, p.add(2).cast());
                let v = pick::<ERODE>(pick::<ERODE>(l, r), cc);
                let gt = _mm512_cmpgt_epu8_mask(v, k.t);
                let res = _mm512_mask_blend_epi8(gt, k.empty, k.set);
                _mm512_mask_storeu_epi8(o.as_mut_ptr().add(x).cast(), m, res);
            }
            x += len;
        }
    }
}
