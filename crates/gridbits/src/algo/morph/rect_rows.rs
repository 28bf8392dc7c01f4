//! The engine of [`morph_bytes`](super::morph_bytes) for full rectangles (`w x h`, any
//! centre, up to 64 columns wide and within 63 columns of the centre on the side it
//! gathers from; any height): one pass over the image, one output row at a time, as
//! `three_rows` does for the 3x3 box, with no grid of the whole image and no stripe.
//!
//! A rectangle's window is separable: an output row is the AND (erosion) or OR (dilation)
//! of `h` consecutive rows of horizontal results, each the AND / OR of a run of `w` cells of
//! one input row. Each input row is packed once (widened by a word of the border on either
//! side), its run is made by doubling shifts on words (the row combined with itself shifted
//! by 1, 2, 4, ... columns, then with itself shifted by the remainder: `ceil(log2 w)` word
//! operations, carries taken from the next word) and shifted to the footprint's origin. The
//! vertical window is the same doubling over rows: level `j` keeps, in a small ring, the
//! AND / OR of the last `2^j` rows, made from two rows of level `j - 1`, and an output row
//! is two rows of the top level (`ceil(log2 h)` word operations per output word in all).
//! Each step's rings are fed the rows of the step before as they are made; the last step's
//! row is unpacked straight into the output bytes. For a 2048-wide image the rings of a
//! 15x15 step hold 22 rows of 32 words (5.5 KiB): everything stays in the first-level
//! cache. With AVX-512 the whole pass is compiled for it with the byte kernels inlined, and
//! one step (an erosion or a dilation) writes each output row in the loop that packs the
//! next image row (`three_rows`' `turn`), so that the loads of one and the stores of the
//! other are in flight together. A 15x15 erosion of 2048x2048 bytes takes about 0.3 ms
//! against 0.6 ms by stripes (docs/benchmarks.md, "morph15").
//!
//! Cells off the image read the step's border value: rows above and below the image are
//! rows of it (their horizontal result is the border everywhere), the words left and right
//! of a row are words of it, and the bits past the width of each row are set to it when the
//! row is stored.

use super::footprint::Footprint;
use super::row_runs::op;
use super::three_rows::{pack, unpack, Out};
#[cfg(target_arch = "x86_64")]
#[cfg(target_arch = "x86_64")]
use super::turn::{one_step_avx2, one_step_avx512, OneStep, Turn};
use crate::grid::{tail_mask, ByteImage, ByteKernel, ByteValues};

/// The widest run (columns) and the farthest column origin this engine takes: every shift
/// stays within one word.
const MAX_RUN: usize = 64;

/// One step as this engine runs it: the rectangle of cells it gathers for the output cell
/// `(x, y)`, i.e. `(x + dx, y + dy)` for `dx` in `x0..x0 + w`, `dy` in `y0..y0 + h`, AND or
/// OR, and the border value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rect {
    x0: isize,
    w: usize,
    y0: isize,
    h: usize,
    erode: bool,
    border: bool,
}

impl Rect {
    /// The step `fp` (an erosion when `erode`, else a dilation, which gathers through the
    /// reflected footprint) with `border`, or `None` when the footprint is not a full
    /// rectangle, is wider than 64 columns or gathers from further than 63 columns.
    pub(crate) fn new(fp: &Footprint, erode: bool, border: bool) -> Option<Rect> {
        if fp.width() == 0 || fp.height() == 0 || !fp.is_full() {
            return None;
        }
        let (cx, cy) = fp.center();
        let (w, h) = (fp.width(), fp.height());
        // Offsets of the pattern: -cx .. w - 1 - cx; the reflection gathers their negation.
        let (x0, y0) = if erode {
            (-cx, -cy)
        } else {
            (cx + 1 - w as isize, cy + 1 - h as isize)
        };
        if w > MAX_RUN || x0.unsigned_abs() >= 64 {
            return None;
        }
        Some(Rect {
            x0,
            w,
            y0,
            h,
            erode,
            border,
        })
    }

    /// The border value as a word.
    fn border_word(self) -> u64 {
        if self.border {
            !0
        } else {
            0
        }
    }
}

