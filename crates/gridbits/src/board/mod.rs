//! Fixed-size boards: a `W x H` grid known at compile time, packed into `[u64; N]`.
//!
//! Cell `(x, y)` lives at bit `y * STRIDE + x`, counting bit 0 of word 0 as the lowest bit and
//! bit 0 of word 1 as bit 64. When a row of `W + 1` bits fits (that is, `(W + 1) * H <= 64 * N`)
//! the stride is `W + 1`: an always-zero guard column separates the rows, so fills masked by a
//! passable set never wrap around an edge (the "walls between rows" of sliding-piece fills). Otherwise the stride
//! is `W` and east/west shifts mask the edge column. Either way every operation keeps the bits
//! outside the board zero.
//!
//! `N = 1` is a `u64`, `N = 2` is a `u128` (same registers, same instructions), larger `N` an
//! array; all loops over words are bounded by a constant and unroll. Aliases such as [`Board6x12`]
//! pick the smallest `N` for their size. A size that does not fit its storage is a compile-time
//! error:
//!
//! ```compile_fail
//! let b = gridbits::Board::<10, 10, 1>::EMPTY; // 100 cells do not fit one u64
//! # let _ = b.count();
//! ```
//!
//! ```
//! use gridbits::{bitboard, Board6x12, Dir};
//! let b = bitboard!(Board6x12;
//!     "......", "......", "......", "......", "......", "......",
//!     "......", "......", "......", "..#...", "..##..", "......");
//! assert_eq!(b.count(), 3);
//! assert_eq!(b.shift(Dir::N).lowest(), Some((2, 8)));
//! assert!(b.shift(Dir::E).get(4, 10));
//! ```

use crate::error::OffGrid;
use crate::GridView;

mod shift;
mod text;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A `W x H` bitboard stored in `N` 64-bit words. See the [module documentation](self).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board<const W: usize, const H: usize, const N: usize> {
    pub(crate) words: [u64; N],
}

/// Puyo Puyo / Smash the Code field, 6 x 12 (fits a u128 with a guard column).
pub type Board6x12 = Board<6, 12, 2>;
/// Puyo Puyo Tsu field with the ghost row, 6 x 13.
pub type Board6x13 = Board<6, 13, 2>;
/// Chess-sized 8 x 8 board in one u64 (no guard column).
pub type Board8x8 = Board<8, 8, 1>;
/// The Great Escape, 9 x 9.
pub type Board9x9 = Board<9, 9, 2>;
/// Game of the Amazons, 10 x 10.
pub type Board10x10 = Board<10, 10, 2>;
/// Tetris matrix, 10 x 40.
pub type Board10x40 = Board<10, 40, 7>;
/// Go-sized 19 x 19.
pub type Board19x19 = Board<19, 19, 6>;
/// Tron (CodinGame), 30 x 20.
pub type Board30x20 = Board<30, 20, 10>;

/// Number of u64 words the smallest layout of a `w x h` board needs.
///
/// Handy for naming a board type: `Board<W, H, { words_for(W, H) }>` in a const context.
///
/// ```
/// assert_eq!(gridbits::board::words_for(6, 12), 2);
/// assert_eq!(gridbits::board::words_for(8, 8), 1);
/// ```
pub const fn words_for(w: usize, h: usize) -> usize {
    (w * h).div_ceil(64)
}

impl<const W: usize, const H: usize, const N: usize> Board<W, H, N> {
    /// Compile-time check that the board fits its storage.
    const FITS: () = assert!(
        W >= 1 && H >= 1 && N >= 1 && W * H <= 64 * N,
        "board does not fit its storage: W * H must be at most 64 * N"
    );

    /// Number of columns.
    pub const WIDTH: usize = W;
    /// Number of rows.
    pub const HEIGHT: usize = H;
    /// Number of cells, `W * H`.
    pub const CELLS: usize = W * H;
    /// Bits from one row to the next: `W + 1` with a guard column, else `W`.
    pub const STRIDE: usize = {
        let () = Self::FITS;
        if (W + 1) * H <= 64 * N {
            W + 1
        } else {
            W
        }
    };
    /// Whether rows are separated by an always-zero guard column.
    pub const GUARD: bool = Self::STRIDE != W;

