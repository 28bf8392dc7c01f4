//! Area, bounding box and raw moments of every region, in one pass over the label image by
//! blocks of 64 cells ([`for_each_piece`]: a block of one region at once, others by runs of
//! equal labels, no branch per cell): a piece adds its count and position sums (popcounts
//! of bit planes), or its power sums of columns (closed forms for a run, a table per byte
//! for a block with gaps), so a long run costs what a short one does, to a table indexed by
//! label (no branch per piece either, but the rare one that grows the table). Moments are summed about
//! the image's corner in wrapping 128-bit integers (one widening multiply per term where
//! the image is at most 65536 wide) and moved to the region's box corner at the end: the
//! moved sums fit, so the wrapping arithmetic gives them exactly.

use super::scan::for_each_piece;
use super::{check_len, grow, table, LabelValue};
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

/// Area, bounding box and first-order sums of one region: what [`region_boxes`] gives, a
/// fifth of a [`Region`]'s size.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegionBox {
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
    /// The sum of the cells' columns.
    pub sum_x: u128,
    /// The sum of the cells' rows.
    pub sum_y: u128,
}

impl RegionBox {
    /// The bounding box as `(x0, y0, x1, y1)`, ends exclusive.
    pub fn bbox(&self) -> (usize, usize, usize, usize) {
        (self.x0, self.y0, self.x1, self.y1)
    }

    /// The mean `(x, y)` of the cells (NaN for an empty region), as [`Region::centroid`]
    /// computes it: the box corner plus the mean offset from it.
    pub fn centroid(&self) -> (f64, f64) {
        let n = self.area as f64;
        let a = self.area as u128;
        (
            self.x0 as f64 + self.sum_x.wrapping_sub(a * self.x0 as u128) as f64 / n,
            self.y0 as f64 + self.sum_y.wrapping_sub(a * self.y0 as u128) as f64 / n,
        )
    }

    /// The [`Region`] with these sums (moments up to order 1).
    fn region(&self) -> Region {
        let mut r = Region {
            area: self.area,
            x0: self.x0,
            y0: self.y0,
            x1: self.x1,
            y1: self.y1,
            raw: [[0; 4]; 4],
        };
        if self.area > 0 {
            let a = self.area as u128;
            r.raw[0][0] = a as i128;
            r.raw[1][0] = self.sum_x.wrapping_sub(a * self.x0 as u128) as i128;
            r.raw[0][1] = self.sum_y.wrapping_sub(a * self.y0 as u128) as i128;
        }
        r
    }
}

/// Bounding box while scanning: columns fit `u32` (rows are scanned with `u32` positions).
#[derive(Clone, Copy)]
struct Bounds {
    x0: u32,
    x1: u32,
    y0: usize,
    y1: usize,
}

impl Bounds {
    const EMPTY: Bounds = Bounds {
        x0: u32::MAX,
        x1: 0,
        y0: usize::MAX,
        y1: 0,
    };

    /// Takes in the run `s..e` of row `y` (rows come in order).
    #[inline(always)]
    fn add(&mut self, s: usize, e: usize, y: usize) {
        self.x0 = self.x0.min(s as u32);
        self.x1 = self.x1.max(e as u32);
        self.y0 = self.y0.min(y);
        self.y1 = y + 1;
    }
}

/// One region's sums while [`region_boxes`] scans, in `u64` where no sum can pass it.
#[derive(Clone, Copy)]
struct BoxSums<S> {
    area: u64,
    sum_x: S,
    sum_y: S,
    bounds: Bounds,
}

/// The error of rows too wide for the scans.
fn row_error(width: usize, height: usize) -> SizeError {
    SizeError::new("label image", width, height, "rows of 2^32 cells or more")
}

/// The sum of the positions of the set bits of `m`: bit `k` of the positions, counted.
#[inline(always)]
fn position_sum(m: u64) -> u64 {
    const BITS: [u64; 6] = [
        0xAAAA_AAAA_AAAA_AAAA,
        0xCCCC_CCCC_CCCC_CCCC,
        0xF0F0_F0F0_F0F0_F0F0,
        0xFF00_FF00_FF00_FF00,
        0xFFFF_0000_FFFF_0000,
        0xFFFF_FFFF_0000_0000,
    ];
    BITS.iter()
        .enumerate()
        .map(|(k, &b)| u64::from((m & b).count_ones()) << k)
        .sum()
}

