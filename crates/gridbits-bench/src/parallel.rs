//! Bench workloads of the `parallel` topic: the same call on a pool of 1 thread and on a pool
//! of 2 threads, built once each (`gridbits::parallel::Pool`), samples interleaved. The
//! ratio `2-threads` over `1-thread` is the speed-up of the second core.
//!
//! - 4096x4096 labelling, noise at 30/50/70%, 4- and 8-connected, in ns per pixel: the
//!   label image written into a reused image (on one thread the one-thread labeller; on two,
//!   stripes labelled in parallel, merged and renumbered to the same image); and the
//!   statistics without an image on 50% noise.
//! - The word-frontier BFS, in ns per cell: distance maps of 4096x4096 noise and the owners
//!   of 30 players on 2000x1500 (on two threads, the second writes distances and owners).
//! - Batches of small boards, in ns per board: Puyo chains (`simulate_many`, random 6x12
//!   Smash the Code fields), components of 6x12 planes (`count_components_many`), Amazons
//!   evaluations (`evaluate_many`); with a plain sequential loop as a third case (the cost
//!   of the batch machinery on one thread).
//!
//! Without the `parallel` feature both pools run on the calling thread.

use crate::Bench;
use gridbits::algo::components::{components, count_components_many};
use gridbits::algo::distance::distance_map;
use gridbits::algo::label::{ComponentStats, Labeller, Labels};
use gridbits::algo::voronoi::voronoi_owners;
use gridbits::games::amazons::{evaluate_many, Position};
use gridbits::games::puyo::{simulate_many, simulate_many_scores, Cell, Chain, Field, Rules};
use gridbits::parallel::Pool;
use gridbits::{BitGrid, Board10x10, Board6x12, Connectivity, Moves};
use gridbits_testkit::{random_boards, SplitMix};
use std::hint::black_box;

/// Side of the labelling images.
const SIDE: usize = 4096;
/// Pause before each sample, for the other pool's workers to go to sleep.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(5);
/// Boards per timed batch call.
const BATCH: usize = 16384;

/// Registers the workloads (nothing without two pools).
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    let (Ok(one), Ok(two)) = (Pool::try_new(1), Pool::try_new(2)) else {
        eprintln!("warning: no thread pool, parallel workloads skipped");
        return;
    };
    label_rows(bench, rng, &one, &two);
    bfs_rows(bench, rng, &one, &two);
    batch_rows(bench, rng, &one, &two);
}

/// The word-frontier BFS with its writer thread: distance maps of 4096x4096 grids with 30%
/// and 35% walls from one corner, and the owners of 30 players on 2000x1500 with 20% walls
/// (the grids of the `distance` and `voronoi` rows), in ns per cell.
fn bfs_rows(bench: &mut Bench, rng: &mut SplitMix, one: &Pool, two: &Pool) {
    for walls in [30u32, 35] {
        let name = format!("distance noise{walls} {SIDE}x{SIDE} threads (ns/cell)");
        if !bench.wants(&name) {
            continue;
        }
        let free = gridbits_testkit::random_grid(rng, SIDE, SIDE, 1.0 - f64::from(walls) / 100.0);
        let mut seed = free.empty_like();
        seed.set(0, 0);
        let free = free | seed.clone();
        let map = |pool: &Pool| {
            pool.install(|| {
                let d = distance_map(&seed, &free, Moves::Four, None);
                u64::from(d.max().unwrap_or(0))
            })
        };
        let cells = (SIDE * SIDE) as u64;
        bench
            .workload(&name, "2-threads")
            .settle(SETTLE)
            .case("2-threads", cells, || map(two))
            .alternative("1-thread", cells, || map(one))
            .finish();
    }
    let name = "voronoi owners 30 players 2000x1500 threads (ns/cell)";
    if bench.wants(name) {
        let (w, h) = (2000, 1500);
        let free = gridbits_testkit::random_grid(rng, w, h, 0.8);
        let players: Vec<[(usize, usize); 1]> = (0..30)
            .map(|_| {
                let x = (rng.next_u64() % w as u64) as usize;
                let y = (rng.next_u64() % h as u64) as usize;
                [(x, y)]
            })
            .collect();
        let owners = |pool: &Pool| {
            pool.install(|| {
                let o = voronoi_owners(&players, &free, Moves::Four, None);
                o.contested() + o.counts()[0]
            })
        };
        let cells = (w * h) as u64;
        bench
            .workload(name, "2-threads")
            .settle(SETTLE)
            .case("2-threads", cells, || owners(two))
            .alternative("1-thread", cells, || owners(one))
            .finish();
    }
}

