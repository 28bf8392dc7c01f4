//! City-block and chessboard distances of shallow shapes: the erosion layers on the packed
//! bits, counted straight into the output.
//!
//! A set cell at distance `d` lies in exactly the first `d` of the nested layers
//! `L1 = grid, L2 = erode(L1), L3 = erode(L2), ...` (erosion by the cross for city block, by
//! the 3 x 3 square for chessboard, outside the grid counting as set), so its distance is
//! the number of layers that hold it. Each layer is one erosion of the rows that still hold
//! cells, 64 cells a word operation (each row's left-and-right AND made once); the layers
//! stop when one is empty, or give up past a depth where the raster passes cost less (see
//! [`SHALLOW_LAYERS`] and [`THINNING`]).
//!
//! The output is then written once, row by row. Because the layers are nested, a cell's
//! count `c` has `L1..Lc` set and the rest clear, so bit `b` of `c` is the exclusive or of
//! the layers `L(2^b), L(2 * 2^b), L(3 * 2^b), ...`: per word of 64 cells a handful of xors
//! give the count's bit planes, and each group of cells widens them into its lanes (AVX-512:
//! one masked move and one masked or per plane and 16 cells, then the `i32` or `f32` store;
//! else a plain loop the compiler vectorises, compiled for AVX2 where the CPU has it).

use super::vector_passes::Widened;
use crate::error::try_vec;
use crate::{BitGrid, SizeError};

/// The counted layers hand over to the raster passes when some distance reaches this. From
/// the bench (2048 x 2048, AMD EPYC Zen 4; docs/benchmarks.md, "cdtc"): the counted layers
/// cost about 0.75 ms plus 0.15-0.25 ms a layer, the vector passes 2.0-2.3 ms, level at
/// depth 8 (the blobs' chessboard distances).
pub(super) const SHALLOW_LAYERS: usize = 9;

/// The layers give up when one keeps more than `THINNING / 64` of the cells of the one
/// before it: a deep shape, whose layers would not end within [`SHALLOW_LAYERS`] (the
/// bench's noise keeps at most 24% a layer, its blobs 41-53%, its photograph and page scan
/// 78-98%).
pub(super) const THINNING: u64 = 28;

/// The eroded layers of a shallow grid: `words[j]` holds the rows `rows[j].0..rows[j].1` of
/// `L(j + 2)` (the grid itself is `L1`), outside them the layer has no cell.
pub(super) struct Layers {
    words: Vec<Vec<u64>>,
    rows: Vec<(usize, usize)>,
}

