//! [`Territory`]: the Voronoi / distance engine of each board kind, and the entry points
//! [`voronoi`] and [`voronoi_depths`]. Fixed boards use the whole-board simultaneous BFS
//! ([`voronoi_with`]); runtime grids with step moves use the word-frontier BFS (`frontier.rs`).

use super::owner_cells::claim_source;
use super::shift_bfs::start_territory;
use super::{
    assert_sizes, distance_sweeps, frontier, voronoi_with, Connections, DistanceMap, Voronoi,
};
use crate::{BitBoard, BitGrid, Board, Moves};

/// Voronoi territory (the rules of [`voronoi_with`]) with the best engine for the board type:
/// see [`Territory`]. With no sources nothing is reached: no territory, depth 0.
///
/// # Panics
///
/// If a source, `passable` or a connection mask are runtime grids of different sizes
/// ([`try_voronoi`](super::try_voronoi) returns an error instead).
pub fn voronoi<B: Territory>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> Voronoi<B> {
    B::territory(sources, passable, moves, con, None)
}

/// Voronoi territory and the depth at which each cell was claimed (sources at 0).
///
/// # Panics
///
/// If a source, `passable` or a connection mask are runtime grids of different sizes
/// ([`try_voronoi_depths`](super::try_voronoi_depths) returns an error instead).
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
    let dims = depth.as_deref().map(|m| (m.width(), m.height()));
    assert_sizes(passable, "a source", sources, con, dims);
    voronoi_with(sources, passable, moves, con, |d, cells| {
        if let Some(map) = depth.as_deref_mut() {
            map.paint(cells, d);
        }
    })
}

/// Board types with a Voronoi / distance engine.
///
/// Fixed boards expand whole boards per layer (a few word operations each). A [`BitGrid`]
/// with step moves (`Four`, `Eight`, with or without connection masks) runs the word-frontier
/// BFS (see [`distance_map`](super::distance_map)): one BFS for all players, each layer the
/// list of its non-zero words pushed into their neighbours, each cell taking the owner of its
/// predecessors in the previous layer (ties and cells reached through ties are contested). Its
/// cost follows the frontiers, not the grid, and does not depend on the number of players;
/// building [`Voronoi::owned`] costs one pass over the cells (see
/// [`voronoi_owners`](super::voronoi_owners) for many players, without the planes). Sliding
/// moves on a [`BitGrid`] expand whole grids per layer (queen distances are short).
pub trait Territory: BitBoard {
    /// The Voronoi partition of `sources`' players; when `depth` is given, the claim depth of
    /// every reached cell is written into it (it must have the board's size).
    ///
    /// # Panics
    ///
    /// If a source, `passable`, a connection mask or `depth` differ in size.
    fn territory(
        sources: &[Self],
        passable: &Self,
        moves: Moves,
        con: Option<&Connections<Self>>,
        depth: Option<&mut DistanceMap>,
    ) -> Voronoi<Self>;

    /// The move distance from the nearest of `sources` to every cell: see
    /// [`distance_map`](super::distance_map). The default runs [`Territory::territory`] with
    /// one player.
    ///
    /// # Panics
    ///
    /// If `sources`, `passable` and the connection masks differ in size.
    fn distances(
        sources: &Self,
        passable: &Self,
        moves: Moves,
        con: Option<&Connections<Self>>,
    ) -> DistanceMap {
        let mut map = DistanceMap::new(passable.width(), passable.height());
        Self::territory(
            std::slice::from_ref(sources),
            passable,
            moves,
            con,
            Some(&mut map),
        );
        map
    }
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
        let dims = depth.as_deref().map(|m| (m.width(), m.height()));
        assert_sizes(passable, "a source", sources, con, dims);
        voronoi_frontier(sources, passable, moves, con, depth)
    }

    fn distances(
        sources: &Self,
        passable: &Self,
        moves: Moves,
        con: Option<&Connections<Self>>,
    ) -> DistanceMap {
        if moves.is_sliding() {
            let mut map = DistanceMap::new(passable.width(), passable.height());
            voronoi_by_layers(
                std::slice::from_ref(sources),
                passable,
                moves,
                con,
                Some(&mut map),
            );
            return map;
        }
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
        let last = frontier::bfs(sources, passable, moves, con, Some(&mut map.dist), None);
        // Sources are layer 0 whether passable or not: without any, nothing is reached.
        map.known_max = Some((!sources.is_empty()).then_some(last));
        map
    }
}

