//! City-block and chessboard distances by erosion layers, on the packed bits: a set cell at
//! distance `d` from the nearest background cell survives exactly `d - 1` erosions by the
//! cross (city block) or the 3 x 3 square (chessboard), so its distance is the number of
//! layers `grid, erode(grid), erode(erode(grid)), ...` that hold it. Outside the grid counts
//! as set (it is never background), as in the two-pass transform.
//!
//! Each layer is one erosion of the rows that still hold cells (64 cells per word operation)
//! and one bit-sliced increment of a per-cell counter (plane `b` holds bit `b` of every
//! cell's count); at the end the planes are spread into one number per cell, 64 cells at a
//! time. The work grows with the largest distance, where the two passes of
//! [`chamfer`](super::chamfer) do not: past a budget of [`BUDGET_LAYERS`] whole-grid layers
//! the layers give up and the caller runs the passes.

use crate::BitGrid;

/// How many whole-grid layers (in words eroded and counted) the layers may spend before the
/// two passes are the cheaper way; from the bench (`cargo run --release -p gridbits-bench --
/// --filter "cdt"`): a layer costs a few word operations per 64 cells, the passes a few
/// per cell.
pub(super) const BUDGET_LAYERS: usize = 24;

/// Whether the layers would surely spend more than the separable passes: a sample of rows
/// (up to 256, evenly spaced) where a third or more hold a cell deeper than
/// [`BUDGET_LAYERS`] (a square of that radius around it all set, outside the grid counting
/// as set). Each such row stays active through all those layers, so the layers would cost
/// at least a third of the grid times the budget; the check costs a few word operations per
/// sampled row and window row.
pub(super) fn surely_deep(grid: &BitGrid) -> bool {
    let (w, h) = grid.size();
    let r = BUDGET_LAYERS;
    if w <= 2 * r || h <= 2 * r {
        return false;
    }
    let wpr = grid.words_per_row();
    let tail = if w % 64 == 0 { 0 } else { !0u64 << (w % 64) };
    let stride = (h / 256).max(1);
    let mut window = vec![0u64; wpr];
    let (mut sampled, mut deep) = (0usize, 0usize);
    for y in (0..h).step_by(stride) {
        sampled += 1;
        window.fill(!0);
        for yy in y.saturating_sub(r)..(y + r + 1).min(h) {
            for (a, &b) in window.iter_mut().zip(grid.row_words(yy)) {
                *a &= b;
            }
        }
        window[wpr - 1] |= tail;
        if longest_run(&window) > 2 * r {
            deep += 1;
        }
    }
    3 * deep >= sampled
}

/// The longest run of set bits in `words` (bit `i` of word `k` is position `64 k + i`).
fn longest_run(words: &[u64]) -> usize {
    let (mut best, mut cur) = (0usize, 0usize);
    for &word in words {
        if word == !0 {
            cur += 64;
            continue;
        }
        // The run reaching into this word, the runs inside it, and the one leaving it.
        best = best.max(cur + word.trailing_ones() as usize);
        let mut v = word;
        while v != 0 {
            let start = v.trailing_zeros();
            let len = (v >> start).trailing_ones();
            best = best.max(len as usize);
            if start + len >= 64 {
                break;
            }
            v &= !((1u64 << (start + len)) - 1);
        }
        cur = word.leading_ones() as usize;
    }
    best.max(cur)
}

/// Writes the distance of every cell through `f` into `out` (row-major, `w * h` cells,
/// holding `f(0)` on entry: background cells may be left as they are) and returns `true`; or returns `false` with `out`
/// untouched when the layers would cost more than [`BUDGET_LAYERS`] whole-grid layers (deep
/// shapes: then the passes are faster). `diagonal`: chessboard, else city block. The grid
/// must hold at least one background cell (else every distance is unreached). The bit
/// buffers are a few grids of one bit a cell, small beside `out`.
pub(super) fn layer_distances<T: Copy>(
    grid: &BitGrid,
    diagonal: bool,
    out: &mut [T],
    f: impl Fn(u32) -> T,
) -> bool {
    layers_within(grid, diagonal, out, f, BUDGET_LAYERS)
}

