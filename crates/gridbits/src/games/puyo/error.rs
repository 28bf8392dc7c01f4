//! What a caller can get wrong: an illegal pair placement, a cell off the field.

use super::{COLORS, COLUMNS};
use std::fmt;

/// An illegal pair placement: [`Field::place_pair`](super::Field::place_pair) and
/// [`Field::play`](super::Field::play) leave the field unchanged and return this.
///
/// ```
/// use gridbits::games::puyo::{Field, PlaceError, Rules};
/// let mut field = Field::new(Rules::SmashTheCode);
/// let err = field.place_pair(0, 1, 2, 4).unwrap_err();
/// assert_eq!(err, PlaceError::BadRotation(4));
/// assert_eq!(err.to_string(), "rotation 4 is not one of 0, 1, 2, 3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlaceError {
    /// A rotation of 4 or more (the rotations are 0 to 3).
    BadRotation(u8),
    /// A block would be off the field: column `x` is 6 or more, or rotation 0 at column 5,
    /// or rotation 2 at column 0.
    OffField {
        /// The column asked for.
        x: usize,
        /// The rotation asked for.
        rotation: u8,
    },
    /// A block lands above the top row of column `x`: a vertical pair needs two free rows,
    /// each block of a horizontal pair one.
    ColumnFull {
        /// The column that has no room.
        x: usize,
    },
    /// A colour index of 5 or more (the colours are 0 to 4).
    BadColor(u8),
}

impl fmt::Display for PlaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PlaceError::BadRotation(r) => write!(f, "rotation {r} is not one of 0, 1, 2, 3"),
            PlaceError::OffField { x, rotation } if x < COLUMNS => write!(
                f,
                "rotation {rotation} at column {x} puts a block off the field (columns 0 to {})",
                COLUMNS - 1
            ),
            PlaceError::OffField { x, .. } => write!(
                f,
                "column {x} is off the field (columns 0 to {})",
                COLUMNS - 1
            ),
            PlaceError::ColumnFull { x } => write!(f, "column {x} has no room for the pair"),
            PlaceError::BadColor(c) => {
                write!(f, "colour {c} is not a colour index (0 to {})", COLORS - 1)
            }
        }
    }
}

impl std::error::Error for PlaceError {}

/// A cell [`Field::try_set`](super::Field::try_set) refuses.
///
/// ```
/// use gridbits::games::puyo::{Cell, CellError, Field, Rules};
/// let mut field = Field::new(Rules::SmashTheCode);
/// let err = field.try_set(0, 12, Cell::Garbage).unwrap_err();
/// assert_eq!(err, CellError::OffField { x: 0, y: 12, rows: 12 });
/// assert_eq!(err.to_string(), "cell (0, 12) is off the 6x12 field");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellError {
    /// `(x, y)` is not on the field.
    OffField {
        /// The column asked for.
        x: usize,
        /// The row asked for, from the top.
        y: usize,
        /// The field's number of rows (12 or 13).
        rows: usize,
    },
    /// [`Cell::Color`](super::Cell::Color) with an index of 5 or more.
    BadColor(u8),
}

impl fmt::Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CellError::OffField { x, y, rows } => {
                write!(f, "cell ({x}, {y}) is off the {COLUMNS}x{rows} field")
            }
            CellError::BadColor(c) => {
                write!(f, "colour {c} is not a colour index (0 to {})", COLORS - 1)
            }
        }
    }
}

impl std::error::Error for CellError {}
