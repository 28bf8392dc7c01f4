//! skimage's perimeter estimator per region: each border cell of a region (a cell of the
//! region with a 4-neighbour outside it, the image's outside included) is weighted by how many
//! of its 4-neighbours and diagonal neighbours are border cells of the same region.

use super::{check, index, nonzero_mask, table, LabelValue};
use crate::algo::runs::masks::shifted_eq;
use crate::SizeError;

/// The border cells of one region by the weight skimage gives their configuration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PerimeterCounts {
    /// Cells of weight 1 (2 or 3 border 4-neighbours, at most 2 diagonal).
    pub straight: u64,
    /// Cells of weight sqrt(2) (no border 4-neighbour and 2 diagonal, or 1 and 3).
    pub diagonal: u64,
    /// Cells of weight (1 + sqrt(2)) / 2 (1 border 4-neighbour and 1 or 2 diagonal).
    pub corner: u64,
}

impl PerimeterCounts {
    /// The perimeter: `straight + diagonal * sqrt(2) + corner * (1 + sqrt(2)) / 2`, as
    /// `skimage.measure.perimeter(region, neighborhood=4)` estimates it.
    pub fn perimeter(&self) -> f64 {
        let s2 = std::f64::consts::SQRT_2;
        self.straight as f64 + self.diagonal as f64 * s2 + self.corner as f64 * (1.0 + s2) / 2.0
    }
}

/// The perimeter counts of every region of `labels` (a `width x height` image, row-major, 0 the
/// background): `result[label - 1]`, one entry per label up to the largest.
///
/// Bit-parallel over blocks of 64 cells: the border cells of a row are a mask (set cells
/// not equal to all four neighbours, from vector compares; the image's outside differs);
/// a border cell's border 4-neighbours and diagonal neighbours of its own region are eight
/// masks (equal neighbour and border neighbour, shifted), counted per cell by bit-sliced
/// adders into skimage's weight classes; only the cells of a class are visited, to add
/// them to their region.
///
/// Errors when `labels.len()` is not `width * height` or memory cannot be had.
///
/// ```
/// use gridbits::algo::measure::perimeters;
/// // A 3x3 square: 8 border cells, 4 sides of weight 1 and 4 corners of weight 1.
/// let p = perimeters(&[1u8; 9], 3, 3).unwrap();
/// assert_eq!(p[0].perimeter(), 8.0);
/// ```
pub fn perimeters<T: LabelValue>(
    labels: &[T],
    width: usize,
    height: usize,
) -> Result<Vec<PerimeterCounts>, SizeError> {
    let count = check(labels, width, height)?;
    let out = table(count, PerimeterCounts::default(), (width, height))?;
    if width == 0 || height == 0 {
        return Ok(out);
    }
    let features = crate::cpu::Features::AVX2.union(crate::cpu::Features::POPCNT);
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has(features) {
        // SAFETY: `cpu::has` checked AVX2 and POPCNT just above: the features `avx2` is
        // compiled for, its only requirement.
        return unsafe { avx2(labels, width, height, out) };
    }
    let _ = features;
    counts(labels, width, height, out)
}

/// [`counts`] compiled for AVX2 (compares of wide labels four or more at a time) and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn avx2<T: LabelValue>(
    labels: &[T],
    width: usize,
    height: usize,
    out: Vec<PerimeterCounts>,
) -> Result<Vec<PerimeterCounts>, SizeError> {
    counts(labels, width, height, out)
}

/// The counts of [`perimeters`] into `out` (zeros, one per label), on a non-empty image.
#[inline(always)]
fn counts<T: LabelValue>(
    labels: &[T],
    width: usize,
    height: usize,
    mut out: Vec<PerimeterCounts>,
) -> Result<Vec<PerimeterCounts>, SizeError> {
    let size = (width, height);
    let bpr = width.div_ceil(64);
    let row = |y: usize| &labels[y * width..(y + 1) * width];
    // Border cells: in a region, with a 4-neighbour outside it (or off the image).
    let mut border = table(height * bpr, 0u64, size)?;
    for y in 0..height {
        let r = row(y);
        for j in 0..bpr {
            let (x0, n) = (j * 64, (width - j * 64).min(64));
            let set = nonzero_mask(&r[x0..x0 + n]);
            let mut inner = shifted_eq(r, r, x0, n, -1) & shifted_eq(r, r, x0, n, 1);
            inner &= if y > 0 {
                shifted_eq(r, row(y - 1), x0, n, 0)
            } else {
                0
            };
            inner &= if y + 1 < height {
                shifted_eq(r, row(y + 1), x0, n, 0)
            } else {
                0
            };
            border[y * bpr + j] = set & !inner;
        }
    }
    // The border mask of row `y` (0 off the image) shifted so that bit i is cell x0 + i + d.
    let shifted = |y: Option<usize>, j: usize, d: i32| -> u64 {
        let Some(y) = y.filter(|&y| y < height) else {
            return 0;
        };
        let b = &border[y * bpr..(y + 1) * bpr];
        match d {
            -1 => (b[j] << 1) | j.checked_sub(1).map_or(0, |k| b[k] >> 63),
            1 => (b[j] >> 1) | b.get(j + 1).map_or(0, |&w| w << 63),
            _ => b[j],
        }
    };
    for y in 0..height {
        let r = row(y);
        let (up, down) = (y.checked_sub(1), Some(y + 1));
        for j in 0..bpr {
            let b = border[y * bpr + j];
            if b == 0 {
                continue;
            }
            let (x0, n) = (j * 64, (width - j * 64).min(64));
            // Neighbours of the same region that are border cells: 4 edges, 4 corners.
            let near = |other: Option<usize>, d: i32| match other.filter(|&o| o < height) {
                Some(o) => shifted_eq(r, row(o), x0, n, d as isize) & shifted(Some(o), j, d),
                None => 0,
            };
            let edges = [
                shifted_eq(r, r, x0, n, -1) & shifted(Some(y), j, -1),
                shifted_eq(r, r, x0, n, 1) & shifted(Some(y), j, 1),
                near(up, 0),
                near(down, 0),
            ];
            let corners = [near(up, -1), near(up, 1), near(down, -1), near(down, 1)];
            let (e0, e1, e2) = count4(edges);
            let (c0, c1, c2) = count4(corners);
            // skimage's classes of (edges, corners): weight 1 for 2-3 edges and at most 2
            // corners; sqrt(2) for (0, 2) and (1, 3); (1 + sqrt(2)) / 2 for (1, 1) and (1, 2).
            let (one_edge, no_edge) = (e0 & !e1, !(e0 | e1 | e2));
            let straight = b & e1 & !((c0 & c1) | c2);
            let diagonal = b & ((no_edge & !c0 & c1) | (one_edge & c0 & c1));
            let corner = b & one_edge & (c0 ^ c1);
            for (mut m, class) in [(straight, 0), (diagonal, 1), (corner, 2)] {
                while m != 0 {
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let c = &mut out[index(r[x0 + i]) - 1];
                    match class {
                        0 => c.straight += 1,
                        1 => c.diagonal += 1,
                        _ => c.corner += 1,
                    }
                }
            }
        }
    }
    Ok(out)
}

/// The per-bit count of four masks, bit-sliced: bits 0, 1 and 2 of each cell's count.
#[inline(always)]
fn count4([a, b, c, d]: [u64; 4]) -> (u64, u64, u64) {
    let (s1, c1) = (a ^ b, a & b);
    let (s2, c2) = (c ^ d, c & d);
    let carry = s1 & s2;
    (s1 ^ s2, c1 ^ c2 ^ carry, (c1 & c2) | ((c1 ^ c2) & carry))
}
