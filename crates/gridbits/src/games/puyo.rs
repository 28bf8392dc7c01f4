//! Puyo chains: Smash the Code (CodinGame) and Puyo Puyo Tsu on one bit-parallel engine.
//!
//! A [`Field`] is six columns of colour planes plus a garbage plane. Each plane is a `u128`
//! in **column-major 16-bit lanes**: cell `(x, y)` (column `x` from the left, row `y` from the
//! floor) is bit `16 * x + y`. Rows 12 and up of a lane (13 for Tsu's ghost row), and lanes 6
//! and 7, are always zero, so a vertical shift cannot leak a cell into the next column once it
//! is ANDed with a plane, and a horizontal shift is a shift by 16.
//!
//! [`Field::simulate`] runs a whole chain, one step at a time:
//!
//! 1. **Vanish**: for every colour whose plane moved since it was last checked, the groups of
//!    4 or more are found with puyoai's neighbour-count filter: a cell of a group of 4+ has 3
//!    same-colour neighbours, or has 2 and touches another cell with 2; every other cell of
//!    such a group touches one of those, so one dilation inside the plane gives the whole
//!    vanishing set. No flood fill, no loop. A colour with no such seed costs about 25
//!    register operations.
//! 2. **Garbage** orthogonally next to a vanishing cell vanishes too (never in Tsu's ghost
//!    row; the ghost row's colours never vanish or connect either).
//! 3. **Score**: blocks, colours and group sizes. A colour's vanishing set of fewer than 8
//!    cells is one group; larger sets (rare) are split by flood fill.
//! 4. **Gravity**: the field is settled after every step, so only the cells above a removed
//!    cell fall. Each round takes the lowest removed cell of every column at once (lane-wise
//!    `r & -r`), keeps the rows below it and moves the rows above down by one; the rounds are
//!    the most cells removed from one column. A field that starts with floating cells gets
//!    one-row falls (a lane-wise add finds the cells resting on the floor) on its first step.
//!    [`Engine::Sse2Bmi2`] instead runs every plane's words through `pext` by the occupancy
//!    and `pdep` into the settled occupancy; it measured slower here.
//!
//! On x86_64 the planes live in SSE2 registers during the chain (vertical shifts per 16-bit
//! lane, horizontal shifts by two bytes); elsewhere the same code runs on `u128`. With AVX2
//! (detected at run time) [`Engine::Avx2`] holds two planes per 256-bit register, so the
//! vanish check of four colours is two register-wide checks and each gravity round moves
//! two planes per instruction; it also skips the check of a register none of whose cells
//! fell, and scores a step of groups of exactly 4 without counting colour by colour. With
//! AVX-512 F and BW [`Engine::Avx512`] holds colours 0-3 in one 512-bit register and merges
//! three-input logic into `vpternlogq`: the vanish check of four colours is 25 instructions.
//! Every engine, and both gravities, are tested against [`naive::puyo`](crate::naive::puyo).
//! Nothing allocates.
//!
//! ```
//! use gridbits::games::puyo::{Field, Rules};
//! // Step 1: the four 1s vanish; the 2 above them falls next to the other three 2s.
//! // Step 2: the four 2s vanish.
//! let field = Field::parse(
//!     "......\n......\n......\n......\n......\n......\n\
//!      ......\n......\n......\n..2...\n.11...\n.11222\n",
//!     Rules::SmashTheCode,
//! ).unwrap();
//! let chain = field.simulate();
//! assert_eq!(chain.chain, 2);
//! // 10 * 4 * max(1, 0) + 10 * 4 * (8 + 0 + 0)
//! assert_eq!(chain.score, 40 + 320);
//! assert_eq!(chain.field.count(), 0);
//! ```

use crate::text::{CharGrid, ParseError};
use std::fmt;

/// Number of columns of every Puyo field.
pub const COLUMNS: usize = 6;
/// Number of colours a field may hold.
pub const COLORS: usize = 5;
/// Rows that take part in vanishing (rows 0..12 from the floor).
pub const ACTIVE_ROWS: usize = 12;
/// The longest possible chain: every step vanishes at least 4 of the 78 cells.
pub const MAX_CHAIN: usize = 20;

const LANE: u32 = 16;

/// The mask of rows `0..rows` in each of the six columns.
const fn rows_mask(rows: usize) -> u128 {
    let mut m = 0u128;
    let mut x = 0;
    while x < COLUMNS {
        m |= ((1u128 << rows) - 1) << (LANE as usize * x);
        x += 1;
    }
    m
}

/// Rows 0..12 of every column: the cells that vanish and connect.
pub const ACTIVE: u128 = rows_mask(ACTIVE_ROWS);
/// Every one of the 6 x 13 cells a field may use.
pub const ALL: u128 = rows_mask(13);
/// Bit 0 of each of the eight lanes.
const LANE_ONES: u128 = 0x0001_0001_0001_0001_0001_0001_0001_0001;
/// Bit 15 of each of the eight lanes.
const LANE_HIGH: u128 = LANE_ONES << 15;

/// The two rule sets of GAMES.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Smash the Code (CodinGame): 6 x 12, colours `1`-`5`, skulls `0`.
    SmashTheCode,
    /// Puyo Puyo Tsu: 6 x 13 with the ghost row 13, colours `R G B Y P`, ojama `O`.
    Tsu,
}

impl Rules {
    /// Rows stored: 12 (Smash the Code) or 13 (Tsu, with the ghost row).
    pub const fn rows(self) -> usize {
        match self {
            Rules::SmashTheCode => 12,
            Rules::Tsu => 13,
        }
    }

    /// The text characters of the colours, in colour order.
    pub const fn color_chars(self) -> &'static [u8; COLORS] {
        match self {
            Rules::SmashTheCode => b"12345",
            Rules::Tsu => b"RGBYP",
        }
    }

    /// The text character of garbage: `0` (skull) or `O` (ojama).
    pub const fn garbage_char(self) -> u8 {
        match self {
            Rules::SmashTheCode => b'0',
            Rules::Tsu => b'O',
        }
    }

    /// Chain power of step `step` (from 1).
    pub const fn chain_power(self, step: u32) -> u32 {
        match self {
            Rules::SmashTheCode => {
                if step <= 1 {
                    0
                } else if step >= 30 {
                    u32::MAX / 2
                } else {
                    8 << (step - 2)
                }
            }
            Rules::Tsu => match step {
                0 | 1 => 0,
                2 => 8,
                3 => 16,
                4 => 32,
                5 => 64,
                _ => {
                    let p = 64 + 32 * (step - 5);
                    if p > 999 {
                        999
                    } else {
                        p
                    }
                }
            },
        }
    }

    /// Colour bonus for `colors` distinct colours cleared in one step.
    pub const fn color_bonus(self, colors: u32) -> u32 {
        let (two, three, four, five) = match self {
            Rules::SmashTheCode => (2, 4, 8, 16),
            Rules::Tsu => (3, 6, 12, 24),
        };
        match colors {
            0 | 1 => 0,
            2 => two,
            3 => three,
            4 => four,
            _ => five,
        }
    }

    /// Group bonus of one group of `size` cells.
    pub const fn group_bonus(self, size: u32) -> u32 {
        match self {
            Rules::SmashTheCode => match size {
                0..=4 => 0,
                5..=10 => size - 4,
                _ => 8,
            },
            Rules::Tsu => match size {
                0..=4 => 0,
                5..=10 => size - 3,
                _ => 10,
            },
        }
    }

    /// Score of one step: `10 * B * clamp(CP + CB + GB, 1, 999)`.
    pub const fn step_score(self, step: u32, blocks: u32, colors: u32, group_bonus: u32) -> u32 {
        let sum =
            self.chain_power(step) as u64 + self.color_bonus(colors) as u64 + group_bonus as u64;
        let m = if sum < 1 {
            1
        } else if sum > 999 {
            999
        } else {
            sum as u32
        };
        10 * blocks * m
    }
}

