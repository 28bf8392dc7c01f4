//! The engine of [`morph_bytes`](super::morph_bytes) for footprints within one cell of
//! their centre (the 3x3 square, the cross, any pattern inside the 3x3 box around the
//! centre): one pass over the image, one output row at a time, with no grid of the whole
//! image and no stripe.
//!
//! The window is separable by rows: an output row is the AND (erosion) or OR (dilation) of
//! three rows, each the AND / OR of one row of the input over the columns its footprint row
//! reads. So each row of a step's input is stored once in a ring (packed, widened by a
//! word of the border on either side) together with its horizontal passes, one per distinct
//! column pattern of the footprint's rows (one for the 3x3 square, one for the cross, none
//! for a column), made as the row is stored; an output row is then one word operation per
//! footprint row. Each step's ring is one row behind the step before it; the last step's
//! row is unpacked straight into the output bytes. Everything a row touches (a few rows of
//! 32 words for a 2048-wide image) stays in the first-level cache, so the image's bytes are
//! read once and the output's written once, in one loop.
//!
//! With AVX-512 the whole pass is compiled for it with the byte kernels inlined, and one
//! step (an erosion or a dilation, the commonest call) keeps a ring of four rows so that
//! the same loop packs image row `t` and writes output row `t - 2`: the loads of one and
//! the stores of the other are in flight together (0.12 ms against 0.14 ms for a 3x3
//! erosion of 2048x2048 bytes, a memory copy of them taking 0.09 ms; see
//! docs/benchmarks.md, "morph4"). With AVX2 one step runs the same loop with AVX2's
//! turn ([`Turn`]: 32 bytes a compare); there the separate row kernels, called a row at
//! a time, took 1.3x its time (docs/benchmarks.md, "cross4").
//!
//! Cells off the image read the step's border value: rows above and below the image are a
//! row of it, the words left and right of a row are words of it, and the bits past the
//! width of each ring row are set to it when the row is stored.

use super::footprint::Footprint;
use super::row_runs::op;
#[cfg(target_arch = "x86_64")]
use super::turn::{one_step_avx2, one_step_avx512, OneStep, Turn};
use crate::grid::{pack_row_with, tail_mask, unpack_row, ByteImage, ByteKernel, ByteValues};

/// One step as this engine runs it: the gather offsets of each footprint row as a pattern
/// of columns, AND or OR, and the border value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Window {
    /// `masks[dy + 1]` has bit `dx + 1` set where the step reads the cell `(x + dx, y + dy)`
    /// for the output cell `(x, y)`.
    masks: [u8; 3],
    /// Erosion (AND) or dilation (OR).
    erode: bool,
    /// The value of cells off the image.
    border: bool,
}

