//! The writing half of striped labelling ([`super`]): a stripe's rows of the label image
//! from its run labels (after [`remap`] to the final labels), in pieces side by side for the
//! rows of a pipelined first stripe that are final once it is scanned ([`final_units`]).

use super::super::scratch::Stripe;
#[cfg(target_arch = "x86_64")]
use super::super::x86;
use super::super::{unit_rows, Labeller, AVX2_WRITER};
#[cfg(target_arch = "x86_64")]
use super::each;
use crate::{BitGrid, Connectivity, SizeError};
use std::mem::MaybeUninit;
use std::ops::Range;

/// The pieces the first stripe of a pipelined labelling is written in: tasks for the
/// threads that finish their scans first.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
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
        if l.may(AVX2_WRITER) {
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
            let (l, how) = (&*l, l.writing());
            return each(&mut pieces, |_, (units, piece)| {
                let labels = &l.parent[l.unit_base[units.start] as usize..];
                // SAFETY: the CPU has AVX2, POPCNT, BMI1, BMI2 and LZCNT (`cpu::has(AVX2_WRITER)`),
                // what `write_fast` needs. Its writers write only inside `piece` (the rows
                // of `units`) and read the run labels from the first run of `units` on.
                unsafe { x86::write_fast(g, conn, units.clone(), labels, piece, how) };
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
        if l.may(AVX2_WRITER) {
            let labels = &l.parent[l.unit_base[units.start] as usize..];
            // SAFETY: the CPU has AVX2, POPCNT, BMI1, BMI2 and LZCNT (`cpu::has(AVX2_WRITER)` checks
            // all of them), what `write_fast` needs. Its writers write only inside `cells`
            // (the rows of `units`) and read the run labels from the first run of `units`.
            unsafe { x86::write_fast(g, conn, units, labels, cells, l.writing()) };
            return;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = AVX2_WRITER;
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

impl Stripe {
    /// Builds the stripe's map ([`fill_map`]) for the runs of its units `from..` and
    /// returns their indices: the map of every label with `from == 0`, else from the
    /// smallest label of those runs (a pipelined first stripe's last rows: on noise a few
    /// thousand labels of its million). Returns the number of map entries it could not
    /// allocate on failure.
    pub(super) fn map_runs(
        &mut self,
        conn: Connectivity,
        from: usize,
    ) -> Result<Range<usize>, usize> {
        let units = self.units(conn);
        let base = &self.labeller.unit_base;
        let runs = base[from.min(units)] as usize..base[units] as usize;
        let least = match from {
            0 => 0,
            _ => self.labeller.parent[runs.clone()]
                .iter()
                .copied()
                .min()
                .unwrap_or(self.count + 1),
        };
        fill_map(self, least)?;
        Ok(runs)
    }

    /// Renumbers the runs `runs` (from [`Stripe::map_runs`]) to their final labels.
    pub(super) fn remap_runs(&mut self, runs: Range<usize>) {
        let shift = Shift::of_stripe(&self.joined, self.count, self.first, self.map_base);
        let map = Map {
            base: self.map_base,
            finals: &self.map,
            shift,
        };
        let l = &mut self.labeller;
        let portable = !l.may(AVX2_WRITER);
        remap(&mut l.parent[runs], map, portable);
    }
}

/// Fills a stripe's [`Stripe::map`](super::Stripe) with the final label of each of its
/// local labels from `base` on (`map[i]` of label `base + i`): runs of new labels
/// (consecutive, from `first + 1`) between the joined labels, which take their roots' labels;
/// label 0 stays 0. Returns the number of entries it could not allocate on failure.
fn fill_map(s: &mut Stripe, base: u32) -> Result<(), usize> {
    let count = s.count;
    let n = (count + 1).saturating_sub(base) as usize;
    s.map.clear();
    s.map.try_reserve_exact(n).map_err(|_| n)?;
    s.map_base = base;
    let map = &mut s.map;
    if base == 0 {
        map.push(0);
    }
    // Labels `lo..j` are new (the first `next`), then `j` is joined (or past the end).
    let (mut lo, mut next) = (1, s.first + 1);
    let joined = s.joined.iter().zip(&s.joined_final);
    for (&j, &f) in joined.chain([(&(count + 1), &0)]) {
        let from = lo.max(base);
        if from < j {
            map.extend(next + (from - lo)..next + (j - lo));
        }
        if base <= j && j <= count {
            map.push(f);
        }
        next += j - lo;
        lo = j + 1;
    }
    debug_assert_eq!(map.len(), n);
    Ok(())
}

/// The longest run of consecutive labels that a stripe's map moves by one offset: the
/// labels strictly between `lo` and `hi` map to `label + delta` (wrapping). [`remap`] adds
/// the offset to them instead of reading the map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Shift {
    lo: u32,
    hi: u32,
    delta: u32,
}

impl Shift {
    /// The longest run of a stripe's map (see [`fill_map`]) among the labels from `base`
    /// on: its `count` local labels are, in order, new labels `first + 1, first + 2, ...`
    /// and the `joined` labels (increasing), which take other labels; so the new labels
    /// between two joined ones (or 0 and `count + 1`) move by `first` minus the number of
    /// joined labels below.
    fn of_stripe(joined: &[u32], count: u32, first: u32, base: u32) -> Shift {
        let mut best = Shift::default();
        let mut lo = 0;
        for (below, &hi) in joined.iter().chain([count + 1].iter()).enumerate() {
            // The run's labels from `base` on (those below are not renumbered).
            let from = lo.max(base.saturating_sub(1));
            if hi > from && hi - from > best.hi - best.lo {
                let delta = first.wrapping_sub(below as u32);
                best = Shift {
                    lo: from,
                    hi,
                    delta,
                };
            }
            lo = hi;
        }
        best
    }

    /// The labels of the run are those `p` with `p - start < len` (wrapping): `(start,
    /// len)`.
    fn span(self) -> (u32, u32) {
        (
            self.lo.wrapping_add(1),
            self.hi.saturating_sub(self.lo.wrapping_add(1)),
        )
    }
}

/// A stripe's map from local to final labels: `finals[p - base]` for the labels `p` from
/// `base` on, and `shift`, a run of it (`p + shift.delta` for the labels of the run, whether
/// from `base` on or not).
#[derive(Clone, Copy, Debug)]
struct Map<'a> {
    base: u32,
    finals: &'a [u32],
    shift: Shift,
}

impl Map<'_> {
    /// The final label of `p` (an index past the end reads the last entry).
    fn get(&self, p: u32) -> u32 {
        let (start, len) = self.shift.span();
        if p.wrapping_sub(start) < len {
            p.wrapping_add(self.shift.delta)
        } else {
            let last = self.finals.len() - 1;
            self.finals[(p.wrapping_sub(self.base) as usize).min(last)]
        }
    }
}

/// Replaces every run label `p` by its final label in `map` (each label not in its run is at
/// least `map.base`; a map that is empty leaves `labels` as they are). With AVX2 (detected
/// at run time, unless `portable`) 8 labels at a time: an addition when they all lie in the
/// shifted run (most labels of a stripe: those after its first rows' components), else a
/// gather for the others.
fn remap(labels: &mut [u32], map: Map<'_>, portable: bool) {
    if map.finals.is_empty() {
        return;
    }
    debug_assert!((map.shift.lo + 1..map.shift.hi)
        .filter(|&p| p >= map.base)
        .all(|p| map.finals[(p - map.base) as usize] == p.wrapping_add(map.shift.delta)));
    #[cfg(target_arch = "x86_64")]
    {
        if !portable && map.finals.len() <= i32::MAX as usize && crate::cpu::has(AVX2_WRITER) {
            // SAFETY: the CPU has AVX2 (`cpu::has(AVX2_WRITER)` checks it), the only feature
            // `remap_avx2` is compiled for; it keeps its memory accesses inside `labels` and
            // `map.finals` for any input (see its comments).
            unsafe { remap_avx2(labels, map) };
            return;
        }
    }
    let _ = portable;
    for p in labels {
        *p = map.get(*p);
    }
}

/// [`remap`] with AVX2 additions and gathers, for a map of 1 to `i32::MAX` entries.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn remap_avx2(labels: &mut [u32], map: Map<'_>) {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_cmpgt_epi32, _mm256_loadu_si256,
        _mm256_mask_i32gather_epi32, _mm256_min_epu32, _mm256_movemask_epi8, _mm256_set1_epi32,
        _mm256_storeu_si256, _mm256_sub_epi32, _mm256_xor_si256,
    };
    let last = map.finals.len() - 1;
    assert!(last <= i32::MAX as usize, "a map of at most 2^31 entries");
    let top = _mm256_set1_epi32(last as i32);
    let base = _mm256_set1_epi32(map.base as i32);
    // `p - start < len` unsigned, as a signed comparison with both sides' sign bits flipped.
    let (start, len) = map.shift.span();
    let sign = _mm256_set1_epi32(i32::MIN);
    let start = _mm256_set1_epi32(start as i32);
    let len = _mm256_xor_si256(_mm256_set1_epi32(len as i32), sign);
    let delta = _mm256_set1_epi32(map.shift.delta as i32);
    let mut chunks = labels.chunks_exact_mut(8);
    for c in &mut chunks {
        let ptr = c.as_mut_ptr().cast::<__m256i>();
        // SAFETY: `c` is 8 u32: the unaligned load stays inside it.
        let v = unsafe { _mm256_loadu_si256(ptr) };
        let at = _mm256_xor_si256(_mm256_sub_epi32(v, start), sign);
        let inside = _mm256_cmpgt_epi32(len, at);
        let mut g = _mm256_add_epi32(v, delta);
        if _mm256_movemask_epi8(inside) != -1 {
            // Indices `p - base` clamped to `0..=last` (`last < 2^31`: non-negative as i32).
            let i = _mm256_min_epu32(_mm256_sub_epi32(v, base), top);
            // The lanes outside the run (mask: the sign bit set) read the map.
            let outside = _mm256_xor_si256(inside, _mm256_set1_epi32(-1));
            // SAFETY: every index is at most `last`: each lane read is 4 bytes inside
            // `map.finals`; the other lanes keep `g`.
            g = unsafe {
                _mm256_mask_i32gather_epi32::<4>(g, map.finals.as_ptr().cast(), i, outside)
            };
        }
        // SAFETY: `c` is 8 u32: the unaligned store stays inside it.
        unsafe { _mm256_storeu_si256(ptr, g) };
    }
    for p in chunks.into_remainder() {
        *p = map.get(*p);
    }
}

