//! Flood fill, BFS distance layers, distance maps and Voronoi territory, bit-parallel.
//!
//! Everything here is written once against [`BitBoard`] and works on fixed
//! [`Board`]s and runtime [`BitGrid`]s alike (seed 004 generalised):
//!
//! - [`fill`]: the cells reachable from a seed set inside a passable mask. Fixed boards
//!   iterate dilation to a fixpoint; large [`BitGrid`]s use row sweeps that close whole runs
//!   of passable cells per word operation and revisit only rows whose neighbours changed, so
//!   a winding maze costs about as much as open ground ([`fill_sweep`]).
//! - [`layers`]: the BFS frontiers at depth 0, 1, 2, ... as boards.
//! - [`distance_map`]: per-cell move distance (`None` when unreachable).
//! - [`voronoi`]: N players expand at once with a shared visited set; a cell goes to the player
//!   that reaches it at the strictly smallest depth, ties are contested.
//!
//! Moves are [`Moves`]: one step (`Four`, `Eight`) or sliding (`Rook`, `Bishop`, `Queen`).
//! Optional per-direction *connection masks* (seed 004's `con`) restrict where a move may
//! leave a cell: a cell may move in direction `d` only where `con[d.index()]` has its bit.
//! [`connections_from_walls`] builds them from a list of walls between cells (The Great
//! Escape).
//!
//! ```
//! use gridbits::algo::fill::{distance_map, fill, voronoi};
//! use gridbits::{bitboard, Board, Connectivity, Moves};
//! type B = Board<6, 4, 1>;
//! let walls = bitboard!(B; "..#...", "..#...", "..#...", "......");
//! let free = !walls;
//! // Flood fill from the top-left corner reaches every free cell.
//! assert_eq!(fill(&B::cell(0, 0), &free, Connectivity::Four), free);
//! // Distances go around the wall.
//! let d = distance_map(&B::cell(0, 0), &free, Moves::Four, None);
//! assert_eq!(d.get(3, 0), Some(9));
//! // Two players: left and right of the wall.
//! let v = voronoi(&[B::cell(0, 0), B::cell(5, 0)], &free, Moves::Four, None);
//! assert_eq!((v.owned[0].count(), v.owned[1].count()), (9, 12));
//! ```

use crate::algo::slide;
use crate::{BitBoard, BitGrid, Board, Connectivity, Dir, Moves};

/// Per-direction connection masks, indexed by [`Dir::index`]: a cell may move in direction
/// `d` only where `con[d.index()]` is set.
pub type Connections<B> = [B; 8];

/// Flood fill with the best method for the board type: see [`FloodFill`].
///
/// Returns the cells of `passable` reachable from `seeds & passable` under `conn`.
///
/// # Panics
///
/// On runtime grids of different sizes (every function of this module that takes several
/// boards requires them to be the same size).
pub fn fill<B: FloodFill>(seeds: &B, passable: &B, conn: Connectivity) -> B {
    B::flood_fill(seeds, passable, conn)
}

/// Board types with a flood fill: fixed boards dilate to a fixpoint (straight-line word code
/// per step); [`BitGrid`] uses [`fill_sweep`].
pub trait FloodFill: BitBoard {
    /// The cells of `passable` reachable from `seeds & passable` under `conn`.
    fn flood_fill(seeds: &Self, passable: &Self, conn: Connectivity) -> Self;
}

impl<const W: usize, const H: usize, const N: usize> FloodFill for Board<W, H, N> {
    #[inline]
    fn flood_fill(seeds: &Self, passable: &Self, conn: Connectivity) -> Self {
        fill_dilate(seeds, passable, conn)
    }
}

impl FloodFill for BitGrid {
    fn flood_fill(seeds: &Self, passable: &Self, conn: Connectivity) -> Self {
        fill_sweep(seeds, passable, conn)
    }
}

/// Flood fill by repeated dilation inside `passable` until nothing changes.
///
/// One whole-board step per BFS layer: ideal for small boards, where a step is a few word
/// operations, but a winding maze on a large grid needs as many steps as its longest path.
pub fn fill_dilate<B: BitBoard>(seeds: &B, passable: &B, conn: Connectivity) -> B {
    let mut cur = seeds.clone();
    cur.and_assign(passable);
    loop {
        let next = cur.dilate_within(conn, passable);
        if next == cur {
            return cur;
        }
        cur = next;
    }
}

/// Runs of `mask` (a row of words, bit `x % 64` of word `x / 64` = column `x`) that contain a
/// bit of `seed`, OR-ed into `out`. `seed` must be a subset of `mask`.
///
/// Upward (towards larger x) an addition carries each seed to the top of its run; downward
/// the same on bit-reversed words. Carries cross word boundaries, so runs may span words.
#[inline]
fn close_runs(seed: &[u64], mask: &[u64], out: &mut [u64]) {
    let n = mask.len();
    let mut carry = false;
    for i in 0..n {
        let (s1, c1) = mask[i].overflowing_add(seed[i]);
        let (s2, c2) = s1.overflowing_add(carry as u64);
        carry = c1 | c2;
        out[i] |= ((s2 ^ mask[i]) | seed[i]) & mask[i];
    }
    let mut carry = false;
    for i in (0..n).rev() {
        let (m, s) = (mask[i].reverse_bits(), seed[i].reverse_bits());
        let (s1, c1) = m.overflowing_add(s);
        let (s2, c2) = s1.overflowing_add(carry as u64);
        carry = c1 | c2;
        out[i] |= (((s2 ^ m) | s) & m).reverse_bits();
    }
}