/// `p[i] = op(p[i], p read s columns on)` (`0 < s < 64`) in place, the word after the
/// last being `b`. Ascending: word `i` reads word `i + 1` before it is updated.
#[inline(always)]
fn double<const ALL: bool>(p: &mut [u64], s: u32, b: u64) {
    let n = p.len();
    for i in 0..n - 1 {
        p[i] = op::<ALL>(p[i], (p[i] >> s) | (p[i + 1] << (64 - s)));
    }
    p[n - 1] = op::<ALL>(p[n - 1], (p[n - 1] >> s) | (b << (64 - s)));
}

/// The runs of one padded row `p` (its words and a word of the border on either side) in
/// place: bit `x` becomes the AND / OR of bits `x .. x + w` (words past the ends read
/// `b`), by doubling shifts, then that shifted by `x0` columns into `dst` (the row's own
/// words, two fewer than `p`).
#[inline(always)]
fn horizontal<const ALL: bool>(p: &mut [u64], dst: &mut [u64], w: usize, x0: isize, b: u64) {
    let mut span = 1usize;
    while 2 * span <= w {
        double::<ALL>(p, span as u32, b);
        span *= 2;
    }
    let rest = w - span;
    if rest > 0 {
        double::<ALL>(p, rest as u32, b);
    }
    // dst word i is padded word i + 1, read x0 columns on.
    let m = dst.len();
    let p = &p[..m + 2];
    match x0 {
        0 => dst.copy_from_slice(&p[1..=m]),
        s if s > 0 => {
            let s = s as u32;
            for i in 0..m {
                dst[i] = (p[i + 1] >> s) | (p[i + 2] << (64 - s));
            }
        }
        s => {
            let s = s.unsigned_abs() as u32;
            for i in 0..m {
                dst[i] = (p[i + 1] << s) | (p[i] >> (64 - s));
            }
        }
    }
}

/// `dst[i] = op(a[i], b[i])`.
#[inline(always)]
fn combine<const ALL: bool>(dst: &mut [u64], a: &[u64], b: &[u64]) {
    let n = dst.len();
    let (a, b) = (&a[..n], &b[..n]);
    for i in 0..n {
        dst[i] = op::<ALL>(a[i], b[i]);
    }
}

/// A ring of `len` rows of `wpr` words (a power of two), row `u` at `u % len`.
struct Ring {
    rows: Vec<u64>,
    len: usize,
    wpr: usize,
}

impl Ring {
    fn new(len: usize, wpr: usize) -> Ring {
        Ring {
            rows: vec![0; len * wpr],
            len,
            wpr,
        }
    }

    /// Row `u`; `u` may be negative (a row not made yet: any words).
    #[inline(always)]
    fn row(&self, u: isize) -> &[u64] {
        let k = u.rem_euclid(self.len as isize) as usize * self.wpr;
        &self.rows[k..k + self.wpr]
    }

    #[inline(always)]
    fn row_mut(&mut self, u: isize) -> &mut [u64] {
        let k = u.rem_euclid(self.len as isize) as usize * self.wpr;
        &mut self.rows[k..k + self.wpr]
    }
}

