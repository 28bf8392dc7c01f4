//! Bench workloads of flood fill, BFS and Voronoi, with the code of "BFS and Voronoi diagrams
//! using bit-shift operations" as a baseline.

use crate::Bench;
use gridbits::algo::distance::{connections_from_walls, Wall};
use gridbits::algo::fill::{fill_dilate, fill_runs, fill_sweep};
use gridbits::algo::voronoi::voronoi_n;
use gridbits::naive::{fill as nf, NaiveGrid};
use gridbits::{BitBoard, Board, Board30x20, Board9x9, Connectivity, Dir, Moves};
use gridbits_testkit::{maze, random_grid, SplitMix};
use std::hint::black_box;

/// Positions per timed call for the small-board workloads.
const BATCH: usize = 64;

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    great_escape(bench, rng);
    tron(bench, rng);
    amazonial(bench, rng);
    fills(bench, rng);
}

/// A random free cell of `free` (which must have one).
fn random_cell<B: BitBoard>(rng: &mut SplitMix, free: &B) -> (usize, usize) {
    let cells = free.cells();
    cells[(rng.next_u64() % cells.len() as u64) as usize]
}

/// The Great Escape: 9x9, two players, 4-moves, 10 random walls of length 2 between cells.
fn great_escape(bench: &mut Bench, rng: &mut SplitMix) {
    let mut cases = Vec::new();
    for _ in 0..BATCH {
        let mut walls = Vec::new();
        for _ in 0..10 {
            let (x, y) = ((rng.next_u64() % 8) as usize, (rng.next_u64() % 8) as usize);
            if rng.chance(0.5) {
                walls.push(Wall { x, y, dir: Dir::E });
                walls.push(Wall {
                    x,
                    y: y + 1,
                    dir: Dir::E,
                });
            } else {
                walls.push(Wall { x, y, dir: Dir::S });
                walls.push(Wall {
                    x: x + 1,
                    y,
                    dir: Dir::S,
                });
            }
        }
        let con = connections_from_walls(&Board9x9::EMPTY, &walls);
        let ncon: nf::NaiveConnections = std::array::from_fn(|i| NaiveGrid::from_view(&con[i]));
        let p = [Board9x9::cell(0, 4), Board9x9::cell(8, 4)];
        let np = [NaiveGrid::from_view(&p[0]), NaiveGrid::from_view(&p[1])];
        cases.push((p, con, np, ncon));
    }
    let full = Board9x9::FULL;
    let nfull = NaiveGrid::from_view(&full);
    bench
        .workload("voronoi great-escape 9x9 2p walls", "board")
        .case("board", BATCH as u64, || {
            let mut acc = 0;
            for (p, con, _, _) in &cases {
                let v = voronoi_n(black_box(p), &full, Moves::Four, Some(con));
                acc += v.owned[0].count() as u64 * 100 + v.owned[1].count() as u64;
            }
            acc
        })
        .case("naive", BATCH as u64, || {
            let mut acc = 0;
            for (_, _, np, ncon) in &cases {
                let v = nf::voronoi(np, &nfull, Moves::Four, Some(ncon));
                acc += v.owned[0].count() * 100 + v.owned[1].count();
            }
            acc
        })
        .finish();
}

/// A tight multi-source queue BFS Voronoi as a Tron bot writes it: flat arrays reused across
/// calls, one queue for all players, owner per cell (`CONTESTED` on ties). Returns the cells
/// owned by each of up to 4 players.
struct QueueVoronoi {
    w: usize,
    dist: Vec<u16>,
    owner: Vec<u8>,
    queue: Vec<u16>,
}

impl QueueVoronoi {
    const CONTESTED: u8 = 0xfe;
    const NONE: u8 = 0xff;

    fn new(w: usize, h: usize) -> Self {
        QueueVoronoi {
            w,
            dist: vec![0; w * h],
            owner: vec![0; w * h],
            queue: Vec::with_capacity(w * h),
        }
    }

    #[inline(never)]
    fn run(&mut self, free: &[bool], sources: &[usize]) -> [u32; 4] {
        let (w, n) = (self.w, free.len());
        self.owner.fill(Self::NONE);
        self.dist.fill(u16::MAX);
        self.queue.clear();
        for (p, &s) in sources.iter().enumerate() {
            self.owner[s] = p as u8;
            self.dist[s] = 0;
            self.queue.push(s as u16);
        }
        let mut head = 0;
        while head < self.queue.len() {
            let c = self.queue[head] as usize;
            head += 1;
            let (d, o) = (self.dist[c] + 1, self.owner[c]);
            let x = c % w;
            let ns = [
                (x > 0).then(|| c - 1),
                (x + 1 < w).then(|| c + 1),
                c.checked_sub(w),
                (c + w < n).then_some(c + w),
            ];
            for nb in ns.into_iter().flatten() {
                if !free[nb] {
                    continue;
                }
                if self.dist[nb] == u16::MAX {
                    self.dist[nb] = d;
                    self.owner[nb] = o;
                    self.queue.push(nb as u16);
                } else if self.dist[nb] == d && self.owner[nb] != o {
                    self.owner[nb] = Self::CONTESTED;
                }
            }
        }
        let mut counts = [0u32; 4];
        for &o in &self.owner {
            if (o as usize) < 4 {
                counts[o as usize] += 1;
            }
        }
        counts
    }
}

