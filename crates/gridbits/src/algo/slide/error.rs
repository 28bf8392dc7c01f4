//! [`SizeMismatch`]: the error of the `try_` functions of [`slide`](super) and
//! [`fill`](crate::algo::fill) when boards passed together differ in size.

use crate::GridView;
use std::fmt;

/// Two boards or grids that must have the same size do not.
///
/// Fixed [`Board`](crate::Board)s carry their size in their type, so only runtime
/// [`BitGrid`](crate::BitGrid)s (and distance maps) can mismatch.
///
/// ```
/// use gridbits::algo::slide::{try_reach, SizeMismatch};
/// use gridbits::{BitGrid, Moves};
/// let pieces = BitGrid::new(8, 8).unwrap();
/// let passable = BitGrid::full(8, 6).unwrap();
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
    /// [`slide`](super), `"passable"` in [`fill`](crate::algo::fill).
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
    /// use gridbits::algo::slide::SizeMismatch;
    /// use gridbits::BitGrid;
    /// let (a, b) = (BitGrid::new(4, 4).unwrap(), BitGrid::new(5, 4).unwrap());
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
