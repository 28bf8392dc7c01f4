//! Tetris: a matrix of `W` columns (10 by default, up to 64) and a height up to 64 (40 by
//! default), the seven tetrominoes in SRS orientations, collision, hard drop, placement,
//! line clears and the usual evaluation features, all as word operations.
//!
//! **Layout: one u64 per column** ([`ColumnBoard`]), chosen by measurement over seed 002's
//! row chunks ([`RowChunks`](crate::algo::lines::RowChunks)); see `gridbits bench --filter
//! tetris`. With columns a piece touches at most 4 words and never straddles a chunk
//! boundary, the hard-drop distance is one leading-zero count per piece column (the highest
//! filled cell below the piece), full rows are the AND of the columns (10 ANDs for all 40
//! rows), and a clear is one `pext` per column. Row chunks need the piece's rows shifted into
//! up to two chunks per test and a row-by-row search for the landing row. On this machine a
//! place + drop + clear takes a few nanoseconds in columns (bench row
//! `tetris place+drop+clear 10x40`).
//!
//! Rows are counted from the floor (`y = 0` is the bottom row); [`Tetris::to_text`] prints
//! the top row first. A placement is `(piece, rotation, x, y)`: `(x, y)` is the lower-left
//! corner of the piece's SRS bounding box (4 x 4 for I, 3 x 3 for T S Z J L, 2 x 2 for O),
//! rotation 0 = spawn, 1 = R (clockwise), 2, 3 = L.
//!
//! ```
//! use gridbits::games::tetris::{Piece, Tetris};
//! let mut t = Tetris::<10>::new(40);
//! // Four I pieces lying flat fill columns 0..8 of rows 0 and 1... almost.
//! for x in [0, 4] {
//!     t.drop_and_place(Piece::I, 0, x).unwrap();
//!     t.drop_and_place(Piece::I, 0, x).unwrap();
//! }
//! // An O in columns 8-9 completes both rows.
//! assert_eq!(t.drop_and_place(Piece::O, 0, 8), Some(2));
//! assert_eq!(t.count(), 0);
//! ```

use crate::algo::lines::ColumnBoard;
use crate::GridView;
use std::fmt;

/// The seven tetrominoes.
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

/// One orientation of a piece as columns of bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    /// The piece's columns inside its tight box: bit `j` = row `dy + j` of the SRS box.
    cols: [u64; 4],
    /// Lowest set bit of each column of the tight box.
    bottom: [u8; 4],
    /// Tight box size.
    w: u8,
    h: u8,
    /// Offset of the tight box inside the SRS box.
    dx: u8,
    dy: u8,
}

/// SRS orientations as text rows (top row first) of the SRS box.
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

    #[inline(always)]
    const fn shape(self, rotation: u8) -> &'static Shape {
        &SHAPES[self as usize][(rotation & 3) as usize]
    }

    /// The four cells of the piece in `rotation` (0-3), relative to the lower-left corner of
    /// its SRS box, `y` up.
    pub fn cells(self, rotation: u8) -> [(i32, i32); 4] {
        let rows = SRS[self as usize][(rotation & 3) as usize];
        let n = rows.len();
        let mut out = [(0, 0); 4];
        let mut k = 0;
        for (r, row) in rows.iter().enumerate() {
            for (x, b) in row.bytes().enumerate() {
                if b == b'#' {
                    out[k] = (x as i32, (n - 1 - r) as i32);
                    k += 1;
                }
            }
        }
        out
    }

    /// The range of box positions `x` (inclusive) that keep the piece inside `width` columns.
    pub const fn x_range(self, rotation: u8, width: usize) -> (i32, i32) {
        let s = self.shape(rotation);
        (-(s.dx as i32), width as i32 - s.w as i32 - s.dx as i32)
    }
}

/// A Tetris matrix of `W` columns in the column layout. See the [module documentation](self).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tetris<const W: usize = 10> {
    board: ColumnBoard<W>,
}

