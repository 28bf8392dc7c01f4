//! The Euler number of every region from its 2x2 configurations, with the coefficients of
//! Ohser et al. that `skimage.measure.euler_number` uses.

use super::{check, index, table, LabelValue};
use crate::{Connectivity, SizeError};

/// Coefficient of each 2x2 configuration (bits: bottom-right 1, top-right 2, bottom-left 4,
/// top-left 8), regions 8-connected (skimage's `EULER_COEFS2D_8`).
const EIGHT: [i64; 16] = [0, 0, 0, 0, 0, 0, -1, 0, 1, 0, 0, 0, 0, 0, -1, 0];
/// The same, regions 4-connected (`EULER_COEFS2D_4`).
const FOUR: [i64; 16] = [0, 1, 0, 0, 0, 0, 0, -1, 0, 1, 0, 0, 0, 0, 0, 0];

/// The Euler number (components minus holes) of every region of `labels` (a `width x height`
/// image, row-major, 0 the background), each region taken alone with its cells joined under
/// `conn` (holes under the other connectivity): `result[label - 1]`, one entry per label up to
/// the largest. skimage's `regionprops` property `euler_number` is the one of
/// [`Connectivity::Eight`].
///
/// Errors when `labels.len()` is not `width * height` or memory cannot be had.
///
/// ```
/// use gridbits::algo::measure::euler_numbers;
/// use gridbits::Connectivity;
/// let ring: [u8; 9] = [1, 1, 1, 1, 0, 1, 1, 1, 1];
/// assert_eq!(euler_numbers(&ring, 3, 3, Connectivity::Eight).unwrap(), [0]);
/// let diagonal: [u8; 4] = [1, 0, 0, 1];
/// assert_eq!(euler_numbers(&diagonal, 2, 2, Connectivity::Eight).unwrap(), [1]);
/// assert_eq!(euler_numbers(&diagonal, 2, 2, Connectivity::Four).unwrap(), [2]);
/// ```
pub fn euler_numbers<T: LabelValue>(
    labels: &[T],
    width: usize,
    height: usize,
    conn: Connectivity,
) -> Result<Vec<i64>, SizeError> {
    let count = check(labels, width, height)?;
    let mut out = table(count, 0i64, (width, height))?;
    let coef = match conn {
        Connectivity::Eight => &EIGHT,
        Connectivity::Four => &FOUR,
    };
    let at = |x: usize, y: usize| {
        if x < width && y < height {
            index(labels[y * width + x])
        } else {
            0
        }
    };
    // Every 2x2 window that overlaps the image, named by its bottom-right cell (x, y) (the
    // top-left one is (x - 1, y - 1), off the image for x or y = 0: wrapping makes it so).
    for y in 0..=height {
        for x in 0..=width {
            let (xl, yu) = (x.wrapping_sub(1), y.wrapping_sub(1));
            let cells = [at(x, y), at(x, yu), at(xl, y), at(xl, yu)];
            if cells[0] == cells[1] && cells[0] == cells[2] && cells[0] == cells[3] {
                continue; // one region alone (configuration 15) or background: coefficient 0
            }
            for (i, &l) in cells.iter().enumerate() {
                if l == 0 || cells[..i].contains(&l) {
                    continue;
                }
                let pattern = cells
                    .iter()
                    .enumerate()
                    .fold(0, |p, (k, &c)| p | (usize::from(c == l) << k));
                out[l - 1] += coef[pattern];
            }
        }
    }
    Ok(out)
}
