//! The same code compiled for CPUs with POPCNT and BMI: `popcount`, `trailing_zeros` and
//! the masks of `upto` become single instructions; and the AVX2 and AVX-512 label writers.

/// For the AVX2 writer: for each byte of a row (bits 0-7) and whether the cell before it is
/// set (bit 8), where each of the 8 cells takes its label from: `0..=3` the label of the
/// first..fourth run starting in the byte, `5` the run coming in from the left, `4` zero.
#[cfg(target_arch = "x86_64")]
static SLOTS: [[u8; 8]; 512] = {
    let mut t = [[4u8; 8]; 512];
    let mut i = 0;
    while i < 512 {
        let (bits, before) = (i & 0xff, i >> 8);
        let mut starts = 0;
        let mut j = 0;
        while j < 8 {
            let set = bits >> j & 1 == 1;
            let left = if j == 0 {
                before == 1
            } else {
                bits >> (j - 1) & 1 == 1
            };
            if set {
                if !left {
                    starts += 1;
                }
                t[i][j] = if starts == 0 { 5 } else { starts - 1 };
            }
            j += 1;
        }
        i += 1;
    }
    t
};

use super::bits::{merged, unit_runs};
use super::component_stats::StatsSink;
use super::run_writer;
use super::{unit_rows, ComponentStats, LabelWriter, Labeller, Labels};
use crate::{BitGrid, Connectivity, SizeError};
use std::mem::MaybeUninit;
use std::ops::Range;

#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn scan(l: &mut Labeller, grid: &BitGrid, conn: Connectivity) -> Result<u32, SizeError> {
    l.scan_body(grid, conn)
}

#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn label(
    l: &mut Labeller,
    grid: &BitGrid,
    conn: Connectivity,
    out: &mut Labels,
    stats: Option<&mut Vec<ComponentStats>>,
) -> Result<u32, SizeError> {
    l.label_body(grid, conn, out, stats)
}

#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn stats(
    l: &mut Labeller,
    grid: &BitGrid,
    conn: Connectivity,
    stats: &mut Vec<ComponentStats>,
) -> Result<u32, SizeError> {
    l.stats_body(grid, conn, stats)
}

#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn accumulate<S: StatsSink + ?Sized>(
    l: &mut Labeller,
    grid: &BitGrid,
    conn: Connectivity,
    dy: usize,
    sink: &mut S,
) {
    l.accumulate_body(grid, conn, dy, sink)
}

/// Labels with the AVX2 or AVX-512 writer (no statistics).
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn label_avx2(
    l: &mut Labeller,
    grid: &BitGrid,
    conn: Connectivity,
    out: &mut Labels,
) -> Result<u32, SizeError> {
    let (w, h) = (grid.width(), grid.height());
    let count = l.scan_body(grid, conn)?;
    let cells = out.resize_uninit(w, h)?;
    // SAFETY: this function is compiled for (and so only called with) AVX2 and the bit
    // instructions.
    let units = 0..h.div_ceil(unit_rows(conn));
    unsafe { write_fast(grid, conn, units, &l.parent, cells, l.writing()) };
    // SAFETY: `cells` came from `resize_uninit(w, h)`, and the writer wrote every one of
    // its first `w * h` cells (each row, each 8 or 16 cells of it, set or not).
    unsafe { out.set_written(w, h, count) };
    Ok(count)
}