/// Tron (CodinGame): 30x20, 4 players, 20% random walls, 4-moves.
fn tron(bench: &mut Bench, rng: &mut SplitMix) {
    let mut cases = Vec::new();
    for _ in 0..BATCH {
        let walls = Board30x20::from_fn(|_, _| rng.chance(0.2));
        let mut free = !walls;
        let mut players = [Board30x20::EMPTY; 4];
        for p in &mut players {
            let (x, y) = random_cell(rng, &free);
            free.clear(x, y);
            *p = Board30x20::cell(x, y);
        }
        let free = !walls;
        let np: Vec<NaiveGrid> = players.iter().map(NaiveGrid::from_view).collect();
        let nfree = NaiveGrid::from_view(&free);
        cases.push((players, free, np, nfree));
    }
    let flat: Vec<(Vec<bool>, Vec<usize>)> = cases
        .iter()
        .map(|(p, free, _, _)| {
            let f = (0..600).map(|i| free.get(i % 30, i / 30)).collect();
            let s = p
                .iter()
                .filter_map(|b| b.lowest())
                .map(|(x, y)| y * 30 + x)
                .collect();
            (f, s)
        })
        .collect();
    let mut queue = QueueVoronoi::new(30, 20);
    bench
        .workload("voronoi tron 30x20 4p", "board")
        .case("board", BATCH as u64, || {
            let mut acc = 0;
            for (p, free, _, _) in &cases {
                let v = voronoi_n(black_box(p), free, Moves::Four, None);
                acc += v.owned.iter().map(|o| o.count() as u64).sum::<u64>()
                    + v.contested.count() as u64;
            }
            acc
        })
        .case("queue-bfs", BATCH as u64, || {
            let mut acc = 0;
            for (free, sources) in &flat {
                acc += queue
                    .run(free, sources)
                    .iter()
                    .map(|&c| c as u64)
                    .sum::<u64>();
            }
            acc
        })
        .case("naive", BATCH as u64, || {
            let mut acc = 0;
            for (_, _, np, nfree) in &cases {
                let v = nf::voronoi(np, nfree, Moves::Four, None);
                acc += v.owned.iter().map(NaiveGrid::count).sum::<u64>() + v.contested.count();
            }
            acc
        })
        .finish();
}

/// The Amazonial Voronoi of "BFS and Voronoi diagrams using bit-shift operations", written as
/// in the article (u64, 8x8, two fronts, cells reached first by one side only are that
/// side's), with per-direction edge masks where the article's single connection mask would
/// let shifts wrap, and a real popcount.
#[inline(never)]
fn article_voronoi_8x8(mut cur1: u64, mut cur2: u64, free: u64) -> (u32, u32) {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe; // x != 0
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f; // x != 7
    let step = |c: u64| {
        (c >> 8)
            | (c << 8)
            | ((c << 1 | c >> 7 | c << 9) & NOT_A)
            | ((c >> 1 | c << 7 | c >> 9) & NOT_H)
    };
    let mut mine = cur1;
    let mut theirs = cur2;
    let mut visited = cur1 | cur2;
    while cur1 != 0 || cur2 != 0 {
        cur1 = step(cur1) & free & !visited;
        cur2 = step(cur2) & free & !visited;
        mine |= cur1 & !cur2;
        theirs |= cur2 & !cur1;
        visited |= cur1 | cur2;
    }
    (mine.count_ones(), theirs.count_ones())
}

/// Amazonial: 8x8, two players with two units each, 8-moves, 20% blocked cells.
fn amazonial(bench: &mut Bench, rng: &mut SplitMix) {
    type B = Board<8, 8, 1>;
    let mut cases = Vec::new();
    for _ in 0..BATCH {
        let walls = B::from_fn(|_, _| rng.chance(0.2));
        let mut free = !walls;
        let mut sides = [B::EMPTY; 2];
        for side in &mut sides {
            for _ in 0..2 {
                let (x, y) = random_cell(rng, &free);
                free.clear(x, y);
                side.set(x, y);
            }
        }
        let np = [
            NaiveGrid::from_view(&sides[0]),
            NaiveGrid::from_view(&sides[1]),
        ];
        cases.push((sides, free, np, NaiveGrid::from_view(&free)));
    }
    bench
        .workload("voronoi amazonial 8x8 2p 8-conn", "board")
        .case("board", BATCH as u64, || {
            let mut acc = 0;
            for (s, free, _, _) in &cases {
                let v = voronoi_n(black_box(s), free, Moves::Eight, None);
                acc += v.owned[0].count() as u64 * 100 + v.owned[1].count() as u64;
            }
            acc
        })
        .case("article-u64", BATCH as u64, || {
            let mut acc = 0;
            for (s, free, _, _) in &cases {
                // The board's 8x8 layout is the article's: one u64, no guard column.
                let (a, b) = article_voronoi_8x8(s[0].words()[0], s[1].words()[0], free.words()[0]);
                acc += a as u64 * 100 + b as u64;
            }
            acc
        })
        .case("naive", BATCH as u64, || {
            let mut acc = 0;
            for (_, _, np, nfree) in &cases {
                let v = nf::voronoi(np, nfree, Moves::Eight, None);
                acc += v.owned[0].count() * 100 + v.owned[1].count();
            }
            acc
        })
        .finish();
}