/// Flood fill of a [`BitGrid`] by alternating row sweeps.
///
/// Every row of the result is kept *closed*: a union of whole runs of passable cells. A row is
/// re-evaluated only when a neighbouring row changed (a bitset of dirty rows, scanned with
/// trailing/leading zero counts): the cells of the row that touch the neighbours' filled cells
/// seed new runs, which are closed in one pass of word additions (`close_runs`). Sweeps go
/// down then up, so a path that goes down (or up) while zig-zagging sideways is filled in one
/// sweep; only vertical reversals need another. On open ground and noise this takes a few
/// passes' worth of work where dilation to a fixpoint needs one pass per BFS layer. A maze
/// reverses direction too often for sweeps, so after a budget of eight sweeps' worth of row
/// evaluations the fill hands over to the run stack of [`fill_runs`], whose cost is linear in
/// the number of runs whatever the shape: the whole fill stays near linear in the grid size.
///
/// ```
/// use gridbits::algo::fill::fill_sweep;
/// use gridbits::{BitGrid, Connectivity};
/// let maze = BitGrid::parse("\
/// .x......\n\
/// .x.xxxx.\n\
/// .x.x..x.\n\
/// ...xxxx.\n\
/// xxxx....\n").unwrap();
/// let free = !&maze;
/// let mut seed = BitGrid::new(8, 5).unwrap();
/// seed.set(0, 0);
/// let filled = fill_sweep(&seed, &free, Connectivity::Four);
/// // Down, right, up, along the top, down the right side: one sweep each way.
/// assert!(filled.get(7, 4) && filled.get(4, 4));
/// // The pocket at (4, 2)-(5, 2) is walled in.
/// assert!(!filled.get(4, 2) && !filled.get(5, 2));
/// assert_eq!(filled.count(), free.count() - 2);
/// ```
pub fn fill_sweep(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity) -> BitGrid {
    let (h, n) = (passable.height(), passable.words_per_row());
    let eight = conn == Connectivity::Eight;
    let mut cur = seeds.clone();
    cur.and_assign(passable);
    let mut dirty = vec![0u64; h.div_ceil(64)];
    let mark = |dirty: &mut [u64], y: usize| dirty[y / 64] |= 1 << (y % 64);
    let mut closed = vec![0u64; n];
    let mut v = vec![0u64; n];
    // Close the seed rows, and mark their neighbours.
    for y in 0..h {
        if cur.row_words(y).iter().all(|&w| w == 0) {
            continue;
        }
        closed.fill(0);
        close_runs(cur.row_words(y), passable.row_words(y), &mut closed);
        cur.row_words_mut(y).copy_from_slice(&closed);
        if y > 0 {
            mark(&mut dirty, y - 1);
        }
        if y + 1 < h {
            mark(&mut dirty, y + 1);
        }
    }
    let mut down = true;
    // Row evaluations allowed before handing over to the run stack (see below).
    let mut budget = SWEEP_BUDGET_PER_ROW * h;
    loop {
        if budget == 0 {
            hand_over_to_runs(&mut cur, passable, conn);
            return cur;
        }
        let mut any = false;
        // Visit dirty rows in sweep order; rows marked ahead of the sweep are visited in it.
        let mut next = if down { Some(0) } else { h.checked_sub(1) };
        while let Some(start) = next {
            let y = if down {
                match next_set_at_or_after(&dirty, start, h) {
                    Some(y) => y,
                    None => break,
                }
            } else {
                match next_set_at_or_before(&dirty, start) {
                    Some(y) => y,
                    None => break,
                }
            };
            dirty[y / 64] &= !(1 << (y % 64));
            budget = budget.saturating_sub(1);
            // New seeds: passable cells of row y next to filled cells above or below, not yet
            // filled.
            touching_rows(&cur, y, eight, &mut v);
            let (row, mask) = (cur.row_words(y), passable.row_words(y));
            let mut fresh = false;
            for i in 0..n {
                v[i] &= mask[i] & !row[i];
                fresh |= v[i] != 0;
            }
            if fresh {
                any = true;
                closed.copy_from_slice(row);
                close_runs(&v, mask, &mut closed);
                cur.row_words_mut(y).copy_from_slice(&closed);
                if y > 0 {
                    mark(&mut dirty, y - 1);
                }
                if y + 1 < h {
                    mark(&mut dirty, y + 1);
                }
            }
            next = if down { Some(y + 1) } else { y.checked_sub(1) };
        }
        if !any && dirty.iter().all(|&w| w == 0) {
            return cur;
        }
        down = !down;
    }
}

