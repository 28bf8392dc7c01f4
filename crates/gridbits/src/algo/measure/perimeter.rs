//! skimage's perimeter estimator per region: each border cell of a region (a cell of the
//! region with a 4-neighbour outside it, the image's outside included) is weighted by how many
//! of its 4-neighbours and diagonal neighbours are border cells of the same region.

use super::neighbours::Neighbours;
use super::{check, index, table, LabelValue};
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
/// Bit-parallel over blocks of 64 cells, from the masks of equal neighbours (one pass of
/// vector compares, shared with the Euler numbers): the border cells of a row are a mask
/// (set cells not equal to all four neighbours; the image's outside differs); a border
/// cell's border 4-neighbours and diagonal neighbours of its own region are eight masks
/// (equal neighbour and border neighbour, shifted), counted per cell by bit-sliced adders
/// into skimage's weight classes; only the cells of a class are visited, to add them to
/// their region.
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
    counts(&Neighbours::new(labels, width, height)?, labels, width, out)
}

/// The counts of [`perimeters`] into `out` (zeros, one per label) from the image's
/// neighbour masks.
pub(super) fn counts<T: LabelValue>(
    masks: &Neighbours,
    labels: &[T],
    width: usize,
    mut out: Vec<PerimeterCounts>,
) -> Result<Vec<PerimeterCounts>, SizeError> {
    let height = labels.len() / width.max(1);
    let bpr = masks.words;
    // Border cells: in a region, with a 4-neighbour outside it (or off the image).
    let mut border = table(height * bpr, 0u64, (width, height))?;
    for y in 0..height {
        for j in 0..bpr {
            let [set, left, right, up, down, ..] = masks.block(y, j);
            border[y * bpr + j] = set & !(left & right & up & down);
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
        let r = &labels[y * width..(y + 1) * width];
        let (up_row, down_row) = (y.checked_sub(1), Some(y + 1));
        for j in 0..bpr {
            let b = border[y * bpr + j];
            if b == 0 {
                continue;
            }
            let x0 = j * 64;
            let [_, left, right, up, down, up_left, up_right, down_left, down_right] =
                masks.block(y, j);
            // Neighbours of the same region that are border cells: 4 edges, 4 corners.
            let edges = [
                left & shifted(Some(y), j, -1),
                right & shifted(Some(y), j, 1),
                up & shifted(up_row, j, 0),
                down & shifted(down_row, j, 0),
            ];
            let corners = [
                up_left & shifted(up_row, j, -1),
                up_right & shifted(up_row, j, 1),
                down_left & shifted(down_row, j, -1),
                down_right & shifted(down_row, j, 1),
            ];
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