/// Runs the row sweeps of `distance_sweeps.rs` when the free cells form long horizontal runs
/// (an average of at least [`SWEEP_RUN`] cells), within a budget of [`SWEEP_BUDGET`]
/// relaxations per free cell. Returns the largest finite distance (`Some(None)` when nothing
/// is reached) when `dist` holds the distances; if not, `None`, and `dist` is reset to
/// unreached for the frontier BFS.
fn try_sweeps(
    sources: &BitGrid,
    passable: &BitGrid,
    moves: Moves,
    dist: &mut [u32],
) -> Option<Option<u32>> {
    if !distance_sweeps::long_runs(passable, SWEEP_RUN) {
        return None;
    }
    let budget = SWEEP_BUDGET * (passable.count() + sources.count()) as usize;
    let done = match moves {
        Moves::Four => distance_sweeps::distances::<false>(sources, passable, dist, budget),
        Moves::Eight => distance_sweeps::distances::<true>(sources, passable, dist, budget),
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

/// The Voronoi of [`Territory`] for a [`BitGrid`] and step moves: one word-frontier BFS from
/// every source at once carrying an owner per cell ([`frontier::bfs`]), then the owner array
/// turned into one plane per player. The cost of the BFS does not depend on the number of
/// players; the planes cost one pass over the reached cells.
fn voronoi_frontier(
    sources: &[BitGrid],
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
    depth_map: Option<&mut DistanceMap>,
) -> Voronoi<BitGrid> {
    let (w, h) = (passable.width(), passable.height());
    let (seeds, _, _) = start_territory(sources, passable);
    let mut owned: Vec<BitGrid> = sources.iter().map(|s| s.empty_like()).collect();
    let mut contested = passable.empty_like();
    let mut reached = passable.empty_like();
    if sources.len() <= 1 {
        let mut own_map;
        let map = match depth_map {
            Some(m) => m,
            None => {
                own_map = DistanceMap::new(w, h);
                &mut own_map
            }
        };
        let depth = frontier::bfs(&seeds, passable, moves, con, Some(&mut map.dist), None);
        fill_reached(&map.dist, w, &mut reached);
        if let Some(o) = owned.first_mut() {
            o.clone_from(&reached);
        }
        return Voronoi {
            owned,
            contested,
            reached,
            depth,
        };
    }
    let mut owner = crate::huge_pages::filled(w * h, frontier::UNREACHED);
    for (p, s) in sources.iter().enumerate() {
        for (x, y) in s.iter() {
            claim_source(&mut owner[y * w + x], p);
        }
    }
    // The distances only when asked for: the owners say which cells are reached.
    let dist = depth_map.map(|m| &mut m.dist[..]);
    let depth = frontier::bfs(&seeds, passable, moves, con, dist, Some(&mut owner));
    for y in 0..h {
        for (x, &o) in owner[y * w..(y + 1) * w].iter().enumerate() {
            match o {
                frontier::UNREACHED => continue,
                frontier::CONTESTED => contested.set(x, y),
                p => owned[p as usize].set(x, y),
            }
            reached.set(x, y);
        }
    }
    Voronoi {
        owned,
        contested,
        reached,
        depth,
    }
}

/// Sets in `reached` the cells whose distance in `dist` (row-major, `w` per row) is finite.
fn fill_reached(dist: &[u32], w: usize, reached: &mut BitGrid) {
    for (y, row) in dist.chunks_exact(w).enumerate() {
        let words = reached.row_words_mut(y);
        for (i, cells) in row.chunks(64).enumerate() {
            let mut word = 0u64;
            for (k, &d) in cells.iter().enumerate() {
                word |= ((d != DistanceMap::UNREACHABLE) as u64) << k;
            }
            words[i] = word;
        }
    }
}