/// Writes into `v` the cells of row `y` that touch a set cell of the rows above and below:
/// those rows themselves (4-connectivity), or dilated one cell sideways (8-connectivity).
#[inline]
fn touching_rows(cur: &BitGrid, y: usize, eight: bool, v: &mut [u64]) {
    let (h, n) = (cur.height(), cur.words_per_row());
    v.fill(0);
    for ny in [y.wrapping_sub(1), y + 1] {
        if ny >= h {
            continue;
        }
        let r = cur.row_words(ny);
        for i in 0..n {
            v[i] |= if eight {
                let lo = if i > 0 { r[i - 1] >> 63 } else { 0 };
                let hi = if i + 1 < n { r[i + 1] << 63 } else { 0 };
                r[i] | (r[i] << 1) | lo | (r[i] >> 1) | hi
            } else {
                r[i]
            };
        }
    }
}

/// How many sweeps' worth of row evaluations [`fill_sweep`] spends before switching to the
/// run stack. Open ground and noise finish in a few sweeps; mazes, whose paths reverse
/// vertical direction over and over, would need hundreds.
const SWEEP_BUDGET_PER_ROW: usize = 4;

/// Continues a sweep fill (rows closed: unions of whole runs) with the run stack: every
/// unfilled passable cell next to a filled one starts a new run to explore.
fn hand_over_to_runs(cur: &mut BitGrid, passable: &BitGrid, conn: Connectivity) {
    let (h, n) = (passable.height(), passable.words_per_row());
    let eight = conn == Connectivity::Eight;
    let mut stack = Vec::new();
    let mut v = vec![0u64; n];
    for y in 0..h {
        touching_rows(cur, y, eight, &mut v);
        let (mask, row) = (passable.row_words(y), cur.row_words_mut(y));
        for (i, &sel) in v.iter().enumerate() {
            claim_runs(mask, row, y, i, sel, &mut stack);
        }
    }
    run_stack(cur, passable, conn, stack);
}

/// Claims every run of `mask` (a row `y` of words) that has an unclaimed cell among the bits
/// `select` of word `i`: paints the whole run into `row` and pushes it on `stack`.
#[inline]
fn claim_runs(
    mask: &[u64],
    row: &mut [u64],
    y: usize,
    i: usize,
    select: u64,
    stack: &mut Vec<(usize, usize, usize)>,
) {
    loop {
        let cand = mask[i] & !row[i] & select;
        if cand == 0 {
            return;
        }
        let (a, b) = run_extent(mask, i * 64 + cand.trailing_zeros() as usize);
        paint_run(row, a, b);
        stack.push((y, a, b));
    }
}

/// The run of set bits of `row` containing bit `x` (which must be set): `(first, last)`.
#[inline]
fn run_extent(row: &[u64], x: usize) -> (usize, usize) {
    let (wi, b) = (x / 64, x % 64);
    let word = row[wi];
    // Within the word: ones upwards from bit b, and downwards from bit b.
    let up = (!(word >> b)).trailing_zeros() as usize;
    let down = (!(word << (63 - b))).leading_zeros() as usize;
    let mut last = x + up - 1;
    let mut first = x + 1 - down;
    if b + up == 64 {
        // The run reaches the top of the word: continue through the next words.
        for &w in &row[wi + 1..] {
            let ones = w.trailing_ones() as usize;
            last += ones;
            if ones < 64 {
                break;
            }
        }
    }
    if down == b + 1 {
        for &w in row[..wi].iter().rev() {
            let ones = w.leading_ones() as usize;
            first -= ones;
            if ones < 64 {
                break;
            }
        }
    }
    (first, last)
}

/// Sets bits `first..=last` of a row of words.
#[inline]
fn paint_run(row: &mut [u64], first: usize, last: usize) {
    let (fi, li) = (first / 64, last / 64);
    let lo = !0u64 << (first % 64);
    let hi = !0u64 >> (63 - last % 64);
    if fi == li {
        row[fi] |= lo & hi;
        return;
    }
    row[fi] |= lo;
    for w in &mut row[fi + 1..li] {
        *w = !0;
    }
    row[li] |= hi;
}

/// Scanline flood fill of a [`BitGrid`] over runs of passable cells.
///
/// Each horizontal run of passable cells is found with bit scans (trailing/leading ones),
/// painted with a few word ORs, and pushed on a stack once; popping a run looks for unfilled
/// passable cells in the overlapping span of the rows above and below (one cell wider each
/// side for 8-connectivity) a word at a time. The work is linear in the number of runs, so
/// it does not depend on the shape of the region: a maze costs what open ground of the same
/// run count costs. [`fill_sweep`] starts with row sweeps and hands over to this.
pub fn fill_runs(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity) -> BitGrid {
    assert!(
        (seeds.width(), seeds.height()) == (passable.width(), passable.height()),
        "grids of different sizes"
    );
    let mut cur = passable.empty_like();
    let mut stack = Vec::new();
    for y in 0..passable.height() {
        let (mask, row) = (passable.row_words(y), cur.row_words_mut(y));
        for (i, &sel) in seeds.row_words(y).iter().enumerate() {
            claim_runs(mask, row, y, i, sel, &mut stack);
        }
    }
    run_stack(&mut cur, passable, conn, stack);
    cur
}