/// Writes the label image 8 cells at a time without finding the runs again. For each
/// byte of a unit's merged row, a table gives each cell's source among the labels of the
/// (at most four) runs starting in the byte, the label of the run coming in from the
/// left, and 0; one `vpermd` picks them. With two-row units each row then keeps the
/// cells it has set.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn write_avx2<const UNIT: usize>(
    grid: &BitGrid,
    units: Range<usize>,
    labels: &[u32],
    out: &mut [MaybeUninit<u32>],
    stream: bool,
) {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm256_and_si256, _mm256_cmpeq_epi32, _mm256_cvtepu8_epi32,
        _mm256_permutevar8x32_epi32, _mm256_set1_epi32, _mm256_set_m128i, _mm256_setr_epi32,
        _mm256_storeu_si256, _mm256_stream_si256, _mm_cvtsi32_si128, _mm_loadl_epi64,
        _mm_loadu_si128, _mm_sfence, _mm_slli_si128,
    };
    let (w, h, wpr) = (grid.width(), grid.height(), grid.words_per_row());
    let words = grid.words();
    let lanes = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    let top = units.start * UNIT; // the grid row of `out`'s first row

    // Per row of a unit: the streamed first half of a line waiting for its second half.
    let mut held: [Option<(*mut __m256i, __m256i)>; UNIT] = [None; UNIT];
    let mut run = 0usize; // index of the next run to start
    for k in units {
        let y0 = k * UNIT;
        let rows = UNIT.min(h - y0);
        let mut incoming = 0u32; // label of the run reaching the next byte from the left
        let mut carry = 0u64;
        for j in 0..wpr {
            let m = merged(words, wpr, h, UNIT, k, j);
            let starts = m & !((m << 1) | carry);
            let before = (m << 1) | carry; // bit i: cell i - 1 is set
            let x0 = j * 64;
            for b in 0..(w - x0).div_ceil(8).min(8) {
                let shift = 8 * b as u32;
                let pattern =
                    ((m >> shift) & 0xff) as usize | (((before >> shift) & 1) as usize) << 8;
                let new = ((starts >> shift) & 0xff).count_ones() as usize;
                let four = &labels[run..run + 4];
                let x = x0 + 8 * b;
                // SAFETY: `SLOTS[pattern]` is 8 bytes and `four` 4 u32: the unaligned
                // loads stay inside them.
                let (slots, fresh) = unsafe {
                    (
                        _mm_loadl_epi64(SLOTS[pattern].as_ptr().cast::<__m128i>()),
                        _mm_loadu_si128(four.as_ptr().cast::<__m128i>()),
                    )
                };
                let from_left = _mm_slli_si128::<4>(_mm_cvtsi32_si128(incoming as i32));
                let candidates = _mm256_set_m128i(from_left, fresh);
                let v = _mm256_permutevar8x32_epi32(candidates, _mm256_cvtepu8_epi32(slots));
                for (r, slot) in held.iter_mut().enumerate().take(rows) {
                    let y = y0 + r;
                    let v = if UNIT == 1 {
                        v
                    } else {
                        let bits = (words[y * wpr + j] >> shift) as i32 & 0xff;
                        let set = _mm256_and_si256(_mm256_set1_epi32(bits), lanes);
                        _mm256_and_si256(v, _mm256_cmpeq_epi32(set, lanes))
                    };
                    let row = &mut out[(y - top) * w..(y - top + 1) * w];
                    if x + 8 <= w {
                        let dst = &mut row[x..x + 8];
                        let ptr = dst.as_mut_ptr().cast::<__m256i>();
                        if stream && (ptr as usize).is_multiple_of(32) {
                            // Streaming: an image larger than the cache; no read for
                            // ownership. With two rows a unit, the first half of a line is
                            // held until its second half comes, so that each line is
                            // streamed whole in two consecutive stores rather than
                            // alternating with the other row's line (`held`).
                            // SAFETY (each `_mm256_stream_si256` here): `ptr` is `dst`, 8
                            // u32 and 32-byte aligned, and a held `p` was such a `dst`
                            // earlier in this unit's row `r` (the image is borrowed
                            // mutably for this call, so it is still valid). Streaming stores
                            // need an `_mm_sfence` on this thread before the memory is read
                            // again: the one at the end of this function; a panic before it
                            // unwinds past every reader of `labels`.
                            if UNIT > 1 {
                                let half = (ptr as usize).is_multiple_of(64);
                                match slot.take() {
                                    Some((p, pv)) if !half && p.wrapping_add(1) == ptr => unsafe {
                                        _mm256_stream_si256(p, pv);
                                        _mm256_stream_si256(ptr, v);
                                    },
                                    other => {
                                        if let Some((p, pv)) = other {
                                            unsafe { _mm256_stream_si256(p, pv) };
                                        }
                                        if half {
                                            *slot = Some((ptr, v));
                                        } else {
                                            unsafe { _mm256_stream_si256(ptr, v) };
                                        }
                                    }
                                }
                            } else {
                                unsafe { _mm256_stream_si256(ptr, v) };
                            }
                        } else {
                            // SAFETY: `dst` is 8 u32: the store stays inside it.
                            unsafe { _mm256_storeu_si256(ptr, v) };
                        }
                    } else {
                        // The row's last cells: the other row of the unit follows.
                        let mut tail = [0u32; 8];
                        // SAFETY: `tail` is 8 u32: the unaligned store stays inside it.
                        unsafe { _mm256_storeu_si256(tail.as_mut_ptr().cast::<__m256i>(), v) };
                        for (d, &t) in row[x..].iter_mut().zip(&tail) {
                            d.write(t);
                        }
                    }
                }
                let last = labels[(run + new).saturating_sub(1)];
                incoming = if new != 0 { last } else { incoming };
                run += new;
            }
            carry = m >> 63;
        }
        // A line's first half whose second half was not streamed (the row's end).
        for slot in &mut held {
            if let Some((p, pv)) = slot.take() {
                // SAFETY: as for the held stores above.
                unsafe { _mm256_stream_si256(p, pv) };
            }
        }
    }
    // Order the streaming stores before anything that follows.
    _mm_sfence();
}

