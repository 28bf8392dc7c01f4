//! Connected components of fixed-size boards: split a plane into its components, find the
//! cells of every group of `K` or more, and do it per class on multi-colour boards.
//!
//! - [`components`]: the fast path. An iterator of component boards, no allocation. A
//!   handful of word operations on the whole plane count every cell's neighbours (saturated
//!   at two) and find the *stars*: single cells, and components made of a centre whose
//!   neighbours have no other neighbour (dominoes, trominoes, T and plus shapes), each one
//!   dilation of its centre. On a random 6x12 plane at 25% they are nearly all components.
//!   Each remaining component is grown from its lowest cell, whose horizontal run is taken
//!   in one addition, by dilations to a fixpoint; when fewer cells are left than two such
//!   components need, they are returned whole without a fill. Connectivity is dispatched
//!   once, so every loop is straight word code for the board's words (a `u128` on 6x12).
//! - [`groups_at_least`]: the mask of every cell in a component of `k` or more cells without
//!   enumerating components for `k <= 3` (any connectivity) and for `k = 4` with
//!   4-connectivity (the Puyo vanish mask): a neighbour-count filter finds seed cells, one
//!   dilation inside the plane finishes. Larger `k` enumerate only the components that pass
//!   that filter.
//! - [`table`]: the seed article's row-pair lookup table for boards up to 8 wide, kept as a
//!   faithful, tested alternative and as the baseline of `gridbits bench`.
//! - [`components_by_class`]: one plane per class (colour), components of each.
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

use crate::{Board, Connectivity, Dir};

