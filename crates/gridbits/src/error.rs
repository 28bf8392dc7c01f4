//! Errors shared by every module: two grids that should have one size and do not, and a
//! cell that lies off its grid. Sizes that cannot be made at all are [`SizeError`](crate::SizeError);
//! text that does not parse is [`ParseError`](crate::ParseError).

use crate::GridView;
use std::fmt;

/// Two boards or grids that must have the same size do not.
///
/// Fixed [`Board`](crate::Board)s carry their size in their type, so mostly runtime
/// [`BitGrid`](crate::BitGrid)s (and maps and images) can mismatch.
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

/// A cell `(x, y)` outside a `width x height` grid.
///
/// ```
/// use gridbits::BitGrid;
/// let mut g = BitGrid::new(4, 4).unwrap();
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