/// The layers `L2, L3, ...` of `grid` until one is empty, or `None` when some distance is
/// `max_layers` or more, or when a layer keeps more than `keep / 64` of the cells of the
/// one before it (a deep shape: its layers thin too slowly to end within the budget at a
/// cost below the passes'). `set` is the number of set cells of `grid` (`L1`).
/// `diagonal`: chessboard, else city block.
///
/// # Errors
///
/// A [`SizeError`] if a layer's memory cannot be had.
pub(super) fn shallow_layers(
    grid: &BitGrid,
    diagonal: bool,
    set: u64,
    max_layers: usize,
    keep: u64,
) -> Result<Option<Layers>, SizeError> {
    let (w, h) = grid.size();
    let wpr = grid.words_per_row();
    let mut layers = Layers {
        words: Vec::new(),
        rows: Vec::new(),
    };
    if !sample_thins(grid, diagonal, keep) {
        return Ok(None);
    }
    let (mut lo, mut hi) = (0usize, h);
    let mut prev_count = set;
    loop {
        if layers.words.len() + 1 >= max_layers {
            return Ok(None);
        }
        let (cur, base): (&[u64], usize) = match layers.words.last() {
            Some(v) => (v, lo),
            None => (grid.words(), 0),
        };
        let mut next: Vec<u64> = try_vec("chamfer layers", w, hi - lo, ((hi - lo) * wpr) as u128)?;
        let args = ErodeArgs {
            cur,
            base,
            held: (lo, hi),
            rows: (lo, hi),
            w,
            h,
            wpr,
            diagonal,
        };
        #[cfg(target_arch = "x86_64")]
        let (count, new_lo, new_hi) = if crate::cpu::has(crate::cpu::Features::AVX2) {
            // SAFETY: AVX2 was just checked.
            unsafe { x86::erode_avx2(args, &mut next) }
        } else {
            erode(args, &mut next)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let (count, new_lo, new_hi) = erode(args, &mut next);
        if new_lo >= new_hi {
            return Ok(Some(layers));
        }
        if count.saturating_mul(64) > prev_count.saturating_mul(keep) {
            return Ok(None);
        }
        prev_count = count;
        // Keep the rows that hold cells only.
        next.drain(..(new_lo - lo) * wpr);
        next.truncate((new_hi - new_lo) * wpr);
        layers.words.push(next);
        layers.rows.push((new_lo, new_hi));
        (lo, hi) = (new_lo, new_hi);
    }
}

/// Whether the first erosion keeps at most `keep / 64` of the cells on a sample of rows
/// (every `h / 64`-th, 64 at most, each eroded alone from its neighbours): a cheap early
/// answer for deep shapes (a photograph's or a page's regions keep nearly every cell), a
/// sixty-fourth of a whole-grid erosion. Grids of 64 rows or fewer are not sampled.
fn sample_thins(grid: &BitGrid, diagonal: bool, keep: u64) -> bool {
    let (w, h) = grid.size();
    let wpr = grid.words_per_row();
    if h <= 64 {
        return true;
    }
    let (mut before, mut after) = (0u64, 0u64);
    let mut one = Vec::with_capacity(wpr);
    for y in (h / 128..h).step_by(h / 64) {
        let lo = y.saturating_sub(1);
        let hi = (y + 2).min(h);
        let cur = &grid.words()[lo * wpr..hi * wpr];
        one.clear();
        // Rows `lo..hi` as the layer, eroded at row `y` only.
        let args = ErodeArgs {
            cur,
            base: lo,
            held: (lo, hi),
            rows: (y, y + 1),
            w,
            h,
            wpr,
            diagonal,
        };
        erode(args, &mut one);
        before += grid
            .row_words(y)
            .iter()
            .map(|x| u64::from(x.count_ones()))
            .sum::<u64>();
        after += one.iter().map(|x| u64::from(x.count_ones())).sum::<u64>();
    }
    after.saturating_mul(64) <= before.saturating_mul(keep)
}

/// What [`erode`] reads.
#[derive(Clone, Copy)]
struct ErodeArgs<'a> {
    /// The layer: row `y` at word `(y - base) * wpr`, for `y` in `held`.
    cur: &'a [u64],
    base: usize,
    /// The rows of `cur` that may hold cells (the others hold none).
    held: (usize, usize),
    /// The rows to erode.
    rows: (usize, usize),
    w: usize,
    h: usize,
    wpr: usize,
    /// Chessboard (the 3 x 3 square), else city block (the cross).
    diagonal: bool,
}

/// One erosion: the rows `args.rows` of the layer `args.cur` (rows outside `args.held`
/// hold no cell, rows outside the grid count as set) eroded by the 3 x 3 square
/// (`diagonal`) or the cross, appended to `next`. Returns
/// the number of cells of the new layer and the rows `new_lo..new_hi` that hold them
/// (`new_lo >= new_hi`: none). Each row's left-and-right AND is made once (a ring of three).
#[inline(always)]
fn erode(args: ErodeArgs<'_>, next: &mut Vec<u64>) -> (u64, usize, usize) {
    let ErodeArgs {
        cur,
        base,
        held,
        rows: (lo, hi),
        w,
        h,
        wpr,
        diagonal,
    } = args;
    let tail = if w % 64 == 0 { 0 } else { !0u64 << (w % 64) };
    let ones = vec![!0u64; wpr];
    let zeros = vec![0u64; wpr];
    // Row `y` of `cur` as the erosion reads it.
    let row = |y: isize| -> &[u64] {
        if y < 0 || y as usize >= h {
            &ones
        } else if (y as usize) < held.0 || y as usize >= held.1 {
            &zeros
        } else {
            let s = (y as usize - base) * wpr;
            &cur[s..s + wpr]
        }
    };
    // Ring of three horizontal ANDs (rows y - 1, y, y + 1), or plain rows for the cross.
    let mut ring = vec![0u64; 3 * wpr];
    let sides = |r: &[u64], out: &mut [u64]| {
        for i in 0..wpr {
            let word = r[i] | if i + 1 == wpr { tail } else { 0 };
            let prev = if i == 0 { !0 } else { r[i - 1] };
            let nxt = if i + 1 == wpr { !0 } else { r[i + 1] };
            out[i] = word & ((word << 1) | (prev >> 63)) & ((word >> 1) | (nxt << 63));
        }
    };
    let keep = !tail;
    let (mut count, mut new_lo, mut new_hi) = (0u64, hi, lo);
    // Row `r`'s horizontal AND sits at `slot(r + 1)` of the ring (`r` from `lo - 1`).
    let slot = |q: usize| (q % 3) * wpr..(q % 3 + 1) * wpr;
    if diagonal {
        sides(row(lo as isize - 1), &mut ring[slot(lo)]);
        sides(row(lo as isize), &mut ring[slot(lo + 1)]);
    }
    for y in lo..hi {
        let start = next.len();
        if diagonal {
            sides(row(y as isize + 1), &mut ring[slot(y + 2)]);
            let (ra, rb, rc) = (&ring[slot(y)], &ring[slot(y + 1)], &ring[slot(y + 2)]);
            next.extend(ra.iter().zip(rb).zip(rc).map(|((&p, &q), &r)| p & q & r));
        } else {
            let mid = &mut ring[..wpr];
            sides(row(y as isize), mid);
            let (up, down) = (row(y as isize - 1), row(y as isize + 1));
            next.extend(mid.iter().zip(up).zip(down).map(|((&m, &u), &d)| m & u & d));
        }
        let out = &mut next[start..];
        out[wpr - 1] &= keep;
        let c: u64 = out.iter().map(|x| u64::from(x.count_ones())).sum();
        if c != 0 {
            count += c;
            new_lo = new_lo.min(y);
            new_hi = y + 1;
        }
    }
    (count, new_lo, new_hi)
}