/// What [`Stage::push`] is given: a row of the border (above or below the image), a row of
/// image bytes to pack, or a row of words made by the step before.
enum Input<'a> {
    Border,
    Bytes(&'a [u8]),
    Words(&'a [u64]),
}

/// One step: its rectangle, its padded row, and its rings (level `j` the AND / OR of `2^j`
/// consecutive horizontal results).
struct Stage {
    rect: Rect,
    width: usize,
    height: usize,
    wpr: usize,
    padded: Vec<u64>,
    levels: Vec<Ring>,
    /// The input rows pushed so far.
    count: isize,
    /// The first input row (row index of the image, negative above it).
    first: isize,
}

impl Stage {
    fn new(rect: Rect, width: usize, height: usize) -> Stage {
        let wpr = width.div_ceil(64);
        let top = rect.h.ilog2() as usize;
        // Level j < top is read 2^j rows back, the top level h - 2^top < 2^top rows back.
        let levels = (0..=top)
            .map(|j| Ring::new(if j < top { 2 << j } else { 1 << top }, wpr))
            .collect();
        Stage {
            rect,
            width,
            height,
            wpr,
            padded: vec![rect.border_word(); wpr + 2],
            levels,
            count: 0,
            first: rect.y0.min(0),
        }
    }

    /// Rows of the border pushed before the image's first row.
    fn rows_before(&self) -> usize {
        self.first.unsigned_abs()
    }

    /// Rows of the border pushed after the image's last row.
    fn rows_after(&self) -> usize {
        (self.rect.y0 + self.rect.h as isize - 1).max(0) as usize
    }

    /// Pushes the next input row (its bytes folded into `values` when `CHECK`); when an
    /// output row `y` of the image is complete, writes it into `out` and returns `y`.
    #[inline(always)]
    fn push<const AVX512: bool, const CHECK: bool>(
        &mut self,
        input: Input<'_>,
        pack_with: (ByteKernel, u8),
        out: &mut [u64],
        values: &mut ByteValues,
    ) -> Option<usize> {
        if self.rect.erode {
            self.push_op::<true, AVX512, CHECK>(input, pack_with, out, values)
        } else {
            self.push_op::<false, AVX512, CHECK>(input, pack_with, out, values)
        }
    }

    #[inline(always)]
    fn push_op<const ALL: bool, const AVX512: bool, const CHECK: bool>(
        &mut self,
        input: Input<'_>,
        (kernel, threshold): (ByteKernel, u8),
        out: &mut [u64],
        values: &mut ByteValues,
    ) -> Option<usize> {
        let wpr = self.wpr;
        let filled = match input {
            Input::Border => false,
            Input::Bytes(bytes) => {
                let dst = &mut self.padded[1..=wpr];
                pack::<AVX512, CHECK>(kernel, bytes, threshold, dst, values);
                true
            }
            Input::Words(words) => {
                self.padded[1..=wpr].copy_from_slice(&words[..wpr]);
                true
            }
        };
        let (y, u) = self.advance::<ALL>(filled)?;
        let [a, b] = self.finals(u);
        combine::<ALL>(out, a, b);
        Some(y)
    }

    /// Takes the next input row (in `padded`'s inner words when `filled`, else a row of the
    /// border): its horizontal result and the levels above it. Returns the output row `y`
    /// and the row `u` of the rings that complete it ([`finals`](Self::finals)), if any.
    #[inline(always)]
    fn advance<const ALL: bool>(&mut self, filled: bool) -> Option<(usize, isize)> {
        let (wpr, b, u) = (self.wpr, self.rect.border_word(), self.count);
        self.count += 1;
        let Stage {
            rect,
            padded,
            levels,
            width,
            ..
        } = self;
        if filled {
            let t = tail_mask(*width);
            padded[0] = b;
            padded[wpr] = (padded[wpr] & t) | (b & !t);
            padded[wpr + 1] = b;
            horizontal::<ALL>(padded, levels[0].row_mut(u), rect.w, rect.x0, b);
        } else {
            levels[0].row_mut(u).fill(b);
        }
        for j in 1..levels.len() {
            let (lo, hi) = levels.split_at_mut(j);
            let prev = &lo[j - 1];
            combine::<ALL>(hi[0].row_mut(u), prev.row(u), prev.row(u - (1 << (j - 1))));
        }
        // The window ending at input row `first + u` gives output row `that - (y0 + h - 1)`.
        let y = self.first + u - (self.rect.y0 + self.rect.h as isize - 1);
        if y < 0 || y >= self.height as isize {
            return None;
        }
        Some((y as usize, u))
    }

    /// The two rows of the top level whose AND / OR is the output row completed at ring row
    /// `u` (the same row twice when the height is a power of two). They stay valid until
    /// the next row is advanced.
    #[inline(always)]
    fn finals(&self, u: isize) -> [&[u64]; 2] {
        let top = &self.levels[self.levels.len() - 1];
        let rest = self.rect.h - (1 << (self.levels.len() - 1));
        [top.row(u), top.row(u - rest as isize)]
    }
}

/// Pushes `input` into stage `k` and every row it completes on down the pipeline, the last
/// stage's rows unpacked into the output; image bytes are folded into `values` when
/// `CHECK`. A loop, not a recursion, so that it is inlined into the copies compiled for
/// each CPU level.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn feed<const AVX512: bool, const CHECK: bool>(
    stages: &mut [Stage],
    bufs: &mut [Vec<u64>],
    k: usize,
    input: Input<'_>,
    kernel: ByteKernel,
    threshold: u8,
    out: &mut Out<'_>,
    values: &mut ByteValues,
) {
    let mut k = k;
    let with = (kernel, threshold);
    let Some(mut y) = stages[k].push::<AVX512, CHECK>(input, with, &mut bufs[k], values) else {
        return;
    };
    while k + 1 < stages.len() {
        let (head, tail) = bufs.split_at_mut(k + 1);
        let row = Input::Words(&head[k]);
        match stages[k + 1].push::<AVX512, CHECK>(row, with, &mut tail[0], values) {
            Some(next) => {
                y = next;
                k += 1;
            }
            None => return,
        }
    }
    let w = stages[k].width;
    let o = &mut out.pixels[y * out.stride..y * out.stride + w];
    unpack::<AVX512>(kernel, &bufs[k], out.set, out.empty, o);
}