/// One step of a chain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Step {
    /// Coloured cells that vanished (`B` of the score).
    pub cleared: u32,
    /// Garbage cells that vanished with them.
    pub garbage: u32,
    /// Groups of 4 or more that vanished.
    pub groups: u32,
    /// Distinct colours among them.
    pub colors: u32,
    /// Sum of the group bonuses.
    pub group_bonus: u32,
    /// Score of the step.
    pub score: u32,
}

/// The result of a whole chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chain {
    /// Number of steps that vanished something.
    pub chain: u32,
    /// Total score.
    pub score: u64,
    steps: [Step; MAX_CHAIN],
    /// The field after the chain.
    pub field: Field,
}

impl Chain {
    /// The steps, first to last.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.chain as usize]
    }
}

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
    planes: [u128; COLORS + 1],
    rules: Rules,
}

const GARBAGE: usize = COLORS;

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
        match engine {
            #[cfg(target_arch = "x86_64")]
            Engine::Avx512 if has_avx512() => {
                // SAFETY: AVX-512 F and BW, BMI2 and POPCNT were detected just above.
                unsafe { avx512::simulate(self) }
            }
            #[cfg(target_arch = "x86_64")]
            Engine::Avx2 if has_avx2() => {
                // SAFETY: AVX2, BMI2 and POPCNT were detected on this CPU just above.
                unsafe { avx2::simulate(self) }
            }
            #[cfg(target_arch = "x86_64")]
            Engine::Sse2Bmi2 if crate::algo::lines::has_bmi2() => {
                // SAFETY: BMI2 was detected on this CPU just above.
                unsafe { simulate_sse2_bmi2(self) }
            }
            #[cfg(target_arch = "x86_64")]
            Engine::Sse2 | Engine::Sse2Bmi2 if has_popcnt() => {
                // SAFETY: POPCNT was detected on this CPU just above.
                unsafe { simulate_sse2_popcnt(self) }
            }
            #[cfg(target_arch = "x86_64")]
            Engine::Sse2 | Engine::Sse2Bmi2 => simulate_impl::<sse::Sse2, false>(self),
            _ => simulate_impl::<u128, false>(self),
        }
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

/// Which implementation [`Field::simulate_with`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Planes as `u128`: runs everywhere.
    Portable,
    /// Planes in SSE2 registers (x86_64). Gravity cuts the removed cells out of every column
    /// at once, lowest first (one-row falls on the first step if the field had floating cells).
    Sse2,
    /// SSE2 planes and gravity by `pext`/`pdep` (x86_64 with BMI2, detected at run time).
    Sse2Bmi2,
    /// Two planes per AVX2 register, so the vanish check, the removal and each gravity round
    /// handle two colours per instruction (x86_64 with AVX2, BMI2 and POPCNT, detected at run
    /// time).
    Avx2,
    /// Four planes per AVX-512 register and three-input logic (`vpternlogq`): the vanish
    /// check of four colours is one 25-instruction check (x86_64 with AVX-512 F and BW, BMI2
    /// and POPCNT, detected at run time).
    Avx512,
}

impl Engine {
    /// The fastest engine this CPU runs: [`Engine::Avx512`], else [`Engine::Avx2`], where the
    /// CPU has them, else [`Engine::Sse2`] on x86_64 (measured faster than [`Engine::Sse2Bmi2`]: after a step
    /// only the columns under a vanished cell move, and cutting those cells out, lowest first
    /// in every column at once, takes a few register rounds, while `pext`/`pdep` costs two
    /// register-to-GPR round trips per plane), [`Engine::Portable`] elsewhere.
    pub fn best() -> Engine {
        #[cfg(target_arch = "x86_64")]
        if has_avx512() {
            return Engine::Avx512;
        }
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            return Engine::Avx2;
        }
        if cfg!(target_arch = "x86_64") {
            Engine::Sse2
        } else {
            Engine::Portable
        }
    }

    /// Every engine this CPU runs.
    pub fn available() -> Vec<Engine> {
        let mut v = vec![Engine::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            v.push(Engine::Sse2);
            if crate::algo::lines::has_bmi2() {
                v.push(Engine::Sse2Bmi2);
            }
            if has_avx2() {
                v.push(Engine::Avx2);
            }
            if has_avx512() {
                v.push(Engine::Avx512);
            }
        }
        v
    }
}

/// Whether this CPU runs [`Engine::Avx512`] (AVX-512 F and BW, BMI2 and POPCNT). Detected
/// once, then one relaxed atomic load.
#[cfg(target_arch = "x86_64")]
#[inline]
fn has_avx512() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    // 0: not detected yet, 1: no, 2: yes.
    static AVX512: AtomicU8 = AtomicU8::new(0);
    match AVX512.load(Ordering::Relaxed) {
        0 => {
            let yes = std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && crate::algo::lines::has_bmi2();
            AVX512.store(1 + u8::from(yes), Ordering::Relaxed);
            yes
        }
        v => v == 2,
    }
}

/// Whether this CPU runs [`Engine::Avx2`] (AVX2, BMI2 and POPCNT). Detected once, then one
/// relaxed atomic load.
#[cfg(target_arch = "x86_64")]
#[inline]
fn has_avx2() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    // 0: not detected yet, 1: no, 2: yes.
    static AVX2: AtomicU8 = AtomicU8::new(0);
    match AVX2.load(Ordering::Relaxed) {
        0 => {
            let yes = std::arch::is_x86_feature_detected!("avx2") && crate::algo::lines::has_bmi2();
            AVX2.store(1 + u8::from(yes), Ordering::Relaxed);
            yes
        }
        v => v == 2,
    }
}