impl Window {
    /// The step `fp` (an erosion when `erode`, else a dilation, which gathers through the
    /// reflected footprint) with `border`, or `None` when the footprint has no set cell or
    /// reaches past one cell from its centre.
    pub(crate) fn new(fp: &Footprint, erode: bool, border: bool) -> Option<Window> {
        let offsets = fp.offsets();
        if offsets.is_empty() {
            return None;
        }
        let mut masks = [0u8; 3];
        for (dx, dy) in offsets {
            let (dx, dy) = if erode { (dx, dy) } else { (-dx, -dy) };
            if !(-1..=1).contains(&dx) || !(-1..=1).contains(&dy) {
                return None;
            }
            masks[(dy + 1) as usize] |= 1 << (dx + 1);
        }
        Some(Window {
            masks,
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

/// Where [`run`] writes: as [`ByteOutput`](super::ByteOutput), the checks done.
pub(crate) struct Out<'a> {
    pub pixels: &'a mut [u8],
    pub stride: usize,
    pub set: u8,
    pub empty: u8,
}

/// `dst(x)`: the AND or OR, over the column offsets of `MASK` (bit `dx + 1`), of the cells
/// `x + dx` of `row`, which is widened by one word of the border on either side (two words
/// more than `dst`). One plain loop of word operations, which the compiler vectorises.
#[inline(always)]
fn horizontal<const ALL: bool, const MASK: u8>(dst: &mut [u64], row: &[u64]) {
    let n = dst.len();
    let row = &row[..n + 2];
    // Indexed (not `iter_mut().enumerate()`): the form that measured fastest here.
    #[allow(clippy::needless_range_loop)]
    for i in 0..n {
        let (before, at, after) = (row[i], row[i + 1], row[i + 2]);
        // Cell x reads x - 1 (the word before, shifted up) and x + 1 (shifted down).
        let l = (at << 1) | (before >> 63);
        let r = (at >> 1) | (after << 63);
        dst[i] = match MASK {
            7 => op::<ALL>(op::<ALL>(l, at), r),
            3 => op::<ALL>(l, at),
            6 => op::<ALL>(at, r),
            5 => op::<ALL>(l, r),
            1 => l,
            4 => r,
            _ => at,
        };
    }
}

/// [`horizontal`] with the mask as a value.
#[inline(always)]
fn horizontal_mask<const ALL: bool>(dst: &mut [u64], row: &[u64], mask: u8) {
    match mask {
        7 => horizontal::<ALL, 7>(dst, row),
        3 => horizontal::<ALL, 3>(dst, row),
        6 => horizontal::<ALL, 6>(dst, row),
        5 => horizontal::<ALL, 5>(dst, row),
        1 => horizontal::<ALL, 1>(dst, row),
        4 => horizontal::<ALL, 4>(dst, row),
        _ => horizontal::<ALL, 2>(dst, row),
    }
}

/// Where a step reads one row of its window (above, at, below) from: nowhere (the
/// footprint has no cell in that row), the stored row itself (its centre column alone), or
/// the `j`-th horizontal pass made of each stored row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Skip,
    Packed,
    Made(usize),
}

/// How a step reads its window: the source of each of its three rows, and the column
/// patterns made of every row as it is stored (one for the 3x3 square, one for the cross,
/// at most three; none for a pattern of the centre column alone).
#[derive(Clone, Copy, Debug)]
struct Reads {
    sources: [Source; 3],
    made: [u8; 3],
    n_made: usize,
}

impl Reads {
    fn new(win: Window) -> Reads {
        let mut r = Reads {
            sources: [Source::Skip; 3],
            made: [0; 3],
            n_made: 0,
        };
        for (k, &m) in win.masks.iter().enumerate() {
            r.sources[k] = match m {
                0 => Source::Skip,
                2 => Source::Packed,
                _ => match r.made[..r.n_made].iter().position(|&x| x == m) {
                    Some(j) => Source::Made(j),
                    None => {
                        r.made[r.n_made] = m;
                        r.n_made += 1;
                        Source::Made(r.n_made - 1)
                    }
                },
            };
        }
        r
    }
}

/// One stored row of a step's input: the packed row widened by a word of the border on
/// either side (its bits past the width hold the border too), and the horizontal passes of
/// it that the step reads.
struct Slot {
    packed: Vec<u64>,
    made: [Vec<u64>; 3],
}

impl Slot {
    /// A slot of `wpr` words a row, its end words `border` and the rest `fill`.
    fn new(wpr: usize, border: u64, fill: u64) -> Slot {
        let mut packed = vec![fill; wpr + 2];
        packed[0] = border;
        packed[wpr + 1] = border;
        Slot {
            packed,
            made: [vec![fill; wpr], vec![fill; wpr], vec![fill; wpr]],
        }
    }

    /// The `wpr` words of the row between its end words, to be written.
    #[inline(always)]
    fn row_mut(&mut self, wpr: usize) -> &mut [u64] {
        &mut self.packed[1..=wpr]
    }

    /// Sets the bits past `width` to `border` and makes the horizontal passes of `reads`.
    #[inline(always)]
    fn finish(&mut self, reads: &Reads, width: usize, border: u64, erode: bool) {
        let wpr = width.div_ceil(64);
        let t = tail_mask(width);
        let last = &mut self.packed[wpr];
        *last = (*last & t) | (border & !t);
        let Slot { packed, made } = self;
        for (dst, &mask) in made.iter_mut().zip(&reads.made[..reads.n_made]) {
            if erode {
                horizontal_mask::<true>(dst, packed, mask);
            } else {
                horizontal_mask::<false>(dst, packed, mask);
            }
        }
    }

    /// The row as `source` reads it (`None` for `Skip`).
    #[inline(always)]
    fn read(&self, source: Source, wpr: usize) -> Option<&[u64]> {
        match source {
            Source::Skip => None,
            Source::Packed => Some(&self.packed[1..=wpr]),
            Source::Made(j) => Some(&self.made[j][..wpr]),
        }
    }
}

/// `dst[i] = op(rows[0][i], rows[1][i], ...)` over the `Some` rows (one at least).
#[inline(always)]
fn combine<const ALL: bool>(dst: &mut [u64], rows: [Option<&[u64]>; 3]) {
    let n = dst.len();
    // Indexed loops, as in `horizontal`.
    #[allow(clippy::needless_range_loop)]
    match rows {
        [Some(a), Some(b), Some(c)] => {
            let (a, b, c) = (&a[..n], &b[..n], &c[..n]);
            for i in 0..n {
                dst[i] = op::<ALL>(op::<ALL>(a[i], b[i]), c[i]);
            }
        }
        [Some(a), Some(b), None] | [Some(a), None, Some(b)] | [None, Some(a), Some(b)] => {
            let (a, b) = (&a[..n], &b[..n]);
            for i in 0..n {
                dst[i] = op::<ALL>(a[i], b[i]);
            }
        }
        [Some(a), None, None] | [None, Some(a), None] | [None, None, Some(a)] => {
            dst.copy_from_slice(&a[..n]);
        }
        [None, None, None] => dst.fill(if ALL { !0 } else { 0 }),
    }
}

/// One step: its window, how it reads it, its ring of three stored input rows (row `r` of
/// its input in `ring[r % 3]`) and a row of the border for the rows off the image.
struct Stage {
    win: Window,
    reads: Reads,
    ring: [Slot; 3],
    edge: Slot,
}

impl Stage {
    fn new(win: Window, wpr: usize) -> Stage {
        let b = win.border_word();
        Stage {
            win,
            reads: Reads::new(win),
            ring: [
                Slot::new(wpr, b, 0),
                Slot::new(wpr, b, 0),
                Slot::new(wpr, b, 0),
            ],
            // Every pass of a row of the border is the border.
            edge: Slot::new(wpr, b, b),
        }
    }

    /// Output row `y` of the step (of `h` rows) into `dst`.
    #[inline(always)]
    fn compute(&self, y: usize, h: usize, dst: &mut [u64]) {
        let wpr = dst.len();
        let above = if y == 0 {
            &self.edge
        } else {
            &self.ring[(y - 1) % 3]
        };
        let below = if y + 1 >= h {
            &self.edge
        } else {
            &self.ring[(y + 1) % 3]
        };
        let at = &self.ring[y % 3];
        let s = self.reads.sources;
        let rows = [
            above.read(s[0], wpr),
            at.read(s[1], wpr),
            below.read(s[2], wpr),
        ];
        if self.win.erode {
            combine::<true>(dst, rows);
        } else {
            combine::<false>(dst, rows);
        }
    }
}

/// Packs one row of bytes into `dst`: by the row kernel of AVX-512, inlined, when `AVX512`
/// (the caller was compiled for it), else through `kernel`; when `CHECK`, the kernel folds
/// the bytes into `values` too (the two-value check, [`ByteValues`]).
#[inline(always)]
pub(super) fn pack<const AVX512: bool, const CHECK: bool>(
    kernel: ByteKernel,
    row: &[u8],
    threshold: u8,
    dst: &mut [u64],
    values: &mut ByteValues,
) {
    #[cfg(target_arch = "x86_64")]
    if AVX512 {
        // SAFETY: `AVX512` is true only in `run_avx512`, which runs on CPUs with AVX-512 F
        // and BW.
        unsafe { crate::grid::pack_row_avx512::<CHECK>(row, threshold, dst, values) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if kernel == ByteKernel::Avx2 && crate::cpu::has(crate::cpu::Features::AVX2) {
        // SAFETY: the CPU has AVX2 (checked just above), all the row kernel needs; in the
        // AVX2 copies of the passes it inlines.
        unsafe { crate::grid::pack_row_avx2::<CHECK>(row, threshold, dst, values) };
        return;
    }
    pack_row_with::<CHECK>(kernel, row, threshold, dst, values);
}

/// Unpacks one row of words into bytes, as [`pack`] chooses its kernel.
#[inline(always)]
pub(super) fn unpack<const AVX512: bool>(
    kernel: ByteKernel,
    words: &[u64],
    set: u8,
    empty: u8,
    o: &mut [u8],
) {
    #[cfg(target_arch = "x86_64")]
    if AVX512 {
        // SAFETY: as in `pack`.
        unsafe { crate::grid::unpack_row_avx512(words, set, empty, o) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if kernel == ByteKernel::Avx2 && crate::cpu::has(crate::cpu::Features::AVX2) {
        // SAFETY: as in `pack`.
        unsafe { crate::grid::unpack_row_avx2(words, set, empty, o) };
        return;
    }
    unpack_row(kernel, words, set, empty, o);
}

/// The pipeline: row `t` of the image is packed at turn `t`, step `k` (from 1) computes its
/// row `t - k`, and the last step's row is unpacked as soon as it is made. Stage `k` holds
/// the rows step `k` (from 0) reads.
#[inline(always)]
fn run_body<const AVX512: bool, const CHECK: bool>(
    image: &ByteImage<'_>,
    steps: &[Window],
    out: Out<'_>,
    kernel: ByteKernel,
    values: &mut ByteValues,
) {
    let (w, h) = image.size();
    let n = steps.len();
    if n == 0 || w == 0 || h == 0 {
        return;
    }
    let wpr = w.div_ceil(64);
    let (pixels, stride, threshold) = (image.pixels(), image.stride(), image.threshold());
    let mut stages: Vec<Stage> = steps.iter().map(|&s| Stage::new(s, wpr)).collect();
    let mut last = vec![0u64; wpr];
    for t in 0..h + n {
        if t < h {
            let row = &pixels[t * stride..t * stride + w];
            let first = &mut stages[0];
            let slot = &mut first.ring[t % 3];
            pack::<AVX512, CHECK>(kernel, row, threshold, slot.row_mut(wpr), values);
            slot.finish(&first.reads, w, first.win.border_word(), first.win.erode);
        }
        for k in 0..n {
            // Step k (from 0) makes its row t - k - 1.
            let Some(y) = t.checked_sub(k + 1) else { break };
            if y >= h {
                continue;
            }
            if k + 1 < n {
                let (head, tail) = stages.split_at_mut(k + 1);
                let next = &mut tail[0];
                let slot = &mut next.ring[y % 3];
                head[k].compute(y, h, slot.row_mut(wpr));
                slot.finish(&next.reads, w, next.win.border_word(), next.win.erode);
            } else {
                stages[k].compute(y, h, &mut last);
                let o = &mut out.pixels[y * out.stride..y * out.stride + w];
                unpack::<AVX512>(kernel, &last, out.set, out.empty, o);
            }
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
    steps: &[Window],
    out: Out<'_>,
    values: &mut ByteValues,
) {
    run_body::<true, CHECK>(image, steps, out, ByteKernel::Avx512, values);
}

/// One step (an erosion or a dilation, the Python drop-ins' commonest call): as
/// [`run_body`], with a ring of four rows so that turn `t` packs image row `t` and writes
/// output row `t - 2` in the same loop ([`Turn`]).
#[cfg(target_arch = "x86_64")]
impl OneStep for (&ByteImage<'_>, Window, Out<'_>) {
    fn erode(&self) -> bool {
        self.1.erode
    }

    #[inline(always)]
    fn run<K: Turn, const ALL: bool, const CHECK: bool>(self, values: &mut ByteValues) {
        let (image, win, out) = self;
        let (w, h) = image.size();
        if w == 0 || h == 0 {
            return;
        }
        let wpr = w.div_ceil(64);
        let (pixels, stride, threshold) = (image.pixels(), image.stride(), image.threshold());
        let b = win.border_word();
        let reads = Reads::new(win);
        let mut ring = [
            Slot::new(wpr, b, 0),
            Slot::new(wpr, b, 0),
            Slot::new(wpr, b, 0),
            Slot::new(wpr, b, 0),
        ];
        let edge = Slot::new(wpr, b, b);
        let identity = vec![if ALL { !0u64 } else { 0 }; wpr];
        let mut fresh = Slot::new(wpr, b, 0).packed;
        let values_out = (out.set, out.empty);
        // SAFETY: this pass runs only inside `one_step_avx512` and `one_step_avx2`, on CPUs
        // with the features of their kernel `K`.
        let mut acc = unsafe { K::fold() };
        let v = &mut acc;
        for t in 0..h + 2 {
            let row = if t < h {
                &pixels[t * stride..t * stride + w]
            } else {
                &[][..]
            };
            if t >= 2 {
                let y = t - 2;
                let above = if y == 0 { &edge } else { &ring[(y - 1) % 4] };
                let below = if y + 1 >= h {
                    &edge
                } else {
                    &ring[(y + 1) % 4]
                };
                let at = &ring[y % 4];
                let s = reads.sources;
                let rows = [
                    above.read(s[0], wpr).unwrap_or(&identity),
                    at.read(s[1], wpr).unwrap_or(&identity),
                    below.read(s[2], wpr).unwrap_or(&identity),
                ];
                let o = &mut out.pixels[y * out.stride..y * out.stride + w];
                if t < h {
                    K::turn::<ALL, true, true, CHECK>(
                        row, threshold, &mut fresh, rows, o, values_out, w, v,
                    );
                } else {
                    K::turn::<ALL, false, true, CHECK>(
                        row, threshold, &mut fresh, rows, o, values_out, w, v,
                    );
                }
            } else if t < h {
                let o: &mut [u8] = &mut [];
                let rows = [&identity[..]; 3];
                K::turn::<ALL, true, false, CHECK>(
                    row, threshold, &mut fresh, rows, o, values_out, w, v,
                );
            }
            if t < h {
                let slot = &mut ring[t % 4];
                std::mem::swap(&mut slot.packed, &mut fresh);
                slot.finish(&reads, w, b, ALL);
            }
        }
        if CHECK {
            // SAFETY: as for `K::fold` above.
            unsafe { K::reduce(acc, values) };
        }
    }
}

/// The morphological gradient in one pass: each image row is packed once (its bytes folded
/// into `values` when `CHECK`) into the rings of two stages, the erosion's and the
/// dilation's (each with its border), and each output row is the dilation's row without
/// the erosion's, unpacked as soon as it is made. The erosion and the dilation read the
/// same three rows, so this costs one pack, one unpack and the two windows' word work:
/// about one step's time, where two steps and a subtraction of their bytes cost three.
#[inline(always)]
fn gradient_body<const AVX512: bool, const CHECK: bool>(
    image: &ByteImage<'_>,
    [erode, dilate]: [Window; 2],
    out: Out<'_>,
    kernel: ByteKernel,
    values: &mut ByteValues,
) {
    let (w, h) = image.size();
    if w == 0 || h == 0 {
        return;
    }
    let wpr = w.div_ceil(64);
    let (pixels, stride, threshold) = (image.pixels(), image.stride(), image.threshold());
    let mut e = Stage::new(erode, wpr);
    let mut d = Stage::new(dilate, wpr);
    let (mut eroded, mut last) = (vec![0u64; wpr], vec![0u64; wpr]);
    for t in 0..=h {
        if t < h {
            let row = &pixels[t * stride..t * stride + w];
            let (es, ds) = (&mut e.ring[t % 3], &mut d.ring[t % 3]);
            pack::<AVX512, CHECK>(kernel, row, threshold, es.row_mut(wpr), values);
            ds.row_mut(wpr).copy_from_slice(&es.packed[1..=wpr]);
            es.finish(&e.reads, w, e.win.border_word(), e.win.erode);
            ds.finish(&d.reads, w, d.win.border_word(), d.win.erode);
        }
        let Some(y) = t.checked_sub(1) else { continue };
        e.compute(y, h, &mut eroded);
        d.compute(y, h, &mut last);
        for (l, &x) in last.iter_mut().zip(&eroded) {
            *l &= !x;
        }
        let o = &mut out.pixels[y * out.stride..y * out.stride + w];
        unpack::<AVX512>(kernel, &last, out.set, out.empty, o);
    }
}

/// [`gradient_body`] compiled for AVX-512 F and BW.
///
/// # Safety
/// The CPU must have AVX2 and AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn gradient_avx512<const CHECK: bool>(
    image: &ByteImage<'_>,
    windows: [Window; 2],
    out: Out<'_>,
    values: &mut ByteValues,
) {
    gradient_body::<true, CHECK>(image, windows, out, ByteKernel::Avx512, values);
}

/// [`gradient_body`] compiled for AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn gradient_avx2<const CHECK: bool>(
    image: &ByteImage<'_>,
    windows: [Window; 2],
    out: Out<'_>,
    kernel: ByteKernel,
    values: &mut ByteValues,
) {
    gradient_body::<false, CHECK>(image, windows, out, kernel, values);
}

/// The morphological gradient of `image` into `out` (checked to hold the image's rows at
/// its stride): `out.set` where the dilation by `windows[1]` is set and the erosion by
/// `windows[0]` is not, in one pass; when `CHECK`, every byte of the image is folded into
/// `values` as it is packed. CPU levels as [`run`].
pub(crate) fn run_gradient<const CHECK: bool>(
    image: &ByteImage<'_>,
    windows: [Window; 2],
    out: Out<'_>,
    values: &mut ByteValues,
) {
    let kernel = ByteKernel::best();
    #[cfg(target_arch = "x86_64")]
    {
        use crate::cpu::{has, Features};
        if kernel == ByteKernel::Avx512 && has(Features::AVX2) {
            // SAFETY: as in `run`.
            return unsafe { gradient_avx512::<CHECK>(image, windows, out, values) };
        }
        if has(Features::AVX2) {
            // SAFETY: as in `run`.
            return unsafe { gradient_avx2::<CHECK>(image, windows, out, kernel, values) };
        }
    }
    gradient_body::<false, CHECK>(image, windows, out, kernel, values);
}

/// [`run_body`] compiled for AVX2 (the word loops vectorised).
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn run_avx2<const CHECK: bool>(
    image: &ByteImage<'_>,
    steps: &[Window],
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
    steps: &[Window],
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
                    [win] => one_step_avx512::<_, CHECK>((image, *win, out), values),
                    _ => run_avx512::<CHECK>(image, steps, out, values),
                }
            };
        }
        if has(Features::AVX2) {
            // SAFETY: `one_step_avx2` and `run_avx2` are only compiled for AVX2, which the
            // CPU was just checked to support; they have no other requirement.
            return unsafe {
                match steps {
                    [win] => one_step_avx2::<_, CHECK>((image, *win, out), values),
                    _ => run_avx2::<CHECK>(image, steps, out, kernel, values),
                }
            };
        }
    }
    run_body::<false, CHECK>(image, steps, out, kernel, values);
}