/// The pipeline: the border rows above the image (for each stage as its origin needs),
/// the image's rows, then the border rows below it, stage by stage.
#[inline(always)]
fn run_body<const AVX512: bool, const CHECK: bool>(
    image: &ByteImage<'_>,
    steps: &[Rect],
    mut out: Out<'_>,
    kernel: ByteKernel,
    values: &mut ByteValues,
) {
    let (w, h) = image.size();
    if steps.is_empty() || w == 0 || h == 0 {
        return;
    }
    let wpr = w.div_ceil(64);
    let (pixels, stride, threshold) = (image.pixels(), image.stride(), image.threshold());
    let mut stages: Vec<Stage> = steps.iter().map(|&s| Stage::new(s, w, h)).collect();
    let mut bufs = vec![vec![0u64; wpr]; steps.len()];
    // Last stage first: a stage's rows above the image come before any row the stage
    // ahead of it makes.
    for k in (0..stages.len()).rev() {
        for _ in 0..stages[k].rows_before() {
            feed::<AVX512, CHECK>(
                &mut stages,
                &mut bufs,
                k,
                Input::Border,
                kernel,
                threshold,
                &mut out,
                values,
            );
        }
    }
    for t in 0..h {
        let row = &pixels[t * stride..t * stride + w];
        feed::<AVX512, CHECK>(
            &mut stages,
            &mut bufs,
            0,
            Input::Bytes(row),
            kernel,
            threshold,
            &mut out,
            values,
        );
    }
    for k in 0..stages.len() {
        for _ in 0..stages[k].rows_after() {
            feed::<AVX512, CHECK>(
                &mut stages,
                &mut bufs,
                k,
                Input::Border,
                kernel,
                threshold,
                &mut out,
                values,
            );
        }
    }
}

/// [`run_body`] compiled for AVX-512 F and BW: the word loops vectorised, the bytes packed
/// and unpacked by the AVX-512 row kernels inlined.
///
/// # Safety
/// The CPU must have AVX2 and AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn run_avx512<const CHECK: bool>(
    image: &ByteImage<'_>,
    steps: &[Rect],
    out: Out<'_>,
    values: &mut ByteValues,
) {
    run_body::<true, CHECK>(image, steps, out, ByteKernel::Avx512, values);
}

/// One step (an erosion or a dilation): as [`run_body`], with the unpack of each output
/// row done in the loop that packs the next image row ([`Turn`], which also makes the row
/// from the two rows of the top level): the loads of one and the stores of the other are
/// in flight together.
#[cfg(target_arch = "x86_64")]
impl OneStep for (&ByteImage<'_>, Rect, Out<'_>) {
    fn erode(&self) -> bool {
        self.1.erode
    }

