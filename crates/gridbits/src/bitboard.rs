//! [`BitBoard`]: the board abstraction every algorithm is written against, once.
//!
//! Implemented by the fixed-size [`Board`] (where every method inlines to word
//! operations on `Copy` values) and the runtime-sized [`BitGrid`]. Methods take
//! `&self` / `&mut self` so that heap-backed grids can be updated in place; on fixed boards the
//! references vanish after inlining.
//!
//! ```
//! use gridbits::{BitBoard, BitGrid, Board8x8, Connectivity};
//! // One generic function, two storage types.
//! fn grow<B: BitBoard>(b: &B, steps: usize) -> B {
//!     let mut b = b.clone();
//!     for _ in 0..steps {
//!         b = b.dilate(Connectivity::Eight);
//!     }
//!     b
//! }
//! assert_eq!(grow(&Board8x8::cell(0, 0), 2).count(), 9);
//! let mut g = BitGrid::new(100, 100).unwrap();
//! g.set(50, 50);
//! assert_eq!(grow(&g, 2).count(), 25);
//! ```

use crate::dir::{Connectivity, Dir};
use crate::{BitGrid, Board, GridView};
use std::fmt::Debug;

/// Operations shared by every bitboard type. See the [module documentation](self).
pub trait BitBoard: Clone + PartialEq + Debug + GridView {
    /// An empty board of the same size.
    fn empty_like(&self) -> Self;
    /// A full board of the same size.
    fn full_like(&self) -> Self;
    /// Whether no cell is set.
    fn is_empty(&self) -> bool;
    /// Sets `(x, y)`.
    ///
    /// # Panics
    /// Off the board (the types' own `try_set` returns an error instead).
    fn set(&mut self, x: usize, y: usize);
    /// Clears `(x, y)`.
    ///
    /// # Panics
    /// Off the board (the types' own `try_clear` returns an error instead).
    fn clear(&mut self, x: usize, y: usize);
    /// The lowest set cell (smallest `y`, then `x`).
    fn lowest(&self) -> Option<(usize, usize)>;
    /// A board with only the lowest set cell (empty if `self` is).
    fn lowest_bit(&self) -> Self;
    /// `self &= other`.
    fn and_assign(&mut self, other: &Self);
    /// `self |= other`.
    fn or_assign(&mut self, other: &Self);
    /// `self ^= other`.
    fn xor_assign(&mut self, other: &Self);
    /// `self &= !other`.
    fn and_not_assign(&mut self, other: &Self);
    /// Complement inside the board, in place.
    fn complement_assign(&mut self);
    /// Whether every cell of `self` is in `other`.
    fn is_subset(&self, other: &Self) -> bool;
    /// Every cell moved one step in `dir`; nothing wraps.
    fn shift(&self, dir: Dir) -> Self;
    /// Every cell moved `k` steps in `dir`.
    fn shift_by(&self, dir: Dir, k: usize) -> Self;
    /// Dilation under `conn`.
    fn dilate(&self, conn: Connectivity) -> Self;
    /// Dilation under `conn`, clipped to `mask`.
    fn dilate_within(&self, conn: Connectivity, mask: &Self) -> Self;
    /// Erosion under `conn` (off-board cells count as empty).
    fn erode(&self, conn: Connectivity) -> Self;
    /// The set cells, lowest first.
    fn cells(&self) -> Vec<(usize, usize)>;
    /// The cells reached from `self` (the pieces) sliding in `dir` through `passable`: see
    /// [`algo::slide::ray_fill`](crate::algo::slide::ray_fill). The default is the plain
    /// shift-by-one loop; the board types of this crate use their fastest method.
    fn slide_ray(&self, passable: &Self, dir: Dir) -> Self {
        crate::algo::slide::generic_ray(self, passable, dir)
    }
}