fn label_rows(bench: &mut Bench, rng: &mut SplitMix, one: &Pool, two: &Pool) {
    let px = (SIDE * SIDE) as u64;
    for density in [30u32, 50, 70] {
        let names = [4, 8]
            .map(|c| format!("label {SIDE}x{SIDE} noise {density}% {c}-conn threads (ns/px)"));
        let summary = format!("stats {SIDE}x{SIDE} noise {density}% 8-conn threads (ns/px)");
        let wanted =
            names.iter().any(|n| bench.wants(n)) || (density == 50 && bench.wants(&summary));
        if !wanted {
            continue;
        }
        let g = gridbits_testkit::random_grid(rng, SIDE, SIDE, f64::from(density) / 100.0);
        for (name, conn) in names.iter().zip([Connectivity::Four, Connectivity::Eight]) {
            let (mut l1, mut l2) = (Labeller::new(), Labeller::new());
            let (mut i1, mut i2) = (Labels::new(), Labels::new());
            bench
                .workload(name, "2-threads")
                .settle(SETTLE)
                .case("2-threads", px, || {
                    two.install(|| label_once(&mut l2, &g, conn, &mut i2))
                })
                .alternative("1-thread", px, || {
                    one.install(|| label_once(&mut l1, &g, conn, &mut i1))
                })
                .finish();
        }
        if density == 50 {
            let (mut l1, mut l2) = (Labeller::new(), Labeller::new());
            let (mut s1, mut s2): (Vec<ComponentStats>, Vec<ComponentStats>) = (vec![], vec![]);
            let conn = Connectivity::Eight;
            bench
                .workload(&summary, "2-threads")
                .settle(SETTLE)
                .case("2-threads", px, || {
                    two.install(|| u64::from(l2.stats(&g, conn, &mut s2).unwrap_or(0)))
                })
                .alternative("1-thread", px, || {
                    one.install(|| u64::from(l1.stats(&g, conn, &mut s1).unwrap_or(0)))
                })
                .finish();
        }
    }
}

fn label_once(l: &mut Labeller, g: &BitGrid, conn: Connectivity, out: &mut Labels) -> u64 {
    u64::from(l.label(g, conn, out).unwrap_or(0)) + u64::from(out.as_slice()[SIDE * SIDE / 2])
}

/// A random settled Smash the Code field: random column heights, four colours.
fn random_field(rng: &mut SplitMix) -> Field {
    let mut f = Field::new(Rules::SmashTheCode);
    let rows = f.rows();
    for x in 0..6 {
        let h = (rng.next_u64() % (rows as u64 - 2)) as usize;
        for y in rows - h..rows {
            f.set(x, y, Cell::Color((rng.next_u64() % 4) as u8));
        }
    }
    f
}

fn random_position(rng: &mut SplitMix) -> Position {
    let arrows = Board10x10::from_fn(|_, _| rng.chance(0.3));
    let white = Board10x10::from_fn(|_, _| rng.chance(0.04)).and_not(arrows);
    let black = Board10x10::from_fn(|_, _| rng.chance(0.04))
        .and_not(arrows)
        .and_not(white);
    Position::try_new(white, black, arrows).unwrap_or_default()
}

