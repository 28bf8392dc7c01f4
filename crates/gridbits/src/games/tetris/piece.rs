//! The seven tetrominoes, their four SRS rotations, and the bit shapes the board uses.

use std::fmt;
use std::str::FromStr;

/// The seven tetrominoes.
///
/// ```
/// use gridbits::games::tetris::Piece;
/// assert_eq!(Piece::from_char('t'), Some(Piece::T));
/// assert_eq!(Piece::T.to_string(), "T");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// I: four in a line.
    I,
    /// O: the square.
    O,
    /// T.
    T,
    /// S.
    S,
    /// Z.
    Z,
    /// J.
    J,
    /// L.
    L,
}

/// A piece's orientation, in SRS: [`Spawn`](Self::Spawn) is the orientation it enters the
/// matrix in, and each of [`Right`](Self::Right), [`Two`](Self::Two), [`Left`](Self::Left) is
/// one more quarter turn **clockwise** (SRS names them `0`, `R`, `2`, `L`).
///
/// As a number (`u8::from`, `TryFrom<u8>`) it is 0 to 3 in that order; 4 or more is an error.
/// As text (`FromStr`, `Display`) it is `0`, `R`, `2`, `L`; parsing also takes `1` and `3`
/// and either case.
///
/// ```
/// use gridbits::games::tetris::Rotation;
/// assert_eq!(Rotation::try_from(1), Ok(Rotation::Right));
/// assert!(Rotation::try_from(4).is_err());
/// assert_eq!(Rotation::Spawn.cw(), Rotation::Right);
/// assert_eq!(Rotation::Spawn.ccw(), Rotation::Left);
/// assert_eq!("l".parse::<Rotation>().unwrap().to_string(), "L");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rotation {
    /// `0`: the spawn orientation.
    #[default]
    Spawn,
    /// `R`: one quarter turn clockwise from spawn.
    Right,
    /// `2`: a half turn from spawn.
    Two,
    /// `L`: one quarter turn counter-clockwise from spawn.
    Left,
}

/// A rotation value or name that is not one of the four.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RotationError {
    input: String,
}

impl RotationError {
    /// The value or text that was refused.
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl fmt::Display for RotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid rotation '{}': expected 0 (spawn), R or 1 (clockwise), 2, or L or 3",
            self.input
        )
    }
}

impl std::error::Error for RotationError {}

impl Rotation {
    /// The four, in the order `0`, `R`, `2`, `L` (each a quarter turn clockwise from the one
    /// before).
    pub const ALL: [Rotation; 4] = [
        Rotation::Spawn,
        Rotation::Right,
        Rotation::Two,
        Rotation::Left,
    ];

    /// The number of quarter turns clockwise from spawn, 0 to 3.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// One quarter turn clockwise.
    pub const fn cw(self) -> Rotation {
        Rotation::ALL[(self as usize + 1) & 3]
    }

    /// One quarter turn counter-clockwise.
    pub const fn ccw(self) -> Rotation {
        Rotation::ALL[(self as usize + 3) & 3]
    }
}

impl From<Rotation> for u8 {
    fn from(r: Rotation) -> u8 {
        r as u8
    }
}

/// 0 to 3; 4 or more is an error.
impl TryFrom<u8> for Rotation {
    type Error = RotationError;
    fn try_from(v: u8) -> Result<Rotation, RotationError> {
        Rotation::ALL
            .get(usize::from(v))
            .copied()
            .ok_or_else(|| RotationError {
                input: v.to_string(),
            })
    }
}

/// `0`, `R`, `2` or `L`.
impl fmt::Display for Rotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(["0", "R", "2", "L"][self.index()])
    }
}

/// `0`, `R`, `2`, `L` (either case), or `1` and `3` for `R` and `L`.
impl FromStr for Rotation {
    type Err = RotationError;
    fn from_str(s: &str) -> Result<Rotation, RotationError> {
        match s {
            "0" => Ok(Rotation::Spawn),
            "R" | "r" | "1" => Ok(Rotation::Right),
            "2" => Ok(Rotation::Two),
            "L" | "l" | "3" => Ok(Rotation::Left),
            _ => Err(RotationError {
                input: s.to_string(),
            }),
        }
    }
}

/// One orientation of a piece as columns of bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    /// The piece's columns inside its tight box: bit `j` = the `dy + j`-th row of the SRS box
    /// counted from its bottom.
    pub(super) cols: [u64; 4],
    /// Lowest set bit of each column of the tight box.
    pub(super) bottom: [u8; 4],
    /// Tight box width.
    pub(super) w: u8,
    /// Tight box height.
    pub(super) h: u8,
    /// Offset of the tight box inside the SRS box, from its left column.
    pub(super) dx: u8,
    /// Offset of the tight box inside the SRS box, from its bottom row.
    pub(super) dy: u8,
}

/// SRS orientations as text rows of the SRS box, top row first, indexed by
/// `[piece][rotation]` in the order of [`Piece::ALL`] and [`Rotation::ALL`].
const SRS: [[&[&str]; 4]; 7] = [
    [
        &["....", "####", "....", "...."],
        &["..#.", "..#.", "..#.", "..#."],
        &["....", "....", "####", "...."],
        &[".#..", ".#..", ".#..", ".#.."],
    ],
    [&["##", "##"], &["##", "##"], &["##", "##"], &["##", "##"]],
    [
        &[".#.", "###", "..."],
        &[".#.", ".##", ".#."],
        &["...", "###", ".#."],
        &[".#.", "##.", ".#."],
    ],
    [
        &[".##", "##.", "..."],
        &[".#.", ".##", "..#"],
        &["...", ".##", "##."],
        &["#..", "##.", ".#."],
    ],
    [
        &["##.", ".##", "..."],
        &["..#", ".##", ".#."],
        &["...", "##.", ".##"],
        &[".#.", "##.", "#.."],
    ],
    [
        &["#..", "###", "..."],
        &[".##", ".#.", ".#."],
        &["...", "###", "..#"],
        &[".#.", ".#.", "##."],
    ],
    [
        &["..#", "###", "..."],
        &[".#.", ".#.", ".##"],
        &["...", "###", "#.."],
        &["##.", ".#.", ".#."],
    ],
];