/// [`layer_distances`] with a budget of `budget_layers` whole-grid layers.
pub(super) fn layers_within<T: Copy>(
    grid: &BitGrid,
    diagonal: bool,
    out: &mut [T],
    f: impl Fn(u32) -> T,
    budget_layers: usize,
) -> bool {
    let (w, h) = grid.size();
    let wpr = grid.words_per_row();
    let n = wpr * h;
    // The bits past the last column of a row's last word: set in the "outside" rows and
    // shifted in as the right neighbour of the last column.
    let tail = if w % 64 == 0 { 0 } else { !0u64 << (w % 64) };
    let mut cur: Vec<u64> = grid.words().to_vec();
    let mut next = vec![0u64; n];
    let mut horiz = vec![0u64; wpr * 3];
    let mut planes: Vec<Vec<u64>> = Vec::new();
    let mut budget = budget_layers.saturating_mul(n);
    // Rows that may hold cells in `cur` (and in `next`, which holds an older layer).
    let (mut lo, mut hi) = (0usize, h);
    while lo < hi {
        let active = (hi - lo) * wpr;
        if active > budget {
            return false;
        }
        budget -= active;
        add_layer(&mut planes, &cur[lo * wpr..hi * wpr], lo * wpr, n);
        // The next layer over the same rows: where `cur` has no cell, neither has `next`,
        // and rows of `next` outside `lo..hi` are all zero already.
        let (mut new_lo, mut new_hi) = (hi, lo);
        for y in lo..hi {
            erode_row(&cur, &mut next, &mut horiz, y, h, wpr, tail, diagonal);
            if next[y * wpr..(y + 1) * wpr].iter().any(|&x| x != 0) {
                new_lo = new_lo.min(y);
                new_hi = y + 1;
            }
        }
        std::mem::swap(&mut cur, &mut next);
        // `next` now holds this layer: clear its rows, the next erosion writes only `lo..hi`.
        next[lo * wpr..hi * wpr].fill(0);
        if new_lo >= new_hi {
            break;
        }
        (lo, hi) = (new_lo, new_hi);
    }
    spread(&planes, w, h, wpr, out, f);
    true
}

/// Adds 1 to the counter of every cell set in `layer` (the words from `start` on).
fn add_layer(planes: &mut Vec<Vec<u64>>, layer: &[u64], start: usize, n: usize) {
    for (i, &bits) in layer.iter().enumerate() {
        let mut carry = bits;
        let mut b = 0;
        while carry != 0 {
            if b == planes.len() {
                planes.push(vec![0u64; n]);
            }
            let word = &mut planes[b][start + i];
            let c = *word & carry;
            *word ^= carry;
            carry = c;
            b += 1;
        }
    }
}

/// Row `y` of the next layer into `next`: the cells of `cur` whose neighbours (the cross, or
/// with `diagonal` the 3 x 3 square) are all set, outside the grid counting as set.
/// `horiz` is scratch of three rows.
#[allow(clippy::too_many_arguments)]
fn erode_row(
    cur: &[u64],
    next: &mut [u64],
    horiz: &mut [u64],
    y: usize,
    h: usize,
    wpr: usize,
    tail: u64,
    diagonal: bool,
) {
    let row = |r: usize| &cur[r * wpr..(r + 1) * wpr];
    let above = (y > 0).then(|| row(y - 1));
    let below = (y + 1 < h).then(|| row(y + 1));
    let keep = !tail;
    let out = &mut next[y * wpr..(y + 1) * wpr];
    let (h_above, rest) = horiz.split_at_mut(wpr);
    let (h_mid, h_below) = rest.split_at_mut(wpr);
    and_sides(Some(row(y)), h_mid, tail);
    if diagonal {
        and_sides(above, h_above, tail);
        and_sides(below, &mut h_below[..wpr], tail);
        for i in 0..wpr {
            out[i] = h_above[i] & h_mid[i] & h_below[i];
        }
    } else {
        for i in 0..wpr {
            out[i] = h_mid[i] & above.map_or(!0, |r| r[i]) & below.map_or(!0, |r| r[i]);
        }
    }
    out[wpr - 1] &= keep;
}

/// `row` ANDed with its left and right neighbours into `out`, outside the grid (and a
/// missing row) counting as set; `tail` marks the bits past the last column.
fn and_sides(row: Option<&[u64]>, out: &mut [u64], tail: u64) {
    let Some(r) = row else {
        out.fill(!0);
        return;
    };
    let wpr = r.len();
    for i in 0..wpr {
        let last = i + 1 == wpr;
        let word = r[i] | if last { tail } else { 0 };
        let prev = if i == 0 { !0 } else { r[i - 1] };
        let nxt = if last { !0 } else { r[i + 1] };
        out[i] = word & ((word << 1) | (prev >> 63)) & ((word >> 1) | (nxt << 63));
    }
}

