//! The exact Euclidean distance transform with the nearest background cell of every cell,
//! as `scipy.ndimage.distance_transform_edt` computes them (Maurer, Qi and Raghavan's
//! separable feature transform): same distances to the last bit, same nearest cell on ties.
//!
//! 1. Columns, read from the packed bits: per column the nearest background row above and
//!    below every cell, kept per column while the rows go by (a word of 64 columns at a
//!    time); the nearer wins, the upper one on a tie.
//! 2. Rows: the lower envelope of the columns' nearest cells (a stack of candidates, each
//!    popped when the next two hide it), then one walk along the row. The arithmetic is
//!    scipy's, in the same order, in `f64`, so a sampling that makes two candidates round
//!    to the same distance picks the same one.

use crate::error::{try_filled, try_vec};
use crate::{BitGrid, SizeError};

/// The spacing between cells along each axis (scipy's `sampling`, given there per axis in
/// `(row, column)` order): distances are measured in these units. Spacings should be
/// positive and finite, far enough from 0 and infinity that no squared distance underflows or
/// overflows (the Python layer takes 1e-100 to 1e100): then nearer is always smaller, and the
/// results are scipy's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// Spacing between columns (along x).
    pub x: f64,
    /// Spacing between rows (along y).
    pub y: f64,
}

impl Default for Sampling {
    /// Unit spacing along both axes.
    fn default() -> Self {
        Sampling { x: 1.0, y: 1.0 }
    }
}

/// The result of [`euclidean_transform`]: per cell its nearest background cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EuclideanTransform {
    width: usize,
    height: usize,
    /// The y plane then the x plane, `width * height` each, row-major.
    nearest: Vec<i32>,
    background: bool,
}

impl EuclideanTransform {
    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Whether the grid has a background (unset) cell; without one no cell has a nearest
    /// background cell and [`nearest_planes`](Self::nearest_planes) holds `-1` rows and
    /// `0` columns, as scipy leaves them.
    pub fn has_background(&self) -> bool {
        self.background
    }

    /// The nearest background cell of `(x, y)` (itself where it is background).
    ///
    /// # Panics
    ///
    /// If `(x, y)` is off the grid.
    pub fn nearest(&self, x: usize, y: usize) -> Option<(usize, usize)> {
        assert!(x < self.width && y < self.height, "cell off the grid");
        let n = self.width * self.height;
        let i = y * self.width + x;
        self.background
            .then(|| (self.nearest[n + i] as usize, self.nearest[i] as usize))
    }

    /// The nearest cells as two row-major planes, the y plane first, then the x plane (the
    /// layout of scipy's `indices`, `(2, height, width)`).
    pub fn nearest_planes(&self) -> &[i32] {
        &self.nearest
    }

    /// The planes, owned (see [`nearest_planes`](Self::nearest_planes)).
    pub fn into_nearest_planes(self) -> Vec<i32> {
        self.nearest
    }

    /// The distance of every cell to its nearest background cell in `sampling`'s units,
    /// row-major, computed as scipy does: `sqrt((dy * sy)^2 + (dx * sx)^2)` in `f64`. On a grid
    /// without background every cell measures to `(-1, 0)` as in scipy.
    ///
    /// # Errors
    ///
    /// A [`SizeError`] if the memory cannot be had.
    pub fn distances(&self, sampling: Sampling) -> Result<Vec<f64>, SizeError> {
        let (w, h) = (self.width, self.height);
        let mut out: Vec<f64> = try_vec("distances", w, h, (w * h) as u128)?;
        self.write_distances(sampling, &mut out);
        Ok(out)
    }