/// Calls `f` with `conn` as a constant in each arm, so that code generic over the
/// connectivity is specialised even when the caller's `conn` is only known at run time.
#[inline(always)]
fn with_conn<R>(conn: Connectivity, f: impl Fn(Connectivity) -> R) -> R {
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
fn nb<const W: usize, const H: usize, const N: usize>(b: Board<W, H, N>, d: Dir) -> Board<W, H, N> {
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
fn has<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    d: Dir,
) -> Board<W, H, N> {
    plane & nb(plane, d.opposite())
}

/// One dilation step of `c` inside `mask` (`mask` must lie inside the board).
#[inline(always)]
fn grow<const W: usize, const H: usize, const N: usize>(
    c: Board<W, H, N>,
    mask: Board<W, H, N>,
    conn: Connectivity,
) -> Board<W, H, N> {
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
fn grow_to_fixpoint<const W: usize, const H: usize, const N: usize>(
    mut c: Board<W, H, N>,
    mask: Board<W, H, N>,
    conn: Connectivity,
) -> Board<W, H, N> {
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
fn from_u128_raw<const W: usize, const H: usize, const N: usize>(v: u128) -> Board<W, H, N> {
    let mut words = [0u64; N];
    words[0] = v as u64;
    if N > 1 {
        words[1] = (v >> 64) as u64;
    }
    Board { words }
}

/// The lowest set cell alone; branch-free on boards of one or two words.
#[inline(always)]
fn lowest<const W: usize, const H: usize, const N: usize>(b: Board<W, H, N>) -> Board<W, H, N> {
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
fn lowest_run<const W: usize, const H: usize, const N: usize>(
    seed: Board<W, H, N>,
    mask: Board<W, H, N>,
) -> Board<W, H, N> {
    if Board::<W, H, N>::GUARD && N <= 2 {
        let m = mask.to_u128();
        from_u128_raw((m.wrapping_add(seed.to_u128()) ^ m) & m)
    } else {
        seed
    }
}

/// The component of `mask` that holds `seed`, where `seed` is the lowest cell of `mask`.
#[inline(always)]
fn fill_lowest<const W: usize, const H: usize, const N: usize>(
    seed: Board<W, H, N>,
    mask: Board<W, H, N>,
    conn: Connectivity,
) -> Board<W, H, N> {
    grow_to_fixpoint(lowest_run(seed, mask), mask, conn)
}

/// The component of `plane` holding cell `(x, y)`: empty if that cell is not set. Panics if
/// the cell is off the board.
///
/// ```
/// use gridbits::algo::components::component_at;
/// use gridbits::{bitboard, Board, Connectivity};
/// type B = Board<4, 3, 1>;
/// let plane = bitboard!(B; "##..", "..#.", "..##");
/// assert_eq!(component_at(plane, 2, 1, Connectivity::Four).count(), 3);
/// assert_eq!(component_at(plane, 2, 1, Connectivity::Eight).count(), 5);
/// assert!(component_at(plane, 3, 0, Connectivity::Eight).is_empty());
/// ```
pub fn component_at<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    x: usize,
    y: usize,
    conn: Connectivity,
) -> Board<W, H, N> {
    grow_to_fixpoint(Board::cell(x, y) & plane, plane, conn)
}

/// The cells of `plane` with no neighbour in `plane` under `conn`: its one-cell components.
///
/// ```
/// use gridbits::algo::components::isolated;
/// use gridbits::{bitboard, Board, Connectivity};
/// type B = Board<4, 2, 1>;
/// let plane = bitboard!(B; "#.#.", "...#");
/// assert_eq!(isolated(plane, Connectivity::Four).count(), 3);
/// assert_eq!(isolated(plane, Connectivity::Eight).count(), 1);
/// ```
pub fn isolated<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    conn: Connectivity,
) -> Board<W, H, N> {
    plane.and_not(neighboured(plane, conn))
}

/// The cells of `plane` with at least one neighbour in `plane`.
#[inline(always)]
fn neighboured<const W: usize, const H: usize, const N: usize>(
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
fn two_neighbours<const W: usize, const H: usize, const N: usize>(
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

/// The 4-connected groups of four or more cells (puyoai's `findVanishingBits` idea): a cell
/// with three neighbours, or two adjacent cells with two or more each, lies in such a group
/// and every group has one; every cell of a group is such a seed or next to one.
#[inline(always)]
fn groups4<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
) -> Board<W, H, N> {
    let n = has(plane, Dir::N);
    let s = has(plane, Dir::S);
    let e = has(plane, Dir::E);
    let w = has(plane, Dir::W);
    let (ns_and, ew_and) = (n & s, e & w);
    let (ns_or, ew_or) = (n | s, e | w);
    let three = (ns_and & ew_or) | (ew_and & ns_or);
    let two = ns_and | ew_and | (ns_or & ew_or);
    let pairs = two & (nb(two, Dir::N) | nb(two, Dir::S) | nb(two, Dir::E) | nb(two, Dir::W));
    grow(three | pairs, plane, Connectivity::Four)
}

/// The cells of every component of `plane` with at least `k` cells.
///
/// No component is enumerated for `k <= 3` (any connectivity) or `k = 4` with 4-connectivity:
///
/// - `k = 2`: the cells with a neighbour;
/// - `k = 3`: the cells with two or more neighbours, and their neighbours (a connected set of
///   three or more cells has such a cell, and every other cell is next to one);
/// - `k = 4`, 4-connected: the Puyo vanish mask. A cell with three neighbours, or two adjacent
///   cells with two or more each, seeds a group of 4+; every group of 4+ has a seed and every
///   of its cells is a seed or next to one (a grid has no triangles), so one dilation of the
///   seeds inside the plane gives the mask. About 30 word operations, no branch.
///
/// Larger `k` (and `k = 4` with 8-connectivity, where triangles break the argument) start
/// from the `k = 4` or `k = 3` mask, which holds whole components only, and fill the
/// components left in it, stopping as soon as fewer than `k` cells remain.
///
/// ```
/// use gridbits::algo::components::groups_at_least;
/// use gridbits::{bitboard, Board, Connectivity};
/// type B = Board<6, 3, 1>;
/// let plane = bitboard!(B; "##..#.", ".#..#.", ".#.##.");
/// assert_eq!(groups_at_least(plane, 4, Connectivity::Four), plane);
/// assert_eq!(groups_at_least(plane, 5, Connectivity::Four).count(), 0);
/// assert_eq!(groups_at_least(plane, 4, Connectivity::Eight), plane);
/// assert!(groups_at_least(plane, 5, Connectivity::Eight).is_empty());
/// ```
pub fn groups_at_least<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    k: usize,
    conn: Connectivity,
) -> Board<W, H, N> {
    with_conn(conn, |conn| groups_impl(plane, k, conn))
}

#[inline(always)]
fn groups_impl<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    k: usize,
    conn: Connectivity,
) -> Board<W, H, N> {
    match (k, conn) {
        (0 | 1, _) => plane,
        (2, _) => neighboured(plane, conn),
        (3, _) => grow(two_neighbours(plane, conn), plane, conn),
        (4, Connectivity::Four) => groups4(plane),
        _ => {
            let mut rest = match conn {
                Connectivity::Four => groups4(plane),
                Connectivity::Eight => grow(two_neighbours(plane, conn), plane, conn),
            };
            let mut out = Board::EMPTY;
            while rest.count() as usize >= k {
                let c = fill_lowest(lowest(rest), rest, conn);
                rest ^= c;
                if c.count() as usize >= k {
                    out |= c;
                }
            }
            out
        }
    }
}

/// The union of [`groups_at_least`] over several planes (one per colour): for a Puyo field,
/// every cell that vanishes.
///
/// ```
/// use gridbits::algo::components::groups_at_least_any;
/// use gridbits::{bitboard, Board, Connectivity};
/// type B = Board<4, 2, 1>;
/// let red = bitboard!(B; "###.", "#...");
/// let green = bitboard!(B; "...#", ".###");
/// assert_eq!(groups_at_least_any(&[red, green], 4, Connectivity::Four), red | green);
/// ```
pub fn groups_at_least_any<const W: usize, const H: usize, const N: usize>(
    planes: &[Board<W, H, N>],
    k: usize,
    conn: Connectivity,
) -> Board<W, H, N> {
    planes
        .iter()
        .fold(Board::EMPTY, |acc, &p| acc | groups_at_least(p, k, conn))
}

/// The connected components of `plane`, each as a board of its own: the fast path. See
/// [`Components`] for the order.
///
/// ```
/// use gridbits::algo::components::components;
/// use gridbits::{bitboard, Board, Connectivity};
/// type B = Board<5, 3, 1>;
/// let plane = bitboard!(B; "#.##.", "#..#.", "..#.#");
/// let mut sizes: Vec<u32> = components(plane, Connectivity::Four).map(|c| c.count()).collect();
/// sizes.sort();
/// assert_eq!(sizes, [1, 1, 2, 3]);
/// assert_eq!(components(plane, Connectivity::Eight).count(), 2);
/// ```
#[inline]
pub fn components<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    conn: Connectivity,
) -> Components<W, H, N> {
    with_conn(conn, |conn| components_impl(plane, conn))
}

