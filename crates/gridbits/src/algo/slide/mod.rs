//! Sliding moves (rook, bishop, queen): occluded fills through passable cells, for any set of
//! sliders at once, on fixed [`Board`]s and runtime [`BitGrid`]s alike.
//!
//! A *ray* in direction `d` from a set of pieces is every cell a piece reaches by moving one or
//! more steps in `d` through passable cells, stopping before the first cell that is not
//! passable (the "floodfill with walls" of the article "Sub-linear bitfield flood fill with
//! galloping", written for the Game of the Amazons). Pieces do not block each other unless
//! they are outside `passable`; a piece's own cell is in the result only when another piece
//! reaches it. [`reach`] is the union of the rays of a [`Moves`].
//!
//! [`reach`], [`rook_reach`], [`bishop_reach`], [`queen_reach`] and [`ray_fill`] run the
//! [`Method::Auto`] engine of the board kind (any other [`BitBoard`] type gets [`generic_ray`]);
//! [`reach_with`], [`dumb7_ray`], [`gallop_ray`], [`kogge_stone_ray`] and [`subtract_ray`] run
//! one chosen [`Method`] ([`Slide`]); [`try_reach`], [`try_reach_with`] and [`try_ray_fill`]
//! return a [`SizeMismatch`] instead of panicking on runtime grids of different sizes;
//! [`line_reach_u64`] and [`line_reach_u128`] solve one line in one integer. Cells are `(x, y)`
//! with `y` the row from the top on both board kinds.
//!
//! ```
//! use gridbits::algo::slide::{queen_reach, rook_reach};
//! use gridbits::{bitboard, Board10x10};
//! let amazon = bitboard!(Board10x10;
//!     "..........", "..........", "..........", "..........", "....#.....",
//!     "..........", "..........", "..........", "..........", "..........");
//! let arrows = bitboard!(Board10x10;
//!     "..........", "..........", "..........", "....#.....", "..........",
//!     "..#.......", "..........", "..........", "..........", "..........");
//! let empty = !(amazon | arrows);
//! assert_eq!(rook_reach(&amazon, &empty).count(), 9 + 5);
//! // Rook: 9 along the row, 5 down (an arrow just above); diagonals: 4 + 4 + 5 + 4.
//! assert_eq!(queen_reach(&amazon, &empty).count(), 9 + 5 + 4 + 4 + 5 + 4);
//! ```
//!
//! The five methods and which one [`Method::Auto`] picks: docs/algorithms.md.

mod bitboard_impls;
mod board;
mod board_steps;
mod dumb7;
mod gallop;
mod grid;
mod grid_steps;
mod kogge_stone;
mod line;
mod subtract;
mod sweep;

pub use crate::bitboard::generic_ray;
pub use board::auto_board_method;
pub use line::{
    line_reach_u128, line_reach_u128_with, line_reach_u64, line_reach_u64_with, LineReach,
};

use crate::SizeMismatch;
use crate::{BitBoard, Dir, Moves};
#[cfg(doc)]
use crate::{BitGrid, Board};

/// How a ray is computed. See the [module documentation](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Shift by one cell until the front is empty (Dumb7Fill).
    Dumb7,
    /// The galloping of "Sub-linear bitfield flood fill with galloping", accelerating to a
    /// speed chosen from the ray length.
    Gallop,
    /// Kogge-Stone doubling: jumps of 1, 2, 4, ... with a doubled propagator.
    KoggeStone,
    /// `o ^ (o - 2g)` east and (bit-reversed) west; Kogge-Stone in the other directions.
    Subtract,
    /// One pass over the rows in the direction of travel (vertical and diagonal rays),
    /// subtraction along rows. On fixed boards, whose rows are not word aligned, it is
    /// [`Method::Subtract`].
    Sweep,
    /// The fastest method measured for the board type and size.
    Auto,
}

