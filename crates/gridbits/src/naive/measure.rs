//! Plain references of value-image labelling and of the region properties of
//! [`crate::algo::measure`]: a queue flood per component, per-cell sums, and for the perimeter
//! skimage's recipe cell by cell (erode, weigh each border cell's neighbourhood). The Euler
//! number and the filled area are found another way than the library's: by counting
//! components and holes of each region with floods.

use crate::dir::step;
use crate::Connectivity;
use std::collections::VecDeque;

/// The neighbours of `(x, y)` on a `w x h` image under `conn`.
fn neighbours(
    x: usize,
    y: usize,
    w: usize,
    h: usize,
    conn: Connectivity,
) -> impl Iterator<Item = (usize, usize)> {
    conn.dirs()
        .iter()
        .filter_map(move |&d| step(x, y, d, 1, w, h))
}

/// Labels of the components of the cells where `member` holds (a queue flood from each
/// unlabelled member cell in raster order): the label image and the count.
fn flood(
    w: usize,
    h: usize,
    conn: Connectivity,
    member: impl Fn(usize, usize) -> bool,
    same: impl Fn((usize, usize), (usize, usize)) -> bool,
) -> (Vec<u32>, u32) {
    let mut out = vec![0u32; w * h];
    let mut n = 0;
    let mut queue = VecDeque::new();
    for y in 0..h {
        for x in 0..w {
            if !member(x, y) || out[y * w + x] != 0 {
                continue;
            }
            n += 1;
            out[y * w + x] = n;
            queue.push_back((x, y));
            while let Some((cx, cy)) = queue.pop_front() {
                for (nx, ny) in neighbours(cx, cy, w, h, conn) {
                    if member(nx, ny) && out[ny * w + nx] == 0 && same((cx, cy), (nx, ny)) {
                        out[ny * w + nx] = n;
                        queue.push_back((nx, ny));
                    }
                }
            }
        }
    }
    (out, n)
}

/// Labels a value image by class, as [`crate::algo::label::label_values`]: the label image and
/// the number of components.
pub fn label_values<T: Copy + PartialEq>(
    values: &[T],
    w: usize,
    h: usize,
    background: Option<T>,
    conn: Connectivity,
) -> (Vec<u32>, u32) {
    let v = |x: usize, y: usize| values[y * w + x];
    flood(
        w,
        h,
        conn,
        |x, y| background != Some(v(x, y)),
        |(ax, ay), (bx, by)| v(ax, ay) == v(bx, by),
    )
}

/// The properties of one region of a label image, cell by cell.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NaiveRegion {
    /// Number of cells.
    pub area: u64,
    /// Bounding box `(x0, y0, x1, y1)`, ends exclusive.
    pub bbox: (usize, usize, usize, usize),
    /// `raw[p][q]`: the sum of `(x - x0)^p (y - y0)^q`, `p, q <= 3`.
    pub raw: [[i128; 4]; 4],
    /// Central moments about the centroid, summed cell by cell in floating point.
    pub central: [[f64; 4]; 4],
    /// skimage's perimeter estimate.
    pub perimeter: f64,
    /// Components (8-connected) minus holes (4-connected background inside) of the region.
    pub euler8: i64,
    /// Components (4-connected) minus holes (8-connected background inside).
    pub euler4: i64,
    /// Area with the holes (8-connected background not reaching the box's edge) filled.
    pub filled: u64,
}

/// The cells of label `l` within its bounding box, as `(mask, bw, bh)`.
fn crop(
    labels: &[u32],
    w: usize,
    l: u32,
    b: (usize, usize, usize, usize),
) -> (Vec<bool>, usize, usize) {
    let (bw, bh) = (b.2 - b.0, b.3 - b.1);
    let mask = (0..bw * bh)
        .map(|i| labels[(b.1 + i / bw) * w + b.0 + i % bw] == l)
        .collect();
    (mask, bw, bh)
}

