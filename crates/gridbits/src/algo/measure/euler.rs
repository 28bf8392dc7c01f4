//! The Euler number of every region from its 2x2 configurations, with the coefficients of
//! Ohser et al. that `skimage.measure.euler_number` uses, counted bit-parallel: the
//! configurations of nonzero coefficient are three, each a boolean formula over the masks of
//! which neighbours of a cell hold its label (vector compares of a block of 64 cells with
//! the row itself and the next or previous row), and only the cells of a configuration are
//! visited, to add its coefficient to their region.

use super::neighbours::Neighbours;
use super::{grow, LabelValue};
use crate::{Connectivity, SizeError};

/// The Euler number (components minus holes) of every region of `labels` (a `width x height`
/// image, row-major, 0 the background), each region taken alone with its cells joined under
/// `conn` (holes under the other connectivity): `result[label - 1]`, one entry per label up to
/// the largest. skimage's `regionprops` property `euler_number` is the one of
/// [`Connectivity::Eight`].
///
/// The 2x2 windows of nonzero coefficient, each counted at one of its cells of the region
/// (so that every window overlapping the image is counted once, windows reaching off the
/// image included): regions 8-connected (bits of skimage's `EULER_COEFS2D_8`), +1 for a
/// cell whose right, lower and lower-right neighbours are not of its region (the window's
/// top-left cell alone), -1 for a cell whose lower-left neighbour is of its region and its
/// left and lower ones are not (the anti-diagonal pair), -1 for a cell whose right and
/// lower neighbours are of its region and the lower-right one is not (three cells);
/// 4-connected, the mirror image about the centre: +1 for a cell whose left, upper and
/// upper-left neighbours are not of its region (alone) or whose upper-left one is and the
/// other two are not (the diagonal pair), -1 for one whose left and upper neighbours are of
/// its region and the upper-left one is not.
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
    super::check_len(labels, width, height)?;
    counts(
        &Neighbours::new(labels, width, height)?,
        labels,
        width,
        conn,
    )
}

/// The sums of coefficients of [`euler_numbers`] from the image's neighbour masks, in a
/// table indexed by label that grows as labels are met (every region has a cell of
/// coefficient +1: its last cell in raster order for 8-connected regions, its first for
/// 4-connected ones, so the table reaches the largest label).
pub(super) fn counts<T: LabelValue>(
    masks: &Neighbours,
    labels: &[T],
    width: usize,
    conn: Connectivity,
) -> Result<Vec<i64>, SizeError> {
    let height = labels.len() / width.max(1);
    let size = (width, height);
    let mut acc: Vec<i64> = Vec::new();
    let mut max = 0u64;
    for y in 0..height {
        let r = &labels[y * width..(y + 1) * width];
        for j in 0..masks.words {
            let [set, left, right, up, down, up_left, _, down_left, down_right] = masks.block(y, j);
            if set == 0 {
                continue;
            }
            let (plus, minus) = match conn {
                Connectivity::Eight => {
                    let alone = !right & !down & !down_right;
                    let anti = down_left & !left & !down;
                    let three = right & down & !down_right;
                    (set & alone, set & (anti | three))
                }
                Connectivity::Four => {
                    let alone = !left & !up & !up_left;
                    let diagonal = up_left & !left & !up;
                    let three = left & up & !up_left;
                    (set & (alone | diagonal), set & three)
                }
            };
            let x0 = j * 64;
            for (mut m, coef) in [(plus, 1i64), (minus, -1)] {
                while m != 0 {
                    let l = r[x0 + m.trailing_zeros() as usize].label();
                    m &= m - 1;
                    if l >= acc.len() as u64 {
                        grow(&mut acc, l, 0, size)?;
                    }
                    max = max.max(l);
                    acc[l as usize] += coef;
                }
            }
        }
    }
    if acc.is_empty() {
        return Ok(acc); // no region
    }
    acc.truncate(max as usize + 1);
    acc.remove(0);
    Ok(acc)
}
