//! Sum, minimum and maximum of an intensity image over every region, in one pass.

use super::{check, index, table, LabelValue};
use crate::SizeError;

/// The intensity statistics of one region. The extremes are given as cell indices (row-major)
/// so that a caller can read them back in the intensity image's own type.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct IntensityStats {
    /// Sum of the intensities (NaN when one is NaN).
    pub sum: f64,
    /// Index of the first cell of smallest intensity (of the first NaN, if any).
    pub min_at: usize,
    /// Index of the first cell of largest intensity (of the first NaN, if any).
    pub max_at: usize,
}

/// The intensity statistics of every region of `labels` (a `width x height` image, row-major,
/// 0 the background) over `values` (the intensities, same layout): `result[label - 1]`; an
/// absent label has sum 0 and indices 0.
///
/// Errors when `labels` or `values` does not hold `width * height` cells or memory cannot be
/// had.
///
/// ```
/// use gridbits::algo::measure::intensity_stats;
/// let s = intensity_stats(&[1u8, 1, 0, 1], 2, 2, &[5.0, 2.0, 9.0, 7.0]).unwrap();
/// assert_eq!((s[0].sum, s[0].min_at, s[0].max_at), (14.0, 1, 3));
/// ```
pub fn intensity_stats<T: LabelValue>(
    labels: &[T],
    width: usize,
    height: usize,
    values: &[f64],
) -> Result<Vec<IntensityStats>, SizeError> {
    let count = check(labels, width, height)?;
    if values.len() != labels.len() {
        return Err(SizeError::new(
            "intensity image",
            width,
            height,
            "the intensity slice does not hold width * height values",
        ));
    }
    let mut out = table(count, IntensityStats::default(), (width, height))?;
    let mut seen = table(count, false, (width, height))?;
    for (i, (&l, &v)) in labels.iter().zip(values).enumerate() {
        let l = index(l);
        if l == 0 {
            continue;
        }
        let s = &mut out[l - 1];
        if !seen[l - 1] {
            seen[l - 1] = true;
            *s = IntensityStats {
                sum: v,
                min_at: i,
                max_at: i,
            };
            continue;
        }
        s.sum += v;
        let (lo, hi) = (values[s.min_at], values[s.max_at]);
        if v.is_nan() {
            if !lo.is_nan() {
                (s.min_at, s.max_at) = (i, i);
            }
        } else if !lo.is_nan() {
            if v < lo {
                s.min_at = i;
            }
            if v > hi {
                s.max_at = i;
            }
        }
    }
    Ok(out)
}
