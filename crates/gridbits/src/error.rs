//! Errors shared by every module: two grids that should have one size and do not
//! ([`SizeMismatch`]), a cell that lies off its grid ([`OffGrid`]), and a size that cannot be
//! made at all ([`SizeError`]: zero sides, more than [`MAX_CELLS`] cells, or more memory
//! than the allocator gives); text that does not parse is [`ParseError`](crate::ParseError).
//! [`GridError`] is any of the first three, for the fallible forms that can meet several.
//! [`ImageError`] is a caller's buffer that does not hold the image it should.
//!
//! # Allocation
//!
//! Every buffer whose size comes from the input (the words of a [`BitGrid`](crate::BitGrid), a
//! [`DistanceMap`](crate::algo::distance::DistanceMap) or a label image with a `u32` per cell,
//! the run and union-find tables of the labeller, owner arrays, byte images) has a fallible
//! way in that computes its size in bytes with checked arithmetic and reserves it with
//! `try_reserve` before any work, returning a [`SizeError`] that names the size in cells and
//! bytes instead of aborting the process. The short infallible forms (operators, `clone`,
//! [`distance_map`](crate::algo::distance::distance_map), ...) allocate like `Vec` does: they
//! abort when memory runs out, and each names its fallible twin.
//!
//! ```
//! use gridbits::algo::distance::DistanceMap;
//! // 2^40 cells of 4 bytes: refused at once, nothing allocated.
//! let err = DistanceMap::try_new(1 << 20, 1 << 20).unwrap_err();
//! assert_eq!((err.cells(), err.bytes), (1 << 40, 1 << 42));
//! assert!(err.is_out_of_memory());
//! assert_eq!(
//!     err.to_string(),
//!     "cannot make a 1048576x1048576 distance map (1099511627776 cells, 4398046511104 bytes): \
//!      more than 2^34 cells"
//! );
//! ```

use crate::text::MAX_CELLS;
use crate::GridView;
use std::fmt;

/// Two boards or grids that must have the same size do not.
///
/// Fixed [`Board`](crate::Board)s carry their size in their type, so mostly runtime
/// [`BitGrid`](crate::BitGrid)s (and maps and images) can mismatch.
///
/// ```
/// use gridbits::algo::slide::try_reach;
/// use gridbits::SizeMismatch;
/// use gridbits::{BitGrid, Moves};
/// let pieces = BitGrid::new(8, 8);
/// let passable = BitGrid::full(8, 6);
/// let err = try_reach(&pieces, &passable, Moves::Queen).unwrap_err();
/// assert_eq!(err.what, "passable");
/// assert_eq!((err.expected, err.found), ((8, 8), (8, 6)));
/// assert_eq!(err.to_string(), "passable is 8x6, expected 8x8 (the size of pieces)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SizeMismatch {
    /// Which argument has the wrong size (its parameter name, e.g. `"passable"`).
    pub what: &'static str,
    /// The argument whose size the others must have: `"pieces"` in
    /// [`slide`](crate::algo::slide), `"passable"` in [`fill`](crate::algo::fill), `"self"`
    /// for the operations of [`BitGrid`](crate::BitGrid).
    pub reference: &'static str,
    /// The size every argument must have, `(width, height)`: the reference's.
    pub expected: (usize, usize),
    /// The size of the mismatched argument, `(width, height)`.
    pub found: (usize, usize),
}

impl SizeMismatch {
    /// `Ok` if `other` (the argument named `what`) has the size of `reference` (named
    /// `reference_name`), else the error.
    ///
    /// ```
    /// use gridbits::SizeMismatch;
    /// use gridbits::BitGrid;
    /// let (a, b) = (BitGrid::new(4, 4), BitGrid::new(5, 4));
    /// assert!(SizeMismatch::check(&a, "a", &a, "b").is_ok());
    /// let err = SizeMismatch::check(&a, "a", &b, "b").unwrap_err();
    /// assert_eq!(err.to_string(), "b is 5x4, expected 4x4 (the size of a)");
    /// ```
    pub fn check(
        reference: &impl GridView,
        reference_name: &'static str,
        other: &impl GridView,
        what: &'static str,
    ) -> Result<(), SizeMismatch> {
        let expected = (reference.width(), reference.height());
        let found = (other.width(), other.height());
        if expected == found {
            Ok(())
        } else {
            Err(SizeMismatch {
                what,
                reference: reference_name,
                expected,
                found,
            })
        }
    }
}

