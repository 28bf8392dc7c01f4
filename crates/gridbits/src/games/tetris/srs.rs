//! SRS rotation with the guideline kick tables, one-step moves, and the spawn position.
//!
//! A rotation tries the target orientation at the current place and then at up to four kick
//! offsets, in order; the first test where the piece fits wins ([`Kick::test`] says which, 0
//! to 4). [`kick_offsets`] returns the guideline SRS offsets in the crate's coordinates (`y`
//! down); the half turn ([`Turn::Half`]) has no kicks. [`spawn_position`] is where a piece
//! enters; [`Tetris::spawn`] applies the rule for a blocked spawn.
//!
//! The kick tables and the spawn rule in full: docs/games.md (Tetris).

use super::{Piece, Rotation, Tetris};

/// A rotation input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// A quarter turn clockwise.
    Cw,
    /// A quarter turn counter-clockwise.
    Ccw,
    /// A half turn (no kicks).
    Half,
}

impl Turn {
    /// The three, in the order `Cw`, `Ccw`, `Half`.
    pub const ALL: [Turn; 3] = [Turn::Cw, Turn::Ccw, Turn::Half];

    /// The orientation after the turn.
    ///
    /// ```
    /// use gridbits::games::tetris::{Rotation, Turn};
    /// assert_eq!(Turn::Ccw.apply(Rotation::Spawn), Rotation::Left);
    /// assert_eq!(Turn::Half.apply(Rotation::Right), Rotation::Left);
    /// ```
    pub const fn apply(self, r: Rotation) -> Rotation {
        Rotation::ALL[(r as usize + self.quarters()) & 3]
    }

    /// Quarter turns clockwise: 1, 3 or 2.
    pub const fn quarters(self) -> usize {
        match self {
            Turn::Cw => 1,
            Turn::Ccw => 3,
            Turn::Half => 2,
        }
    }
}

/// The result of a successful rotation: the new orientation and placement, and the index of
/// the kick test that succeeded (0 = unmoved, 4 = the fifth test, the "TST kick").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kick {
    /// The new orientation.
    pub rotation: Rotation,
    /// The new placement `x` (SRS box, from the left).
    pub x: i32,
    /// The new placement `y` (SRS box, from the top).
    pub y: i32,
    /// The kick test that succeeded, 0 to 4.
    pub test: usize,
}

/// J L S T Z, guideline form (y up), indexed by `[from][0 = cw, 1 = ccw]`.
const JLSTZ: [[[(i32, i32); 5]; 2]; 4] = [
    [
        [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)], // 0 -> R
        [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],    // 0 -> L
    ],
    [
        [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)], // R -> 2
        [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)], // R -> 0
    ],
    [
        [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],    // 2 -> L
        [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)], // 2 -> R
    ],
    [
        [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)], // L -> 0
        [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)], // L -> 2
    ],
];

/// I, guideline form (y up), indexed by `[from][0 = cw, 1 = ccw]`.
const I_KICKS: [[[(i32, i32); 5]; 2]; 4] = [
    [
        [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)], // 0 -> R
        [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)], // 0 -> L
    ],
    [
        [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)], // R -> 2
        [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)], // R -> 0
    ],
    [
        [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)], // 2 -> L
        [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)], // 2 -> R
    ],
    [
        [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)], // L -> 0
        [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)], // L -> 2
    ],
];

/// A table flipped to `y` down.
const fn y_down(t: [[[(i32, i32); 5]; 2]; 4]) -> [[[(i32, i32); 5]; 2]; 4] {
    let mut out = t;
    let mut a = 0;
    while a < 4 {
        let mut b = 0;
        while b < 2 {
            let mut k = 0;
            while k < 5 {
                out[a][b][k].1 = -t[a][b][k].1;
                k += 1;
            }
            b += 1;
        }
        a += 1;
    }
    out
}

const JLSTZ_DOWN: [[[(i32, i32); 5]; 2]; 4] = y_down(JLSTZ);
const I_DOWN: [[[(i32, i32); 5]; 2]; 4] = y_down(I_KICKS);

