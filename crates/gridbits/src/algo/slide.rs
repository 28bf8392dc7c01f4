//! Sliding moves (rook, bishop, queen): occluded fills through passable cells, for any set of
//! sliders at once.
//!
//! A *ray* in direction `d` from a set of pieces is every cell a piece reaches by moving one or
//! more steps in `d` through passable cells, stopping before the first cell that is not
//! passable (seed 003's "floodfill with walls"). Pieces do not block each other unless they
//! are outside `passable`; a piece's own cell is in the result only when another piece reaches
//! it. [`reach`] is the union of the rays of a [`Moves`].
//!
//! Four ways to compute a ray, each correct for many pieces at once and available on every
//! board type through [`Slide`] (fixed [`Board`]s and the runtime [`BitGrid`]):
//!
//! - [`Method::Dumb7`]: shift the front by one cell, AND with the passable set, OR into the
//!   result, until the front is empty ("Dumb7Fill"; one shift per cell of the longest ray).
//! - [`Method::Gallop`]: seed 003's galloping. After a shift by one ("accelerate") the front
//!   moves `2^s` cells per step through a propagator whose walls are *smeared* over `2^s`
//!   cells (a cell may be landed on only if it and the `2^s - 1` cells before it are
//!   passable), so nothing phases through a wall; or it gallops first and "decelerates"
//!   with jumps of `2^(s-1)`, ..., 1 ([`Approach`]). Stops as soon as a step adds nothing.
//! - [`Method::KoggeStone`]: jumps of 1, 2, 4, 8, ... cells, the propagator ANDed with a
//!   shifted copy of itself before each doubling: `ceil(log2 L)` steps for rays of up to `L`
//!   cells, no branch on small fixed boards. On runtime grids each pass does the jump and the
//!   doubling together; there, and for rays longer than 15 cells on fixed boards, the fill
//!   stops at the first jump that adds nothing (rays are contiguous, so nothing lies further).
//! - [`Method::Subtract`]: for directions contiguous in the bits (east, towards higher bits),
//!   `o ^ (o - 2g)` with `o` the blockers plus the pieces, which is exact for many pieces on a
//!   line (each borrow stops at the next set bit of `o`); west runs the same on the
//!   bit-reversed words. Other directions fall back to Kogge-Stone.
//!
//! [`Method::Sweep`] (runtime grids) walks the rows once in the direction of travel, each row
//! ORing in the shifted previous row, so vertical and diagonal rays cost one pass; rows use
//! the subtraction. [`Method::Auto`] is whichever the benchmark (`gridbits bench --filter
//! "queen reach"`) measured fastest: on fixed boards the subtraction east (and west on big
//! boards) and Kogge-Stone in the other directions ([`auto_board_method`]); on runtime grids
//! the row sweep.
//!
//! The 1D problem of the seed, a line of up to 64 or 128 cells, is [`line_reach_u64`] and
//! [`line_reach_u128`].
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

use crate::{BitBoard, BitGrid, Board, Dir, Moves};

/// How a ray is computed. See the [module documentation](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Shift by one cell until the front is empty (Dumb7Fill).
    Dumb7,
    /// Seed 003's galloping, accelerating to a speed chosen from the ray length.
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
/// cells: about the square root of the length, at least 2 (seed 003 gallops at 2 on a
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

// ---------------------------------------------------------------------------------------------
// The 1D problem.
// ---------------------------------------------------------------------------------------------

/// The cells reached on a line: towards larger bit indices (`right`) and smaller (`left`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct LineReach<T> {
    /// Cells reached moving towards larger indices (bit `i + 1` is right of bit `i`).
    pub right: T,
    /// Cells reached moving towards smaller indices.
    pub left: T,
}

