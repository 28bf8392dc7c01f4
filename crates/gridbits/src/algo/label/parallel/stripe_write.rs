//! The writing half of striped labelling ([`super`]): a stripe's rows of the label image
//! from its run labels (after [`remap`] to the final labels), in pieces side by side for the
//! rows of a pipelined first stripe that are final once it is scanned ([`final_units`]).

#[cfg(target_arch = "x86_64")]
use super::super::x86;
use super::super::{cpu_has_avx2, unit_rows, Labeller};
use super::{each, Stripe};
use crate::{BitGrid, Connectivity, SizeError};
use std::mem::MaybeUninit;
use std::ops::Range;

/// The pieces the first stripe of a pipelined labelling is written in: tasks for the
/// threads that finish their scans first.
const WRITE_PIECES: usize = 8;

/// [`write_stripe`] of the rows of `units` in [`WRITE_PIECES`] pieces of whole units, as
/// tasks that an idle thread takes (the threads that scanned the other stripes, once
/// done); with the portable writer in one piece.
pub(super) fn write_in_pieces(
    l: &mut Labeller,
    g: &BitGrid,
    conn: Connectivity,
    units: Range<usize>,
    cells: &mut [MaybeUninit<u32>],
) -> Result<(), SizeError> {
    #[cfg(target_arch = "x86_64")]
    {
        if !l.portable && cpu_has_avx2() {
            let (w, unit) = (g.width(), unit_rows(conn));
            let per = units.len().div_ceil(WRITE_PIECES).max(1);
            let mut pieces: Vec<(Range<usize>, &mut [MaybeUninit<u32>])> =
                Vec::with_capacity(WRITE_PIECES);
            let mut rest = cells;
            for k in units.clone().step_by(per) {
                let end = (k + per).min(units.end);
                let rows = (end * unit).min(g.height()) - k * unit;
                let (piece, after) = rest.split_at_mut(rows * w);
                rest = after;
                pieces.push((k..end, piece));
            }
            let (l, avx2_only) = (&*l, l.avx2_only);
            return each(&mut pieces, |_, (units, piece)| {
                let labels = &l.parent[l.unit_base[units.start] as usize..];
                // SAFETY: the CPU has AVX2, POPCNT, BMI1, BMI2 and LZCNT (`cpu_has_avx2`),
                // what `write_fast` needs. Its writers write only inside `piece` (the rows
                // of `units`) and read the run labels from the first run of `units` on.
                unsafe { x86::write_fast(g, conn, units.clone(), labels, piece, avx2_only) };
                Ok(())
            });
        }
    }
    write_stripe(l, g, conn, units, cells);
    Ok(())
}

/// The units of the first stripe whose local labels are final before the borders are
/// joined: those above the unit that gave the second smallest label of its last row. Only
/// labels of that row can be joined (through the stripes below; the grid's first row has
/// no stripe above), each to a smaller one of the same set, so the smallest is never
/// joined and the first stripe's map (it numbers from 1) is the identity below the second;
/// and labels are given unit by unit, so no cell of that label or a later one lies above
/// the unit that gave it. On noise that unit is a few rows above the stripe's border; on a
/// comb whose teeth meet below, the first.
pub(super) fn final_units(s: &Stripe) -> usize {
    // `bottom` holds `1 +` each label's index in the sorted `border`.
    let (mut least, mut second) = (u32::MAX, u32::MAX);
    for &i in s.bottom.iter().filter(|&&i| i != 0) {
        if i < least {
            (least, second) = (i, least);
        } else if i != least && i < second {
            second = i;
        }
    }
    let l = &s.labeller;
    match s.border.get(second.wrapping_sub(1) as usize) {
        Some(&label) => l.unit_labels.partition_point(|&given| given < label),
        None => l.unit_labels.len(),
    }
}