impl fmt::Display for SizeMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ((ew, eh), (fw, fh)) = (self.expected, self.found);
        write!(
            f,
            "{} is {fw}x{fh}, expected {ew}x{eh} (the size of {})",
            self.what, self.reference
        )
    }
}

impl std::error::Error for SizeMismatch {}

/// A cell `(x, y)` outside a `width x height` grid.
///
/// ```
/// use gridbits::BitGrid;
/// let mut g = BitGrid::new(4, 4);
/// assert_eq!(g.try_set(4, 0).unwrap_err().to_string(), "cell (4, 0) is off the 4x4 grid");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OffGrid {
    /// The cell asked for.
    pub cell: (usize, usize),
    /// `(width, height)` of the grid.
    pub size: (usize, usize),
}

impl OffGrid {
    /// `Ok` when `(x, y)` lies inside `width x height`.
    pub fn check(x: usize, y: usize, width: usize, height: usize) -> Result<(), OffGrid> {
        if x < width && y < height {
            Ok(())
        } else {
            Err(OffGrid {
                cell: (x, y),
                size: (width, height),
            })
        }
    }
}

impl fmt::Display for OffGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cell ({}, {}) is off the {}x{} grid",
            self.cell.0, self.cell.1, self.size.0, self.size.1
        )
    }
}

impl std::error::Error for OffGrid {}

/// Why a grid, map or table of the requested size cannot be made: a zero side, more than
/// [`MAX_CELLS`] cells, more bytes than the address space, or an allocator that refuses the
/// memory (see [Allocation](self#allocation)).
///
/// ```
/// use gridbits::BitGrid;
/// let err = BitGrid::try_new(0, 3).unwrap_err();
/// assert_eq!(err.to_string(), "cannot make a 0x3 grid: width and height must be at least 1");
/// assert!(!err.is_out_of_memory());
/// let err = BitGrid::try_new(1 << 20, 1 << 20).unwrap_err();
/// assert_eq!((err.cells(), err.bytes), (1 << 40, 1 << 37));
/// assert!(err.is_out_of_memory());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct SizeError {
    /// Requested width.
    pub width: usize,
    /// Requested height.
    pub height: usize,
    /// What was being made: `"grid"`, `"distance map"`, `"label image"`, ...
    pub what: &'static str,
    /// The bytes the refused allocation needed (`u128`: the count may exceed `usize`); 0 when
    /// the size was refused for another reason than memory (a zero side, too many labels).
    pub bytes: u128,
    /// Why it was refused.
    pub reason: &'static str,
}

impl SizeError {
    /// A size refused for a reason other than memory (`bytes` 0).
    pub(crate) const fn new(
        what: &'static str,
        width: usize,
        height: usize,
        reason: &'static str,
    ) -> Self {
        SizeError {
            width,
            height,
            what,
            bytes: 0,
            reason,
        }
    }

    /// A size whose `bytes` cannot be allocated.
    pub(crate) const fn memory(
        what: &'static str,
        width: usize,
        height: usize,
        bytes: u128,
        reason: &'static str,
    ) -> Self {
        SizeError {
            width,
            height,
            what,
            bytes,
            reason,
        }
    }

    /// `width * height`, exactly (it may exceed `usize`).
    pub fn cells(&self) -> u128 {
        self.width as u128 * self.height as u128
    }

