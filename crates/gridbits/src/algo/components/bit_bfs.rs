//! Components of a fixed board by bit-BFS: the fast path (single cells and stars first,
//! then fills) and the plain bit-BFS.

use super::{
    byte_rows, counts_u128, fill_lowest, fixpoint_split, fixpoint_u128, from_u128_raw, grow,
    grow_to_fixpoint, grow_u128, in_split, in_u128, lowest, nb, neighboured, run_u128, with_conn,
    ComponentsError,
};
use crate::{Board, Connectivity, Dir, OffGrid};

/// The component of `plane` holding cell `(x, y)`: empty if that cell is not set.
///
/// # Panics
///
/// If the cell is off the board; [`try_component_at`] returns an error instead.
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
    match try_component_at(plane, x, y, conn) {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    }
}

/// The component of `plane` holding cell `(x, y)` (empty if that cell is not set), or an
/// error if the cell is off the board.
///
/// ```
/// use gridbits::algo::components::try_component_at;
/// use gridbits::{Board, Connectivity};
/// type B = Board<4, 3, 1>;
/// let plane = B::from_fn(|x, _| x == 1);
/// assert_eq!(try_component_at(plane, 1, 2, Connectivity::Four).unwrap(), plane);
/// let err = try_component_at(plane, 4, 0, Connectivity::Four).unwrap_err();
/// assert_eq!(err.to_string(), "cell (4, 0) is off the 4x3 board");
/// ```
pub fn try_component_at<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    x: usize,
    y: usize,
    conn: Connectivity,
) -> Result<Board<W, H, N>, ComponentsError> {
    OffGrid::check(x, y, W, H)?;
    Ok(grow_to_fixpoint(Board::cell(x, y) & plane, plane, conn))
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
    if in_u128::<W, H, N>() {
        return components_u128(plane, conn);
    }
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
        deferred: false,
    }
}

/// [`components_impl`] on the `u128` form of a board with a guard column: the same sets.
#[inline(always)]
fn components_u128<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    conn: Connectivity,
) -> Components<W, H, N> {
    if byte_rows::fits::<W, H, N>() && byte_rows::available() {
        // The byte-row engine finds the stars itself when `fold` runs (see `deferred`).
        return Components {
            singles: Board::EMPTY,
            centres: Board::EMPTY,
            plane,
            rest: Board::EMPTY,
            conn,
            deferred: true,
        };
    }
    stars_u128(plane, conn)
}

