//! The choice of Voronoi engine, in one place ([`VoronoiEngine`]): fixed boards and sliding
//! moves use the whole-board simultaneous BFS ([`voronoi_with`]); runtime grids with step
//! moves the word-frontier BFS of [`distance`], which carries an owner
//! per cell.

use super::shift_bfs::start_territory;
use super::{voronoi_with, Voronoi};
use crate::algo::checks::assert_sizes;
use crate::algo::distance::{self, bfs, claim_source, Connections, DistanceMap};
use crate::{BitBoard, BitGrid, Board, Moves};

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

/// Board types with a Voronoi engine: see [`voronoi`](super::voronoi).
///
/// Fixed boards expand whole boards per layer (a few word operations each). A [`BitGrid`]
/// with step moves (`Four`, `Eight`, with or without connection masks) runs the word-frontier
/// BFS (see [`distance_map`](crate::algo::distance::distance_map)): one BFS for all players, each layer the
/// list of its non-zero words pushed into their neighbours, each cell taking the owner of its
/// predecessors in the previous layer (ties and cells reached through ties are contested). Its
/// cost follows the frontiers, not the grid, and does not depend on the number of players;
/// building [`Voronoi::owned`] costs one pass over the cells (see
/// [`voronoi_owners`](super::voronoi_owners) for many players, without the planes). Sliding
/// moves on a [`BitGrid`] expand whole grids per layer (queen distances are short).
pub trait VoronoiEngine: BitBoard {
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
}

impl<const W: usize, const H: usize, const N: usize> VoronoiEngine for Board<W, H, N> {
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

impl VoronoiEngine for BitGrid {
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
}

/// The Voronoi of [`VoronoiEngine`] for a [`BitGrid`] and step moves: one word-frontier BFS from
/// every source at once carrying an owner per cell ([`distance::bfs`]), then the owner array
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
        let depth = bfs(&seeds, passable, moves, con, Some(&mut map.dist), None);
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
    let mut owner = crate::huge_pages::filled(w * h, distance::UNREACHED);
    for (p, s) in sources.iter().enumerate() {
        for (x, y) in s.iter() {
            claim_source(&mut owner[y * w + x], p);
        }
    }
    // The distances only when asked for: the owners say which cells are reached.
    let dist = depth_map.map(|m| &mut m.dist[..]);
    let depth = bfs(&seeds, passable, moves, con, dist, Some(&mut owner));
    for y in 0..h {
        for (x, &o) in owner[y * w..(y + 1) * w].iter().enumerate() {
            match o {
                distance::UNREACHED => continue,
                distance::CONTESTED => contested.set(x, y),
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
