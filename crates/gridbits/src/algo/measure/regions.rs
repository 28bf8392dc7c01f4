//! Area, bounding box and raw moments of every region, in one pass over the runs of equal
//! labels: a run adds closed-form power sums of its columns, so a long run costs what a
//! short one does.

use super::{check, for_each_run, table, LabelValue};
use crate::SizeError;

/// Area, bounding box and moments of one region of a label image.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Region {
    /// Number of cells (0 for a label absent from the image).
    pub area: u64,
    /// First column of the bounding box.
    pub x0: usize,
    /// First row of the bounding box.
    pub y0: usize,
    /// One past the last column.
    pub x1: usize,
    /// One past the last row.
    pub y1: usize,
    /// `raw[p][q]`: the sum over the cells of `(x - x0)^p * (y - y0)^q`, exact, for
    /// `p + q <= 1`, and for every `p, q <= 3` when [`regions`] was asked for moments (0
    /// otherwise). skimage's `moments` of the region is `raw[q][p]` (rows first).
    pub raw: [[i128; 4]; 4],
}

impl Region {
    /// The bounding box as `(x0, y0, x1, y1)`, ends exclusive.
    pub fn bbox(&self) -> (usize, usize, usize, usize) {
        (self.x0, self.y0, self.x1, self.y1)
    }

    /// The mean `(x, y)` of the cells (NaN for an empty region).
    pub fn centroid(&self) -> (f64, f64) {
        let n = self.area as f64;
        (
            self.x0 as f64 + self.raw[1][0] as f64 / n,
            self.y0 as f64 + self.raw[0][1] as f64 / n,
        )
    }

    /// The central moments `mu[p][q]` (the sum of `(x - cx)^p * (y - cy)^q`, `p, q <= 3`)
    /// from the raw ones: moved exactly (in integers) to the cell nearest the centroid, then
    /// by less than half a cell in floating point, so that no large terms cancel. Orders
    /// above 1 need the moments of [`regions`].
    pub fn central(&self) -> [[f64; 4]; 4] {
        let mut mu = [[0.0; 4]; 4];
        let n = self.area as i128;
        if n == 0 {
            return mu;
        }
        let (sx, sy) = (self.raw[1][0], self.raw[0][1]);
        // The nearest cell to the centroid (relative to the box corner), rounding halves down.
        let (ix, iy) = (
            (2 * sx + n).div_euclid(2 * n),
            (2 * sy + n).div_euclid(2 * n),
        );
        let (dx, dy) = (
            (sx - ix * n) as f64 / n as f64,
            (sy - iy * n) as f64 / n as f64,
        );
        let near = shift(&self.raw, -ix, -iy);
        for p in 0..4 {
            for q in 0..4 {
                let mut total = 0.0;
                for i in 0..=p {
                    for j in 0..=q {
                        total += (BINOM[p][i] * BINOM[q][j]) as f64
                            * (-dx).powi((p - i) as i32)
                            * (-dy).powi((q - j) as i32)
                            * near[i][j];
                    }
                }
                mu[p][q] = total;
            }
        }
        mu
    }
}

/// Binomial coefficients up to 3.
const BINOM: [[i128; 4]; 4] = [[1, 0, 0, 0], [1, 1, 0, 0], [1, 2, 1, 0], [1, 3, 3, 1]];

/// The moments `raw` moved to an origin `(sx, sy)` cells away (`sum (dx + sx)^p (dy + sy)^q`),
/// exactly where `i128` holds every term, else in floating point.
fn shift(raw: &[[i128; 4]; 4], sx: i128, sy: i128) -> [[f64; 4]; 4] {
    let mut out = [[0.0; 4]; 4];
    for p in 0..4 {
        for q in 0..4 {
            let exact = (|| {
                let mut t: i128 = 0;
                for i in 0..=p {
                    for j in 0..=q {
                        let term = (BINOM[p][i] * BINOM[q][j])
                            .checked_mul(sx.checked_pow((p - i) as u32)?)?
                            .checked_mul(sy.checked_pow((q - j) as u32)?)?
                            .checked_mul(raw[i][j])?;
                        t = t.checked_add(term)?;
                    }
                }
                Some(t)
            })();
            out[p][q] = match exact {
                Some(t) => t as f64,
                None => {
                    let mut t = 0.0;
                    for i in 0..=p {
                        for j in 0..=q {
                            t += (BINOM[p][i] * BINOM[q][j]) as f64
                                * (sx as f64).powi((p - i) as i32)
                                * (sy as f64).powi((q - j) as i32)
                                * raw[i][j] as f64;
                        }
                    }
                    t
                }
            };
        }
    }
    out
}

/// `sum_{k=1}^{m} k^p` as a polynomial in `m` (Faulhaber), for `p <= 3`: valid for every
/// integer `m`, so `sum_{k=a}^{b} k^p = g(b) - g(a - 1)` for negative `a` too.
/// `|m| < 2^31` (a column offset): the divisions are of `i64`s (a shift and a multiply; an
/// `i128` division is a library call), the products `i128`.
#[inline(always)]
fn faulhaber(m: i64) -> [i128; 4] {
    let s1 = m * (m + 1) / 2;
    let odd = 2 * m + 1;
    // m (m + 1) (2m + 1) / 6 = s1 (2m + 1) / 3, and 3 divides s1 or 2m + 1.
    let s2 = if s1 % 3 == 0 {
        (s1 / 3) as i128 * odd as i128
    } else {
        s1 as i128 * (odd / 3) as i128
    };
    [m as i128, s1 as i128, s2, s1 as i128 * s1 as i128]
}

