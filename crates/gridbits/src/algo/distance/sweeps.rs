//! Distance maps by row sweeps, for grids of long horizontal runs (open rooms, wide halls,
//! corridors folded across the grid): the engine [`distance_map`](super::distance_map) tries
//! first on such grids with step moves and no connection masks.
//!
//! Each *row relaxation* sets every free cell of a row to the smallest of its own distance
//! and one more than its neighbours' in the rows above and below, then runs the exact 1D
//! distance transform along each run of free cells (one scan from the left and one from the
//! right, interleaved: two independent chains of `min(v, t + 1)`). Rows are relaxed in
//! alternating downward and upward passes, each row only when a neighbour row changed in a
//! way that improves it (checked per cell), until no row is left to relax. Every value is the
//! length of a real path, so it never drops below the BFS distance; when no row can improve,
//! every cell is at most one more than each neighbour and the sources are at 0, so the values
//! are the BFS distances exactly.
//!
//! On an open room or a serpentine every row is relaxed about once: a pass down and a pass up
//! settle them, at a few cycles per cell in straight loops over `u32` rows (the BFS instead
//! pays a queue and a scattered neighbour test per cell). Where shortest paths turn up and
//! down many times (mazes, dense noise) the passes multiply: the sweeps give up after a
//! budget of relaxed cells and the caller runs the frontier BFS instead. [`long_runs`] is the
//! cheap test deciding whether to try at all.

use super::run_scan;
use crate::BitGrid;

/// Unreached (and wall) cells in the distance rows.
const INF: u32 = u32::MAX;
/// Inside a row relaxation, unreached cells are at `FAR` (at least any distance: grids have
/// fewer than `FAR` cells, see [`distances`]), so that adding a run length cannot overflow.
const FAR: u32 = run_scan::CAP;

/// Whether the free cells of `free` form runs long enough (on average at least `min_len`
/// cells per horizontal run) for the sweeps to be worth trying.
pub(super) fn long_runs(free: &BitGrid, min_len: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has(crate::cpu::Features::POPCNT) {
        // SAFETY: POPCNT was detected just above, the only requirement of
        // `long_runs_popcnt` (the same code compiled with it).
        return unsafe { long_runs_popcnt(free, min_len) };
    }
    long_runs_body(free, min_len)
}

/// [`long_runs`] compiled with POPCNT (the x86-64 baseline counts bits in a dozen
/// instructions per word; this test reads every word of the grid).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn long_runs_popcnt(free: &BitGrid, min_len: usize) -> bool {
    long_runs_body(free, min_len)
}

/// The body of [`long_runs`], inlined into each compilation.
#[inline(always)]
fn long_runs_body(free: &BitGrid, min_len: usize) -> bool {
    let (mut cells, mut runs) = (0usize, 0usize);
    for y in 0..free.height() {
        let mut carry = 0u64;
        for &word in free.row_words(y) {
            cells += word.count_ones() as usize;
            // A run starts at a free cell whose west neighbour is not free.
            runs += (word & !((word << 1) | carry)).count_ones() as usize;
            carry = word >> 63;
        }
    }
    runs > 0 && cells >= runs * min_len
}

/// The first cell at or after `x` (below `w`) whose bit in `row` equals `set`, or `w`.
#[inline]
fn next_cell(row: &[u64], x: usize, w: usize, set: bool) -> usize {
    let mut i = x / 64;
    if i >= row.len() {
        return w;
    }
    let flip = if set { 0 } else { !0 };
    let mut bits = (row[i] ^ flip) >> (x % 64) << (x % 64);
    loop {
        if bits != 0 {
            return (i * 64 + bits.trailing_zeros() as usize).min(w);
        }
        i += 1;
        if i == row.len() {
            return w;
        }
        bits = row[i] ^ flip;
    }
}

/// One more than the distance of the cells of `from` that reach cell `x` of the row beside
/// it: the cell straight across, and with `EIGHT` the two diagonal ones.
#[inline(always)]
fn across<const EIGHT: bool>(from: &[u32], x: usize) -> u32 {
    let mut d = from[x];
    if EIGHT {
        if x > 0 {
            d = d.min(from[x - 1]);
        }
        if x + 1 < from.len() {
            d = d.min(from[x + 1]);
        }
    }
    d.saturating_add(1)
}