impl Method {
    /// The explicit methods (every one but [`Method::Auto`]).
    pub const ALL: [Method; 5] = [
        Method::Dumb7,
        Method::Gallop,
        Method::KoggeStone,
        Method::Subtract,
        Method::Sweep,
    ];
}

/// Where galloping changes speed: before the gallop (`Accelerate`: jumps of 1, 2, ... up to
/// the galloping speed) or after it (`Decelerate`: gallop from the pieces, then jumps of half
/// the speed, a quarter, ..., 1). Both fill every cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Approach {
    /// Speed up first, then gallop.
    Accelerate,
    /// Gallop first, then slow down.
    Decelerate,
}

/// The galloping speed (as `log2`) [`Method::Gallop`] uses for rays of at most `max_len`
/// cells: about the square root of the length, at least 2 (the article gallops at 2 on a
/// 10-cell line).
pub const fn auto_gallop_speed(max_len: usize) -> u32 {
    let lg = usize::BITS - max_len.leading_zeros(); // bits of max_len, ~log2(len + 1)
    let s = lg / 2;
    if s == 0 {
        1
    } else {
        s
    }
}

/// Board types with word-level occluded fills: every [`Method`] on whole boards.
///
/// Implemented by [`Board`] and [`BitGrid`]; the free functions of this module
/// ([`dumb7_ray`], [`gallop_ray`], [`kogge_stone_ray`], [`subtract_ray`], [`reach_with`], ...)
/// call it.
pub trait Slide: BitBoard {
    /// The cells reached from the pieces `self` moving in `dir` through `passable`, any
    /// number of steps, computed with `method` (see [`ray_fill`] for the exact meaning).
    ///
    /// # Panics
    ///
    /// Runtime grids panic if `passable` has another size (see [`try_reach_with`]).
    fn ray_with(&self, passable: &Self, dir: Dir, method: Method) -> Self;

    /// Every ray of `moves` (one step for `Four`/`Eight`) with `method`: see [`reach_with`].
    ///
    /// # Panics
    ///
    /// Runtime grids panic if `passable` has another size (see [`try_reach_with`]).
    fn reach_with(&self, passable: &Self, moves: Moves, method: Method) -> Self {
        let mut out = self.empty_like();
        for &d in moves.dirs() {
            let r = if moves.is_sliding() {
                self.ray_with(passable, d, method)
            } else {
                let mut s = self.shift(d);
                s.and_assign(passable);
                s
            };
            out.or_assign(&r);
        }
        out
    }

    /// Galloping with an explicit speed `2^speed_log2` (at least 2; values above 7 are
    /// clamped to 7) and [`Approach`].
    ///
    /// # Panics
    ///
    /// Runtime grids panic if `passable` has another size.
    fn gallop_ray_at(&self, passable: &Self, dir: Dir, speed_log2: u32, approach: Approach)
        -> Self;

    /// The longest possible ray in `dir` on this board, in cells.
    fn max_ray(&self, dir: Dir) -> usize {
        let (dx, dy) = dir.delta();
        let (w, h) = (self.width(), self.height());
        match (dx != 0, dy != 0) {
            (true, true) => w.min(h) - 1,
            (true, false) => w - 1,
            _ => h - 1,
        }
    }
}

/// [`ray_fill`] with Dumb7Fill (shift by one until nothing moves).
///
/// # Panics
///
/// If `pieces` and `passable` are runtime grids of different sizes ([`try_reach_with`] returns an error
/// instead).
pub fn dumb7_ray<B: Slide>(pieces: &B, passable: &B, dir: Dir) -> B {
    pieces.ray_with(passable, dir, Method::Dumb7)
}

/// [`ray_fill`] with galloping at the automatic speed, accelerating first.
///
/// # Panics
///
/// If `pieces` and `passable` are runtime grids of different sizes ([`try_reach_with`] returns an error
/// instead).
pub fn gallop_ray<B: Slide>(pieces: &B, passable: &B, dir: Dir) -> B {
    pieces.ray_with(passable, dir, Method::Gallop)
}

