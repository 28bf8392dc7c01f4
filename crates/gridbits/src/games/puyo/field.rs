//! The field: cells, text form, pair placement and the entry points of a chain.

use super::error::{CellError, PlaceError};
use super::rules::Rules;
use super::{COLORS, COLUMNS, GARBAGE, LANE};
use crate::text::{CharGrid, ParseError};
use std::fmt;
use std::str::FromStr;

/// A cell of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Empty.
    Empty,
    /// A colour, 0 to 4.
    Color(u8),
    /// Garbage (skull or ojama).
    Garbage,
}

/// A Puyo field of 6 columns and 12 or 13 rows under one rule set; cells are `(x, y)`, `y`
/// from the top. The rules in full: docs/games.md.
///
/// ```
/// use gridbits::games::puyo::{Cell, Field, Rules};
/// let mut field = Field::new(Rules::Tsu);
/// field.set(0, 12, Cell::Color(0)); // the bottom row
/// field.place_pair(0, 0, 0, 1).unwrap(); // two more on top of it
/// field.place_pair(0, 2, 1, 0).unwrap(); // one next to them, one in column 2
/// let chain = field.simulate();
/// assert_eq!((chain.chain, chain.score), (1, 40));
/// assert_eq!(chain.field.to_text().lines().last(), Some("..B..."));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C, align(16))]
pub struct Field {
    /// The colour planes, then the garbage plane (index 5).
    pub(super) planes: [u128; COLORS + 1],
    pub(super) rules: Rules,
}

#[inline(always)]
const fn bit(x: usize, y: usize) -> u128 {
    1u128 << (LANE as usize * x + y)
}

impl Field {
    /// An empty field.
    pub const fn new(rules: Rules) -> Self {
        Field {
            planes: [0; COLORS + 1],
            rules,
        }
    }

    /// The rule set.
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// Number of rows stored (12 or 13).
    pub const fn rows(&self) -> usize {
        self.rules.rows()
    }

    /// Parses a field, top row first (the text form of Puyo in docs/games.md). Tsu also
    /// accepts 12 lines: they are rows 1 to 12 and the ghost row 0 is empty. Errors name
    /// the line and column. [`parse_bottom`](Self::parse_bottom) also takes fewer lines.
    ///
    /// To pick the rule set from the characters instead, use [`str::parse`] (the
    /// [`FromStr`] impl).
    pub fn parse(text: &str, rules: Rules) -> Result<Self, ParseError> {
        Self::from_char_grid(&CharGrid::parse(text.as_bytes())?, rules)
    }

    /// A field from a parsed character grid, as [`parse`](Self::parse).
    pub fn from_char_grid(grid: &CharGrid, rules: Rules) -> Result<Self, ParseError> {
        let lines = if rules == Rules::Tsu && grid.height() == 12 {
            12
        } else {
            rules.rows()
        };
        grid.check_size(COLUMNS, lines)?;
        Self::bottom_rows(grid, rules)
    }

    /// Parses the bottom rows of a field, top row first: text of fewer lines than the field
    /// has rows is its bottom rows, the rows above empty (a text of only blank lines is the
    /// empty field). More lines than the field's rows (13 under Tsu, 12 under Smash the
    /// Code) are an error naming the count. Errors name the line and column of the text as
    /// given. [`parse`](Self::parse) takes whole fields only.
    ///
    /// ```
    /// use gridbits::games::puyo::{Cell, Field, Rules};
    /// let f = Field::parse_bottom("R.....\nRRR...\n", Rules::Tsu).unwrap();
    /// assert_eq!(f.get(0, 12), Cell::Color(0)); // the bottom row
    /// assert_eq!(f.get(0, 11), Cell::Color(0));
    /// assert_eq!(f.get(0, 10), Cell::Empty);
    /// let tall = "......\n".repeat(14);
    /// let e = Field::parse_bottom(&tall, Rules::Tsu).unwrap_err();
    /// assert_eq!(e.to_string(), "line 14, column 1: grid is 6x14, expected 6x13");
    /// ```
    pub fn parse_bottom(text: &str, rules: Rules) -> Result<Self, ParseError> {
        let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
        if text.as_bytes().iter().all(blank) {
            return Ok(Field::new(rules));
        }
        Self::from_char_grid_bottom(&CharGrid::parse(text.as_bytes())?, rules)
    }

