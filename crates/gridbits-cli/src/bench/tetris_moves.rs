//! Bench workloads of the `tetris_moves` topic: every reachable placement of all seven pieces
//! (SRS kicks, T-spin kinds), the bit-parallel generator against the state-space BFS of
//! `naive::tetris_moves`, on an empty 10x40 matrix, a T-spin double slot, a DT-cannon shape
//! and a cave-ridden stack with overhangs.

use super::{Bench, Rng};
use gridbits::games::tetris::{Piece, Tetris};
use gridbits::naive::tetris::NaiveTetris;
use gridbits::naive::tetris_moves::naive_moves;
use std::hint::black_box;

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut Rng) {
    let tsd = ".....#....\n##...#....\n#...######\n##.#######\n";
    let dt = "##........\n#.........\n#.........\n###...####\n##...#####\n\
              ##.#######\n##..######\n##.#######\n";
    let mut cave = String::new();
    for y in 0..16 {
        for _ in 0..10 {
            let p = if y < 4 { 0.15 } else { 0.6 };
            cave.push(if rng.chance(p) { '#' } else { '.' });
        }
        cave.push('\n');
    }
    for (name, bottom) in [
        ("empty", ""),
        ("TSD slot", tsd),
        ("DT-cannon shape", dt),
        ("caves and overhangs", cave.as_str()),
    ] {
        one(bench, name, bottom);
    }
}

/// A 10x40 matrix: empty rows above `bottom` (text rows, top first).
fn matrix(bottom: &str) -> Tetris<10> {
    let rows = bottom.lines().count();
    let mut text = "..........\n".repeat(40 - rows);
    text.push_str(bottom);
    text.parse().unwrap_or_else(|e| panic!("bench board: {e}"))
}

fn one(bench: &mut Bench, name: &str, bottom: &str) {
    let t = matrix(bottom);
    let mut n = NaiveTetris::new(10, 40);
    for y in 0..40 {
        for x in 0..10 {
            n.lines.set(x, y, t.get(x, y));
        }
    }
    bench
        .workload(&format!("tetris moves 7 pieces 10x40 {name}"), "bitboard")
        .case("bitboard", 7, || {
            let t = black_box(&t);
            Piece::ALL.iter().map(|&p| t.moves(p).len() as u64).sum()
        })
        .case("state BFS", 7, || {
            let n = black_box(&n);
            Piece::ALL
                .iter()
                .map(|&p| naive_moves(n, p, false, None).len() as u64)
                .sum()
        })
        .finish();
}