/// How [`write_fast`] writes an image: the labeller's choices for it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Writing {
    /// The AVX2 writer even where the CPU has AVX-512.
    pub(super) avx2_only: bool,
    /// Streaming stores (see [`super::LabelStores`]), for the rows of the run writer, and
    /// for the row pairs of the AVX2 writer ([`super::LabelStores::Auto`]: never).
    pub(super) stream: bool,
    pub(super) stream_runs: bool,
    pub(super) stream_avx2_pairs: bool,
    /// Which AVX-512 writer writes each unit.
    pub(super) writer: LabelWriter,
}

impl Labeller {
    /// This labeller's choices for [`write_fast`] (its stores chosen for the image being
    /// written).
    pub(super) fn writing(&self) -> Writing {
        Writing {
            avx2_only: !self.may(super::AVX512_WRITER),
            stream: self.stream,
            stream_runs: self.stream_runs,
            stream_avx2_pairs: self.stream && self.stores.streams_avx2_pairs(),
            writer: self.writer,
        }
    }
}

/// Writes the label image of a scanned grid (`labels`: each run's label, in the order of the
/// scan) with the best writer this CPU has: [`write_avx512`] unless `how.avx2_only`, else
/// [`write_avx2`], with streaming stores when `how.stream` (`how.stream_avx2_pairs` for the
/// AVX2 writer's row pairs; see [`super::LabelStores`]). Only
/// the rows of `units` (units of one row, or two with
/// 8-connectivity), into `out` from its first row, with `labels` from the first run of the
/// first of them.
///
/// # Safety
/// The CPU must have AVX2, POPCNT, BMI1, BMI2 and LZCNT (`cpu::has(AVX2_WRITER)`).
pub(super) unsafe fn write_fast(
    grid: &BitGrid,
    conn: Connectivity,
    units: Range<usize>,
    labels: &[u32],
    out: &mut [MaybeUninit<u32>],
    how: Writing,
) {
    let wide = !how.avx2_only && crate::cpu::has(super::AVX512_WRITER);
    let Writing {
        stream,
        stream_runs,
        stream_avx2_pairs,
        writer,
        ..
    } = how;
    let stores = (stream, stream_runs);
    // SAFETY: the caller guarantees AVX2 and the bit instructions; `AVX512_WRITER`
    // checked AVX-512 F and VPOPCNTDQ (and the same bit instructions) for `write_avx512`.
    unsafe {
        match (conn, wide) {
            (Connectivity::Four, true) => {
                write_avx512::<1>(grid, units, labels, out, stores, writer)
            }
            (Connectivity::Eight, true) => {
                write_avx512::<2>(grid, units, labels, out, stores, writer)
            }
            (Connectivity::Four, false) => write_avx2::<1>(grid, units, labels, out, stream),
            (Connectivity::Eight, false) => {
                write_avx2::<2>(grid, units, labels, out, stream_avx2_pairs)
            }
        }
    }
}