#[inline(always)]
fn components_impl<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    conn: Connectivity,
) -> Components<W, H, N> {
    // Neighbour counts, saturated at two.
    let mut one = Board::EMPTY;
    let mut two = Board::EMPTY;
    for &d in conn.dirs() {
        let m = nb(plane, d);
        two |= one & m;
        one |= m;
    }
    let leaves = (one & plane).and_not(two);
    // A centre has only leaves (cells with one neighbour) around it, so its component is the
    // centre and its neighbours: one dilation. Both cells of a domino are centres: keep the
    // first in raster order.
    let inner = plane.and_not(leaves);
    let mut around = Board::EMPTY;
    let mut before = Board::EMPTY;
    for &d in conn.dirs() {
        around |= nb(inner, d);
        if matches!(d, Dir::S | Dir::E | Dir::SE | Dir::SW) {
            before |= nb(plane, d);
        }
    }
    let singles = plane.and_not(one);
    let centres = (plane & one).and_not(around).and_not(leaves & before);
    let small = grow(centres, plane, conn) | singles;
    Components {
        singles,
        centres,
        plane,
        rest: plane.and_not(small),
        conn,
    }
}

/// Iterator over the components of a plane, from [`components`]. It owns a few boards and
/// never allocates.
///
/// Order: first the single cells, then the other *stars*, components made of one cell and
/// neighbours of it that have no other neighbour (dominoes, trominoes, T and plus shapes), in
/// raster order of their centre; then the others, in raster order of their lowest cell (top row first, then
/// left to right). Sort by [`Board::lowest_index`] for one raster
/// order.
#[derive(Clone, Debug)]
pub struct Components<const W: usize, const H: usize, const N: usize> {
    /// The one-cell components not yet returned.
    singles: Board<W, H, N>,
    /// One cell of each small component: the component is its dilation inside `plane`.
    centres: Board<W, H, N>,
    plane: Board<W, H, N>,
    /// The cells of the larger components not yet returned.
    rest: Board<W, H, N>,
    conn: Connectivity,
}