    /// The empty board.
    pub const EMPTY: Self = {
        let () = Self::FITS;
        Board { words: [0; N] }
    };
    /// Every cell of the board set.
    pub const FULL: Self = Self::rect_mask(0, W, 0, H);
    /// Cells with `x >= 1`: where an east shift may land.
    pub(crate) const NOT_FIRST_COL: Self = Self::rect_mask(1, W, 0, H);
    /// Cells with `x < W - 1`: where a west shift may land.
    pub(crate) const NOT_LAST_COL: Self = Self::rect_mask(0, W - 1, 0, H);
    /// The cells on the edge of the board.
    pub const BORDER: Self = Self::FULL.and_not(Self::rect_mask(1, W - 1, 1, H - 1));

    /// Builds the mask of columns `x0..x1` and rows `y0..y1` (empty ranges give an empty mask).
    pub const fn rect_mask(x0: usize, x1: usize, y0: usize, y1: usize) -> Self {
        let mut words = [0u64; N];
        let x1 = if x1 > W { W } else { x1 };
        let y1 = if y1 > H { H } else { y1 };
        if x0 >= x1 {
            return Board { words };
        }
        let mut y = y0;
        while y < y1 {
            let mut x = x0;
            while x < x1 {
                let i = y * Self::STRIDE + x;
                words[i / 64] |= 1 << (i % 64);
                x += 1;
            }
            y += 1;
        }
        Board { words }
    }

    /// The empty board.
    pub const fn new() -> Self {
        Self::EMPTY
    }

    /// Builds a board from its raw words. Bits outside the board are cleared.
    pub const fn from_words(words: [u64; N]) -> Self {
        Board { words }.and(Self::FULL)
    }

    /// The raw words (see the module documentation for the layout).
    pub const fn words(self) -> [u64; N] {
        self.words
    }

    /// The board as one u128 (words 0 and 1); bits beyond 128 are dropped, so use this on
    /// boards with `N <= 2`.
    pub const fn to_u128(self) -> u128 {
        let lo = self.words[0] as u128;
        let hi = if N > 1 { self.words[1] as u128 } else { 0 };
        lo | (hi << 64)
    }

    /// Builds a board from a u128 (word 0 low, word 1 high). Bits outside the board, and
    /// bits that do not fit `N` words, are cleared.
    pub const fn from_u128(v: u128) -> Self {
        let mut words = [0u64; N];
        words[0] = v as u64;
        if N > 1 {
            words[1] = (v >> 64) as u64;
        }
        Self::from_words(words)
    }

    /// The bit index of cell `(x, y)`: `y * STRIDE + x`.
    ///
    /// # Panics
    /// When the cell is off the board; [`cell_of`](Self::cell_of) is the checked inverse.
    pub const fn bit_index(x: usize, y: usize) -> usize {
        assert!(x < W && y < H, "cell off the board");
        y * Self::STRIDE + x
    }

    /// The cell at a bit index, or `None` for a guard bit or an index past the board.
    pub const fn cell_of(index: usize) -> Option<(usize, usize)> {
        let x = index % Self::STRIDE;
        let y = index / Self::STRIDE;
        if x < W && y < H {
            Some((x, y))
        } else {
            None
        }
    }

    /// The board with only `(x, y)` set.
    ///
    /// # Panics
    /// When the cell is off the board; [`try_cell`](Self::try_cell) returns an error instead.
    pub const fn cell(x: usize, y: usize) -> Self {
        Self::from_bit(Self::bit_index(x, y))
    }

    /// The board with only bit `index` set; empty if that bit is not a cell of the board.
    pub const fn from_bit(index: usize) -> Self {
        let mut words = [0u64; N];
        if index < 64 * N {
            words[index / 64] = 1 << (index % 64);
        }
        Self::from_words(words)
    }

    /// Whether cell `(x, y)` is set; `false` for cells off the board.
    #[inline]
    pub const fn get(self, x: usize, y: usize) -> bool {
        if x >= W || y >= H {
            return false;
        }
        let i = y * Self::STRIDE + x;
        self.words[i / 64] >> (i % 64) & 1 != 0
    }

    /// Sets cell `(x, y)`.
    ///
    /// # Panics
    /// When the cell is off the board; [`try_set`](Self::try_set) returns an error instead.
    #[inline]
    pub const fn set(&mut self, x: usize, y: usize) {
        let i = Self::bit_index(x, y);
        self.words[i / 64] |= 1 << (i % 64);
    }

    /// Clears cell `(x, y)`.
    ///
    /// # Panics
    /// When the cell is off the board; [`try_clear`](Self::try_clear) returns an error instead.
    #[inline]
    pub const fn clear(&mut self, x: usize, y: usize) {
        let i = Self::bit_index(x, y);
        self.words[i / 64] &= !(1 << (i % 64));
    }