/// Writes the label image 16 cells per instruction, without tables. For each 16 cells of
/// a unit's merged row, `vpopcntd` of the run starts up to each cell gives the cell's source
/// among the label coming in from the left (0) and the labels of the runs starting in the
/// 16 cells (1..=8); one `vpermd`, masked by the row's cells, picks them, and one store
/// writes them (streaming where aligned when `stream`, masked at a row's end). 64 cells in
/// which no run starts take the incoming label where set, one masked broadcast per 16.
/// Units with few runs go to the [run writer](run_writer) as `writer` says
/// ([`LabelWriter`]).
#[target_feature(enable = "avx512f,avx512vpopcntdq,avx2,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn write_avx512<const UNIT: usize>(
    grid: &BitGrid,
    units: Range<usize>,
    labels: &[u32],
    out: &mut [MaybeUninit<u32>],
    (stream, stream_runs): (bool, bool),
    writer: LabelWriter,
) {
    use std::arch::x86_64::{
        _mm512_and_si512, _mm512_mask_loadu_epi32, _mm512_mask_storeu_epi32,
        _mm512_maskz_mov_epi32, _mm512_maskz_permutexvar_epi32, _mm512_popcnt_epi32,
        _mm512_set1_epi32, _mm512_setr_epi32, _mm512_storeu_si512, _mm512_stream_si512, _mm_sfence,
    };
    let (w, h, wpr) = (grid.width(), grid.height(), grid.words_per_row());
    let top = units.start * UNIT; // the grid row of `out`'s first row
    let bottom = (units.end * UNIT).min(h);
    assert!(
        top <= bottom && out.len() >= (bottom - top) * w,
        "label image too small"
    );
    let words = grid.words();
    // The label read after each 16 cells needs one entry even before the first run.
    let labels = if labels.is_empty() { &[0][..] } else { labels };
    // Lane i: the cells up to and including cell i of 16.
    let upto = _mm512_setr_epi32(
        0x1, 0x3, 0x7, 0xf, 0x1f, 0x3f, 0x7f, 0xff, 0x1ff, 0x3ff, 0x7ff, 0xfff, 0x1fff, 0x3fff,
        0x7fff, 0xffff,
    );
    // Units of at most one run per `cells_per_run` cells go to the run writer (`None`:
    // none), through a row buffer with streaming stores.
    let cells_per_run = match writer {
        LabelWriter::Cells => None,
        LabelWriter::Auto if stream_runs && UNIT > 1 => None,
        LabelWriter::Auto => Some(run_writer::SPARSE_CELLS_PER_RUN),
        LabelWriter::Runs => Some(0),
    };
    let mut buffer = match cells_per_run {
        Some(_) if stream_runs => run_writer::RowBuffer::try_new(w),
        _ => None,
    };
    // No memory for the buffer: the vector writer.
    let cells_per_run = cells_per_run.filter(|_| !stream_runs || buffer.is_some());
    let mut run = 0usize; // index of the next run to start
    for k in units {
        let y0 = k * UNIT;
        let rows = UNIT.min(h - y0);
        if let Some(per) = cells_per_run {
            let n = unit_runs(words, wpr, h, UNIT, k) as usize;
            if n.saturating_mul(per) <= w {
                assert!(run + n <= labels.len(), "too few run labels");
                let labels = &labels[run..];
                if UNIT == 2 && rows == 2 && buffer.is_none() {
                    let cells = &mut out[(y0 - top) * w..(y0 + 2 - top) * w];
                    run_writer::write_pair(words, wpr, k, labels, cells);
                    run += n;
                    continue;
                }
                for y in y0..y0 + rows {
                    let row = &mut out[(y - top) * w..(y - top + 1) * w];
                    match buffer.as_mut() {
                        Some(buffer) => {
                            let cells = buffer.row(w);
                            run_writer::write_row::<UNIT>(words, (wpr, h), (k, y), labels, cells);
                            run_writer::stream_row(cells, row);
                        }
                        None => run_writer::write_row::<UNIT>(words, (wpr, h), (k, y), labels, row),
                    }
                }
                run += n;
                continue;
            }
        }
        let mut incoming = 0u32; // label of the run reaching the next cells from the left
        let mut carry = 0u64;
        for j in 0..wpr {
            let m = merged(words, wpr, h, UNIT, k, j);
            let starts = m & !((m << 1) | carry);
            carry = m >> 63;
            // Every run starting in this word has its label: the loads below read only
            // `labels[run..run + starts.count_ones()]`.
            assert!(
                run + starts.count_ones() as usize <= labels.len(),
                "too few run labels"
            );
            let x0 = j * 64;
            let cells = (w - x0).min(64);
            if starts == 0 && cells == 64 {
                // No run starts in these 64 cells (the white of a scan, the inside of a
                // long run): every set cell takes the incoming label, the others 0. No
                // table, no popcount; predictable on scans, never taken on noise.
                let fill = _mm512_set1_epi32(incoming as i32);
                for r in 0..rows {
                    let y = y0 + r;
                    let row = if UNIT == 1 { m } else { words[y * wpr + j] };
                    for q in 0..4 {
                        let v = _mm512_maskz_mov_epi32((row >> (16 * q)) as u16, fill);
                        // SAFETY: cells x0 + 16q..x0 + 16q + 16 of row y, inside `out` as
                        // below (`x0 + 64 <= w`); streaming as below, at a 64-byte aligned
                        // address, before the `_mm_sfence` at the end.
                        unsafe {
                            let p = out.as_mut_ptr().add((y - top) * w + x0 + 16 * q);
                            if stream && (p as usize).is_multiple_of(64) {
                                _mm512_stream_si512(p.cast(), v);
                            } else {
                                _mm512_storeu_si512(p.cast(), v);
                            }
                        }
                    }
                }
                continue;
            }
            for q in 0..cells.div_ceil(16) {
                let s = (starts >> (16 * q)) as u32 & 0xffff;
                let new = s.count_ones() as usize;
                let source =
                    _mm512_popcnt_epi32(_mm512_and_si512(_mm512_set1_epi32(s as i32), upto));
                // Lane 0 the incoming label, lanes 1..=new the new runs' labels.
                let fresh = (((1u32 << new) - 1) << 1) as u16;
                // SAFETY: lanes 1..=new read `labels[run..run + new]`, inside `labels` (the
                // assert above); masked-off lanes are not accessed, so the pointer one
                // before `run` is never read.
                let candidates = unsafe {
                    _mm512_mask_loadu_epi32(
                        _mm512_set1_epi32(incoming as i32),
                        fresh,
                        labels
                            .as_ptr()
                            .wrapping_add(run)
                            .wrapping_sub(1)
                            .cast::<i32>(),
                    )
                };
                let x = x0 + 16 * q;
                let inside = if cells - 16 * q >= 16 {
                    u16::MAX
                } else {
                    ((1u32 << (cells - 16 * q)) - 1) as u16
                };
                for r in 0..rows {
                    let y = y0 + r;
                    let set = if UNIT == 1 {
                        (m >> (16 * q)) as u16
                    } else {
                        (words[y * wpr + j] >> (16 * q)) as u16
                    };
                    let v = _mm512_maskz_permutexvar_epi32(set, source, candidates);
                    // SAFETY: lanes `0..cells - 16q` are cells x..x + 16 of row y, inside
                    // `out` (`(y - top) * w + x + lane < (y - top + 1) * w <= out.len()`,
                    // asserted above, as `y < bottom`);
                    // the others are masked off and not written. A streaming store (no read
                    // for ownership: faster on two threads, measured) writes all 16 lanes,
                    // all inside, at a 64-byte aligned address. Streaming stores need an
                    // `_mm_sfence` on this thread before the memory is read again: the one
                    // at the end of this function; a panic before it unwinds past every
                    // reader of `out` (borrowed mutably for this call).
                    unsafe {
                        let p = out.as_mut_ptr().add((y - top) * w + x);
                        if stream && inside == u16::MAX && (p as usize).is_multiple_of(64) {
                            _mm512_stream_si512(p.cast(), v);
                        } else {
                            _mm512_mask_storeu_epi32(p.cast(), inside, v);
                        }
                    }
                }
                // Branch-free: whether 16 cells start a run is unpredictable on noise.
                let last = labels[(run + new).saturating_sub(1)];
                incoming = std::hint::select_unpredictable(new != 0, last, incoming);
                run += new;
            }
        }
    }
    // Order the streaming stores before anything that follows.
    _mm_sfence();
}