#[cfg(test)]
mod tests {
    use super::super::Stripe;
    use super::{fill_map, remap, Map, Shift};

    /// The map written the plain way: label 0 stays 0, the joined labels take their finals,
    /// the others `first + 1, first + 2, ...` in order.
    fn plain_map(joined: &[u32], finals: &[u32], count: u32, first: u32) -> Vec<u32> {
        let mut next = first;
        (0..=count)
            .map(|l| match joined.iter().position(|&j| j == l) {
                _ if l == 0 => 0,
                Some(k) => finals[k],
                None => {
                    next += 1;
                    next
                }
            })
            .collect()
    }

    /// `fill_map` from any base, and `remap` with its shifted run (the addition, the
    /// gathers and the portable loop), equal the plain map on random stripes: no joined
    /// label, joined labels at the ends, in runs and alone; labels from the base on.
    #[test]
    fn remap_from_a_base_equals_the_plain_map() {
        let mut rng = crate::test_rng::XorShift(0x2545_f491_4f6c_dd1d);
        for case in 0..300 {
            let count = 1 + (rng.next_u64() % 200) as u32;
            let share = rng.next_u64() % 30;
            let mut s = Stripe {
                count,
                first: (rng.next_u64() % 1000) as u32,
                ..Stripe::default()
            };
            s.joined = (1..=count).filter(|_| rng.percent(share)).collect();
            s.joined_final = s
                .joined
                .iter()
                .map(|_| 1 + rng.next_u64() as u32 % 999)
                .collect();
            let plain = plain_map(&s.joined, &s.joined_final, count, s.first);
            let base = match case % 3 {
                0 => 0,
                _ => (rng.next_u64() % u64::from(count + 1)) as u32,
            };
            fill_map(&mut s, base).unwrap();
            assert_eq!(s.map, plain[base as usize..], "case {case}: base {base}");
            let shift = Shift::of_stripe(&s.joined, count, s.first, base);
            let map = Map {
                base,
                finals: &s.map,
                shift,
            };
            let labels: Vec<u32> = (0..1 + rng.next_u64() % 300)
                .map(|_| base + (rng.next_u64() % u64::from(count + 1 - base)) as u32)
                .filter(|&l| l != 0)
                .collect();
            let want: Vec<u32> = labels.iter().map(|&l| plain[l as usize]).collect();
            for portable in [false, true] {
                let mut got = labels.clone();
                remap(&mut got, map, portable);
                assert_eq!(got, want, "case {case}: base {base} portable {portable}");
            }
            // Runs of one label in the shifted run take the addition path.
            let (start, len) = shift.span();
            if len > 0 && start >= base {
                let mut got = vec![start; 16];
                remap(&mut got, map, false);
                assert_eq!(got, vec![plain[start as usize]; 16], "case {case}");
            }
        }
    }
}
