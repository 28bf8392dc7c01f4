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

/// `dst(x) = op(dst(x), h(x))`, where `h` is the AND or OR, over the column offsets of
/// `MASK` (bit `dx + 1`), of the cells of `v = op(a, b, c)` (the first `ROWS` of them); the
/// rows are widened by one word of the border on either side (two words more than `dst`).
/// One plain loop of word operations, which the compiler vectorises; `v` is made from the
/// rows for each of the three words a word reads (loads from the first-level cache), so no
/// scratch row is written.
#[inline(always)]
fn gather<const ALL: bool, const MASK: u8, const ROWS: usize>(
    dst: &mut [u64],
    a: &[u64],
    b: &[u64],
    c: &[u64],
) {
    let n = dst.len();
    let (a, b, c) = (&a[..n + 2], &b[..n + 2], &c[..n + 2]);
    let v = |j: usize| {
        let mut x = a[j];
        if ROWS > 1 {
            x = op::<ALL>(x, b[j]);
        }
        if ROWS > 2 {
            x = op::<ALL>(x, c[j]);
        }
        x
    };
    // Indexed (not `iter_mut().enumerate()`): the form that measured fastest here.
    #[allow(clippy::needless_range_loop)]
    for i in 0..n {
        let (before, at, after) = (v(i), v(i + 1), v(i + 2));
        // Cell x reads x - 1 (the word before, shifted up) and x + 1 (shifted down).
        let l = (at << 1) | (before >> 63);
        let r = (at >> 1) | (after << 63);
        let h = match MASK {
            7 => op::<ALL>(op::<ALL>(l, at), r),
            3 => op::<ALL>(l, at),
            6 => op::<ALL>(at, r),
            5 => op::<ALL>(l, r),
            1 => l,
            4 => r,
            _ => at,
        };
        dst[i] = op::<ALL>(dst[i], h);
    }
}

/// [`gather`] with the mask as a value.
#[inline(always)]
fn gather_mask<const ALL: bool, const ROWS: usize>(dst: &mut [u64], rows: [&[u64]; 3], mask: u8) {
    let [a, b, c] = rows;
    match mask {
        7 => gather::<ALL, 7, ROWS>(dst, a, b, c),
        3 => gather::<ALL, 3, ROWS>(dst, a, b, c),
        6 => gather::<ALL, 6, ROWS>(dst, a, b, c),
        5 => gather::<ALL, 5, ROWS>(dst, a, b, c),
        1 => gather::<ALL, 1, ROWS>(dst, a, b, c),
        4 => gather::<ALL, 4, ROWS>(dst, a, b, c),
        _ => gather::<ALL, 2, ROWS>(dst, a, b, c),
    }
}

/// One output row of a step: `dst` from the three widened input rows `rows` (above, at,
/// below; their bits past the width and their end words hold the border). The rows that
/// read the same columns go through one [`gather`] (at most three loops, one for the 3x3
/// square, two for the cross).
#[inline(always)]
fn step_row<const ALL: bool>(win: Window, rows: [&[u64]; 3], dst: &mut [u64]) {
    dst.fill(if ALL { !0 } else { 0 });
    for mask in 1..8u8 {
        let (mut group, mut len) = ([0usize; 3], 0);
        for (i, &m) in win.masks.iter().enumerate() {
            if m == mask {
                group[len] = i;
                len += 1;
            }
        }
        let pick = |k: usize| rows[group[k.min(len.saturating_sub(1))]];
        match len {
            0 => {}
            1 => gather_mask::<ALL, 1>(dst, [pick(0), pick(0), pick(0)], mask),
            2 => gather_mask::<ALL, 2>(dst, [pick(0), pick(1), pick(1)], mask),
            _ => gather_mask::<ALL, 3>(dst, [pick(0), pick(1), pick(2)], mask),
        }
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
/// `src[r % 3]`, widened), the rows off the image read as `edge`.
#[inline(always)]
fn compute(win: Window, src: &[Vec<u64>; 3], edge: &[u64], y: usize, h: usize, dst: &mut [u64]) {
    let above = if y == 0 { edge } else { &src[(y - 1) % 3] };
    let below = if y + 1 >= h { edge } else { &src[(y + 1) % 3] };
    let rows = [above, &src[y % 3][..], below];
    if win.erode {
        step_row::<true>(win, rows, dst);
    } else {
        step_row::<false>(win, rows, dst);
    }
}

/// A ring of three rows of `wpr` words widened by a word of `border` on either side.
fn ring(wpr: usize, border: u64) -> [Vec<u64>; 3] {
    let row = || {
        let mut r = vec![0u64; wpr + 2];
        r[0] = border;
        r[wpr + 1] = border;
        r
    };
    [row(), row(), row()]
}

/// The pipeline: row `t` of the image is packed at turn `t`, step `k` (from 1) computes its
/// row `t - k`, and the last step's row is unpacked as soon as it is made. Ring `k` holds
/// the rows step `k` (from 0) reads, widened by its border.
#[inline(always)]
fn run_body(image: &ByteImage<'_>, steps: &[Window], out: Out<'_>, kernel: ByteKernel) {
    let (w, h) = image.size();
    let n = steps.len();
    if n == 0 || w == 0 || h == 0 {
        return;
    }
    let wpr = w.div_ceil(64);
    let (pixels, stride, threshold) = (image.pixels(), image.stride(), image.threshold());
    let mut rings: Vec<[Vec<u64>; 3]> = steps.iter().map(|s| ring(wpr, s.border_word())).collect();
    let edges: Vec<Vec<u64>> = steps
        .iter()
        .map(|s| vec![s.border_word(); wpr + 2])
        .collect();
    let mut last = vec![0u64; wpr];
    for t in 0..h + n {
        if t < h {
            let row = &pixels[t * stride..t * stride + w];
            let dst = &mut rings[0][t % 3][1..=wpr];
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
                let dst = &mut tail[0][y % 3][1..=wpr];
                compute(win, &head[k], &edges[k], y, h, dst);
                fill_tail(dst, w, steps[k + 1].border_word());
            } else {
                compute(win, &rings[k], &edges[k], y, h, &mut last);
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
