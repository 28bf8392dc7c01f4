//! Connected components of fixed-size boards: split a plane into its components, find the
//! cells of every group of `K` or more, and do it per class on multi-colour boards.
//!
//! - [`components`]: the fast path, an iterator of component boards with no allocation
//!   (stars found in a few word operations, the rest grown by dilation from their lowest
//!   cell; on boards at most 7 cells wide and 16 tall, such as 6x12, with AVX-512 VL or AVX2
//!   when the CPU has them: rows as the bytes of a vector register, two fills at a time).
//! - [`groups_at_least`]: the mask of every cell in a component of `k` or more cells (the
//!   Puyo vanish mask for `k = 4`), by a neighbour-count filter and one dilation.
//! - [`row_pair_table`] (also reachable as `table`): the article "Fast Connected Components
//!   for 6x12 bitboard", a table indexed by two consecutive rows, faithful and tested, the
//!   baseline of the benchmark; [`components_plain`] is the plain bit-BFS its later version
//!   recommends.
//! - [`components_by_class`]: one plane per class (colour), components of each.
//!
//! These work on fixed-size [`Board`]s, where a whole plane is a few words. For grids sized
//! at run time ([`BitGrid`](crate::BitGrid)), and for label images and statistics, see
//! [`crate::algo::label`]: its [`grid_components`](crate::algo::label::grid_components) splits a
//! `BitGrid` into one grid per component, and its functions also accept a `Board`.
//!
//! ```
//! use gridbits::algo::components::{components, groups_at_least};
//! use gridbits::{bitboard, Board6x12, Connectivity};
//! let red = bitboard!(Board6x12;
//!     "......", "......", "......", "......", "......", "......",
//!     "......", "#.....", "#...#.", "##..#.", "....#.", "#..##.");
//! let parts: Vec<Board6x12> = components(red, Connectivity::Four).collect();
//! assert_eq!(parts.len(), 3);
//! assert_eq!(parts.iter().map(|c| c.count()).max(), Some(5));
//! // Cells of every group of 4 or more: the vanish mask of a Puyo engine.
//! let vanish = groups_at_least(red, 4, Connectivity::Four);
//! assert_eq!(vanish.count(), 9);
//! ```

mod batch;
mod bit_bfs;
mod by_class;
mod byte_rows;
mod groups;
pub mod row_pair_table;

pub use batch::{components_many, count_components_many};
pub use bit_bfs::{
    component_at, components, components_plain, isolated, try_component_at, Components,
};
pub use by_class::components_by_class;
pub use groups::{groups_at_least, groups_at_least_any};
/// The row-pair lookup table under its short name: [`row_pair_table`].
pub use row_pair_table as table;

use crate::{Board, Connectivity, Dir, OffGrid};
use std::fmt;

/// A caller mistake in this module: a cell off the board, a table width out of range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComponentsError {
    /// A cell is not on the board (displayed as "cell (x, y) is off the WxH board").
    OffGrid(OffGrid),
    /// The row-pair table supports widths 1 to [`row_pair_table::MAX_WIDTH`] only.
    TableWidth {
        /// Width asked for.
        width: usize,
    },
}

impl fmt::Display for ComponentsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ComponentsError::OffGrid(OffGrid {
                cell: (x, y),
                size: (width, height),
            }) => write!(f, "cell ({x}, {y}) is off the {width}x{height} board"),
            ComponentsError::TableWidth { width } => write!(
                f,
                "the row-pair table supports boards 1 to {} cells wide, not {width}",
                row_pair_table::MAX_WIDTH
            ),
        }
    }
}

impl std::error::Error for ComponentsError {}

impl From<OffGrid> for ComponentsError {
    fn from(e: OffGrid) -> Self {
        ComponentsError::OffGrid(e)
    }
}