/// [`ray_fill`] with Kogge-Stone doubling.
///
/// # Panics
///
/// If `pieces` and `passable` are runtime grids of different sizes ([`try_reach_with`] returns an error
/// instead).
pub fn kogge_stone_ray<B: Slide>(pieces: &B, passable: &B, dir: Dir) -> B {
    pieces.ray_with(passable, dir, Method::KoggeStone)
}

/// [`ray_fill`] with the subtraction trick `o ^ (o - 2g)`: `Some` for east and west (west on
/// bit-reversed words), `None` for the directions that are not contiguous in the bits.
///
/// ```
/// use gridbits::algo::slide::subtract_ray;
/// use gridbits::{bitboard, Board, Dir};
/// type B = Board<8, 2, 1>;
/// let rooks = bitboard!(B; "#..#....", "........");
/// let free = bitboard!(B; ".##.###.", "########");
/// assert_eq!(subtract_ray(&rooks, &free, Dir::E), Some(bitboard!(B; ".##.###.", "........")));
/// assert_eq!(subtract_ray(&rooks, &free, Dir::S), None);
/// ```
///
/// # Panics
///
/// If `pieces` and `passable` are runtime grids of different sizes ([`try_reach_with`] returns an error
/// instead).
pub fn subtract_ray<B: Slide>(pieces: &B, passable: &B, dir: Dir) -> Option<B> {
    matches!(dir, Dir::E | Dir::W).then(|| pieces.ray_with(passable, dir, Method::Subtract))
}

/// [`reach`] with one chosen method in every direction.
///
/// # Panics
///
/// If `pieces` and `passable` are runtime grids of different sizes ([`try_reach_with`] returns an error
/// instead).
pub fn reach_with<B: Slide>(pieces: &B, passable: &B, moves: Moves, method: Method) -> B {
    Slide::reach_with(pieces, passable, moves, method)
}

/// The cells reachable in one sliding move by any of `pieces`, through `passable` cells, in
/// the directions of `moves` (a `Four`/`Eight` move is one step). The pieces' own cells are
/// not included unless another piece reaches them; a slide stops before the first cell that
/// is not passable.
///
/// Each board type uses its fastest method ([`Method::Auto`]); any other type implementing
/// [`BitBoard`] gets the shift-by-one loop.
///
/// ```
/// use gridbits::{algo::slide::reach, bitboard, Board, Moves};
/// type B = Board<5, 3, 1>;
/// let pieces = bitboard!(B; ".....", "..#..", ".....");
/// let free = bitboard!(B; ".....", "#...#", ".....").complement().and_not(pieces);
/// let r = reach(&pieces, &free, Moves::Rook);
/// assert_eq!(r, bitboard!(B; "..#..", ".#.#.", "..#.."));
/// ```
///
/// # Panics
///
/// If `pieces` and `passable` are runtime grids of different sizes ([`try_reach`] returns an error
/// instead).
pub fn reach<B: BitBoard>(pieces: &B, passable: &B, moves: Moves) -> B {
    let mut out = pieces.empty_like();
    for &d in moves.dirs() {
        out.or_assign(&ray_fill(pieces, passable, d, moves.is_sliding()));
    }
    out
}

/// Rook reach: [`reach`] with [`Moves::Rook`].
///
/// # Panics
///
/// If `pieces` and `passable` are runtime grids of different sizes ([`try_reach`] returns an error
/// instead).
pub fn rook_reach<B: BitBoard>(pieces: &B, passable: &B) -> B {
    reach(pieces, passable, Moves::Rook)
}

/// Bishop reach: [`reach`] with [`Moves::Bishop`].
///
/// # Panics
///
/// If `pieces` and `passable` are runtime grids of different sizes ([`try_reach`] returns an error
/// instead).
pub fn bishop_reach<B: BitBoard>(pieces: &B, passable: &B) -> B {
    reach(pieces, passable, Moves::Bishop)
}