/// [`kick_offsets`] in a `const fn`: the tests padded to 5, and how many there are.
pub(super) const fn kick_table(
    piece: Piece,
    from: Rotation,
    turn: Turn,
) -> ([(i32, i32); 5], usize) {
    let dir = match turn {
        Turn::Cw => 0,
        Turn::Ccw => 1,
        Turn::Half => return ([(0, 0); 5], 1),
    };
    match piece {
        Piece::O => ([(0, 0); 5], 1),
        Piece::I => (I_DOWN[from as usize][dir], 5),
        _ => (JLSTZ_DOWN[from as usize][dir], 5),
    }
}
const NO_KICK: [(i32, i32); 1] = [(0, 0)];

/// The kick offsets `(dx, dy)` a rotation of `piece` from `from` tries, in order, in the
/// crate's coordinates (`dy` **down**, the guideline tables with `y` negated; the tables
/// are in docs/games.md). Five tests for quarter turns of every piece but O; one,
/// `(0, 0)`, for O and for half turns.
///
/// ```
/// use gridbits::games::tetris::{kick_offsets, Piece, Rotation, Turn};
/// // T, 0 -> R: the fifth test moves one left and two down (the "TST kick").
/// assert_eq!(
///     kick_offsets(Piece::T, Rotation::Spawn, Turn::Cw),
///     &[(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]
/// );
/// assert_eq!(kick_offsets(Piece::O, Rotation::Spawn, Turn::Cw), &[(0, 0)]);
/// ```
pub fn kick_offsets(piece: Piece, from: Rotation, turn: Turn) -> &'static [(i32, i32)] {
    let dir = match turn {
        Turn::Cw => 0,
        Turn::Ccw => 1,
        Turn::Half => return &NO_KICK,
    };
    match piece {
        Piece::O => &NO_KICK,
        Piece::I => &I_DOWN[from.index()][dir],
        _ => &JLSTZ_DOWN[from.index()][dir],
    }
}

/// The nominal spawn placement `(x, y)` (SRS box) of `piece` in its spawn orientation on a
/// `width x height` matrix; the rule is in docs/games.md (Tetris, SRS kicks and spawn).
///
/// ```
/// use gridbits::games::tetris::{spawn_position, Piece};
/// assert_eq!(spawn_position(Piece::T, 10, 40), (3, 18));
/// assert_eq!(spawn_position(Piece::I, 10, 40), (3, 18)); // cells on row 19 from the top
/// assert_eq!(spawn_position(Piece::O, 10, 40), (4, 18));
/// assert_eq!(spawn_position(Piece::I, 10, 20), (3, -1)); // short matrix: on the top row
/// ```
#[inline]
pub fn spawn_position(piece: Piece, width: usize, height: usize) -> (i32, i32) {
    let b = piece.box_size() as i64;
    let x = (width as i64 - b).div_euclid(2);
    let top = if piece == Piece::I { 1 } else { 0 };
    let y = (height as i64 - 22).max(-top);
    (x.clamp(-64, 64) as i32, y.clamp(-64, 64) as i32)
}

impl<const W: usize> Tetris<W> {
    /// Rotates the piece at placement `(x, y)` by `turn`, trying the kick tests in order (see
    /// the [SRS tables](crate::games::tetris::srs)); `None` when no test fits. The piece is
    /// not required to fit where it starts.
    ///
    /// ```
    /// use gridbits::games::tetris::{Piece, Rotation, Tetris, Turn};
    /// let t = Tetris::<10>::default();
    /// // A T against the left wall (cells in columns 0-2), turned counter-clockwise: it fits
    /// // in place.
    /// let k = t.rotate(Piece::T, Rotation::Spawn, 0, 10, Turn::Ccw).unwrap();
    /// assert_eq!((k.rotation, k.x, k.y, k.test), (Rotation::Left, 0, 10, 0));
    /// // A T in R flat against the left wall (box x = -1), turned clockwise: the second
    /// // test kicks it one column right.
    /// let k = t.rotate(Piece::T, Rotation::Right, -1, 10, Turn::Cw).unwrap();
    /// assert_eq!((k.rotation, k.x, k.y, k.test), (Rotation::Two, 0, 10, 1));
    /// ```
    pub fn rotate(
        &self,
        piece: Piece,
        rotation: Rotation,
        x: i32,
        y: i32,
        turn: Turn,
    ) -> Option<Kick> {
        let to = turn.apply(rotation);
        kick_offsets(piece, rotation, turn)
            .iter()
            .enumerate()
            .find_map(|(test, &(dx, dy))| {
                let (nx, ny) = (x.checked_add(dx)?, y.checked_add(dy)?);
                self.fits(piece, to, nx, ny).then_some(Kick {
                    rotation: to,
                    x: nx,
                    y: ny,
                    test,
                })
            })
    }