/// Calls `f` with `conn` as a constant in each arm, so that code generic over the
/// connectivity is specialised even when the caller's `conn` is only known at run time.
#[inline(always)]
pub(super) fn with_conn<R>(conn: Connectivity, f: impl Fn(Connectivity) -> R) -> R {
    match conn {
        Connectivity::Four => f(Connectivity::Four),
        Connectivity::Eight => f(Connectivity::Eight),
    }
}

/// One step of every cell in direction `d`. On boards with a guard column the shift is raw:
/// cells may land in guard bits or past the last row, so the result must be intersected with
/// a subset of the board before it is shifted again. Without a guard column it is the masked
/// [`Board::shift`].
#[inline(always)]
pub(super) fn nb<const W: usize, const H: usize, const N: usize>(
    b: Board<W, H, N>,
    d: Dir,
) -> Board<W, H, N> {
    if Board::<W, H, N>::GUARD {
        let s = Board::<W, H, N>::STRIDE;
        match d {
            Dir::E => b.shl_raw(1),
            Dir::W => b.shr_raw(1),
            Dir::S => b.shl_raw(s),
            Dir::N => b.shr_raw(s),
            Dir::SE => b.shl_raw(s + 1),
            Dir::SW => b.shl_raw(s - 1),
            Dir::NE => b.shr_raw(s - 1),
            Dir::NW => b.shr_raw(s + 1),
        }
    } else {
        b.shift(d)
    }
}

/// The cells of `plane` whose neighbour in direction `d` is also in `plane`.
#[inline(always)]
pub(super) fn has<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    d: Dir,
) -> Board<W, H, N> {
    plane & nb(plane, d.opposite())
}

/// One dilation step of `c` inside `mask` (`mask` must lie inside the board).
#[inline(always)]
pub(super) fn grow<const W: usize, const H: usize, const N: usize>(
    c: Board<W, H, N>,
    mask: Board<W, H, N>,
    conn: Connectivity,
) -> Board<W, H, N> {
    if in_u128::<W, H, N>() {
        return from_u128_raw(grow_u128(
            c.to_u128(),
            mask.to_u128(),
            Board::<W, H, N>::STRIDE as u32,
            conn,
        ));
    }
    match conn {
        Connectivity::Four => {
            (c | nb(c, Dir::E) | nb(c, Dir::W) | nb(c, Dir::N) | nb(c, Dir::S)) & mask
        }
        Connectivity::Eight => {
            let h = c | nb(c, Dir::E) | nb(c, Dir::W);
            (h | nb(h, Dir::N) | nb(h, Dir::S)) & mask
        }
    }
}

/// `c` grown inside `mask` ([`grow`]) until it stops changing: the cells of `mask` connected
/// to `c`.
#[inline(always)]
pub(super) fn grow_to_fixpoint<const W: usize, const H: usize, const N: usize>(
    mut c: Board<W, H, N>,
    mask: Board<W, H, N>,
    conn: Connectivity,
) -> Board<W, H, N> {
    if in_u128::<W, H, N>() {
        let s = Board::<W, H, N>::STRIDE as u32;
        return from_u128_raw(fixpoint_u128(c.to_u128(), mask.to_u128(), s, conn));
    }
    loop {
        let n = grow(c, mask, conn);
        if n == c {
            return c;
        }
        c = n;
    }
}

/// A board from a u128 without masking (the caller guarantees the bits lie on the board).
#[inline(always)]
pub(super) fn from_u128_raw<const W: usize, const H: usize, const N: usize>(
    v: u128,
) -> Board<W, H, N> {
    let mut words = [0u64; N];
    words[0] = v as u64;
    if N > 1 {
        words[1] = (v >> 64) as u64;
    }
    Board { words }
}

/// The lowest set cell alone; branch-free on boards of one or two words.
#[inline(always)]
pub(super) fn lowest<const W: usize, const H: usize, const N: usize>(
    b: Board<W, H, N>,
) -> Board<W, H, N> {
    if N <= 2 {
        let v = b.to_u128();
        from_u128_raw(v & v.wrapping_neg())
    } else {
        b.lowest_bit()
    }
}

