//! The engine of binary morphology: a footprint as horizontal runs of offsets, each run's
//! row-wise AND (erosion) or OR (dilation) built by doubling shifts, rows streamed through a
//! ring the height of the footprint.
//!
//! For a source row and a run length `L`, `R_L(x) = op(src(x), ..., src(x + L - 1))` comes
//! from the power-of-two levels `T_1 = src`, `T_2p(x) = T_p(x) op T_p(x + p)` and one more
//! step `R_L(x) = T_p(x) op T_p(x + L - p)` (`p` the largest power of two `<= L`): `log L`
//! word passes per row, whatever the run length. An output row is then one shift and one
//! word operation per run of the footprint: a disk of radius `r` costs `2r + 1` passes plus
//! the table, a rectangle of any size 2 plus `2 log` (`separable` for those).
//!
//! Cells off the grid read as `outside` (the border value), in both directions.

use super::footprint::RunRow;
use crate::error::try_filled;
use crate::grid::tail_mask;
use crate::{BitGrid, SizeError};

/// The word operation: AND for erosion (`ALL`), OR for dilation.
#[inline(always)]
pub(super) fn op<const ALL: bool>(a: u64, b: u64) -> u64 {
    if ALL {
        a & b
    } else {
        a | b
    }
}

/// Sets bits `lo..hi` of a row, a word at a time.
fn fill_range(row: &mut [u64], lo: usize, hi: usize) {
    let mut x = lo;
    while x < hi {
        let (i, b) = (x / 64, x % 64);
        let n = (hi - x).min(64 - b);
        let bits = if n == 64 { !0 } else { ((1u64 << n) - 1) << b };
        row[i] |= bits;
        x += n;
    }
}

/// `dst(x) = src(x + k)` for `0 <= x < width`, reading `fill` where `x + k` is off the row.
/// `src` has zeros past `width`; so does `dst` afterwards.
pub(crate) fn shift_row(src: &[u64], dst: &mut [u64], k: isize, fill: bool, width: usize) {
    let wpr = src.len();
    let m = k.unsigned_abs();
    if m >= width {
        dst.fill(0);
        if fill {
            fill_range(dst, 0, width);
        }
        return;
    }
    // m < width <= 64 * wpr, so q < wpr.
    let (q, r) = (m / 64, m % 64);
    let n = wpr - q;
    if k >= 0 {
        // dst[i] = src[i + q] >> r | src[i + q + 1] << (64 - r).
        let (body, rest) = dst.split_at_mut(n);
        if r == 0 {
            body.copy_from_slice(&src[q..]);
        } else {
            for (d, w) in body.iter_mut().zip(src[q..].windows(2)) {
                *d = (w[0] >> r) | (w[1] << (64 - r));
            }
            body[n - 1] = src[wpr - 1] >> r;
        }
        rest.fill(0);
        if fill {
            fill_range(dst, width - m, width);
        }
    } else {
        // dst[i] = src[i - q] << r | src[i - q - 1] >> (64 - r).
        let (zeros, body) = dst.split_at_mut(q);
        zeros.fill(0);
        if r == 0 {
            body.copy_from_slice(&src[..n]);
        } else {
            body[0] = src[0] << r;
            for (d, w) in body[1..].iter_mut().zip(src[..n].windows(2)) {
                *d = (w[1] << r) | (w[0] >> (64 - r));
            }
        }
        if let Some(last) = dst.last_mut() {
            *last &= tail_mask(width);
        }
        if fill {
            fill_range(dst, 0, m);
        }
    }
}

/// Per-row tables of run reductions: for each distinct run length of the footprint, its
/// slot in a row's table.
struct Lengths {
    /// The distinct run lengths, ascending.
    lengths: Vec<usize>,
    /// The powers of two up to the largest length (1, 2, 4, ...).
    levels: usize,
}

impl Lengths {
    fn new(rows: &[RunRow]) -> Self {
        let mut lengths: Vec<usize> = rows
            .iter()
            .flat_map(|r| r.runs.iter().map(|&(_, l)| l))
            .collect();
        lengths.sort_unstable();
        lengths.dedup();
        let max = lengths.last().copied().unwrap_or(1);
        let levels = (usize::BITS - max.leading_zeros()) as usize;
        Lengths { lengths, levels }
    }

    fn slot(&self, len: usize) -> usize {
        self.lengths.binary_search(&len).unwrap_or(0)
    }
}