#[cfg(test)]
mod tests {
    use super::super::{unit_rows, LabelWriter, Labeller, AVX2_WRITER, AVX512_WRITER};
    use super::{write_fast, Writing};
    use crate::{BitGrid, Connectivity};
    use std::mem::MaybeUninit;

    /// Every range of units written alone equals the same rows of the whole image, with
    /// both writers this CPU has (and each AVX-512 writer choice), on random grids of 1 to
    /// 200 columns and 1 to 21 rows (odd heights end in a one-row unit with
    /// 8-connectivity).
    #[test]
    fn unit_ranges_write_the_rows_of_the_whole_image() {
        if !crate::cpu::has(AVX2_WRITER) {
            return;
        }
        let mut rng = crate::test_rng::XorShift(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.next_u64();
        for case in 0..60 {
            let (w, h) = (1 + (next() % 200) as usize, 1 + (next() % 21) as usize);
            let density = next() % 100;
            let g = BitGrid::from_fn(w, h, |_, _| next() % 100 < density).unwrap();
            for conn in [Connectivity::Four, Connectivity::Eight] {
                let mut l = Labeller::new();
                l.scan(&g, conn).unwrap();
                let units = h.div_ceil(unit_rows(conn));
                let rows_of = |k: usize| (k * unit_rows(conn)).min(h);
                let writers = [LabelWriter::Auto, LabelWriter::Cells, LabelWriter::Runs];
                let choices = [true, false].into_iter().flat_map(|avx2_only| {
                    [(false, false), (true, false), (false, true), (true, true)]
                        .into_iter()
                        .flat_map(move |stores| writers.map(|writer| (avx2_only, stores, writer)))
                });
                for (avx2_only, (stream, stream_runs), writer) in choices {
                    if !avx2_only && !crate::cpu::has(AVX512_WRITER) {
                        continue;
                    }
                    let how = Writing {
                        avx2_only,
                        stream,
                        stream_runs,
                        stream_avx2_pairs: stream,
                        writer,
                    };
                    let write = |a: usize, b: usize| -> Vec<u32> {
                        let mut out =
                            vec![MaybeUninit::new(u32::MAX); (rows_of(b) - rows_of(a)) * w];
                        let labels = &l.parent[l.unit_base[a] as usize..];
                        // SAFETY: the CPU has AVX2 and the bit instructions (checked above),
                        // and AVX-512 when `avx2_only` is false (checked above).
                        unsafe { write_fast(&g, conn, a..b, labels, &mut out, how) };
                        // SAFETY: every element was initialised when the vector was made.
                        out.iter().map(|c| unsafe { c.assume_init() }).collect()
                    };
                    let whole = write(0, units);
                    assert!(
                        !whole.contains(&u32::MAX),
                        "case {case}: a cell left unwritten"
                    );
                    for a in 0..units {
                        for b in a + 1..=units {
                            let part = write(a, b);
                            assert_eq!(
                                part,
                                whole[rows_of(a) * w..rows_of(b) * w],
                                "case {case}: {w}x{h} {conn:?} units {a}..{b} {how:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