/// The sweep state: the distance rows, the free cells, the scratch rows and the budget.
struct Sweeps<'a> {
    free: &'a BitGrid,
    dist: &'a mut [u32],
    w: usize,
    fwd: Vec<u32>,
    bwd: Vec<u32>,
    /// A row of unreached cells, beside the first and last rows.
    inf: Vec<u32>,
    /// Cells still allowed to be relaxed before giving up.
    budget: usize,
    /// The form of the run scans (SSE4.1 where the CPU has it).
    kernel: run_scan::Kernel,
    /// The compilation of the row loops (AVX2 where the CPU has it).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    build: Build,
    /// The largest finite distance of each row as last relaxed (0 for rows never relaxed,
    /// which hold no finite distance: seeds' rows are relaxed first).
    row_max: Vec<u32>,
}

/// Which compilation of the row loops runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Build {
    /// The x86-64 baseline (or any other CPU): SSE2, which has no unsigned 32-bit minimum
    /// (five instructions for each).
    Portable,
    /// With AVX2 (eight cells per `vpminud`): made only by [`Build::detect`], on a CPU that
    /// has it (and by nothing else in this file but the test, which takes it from there).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Avx2,
}

impl Build {
    fn detect() -> Build {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has(crate::cpu::Features::AVX2) {
            return Build::Avx2;
        }
        Build::Portable
    }
}

impl Sweeps<'_> {
    /// Whether relaxing row `to` from its neighbour row `from` would lower a cell.
    fn improves<const EIGHT: bool>(&self, to: usize, from: usize) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.build == Build::Avx2 {
            // SAFETY: `Build::Avx2` is made only by `Build::detect`, after detecting AVX2,
            // the only requirement of `improves_avx2` (the portable code compiled with AVX2).
            return unsafe { self.improves_avx2::<EIGHT>(to, from) };
        }
        self.improves_body::<EIGHT>(to, from)
    }

    /// [`Sweeps::improves`] compiled with AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn improves_avx2<const EIGHT: bool>(&self, to: usize, from: usize) -> bool {
        self.improves_body::<EIGHT>(to, from)
    }

    /// Relaxes row `y` (see [`Sweeps::relax_body`]) in the compilation of `self.build`.
    fn relax<const EIGHT: bool>(&mut self, y: usize, h: usize, changed: &mut bool) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.build == Build::Avx2 {
            // SAFETY: as in `improves`: AVX2 was detected.
            return unsafe { self.relax_avx2::<EIGHT>(y, h, changed) };
        }
        self.relax_body::<EIGHT>(y, h, changed)
    }

    /// [`Sweeps::relax`] compiled with AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn relax_avx2<const EIGHT: bool>(&mut self, y: usize, h: usize, changed: &mut bool) -> bool {
        self.relax_body::<EIGHT>(y, h, changed)
    }

    /// The body of [`Sweeps::improves`], inlined into each compilation.
    #[inline(always)]
    fn improves_body<const EIGHT: bool>(&self, to: usize, from: usize) -> bool {
        let w = self.w;
        let (t, f) = (
            &self.dist[to * w..(to + 1) * w],
            &self.dist[from * w..(from + 1) * w],
        );
        // Checked 64 cells at a time (a straight loop each), stopping at the first gain.
        let mut x = 0;
        let row = self.free.row_words(to);
        while x < w {
            let a = next_cell(row, x, w, true);
            if a >= w {
                return false;
            }
            let b = next_cell(row, a, w, false);
            for c in (a..b).step_by(64) {
                let e = (c + 64).min(b);
                let gain = if EIGHT {
                    (c..e)
                        .zip(&t[c..e])
                        .fold(false, |g, (x, &v)| g | (across::<EIGHT>(f, x) < v))
                } else {
                    f[c..e]
                        .iter()
                        .zip(&t[c..e])
                        .fold(false, |g, (&d, &v)| g | (d.saturating_add(1) < v))
                };
                if gain {
                    return true;
                }
            }
            x = b;
        }
        false
    }

    /// Relaxes row `y` (see the module notes); `false` when the budget is spent. Sets
    /// `changed` when a cell went down.
    #[inline(always)]
    fn relax_body<const EIGHT: bool>(&mut self, y: usize, h: usize, changed: &mut bool) -> bool {
        let w = self.w;
        let (above, rest) = self.dist.split_at_mut(y * w);
        let (row, below) = rest.split_at_mut(w);
        // A missing row beside is a row of unreached cells.
        let up = if y > 0 {
            &above[(y - 1) * w..]
        } else {
            &self.inf
        };
        let down = if y + 1 < h { &below[..w] } else { &self.inf };
        let (fwd, bwd, kernel) = (&mut self.fwd, &mut self.bwd, self.kernel);
        let mut spent = 0;
        let mut lower = false;
        let mut most = 0;
        // The runs of the row, in a plain loop (a closure here, shared by both
        // compilations, was left out of line and kept its state in memory).
        let cells = self.free.row_words(y);
        let mut next = 0;
        while next < w {
            let a = next_cell(cells, next, w, true);
            if a >= w {
                break;
            }
            let b = next_cell(cells, a, w, false);
            next = b;
            spent += b - a;
            // The best entry into each cell from the rows beside it, capped at `FAR` so that
            // the scans below add without overflow (one straight loop).
            for x in a..b {
                let v = row[x]
                    .min(across::<EIGHT>(up, x))
                    .min(across::<EIGHT>(down, x))
                    .min(FAR);
                fwd[x] = v;
                bwd[x] = v;
            }
            // The 1D transform along the run, from each end (`run_scan.rs`).
            run_scan::forward(&mut fwd[a..b], kernel);
            run_scan::backward(&mut bwd[a..b], kernel);
            for x in a..b {
                let v = fwd[x].min(bwd[x]);
                let v = if v >= FAR { INF } else { v };
                lower |= v < row[x];
                // One more than the largest finite value (INF wraps to 0): a plain maximum.
                most = most.max(v.wrapping_add(1));
                row[x] = v;
            }
        }
        *changed = lower;
        self.row_max[y] = most.saturating_sub(1);
        if spent > self.budget {
            return false;
        }
        self.budget -= spent;
        true
    }
}

