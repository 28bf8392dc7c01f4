//! Large-grid workloads (1024^2 and 4096^2; 4096^2 only in full runs) against the honest
//! baselines: the plain code a careful user writes for a distance map, a flood fill and a
//! many-player Voronoi over a byte grid. These are the bars to beat, beside `naive` and,
//! with `--features peers`, the `pathfinding` crate.
//!
//! Shapes: a perfect maze (corridors one cell wide), noise with 30/35/50% walls, an open room
//! (no walls) and a serpentine (one corridor folded back and forth across the grid).

use crate::Bench;
use gridbits::algo::distance::{distance_map, distance_map_with, FrontierLayers};
use gridbits::algo::fill::{fill, fill_count, fill_from, fill_union};
use gridbits::algo::voronoi::{voronoi, voronoi_owners, voronoi_owners_with_distances};
use gridbits::naive::{fill as nf, NaiveGrid};
use gridbits::{BitGrid, Connectivity, Moves};
use gridbits_testkit::{maze, serpentine, SplitMix};

/// A grid of bytes with a one-cell wall border (1 = free, 0 = wall), as a careful user stores
/// a map for a BFS: no bounds checks, neighbours are `i - 1`, `i + 1`, `i - stride`,
/// `i + stride`.
pub struct PlainGrid {
    /// `(width + 2) * (height + 2)` bytes, row-major, border rows and columns 0.
    pub cells: Vec<u8>,
    /// Bytes per row: `width + 2`.
    pub stride: usize,
}

impl PlainGrid {
    /// The byte grid of `passable`.
    pub fn new(passable: &BitGrid) -> Self {
        let stride = passable.width() + 2;
        let mut cells = vec![0u8; stride * (passable.height() + 2)];
        for (x, y) in passable.iter() {
            cells[(y + 1) * stride + x + 1] = 1;
        }
        PlainGrid { cells, stride }
    }

    /// The index of cell `(x, y)`.
    pub fn index(&self, x: usize, y: usize) -> u32 {
        ((y + 1) * self.stride + x + 1) as u32
    }
}