impl<const W: usize> Tetris<W> {
    /// An empty matrix of `height` rows (1 to 64). Panics on other heights.
    pub const fn new(height: usize) -> Self {
        assert!(W >= 1 && W <= 64, "width must be 1 to 64");
        Tetris {
            board: ColumnBoard::new(height),
        }
    }

    /// A matrix from a column board.
    pub const fn from_board(board: ColumnBoard<W>) -> Self {
        Tetris { board }
    }

    /// The underlying column board.
    pub const fn board(&self) -> &ColumnBoard<W> {
        &self.board
    }

    /// Mutable access to the column board.
    pub fn board_mut(&mut self) -> &mut ColumnBoard<W> {
        &mut self.board
    }

    /// Number of rows.
    pub const fn height(&self) -> usize {
        self.board.height()
    }

    /// Column `x` as bits (bit `y` = row `y`).
    #[inline(always)]
    pub fn column(&self, x: usize) -> u64 {
        self.board.column(x)
    }

    /// Whether `(x, y)` is filled.
    pub fn get(&self, x: usize, y: usize) -> bool {
        self.board.get(x, y)
    }

    /// Number of filled cells.
    pub fn count(&self) -> u64 {
        self.board.count()
    }

    /// Whether the piece fits at `(x, y)`: inside the matrix and on no filled cell.
    #[inline]
    pub fn fits(&self, piece: Piece, rotation: u8, x: i32, y: i32) -> bool {
        let s = piece.shape(rotation);
        let (cx, cy) = (x + s.dx as i32, y + s.dy as i32);
        if cx < 0 || cy < 0 || cx + s.w as i32 > W as i32 || cy + s.h as i32 > self.height() as i32
        {
            return false;
        }
        let cols = self.board.columns();
        let mut hit = 0;
        for k in 0..s.w as usize {
            hit |= cols[cx as usize + k] & (s.cols[k] << cy);
        }
        hit == 0
    }

    /// How far a fitting piece falls from `(x, y)` before it would hit a cell or the floor:
    /// per piece column, the highest filled cell below the piece's lowest cell, found with
    /// one leading-zero count. `None` when the piece does not fit at `(x, y)`.
    #[inline]
    pub fn drop_distance(&self, piece: Piece, rotation: u8, x: i32, y: i32) -> Option<i32> {
        if !self.fits(piece, rotation, x, y) {
            return None;
        }
        let s = piece.shape(rotation);
        let (cx, cy) = ((x + s.dx as i32) as usize, (y + s.dy as i32) as u32);
        let cols = self.board.columns();
        let mut d = i32::MAX;
        for k in 0..s.w as usize {
            let b = cy + u32::from(s.bottom[k]);
            let below = cols[cx + k] & ((1u64 << b) - 1);
            let top = 64 - below.leading_zeros(); // rows 0..top are at or under a cell
            d = d.min((b - top) as i32);
        }
        Some(d)
    }

    /// The `y` a piece at `(x, y)` lands on after a hard drop, or `None` if it does not fit
    /// at `(x, y)`.
    #[inline]
    pub fn hard_drop(&self, piece: Piece, rotation: u8, x: i32, y: i32) -> Option<i32> {
        Some(y - self.drop_distance(piece, rotation, x, y)?)
    }

    /// Fills the piece's cells at `(x, y)` and clears the full rows; returns the number of
    /// rows cleared, or `None` (matrix unchanged) when the piece does not fit there.
    #[inline]
    pub fn place(&mut self, piece: Piece, rotation: u8, x: i32, y: i32) -> Option<u32> {
        if !self.fits(piece, rotation, x, y) {
            return None;
        }
        let s = piece.shape(rotation);
        let (cx, cy) = ((x + s.dx as i32) as usize, (y + s.dy as i32) as u32);
        let cols = self.board.columns_mut();
        for k in 0..s.w as usize {
            cols[cx + k] |= s.cols[k] << cy;
        }
        Some(self.board.clear_full_lines())
    }