/// Completes a fill whose filled cells are whole runs and whose unexplored runs are on
/// `stack` as `(y, first, last)`.
fn run_stack(
    cur: &mut BitGrid,
    passable: &BitGrid,
    conn: Connectivity,
    mut stack: Vec<(usize, usize, usize)>,
) {
    let (w, h) = (passable.width(), passable.height());
    let wide = usize::from(conn == Connectivity::Eight);
    while let Some((y, a, b)) = stack.pop() {
        let lo = a.saturating_sub(wide);
        let hi = (b + wide).min(w - 1);
        let (fi, li) = (lo / 64, hi / 64);
        for ny in [y.wrapping_sub(1), y + 1] {
            if ny >= h {
                continue;
            }
            let mask = passable.row_words(ny);
            let row = cur.row_words_mut(ny);
            for i in fi..=li {
                let lo_bits = if i == fi { !0u64 << (lo % 64) } else { !0 };
                let hi_bits = if i == li { !0u64 >> (63 - hi % 64) } else { !0 };
                claim_runs(mask, row, ny, i, lo_bits & hi_bits, &mut stack);
            }
        }
    }
}

/// The first set bit at index `>= from` (and `< len`) of a bitset.
fn next_set_at_or_after(bits: &[u64], from: usize, len: usize) -> Option<usize> {
    let mut i = from / 64;
    let mut w = *bits.get(i)? & (!0u64 << (from % 64));
    loop {
        if w != 0 {
            let y = i * 64 + w.trailing_zeros() as usize;
            return (y < len).then_some(y);
        }
        i += 1;
        w = *bits.get(i)?;
    }
}

/// The last set bit at index `<= from` of a bitset.
fn next_set_at_or_before(bits: &[u64], from: usize) -> Option<usize> {
    let mut i = from / 64;
    let keep = if from % 64 == 63 {
        !0
    } else {
        (1u64 << (from % 64 + 1)) - 1
    };
    let mut w = bits[i] & keep;
    loop {
        if w != 0 {
            return Some(i * 64 + 63 - w.leading_zeros() as usize);
        }
        i = i.checked_sub(1)?;
        w = bits[i];
    }
}

/// The cells reached in one move from `front`, inside `passable`.
///
/// Step moves (`Four`, `Eight`) shift the front one cell; sliding moves slide through
/// `passable` cells ([`slide::reach`]). With `con`, a move in direction `d` may start only
/// from cells in `con[d.index()]` (and, sliding, continue only from such cells). The result
/// may include cells of `front` that other cells of `front` reach.
pub fn expand<B: BitBoard>(
    front: &B,
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> B {
    match (con, moves) {
        (None, Moves::Four) => front.dilate_within(Connectivity::Four, passable),
        (None, Moves::Eight) => front.dilate_within(Connectivity::Eight, passable),
        (None, _) => slide::reach(front, passable, moves),
        (Some(con), _) => {
            let mut out = front.empty_like();
            for &d in moves.dirs() {
                let mut f = front.clone();
                let mut reached = front.empty_like();
                loop {
                    f.and_assign(&con[d.index()]);
                    f = f.shift(d);
                    f.and_assign(passable);
                    f.and_not_assign(&reached);
                    if f.is_empty() {
                        break;
                    }
                    reached.or_assign(&f);
                    if !moves.is_sliding() {
                        break;
                    }
                }
                out.or_assign(&reached);
            }
            out
        }
    }
}

/// Iterator over BFS frontiers: see [`layers`].
#[derive(Clone, Debug)]
pub struct Layers<'a, B: BitBoard> {
    passable: B,
    moves: Moves,
    con: Option<&'a Connections<B>>,
    front: B,
    visited: B,
    depth: u32,
}

impl<B: BitBoard> Iterator for Layers<'_, B> {
    /// `(depth, cells first reached at that depth)`.
    type Item = (u32, B);
    fn next(&mut self) -> Option<(u32, B)> {
        if self.front.is_empty() {
            return None;
        }
        let out = (self.depth, self.front.clone());
        let mut next = expand(&self.front, &self.passable, self.moves, self.con);
        next.and_not_assign(&self.visited);
        self.visited.or_assign(&next);
        self.front = next;
        self.depth += 1;
        Some(out)
    }
}

