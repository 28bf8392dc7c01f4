//! The choice of distance engine, in one place ([`DistanceEngine`]): whole-board layers for
//! fixed boards and sliding moves; for a [`BitGrid`] with step moves, row sweeps when the free
//! cells form long horizontal runs and there are no connection masks, else the word-frontier
//! BFS, with thin layers while its frontier has a few words ([`FrontierLayers`]); on three
//! threads or more, once a frontier is wide, in row bands (`bands/`), also with owners
//! ([`bfs`], the Voronoi of runtime grids).

use super::frontier::Front;
use super::thin::Limits;
use super::{bands, frontier, layers, sweeps, Connections, DistanceMap};
use crate::algo::checks::assert_sizes;
use crate::{BitBoard, BitGrid, Board, Moves};

/// Board types with a distance engine: see [`distance_map`](super::distance_map).
///
/// Fixed boards expand whole boards per layer (a few word operations each). A [`BitGrid`]
/// with step moves (`Four`, `Eight`, with or without connection masks) runs the word-frontier
/// BFS, whose cost follows the frontiers, not the grid, after row sweeps when its free cells
/// form long runs. Sliding moves on a [`BitGrid`] expand whole grids per layer (queen
/// distances are short).
pub trait DistanceEngine: BitBoard {
    /// The move distance from the nearest of `sources` to every cell: see
    /// [`distance_map`](super::distance_map).
    ///
    /// # Panics
    ///
    /// If `sources`, `passable` and the connection masks differ in size.
    fn distances(
        sources: &Self,
        passable: &Self,
        moves: Moves,
        con: Option<&Connections<Self>>,
    ) -> DistanceMap;
}

impl<const W: usize, const H: usize, const N: usize> DistanceEngine for Board<W, H, N> {
    fn distances(
        sources: &Self,
        passable: &Self,
        moves: Moves,
        con: Option<&Connections<Self>>,
    ) -> DistanceMap {
        distances_by_layers(sources, passable, moves, con)
    }
}

impl DistanceEngine for BitGrid {
    fn distances(
        sources: &Self,
        passable: &Self,
        moves: Moves,
        con: Option<&Connections<Self>>,
    ) -> DistanceMap {
        grid_distances(sources, passable, moves, con, FrontierLayers::Auto)
    }
}

/// How the word-frontier BFS of a [`BitGrid`] holds its layers ([`distance_map_with`]).
///
/// In the *slots* of the grid's padded words, a layer lists each word once however many
/// neighbours reach it, and each word's distances are written as it is expanded. As *thin*
/// entries that carry their cells, a word reached from two neighbours is listed twice, and
/// the distances are written in batches (`docs/algorithms.md`). All give the same
/// distances.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FrontierLayers {
    /// What [`distance_map`](super::distance_map) does: thin layers (measured faster on
    /// mazes, noise and open rooms alike; `docs/benchmarks.md`).
    #[default]
    Auto,
    /// The slots throughout.
    Slots,
    /// Thin layers throughout (until the row bands take over, on three threads or more).
    Thin,
}

/// [`distance_map`](super::distance_map) on a [`BitGrid`], with the BFS layers held as
/// `layers` says; the row sweeps and the row bands are chosen as `distance_map` chooses them.
/// The same distances whatever `layers` is: the choice is there to measure the automatic one
/// against the others (`gridbits-bench`).
///
/// ```
/// use gridbits::algo::distance::{distance_map, distance_map_with, FrontierLayers};
/// use gridbits::{BitGrid, Moves};
/// let free = !BitGrid::parse("#.###\n#...#\n###.#").unwrap();
/// let mut s = free.empty_like();
/// s.set(1, 0);
/// let d = distance_map_with(&s, &free, Moves::Four, None, FrontierLayers::Thin);
/// assert_eq!(d.get(3, 2), Some(4));
/// assert_eq!(d, distance_map(&s, &free, Moves::Four, None));
/// ```
///
/// # Panics
///
/// If `sources`, `passable` and the connection masks differ in size.
pub fn distance_map_with(
    sources: &BitGrid,
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
    layers: FrontierLayers,
) -> DistanceMap {
    grid_distances(sources, passable, moves, con, layers)
}

