//! Per-cell reference for connected components: a queue BFS from every unvisited set cell.
//!
//! Written for obviousness, not speed. It is the oracle of the `components_*` and `label_*`
//! property tests and the baseline of the `components` rows of the benchmark
//! (`cargo run --release -p gridbits-bench`).
//!
//! Components are numbered in raster order of their first cell (top row first, then left to
//! right): the component holding the first set cell of a raster scan is number 1, and so on.
//! [`crate::algo::label`] numbers them the same way, with both connectivities; the fast
//! iterators of [`crate::algo::components`] document their own order.
//!
//! ```
//! use gridbits::naive::{components, NaiveGrid};
//! use gridbits::Connectivity;
//! let g = NaiveGrid::from_fn(4, 2, |x, y| (x + y) % 2 == 0);
//! assert_eq!(components::components(&g, Connectivity::Four).len(), 4);
//! assert_eq!(components::components(&g, Connectivity::Eight).len(), 1);
//! ```

use super::NaiveGrid;
use crate::dir::{step, Connectivity};
use std::collections::VecDeque;

/// One component found by the reference: its cells in BFS order from its first cell.
pub type CellList = Vec<(usize, usize)>;

/// Every component of the set cells, as cell lists, in raster order of their first cell.
/// Each list starts with that first cell; the rest follow in BFS order.
pub fn component_cells(grid: &NaiveGrid, conn: Connectivity) -> Vec<CellList> {
    let (w, h) = (grid.width(), grid.height());
    let mut seen = vec![false; w * h];
    let mut out = Vec::new();
    let mut queue = VecDeque::new();
    for y in 0..h {
        for x in 0..w {
            if !grid.get(x, y) || seen[y * w + x] {
                continue;
            }
            let mut cells = Vec::new();
            seen[y * w + x] = true;
            queue.push_back((x, y));
            while let Some((cx, cy)) = queue.pop_front() {
                cells.push((cx, cy));
                for &d in conn.dirs() {
                    if let Some((nx, ny)) = step(cx, cy, d, 1, w, h) {
                        if grid.get(nx, ny) && !seen[ny * w + nx] {
                            seen[ny * w + nx] = true;
                            queue.push_back((nx, ny));
                        }
                    }
                }
            }
            out.push(cells);
        }
    }
    out
}

/// Every component as a grid of its own, in raster order of their first cell.
pub fn components(grid: &NaiveGrid, conn: Connectivity) -> Vec<NaiveGrid> {
    component_cells(grid, conn)
        .into_iter()
        .map(|cells| {
            let mut g = NaiveGrid::new(grid.width(), grid.height());
            for (x, y) in cells {
                g.set(x, y, true);
            }
            g
        })
        .collect()
}

/// The cells of every component with at least `k` cells.
pub fn groups_at_least(grid: &NaiveGrid, k: usize, conn: Connectivity) -> NaiveGrid {
    let mut out = NaiveGrid::new(grid.width(), grid.height());
    for cells in component_cells(grid, conn) {
        if cells.len() >= k {
            for (x, y) in cells {
                out.set(x, y, true);
            }
        }
    }
    out
}

/// A label image, row-major: 0 for background, `1..=count` for the components in raster
/// order of their first cell. Returns the labels and `count`.
pub fn label(grid: &NaiveGrid, conn: Connectivity) -> (Vec<u32>, u32) {
    let w = grid.width();
    let mut labels = vec![0u32; w * grid.height()];
    let comps = component_cells(grid, conn);
    for (i, cells) in comps.iter().enumerate() {
        for &(x, y) in cells {
            labels[y * w + x] = i as u32 + 1;
        }
    }
    (labels, comps.len() as u32)
}

/// Size, bounding box and coordinate sums of one component, as the reference computes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Number of cells.
    pub size: u64,
    /// Smallest `x` of a cell.
    pub min_x: usize,
    /// Smallest `y` of a cell.
    pub min_y: usize,
    /// Largest `x` of a cell.
    pub max_x: usize,
    /// Largest `y` of a cell.
    pub max_y: usize,
    /// Sum of the `x` of the cells.
    pub sum_x: u64,
    /// Sum of the `y` of the cells.
    pub sum_y: u64,
}

/// Size, bounding box and coordinate sums of every component, in raster order of their
/// first cell.
pub fn stats(grid: &NaiveGrid, conn: Connectivity) -> Vec<Stats> {
    component_cells(grid, conn)
        .iter()
        .map(|cells| Stats {
            size: cells.len() as u64,
            min_x: cells.iter().map(|c| c.0).min().unwrap_or(0),
            min_y: cells.iter().map(|c| c.1).min().unwrap_or(0),
            max_x: cells.iter().map(|c| c.0).max().unwrap_or(0),
            max_y: cells.iter().map(|c| c.1).max().unwrap_or(0),
            sum_x: cells.iter().map(|c| c.0 as u64).sum(),
            sum_y: cells.iter().map(|c| c.1 as u64).sum(),
        })
        .collect()
}

/// Components of a multi-class grid: `classes` holds one class per cell, row-major, `0` for
/// background; cells join only neighbours of their own class. Returns a label image and the
/// class of each label (`classes_of[label - 1]`). Numbering is class by class, as
/// [`Labeller::label_classes`](crate::algo::label::Labeller::label_classes) numbers: the
/// components of class 1 in raster order of their first cell, then those of class 2, ...
///
/// Panics if `classes.len() != width * height`.
pub fn label_classes(
    width: usize,
    height: usize,
    classes: &[u32],
    conn: Connectivity,
) -> (Vec<u32>, Vec<u32>) {
    assert_eq!(classes.len(), width * height, "one class per cell");
    let mut labels = vec![0u32; width * height];
    let mut classes_of = Vec::new();
    let mut queue = VecDeque::new();
    let last = classes.iter().copied().max().unwrap_or(0);
    for (class, y, x) in
        (1..=last).flat_map(|c| (0..height).flat_map(move |y| (0..width).map(move |x| (c, y, x))))
    {
        if classes[y * width + x] != class || labels[y * width + x] != 0 {
            continue;
        }
        classes_of.push(class);
        let label = classes_of.len() as u32;
        labels[y * width + x] = label;
        queue.push_back((x, y));
        while let Some((cx, cy)) = queue.pop_front() {
            for &d in conn.dirs() {
                if let Some((nx, ny)) = step(cx, cy, d, 1, width, height) {
                    let i = ny * width + nx;
                    if classes[i] == class && labels[i] == 0 {
                        labels[i] = label;
                        queue.push_back((nx, ny));
                    }
                }
            }
        }
    }
    (labels, classes_of)
}
