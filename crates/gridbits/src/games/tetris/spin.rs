//! T-spin detection by the guideline three-corner rule, for one placement and (bit-parallel)
//! for every position of a plane at once.
//!
//! # Rule
//!
//! A T locked right after a **rotation** (the last successful action; a move or a drop after
//! the rotation cancels the spin) is a T-spin when at least 3 of the 4 cells diagonal to its
//! centre (the corners of its 3 x 3 box) are filled or outside the matrix (walls, floor, and
//! the space above the top all count as filled). It is a **full** T-spin when both "front"
//! corners, the two on the side the T points to, are among them, or when the rotation used
//! the fifth kick test (the "TST kick", offset `(±1, ±2)`, see [`Kick::test`]); otherwise it
//! is a **mini**. Only the T spins: every other piece locks with [`Spin::None`].
//!
//! ```text
//!  Spawn (points up)   R (right)   2 (down)   L (left)
//!  F#F                 *#F         *.*        F#*
//!  ###                 .##         ###        ##.
//!  *.*                 *#F         F#F        F#*
//! ```
//!
//! (`F` the front corners, `*` the back ones.)

#[cfg(doc)]
use super::Kick;
use super::{Rotation, Tetris};

/// The kind of T-spin of a locked piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Spin {
    /// No spin: not a T, the last action was not a rotation, or fewer than 3 corners.
    #[default]
    None,
    /// A T-spin mini.
    Mini,
    /// A full T-spin.
    Full,
}

impl Spin {
    /// `none`, `mini` or `full`.
    pub const fn name(self) -> &'static str {
        match self {
            Spin::None => "none",
            Spin::Mini => "mini",
            Spin::Full => "full",
        }
    }
}

impl std::fmt::Display for Spin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The four corners of the 3 x 3 box as `(dx, dy)` from its top-left, `dy` down: top-left,
/// top-right, bottom-left, bottom-right.
pub(super) const CORNERS: [(i32, i32); 4] = [(0, 0), (2, 0), (0, 2), (2, 2)];

/// Which of [`CORNERS`] are the front ones, per rotation (a bit per corner).
pub(super) const FRONT: [u8; 4] = [0b0011, 0b1010, 0b1100, 0b0101];

impl<const W: usize> Tetris<W> {
    /// Whether `(x, y)` is filled or outside the matrix (signed coordinates, `y` from the top).
    fn solid(&self, x: i32, y: i32) -> bool {
        x < 0
            || y < 0
            || x >= W as i32
            || y >= self.height() as i32
            || self.get(x as usize, y as usize)
    }

    /// The T-spin kind of a T locked at placement `(x, y)` in `rotation` right after a
    /// rotation that succeeded with kick test `test` (0 to 4, see [`Kick::test`]), by the
    /// [three-corner rule](self). The caller knows whether the last action was a rotation:
    /// when it was not, there is no spin and this is not the function to ask.
    ///
    /// ```
    /// use gridbits::games::tetris::{Piece, Rotation, Spin, Tetris};
    /// // A T-spin double slot: the T (pointing down, rotation 2) fills the hole under the
    /// // overhang; three corners are filled, both front (bottom) ones among them.
    /// let t: Tetris<5> = ".....\n##...\n#...#\n##.##\n".parse().unwrap();
    /// assert_eq!(t.t_spin(Rotation::Two, 1, 1, 0), Spin::Full);
    /// ```
    pub fn t_spin(&self, rotation: Rotation, x: i32, y: i32, test: usize) -> Spin {
        spin_of(self.filled_corners(x, y), FRONT[rotation.index()], test)
    }

    /// Which [`CORNERS`] of the 3 x 3 box at `(x, y)` are filled or outside the matrix, a
    /// bit per corner.
    pub(super) fn filled_corners(&self, x: i32, y: i32) -> u8 {
        let mut filled = 0u8;
        for (i, &(dx, dy)) in CORNERS.iter().enumerate() {
            if self.solid(x.saturating_add(dx), y.saturating_add(dy)) {
                filled |= 1 << i;
            }
        }
        filled
    }
}

/// The spin from the filled corners (a bit per corner of [`CORNERS`]), the front corners and
/// the kick test of the rotation.
pub(super) const fn spin_of(filled: u8, front: u8, test: usize) -> Spin {
    if filled.count_ones() < 3 {
        Spin::None
    } else if filled & front == front || test == 4 {
        Spin::Full
    } else {
        Spin::Mini
    }
}

/// For column `cx` of a T plane in rotation `r` (tight coordinates: bit `cy` is the tight
/// box's top row; `dx`, `ty` the tight box's offsets in the SRS box): the positions where at
/// least 3 corners are filled (`three`) and where both front corners are (`front`), for the
/// whole column at once. `solid` holds the matrix columns top-down with every bit at or past
/// the floor set.
#[inline(always)]
pub(super) fn corners_at<const W: usize>(
    solid: &[u64; W],
    cx: usize,
    r: Rotation,
    dx: i32,
    ty: i32,
) -> (u64, u64) {
    let mut occ = [0u64; 4];
    for (o, &(ox, oy)) in occ.iter_mut().zip(&CORNERS) {
        let (x, oy) = (cx as i32 + ox - dx, oy - ty);
        *o = if x < 0 || x >= W as i32 {
            !0
        } else {
            let c = solid[x as usize];
            // oy is -1 (a row above the tight box) to 2; rows past the word (the floor of a
            // 64-row matrix) are outside, so filled.
            if oy < 0 {
                c << 1 | 1
            } else {
                c >> oy | !(!0u64 >> oy)
            }
        };
    }
    let [a, b, c, d] = occ;
    let f = FRONT[r.index()];
    let (fa, fb) = (f.trailing_zeros() as usize, 7 - f.leading_zeros() as usize);
    ((a & b & (c | d)) | (c & d & (a | b)), occ[fa] & occ[fb])
}
