//! A Tetris game by the guideline: seeded pieces, next queue, hold, spawn and top-out, line
//! clear scoring, attack and incoming garbage, one placement per [`Game::step`].
//!
//! # Rules
//!
//! - **Pieces** come from a [`PieceGen`] (7-bag by default, see [`super::bag`]); the next
//!   [`GameConfig::previews`] pieces (5 by default, at most [`MAX_PREVIEWS`]) are visible.
//! - **A turn** ([`Game::step`]) either locks the current piece at one of the placements
//!   [`Tetris::moves`] lists for it ([`Action::Place`]; the move generator's guideline moves
//!   with SRS kicks, each placement with its best T-spin), or holds ([`Action::Hold`]):
//!   the current piece goes to the hold box and the held piece (or, when the box is empty,
//!   the next piece) becomes current. Hold is allowed once per piece (it is allowed again
//!   after the next lock) and can be switched off ([`GameConfig::hold`]).
//! - **Spawn and top-out** (guideline): a piece enters at [`Tetris::spawn`] (its nominal
//!   spawn, else one row up). **Block out**: the new current piece (after a lock or a hold)
//!   does not fit there. **Lock out**: a piece locks with all four cells above the visible
//!   rows (the bottom [`VISIBLE_ROWS`] rows, or the whole matrix when it is lower); checked
//!   on the cells where it locks, before lines clear. **Garbage out** (not in the guideline,
//!   as in versus games): rising garbage pushes a filled cell above the top row. Each ends
//!   the game ([`TopOut`]).
//! - **Score** of a lock, `(action + combo + perfect clear) x level` (the guideline's
//!   scoring as in Tetris Effect / Tetris (2014+); drop points are not counted since a
//!   step is a placement, not inputs):
//!
//!   | lines cleared | 0 | 1 | 2 | 3 | 4 |
//!   |---|---|---|---|---|---|
//!   | no spin | 0 | 100 | 300 | 500 | 800 |
//!   | T-spin mini | 100 | 200 | 400 | - | - |
//!   | T-spin | 400 | 800 | 1200 | 1600 | - |
//!
//!   **Back-to-back**: a *difficult* clear (a tetris, or a T-spin or T-spin mini that
//!   clears lines) right after another difficult clear (line clears in between that are not
//!   difficult break the chain; locks that clear nothing do not) scores its action 1.5x.
//!   **Combo**: the `n`-th line-clearing lock in a row (`combo = n`) adds
//!   `50 x (n - 1)`. **Perfect clear** (the matrix empty after the clear) adds 800, 1200,
//!   1800, 2000 for 1 to 4 lines, and 3200 for a back-to-back tetris perfect clear.
//!   **Level** = [`GameConfig::level`] + lines cleared / [`GameConfig::lines_per_level`]
//!   (the guideline's fixed goal of 10; 0 keeps the level fixed).
//! - **Attack** (lines sent, the Tetris 99 / Puyo Puyo Tetris guideline table):
//!
//!   | lines cleared | 1 | 2 | 3 | 4 |
//!   |---|---|---|---|---|
//!   | no spin | 0 | 1 | 2 | 4 |
//!   | T-spin mini | 0 | 1 | - | - |
//!   | T-spin | 2 | 4 | 6 | - |
//!
//!   plus 1 for back-to-back, plus the combo table by `combo - 1` = 0, 0, 1, 1, 2, 2, 3, 3,
//!   4, 4, 4, then 5 (from the 12th clear in a row), plus 10 for a perfect clear.
//! - **Garbage**: [`Game::add_garbage`] queues `lines` rows with one hole at a column. On
//!   each lock the attack first cancels queued rows, oldest first (what is left is sent,
//!   [`StepResult::attack`]); then every row still queued rises from the floor: each
//!   column moves up and the new bottom rows are full except the hole.
//!
//! ```
//! use gridbits::games::tetris::{Action, Game, GameConfig};
//! let mut g = Game::<10>::new(GameConfig::default(), 7).unwrap();
//! let first = g.current();
//! let place = g.moves()[0];
//! let r = g.step(Action::Place(place)).unwrap();
//! assert_eq!((r.lines, r.score, r.game_over), (0, 0, None));
//! assert_eq!(g.pieces(), 1);
//! assert_ne!(g.matrix().count(), 0);
//! # let _ = first;
//! ```