/// BFS frontiers from `sources`: depth 0 is `sources`, depth `k` the cells of `passable`
/// first reached after `k` moves. Sources are obstacles: moves never enter or slide through
/// a source cell.
///
/// Each layer is a whole-board step and a new board: ideal on fixed boards. On a large
/// [`BitGrid`] with many layers prefer [`distance_map`] / [`voronoi_depths`], whose engine
/// only touches the words next to the frontier.
///
/// ```
/// use gridbits::algo::fill::layers;
/// use gridbits::{Board, Moves};
/// type B = Board<5, 1, 1>;
/// let sizes: Vec<u32> = layers(&B::cell(2, 0), &B::FULL, Moves::Four, None)
///     .map(|(_, front)| front.count())
///     .collect();
/// assert_eq!(sizes, [1, 2, 2]);
/// ```
pub fn layers<'a, B: BitBoard>(
    sources: &B,
    passable: &B,
    moves: Moves,
    con: Option<&'a Connections<B>>,
) -> Layers<'a, B> {
    let mut passable = passable.clone();
    passable.and_not_assign(sources);
    Layers {
        passable,
        moves,
        con,
        front: sources.clone(),
        visited: sources.clone(),
        depth: 0,
    }
}

/// Move distances of every cell of a grid: `None` for cells never reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DistanceMap {
    width: usize,
    height: usize,
    dist: Vec<u32>,
}

impl DistanceMap {
    /// The value stored for unreachable cells in [`DistanceMap::as_slice`].
    pub const UNREACHABLE: u32 = u32::MAX;

    /// A map of the given size with every cell unreachable.
    pub fn new(width: usize, height: usize) -> Self {
        DistanceMap {
            width,
            height,
            dist: vec![Self::UNREACHABLE; width * height],
        }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The distance of `(x, y)`, `None` if unreachable or off the grid.
    pub fn get(&self, x: usize, y: usize) -> Option<u32> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let d = self.dist[y * self.width + x];
        (d != Self::UNREACHABLE).then_some(d)
    }

    /// Row-major distances, [`DistanceMap::UNREACHABLE`] for unreachable cells.
    pub fn as_slice(&self) -> &[u32] {
        &self.dist
    }

    /// The largest finite distance, if any cell was reached.
    pub fn max(&self) -> Option<u32> {
        self.dist
            .iter()
            .copied()
            .filter(|&d| d != Self::UNREACHABLE)
            .max()
    }

    /// Writes `depth` into every set cell of `cells`.
    fn paint(&mut self, cells: &impl BitBoard, depth: u32) {
        for (x, y) in cells.cells() {
            self.dist[y * self.width + x] = depth;
        }
    }
}

/// The move distance from the nearest of `sources` to every cell (see [`layers`] for the
/// rules; sources are at distance 0).
///
/// On a [`BitGrid`] with step moves each BFS layer only touches the rows next to the current
/// frontier (see [`Territory`]), so a long winding corridor costs about its length, not its
/// length times the grid.
pub fn distance_map<B: Territory>(
    sources: &B,
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> DistanceMap {
    let mut map = DistanceMap::new(sources.width(), sources.height());
    B::territory(
        std::slice::from_ref(sources),
        passable,
        moves,
        con,
        Some(&mut map),
    );
    map
}

/// The result of [`voronoi`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Voronoi<B> {
    /// Cells owned by each player, in the order of the sources given (sources included).
    pub owned: Vec<B>,
    /// Cells reached first by two or more players at the same depth.
    pub contested: B,
    /// Every cell reached by some player (owned, contested and the sources).
    pub reached: B,
    /// Number of BFS layers after the sources (the largest claim depth).
    pub depth: u32,
}

impl<B: BitBoard> Voronoi<B> {
    /// Number of cells each player owns (popcount of [`Voronoi::owned`]).
    pub fn counts(&self) -> Vec<u64> {
        self.owned.iter().map(|b| b.count()).collect()
    }
}

/// Voronoi territory of several players (any number) on a grid.
///
/// All players expand at once, one move per layer, with a shared visited set (seed 004,
/// generalised): a cell goes to the player that reaches it at the strictly smallest depth;
/// cells reached by two or more players at the same depth are contested (and keep expanding
/// for each of them, so distances stay exact); cells nobody reaches belong to no one. Every
/// player's sources are obstacles to all players. `on_layer(depth, claimed)` is called for
/// each layer with the cells first claimed at that depth (depth 0: the sources).
///
/// This is the whole-board engine (one board step per layer), used by fixed boards and for
/// sliding moves; [`voronoi`] picks the frontier-sparse engine for a [`BitGrid`].
pub fn voronoi_with<B: BitBoard>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
    on_layer: impl FnMut(u32, &B),
) -> Voronoi<B> {
    let mut owned = sources.to_vec();
    let mut fronts = sources.to_vec();
    let mut next = sources.to_vec();
    let (contested, reached, depth) = voronoi_core(
        sources,
        passable,
        moves,
        con,
        &mut owned,
        &mut fronts,
        &mut next,
        on_layer,
    );
    Voronoi {
        owned,
        contested,
        reached,
        depth,
    }
}

/// The result of [`voronoi_n`]: like [`Voronoi`] with the players in an array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VoronoiN<B, const P: usize> {
    /// Cells owned by each player (sources included).
    pub owned: [B; P],
    /// Cells reached first by two or more players at the same depth.
    pub contested: B,
    /// Every cell reached by some player.
    pub reached: B,
    /// Number of BFS layers after the sources.
    pub depth: u32,
}