/// Every cell's count from the bit planes, through `f`, into `out` (words without a counted
/// cell are skipped: `out` holds `f(0)` there already). The low eight planes go 64 cells at
/// a time, each half-word's bits tested against constant lane masks (a loop the compiler
/// turns into vector compares); counts of 256 or more (a ninth plane: rare) add the high
/// planes bit by bit.
fn spread<T: Copy>(
    planes: &[Vec<u64>],
    w: usize,
    h: usize,
    wpr: usize,
    out: &mut [T],
    f: impl Fn(u32) -> T,
) {
    let low = planes.len().min(8);
    let mut counts = [0u32; 64];
    for y in 0..h {
        for i in 0..wpr {
            let word = y * wpr + i;
            if planes.iter().all(|p| p[word] == 0) {
                continue;
            }
            counts.fill(0);
            for (b, p) in planes[..low].iter().enumerate() {
                let bits = p[word];
                let (lo, hi) = (bits as u32, (bits >> 32) as u32);
                let (c_lo, c_hi) = counts.split_at_mut(32);
                for (k, (cl, ch)) in c_lo.iter_mut().zip(c_hi.iter_mut()).enumerate() {
                    *cl |= u32::from(lo & (1 << k) != 0) << b;
                    *ch |= u32::from(hi & (1 << k) != 0) << b;
                }
            }
            for (b, p) in planes.iter().enumerate().skip(8) {
                let mut bits = p[word];
                while bits != 0 {
                    counts[bits.trailing_zeros() as usize] |= 1 << b;
                    bits &= bits - 1;
                }
            }
            let x0 = 64 * i;
            let row = &mut out[y * w + x0..y * w + x0 + (w - x0).min(64)];
            for (o, &c) in row.iter_mut().zip(&counts) {
                *o = f(c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::distance_transform::{chamfer_transform, Neighbourhood};
    use crate::test_rng::XorShift;

    /// The layers against the two passes (with nearest cells, which never take the layers),
    /// with no budget: counts past 255 (planes 8 and up), word edges, thin and wide grids.
    #[test]
    fn layers_equal_the_passes() {
        let mut rng = XorShift(0x1a7e);
        let mut grids = Vec::new();
        // One background cell: distances up to 601 (city block) along a 600 x 3 strip.
        let mut strip = BitGrid::full(600, 3);
        strip.clear(0, 1);
        grids.push(strip);
        let mut tall = BitGrid::full(2, 300);
        tall.clear(1, 299);
        grids.push(tall);
        for &(w, h) in &[
            (1, 1),
            (1, 7),
            (7, 1),
            (63, 5),
            (64, 9),
            (65, 4),
            (129, 70),
            (200, 200),
        ] {
            for pct in [3, 30, 70, 97, 99] {
                let mut g = BitGrid::new(w, h);
                for y in 0..h {
                    for x in 0..w {
                        if rng.percent(pct) {
                            g.set(x, y);
                        }
                    }
                }
                if g.count() as usize == w * h {
                    g.clear(w / 2, h / 2);
                }
                grids.push(g);
            }
        }
        for g in &grids {
            for (n, diagonal) in [
                (Neighbourhood::taxicab(), false),
                (Neighbourhood::chessboard(), true),
            ] {
                let want = chamfer_transform(g, n, true).unwrap();
                let mut got = vec![0i32; g.width() * g.height()];
                assert!(layers_within(
                    g,
                    diagonal,
                    &mut got,
                    |d| d as i32,
                    usize::MAX
                ));
                assert_eq!(
                    got,
                    want.distances(),
                    "{}x{} diagonal {diagonal}",
                    g.width(),
                    g.height()
                );
            }
        }
        assert!(
            grids[0].width() == 600 && {
                let want = chamfer_transform(&grids[0], Neighbourhood::taxicab(), true).unwrap();
                want.get(599, 0) == 600
            }
        );
    }

    /// The longest run of set bits across words, against a bit-by-bit count.
    #[test]
    fn longest_run_counts_across_words() {
        let mut rng = XorShift(0x7e57);
        for _ in 0..500 {
            let n = 1 + (rng.next_u64() % 4) as usize;
            let words: Vec<u64> = (0..n)
                .map(|_| match rng.next_u64() % 4 {
                    0 => !0,
                    1 => 0,
                    2 => rng.next_u64() | rng.next_u64(),
                    _ => !(1u64 << (rng.next_u64() % 64)),
                })
                .collect();
            let (mut best, mut cur) = (0, 0);
            for i in 0..64 * n {
                cur = if words[i / 64] >> (i % 64) & 1 == 1 {
                    cur + 1
                } else {
                    0
                };
                best = best.max(cur);
            }
            assert_eq!(longest_run(&words), best, "{words:x?}");
        }
    }

    /// A full grid with one hole is deep; noise and thin bars are not.
    #[test]
    fn surely_deep_tells_deep_from_shallow() {
        let mut g = BitGrid::full(300, 200);
        g.clear(5, 5);
        assert!(surely_deep(&g));
        let mut rng = XorShift(0xdee9);
        let mut noise = BitGrid::new(300, 200);
        for y in 0..200 {
            for x in 0..300 {
                if rng.percent(90) {
                    noise.set(x, y);
                }
            }
        }
        assert!(!surely_deep(&noise));
        let mut bars = BitGrid::full(300, 200);
        for y in (0..200).step_by(20) {
            for x in 0..300 {
                bars.clear(x, y);
            }
        }
        assert!(!surely_deep(&bars));
        assert!(!surely_deep(&BitGrid::full(40, 40)));
    }

    /// Past the budget the layers give up and leave `out` alone.
    #[test]
    fn layers_give_up_past_the_budget() {
        let mut g = BitGrid::full(300, 5);
        g.clear(0, 0);
        let mut out = vec![-7i32; 1500];
        assert!(!layers_within(&g, false, &mut out, |d| d as i32, 10));
        assert!(out.iter().all(|&d| d == -7));
        assert!(layers_within(&g, false, &mut out, |d| d as i32, 400));
        assert_eq!(out[1499], 299 + 4);
    }
}