/// Nuisance of Smash the Code: each step's score / 70 is added to a running total, and every
/// whole 6 of it sends one row of skulls.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Nuisance {
    /// The running total, in skulls.
    pub points: f64,
}

impl Nuisance {
    /// Adds a score; returns the rows of skulls it sends (whole 6s taken off the total).
    pub fn add(&mut self, score: u64) -> u32 {
        self.points += score as f64 / 70.0;
        let rows = (self.points / 6.0).floor();
        self.points -= rows * 6.0;
        rows as u32
    }
}

/// The register operations the chain kernel needs on one plane (column-major 16-bit lanes).
trait Plane: Copy {
    fn from_u128(v: u128) -> Self;
    fn to_u128(self) -> u128;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn and_not(self, o: Self) -> Self;
    /// Row `y` to `y + 1` (the bit of the top row of a lane is dropped or leaks only into a
    /// bit that is always zero).
    fn up(self) -> Self;
    /// Row `y` to `y - 1`.
    fn down(self) -> Self;
    /// Column `x` to `x + 1`.
    fn right(self) -> Self;
    /// Column `x` to `x - 1`.
    fn left(self) -> Self;
    /// Lane-wise `self + 1` (lanes never overflow: bits 13-15 are zero).
    fn add_lane_ones(self) -> Self;
    /// Lane-wise `0 - self` (lanes below 0x8000).
    fn neg_lanes(self) -> Self;
    /// Lane-wise `self - 1` (lanes below 0x8000; a zero lane becomes 0xffff).
    fn sub_lane_ones(self) -> Self;
    fn is_zero(self) -> bool;
    fn zero() -> Self;
}

impl Plane for u128 {
    #[inline(always)]
    fn from_u128(v: u128) -> Self {
        v
    }
    #[inline(always)]
    fn to_u128(self) -> u128 {
        self
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        self & !o
    }
    #[inline(always)]
    fn up(self) -> Self {
        self << 1
    }
    #[inline(always)]
    fn down(self) -> Self {
        self >> 1
    }
    #[inline(always)]
    fn right(self) -> Self {
        self << LANE
    }
    #[inline(always)]
    fn left(self) -> Self {
        self >> LANE
    }
    #[inline(always)]
    fn add_lane_ones(self) -> Self {
        self.wrapping_add(LANE_ONES)
    }
    #[inline(always)]
    fn neg_lanes(self) -> Self {
        // 0x8000 - v cannot borrow across lanes; XOR 0x8000 then makes it 0x10000 - v.
        LANE_HIGH.wrapping_sub(self) ^ LANE_HIGH
    }
    #[inline(always)]
    fn sub_lane_ones(self) -> Self {
        (self | LANE_HIGH).wrapping_sub(LANE_ONES) ^ LANE_HIGH
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn zero() -> Self {
        0
    }
}

#[cfg(target_arch = "x86_64")]
mod sse {
    //! SSE2 planes. SSE2 is part of the x86_64 baseline (every x86_64 CPU has it and the
    //! target enables it), so these intrinsics need no run-time detection.
    use super::Plane;
    use std::arch::x86_64::*;

    #[derive(Clone, Copy)]
    pub struct Sse2(__m128i);

    // SAFETY (every `unsafe` block below): SSE2 is always available on x86_64; the
    // intrinsics take and return registers only, no memory.
    impl Plane for Sse2 {
        #[inline(always)]
        fn from_u128(v: u128) -> Self {
            Sse2(unsafe { _mm_set_epi64x((v >> 64) as i64, v as i64) })
        }
        #[inline(always)]
        fn to_u128(self) -> u128 {
            let (lo, hi) = unsafe {
                (
                    _mm_cvtsi128_si64(self.0) as u64,
                    _mm_cvtsi128_si64(_mm_unpackhi_epi64(self.0, self.0)) as u64,
                )
            };
            (u128::from(hi) << 64) | u128::from(lo)
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            Sse2(unsafe { _mm_and_si128(self.0, o.0) })
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            Sse2(unsafe { _mm_or_si128(self.0, o.0) })
        }
        #[inline(always)]
        fn and_not(self, o: Self) -> Self {
            Sse2(unsafe { _mm_andnot_si128(o.0, self.0) })
        }
        #[inline(always)]
        fn up(self) -> Self {
            Sse2(unsafe { _mm_slli_epi16::<1>(self.0) })
        }
        #[inline(always)]
        fn down(self) -> Self {
            Sse2(unsafe { _mm_srli_epi16::<1>(self.0) })
        }
        #[inline(always)]
        fn right(self) -> Self {
            Sse2(unsafe { _mm_slli_si128::<2>(self.0) })
        }
        #[inline(always)]
        fn left(self) -> Self {
            Sse2(unsafe { _mm_srli_si128::<2>(self.0) })
        }
        #[inline(always)]
        fn add_lane_ones(self) -> Self {
            Sse2(unsafe { _mm_add_epi16(self.0, _mm_set1_epi16(1)) })
        }
        #[inline(always)]
        fn neg_lanes(self) -> Self {
            Sse2(unsafe { _mm_sub_epi16(_mm_setzero_si128(), self.0) })
        }
        #[inline(always)]
        fn sub_lane_ones(self) -> Self {
            Sse2(unsafe { _mm_sub_epi16(self.0, _mm_set1_epi16(1)) })
        }
        #[inline(always)]
        fn is_zero(self) -> bool {
            unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(self.0, _mm_setzero_si128())) == 0xffff }
        }
        #[inline(always)]
        fn zero() -> Self {
            Sse2(unsafe { _mm_setzero_si128() })
        }
    }
}

/// The cells of groups of 4+ in plane `x` (already restricted to the active rows): the
/// neighbour-count filter, then one dilation inside `x`.
#[inline(always)]
fn vanishing<P: Plane>(x: P) -> Option<P> {
    let u = x.and(x.down()); // has a same-colour neighbour above
    let d = x.and(x.up()); // ... below
    let l = x.and(x.right()); // ... to the left
    let r = x.and(x.left()); // ... to the right
    let ud_and = u.and(d);
    let lr_and = l.and(r);
    let ud_or = u.or(d);
    let lr_or = l.or(r);
    let threes = ud_and.and(lr_or).or(lr_and.and(ud_or));
    let twos = ud_and.or(lr_and).or(ud_or.and(lr_or));
    let two_pairs = twos
        .up()
        .or(twos.down())
        .or(twos.left())
        .or(twos.right())
        .and(twos);
    let seeds = threes.or(two_pairs);
    if seeds.is_zero() {
        return None;
    }
    Some(
        seeds
            .or(seeds.up())
            .or(seeds.down())
            .or(seeds.left())
            .or(seeds.right())
            .and(x),
    )
}