    /// The distance of every cell in cell units as `f32`, row-major: the correctly rounded
    /// square root of the squared distance `dx^2 + dy^2` (itself rounded to `f32`), as
    /// OpenCV's exact Euclidean transform gives it. On a grid without background every cell
    /// is `sqrt(f32::MAX)`, OpenCV's value there.
    ///
    /// # Errors
    ///
    /// A [`SizeError`] if the memory cannot be had.
    pub fn distances_f32(&self) -> Result<Vec<f32>, SizeError> {
        let (w, h) = (self.width, self.height);
        let n = w * h;
        let mut out: Vec<f32> = try_vec("distances", w, h, n as u128)?;
        if !self.background {
            out.resize(n, f32::MAX.sqrt());
            return Ok(out);
        }
        out.extend(self.offsets().map(|(dy, dx)| {
            let (dy, dx) = (i64::from(dy), i64::from(dx));
            ((dy * dy + dx * dx) as f32).sqrt()
        }));
        Ok(out)
    }

    /// [`distances`](Self::distances) appended to `out` (which the caller has reserved).
    fn write_distances(&self, sampling: Sampling, out: &mut Vec<f64>) {
        out.extend(self.offsets().map(|(dy, dx)| {
            let dy = f64::from(dy) * sampling.y;
            let dx = f64::from(dx) * sampling.x;
            (dy * dy + dx * dx).sqrt()
        }));
    }

    /// Per cell, row-major, `(dy, dx)` from the cell to its nearest background cell, as
    /// scipy subtracts them (`int32`).
    fn offsets(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        let w = self.width;
        let n = w * self.height;
        let (ys, xs) = self.nearest.split_at(n);
        ys.iter()
            .zip(xs)
            .enumerate()
            .map(move |(i, (&ny, &nx))| (ny - (i / w) as i32, nx - (i % w) as i32))
    }
}

/// The exact Euclidean distance transform of `grid`: for every set cell its nearest unset
/// (background) cell under `sampling`, as [`EuclideanTransform`]. What lies outside the
/// grid is not background.
///
/// ```
/// use gridbits::algo::distance_transform::{euclidean_transform, Sampling};
/// use gridbits::BitGrid;
/// let g = BitGrid::parse("#####\n#####\n####.\n").unwrap();
/// let t = euclidean_transform(&g, Sampling::default()).unwrap();
/// assert_eq!(t.nearest(0, 0), Some((4, 2)));
/// let d = t.distances(Sampling::default()).unwrap();
/// assert_eq!(d[0], 20f64.sqrt());
/// ```
///
/// # Errors
///
/// A [`SizeError`] if the memory cannot be had.
pub fn euclidean_transform(
    grid: &BitGrid,
    sampling: Sampling,
) -> Result<EuclideanTransform, SizeError> {
    let (w, h) = grid.size();
    let n = w * h;
    let mut nearest: Vec<i32> = try_vec("nearest cells", w, h, 2 * n as u128)?;
    nearest.resize(n, -1);
    let background = column_pass(grid, &mut nearest)?;
    nearest.resize(2 * n, 0);
    if background {
        let (ys, xs) = nearest.split_at_mut(n);
        row_pass(ys, xs, w, h, sampling)?;
    }
    Ok(EuclideanTransform {
        width: w,
        height: h,
        nearest,
        background,
    })
}

