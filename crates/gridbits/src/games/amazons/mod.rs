//! Game of the Amazons: a 10x10 position, queen and king distances, territory and mobility.
//!
//! A [`Position`] holds the amazons of both sides and the arrows of a 10x10 board
//! ([`Board10x10`]); cells are `(x, y)`, `y` from the top. [`Position::evaluate`] gives the
//! queen and king territory of both sides in one call, without allocating
//! ([`Position::queen_distances`], [`Position::king_distances`], [`Position::mobility`] and
//! [`Position::territory_maps`] give the parts); [`Position::parse`] and
//! [`Position::to_text`] read and write the text form. The side to move is an argument:
//! [`Position::moves`] and [`Position::count_moves`] list and count the legal [`Move`]s of a
//! [`Side`], [`Position::play`] plays one, [`Position::perft`] counts move sequences.
//!
//! ```
//! use gridbits::games::amazons::{Move, Position, Side};
//! let p = Position::start();
//! assert_eq!(p.count_moves(Side::White), 2176);
//! let m: Move = "d1-d7/g7".parse().unwrap();
//! assert!(p.moves(Side::White).contains(&m));
//! let next = p.play(Side::White, m);
//! assert_eq!(next.perft(Side::Black, 1), next.moves(Side::Black).len() as u64);
//! ```
//!
//! For other board sizes, the same territory is
//! [`algo::voronoi::voronoi`](crate::algo::voronoi::voronoi) with
//! [`Moves::Queen`](crate::Moves::Queen) (or [`Moves::Eight`](crate::Moves::Eight));
//! [`naive::amazons`](crate::naive::amazons) is the per-cell reference on any size.
//!
//! The rules in full (the game, text form, distances and territory, move notation):
//! docs/games.md. How the search and the move generator are fast: docs/algorithms.md.

mod batch;
mod kernels;
mod movegen;
mod notation;
mod rays;

pub use batch::evaluate_many;

use crate::text::{CharGrid, ParseError};
use crate::Board10x10;
use kernels::{evaluate_raw, king, layers, territory, territory_map, Smears};
use std::fmt;

pub use movegen::{IllegalMove, IllegalReason};
pub use notation::{Move, MoveParseError};

/// Board side length.
pub const SIZE: usize = 10;

/// The two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// White, `W` in text.
    White,
    /// Black, `B` in text.
    Black,
}

/// Territory counts of one metric: every empty cell is counted exactly once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Territory {
    /// Empty cells white reaches strictly first.
    pub white: u32,
    /// Empty cells black reaches strictly first.
    pub black: u32,
    /// Empty cells both sides reach at the same distance.
    pub contested: u32,
    /// Empty cells neither side reaches.
    pub unreachable: u32,
}

/// Territory by queen distance and by king distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Evaluation {
    /// Territory by queen distance.
    pub queen: Territory,
    /// Territory by king distance.
    pub king: Territory,
}

/// Who owns each empty cell under one metric, as boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TerritoryMap {
    /// Cells white reaches strictly first.
    pub white: Board10x10,
    /// Cells black reaches strictly first.
    pub black: Board10x10,
    /// Cells both reach at the same distance.
    pub contested: Board10x10,
    /// Empty cells neither reaches.
    pub unreachable: Board10x10,
}

impl TerritoryMap {
    /// The counts.
    pub fn counts(&self) -> Territory {
        Territory {
            white: self.white.count(),
            black: self.black.count(),
            contested: self.contested.count(),
            unreachable: self.unreachable.count(),
        }
    }
}

/// The error of [`Position::try_new`]: two of the three sets share a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OverlapError {
    cells: Board10x10,
}

impl OverlapError {
    /// The cells in more than one set.
    pub fn cells(&self) -> Board10x10 {
        self.cells
    }
}

impl fmt::Display for OverlapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.cells.count();
        let s = if n == 1 { "" } else { "s" };
        write!(f, "white, black and arrows share {n} square{s}")?;
        if let Some((x, y)) = self.cells.iter().next() {
            let first = notation::square_text((x as u8, y as u8));
            write!(f, ", the first {first}")?;
        }
        Ok(())
    }
}

impl std::error::Error for OverlapError {}

/// Distances of one side to every cell, `None` where it never arrives.
///
/// The side's own amazons are at distance 0; other amazons and arrows are never reached.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SideDistances {
    cells: [u8; SIZE * SIZE],
}

impl SideDistances {
    /// The stored value of a cell that is never reached.
    pub const UNREACHED: u8 = u8::MAX;

    /// The distance of `(x, y)`, `None` if the side never reaches it (or off the board).
    pub fn get(&self, x: usize, y: usize) -> Option<u8> {
        if x >= SIZE || y >= SIZE {
            return None;
        }
        match self.cells[y * SIZE + x] {
            Self::UNREACHED => None,
            d => Some(d),
        }
    }

