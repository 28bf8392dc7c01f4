//! Pass 2 of the [`ValueLabeller`](super::ValueLabeller) into 64-bit labels (`i64`, `u64`)
//! with AVX-512: 8 cells per instruction, without a branch per cell or per run.
//!
//! For each 8 cells of a row, `vpopcntq` of the run starts up to each cell gives the cell's
//! offset in the row's label table from the run coming in from the left (offset 0: the
//! label of the last run started before these cells, entry 0 of the table, 0, before the
//! row's first run); one `vpermt2q` of the 16 table entries from there, masked by the set
//! cells (0 elsewhere), makes the 8 labels, and one store writes them: streaming (no read
//! for ownership) into large images at 64-byte aligned addresses, masked at a row's end.

use std::arch::x86_64::{
    _mm256_loadu_si256, _mm512_and_si512, _mm512_cvtepu32_epi64, _mm512_loadu_si512,
    _mm512_mask_storeu_epi64, _mm512_maskz_permutex2var_epi64, _mm512_popcnt_epi64,
    _mm512_set1_epi64, _mm512_setr_epi64, _mm512_storeu_si512, _mm512_stream_si512, _mm_sfence,
};
use std::mem::MaybeUninit;

/// Table entries read past a row's last run by the loads of 16 entries.
const TABLE_SLACK: usize = 16;

/// Images of at least this many bytes of labels are written with streaming stores: well
/// past the caches, where a store's read for ownership costs as much as the store.
const STREAM_BYTES: usize = 8 << 20;

/// Writes the labels of a `width x height` image into `out` (its first `width * height`
/// cells): row `y`'s cells from `starts` and `set` (its blocks of 64 cells, `width / 64`
/// rounded up per row: run starts and set cells), its runs `row_base[y]..row_base[y + 1]`
/// and their labels in `labels`. `table` is scratch memory for a row's labels.
///
/// # Panics
/// When `out`, `starts`, `set` or `row_base` is shorter than the image needs, or `labels`
/// shorter than its runs.
#[target_feature(enable = "avx512f,avx512vpopcntdq,avx2,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn write_avx512(
    (width, height): (usize, usize),
    (starts, set): (&[u64], &[u64]),
    (row_base, labels): (&[u32], &[u32]),
    table: &mut Vec<u64>,
    out: &mut [MaybeUninit<u64>],
) {
    let bpr = width.div_ceil(64);
    assert!(
        out.len() >= width * height && starts.len() >= bpr * height && set.len() >= bpr * height,
        "buffers too small for the image"
    );
    let stream = width * height * 8 >= STREAM_BYTES;
    // Lane i: the cells up to and including cell i of 8.
    let upto = _mm512_setr_epi64(0x1, 0x3, 0x7, 0xf, 0x1f, 0x3f, 0x7f, 0xff);
    for y in 0..height {
        // Entry 0 (before the row's first run) is 0, entry 1 + i run i's label, then the
        // slack read by the last loads of 16 entries.
        let (b0, b1) = (row_base[y] as usize, row_base[y + 1] as usize);
        table.clear();
        table.push(0);
        table.extend(labels[b0..b1].iter().map(|&l| u64::from(l)));
        table.extend([0; TABLE_SLACK]);
        let (table, len) = (table.as_ptr(), table.len());
        let row = &mut out[y * width..(y + 1) * width];
        let (starts, set) = (
            &starts[y * bpr..(y + 1) * bpr],
            &set[y * bpr..(y + 1) * bpr],
        );
        let mut r = 0usize; // runs started before the next 8 cells
        for j in 0..bpr {
            let x0 = j * 64;
            let cells = (width - x0).min(64);
            let (s, m) = (starts[j], set[j]);
            for q in 0..cells.div_ceil(8) {
                let s8 = (s >> (8 * q)) & 0xff;
                let m8 = ((m >> (8 * q)) & 0xff) as u8;
                // Offsets from entry r: 0 for the incoming run, 1.. for those starting here.
                let offsets =
                    _mm512_popcnt_epi64(_mm512_and_si512(_mm512_set1_epi64(s8 as i64), upto));
                assert!(r + TABLE_SLACK <= len, "row table too short");
                // SAFETY: entries r..r + 16 are inside the row's table (asserted just above).
                let (lo, hi) = unsafe {
                    (
                        _mm512_loadu_si512(table.add(r).cast()),
                        _mm512_loadu_si512(table.add(r + 8).cast()),
                    )
                };
                let v = _mm512_maskz_permutex2var_epi64(m8, lo, offsets, hi);
                let x = x0 + 8 * q;
                let left = cells - 8 * q;
                // SAFETY: cells x..x + min(8, left) of this row, inside `row` (x + left is
                // at most the width); a full store writes 8 cells inside, a masked one only
                // the lanes below `left`. Streaming stores are ordered by the `_mm_sfence`
                // at the end of this function, before `out` can be read again (it is
                // borrowed mutably for the whole call).
                unsafe {
                    let p = row.as_mut_ptr().add(x);
                    if left >= 8 {
                        if stream && (p as usize).is_multiple_of(64) {
                            _mm512_stream_si512(p.cast(), v);
                        } else {
                            _mm512_storeu_si512(p.cast(), v);
                        }
                    } else {
                        _mm512_mask_storeu_epi64(p.cast(), ((1u32 << left) - 1) as u8, v);
                    }
                }
                r += s8.count_ones() as usize;
            }
        }
    }
    _mm_sfence();
}

/// Widens the `u32` labels of the binary labeller (`labels`) into `out` (its first
/// `labels.len()` cells) as 64-bit labels: 8 cells per instruction (`vpmovzxdq`), with
/// streaming stores (no read for ownership) at 64-byte aligned addresses in large images,
/// as [`write_avx512`] writes them.
///
/// # Panics
/// When `out` is shorter than `labels`.
#[target_feature(enable = "avx512f,avx2")]
pub(super) fn widen_avx512(labels: &[u32], out: &mut [MaybeUninit<u64>]) {
    let out = &mut out[..labels.len()];
    let stream = labels.len() * 8 >= STREAM_BYTES;
    // Cells up to the first 64-byte aligned one (all of them in a short image) one by one.
    let head = if stream {
        out.as_ptr().align_offset(64).min(out.len())
    } else {
        0
    };
    for (o, &l) in out[..head].iter_mut().zip(&labels[..head]) {
        o.write(u64::from(l));
    }
    let (src, dst) = (&labels[head..], &mut out[head..]);
    let whole = src.len() / 8 * 8;
    for (s, d) in src[..whole].chunks_exact(8).zip(dst.chunks_exact_mut(8)) {
        // SAFETY: `s` holds 8 `u32`s (32 bytes, an unaligned load) and `d` 8 cells of 8
        // bytes (64 bytes); with `stream`, `d` starts at a 64-byte aligned address (`head`
        // aligned the first, and every step is 64 bytes). Streaming stores are ordered by
        // the `_mm_sfence` below, before `out` can be read again (it is borrowed mutably
        // for the whole call).
        unsafe {
            let v = _mm512_cvtepu32_epi64(_mm256_loadu_si256(s.as_ptr().cast()));
            if stream {
                _mm512_stream_si512(d.as_mut_ptr().cast(), v);
            } else {
                _mm512_storeu_si512(d.as_mut_ptr().cast(), v);
            }
        }
    }
    for (o, &l) in dst[whole..].iter_mut().zip(&src[whole..]) {
        o.write(u64::from(l));
    }
    _mm_sfence();
}