    /// [`rotate`](Self::rotate) a quarter turn clockwise.
    pub fn rotate_cw(&self, piece: Piece, rotation: Rotation, x: i32, y: i32) -> Option<Kick> {
        self.rotate(piece, rotation, x, y, Turn::Cw)
    }

    /// [`rotate`](Self::rotate) a quarter turn counter-clockwise.
    pub fn rotate_ccw(&self, piece: Piece, rotation: Rotation, x: i32, y: i32) -> Option<Kick> {
        self.rotate(piece, rotation, x, y, Turn::Ccw)
    }

    /// [`rotate`](Self::rotate) a half turn, without kicks.
    pub fn rotate_180(&self, piece: Piece, rotation: Rotation, x: i32, y: i32) -> Option<Kick> {
        self.rotate(piece, rotation, x, y, Turn::Half)
    }

    /// The placement `x` one column left, if the piece fits there.
    pub fn move_left(&self, piece: Piece, rotation: Rotation, x: i32, y: i32) -> Option<i32> {
        let nx = x.checked_sub(1)?;
        self.fits(piece, rotation, nx, y).then_some(nx)
    }

    /// The placement `x` one column right, if the piece fits there.
    pub fn move_right(&self, piece: Piece, rotation: Rotation, x: i32, y: i32) -> Option<i32> {
        let nx = x.checked_add(1)?;
        self.fits(piece, rotation, nx, y).then_some(nx)
    }

    /// Soft drop by one row: the placement `y` one row down, if the piece fits there.
    ///
    /// ```
    /// use gridbits::games::tetris::{Piece, Rotation, Tetris};
    /// let t = Tetris::<10>::default();
    /// assert_eq!(t.soft_drop(Piece::O, Rotation::Spawn, 4, 37), Some(38));
    /// assert_eq!(t.soft_drop(Piece::O, Rotation::Spawn, 4, 38), None); // on the floor
    /// ```
    pub fn soft_drop(&self, piece: Piece, rotation: Rotation, x: i32, y: i32) -> Option<i32> {
        let ny = y.checked_add(1)?;
        self.fits(piece, rotation, x, ny).then_some(ny)
    }

    /// Where `piece` enters the matrix in its spawn orientation: the
    /// [nominal spawn](spawn_position) if it fits there, else one row up if it fits there,
    /// else `None` (blocked: game over).
    ///
    /// ```
    /// use gridbits::games::tetris::{Piece, Tetris};
    /// let t = Tetris::<10>::default();
    /// assert_eq!(t.spawn(Piece::T), Some((3, 18)));
    /// ```
    pub fn spawn(&self, piece: Piece) -> Option<(i32, i32)> {
        let (x, y) = spawn_position(piece, W, self.height());
        self.spawn_near(piece, Rotation::Spawn, x, y)
    }

    /// The blocked-spawn rule at a nominal spawn `(x, y)` of your own (for example the
    /// spawn of a narrower matrix walled off inside this one): `(x, y)` if the piece fits
    /// there in its spawn orientation, else `(x, y - 1)` if it fits there, else `None`.
    pub fn spawn_at(&self, piece: Piece, x: i32, y: i32) -> Option<(i32, i32)> {
        self.spawn_near(piece, Rotation::Spawn, x, y)
    }

    /// `(x, y)` if the piece fits there, else `(x, y - 1)` if it fits there.
    pub(super) fn spawn_near(
        &self,
        piece: Piece,
        rotation: Rotation,
        x: i32,
        y: i32,
    ) -> Option<(i32, i32)> {
        if self.fits(piece, rotation, x, y) {
            return Some((x, y));
        }
        let up = y.checked_sub(1)?;
        self.fits(piece, rotation, x, up).then_some((x, up))
    }
}