    /// The bottom rows of a field from a parsed character grid, as
    /// [`parse_bottom`](Self::parse_bottom).
    pub fn from_char_grid_bottom(grid: &CharGrid, rules: Rules) -> Result<Self, ParseError> {
        grid.check_size(COLUMNS, grid.height().min(rules.rows()))?;
        Self::bottom_rows(grid, rules)
    }

    /// A field whose bottom rows are `grid` (at most the field's rows, 6 wide: checked by
    /// the callers), the rows above empty.
    fn bottom_rows(grid: &CharGrid, rules: Rules) -> Result<Self, ParseError> {
        let lines = grid.height();
        let mut allowed = vec![b'.', rules.garbage_char()];
        allowed.extend_from_slice(rules.color_chars());
        grid.check_chars(&allowed)?;
        // The text's first line is this many rows below the top.
        let first = rules.rows() - lines;
        let mut f = Field::new(rules);
        for line in 0..lines {
            for x in 0..COLUMNS {
                let c = grid.get(x, line);
                let r = f.lane_row(first + line);
                if c == rules.garbage_char() {
                    f.planes[GARBAGE] |= bit(x, r);
                } else if let Some(i) = rules.color_chars().iter().position(|&k| k == c) {
                    f.planes[i] |= bit(x, r);
                }
            }
        }
        Ok(f)
    }

    /// The text form, top row first (the rule set's characters, `.` empty), one `\n` after
    /// each row. The same as [`Display`](fmt::Display).
    pub fn to_text(&self) -> String {
        self.to_string()
    }

    /// The text character of `(x, y)`, `y` from the top: the character at column `x` of line
    /// `y` of [`to_text`](Self::to_text). `.` off the field.
    pub fn char_at(&self, x: usize, y: usize) -> u8 {
        match self.get(x, y) {
            Cell::Empty => b'.',
            Cell::Garbage => self.rules.garbage_char(),
            Cell::Color(c) => self.rules.color_chars()[c as usize],
        }
    }

    /// The row of the planes' lanes (from the floor) of row `y` (from the top).
    #[inline(always)]
    const fn lane_row(&self, y: usize) -> usize {
        self.rows() - 1 - y
    }

    /// The cell at `(x, y)`, `y` from the top; [`Cell::Empty`] off the field.
    ///
    /// ```
    /// use gridbits::games::puyo::{Cell, Field, Rules};
    /// let text = format!("{}1.....\n", "......\n".repeat(11));
    /// let field = Field::parse(&text, Rules::SmashTheCode).unwrap();
    /// assert_eq!(field.get(0, 11), Cell::Color(0)); // the bottom row
    /// assert_eq!(field.get(0, 0), Cell::Empty);
    /// ```
    pub fn get(&self, x: usize, y: usize) -> Cell {
        if x >= COLUMNS || y >= self.rows() {
            return Cell::Empty;
        }
        let b = bit(x, self.lane_row(y));
        if self.planes[GARBAGE] & b != 0 {
            return Cell::Garbage;
        }
        for c in 0..COLORS {
            if self.planes[c] & b != 0 {
                return Cell::Color(c as u8);
            }
        }
        Cell::Empty
    }

    /// Sets `(x, y)`, `y` from the top. Nothing falls: call [`settle`](Self::settle) after
    /// building a field with holes.
    ///
    /// # Panics
    ///
    /// When `(x, y)` is off the field or the cell is a colour of 5 or more; see
    /// [`try_set`](Self::try_set).
    pub fn set(&mut self, x: usize, y: usize, cell: Cell) {
        if let Err(e) = self.try_set(x, y, cell) {
            panic!("{e}");
        }
    }

