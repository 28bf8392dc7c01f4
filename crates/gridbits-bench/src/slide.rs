//! Bench workloads of the `slide` topic: queen reach with every fill method, and the Amazons
//! evaluator.

use crate::Bench;
use gridbits::algo::slide::{reach_with, Method};
use gridbits::games::amazons::Position;
use gridbits::naive::{self, NaiveGrid};
use gridbits::{Board, Board10x10, Moves};
use gridbits_testkit::{random_boards, random_grid, SplitMix};
use std::hint::black_box;

/// The methods timed for queen reach, with their row names.
const METHODS: [(&str, Method); 6] = [
    ("auto", Method::Auto),
    ("dumb7", Method::Dumb7),
    ("gallop", Method::Gallop),
    ("kogge-stone", Method::KoggeStone),
    ("subtract", Method::Subtract),
    ("sweep", Method::Sweep),
];

/// Queen reach of random pieces (5%) through random walls on a fixed board, every method.
fn queen_fixed<const W: usize, const H: usize, const N: usize>(
    bench: &mut Bench,
    rng: &mut SplitMix,
    wall_pct: u32,
    batch: usize,
) {
    let walls = random_boards::<W, H, N>(rng, batch, wall_pct as f64 / 100.0);
    let pieces: Vec<Board<W, H, N>> = random_boards::<W, H, N>(rng, batch, 0.05)
        .into_iter()
        .zip(&walls)
        .map(|(p, w)| p.and_not(*w))
        .collect();
    let free: Vec<Board<W, H, N>> = walls.iter().zip(&pieces).map(|(w, p)| !(*w | *p)).collect();
    let naive: Vec<(NaiveGrid, NaiveGrid)> = pieces
        .iter()
        .zip(&free)
        .take(16)
        .map(|(p, f)| (NaiveGrid::from_view(p), NaiveGrid::from_view(f)))
        .collect();
    let name = format!("queen reach {W}x{H} board {wall_pct}% walls");
    let mut wl = bench.workload(&name, "auto");
    for (label, m) in METHODS {
        if m == Method::Sweep {
            continue; // the same code as the subtraction on fixed boards
        }
        let (pieces, free) = (&pieces, &free);
        let f = move || {
            let mut acc = 0u64;
            for (p, f) in pieces.iter().zip(free) {
                acc += reach_with(black_box(p), f, Moves::Queen, m).count() as u64;
            }
            acc
        };
        wl = if m == Method::Auto {
            wl.case(label, batch as u64, f)
        } else {
            wl.alternative(label, batch as u64, f)
        };
    }
    let n = naive.len() as u64;
    wl.case("naive", n, || {
        naive
            .iter()
            .map(|(p, f)| naive::slide::reach(p, f, Moves::Queen).count())
            .sum()
    })
    .finish();
}

/// Queen reach on a runtime grid, every method.
fn queen_grid(bench: &mut Bench, rng: &mut SplitMix, w: usize, h: usize, wall_pct: u32) {
    let walls = random_grid(rng, w, h, wall_pct as f64 / 100.0);
    let mut pieces = random_grid(rng, w, h, 0.05);
    pieces.and_not_assign(&walls);
    let mut free = walls.clone();
    free.or_assign(&pieces);
    free.complement_assign();
    let (np, nf) = (NaiveGrid::from_view(&pieces), NaiveGrid::from_view(&free));
    let name = format!("queen reach {w}x{h} bitgrid {wall_pct}% walls");
    let mut wl = bench.workload(&name, "auto");
    for (label, m) in METHODS {
        let (pieces, free) = (&pieces, &free);
        let f = move || reach_with(black_box(pieces), free, Moves::Queen, m).count();
        wl = if m == Method::Auto {
            wl.case(label, 1, f)
        } else {
            wl.alternative(label, 1, f)
        };
    }
    wl.case("naive", 1, || {
        naive::slide::reach(&np, &nf, Moves::Queen).count()
    })
    .finish();
}

/// Random Amazons positions: 4 + 4 amazons, arrows at a density from 0 to 60%.
pub fn amazons_positions(rng: &mut SplitMix, count: usize) -> Vec<Position> {
    (0..count)
        .map(|i| {
            let density = 0.6 * i as f64 / count.max(2) as f64;
            let arrows = Board10x10::from_fn(|_, _| rng.chance(density));
            let mut free = !arrows;
            let mut pick = |rng: &mut SplitMix| {
                let mut side = Board10x10::EMPTY;
                while side.count() < 4 && !free.is_empty() {
                    let (x, y) = (
                        (rng.next_u64() % 10) as usize,
                        (rng.next_u64() % 10) as usize,
                    );
                    if free.get(x, y) {
                        side.set(x, y);
                        free.clear(x, y);
                    }
                }
                side
            };
            let white = pick(rng);
            let black = pick(rng);
            Position::try_new(white, black, arrows).unwrap_or_default()
        })
        .collect()
}

/// The "straightforward" u128 Kogge-Stone evaluator taken as the anchor (about
/// 220 ns): per side and metric, a frontier BFS whose queen step runs a full Kogge-Stone fill
/// (propagator doubled inside every call) in all 8 directions; territory from the layers.
mod plain {
    const S: i32 = 11;
    const DIRS: [i32; 8] = [1, -1, S, -S, S - 1, 1 - S, S + 1, -S - 1];

    fn sh(x: u128, d: i32) -> u128 {
        if d > 0 {
            x << d
        } else {
            x >> -d
        }
    }

    fn queen(f: u128, e: u128) -> u128 {
        let mut out = 0;
        for d in DIRS {
            let (mut g, mut p) = (f, e);
            for k in [1, 2, 4, 8] {
                g |= p & sh(g, k * d);
                p &= sh(p, k * d);
            }
            out |= sh(g, d) & e;
        }
        out
    }