/// Splits a vanishing set of one colour into groups; returns (groups, group bonus).
#[inline(never)]
fn split_groups(mut v: u128, rules: Rules) -> (u32, u32) {
    let mut groups = 0;
    let mut bonus = 0;
    while v != 0 {
        let mut g = v & v.wrapping_neg();
        loop {
            let n = (g | g << 1 | g >> 1 | g << LANE | g >> LANE) & v;
            if n == g {
                break;
            }
            g = n;
        }
        v &= !g;
        groups += 1;
        bonus += rules.group_bonus(g.count_ones());
    }
    (groups, bonus)
}

/// Gravity without BMI2: every floating cell falls one row per round.
#[inline(always)]
fn gravity_portable<P: Plane>(planes: &mut [P; COLORS + 1], occ: &mut P) {
    gravity_falls(planes, occ, 0b11_1111);
}

/// Gravity by one-row falls of the planes in `present`; works on any field.
#[inline(always)]
fn gravity_falls<P: Plane>(planes: &mut [P; COLORS + 1], occ: &mut P, present: u32) {
    loop {
        // Cells resting on the floor through a solid stack: occ & !(occ + 1) per lane.
        let resting = occ.and_not(occ.add_lane_ones());
        let floating = occ.and_not(resting);
        if floating.is_zero() {
            return;
        }
        for (i, p) in planes.iter_mut().enumerate() {
            if present >> i & 1 != 0 {
                *p = p.and_not(floating).or(p.and(floating).down());
            }
        }
        *occ = resting.or(floating.down());
    }
}

/// Gravity on a settled field from which the cells `removed` were just taken: each round cuts
/// the lowest removed cell out of every column at once (rows above it move down one), so the
/// rounds are the most cells removed from one column.
#[inline(always)]
fn gravity_removed<P: Plane>(
    planes: &mut [P; COLORS + 1],
    occ: &mut P,
    mut removed: P,
    present: u32,
) {
    let all = P::from_u128(ALL);
    loop {
        let lowest = removed.and(removed.neg_lanes());
        let below = lowest.sub_lane_ones(); // all ones in lanes with nothing removed
                                            // Rows from the removed cell up (masked to the field: a u128 `down` pulls the next
                                            // lane's bit 0 into bit 15).
        let above = all.and_not(below);
        for (i, p) in planes.iter_mut().enumerate() {
            if present >> i & 1 != 0 {
                *p = p.and(below).or(p.down().and(above));
            }
        }
        *occ = occ.and(below).or(occ.down().and(above));
        removed = removed.down().and(above);
        if removed.is_zero() {
            return;
        }
    }
}

/// The settled occupancy of one word of four lanes: in each lane, as many low bits as the
/// lane has cells.
#[inline(always)]
fn settled_word(occ: u64) -> u64 {
    let mut t = 0u64;
    let mut i = 0;
    while i < 4 {
        let n = ((occ >> (16 * i)) as u16).count_ones();
        t |= ((1u64 << n) - 1) << (16 * i);
        i += 1;
    }
    t
}

/// Gravity with BMI2: each plane's words are `pdep(pext(word, occ), settled occ)`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn gravity_bmi2<P: Plane>(planes: &mut [P; COLORS + 1], occ: &mut P, present: u32) {
    use std::arch::x86_64::{_pdep_u64, _pext_u64};
    let o = occ.to_u128();
    let (olo, ohi) = (o as u64, (o >> 64) as u64);
    let (tlo, thi) = (settled_word(olo), settled_word(ohi));
    // Constant indices keep the planes in registers.
    for (i, plane) in planes.iter_mut().enumerate() {
        if present >> i & 1 != 0 {
            let p = plane.to_u128();
            let lo = _pdep_u64(_pext_u64(p as u64, olo), tlo);
            let hi = _pdep_u64(_pext_u64((p >> 64) as u64, ohi), thi);
            *plane = P::from_u128((u128::from(hi) << 64) | u128::from(lo));
        }
    }
    *occ = P::from_u128((u128::from(thi) << 64) | u128::from(tlo));
}

/// The field's planes held in registers for a chain.
struct Kernel<P: Plane> {
    planes: [P; COLORS + 1],
    occ: P,
    /// Bit `i`: plane `i` is not empty.
    present: u32,
    /// No cell floats: gravity only has to close the gaps of removed cells.
    settled: bool,
}

impl<P: Plane> Kernel<P> {
    #[inline(always)]
    fn load(f: &Field) -> Self {
        let planes = f.planes.map(P::from_u128);
        let occ = f.occupied();
        let resting = occ & !occ.wrapping_add(LANE_ONES);
        let mut present = 0;
        for (i, p) in f.planes.iter().enumerate() {
            present |= u32::from(*p != 0) << i;
        }
        Kernel {
            planes,
            occ: P::from_u128(occ),
            present,
            settled: resting == occ,
        }
    }

    #[inline(always)]
    fn store(&self, f: &mut Field) {
        f.planes = self.planes.map(P::to_u128);
    }

    /// One step. Bit `c` of `dirty`: colour `c` moved since it was last checked (only such
    /// colours can have a new group). Updates `dirty` for the next step.
    #[inline(always)]
    fn step<const BMI2: bool>(&mut self, step: u32, rules: Rules, dirty: &mut u32) -> Option<Step> {
        let active = P::from_u128(ACTIVE);
        let mut all = P::zero();
        let mut cleared = 0;
        let mut colors = 0;
        let mut groups = 0;
        let mut gb = 0;
        let check = *dirty & self.present;
        for c in 0..COLORS {
            if check >> c & 1 == 0 {
                continue;
            }
            let x = self.planes[c].and(active);
            if let Some(v) = vanishing(x) {
                let vb = v.to_u128();
                let n = vb.count_ones();
                cleared += n;
                colors += 1;
                if n < 8 {
                    groups += 1;
                    gb += rules.group_bonus(n);
                } else {
                    let (g, b) = split_groups(vb, rules);
                    groups += g;
                    gb += b;
                }
                all = all.or(v);
                self.planes[c] = self.planes[c].and_not(v);
                if self.planes[c].is_zero() {
                    self.present &= !(1 << c);
                }
            }
        }
        if colors == 0 {
            return None;
        }
        let mut removed = all;
        let mut garbage = 0;
        if self.present >> GARBAGE & 1 != 0 {
            let near = all
                .up()
                .or(all.down())
                .or(all.left())
                .or(all.right())
                .and(active);
            let g = self.planes[GARBAGE].and(near);
            garbage = g.to_u128().count_ones();
            self.planes[GARBAGE] = self.planes[GARBAGE].and_not(g);
            if self.planes[GARBAGE].is_zero() {
                self.present &= !(1 << GARBAGE);
            }
            removed = removed.or(g);
        }
        self.occ = self.occ.and_not(removed);
        if self.settled {
            // The cells that fall: above the lowest removed cell of their column.
            let lowest = removed.and(removed.neg_lanes());
            let falls = lowest.neg_lanes();
            *dirty = 0;
            for c in 0..COLORS {
                if self.present >> c & 1 != 0 && !self.planes[c].and(falls).is_zero() {
                    *dirty |= 1 << c;
                }
            }
        } else {
            *dirty = !0;
        }
        #[cfg(target_arch = "x86_64")]
        if BMI2 {
            // SAFETY: the BMI2 kernel is only instantiated behind run-time detection.
            unsafe { gravity_bmi2(&mut self.planes, &mut self.occ, self.present) };
        } else if self.settled {
            gravity_removed(&mut self.planes, &mut self.occ, removed, self.present);
        } else {
            gravity_falls(&mut self.planes, &mut self.occ, self.present);
        }
        #[cfg(not(target_arch = "x86_64"))]
        if self.settled {
            gravity_removed(&mut self.planes, &mut self.occ, removed, self.present);
        } else {
            gravity_falls(&mut self.planes, &mut self.occ, self.present);
        }
        self.settled = true;
        Some(Step {
            cleared,
            garbage,
            groups,
            colors,
            group_bonus: gb,
            score: rules.step_score(step, cleared, colors, gb),
        })
    }
}