    /// Sets `(x, y)`, `y` from the top, or says why not (the field is then unchanged).
    pub fn try_set(&mut self, x: usize, y: usize, cell: Cell) -> Result<(), CellError> {
        let rows = self.rows();
        if x >= COLUMNS || y >= rows {
            return Err(CellError::OffField { x, y, rows });
        }
        if let Cell::Color(c) = cell {
            if c as usize >= COLORS {
                return Err(CellError::BadColor(c));
            }
        }
        let b = bit(x, self.lane_row(y));
        for p in &mut self.planes {
            *p &= !b;
        }
        match cell {
            Cell::Empty => {}
            Cell::Garbage => self.planes[GARBAGE] |= b,
            Cell::Color(c) => self.planes[c as usize] |= b,
        }
        Ok(())
    }

    /// The raw plane of colour `c`. Raw layout (every plane accessor): column-major 16-bit
    /// lanes counted from the floor, so cell `(x, y)` (`y` from the top) is bit
    /// `16 * x + (rows - 1 - y)`; bits outside the field are zero.
    ///
    /// # Panics
    ///
    /// When `c` is 5 or more.
    pub const fn color_plane(&self, c: usize) -> u128 {
        assert!(c < COLORS, "colour index must be 0 to 4");
        self.planes[c]
    }

    /// The raw garbage plane (layout as [`color_plane`](Self::color_plane)).
    pub const fn garbage_plane(&self) -> u128 {
        self.planes[GARBAGE]
    }

    /// Every occupied cell, as a raw plane (layout as [`color_plane`](Self::color_plane)).
    pub const fn occupied(&self) -> u128 {
        let p = &self.planes;
        p[0] | p[1] | p[2] | p[3] | p[4] | p[5]
    }

    /// Number of occupied cells.
    pub const fn count(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// The height of column `x`: the number of rows from the floor up to and including its
    /// highest occupied cell (0 for an empty column). A block dropped into the column lands
    /// on row `rows - 1 - height` (from the top).
    ///
    /// # Panics
    ///
    /// When `x` is 6 or more.
    pub const fn column_height(&self, x: usize) -> usize {
        assert!(x < COLUMNS, "column must be 0 to 5");
        let lane = (self.occupied() >> (LANE as usize * x)) as u16;
        (16 - lane.leading_zeros()) as usize
    }

    /// Drops the pair (`a`, `b`) (colour indices 0 to 4) at column `x` with rotation 0 to 3:
    /// 0 = `a` at `x`, `b` at `x + 1`; 1 = `b` on top of `a` in column `x`; 2 = `a` at `x`,
    /// `b` at `x - 1`; 3 = `a` on top of `b`. Each block falls onto the highest occupied cell
    /// of its column. An illegal placement (see [`PlaceError`]) leaves the field unchanged.
    ///
    /// ```
    /// use gridbits::games::puyo::{Cell, Field, PlaceError, Rules};
    /// let mut field = Field::new(Rules::SmashTheCode);
    /// field.place_pair(0, 1, 2, 1).unwrap(); // b on top of a in column 2
    /// assert_eq!(field.get(2, 11), Cell::Color(0));
    /// assert_eq!(field.get(2, 10), Cell::Color(1));
    /// assert_eq!(field.place_pair(0, 1, 5, 0), Err(PlaceError::OffField { x: 5, rotation: 0 }));
    /// ```
    pub fn place_pair(&mut self, a: u8, b: u8, x: usize, rotation: u8) -> Result<(), PlaceError> {
        for c in [a, b] {
            if c as usize >= COLORS {
                return Err(PlaceError::BadColor(c));
            }
        }
        let rows = self.rows();
        let (xa, xb) = match rotation {
            0 => (x, x.wrapping_add(1)),
            1 | 3 => (x, x),
            2 => (x, x.wrapping_sub(1)),
            _ => return Err(PlaceError::BadRotation(rotation)),
        };
        if xa >= COLUMNS || xb >= COLUMNS {
            return Err(PlaceError::OffField { x, rotation });
        }
        if xa == xb {
            let top = self.column_height(x);
            if top + 2 > rows {
                return Err(PlaceError::ColumnFull { x });
            }
            let (lower, upper) = if rotation == 1 { (a, b) } else { (b, a) };
            self.planes[lower as usize] |= bit(x, top);
            self.planes[upper as usize] |= bit(x, top + 1);
        } else {
            let (ta, tb) = (self.column_height(xa), self.column_height(xb));
            if ta >= rows {
                return Err(PlaceError::ColumnFull { x: xa });
            }
            if tb >= rows {
                return Err(PlaceError::ColumnFull { x: xb });
            }
            self.planes[a as usize] |= bit(xa, ta);
            self.planes[b as usize] |= bit(xb, tb);
        }
        Ok(())
    }
}

impl fmt::Display for Field {
    /// The text form: see [`to_text`](Field::to_text).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = [0u8; COLUMNS + 1];
        line[COLUMNS] = b'\n';
        for y in 0..self.rows() {
            for (x, c) in line[..COLUMNS].iter_mut().enumerate() {
                *c = self.char_at(x, y);
            }
            // The characters are ASCII.
            f.write_str(std::str::from_utf8(&line).map_err(|_| fmt::Error)?)?;
        }
        Ok(())
    }
}

