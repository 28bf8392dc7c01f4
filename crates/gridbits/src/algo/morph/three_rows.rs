//! The engine of [`morph_bytes`](super::morph_bytes) for footprints within one cell of
//! their centre (the 3x3 square, the cross, any pattern inside the 3x3 box around the
//! centre): one pass over the image, one output row at a time, with no grid of the whole
//! image and no stripe.
//!
//! Each input row is packed once into a ring of three packed rows; each step keeps its own
//! ring of three rows of its output, one row behind the step before it. Per output row a
//! step ANDs (erosion) or ORs (dilation) the rows of its ring that share a pattern of
//! columns, then takes the shifts of one column left and right of that within the same
//! words; the last step's row is unpacked straight into the output bytes. Everything a row
//! touches (a few rows of 32 words for a 2048-wide image) stays in the first-level cache,
//! so the image's bytes are read once and the output's written once, in one loop.
//!
//! Cells off the image read the step's border value: rows above and below the image are a
//! row of it, the words left and right of a row are words of it, and the bits past the
//! width of each ring row are set to it when the row is written.

use super::footprint::Footprint;
use super::row_runs::op;
use crate::grid::{pack_row, tail_mask, unpack_row, ByteImage, ByteKernel};

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

/// `dst(x) = op(dst(x), h(x))` (`INIT`: `dst(x) = h(x)`), where `h` is the AND or OR of the
/// cells of `t` at the column offsets of `mask` (bit `dx + 1`); `t` is a row widened by one
/// word of the border on either side (two words more than `dst`).
#[inline(always)]
fn across<const ALL: bool, const INIT: bool>(dst: &mut [u64], t: &[u64], mask: u8) {
    let put = |d: &mut u64, v: u64| *d = if INIT { v } else { op::<ALL>(*d, v) };
    let (left, mid, right) = (mask & 1 != 0, mask & 2 != 0, mask & 4 != 0);
    for (d, w) in dst.iter_mut().zip(t.windows(3)) {
        // Cell x reads x - 1 (the word before, shifted up) and x + 1 (shifted down).
        let l = (w[1] << 1) | (w[0] >> 63);
        let r = (w[1] >> 1) | (w[2] << 63);
        let v = match (left, mid, right) {
            (true, true, true) => op::<ALL>(op::<ALL>(l, w[1]), r),
            (true, true, false) => op::<ALL>(l, w[1]),
            (false, true, true) => op::<ALL>(w[1], r),
            (true, false, true) => op::<ALL>(l, r),
            (true, false, false) => l,
            (false, false, true) => r,
            _ => w[1],
        };
        put(d, v);
    }
}

/// One output row of a step: `dst` from the three input rows `rows` (above, at, below;
/// their bits past the width hold the border), `tmp` a scratch row of two words more.
#[inline(always)]
fn step_row<const ALL: bool>(win: Window, rows: [&[u64]; 3], tmp: &mut [u64], dst: &mut [u64]) {
    let n = dst.len();
    let bw = win.border_word();
    tmp[0] = bw;
    tmp[n + 1] = bw;
    let mut first = true;
    for mask in 1..8u8 {
        let group = [0, 1, 2].map(|i| win.masks[i] == mask);
        if !group.contains(&true) {
            continue;
        }
        // The rows that read the same columns: combined down first, then across once.
        let mut it = (0..3).filter(|&i| group[i]).map(|i| rows[i]);
        let Some(r0) = it.next() else { continue };
        let t = &mut tmp[1..=n];
        t.copy_from_slice(r0);
        for r in it {
            for (a, &b) in t.iter_mut().zip(r) {
                *a = op::<ALL>(*a, b);
            }
        }
        if first {
            across::<ALL, true>(dst, tmp, mask);
        } else {
            across::<ALL, false>(dst, tmp, mask);
        }
        first = false;
    }
}

/// The 3x3 square (every mask full), in one loop: the rows' AND / OR down, then across,
/// without the scratch copy.
#[inline(always)]
fn square_row<const ALL: bool>(bw: u64, rows: [&[u64]; 3], dst: &mut [u64]) {
    let n = dst.len();
    let down = |i: usize| op::<ALL>(op::<ALL>(rows[0][i], rows[1][i]), rows[2][i]);
    let mut prev = bw;
    let mut cur = down(0);
    for i in 0..n {
        let next = if i + 1 < n { down(i + 1) } else { bw };
        let l = (cur << 1) | (prev >> 63);
        let r = (cur >> 1) | (next << 63);
        dst[i] = op::<ALL>(op::<ALL>(l, cur), r);
        prev = cur;
        cur = next;
    }
}

