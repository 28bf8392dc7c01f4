//! A per-cell Puyo chain simulator: a grid of cells, plain BFS for the groups, cell-by-cell
//! gravity. The oracle of [`games::puyo`](crate::games::puyo) and its benchmark baseline; the
//! rules are in that module's documentation.
//!
//! ```
//! use gridbits::games::puyo::{Field, Rules};
//! use gridbits::naive::puyo::NaivePuyo;
//! let f = Field::parse("......\n......\n......\n......\n......\n......\n\
//!                       ......\n......\n......\n......\n1.....\n111...\n", Rules::SmashTheCode)
//!     .unwrap();
//! let r = NaivePuyo::from_field(&f).simulate();
//! assert_eq!((r.chain, r.score), (1, 40));
//! ```

use crate::games::puyo::{Cell, Field, PlaceError, Rules, ACTIVE_ROWS, COLUMNS};
use std::collections::VecDeque;

/// One step of a naive chain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NaiveStep {
    /// Coloured cells that vanished.
    pub cleared: u32,
    /// Garbage cells that vanished.
    pub garbage: u32,
    /// The sizes of the groups that vanished.
    pub group_sizes: Vec<u32>,
    /// Distinct colours that vanished.
    pub colors: u32,
    /// Score of the step.
    pub score: u32,
}

/// The result of a naive chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaiveChain {
    /// Number of steps.
    pub chain: u32,
    /// Total score.
    pub score: u64,
    /// Every step.
    pub steps: Vec<NaiveStep>,
    /// The field after the chain.
    pub field: NaivePuyo,
}

/// A field as `cells[x][y]`, `y` from the top (as in [`Field::get`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaivePuyo {
    /// The rule set.
    pub rules: Rules,
    /// The cells, column by column, each column top row first.
    pub cells: Vec<Vec<Cell>>,
}

impl NaivePuyo {
    /// An empty field.
    pub fn new(rules: Rules) -> Self {
        NaivePuyo {
            rules,
            cells: vec![vec![Cell::Empty; rules.rows()]; COLUMNS],
        }
    }

    /// A copy of a bit-parallel field.
    pub fn from_field(f: &Field) -> Self {
        let mut n = Self::new(f.rules());
        for x in 0..COLUMNS {
            for y in 0..f.rows() {
                n.cells[x][y] = f.get(x, y);
            }
        }
        n
    }

    /// The same field in the bit-parallel form.
    pub fn to_field(&self) -> Field {
        let mut f = Field::new(self.rules);
        for x in 0..COLUMNS {
            for y in 0..self.rules.rows() {
                f.set(x, y, self.cells[x][y]);
            }
        }
        f
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rules.rows()
    }