/// The star sets of [`components_u128`], computed now on the `u128` form.
#[inline(always)]
fn stars_u128<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    conn: Connectivity,
) -> Components<W, H, N> {
    let s = Board::<W, H, N>::STRIDE as u32;
    let p = plane.to_u128();
    let (one, two) = counts_u128(p, s, conn);
    let leaves = one & p & !two;
    let inner = p & !leaves;
    let around = counts_u128(inner, s, conn).0;
    // The neighbours that come before a cell in raster order: west and the row above.
    let mut before = p << 1 | p << s;
    if conn == Connectivity::Eight {
        before |= p << (s - 1) | p << (s + 1);
    }
    let singles = p & !one;
    let centres = p & one & !around & !(leaves & before);
    let small = grow_u128(centres, p, s, conn) | singles;
    Components {
        singles: from_u128_raw(singles),
        centres: from_u128_raw(centres),
        plane,
        rest: from_u128_raw(p & !small),
        conn,
        deferred: false,
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
    /// The three sets above are not computed yet (all empty): a board the vector engine
    /// of `byte_rows` takes, whose `fold` finds the stars on the byte-row form. Any other
    /// use computes them first ([`Self::undeferred`]).
    deferred: bool,
}

impl<const W: usize, const H: usize, const N: usize> Components<W, H, N> {
    /// The cells of the components not yet returned.
    pub fn remaining(&self) -> Board<W, H, N> {
        let it = self.undeferred();
        it.singles | grow(it.centres, it.plane, it.conn) | it.rest
    }

    /// This iterator with its star sets computed (itself when they are).
    #[inline]
    fn undeferred(&self) -> Self {
        if self.deferred {
            stars_u128(self.plane, self.conn)
        } else {
            self.clone()
        }
    }
}

impl<const W: usize, const H: usize, const N: usize> Iterator for Components<W, H, N> {
    type Item = Board<W, H, N>;

    #[inline]
    fn next(&mut self) -> Option<Board<W, H, N>> {
        if self.deferred {
            *self = self.undeferred();
        }
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
        if self.deferred {
            return self.fold_deferred(init, f);
        }
        match self.conn {
            Connectivity::Four => self.fold_impl(init, f, Connectivity::Four),
            Connectivity::Eight => self.fold_impl(init, f, Connectivity::Eight),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let it = self.undeferred();
        let sure = it.singles.count() + it.centres.count();
        let rest = it.rest.count();
        (
            (sure + u32::from(rest != 0)) as usize,
            Some((sure + rest / 3) as usize),
        )
    }
}

impl<const W: usize, const H: usize, const N: usize> Components<W, H, N> {
    /// `fold` of an iterator whose star sets are deferred: the byte-row engine
    /// (`byte_rows::fold_four`, which finds them itself), or the scalar code once they are
    /// computed. Out of line, so that the scalar `fold` keeps its code.
    #[inline(never)]
    fn fold_deferred<B, F>(self, init: B, f: F) -> B
    where
        F: FnMut(B, Board<W, H, N>) -> B,
    {
        #[cfg(target_arch = "x86_64")]
        if byte_rows::available() {
            if self.conn == Connectivity::Eight {
                return self.fold_eight_bytes(init, f);
            }
            let mut f = f;
            let s = Board::<W, H, N>::STRIDE as u32;
            // SAFETY: `available()` found the features `fold_four` is compiled for.
            return unsafe {
                byte_rows::fold_four(self.plane.to_u128(), s, init, |a, c| f(a, from_u128_raw(c)))
            };
        }
        self.undeferred().fold(init, f)
    }

    /// [`fold_deferred`](Self::fold_deferred) of an 8-connected plane: the stars by the
    /// scalar code, the larger components on byte rows. Out of line: inlined there it cost
    /// the 4-connected path a sixth of its time.
    #[cfg(target_arch = "x86_64")]
    #[inline(never)]
    fn fold_eight_bytes<B, F>(self, init: B, f: F) -> B
    where
        F: FnMut(B, Board<W, H, N>) -> B,
    {
        self.undeferred()
            .fold_u128::<true, B, F>(init, f, Connectivity::Eight)
    }

    /// `fold` with the connectivity as a constant.
    #[inline(always)]
    fn fold_impl<B, F>(self, init: B, mut f: F, conn: Connectivity) -> B
    where
        F: FnMut(B, Board<W, H, N>) -> B,
    {
        // The same as `next` in a loop, as three tight loops.
        if in_u128::<W, H, N>() {
            return self.fold_u128::<false, B, F>(init, f, conn);
        }
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

impl<const W: usize, const H: usize, const N: usize> Components<W, H, N> {
    /// [`fold_impl`](Self::fold_impl) on the `u128` form of a board with a guard column: the
    /// single cells word by word, the rest as in `next`. Kept out of line: inlined into a
    /// caller's loop over many planes it ran about a tenth slower (the 6x12 bench rows).
    ///
    /// With `BYTE_ROWS` (only where the byte-row engine is available and the board fits) the
    /// larger components are filled by `byte_rows::fold_rest`; a separate instance, since
    /// the call in the loop cost the scalar instance a tenth of its time.
    #[inline(never)]
    fn fold_u128<const BYTE_ROWS: bool, B, F>(self, init: B, mut f: F, conn: Connectivity) -> B
    where
        F: FnMut(B, Board<W, H, N>) -> B,
    {
        let s = Board::<W, H, N>::STRIDE as u32;
        let plane = self.plane.to_u128();
        let mut acc = init;
        for (i, &word) in self.singles.words.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let b = w & w.wrapping_neg();
                w ^= b;
                acc = f(acc, from_u128_raw(u128::from(b) << (64 * i)));
            }
        }
        let mut centres = self.centres.to_u128();
        while centres != 0 {
            let b = centres & centres.wrapping_neg();
            centres ^= b;
            acc = f(acc, from_u128_raw(grow_u128(b, plane, s, conn)));
        }
        let mut rest = self.rest.to_u128();
        let smallest = match conn {
            Connectivity::Four => 4,
            Connectivity::Eight => 3,
        };
        #[cfg(target_arch = "x86_64")]
        if BYTE_ROWS && rest != 0 && byte_rows::available() {
            // SAFETY: `available()` found the features `fold_rest` is compiled for.
            return unsafe {
                byte_rows::fold_rest(rest, s, conn, smallest, acc, |a, c| f(a, from_u128_raw(c)))
            };
        }
        while rest != 0 {
            if rest.count_ones() < 2 * smallest {
                return f(acc, from_u128_raw(rest));
            }
            // The lowest cell's run first (one addition, see `lowest_run`), then dilations.
            let seed = rest & rest.wrapping_neg();
            let run = run_u128(seed, rest);
            let c = if in_split::<W, H, N>() {
                fixpoint_split::<W, H, N>(run, rest, conn)
            } else {
                fixpoint_u128(run, rest, s, conn)
            };
            rest ^= c;
            acc = f(acc, from_u128_raw(c));
        }
        acc
    }
}

impl<const W: usize, const H: usize, const N: usize> std::iter::FusedIterator
    for Components<W, H, N>
{
}

/// The plain bit-BFS: the lowest set cell grown by dilations to a fixpoint, removed, and
/// again, with none of the shortcuts of [`components`]. Components come in raster order of
/// their lowest cell. This is the bit-BFS that the later version of the article "Fast
/// Connected Components for 6x12 bitboard" recommends over its lookup table; the fast path
/// [`components`] adds the shortcuts.
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