macro_rules! line_impl {
    ($t:ty, $name:ident, $name_with:ident, $bits:expr) => {
        /// Seed 003's 1D problem on a line of `n` cells (bit `i` is cell `i`; `n` is at most
        #[doc = concat!(stringify!($bits), "; larger values are clamped):")]
        /// every cell a queen-like piece of `pieces` (those on the line) reaches moving right (towards larger
        /// indices) or left, stopping before a wall. Pieces do not block each other (add them
        /// to `walls` if they should); a piece's own cell counts only when another piece
        /// reaches it; walls and bits at `n` and above are never reached.
        ///
        /// Right is the subtraction `o ^ (o - 2g)`, left galloping (the seed's algorithm);
        #[doc = concat!("[`", stringify!($name_with), "`] picks the method.")]
        ///
        /// Example: pieces on cells 1 and 9, walls on 4 and 12, a 16-cell line. (The seed's
        /// own example is a picture that its text does not include.)
        ///
        /// ```
        #[doc = concat!("use gridbits::algo::slide::", stringify!($name), ";")]
        /// // cell:  0123456789012345
        /// // line:  .Q..#....Q..#...
        /// let walls = 1 << 4 | 1 << 12;
        /// let pieces = 1 << 1 | 1 << 9;
        #[doc = concat!("let r = ", stringify!($name), "(walls, pieces, 16);")]
        /// assert_eq!(r.right, 0b0000_1100_0000_1100); // 2, 3 and 10, 11
        /// assert_eq!(r.left, 0b0000_0001_1110_0001); // 0 and 5, 6, 7, 8
        /// ```
        pub fn $name(walls: $t, pieces: $t, n: u32) -> LineReach<$t> {
            let n = n.min($bits);
            let mask: $t = if n >= $bits { !0 } else { ((1 as $t) << n) - 1 };
            let pass = !walls & mask;
            let pieces = pieces & mask;
            LineReach {
                right: {
                    let o = !pass | pieces;
                    (o ^ o.wrapping_sub(pieces << 1)) & pass
                },
                left: {
                    // Galloping at speed 2 with one accelerating step (seed 003).
                    let mut g = (pieces >> 1) & pass;
                    g |= (g >> 1) & pass;
                    let p2 = pass & (pass >> 1);
                    loop {
                        let next = g | ((g >> 2) & p2);
                        if next == g {
                            break g;
                        }
                        g = next;
                    }
                },
            }
        }

        #[doc = concat!("[`", stringify!($name), "`] with a chosen [`Method`] for both directions")]
        /// ([`Method::Sweep`] and [`Method::Auto`] are the subtraction).
        ///
        /// ```
        #[doc = concat!("use gridbits::algo::slide::{", stringify!($name_with), ", Method};")]
        /// for m in Method::ALL {
        #[doc = concat!("    let r = ", stringify!($name_with), "(0b1000_0000, 0b10, 10, m);")]
        ///     assert_eq!((r.right, r.left), (0b0111_1100, 0b1));
        /// }
        /// ```
        pub fn $name_with(walls: $t, pieces: $t, n: u32, method: Method) -> LineReach<$t> {
            let n = n.min($bits);
            let mask: $t = if n >= $bits { !0 } else { ((1 as $t) << n) - 1 };
            let pass = !walls & mask;
            let pieces = pieces & mask;
            let len = (n as usize).saturating_sub(1);
            let rev = |x: $t| x.reverse_bits();
            let one = |g: $t, p: $t, right: bool| -> $t {
                let sh = |x: $t, k: usize| -> $t {
                    if k >= $bits {
                        0
                    } else if right {
                        x << k
                    } else {
                        x >> k
                    }
                };
                match method {
                    Method::Dumb7 => {
                        let mut front = sh(g, 1) & p;
                        let mut acc = front;
                        while front != 0 {
                            front = sh(front, 1) & p;
                            acc |= front;
                        }
                        acc
                    }
                    Method::Gallop => {
                        let speed = 1usize << auto_gallop_speed(len);
                        let mut acc = sh(g, 1) & p;
                        let (mut pj, mut j) = (p, 1);
                        while j < speed {
                            acc |= pj & sh(acc, j);
                            pj &= sh(pj, j);
                            j *= 2;
                        }
                        loop {
                            let next = acc | (pj & sh(acc, j));
                            if next == acc {
                                break acc;
                            }
                            acc = next;
                        }
                    }
                    Method::KoggeStone => {
                        let mut acc = sh(g, 1) & p;
                        let (mut pj, mut j, mut covered) = (p, 1, 1);
                        while covered < len {
                            if covered + j < len && 2 * j <= covered {
                                pj &= sh(pj, j);
                                j *= 2;
                            }
                            acc |= pj & sh(acc, j);
                            covered += j;
                        }
                        acc
                    }
                    Method::Subtract | Method::Sweep | Method::Auto => {
                        if right {
                            let o = !p | g;
                            (o ^ o.wrapping_sub(g << 1)) & p
                        } else {
                            let (g, p) = (rev(g), rev(p));
                            let o = !p | g;
                            rev((o ^ o.wrapping_sub(g << 1)) & p)
                        }
                    }
                }
            };
            LineReach {
                right: one(pieces, pass, true),
                left: one(pieces, pass, false),
            }
        }
    };
}

line_impl!(u64, line_reach_u64, line_reach_u64_with, 64);
line_impl!(u128, line_reach_u128, line_reach_u128_with, 128);

// ---------------------------------------------------------------------------------------------
// The board abstraction.
// ---------------------------------------------------------------------------------------------

/// Board types with word-level occluded fills: every [`Method`] on whole boards.
///
/// Implemented by [`Board`] and [`BitGrid`]; the free functions of this module
/// ([`dumb7_ray`], [`gallop_ray`], [`kogge_stone_ray`], [`subtract_ray`], [`reach_with`], ...)
/// call it.
pub trait Slide: BitBoard {
    /// The cells reached from the pieces `self` moving in `dir` through `passable`, any
    /// number of steps, computed with `method` (see [`ray_fill`] for the exact meaning).
    /// Runtime grids panic if `passable` has another size.
    fn ray_with(&self, passable: &Self, dir: Dir, method: Method) -> Self;

    /// Every ray of `moves` (one step for `Four`/`Eight`) with `method`: see [`reach_with`].
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

