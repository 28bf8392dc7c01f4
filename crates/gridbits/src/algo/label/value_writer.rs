//! Pass 2 of the [`ValueLabeller`](super::ValueLabeller) into 64-bit labels (`i64`, `u64`),
//! without a branch per cell or per run, and the widening of the binary labeller's `u32`
//! labels into them: with AVX-512, 8 cells per instruction; with AVX2 (CPUs without
//! AVX-512), 4.
//!
//! AVX-512 ([`write_avx512`]): for each 8 cells of a row, `vpopcntq` of the run starts up
//! to each cell gives the cell's offset in the row's label table from the run coming in
//! from the left (offset 0: the label of the last run started before these cells, entry 0
//! of the table, 0, before the row's first run); one `vpermt2q` of the 16 table entries
//! from there, masked by the set cells (0 elsewhere), makes the 8 labels, and one store
//! writes them: streaming (no read for ownership) into large images at 64-byte aligned
//! addresses, masked at a row's end.
//!
//! AVX2 ([`write_avx2`]): the same offsets for each 4 cells from a table of their 4 run-start
//! bits, one `vpermd` of 8 `u32` table entries into the low halves of 4 64-bit lanes, an
//! AND with a table mask of the 4 set cells, one 32-byte store through the cache; a block
//! of 64 cells without run starts is the incoming label where set.

