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
//! let mut g = BitGrid::new(100, 100);
//! g.set(50, 50);
//! assert_eq!(grow(&g, 2).count(), 25);
//! ```

use crate::dir::{Connectivity, Dir};
use crate::GridView;
#[cfg(doc)]
use crate::{BitGrid, Board};
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
    /// shift-by-one loop [`generic_ray`]; [`Board`] and [`BitGrid`] use their fastest method
    /// (their impls live in `algo::slide`, above the engines they call).
    fn slide_ray(&self, passable: &Self, dir: Dir) -> Self {
        generic_ray(self, passable, dir)
    }
}

/// The shift-by-one loop written against [`BitBoard`] alone: the ray of any board type.
///
/// # Panics
///
/// If `pieces` and `passable` are runtime grids of different sizes
/// ([`try_ray_fill`](crate::algo::slide::try_ray_fill) returns an error instead).
pub fn generic_ray<B: BitBoard>(pieces: &B, passable: &B, d: Dir) -> B {
    let mut front = pieces.shift(d);
    front.and_assign(passable);
    let mut all = front.clone();
    while !front.is_empty() {
        front = front.shift(d);
        front.and_assign(passable);
        front.and_not_assign(&all);
        all.or_assign(&front);
    }
    all
}