    /// One step at `step` (from 1): returns `None` when nothing vanishes.
    #[allow(clippy::needless_range_loop)] // cell-by-cell on purpose: this is the reference
    pub fn step(&mut self, step: u32) -> Option<NaiveStep> {
        let rows = self.rows();
        // The rows of play: the lowest ACTIVE_ROWS rows (all but Tsu's ghost row).
        let play = rows - ACTIVE_ROWS..rows;
        let mut seen = vec![vec![false; rows]; COLUMNS];
        let mut vanish = vec![vec![false; rows]; COLUMNS];
        let mut out = NaiveStep::default();
        let mut colors_seen = [false; 5];
        for x in 0..COLUMNS {
            for y in play.clone() {
                let Cell::Color(c) = self.cells[x][y] else {
                    continue;
                };
                if seen[x][y] {
                    continue;
                }
                // Breadth-first search over same-coloured active cells.
                let mut group = vec![(x, y)];
                let mut queue = VecDeque::from([(x, y)]);
                seen[x][y] = true;
                while let Some((cx, cy)) = queue.pop_front() {
                    let near = [
                        (cx.wrapping_sub(1), cy),
                        (cx + 1, cy),
                        (cx, cy.wrapping_sub(1)),
                        (cx, cy + 1),
                    ];
                    for (nx, ny) in near {
                        if nx < COLUMNS
                            && play.contains(&ny)
                            && !seen[nx][ny]
                            && self.cells[nx][ny] == Cell::Color(c)
                        {
                            seen[nx][ny] = true;
                            group.push((nx, ny));
                            queue.push_back((nx, ny));
                        }
                    }
                }
                if group.len() >= 4 {
                    out.group_sizes.push(group.len() as u32);
                    out.cleared += group.len() as u32;
                    colors_seen[c as usize] = true;
                    for (gx, gy) in group {
                        vanish[gx][gy] = true;
                    }
                }
            }
        }
        if out.cleared == 0 {
            return None;
        }
        // Garbage next to a vanishing cell, in the rows of play.
        let mut garbage = vec![vec![false; rows]; COLUMNS];
        for x in 0..COLUMNS {
            for y in play.clone() {
                if self.cells[x][y] != Cell::Garbage {
                    continue;
                }
                let near = [
                    (x.wrapping_sub(1), y),
                    (x + 1, y),
                    (x, y.wrapping_sub(1)),
                    (x, y + 1),
                ];
                if near
                    .iter()
                    .any(|&(nx, ny)| nx < COLUMNS && ny < rows && vanish[nx][ny])
                {
                    garbage[x][y] = true;
                    out.garbage += 1;
                }
            }
        }
        for x in 0..COLUMNS {
            for y in 0..rows {
                if vanish[x][y] || garbage[x][y] {
                    self.cells[x][y] = Cell::Empty;
                }
            }
        }
        // Gravity, cell by cell: the empty cells of a column go to its top.
        for col in &mut self.cells {
            let kept: Vec<Cell> = col.iter().copied().filter(|&c| c != Cell::Empty).collect();
            let mut fallen = vec![Cell::Empty; rows - kept.len()];
            fallen.extend(kept);
            *col = fallen;
        }
        out.colors = colors_seen.iter().filter(|&&b| b).count() as u32;
        let gb: u32 = out
            .group_sizes
            .iter()
            .map(|&s| self.rules.group_bonus(s))
            .sum();
        out.score = self.rules.step_score(step, out.cleared, out.colors, gb);
        Some(out)
    }

    /// Runs the whole chain.
    pub fn simulate(&self) -> NaiveChain {
        let mut f = self.clone();
        let mut steps = Vec::new();
        let mut score = 0;
        while let Some(s) = f.step(steps.len() as u32 + 1) {
            score += u64::from(s.score);
            steps.push(s);
        }
        NaiveChain {
            chain: steps.len() as u32,
            score,
            steps,
            field: f,
        }
    }
}

impl NaivePuyo {
    /// Drops a pair like [`Field::place_pair`], with the same errors; unchanged when illegal.
    pub fn place_pair(&mut self, a: u8, b: u8, x: usize, rotation: u8) -> Result<(), PlaceError> {
        let rows = self.rows();
        // The row (from the top) a block dropped into column `x` lands on, if any.
        let landing = |cells: &Vec<Vec<Cell>>, x: usize| {
            (0..rows).take_while(|&y| cells[x][y] == Cell::Empty).last()
        };
        for c in [a, b] {
            if c >= 5 {
                return Err(PlaceError::BadColor(c));
            }
        }
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
            let y = match landing(&self.cells, x) {
                Some(y) if y >= 1 => y,
                _ => return Err(PlaceError::ColumnFull { x }),
            };
            let (lower, upper) = if rotation == 1 { (a, b) } else { (b, a) };
            self.cells[x][y] = Cell::Color(lower);
            self.cells[x][y - 1] = Cell::Color(upper);
        } else {
            let ya = landing(&self.cells, xa).ok_or(PlaceError::ColumnFull { x: xa })?;
            let yb = landing(&self.cells, xb).ok_or(PlaceError::ColumnFull { x: xb })?;
            self.cells[xa][ya] = Cell::Color(a);
            self.cells[xb][yb] = Cell::Color(b);
        }
        Ok(())
    }
}