/// The horizontal run of `mask` that starts at `seed`, where `seed` is the lowest cell of
/// `mask` (so nothing of `mask` lies to its left). With a guard column and at most two words
/// this is one addition: the carry runs along the run and stops at the first empty cell,
/// at the latest in the guard column. Otherwise it returns `seed`.
#[inline(always)]
pub(super) fn lowest_run<const W: usize, const H: usize, const N: usize>(
    seed: Board<W, H, N>,
    mask: Board<W, H, N>,
) -> Board<W, H, N> {
    if in_u128::<W, H, N>() {
        from_u128_raw(run_u128(seed.to_u128(), mask.to_u128()))
    } else {
        seed
    }
}

/// The component of `mask` that holds `seed`, where `seed` is the lowest cell of `mask`.
#[inline(always)]
pub(super) fn fill_lowest<const W: usize, const H: usize, const N: usize>(
    seed: Board<W, H, N>,
    mask: Board<W, H, N>,
    conn: Connectivity,
) -> Board<W, H, N> {
    if in_split::<W, H, N>() {
        let m = mask.to_u128();
        return from_u128_raw(fixpoint_split::<W, H, N>(
            run_u128(seed.to_u128(), m),
            m,
            conn,
        ));
    }
    grow_to_fixpoint(lowest_run(seed, mask), mask, conn)
}

/// Whether boards of this size take the `u128` paths below: a guard column and at most two
/// words. There a shift is one or two instructions on a constant stride, and a dilation
/// needs no masks but the passable set; the generic board code, correct for every size,
/// costs about a third more on a 6x12 plane (measured in the `components 6x12` bench rows).
#[inline(always)]
pub(super) const fn in_u128<const W: usize, const H: usize, const N: usize>() -> bool {
    Board::<W, H, N>::GUARD && N <= 2
}

/// [`grow`] on the `u128` form of a board with a guard column and row stride `s`. Cells
/// shifted into guard bits, or past the board, are cleared by `m` (a subset of the board).
#[inline(always)]
pub(super) fn grow_u128(c: u128, m: u128, s: u32, conn: Connectivity) -> u128 {
    match conn {
        Connectivity::Four => (c | c << 1 | c >> 1 | c << s | c >> s) & m,
        Connectivity::Eight => {
            let h = c | c << 1 | c >> 1;
            (h | h << s | h >> s) & m
        }
    }
}

/// [`grow_to_fixpoint`] on the `u128` form (see [`grow_u128`]).
#[inline(always)]
pub(super) fn fixpoint_u128(mut c: u128, m: u128, s: u32, conn: Connectivity) -> u128 {
    loop {
        let n = grow_u128(c, m, s, conn);
        if n == c {
            return c;
        }
        c = n;
    }
}

/// Bits of the low word in the split form of a board with a guard column: the whole rows
/// that fit 64 bits (all rows on a one-word board).
#[inline(always)]
const fn split_bits<const W: usize, const H: usize, const N: usize>() -> u32 {
    let s = Board::<W, H, N>::STRIDE;
    let rows = if 64 / s < H { 64 / s } else { H };
    (rows * s) as u32
}

/// Whether [`fixpoint_split`] applies: a board of one or two words with a guard column,
/// rows narrower than a word, and the rows past the low word fitting a second word (6x12:
/// nine rows and three).
#[inline(always)]
pub(super) const fn in_split<const W: usize, const H: usize, const N: usize>() -> bool {
    in_u128::<W, H, N>()
        && Board::<W, H, N>::STRIDE < 64
        && (H * Board::<W, H, N>::STRIDE) as u32 - split_bits::<W, H, N>() <= 64
}