/// Parses the text form (Puyo in docs/games.md), picking the rule set from the characters:
/// any of `0`-`5` is Smash the Code, any of `R G B Y P O` is Tsu (a mix of both is an error
/// at the first character of the other set). A field of only `.` is Tsu when it has 13
/// lines and Smash the Code otherwise (so a 12-line empty field is Smash the Code).
///
/// ```
/// use gridbits::games::puyo::{Field, Rules};
/// let text = format!("{}RRRB..\n", "......\n".repeat(12));
/// let field: Field = text.parse().unwrap();
/// assert_eq!(field.rules(), Rules::Tsu);
/// assert_eq!(field.to_string(), text);
/// ```
impl Rules {
    /// The rule set a text field is written for: the first character that only one rule set
    /// uses decides (`0`-`5` Smash the Code, `R G B Y P O` Puyo Puyo Tsu); a field of only
    /// `.` is Tsu when it has 13 rows and Smash the Code otherwise.
    ///
    /// ```
    /// use gridbits::games::puyo::Rules;
    /// use gridbits::CharGrid;
    /// let grid = CharGrid::parse(b"......\n..RG..\n").unwrap();
    /// assert_eq!(Rules::detect(&grid), Rules::Tsu);
    /// ```
    pub fn detect(grid: &CharGrid) -> Rules {
        for y in 0..grid.height() {
            for &c in grid.row(y) {
                if c == b'.' {
                    continue;
                }
                if Rules::SmashTheCode.has_char(c) {
                    return Rules::SmashTheCode;
                }
                if Rules::Tsu.has_char(c) {
                    return Rules::Tsu;
                }
            }
        }
        if grid.height() == Rules::Tsu.rows() {
            Rules::Tsu
        } else {
            Rules::SmashTheCode
        }
    }
}

impl FromStr for Field {
    type Err = ParseError;

    /// Parses a field, its rule set found by [`Rules::detect`]; a character of the other rule
    /// set is then an error naming its line and column.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        let grid = CharGrid::parse(text.as_bytes())?;
        Self::from_char_grid(&grid, Rules::detect(&grid))
    }
}

impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Field ({:?})", self.rules)?;
        f.write_str(&self.to_text())
    }
}
