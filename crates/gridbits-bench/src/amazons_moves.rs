//! Bench workloads of the `amazons_moves` topic: Amazons move generation, perft(1) and
//! perft(2) from the start, and move counting on random positions, each against listing, a
//! per-target popcount, the slide kernels and the per-cell oracle.

use crate::slide::amazons_positions;
use crate::Bench;
use gridbits::algo::slide::{reach_with, Method};
use gridbits::games::amazons::{Position, Side};
use gridbits::naive::{amazons_moves, NaiveGrid};
use gridbits::{Board10x10, Moves};
use gridbits_testkit::SplitMix;
use std::hint::black_box;

/// The naive grids of a position: (mover's amazons, waiting amazons, empty cells).
fn naive_of(p: &Position, side: Side) -> (NaiveGrid, NaiveGrid, NaiveGrid) {
    (
        NaiveGrid::from_view(&p.amazons(side)),
        NaiveGrid::from_view(&p.amazons(side.opponent())),
        NaiveGrid::from_view(&p.empty()),
    )
}

/// Counting by listing: every move visited through the callback.
fn count_listing(p: &Position, side: Side) -> u64 {
    let mut n = 0u64;
    p.for_each_move(side, |_| n += 1);
    n
}

/// The plain bit-parallel count: for every amazon and target, the popcount of the arrow reach
/// (the queen reach of the target with the amazon's square vacated), through the public API.
fn count_per_target(p: &Position, side: Side) -> u64 {
    let mut n = 0u64;
    for (fx, fy) in p.amazons(side) {
        for (tx, ty) in p.moves_from(fx, fy) {
            n += u64::from(p.arrow_targets((fx, fy), (tx, ty)).count());
        }
    }
    n
}

/// The same per-target popcount with the queen reach of the `algo::slide` kernels
/// (`Method::Auto` on the 10x10 board) instead of the ray tables.
fn count_slide_kernels(p: &Position, side: Side) -> u64 {
    let empty = p.empty();
    let mut n = 0u64;
    for (fx, fy) in p.amazons(side) {
        let from = Board10x10::cell(fx, fy);
        let targets = reach_with(&from, &empty, Moves::Queen, Method::Auto);
        let vacated = empty | from;
        for (tx, ty) in targets {
            let to = Board10x10::cell(tx, ty);
            let pass = vacated.and_not(to);
            n += u64::from(reach_with(&to, &pass, Moves::Queen, Method::Auto).count());
        }
    }
    n
}

/// Perft(2) by listing the first ply and counting each child with the per-target popcount.
fn perft2_per_target(p: &Position, side: Side) -> u64 {
    let mut n = 0u64;
    p.for_each_move(side, |m| {
        n += count_per_target(&p.play(side, m), side.opponent());
    });
    n
}

/// Registers the workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    let start = Position::start();
    let (own, other, empty) = naive_of(&start, Side::White);
    bench
        .workload("amazons perft(1) start", "count")
        .case("count", 1, || black_box(&start).perft(Side::White, 1))
        .case("list", 1, || count_listing(black_box(&start), Side::White))
        .case("per-target", 1, || {
            count_per_target(black_box(&start), Side::White)
        })
        .case("slide-kernels", 1, || {
            count_slide_kernels(black_box(&start), Side::White)
        })
        .case("naive", 1, || amazons_moves::count(black_box(&own), &empty))
        .finish();
    bench
        .workload("amazons perft(2) start", "count")
        .case("count", 1, || black_box(&start).perft(Side::White, 2))
        .case("per-target", 1, || {
            perft2_per_target(black_box(&start), Side::White)
        })
        .case("naive", 1, || {
            amazons_moves::perft(black_box(&own), &other, &empty, 2)
        })
        .finish();

    const BATCH: usize = 256;
    let positions = amazons_positions(rng, BATCH);
    let naive: Vec<_> = positions
        .iter()
        .step_by(BATCH / 32)
        .map(|p| naive_of(p, Side::White))
        .collect();
    let mut wl = bench.workload("amazons move count random 10x10", "count");
    type Counter = fn(&Position, Side) -> u64;
    let counters: [(&str, Counter); 4] = [
        ("count", |p, s| p.count_moves(s)),
        ("list", count_listing),
        ("list-vec", |p, s| p.moves(s).len() as u64),
        ("per-target", count_per_target),
    ];
    for (name, f) in counters {
        let positions = &positions;
        wl = wl.case(name, BATCH as u64, move || {
            positions.iter().map(|p| f(black_box(p), Side::White)).sum()
        });
    }
    wl.case("naive", naive.len() as u64, || {
        naive
            .iter()
            .map(|(own, _, empty)| amazons_moves::count(black_box(own), empty))
            .sum()
    })
    .finish();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_counter_agrees() {
        let mut rng = SplitMix::new(9);
        let mut positions = amazons_positions(&mut rng, 64);
        positions.push(Position::start());
        for p in positions {
            for side in [Side::White, Side::Black] {
                let n = p.count_moves(side);
                assert_eq!(count_listing(&p, side), n, "{p}");
                assert_eq!(count_per_target(&p, side), n, "{p}");
                assert_eq!(count_slide_kernels(&p, side), n, "{p}");
            }
        }
        let p = Position::start();
        assert_eq!(perft2_per_target(&p, Side::White), 4_307_152);
    }
}