impl<const W: usize, const H: usize, const N: usize> Components<W, H, N> {
    /// The cells of the components not yet returned.
    pub fn remaining(&self) -> Board<W, H, N> {
        self.singles | grow(self.centres, self.plane, self.conn) | self.rest
    }
}

impl<const W: usize, const H: usize, const N: usize> Iterator for Components<W, H, N> {
    type Item = Board<W, H, N>;

    #[inline]
    fn next(&mut self) -> Option<Board<W, H, N>> {
        if !self.singles.is_empty() {
            let b = lowest(self.singles);
            self.singles ^= b;
            return Some(b);
        }
        if !self.centres.is_empty() {
            let b = lowest(self.centres);
            self.centres ^= b;
            return Some(grow(b, self.plane, self.conn));
        }
        if self.rest.is_empty() {
            return None;
        }
        // The larger components have at least four cells (three with 8-connectivity, a
        // triangle): fewer than twice that many make one component.
        let smallest = match self.conn {
            Connectivity::Four => 4,
            Connectivity::Eight => 3,
        };
        if self.rest.count() < 2 * smallest {
            let c = self.rest;
            self.rest = Board::EMPTY;
            return Some(c);
        }
        let c = fill_lowest(lowest(self.rest), self.rest, self.conn);
        self.rest ^= c;
        Some(c)
    }

