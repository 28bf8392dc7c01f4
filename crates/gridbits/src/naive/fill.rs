//! Per-cell references for flood fill, BFS distances and Voronoi territory: queue BFS over
//! cells, ray walks for sliding moves. Written for obviousness; the oracle of
//! [`algo::fill`](crate::algo::fill) and its benchmark baseline.
//!
//! Voronoi here is computed from its definition, not by simultaneous expansion: each player's
//! own BFS distance map, then a per-cell comparison.

use super::NaiveGrid;
use crate::dir::step;
use crate::{Connectivity, Dir, Moves};
use std::collections::VecDeque;

/// Connection masks: a cell may move in `Dir::ALL[i]` only where `con[i]` is set.
pub type NaiveConnections = [NaiveGrid; 8];

/// Flood fill: the cells of `passable` reachable from the passable cells of `seeds`.
pub fn fill(seeds: &NaiveGrid, passable: &NaiveGrid, conn: Connectivity) -> NaiveGrid {
    let (w, h) = (passable.width(), passable.height());
    let mut out = NaiveGrid::new(w, h);
    let mut queue = VecDeque::new();
    for (x, y) in seeds.cells() {
        if passable.get(x, y) && !out.get(x, y) {
            out.set(x, y, true);
            queue.push_back((x, y));
        }
    }
    while let Some((x, y)) = queue.pop_front() {
        for &d in conn.dirs() {
            if let Some((nx, ny)) = step(x, y, d, 1, w, h) {
                if passable.get(nx, ny) && !out.get(nx, ny) {
                    out.set(nx, ny, true);
                    queue.push_back((nx, ny));
                }
            }
        }
    }
    out
}

/// The cells reached in one move from `(x, y)`: one step, or a ray walk for sliding moves,
/// through `passable` cells, leaving a cell in direction `d` only where `con[d]` allows.
pub fn moves_from(
    x: usize,
    y: usize,
    passable: &NaiveGrid,
    moves: Moves,
    con: Option<&NaiveConnections>,
) -> Vec<(usize, usize)> {
    let (w, h) = (passable.width(), passable.height());
    let mut out = Vec::new();
    for &d in moves.dirs() {
        let (mut cx, mut cy) = (x, y);
        loop {
            if con.is_some_and(|c| !c[d.index()].get(cx, cy)) {
                break;
            }
            match step(cx, cy, d, 1, w, h) {
                Some((nx, ny)) if passable.get(nx, ny) => {
                    out.push((nx, ny));
                    (cx, cy) = (nx, ny);
                }
                _ => break,
            }
            if !moves.is_sliding() {
                break;
            }
        }
    }
    out
}

/// Distance of every cell from the nearest source (row-major, `None` when unreachable).
/// Sources are at 0 and are obstacles: moves never enter or pass through them.
pub fn distance_map(
    sources: &NaiveGrid,
    passable: &NaiveGrid,
    moves: Moves,
    con: Option<&NaiveConnections>,
) -> Vec<Option<u32>> {
    let (w, h) = (passable.width(), passable.height());
    let free = passable.and_not(sources);
    let mut dist = vec![None; w * h];
    let mut queue = VecDeque::new();
    for (x, y) in sources.cells() {
        dist[y * w + x] = Some(0);
        queue.push_back((x, y));
    }
    while let Some((x, y)) = queue.pop_front() {
        let d = dist[y * w + x].unwrap_or(0);
        for (nx, ny) in moves_from(x, y, &free, moves, con) {
            if dist[ny * w + nx].is_none() {
                dist[ny * w + nx] = Some(d + 1);
                queue.push_back((nx, ny));
            }
        }
    }
    dist
}

/// A naive Voronoi result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaiveVoronoi {
    /// Cells owned by each player (sources included).
    pub owned: Vec<NaiveGrid>,
    /// Cells at equal smallest distance from two or more players.
    pub contested: NaiveGrid,
    /// The smallest distance of each cell over all players (row-major).
    pub depth: Vec<Option<u32>>,
}

impl NaiveVoronoi {
    /// The owner code of `(x, y)` as [`Owners`](crate::algo::voronoi::Owners) writes it: the
    /// first player owning it, else [`Owners::CONTESTED`](crate::algo::voronoi::Owners::CONTESTED)
    /// or [`Owners::UNREACHED`](crate::algo::voronoi::Owners::UNREACHED).
    pub fn owner_code(&self, x: usize, y: usize) -> u32 {
        use crate::algo::voronoi::Owners;
        match self.owned.iter().position(|g| g.get(x, y)) {
            Some(p) => p as u32,
            None if self.contested.get(x, y) => Owners::CONTESTED,
            None => Owners::UNREACHED,
        }
    }
}

/// Voronoi from the definition: each player's distance map (every player's sources are
/// obstacles to all), then each cell to the unique nearest player, ties contested.
pub fn voronoi(
    sources: &[NaiveGrid],
    passable: &NaiveGrid,
    moves: Moves,
    con: Option<&NaiveConnections>,
) -> NaiveVoronoi {
    let (w, h) = (passable.width(), passable.height());
    let mut all = NaiveGrid::new(w, h);
    for s in sources {
        all = all.or(s);
    }
    let free = passable.and_not(&all);
    let maps: Vec<Vec<Option<u32>>> = sources
        .iter()
        .map(|s| distance_map(s, &free.or(s), moves, con))
        .collect();
    let mut owned = vec![NaiveGrid::new(w, h); sources.len()];
    let mut contested = NaiveGrid::new(w, h);
    let mut depth = vec![None; w * h];
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            let best = maps.iter().filter_map(|m| m[i]).min();
            depth[i] = best;
            let Some(best) = best else { continue };
            let winners: Vec<usize> = (0..sources.len())
                .filter(|&p| maps[p][i] == Some(best))
                .collect();
            if winners.len() == 1 {
                owned[winners[0]].set(x, y, true);
            } else {
                contested.set(x, y, true);
            }
        }
    }
    NaiveVoronoi {
        owned,
        contested,
        depth,
    }
}

/// Connection masks for walls `(x, y, dir)` between orthogonal neighbours, by the rules of
/// [`connections_from_walls`](crate::algo::distance::connections_from_walls).
pub fn connections_from_walls(
    w: usize,
    h: usize,
    walls: &[(usize, usize, Dir)],
) -> NaiveConnections {
    let blocked = |x: usize, y: usize, d: Dir| -> bool {
        let Some((nx, ny)) = step(x, y, d, 1, w, h) else {
            return true;
        };
        walls.iter().any(|&(wx, wy, wd)| {
            (wx, wy, wd) == (x, y, d) || (wx, wy, wd) == (nx, ny, d.opposite())
        })
    };
    std::array::from_fn(|i| {
        let d = Dir::ALL[i];
        NaiveGrid::from_fn(w, h, |x, y| {
            if Dir::ORTHOGONAL.contains(&d) {
                return !blocked(x, y, d);
            }
            let (dx, dy) = d.delta();
            let v = if dy < 0 { Dir::N } else { Dir::S };
            let hz = if dx > 0 { Dir::E } else { Dir::W };
            let path = |a: Dir, b: Dir| {
                !blocked(x, y, a)
                    && step(x, y, a, 1, w, h).is_some_and(|(mx, my)| !blocked(mx, my, b))
            };
            path(v, hz) || path(hz, v)
        })
    })
}