/// Which widening loop writes the counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) enum Writer {
    /// Plain Rust.
    Portable,
    /// The plain loop compiled for AVX2.
    Avx2,
    /// Masked moves, 16 lanes a register.
    Avx512,
}

impl Writer {
    /// The fastest writer the CPU (and the calling thread's [`cpu`](crate::cpu) cap) allows.
    pub(super) fn best() -> Writer {
        #[cfg(target_arch = "x86_64")]
        {
            use crate::cpu::{has, Features};
            if has(Features::AVX512F | Features::AVX2) {
                return Writer::Avx512;
            }
            if has(Features::AVX2) {
                return Writer::Avx2;
            }
        }
        Writer::Portable
    }
}

/// The most bit planes a count takes (counts below `2^PLANES`).
const PLANES: usize = 6;

/// Every cell's count of layers (`grid` is `L1`, then `layers`), as `T`, row-major, `w * h`
/// cells, with `writer` (lowered to what the CPU has).
///
/// # Errors
///
/// A [`SizeError`] if the output cannot be had.
pub(super) fn write_counts<T: Widened>(
    grid: &BitGrid,
    layers: &Layers,
    writer: Writer,
) -> Result<Vec<T>, SizeError> {
    let (w, h) = grid.size();
    let mut out: Vec<T> = try_vec("chamfer distances", w, h, (w * h) as u128)?;
    assert!(
        layers.words.len() + 1 < 1 << PLANES,
        "too many layers for the count's planes"
    );
    let dst = out.spare_capacity_mut().as_mut_ptr().cast::<T>();
    #[cfg(target_arch = "x86_64")]
    {
        use crate::cpu::{has, Features};
        if writer == Writer::Avx512 && has(Features::AVX512F | Features::AVX2) {
            // SAFETY: the features were just checked; `dst` has room for `w * h` values.
            unsafe { x86::counts_avx512(grid, layers, dst) };
        } else if writer != Writer::Portable && has(Features::AVX2) {
            // SAFETY: as above.
            unsafe { x86::counts_avx2(grid, layers, dst) };
        } else {
            // SAFETY: `dst` has room for `w * h` values.
            unsafe { counts_into::<T, false>(grid, layers, dst) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = writer;
        // SAFETY: `dst` has room for `w * h` values.
        unsafe { counts_into::<T, false>(grid, layers, dst) };
    }
    // SAFETY: the writers initialised every one of the `w * h` values.
    unsafe { out.set_len(w * h) };
    Ok(out)
}

/// The counts of every row into `dst`: per word of 64 cells the count's bit planes from
/// the layers holding the row (bit `b`: the xor of the layers `L(m * 2^b)`), then widened
/// into lanes (with `AVX512` by masked moves, else by a plain loop).
///
/// # Safety
///
/// `dst` has room for `w * h` values; with `AVX512` the CPU has AVX-512 F and AVX2.
#[inline(always)]
unsafe fn counts_into<T: Widened, const AVX512: bool>(
    grid: &BitGrid,
    layers: &Layers,
    dst: *mut T,
) {
    let (w, h) = grid.size();
    let wpr = grid.words_per_row();
    // The row's bit planes, plane `b` at `b * wpr`.
    let mut rows = vec![0u64; PLANES * wpr];
    for y in 0..h {
        // The layers holding cells in this row: a prefix (the layers are nested). Plane 0
        // starts as `L1`, the others empty; `L(m)` flips bit `b` where `2^b` divides `m`.
        rows.fill(0);
        rows[..wpr].copy_from_slice(grid.row_words(y));
        let mut k = 1usize;
        for (words, &(lo, hi)) in layers.words.iter().zip(&layers.rows) {
            if y < lo || y >= hi {
                break;
            }
            k += 1;
            let layer = &words[(y - lo) * wpr..(y - lo + 1) * wpr];
            for b in 0..PLANES {
                if k.is_multiple_of(1 << b) {
                    for (p, &l) in rows[b * wpr..(b + 1) * wpr].iter_mut().zip(layer) {
                        *p ^= l;
                    }
                }
            }
        }
        let row = dst.add(y * w);
        match (usize::BITS - k.leading_zeros()) as usize {
            1 => widen_row::<T, 1, AVX512>(&rows, wpr, w, row),
            2 => widen_row::<T, 2, AVX512>(&rows, wpr, w, row),
            3 => widen_row::<T, 3, AVX512>(&rows, wpr, w, row),
            4 => widen_row::<T, 4, AVX512>(&rows, wpr, w, row),
            5 => widen_row::<T, 5, AVX512>(&rows, wpr, w, row),
            _ => widen_row::<T, PLANES, AVX512>(&rows, wpr, w, row),
        }
    }
}

/// One row's counts from its `P` bit planes (plane `b` at `rows[b * wpr..]`) into the `w`
/// values at `dst`.
///
/// # Safety
///
/// As [`counts_into`], for one row.
#[inline(always)]
unsafe fn widen_row<T: Widened, const P: usize, const AVX512: bool>(
    rows: &[u64],
    wpr: usize,
    w: usize,
    dst: *mut T,
) {
    for i in 0..wpr {
        let mut planes = [0u64; P];
        for (b, p) in planes.iter_mut().enumerate() {
            *p = rows[b * wpr + i];
        }
        let x0 = 64 * i;
        let cells = (w - x0).min(64);
        let d = dst.add(x0);
        #[cfg(target_arch = "x86_64")]
        if AVX512 {
            x86::widen_avx512(&planes, d, cells);
            continue;
        }
        widen(&planes, d, cells);
    }
}

/// The counts whose bit planes are `planes` (bit `i` of plane `b`: bit `b` of cell `i`'s
/// count) into the `cells` (at most 64) values at `dst`.
///
/// # Safety
///
/// `dst` has room for `cells` values.
#[inline(always)]
unsafe fn widen<T: Widened>(planes: &[u64], dst: *mut T, cells: usize) {
    let mut counts = [0u32; 64];
    for (b, &p) in planes.iter().enumerate() {
        for (i, c) in counts.iter_mut().enumerate() {
            *c |= (((p >> i) & 1) as u32) << b;
        }
    }
    for (i, &c) in counts[..cells].iter().enumerate() {
        dst.add(i).write(T::of(c));
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{counts_into, Layers, Widened};
    use crate::BitGrid;
    use core::arch::x86_64::*;

    /// [`erode`](super::erode) compiled for AVX2 (and its population count).
    ///
    /// # Safety
    ///
    /// The CPU has AVX2 (and so `popcnt`).
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) unsafe fn erode_avx2(
        args: super::ErodeArgs<'_>,
        next: &mut Vec<u64>,
    ) -> (u64, usize, usize) {
        super::erode(args, next)
    }

    /// [`counts_into`] compiled for AVX2 (the plain widening loop vectorised).
    ///
    /// # Safety
    ///
    /// The CPU has AVX2; `dst` has room for `w * h` values.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn counts_avx2<T: Widened>(grid: &BitGrid, layers: &Layers, dst: *mut T) {
        counts_into::<T, false>(grid, layers, dst);
    }

    /// [`counts_into`] widening by masked moves.
    ///
    /// # Safety
    ///
    /// The CPU has AVX-512 F and AVX2; `dst` has room for `w * h` values.
    #[target_feature(enable = "avx512f,avx2")]
    pub(super) unsafe fn counts_avx512<T: Widened>(grid: &BitGrid, layers: &Layers, dst: *mut T) {
        counts_into::<T, true>(grid, layers, dst);
    }

    /// The counts whose bit planes are `planes` into the `cells` (at most 64) values at
    /// `dst`: per 16 cells, plane 0 as a masked move of 1, each further plane a masked or
    /// of its bit, then the store as `i32` or `f32` (masked past `cells`).
    ///
    /// # Safety
    ///
    /// The CPU has AVX-512 F and AVX2; `dst` has room for `cells` values.
    #[target_feature(enable = "avx512f,avx2")]
    #[inline]
    pub(super) unsafe fn widen_avx512<T: Widened, const P: usize>(
        planes: &[u64; P],
        dst: *mut T,
        cells: usize,
    ) {
        let o = dst.cast::<i32>();
        let mut x = 0;
        while x < cells {
            let mut v = _mm512_maskz_mov_epi32((planes[0] >> x) as u16, _mm512_set1_epi32(1));
            for (b, &p) in planes.iter().enumerate().skip(1) {
                v = _mm512_mask_or_epi32(v, (p >> x) as u16, v, _mm512_set1_epi32(1 << b));
            }
            if T::FLOAT {
                v = _mm512_castps_si512(_mm512_cvtepi32_ps(v));
            }
            if x + 16 <= cells {
                _mm512_storeu_si512(o.add(x).cast(), v);
            } else {
                // Masked: the lanes past `cells` touch no memory.
                _mm512_mask_storeu_epi32(o.add(x), ((1u32 << (cells - x)) - 1) as u16, v);
            }
            x += 16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive::distance_transform::two_pass_chamfer;
    use crate::naive::NaiveGrid;
    use crate::test_rng::XorShift;

    fn writers() -> Vec<Writer> {
        let mut k = vec![Writer::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            use crate::cpu::{has, Features};
            if has(Features::AVX2) {
                k.push(Writer::Avx2);
            }
            if has(Features::AVX512F | Features::AVX2) {
                k.push(Writer::Avx512);
            }
        }
        k
    }

    /// Every writer against scipy's passes cell by cell, with no depth limit (counts up to
    /// 63), on word edges and every density.
    #[test]
    fn counted_layers_equal_the_naive_passes() {
        let mut rng = XorShift(0xc0de_1a7e);
        let widths = [1usize, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 129];
        let heights = [1usize, 2, 3, 17, 40];
        for &w in &widths {
            for &h in &heights {
                let mut grids = Vec::new();
                for pct in [0u64, 30, 70, 90, 97, 100] {
                    let mut g = BitGrid::new(w, h);
                    for y in 0..h {
                        for x in 0..w {
                            if rng.percent(pct) {
                                g.set(x, y);
                            }
                        }
                    }
                    grids.push(g);
                }
                let mut one = BitGrid::full(w, h);
                one.clear(w / 2, h - 1);
                grids.push(one);
                for g in &grids {
                    if g.count() as usize == w * h {
                        continue;
                    }
                    let ng = NaiveGrid::from_view(g);
                    for diagonal in [false, true] {
                        let structure = if diagonal {
                            [[true; 3]; 3]
                        } else {
                            [
                                [false, true, false],
                                [true, true, true],
                                [false, true, false],
                            ]
                        };
                        let want = two_pass_chamfer(&ng, structure).0;
                        let Some(layers) = shallow_layers(g, diagonal, g.count(), 63, 64).unwrap()
                        else {
                            // Deeper than 63: only the tall or wide grids with one hole.
                            assert!(w + h > 63, "{w}x{h}");
                            continue;
                        };
                        for wr in writers() {
                            let got = write_counts::<i32>(g, &layers, wr).unwrap();
                            assert_eq!(got, want, "{wr:?} diagonal {diagonal} {w}x{h}");
                            let got = write_counts::<f32>(g, &layers, wr).unwrap();
                            let wf: Vec<f32> = want.iter().map(|&d| d as f32).collect();
                            assert_eq!(got, wf, "{wr:?} f32 diagonal {diagonal} {w}x{h}");
                        }
                    }
                }
            }
        }
    }

    /// The layers give up past the depth, and on shapes that stop thinning.
    #[test]
    fn shallow_layers_give_up_on_deep_shapes() {
        let mut g = BitGrid::full(40, 40);
        g.clear(0, 0);
        // Distances up to 39 (chessboard).
        assert!(shallow_layers(&g, true, g.count(), 39, 64)
            .unwrap()
            .is_none());
        assert_eq!(
            shallow_layers(&g, true, g.count(), 40, 64)
                .unwrap()
                .map(|l| l.words.len()),
            Some(38)
        );
        // Each layer keeps most cells of the one before: deep, given up at once.
        assert!(shallow_layers(&g, true, g.count(), 40, 32)
            .unwrap()
            .is_none());
        // Noise thins fast: kept.
        let mut rng = XorShift(0x5a11);
        let mut noise = BitGrid::new(100, 100);
        for y in 0..100 {
            for x in 0..100 {
                if rng.percent(50) {
                    noise.set(x, y);
                }
            }
        }
        assert!(shallow_layers(&noise, false, noise.count(), 12, 32)
            .unwrap()
            .is_some());
    }
}