    /// The landing `y` of a piece dropped from above the stack in column `x`: the highest of
    /// the column heights under the piece, less each column's bottom offset. `None` when the
    /// piece leaves the matrix sideways or lands too high to fit.
    #[inline]
    pub fn drop_from_top(&self, piece: Piece, rotation: u8, x: i32) -> Option<i32> {
        let s = piece.shape(rotation);
        let cx = x + s.dx as i32;
        if cx < 0 || cx + s.w as i32 > W as i32 {
            return None;
        }
        let cols = self.board.columns();
        let mut land = 0i32;
        for k in 0..s.w as usize {
            let h = 64 - cols[cx as usize + k].leading_zeros() as i32;
            land = land.max(h - i32::from(s.bottom[k]));
        }
        if land + s.h as i32 > self.height() as i32 {
            return None;
        }
        Some(land - s.dy as i32)
    }

    /// Drops the piece from above the stack at box column `x`, places it and clears lines.
    /// Returns the rows cleared, or `None` (unchanged) when it does not fit.
    #[inline]
    pub fn drop_and_place(&mut self, piece: Piece, rotation: u8, x: i32) -> Option<u32> {
        let y = self.drop_from_top(piece, rotation, x)?;
        let s = piece.shape(rotation);
        let (cx, cy) = ((x + s.dx as i32) as usize, (y + s.dy as i32) as u32);
        let cols = self.board.columns_mut();
        for k in 0..s.w as usize {
            cols[cx + k] |= s.cols[k] << cy;
        }
        Some(self.board.clear_full_lines())
    }

    /// Clears every full row; returns how many.
    pub fn clear_lines(&mut self) -> u32 {
        self.board.clear_full_lines()
    }

    /// Height of each column: the row above its highest filled cell.
    pub fn heights(&self) -> [u32; W] {
        let mut h = [0; W];
        for (o, c) in h.iter_mut().zip(self.board.columns()) {
            *o = 64 - c.leading_zeros();
        }
        h
    }

    /// The highest column height.
    pub fn max_height(&self) -> u32 {
        64 - self
            .board
            .columns()
            .iter()
            .fold(0, |a, c| a | c)
            .leading_zeros()
    }

    /// Holes: empty cells below their column's highest filled cell.
    pub fn holes(&self) -> u32 {
        self.board
            .columns()
            .iter()
            .map(|c| (64 - c.leading_zeros()) - c.count_ones())
            .sum()
    }

    /// Row transitions: over every row of the matrix, the number of horizontally adjacent
    /// pairs of cells that differ, the walls left and right counting as filled.
    pub fn row_transitions(&self) -> u32 {
        let cols = self.board.columns();
        let m = self.board.height_mask();
        let mut t = (!cols[0] & m).count_ones() + (!cols[W - 1] & m).count_ones();
        for x in 1..W {
            t += ((cols[x - 1] ^ cols[x]) & m).count_ones();
        }
        t
    }

    /// Column transitions: over every column, the number of vertically adjacent pairs of
    /// cells that differ, the floor counting as filled (the space above the top is not
    /// counted).
    pub fn column_transitions(&self) -> u32 {
        let m = self.board.height_mask();
        self.board
            .columns()
            .iter()
            .map(|&c| ((c ^ (c << 1 | 1)) & m).count_ones())
            .sum()
    }

    /// Bumpiness: the sum of the absolute differences of adjacent column heights.
    pub fn bumpiness(&self) -> u32 {
        let h = self.heights();
        h.windows(2).map(|p| p[0].abs_diff(p[1])).sum()
    }

    /// The text form: top row first, `#` filled, `.` empty.
    pub fn to_text(&self) -> String {
        self.board.to_text()
    }
}

impl<const W: usize> GridView for Tetris<W> {
    fn width(&self) -> usize {
        W
    }
    fn height(&self) -> usize {
        self.board.height()
    }
    fn get(&self, x: usize, y: usize) -> bool {
        GridView::get(&self.board, x, y)
    }
    fn count(&self) -> u64 {
        self.board.count()
    }
}

impl<const W: usize> fmt::Debug for Tetris<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Tetris<{W}> height {}", self.height())?;
        f.write_str(&self.to_text())
    }
}