/// Sets the bits of `row`'s last word past `width` to `fill`.
#[inline(always)]
fn fill_tail(row: &mut [u64], width: usize, fill: u64) {
    if let Some(last) = row.last_mut() {
        let t = tail_mask(width);
        *last = (*last & t) | (fill & !t);
    }
}

/// One step's output row `y` from the ring `src` of its input (row `r` of the input at
/// `src[r % 3]`), the rows off the image read as `edge`.
#[inline(always)]
fn compute(
    win: Window,
    src: &[Vec<u64>; 3],
    edge: &[u64],
    y: usize,
    h: usize,
    tmp: &mut [u64],
    dst: &mut [u64],
) {
    let above = if y == 0 { edge } else { &src[(y - 1) % 3] };
    let below = if y + 1 >= h { edge } else { &src[(y + 1) % 3] };
    let rows = [above, &src[y % 3][..], below];
    let square = win.masks == [7, 7, 7];
    match (win.erode, square) {
        (true, true) => square_row::<true>(win.border_word(), rows, dst),
        (false, true) => square_row::<false>(win.border_word(), rows, dst),
        (true, false) => step_row::<true>(win, rows, tmp, dst),
        (false, false) => step_row::<false>(win, rows, tmp, dst),
    }
}

/// The pipeline: row `t` of the image is packed at turn `t`, step `k` (from 1) computes its
/// row `t - k`, and the last step's row is unpacked as soon as it is made.
#[inline(always)]
fn run_body(image: &ByteImage<'_>, steps: &[Window], out: Out<'_>, kernel: ByteKernel) {
    let (w, h) = image.size();
    let n = steps.len();
    if n == 0 || w == 0 || h == 0 {
        return;
    }
    let wpr = w.div_ceil(64);
    let (pixels, stride, threshold) = (image.pixels(), image.stride(), image.threshold());
    // rings[0]: the packed input; rings[k]: step k's output (k < n).
    let mut rings: Vec<[Vec<u64>; 3]> = (0..n)
        .map(|_| [vec![0u64; wpr], vec![0u64; wpr], vec![0u64; wpr]])
        .collect();
    let edges: Vec<Vec<u64>> = steps.iter().map(|s| vec![s.border_word(); wpr]).collect();
    let mut tmp = vec![0u64; wpr + 2];
    let mut last = vec![0u64; wpr];
    for t in 0..h + n {
        if t < h {
            let row = &pixels[t * stride..t * stride + w];
            let dst = &mut rings[0][t % 3];
            pack_row(kernel, row, threshold, dst);
            fill_tail(dst, w, steps[0].border_word());
        }
        for (k, &win) in steps.iter().enumerate() {
            // Step k (from 0) makes its row t - k - 1 from rings[k].
            let Some(y) = t.checked_sub(k + 1) else { break };
            if y >= h {
                continue;
            }
            if k + 1 < n {
                let (head, tail) = rings.split_at_mut(k + 1);
                let dst = &mut tail[0][y % 3];
                compute(win, &head[k], &edges[k], y, h, &mut tmp, dst);
                fill_tail(dst, w, steps[k + 1].border_word());
            } else {
                compute(win, &rings[k], &edges[k], y, h, &mut tmp, &mut last);
                let o = &mut out.pixels[y * out.stride..y * out.stride + w];
                unpack_row(kernel, &last, out.set, out.empty, o);
            }
        }
    }
}

/// [`run_body`] compiled for AVX2 (the word loops vectorised).
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn run_avx2(image: &ByteImage<'_>, steps: &[Window], out: Out<'_>, kernel: ByteKernel) {
    run_body(image, steps, out, kernel);
}

/// Applies `steps` in order to `image`, writing the result into `out` (checked to hold the
/// image's rows at its stride). The AVX2 copy runs when the CPU has AVX2 (as [`crate::cpu`]
/// allows now); the bytes are packed and unpacked by [`ByteKernel::best`].
pub(crate) fn run(image: &ByteImage<'_>, steps: &[Window], out: Out<'_>) {
    let kernel = ByteKernel::best();
    #[cfg(target_arch = "x86_64")]
    {
        if crate::cpu::has(crate::cpu::Features::AVX2) {
            // SAFETY: `run_avx2` is only compiled for AVX2, which the CPU was just checked to
            // support; it has no other requirement.
            return unsafe { run_avx2(image, steps, out, kernel) };
        }
    }
    run_body(image, steps, out, kernel);
}
