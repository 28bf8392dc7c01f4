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
/// use gridbits::{BitGrid, SizeMismatch};
/// let a = BitGrid::new(3, 2).unwrap();
/// let b = BitGrid::new(2, 3).unwrap();
/// let err = a.try_and(&b).unwrap_err();
/// assert_eq!(err, SizeMismatch { what: "other", expected: (3, 2), found: (2, 3) });
/// assert_eq!(err.to_string(), "other is 2x3, expected 3x2 (the size of the first grid)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SizeMismatch {
    /// Which argument has the wrong size (its parameter name, e.g. `"passable"`).
    pub what: &'static str,
    /// The size every argument must have, `(width, height)`: the first argument's.
    pub expected: (usize, usize),
    /// The size of the mismatched argument, `(width, height)`.
    pub found: (usize, usize),
}

impl SizeMismatch {
    /// `Ok` if `other` (the argument named `what`) has the size of `first`, else the error.
    ///
    /// ```
    /// use gridbits::{BitGrid, SizeMismatch};
    /// let (a, b) = (BitGrid::new(4, 4).unwrap(), BitGrid::new(5, 4).unwrap());
    /// assert!(SizeMismatch::check(&a, "b", &a).is_ok());
    /// assert_eq!(SizeMismatch::check(&a, "b", &b).unwrap_err().found, (5, 4));
    /// ```
    pub fn check(
        first: &impl GridView,
        what: &'static str,
        other: &impl GridView,
    ) -> Result<(), SizeMismatch> {
        let expected = (first.width(), first.height());
        let found = (other.width(), other.height());
        if expected == found {
            Ok(())
        } else {
            Err(SizeMismatch {
                what,
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
            "{} is {fw}x{fh}, expected {ew}x{eh} (the size of the first grid)",
            self.what
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