/// [`voronoi`] for a number of players fixed at compile time: no allocation, and on fixed
/// boards the whole computation stays in registers and on the stack.
///
/// ```
/// use gridbits::algo::fill::voronoi_n;
/// use gridbits::{Board8x8, Moves};
/// let v = voronoi_n(&[Board8x8::cell(0, 0), Board8x8::cell(7, 0)], &Board8x8::FULL, Moves::Four, None);
/// assert_eq!([v.owned[0].count(), v.owned[1].count(), v.contested.count()], [32, 32, 0]);
/// ```
pub fn voronoi_n<B: BitBoard, const P: usize>(
    sources: &[B; P],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> VoronoiN<B, P> {
    let mut owned = sources.clone();
    let mut fronts = sources.clone();
    let mut next = sources.clone();
    let (contested, reached, depth) = voronoi_core(
        sources,
        passable,
        moves,
        con,
        &mut owned,
        &mut fronts,
        &mut next,
        |_, _| {},
    );
    VoronoiN {
        owned,
        contested,
        reached,
        depth,
    }
}

/// The state of a Voronoi expansion at depth 0: `(visited, contested, free)`. The sources
/// are visited; cells that are sources of two players at once are contested; `free` is
/// `passable` without any source (sources block every player).
fn start_territory<B: BitBoard>(sources: &[B], passable: &B) -> (B, B, B) {
    let mut visited = passable.empty_like();
    let mut twice = passable.empty_like();
    for s in sources {
        let mut both = visited.clone();
        both.and_assign(s);
        twice.or_assign(&both);
        visited.or_assign(s);
    }
    let mut free = passable.clone();
    free.and_not_assign(&visited);
    (visited, twice, free)
}

/// The simultaneous expansion shared by [`voronoi_with`] and [`voronoi_n`]: `owned`, `fronts`
/// and `next` are scratch of the players' count (their contents are overwritten); returns
/// `(contested, reached, depth)` and leaves the territories in `owned`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn voronoi_core<B: BitBoard>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
    owned: &mut [B],
    fronts: &mut [B],
    next: &mut [B],
    mut on_layer: impl FnMut(u32, &B),
) -> (B, B, u32) {
    let empty = passable.empty_like();
    let (mut visited, mut contested, free) = start_territory(sources, passable);
    for ((o, f), s) in owned.iter_mut().zip(fronts.iter_mut()).zip(sources) {
        o.clone_from(s);
        o.and_not_assign(&contested);
        f.clone_from(s);
    }
    on_layer(0, &visited);
    let mut depth = 0;
    loop {
        let mut once = empty.clone();
        let mut twice = empty.clone();
        for (f, n) in fronts.iter().zip(next.iter_mut()) {
            *n = if f.is_empty() {
                f.clone()
            } else {
                expand(f, &free, moves, con)
            };
            n.and_not_assign(&visited);
            let mut both = once.clone();
            both.and_assign(n);
            twice.or_assign(&both);
            once.or_assign(n);
        }
        if once.is_empty() {
            break;
        }
        depth += 1;
        for (o, n) in owned.iter_mut().zip(next.iter()) {
            let mut mine = n.clone();
            mine.and_not_assign(&twice);
            o.or_assign(&mine);
        }
        contested.or_assign(&twice);
        visited.or_assign(&once);
        on_layer(depth, &once);
        fronts.swap_with_slice(next);
    }
    (contested, visited, depth)
}

/// Voronoi territory (the rules of [`voronoi_with`]) with the best engine for the board type:
/// see [`Territory`].
pub fn voronoi<B: Territory>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> Voronoi<B> {
    B::territory(sources, passable, moves, con, None)
}

/// Voronoi territory and the depth at which each cell was claimed (sources at 0).
pub fn voronoi_depths<B: Territory>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> (Voronoi<B>, DistanceMap) {
    let mut map = DistanceMap::new(passable.width(), passable.height());
    let v = B::territory(sources, passable, moves, con, Some(&mut map));
    (v, map)
}

/// The whole-board engine ([`voronoi_with`]), writing claim depths into `depth` if given.
fn voronoi_by_layers<B: BitBoard>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
    mut depth: Option<&mut DistanceMap>,
) -> Voronoi<B> {
    voronoi_with(sources, passable, moves, con, |d, cells| {
        if let Some(map) = depth.as_deref_mut() {
            map.paint(cells, d);
        }
    })
}

/// Board types with a Voronoi / distance engine.
///
/// Fixed boards expand whole boards per layer (a few word operations each). A [`BitGrid`]
/// with step moves (`Four`, `Eight`, with or without connection masks) keeps, per player, the
/// list of rows its frontier occupies and computes each layer only on those rows and their
/// neighbours, with no allocation per layer: the cost follows the frontiers, not the grid.
/// Sliding moves on a [`BitGrid`] expand whole grids per layer (queen distances are short).
pub trait Territory: BitBoard {
    /// The Voronoi partition of `sources`' players; when `depth` is given, the claim depth of
    /// every reached cell is written into it (it must have the board's size).
    fn territory(
        sources: &[Self],
        passable: &Self,
        moves: Moves,
        con: Option<&Connections<Self>>,
        depth: Option<&mut DistanceMap>,
    ) -> Voronoi<Self>;
}

