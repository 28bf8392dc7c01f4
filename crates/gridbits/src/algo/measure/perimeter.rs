//! skimage's perimeter estimator per region: each border cell of a region (a cell of the
//! region with a 4-neighbour outside it, the image's outside included) is weighted by how many
//! of its 4-neighbours and diagonal neighbours are border cells of the same region.

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

/// The weight class of skimage's code `1 + 2 * (border 4-neighbours) + 10 * (border diagonal
/// neighbours)`: 0 straight, 1 diagonal, 2 corner, 3 none.
fn class(code: usize) -> usize {
    match code {
        5 | 7 | 15 | 17 | 25 | 27 => 0,
        21 | 33 => 1,
        13 | 23 => 2,
        _ => 3,
    }
}

/// The perimeter counts of every region of `labels` (a `width x height` image, row-major, 0 the
/// background): `result[label - 1]`, one entry per label up to the largest.
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
    let size = (width, height);
    let mut out = table(count, PerimeterCounts::default(), size)?;
    let at = |x: usize, y: usize| index(labels[y * width + x]);
    // Border cells: in a region, with a 4-neighbour outside it.
    let mut border = table(width * height, false, size)?;
    for y in 0..height {
        for x in 0..width {
            let l = at(x, y);
            border[y * width + x] = l != 0
                && (x == 0
                    || y == 0
                    || x + 1 == width
                    || y + 1 == height
                    || at(x - 1, y) != l
                    || at(x + 1, y) != l
                    || at(x, y - 1) != l
                    || at(x, y + 1) != l);
        }
    }
    let same = |x: usize, y: usize, l: usize| border[y * width + x] && at(x, y) == l;
    for y in 0..height {
        for x in 0..width {
            if !border[y * width + x] {
                continue;
            }
            let l = at(x, y);
            let (left, right, up, down) = (x > 0, x + 1 < width, y > 0, y + 1 < height);
            let edges = usize::from(left && same(x - 1, y, l))
                + usize::from(right && same(x + 1, y, l))
                + usize::from(up && same(x, y - 1, l))
                + usize::from(down && same(x, y + 1, l));
            let corners = usize::from(left && up && same(x - 1, y - 1, l))
                + usize::from(right && up && same(x + 1, y - 1, l))
                + usize::from(left && down && same(x - 1, y + 1, l))
                + usize::from(right && down && same(x + 1, y + 1, l));
            let c = &mut out[l - 1];
            match class(1 + 2 * edges + 10 * corners) {
                0 => c.straight += 1,
                1 => c.diagonal += 1,
                2 => c.corner += 1,
                _ => {}
            }
        }
    }
    Ok(out)
}