/// Queen reach: [`reach`] with [`Moves::Queen`].
///
/// # Panics
///
/// If `pieces` and `passable` are runtime grids of different sizes ([`try_reach`] returns an error
/// instead).
pub fn queen_reach<B: BitBoard>(pieces: &B, passable: &B) -> B {
    reach(pieces, passable, Moves::Queen)
}

/// The cells reached from `pieces` moving in direction `d` through `passable` cells: one step
/// if `!sliding`, else any number of steps (the pieces' cells themselves are not included
/// unless another piece reaches them).
///
/// # Panics
///
/// If `pieces` and `passable` are runtime grids of different sizes ([`try_ray_fill`] returns an error
/// instead).
pub fn ray_fill<B: BitBoard>(pieces: &B, passable: &B, d: Dir, sliding: bool) -> B {
    if !sliding {
        let mut front = pieces.shift(d);
        front.and_assign(passable);
        return front;
    }
    pieces.slide_ray(passable, d)
}

/// [`reach`] that returns a [`SizeMismatch`] instead of panicking when `pieces` and
/// `passable` are runtime grids of different sizes. Fixed boards always succeed.
///
/// ```
/// use gridbits::algo::slide::try_reach;
/// use gridbits::{BitGrid, Moves};
/// let mut rook = BitGrid::new(5, 5);
/// rook.set(2, 2);
/// let free = BitGrid::full(5, 5);
/// assert_eq!(try_reach(&rook, &free, Moves::Rook).unwrap().count(), 8);
/// let small = BitGrid::full(4, 5);
/// let err = try_reach(&rook, &small, Moves::Rook).unwrap_err();
/// assert_eq!(err.to_string(), "passable is 4x5, expected 5x5 (the size of pieces)");
/// ```
pub fn try_reach<B: BitBoard>(pieces: &B, passable: &B, moves: Moves) -> Result<B, SizeMismatch> {
    SizeMismatch::check(pieces, "pieces", passable, "passable")?;
    Ok(reach(pieces, passable, moves))
}

/// [`reach_with`] that returns a [`SizeMismatch`] instead of panicking when `pieces` and
/// `passable` are runtime grids of different sizes.
///
/// ```
/// use gridbits::algo::slide::{try_reach_with, Method};
/// use gridbits::{BitGrid, Moves};
/// let (pieces, free) = (BitGrid::new(6, 6), BitGrid::full(6, 7));
/// assert!(try_reach_with(&pieces, &free, Moves::Queen, Method::Gallop).is_err());
/// ```
pub fn try_reach_with<B: Slide>(
    pieces: &B,
    passable: &B,
    moves: Moves,
    method: Method,
) -> Result<B, SizeMismatch> {
    SizeMismatch::check(pieces, "pieces", passable, "passable")?;
    Ok(Slide::reach_with(pieces, passable, moves, method))
}

/// [`ray_fill`] that returns a [`SizeMismatch`] instead of panicking when `pieces` and
/// `passable` are runtime grids of different sizes.
///
/// ```
/// use gridbits::algo::slide::try_ray_fill;
/// use gridbits::{BitGrid, Dir};
/// let mut piece = BitGrid::new(5, 1);
/// piece.set(0, 0);
/// let free = BitGrid::full(5, 1);
/// assert_eq!(try_ray_fill(&piece, &free, Dir::E, true).unwrap().count(), 4);
/// ```
pub fn try_ray_fill<B: BitBoard>(
    pieces: &B,
    passable: &B,
    d: Dir,
    sliding: bool,
) -> Result<B, SizeMismatch> {
    SizeMismatch::check(pieces, "pieces", passable, "passable")?;
    Ok(ray_fill(pieces, passable, d, sliding))
}
