//! The two rule sets: sizes, text characters and scoring.

use super::COLORS;
#[cfg(target_arch = "x86_64")]
use super::MAX_CHAIN;

/// The two rule sets: field size, text characters and scoring (see the scoring of Puyo in
/// docs/games.md).
///
/// ```
/// use gridbits::games::puyo::Rules;
/// assert_eq!(Rules::Tsu.rows(), 13);
/// assert_eq!(Rules::SmashTheCode.chain_power(3), 16);
/// // A step of 4 cells of one colour at step 2 under Tsu: 10 * 4 * (8 + 0 + 0).
/// assert_eq!(Rules::Tsu.step_score(2, 4, 1, 0), 320);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Smash the Code (CodinGame): 6 x 12, colours `1`-`5`, skulls `0`.
    SmashTheCode,
    /// Puyo Puyo Tsu: 6 x 13 with the ghost row on top (`y = 0`), colours `R G B Y P`,
    /// ojama `O`.
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

    /// Whether `c` may appear in this rule set's text form: `.`, a colour or garbage.
    pub const fn has_char(self, c: u8) -> bool {
        if c == b'.' || c == self.garbage_char() {
            return true;
        }
        let chars = self.color_chars();
        let mut i = 0;
        while i < COLORS {
            if chars[i] == c {
                return true;
            }
            i += 1;
        }
        false
    }

    /// Chain power `CP` of step `step` (from 1; 0 is taken as 1). Smash the Code's doubling
    /// saturates far above 999, where the step's multiplier is capped anyway.
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

    /// Colour bonus `CB` for `colors` distinct colours cleared in one step (0 or 1: 0; more
    /// than 5 counts as 5).
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

    /// Group bonus `GB` of one group of `size` cells (0 below 5).
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

    /// Score of step `step` (from 1) that vanished `blocks` coloured cells of `colors` distinct
    /// colours, with group bonuses summing to `group_bonus`:
    /// `10 * blocks * clamp(CP + CB + group_bonus, 1, 999)`, saturating at `u32::MAX` (a
    /// field's step never comes near: at most 78 blocks).
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
        (10 * m).saturating_mul(blocks)
    }
}

/// Nuisance of Smash the Code: each step's score / 70 is added to a running total, and every
/// whole 6 of it sends one row of skulls.
///
/// ```
/// use gridbits::games::puyo::Nuisance;
/// let mut n = Nuisance::default();
/// assert_eq!(n.add(360), 0); // 360 / 70 = 5.14...: no whole 6 yet
/// assert_eq!(n.add(120), 1); // 5.14... + 1.71... = 6.86...: one row, 0.86... left
/// ```
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

/// The scoring tables of a rule set: chain power by step (capped at 999, which caps the
/// step's multiplier anyway), colour bonus by colours, group bonus by cells (< 8). The AVX2
/// and AVX-512 engines look their scores up here.
#[cfg(target_arch = "x86_64")]
pub(super) struct Tables {
    pub(super) power: [u32; MAX_CHAIN + 1],
    pub(super) color: [u32; 6],
    pub(super) group: [u32; 9],
    /// `fours[step][colors]`: a step's score per cleared cell when its groups are all of
    /// 4 cells (group bonus 0): `10 * clamp(CP + CB, 1, 999)`, step capped at
    /// [`MAX_CHAIN`] (the chain power is 999 from step 20 on under both rules).
    pub(super) fours: [[u32; 6]; MAX_CHAIN + 1],
}

/// The tables of `rules`.
#[cfg(target_arch = "x86_64")]
const fn tables(rules: Rules) -> Tables {
    let mut t = Tables {
        power: [0; MAX_CHAIN + 1],
        color: [0; 6],
        group: [0; 9],
        fours: [[0; 6]; MAX_CHAIN + 1],
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
    i = 0;
    while i <= MAX_CHAIN {
        let mut c = 0;
        while c < 6 {
            t.fours[i][c] = rules.step_score(if i == 0 { 1 } else { i as u32 }, 1, c as u32, 0);
            c += 1;
        }
        i += 1;
    }
    t
}

#[cfg(target_arch = "x86_64")]
pub(super) static STC: Tables = tables(Rules::SmashTheCode);
#[cfg(target_arch = "x86_64")]
pub(super) static TSU: Tables = tables(Rules::Tsu);