#[inline(always)]
fn simulate_impl<P: Plane, const BMI2: bool>(field: &Field) -> Chain {
    let rules = field.rules;
    let mut k = Kernel::<P>::load(field);
    let mut steps = [Step::default(); MAX_CHAIN];
    let mut n = 0;
    let mut score = 0u64;
    let mut dirty = !0u32;
    while let Some(s) = k.step::<BMI2>(n as u32 + 1, rules, &mut dirty) {
        score += u64::from(s.score);
        if n < MAX_CHAIN {
            steps[n] = s;
        }
        n += 1;
    }
    let mut out = *field;
    k.store(&mut out);
    Chain {
        chain: n.min(MAX_CHAIN) as u32,
        score,
        steps,
        field: out,
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
unsafe fn simulate_sse2_bmi2(field: &Field) -> Chain {
    simulate_impl::<sse::Sse2, true>(field)
}

/// The SSE2 kernel with the POPCNT instruction for the step counts (not in the x86_64
/// baseline, so detected at run time).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn simulate_sse2_popcnt(field: &Field) -> Chain {
    simulate_impl::<sse::Sse2, false>(field)
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn has_popcnt() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
}

/// The AVX2 engine: two planes per 256-bit register, one plane per 128-bit half (`vpslldq`
/// and `vpsrldq` shift each half on its own, so a horizontal shift never crosses from one
/// plane into the other). Register 0 holds colours 0 and 1, register 1 colours 2 and 3,
/// register 2 colour 4 and the garbage plane; the vanish check, the removal and every
/// gravity round handle two planes per instruction. The step's bookkeeping is branch-free
/// (ten `popcnt`s and table look-ups) except for colours with 8 or more vanishing cells.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{split_groups, Chain, Field, Rules, Step, ACTIVE, MAX_CHAIN};
    use std::arch::x86_64::*;

    /// A 128-bit plane in both halves of a register.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn splat(v: u128) -> __m256i {
        let (lo, hi) = (v as u64 as i64, (v >> 64) as u64 as i64);
        _mm256_set_epi64x(hi, lo, hi, lo)
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn or(a: __m256i, b: __m256i) -> __m256i {
        _mm256_or_si256(a, b)
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn and(a: __m256i, b: __m256i) -> __m256i {
        _mm256_and_si256(a, b)
    }

    /// `a & !b`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn and_not(a: __m256i, b: __m256i) -> __m256i {
        _mm256_andnot_si256(b, a)
    }

    /// Row `y` to `y + 1` in every column of both planes.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn up(a: __m256i) -> __m256i {
        _mm256_slli_epi16::<1>(a)
    }

    /// Row `y` to `y - 1`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn down(a: __m256i) -> __m256i {
        _mm256_srli_epi16::<1>(a)
    }

    /// Column `x` to `x + 1` (within each plane).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn right(a: __m256i) -> __m256i {
        _mm256_bslli_epi128::<2>(a)
    }

    /// Column `x` to `x - 1`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn left(a: __m256i) -> __m256i {
        _mm256_bsrli_epi128::<2>(a)
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn is_zero(a: __m256i) -> bool {
        _mm256_testz_si256(a, a) != 0
    }

    /// Cells of `x` and their four neighbours.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn dilate(x: __m256i) -> __m256i {
        or(or(x, up(x)), or(or(down(x), left(x)), right(x)))
    }

    /// The cells of groups of 4+ in both planes of `x` (restricted to the active rows):
    /// puyoai's neighbour-count filter (a cell with 3 same-colour neighbours, or two adjacent
    /// cells with 2), then one dilation inside `x`. Branch-free, 35 instructions.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn vanishing(x: __m256i) -> __m256i {
        let u = and(x, down(x)); // a same-colour neighbour above
        let d = up(u); // ... below
        let l = and(x, right(x)); // ... to the left
        let r = left(l); // ... to the right
        let ud_and = and(u, d);
        let lr_and = and(l, r);
        let ud_or = or(u, d);
        let lr_or = or(l, r);
        let threes = or(and(ud_and, lr_or), and(lr_and, ud_or));
        let twos = or(or(ud_and, lr_and), and(ud_or, lr_or));
        let two_pairs = and(
            or(or(up(twos), down(twos)), or(left(twos), right(twos))),
            twos,
        );
        and(dilate(or(threes, two_pairs)), x)
    }

    /// Gravity on a settled field from which the cells `removed` (in both halves) were just
    /// taken: each round cuts the lowest removed cell out of every column of every plane at
    /// once; the rounds are the most cells removed from one column. `three`: register 2
    /// holds something. A round is three instructions deep: `below = !removed & (removed - 1)`
    /// (the rows under the lowest removed cell, every row where nothing is removed), then
    /// `(r & below) | (r >> 1 & !below)` (bits 13 to 15 of a lane are always zero, so no
    /// field mask is needed).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn fall_removed(regs: &mut [__m256i; 3], mut removed: __m256i, three: bool) {
        let minus_one = _mm256_set1_epi16(-1);
        loop {
            let below = _mm256_andnot_si256(removed, _mm256_add_epi16(removed, minus_one));
            let fall = |r: __m256i| or(and(r, below), _mm256_andnot_si256(below, down(r)));
            regs[0] = fall(regs[0]);
            regs[1] = fall(regs[1]);
            if three {
                regs[2] = fall(regs[2]);
            }
            removed = _mm256_andnot_si256(below, down(removed));
            if is_zero(removed) {
                return;
            }
        }
    }

    /// Gravity on any field: every floating cell falls one row per round.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn fall_any(regs: &mut [__m256i; 3]) {
        let ones = _mm256_set1_epi16(1);
        let o = or(or(regs[0], regs[1]), regs[2]);
        let folded = _mm_or_si128(_mm256_castsi256_si128(o), _mm256_extracti128_si256::<1>(o));
        let mut occ = _mm256_broadcastsi128_si256(folded);
        loop {
            // Cells resting on the floor through a solid stack: occ & !(occ + 1).
            let resting = and_not(occ, _mm256_add_epi16(occ, ones));
            let floating = and_not(occ, resting);
            if is_zero(floating) {
                return;
            }
            for r in regs.iter_mut() {
                *r = or(and_not(*r, floating), down(and(*r, floating)));
            }
            occ = or(resting, down(floating));
        }
    }

    /// The scoring tables of a rule set: chain power by step (capped at 999, which caps the
    /// step's multiplier anyway), colour bonus by colours, group bonus by cells (< 8).
    pub(super) struct Tables {
        pub(super) power: [u32; MAX_CHAIN + 1],
        pub(super) color: [u32; 6],
        pub(super) group: [u32; 9],
    }

    const fn tables(rules: Rules) -> Tables {
        let mut t = Tables {
            power: [0; MAX_CHAIN + 1],
            color: [0; 6],
            group: [0; 9],
        };
        let mut i = 0;
        while i <= MAX_CHAIN {
            let p = rules.chain_power(i as u32);
            t.power[i] = if p > 999 { 999 } else { p };
            i += 1;
        }
        i = 0;
        while i < 6 {
            t.color[i] = rules.color_bonus(i as u32);
            i += 1;
        }
        i = 4;
        while i < 8 {
            t.group[i] = rules.group_bonus(i as u32);
            i += 1;
        }
        t
    }

    /// Groups and group bonus of the vanishing sets of the five colours: a set under 8 cells
    /// is one group, a larger one is split by flood fill.
    #[cold]
    #[inline(never)]
    pub(super) fn groups_and_bonus(sets: &[u128; 5], t: &Tables, rules: Rules) -> (u32, u32) {
        let (mut groups, mut gb) = (0, 0);
        for &v in sets {
            let k = v.count_ones();
            if k >= 8 {
                let (g, b) = split_groups(v, rules);
                groups += g;
                gb += b;
            } else if k != 0 {
                groups += 1;
                gb += t.group[k as usize];
            }
        }
        (groups, gb)
    }

    pub(super) static STC: Tables = tables(Rules::SmashTheCode);
    pub(super) static TSU: Tables = tables(Rules::Tsu);

    /// The whole chain; see [`Field::simulate`].
    ///
    /// # Safety
    /// The CPU must support AVX2, BMI2 and POPCNT.
    #[target_feature(enable = "avx2,bmi2,popcnt")]
    pub(super) unsafe fn simulate(field: &Field) -> Chain {
        let rules = field.rules;
        let t = match rules {
            Rules::SmashTheCode => &STC,
            Rules::Tsu => &TSU,
        };
        let mut steps = [Step::default(); MAX_CHAIN];
        let mut total = 0u64;
        let p = field.planes.as_ptr().cast::<__m256i>();
        // SAFETY: `planes` is six u128s, so three whole 32-byte loads stay inside it.
        let mut regs = unsafe {
            [
                _mm256_loadu_si256(p),
                _mm256_loadu_si256(p.add(1)),
                _mm256_loadu_si256(p.add(2)),
            ]
        };
        let active = splat(ACTIVE);
        // Colour 4 only: the garbage half never vanishes by itself.
        let active_lo = _mm256_set_epi64x(0, 0, (ACTIVE >> 64) as i64, ACTIVE as u64 as i64);
        let garbage_half = _mm256_set_epi64x(!0, !0, 0, 0);
        let zero = _mm256_setzero_si256();
        let (live0, live1) = (!is_zero(regs[0]), !is_zero(regs[1]));
        let live4 = !is_zero(and(regs[2], active_lo));
        let three = !is_zero(regs[2]);
        let garbage_live = !is_zero(and(regs[2], garbage_half));
        let mut settled = {
            let o = or(or(regs[0], regs[1]), regs[2]);
            let o = _mm_or_si128(_mm256_castsi256_si128(o), _mm256_extracti128_si256::<1>(o));
            let resting = _mm_andnot_si128(_mm_add_epi16(o, _mm_set1_epi16(1)), o);
            _mm_testc_si128(resting, o) != 0
        };
        let mut n = 0usize;
        let live = u32::from(live0) | u32::from(live1) << 1 | u32::from(live4) << 2;
        let mut dirty = live;
        loop {
            let v0 = if dirty & 1 != 0 {
                vanishing(and(regs[0], active))
            } else {
                zero
            };
            let v1 = if dirty & 2 != 0 {
                vanishing(and(regs[1], active))
            } else {
                zero
            };
            let v2 = if dirty & 4 != 0 {
                vanishing(and(regs[2], active_lo))
            } else {
                zero
            };
            let any = or(or(v0, v1), v2);
            if is_zero(any) {
                break;
            }
            // Both halves: the union of every plane's vanishing cells.
            let all = or(any, _mm256_permute4x64_epi64::<0b01_00_11_10>(any));
            let cleared = (_mm256_extract_epi64::<0>(all) as u64).count_ones()
                + (_mm256_extract_epi64::<1>(all) as u64).count_ones();
            // Bit c: colour c vanished something (its two words are not both zero).
            let z = |v: __m256i| {
                _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(v, zero))) as u32
            };
            let zeros = z(v0) | z(v1) << 4 | z(v2) << 8;
            let colors = _pext_u32(!(zeros & zeros >> 1), 0x155).count_ones();
            // Every group has 4 cells or more: when the cells are four times the colours,
            // each colour cleared one group of 4 (group bonus 0 under both rules).
            let (groups, gb) = if cleared == 4 * colors {
                (colors, 0)
            } else {
                let w = |v: __m256i, i: usize| {
                    let lo = _mm256_castsi256_si128(v);
                    let hi = _mm256_extracti128_si256::<1>(v);
                    let h = if i == 0 { lo } else { hi };
                    (_mm_extract_epi64::<1>(h) as u64 as u128) << 64
                        | _mm_cvtsi128_si64(h) as u64 as u128
                };
                groups_and_bonus(
                    &[w(v0, 0), w(v0, 1), w(v1, 0), w(v1, 1), w(v2, 0)],
                    t,
                    rules,
                )
            };
            // Garbage next to a vanishing cell (never in the ghost row).
            let mut removed = all;
            let mut garbage = 0;
            if garbage_live {
                let g = and(and(regs[2], and(dilate(all), active)), garbage_half);
                garbage = (_mm256_extract_epi64::<2>(g) as u64).count_ones()
                    + (_mm256_extract_epi64::<3>(g) as u64).count_ones();
                removed = or(all, _mm256_permute4x64_epi64::<0b11_10_11_10>(g));
            }
            regs[0] = and_not(regs[0], removed);
            regs[1] = and_not(regs[1], removed);
            if three {
                regs[2] = and_not(regs[2], removed);
            }
            if settled {
                // Only planes with a cell above a removed one move, so only they can form
                // a new group.
                let below =
                    _mm256_andnot_si256(removed, _mm256_add_epi16(removed, _mm256_set1_epi16(-1)));
                dirty = live
                    & (u32::from(_mm256_testc_si256(below, regs[0]) == 0)
                        | u32::from(_mm256_testc_si256(below, regs[1]) == 0) << 1
                        | u32::from(_mm256_testc_si256(below, and(regs[2], active_lo)) == 0) << 2);
                fall_removed(&mut regs, removed, three);
            } else {
                fall_any(&mut regs);
                settled = true;
            }
            let power = t.power[(n + 1).min(MAX_CHAIN)];
            let score = 10 * cleared * (power + t.color[colors as usize] + gb).clamp(1, 999);
            if n < MAX_CHAIN {
                steps[n] = Step {
                    cleared,
                    garbage,
                    groups,
                    colors,
                    group_bonus: gb,
                    score,
                };
            }
            total += u64::from(score);
            n += 1;
        }
        let mut out = *field;
        let p = out.planes.as_mut_ptr().cast::<__m256i>();
        // SAFETY: as for the loads.
        unsafe {
            _mm256_storeu_si256(p, regs[0]);
            _mm256_storeu_si256(p.add(1), regs[1]);
            _mm256_storeu_si256(p.add(2), regs[2]);
        }
        Chain {
            chain: n.min(MAX_CHAIN) as u32,
            score: total,
            steps,
            field: out,
        }
    }
}