    #[inline]
    fn fold<B, F>(self, init: B, f: F) -> B
    where
        F: FnMut(B, Board<W, H, N>) -> B,
    {
        match self.conn {
            Connectivity::Four => self.fold_impl(init, f, Connectivity::Four),
            Connectivity::Eight => self.fold_impl(init, f, Connectivity::Eight),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let sure = self.singles.count() + self.centres.count();
        let rest = self.rest.count();
        (
            (sure + u32::from(rest != 0)) as usize,
            Some((sure + rest / 3) as usize),
        )
    }
}

impl<const W: usize, const H: usize, const N: usize> Components<W, H, N> {
    /// `fold` with the connectivity as a constant.
    #[inline(always)]
    fn fold_impl<B, F>(self, init: B, mut f: F, conn: Connectivity) -> B
    where
        F: FnMut(B, Board<W, H, N>) -> B,
    {
        // The same as `next` in a loop, as three tight loops.
        let mut acc = init;
        let mut singles = self.singles;
        while !singles.is_empty() {
            let b = lowest(singles);
            singles ^= b;
            acc = f(acc, b);
        }
        let mut centres = self.centres;
        while !centres.is_empty() {
            let b = lowest(centres);
            centres ^= b;
            acc = f(acc, grow(b, self.plane, conn));
        }
        let mut rest = self.rest;
        while !rest.is_empty() {
            let smallest = match conn {
                Connectivity::Four => 4,
                Connectivity::Eight => 3,
            };
            if rest.count() < 2 * smallest {
                return f(acc, rest);
            }
            let c = fill_lowest(lowest(rest), rest, conn);
            rest ^= c;
            acc = f(acc, c);
        }
        acc
    }
}

impl<const W: usize, const H: usize, const N: usize> std::iter::FusedIterator
    for Components<W, H, N>
{
}

/// The components of several planes (one per class, e.g. one per colour), each with the
/// index of its plane. Cells join only cells of their own plane; the planes need not be
/// disjoint.
///
/// ```
/// use gridbits::algo::components::components_by_class;
/// use gridbits::{bitboard, Board, Connectivity};
/// type B = Board<4, 1, 1>;
/// let red = bitboard!(B; "##.#");
/// let blue = bitboard!(B; "..#.");
/// let found: Vec<(usize, u32)> = components_by_class(&[red, blue], Connectivity::Four)
///     .map(|(class, c)| (class, c.count()))
///     .collect();
/// assert_eq!(found, [(0, 1), (0, 2), (1, 1)]);
/// ```
pub fn components_by_class<const W: usize, const H: usize, const N: usize>(
    planes: &[Board<W, H, N>],
    conn: Connectivity,
) -> impl Iterator<Item = (usize, Board<W, H, N>)> + '_ {
    planes
        .iter()
        .enumerate()
        .flat_map(move |(i, &p)| components(p, conn).map(move |c| (i, c)))
}

/// The plain bit-BFS: the lowest set cell grown by dilations to a fixpoint, removed, and
/// again, with none of the shortcuts of [`components`]. Components come in raster order of
/// their lowest cell. Kept as a reference point for the bench ("bit-BFS" of the seed
/// article).
///
/// ```
/// use gridbits::algo::components::components_plain;
/// use gridbits::{bitboard, Board, Connectivity};
/// type B = Board<3, 2, 1>;
/// let plane = bitboard!(B; "#.#", "#.#");
/// let parts: Vec<B> = components_plain(plane, Connectivity::Four).collect();
/// assert_eq!(parts, [bitboard!(B; "#..", "#.."), bitboard!(B; "..#", "..#")]);
/// ```
pub fn components_plain<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    conn: Connectivity,
) -> impl Iterator<Item = Board<W, H, N>> {
    let mut rest = plane;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let c = grow_to_fixpoint(lowest(rest), rest, conn);
        rest ^= c;
        Some(c)
    })
}

pub mod table {
    //! The seed article's algorithm ("Fast Connected Components for 6x12 bitboard",
    //! ../shared/seeds/000 and 001): a lookup table indexed by two consecutive rows.
    //!
    //! A row of `w` cells holds at most `ceil(w / 2)` runs of set cells, so at most that
    //! many *running components* cross from one row to the next. For every pair of rows
    //! (upper, lower) the table stores, for each run of the lower row in order (its *slot*):
    //!
    //! - `index`: which runs of the upper row lie in the same component of the two-row
    //!   window, one bit per upper slot (the table is built by a bit-BFS from each run start,
    //!   pattern `^1|01`, inside the window);
    //! - `row`: the run's cells.
    //!
    //! The scan keeps the component id of each running slot. For each row: `index > 0`
    //! *continues* (merging when the index names two or more different components), `index
    //! = 0` with `row > 0` starts a *new* component, and an empty slot *terminates*. Empty
    //! rows are skipped. A component is sealed (passed to the caller) only when no running
    //! slot refers to it any more: this is the article's caveat, where one slot of a
    //! component terminates while another keeps it alive:
    //!
    //! ```text
    //! 111
    //! 101
    //! 001
    //! 001
    //! ```
    //!
    //! Merges compare component ids before merging (two slots of the upper row may already
    //! belong to one component, which the article's snippet would zero out). Live components
    //! are at most twice the slot count during a row, so the scan needs eight component
    //! boards whatever the height, and no allocation.
    //!
    //! The tables take `4^w` entries of 8 bytes: 32 KiB for width 6, 512 KiB for width 8;
    //! each (width, connectivity) table is built on first use and shared.
    //!
    //! ```
    //! use gridbits::algo::components::table::{self, RowPairTable};
    //! use gridbits::{bitboard, Board, Connectivity};
    //! // The article's example: rows 101010 over 111001 (column 0 is bit 0).
    //! let t = RowPairTable::get(6, Connectivity::Four);
    //! let (upper, lower) = (0b010101, 0b100111);
    //! assert_eq!(t.index(upper, lower, 0), 0b011);
    //! assert_eq!(t.row(upper, lower, 0), 0b000111);
    //! assert_eq!((t.index(upper, lower, 1), t.row(upper, lower, 1)), (0, 0b100000));
    //! assert_eq!((t.index(upper, lower, 2), t.row(upper, lower, 2)), (0, 0));
    //!
    //! type B = Board<6, 2, 1>;
    //! let plane = bitboard!(B; "#.#.#.", "###..#");
    //! assert_eq!(table::components(plane, Connectivity::Four).len(), 3);
    //! assert_eq!(table::components(plane, Connectivity::Eight).len(), 2);
    //! ```