    /// Galloping with an explicit speed `2^speed_log2` (at least 2) and [`Approach`].
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
pub fn dumb7_ray<B: Slide>(pieces: &B, passable: &B, dir: Dir) -> B {
    pieces.ray_with(passable, dir, Method::Dumb7)
}

/// [`ray_fill`] with seed 003's galloping at the automatic speed, accelerating first.
pub fn gallop_ray<B: Slide>(pieces: &B, passable: &B, dir: Dir) -> B {
    pieces.ray_with(passable, dir, Method::Gallop)
}

/// [`ray_fill`] with Kogge-Stone doubling.
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
pub fn subtract_ray<B: Slide>(pieces: &B, passable: &B, dir: Dir) -> Option<B> {
    matches!(dir, Dir::E | Dir::W).then(|| pieces.ray_with(passable, dir, Method::Subtract))
}

/// [`reach`] with one chosen method in every direction.
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
pub fn reach<B: BitBoard>(pieces: &B, passable: &B, moves: Moves) -> B {
    let mut out = pieces.empty_like();
    for &d in moves.dirs() {
        out.or_assign(&ray_fill(pieces, passable, d, moves.is_sliding()));
    }
    out
}

/// Rook reach: [`reach`] with [`Moves::Rook`].
pub fn rook_reach<B: BitBoard>(pieces: &B, passable: &B) -> B {
    reach(pieces, passable, Moves::Rook)
}

/// Bishop reach: [`reach`] with [`Moves::Bishop`].
pub fn bishop_reach<B: BitBoard>(pieces: &B, passable: &B) -> B {
    reach(pieces, passable, Moves::Bishop)
}

/// Queen reach: [`reach`] with [`Moves::Queen`].
pub fn queen_reach<B: BitBoard>(pieces: &B, passable: &B) -> B {
    reach(pieces, passable, Moves::Queen)
}

/// The cells reached from `pieces` moving in direction `d` through `passable` cells: one step
/// if `!sliding`, else any number of steps (the pieces' cells themselves are not included
/// unless another piece reaches them).
pub fn ray_fill<B: BitBoard>(pieces: &B, passable: &B, d: Dir, sliding: bool) -> B {
    if !sliding {
        let mut front = pieces.shift(d);
        front.and_assign(passable);
        return front;
    }
    pieces.slide_ray(passable, d)
}

/// The shift-by-one loop written against [`BitBoard`] alone: the ray of any board type.
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

// ---------------------------------------------------------------------------------------------
// Fixed boards.
//
// Every function below takes the direction (`DX`, `DY`) and the method (`M`) as const
// generics, so all shift amounts are constants: on small boards a ray compiles to
// straight-line word operations.
// ---------------------------------------------------------------------------------------------

const M_DUMB7: u8 = 0;
const M_GALLOP: u8 = 1;
const M_KOGGE_STONE: u8 = 2;
const M_SUBTRACT: u8 = 3;
const M_AUTO: u8 = 4;

/// The method [`Method::Auto`] uses on a fixed `w x h` board in direction `(dx, dy)`, from
/// the benchmark (`gridbits bench --filter "queen reach"`): the subtraction east (a borrow
/// chain, no loop), and west too when rays are longer than 15 cells (the bit reversal pays
/// off on big boards); Kogge-Stone everywhere else (branch-free up to 15 cells, early exit
/// beyond).
pub const fn auto_board_method(w: usize, h: usize, dx: isize, dy: isize) -> Method {
    if dy == 0 && (dx == 1 || max_ray_len(w, h, dx, dy) > 15) {
        Method::Subtract
    } else {
        Method::KoggeStone
    }
}

/// Raw shift by a signed bit offset (positive: towards higher bits).
#[inline(always)]
fn sh<const W: usize, const H: usize, const N: usize>(
    b: Board<W, H, N>,
    delta: isize,
) -> Board<W, H, N> {
    if delta >= 0 {
        b.shl_raw(delta as usize)
    } else {
        b.shr_raw(delta.unsigned_abs())
    }
}

/// The passable cells a step with horizontal part `dx` may land on. With a guard column every
/// raw shift lands either on a cell or on a guard bit (never passable); without one, a step
/// with a horizontal part may not land in the column it would wrap into.
#[inline(always)]
fn propagator<const W: usize, const H: usize, const N: usize>(
    passable: Board<W, H, N>,
    dx: isize,
) -> Board<W, H, N> {
    if Board::<W, H, N>::GUARD {
        return passable;
    }
    match dx {
        1 => passable.and(Board::<W, H, N>::NOT_FIRST_COL),
        -1 => passable.and(Board::<W, H, N>::NOT_LAST_COL),
        _ => passable,
    }
}

/// The longest ray on a `w x h` board in a direction with parts `dx`, `dy`.
const fn max_ray_len(w: usize, h: usize, dx: isize, dy: isize) -> usize {
    match (dx != 0, dy != 0) {
        (true, true) => {
            if w < h {
                w - 1
            } else {
                h - 1
            }
        }
        (true, false) => w - 1,
        _ => h - 1,
    }
}

/// A Kogge-Stone schedule for rays of up to `len` cells: `(jumps, smear, count)`. Before jump
/// `i`, if `smear[i]`, the propagator is doubled; `jumps[i]` is the jump length.
///
/// The fill starts with every cell at distance 1; a jump of `j <= covered` through `P_j`
/// (`j` passable cells in a row) extends the cells at distances `1..=covered` to
/// `1..=covered + j`.
const fn ks_plan(len: usize) -> ([usize; 40], [bool; 40], usize) {
    let mut jumps = [0usize; 40];
    let mut smear = [false; 40];
    let (mut j, mut covered, mut n) = (1usize, 1usize, 0usize);
    while covered < len && n < 40 {
        if covered + j < len && 2 * j <= covered {
            smear[n] = true;
            j *= 2;
        }
        jumps[n] = j;
        covered += j;
        n += 1;
    }
    (jumps, smear, n)
}

/// Board rays, one function per method, direction as const generics.
impl<const W: usize, const H: usize, const N: usize> Board<W, H, N> {
    const fn slide_delta(dx: isize, dy: isize) -> isize {
        dy * Self::STRIDE as isize + dx
    }

    #[inline(always)]
    fn slide_dumb7<const DX: isize, const DY: isize>(self, passable: Self) -> Self {
        let p = propagator(passable, DX);
        let dl = const { Self::slide_delta(DX, DY) };
        let mut front = sh(self, dl).and(p);
        let mut acc = front;
        while !front.is_empty() {
            front = sh(front, dl).and(p);
            acc = acc.or(front);
        }
        acc
    }

    #[inline(always)]
    fn slide_kogge_stone<const DX: isize, const DY: isize>(self, passable: Self) -> Self {
        let (jumps, smear, count) = const { ks_plan(max_ray_len(W, H, DX, DY)) };
        if count > 12 {
            // Rays longer than 4095 cells (boards too large to keep by value anyway).
            return self.slide_dumb7::<DX, DY>(passable);
        }
        let p = propagator(passable, DX);
        let dl = const { Self::slide_delta(DX, DY) };
        let mut acc = sh(self, dl).and(p);
        let (mut pj, mut j) = (p, 1isize);
        // Long rays (big boards): stop at the first jump that adds nothing, as on runtime
        // grids. Short ones stay branch-free.
        let early_exit = const { max_ray_len(W, H, DX, DY) > 15 };
        // Unrolled so that every shift amount is a constant, whatever the board size (the
        // schedule has at most 12 jumps for rays of up to 4095 cells).
        macro_rules! jump {
            ($i:literal) => {
                if $i < count {
                    if smear[$i] {
                        pj = pj.and(sh(pj, j * dl));
                        j *= 2;
                    }
                    let next = acc.or(pj.and(sh(acc, jumps[$i] as isize * dl)));
                    if early_exit && next == acc {
                        return acc;
                    }
                    acc = next;
                }
            };
        }
        jump!(0);
        jump!(1);
        jump!(2);
        jump!(3);
        jump!(4);
        jump!(5);
        jump!(6);
        jump!(7);
        jump!(8);
        jump!(9);
        jump!(10);
        jump!(11);
        let _ = j;
        acc
    }