/// Every region's area, bounding box and raw moments (`moments`: every `x^p y^q` with `p, q
/// <= 3`, as skimage's `moments`; else up to order 1, which is enough for the centroid):
/// `result[label - 1]`, one entry per label up to the largest in `labels` (a `width x height`
/// image, row-major, 0 the background).
///
/// Errors when `labels.len()` is not `width * height`, when `moments` is asked of an image
/// of 2^30 cells or more (the exact sums could overflow `i128`), or when the table cannot be
/// allocated.
///
/// ```
/// use gridbits::algo::measure::regions;
/// let labels: [u8; 6] = [0, 2, 2,
///                        0, 0, 2];
/// let r = regions(&labels, 3, 2, true).unwrap();
/// assert_eq!(r[0].area, 0); // label 1 is absent
/// assert_eq!((r[1].area, r[1].bbox()), (3, (1, 0, 3, 2)));
/// assert!((r[1].central()[2][0] - 2.0 / 3.0).abs() < 1e-12); // (x - cx)^2 summed
/// ```
pub fn regions<T: LabelValue>(
    labels: &[T],
    width: usize,
    height: usize,
    moments: bool,
) -> Result<Vec<Region>, SizeError> {
    let count = check(labels, width, height)?;
    if moments && labels.len() >= 1 << 30 {
        return Err(SizeError::new(
            "label image",
            width,
            height,
            "region moments of images of 2^30 cells or more",
        ));
    }
    let size = (width, height);
    if !moments {
        return basic(labels, width, height, count);
    }
    let mut out = table(count, Region::default(), size)?;
    // The first cell of each region: moments are summed about it (it has the smallest row,
    // so row offsets are never negative), then moved to the bounding-box corner.
    let mut first = table(count, 0usize, size)?;
    for_each_run(labels, width, height, |y, s, x, l| {
        let r = &mut out[l - 1];
        if r.area == 0 {
            (r.x0, r.y0, r.x1) = (s, y, x);
            first[l - 1] = s;
        } else {
            r.x0 = r.x0.min(s);
            r.x1 = r.x1.max(x);
        }
        r.y1 = y + 1;
        let len = (x - s) as u64;
        r.area += len;
        // Column offsets from the first cell, under the width (under 2^30).
        let a = s as i64 - first[l - 1] as i64;
        let b = a + len as i64 - 1;
        let dy = (y - r.y0) as i128;
        let (hi, lo) = (faulhaber(b), faulhaber(a - 1));
        let px = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], hi[3] - lo[3]];
        let dy2 = dy * dy;
        let dys = [1, dy, dy2, dy2 * dy];
        for (p, &sp) in px.iter().enumerate() {
            for (q, &dq) in dys.iter().enumerate() {
                r.raw[p][q] += sp * dq;
            }
        }
    });
    for (r, &f) in out.iter_mut().zip(&first) {
        if r.area > 0 {
            shift_x(&mut r.raw, (f - r.x0) as i128);
        }
    }
    Ok(out)
}

/// Moves moments summed about column `x0 + s` to column `x0`:
/// `sum (dx + s)^p dy^q = sum_k C(p, k) s^(p - k) raw[k][q]`.
fn shift_x(raw: &mut [[i128; 4]; 4], s: i128) {
    if s == 0 {
        return;
    }
    let old = *raw;
    for p in 0..4 {
        for q in 0..4 {
            let mut t = 0;
            let mut sk = 1; // s^(p - k), k from p down
            for k in (0..=p).rev() {
                t += BINOM[p][k] * sk * old[k][q];
                sk *= s;
            }
            raw[p][q] = t;
        }
    }
}

/// Area, box and first-order sums of one region while [`basic`] scans: a quarter of a
/// [`Region`]'s size, so that the table of many small regions stays in cache.
#[derive(Clone, Copy, Default)]
struct Basic {
    area: u64,
    x0: usize,
    x1: usize,
    y0: usize,
    y1: usize,
    /// Sums of `x` and of `y - y0` over the cells.
    sx: i128,
    sy: i128,
}

/// [`regions`] without moments: the run pass on the compact [`Basic`] table.
fn basic<T: LabelValue>(
    labels: &[T],
    width: usize,
    height: usize,
    count: usize,
) -> Result<Vec<Region>, SizeError> {
    let mut acc = table(count, Basic::default(), (width, height))?;
    for_each_run(labels, width, height, |y, s, x, l| {
        let r = &mut acc[l - 1];
        if r.area == 0 {
            (r.x0, r.y0, r.x1) = (s, y, x);
        } else {
            r.x0 = r.x0.min(s);
            r.x1 = r.x1.max(x);
        }
        r.y1 = y + 1;
        let len = x - s;
        r.area += len as u64;
        // The sum of s..x, len (s + x - 1) / 2, halving the even factor first (no i128
        // division); the products may pass 2^64 on the largest images.
        let (p, q) = if len % 2 == 1 {
            ((s + x - 1) / 2, len)
        } else {
            (s + x - 1, len / 2)
        };
        r.sx += p as i128 * q as i128;
        r.sy += ((y - r.y0) * len) as i128;
    });
    let mut out = table(count, Region::default(), (width, height))?;
    for (o, r) in out.iter_mut().zip(&acc) {
        if r.area == 0 {
            continue;
        }
        (o.area, o.x0, o.y0, o.x1, o.y1) = (r.area, r.x0, r.y0, r.x1, r.y1);
        o.raw[0][0] = r.area as i128;
        o.raw[1][0] = r.sx - r.area as i128 * r.x0 as i128;
        o.raw[0][1] = r.sy;
    }
    Ok(out)
}