    use crate::{Board, Connectivity};
    use std::sync::OnceLock;

    /// The widest board the table supports.
    pub const MAX_WIDTH: usize = 8;

    /// Running components per row for a board `width` cells wide: `ceil(width / 2)`.
    pub const fn slots(width: usize) -> usize {
        width.div_ceil(2)
    }

    /// The transition table of one width and connectivity. See the [module
    /// documentation](self).
    #[derive(Clone, Debug)]
    pub struct RowPairTable {
        width: usize,
        conn: Connectivity,
        /// Entry `upper | lower << width`: four 16-bit slots, each `row | index << 8`.
        entries: Box<[u64]>,
    }

    static TABLES: [OnceLock<RowPairTable>; 2 * MAX_WIDTH] =
        [const { OnceLock::new() }; 2 * MAX_WIDTH];

    /// The runs of a row, lowest first, as masks.
    fn runs(mut row: u32) -> Vec<u32> {
        let mut out = Vec::new();
        while row != 0 {
            let low = row & row.wrapping_neg();
            // The run starting at `low`: add carries through it.
            let run = (row.wrapping_add(low) ^ row) & row;
            out.push(run);
            row &= !run;
        }
        out
    }

    /// Bit-BFS inside the two-row window from one cell of the lower row: the component's
    /// cells in the upper and the lower row.
    fn window_fill(
        upper: u32,
        lower: u32,
        start: u32,
        width: usize,
        conn: Connectivity,
    ) -> (u32, u32) {
        let full = (1u32 << width) - 1;
        let spread = |r: u32| (r | r << 1 | r >> 1) & full;
        let (mut cu, mut cl) = (0u32, start & lower);
        loop {
            let (nu, nl) = match conn {
                Connectivity::Four => ((spread(cu) | cl) & upper, (spread(cl) | cu) & lower),
                Connectivity::Eight => (
                    (spread(cu) | spread(cl)) & upper,
                    (spread(cl) | spread(cu)) & lower,
                ),
            };
            if (nu, nl) == (cu, cl) {
                return (cu, cl);
            }
            (cu, cl) = (nu, nl);
        }
    }