/// The distances of a [`BitGrid`]: whole-grid layers for sliding moves; for step moves the
/// row sweeps when they fit, else the word-frontier BFS with its layers held as `layers` says
/// (in row bands once a frontier is wide, on three threads or more).
fn grid_distances(
    sources: &BitGrid,
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
    layers: FrontierLayers,
) -> DistanceMap {
    if moves.is_sliding() {
        return distances_by_layers(sources, passable, moves, con);
    }
    let limits = match layers {
        FrontierLayers::Auto => Limits::AUTO,
        FrontierLayers::Slots => Limits::SLOTS,
        FrontierLayers::Thin => Limits::THIN,
    };
    assert_sizes(
        passable,
        "sources",
        std::slice::from_ref(sources),
        con,
        None,
    );
    let mut map = DistanceMap::new(passable.width(), passable.height());
    if con.is_none() {
        if let Some(most) = try_sweeps(sources, passable, moves, &mut map.dist) {
            map.known_max = Some(most);
            return map;
        }
    }
    // On three threads or more, once a layer's frontier is wide, the BFS goes on in row
    // bands on every thread (`bands/`), unless the system refuses a thread.
    let count = bands::threads(passable.width(), passable.height());
    let mut last = None;
    if count >= 2 {
        let dist = &mut map.dist;
        let wide = bands::WIDE;
        last = match frontier::distances_until(sources, passable, moves, con, dist, wide, limits) {
            Ok(last) => Some(last),
            Err(layer) => {
                let eight = moves == Moves::Eight;
                let banded = bands::bfs(count, passable, eight, con, dist, layer);
                if banded.is_none() {
                    // No threads: the BFS again from the start on this thread.
                    dist.fill(DistanceMap::UNREACHABLE);
                }
                banded
            }
        };
    }
    let last = last.unwrap_or_else(|| {
        frontier::distances(sources, passable, moves, con, &mut map.dist, limits)
    });
    // Sources are layer 0 whether passable or not: without any, nothing is reached.
    map.known_max = Some((!sources.is_empty()).then_some(last));
    map
}

/// The whole-board engine: each BFS layer ([`layers`](fn@layers)) painted at its depth. Sources are
/// layer 0 whether passable or not.
fn distances_by_layers<B: BitBoard>(
    sources: &B,
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> DistanceMap {
    assert_sizes(
        passable,
        "a source",
        std::slice::from_ref(sources),
        con,
        None,
    );
    let mut map = DistanceMap::new(passable.width(), passable.height());
    for (depth, cells) in layers(sources, passable, moves, con) {
        map.paint(&cells, depth);
    }
    map
}

/// Runs the row sweeps of `sweeps.rs` when the free cells form long horizontal runs (an
/// average of at least [`SWEEP_RUN`] cells), within a budget of [`SWEEP_BUDGET`]
/// relaxations per free cell. Returns the largest finite distance (`Some(None)` when nothing
/// is reached) when `dist` holds the distances; if not, `None`, and `dist` is reset to
/// unreached for the frontier BFS.
fn try_sweeps(
    sources: &BitGrid,
    passable: &BitGrid,
    moves: Moves,
    dist: &mut [u32],
) -> Option<Option<u32>> {
    if !sweeps::long_runs(passable, SWEEP_RUN) {
        return None;
    }
    let budget = SWEEP_BUDGET * (passable.count() + sources.count()) as usize;
    let done = match moves {
        Moves::Four => sweeps::distances::<false>(sources, passable, dist, budget),
        Moves::Eight => sweeps::distances::<true>(sources, passable, dist, budget),
        _ => None,
    };
    if done.is_none() {
        dist.fill(DistanceMap::UNREACHABLE);
    }
    done
}

/// The average horizontal run length from which [`try_sweeps`] runs the row sweeps.
const SWEEP_RUN: usize = 8;
/// Row sweeps give up after this many cell relaxations per free cell.
const SWEEP_BUDGET: usize = 3;

/// The BFS behind the Voronoi of runtime grids and step moves: [`frontier::bfs`] (`dist` and
/// `owner` as there), which with owners, on three threads or more and a large grid, goes on
/// in row bands once a layer's frontier is wide (`bands/`, as [`distance_map`] does
/// without owners).
///
/// [`distance_map`]: super::distance_map
pub(crate) fn bfs(
    seeds: &BitGrid,
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
    mut dist: Option<&mut [u32]>,
    owner: Option<&mut [u32]>,
) -> u32 {
    let count = bands::threads(passable.width(), passable.height());
    match owner {
        Some(owner) if count >= 2 => {
            let mut front = Front::default();
            let wide = bands::WIDE;
            let d = dist.as_deref_mut();
            match frontier::owners_until(seeds, passable, moves, con, d, owner, wide, &mut front) {
                Ok(last) => last,
                Err(layer) => {
                    let eight = moves == Moves::Eight;
                    let d = dist.unwrap_or(&mut []);
                    bands::bfs_owned(count, passable, eight, con, d, owner, layer + 1, front)
                }
            }
        }
        owner => frontier::bfs(seeds, passable, moves, con, dist, owner),
    }
}
