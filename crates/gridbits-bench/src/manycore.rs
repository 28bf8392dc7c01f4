//! Bench workloads of the `manycore` topic: distance maps of large grids on the default
//! thread pool and on pools of 1, 2, 4, 8 and 16 threads (`gridbits::parallel::Pool`, built
//! once each, samples interleaved), in ns per cell. The BFS goes on in row bands, one per
//! thread, once its frontier is wide (`algo/distance/bands/`).
//!
//! - 4096x4096 noise with 30% and 35% walls and a perfect maze, from one corner: the
//!   automatic case is the default pool (one thread per core, or `--threads`), the
//!   alternatives the pools of 1 and 2 threads. In a run whose `--filter` names the
//!   workload, the pools of 4, 8 and 16 threads too: on a machine with fewer cores they show
//!   what a barrier per layer costs when the threads outnumber the cores (minutes on a busy
//!   2-core machine), on a machine with 16 cores how the bands scale.
//! - The same at 16384x16384 (a second or more a call, 1 GiB of distances): only in a run
//!   whose `--filter` names them (`--filter 16384`).
//! - Voronoi owners (`voronoi_owners`, no distance map) of the 30% noise at both sizes, from
//!   4 players in the corners and from 64 players at random cells: the owners go on in row
//!   bands too once a frontier is wide; the pools as above.

use crate::Bench;
use gridbits::algo::distance::distance_map;
use gridbits::algo::voronoi::voronoi_owners;
use gridbits::parallel::Pool;
use gridbits::{BitGrid, Moves};
use gridbits_testkit::SplitMix;

/// Pause before each sample, for the other pools' workers to go to sleep.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(5);

/// Registers the workloads (nothing without the pools).
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    let Ok(pools) = [1, 2, 4, 8, 16]
        .map(Pool::try_new)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
    else {
        eprintln!("warning: no thread pool, manycore workloads skipped");
        return;
    };
    for side in [4096usize, 16384] {
        distances(bench, rng, &pools, side);
        owners(bench, rng, &pools, side);
    }
}

/// Whether a manycore workload runs (16384 ones only when named) and whether it is named
/// (then on the pools of 4 to 16 threads too).
fn wanted(bench: &Bench, name: &str, side: usize) -> (bool, bool) {
    let named = bench.named(name);
    (
        if side > 4096 {
            named
        } else {
            bench.wants(name)
        },
        named,
    )
}

/// The distance rows of one side.
fn distances(bench: &mut Bench, rng: &mut SplitMix, pools: &[Pool], side: usize) {
    {
        for shape in ["noise30", "noise35", "maze"] {
            let name = format!("distance bands {shape} {side}x{side} threads (ns/cell)");
            let (wanted, named) = wanted(bench, &name, side);
            if !wanted {
                continue;
            }
            let free = match shape {
                "noise30" => gridbits_testkit::random_grid(rng, side, side, 0.7),
                "noise35" => gridbits_testkit::random_grid(rng, side, side, 0.65),
                _ => gridbits_testkit::maze(rng, side + 1, side + 1),
            };
            let mut seed = free.empty_like();
            seed.set(0, 0);
            // The corner's 8x8 cells free: the source is not walled into a pocket.
            let mut corner = free.empty_like();
            for y in 0..8 {
                for x in 0..8 {
                    corner.set(x, y);
                }
            }
            let free: BitGrid = free | corner;
            let map = || {
                u64::from(
                    distance_map(&seed, &free, Moves::Four, None)
                        .max()
                        .unwrap_or(0),
                )
            };
            let cells = free.width() as u64 * free.height() as u64;
            by_pools(bench, &name, named, pools, cells, map);
        }
    }
}

/// The Voronoi rows of one side: 30% walls, 4 players in the corners or 64 at random cells.
fn owners(bench: &mut Bench, rng: &mut SplitMix, pools: &[Pool], side: usize) {
    for players in [4usize, 64] {
        let name =
            format!("voronoi bands noise30 {players} players {side}x{side} threads (ns/cell)");
        let (wanted, named) = wanted(bench, &name, side);
        if !wanted {
            continue;
        }
        let free = gridbits_testkit::random_grid(rng, side, side, 0.7);
        let last = side - 1;
        let cells: Vec<Vec<(usize, usize)>> = if players == 4 {
            [(0, 0), (last, 0), (0, last), (last, last)]
                .map(|c| vec![c])
                .to_vec()
        } else {
            (0..players)
                .map(|_| {
                    let k = rng.next_u64() as usize % (side * side);
                    vec![(k % side, k / side)]
                })
                .collect()
        };
        // Each source's 8x8 cells free: no player walled into a pocket.
        let mut open = free.empty_like();
        for &(x, y) in cells.iter().flatten() {
            for dy in 0..8 {
                for dx in 0..8 {
                    open.set((x + dx).min(last), (y + dy).min(last));
                }
            }
        }
        let free: BitGrid = free | open;
        let run = || voronoi_owners(&cells, &free, Moves::Four, None).contested();
        let count = free.width() as u64 * free.height() as u64;
        by_pools(bench, &name, named, pools, count, run);
    }
}

/// Times `run` (a call on `cells` cells) on the default pool (the automatic case) and, as
/// alternatives, on the pools of 1 and 2 threads, and when the workload is `named` on every
/// pool (4 to 16 threads: on few cores each layer waits for every thread to get a core).
fn by_pools<'a>(
    bench: &mut Bench,
    name: &str,
    named: bool,
    pools: &'a [Pool],
    cells: u64,
    run: impl Fn() -> u64 + Copy + Send + Sync + 'a,
) {
    let mut work = bench
        .workload(name, "auto")
        .settle(SETTLE)
        .case("auto", cells, run);
    for pool in pools.iter().filter(|p| named || p.threads() <= 2) {
        let label = match pool.threads() {
            1 => "1-thread".to_string(),
            threads => format!("{threads}-threads"),
        };
        work = work.alternative(&label, cells, move || pool.install(run));
    }
    work.finish();
}