/// The AVX-512 engine: the four colour planes 0-3 in one 512-bit register (one plane per
/// 128-bit lane; `vpslldq` and `vpsrldq` shift each lane on its own), colour 4 and the
/// garbage plane in a second one. `vpternlogq` merges three-input boolean steps into one
/// instruction, so the vanish check of four colours is 25 instructions and a gravity round
/// moves a register with a shift and one select.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::avx2::{groups_and_bonus, Tables, STC, TSU};
    use super::{Chain, Field, Rules, Step, ACTIVE, MAX_CHAIN};
    use std::arch::x86_64::*;

    // `vpternlogq` truth tables: bit `4a + 2b + c` of the immediate is f(a, b, c).
    const A: i32 = 0xf0;
    const B: i32 = 0xcc;
    const C: i32 = 0xaa;
    /// At least two of three.
    const MAJ: i32 = (A & B) | (A & C) | (B & C);
    const OR3: i32 = A | B | C;
    const AND3: i32 = A & B & C;
    /// `a | (b & c)`.
    const OR_AND: i32 = A | (B & C);
    /// `(a | b) & c`.
    const AND_OR: i32 = (A | B) & C;
    /// `a ? b : c`, bit by bit.
    const SELECT: i32 = (A & B) | (!A & C & 0xff);
    /// `!a & b & c`.
    const ANDN_AND: i32 = !A & B & C & 0xff;
    /// `(!a & b) | c`.
    const ANDN_OR: i32 = (!A & B & 0xff) | C;

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn tern<const F: i32>(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
        _mm512_ternarylogic_epi64::<F>(a, b, c)
    }

    /// A 128-bit plane in every lane.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn splat(v: u128) -> __m512i {
        let (lo, hi) = (v as u64 as i64, (v >> 64) as u64 as i64);
        _mm512_set_epi64(hi, lo, hi, lo, hi, lo, hi, lo)
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn and(a: __m512i, b: __m512i) -> __m512i {
        _mm512_and_si512(a, b)
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn or(a: __m512i, b: __m512i) -> __m512i {
        _mm512_or_si512(a, b)
    }

    /// `!a & b`.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn andnot(a: __m512i, b: __m512i) -> __m512i {
        _mm512_andnot_si512(a, b)
    }

    /// Row `y` to `y + 1` in every column of every plane.
    #[inline]
    #[target_feature(enable = "avx512bw")]
    fn up(a: __m512i) -> __m512i {
        _mm512_slli_epi16::<1>(a)
    }

    /// Row `y` to `y - 1`.
    #[inline]
    #[target_feature(enable = "avx512bw")]
    fn down(a: __m512i) -> __m512i {
        _mm512_srli_epi16::<1>(a)
    }

    /// Column `x` to `x + 1` (within each plane).
    #[inline]
    #[target_feature(enable = "avx512bw")]
    fn right(a: __m512i) -> __m512i {
        _mm512_bslli_epi128::<2>(a)
    }

    /// Column `x` to `x - 1`.
    #[inline]
    #[target_feature(enable = "avx512bw")]
    fn left(a: __m512i) -> __m512i {
        _mm512_bsrli_epi128::<2>(a)
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn is_zero(a: __m512i) -> bool {
        _mm512_test_epi64_mask(a, a) == 0
    }

    /// The cells of groups of 4+ in every plane of `x` (restricted to the active rows):
    /// the neighour-count filter of the other engines, with the counts as majority
    /// functions, then one dilation inside `x`. Branch-free, 25 instructions.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn vanishing(x: __m512i) -> __m512i {
        let u = and(x, down(x)); // a same-colour neighbour above
        let d = up(u); // ... below
        let l = and(x, right(x)); // ... to the left
        let r = left(l); // ... to the right
        let maj = tern::<MAJ>(u, d, l);
        let any3 = tern::<OR3>(u, d, l);
        let all3 = tern::<AND3>(u, d, l);
        let twos = tern::<OR_AND>(maj, r, any3); // two neighbours or more
        let threes = tern::<OR_AND>(all3, r, maj); // three or more
        let near = tern::<OR3>(up(twos), down(twos), left(twos));
        let two_pairs = tern::<AND_OR>(near, right(twos), twos);
        let seeds = or(threes, two_pairs);
        let grown = tern::<OR3>(seeds, up(seeds), down(seeds));
        let grown = tern::<AND_OR>(grown, left(seeds), x);
        tern::<OR_AND>(grown, right(seeds), x)
    }

    /// `v` with the OR of its four lanes in every lane.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn fold(v: __m512i) -> __m512i {
        let v = or(v, _mm512_shuffle_i64x2::<0b01_00_11_10>(v, v));
        or(v, _mm512_shuffle_i64x2::<0b10_11_00_01>(v, v))
    }

    /// Gravity on a settled field from which the cells `removed` (in every lane) were just
    /// taken, as in the AVX2 engine; `two`: register 1 holds something.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn fall_removed(regs: &mut [__m512i; 2], mut removed: __m512i, two: bool) {
        let minus_one = _mm512_set1_epi16(-1);
        loop {
            let below = andnot(removed, _mm512_add_epi16(removed, minus_one));
            regs[0] = tern::<SELECT>(below, regs[0], down(regs[0]));
            if two {
                regs[1] = tern::<SELECT>(below, regs[1], down(regs[1]));
            }
            removed = andnot(below, down(removed));
            if is_zero(removed) {
                return;
            }
        }
    }

    /// Gravity on any field: every floating cell falls one row per round.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn fall_any(regs: &mut [__m512i; 2]) {
        let ones = _mm512_set1_epi16(1);
        let mut occ = fold(or(regs[0], regs[1]));
        loop {
            // Cells resting on the floor through a solid stack: occ & !(occ + 1).
            let resting = andnot(_mm512_add_epi16(occ, ones), occ);
            let floating = andnot(resting, occ);
            if is_zero(floating) {
                return;
            }
            for r in regs.iter_mut() {
                *r = tern::<ANDN_OR>(floating, *r, down(and(*r, floating)));
            }
            occ = or(resting, down(floating));
        }
    }

    /// The whole chain; see [`Field::simulate`].
    ///
    /// # Safety
    /// The CPU must support AVX-512 F and BW, BMI2 and POPCNT.
    #[target_feature(enable = "avx512f,avx512bw,bmi2,popcnt")]
    pub(super) unsafe fn simulate(field: &Field) -> Chain {
        let rules = field.rules;
        let t: &Tables = match rules {
            Rules::SmashTheCode => &STC,
            Rules::Tsu => &TSU,
        };
        let mut steps = [Step::default(); MAX_CHAIN];
        let mut total = 0u64;
        let p = field.planes.as_ptr();
        // SAFETY: `planes` is six u128s: one 64-byte load of planes 0-3, one 32-byte load of
        // planes 4-5 (the upper half of register 1 is zero).
        let mut regs = unsafe {
            [
                _mm512_loadu_si512(p.cast()),
                _mm512_zextsi256_si512(_mm256_loadu_si256(p.add(4).cast())),
            ]
        };
        let active = splat(ACTIVE);
        // Colour 4 only: the garbage lane never vanishes by itself.
        let active4 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, (ACTIVE >> 64) as i64, ACTIVE as i64);
        let garbage_lane = _mm512_set_epi64(0, 0, 0, 0, !0, !0, 0, 0);
        let zero = _mm512_setzero_si512();
        let live0 = !is_zero(regs[0]);
        let live4 = !is_zero(and(regs[1], active4));
        let two = !is_zero(regs[1]);
        let garbage_live = !is_zero(and(regs[1], garbage_lane));
        let mut settled = {
            let o = fold(or(regs[0], regs[1]));
            let resting = andnot(_mm512_add_epi16(o, _mm512_set1_epi16(1)), o);
            is_zero(andnot(resting, o))
        };
        let live = u32::from(live0) | u32::from(live4) << 1;
        let mut dirty = live;
        let mut n = 0usize;
        loop {
            let v0 = if dirty & 1 != 0 {
                vanishing(and(regs[0], active))
            } else {
                zero
            };
            let v1 = if dirty & 2 != 0 {
                vanishing(and(regs[1], active4))
            } else {
                zero
            };
            let any = or(v0, v1);
            if is_zero(any) {
                break;
            }
            // Every lane: the union of every plane's vanishing cells.
            let all = fold(any);
            let a = _mm512_castsi512_si128(all);
            let cleared = (_mm_cvtsi128_si64(a) as u64).count_ones()
                + (_mm_extract_epi64::<1>(a) as u64).count_ones();
            // Bits 2c and 2c + 1: the words of colour c that are not zero.
            let words = u32::from(_mm512_test_epi64_mask(v0, v0))
                | u32::from(_mm512_test_epi64_mask(v1, v1)) << 8;
            let colors = ((words | words >> 1) & 0x155).count_ones();
            // Every group has 4 cells or more: when the cells are four times the colours,
            // each colour cleared one group of 4 (group bonus 0 under both rules).
            let (groups, gb) = if cleared == 4 * colors {
                (colors, 0)
            } else {
                let mut sets = [0u128; 8];
                // SAFETY: two 64-byte stores into 128 bytes.
                unsafe {
                    _mm512_storeu_si512(sets.as_mut_ptr().cast(), v0);
                    _mm512_storeu_si512(sets.as_mut_ptr().add(4).cast(), v1);
                }
                groups_and_bonus(&[sets[0], sets[1], sets[2], sets[3], sets[4]], t, rules)
            };
            // Garbage next to a vanishing cell (never in the ghost row).
            let mut removed = all;
            let mut garbage = 0;
            if garbage_live {
                let near = and(
                    tern::<OR3>(up(all), down(all), or(left(all), right(all))),
                    active,
                );
                let g = tern::<AND3>(regs[1], near, garbage_lane);
                let g1 = _mm512_extracti32x4_epi32::<1>(g);
                garbage = (_mm_cvtsi128_si64(g1) as u64).count_ones()
                    + (_mm_extract_epi64::<1>(g1) as u64).count_ones();
                removed = or(all, _mm512_shuffle_i64x2::<0b01_01_01_01>(g, g));
            }
            regs[0] = andnot(removed, regs[0]);
            if two {
                regs[1] = andnot(removed, regs[1]);
            }
            if settled {
                // Only registers with a cell above a removed one move, so only they can
                // form a new group.
                let below = andnot(removed, _mm512_add_epi16(removed, _mm512_set1_epi16(-1)));
                dirty = live
                    & (u32::from(!is_zero(andnot(below, regs[0])))
                        | u32::from(!is_zero(tern::<ANDN_AND>(below, regs[1], active4))) << 1);
                fall_removed(&mut regs, removed, two);
            } else {
                fall_any(&mut regs);
                settled = true;
            }
            let power = t.power[(n + 1).min(MAX_CHAIN)];
            let score = 10 * cleared * (power + t.color[colors as usize] + gb).clamp(1, 999);
            if n < MAX_CHAIN {
                steps[n] = Step {
                    cleared,
                    garbage,
                    groups,
                    colors,
                    group_bonus: gb,
                    score,
                };
            }
            total += u64::from(score);
            n += 1;
        }
        let mut out = *field;
        let p = out.planes.as_mut_ptr();
        // SAFETY: as for the loads.
        unsafe {
            _mm512_storeu_si512(p.cast(), regs[0]);
            _mm256_storeu_si256(p.add(4).cast(), _mm512_castsi512_si256(regs[1]));
        }
        Chain {
            chain: n.min(MAX_CHAIN) as u32,
            score: total,
            steps,
            field: out,
        }
    }
}
