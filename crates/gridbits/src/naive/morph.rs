//! Binary morphology cell by cell: the reference of [`algo::morph`](crate::algo::morph).
//!
//! Every output cell visits every offset of the footprint; repetitions run until the count
//! or until nothing changes, as scipy.ndimage describes them.
//!
//! ```
//! use gridbits::algo::morph::Footprint;
//! use gridbits::naive::{morph, NaiveGrid};
//! let mut g = NaiveGrid::new(5, 5);
//! g.set(2, 2, true);
//! assert_eq!(morph::dilation(&g, &Footprint::disk(2), false).count(), 13);
//! ```

use super::NaiveGrid;
use crate::algo::morph::{Footprint, Step};

/// `grid(x, y)`, or `border` off the grid.
fn at(grid: &NaiveGrid, x: isize, y: isize, border: bool) -> bool {
    if x < 0 || y < 0 || x as usize >= grid.width() || y as usize >= grid.height() {
        border
    } else {
        grid.get(x as usize, y as usize)
    }
}

/// Erosion: `p` set when `grid(p + d)` is set for every offset `d` of `fp`.
pub fn erosion(grid: &NaiveGrid, fp: &Footprint, border: bool) -> NaiveGrid {
    let offsets = fp.offsets();
    NaiveGrid::from_fn(grid.width(), grid.height(), |x, y| {
        offsets
            .iter()
            .all(|&(dx, dy)| at(grid, x as isize + dx, y as isize + dy, border))
    })
}

/// Dilation: `p` set when `grid(p - d)` is set for some offset `d` of `fp`.
pub fn dilation(grid: &NaiveGrid, fp: &Footprint, border: bool) -> NaiveGrid {
    let offsets = fp.offsets();
    NaiveGrid::from_fn(grid.width(), grid.height(), |x, y| {
        offsets
            .iter()
            .any(|&(dx, dy)| at(grid, x as isize - dx, y as isize - dy, border))
    })
}

/// The steps of [`morph_bytes`](crate::algo::morph::morph_bytes) in order, each
/// [`erosion`] or [`dilation`] with its border.
pub fn steps(grid: &NaiveGrid, fp: &Footprint, steps: &[Step]) -> NaiveGrid {
    let mut g = grid.clone();
    for s in steps {
        g = match *s {
            Step::Erode { border } => erosion(&g, fp, border),
            Step::Dilate { border } => dilation(&g, fp, border),
        };
    }
    g
}

/// The morphological gradient: the [`dilation`] (border `dilate_border`) without the
/// [`erosion`] (border `erode_border`), the reference of
/// [`morph_bytes_gradient_and_values`](crate::algo::morph::morph_bytes_gradient_and_values).
pub fn gradient(
    grid: &NaiveGrid,
    fp: &Footprint,
    dilate_border: bool,
    erode_border: bool,
) -> NaiveGrid {
    dilation(grid, fp, dilate_border).and_not(&erosion(grid, fp, erode_border))
}

/// Erosion or dilation applied `times` times (`None`: until nothing changes), only the cells
/// of `mask` changing, the others keeping the input's value.
pub fn repeated(
    grid: &NaiveGrid,
    fp: &Footprint,
    erode: bool,
    border: bool,
    times: Option<usize>,
    mask: Option<&NaiveGrid>,
) -> NaiveGrid {
    let mut cur = grid.clone();
    let mut done = 0;
    loop {
        if times.is_some_and(|n| done >= n) {
            return cur;
        }
        let step = if erode {
            erosion(&cur, fp, border)
        } else {
            dilation(&cur, fp, border)
        };
        let next = NaiveGrid::from_fn(grid.width(), grid.height(), |x, y| match mask {
            Some(m) if !m.get(x, y) => grid.get(x, y),
            _ => step.get(x, y),
        });
        done += 1;
        let stable = next == cur;
        cur = next;
        if stable && times.is_none() {
            return cur;
        }
    }
}

/// Hit-or-miss: `hit` fits the set cells and `miss` the empty ones (off the grid: empty).
pub fn hit_or_miss(grid: &NaiveGrid, hit: &Footprint, miss: &Footprint) -> NaiveGrid {
    let (h, m) = (hit.offsets(), miss.offsets());
    NaiveGrid::from_fn(grid.width(), grid.height(), |x, y| {
        let (x, y) = (x as isize, y as isize);
        h.iter().all(|&(dx, dy)| at(grid, x + dx, y + dy, false))
            && m.iter().all(|&(dx, dy)| !at(grid, x + dx, y + dy, false))
    })
}

/// Holes filled: the empty cells not reached from outside the grid by dilation steps
/// through empty cells.
pub fn fill_holes(grid: &NaiveGrid, fp: &Footprint) -> NaiveGrid {
    let background = NaiveGrid::from_fn(grid.width(), grid.height(), |x, y| !grid.get(x, y));
    let empty = NaiveGrid::new(grid.width(), grid.height());
    let reached = repeated(&empty, fp, false, true, None, Some(&background));
    NaiveGrid::from_fn(grid.width(), grid.height(), |x, y| !reached.get(x, y))
}