/// Per cell the row of the nearest background cell in its column (the upper one on a tie;
/// `-1` in a column without background) into `ys`; whether the grid has any background.
fn column_pass(grid: &BitGrid, ys: &mut [i32]) -> Result<bool, SizeError> {
    let (w, h) = grid.size();
    // The last background row seen in each column, going down (-1: none yet).
    let mut above: Vec<i32> = try_filled("column scan", w, h, w as u128, -1)?;
    for y in 0..h {
        let row = grid.row_words(y);
        let out = &mut ys[y * w..(y + 1) * w];
        for (k, (a, o)) in above.chunks_mut(64).zip(out.chunks_mut(64)).enumerate() {
            let bg = !row[k];
            let yy = y as i32;
            for (i, (a, o)) in a.iter_mut().zip(o.iter_mut()).enumerate() {
                // -1 where background: take this row.
                let m = -(((bg >> i) & 1) as i32);
                *a = (*a & !m) | (yy & m);
                *o = *a;
            }
        }
    }
    let background = above.iter().any(|&a| a >= 0);
    // Going up: the nearest background row below; the upper one wins ties.
    let below = &mut above;
    below.fill(-1);
    for y in (0..h).rev() {
        let row = grid.row_words(y);
        let out = &mut ys[y * w..(y + 1) * w];
        let yy = y as i32;
        for (k, (b, o)) in below.chunks_mut(64).zip(out.chunks_mut(64)).enumerate() {
            let bg = !row[k];
            for (i, (b, o)) in b.iter_mut().zip(o.iter_mut()).enumerate() {
                let m = -(((bg >> i) & 1) as i32);
                *b = (*b & !m) | (yy & m);
                // Below wins when there is one and there is none above or it is strictly
                // nearer.
                let up = *o;
                if *b >= 0 && (up < 0 || *b - yy < yy - up) {
                    *o = *b;
                }
            }
        }
    }
    Ok(background)
}

/// The row pass over every row: `ys` holds each cell's column-nearest row (`-1`: none in
/// the column) and gets the nearest row of the whole grid; `xs` gets its column.
fn row_pass(
    ys: &mut [i32],
    xs: &mut [i32],
    w: usize,
    h: usize,
    sampling: Sampling,
) -> Result<(), SizeError> {
    let (s0, s1) = (sampling.y, sampling.x);
    // Candidates (columns with background), each one's squared row term, and the envelope
    // stack. The row term `((fy - y) * sy)^2` is the same number wherever scipy computes it
    // (its wR, uR, vR and the first term of each delta), so it is computed once per candidate.
    let mut fy: Vec<i32> = try_vec("row scan", w, h, w as u128)?;
    let mut fx: Vec<i32> = try_vec("row scan", w, h, w as u128)?;
    let mut rsq: Vec<f64> = try_vec("row scan", w, h, w as u128)?;
    let mut g: Vec<usize> = try_filled("row scan", w, h, w as u128, 0)?;
    for y in 0..h {
        let row_y = &mut ys[y * w..(y + 1) * w];
        let row_x = &mut xs[y * w..(y + 1) * w];
        let coor = y as i32;
        fy.clear();
        fx.clear();
        rsq.clear();
        for (x, &ny) in row_y.iter().enumerate() {
            if ny >= 0 {
                fy.push(ny);
                fx.push(x as i32);
                let t = f64::from(ny - coor) * s0;
                rsq.push(t * t);
            }
        }
        // The envelope: scipy's _VoronoiFT along the row (d = 1), in its order of operations.
        let mut l: isize = -1;
        for ii in 0..fy.len() {
            let fd = f64::from(fx[ii]);
            let w_r = rsq[ii];
            while l >= 1 {
                let idx1 = g[l as usize];
                let idx2 = g[l as usize - 1];
                let f1 = f64::from(fx[idx1]);
                let a = (f1 - f64::from(fx[idx2])) * s1;
                let b = (fd - f1) * s1;
                let c = a + b;
                if c * rsq[idx1] - b * rsq[idx2] - a * w_r - a * b * c <= 0.0 {
                    break;
                }
                l -= 1;
            }
            l += 1;
            g[l as usize] = ii;
        }
        let maxl = l as usize;
        let mut l = 0usize;
        let dist = |k: usize, ii: usize| {
            let t1 = f64::from(fx[k] - ii as i32) * s1;
            rsq[k] + t1 * t1
        };
        for ii in 0..w {
            let mut delta1 = dist(g[l], ii);
            while l < maxl {
                let delta2 = dist(g[l + 1], ii);
                if delta1 <= delta2 {
                    break;
                }
                delta1 = delta2;
                l += 1;
            }
            row_y[ii] = fy[g[l]];
            row_x[ii] = fx[g[l]];
        }
    }
    Ok(())
}
