//! Per-pixel skeletons: the reference of [`algo::skeleton`](crate::algo::skeleton).
//!
//! Both operations thin a [`NaiveGrid`] by two alternating sub-iterations until one whole
//! iteration (both sub-iterations) deletes nothing. Each sub-iteration decides every pixel's
//! deletion on the image as it was at the start of that sub-iteration (a parallel step), then
//! deletes them all. Pixels outside the grid count as background. This is what
//! `skimage.morphology.skeletonize` (2D, Zhang–Suen style, with scikit-image's own deletion
//! table) and `skimage.morphology.thin` (Guo–Hall) do.
//!
//! A pixel's neighbourhood is a byte: bit `k` is the neighbour in direction
//! [`Dir::ALL[k]`](crate::Dir::ALL) (`N`, `NE`, `E`, `SE`, `S`, `SW`, `W`, `NW`).
//!
//! ```
//! use gridbits::naive::{skeleton, NaiveGrid};
//! // A 3-pixel-thick bar: Guo–Hall keeps its middle row but for the ends; scikit-image's
//! // skeletonize table keeps a bent line.
//! let bar = NaiveGrid::from_fn(7, 5, |x, y| (1..4).contains(&y) && (1..6).contains(&x));
//! let thinned = skeleton::thin(&bar, None);
//! assert!((2..5).all(|x| thinned.get(x, 2)) && thinned.count() == 3);
//! let s = skeleton::skeletonize(&bar);
//! assert!(s.get(4, 1) && (1..4).all(|x| s.get(x, 2)) && s.count() == 4);
//! ```

use super::NaiveGrid;
use crate::dir::{step, Dir};

/// The deletion class of each neighbourhood in scikit-image's skeletonize, indexed by its
/// own neighbour order (bit 0 `NW`, then clockwise: `N`, `NE`, `E`, `SE`, `S`, `SW`, `W`):
/// 1 = deleted in the first sub-iteration, 2 = in the second, 3 = in both, 0 = kept.
/// It is close to Zhang and Suen's conditions but not equal to them (for instance it deletes
/// the corner of an L, `N` and `E` set, which Zhang–Suen keeps).
#[rustfmt::skip]
const SKELETON_CLASS: [u8; 256] = [
    0, 0, 0, 1, 0, 0, 1, 3, 0, 0, 3, 1, 1, 0, 1, 3,
    0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 3, 0, 3, 3,
    0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 3, 0, 2, 2,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0,
    3, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 3, 0, 2, 0,
    0, 0, 3, 1, 0, 0, 1, 3, 0, 0, 0, 0, 0, 0, 0, 1,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
    3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    2, 3, 1, 3, 0, 0, 1, 3, 0, 0, 0, 0, 0, 0, 0, 1,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    2, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,
    3, 3, 0, 1, 0, 0, 0, 0, 2, 2, 0, 0, 2, 0, 0, 0,
];

/// Whether skeletonize deletes a set pixel with neighbourhood `neighbours` (bit `k`: the
/// neighbour in direction `Dir::ALL[k]`) in sub-iteration `second` (false: the first).
pub fn skeletonize_deletes(neighbours: u8, second: bool) -> bool {
    // scikit-image's order starts at NW: rotate NW (our bit 7) to bit 0.
    let class = SKELETON_CLASS[usize::from(neighbours.rotate_left(1))];
    class == 3 || class == if second { 2 } else { 1 }
}

/// Whether thin (Guo and Hall's two-sub-iteration algorithm A1) deletes a set pixel with
/// neighbourhood `neighbours` (bit `k`: direction `Dir::ALL[k]`) in sub-iteration `second`.
pub fn thin_deletes(neighbours: u8, second: bool) -> bool {
    let bit = |d: Dir| neighbours >> (d as u8) & 1 == 1;
    // x1..x8 counter-clockwise from east, as Guo and Hall number them.
    let x = [
        Dir::E,
        Dir::NE,
        Dir::N,
        Dir::NW,
        Dir::W,
        Dir::SW,
        Dir::S,
        Dir::SE,
    ]
    .map(bit);
    // G1: exactly one 4-connected run of foreground among the neighbours (the crossing number).
    let crossings = (0..4)
        .filter(|&k| {
            let i = 2 * k;
            !x[i] && (x[i + 1] || x[(i + 2) % 8])
        })
        .count();
    // G2: 2 <= min(N1, N2) <= 3.
    let n1 = (0..4).filter(|&k| x[2 * k + 1] || x[2 * k]).count();
    let n2 = (0..4)
        .filter(|&k| x[2 * k + 1] || x[(2 * k + 2) % 8])
        .count();
    let g2 = (2..=3).contains(&n1.min(n2));
    // G3 (first) and G3' (second): the pixel is not on the east / west side of the next step.
    let g3 = if second {
        !((x[5] || x[6] || !x[3]) && x[4])
    } else {
        !((x[1] || x[2] || !x[7]) && x[0])
    };
    crossings == 1 && g2 && g3
}

/// The neighbourhood byte of `(x, y)`: bit `k` set when the neighbour in direction
/// `Dir::ALL[k]` is on the grid and set.
pub fn neighbourhood(g: &NaiveGrid, x: usize, y: usize) -> u8 {
    let mut code = 0;
    for (k, &d) in Dir::ALL.iter().enumerate() {
        if let Some((nx, ny)) = step(x, y, d, 1, g.width(), g.height()) {
            if g.get(nx, ny) {
                code |= 1 << k;
            }
        }
    }
    code
}

/// One sub-iteration: deletes every set pixel that `deletes` accepts, all decided on `g` as
/// it is on entry. Returns whether a pixel was deleted.
fn sub_iteration(g: &mut NaiveGrid, deletes: impl Fn(u8) -> bool) -> bool {
    let before = g.clone();
    let mut changed = false;
    for y in 0..g.height() {
        for x in 0..g.width() {
            if before.get(x, y) && deletes(neighbourhood(&before, x, y)) {
                g.set(x, y, false);
                changed = true;
            }
        }
    }
    changed
}

/// Runs whole iterations (both sub-iterations) until one deletes nothing or
/// `max_iterations` have run (`None`: no limit). Returns the number of iterations run.
fn iterate(
    g: &mut NaiveGrid,
    max_iterations: Option<usize>,
    deletes: impl Fn(u8, bool) -> bool,
) -> usize {
    let mut iterations = 0;
    while max_iterations.is_none_or(|m| iterations < m) {
        iterations += 1;
        let first = sub_iteration(g, |n| deletes(n, false));
        let second = sub_iteration(g, |n| deletes(n, true));
        if !first && !second {
            break;
        }
    }
    iterations
}

/// The skeleton of `g`, as `skimage.morphology.skeletonize` computes it on a 2D image.
pub fn skeletonize(g: &NaiveGrid) -> NaiveGrid {
    let mut out = g.clone();
    iterate(&mut out, None, skeletonize_deletes);
    out
}

/// `g` thinned by at most `max_iterations` iterations (`None`: until nothing changes), as
/// `skimage.morphology.thin` computes it.
pub fn thin(g: &NaiveGrid, max_iterations: Option<usize>) -> NaiveGrid {
    let mut out = g.clone();
    iterate(&mut out, max_iterations, thin_deletes);
    out
}
