//! Bench workloads of the `tetris_moves` topic: every reachable placement of all seven pieces
//! (SRS kicks, T-spin kinds), the bit-parallel generator against two state-space searches:
//! the `HashMap` BFS of `naive::tetris_moves` (as bots write it) and a tight BFS over flat
//! arrays with the library's word-level collision test and kicks, on an empty 10x40 matrix, a
//! T-spin double slot, a DT-cannon shape and a cave-ridden stack with overhangs.

use crate::Bench;
use gridbits::games::tetris::{Piece, Placement, Rotation, Spin, Tetris, Turn};
use gridbits::naive::tetris::NaiveTetris;
use gridbits::naive::tetris_moves::naive_moves;
use gridbits_testkit::SplitMix;
use std::hint::black_box;

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
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

/// One board: each call generates the placements of all seven pieces (7 operations, so the
/// time shown is per piece).
fn one(bench: &mut Bench, name: &str, bottom: &str) {
    let t = matrix(bottom);
    let mut n = NaiveTetris::new(10, 40);
    for y in 0..40 {
        for x in 0..10 {
            n.lines.set(x, y, t.get(x, y));
        }
    }
    bench
        .workload(&format!("tetris moves per piece 10x40 {name}"), "bitboard")
        .case("bitboard", 7, || {
            let t = black_box(&t);
            Piece::ALL.iter().map(|&p| t.moves(p).len() as u64).sum()
        })
        .case("tight BFS", 7, || {
            let t = black_box(&t);
            Piece::ALL
                .iter()
                .map(|&p| tight_bfs(t, p).len() as u64)
                .sum()
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

/// The same placements as [`Tetris::moves`] by a plain breadth-first search over the states
/// `(rotation, x, y)`, with a flat array of "entered by" flags (a move, or a rotation with
/// kick test k) and the library's collision test ([`Tetris::fits`]), kicks
/// ([`Tetris::rotate`]) and T-spin rule ([`Tetris::t_spin`]): the tight baseline.
pub fn tight_bfs<const W: usize>(t: &Tetris<W>, piece: Piece) -> Vec<Placement> {
    let Some((sx, sy)) = t.spawn(piece) else {
        return Vec::new();
    };
    let h = t.height() as i32;
    let (cw, ch) = (W as i32 + 6, h + 6);
    let idx = |r: usize, x: i32, y: i32| ((r as i32 * cw + x + 3) * ch + y + 3) as usize;
    let mut seen = vec![0u8; (4 * cw * ch) as usize];
    let mut queue = vec![(0usize, sx, sy)];
    seen[idx(0, sx, sy)] = 1;
    let mut head = 0;
    while let Some(&(r, x, y)) = queue.get(head) {
        head += 1;
        let rot = Rotation::ALL[r];
        let mut next = |r2: usize, x2: i32, y2: i32, how: u8| {
            let i = idx(r2, x2, y2);
            if seen[i] == 0 {
                queue.push((r2, x2, y2));
            }
            seen[i] |= how;
        };
        for dx in [-1, 1] {
            if t.fits(piece, rot, x + dx, y) {
                next(r, x + dx, y, 1);
            }
        }
        if t.fits(piece, rot, x, y + 1) {
            next(r, x, y + 1, 1);
        }
        if piece != Piece::O {
            for turn in [Turn::Cw, Turn::Ccw] {
                if let Some(k) = t.rotate(piece, rot, x, y, turn) {
                    next(k.rotation.index(), k.x, k.y, 2 << k.test);
                }
            }
        }
    }
    // Best spin per placement, in the lowest orientation with the same cells.
    let mut best = vec![-1i8; seen.len()];
    for &(r, x, y) in &queue {
        let rot = Rotation::ALL[r];
        if t.fits(piece, rot, x, y + 1) {
            continue;
        }
        let how = seen[idx(r, x, y)];
        let mut spin = Spin::None;
        if piece == Piece::T {
            for k in 0..5 {
                if how & (2 << k) != 0 {
                    spin = spin.max(t.t_spin(rot, x, y, k));
                }
            }
        }
        let (r, x, y) = match (piece, r) {
            (Piece::O, _) => (0, x, y),
            (Piece::I | Piece::S | Piece::Z, 2) => (0, x, y + 1),
            (Piece::I | Piece::S | Piece::Z, 3) => (1, x - 1, y),
            _ => (r, x, y),
        };
        let b = &mut best[idx(r, x, y)];
        *b = (*b).max(spin as i8);
    }
    let mut out = Vec::new();
    for r in 0..4 {
        for x in -3..W as i32 + 3 {
            for y in -3..h + 3 {
                let b = best[idx(r, x, y)];
                if b >= 0 {
                    out.push(Placement {
                        piece,
                        rotation: Rotation::ALL[r],
                        x,
                        y,
                        spin: [Spin::None, Spin::Mini, Spin::Full][b as usize],
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tight_bfs_agrees_with_the_generator() {
        let mut rng = SplitMix::new(9);
        let mut boards = vec![
            String::new(),
            ".....#....\n##...#....\n#...######\n##.#######\n".into(),
        ];
        for _ in 0..30 {
            let mut b = String::new();
            for y in 0..12 {
                for _ in 0..10 {
                    b.push(if rng.chance(if y < 3 { 0.15 } else { 0.6 }) {
                        '#'
                    } else {
                        '.'
                    });
                }
                b.push('\n');
            }
            boards.push(b);
        }
        for b in boards {
            let t = matrix(&b);
            for p in Piece::ALL {
                assert_eq!(tight_bfs(&t, p), t.moves(p), "{p:?}\n{t}");
            }
        }
    }
}