    impl RowPairTable {
        /// Builds the table for boards `width` cells wide (`1..=8`). Panics on another width.
        pub fn build(width: usize, conn: Connectivity) -> RowPairTable {
            assert!(
                (1..=MAX_WIDTH).contains(&width),
                "the row-pair table supports widths 1 to {MAX_WIDTH}"
            );
            let full = (1u32 << width) - 1;
            let entries = (0..1u32 << (2 * width))
                .map(|code| {
                    let (upper, lower) = (code & full, code >> width);
                    let upper_runs = runs(upper);
                    let mut entry = 0u64;
                    for (slot, run) in runs(lower).into_iter().enumerate() {
                        // BFS from the run's start (pattern ^1|01).
                        let (cu, _) =
                            window_fill(upper, lower, run & run.wrapping_neg(), width, conn);
                        let index = upper_runs
                            .iter()
                            .enumerate()
                            .filter(|(_, &r)| r & cu != 0)
                            .fold(0u64, |acc, (i, _)| acc | 1 << i);
                        entry |= (u64::from(run) | index << 8) << (16 * slot);
                    }
                    entry
                })
                .collect();
            RowPairTable {
                width,
                conn,
                entries,
            }
        }

        /// The shared table for `width` (`1..=8`) and `conn`, built on first use. Panics on
        /// another width.
        pub fn get(width: usize, conn: Connectivity) -> &'static RowPairTable {
            assert!(
                (1..=MAX_WIDTH).contains(&width),
                "the row-pair table supports widths 1 to {MAX_WIDTH}"
            );
            let i = 2 * (width - 1) + usize::from(conn == Connectivity::Eight);
            TABLES[i].get_or_init(|| Self::build(width, conn))
        }

        /// Board width of this table.
        pub fn width(&self) -> usize {
            self.width
        }

        /// Connectivity of this table.
        pub fn connectivity(&self) -> Connectivity {
            self.conn
        }

        /// Number of entries, `4^width`.
        pub fn len(&self) -> usize {
            self.entries.len()
        }

        /// Whether the table has no entries (never: the smallest has 4).
        pub fn is_empty(&self) -> bool {
            self.entries.is_empty()
        }

        #[inline(always)]
        fn entry(&self, upper: u32, lower: u32) -> u64 {
            self.entries[(upper | lower << self.width) as usize]
        }

        /// `tableIndex[upper lower][slot]`: which running components of the upper row (bit
        /// `i` for slot `i`) continue into run `slot` of the lower row. Rows are bit masks,
        /// column 0 in bit 0. Panics if a row has bits past the width or `slot >= 4`.
        pub fn index(&self, upper: u32, lower: u32, slot: usize) -> u32 {
            assert!(upper >> self.width == 0 && lower >> self.width == 0 && slot < 4);
            (self.entry(upper, lower) >> (16 * slot + 8)) as u32 & 0xf
        }