    #[inline(always)]
    fn slide_gallop<const DX: isize, const DY: isize>(
        self,
        passable: Self,
        speed_log2: u32,
        approach: Approach,
    ) -> Self {
        let len = const { max_ray_len(W, H, DX, DY) };
        let p = propagator(passable, DX);
        let dl = const { Self::slide_delta(DX, DY) };
        let speed_log2 = speed_log2.clamp(1, 7) as usize;
        let mut acc = sh(self, dl).and(p);
        if acc.is_empty() || len <= 1 {
            return acc;
        }
        match approach {
            Approach::Accelerate => {
                let (mut pj, mut j) = (p, 1isize);
                for _ in 0..speed_log2 {
                    acc = acc.or(pj.and(sh(acc, j * dl)));
                    pj = pj.and(sh(pj, j * dl));
                    j *= 2;
                }
                loop {
                    let next = acc.or(pj.and(sh(acc, j * dl)));
                    if next == acc {
                        return acc;
                    }
                    acc = next;
                }
            }
            Approach::Decelerate => {
                let mut smeared = [p; 8];
                let mut j = 1isize;
                for s in 1..=speed_log2 {
                    smeared[s] = smeared[s - 1].and(sh(smeared[s - 1], j * dl));
                    j *= 2;
                }
                loop {
                    let next = acc.or(smeared[speed_log2].and(sh(acc, j * dl)));
                    if next == acc {
                        break;
                    }
                    acc = next;
                }
                for s in (0..speed_log2).rev() {
                    j /= 2;
                    acc = acc.or(smeared[s].and(sh(acc, j * dl)));
                }
                acc
            }
        }
    }

    /// East by `o ^ (o - 2g)`, west on the reversed words; Kogge-Stone otherwise.
    #[inline(always)]
    fn slide_subtract<const DX: isize, const DY: isize>(self, passable: Self) -> Self {
        match (DX, DY) {
            (1, 0) => Board {
                words: subtract_up(self.words, propagator(passable, DX).words),
            },
            (-1, 0) => Board {
                words: rev_words(subtract_up(
                    rev_words(self.words),
                    rev_words(propagator(passable, DX).words),
                )),
            },
            _ => self.slide_kogge_stone::<DX, DY>(passable),
        }
    }

    /// The ray with method `M` (a `M_*` constant), direction `(DX, DY)`.
    #[inline(always)]
    fn slide_ray_m<const DX: isize, const DY: isize, const M: u8>(self, passable: Self) -> Self {
        let m = if M == M_AUTO {
            match const { auto_board_method(W, H, DX, DY) } {
                Method::Dumb7 => M_DUMB7,
                Method::Gallop => M_GALLOP,
                Method::Subtract | Method::Sweep => M_SUBTRACT,
                _ => M_KOGGE_STONE,
            }
        } else {
            M
        };
        match m {
            M_DUMB7 => self.slide_dumb7::<DX, DY>(passable),
            M_GALLOP => self.slide_gallop::<DX, DY>(
                passable,
                auto_gallop_speed(max_ray_len(W, H, DX, DY)),
                Approach::Accelerate,
            ),
            M_SUBTRACT => self.slide_subtract::<DX, DY>(passable),
            _ => self.slide_kogge_stone::<DX, DY>(passable),
        }
    }

    /// The ray in a runtime direction, method `M`.
    #[inline(always)]
    fn slide_ray_d<const M: u8>(self, passable: Self, d: Dir) -> Self {
        match d {
            Dir::N => self.slide_ray_m::<0, -1, M>(passable),
            Dir::NE => self.slide_ray_m::<1, -1, M>(passable),
            Dir::E => self.slide_ray_m::<1, 0, M>(passable),
            Dir::SE => self.slide_ray_m::<1, 1, M>(passable),
            Dir::S => self.slide_ray_m::<0, 1, M>(passable),
            Dir::SW => self.slide_ray_m::<-1, 1, M>(passable),
            Dir::W => self.slide_ray_m::<-1, 0, M>(passable),
            Dir::NW => self.slide_ray_m::<-1, -1, M>(passable),
        }
    }

    /// Every ray of `moves` with method `M`, directions unrolled.
    #[inline(always)]
    fn slide_reach_m<const M: u8>(self, passable: Self, moves: Moves) -> Self {
        let rook = |g: Self| {
            g.slide_ray_m::<0, -1, M>(passable)
                .or(g.slide_ray_m::<1, 0, M>(passable))
                .or(g.slide_ray_m::<0, 1, M>(passable))
                .or(g.slide_ray_m::<-1, 0, M>(passable))
        };
        let bishop = |g: Self| {
            g.slide_ray_m::<1, -1, M>(passable)
                .or(g.slide_ray_m::<1, 1, M>(passable))
                .or(g.slide_ray_m::<-1, 1, M>(passable))
                .or(g.slide_ray_m::<-1, -1, M>(passable))
        };
        match moves {
            Moves::Rook => rook(self),
            Moves::Bishop => bishop(self),
            Moves::Queen => rook(self).or(bishop(self)),
            // One step: the neighbours only (a dilation would keep unreached pieces).
            Moves::Four => self
                .north()
                .or(self.south())
                .or(self.east())
                .or(self.west())
                .and(passable),
            Moves::Eight => {
                let (e, w) = (self.east(), self.west());
                let h = self.or(e).or(w);
                h.north().or(h.south()).or(e).or(w).and(passable)
            }
        }
    }

