//! [`Territory`]: the Voronoi / distance engine of each board kind, and the entry points
//! [`voronoi`] and [`voronoi_depths`]. Fixed boards use the whole-board simultaneous BFS
//! ([`voronoi_with`]); runtime grids with step moves use the frontier-sparse engine below.

use super::shift_bfs::start_territory;
use super::{assert_sizes, voronoi_with, Connections, DistanceMap, Voronoi};
use crate::{BitBoard, BitGrid, Board, Dir, Moves};

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
/// with step moves (`Four`, `Eight`, with or without connection masks) keeps, per player, the
/// list of rows its frontier occupies and computes each layer only on those rows and their
/// neighbours, with no allocation per layer: the cost follows the frontiers, not the grid.
/// Sliding moves on a [`BitGrid`] expand whole grids per layer (queen distances are short).
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