/// Every region's area, bounding box and sums of columns and rows (from which the
/// centroid): `result[label - 1]`, one entry per label up to the largest in `labels` (a
/// `width x height` image, row-major, 0 and negative values the background). One pass over
/// the runs of equal labels, to a compact table: [`regions`] without moments, without its
/// table of [`Region`]s.
///
/// Errors when `labels.len()` is not `width * height`, when a row has 2^32 cells or more,
/// or when the table cannot be allocated.
///
/// ```
/// use gridbits::algo::measure::region_boxes;
/// let labels: [i32; 6] = [0, 2, 2,
///                         -1, 0, 2];
/// let r = region_boxes(&labels, 3, 2).unwrap();
/// assert_eq!(r[0].area, 0); // label 1 is absent
/// assert_eq!((r[1].area, r[1].bbox()), (3, (1, 0, 3, 2)));
/// let (cx, cy) = r[1].centroid();
/// assert!((cx - 5.0 / 3.0).abs() < 1e-12 && (cy - 1.0 / 3.0).abs() < 1e-12);
/// ```
pub fn region_boxes<T: LabelValue>(
    labels: &[T],
    width: usize,
    height: usize,
) -> Result<Vec<RegionBox>, SizeError> {
    check_len(labels, width, height)?;
    // Sums of columns (rows) are under cells * width (height).
    if (labels.len() as u128) * (width.max(height) as u128) < 1 << 64 {
        box_pass::<T, u64>(labels, width, height)
    } else {
        box_pass::<T, u128>(labels, width, height)
    }
}

/// [`region_boxes`] with sums of type `S`.
fn box_pass<T, S>(labels: &[T], width: usize, height: usize) -> Result<Vec<RegionBox>, SizeError>
where
    T: LabelValue,
    S: Copy + Default + From<u64> + std::ops::AddAssign + Into<u128>,
{
    let size = (width, height);
    let empty = BoxSums {
        area: 0,
        sum_x: S::default(),
        sum_y: S::default(),
        bounds: Bounds::EMPTY,
    };
    let mut acc: Vec<BoxSums<S>> = Vec::new();
    if u32::try_from(width).is_err() {
        return Err(row_error(width, height));
    }
    let mut max = 0;
    // Adds cells `s..e` (`len` of them, summing to `sum`) of row `y` to region `l`.
    let mut add = |l: u64, s: usize, e: usize, len: u64, sum: u64, y: usize| {
        if l >= acc.len() as u64 {
            grow(&mut acc, l, empty, size)?;
        }
        max = max.max(l);
        let r = &mut acc[l as usize];
        r.area += len;
        r.sum_x += S::from(sum);
        r.sum_y += S::from(y as u64 * len);
        r.bounds.add(s, e, y);
        Ok::<(), SizeError>(())
    };
    for_each_piece(labels, width, height, |l, y, base, piece| {
        let len = u64::from(piece.count_ones());
        let sum = base as u64 * len + position_sum(piece);
        let (s, e) = (piece.trailing_zeros(), 64 - piece.leading_zeros());
        add(l, base + s as usize, base + e as usize, len, sum, y)
    })?;
    let mut out = table(max as usize, RegionBox::default(), size)?;
    for (o, r) in out.iter_mut().zip(acc.iter().skip(1)) {
        if r.area > 0 {
            let b = r.bounds;
            *o = RegionBox {
                area: r.area,
                x0: b.x0 as usize,
                y0: b.y0,
                x1: b.x1 as usize,
                y1: b.y1,
                sum_x: r.sum_x.into(),
                sum_y: r.sum_y.into(),
            };
        }
    }
    Ok(out)
}

/// Every region's area, bounding box and raw moments (`moments`: every `x^p y^q` with `p, q
/// <= 3`, as skimage's `moments`; else up to order 1, which is enough for the centroid):
/// `result[label - 1]`, one entry per label up to the largest in `labels` (a `width x height`
/// image, row-major, 0 and negative values the background).
///
/// Errors when `labels.len()` is not `width * height`, when `moments` is asked of an image
/// of 2^30 cells or more (the exact sums could overflow `i128`), when a row has 2^32 cells
/// or more, or when the table cannot be allocated.
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
    if !moments {
        let boxes = region_boxes(labels, width, height)?;
        let mut out = table(boxes.len(), Region::default(), (width, height))?;
        for (o, b) in out.iter_mut().zip(&boxes) {
            *o = b.region();
        }
        return Ok(out);
    }
    check_len(labels, width, height)?;
    if labels.len() >= 1 << 30 {
        return Err(SizeError::new(
            "label image",
            width,
            height,
            "region moments of images of 2^30 cells or more",
        ));
    }
    // A row's power sums of columns (under width^4 / 4) and the powers of a row fit u64
    // (one widening multiply per term).
    if width <= 1 << 16 && height < 1 << 21 {
        moment_pass::<T, true>(labels, width, height)
    } else {
        moment_pass::<T, false>(labels, width, height)
    }
}