impl<const W: usize, const H: usize, const N: usize> BitBoard for Board<W, H, N> {
    #[inline(always)]
    fn empty_like(&self) -> Self {
        Self::EMPTY
    }
    #[inline(always)]
    fn full_like(&self) -> Self {
        Self::FULL
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        Board::is_empty(*self)
    }
    #[inline(always)]
    fn set(&mut self, x: usize, y: usize) {
        Board::set(self, x, y)
    }
    #[inline(always)]
    fn clear(&mut self, x: usize, y: usize) {
        Board::clear(self, x, y)
    }
    #[inline(always)]
    fn lowest(&self) -> Option<(usize, usize)> {
        Board::lowest(*self)
    }
    #[inline(always)]
    fn lowest_bit(&self) -> Self {
        Board::lowest_bit(*self)
    }
    #[inline(always)]
    fn and_assign(&mut self, other: &Self) {
        *self = self.and(*other)
    }
    #[inline(always)]
    fn or_assign(&mut self, other: &Self) {
        *self = self.or(*other)
    }
    #[inline(always)]
    fn xor_assign(&mut self, other: &Self) {
        *self = self.xor(*other)
    }
    #[inline(always)]
    fn and_not_assign(&mut self, other: &Self) {
        *self = Board::and_not(*self, *other)
    }
    #[inline(always)]
    fn complement_assign(&mut self) {
        *self = self.complement()
    }
    #[inline(always)]
    fn is_subset(&self, other: &Self) -> bool {
        Board::is_subset(*self, *other)
    }
    #[inline(always)]
    fn shift(&self, dir: Dir) -> Self {
        Board::shift(*self, dir)
    }
    #[inline(always)]
    fn shift_by(&self, dir: Dir, k: usize) -> Self {
        Board::shift_by(*self, dir, k)
    }
    #[inline(always)]
    fn dilate(&self, conn: Connectivity) -> Self {
        Board::dilate(*self, conn)
    }
    #[inline(always)]
    fn dilate_within(&self, conn: Connectivity, mask: &Self) -> Self {
        Board::dilate_within(*self, conn, *mask)
    }
    #[inline(always)]
    fn erode(&self, conn: Connectivity) -> Self {
        Board::erode(*self, conn)
    }
    fn cells(&self) -> Vec<(usize, usize)> {
        self.iter().collect()
    }
    #[inline]
    fn slide_ray(&self, passable: &Self, dir: Dir) -> Self {
        crate::algo::slide::Slide::ray_with(self, passable, dir, crate::algo::slide::Method::Auto)
    }
}

impl BitBoard for BitGrid {
    fn empty_like(&self) -> Self {
        BitGrid::empty_like(self)
    }
    fn full_like(&self) -> Self {
        let mut g = BitGrid::empty_like(self);
        g.complement_assign();
        g
    }
    fn is_empty(&self) -> bool {
        BitGrid::is_empty(self)
    }
    fn set(&mut self, x: usize, y: usize) {
        BitGrid::set(self, x, y)
    }
    fn clear(&mut self, x: usize, y: usize) {
        BitGrid::clear(self, x, y)
    }
    fn lowest(&self) -> Option<(usize, usize)> {
        BitGrid::lowest(self)
    }
    fn lowest_bit(&self) -> Self {
        let mut g = BitGrid::empty_like(self);
        if let Some((x, y)) = BitGrid::lowest(self) {
            g.set(x, y);
        }
        g
    }
    fn and_assign(&mut self, other: &Self) {
        BitGrid::and_assign(self, other)
    }
    fn or_assign(&mut self, other: &Self) {
        BitGrid::or_assign(self, other)
    }
    fn xor_assign(&mut self, other: &Self) {
        BitGrid::xor_assign(self, other)
    }
    fn and_not_assign(&mut self, other: &Self) {
        BitGrid::and_not_assign(self, other)
    }
    fn complement_assign(&mut self) {
        BitGrid::complement_assign(self)
    }
    fn is_subset(&self, other: &Self) -> bool {
        BitGrid::is_subset(self, other)
    }
    fn shift(&self, dir: Dir) -> Self {
        BitGrid::shift(self, dir)
    }
    fn shift_by(&self, dir: Dir, k: usize) -> Self {
        BitGrid::shift_by(self, dir, k)
    }
    fn dilate(&self, conn: Connectivity) -> Self {
        BitGrid::dilate(self, conn)
    }
    fn dilate_within(&self, conn: Connectivity, mask: &Self) -> Self {
        BitGrid::dilate_within(self, conn, mask)
    }
    fn erode(&self, conn: Connectivity) -> Self {
        BitGrid::erode(self, conn)
    }
    fn cells(&self) -> Vec<(usize, usize)> {
        self.iter().collect()
    }
    fn slide_ray(&self, passable: &Self, dir: Dir) -> Self {
        crate::algo::slide::Slide::ray_with(self, passable, dir, crate::algo::slide::Method::Auto)
    }
}