/// Holes of a mask: background components under `conn` that do not touch the mask's edge;
/// their number and cells.
fn holes(mask: &[bool], bw: usize, bh: usize, conn: Connectivity) -> (i64, u64) {
    let (bg, n) = flood(bw, bh, conn, |x, y| !mask[y * bw + x], |_, _| true);
    let mut touches = vec![false; n as usize + 1];
    for y in 0..bh {
        for x in 0..bw {
            if x == 0 || y == 0 || x + 1 == bw || y + 1 == bh {
                touches[bg[y * bw + x] as usize] = true;
            }
        }
    }
    let count = (1..=n as usize).filter(|&i| !touches[i]).count() as i64;
    let cells = bg
        .iter()
        .filter(|&&b| b != 0 && !touches[b as usize])
        .count() as u64;
    (count, cells)
}

/// skimage's `perimeter(mask, 4)`, literally: border = mask minus its erosion by the cross
/// (outside the mask's box counts as empty), then each border cell weighed by the code
/// `1 + 2 * (border 4-neighbours) + 10 * (border diagonal neighbours)`.
fn perimeter(mask: &[bool], bw: usize, bh: usize) -> f64 {
    let m = |x: isize, y: isize| {
        x >= 0
            && y >= 0
            && (x as usize) < bw
            && (y as usize) < bh
            && mask[y as usize * bw + x as usize]
    };
    let border =
        |x: isize, y: isize| m(x, y) && !(m(x - 1, y) && m(x + 1, y) && m(x, y - 1) && m(x, y + 1));
    let mut total = 0.0;
    for y in 0..bh as isize {
        for x in 0..bw as isize {
            if !border(x, y) {
                continue;
            }
            let mut code = 1;
            for (dx, dy, weight) in [
                (-1, 0, 2),
                (1, 0, 2),
                (0, -1, 2),
                (0, 1, 2),
                (-1, -1, 10),
                (1, -1, 10),
                (-1, 1, 10),
                (1, 1, 10),
            ] {
                if border(x + dx, y + dy) {
                    code += weight;
                }
            }
            total += match code {
                5 | 7 | 15 | 17 | 25 | 27 => 1.0,
                21 | 33 => std::f64::consts::SQRT_2,
                13 | 23 => (1.0 + std::f64::consts::SQRT_2) / 2.0,
                _ => 0.0,
            };
        }
    }
    total
}

/// The properties of every region of a label image (`w x h`, row-major, 0 the background),
/// `result[label - 1]` for every label up to the largest (absent ones: all zero).
pub fn regions(labels: &[u32], w: usize, h: usize) -> Vec<NaiveRegion> {
    let max = labels.iter().copied().max().unwrap_or(0);
    let mut out = vec![NaiveRegion::default(); max as usize];
    for (i, r) in out.iter_mut().enumerate() {
        let l = i as u32 + 1;
        let cells: Vec<(usize, usize)> = (0..w * h)
            .filter(|&c| labels[c] == l)
            .map(|c| (c % w, c / w))
            .collect();
        if cells.is_empty() {
            continue;
        }
        let b = (
            cells.iter().map(|c| c.0).min().unwrap_or(0),
            cells.iter().map(|c| c.1).min().unwrap_or(0),
            cells.iter().map(|c| c.0).max().unwrap_or(0) + 1,
            cells.iter().map(|c| c.1).max().unwrap_or(0) + 1,
        );
        r.area = cells.len() as u64;
        r.bbox = b;
        let n = cells.len() as f64;
        let cx = cells.iter().map(|c| c.0 as f64).sum::<f64>() / n;
        let cy = cells.iter().map(|c| c.1 as f64).sum::<f64>() / n;
        for p in 0..4 {
            for q in 0..4 {
                for &(x, y) in &cells {
                    r.raw[p][q] +=
                        ((x - b.0) as i128).pow(p as u32) * ((y - b.1) as i128).pow(q as u32);
                    r.central[p][q] +=
                        (x as f64 - cx).powi(p as i32) * (y as f64 - cy).powi(q as i32);
                }
            }
        }
        let (mask, bw, bh) = crop(labels, w, l, b);
        r.perimeter = perimeter(&mask, bw, bh);
        let comps = |conn| flood(bw, bh, conn, |x, y| mask[y * bw + x], |_, _| true).1 as i64;
        r.euler8 = comps(Connectivity::Eight) - holes(&mask, bw, bh, Connectivity::Four).0;
        r.euler4 = comps(Connectivity::Four) - holes(&mask, bw, bh, Connectivity::Eight).0;
        r.filled = r.area + holes(&mask, bw, bh, Connectivity::Eight).1;
    }
    out
}