/// Flood fill from `start` with the `pathfinding` crate's `bfs_reach` (4-connected), as a
/// user of that crate would write it: the number of reachable cells.
#[cfg(feature = "peers")]
pub(super) fn pathfinding_fill(passable: &gridbits::BitGrid, start: (usize, usize)) -> u64 {
    let (w, h) = (passable.width(), passable.height());
    pathfinding::directed::bfs::bfs_reach(start, |&(x, y)| {
        let n = [
            (x.wrapping_sub(1), y),
            (x + 1, y),
            (x, y.wrapping_sub(1)),
            (x, y + 1),
        ];
        n.into_iter()
            .filter(move |&(nx, ny)| nx < w && ny < h && passable.get(nx, ny))
    })
    .count() as u64
}

/// Fill engines side by side (row sweeps, run lists, dilation to a fixpoint) on 256x256 and
/// 1024x1024 mazes and noise; the large-grid rows against the plain fill are in `grids`.
fn fills(bench: &mut Bench, rng: &mut SplitMix) {
    for (kind, size) in [
        ("maze", 256),
        ("noise", 256),
        ("maze", 1024),
        ("noise", 1024),
    ] {
        let name = format!("fill engines {kind} {size}x{size}");
        if !bench.wants(&name) {
            continue;
        }
        let passable = if kind == "maze" {
            // A perfect maze on the 2x lattice (the last row and column stay walls).
            maze(rng, size / 2 * 2, size / 2 * 2)
        } else {
            random_grid(rng, size, size, 0.65)
        };
        // Start in the middle, on a passable cell.
        let start = passable
            .iter()
            .find(|&(x, y)| y >= size / 2 && x >= size / 2)
            .unwrap_or((0, 0));
        let mut seed = passable.empty_like();
        seed.set(start.0, start.1);
        let np = NaiveGrid::from_view(&passable);
        let ns = NaiveGrid::from_view(&seed);
        let w = bench
            .workload(&name, "sweep")
            .case("sweep", 1, || {
                fill_sweep(&seed, &passable, Connectivity::Four).count()
            })
            .case("runs", 1, || {
                fill_runs(&seed, &passable, Connectivity::Four).count()
            });
        // Dilation to a fixpoint needs one whole-grid pass per BFS layer: only where it ends.
        let w = if kind == "noise" || size <= 256 {
            w.case("dilate", 1, || {
                fill_dilate(&seed, &passable, Connectivity::Four).count()
            })
        } else {
            w
        };
        w.case("naive", 1, || {
            nf::fill(&ns, &np, Connectivity::Four).count()
        })
        .finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The queue-BFS baseline computes the same territories as the library.
    #[test]
    fn queue_baseline_agrees_with_voronoi() {
        let mut rng = SplitMix::new(7);
        let mut q = QueueVoronoi::new(30, 20);
        for _ in 0..200 {
            let walls = Board30x20::from_fn(|_, _| rng.chance(0.2));
            let mut free = !walls;
            let mut players = [Board30x20::EMPTY; 4];
            let mut idx = Vec::new();
            for p in &mut players {
                let (x, y) = random_cell(&mut rng, &free);
                free.clear(x, y);
                *p = Board30x20::cell(x, y);
                idx.push(y * 30 + x);
            }
            let free = !walls;
            let flat: Vec<bool> = (0..600).map(|i| free.get(i % 30, i / 30)).collect();
            let v = voronoi_n(&players, &free, Moves::Four, None);
            let want = v.owned.map(|o| o.count());
            assert_eq!(q.run(&flat, &idx), want);
        }
    }

    /// The article baseline agrees with the library on 8x8 boards.
    #[test]
    fn article_baseline_agrees_with_voronoi() {
        type B = Board<8, 8, 1>;
        let mut rng = SplitMix::new(9);
        for _ in 0..500 {
            let free = B::from_fn(|_, _| rng.chance(0.8));
            let a = B::from_fn(|_, _| rng.chance(0.05)) & free;
            let b = B::from_fn(|_, _| rng.chance(0.05)) & free & !a;
            let v = voronoi_n(&[a, b], &(free & !a & !b), Moves::Eight, None);
            let got = article_voronoi_8x8(a.words()[0], b.words()[0], (free & !a & !b).words()[0]);
            assert_eq!(got, (v.owned[0].count(), v.owned[1].count()));
        }
    }
}
