//! Game of the Amazons: a 10x10 position, queen and king distances, territory and mobility.
//!
//! # The game
//!
//! Two players, White and Black, each have four *amazons* on a 10x10 board. The standard
//! start (chess notation, files `a`-`j` from the left, ranks `1`-`10` from the bottom, White
//! at the bottom) is White on a4, d1, g1, j4 and Black on a7, d10, g10, j7: in this crate's
//! coordinates, `(x, y)` with `x` the column from the left and `y` the row from the top,
//! White on (0, 6), (3, 9), (6, 9), (9, 6) and Black on (0, 3), (3, 0), (6, 0), (9, 3)
//! ([`Position::start`]). White moves first. A turn is two queen moves: an amazon moves like
//! a chess queen (any number of cells along a row, column or diagonal) through empty cells,
//! then shoots an *arrow* from where it landed, again like a queen, onto an empty cell. Arrows
//! stay for the rest of the game; amazons of both sides and arrows block moves and shots. A
//! player who cannot move loses.
//!
//! # Text format
//!
//! Ten lines of ten characters, the top line first (rank 10): `W` a white amazon, `B` a
//! black amazon, `#` an arrow (`x` is accepted as an arrow too when parsing), `.` an empty
//! cell. [`Position::parse`] (or [`str::parse`]) reads it, with line and column in its
//! errors; [`Position::to_text`] (or `Display`) writes it, with `#` for arrows.
//!
//! # Distances and territory
//!
//! - The *queen distance* of an empty cell for a side is the fewest queen moves any of its
//!   amazons needs to reach it through empty cells ([`Position::queen_distances`]); the
//!   *king distance* the same with one-step moves in the 8 directions
//!   ([`Position::king_distances`]). A side's own amazons are at distance 0; the other
//!   amazons and the arrows are never reached.
//! - *Territory*, the min-distance heuristic, gives each empty cell to the side with the
//!   strictly smaller distance; equal finite distances make the cell *contested*; a cell
//!   neither side reaches is *unreachable*. Every empty cell is counted once
//!   ([`Territory`], [`Position::evaluate`], [`Position::territory_maps`]).
//! - Distances are measured on the position as it stands: only amazons and arrows block. A
//!   ray slides through empty cells the other side already claimed (claims are not
//!   obstacles), so a cell behind the opponent's territory can still be at a small distance.
//! - *Mobility* is the number of queen moves an amazon has ([`Position::mobility`]).
//!
//! [`Position::evaluate`] computes both territories in one call, with no allocation.
//!
//! # Board kinds
//!
//! The game is played on 10x10, so positions are [`Board10x10`]s and the engine below is
//! written for their 128-bit layout. For other sizes, or a [`BitGrid`](crate::BitGrid), the
//! same territory is [`algo::voronoi::voronoi`](crate::algo::voronoi::voronoi) with the two sides'
//! amazons as sources, the empty cells as passable and [`Moves::Queen`](crate::Moves::Queen)
//! (or [`Moves::Eight`](crate::Moves::Eight) for king distance): its contested and unreached
//! empty cells are this module's contested and unreachable cells. The per-cell reference,
//! [`naive::amazons`](crate::naive::amazons), works on any size.
//!
//! ```
//! use gridbits::games::amazons::Position;
//! let p: Position = "...B..B...\n\
//!      ..........\n\
//!      ..........\n\
//!      B........B\n\
//!      ..........\n\
//!      ..........\n\
//!      W........W\n\
//!      ..........\n\
//!      ..........\n\
//!      ...W..W...\n"
//!     .parse()
//!     .unwrap();
//! assert_eq!(p, Position::start());
//! let e = p.evaluate();
//! // The opening is symmetric: what one side owns, the other owns too.
//! assert_eq!(e.queen.white, e.queen.black);
//! assert_eq!(e.queen.white + e.queen.black + e.queen.contested, 92);
//! assert_eq!(e.king.unreachable, 0);
//! // Text round trip.
//! assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
//! ```
//!
//! # Moves
//!
//! A [`Move`] is `from`, `to`, `arrow` as `(x, y)` cells; its text form is algebraic,
//! `d1-d7/g7`, with files `a`-`j` from the left and ranks `1`-`10` from the bottom (a1 is the
//! bottom-left cell, `(0, 9)`). The side to move is an argument, not part of a position:
//! [`Position::moves`] and [`Position::for_each_move`] list the legal moves of a side,
//! [`Position::count_moves`] counts them without listing, [`Position::try_play`] (checked) and
//! [`Position::play`] return the next position, and [`Position::perft`] counts the move
//! sequences of a given length, the last ply counted, not listed.
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
//! Move generation works on the same u128 layout: the queen reach of one cell is 8 table rays,
//! each cut at its first blocker (the lowest set bit of `ray & occupied` for the 4 directions of
//! increasing bit index, the highest for the others) with the blocker's own ray. The count of
//! one amazon on `f` adds, over its targets `t`, the arrow reach of `t` with `f` vacated, which
//! is the reach of `t` with `f` still standing, plus `f`, plus `f`'s own ray beyond `f` away
//! from `t`: so the count is the ray lengths of `f` multiplied pairwise (opposite directions),
//! plus the number of targets, plus the summed mobility of all the targets. That sum is taken
//! for all the amazons at once: how many of them reach each cell is kept in bit planes, and in
//! each direction the cells with at least `k` empty cells in a row (`k` = 1..9, each the
//! previous set and the empty cells shifted back `k` steps, a constant shift) are intersected
//! with the planes and popcounted, with no data-dependent branch. No target's reach is
//! computed at all. On x86-64 the move generator runs in a copy compiled for POPCNT, BMI and
//! LZCNT when the CPU has them (detected at run time; [`MoveEngine`] selects the portable copy).
//!
//! # How it is fast
//!
//! Each metric is one breadth-first search per side, run in lockstep, on the u128 layout of
//! [`Board10x10`] (stride 11, so a guard bit ends every row and no shift wraps). A queen
//! layer is the queen reach of *every* cell visited so far (not only the last layer: a ray
//! slides through every empty cell, including cells already visited or claimed by the other
//! side). East is the subtraction `o ^ (o - 2v)`; the seven other directions are Kogge-Stone
//! fills with jumps of 1, 2, 4 and 2 cells whose propagators (the empty cells, and the cells
//! with 2 and 4 empty cells in a row behind them) are computed once per position and shared by
//! both sides and every layer; a position without 8 (or 4, or 2) empty cells in a row in any
//! direction skips the jumps it cannot use. The search stops as soon as no cell is claimed for the first
//! time: the king search first, whose final set of claimed cells (every cell either side can
//! reach at all) then tells the queen search when it is done without an extra empty layer.

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

pub use movegen::{IllegalMove, IllegalReason, MoveEngine};
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