    #[inline(always)]
    fn run<K: Turn, const ALL: bool, const CHECK: bool>(self, values: &mut ByteValues) {
        let (image, rect, out) = self;
        let (w, h) = image.size();
        if w == 0 || h == 0 {
            return;
        }
        let (pixels, stride, threshold) = (image.pixels(), image.stride(), image.threshold());
        let bytes_out = (out.set, out.empty);
        // SAFETY: this pass runs only inside `one_step_avx512` and `one_step_avx2`, on CPUs
        // with the features of their kernel `K`.
        let mut acc = unsafe { K::fold() };
        let v = &mut acc;
        let mut st = Stage::new(rect, w, h);
        // The output row made but not written yet, and its ring row.
        let mut pending: Option<(usize, isize)> = None;
        let (before, after) = (st.rows_before(), st.rows_after());
        for t in 0..before + h + after {
            let image_row = t.checked_sub(before).filter(|&r| r < h);
            let row = match image_row {
                Some(r) => &pixels[r * stride..r * stride + w],
                None => &[][..],
            };
            let filled = image_row.is_some();
            let mut fresh = std::mem::take(&mut st.padded);
            match pending.take() {
                Some((y, u)) => {
                    let [a, b] = st.finals(u);
                    let o = &mut out.pixels[y * out.stride..y * out.stride + w];
                    let rows = [a, b, a];
                    if filled {
                        K::turn::<ALL, true, true, CHECK>(
                            row, threshold, &mut fresh, rows, o, bytes_out, w, v,
                        );
                    } else {
                        K::turn::<ALL, false, true, CHECK>(
                            row, threshold, &mut fresh, rows, o, bytes_out, w, v,
                        );
                    }
                }
                None if filled => {
                    // No row to write: the rows passed are not read.
                    let [a, b] = st.finals(0);
                    let o: &mut [u8] = &mut [];
                    let rows = [a, b, a];
                    K::turn::<ALL, true, false, CHECK>(
                        row, threshold, &mut fresh, rows, o, bytes_out, w, v,
                    );
                }
                None => {}
            }
            st.padded = fresh;
            pending = st.advance::<ALL>(filled);
        }
        if let Some((y, u)) = pending {
            let mut fresh = std::mem::take(&mut st.padded);
            let [a, b] = st.finals(u);
            let o = &mut out.pixels[y * out.stride..y * out.stride + w];
            let rows = [a, b, a];
            K::turn::<ALL, false, true, CHECK>(
                &[],
                threshold,
                &mut fresh,
                rows,
                o,
                bytes_out,
                w,
                v,
            );
        }
        if CHECK {
            // SAFETY: as for `K::fold` above.
            unsafe { K::reduce(acc, values) };
        }
    }
}

/// [`run_body`] compiled for AVX2 (the word loops vectorised).
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn run_avx2<const CHECK: bool>(
    image: &ByteImage<'_>,
    steps: &[Rect],
    out: Out<'_>,
    kernel: ByteKernel,
    values: &mut ByteValues,
) {
    run_body::<false, CHECK>(image, steps, out, kernel, values);
}

/// Applies `steps` in order to `image`, writing the result into `out` (checked to hold the
/// image's rows at its stride); when `CHECK`, folds every byte of the image into `values`
/// as it is packed. The AVX-512 copy runs when the CPU has AVX-512 F and BW, the AVX2 copy
/// when it has AVX2 (as [`crate::cpu`] allows now), else plain Rust; the bytes are packed
/// and unpacked by [`ByteKernel::best`].
pub(crate) fn run<const CHECK: bool>(
    image: &ByteImage<'_>,
    steps: &[Rect],
    out: Out<'_>,
    values: &mut ByteValues,
) {
    let kernel = ByteKernel::best();
    #[cfg(target_arch = "x86_64")]
    {
        use crate::cpu::{has, Features};
        if kernel == ByteKernel::Avx512 && has(Features::AVX2) {
            // SAFETY: `best` picked the AVX-512 kernel, so the CPU has AVX-512 F and BW (and
            // AVX2, just checked); `one_step_avx512` and `run_avx512` have no other
            // requirement.
            return unsafe {
                match steps {
                    [rect] => one_step_avx512::<_, CHECK>((image, *rect, out), values),
                    _ => run_avx512::<CHECK>(image, steps, out, values),
                }
            };
        }
        if has(Features::AVX2) {
            // SAFETY: `one_step_avx2` and `run_avx2` are only compiled for AVX2, which the
            // CPU was just checked to support; they have no other requirement.
            return unsafe {
                match steps {
                    [rect] => one_step_avx2::<_, CHECK>((image, *rect, out), values),
                    _ => run_avx2::<CHECK>(image, steps, out, kernel, values),
                }
            };
        }
    }
    run_body::<false, CHECK>(image, steps, out, kernel, values);
}