/// `sum_{x < n} x^p` for `p = 1, 2, 3` (`n < 2^32`), exact, or mod 2^64 with `FAST` (exact
/// for `n <= 2^16`).
#[inline(always)]
fn power_sums<const FAST: bool>(n: u64) -> [u128; 3] {
    let s1 = n * n.saturating_sub(1) / 2;
    let odd = (2 * n).saturating_sub(1);
    // n (n - 1) (2n - 1) / 6 = s1 (2n - 1) / 3, and 3 divides s1 or 2n - 1.
    let (a, b) = if s1.is_multiple_of(3) {
        (s1 / 3, odd)
    } else {
        (s1, odd / 3)
    };
    if FAST {
        [
            s1 as u128,
            a.wrapping_mul(b) as u128,
            s1.wrapping_mul(s1) as u128,
        ]
    } else {
        [s1 as u128, a as u128 * b as u128, s1 as u128 * s1 as u128]
    }
}

/// `[count, sum i, sum i^2, sum i^3]` of the set bits `i` of each byte value.
const BYTE_POWERS: [[u32; 4]; 256] = {
    let mut t = [[0u32; 4]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 != 0 {
                t[b][0] += 1;
                t[b][1] += i;
                t[b][2] += i * i;
                t[b][3] += i * i * i;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// `sum x^p` for `p = 0..=3` over the cells `x = base + i` of the set bits `i` of `piece`,
/// a byte at a time (each byte's sums about its first cell from [`BYTE_POWERS`], moved to
/// the row's origin by the binomial expansion): exact, or mod 2^64 with `FAST` (exact for
/// rows up to 2^16 cells).
#[inline(always)]
fn piece_powers<const FAST: bool>(base: u64, piece: u64) -> [u128; 4] {
    let mut out = [0u128; 4];
    let mut rest = piece;
    while rest != 0 {
        let k = rest.trailing_zeros() / 8;
        let byte = (rest >> (8 * k)) & 0xff;
        rest &= !(0xff << (8 * k));
        let [c, s1, s2, s3] = BYTE_POWERS[byte as usize].map(u128::from);
        let o = u128::from(base + 8 * u64::from(k));
        let (o2, o3) = (o * o, o * o * o);
        let terms = [
            c,
            c * o + s1,
            c * o2 + 2 * o * s1 + s2,
            c * o3 + 3 * o2 * s1 + 3 * o * s2 + s3,
        ];
        for (sum, t) in out.iter_mut().zip(terms) {
            *sum = if FAST {
                (*sum as u64).wrapping_add(t as u64) as u128
            } else {
                sum.wrapping_add(t)
            };
        }
    }
    out
}

/// Raw moments of one region about the image corner, mod 2^128, while [`moment_pass`] scans:
/// the power sums of its columns in the current row are gathered first (`row`, four adds a
/// run) and multiplied by the row's powers once per row the region is in (`flush`).
#[derive(Clone, Copy)]
struct MomentSums {
    raw: [[u128; 4]; 4],
    /// `sum x^p` over the region's cells of row `stamp - 1` not yet in `raw`.
    row: [u128; 4],
    /// One past the row of `row` (0 before the first).
    stamp: usize,
    bounds: Bounds,
}

impl MomentSums {
    /// Adds the gathered row (powers `ys` of its index) to the moments; `FAST`: the row's
    /// sums and the powers fit `u64` (one widening multiply each).
    #[inline(always)]
    fn flush<const FAST: bool>(&mut self, ys: &[u128; 4]) {
        for (p, &sp) in self.row.iter().enumerate() {
            let raw = &mut self.raw[p];
            raw[0] = raw[0].wrapping_add(sp);
            for q in 1..4 {
                let term = if FAST {
                    (sp as u64 as u128) * (ys[q] as u64 as u128)
                } else {
                    sp.wrapping_mul(ys[q])
                };
                raw[q] = raw[q].wrapping_add(term);
            }
        }
        self.row = [0; 4];
    }
}

/// [`regions`] with moments; `FAST`: the power sums of a row's columns and the powers of a
/// row fit `u64`.
fn moment_pass<T: LabelValue, const FAST: bool>(
    labels: &[T],
    width: usize,
    height: usize,
) -> Result<Vec<Region>, SizeError> {
    let size = (width, height);
    let empty = MomentSums {
        raw: [[0; 4]; 4],
        row: [0; 4],
        stamp: 0,
        bounds: Bounds::EMPTY,
    };
    let mut acc: Vec<MomentSums> = Vec::new();
    if u32::try_from(width).is_err() {
        return Err(row_error(width, height));
    }
    // The labels met in the current row (`row`), each once.
    let mut met = table(width + 1, 0usize, size)?;
    let (mut n, mut row) = (0, 0);
    let flush = |acc: &mut [MomentSums], met: &[usize], y: usize| {
        let y1 = y as u128;
        let ys = [1, y1, y1 * y1, y1 * y1 * y1];
        for &l in met {
            acc[l].flush::<FAST>(&ys);
        }
    };
    let mut max = 0;
    for_each_piece(labels, width, height, |l, y, base, piece| {
        if y != row {
            flush(&mut acc, &met[..n], row);
            (n, row) = (0, y);
        }
        if l >= acc.len() as u64 {
            grow(&mut acc, l, empty, size)?;
        }
        max = max.max(l);
        let r = &mut acc[l as usize];
        let (s, e) = (
            base + piece.trailing_zeros() as usize,
            base + 64 - piece.leading_zeros() as usize,
        );
        let px = if piece.count_ones() as usize == e - s {
            // A run: closed forms.
            let (hi, lo) = (power_sums::<FAST>(e as u64), power_sums::<FAST>(s as u64));
            [
                (e - s) as u128,
                hi[0].wrapping_sub(lo[0]),
                hi[1].wrapping_sub(lo[1]),
                hi[2].wrapping_sub(lo[2]),
            ]
        } else {
            piece_powers::<FAST>(base as u64, piece)
        };
        for (sum, v) in r.row.iter_mut().zip(px) {
            *sum = if FAST {
                (*sum as u64).wrapping_add(v as u64) as u128
            } else {
                sum.wrapping_add(v)
            };
        }
        met[n] = l as usize;
        n += usize::from(r.stamp != y + 1);
        r.stamp = y + 1;
        r.bounds.add(s, e, y);
        Ok::<(), SizeError>(())
    })?;
    flush(&mut acc, &met[..n], row);
    let mut out = table(max as usize, Region::default(), size)?;
    for (o, r) in out.iter_mut().zip(acc.iter().skip(1)) {
        let area = r.raw[0][0] as u64;
        if area > 0 {
            let b = r.bounds;
            *o = Region {
                area,
                x0: b.x0 as usize,
                y0: b.y0,
                x1: b.x1 as usize,
                y1: b.y1,
                raw: corner(&r.raw, b.x0 as u128, b.y0 as u128),
            };
        }
    }
    Ok(out)
}

/// Moments about the image corner (mod 2^128) moved to the cell `(x0, y0)`:
/// `sum (x - x0)^p (y - y0)^q`, first along `x`, then along `y` (`sum_i C(p, i) (-x0)^(p -
/// i) raw[i][q]`), in wrapping arithmetic: the moved sums are under 2^127, so the result is
/// exact.
fn corner(raw: &[[u128; 4]; 4], x0: u128, y0: u128) -> [[i128; 4]; 4] {
    let powers = |v: u128| {
        let n = v.wrapping_neg();
        let n2 = n.wrapping_mul(n);
        [1u128, n, n2, n2.wrapping_mul(n)]
    };
    let (px, py) = (powers(x0), powers(y0));
    let mut along_x = [[0u128; 4]; 4];
    for p in 0..4 {
        for i in 0..=p {
            let c = (BINOM[p][i] as u128).wrapping_mul(px[p - i]);
            for q in 0..4 {
                along_x[p][q] = along_x[p][q].wrapping_add(c.wrapping_mul(raw[i][q]));
            }
        }
    }
    let mut out = [[0i128; 4]; 4];
    for q in 0..4 {
        for j in 0..=q {
            let c = (BINOM[q][j] as u128).wrapping_mul(py[q - j]);
            for p in 0..4 {
                out[p][q] = (out[p][q] as u128).wrapping_add(c.wrapping_mul(along_x[p][j])) as i128;
            }
        }
    }
    out
}