/// `out(p) = op over every offset d of the rows: grid(p + d)`, off-grid cells reading
/// `outside`. An empty set of rows gives the operation's identity (all set for AND, empty
/// for OR).
///
/// Each source row is first widened by `outside` cells on both sides, as far as the runs
/// reach past the edges, so that the doubling shifts never read past the widened row for a
/// cell that lands on the grid: a run's reduction at a cell off the grid may still cover
/// cells on it.
///
/// The ring of reduced rows takes `span * lengths * wide / 64` words (the footprint's
/// height, its number of distinct run lengths and the widened row): it is reserved
/// fallibly, so a footprint too large for this machine is a [`SizeError`], not an abort.
/// Callers cut the footprint to the grid first ([`Footprint::within`]), which bounds it by
/// the grid's size.
///
/// [`Footprint::within`]: super::footprint::Footprint::within
pub(crate) fn gather<const ALL: bool>(
    grid: &BitGrid,
    rows: &[RunRow],
    outside: bool,
) -> Result<BitGrid, SizeError> {
    let (w, h) = (grid.width(), grid.height());
    let wpr = grid.words_per_row();
    let mut out = grid.empty_like();
    let tail = tail_mask(w);
    if rows.is_empty() {
        if ALL {
            out.complement_assign();
        }
        return Ok(out);
    }
    let lens = Lengths::new(rows);
    let nl = lens.lengths.len();
    let runs = rows.iter().flat_map(|r| r.runs.iter());
    let dx_min = runs.clone().map(|&(dx, _)| dx).min().unwrap_or(0);
    let dx_end = runs.map(|&(dx, l)| dx + l as isize - 1).max().unwrap_or(0);
    // Padding left and right, and the widened row.
    let pad_left = (-dx_min).max(0) as usize;
    let pad_right = dx_end.max(0) as usize;
    let wide = pad_left + w + pad_right;
    let wwpr = wide.div_ceil(64);
    let dy_min = rows.iter().map(|r| r.dy).min().unwrap_or(0);
    let dy_max = rows.iter().map(|r| r.dy).max().unwrap_or(0);
    let span = (dy_max - dy_min + 1) as usize;
    // The ring: `span` source rows, each `nl` reduced rows of `wwpr` words.
    let table = |words: u128| try_filled("morphology table", w, h, words, 0u64);
    let mut ring = table(span as u128 * nl as u128 * wwpr as u128)?;
    let mut levels = table(lens.levels.max(1) as u128 * wwpr as u128)?;
    let mut padded = vec![0u64; wwpr];
    let mut tmp = vec![0u64; wwpr];
    let mut acc = vec![0u64; wpr];
    let mut next_src = 0usize;
    // Runs whose source row is off the grid: they read `outside` everywhere.
    let off_row_kills = ALL != outside;
    for y in 0..h {
        // Bring the source rows this output row reads into the ring.
        let need = (y as isize + dy_max).min(h as isize - 1);
        while (next_src as isize) <= need {
            let slot = next_src % span;
            // The widened row: `outside`, the row, `outside`.
            tmp.fill(0);
            tmp[..wpr].copy_from_slice(grid.row_words(next_src));
            shift_row(&tmp, &mut padded, -(pad_left as isize), outside, wide);
            if outside {
                fill_range(&mut padded, pad_left + w, wide);
            }
            build_row::<ALL>(
                &padded,
                &lens,
                &mut levels,
                &mut tmp,
                &mut ring[slot * nl * wwpr..(slot + 1) * nl * wwpr],
                outside,
                wide,
            );
            next_src += 1;
        }
        acc.fill(if ALL { !0 } else { 0 });
        for row in rows {
            let ys = y as isize + row.dy;
            if ys < 0 || ys >= h as isize {
                if off_row_kills {
                    // AND with an empty row, or OR with a full one.
                    acc.fill(if ALL { 0 } else { !0 });
                    break;
                }
                continue;
            }
            let slot = ys as usize % span;
            let table = &ring[slot * nl * wwpr..(slot + 1) * nl * wwpr];
            for &(dx, len) in &row.runs {
                let s = lens.slot(len);
                // out(x) = R_len(x + dx), at x + dx + pad_left in the widened row.
                let k = dx + pad_left as isize;
                shift_row(&table[s * wwpr..(s + 1) * wwpr], &mut tmp, k, outside, wide);
                for (a, &t) in acc.iter_mut().zip(&tmp) {
                    *a = op::<ALL>(*a, t);
                }
            }
        }
        let dst = out.row_words_mut(y);
        dst.copy_from_slice(&acc);
        if let Some(last) = dst.last_mut() {
            *last &= tail;
        }
    }
    Ok(out)
}

