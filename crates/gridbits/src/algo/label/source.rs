//! What a striped labelling reads its stripes' rows from: a grid or a byte image.

use crate::grid::ByteImage;
use crate::BitGrid;

/// What a striped labelling reads its stripes' rows from.
#[derive(Clone, Copy)]
pub(super) enum Source<'a> {
    /// A grid: each stripe copies its rows.
    Grid(&'a BitGrid),
    /// A byte image: each stripe packs its rows, on the thread that scans it.
    Bytes(&'a ByteImage<'a>),
}

impl Source<'_> {
    /// Width and height.
    pub(super) fn size(self) -> (usize, usize) {
        match self {
            Source::Grid(g) => g.size(),
            Source::Bytes(b) => b.size(),
        }
    }

    /// Rows `y0..y0 + into.height()` into `into` (as wide as the source).
    pub(super) fn rows_into(self, y0: usize, into: &mut BitGrid) {
        match self {
            Source::Grid(g) => {
                for y in 0..into.height() {
                    into.row_words_mut(y).copy_from_slice(g.row_words(y0 + y));
                }
            }
            Source::Bytes(b) => b.pack_rows(y0, into),
        }
    }
}
