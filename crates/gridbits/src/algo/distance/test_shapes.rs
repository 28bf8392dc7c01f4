//! Shapes and cases of the distance engines' unit tests: winding corridors one cell wide,
//! and every way of running a BFS on a grid against the naive BFS.

use super::{Connections, UNREACHED};
use crate::test_rng::XorShift as Rng;
use crate::{BitGrid, Moves};

/// One BFS of the engines' property tests ([`for_each_case`]).
pub(super) struct Case {
    pub(super) seeds: BitGrid,
    pub(super) moves: Moves,
    pub(super) con: Option<Connections<BitGrid>>,
    /// The naive BFS's distances (row-major, `None` where unreached), and the largest (0
    /// with none).
    pub(super) want: Vec<Option<u32>>,
    pub(super) most: u32,
    /// The case, for messages.
    pub(super) ctx: String,
}

/// The reference distances of a case: `(seeds, passable, moves, masks)` to row-major
/// distances, `None` where unreached (the naive BFS: `frontier::tests::naive_distances`,
/// passed in so that this module does not depend on `naive`, which depends on the games).
pub(super) type Reference =
    fn(&BitGrid, &BitGrid, Moves, Option<&Connections<BitGrid>>) -> Vec<Option<u32>>;

/// Runs `check` on every BFS of `g`: 4- and 8-moves, without and with random connection
/// masks (85% of the moves allowed), from none, one and three random sources (free or
/// walled), with the distances of `reference`.
pub(super) fn for_each_case(
    g: &BitGrid,
    rng: &mut Rng,
    reference: Reference,
    mut check: impl FnMut(&Case),
) {
    let (w, h) = g.size();
    for moves in [Moves::Four, Moves::Eight] {
        for with_con in [false, true] {
            let con: Option<Connections<BitGrid>> = with_con.then(|| {
                std::array::from_fn(|_| {
                    BitGrid::from_fn(w, h, |_, _| rng.percent(85)).unwrap_or_else(|e| panic!("{e}"))
                })
            });
            for sources in [0, 1, 3] {
                let mut seeds = g.empty_like();
                for _ in 0..sources {
                    let k = (rng.next_u64() % (w * h) as u64) as usize;
                    seeds.set(k % w, k / w);
                }
                let want = reference(&seeds, g, moves, con.as_ref());
                let most = want.iter().flatten().copied().max().unwrap_or(0);
                let ctx = format!("{w}x{h} {moves:?} masks={with_con} sources={sources}");
                check(&Case {
                    seeds,
                    moves,
                    con: con.clone(),
                    want,
                    most,
                    ctx,
                });
            }
        }
    }
}

/// Asserts that `dist` (row-major, `w` wide, [`UNREACHED`] where unreached) holds the
/// case's distances (`how`: the engine, for messages).
pub(super) fn assert_distances(dist: &[u32], w: usize, case: &Case, how: &str) {
    for (k, (&d, &e)) in dist.iter().zip(&case.want).enumerate() {
        let got = (d != UNREACHED).then_some(d);
        assert_eq!(got, e, "{} {how} at {:?}", case.ctx, (k % w, k / w));
    }
}

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
