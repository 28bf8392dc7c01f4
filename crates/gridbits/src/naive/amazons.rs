//! Per-cell reference for Game of the Amazons: a queue BFS per side whose queen moves walk
//! each ray cell by cell, then a per-cell comparison of the distances.
//!
//! The oracle of [`games::amazons`](crate::games::amazons) and its benchmark baseline. It
//! works on any board size.
//!
//! ```
//! use gridbits::naive::{amazons, NaiveGrid};
//! let mut white = NaiveGrid::new(3, 1);
//! white.set(0, 0, true);
//! let mut black = NaiveGrid::new(3, 1);
//! black.set(2, 0, true);
//! let arrows = NaiveGrid::new(3, 1);
//! let e = amazons::evaluate(&white, &black, &arrows);
//! assert_eq!(e.queen.contested, 1);
//! ```

use super::NaiveGrid;
use crate::dir::{step, Moves};
use crate::games::amazons::{Evaluation, Territory};
use std::collections::VecDeque;

/// BFS distances from `sources` (distance 0) through `empty` cells, one cell per entry in
/// row-major order (`y * width + x`); `None` where never reached. With a sliding `moves` a
/// move walks its ray cell by cell until a cell that is not empty, passing over cells already
/// visited.
pub fn distances(sources: &NaiveGrid, empty: &NaiveGrid, moves: Moves) -> Vec<Option<u32>> {
    let (w, h) = (sources.width(), sources.height());
    let mut dist = vec![None; w * h];
    let mut queue = VecDeque::new();
    for (x, y) in sources.cells() {
        dist[y * w + x] = Some(0);
        queue.push_back((x, y));
    }
    while let Some((x, y)) = queue.pop_front() {
        let d = dist[y * w + x].unwrap_or(0);
        for &dir in moves.dirs() {
            let mut k = 1;
            while let Some((nx, ny)) = step(x, y, dir, k, w, h) {
                if !empty.get(nx, ny) {
                    break;
                }
                if dist[ny * w + nx].is_none() {
                    dist[ny * w + nx] = Some(d + 1);
                    queue.push_back((nx, ny));
                }
                if !moves.is_sliding() {
                    break;
                }
                k += 1;
            }
        }
    }
    dist
}

/// Territory of the empty cells given both sides' distances (row-major, as [`distances`]).
pub fn territory(white: &[Option<u32>], black: &[Option<u32>], empty: &NaiveGrid) -> Territory {
    let mut t = Territory::default();
    for (x, y) in empty.cells() {
        let i = y * empty.width() + x;
        match (white[i], black[i]) {
            (None, None) => t.unreachable += 1,
            (Some(_), None) => t.white += 1,
            (None, Some(_)) => t.black += 1,
            (Some(a), Some(b)) if a < b => t.white += 1,
            (Some(a), Some(b)) if a > b => t.black += 1,
            _ => t.contested += 1,
        }
    }
    t
}

/// The empty cells: neither an amazon nor an arrow.
pub fn empty_cells(white: &NaiveGrid, black: &NaiveGrid, arrows: &NaiveGrid) -> NaiveGrid {
    white.or(black).or(arrows).not()
}

/// Queen and king territory: two BFS per metric, then the per-cell comparison.
pub fn evaluate(white: &NaiveGrid, black: &NaiveGrid, arrows: &NaiveGrid) -> Evaluation {
    let empty = empty_cells(white, black, arrows);
    let metric = |moves| {
        territory(
            &distances(white, &empty, moves),
            &distances(black, &empty, moves),
            &empty,
        )
    };
    Evaluation {
        queen: metric(Moves::Queen),
        king: metric(Moves::Eight),
    }
}

/// The number of queen moves of the amazon on `(x, y)` through the empty cells.
pub fn mobility(empty: &NaiveGrid, x: usize, y: usize) -> u32 {
    let mut n = 0;
    for &dir in Moves::Queen.dirs() {
        let mut k = 1;
        while let Some((nx, ny)) = step(x, y, dir, k, empty.width(), empty.height()) {
            if !empty.get(nx, ny) {
                break;
            }
            n += 1;
            k += 1;
        }
    }
    n
}