/// The tight plain BFS: a flat `u32` queue, `u32` distances (`u32::MAX` unreached), 4-moves.
/// Returns the distances (on the bordered grid).
pub fn plain_bfs(grid: &PlainGrid, sources: &[u32]) -> Vec<u32> {
    let cells = &grid.cells;
    let s = grid.stride;
    let mut dist = vec![u32::MAX; cells.len()];
    let mut queue: Vec<u32> = Vec::with_capacity(cells.len());
    for &src in sources {
        if cells[src as usize] != 0 && dist[src as usize] == u32::MAX {
            dist[src as usize] = 0;
            queue.push(src);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let c = queue[head] as usize;
        head += 1;
        let d = dist[c] + 1;
        for n in [c - 1, c + 1, c - s, c + s] {
            if cells[n] != 0 && dist[n] == u32::MAX {
                dist[n] = d;
                queue.push(n as u32);
            }
        }
    }
    dist
}

/// The plain depth-first stack fill from `start`, 4-connected: the number of cells reached.
pub fn plain_fill(grid: &PlainGrid, start: u32) -> u64 {
    let cells = &grid.cells;
    let s = grid.stride;
    if cells[start as usize] == 0 {
        return 0;
    }
    let mut seen = vec![false; cells.len()];
    let mut stack = vec![start];
    seen[start as usize] = true;
    let mut count = 0;
    while let Some(c) = stack.pop() {
        let c = c as usize;
        count += 1;
        for n in [c - 1, c + 1, c - s, c + s] {
            if cells[n] != 0 && !seen[n] {
                seen[n] = true;
                stack.push(n as u32);
            }
        }
    }
    count
}

/// Owner code of a contested cell in [`plain_voronoi`].
pub const CONTESTED: u32 = u32::MAX - 1;
/// Owner code of an unreached cell in [`plain_voronoi`].
pub const UNREACHED: u32 = u32::MAX;

/// The plain many-player Voronoi: one multi-source BFS carrying an owner per cell (the
/// player with the strictly smallest distance; ties and cells reached only through ties are
/// contested). `sources[p]` are player `p`'s cells. Returns each player's cell count
/// (sources included) and the number of contested cells.
pub fn plain_voronoi(grid: &PlainGrid, sources: &[Vec<u32>]) -> (Vec<u64>, u64) {
    let cells = &grid.cells;
    let s = grid.stride;
    let mut dist = vec![u32::MAX; cells.len()];
    let mut owner = vec![UNREACHED; cells.len()];
    let mut queue: Vec<u32> = Vec::with_capacity(cells.len());
    for (p, srcs) in sources.iter().enumerate() {
        for &src in srcs {
            let i = src as usize;
            if dist[i] == u32::MAX {
                dist[i] = 0;
                owner[i] = p as u32;
                queue.push(src);
            } else if owner[i] != p as u32 {
                owner[i] = CONTESTED;
            }
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let c = queue[head] as usize;
        head += 1;
        let (d, o) = (dist[c] + 1, owner[c]);
        for n in [c - 1, c + 1, c - s, c + s] {
            if cells[n] == 0 {
                continue;
            }
            if dist[n] == u32::MAX {
                dist[n] = d;
                owner[n] = o;
                queue.push(n as u32);
            } else if dist[n] == d && owner[n] != o {
                owner[n] = CONTESTED;
            }
        }
    }
    let mut counts = vec![0u64; sources.len()];
    let mut contested = 0;
    for &o in &owner {
        match o {
            UNREACHED => {}
            CONTESTED => contested += 1,
            p => counts[p as usize] += 1,
        }
    }
    (counts, contested)
}

/// An open room: every cell free.
fn open_room(size: usize) -> BitGrid {
    BitGrid::full(size, size)
}

/// The large-grid shapes of side `size`: name and passable cells.
fn shapes(rng: &mut SplitMix, size: usize) -> Vec<(String, BitGrid)> {
    let mut out = vec![("maze".to_string(), maze(rng, size / 2 * 2, size / 2 * 2))];
    for walls in [30, 35, 50] {
        let free = 1.0 - walls as f64 / 100.0;
        out.push((
            format!("noise{walls}"),
            gridbits_testkit::random_grid(rng, size, size, free),
        ));
    }
    out.push(("room".to_string(), open_room(size)));
    out.push(("serpentine".to_string(), serpentine(size, size)));
    out
}

/// The free cell nearest the middle of `g` (scanning from the middle row), or `(0, 0)`.
fn middle_cell(g: &BitGrid) -> (usize, usize) {
    let (w, h) = (g.width(), g.height());
    g.iter()
        .find(|&(x, y)| y >= h / 2 && x >= w / 2)
        .or_else(|| g.iter().next())
        .unwrap_or((0, 0))
}

/// Registers the large-grid workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    let sizes: &[usize] = if bench.quick() {
        &[1024]
    } else {
        &[1024, 4096]
    };
    for &size in sizes {
        for (shape, passable) in shapes(rng, size) {
            let start = middle_cell(&passable);
            distance(bench, &shape, &passable, start);
            flood(bench, &shape, &passable, start);
        }
    }
    many_players(bench, rng);
}

/// `distance SHAPE N`: the library's distance map from one cell against the plain BFS, and
/// against the word-frontier BFS with its layers in the slots throughout and thin throughout
/// (alternatives of the automatic choice).
fn distance(bench: &mut Bench, shape: &str, passable: &BitGrid, start: (usize, usize)) {
    let size = passable.width();
    let name = format!("distance {shape} {size}x{size}");
    if !bench.wants(&name) {
        return;
    }
    let mut seed = passable.empty_like();
    seed.set(start.0, start.1);
    let plain = PlainGrid::new(passable);
    let src = [plain.index(start.0, start.1)];
    let w = bench
        .workload(&name, "bitgrid")
        .warm_up()
        .case("bitgrid", 1, || {
            let d = distance_map(&seed, passable, Moves::Four, None);
            d.max().unwrap_or(0) as u64
        })
        // The word-frontier BFS with its layers held one way throughout (the automatic
        // choice switches per layer).
        .alternative("slots", 1, || {
            let d = distance_map_with(&seed, passable, Moves::Four, None, FrontierLayers::Slots);
            d.max().unwrap_or(0) as u64
        })
        .alternative("thin", 1, || {
            let d = distance_map_with(&seed, passable, Moves::Four, None, FrontierLayers::Thin);
            d.max().unwrap_or(0) as u64
        })
        .case("plain", 1, || {
            let d = plain_bfs(&plain, &src);
            d.iter()
                .filter(|&&d| d != u32::MAX)
                .max()
                .copied()
                .unwrap_or(0) as u64
        });
    let w = if size <= 1024 {
        let (ns, np) = (NaiveGrid::from_view(&seed), NaiveGrid::from_view(passable));
        w.case("naive", 1, move || {
            let d = nf::distance_map(&ns, &np, Moves::Four, None);
            d.iter().flatten().max().copied().unwrap_or(0) as u64
        })
    } else {
        w
    };
    w.finish();
}

