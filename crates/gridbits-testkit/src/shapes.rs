//! Fixed shapes of passable cells: the serpentine corridor and perfect mazes.

use crate::SplitMix;
use gridbits::BitGrid;

/// One corridor folded back and forth across a `w x h` grid: every even row full, joined at
/// the right end by the rows `y % 4 == 1` and at the left end by the rows `y % 4 == 3`. The
/// longest BFS of its size. Panics on a size `BitGrid` refuses.
pub fn serpentine(w: usize, h: usize) -> BitGrid {
    BitGrid::from_fn(w, h, |x, y| {
        y % 2 == 0 || (y % 4 == 1 && x == w - 1) || (y % 4 == 3 && x == 0)
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Neighbours of a lattice cell in the order a maze tries them: north, east, south, west.
const CLOCKWISE: [(isize, isize); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// Neighbours in the order of the fuzz checks' mazes: west, east, north, south.
const WEST_EAST_NORTH_SOUTH: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// A perfect maze (randomised depth-first search; corridors one cell wide) on the 2x lattice
/// of a `w x h` grid: the cells at even coordinates, each joined to the one it was reached
/// from through the cell between them. Calls `open(x, y)` for each passage cell, (0, 0)
/// first. `order` is the order in which the unvisited neighbours are listed; the next one is
/// picked with `rng.below(count)`.
fn carve(
    w: usize,
    h: usize,
    rng: &mut SplitMix,
    order: [(isize, isize); 4],
    mut open: impl FnMut(usize, usize),
) {
    let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
    let mut seen = vec![false; cw * ch];
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    open(0, 0);
    while let Some(&(x, y)) = stack.last() {
        let mut opts = [(0usize, 0usize); 4];
        let mut n = 0;
        for (dx, dy) in order {
            let (nx, ny) = (x as isize + dx, y as isize + dy);
            if nx >= 0 && ny >= 0 && (nx as usize) < cw && (ny as usize) < ch {
                let (nx, ny) = (nx as usize, ny as usize);
                if !seen[ny * cw + nx] {
                    opts[n] = (nx, ny);
                    n += 1;
                }
            }
        }
        if n == 0 {
            stack.pop();
            continue;
        }
        let (nx, ny) = opts[rng.below(n as u64) as usize];
        seen[ny * cw + nx] = true;
        open(2 * nx, 2 * ny);
        open(x + nx, y + ny);
        stack.push((nx, ny));
    }
}

/// A perfect maze (randomised depth-first search; corridors one cell wide) on the 2x lattice
/// of a `w x h` grid: with odd sides every free cell is reachable from `(0, 0)`; with even
/// sides the last row and column stay walls. Neighbours are tried north, east, south, west.
/// Panics on a size `BitGrid` refuses.
pub fn maze(rng: &mut SplitMix, w: usize, h: usize) -> BitGrid {
    let mut g = BitGrid::new(w, h);
    carve(w, h, rng, CLOCKWISE, |x, y| g.set(x, y));
    g
}

/// The fuzz checks' perfect maze of passages (`true`) on a `w x h` grid in row-major order
/// (`cells[y * w + x]`), from `seed`: the lattice of [`maze`], its neighbours tried west,
/// east, north, south (so a seed gives another maze than [`maze`] does; the committed fuzz
/// corpus decodes to these).
pub fn maze_cells(w: usize, h: usize, seed: u64) -> Vec<bool> {
    let mut open = vec![false; w * h];
    carve(w, h, &mut SplitMix(seed), WEST_EAST_NORTH_SOUTH, |x, y| {
        open[y * w + x] = true;
    });
    open
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mazes_are_connected_trees() {
        for (w, h) in [(1usize, 1usize), (2, 3), (7, 5), (10, 10), (65, 3)] {
            let k = w.div_ceil(2) * h.div_ceil(2);
            // Every lattice cell is open; a tree on k cells has k - 1 joins.
            let m = maze_cells(w, h, 7);
            assert_eq!(m.iter().filter(|&&c| c).count(), 2 * k - 1, "{w}x{h}");
            let g = maze(&mut SplitMix(7), w, h);
            assert_eq!(g.count(), 2 * k as u64 - 1, "{w}x{h}");
        }
    }

    #[test]
    fn a_serpentine_is_one_corridor() {
        assert_eq!(serpentine(4, 5).to_text(), "####\n...#\n####\n#...\n####\n");
    }
}