    /// The method [`Method::Auto`] uses on this board in direction `d`: see
    /// [`auto_board_method`].
    pub const fn auto_method(d: Dir) -> Method {
        let (dx, dy) = d.delta();
        auto_board_method(W, H, dx, dy)
    }

    #[inline(always)]
    fn method_id(method: Method) -> u8 {
        match method {
            Method::Dumb7 => M_DUMB7,
            Method::Gallop => M_GALLOP,
            Method::KoggeStone => M_KOGGE_STONE,
            Method::Subtract | Method::Sweep => M_SUBTRACT,
            Method::Auto => M_AUTO,
        }
    }
}

impl<const W: usize, const H: usize, const N: usize> Slide for Board<W, H, N> {
    #[inline]
    fn ray_with(&self, passable: &Self, dir: Dir, method: Method) -> Self {
        let (g, p) = (*self, *passable);
        match Self::method_id(method) {
            M_DUMB7 => g.slide_ray_d::<M_DUMB7>(p, dir),
            M_GALLOP => g.slide_ray_d::<M_GALLOP>(p, dir),
            M_SUBTRACT => g.slide_ray_d::<M_SUBTRACT>(p, dir),
            M_AUTO => g.slide_ray_d::<M_AUTO>(p, dir),
            _ => g.slide_ray_d::<M_KOGGE_STONE>(p, dir),
        }
    }

    #[inline]
    fn reach_with(&self, passable: &Self, moves: Moves, method: Method) -> Self {
        let (g, p) = (*self, *passable);
        match Self::method_id(method) {
            M_DUMB7 => g.slide_reach_m::<M_DUMB7>(p, moves),
            M_GALLOP => g.slide_reach_m::<M_GALLOP>(p, moves),
            M_SUBTRACT => g.slide_reach_m::<M_SUBTRACT>(p, moves),
            M_AUTO => g.slide_reach_m::<M_AUTO>(p, moves),
            _ => g.slide_reach_m::<M_KOGGE_STONE>(p, moves),
        }
    }