/// Writes the rows of `units` of a scanned stripe with its run labels as they are (final
/// after [`remap`], or final already: a pipelined first stripe's [`final_units`]) into
/// `cells`, exactly their `width * rows` cells (no spill past them: the next rows follow).
pub(super) fn write_stripe(
    l: &mut Labeller,
    g: &BitGrid,
    conn: Connectivity,
    units: Range<usize>,
    cells: &mut [MaybeUninit<u32>],
) {
    #[cfg(target_arch = "x86_64")]
    {
        if !l.portable && cpu_has_avx2() {
            let labels = &l.parent[l.unit_base[units.start] as usize..];
            // SAFETY: the CPU has AVX2, POPCNT, BMI1, BMI2 and LZCNT (`cpu_has_avx2` checks
            // all of them), what `write_fast` needs. Its writers write only inside `cells`
            // (the rows of `units`) and read the run labels from the first run of `units`.
            unsafe { x86::write_fast(g, conn, units, labels, cells, l.avx2_only) };
            return;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = cpu_has_avx2;
    let (w, unit) = (g.width(), unit_rows(conn));
    let rows = units.start * unit..units.end * unit;
    l.for_each_row(g, conn, 0, |y, starts, ends, labels| {
        if !rows.contains(&y) {
            return;
        }
        let row = &mut cells[(y - rows.start) * w..(y - rows.start + 1) * w];
        let mut x = 0;
        for ((&s, &e), &label) in starts.iter().zip(ends).zip(labels) {
            let (s, e) = (s as usize, e as usize);
            row[x..s].fill(MaybeUninit::new(0));
            row[s..e].fill(MaybeUninit::new(label));
            x = e;
        }
        row[x..].fill(MaybeUninit::new(0));
    });
}

/// Replaces every run label `p` by `map[p]` (labels are at most `map.len() - 1`). With AVX2
/// (detected at run time, unless `portable`) 8 labels per gather.
pub(super) fn remap(labels: &mut [u32], map: &[u32], portable: bool) {
    #[cfg(target_arch = "x86_64")]
    {
        if !portable && map.len() <= i32::MAX as usize && cpu_has_avx2() {
            // SAFETY: the CPU has AVX2 (`cpu_has_avx2` checks it), the only feature
            // `remap_avx2` is compiled for; it keeps its memory accesses inside `labels` and
            // `map` for any input (see its comments).
            unsafe { remap_avx2(labels, map) };
            return;
        }
    }
    let _ = portable;
    let last = map.len() - 1;
    for p in labels {
        *p = map[(*p as usize).min(last)];
    }
}

/// [`remap`] with AVX2 gathers. A `map` that is empty or longer than `i32::MAX` (whose last
/// index the gathers cannot clamp to) takes the bounds-checked scalar loop instead.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn remap_avx2(labels: &mut [u32], map: &[u32]) {
    use std::arch::x86_64::{
        __m256i, _mm256_i32gather_epi32, _mm256_loadu_si256, _mm256_min_epu32, _mm256_set1_epi32,
        _mm256_storeu_si256,
    };
    let last = match map.len().checked_sub(1) {
        Some(last) if last <= i32::MAX as usize => last,
        _ => {
            let last = map.len().saturating_sub(1);
            for p in labels {
                *p = map[(*p as usize).min(last)];
            }
            return;
        }
    };
    let top = _mm256_set1_epi32(last as i32);
    let mut chunks = labels.chunks_exact_mut(8);
    for c in &mut chunks {
        let ptr = c.as_mut_ptr().cast::<__m256i>();
        // SAFETY: `c` is 8 u32: the unaligned load stays inside it.
        let v = unsafe { _mm256_loadu_si256(ptr) };
        // Indices clamped to `0..=last` (`last < 2^31`, so they are non-negative as i32).
        let i = _mm256_min_epu32(v, top);
        // SAFETY: every index is at most `last`: each lane reads 4 bytes inside `map`.
        let g = unsafe { _mm256_i32gather_epi32::<4>(map.as_ptr().cast::<i32>(), i) };
        // SAFETY: `c` is 8 u32: the unaligned store stays inside it.
        unsafe { _mm256_storeu_si256(ptr, g) };
    }
    for p in chunks.into_remainder() {
        *p = map[(*p as usize).min(last)];
    }
}
