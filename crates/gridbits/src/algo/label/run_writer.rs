//! The run writer of sparse rows (x86-64, AVX-512 F): a row written as zeros, then run by
//! run, instead of computing every 16 cells' labels.
//!
//! On a document scan most of a row is background: `text` (13% of the cells set) has one run
//! every 54 cells on average, two thirds of its 16-cell pieces of a row empty. The vector
//! writer ([`super::x86::write_avx512`]) spends the same work on every 16 cells, set or not;
//! this writer zeroes the row with full stores and spends its work on each run: the runs of
//! a row are where the row differs from itself shifted by one cell (`row ^ (row << 1)`),
//! found with `tzcnt`, each takes the label of its run of the unit's merged row (its rank
//! among the merged row's run starts, by `popcount`), and is written with one or two stores
//! masked to its cells. Every cell is written from final labels; none is read.
//!
//! The run stores land on lines the zeroes just wrote, so the row goes through the cache;
//! with streaming stores the row is written into a [`RowBuffer`] and streamed from it
//! ([`stream_row`]). The vector writer picks this writer for the units whose runs are few
//! ([`SPARSE_CELLS_PER_RUN`], [`super::LabelWriter`]).

use super::bits::{merged, upto};
use std::arch::x86_64::{_mm512_mask_storeu_epi32, _mm512_set1_epi32, _mm512_storeu_si512};
use std::mem::MaybeUninit;

/// A unit (a row, or a row pair with 8-connectivity) is written run by run when its merged
/// row has at most one run per this many cells; denser units take the vector writer.
/// Measured on the scans and noise of docs/benchmarks.md ("Document scans").
pub(super) const SPARSE_CELLS_PER_RUN: usize = 24;

/// Writes `value` over cells `from..to` of `row` (`from < to <= row.len()`) with stores
/// masked to those cells: the 16-cell pieces (from `from`'s, 16-cell aligned in the row) of
/// the first 32 cells without a branch (a run of a scan is short), the rest in a loop.
#[target_feature(enable = "avx512f")]
#[inline]
fn fill_run(row: &mut [MaybeUninit<u32>], from: usize, to: usize, value: u32) {
    let v = _mm512_set1_epi32(value as i32);
    let first = from & !15;
    let (lo, span) = (from - first, (to - first).min(32));
    let mask = ((1u64 << span) - 1) & (u64::MAX << lo);
    let p = row.as_mut_ptr();
    // SAFETY: the lanes of `mask` are cells `first + i` with `from <= first + i < to <=
    // row.len()`, inside `row`; the other lanes are masked off and not accessed (a masked
    // store does not touch them, nor fault on them), so the address of the second piece may
    // lie past the row (computed without `add`'s in-bounds requirement).
    unsafe {
        _mm512_mask_storeu_epi32(p.wrapping_add(first).cast(), mask as u16, v);
        _mm512_mask_storeu_epi32(p.wrapping_add(first + 16).cast(), (mask >> 16) as u16, v);
    }
    let mut i = first + 32;
    while i < to {
        let n = (to - i).min(16);
        // SAFETY: lanes `0..n` are cells `i..i + n`, `i + n <= to <= row.len()`, inside
        // `row`; the others are masked off.
        unsafe { _mm512_mask_storeu_epi32(p.add(i).cast(), ((1u32 << n) - 1) as u16, v) };
        i += 16;
    }
}

/// Zeroes `row`, 16 cells per store (the last one masked to the row).
#[target_feature(enable = "avx512f")]
#[inline]
fn zero(row: &mut [MaybeUninit<u32>]) {
    let v = _mm512_set1_epi32(0);
    let w = row.len();
    let p = row.as_mut_ptr();
    let mut i = 0;
    while i + 16 <= w {
        // SAFETY: cells `i..i + 16` of `row`, inside it.
        unsafe { _mm512_storeu_si512(p.add(i).cast(), v) };
        i += 16;
    }
    if i < w {
        // SAFETY: lanes `0..w - i` are cells `i..w` of `row`; the others are masked off.
        unsafe { _mm512_mask_storeu_epi32(p.add(i).cast(), ((1u32 << (w - i)) - 1) as u16, v) };
    }
}