    /// All distances, row-major (index `y * 10 + x`), [`Self::UNREACHED`] where not reached.
    pub fn as_array(&self) -> &[u8; SIZE * SIZE] {
        &self.cells
    }

    /// The cells at exactly distance `d`.
    pub fn layer(&self, d: u8) -> Board10x10 {
        Board10x10::from_fn(|x, y| self.cells[y * SIZE + x] == d)
    }

    /// The largest finite distance (0 when only the amazons are reached, `None` when nothing is).
    pub fn max(&self) -> Option<u8> {
        self.cells
            .iter()
            .copied()
            .filter(|&d| d != Self::UNREACHED)
            .max()
    }

    fn from_layers(layers: impl Iterator<Item = u128>) -> Self {
        let mut cells = [Self::UNREACHED; SIZE * SIZE];
        for (d, layer) in layers.enumerate() {
            for (x, y) in Board10x10::from_u128(layer) {
                cells[y * SIZE + x] = d.min(254) as u8;
            }
        }
        SideDistances { cells }
    }
}

impl fmt::Debug for SideDistances {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "SideDistances")?;
        for y in 0..SIZE {
            for x in 0..SIZE {
                match self.get(x, y) {
                    Some(d) if d < 10 => write!(f, "{d}")?,
                    Some(_) => f.write_str("+")?,
                    None => f.write_str(".")?,
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// A Game of the Amazons position: amazons of both sides and arrows, on disjoint cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Position {
    white: Board10x10,
    black: Board10x10,
    arrows: Board10x10,
}

impl Position {
    /// The standard start: White on a4, d1, g1, j4, Black on a7, d10, g10, j7 (see the
    /// [module documentation](self)), no arrows.
    ///
    /// ```
    /// use gridbits::games::amazons::Position;
    /// let p = Position::start();
    /// assert!(p.white().get(0, 6) && p.white().get(3, 9));
    /// assert!(p.black().get(0, 3) && p.black().get(6, 0));
    /// assert_eq!(p.empty().count(), 92);
    /// ```
    pub fn start() -> Self {
        let at = |cells: [(usize, usize); 4]| Board10x10::from_fn(|x, y| cells.contains(&(x, y)));
        Position {
            white: at([(0, 6), (3, 9), (6, 9), (9, 6)]),
            black: at([(0, 3), (3, 0), (6, 0), (9, 3)]),
            arrows: Board10x10::EMPTY,
        }
    }

    /// A position from its three sets, or an [`OverlapError`] if two of them share a cell.
    ///
    /// ```
    /// use gridbits::games::amazons::Position;
    /// use gridbits::Board10x10;
    /// let a = Board10x10::cell(2, 5);
    /// let err = Position::try_new(a, Board10x10::EMPTY, a).unwrap_err();
    /// assert_eq!(err.cells(), a);
    /// assert_eq!(err.to_string(), "white, black and arrows share 1 square, the first c5");
    /// ```
    pub fn try_new(
        white: Board10x10,
        black: Board10x10,
        arrows: Board10x10,
    ) -> Result<Self, OverlapError> {
        let shared = (white & black) | (white & arrows) | (black & arrows);
        if !shared.is_empty() {
            return Err(OverlapError { cells: shared });
        }
        Ok(Position {
            white,
            black,
            arrows,
        })
    }

    /// A position from its three sets.
    ///
    /// # Panics
    ///
    /// If two of the sets share a cell, with the [`OverlapError`] message;
    /// [`try_new`](Self::try_new) returns it instead.
    #[track_caller]
    pub fn new(white: Board10x10, black: Board10x10, arrows: Board10x10) -> Self {
        Self::try_new(white, black, arrows).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Parses a 10x10 text position: `W` and `B` amazons (any number of each), `#` or `x`
    /// arrows, `.` empty. Errors name the line and column.
    ///
    /// ```
    /// use gridbits::games::amazons::Position;
    /// let err = Position::parse("W.\n.B\n").unwrap_err();
    /// assert_eq!(err.to_string(), "line 1, column 3: grid is 2x2, expected 10x10");
    /// ```
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        Self::parse_bytes(text.as_bytes())
    }

    /// [`Position::parse`] on raw bytes.
    pub fn parse_bytes(text: &[u8]) -> Result<Self, ParseError> {
        Self::from_char_grid(&CharGrid::parse(text)?)
    }

    /// A position from a parsed character grid (checked: 10x10, only `W B # x .`).
    pub fn from_char_grid(grid: &CharGrid) -> Result<Self, ParseError> {
        grid.check_chars(b"WB#x.")?;
        grid.check_size(SIZE, SIZE)?;
        Ok(Position {
            white: Board10x10::from_fn(|x, y| grid.get(x, y) == b'W'),
            black: Board10x10::from_fn(|x, y| grid.get(x, y) == b'B'),
            arrows: Board10x10::from_fn(|x, y| matches!(grid.get(x, y), b'#' | b'x')),
        })
    }

    /// White's amazons.
    pub fn white(&self) -> Board10x10 {
        self.white
    }

    /// Black's amazons.
    pub fn black(&self) -> Board10x10 {
        self.black
    }

    /// The arrows (burnt cells).
    pub fn arrows(&self) -> Board10x10 {
        self.arrows
    }

    /// The amazons of `side`.
    pub fn amazons(&self, side: Side) -> Board10x10 {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }

    /// The empty cells.
    pub fn empty(&self) -> Board10x10 {
        !(self.white | self.black | self.arrows)
    }

    #[inline(always)]
    fn raw(&self) -> (u128, u128, u128) {
        (
            self.white.to_u128(),
            self.black.to_u128(),
            self.empty().to_u128(),
        )
    }

    /// Territory by queen distance and by king distance, in one call, without allocating.
    ///
    /// ```
    /// use gridbits::games::amazons::Position;
    /// let p: Position = "...B..B...\n\
    ///      ..........\n\
    ///      ..........\n\
    ///      B........B\n\
    ///      ..........\n\
    ///      ..........\n\
    ///      W........W\n\
    ///      ..........\n\
    ///      ..........\n\
    ///      ...W..W...\n"
    ///     .parse()
    ///     .unwrap();
    /// assert_eq!(p, Position::start());
    /// let e = p.evaluate();
    /// // The opening is symmetric: what one side owns, the other owns too.
    /// assert_eq!(e.queen.white, e.queen.black);
    /// assert_eq!(e.queen.white + e.queen.black + e.queen.contested, 92);
    /// assert_eq!(e.king.unreachable, 0);
    /// // Text round trip.
    /// assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
    /// ```
    #[inline]
    pub fn evaluate(&self) -> Evaluation {
        let (w, b, e) = self.raw();
        let (q, k) = evaluate_raw(w, b, e);
        Evaluation {
            queen: territory(e, q),
            king: territory(e, k),
        }
    }

    /// Who owns each empty cell, by queen distance and by king distance (`[queen, king]`).
    pub fn territory_maps(&self) -> [TerritoryMap; 2] {
        let (w, b, e) = self.raw();
        let (q, k) = evaluate_raw(w, b, e);
        [territory_map(e, q), territory_map(e, k)]
    }

    /// Queen distances of both sides, `[white, black]`.
    pub fn queen_distances(&self) -> [SideDistances; 2] {
        let (w, b, e) = self.raw();
        let sm = Smears::new(e);
        [
            SideDistances::from_layers(layers(w, e, |v| sm.queen_any(v))),
            SideDistances::from_layers(layers(b, e, |v| sm.queen_any(v))),
        ]
    }

    /// King distances of both sides, `[white, black]`.
    pub fn king_distances(&self) -> [SideDistances; 2] {
        let (w, b, e) = self.raw();
        [
            SideDistances::from_layers(layers(w, e, king)),
            SideDistances::from_layers(layers(b, e, king)),
        ]
    }

    /// The empty cells one amazon standing on `(x, y)` reaches in one queen move (empty if
    /// there is no amazon there).
    pub fn moves_from(&self, x: usize, y: usize) -> Board10x10 {
        if x >= SIZE || y >= SIZE || !(self.white | self.black).get(x, y) {
            return Board10x10::EMPTY;
        }
        let (_, _, e) = self.raw();
        let a = Board10x10::cell(x, y).to_u128();
        Board10x10::from_u128(Smears::new(e).queen_any(a) & e)
    }

    /// Mobility: each amazon of `side` (lowest cell first) with its number of queen moves.
    pub fn mobility(&self, side: Side) -> impl Iterator<Item = ((usize, usize), u32)> + '_ {
        let (_, _, e) = self.raw();
        let sm = Smears::new(e);
        self.amazons(side).iter().map(move |(x, y)| {
            let a = Board10x10::cell(x, y).to_u128();
            ((x, y), (sm.queen_any(a) & e).count_ones())
        })
    }

    /// The total number of queen moves of `side`'s amazons.
    pub fn total_mobility(&self, side: Side) -> u32 {
        self.mobility(side).map(|(_, n)| n).sum()
    }

    /// The text form: `W`, `B`, `#` and `.`, one line per row.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(SIZE * (SIZE + 1));
        for y in 0..SIZE {
            for x in 0..SIZE {
                s.push(self.char_at(x, y));
            }
            s.push('\n');
        }
        s
    }

    /// The character of `(x, y)` in [`Position::to_text`].
    pub fn char_at(&self, x: usize, y: usize) -> char {
        if self.white.get(x, y) {
            'W'
        } else if self.black.get(x, y) {
            'B'
        } else if self.arrows.get(x, y) {
            '#'
        } else {
            '.'
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Position")?;
        f.write_str(&self.to_text())
    }
}

impl std::str::FromStr for Position {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        Self::parse(s)
    }
}
