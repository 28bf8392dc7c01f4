//! Flood fill, BFS distance layers, distance maps and Voronoi territory, bit-parallel.
//!
//! Everything here is written once against [`BitBoard`] and works on fixed
//! [`Board`](crate::Board)s and runtime [`BitGrid`]s alike (seed 004 generalised):
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
/// seed new runs, which are closed in one pass of word additions ([`close_runs`]). Sweeps go
/// down then up, so a path that goes down (or up) while zig-zagging sideways is filled in one
/// sweep; only vertical reversals need another. On mazes and noise this does a few passes'
/// worth of work where dilation to a fixpoint needs one pass per BFS layer.
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
    loop {
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
            // New seeds: passable cells of row y next to filled cells above or below, not yet
            // filled.
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
pub fn distance_map<B: BitBoard>(
    sources: &B,
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> DistanceMap {
    let mut map = DistanceMap::new(sources.width(), sources.height());
    for (depth, front) in layers(sources, passable, moves, con) {
        map.paint(&front, depth);
    }
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
pub fn voronoi_with<B: BitBoard>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
    mut on_layer: impl FnMut(u32, &B),
) -> Voronoi<B> {
    let Some(first) = sources.first() else {
        let e = passable.empty_like();
        return Voronoi {
            owned: Vec::new(),
            contested: e.clone(),
            reached: e,
            depth: 0,
        };
    };
    let mut visited = first.empty_like();
    for s in sources {
        visited.or_assign(s);
    }
    // Cells claimed by two sources at once are contested from the start.
    let mut once = first.empty_like();
    let mut twice = first.empty_like();
    for s in sources {
        let mut both = once.clone();
        both.and_assign(s);
        twice.or_assign(&both);
        once.or_assign(s);
    }
    let mut free = passable.clone();
    free.and_not_assign(&visited);
    let mut owned: Vec<B> = sources
        .iter()
        .map(|s| {
            let mut o = s.clone();
            o.and_not_assign(&twice);
            o
        })
        .collect();
    let mut contested = twice;
    on_layer(0, &visited);
    let mut fronts: Vec<B> = sources.to_vec();
    let mut depth = 0;
    let mut next: Vec<B> = Vec::with_capacity(sources.len());
    loop {
        next.clear();
        let mut once = first.empty_like();
        let mut twice = first.empty_like();
        for f in &fronts {
            let mut n = if f.is_empty() {
                f.clone()
            } else {
                expand(f, &free, moves, con)
            };
            n.and_not_assign(&visited);
            let mut both = once.clone();
            both.and_assign(&n);
            twice.or_assign(&both);
            once.or_assign(&n);
            next.push(n);
        }
        if once.is_empty() {
            break;
        }
        depth += 1;
        for (o, n) in owned.iter_mut().zip(&next) {
            let mut mine = n.clone();
            mine.and_not_assign(&twice);
            o.or_assign(&mine);
        }
        contested.or_assign(&twice);
        visited.or_assign(&once);
        on_layer(depth, &once);
        std::mem::swap(&mut fronts, &mut next);
    }
    Voronoi {
        owned,
        contested,
        reached: visited,
        depth,
    }
}

/// Voronoi territory: [`voronoi_with`] without the per-layer callback.
pub fn voronoi<B: BitBoard>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> Voronoi<B> {
    voronoi_with(sources, passable, moves, con, |_, _| {})
}

/// Voronoi territory and the depth at which each cell was claimed (sources at 0).
pub fn voronoi_depths<B: BitBoard>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> (Voronoi<B>, DistanceMap) {
    let mut map = DistanceMap::new(passable.width(), passable.height());
    let v = voronoi_with(sources, passable, moves, con, |d, cells| {
        map.paint(cells, d)
    });
    (v, map)
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
        let Some((nx, ny)) = crate::dir::step(wall.x, wall.y, wall.dir, 1, w, h) else {
            continue;
        };
        if !Dir::ORTHOGONAL.contains(&wall.dir) {
            continue;
        }
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