        /// `tableRow[upper lower][slot]`: the cells of run `slot` of the lower row (0 when the
        /// lower row has fewer runs). Panics like [`index`](Self::index).
        pub fn row(&self, upper: u32, lower: u32, slot: usize) -> u32 {
            assert!(upper >> self.width == 0 && lower >> self.width == 0 && slot < 4);
            (self.entry(upper, lower) >> (16 * slot)) as u32 & 0xff
        }
    }

    /// Row `y` of `plane` as `W` bits, column 0 in bit 0.
    #[inline(always)]
    fn row_bits<const W: usize, const H: usize, const N: usize>(
        plane: &Board<W, H, N>,
        y: usize,
    ) -> u32 {
        let i = y * Board::<W, H, N>::STRIDE;
        let full = (1u32 << W) - 1;
        if N <= 2 {
            (plane.to_u128() >> i) as u32 & full
        } else {
            let (w, b) = (i / 64, i % 64);
            let mut v = plane.words[w] >> b;
            if b + W > 64 {
                v |= plane.words[w + 1] << (64 - b);
            }
            v as u32 & full
        }
    }

    /// ORs `row` (column 0 in bit 0) into row `y` of `board`.
    #[inline(always)]
    fn put_row<const W: usize, const H: usize, const N: usize>(
        board: &mut Board<W, H, N>,
        row: u32,
        y: usize,
    ) {
        let i = y * Board::<W, H, N>::STRIDE;
        let (w, b) = (i / 64, i % 64);
        board.words[w] |= u64::from(row) << b;
        if b + W > 64 {
            board.words[w + 1] |= u64::from(row) >> (64 - b);
        }
    }

    /// Calls `f` with every component of `plane`, by the row-pair table. Components come in
    /// the order they are sealed (when the scan leaves them), so sort if order matters.
    /// Compile-time error for boards wider than 8.
    pub fn for_each_component<const W: usize, const H: usize, const N: usize>(
        plane: Board<W, H, N>,
        conn: Connectivity,
        mut f: impl FnMut(Board<W, H, N>),
    ) {
        const { assert!(W <= MAX_WIDTH, "the row-pair table supports widths up to 8") };
        let table = RowPairTable::get(W, conn);
        let n_slots = slots(W);
        // Component ids 1..=2*slots; 0 is "no component" (the article's background).
        let mut comps = [Board::<W, H, N>::EMPTY; 2 * MAX_WIDTH / 2 + 1];
        let mut free: u32 = ((1u32 << (2 * n_slots)) - 1) << 1;
        let mut running = [0u8; 4];
        let mut prev = 0u32;
        for y in 0..H {
            let row = row_bits(&plane, y);
            if row == 0 && prev == 0 {
                continue; // skip empty rows
            }
            let entry = table.entry(prev, row);
            let mut old = running;
            running = [0; 4];
            for j in 0..n_slots {
                let slot = (entry >> (16 * j)) as u32 & 0xffff;
                let (index, cells) = (slot >> 8, slot & 0xff);
                if index != 0 {
                    // Continue: the first continued component keeps its id ...
                    let id = old[index.trailing_zeros() as usize];
                    let mut others = index & (index - 1);
                    while others != 0 {
                        let i = others.trailing_zeros() as usize;
                        others &= others - 1;
                        let merged = old[i];
                        if merged != id {
                            // ... the others merge into it and every reference moves.
                            let m = comps[merged as usize];
                            comps[id as usize] |= m;
                            comps[merged as usize] = Board::EMPTY;
                            free |= 1 << merged;
                            for k in 0..4 {
                                if old[k] == merged {
                                    old[k] = id;
                                }
                                if running[k] == merged {
                                    running[k] = id;
                                }
                            }
                        }
                    }
                    put_row(&mut comps[id as usize], cells, y);
                    running[j] = id;
                } else if cells != 0 {
                    // New component.
                    let id = free.trailing_zeros() as u8;
                    free &= free - 1;
                    comps[id as usize] = Board::EMPTY;
                    put_row(&mut comps[id as usize], cells, y);
                    running[j] = id;
                } else {
                    // Terminate: this slot and the ones after it are empty.
                    break;
                }
            }
            // Seal the components no running slot refers to any more.
            let mut live = 0u32;
            for &id in &running {
                live |= 1 << id;
            }
            let mut sealed = 0u32;
            for &id in &old {
                sealed |= 1 << id;
            }
            sealed &= !live & !1;
            while sealed != 0 {
                let id = sealed.trailing_zeros() as usize;
                sealed &= sealed - 1;
                f(comps[id]);
                free |= 1 << id;
            }
            prev = row;
        }
        let mut live = 0u32;
        for &id in &running {
            live |= 1 << id;
        }
        live &= !1;
        while live != 0 {
            let id = live.trailing_zeros() as usize;
            live &= live - 1;
            f(comps[id]);
        }
    }

    /// Every component of `plane` by the row-pair table, sorted in raster order of their
    /// lowest cell. Compile-time error for boards wider than 8.
    pub fn components<const W: usize, const H: usize, const N: usize>(
        plane: Board<W, H, N>,
        conn: Connectivity,
    ) -> Vec<Board<W, H, N>> {
        let mut out = Vec::new();
        for_each_component(plane, conn, |c| out.push(c));
        out.sort_by_key(|c| c.lowest_index());
        out
    }
}