/// The [`Shape`] of one orientation drawn as text rows, top row first.
const fn shape_of(rows: &[&str]) -> Shape {
    let n = rows.len();
    // Cells as (x, y from the box bottom).
    let mut minx = 9;
    let mut maxx = 0;
    let mut miny = 9;
    let mut maxy = 0;
    let mut r = 0;
    while r < n {
        let row = rows[r].as_bytes();
        let y = n - 1 - r;
        let mut x = 0;
        while x < row.len() {
            if row[x] == b'#' {
                if x < minx {
                    minx = x;
                }
                if x > maxx {
                    maxx = x;
                }
                if y < miny {
                    miny = y;
                }
                if y > maxy {
                    maxy = y;
                }
            }
            x += 1;
        }
        r += 1;
    }
    let mut cols = [0u64; 4];
    let mut r = 0;
    while r < n {
        let row = rows[r].as_bytes();
        let y = n - 1 - r;
        let mut x = 0;
        while x < row.len() {
            if row[x] == b'#' {
                cols[x - minx] |= 1 << (y - miny);
            }
            x += 1;
        }
        r += 1;
    }
    let mut bottom = [0u8; 4];
    let mut i = 0;
    while i < 4 {
        bottom[i] = if cols[i] == 0 {
            0
        } else {
            cols[i].trailing_zeros() as u8
        };
        i += 1;
    }
    Shape {
        cols,
        bottom,
        w: (maxx - minx + 1) as u8,
        h: (maxy - miny + 1) as u8,
        dx: minx as u8,
        dy: miny as u8,
    }
}

/// Every orientation of every piece, indexed by `[piece][rotation]`.
const SHAPES: [[Shape; 4]; 7] = {
    let mut out = [[shape_of(SRS[1][0]); 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        while r < 4 {
            out[p][r] = shape_of(SRS[p][r]);
            r += 1;
        }
        p += 1;
    }
    out
};

/// The four cells of one orientation drawn as text rows, `(x, y)` from the top-left, row by
/// row from the top.
const fn cells_of(rows: &[&str]) -> [(i32, i32); 4] {
    let mut out = [(0, 0); 4];
    let mut k = 0;
    let mut y = 0;
    while y < rows.len() {
        let row = rows[y].as_bytes();
        let mut x = 0;
        while x < row.len() {
            if row[x] == b'#' && k < 4 {
                out[k] = (x as i32, y as i32);
                k += 1;
            }
            x += 1;
        }
        y += 1;
    }
    out
}

/// [`Piece::cells`] of every piece and orientation, `[piece][rotation]`.
const CELLS: [[[(i32, i32); 4]; 4]; 7] = {
    let mut out = [[[(0, 0); 4]; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        while r < 4 {
            out[p][r] = cells_of(SRS[p][r]);
            r += 1;
        }
        p += 1;
    }
    out
};

impl Piece {
    /// All seven, in the order I O T S Z J L.
    pub const ALL: [Piece; 7] = [
        Piece::I,
        Piece::O,
        Piece::T,
        Piece::S,
        Piece::Z,
        Piece::J,
        Piece::L,
    ];

    /// The piece named by a letter (`I O T S Z J L`, either case).
    pub fn from_char(c: char) -> Option<Piece> {
        let i = "IOTSZJL".find(c.to_ascii_uppercase())?;
        Some(Piece::ALL[i])
    }

    /// Side of the SRS bounding box: 4 for I, 2 for O, else 3.
    pub const fn box_size(self) -> usize {
        match self {
            Piece::I => 4,
            Piece::O => 2,
            _ => 3,
        }
    }

    /// The bit shape of the piece in `rotation`.
    #[inline(always)]
    pub(super) const fn shape(self, rotation: Rotation) -> &'static Shape {
        &SHAPES[self as usize][rotation as usize]
    }

    /// The four cells of the piece in `rotation`, as offsets `(dx, dy)` from the top-left
    /// corner of its SRS bounding box, `dy` **downwards**; row by row from the top, left to
    /// right.
    ///
    /// ```
    /// use gridbits::games::tetris::{Piece, Rotation};
    /// // .#.
    /// // ###
    /// // ...
    /// assert_eq!(Piece::T.cells(Rotation::Spawn), [(1, 0), (0, 1), (1, 1), (2, 1)]);
    /// ```
    #[inline(always)]
    pub const fn cells(self, rotation: Rotation) -> [(i32, i32); 4] {
        CELLS[self as usize][rotation as usize]
    }

    /// The range of box positions `x` (inclusive) that keep the piece inside `width` columns.
    ///
    /// ```
    /// use gridbits::games::tetris::{Piece, Rotation};
    /// // A vertical I (R) is in the third column of its 4-wide box.
    /// assert_eq!(Piece::I.x_range(Rotation::Right, 10), (-2, 7));
    /// ```
    pub const fn x_range(self, rotation: Rotation, width: usize) -> (i32, i32) {
        let s = self.shape(rotation);
        (-(s.dx as i32), width as i32 - s.w as i32 - s.dx as i32)
    }
}

/// The piece's letter: `I O T S Z J L`.
impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&"IOTSZJL"[*self as usize..*self as usize + 1])
    }
}