/// The reductions of one source row for every run length: `table[slot(L)] = R_L`.
fn build_row<const ALL: bool>(
    src: &[u64],
    lens: &Lengths,
    levels: &mut [u64],
    tmp: &mut [u64],
    table: &mut [u64],
    outside: bool,
    width: usize,
) {
    let wpr = src.len();
    levels[..wpr].copy_from_slice(src);
    // T_{2p} = T_p op T_p(. + p).
    for l in 1..lens.levels {
        let p = 1isize << (l - 1);
        let (done, rest) = levels.split_at_mut(l * wpr);
        let prev = &done[(l - 1) * wpr..];
        shift_row(prev, tmp, p, outside, width);
        for ((d, &a), &b) in rest[..wpr].iter_mut().zip(prev).zip(tmp.iter()) {
            *d = op::<ALL>(a, b);
        }
    }
    for (s, &len) in lens.lengths.iter().enumerate() {
        let l = (usize::BITS - 1 - len.leading_zeros()) as usize;
        let p = 1usize << l;
        let tp = &levels[l * wpr..(l + 1) * wpr];
        let dst = &mut table[s * wpr..(s + 1) * wpr];
        if p == len {
            dst.copy_from_slice(tp);
        } else {
            shift_row(tp, tmp, (len - p) as isize, outside, width);
            for ((d, &a), &b) in dst.iter_mut().zip(tp).zip(tmp.iter()) {
                *d = op::<ALL>(a, b);
            }
        }
    }
}

/// A full rectangle of offsets `dx0..dx0 + fw` by `dy0..dy0 + fh`, separably: each row's
/// run reduction (as [`gather`] builds it), then the same doubling down the columns on whole
/// rows, the column widened by `outside` rows as far as the rectangle reaches past the top
/// and bottom. Cost `O(log fw + log fh)` passes; the widened column is reserved fallibly.
pub(crate) fn separable<const ALL: bool>(
    grid: &BitGrid,
    (dx0, fw): (isize, usize),
    (dy0, fh): (isize, usize),
    outside: bool,
) -> Result<BitGrid, SizeError> {
    let one_row = [RunRow {
        dy: 0,
        runs: vec![(dx0, fw)],
    }];
    let horizontal = gather::<ALL>(grid, &one_row, outside)?;
    let (w, h) = (grid.width(), grid.height());
    let wpr = grid.words_per_row();
    let tail = tail_mask(w);
    let pad_top = (-dy0).max(0) as usize;
    let pad_bottom = (dy0 + fh as isize - 1).max(0) as usize;
    let tall = pad_top + h + pad_bottom;
    // The widened column of rows: `outside` rows, the rows, `outside` rows.
    let mut fill_row = vec![if outside { !0u64 } else { 0 }; wpr];
    if let Some(last) = fill_row.last_mut() {
        *last &= tail;
    }
    let mut cur = crate::error::try_vec("morphology table", w, h, tall as u128 * wpr as u128)?;
    for _ in 0..pad_top {
        cur.extend_from_slice(&fill_row);
    }
    cur.extend_from_slice(horizontal.words());
    for _ in 0..pad_bottom {
        cur.extend_from_slice(&fill_row);
    }
    // V_{2p}(y) = V_p(y) op V_p(y + p), in place: row y reads only rows below it.
    let mut p = 1usize;
    while p * 2 <= fh {
        for y in 0..tall.saturating_sub(p) {
            let (head, below) = cur.split_at_mut((y + p) * wpr);
            for (d, &b) in head[y * wpr..(y + 1) * wpr].iter_mut().zip(&below[..wpr]) {
                *d = op::<ALL>(*d, b);
            }
        }
        p *= 2;
    }
    let mut out = grid.empty_like();
    for y in 0..h {
        // Rows y + dy0 .. y + dy0 + fh: V_p(y + dy0) op V_p(y + dy0 + fh - p), in the
        // widened column at + pad_top.
        let a = (y as isize + dy0 + pad_top as isize) as usize;
        let b = a + (fh - p);
        let (ra, rb) = (&cur[a * wpr..(a + 1) * wpr], &cur[b * wpr..(b + 1) * wpr]);
        for ((d, &x), &z) in out.row_words_mut(y).iter_mut().zip(ra).zip(rb) {
            *d = op::<ALL>(x, z);
        }
    }
    Ok(out)
}