/// `fill SHAPE N`: the library's flood fill from one cell (`fill_from`, and `fill` from a
/// seed grid, each counted after; `fill_count`, the count alone) against the plain stack
/// fill (a count), the run union-find on one thread and (feature
/// `parallel`) on all of them.
fn flood(bench: &mut Bench, shape: &str, passable: &BitGrid, start: (usize, usize)) {
    let size = passable.width();
    let name = format!("fill {shape} {size}x{size}");
    if !bench.wants(&name) {
        return;
    }
    let mut seed = passable.empty_like();
    seed.set(start.0, start.1);
    let plain = PlainGrid::new(passable);
    let src = plain.index(start.0, start.1);
    let w = bench
        .workload(&name, "bitgrid")
        .warm_up()
        .case("bitgrid", 1, || {
            fill_from(passable, start, Connectivity::Four).count()
        })
        .case("seed grid", 1, || {
            fill(&seed, passable, Connectivity::Four).count()
        })
        .case("count", 1, || {
            fill_count(passable, start, Connectivity::Four)
        })
        .alternative("union", 1, || {
            fill_union(&seed, passable, Connectivity::Four).count()
        })
        .case("plain", 1, || plain_fill(&plain, src));
    #[cfg(feature = "parallel")]
    let w = w.alternative("union-parallel", 1, || {
        gridbits::algo::fill::fill_union_parallel(&seed, passable, Connectivity::Four).count()
    });
    #[cfg(feature = "peers")]
    let w = w.case("pathfinding", 1, || {
        crate::fill::pathfinding_fill(passable, start)
    });
    w.finish();
}

/// `voronoi P players WxH`: territory of P players on a 2000x1500 grid with 20% walls
/// (500x375 with `--quick`), and of 1000 players on 4096x4096 in full runs, against a
/// distance map from the same sources and the plain owner BFS. `owners` is the
/// owner-per-cell API ([`voronoi_owners`]); `owners+distances` the same with the distance map
/// ([`voronoi_owners_with_distances`]); `bitgrid` the plane-per-player API (up to 91
/// players).
fn many_players(bench: &mut Bench, rng: &mut SplitMix) {
    let boards: &[(usize, usize, &[usize])] = if bench.quick() {
        &[(500, 375, &[2, 30, 91, 1000])]
    } else {
        &[(2000, 1500, &[2, 30, 91, 1000]), (4096, 4096, &[1000])]
    };
    for &(w, h, counts) in boards {
        if counts.iter().all(|&p| !bench.wants(&players_name(p, w, h))) {
            continue;
        }
        players_on(bench, rng, w, h, counts);
    }
}

/// The name of the workload of `players` players on a `w x h` board.
fn players_name(players: usize, w: usize, h: usize) -> String {
    format!("voronoi {players} players {w}x{h}")
}