    /// Whether the size was refused for its memory (too many cells or bytes, or the
    /// allocator said no) rather than for being malformed (a zero side, too many labels for
    /// `u32`). Bindings map the first to `MemoryError`.
    pub fn is_out_of_memory(&self) -> bool {
        self.bytes > 0
    }
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot make a {}x{} {}",
            self.width, self.height, self.what
        )?;
        if self.bytes > 0 {
            write!(f, " ({} cells, {} bytes)", self.cells(), self.bytes)?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl std::error::Error for SizeError {}

/// Checks that `count` values of `T` for a `width x height` `what` can be allocated, and
/// reserves them: an empty `Vec` with that capacity, or the [`SizeError`] (more than
/// [`MAX_CELLS`] cells, a byte count beyond `isize::MAX`, or an allocator that refuses).
pub(crate) fn try_vec<T>(
    what: &'static str,
    width: usize,
    height: usize,
    count: u128,
) -> Result<Vec<T>, SizeError> {
    let err = check_count::<T>(what, width, height, count)?;
    let mut v = Vec::new();
    v.try_reserve_exact(count as usize)
        .map_err(|_| err("not enough memory"))?;
    crate::huge_pages::advise(&mut v);
    Ok(v)
}

/// The checks of [`try_vec`] before any allocation: at most [`MAX_CELLS`] cells and a byte
/// count within the address space. Returns the maker of the error for a later refusal.
pub(crate) fn check_count<T>(
    what: &'static str,
    width: usize,
    height: usize,
    count: u128,
) -> Result<impl Fn(&'static str) -> SizeError, SizeError> {
    let bytes = count.saturating_mul(std::mem::size_of::<T>() as u128);
    let err = move |reason| SizeError::memory(what, width, height, bytes.max(1), reason);
    if width as u128 * height as u128 > u128::from(MAX_CELLS) {
        return Err(err("more than 2^34 cells"));
    }
    if bytes > isize::MAX as u128 {
        return Err(err("more bytes than the address space"));
    }
    Ok(err)
}

/// [`try_vec`] filled with `count` copies of `value`.
pub(crate) fn try_filled<T: Clone>(
    what: &'static str,
    width: usize,
    height: usize,
    count: u128,
    value: T,
) -> Result<Vec<T>, SizeError> {
    let mut v = try_vec(what, width, height, count)?;
    v.resize(count as usize, value);
    Ok(v)
}

/// Checks up front that `bytes` of working memory for a `width x height` `what` can be
/// allocated: the same checks as [`try_vec`], then one `try_reserve` of that many bytes,
/// released at once. Used before engines whose own buffers are allocated inside (their sum
/// is what is reserved), so that a size the allocator refuses is an error before any work.
pub(crate) fn check_memory(
    what: &'static str,
    width: usize,
    height: usize,
    bytes: u128,
) -> Result<(), SizeError> {
    try_vec::<u8>(what, width, height, bytes).map(drop)
}

/// Any of the errors of a fallible operation that checks sizes, cells and memory.
///
/// ```
/// use gridbits::algo::distance::try_distance_map;
/// use gridbits::{BitGrid, GridError, Moves};
/// let free = BitGrid::full(4, 4);
/// let err = try_distance_map(&BitGrid::new(4, 5), &free, Moves::Four, None);
/// assert!(matches!(err, Err(GridError::Mismatch(_))));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GridError {
    /// Two grids that must have one size do not.
    Mismatch(SizeMismatch),
    /// A cell lies off the grid.
    OffGrid(OffGrid),
    /// A size that cannot be made or allocated.
    Size(SizeError),
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::Mismatch(e) => e.fmt(f),
            GridError::OffGrid(e) => e.fmt(f),
            GridError::Size(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GridError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(match self {
            GridError::Mismatch(e) => e,
            GridError::OffGrid(e) => e,
            GridError::Size(e) => e,
        })
    }
}

impl From<SizeMismatch> for GridError {
    fn from(e: SizeMismatch) -> Self {
        GridError::Mismatch(e)
    }
}

