//! Plain references of the distance transforms: brute force over every background cell,
//! and scipy's two-pass chamfer written cell by cell with bounds checks.
//!
//! ```
//! use gridbits::naive::distance_transform::{brute_force, Metric};
//! use gridbits::naive::NaiveGrid;
//! let g = NaiveGrid::from_fn(3, 1, |x, _| x > 0);
//! assert_eq!(brute_force(&g, Metric::Taxicab), vec![Some(0), Some(1), Some(2)]);
//! ```

use super::NaiveGrid;

/// How far apart two cells are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// `|dx| + |dy|`.
    Taxicab,
    /// `max(|dx|, |dy|)`.
    Chessboard,
    /// `dx^2 + dy^2`: the squared Euclidean distance.
    SquaredEuclidean,
}

impl Metric {
    /// The distance between cells `dx` columns and `dy` rows apart.
    pub fn between(self, dx: u64, dy: u64) -> u64 {
        match self {
            Metric::Taxicab => dx + dy,
            Metric::Chessboard => dx.max(dy),
            Metric::SquaredEuclidean => dx * dx + dy * dy,
        }
    }
}

/// Per cell (row-major) the distance under `metric` to the nearest unset cell, by trying
/// every unset cell; `None` everywhere on a grid without one.
pub fn brute_force(grid: &NaiveGrid, metric: Metric) -> Vec<Option<u64>> {
    let background: Vec<(usize, usize)> = grid.not().cells();
    let mut out = Vec::with_capacity(grid.width() * grid.height());
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            out.push(
                background
                    .iter()
                    .map(|&(bx, by)| metric.between(bx.abs_diff(x) as u64, by.abs_diff(y) as u64))
                    .min(),
            );
        }
    }
    out
}

/// scipy's `distance_transform_cdt` with a 3 x 3 `structure`, literally: a forward raster
/// pass over the four neighbours before the centre (`structure[0][0]`, `[0][1]`, `[0][2]`,
/// `[1][0]`, in that order; the first strictly smaller wins), then the same backward with the
/// neighbours mirrored. Returns the distances (`-1`: unreached) and per cell the row-major
/// index of its nearest background cell.
pub fn two_pass_chamfer(grid: &NaiveGrid, structure: [[bool; 3]; 3]) -> (Vec<i32>, Vec<usize>) {
    let (w, h) = (grid.width(), grid.height());
    let mut d: Vec<i32> = (0..w * h)
        .map(|i| if grid.get(i % w, i / w) { -1 } else { 0 })
        .collect();
    let mut f: Vec<usize> = (0..w * h).collect();
    let steps: Vec<(isize, isize)> = [(0, 0), (0, 1), (0, 2), (1, 0)]
        .iter()
        .filter(|&&(r, c)| structure[r][c])
        .map(|&(r, c)| (c as isize - 1, r as isize - 1))
        .collect();
    for backward in [false, true] {
        let order: Vec<usize> = if backward {
            (0..w * h).rev().collect()
        } else {
            (0..w * h).collect()
        };
        for i in order {
            if d[i] == 0 {
                continue;
            }
            let (x, y) = ((i % w) as isize, (i / w) as isize);
            let mut min = d[i];
            let mut from = i;
            for &(dx, dy) in &steps {
                let (dx, dy) = if backward { (-dx, -dy) } else { (dx, dy) };
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w as isize || ny >= h as isize {
                    continue;
                }
                let j = ny as usize * w + nx as usize;
                if d[j] >= 0 && (min < 0 || d[j] + 1 < min) {
                    min = d[j] + 1;
                    from = j;
                }
            }
            d[i] = min;
            f[i] = f[from];
        }
    }
    (d, f)
}