use super::bag::{PieceGen, Randomizer};
use super::{MoveOptions, Piece, Placement, Spin, Tetris};
use crate::SizeError;
use std::collections::VecDeque;
use std::fmt;

/// The most preview pieces a game shows.
pub const MAX_PREVIEWS: usize = 16;
/// Rows of the visible matrix (the guideline's 20); the rows above are the buffer zone.
pub const VISIBLE_ROWS: usize = 20;

/// Score of the action, `[spin][lines]` (spin: none, mini, full), before level, b2b, combo.
pub const ACTION_SCORE: [[u32; 5]; 3] = [
    [0, 100, 300, 500, 800],
    [100, 200, 400, 0, 0],
    [400, 800, 1200, 1600, 0],
];
/// Lines sent, `[spin][lines]` (spin: none, mini, full), before b2b, combo, perfect clear.
pub const ATTACK: [[u32; 5]; 3] = [[0, 0, 1, 2, 4], [0, 0, 1, 0, 0], [0, 2, 4, 6, 0]];
/// Combo attack by `combo - 1` (the last entry holds for longer combos).
pub const COMBO_ATTACK: [u32; 12] = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5];
/// Perfect clear bonus by lines (1 to 4), before level.
pub const PERFECT_CLEAR_SCORE: [u32; 5] = [0, 800, 1200, 1800, 2000];
/// Perfect clear bonus of a back-to-back tetris, before level.
pub const B2B_TETRIS_PERFECT_CLEAR_SCORE: u32 = 3200;
/// Lines a perfect clear sends, on top of the rest.
pub const PERFECT_CLEAR_ATTACK: u32 = 10;

/// The points (before the level) and the lines sent of a lock that clears `lines` with
/// `spin`: `back_to_back` when the clear gets the back-to-back bonus, `combo` the
/// line-clearing locks in a row including this one, `perfect_clear` when the matrix is
/// empty after it (the tables of the [module documentation](self)). Queued garbage is not
/// taken into account (the game cancels it from the attack).
///
/// ```
/// use gridbits::games::tetris::{clear_reward, Spin};
/// assert_eq!(clear_reward(4, Spin::None, false, 1, false), (800, 4));
/// assert_eq!(clear_reward(2, Spin::Full, true, 1, false), (1800, 5)); // b2b TSD
/// assert_eq!(clear_reward(1, Spin::None, false, 3, false), (200, 1)); // single, combo 2
/// assert_eq!(clear_reward(0, Spin::Full, false, 0, false), (400, 0)); // T-spin, no lines
/// ```
pub fn clear_reward(
    lines: u32,
    spin: Spin,
    back_to_back: bool,
    combo: u32,
    perfect_clear: bool,
) -> (u64, u32) {
    let (s, l) = (spin as usize, lines.min(4) as usize);
    let mut points = u64::from(ACTION_SCORE[s][l]);
    if lines == 0 {
        return (points, 0);
    }
    let mut attack = ATTACK[s][l];
    if back_to_back {
        points = points * 3 / 2;
        attack += 1;
    }
    let c = combo.max(1) as usize - 1;
    points += 50 * c as u64;
    attack += COMBO_ATTACK[c.min(COMBO_ATTACK.len() - 1)];
    if perfect_clear {
        attack += PERFECT_CLEAR_ATTACK;
        points += u64::from(if back_to_back && lines >= 4 {
            B2B_TETRIS_PERFECT_CLEAR_SCORE
        } else {
            PERFECT_CLEAR_SCORE[l]
        });
    }
    (points, attack)
}

/// The settings of a [`Game`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameConfig {
    /// Rows of the matrix, 1 to 64 (40 by default: 20 visible and a 20-row buffer).
    pub height: usize,
    /// Preview pieces, 0 to [`MAX_PREVIEWS`] (5 by default).
    pub previews: usize,
    /// Whether hold is allowed (by default it is).
    pub hold: bool,
    /// How pieces are drawn (7-bag by default).
    pub randomizer: Randomizer,
    /// The starting level, at least 1 (1 by default).
    pub level: u32,
    /// Lines per level (10 by default); 0 keeps the level fixed.
    pub lines_per_level: u32,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            height: super::DEFAULT_HEIGHT,
            previews: 5,
            hold: true,
            randomizer: Randomizer::Bag7,
            level: 1,
            lines_per_level: 10,
        }
    }
}