/// Writes row `y` of unit `k` (of `UNIT` rows: 1, or 2 with 8-connectivity) into `row`
/// (`row.len()` is the width): zeros, then each run of the row with the label of its run of
/// the unit's merged row (`labels[i]` for the unit's run `i`, in the scan's order).
#[target_feature(enable = "avx512f,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
pub(super) fn write_row<const UNIT: usize>(
    words: &[u64],
    (wpr, h): (usize, usize),
    (k, y): (usize, usize),
    labels: &[u32],
    row: &mut [MaybeUninit<u32>],
) {
    zero(row);
    let bits = &words[y * wpr..(y + 1) * wpr];
    let mut start = 0usize; // first cell of the last run started
    let mut label = 0u32; // and its label
    let mut before = 0usize; // runs of the merged row starting in earlier words
                             // A row alone in its unit: its runs are the unit's, their labels in order.
    let alone = UNIT == 1 || (k + 1) * UNIT > h;
    let mut next = 0usize; // then: the index of the next run's label
    let (mut carry_m, mut carry_r) = (0u64, 0u64);
    for (j, &b) in bits.iter().enumerate() {
        let m = if UNIT == 1 {
            b
        } else {
            merged(words, wpr, h, UNIT, k, j)
        };
        let merged_starts = m & !((m << 1) | carry_m);
        // Cells that differ from their left neighbour: a set one starts a run of the row,
        // an empty one ends it (the run ends before it).
        let mut edges = b ^ ((b << 1) | carry_r);
        while edges != 0 {
            let bit = edges.trailing_zeros();
            edges &= edges - 1;
            let at = j * 64 + bit as usize;
            if (b >> bit) & 1 == 1 {
                // The run of the merged row holding this cell: the last one starting at or
                // before it (a set cell lies in one, so the count is at least 1).
                let rank = if alone {
                    next += 1;
                    next
                } else {
                    before + (merged_starts & upto(bit)).count_ones() as usize
                };
                (start, label) = (at, labels[rank - 1]);
            } else {
                fill_run(row, start, at, label);
            }
        }
        before += merged_starts.count_ones() as usize;
        (carry_m, carry_r) = (m >> 63, b >> 63);
    }
    // A run reaching the row's end (its width a multiple of 64: other rows end their last
    // run inside the word, an edge above).
    if carry_r != 0 {
        fill_run(row, start, row.len(), label);
    }
}

/// Writes `value` over the cells of `from..to` (`from < to <= row.len()`) whose bit is set
/// in `bits` (a row of words: bit `x % 64` of word `x / 64` is cell `x`), with stores masked
/// to them, as [`fill_run`] writes all of them.
#[target_feature(enable = "avx512f,bmi1,bmi2")]
#[inline]
fn fill_cells(row: &mut [MaybeUninit<u32>], bits: &[u64], from: usize, to: usize, value: u32) {
    let v = _mm512_set1_epi32(value as i32);
    let p = row.as_mut_ptr();
    let last = bits.len() - 1;
    let mut first = from & !15;
    // The cells of the first 32 from `first` (a multiple of 16: they lie in word `j` and,
    // from cell 48 of it, the next; past the row's last word the bits read are masked off
    // by `to`).
    let (lo, span) = (from - first, (to - first).min(32));
    let j = first / 64;
    let pair = (u128::from(bits[(j + 1).min(last)]) << 64) | u128::from(bits[j]);
    let set = (pair >> (first % 64)) as u64;
    let mask = ((1u64 << span) - 1) & (u64::MAX << lo) & set;
    // SAFETY: the lanes of `mask` are cells `first + i` with `from <= first + i < to <=
    // row.len()`, inside `row`; the other lanes are masked off and not accessed (a masked
    // store does not touch them, nor fault on them), so the address of the second piece may
    // lie past the row (computed without `add`'s in-bounds requirement).
    unsafe {
        _mm512_mask_storeu_epi32(p.wrapping_add(first).cast(), mask as u16, v);
        _mm512_mask_storeu_epi32(p.wrapping_add(first + 16).cast(), (mask >> 16) as u16, v);
    }
    first += 32;
    while first < to {
        let n = (to - first).min(16);
        let set = (bits[first / 64] >> (first % 64)) as u32;
        let mask = ((1u32 << n) - 1) & set;
        // SAFETY: lanes `0..n` are cells `first..first + n`, `first + n <= to <= row.len()`,
        // inside `row`; the others are masked off.
        unsafe { _mm512_mask_storeu_epi32(p.add(first).cast(), mask as u16, v) };
        first += 16;
    }
}