impl<const W: usize, const H: usize, const N: usize> Territory for Board<W, H, N> {
    fn territory(
        sources: &[Self],
        passable: &Self,
        moves: Moves,
        con: Option<&Connections<Self>>,
        depth: Option<&mut DistanceMap>,
    ) -> Voronoi<Self> {
        voronoi_by_layers(sources, passable, moves, con, depth)
    }
}

impl Territory for BitGrid {
    fn territory(
        sources: &[Self],
        passable: &Self,
        moves: Moves,
        con: Option<&Connections<Self>>,
        depth: Option<&mut DistanceMap>,
    ) -> Voronoi<Self> {
        if moves.is_sliding() {
            return voronoi_by_layers(sources, passable, moves, con, depth);
        }
        voronoi_rows(sources, passable, moves, con, depth)
    }
}

/// The cells of word `i` of row `y` reached in one step from `front` (before masking): the
/// union over the move's directions of the source word, masked by the connections, shifted
/// sideways with the carry from the neighbouring word. `f` and `cons` are whole word arrays
/// (`n` words per row, `h` rows).
#[inline]
#[allow(clippy::too_many_arguments)]
fn step_word(
    f: &[u64],
    cons: Option<[&[u64]; 8]>,
    dirs: &[Dir],
    y: usize,
    i: usize,
    n: usize,
    h: usize,
    tail: u64,
) -> u64 {
    let mut out = 0;
    for &d in dirs {
        let (dx, dy) = d.delta();
        let sy = y as isize - dy;
        if sy < 0 || sy as usize >= h {
            continue;
        }
        let base = sy as usize * n;
        let word = |j: usize| -> u64 {
            let w = f[base + j];
            match cons {
                Some(c) => w & c[d.index()][base + j],
                None => w,
            }
        };
        out |= match dx {
            0 => word(i),
            1 => {
                let carry = if i > 0 { word(i - 1) >> 63 } else { 0 };
                let v = (word(i) << 1) | carry;
                if i + 1 == n {
                    v & tail
                } else {
                    v
                }
            }
            _ => {
                let carry = if i + 1 < n { word(i + 1) << 63 } else { 0 };
                (word(i) >> 1) | carry
            }
        };
    }
    out
}

/// The frontier-sparse Voronoi engine of [`Territory`] for [`BitGrid`] and step moves.
///
/// Each player's frontier is kept as words plus the list of its non-zero `(row, word)` units.
/// A layer evaluates only the units next to some frontier unit (a stamp per unit removes
/// duplicates), so its cost follows the frontier's size in words: a thin corridor front costs
/// a few word operations per cell, a wide open front a few per 64 cells.
fn voronoi_rows(
    sources: &[BitGrid],
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
    mut depth_map: Option<&mut DistanceMap>,
) -> Voronoi<BitGrid> {
    let (h, n) = (passable.height(), passable.words_per_row());
    let tail = crate::grid::tail_mask(passable.width());
    let dirs = moves.dirs();
    let (mut visited, mut contested, free) = start_territory(sources, passable);
    let mut owned: Vec<BitGrid> = sources
        .iter()
        .map(|s| {
            let mut o = s.clone();
            o.and_not_assign(&contested);
            o
        })
        .collect();
    if let Some(map) = depth_map.as_deref_mut() {
        map.paint(&visited, 0);
    }
    // Frontier words per player (flat, n words per row) and their non-zero units.
    let mut fronts: Vec<Vec<u64>> = sources.iter().map(|s| s.words().to_vec()).collect();
    let mut next: Vec<Vec<u64>> = sources.iter().map(|_| vec![0; h * n]).collect();
    let mut active: Vec<Vec<usize>> = fronts
        .iter()
        .map(|f| (0..h * n).filter(|&u| f[u] != 0).collect())
        .collect();
    let mut next_active: Vec<Vec<usize>> = vec![Vec::new(); sources.len()];
    let con_words: Option<[&[u64]; 8]> = con.map(|c| std::array::from_fn(|k| c[k].words()));
    let (free_w, mut visited_w) = (free.words().to_vec(), visited.words().to_vec());
    // Units within reach of a unit: rows above and below, words left and right.
    let reach: &[(isize, isize)] = &[
        (0, 0),
        (-1, 0),
        (1, 0),
        (0, -1),
        (0, 1),
        (-1, -1),
        (-1, 1),
        (1, -1),
        (1, 1),
    ];
    let reach = if moves == Moves::Four {
        &reach[..5]
    } else {
        reach
    };
    let mut stamp = vec![0u32; h * n];
    let mut cand: Vec<usize> = Vec::new();
    let mut news: Vec<u64> = vec![0; sources.len()];
    let mut depth = 0u32;
    loop {
        let layer = depth + 1;
        cand.clear();
        for units in &active {
            for &u in units {
                let (y, i) = ((u / n) as isize, (u % n) as isize);
                for &(dy, di) in reach {
                    let (ny, ni) = (y + dy, i + di);
                    if ny < 0 || ni < 0 || ny as usize >= h || ni as usize >= n {
                        continue;
                    }
                    let c = ny as usize * n + ni as usize;
                    if stamp[c] != layer {
                        stamp[c] = layer;
                        cand.push(c);
                    }
                }
            }
        }
        let mut any = false;
        for &u in &cand {
            let open = free_w[u] & !visited_w[u];
            if open == 0 {
                continue;
            }
            let (y, i) = (u / n, u % n);
            let (mut once, mut twice) = (0u64, 0u64);
            for (p, f) in fronts.iter().enumerate() {
                let w = step_word(f, con_words, dirs, y, i, n, h, tail) & open;
                news[p] = w;
                twice |= once & w;
                once |= w;
            }
            if once == 0 {
                continue;
            }
            any = true;
            for p in 0..fronts.len() {
                let w = news[p];
                if w != 0 {
                    next[p][u] = w;
                    next_active[p].push(u);
                    owned[p].row_words_mut(y)[i] |= w & !twice;
                }
            }
            contested.row_words_mut(y)[i] |= twice;
            visited_w[u] |= once;
            if let Some(map) = depth_map.as_deref_mut() {
                let row = &mut map.dist[y * map.width..(y + 1) * map.width];
                let mut w = once;
                while w != 0 {
                    row[i * 64 + w.trailing_zeros() as usize] = layer;
                    w &= w - 1;
                }
            }
        }
        if !any {
            break;
        }
        depth = layer;
        // The new frontiers replace the old ones; clear the old words for reuse.
        for p in 0..fronts.len() {
            for &u in &active[p] {
                fronts[p][u] = 0;
            }
            std::mem::swap(&mut fronts[p], &mut next[p]);
            std::mem::swap(&mut active[p], &mut next_active[p]);
            next_active[p].clear();
        }
    }
    for y in 0..h {
        visited
            .row_words_mut(y)
            .copy_from_slice(&visited_w[y * n..(y + 1) * n]);
    }
    Voronoi {
        owned,
        contested,
        reached: visited,
        depth,
    }
}