/// The `voronoi P players WxH` workloads of one random board.
fn players_on(bench: &mut Bench, rng: &mut SplitMix, w: usize, h: usize, counts: &[usize]) {
    let passable = gridbits_testkit::random_grid(rng, w, h, 0.8);
    let free: Vec<(usize, usize)> = passable.iter().collect();
    for &players in counts {
        let name = players_name(players, w, h);
        if !bench.wants(&name) {
            continue;
        }
        // One distinct random free cell per player.
        let mut taken = passable.empty_like();
        let mut cells = Vec::with_capacity(players);
        while cells.len() < players {
            let c = free[(rng.next_u64() % free.len() as u64) as usize];
            if !taken.get(c.0, c.1) {
                taken.set(c.0, c.1);
                cells.push(c);
            }
        }
        let open = passable.clone() & !taken.clone();
        let plain = PlainGrid::new(&passable);
        let plain_sources: Vec<Vec<u32>> = cells
            .iter()
            .map(|&(x, y)| vec![plain.index(x, y)])
            .collect();
        // One plane per player for the plane-per-player API: only while the planes fit
        // comfortably in memory and time.
        let planes: Vec<BitGrid> = if players <= 91 {
            cells
                .iter()
                .map(|&(x, y)| {
                    let mut g = passable.empty_like();
                    g.set(x, y);
                    g
                })
                .collect()
        } else {
            Vec::new()
        };
        let owner_sources: Vec<[(usize, usize); 1]> = cells.iter().map(|&c| [c]).collect();
        let mut wl = bench
            .workload(&name, "owners")
            .warm_up()
            .case("owners", 1, || {
                let o = voronoi_owners(&owner_sources, &passable, Moves::Four, None);
                o.counts().iter().sum::<u64>() + o.contested()
            })
            .case("distance", 1, || {
                let d = distance_map(&taken, &open, Moves::Four, None);
                d.max().unwrap_or(0) as u64
            })
            .case("owners+distances", 1, || {
                let o = voronoi_owners_with_distances(&owner_sources, &passable, Moves::Four, None);
                o.counts().iter().sum::<u64>() + o.contested()
            })
            .case("plain", 1, || {
                let (counts, contested) = plain_voronoi(&plain, &plain_sources);
                counts.iter().sum::<u64>() + contested
            });
        if !planes.is_empty() {
            wl = wl.case("bitgrid", 1, || {
                let v = voronoi(&planes, &open, Moves::Four, None);
                v.counts().iter().sum()
            });
        }
        wl.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridbits::algo::voronoi::voronoi;

    /// The plain BFS, fill and Voronoi agree with the library on every shape.
    #[test]
    fn baselines_agree_with_the_library() {
        let mut rng = SplitMix::new(11);
        for size in [1usize, 2, 7, 64, 65] {
            let mut grids = vec![
                maze(&mut rng, size.div_ceil(2) * 2, size.div_ceil(2) * 2),
                serpentine(size, size),
                open_room(size),
            ];
            for d in [0.5, 0.7] {
                grids.push(gridbits_testkit::random_grid(&mut rng, size, size, d));
            }
            for g in grids {
                let plain = PlainGrid::new(&g);
                let (w, h) = (g.width(), g.height());
                let start = middle_cell(&g);
                let mut seed = g.empty_like();
                seed.set(start.0, start.1);
                let want = distance_map(&seed, &g, Moves::Four, None);
                let got = plain_bfs(&plain, &[plain.index(start.0, start.1)]);
                for y in 0..h {
                    for x in 0..w {
                        let d = got[plain.index(x, y) as usize];
                        assert_eq!(want.get(x, y), (d != u32::MAX).then_some(d), "{x},{y}");
                    }
                }
                let filled = fill(&seed, &g, Connectivity::Four).count();
                assert_eq!(plain_fill(&plain, plain.index(start.0, start.1)), filled);
                // Three players on free cells; the rest of the grid open.
                let cells: Vec<(usize, usize)> = g.iter().step_by(5).take(3).collect();
                let mut taken = g.empty_like();
                let planes: Vec<BitGrid> = cells
                    .iter()
                    .map(|&(x, y)| {
                        taken.set(x, y);
                        let mut p = g.empty_like();
                        p.set(x, y);
                        p
                    })
                    .collect();
                let open = g.clone() & !taken;
                let v = voronoi(&planes, &open, Moves::Four, None);
                let srcs: Vec<Vec<u32>> = cells
                    .iter()
                    .map(|&(x, y)| vec![plain.index(x, y)])
                    .collect();
                let (counts, contested) = plain_voronoi(&plain, &srcs);
                assert_eq!(counts, v.counts());
                let players: Vec<[(usize, usize); 1]> = cells.iter().map(|&c| [c]).collect();
                let o = voronoi_owners(&players, &g, Moves::Four, None);
                assert_eq!((o.counts(), o.contested()), (&counts[..], contested));
            }
        }
    }
}