    fn king(f: u128, e: u128) -> u128 {
        let h = f | f << 1 | f >> 1;
        (h | h << S | h >> S) & e
    }

    /// Layers of one side's BFS, as (layers, count).
    fn bfs(start: u128, e: u128, step: fn(u128, u128) -> u128) -> ([u128; 64], usize) {
        let mut layers = [0u128; 64];
        let (mut visited, mut front, mut n) = (start, start, 0);
        while front != 0 && n < 64 {
            layers[n] = front;
            n += 1;
            front = step(front, e) & !visited;
            visited |= front;
        }
        (layers, n)
    }

    fn territory(w: u128, b: u128, e: u128, step: fn(u128, u128) -> u128) -> [u32; 4] {
        let (lw, nw) = bfs(w, e, step);
        let (lb, nb) = bfs(b, e, step);
        let (mut own_w, mut own_b, mut both) = (0u128, 0u128, 0u128);
        let (mut seen_w, mut seen_b) = (0u128, 0u128);
        for d in 1..nw.max(nb) {
            let (a, b) = (lw[d] * (d < nw) as u128, lb[d] * (d < nb) as u128);
            own_w |= a & !b & !seen_b;
            own_b |= b & !a & !seen_w;
            both |= a & b;
            seen_w |= a;
            seen_b |= b;
        }
        let reached = (seen_w | seen_b) & e;
        [
            own_w.count_ones(),
            own_b.count_ones(),
            both.count_ones(),
            (e & !reached).count_ones(),
        ]
    }

    /// Queen and king territory counts.
    pub fn evaluate(w: u128, b: u128, e: u128) -> [u32; 8] {
        let q = territory(w, b, e, queen);
        let k = territory(w, b, e, king);
        [q[0], q[1], q[2], q[3], k[0], k[1], k[2], k[3]]
    }
}

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    for wall_pct in [10, 40] {
        queen_fixed::<10, 10, 2>(bench, rng, wall_pct, 256);
    }
    for wall_pct in [10, 40] {
        queen_grid(bench, rng, 64, 64, wall_pct);
    }
    for wall_pct in [10, 40] {
        queen_fixed::<64, 64, 64>(bench, rng, wall_pct, 8);
    }
    // Boards whose longest ray is 7 and 18 cells, around the cost model's thresholds
    // (`auto_board_method`), drawn from a generator of their own so that the rows above and
    // below keep their inputs.
    let mut sizes = SplitMix::new(0x5117_0008);
    for wall_pct in [10, 40] {
        queen_fixed::<8, 8, 1>(bench, &mut sizes, wall_pct, 256);
    }
    for wall_pct in [10, 40] {
        queen_fixed::<19, 19, 6>(bench, &mut sizes, wall_pct, 64);
    }
    for wall_pct in [10, 40] {
        queen_fixed::<30, 20, 10>(bench, &mut sizes, wall_pct, 64);
    }
    for wall_pct in [10, 40] {
        queen_fixed::<32, 32, 17>(bench, &mut sizes, wall_pct, 32);
    }

    const BATCH: usize = 512;
    let positions = amazons_positions(rng, BATCH);
    let raw: Vec<(u128, u128, u128)> = positions
        .iter()
        .map(|p| {
            (
                p.white().to_u128(),
                p.black().to_u128(),
                p.empty().to_u128(),
            )
        })
        .collect();
    let naive: Vec<(NaiveGrid, NaiveGrid, NaiveGrid)> = positions
        .iter()
        .step_by(BATCH / 32)
        .map(|p| {
            (
                NaiveGrid::from_view(&p.white()),
                NaiveGrid::from_view(&p.black()),
                NaiveGrid::from_view(&p.arrows()),
            )
        })
        .collect();
    bench
        .workload("amazons queen+king territory 10x10", "gridbits")
        .case("gridbits", BATCH as u64, || {
            let mut acc = 0u64;
            for p in &positions {
                let e = black_box(p).evaluate();
                acc += (e.queen.white + 3 * e.queen.contested + 7 * e.king.black) as u64;
            }
            acc
        })
        .case("plain-u128-ks", BATCH as u64, || {
            let mut acc = 0u64;
            for &(w, b, e) in &raw {
                let t = plain::evaluate(black_box(w), b, e);
                acc += (t[0] + 3 * t[2] + 7 * t[5]) as u64;
            }
            acc
        })
        .case("naive", naive.len() as u64, || {
            let mut acc = 0u64;
            for (w, b, a) in &naive {
                let e = naive::amazons::evaluate(w, b, a);
                acc += (e.queen.white + 3 * e.queen.contested + 7 * e.king.black) as u64;
            }
            acc
        })
        .finish();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_baseline_agrees_with_the_evaluator() {
        let mut rng = SplitMix::new(7);
        for p in amazons_positions(&mut rng, 200) {
            let e = p.evaluate();
            let t = plain::evaluate(
                p.white().to_u128(),
                p.black().to_u128(),
                p.empty().to_u128(),
            );
            let q = [
                e.queen.white,
                e.queen.black,
                e.queen.contested,
                e.queen.unreachable,
            ];
            let k = [
                e.king.white,
                e.king.black,
                e.king.contested,
                e.king.unreachable,
            ];
            assert_eq!(t[..4], q, "{p}");
            assert_eq!(t[4..], k, "{p}");
        }
    }

    #[test]
    fn positions_have_four_amazons_a_side() {
        let mut rng = SplitMix::new(8);
        for p in amazons_positions(&mut rng, 64) {
            assert_eq!((p.white().count(), p.black().count()), (4, 4));
        }
    }
}