/// A wall on the edge between cell `(x, y)` and its orthogonal neighbour in direction `dir`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wall {
    /// Column of the cell.
    pub x: usize,
    /// Row of the cell.
    pub y: usize,
    /// Which edge of the cell: `N`, `E`, `S` or `W` (diagonals are ignored).
    pub dir: Dir,
}

/// Connection masks for walls between cells (The Great Escape) on a board like `like`.
///
/// `con[d]` holds the cells that may move one step in direction `d`: the neighbour exists and
/// no wall stands on that edge (a wall blocks both ways). A diagonal step is allowed when at
/// least one of the two orthogonal two-step paths around the corner is open. Walls off the
/// board, or with a diagonal `dir`, are ignored.
///
/// ```
/// use gridbits::algo::fill::{connections_from_walls, distance_map, Wall};
/// use gridbits::{Board9x9, Dir, Moves};
/// let walls = [Wall { x: 4, y: 4, dir: Dir::E }];
/// let con = connections_from_walls(&Board9x9::EMPTY, &walls);
/// assert!(!con[Dir::E.index()].get(4, 4) && !con[Dir::W.index()].get(5, 4));
/// let d = distance_map(&Board9x9::cell(4, 4), &Board9x9::FULL, Moves::Four, Some(&con));
/// assert_eq!(d.get(5, 4), Some(3));
/// ```
pub fn connections_from_walls<B: BitBoard>(like: &B, walls: &[Wall]) -> Connections<B> {
    let full = like.full_like();
    // Orthogonal masks: cells whose neighbour in d exists.
    let mut con: Connections<B> = std::array::from_fn(|i| full.shift(Dir::ALL[i].opposite()));
    let (w, h) = (like.width(), like.height());
    for wall in walls {
        if wall.x >= w || wall.y >= h || !Dir::ORTHOGONAL.contains(&wall.dir) {
            continue;
        }
        let Some((nx, ny)) = crate::dir::step(wall.x, wall.y, wall.dir, 1, w, h) else {
            continue;
        };
        con[wall.dir.index()].clear(wall.x, wall.y);
        con[wall.dir.opposite().index()].clear(nx, ny);
    }
    // Diagonals: NE is open from c if (N from c, then E from c+N) or (E from c, then N from c+E).
    for d in Dir::DIAGONAL {
        let (dx, dy) = d.delta();
        let v = if dy < 0 { Dir::N } else { Dir::S };
        let hz = if dx > 0 { Dir::E } else { Dir::W };
        // Cells c whose neighbour c+v may move in hz: shift con[hz] back by v.
        let mut via_v = con[hz.index()].shift(v.opposite());
        via_v.and_assign(&con[v.index()]);
        let mut via_h = con[v.index()].shift(hz.opposite());
        via_h.and_assign(&con[hz.index()]);
        via_v.or_assign(&via_h);
        con[d.index()] = via_v;
    }
    con
}