fn batch_rows(bench: &mut Bench, rng: &mut SplitMix, one: &Pool, two: &Pool) {
    let n = BATCH as u64;
    let fields: Vec<Field> = (0..BATCH).map(|_| random_field(rng)).collect();
    bench
        .workload(
            &format!("puyo simulate_many {BATCH} fields threads (ns/field)"),
            "2-threads",
        )
        .settle(SETTLE)
        .case("2-threads", n, || {
            two.install(|| fold(simulate_many(&fields).iter().map(|c| c.score)))
        })
        .alternative("1-thread", n, || {
            one.install(|| fold(simulate_many(&fields).iter().map(|c| c.score)))
        })
        .case("loop", n, || {
            fold(fields.iter().map(|f| f.simulate().score))
        })
        .case("loop-collect", n, || {
            // What a user writes instead of `simulate_many`: every chain kept.
            let chains: Vec<Chain> = fields.iter().map(Field::simulate).collect();
            fold(chains.iter().map(|c| c.score))
        })
        .finish();
    bench
        .workload(
            &format!("puyo simulate_many {BATCH} fields vs simulate (ns/field)"),
            "simulate_many",
        )
        .settle(SETTLE)
        // Every case on the one-thread pool's thread: the row compares the cost per field,
        // and the pool's hand-over (a call waking its worker) comes with each case alike.
        // With the loops on the calling thread, `simulate_many` alone paid the wake-up,
        // which on a loaded machine waits for a core.
        .case("simulate_many", n, || {
            one.install(|| fold(simulate_many(&fields).iter().map(|c| c.score)))
        })
        .alternative("simulate-collect", n, || {
            one.install(|| {
                let chains: Vec<Chain> = fields.iter().map(Field::simulate).collect();
                fold(chains.iter().map(|c| c.score))
            })
        })
        .case("simulate", n, || {
            one.install(|| fold(fields.iter().map(|f| black_box(f.simulate()).score)))
        })
        .finish();
    bench
        .workload(
            &format!("puyo simulate_many_scores {BATCH} fields vs simulate (ns/field)"),
            "simulate_many_scores",
        )
        .settle(SETTLE)
        .case("simulate_many_scores", n, || {
            one.install(|| fold(simulate_many_scores(&fields).into_iter()))
        })
        .alternative("simulate-scores", n, || {
            // On the pool's thread, as in the row above.
            one.install(|| fold(fields.iter().map(|f| black_box(f.simulate()).score)))
        })
        .case("2-threads", n, || {
            two.install(|| fold(simulate_many_scores(&fields).into_iter()))
        })
        .finish();

    let planes: Vec<Board6x12> = random_boards(rng, BATCH, 0.4);
    let conn = Connectivity::Four;
    bench
        .workload(
            &format!("components_many {BATCH} 6x12 planes 40% threads (ns/board)"),
            "2-threads",
        )
        .settle(SETTLE)
        .case("2-threads", n, || {
            two.install(|| {
                fold(
                    count_components_many(&planes, conn)
                        .into_iter()
                        .map(u64::from),
                )
            })
        })
        .alternative("1-thread", n, || {
            one.install(|| {
                fold(
                    count_components_many(&planes, conn)
                        .into_iter()
                        .map(u64::from),
                )
            })
        })
        .case("loop", n, || {
            fold(planes.iter().map(|&p| components(p, conn).count() as u64))
        })
        .finish();

    let positions: Vec<Position> = (0..BATCH).map(|_| random_position(rng)).collect();
    let score = |e: &gridbits::games::amazons::Evaluation| {
        u64::from(e.queen.white) ^ (u64::from(e.king.black) << 8)
    };
    bench
        .workload(
            &format!("amazons evaluate_many {BATCH} positions threads (ns/position)"),
            "2-threads",
        )
        .settle(SETTLE)
        .case("2-threads", n, || {
            two.install(|| fold(evaluate_many(&positions).iter().map(score)))
        })
        .alternative("1-thread", n, || {
            one.install(|| fold(evaluate_many(&positions).iter().map(score)))
        })
        .case("loop", n, || {
            fold(positions.iter().map(|p| score(&p.evaluate())))
        })
        .finish();
}

/// Folds results into a checksum so that no work can be skipped.
fn fold(values: impl Iterator<Item = u64>) -> u64 {
    values.fold(0, |acc, v| acc.rotate_left(7) ^ v)
}