    fn gallop_ray_at(
        &self,
        passable: &Self,
        dir: Dir,
        speed_log2: u32,
        approach: Approach,
    ) -> Self {
        let (g, p) = (*self, *passable);
        match dir {
            Dir::N => g.slide_gallop::<0, -1>(p, speed_log2, approach),
            Dir::NE => g.slide_gallop::<1, -1>(p, speed_log2, approach),
            Dir::E => g.slide_gallop::<1, 0>(p, speed_log2, approach),
            Dir::SE => g.slide_gallop::<1, 1>(p, speed_log2, approach),
            Dir::S => g.slide_gallop::<0, 1>(p, speed_log2, approach),
            Dir::SW => g.slide_gallop::<-1, 1>(p, speed_log2, approach),
            Dir::W => g.slide_gallop::<-1, 0>(p, speed_log2, approach),
            Dir::NW => g.slide_gallop::<-1, -1>(p, speed_log2, approach),
        }
    }
}

/// `a - b` over the whole word array (wrapping).
#[inline(always)]
fn sub_words<const N: usize>(a: [u64; N], b: [u64; N]) -> [u64; N] {
    let mut out = [0u64; N];
    let mut borrow = false;
    for i in 0..N {
        let (d1, b1) = a[i].overflowing_sub(b[i]);
        let (d2, b2) = d1.overflowing_sub(borrow as u64);
        out[i] = d2;
        borrow = b1 | b2;
    }
    out
}

/// The word array with its bit order reversed (bit `i` to bit `64 N - 1 - i`).
#[inline(always)]
fn rev_words<const N: usize>(a: [u64; N]) -> [u64; N] {
    let mut out = [0u64; N];
    for i in 0..N {
        out[i] = a[N - 1 - i].reverse_bits();
    }
    out
}

/// `(o ^ (o - 2g)) & p` with `o = !p | g`: the rays towards higher bits of every bit of `g`.
#[inline(always)]
fn subtract_up<const N: usize>(g: [u64; N], p: [u64; N]) -> [u64; N] {
    let mut o = [0u64; N];
    let mut two_g = [0u64; N];
    for i in 0..N {
        o[i] = !p[i] | g[i];
        two_g[i] = (g[i] << 1) | if i > 0 { g[i - 1] >> 63 } else { 0 };
    }
    let d = sub_words(o, two_g);
    let mut out = [0u64; N];
    for i in 0..N {
        out[i] = (o[i] ^ d[i]) & p[i];
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Runtime grids.
// ---------------------------------------------------------------------------------------------

/// The shape of a [`BitGrid`]'s word array.
#[derive(Clone, Copy)]
struct Geo {
    h: usize,
    wpr: usize,
}

/// How [`step`] combines the shifted, masked source `t` with the destination.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// `dst = t`.
    Set,
    /// `dst = src | t`.
    OrSelf,
}

/// One step over the whole grid: `t = mask & shift(src, d, k)` combined into `dst` by `mode`.
/// Returns the OR of the bits `t` added (`t & !src` for `OrSelf`, `t` for `Set`), so a zero
/// means nothing moved.
fn step(dst: &mut [u64], src: &[u64], mask: &[u64], geo: Geo, d: Dir, k: usize, mode: Mode) -> u64 {
    let (dx, dy) = d.delta();
    let Geo { h, wpr } = geo;
    if wpr == 1 {
        return step_one_word(dst, src, mask, None, h, dx, dy, k, mode);
    }
    let mut any = 0u64;
    let (q, r) = (k / 64, (k % 64) as u32);
    for y in 0..h {
        let sy = y as isize - dy * k as isize;
        let row = y * wpr;
        if sy < 0 || sy as usize >= h {
            match mode {
                Mode::Set => dst[row..row + wpr].fill(0),
                Mode::OrSelf => dst[row..row + wpr].copy_from_slice(&src[row..row + wpr]),
            }
            continue;
        }
        let srow = sy as usize * wpr;
        if wpr == 1 {
            let s = src[srow];
            let shifted = match dx {
                0 => s,
                1 => {
                    if k < 64 {
                        s << k
                    } else {
                        0
                    }
                }
                _ => {
                    if k < 64 {
                        s >> k
                    } else {
                        0
                    }
                }
            };
            let t = shifted & mask[row];
            match mode {
                Mode::Set => {
                    dst[row] = t;
                    any |= t;
                }
                Mode::OrSelf => {
                    let old = src[row];
                    dst[row] = old | t;
                    any |= t & !old;
                }
            }
            continue;
        }
        for i in 0..wpr {
            let shifted = match dx {
                0 => src[srow + i],
                1 => {
                    let mut v = 0;
                    if i >= q {
                        v = src[srow + i - q] << r;
                        if r != 0 && i > q {
                            v |= src[srow + i - q - 1] >> (64 - r);
                        }
                    }
                    v
                }
                _ => {
                    let mut v = 0;
                    if i + q < wpr {
                        v = src[srow + i + q] >> r;
                        if r != 0 && i + q + 1 < wpr {
                            v |= src[srow + i + q + 1] << (64 - r);
                        }
                    }
                    v
                }
            };
            let t = shifted & mask[row + i];
            match mode {
                Mode::Set => {
                    dst[row + i] = t;
                    any |= t;
                }
                Mode::OrSelf => {
                    let old = src[row + i];
                    dst[row + i] = old | t;
                    any |= t & !old;
                }
            }
        }
    }
    any
}

/// [`step`] on grids of one word per row: whole-row slices, one branch-free loop per
/// (direction, mode), optionally ORing the new cells into `acc` too.
#[allow(clippy::too_many_arguments)]
fn step_one_word(
    dst: &mut [u64],
    src: &[u64],
    mask: &[u64],
    acc: Option<&mut [u64]>,
    h: usize,
    dx: isize,
    dy: isize,
    k: usize,
    mode: Mode,
) -> u64 {
    let off = dy * k as isize;
    // Rows y0..y1 have a source row y - off; the others get nothing.
    let (y0, y1) = if off.unsigned_abs() >= h {
        (0, 0)
    } else if off >= 0 {
        (off as usize, h)
    } else {
        (0, h - off.unsigned_abs())
    };
    for y in (0..y0).chain(y1.max(y0)..h) {
        dst[y] = match mode {
            Mode::Set => 0,
            Mode::OrSelf => src[y],
        };
    }
    if y0 >= y1 {
        return 0;
    }
    let (s0, s1) = ((y0 as isize - off) as usize, (y1 as isize - off) as usize);
    let from = &src[s0..s1];
    let own = &src[y0..y1];
    let m = &mask[y0..y1];
    let out = &mut dst[y0..y1];
    let k32 = k as u32;
    let shift = |v: u64| -> u64 {
        match dx {
            0 => v,
            1 => v.checked_shl(k32).unwrap_or(0),
            _ => v.checked_shr(k32).unwrap_or(0),
        }
    };
    let mut any = 0u64;
    match (mode, acc) {
        (Mode::Set, None) => {
            for ((o, &f), &mk) in out.iter_mut().zip(from).zip(m) {
                let t = shift(f) & mk;
                *o = t;
                any |= t;
            }
        }
        (Mode::Set, Some(acc)) => {
            let acc = &mut acc[y0..y1];
            for (((o, a), &f), &mk) in out.iter_mut().zip(acc.iter_mut()).zip(from).zip(m) {
                let t = shift(f) & mk;
                *o = t;
                *a |= t;
                any |= t;
            }
            // Rows without a source are empty fronts: nothing to add to `acc`.
        }
        (Mode::OrSelf, _) => {
            for (((o, &f), &mk), &old) in out.iter_mut().zip(from).zip(m).zip(own) {
                let t = shift(f) & mk;
                *o = old | t;
                any |= t & !old;
            }
        }
    }
    any
}

/// One fused Kogge-Stone / galloping pass: `acc_out = acc | p & shift(acc, j)` and, if
/// `smear`, `p_out = p & shift(p, j)` (the propagator for a jump of `2j`), reading each row
/// once. Returns the OR of the cells added to `acc`.
#[allow(clippy::too_many_arguments)]
fn jump_pass(
    acc_out: &mut [u64],
    acc: &[u64],
    p_out: &mut [u64],
    p: &[u64],
    geo: Geo,
    d: Dir,
    j: usize,
    smear: bool,
) -> u64 {
    let (dx, dy) = d.delta();
    if geo.wpr != 1 {
        if smear {
            step(p_out, p, p, geo, d, j, Mode::Set);
        }
        return step(acc_out, acc, p, geo, d, j, Mode::OrSelf);
    }
    let h = geo.h;
    let off = dy * j as isize;
    let (y0, y1) = if off.unsigned_abs() >= h {
        (0, 0)
    } else if off >= 0 {
        (off as usize, h)
    } else {
        (0, h - off.unsigned_abs())
    };
    for y in (0..y0).chain(y1.max(y0)..h) {
        acc_out[y] = acc[y];
        p_out[y] = 0;
    }
    if y0 >= y1 {
        return 0;
    }
    let (s0, s1) = ((y0 as isize - off) as usize, (y1 as isize - off) as usize);
    let k = j as u32;
    let shift = |v: u64| -> u64 {
        match dx {
            0 => v,
            1 => v.checked_shl(k).unwrap_or(0),
            _ => v.checked_shr(k).unwrap_or(0),
        }
    };
    let mut any = 0u64;
    let n = y1 - y0;
    let (acc_out, acc_own, acc_from) = (&mut acc_out[y0..y1], &acc[y0..y1], &acc[s0..s1]);
    let (p_own, p_from) = (&p[y0..y1], &p[s0..s1]);
    if smear {
        let p_out = &mut p_out[y0..y1];
        for i in 0..n {
            let t = shift(acc_from[i]) & p_own[i];
            acc_out[i] = acc_own[i] | t;
            any |= t & !acc_own[i];
            p_out[i] = p_own[i] & shift(p_from[i]);
        }
    } else {
        for i in 0..n {
            let t = shift(acc_from[i]) & p_own[i];
            acc_out[i] = acc_own[i] | t;
            any |= t & !acc_own[i];
        }
    }
    any
}

/// The subtraction along each row: east directly, west on the bit-reversed row.
fn rows_subtract(g: &[u64], p: &[u64], geo: Geo, east: bool, out: &mut [u64]) {
    let wpr = geo.wpr;
    if wpr == 1 {
        for y in 0..geo.h {
            let (gw, pw) = if east {
                (g[y], p[y])
            } else {
                (g[y].reverse_bits(), p[y].reverse_bits())
            };
            let o = !pw | gw;
            let r = (o ^ o.wrapping_sub(gw << 1)) & pw;
            out[y] = if east { r } else { r.reverse_bits() };
        }
        return;
    }
    let mut gr = vec![0u64; wpr];
    let mut pr = vec![0u64; wpr];
    for y in 0..geo.h {
        let row = y * wpr..(y + 1) * wpr;
        if east {
            gr.copy_from_slice(&g[row.clone()]);
            pr.copy_from_slice(&p[row.clone()]);
        } else {
            for i in 0..wpr {
                gr[i] = g[y * wpr + wpr - 1 - i].reverse_bits();
                pr[i] = p[y * wpr + wpr - 1 - i].reverse_bits();
            }
        }
        let mut borrow = false;
        let mut carry = 0u64;
        for i in 0..wpr {
            let o = !pr[i] | gr[i];
            let two = (gr[i] << 1) | carry;
            carry = gr[i] >> 63;
            let (d1, b1) = o.overflowing_sub(two);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            borrow = b1 | b2;
            gr[i] = (o ^ d2) & pr[i];
        }
        if east {
            out[row].copy_from_slice(&gr);
        } else {
            for i in 0..wpr {
                out[y * wpr + wpr - 1 - i] = gr[i].reverse_bits();
            }
        }
    }
}

/// One pass over the rows in the direction of travel: row `y` gets the passable cells of
/// `shift(pieces | reached)` from the row before it. Needs a vertical component.
fn rows_sweep(g: &[u64], p: &[u64], geo: Geo, d: Dir, out: &mut [u64]) {
    let (dx, dy) = d.delta();
    let Geo { h, wpr } = geo;
    let order: Box<dyn Iterator<Item = usize>> = if dy > 0 {
        Box::new(0..h)
    } else {
        Box::new((0..h).rev())
    };
    if wpr == 1 {
        let mut prev = 0u64; // pieces | reached of the previous row
        for y in order {
            let s = match dx {
                0 => prev,
                1 => prev << 1,
                _ => prev >> 1,
            };
            let r = s & p[y];
            out[y] = r;
            prev = r | g[y];
        }
        return;
    }
    let mut prev = vec![0u64; wpr];
    for y in order {
        let row = y * wpr;
        for i in 0..wpr {
            let s = match dx {
                0 => prev[i],
                1 => (prev[i] << 1) | if i > 0 { prev[i - 1] >> 63 } else { 0 },
                _ => (prev[i] >> 1) | if i + 1 < wpr { prev[i + 1] << 63 } else { 0 },
            };
            out[row + i] = s & p[row + i];
        }
        for i in 0..wpr {
            prev[i] = out[row + i] | g[row + i];
        }
    }
}

/// The ray on raw grid words, with every method.
#[allow(clippy::too_many_arguments)]
fn grid_ray(
    g: &[u64],
    p: &[u64],
    geo: Geo,
    d: Dir,
    len: usize,
    method: Method,
    approach: Approach,
    speed_log2: u32,
) -> Vec<u64> {
    let n = g.len();
    let mut acc = vec![0u64; n];
    if len == 0 {
        return acc;
    }
    match method {
        Method::Subtract | Method::Sweep if d.delta().1 == 0 => {
            rows_subtract(g, p, geo, d == Dir::E, &mut acc);
            acc
        }
        Method::Sweep => {
            rows_sweep(g, p, geo, d, &mut acc);
            acc
        }
        Method::Dumb7 => {
            let mut front = vec![0u64; n];
            let mut next = vec![0u64; n];
            let mut any = step(&mut front, g, p, geo, d, 1, Mode::Set);
            acc.copy_from_slice(&front);
            let (dx, dy) = d.delta();
            while any != 0 {
                any = if geo.wpr == 1 {
                    step_one_word(
                        &mut next,
                        &front,
                        p,
                        Some(&mut acc),
                        geo.h,
                        dx,
                        dy,
                        1,
                        Mode::Set,
                    )
                } else {
                    let a = step(&mut next, &front, p, geo, d, 1, Mode::Set);
                    for (a, f) in acc.iter_mut().zip(&next) {
                        *a |= f;
                    }
                    a
                };
                std::mem::swap(&mut front, &mut next);
            }
            acc
        }
        Method::Gallop => {
            let mut other = vec![0u64; n];
            if step(&mut acc, g, p, geo, d, 1, Mode::Set) == 0 || len <= 1 {
                return acc;
            }
            let s = speed_log2.clamp(1, 7) as usize;
            if approach == Approach::Accelerate {
                // Jumps of 1, 2, ..., 2^(s-1), each pass doubling the propagator; then gallop.
                let (mut pj, mut ptmp) = (p.to_vec(), vec![0u64; n]);
                let mut j = 1;
                for _ in 0..s {
                    jump_pass(&mut other, &acc, &mut ptmp, &pj, geo, d, j, true);
                    std::mem::swap(&mut acc, &mut other);
                    std::mem::swap(&mut pj, &mut ptmp);
                    j *= 2;
                }
                while step(&mut other, &acc, &pj, geo, d, j, Mode::OrSelf) != 0 {
                    std::mem::swap(&mut acc, &mut other);
                }
                return acc;
            }
            let mut smeared: Vec<Vec<u64>> = vec![p.to_vec()];
            let mut j = 1;
            for i in 1..=s {
                let mut next = vec![0u64; n];
                step(
                    &mut next,
                    &smeared[i - 1],
                    &smeared[i - 1],
                    geo,
                    d,
                    j,
                    Mode::Set,
                );
                smeared.push(next);
                j *= 2;
            }
            match approach {
                Approach::Accelerate => {
                    let mut j = 1;
                    for pj in &smeared[..s] {
                        step(&mut other, &acc, pj, geo, d, j, Mode::OrSelf);
                        std::mem::swap(&mut acc, &mut other);
                        j *= 2;
                    }
                    while step(&mut other, &acc, &smeared[s], geo, d, j, Mode::OrSelf) != 0 {
                        std::mem::swap(&mut acc, &mut other);
                    }
                }
                Approach::Decelerate => {
                    while step(&mut other, &acc, &smeared[s], geo, d, j, Mode::OrSelf) != 0 {
                        std::mem::swap(&mut acc, &mut other);
                    }
                    for pj in smeared[..s].iter().rev() {
                        j /= 2;
                        step(&mut other, &acc, pj, geo, d, j, Mode::OrSelf);
                        std::mem::swap(&mut acc, &mut other);
                    }
                }
            }
            acc
        }
        // Kogge-Stone, also the fallback of the subtraction in directions with a vertical part.
        _ => {
            let mut other = vec![0u64; n];
            let mut pj = p.to_vec();
            let mut ptmp = vec![0u64; n];
            // A jump that adds nothing ends the fill: rays are contiguous, so with no cell at
            // distances covered+1..=covered+j there is none further either.
            if step(&mut acc, g, p, geo, d, 1, Mode::Set) == 0 {
                return acc;
            }
            // Each pass jumps by j and doubles the propagator for the next jump (same shift).
            let (mut j, mut covered) = (1usize, 1usize);
            while covered < len {
                // The next jump doubles when the plain schedule would (see `ks_plan`).
                let c2 = covered + j;
                let smear = c2 < len && c2 + j < len && 2 * j <= c2;
                let next_j = if smear { 2 * j } else { j };
                let added = jump_pass(&mut other, &acc, &mut ptmp, &pj, geo, d, j, smear);
                std::mem::swap(&mut acc, &mut other);
                covered += j;
                if added == 0 {
                    break;
                }
                if smear {
                    std::mem::swap(&mut pj, &mut ptmp);
                    j = next_j;
                }
            }
            acc
        }
    }
}

fn grid_from_words(like: &BitGrid, words: &[u64]) -> BitGrid {
    let mut out = like.empty_like();
    let wpr = like.words_per_row();
    for y in 0..like.height() {
        out.row_words_mut(y)
            .copy_from_slice(&words[y * wpr..(y + 1) * wpr]);
    }
    out
}

impl BitGrid {
    /// The method [`Method::Auto`] uses on this grid for direction `d`.
    pub fn auto_method(&self, d: Dir) -> Method {
        let _ = d;
        Method::Sweep
    }
}

impl Slide for BitGrid {
    fn ray_with(&self, passable: &Self, dir: Dir, method: Method) -> Self {
        assert!(
            self.width() == passable.width() && self.height() == passable.height(),
            "grids of different sizes"
        );
        let method = match method {
            Method::Auto => self.auto_method(dir),
            m => m,
        };
        let len = self.max_ray(dir);
        let geo = Geo {
            h: self.height(),
            wpr: self.words_per_row(),
        };
        let words = grid_ray(
            self.words(),
            passable.words(),
            geo,
            dir,
            len,
            method,
            Approach::Accelerate,
            auto_gallop_speed(len),
        );
        grid_from_words(self, &words)
    }

    fn reach_with(&self, passable: &Self, moves: Moves, method: Method) -> Self {
        assert!(
            self.width() == passable.width() && self.height() == passable.height(),
            "grids of different sizes"
        );
        if !moves.is_sliding() {
            let mut out = self.empty_like();
            for &d in moves.dirs() {
                let mut s = self.shift(d);
                s.and_assign(passable);
                out.or_assign(&s);
            }
            return out;
        }
        let geo = Geo {
            h: self.height(),
            wpr: self.words_per_row(),
        };
        let mut words = vec![0u64; self.words().len()];
        for &d in moves.dirs() {
            let method = match method {
                Method::Auto => self.auto_method(d),
                m => m,
            };
            let len = self.max_ray(d);
            let r = grid_ray(
                self.words(),
                passable.words(),
                geo,
                d,
                len,
                method,
                Approach::Accelerate,
                auto_gallop_speed(len),
            );
            for (w, x) in words.iter_mut().zip(&r) {
                *w |= x;
            }
        }
        grid_from_words(self, &words)
    }

    fn gallop_ray_at(
        &self,
        passable: &Self,
        dir: Dir,
        speed_log2: u32,
        approach: Approach,
    ) -> Self {
        assert!(
            self.width() == passable.width() && self.height() == passable.height(),
            "grids of different sizes"
        );
        let len = self.max_ray(dir);
        let geo = Geo {
            h: self.height(),
            wpr: self.words_per_row(),
        };
        let words = grid_ray(
            self.words(),
            passable.words(),
            geo,
            dir,
            len,
            Method::Gallop,
            approach,
            speed_log2,
        );
        grid_from_words(self, &words)
    }
}