/// Distances from `seeds` (at 0, whether free or not) through `passable` with step moves
/// (`EIGHT`: king moves, else 4-neighbour) and no connection masks, by row sweeps, into
/// `dist` (row-major, all [`INF`] on entry). Returns the largest finite distance (`None`
/// without seeds), or `None` (with `dist` in an unspecified state) when more than `budget`
/// cell relaxations would be needed, or when the grid has `FAR` cells or more.
pub(super) fn distances<const EIGHT: bool>(
    seeds: &BitGrid,
    passable: &BitGrid,
    dist: &mut [u32],
    budget: usize,
) -> Option<Option<u32>> {
    distances_on::<EIGHT>(Build::detect(), seeds, passable, dist, budget)
}

/// [`distances`] with the row loops of compilation `build`.
fn distances_on<const EIGHT: bool>(
    build: Build,
    seeds: &BitGrid,
    passable: &BitGrid,
    dist: &mut [u32],
    budget: usize,
) -> Option<Option<u32>> {
    let (w, h) = passable.size();
    if w.saturating_mul(h) >= FAR as usize {
        return None;
    }
    let free = passable.clone() | seeds.clone();
    let mut dirty = vec![false; h];
    let mut pending = 0usize;
    for (x, y) in seeds.iter() {
        dist[y * w + x] = 0;
        if !dirty[y] {
            dirty[y] = true;
            pending += 1;
        }
    }
    let mut s = Sweeps {
        free: &free,
        dist,
        w,
        fwd: vec![INF; w],
        bwd: vec![INF; w],
        inf: vec![INF; w],
        budget,
        kernel: run_scan::Kernel::detect(),
        build,
        row_max: vec![0; h],
    };
    let mut downward = true;
    while pending > 0 {
        for k in 0..h {
            let y = if downward { k } else { h - 1 - k };
            if !dirty[y] {
                continue;
            }
            dirty[y] = false;
            pending -= 1;
            let mut changed = false;
            if !s.relax::<EIGHT>(y, h, &mut changed) {
                return None;
            }
            if !changed && !seeds.row_words(y).iter().any(|&word| word != 0) {
                continue;
            }
            for t in [y.wrapping_sub(1), y + 1] {
                if t < h && !dirty[t] && s.improves::<EIGHT>(t, y) {
                    dirty[t] = true;
                    pending += 1;
                }
            }
        }
        downward = !downward;
    }
    Some((!seeds.is_empty()).then(|| s.row_max.iter().copied().max().unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::super::test_shapes::spiral;
    use super::*;
    use crate::naive::{fill as nf, NaiveGrid};
    use crate::Moves;

    use crate::test_rng::XorShift as Rng;

    /// The shapes at one size: noise of several densities, a room with pillars, a
    /// serpentine, a spiral and the full and empty grids.
    fn shapes(w: usize, h: usize, rng: &mut Rng) -> Vec<BitGrid> {
        let mut out: Vec<BitGrid> = [20u64, 50, 70, 90]
            .iter()
            .map(|&p| BitGrid::from_fn(w, h, |_, _| rng.percent(p)).unwrap())
            .collect();
        out.push(BitGrid::from_fn(w, h, |x, y| x % 5 != 2 || y % 4 != 1).unwrap());
        out.push(
            BitGrid::from_fn(w, h, |x, y| {
                y % 2 == 0 || (y % 4 == 1 && x == w - 1) || (y % 4 == 3 && x == 0)
            })
            .unwrap(),
        );
        out.push(spiral(w, h));
        out.push(BitGrid::full(w, h));
        out.push(BitGrid::new(w, h));
        out
    }

    /// The sweeps, given all the budget they need, equal the naive BFS on every shape and
    /// size, for 4- and 8-moves, with sources free or walled, none, one or several: the
    /// portable compilation of the row loops and (where the CPU has it) the AVX2 one.
    #[test]
    fn sweeps_equal_the_naive_bfs() {
        let mut rng = Rng(0x5eed_5eed);
        let sizes = [
            (1, 1),
            (1, 9),
            (9, 1),
            (63, 4),
            (64, 3),
            (65, 5),
            (64, 1),
            (1, 64),
            (8, 8),
            (16, 8),
            (130, 17),
            (33, 40),
        ];
        for (w, h) in sizes {
            for g in shapes(w, h, &mut rng) {
                for sources in 0..4 {
                    let mut seeds = g.empty_like();
                    for _ in 0..sources {
                        let k = (rng.next_u64() % (w * h) as u64) as usize;
                        seeds.set(k % w, k / w);
                    }
                    let (ns, np) = (NaiveGrid::from_view(&seeds), NaiveGrid::from_view(&g));
                    for moves in [Moves::Four, Moves::Eight] {
                        let want = nf::distance_map(&ns, &np, moves, None);
                        for build in [Build::Portable, Build::detect()] {
                            let mut dist = vec![INF; w * h];
                            let (s, d, all) = (&seeds, &mut dist, usize::MAX);
                            let done = match moves {
                                Moves::Four => distances_on::<false>(build, s, &g, d, all),
                                _ => distances_on::<true>(build, s, &g, d, all),
                            };
                            let most = want.iter().flatten().copied().max();
                            assert_eq!(done, Some(most), "the largest distance, {build:?}");
                            for (k, (&d, &e)) in dist.iter().zip(&want).enumerate() {
                                let got = (d != INF).then_some(d);
                                let at = (k % w, k / w);
                                assert_eq!(got, e, "{w}x{h} {moves:?} {build:?} at {at:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// The run-length test gives the same answer compiled with POPCNT (where the CPU has it)
    /// and without.
    #[test]
    fn long_runs_alike_in_both_compilations() {
        let mut rng = Rng(0x10_0005);
        for (w, h) in [(1, 1), (63, 3), (64, 2), (65, 7), (200, 30)] {
            for g in shapes(w, h, &mut rng) {
                for min_len in [1, 2, 4, 8, 16] {
                    assert_eq!(long_runs(&g, min_len), long_runs_body(&g, min_len));
                }
            }
        }
    }

    /// A spiral needs a pass per turn: a small budget runs out, and the caller falls back.
    #[test]
    fn budget_runs_out_on_a_spiral() {
        let g = spiral(40, 40);
        let mut seeds = g.empty_like();
        seeds.set(0, 0);
        let mut dist = vec![INF; 1600];
        let budget = 3 * g.count() as usize;
        assert_eq!(distances::<false>(&seeds, &g, &mut dist, budget), None);
        assert!(long_runs(&BitGrid::full(9, 2), 8));
        assert!(!long_runs(&BitGrid::new(5, 5), 1));
        assert!(!long_runs(
            &BitGrid::from_fn(64, 2, |x, _| x % 2 == 0).unwrap(),
            2
        ));
    }
}