/// What a turn does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Lock the current piece at a placement of [`Game::moves`] (matched by rotation, `x`
    /// and `y`; its spin is the one the move generator gives).
    Place(Placement),
    /// Swap the current piece with the hold box.
    Hold,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TopOut {
    /// The new piece does not fit at its spawn.
    BlockOut,
    /// A piece locked entirely above the visible rows.
    LockOut,
    /// Rising garbage pushed a cell above the top row.
    GarbageOut,
}

/// A move the game refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game is over.
    GameOver,
    /// Hold is switched off, or was used already for this piece.
    HoldUnavailable,
    /// The placement is not one of [`Game::moves`] for the current piece.
    NotAPlacement(Placement),
    /// A garbage hole column off the matrix.
    HoleOffMatrix {
        /// The column given.
        column: usize,
        /// The matrix width.
        width: usize,
    },
    /// A setting out of range (its name and the rule).
    Config(&'static str),
    /// A matrix size that cannot be made.
    Size(SizeError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver => f.write_str("the game is over"),
            GameError::HoldUnavailable => {
                f.write_str("hold is not available (switched off, or used for this piece)")
            }
            GameError::NotAPlacement(p) => write!(
                f,
                "{} at rotation {}, x {}, y {} is not a reachable placement of the current piece",
                p.piece, p.rotation, p.x, p.y
            ),
            GameError::HoleOffMatrix { column, width } => {
                write!(f, "hole column {column} is off the matrix (width {width})")
            }
            GameError::Config(why) => write!(f, "invalid game setting: {why}"),
            GameError::Size(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GameError {}

/// What a turn did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StepResult {
    /// Lines cleared.
    pub lines: u32,
    /// Points scored (level included).
    pub score: u64,
    /// Lines sent after cancelling queued garbage.
    pub attack: u32,
    /// Queued garbage rows the attack cancelled.
    pub cancelled: u32,
    /// Garbage rows that rose after the lock.
    pub garbage: u32,
    /// The T-spin kind of the lock.
    pub spin: Spin,
    /// Line-clearing locks in a row, this one included (0 when it cleared nothing).
    pub combo: u32,
    /// Whether the clear got the back-to-back bonus.
    pub back_to_back: bool,
    /// Whether the clear emptied the matrix.
    pub perfect_clear: bool,
    /// How the game ended, if it did.
    pub game_over: Option<TopOut>,
}

/// A guideline Tetris game on a `W`-wide matrix; rules in the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game<const W: usize = 10> {
    matrix: Tetris<W>,
    config: GameConfig,
    gen: PieceGen,
    current: Piece,
    queue: [Piece; MAX_PREVIEWS],
    hold: Option<Piece>,
    hold_used: bool,
    combo: u32,
    b2b: bool,
    lines: u32,
    score: u64,
    pieces: u64,
    garbage: VecDeque<(u32, u8)>,
    over: Option<TopOut>,
}

impl<const W: usize> Game<W> {
    /// A new game with pieces from `seed`.
    ///
    /// # Errors
    /// When the width or `config.height` is not 1 to 64, `previews` is more than
    /// [`MAX_PREVIEWS`] or `level` is 0.
    pub fn new(config: GameConfig, seed: u64) -> Result<Self, GameError> {
        let matrix = Tetris::<W>::try_new(config.height).map_err(GameError::Size)?;
        if config.previews > MAX_PREVIEWS {
            return Err(GameError::Config("previews must be 0 to 16"));
        }
        if config.level == 0 {
            return Err(GameError::Config("level must be at least 1"));
        }
        let mut gen = PieceGen::new(seed, config.randomizer);
        let current = gen.next_piece();
        let mut queue = [Piece::I; MAX_PREVIEWS];
        for q in &mut queue[..config.previews] {
            *q = gen.next_piece();
        }
        let mut g = Game {
            matrix,
            config,
            gen,
            current,
            queue,
            hold: None,
            hold_used: false,
            combo: 0,
            b2b: false,
            lines: 0,
            score: 0,
            pieces: 0,
            garbage: VecDeque::new(),
            over: None,
        };
        if g.matrix.spawn(current).is_none() {
            g.over = Some(TopOut::BlockOut);
        }
        Ok(g)
    }

    /// Mutable access to the matrix, for setting up positions (the game does not re-check
    /// its spawn until the next turn).
    pub fn matrix_mut(&mut self) -> &mut Tetris<W> {
        &mut self.matrix
    }

    /// Replaces the current piece, for setting up positions; a piece that does not fit at
    /// its spawn ends the game (block out).
    pub fn set_current(&mut self, piece: Piece) {
        self.current = piece;
        if self.over.is_none() && self.matrix.spawn(piece).is_none() {
            self.over = Some(TopOut::BlockOut);
        }
    }

    /// The matrix.
    pub const fn matrix(&self) -> &Tetris<W> {
        &self.matrix
    }

    /// The settings.
    pub const fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The piece to place.
    pub const fn current(&self) -> Piece {
        self.current
    }

    /// The preview pieces, next first.
    pub fn queue(&self) -> &[Piece] {
        &self.queue[..self.config.previews]
    }

    /// The held piece.
    pub const fn held(&self) -> Option<Piece> {
        self.hold
    }

    /// Whether [`Action::Hold`] is allowed now.
    pub const fn can_hold(&self) -> bool {
        self.config.hold && !self.hold_used && self.over.is_none()
    }

    /// Line-clearing locks in a row, up to the last lock (0 when it cleared nothing).
    pub const fn combo(&self) -> u32 {
        self.combo
    }

    /// Whether the last line clear was difficult (a back-to-back chain is open).
    pub const fn back_to_back(&self) -> bool {
        self.b2b
    }

    /// Lines cleared so far.
    pub const fn lines(&self) -> u32 {
        self.lines
    }

    /// Score so far.
    pub const fn score(&self) -> u64 {
        self.score
    }

    /// Pieces locked so far.
    pub const fn pieces(&self) -> u64 {
        self.pieces
    }

    /// The current level.
    pub const fn level(&self) -> u32 {
        match self.config.lines_per_level {
            0 => self.config.level,
            n => self.config.level.saturating_add(self.lines / n),
        }
    }

    /// Garbage rows queued (not yet risen).
    pub fn pending_garbage(&self) -> u32 {
        self.garbage.iter().fold(0u32, |a, g| a.saturating_add(g.0))
    }

    /// How the game ended, or `None` while it runs.
    pub const fn game_over(&self) -> Option<TopOut> {
        self.over
    }

    /// Every placement of the current piece ([`Tetris::moves`]); empty once the game is over.
    pub fn moves(&self) -> Vec<Placement> {
        let mut out = Vec::with_capacity(4 * W);
        self.for_each_move(|p| out.push(p));
        out
    }

    /// Calls `f` on each placement of [`moves`](Self::moves), without allocating.
    pub fn for_each_move(&self, f: impl FnMut(Placement)) {
        if self.over.is_none() {
            self.matrix
                .for_each_move(self.current, &MoveOptions::default(), f);
        }
    }

    /// Queues `lines` garbage rows with the hole at `hole_column` (they rise on a later lock,
    /// unless an attack cancels them).
    ///
    /// # Errors
    /// When `hole_column` is `W` or more.
    pub fn add_garbage(&mut self, lines: u32, hole_column: usize) -> Result<(), GameError> {
        if hole_column >= W {
            return Err(GameError::HoleOffMatrix {
                column: hole_column,
                width: W,
            });
        }
        if lines > 0 {
            self.garbage.push_back((lines, hole_column as u8));
        }
        Ok(())
    }

    /// Plays one turn (see the [module documentation](self)).
    ///
    /// # Errors
    /// When the game is over, the placement is not one of [`moves`](Self::moves) or hold is
    /// not available; the game is unchanged.
    pub fn step(&mut self, action: Action) -> Result<StepResult, GameError> {
        if self.over.is_some() {
            return Err(GameError::GameOver);
        }
        match action {
            Action::Hold => self.hold(),
            Action::Place(p) => {
                let mut found = None;
                if p.piece == self.current {
                    self.for_each_move(|m| {
                        if m.rotation == p.rotation && m.x == p.x && m.y == p.y {
                            found = Some(m);
                        }
                    });
                }
                match found {
                    Some(m) => {
                        let mut r = StepResult::default();
                        self.lock(m, &mut r);
                        Ok(r)
                    }
                    None => Err(GameError::NotAPlacement(p)),
                }
            }
        }
    }

    /// Holds (see [`Action::Hold`]).
    fn hold(&mut self) -> Result<StepResult, GameError> {
        if !self.can_hold() {
            return Err(GameError::HoldUnavailable);
        }
        let out = self.current;
        self.current = match self.hold {
            Some(h) => h,
            None => self.next_from_queue(),
        };
        self.hold = Some(out);
        self.hold_used = true;
        let mut r = StepResult {
            combo: self.combo,
            ..StepResult::default()
        };
        if self.matrix.spawn(self.current).is_none() {
            self.over = Some(TopOut::BlockOut);
            r.game_over = self.over;
        }
        Ok(r)
    }

    /// The next piece of the queue (the queue takes a new one from the generator).
    fn next_from_queue(&mut self) -> Piece {
        let n = self.config.previews;
        if n == 0 {
            return self.gen.next_piece();
        }
        let next = self.queue[0];
        self.queue.copy_within(1..n, 0);
        self.queue[n - 1] = self.gen.next_piece();
        next
    }

    /// Locks the current piece at `m`, a placement the move generator listed for it (the
    /// batch environments call this with the generator's own placements), and writes what
    /// the turn did into `r` (in place: the batch keeps it in the game's slot, and a result
    /// returned by value was copied there with wide loads over its narrow stores, which
    /// wait for them).
    pub(crate) fn lock(&mut self, m: Placement, r: &mut StepResult) {
        let h = self.matrix.height();
        let sky = h - VISIBLE_ROWS.min(h);
        let lock_out = m.cells().iter().all(|&(_, y)| y < sky as i32);
        let level = u64::from(self.level());
        // The generator's placements fit: `place` cannot refuse them.
        let lines = self
            .matrix
            .place(m.piece, m.rotation, m.x, m.y)
            .unwrap_or(0);
        self.pieces += 1;
        let spin = m.spin;
        *r = StepResult {
            lines,
            spin,
            ..StepResult::default()
        };
        if lines > 0 {
            let difficult = lines >= 4 || spin != Spin::None;
            r.back_to_back = difficult && self.b2b;
            self.b2b = difficult;
            self.combo += 1;
            r.perfect_clear = self.matrix.count() == 0;
        } else {
            self.combo = 0;
        }
        let (points, mut attack) =
            clear_reward(lines, spin, r.back_to_back, self.combo, r.perfect_clear);
        r.combo = self.combo;
        r.score = points * level;
        self.score += r.score;
        self.lines += lines;
        // Attack cancels queued garbage, oldest first.
        while attack > 0 {
            let Some(front) = self.garbage.front_mut() else {
                break;
            };
            let c = front.0.min(attack);
            front.0 -= c;
            attack -= c;
            r.cancelled += c;
            if front.0 == 0 {
                self.garbage.pop_front();
            }
        }
        r.attack = attack;
        // What is left rises.
        let mut garbage_out = false;
        while let Some((n, hole)) = self.garbage.pop_front() {
            r.garbage = r.garbage.saturating_add(n);
            garbage_out |= self.raise(n, usize::from(hole));
        }
        self.hold_used = false;
        self.current = self.next_from_queue();
        self.over = if lock_out {
            Some(TopOut::LockOut)
        } else if garbage_out {
            Some(TopOut::GarbageOut)
        } else if self.matrix.spawn(self.current).is_none() {
            Some(TopOut::BlockOut)
        } else {
            None
        };
        r.game_over = self.over;
    }

    /// Raises `n` garbage rows with the hole at `hole`; returns whether a filled cell went
    /// above the top row.
    fn raise(&mut self, n: u32, hole: usize) -> bool {
        let board = self.matrix.board_mut();
        let m = board.height_mask();
        let h = board.height() as u32;
        let fill = if n >= 64 { !0 } else { (1u64 << n) - 1 } & m;
        let mut out = false;
        for (x, c) in board.columns_mut().iter_mut().enumerate() {
            let up = if n >= h { 0 } else { (*c << n) & m };
            out |= up.count_ones() != c.count_ones();
            *c = up | if x == hole { 0 } else { fill };
        }
        out
    }
}