impl From<OffGrid> for GridError {
    fn from(e: OffGrid) -> Self {
        GridError::OffGrid(e)
    }
}

impl From<SizeError> for GridError {
    fn from(e: SizeError) -> Self {
        GridError::Size(e)
    }
}

/// Why a byte image could not be read into a [`BitGrid`](crate::BitGrid) (or a grid written
/// into one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImageError {
    /// The size cannot be made (zero, or too many cells).
    Size(SizeError),
    /// The row stride is shorter than a row (`stride < width`).
    Stride {
        /// The row stride given, in elements.
        stride: usize,
        /// The width of a row.
        width: usize,
    },
    /// A slice of cells without exactly one element per cell.
    WrongLength {
        /// `width * height`.
        expected: usize,
        /// The slice's length.
        found: usize,
    },
    /// The buffer is shorter than `(height - 1) * stride + width` elements.
    TooShort {
        /// Elements needed.
        needed: usize,
        /// Elements given.
        given: usize,
    },
    /// A value does not fit the output type (a label or a distance above `i32::MAX` for an
    /// `i32` image).
    ValueTooLarge {
        /// The value.
        value: u64,
        /// The largest value the output type holds.
        max: u64,
    },
}

impl fmt::Display for ImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImageError::Size(e) => e.fmt(f),
            ImageError::Stride { stride, width } => {
                write!(f, "row stride {stride} is shorter than the width {width}")
            }
            ImageError::WrongLength { expected, found } => {
                write!(f, "{found} cells given for a grid of {expected} cells")
            }
            ImageError::TooShort { needed, given } => write!(
                f,
                "image buffer too short: {given} elements for {needed} needed"
            ),
            ImageError::ValueTooLarge { value, max } => write!(
                f,
                "value {value} does not fit the output type (at most {max})"
            ),
        }
    }
}

impl std::error::Error for ImageError {}

impl From<SizeError> for ImageError {
    fn from(e: SizeError) -> Self {
        ImageError::Size(e)
    }
}

/// Checks that `len` elements hold `height` rows of `width` at `stride`.
pub(crate) fn check_image(
    len: usize,
    width: usize,
    height: usize,
    stride: usize,
) -> Result<(), ImageError> {
    if stride < width {
        return Err(ImageError::Stride { stride, width });
    }
    let needed = if width == 0 || height == 0 {
        0
    } else {
        (height - 1)
            .checked_mul(stride)
            .and_then(|n| n.checked_add(width))
            .ok_or(ImageError::TooShort {
                needed: usize::MAX,
                given: len,
            })?
    };
    if len < needed {
        return Err(ImageError::TooShort { needed, given: len });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts_past_the_address_space_are_refused_before_the_allocator() {
        let e = try_vec::<u64>("table", 4, 4, 1 << 62).unwrap_err();
        assert_eq!(e.reason, "more bytes than the address space");
        assert_eq!((e.bytes, e.cells()), (1 << 65, 16));
    }

    #[test]
    fn sizes_the_allocator_refuses_are_errors_not_aborts() {
        // 2^62 bytes fit isize but no machine's memory or address space (47-57 bits): the
        // reservation fails, nothing is touched.
        let e = check_memory("distance map", 8, 8, 1 << 62).unwrap_err();
        assert_eq!(e.reason, "not enough memory");
        assert_eq!(e.bytes, 1 << 62);
        assert!(e.is_out_of_memory());
        assert_eq!(
            e.to_string(),
            "cannot make a 8x8 distance map (64 cells, 4611686018427387904 bytes): not enough \
             memory"
        );
    }

    #[test]
    fn small_requests_are_reserved_and_filled() {
        let v = try_filled("grid", 3, 2, 6, 7u32).unwrap();
        assert_eq!(v, [7; 6]);
        assert!(check_memory("grid", 3, 2, 1 << 10).is_ok());
    }
}