    /// Sets cell `(x, y)`, or an error when the cell is off the board.
    ///
    /// ```
    /// let mut b = gridbits::Board8x8::EMPTY;
    /// assert!(b.try_set(7, 7).is_ok());
    /// assert!(b.try_set(8, 0).is_err());
    /// ```
    pub fn try_set(&mut self, x: usize, y: usize) -> Result<(), OffGrid> {
        OffGrid::check(x, y, W, H)?;
        self.set(x, y);
        Ok(())
    }

    /// Clears cell `(x, y)`, or an error when the cell is off the board.
    pub fn try_clear(&mut self, x: usize, y: usize) -> Result<(), OffGrid> {
        OffGrid::check(x, y, W, H)?;
        self.clear(x, y);
        Ok(())
    }

    /// The board with only `(x, y)` set, or an error when the cell is off the board.
    pub fn try_cell(x: usize, y: usize) -> Result<Self, OffGrid> {
        OffGrid::check(x, y, W, H)?;
        Ok(Self::cell(x, y))
    }

    /// Sets cell `(x, y)` to `value`.
    ///
    /// # Panics
    /// When the cell is off the board; [`try_set`](Self::try_set) and [`try_clear`](Self::try_clear) return an error instead.
    #[inline]
    pub const fn put(&mut self, x: usize, y: usize, value: bool) {
        if value {
            self.set(x, y)
        } else {
            self.clear(x, y)
        }
    }

    /// A copy with `(x, y)` set.
    ///
    /// # Panics
    /// When the cell is off the board; [`try_cell`](Self::try_cell) returns an error instead.
    pub const fn with(self, x: usize, y: usize) -> Self {
        self.or(Self::cell(x, y))
    }

    /// A board built from a predicate on `(x, y)`.
    pub fn from_fn(mut f: impl FnMut(usize, usize) -> bool) -> Self {
        let mut b = Self::EMPTY;
        for y in 0..H {
            for x in 0..W {
                if f(x, y) {
                    b.set(x, y);
                }
            }
        }
        b
    }

    /// Number of set cells.
    #[inline]
    pub const fn count(self) -> u32 {
        let mut n = 0;
        let mut i = 0;
        while i < N {
            n += self.words[i].count_ones();
            i += 1;
        }
        n
    }