use super::relabel::Relabel;
use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_cvtepu32_epi64, _mm256_load_si256, _mm256_loadu_si256,
    _mm256_permutevar8x32_epi32, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_storeu_si256,
    _mm256_stream_si256, _mm512_and_si512, _mm512_cvtepu32_epi64, _mm512_loadu_si512,
    _mm512_mask_storeu_epi64, _mm512_maskz_permutex2var_epi64, _mm512_popcnt_epi64,
    _mm512_set1_epi64, _mm512_setr_epi64, _mm512_storeu_si512, _mm512_stream_si512,
    _mm_loadu_si128, _mm_sfence,
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
    (table, relabel): (&mut Vec<u64>, Relabel<'_>),
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
        relabel.extend(table, &labels[b0..b1]);
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

/// The row table entries read past a row's last run by the AVX2 writer's loads of 8.
const TABLE_SLACK_AVX2: usize = 8;

/// 8 lanes of 32 bits, aligned for one load: 4 cells of 64 bits.
#[repr(C, align(32))]
struct Lanes([u32; 8]);

/// For each 4 run-start bits (bit i: a run starts at cell i of 4): each cell's offset in the
/// row table from the run coming in from the left (the run starts up to and including it),
/// in both 32-bit lanes of the cell (the low one picks the label, the high one is masked).
static OFFSETS4: [Lanes; 16] = {
    let mut t = [const { Lanes([0; 8]) }; 16];
    let mut s = 0;
    while s < 16 {
        let mut i = 0;
        while i < 4 {
            let o = (s as u32 & ((2 << i) - 1)).count_ones();
            t[s].0[2 * i] = o;
            t[s].0[2 * i + 1] = o;
            i += 1;
        }
        s += 1;
    }
    t
};

/// For each 4 set-cell bits: all ones in the low 32-bit lane of each set cell, 0 elsewhere
/// (the labels are below 2^32: their high half is 0).
static SET4: [Lanes; 16] = {
    let mut t = [const { Lanes([0; 8]) }; 16];
    let mut m = 0;
    while m < 16 {
        let mut i = 0;
        while i < 4 {
            if m >> i & 1 == 1 {
                t[m].0[2 * i] = u32::MAX;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// [`write_avx512`] for CPUs with AVX2 (and the bit instructions) but not AVX-512: 4 cells
/// per step ([`write_blocks`]), straight into `out` through the cache (streaming from a
/// row buffer in the cache was no faster here, docs/benchmarks.md "v2w"), a row's last
/// block of fewer than 64 cells through a buffer.
///
/// # Panics
/// As [`write_avx512`].
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn write_avx2(
    (width, height): (usize, usize),
    (starts, set): (&[u64], &[u64]),
    (row_base, labels): (&[u32], &[u32]),
    (table, relabel): (&mut Vec<u32>, Relabel<'_>),
    out: &mut [MaybeUninit<u64>],
) {
    let bpr = width.div_ceil(64);
    assert!(
        out.len() >= width * height && starts.len() >= bpr * height && set.len() >= bpr * height,
        "buffers too small for the image"
    );
    let full = width / 64; // blocks of 64 cells; a last one of `width % 64`
    let mut tail = [MaybeUninit::<u64>::uninit(); 64];
    for y in 0..height {
        // Entry 0 (before the row's first run) is 0, entry 1 + i run i's label, then the
        // slack read by the last loads of 8 entries.
        let (b0, b1) = (row_base[y] as usize, row_base[y + 1] as usize);
        table.clear();
        table.push(0);
        relabel.extend(table, &labels[b0..b1]);
        table.extend([0; TABLE_SLACK_AVX2]);
        let row = &mut out[y * width..(y + 1) * width];
        let (starts, set) = (
            &starts[y * bpr..(y + 1) * bpr],
            &set[y * bpr..(y + 1) * bpr],
        );
        let (whole, last) = row.split_at_mut(full * 64);
        let r = write_blocks(table, 0, (&starts[..full], &set[..full]), whole);
        if full < bpr {
            write_blocks(table, r, (&starts[full..], &set[full..]), &mut tail);
            last.copy_from_slice(&tail[..width - full * 64]);
        }
    }
}

/// Writes the blocks of 64 cells of a row (run starts and set cells `starts`, `set`) into
/// `dst` (64 cells a block) from the row's label `table`, whose entry `r` is the label of
/// the run coming in from the left of the first block (0 before the row's first run);
/// returns `r` plus the blocks' run starts. 4 cells per step: each 4 run-start bits give
/// the cells' offsets in the table from the incoming run (a table, [`OFFSETS4`]), one
/// `vpermd` of the 8 entries from there puts each cell's label in the low half of its 64-bit
/// lane, and an AND with the set cells' mask ([`SET4`]) clears the high halves and the
/// background cells; one 32-byte store writes the 4 cells.
///
/// # Panics
/// When `dst` holds fewer than 64 cells per block, or `table` is shorter than the loads
/// need (8 entries from each step's first).
#[target_feature(enable = "avx2,popcnt")]
fn write_blocks(
    table: &[u32],
    mut r: usize,
    (starts, set): (&[u64], &[u64]),
    dst: &mut [MaybeUninit<u64>],
) -> usize {
    assert!(
        dst.len() >= starts.len() * 64 && set.len() >= starts.len(),
        "buffers too small for the blocks"
    );
    for (j, (&s0, &m0)) in starts.iter().zip(set).enumerate() {
        // The loads of the block start at entries r..=r + (its run starts).
        assert!(
            r + s0.count_ones() as usize + TABLE_SLACK_AVX2 <= table.len(),
            "row table too short"
        );
        let (table, dst) = (table.as_ptr(), dst[64 * j..].as_mut_ptr().cast::<__m256i>());
        if s0 == 0 {
            // No run starts: every set cell takes the incoming run's label (0 before the
            // row's first run), and a block all set or all background needs no mask.
            // SAFETY: entry r is inside the table (asserted above); the 16 stores write
            // the block's 64 cells in `dst` (asserted above); `SET4[m4]` is a 32-byte
            // aligned array of 32 bytes.
            unsafe {
                let v = _mm256_set1_epi64x(i64::from(*table.add(r)));
                if m0 == 0 || m0 == !0 {
                    let v = if m0 == 0 { _mm256_setzero_si256() } else { v };
                    for q in 0..16 {
                        _mm256_storeu_si256(dst.add(q), v);
                    }
                } else {
                    let mut m = m0;
                    for q in 0..16 {
                        let k = _mm256_load_si256(SET4[(m & 0xf) as usize].0.as_ptr().cast());
                        _mm256_storeu_si256(dst.add(q), _mm256_and_si256(v, k));
                        m >>= 4;
                    }
                }
            }
            continue;
        }
        let (mut s, mut m) = (s0, m0);
        for q in 0..16 {
            let (s4, m4) = ((s & 0xf) as usize, (m & 0xf) as usize);
            (s, m) = (s >> 4, m >> 4);
            // SAFETY: r is at most the block's first r plus its run starts, so entries
            // r..r + 8 are inside the table (asserted above); `OFFSETS4[s4]` and `SET4[m4]`
            // are 32-byte aligned arrays of 32 bytes; store q writes cells 4q..4q + 4 of
            // the block's 64 in `dst` (asserted above).
            unsafe {
                let t = _mm256_loadu_si256(table.add(r).cast());
                let o = _mm256_load_si256(OFFSETS4[s4].0.as_ptr().cast());
                let k = _mm256_load_si256(SET4[m4].0.as_ptr().cast());
                let v = _mm256_and_si256(_mm256_permutevar8x32_epi32(t, o), k);
                _mm256_storeu_si256(dst.add(q), v);
            }
            r += s4.count_ones() as usize;
        }
    }
    r
}

/// [`widen_avx512`] for CPUs with AVX2 but not AVX-512: 4 cells per instruction
/// (`vpmovzxdq`), with streaming stores at 32-byte aligned addresses in large images.
///
/// # Panics
/// When `out` is shorter than `labels`.
#[target_feature(enable = "avx2")]
pub(super) fn widen_avx2(labels: &[u32], out: &mut [MaybeUninit<u64>]) {
    let out = &mut out[..labels.len()];
    let stream = labels.len() * 8 >= STREAM_BYTES;
    // Cells up to the first 32-byte aligned one (all of them in a short image) one by one.
    let head = if stream {
        out.as_ptr().align_offset(32).min(out.len())
    } else {
        0
    };
    for (o, &l) in out[..head].iter_mut().zip(&labels[..head]) {
        o.write(u64::from(l));
    }
    let (src, dst) = (&labels[head..], &mut out[head..]);
    let whole = src.len() / 4 * 4;
    for (s, d) in src[..whole].chunks_exact(4).zip(dst.chunks_exact_mut(4)) {
        // SAFETY: `s` holds 4 `u32`s (16 bytes, an unaligned load) and `d` 4 cells of 8
        // bytes (32 bytes); with `stream`, `d` starts at a 32-byte aligned address (`head`
        // aligned the first, and every step is 32 bytes). Streaming stores are ordered by
        // the `_mm_sfence` below, before `out` can be read again (it is borrowed mutably
        // for the whole call).
        unsafe {
            let v = _mm256_cvtepu32_epi64(_mm_loadu_si128(s.as_ptr().cast()));
            if stream {
                _mm256_stream_si256(d.as_mut_ptr().cast(), v);
            } else {
                _mm256_storeu_si256(d.as_mut_ptr().cast(), v);
            }
        }
    }
    for (o, &l) in dst[whole..].iter_mut().zip(&src[whole..]) {
        o.write(u64::from(l));
    }
    _mm_sfence();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::{self, Features};

    /// What pass 2 writes: each set cell the label of its row's latest run start up to it
    /// (entry 0, 0, before the row's first), each other cell 0.
    fn reference(
        (width, height): (usize, usize),
        (starts, set): (&[u64], &[u64]),
        (row_base, labels): (&[u32], &[u32]),
    ) -> Vec<u64> {
        let bpr = width.div_ceil(64);
        let mut out = Vec::with_capacity(width * height);
        for y in 0..height {
            let mut r = 0usize;
            for x in 0..width {
                let bit = |m: &[u64]| m[y * bpr + x / 64] >> (x % 64) & 1 == 1;
                r += usize::from(bit(starts));
                let base = row_base[y] as usize;
                out.push(if bit(set) && r > 0 {
                    u64::from(labels[base + r - 1])
                } else {
                    0
                });
            }
        }
        out
    }

    /// Masks of a `width x height` image as pass 1 leaves them (run starts among the set
    /// cells, none past the width), blocks drawn from kinds with many runs (every cell a
    /// run start), none, all set or all background, and at random; the run bases and
    /// labels up to `u32::MAX`.
    fn masks(
        seed: u64,
        (width, height): (usize, usize),
    ) -> (Vec<u64>, Vec<u64>, Vec<u32>, Vec<u32>) {
        let mut state = seed;
        let mut next = move || {
            // SplitMix64.
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let bpr = width.div_ceil(64);
        let (mut starts, mut set) = (vec![0u64; bpr * height], vec![0u64; bpr * height]);
        let mut row_base = vec![0u32];
        for y in 0..height {
            for j in 0..bpr {
                let n = (width - 64 * j).min(64);
                let low = if n == 64 { !0 } else { (1u64 << n) - 1 };
                let (s, m) = match next() % 6 {
                    0 => (!0, !0),
                    1 => (0, !0),
                    2 => (0, 0),
                    3 => {
                        let m = next();
                        (m, m)
                    }
                    _ => {
                        let m = next() | next();
                        (m & next(), m)
                    }
                };
                (starts[y * bpr + j], set[y * bpr + j]) = (s & m & low, m & low);
            }
            let runs: u32 = starts[y * bpr..(y + 1) * bpr]
                .iter()
                .map(|s| s.count_ones())
                .sum();
            row_base.push(row_base[y] + runs);
        }
        let total = row_base[height] as usize;
        let labels = (0..total)
            .map(|i| {
                if i % 3 == 0 {
                    u32::MAX - i as u32
                } else {
                    next() as u32
                }
            })
            .collect();
        (starts, set, row_base, labels)
    }

    const SIZES: [(usize, usize); 14] = [
        (1, 1),
        (7, 3),
        (8, 2),
        (9, 4),
        (63, 3),
        (64, 2),
        (65, 3),
        (127, 2),
        (128, 2),
        (129, 3),
        (3, 70),
        (1000, 2),
        (1, 9),
        (0, 0),
    ];

    /// A writer under test: its `u32` and `u64` row tables and its output.
    type Writer<'a> = &'a dyn Fn(&mut Vec<u32>, &mut Vec<u64>, &mut [MaybeUninit<u64>]);

    /// Each vector writer against the reference on every width class, rows of many runs,
    /// into a buffer larger than the image (cells past it untouched), with the labels as
    /// they are, plus an offset and through a table (a band of a labelling in bands).
    #[test]
    fn writers_match_the_reference() {
        for (i, size) in SIZES.into_iter().enumerate() {
            for seed in 0..8u64 {
                let (starts, set, row_base, labels) = masks(seed * 31 + i as u64, size);
                // (relabel, the writer's labels, the labels it should write): the labels,
                // the labels halved plus 5, the runs' ranks through a table of the labels.
                let halves: Vec<u32> = labels.iter().map(|&l| l / 2).collect();
                let ranks: Vec<u32> = (1..=labels.len() as u32).collect();
                let map: Vec<u32> = [0].into_iter().chain(labels.iter().copied()).collect();
                let relabels = [
                    (Relabel::Offset(0), &labels, labels.clone()),
                    (
                        Relabel::Offset(5),
                        &halves,
                        halves.iter().map(|&l| l + 5).collect(),
                    ),
                    (Relabel::Table(&map), &ranks, labels.clone()),
                ];
                for (relabel, input, written) in relabels {
                    let want = reference(size, (&starts, &set), (&row_base, &written));
                    let cells = size.0 * size.1;
                    let run = |f: Writer<'_>| {
                        let mut out = vec![MaybeUninit::new(7u64); cells + 5];
                        f(&mut Vec::new(), &mut Vec::new(), &mut out);
                        // SAFETY: every cell was initialised (7) and the writer writes values.
                        out.iter()
                            .map(|c| unsafe { c.assume_init() })
                            .collect::<Vec<_>>()
                    };
                    let masks = (&starts[..], &set[..]);
                    let runs = (&row_base[..], &input[..]);
                    let mut tail = want.clone();
                    tail.extend([7; 5]);
                    if cpu::has(super::super::AVX2_WRITER) {
                        // SAFETY: `cpu::has(AVX2_WRITER)` checked the features `write_avx2`
                        // is compiled for.
                        let got = run(&|t, _, o| unsafe {
                            write_avx2(size, masks, runs, (t, relabel), o)
                        });
                        assert_eq!(got, tail, "avx2 {size:?} seed {seed} {relabel:?}");
                    }
                    if cpu::has(super::super::AVX512_WRITER) {
                        // SAFETY: `cpu::has(AVX512_WRITER)` checked the features
                        // `write_avx512` is compiled for.
                        let got = run(&|_, t, o| unsafe {
                            write_avx512(size, masks, runs, (t, relabel), o)
                        });
                        assert_eq!(got, tail, "avx512 {size:?} seed {seed} {relabel:?}");
                    }
                }
            }
        }
    }

    /// The widenings on every length up to 80 and one past the streaming size, from
    /// output addresses of every 8-byte offset from 64-byte alignment.
    #[test]
    fn widenings_match_the_reference() {
        let big = STREAM_BYTES / 8 + 13;
        let labels: Vec<u32> = (0..big as u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect();
        let mut out = vec![MaybeUninit::new(0u64); big + 8];
        for len in (0..80).chain([big]) {
            for shift in 0..8 {
                let src = &labels[..len];
                let dst = &mut out[shift..];
                let check = |dst: &[MaybeUninit<u64>], what: &str| {
                    for (i, (c, &l)) in dst.iter().zip(src).enumerate() {
                        // SAFETY: the buffer was initialised when made.
                        assert_eq!(unsafe { c.assume_init() }, u64::from(l), "{what} {len} {i}");
                    }
                };
                if cpu::has(Features::AVX2) {
                    // SAFETY: `cpu::has(AVX2)` checked the feature `widen_avx2` is compiled for.
                    unsafe { widen_avx2(src, dst) };
                    check(dst, "avx2");
                }
                if cpu::has(Features::AVX512F.union(Features::AVX2)) {
                    // SAFETY: the features `widen_avx512` is compiled for, checked just above.
                    unsafe { widen_avx512(src, dst) };
                    check(dst, "avx512");
                }
            }
        }
    }
}