/// [`fixpoint_u128`] on the split form: whole rows in two `u64`s, the low word's rows and
/// the rest, so that a shift is one instruction (a `u128` shift by a constant is a
/// double-word shift and a shift, the double-word shift slow on some x86 cores) and the
/// rows next to the split cross it by one shift each way. On a random 6x12 plane at 50%
/// this fills about a fifth faster than the `u128` form (see docs/benchmarks.md).
/// `in_split::<W, H, N>()` must hold.
#[inline(always)]
pub(super) fn fixpoint_split<const W: usize, const H: usize, const N: usize>(
    c: u128,
    m: u128,
    conn: Connectivity,
) -> u128 {
    let s = Board::<W, H, N>::STRIDE as u32;
    let kb = split_bits::<W, H, N>();
    let low = if kb >= 64 { u64::MAX } else { (1u64 << kb) - 1 };
    // The high word holds rows from `kb`; `kb < 128` on a board of at most two words.
    let high = |v: u128| (v >> kb.min(127)) as u64;
    let (ma, mb) = (m as u64 & low, high(m));
    let (mut a, mut b) = (c as u64 & low, high(c));
    // Row `k - 1` of the low word and row 0 of the high word are `kb - s` bits apart.
    let x = kb - s;
    loop {
        let (ha, hb) = match conn {
            Connectivity::Four => (a, b),
            Connectivity::Eight => (a | a << 1 | a >> 1, b | b << 1 | b >> 1),
        };
        let (na, nb) = match conn {
            Connectivity::Four => (
                (a | a << 1 | a >> 1 | a << s | a >> s | b << x) & ma,
                (b | b << 1 | b >> 1 | b << s | b >> s | a >> x) & mb,
            ),
            Connectivity::Eight => (
                (ha | ha << s | ha >> s | hb << x) & ma,
                (hb | hb << s | hb >> s | ha >> x) & mb,
            ),
        };
        if (na ^ a) | (nb ^ b) == 0 {
            return u128::from(a) | u128::from(b) << kb.min(127);
        }
        a = na;
        b = nb;
    }
}

/// [`lowest_run`] on the `u128` form: the run of `m` that starts at `seed`, its lowest cell.
#[inline(always)]
pub(super) fn run_u128(seed: u128, m: u128) -> u128 {
    (m.wrapping_add(seed) ^ m) & m
}

/// The neighbour counts of every cell on the `u128` form (see [`grow_u128`]), saturated at
/// two: `(at least one, at least two)` neighbours in `p`, outside `p` too.
#[inline(always)]
pub(super) fn counts_u128(p: u128, s: u32, conn: Connectivity) -> (u128, u128) {
    let (mut one, mut two) = (0u128, 0u128);
    let mut add = |m: u128| {
        two |= one & m;
        one |= m;
    };
    add(p << 1);
    add(p >> 1);
    add(p << s);
    add(p >> s);
    if conn == Connectivity::Eight {
        add(p << (s + 1));
        add(p << (s - 1));
        add(p >> (s - 1));
        add(p >> (s + 1));
    }
    (one, two)
}

/// The cells of `plane` with at least one neighbour in `plane`.
#[inline(always)]
pub(super) fn neighboured<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    conn: Connectivity,
) -> Board<W, H, N> {
    match conn {
        Connectivity::Four => {
            (nb(plane, Dir::E) | nb(plane, Dir::W) | nb(plane, Dir::N) | nb(plane, Dir::S)) & plane
        }
        Connectivity::Eight => {
            let row = nb(plane, Dir::E) | nb(plane, Dir::W);
            let h = row | plane;
            (row | nb(h, Dir::N) | nb(h, Dir::S)) & plane
        }
    }
}

/// The cells of `plane` with at least two neighbours in `plane`.
#[inline(always)]
pub(super) fn two_neighbours<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    conn: Connectivity,
) -> Board<W, H, N> {
    let mut one = Board::EMPTY;
    let mut two = Board::EMPTY;
    for &d in conn.dirs() {
        let m = nb(plane, d);
        two |= one & m;
        one |= m;
    }
    two & plane
}