    /// Whether no cell is set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        let mut acc = 0;
        let mut i = 0;
        while i < N {
            acc |= self.words[i];
            i += 1;
        }
        acc == 0
    }

    /// Whether every cell is set.
    pub const fn is_full(self) -> bool {
        self.eq_const(Self::FULL)
    }

    /// `const` equality (the same as `==`).
    pub const fn eq_const(self, other: Self) -> bool {
        let mut i = 0;
        while i < N {
            if self.words[i] != other.words[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The bit index of the lowest set cell, if any.
    #[inline]
    pub const fn lowest_index(self) -> Option<usize> {
        let mut i = 0;
        while i < N {
            if self.words[i] != 0 {
                return Some(i * 64 + self.words[i].trailing_zeros() as usize);
            }
            i += 1;
        }
        None
    }

    /// The first set cell in raster order (smallest `y`, then smallest `x`: the top-left
    /// one), if any. "Lowest" is the lowest bit index, not the row nearest the floor.
    pub const fn lowest(self) -> Option<(usize, usize)> {
        match self.lowest_index() {
            Some(i) => Self::cell_of(i),
            None => None,
        }
    }

    /// A board with only the lowest set cell of `self` (empty if `self` is).
    #[inline]
    pub const fn lowest_bit(self) -> Self {
        let mut words = [0u64; N];
        let mut i = 0;
        while i < N {
            let w = self.words[i];
            if w != 0 {
                words[i] = w & w.wrapping_neg();
                break;
            }
            i += 1;
        }
        Board { words }
    }

    /// Removes the first set cell in raster order (the lowest bit) and returns it.
    pub const fn pop_lowest(&mut self) -> Option<(usize, usize)> {
        let Some(i) = self.lowest_index() else {
            return None;
        };
        self.words[i / 64] &= self.words[i / 64] - 1;
        Self::cell_of(i)
    }

    /// Iterates over the set cells, lowest first (row by row from the top, left to right).
    pub const fn iter(self) -> Cells<W, H, N> {
        Cells { board: self }
    }

    /// The mask of row `y` (empty when `y >= H`).
    pub const fn row(y: usize) -> Self {
        Self::rect_mask(0, W, y, y.saturating_add(1))
    }

    /// The mask of column `x` (empty when `x >= W`).
    pub const fn column(x: usize) -> Self {
        Self::rect_mask(x, x.saturating_add(1), 0, H)
    }

    /// The cells on the edge of the board.
    pub const fn border() -> Self {
        Self::BORDER
    }

    /// The full-board mask.
    pub const fn full() -> Self {
        Self::FULL
    }

    /// Intersection, `self & other`.
    #[inline(always)]
    pub const fn and(self, other: Self) -> Self {
        let mut words = self.words;
        let mut i = 0;
        while i < N {
            words[i] &= other.words[i];
            i += 1;
        }
        Board { words }
    }

    /// Union, `self | other`.
    #[inline(always)]
    pub const fn or(self, other: Self) -> Self {
        let mut words = self.words;
        let mut i = 0;
        while i < N {
            words[i] |= other.words[i];
            i += 1;
        }
        Board { words }
    }

    /// Symmetric difference, `self ^ other`.
    #[inline(always)]
    pub const fn xor(self, other: Self) -> Self {
        let mut words = self.words;
        let mut i = 0;
        while i < N {
            words[i] ^= other.words[i];
            i += 1;
        }
        Board { words }
    }

    /// Difference: the cells of `self` not in `other` (`self & !other`).
    #[inline(always)]
    pub const fn and_not(self, other: Self) -> Self {
        let mut words = self.words;
        let mut i = 0;
        while i < N {
            words[i] &= !other.words[i];
            i += 1;
        }
        Board { words }
    }

    /// Complement inside the board (`!self`): bits outside the board stay zero.
    #[inline(always)]
    pub const fn complement(self) -> Self {
        Self::FULL.and_not(self)
    }

    /// Whether every cell of `self` is also in `other`.
    pub const fn is_subset(self, other: Self) -> bool {
        self.and_not(other).is_empty()
    }

    /// Whether `self` and `other` share a cell.
    pub const fn intersects(self, other: Self) -> bool {
        !self.and(other).is_empty()
    }
}

impl<const W: usize, const H: usize, const N: usize> Default for Board<W, H, N> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize, const H: usize, const N: usize> GridView for Board<W, H, N> {
    fn width(&self) -> usize {
        W
    }
    fn height(&self) -> usize {
        H
    }
    fn get(&self, x: usize, y: usize) -> bool {
        Board::get(*self, x, y)
    }
    fn count(&self) -> u64 {
        Board::count(*self) as u64
    }
}

/// Iterator over the set cells of a [`Board`], lowest first.
#[derive(Clone, Debug)]
pub struct Cells<const W: usize, const H: usize, const N: usize> {
    board: Board<W, H, N>,
}

impl<const W: usize, const H: usize, const N: usize> Iterator for Cells<W, H, N> {
    type Item = (usize, usize);
    #[inline]
    fn next(&mut self) -> Option<(usize, usize)> {
        self.board.pop_lowest()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.board.count() as usize;
        (n, Some(n))
    }
}

impl<const W: usize, const H: usize, const N: usize> ExactSizeIterator for Cells<W, H, N> {}

impl<const W: usize, const H: usize, const N: usize> IntoIterator for Board<W, H, N> {
    type Item = (usize, usize);
    type IntoIter = Cells<W, H, N>;
    fn into_iter(self) -> Cells<W, H, N> {
        self.iter()
    }
}

impl<const W: usize, const H: usize, const N: usize> FromIterator<(usize, usize)>
    for Board<W, H, N>
{
    /// Collects cells into a board.
    ///
    /// # Panics
    /// On a cell off the board; collect through [`Board::try_set`] to get an error instead.
    fn from_iter<I: IntoIterator<Item = (usize, usize)>>(iter: I) -> Self {
        let mut b = Self::EMPTY;
        for (x, y) in iter {
            b.set(x, y);
        }
        b
    }
}

macro_rules! board_binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $m:ident) => {
        impl<const W: usize, const H: usize, const N: usize> $tr for Board<W, H, N> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                self.$m(rhs)
            }
        }
        impl<const W: usize, const H: usize, const N: usize> $atr for Board<W, H, N> {
            #[inline(always)]
            fn $af(&mut self, rhs: Self) {
                *self = self.$m(rhs);
            }
        }
    };
}
board_binop!(BitAnd, bitand, BitAndAssign, bitand_assign, and);
board_binop!(BitOr, bitor, BitOrAssign, bitor_assign, or);
board_binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, xor);

impl<const W: usize, const H: usize, const N: usize> Not for Board<W, H, N> {
    type Output = Self;
    /// Complement inside the board.
    #[inline(always)]
    fn not(self) -> Self {
        self.complement()
    }
}
