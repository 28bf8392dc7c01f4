//! Shapes of the distance engines' unit tests: winding corridors one cell wide.

use crate::test_rng::XorShift as Rng;
use crate::BitGrid;

/// A corridor spiralling in from the border: shortest paths turn up and down once per
/// turn.
pub(super) fn spiral(w: usize, h: usize) -> BitGrid {
    let mut g = BitGrid::new(w, h);
    let (mut x0, mut y0, mut x1, mut y1) = (0isize, 0isize, w as isize - 1, h as isize - 1);
    while x0 <= x1 && y0 <= y1 {
        for x in x0..=x1 {
            g.set(x as usize, y0 as usize);
        }
        for y in y0..=y1 {
            g.set(x1 as usize, y as usize);
        }
        if y1 - y0 >= 2 {
            for x in x0..=x1 {
                g.set(x as usize, y1 as usize);
            }
        }
        if y1 - y0 >= 4 && x1 - x0 >= 2 {
            for y in y0 + 2..=y1 {
                g.set(x0 as usize, y as usize);
            }
            if x0 < x1 {
                g.set((x0 + 1) as usize, (y0 + 2) as usize);
            }
        }
        (x0, y0, x1, y1) = (x0 + 2, y0 + 2, x1 - 2, y1 - 2);
    }
    g
}

/// A perfect maze on the cells at even coordinates of a `w x h` grid (corridors one cell
/// wide, each lattice cell joined to a random unvisited neighbour until none is left: a
/// depth-first search), with `loops` walls between lattice cells knocked out after, so that
/// corridors meet (a maze with loops, where BFS fronts run into each other).
pub(super) fn maze(w: usize, h: usize, loops: usize, rng: &mut Rng) -> BitGrid {
    let mut g = BitGrid::new(w, h);
    if w == 0 || h == 0 {
        return g;
    }
    let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
    let mut seen = vec![false; cw * ch];
    let mut path = vec![(0usize, 0usize)];
    seen[0] = true;
    g.set(0, 0);
    while let Some(&(x, y)) = path.last() {
        let steps: Vec<(usize, usize)> = [(0isize, -1isize), (1, 0), (0, 1), (-1, 0)]
            .iter()
            .filter_map(|&(dx, dy)| {
                let (nx, ny) = (x.checked_add_signed(dx)?, y.checked_add_signed(dy)?);
                (nx < cw && ny < ch && !seen[ny * cw + nx]).then_some((nx, ny))
            })
            .collect();
        if steps.is_empty() {
            path.pop();
            continue;
        }
        let (nx, ny) = steps[(rng.next_u64() % steps.len() as u64) as usize];
        seen[ny * cw + nx] = true;
        g.set(2 * nx, 2 * ny);
        g.set(x + nx, y + ny);
        path.push((nx, ny));
    }
    for _ in 0..loops {
        // A wall cell between two lattice cells: odd on exactly one axis.
        let (x, y) = (
            (rng.next_u64() % w as u64) as usize,
            (rng.next_u64() % h as u64) as usize,
        );
        if (x % 2 == 1) != (y % 2 == 1) && x + 1 < w && y + 1 < h {
            g.set(x, y);
        }
    }
    g
}
