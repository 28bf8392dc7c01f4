//! Sum, minimum and maximum of an intensity image over every region, in one pass over the
//! label image by blocks of 64 cells (a block of one region at once, others by runs of equal
//! labels: no branch per cell), the intensities read in their own type (no conversion
//! pass): a piece's values are summed, and their extremes found, in a plain loop that the
//! compiler vectorizes, and added to the region once.

use super::scan::for_each_piece;
use super::{grow, table, LabelValue};
use crate::SizeError;

/// An intensity image's cell type: an integer or a float.
pub trait IntensityValue: Copy + PartialOrd + 'static {
    /// Integers of 8 and 16 bits: a run's sum is exact in `i64` (summed there, then
    /// exactly in `i128` per region); the other types are summed in `f64`.
    const SMALL_INTEGER: bool;
    /// The value as `f64` (exact but for 64-bit integers beyond 2^53).
    fn to_f64(self) -> f64;
    /// The value as `i64` (the integer types; floats truncate, unused).
    fn to_i64(self) -> i64;
}

macro_rules! intensity_value {
    ($small:expr; $($t:ty),*) => {
        $(impl IntensityValue for $t {
            const SMALL_INTEGER: bool = $small;
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                self as i64
            }
        })*
    };
}
intensity_value!(true; u8, i8, u16, i16);
intensity_value!(false; u32, i32, u64, i64, f32, f64);

/// The intensity statistics of one region.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct IntensityStats {
    /// Sum of the intensities (NaN when one is NaN; exact for 8 and 16-bit integers while
    /// under 2^53, else summed in `f64`, run by run).
    pub sum: f64,
    /// Smallest intensity (NaN when one is NaN).
    pub min: f64,
    /// Largest intensity (NaN when one is NaN).
    pub max: f64,
}

/// One region's sums while [`intensity_stats`] scans.
#[derive(Clone, Copy)]
struct Acc<V> {
    int: i128,
    float: f64,
    lo: V,
    hi: V,
    nan: bool,
    seen: bool,
}

/// The intensity statistics of every region of `labels` (a `width x height` image, row-major,
/// 0 and negative values the background) over `values` (the intensities, same layout, any
/// [`IntensityValue`] type): `result[label - 1]`, one entry per label up to the largest; an
/// absent label has zeros.
///
/// Errors when `labels` or `values` does not hold `width * height` cells, when a row has 2^32
/// cells or more, or when memory cannot be had.
///
/// ```
/// use gridbits::algo::measure::intensity_stats;
/// let s = intensity_stats(&[1u8, 1, 0, 1], 2, 2, &[5u8, 2, 9, 7]).unwrap();
/// assert_eq!((s[0].sum, s[0].min, s[0].max), (14.0, 2.0, 7.0));
/// let f = intensity_stats(&[1u8, 1, 0, 1], 2, 2, &[5.0, f64::NAN, 9.0, 7.0]).unwrap();
/// assert!(f[0].sum.is_nan() && f[0].min.is_nan() && f[0].max.is_nan());
/// ```
pub fn intensity_stats<T: LabelValue, V: IntensityValue>(
    labels: &[T],
    width: usize,
    height: usize,
    values: &[V],
) -> Result<Vec<IntensityStats>, SizeError> {
    super::check_len(labels, width, height)?;
    if values.len() != labels.len() {
        return Err(SizeError::new(
            "intensity image",
            width,
            height,
            "the intensity slice does not hold width * height values",
        ));
    }
    let size = (width, height);
    let Some(&first) = values.first() else {
        return Ok(Vec::new());
    };
    let empty = Acc {
        int: 0,
        float: 0.0,
        lo: first,
        hi: first,
        nan: false,
        seen: false,
    };
    let mut acc: Vec<Acc<V>> = Vec::new();
    let mut max = 0;
    for_each_piece(labels, width, height, |l, y, base, piece| {
        if l >= acc.len() as u64 {
            grow(&mut acc, l, empty, size)?;
        }
        max = max.max(l);
        let (s, e) = (piece.trailing_zeros(), 64 - piece.leading_zeros());
        let start = y * width + base;
        let cells = &values[start + s as usize..start + e as usize];
        let (mut lo, mut hi) = (cells[0], cells[0]);
        let (mut int, mut float, mut nan) = (0i64, 0.0f64, false);
        if piece.count_ones() == e - s {
            // A run: every cell.
            for &v in cells {
                if V::SMALL_INTEGER {
                    int += v.to_i64();
                } else {
                    float += v.to_f64();
                }
                lo = if v < lo { v } else { lo };
                hi = if v > hi { v } else { hi };
                // Only a NaN differs from itself (never true of the integer types).
                #[allow(clippy::eq_op)]
                {
                    nan |= v != v;
                }
            }
        } else {
            // A block of one region with gaps: the cells of the piece, by selects.
            for (i, &v) in cells.iter().enumerate() {
                let inside = (piece >> (s as usize + i)) & 1 != 0;
                if V::SMALL_INTEGER {
                    int += if inside { v.to_i64() } else { 0 };
                } else {
                    float += if inside { v.to_f64() } else { 0.0 };
                }
                lo = if inside && v < lo { v } else { lo };
                hi = if inside && v > hi { v } else { hi };
                #[allow(clippy::eq_op)]
                {
                    nan |= inside && v != v;
                }
            }
        }
        let r = &mut acc[l as usize];
        r.int += i128::from(int);
        r.float += float;
        r.nan |= nan;
        if !r.seen {
            (r.lo, r.hi, r.seen) = (lo, hi, true);
        } else {
            r.lo = if lo < r.lo { lo } else { r.lo };
            r.hi = if hi > r.hi { hi } else { r.hi };
        }
        Ok::<(), SizeError>(())
    })?;
    let mut out = table(max as usize, IntensityStats::default(), size)?;
    for (o, r) in out.iter_mut().zip(acc.iter().skip(1)) {
        if r.seen {
            let sum = if V::SMALL_INTEGER {
                r.int as f64
            } else {
                r.float
            };
            *o = if r.nan {
                IntensityStats {
                    sum: f64::NAN,
                    min: f64::NAN,
                    max: f64::NAN,
                }
            } else {
                IntensityStats {
                    sum,
                    min: r.lo.to_f64(),
                    max: r.hi.to_f64(),
                }
            };
        }
    }
    Ok(out)
}
