//! What the labeller reads: any grid, as a [`BitGrid`].

use crate::grid::ByteImage;
use crate::{BitGrid, Board, GridView, SizeError};
use std::borrow::Cow;

/// A grid the labeller can read. The labeller works on the word rows of a [`BitGrid`]: a
/// `BitGrid` is read in place, a fixed-size [`Board`] (whose rows share words and may have a
/// guard column) or a [`NaiveGrid`](crate::naive::NaiveGrid) (its impl lives in `naive`) is converted once, cell by cell, and a [`ByteImage`]
/// is packed once.
///
/// ```
/// use gridbits::algo::label::{stats, LabelInput};
/// use gridbits::{BitGrid, Board6x12, Connectivity};
/// let board = Board6x12::from_fn(|x, y| x == 2 && y > 8);
/// let grid = board.to_bit_grid().unwrap();
/// assert_eq!((grid.width(), grid.height(), grid.count()), (6, 12, 3));
/// assert_eq!(stats(&board, Connectivity::Four).unwrap()[0].bbox(), (2, 9, 1, 3));
/// ```
pub trait LabelInput {
    /// The grid as a [`BitGrid`]: borrowed when it is one, else a converted copy. Errors when
    /// a copy of that size cannot be made.
    fn to_bit_grid(&self) -> Result<Cow<'_, BitGrid>, SizeError>;
}

/// A copy of any grid view, cell by cell.
fn copy(view: &impl GridView) -> Result<Cow<'static, BitGrid>, SizeError> {
    BitGrid::from_fn(view.width(), view.height(), |x, y| view.get(x, y)).map(Cow::Owned)
}

impl LabelInput for BitGrid {
    fn to_bit_grid(&self) -> Result<Cow<'_, BitGrid>, SizeError> {
        Ok(Cow::Borrowed(self))
    }
}

impl<const W: usize, const H: usize, const N: usize> LabelInput for Board<W, H, N> {
    fn to_bit_grid(&self) -> Result<Cow<'_, BitGrid>, SizeError> {
        copy(self)
    }
}

/// Packed once (as [`BitGrid::from_bytes`] packs). [`Labeller::label_bytes`] labels one
/// without that copy.
///
/// [`Labeller::label_bytes`]: super::Labeller::label_bytes
impl LabelInput for ByteImage<'_> {
    fn to_bit_grid(&self) -> Result<Cow<'_, BitGrid>, SizeError> {
        ByteImage::to_bit_grid(self).map(Cow::Owned)
    }
}
