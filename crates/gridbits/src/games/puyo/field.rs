//! The field: cells, text form, pair placement and the entry points of a chain.

use super::chain::{Chain, Step};
use super::engine::Engine;
use super::kernel::{gravity_portable, Kernel};
use super::rules::Rules;
use super::{COLORS, COLUMNS, GARBAGE, LANE};
use crate::text::{CharGrid, ParseError};
use std::fmt;

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

/// An illegal pair placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceError {
    /// Rotation other than 0 to 3.
    BadRotation,
    /// A block would leave the field sideways.
    OffField,
    /// A block lands in a full column.
    ColumnFull,
    /// A colour index of 5 or more.
    BadColor,
}

impl fmt::Display for PlaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlaceError::BadRotation => "rotation must be 0 to 3",
            PlaceError::OffField => "the pair would leave the field",
            PlaceError::ColumnFull => "the pair lands in a full column",
            PlaceError::BadColor => "colour must be 0 to 4",
        })
    }
}

impl std::error::Error for PlaceError {}

/// A Puyo field: five colour planes and a garbage plane. See the [module documentation](self).
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

    /// Parses a field, top row first. Smash the Code: 6 x 12 of `.` `0`-`5`. Tsu: 6 x 13
    /// (or 6 x 12, the ghost row then empty) of `.` `R G B Y P` `O`.
    pub fn parse(text: &str, rules: Rules) -> Result<Self, ParseError> {
        Self::from_char_grid(&CharGrid::parse(text.as_bytes())?, rules)
    }

    /// A field from a parsed character grid; errors name the line and column.
    pub fn from_char_grid(grid: &CharGrid, rules: Rules) -> Result<Self, ParseError> {
        let rows = if rules == Rules::Tsu && grid.height() == 12 {
            12
        } else {
            rules.rows()
        };
        grid.check_size(COLUMNS, rows)?;
        let mut allowed = vec![b'.', rules.garbage_char()];
        allowed.extend_from_slice(rules.color_chars());
        grid.check_chars(&allowed)?;
        let mut f = Field::new(rules);
        for row in 0..rows {
            for x in 0..COLUMNS {
                let c = grid.get(x, row);
                let y = rows - 1 - row;
                if c == rules.garbage_char() {
                    f.set(x, y, Cell::Garbage);
                } else if let Some(i) = rules.color_chars().iter().position(|&k| k == c) {
                    f.set(x, y, Cell::Color(i as u8));
                }
            }
        }
        Ok(f)
    }

    /// The text form, top row first (the rule set's characters, `.` empty).
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity((COLUMNS + 1) * self.rows());
        for y in (0..self.rows()).rev() {
            for x in 0..COLUMNS {
                s.push(self.char_at(x, y) as char);
            }
            s.push('\n');
        }
        s
    }

    /// The text character of `(x, y)` (`y` from the floor).
    pub fn char_at(&self, x: usize, y: usize) -> u8 {
        match self.get(x, y) {
            Cell::Empty => b'.',
            Cell::Garbage => self.rules.garbage_char(),
            Cell::Color(c) => self.rules.color_chars()[c as usize],
        }
    }

    /// The cell at `(x, y)`, `y` from the floor; empty off the field.
    pub fn get(&self, x: usize, y: usize) -> Cell {
        if x >= COLUMNS || y >= self.rows() {
            return Cell::Empty;
        }
        let b = bit(x, y);
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

    /// Sets `(x, y)` (`y` from the floor). Panics off the field or for a colour of 5 or more.
    pub fn set(&mut self, x: usize, y: usize, cell: Cell) {
        assert!(x < COLUMNS && y < self.rows(), "cell off the field");
        let b = bit(x, y);
        for p in &mut self.planes {
            *p &= !b;
        }
        match cell {
            Cell::Empty => {}
            Cell::Garbage => self.planes[GARBAGE] |= b,
            Cell::Color(c) => {
                assert!((c as usize) < COLORS, "colour must be 0 to 4");
                self.planes[c as usize] |= b;
            }
        }
    }

    /// The plane of colour `c` (bit `16 * x + y`).
    pub const fn color_plane(&self, c: usize) -> u128 {
        self.planes[c]
    }

    /// The garbage plane.
    pub const fn garbage_plane(&self) -> u128 {
        self.planes[GARBAGE]
    }

    /// Every occupied cell.
    pub const fn occupied(&self) -> u128 {
        let p = &self.planes;
        p[0] | p[1] | p[2] | p[3] | p[4] | p[5]
    }

    /// Number of occupied cells.
    pub const fn count(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// The row above the highest occupied cell of column `x` (where a dropped block lands).
    pub const fn column_top(&self, x: usize) -> usize {
        let lane = (self.occupied() >> (LANE as usize * x)) as u16;
        (16 - lane.leading_zeros()) as usize
    }

    /// Drops the pair (`a`, `b`) at column `x` with rotation 0-3 (Smash the Code's
    /// convention): 0 = `a` at `x`, `b` at `x + 1`; 1 = `b` on top of `a` in column `x`;
    /// 2 = `a` at `x`, `b` at `x - 1`; 3 = `a` on top of `b`. Each block falls onto the
    /// highest occupied cell of its column. Illegal placements leave the field unchanged.
    pub fn place_pair(&mut self, a: u8, b: u8, x: usize, rotation: u8) -> Result<(), PlaceError> {
        if a as usize >= COLORS || b as usize >= COLORS {
            return Err(PlaceError::BadColor);
        }
        let rows = self.rows();
        let (xa, xb) = match rotation {
            0 => (x, x.wrapping_add(1)),
            1 | 3 => (x, x),
            2 => (x, x.wrapping_sub(1)),
            _ => return Err(PlaceError::BadRotation),
        };
        if xa >= COLUMNS || xb >= COLUMNS {
            return Err(PlaceError::OffField);
        }
        if xa == xb {
            let top = self.column_top(x);
            if top + 2 > rows {
                return Err(PlaceError::ColumnFull);
            }
            let (lower, upper) = if rotation == 1 { (a, b) } else { (b, a) };
            self.planes[lower as usize] |= bit(x, top);
            self.planes[upper as usize] |= bit(x, top + 1);
        } else {
            let (ta, tb) = (self.column_top(xa), self.column_top(xb));
            if ta >= rows || tb >= rows {
                return Err(PlaceError::ColumnFull);
            }
            self.planes[a as usize] |= bit(xa, ta);
            self.planes[b as usize] |= bit(xb, tb);
        }
        Ok(())
    }

    /// Places a pair and resolves the chain it starts: one Smash the Code turn.
    pub fn play(&mut self, a: u8, b: u8, x: usize, rotation: u8) -> Result<Chain, PlaceError> {
        self.place_pair(a, b, x, rotation)?;
        let chain = self.simulate();
        *self = chain.field;
        Ok(chain)
    }

    /// Gravity: every column falls to close its gaps (no vanishing).
    pub fn settle(&mut self) {
        let mut occ = self.occupied();
        gravity_portable::<u128>(&mut self.planes, &mut occ);
    }

    /// Runs the whole chain: vanish, garbage, score, gravity, repeated while something
    /// vanishes. The field is taken as it is (floating cells only fall after a step that
    /// vanished something; call [`settle`](Self::settle) first if needed).
    ///
    /// Uses the fastest [`Engine`] this CPU has.
    #[inline]
    pub fn simulate(&self) -> Chain {
        self.simulate_with(Engine::best())
    }

    /// [`simulate`](Self::simulate) with a chosen engine; an engine this CPU lacks falls back
    /// to [`Engine::Portable`].
    pub fn simulate_with(&self, engine: Engine) -> Chain {
        engine.run(self)
    }

    /// Runs one step at `step` (from 1) of a chain: vanish, garbage, gravity. Returns what
    /// vanished, or `None` (field unchanged) when nothing does. Meant for showing a chain step
    /// by step; [`simulate`](Self::simulate) is faster.
    pub fn step(&mut self, step: u32) -> Option<Step> {
        let mut k = Kernel::<u128>::load(self);
        let s = k.step::<false>(step.max(1), self.rules, &mut !0)?;
        k.store(self);
        Some(s)
    }
}

impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Field ({:?})", self.rules)?;
        f.write_str(&self.to_text())
    }
}
