//! Errors shared by every module: two grids that should have one size and do not, and a
//! cell that lies off its grid. Sizes that cannot be made at all are [`SizeError`](crate::SizeError);
//! text that does not parse is [`ParseError`](crate::ParseError).

use std::fmt;

/// Two grids (or a grid and a buffer) that must have the same size and do not.
///
/// ```
/// use gridbits::BitGrid;
/// let a = BitGrid::new(3, 2).unwrap();
/// let b = BitGrid::new(2, 3).unwrap();
/// let err = a.try_and(&b).unwrap_err();
/// assert_eq!(err.to_string(), "size mismatch: 3x2 and 2x3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SizeMismatch {
    /// `(width, height)` of the first operand.
    pub left: (usize, usize),
    /// `(width, height)` of the second operand.
    pub right: (usize, usize),
}

impl SizeMismatch {
    /// `Ok` when both sizes are equal, the error otherwise.
    pub fn check(left: (usize, usize), right: (usize, usize)) -> Result<(), SizeMismatch> {
        if left == right {
            Ok(())
        } else {
            Err(SizeMismatch { left, right })
        }
    }
}

impl fmt::Display for SizeMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "size mismatch: {}x{} and {}x{}",
            self.left.0, self.left.1, self.right.0, self.right.1
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