/// Writes the two rows of unit `k` (8-connectivity, rows `2k` and `2k + 1`, both in the
/// grid) into `rows` (the two rows, `2 * width` cells): zeros, then each run of the merged
/// row once, its label (`labels[i]` for the unit's run `i`, in order: no rank to count)
/// over the cells each row has set in it. The runs are found with `tzcnt` on the merged
/// row XOR itself shifted by one cell, as [`write_row`] finds a row's.
#[target_feature(enable = "avx512f,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
pub(super) fn write_pair(
    words: &[u64],
    wpr: usize,
    k: usize,
    labels: &[u32],
    rows: &mut [MaybeUninit<u32>],
) {
    let w = rows.len() / 2;
    let (upper, lower) = rows.split_at_mut(w);
    zero(upper);
    zero(lower);
    let top = &words[2 * k * wpr..(2 * k + 1) * wpr];
    let bottom = &words[(2 * k + 1) * wpr..(2 * k + 2) * wpr];
    let mut start = 0usize; // first cell of the last run started
    let mut next = 0usize; // index of the next run's label
    let mut carry = 0u64;
    for (j, (&t, &b)) in top.iter().zip(bottom).enumerate() {
        let m = t | b;
        let mut edges = m ^ ((m << 1) | carry);
        while edges != 0 {
            let bit = edges.trailing_zeros();
            edges &= edges - 1;
            let at = j * 64 + bit as usize;
            if (m >> bit) & 1 == 1 {
                start = at;
            } else {
                let label = labels[next];
                next += 1;
                fill_cells(upper, top, start, at, label);
                fill_cells(lower, bottom, start, at, label);
            }
        }
        carry = m >> 63;
    }
    // A run reaching the row's end (a width that is a multiple of 64).
    if carry != 0 {
        let label = labels[next];
        fill_cells(upper, top, start, w, label);
        fill_cells(lower, bottom, start, w, label);
    }
}

/// A row's worth of cells in the cache, 64-byte aligned, for writing a row run by run
/// before streaming it to the image.
pub(super) struct RowBuffer {
    cells: Vec<MaybeUninit<u32>>,
    offset: usize,
}

impl RowBuffer {
    /// A buffer for rows of `width` cells, or `None` when the memory cannot be had.
    pub(super) fn try_new(width: usize) -> Option<Self> {
        let mut cells = Vec::new();
        cells.try_reserve_exact(width + 16).ok()?;
        cells.resize(width + 16, MaybeUninit::new(0u32));
        let offset = (64 - cells.as_ptr() as usize % 64) % 64 / 4;
        Some(Self { cells, offset })
    }

    /// The row of `width` cells.
    pub(super) fn row(&mut self, width: usize) -> &mut [MaybeUninit<u32>] {
        &mut self.cells[self.offset..self.offset + width]
    }
}

/// Copies `from` to `to` (of the same length) with streaming stores where `to` is 64-byte
/// aligned, ordinary ones elsewhere (`from` is 64-byte aligned: a [`RowBuffer`] row).
/// Streaming stores need an `_mm_sfence` before the memory is read again: the caller's.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn stream_row(from: &[MaybeUninit<u32>], to: &mut [MaybeUninit<u32>]) {
    use std::arch::x86_64::{_mm512_load_si512, _mm512_maskz_loadu_epi32, _mm512_stream_si512};
    let w = to.len().min(from.len());
    let (src, dst) = (from.as_ptr(), to.as_mut_ptr());
    let mut i = 0;
    while i + 16 <= w {
        // SAFETY: cells `i..i + 16` of both, inside them; `src + i` is 64-byte aligned
        // (`from` is, and `i` is a multiple of 16), the stream's address is checked.
        unsafe {
            let v = _mm512_load_si512(src.add(i).cast());
            let p = dst.add(i);
            if (p as usize).is_multiple_of(64) {
                _mm512_stream_si512(p.cast(), v);
            } else {
                _mm512_storeu_si512(p.cast(), v);
            }
        }
        i += 16;
    }
    if i < w {
        let mask = ((1u32 << (w - i)) - 1) as u16;
        // SAFETY: lanes `0..w - i` are cells `i..w` of both; the others are masked off.
        unsafe {
            let v = _mm512_maskz_loadu_epi32(mask, src.add(i).cast());
            _mm512_mask_storeu_epi32(dst.add(i).cast(), mask, v);
        }
    }
}
