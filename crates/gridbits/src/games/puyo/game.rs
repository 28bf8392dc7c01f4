//! A Puyo Puyo Tsu game: seeded pairs, two visible next pairs, the 22 placements, chains,
//! all clear, ojama sent from the score and incoming ojama, death.
//!
//! # Rules
//!
//! - **Colours and pairs** ([`PairGen`]): each game uses [`TsuConfig::colors`] colours (4 by
//!   default, 3 to 5) drawn without replacement from the five; each puyo of a pair is one of
//!   them, uniformly and independently, except that the first two pairs draw from only the
//!   first three of the game's colours (the rule of the Tsu sequence that the first two
//!   pairs hold at most 3 colours, as described by the Puyo Nexus wiki). Draws come from
//!   [`GameRng`], so a seed gives the same pairs everywhere.
//! - **Next pairs**: [`TsuConfig::previews`] are visible (2 by default, at most
//!   [`MAX_PAIR_PREVIEWS`]).
//! - **A turn** places the current pair by one of the 22 moves ([`PLACEMENTS`], indexed
//!   0 to 21 by column, then rotation: the order of [`Field::drops`] on an open field).
//!   A move is legal when [`Field::drops`] lists it (Tsu's reachability: the pair moves in
//!   row 12 and is stopped by a column whose row 12 is filled; for a pair of one colour only
//!   rotations 0 and 1 are listed, the mirror moves making the same field). Then the chain
//!   runs ([`Field::simulate`]) and scores.
//! - **All clear**: a turn that leaves the field empty (after a chain) earns an all-clear
//!   bonus: the next turn that fires a chain adds 2100 points to its score (30 ojama at
//!   target point 70), as in Tsu.
//! - **Ojama from score**: the turn's score (with the bonus) plus the carried remainder,
//!   divided by the target point [`TsuConfig::target_point`] (70), gives the ojama; the
//!   remainder carries to the next chain. The ojama first cancel incoming ojama (offset);
//!   what is left is sent ([`TsuStep::ojama_sent`]).
//! - **Incoming ojama** ([`TsuGame::add_ojama`]) falls at the end of a turn, after the
//!   chain and the offset, at most [`TsuConfig::max_drop`] (30, five rows) per turn; the
//!   rest waits for the next turn. A drop of `n`: `n / 6` full rows, then `n % 6` puyos in
//!   distinct columns chosen uniformly by a seeded partial Fisher-Yates shuffle of the six
//!   columns. Each falls onto its column; one that would land above the 13th row is lost.
//! - **Death**: the game ends when the cell at the third column of the 12th row (`(2, 1)`
//!   from the top) is filled at the end of a turn, that is after the chain and the ojama
//!   drop ([`Field::is_game_over`]).
//!
//! ```
//! use gridbits::games::puyo::{TsuConfig, TsuGame};
//! let mut g = TsuGame::new(TsuConfig::default(), 3).unwrap();
//! let moves = g.legal_moves();
//! assert_eq!(moves.count_ones(), if g.current().is_double() { 11 } else { 22 });
//! let r = g.step(moves.trailing_zeros() as usize).unwrap();
//! assert_eq!((r.chain, r.score, r.game_over), (0, 0, false));
//! assert_eq!(g.field().count(), 2);
//! ```

use super::{Field, Pair, PairMove, Rules, COLORS, COLUMNS, GARBAGE, LANE};
use crate::games::rng::GameRng;
use std::fmt;

/// The most next pairs a game shows.
pub const MAX_PAIR_PREVIEWS: usize = 8;
/// The all-clear bonus added to the next chain's score.
pub const ALL_CLEAR_BONUS: u64 = 2100;

/// The 22 moves by index: column by column, and in each column rotations 0 (child right),
/// 1 (above), 2 (left), 3 (below) where the child stays on the field.
pub const PLACEMENTS: [PairMove; 22] = {
    let mut out = [PairMove {
        column: 0,
        rotation: 0,
    }; 22];
    let mut i = 0;
    let mut x = 0;
    while x < COLUMNS {
        let mut r = 0;
        while r < 4 {
            let mv = PairMove {
                column: x,
                rotation: r,
            };
            if mv.columns().is_some() {
                out[i] = mv;
                i += 1;
            }
            r += 1;
        }
        x += 1;
    }
    out
};

/// The index of a move in [`PLACEMENTS`], `[column][rotation]` (255 where the child leaves
/// the field).
const INDEX: [[u8; 4]; COLUMNS] = {
    let mut out = [[255u8; 4]; COLUMNS];
    let mut i = 0;
    while i < 22 {
        let m = PLACEMENTS[i];
        out[m.column][m.rotation as usize] = i as u8;
        i += 1;
    }
    out
};

/// The index of `mv` in [`PLACEMENTS`], or `None` for a move off the field.
///
/// ```
/// use gridbits::games::puyo::{placement_index, PairMove, PLACEMENTS};
/// assert_eq!(placement_index(PairMove { column: 0, rotation: 0 }), Some(0));
/// assert_eq!(placement_index(PairMove { column: 0, rotation: 2 }), None);
/// assert_eq!(PLACEMENTS[placement_index(PairMove { column: 5, rotation: 3 }).unwrap()].column, 5);
/// ```
pub const fn placement_index(mv: PairMove) -> Option<usize> {
    if mv.column >= COLUMNS || mv.rotation >= 4 {
        return None;
    }
    match INDEX[mv.column][mv.rotation as usize] {
        255 => None,
        i => Some(i as usize),
    }
}

/// The settings of a [`TsuGame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TsuConfig {
    /// Colours in play, 3 to 5 (4 by default).
    pub colors: u8,
    /// Next pairs shown, 0 to [`MAX_PAIR_PREVIEWS`] (2 by default).
    pub previews: usize,
    /// Points per ojama, at least 1 (70 by default).
    pub target_point: u32,
    /// Most incoming ojama falling per turn, at least 1 (30 by default: five rows).
    pub max_drop: u32,
}

impl Default for TsuConfig {
    fn default() -> Self {
        TsuConfig {
            colors: 4,
            previews: 2,
            target_point: 70,
            max_drop: 30,
        }
    }
}

/// A setting out of range, or a move the game refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TsuError {
    /// A setting out of range (what the rule is).
    Config(&'static str),
    /// The game is over.
    GameOver,
    /// The move index is not legal now (22 or more, or not listed by [`Field::drops`]).
    IllegalMove(usize),
}

impl fmt::Display for TsuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TsuError::Config(why) => write!(f, "invalid game setting: {why}"),
            TsuError::GameOver => f.write_str("the game is over"),
            TsuError::IllegalMove(i) => write!(f, "move {i} is not a legal placement now"),
        }
    }
}

impl std::error::Error for TsuError {}

/// A seeded stream of pairs by the Tsu colour rule (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PairGen {
    rng: GameRng,
    colors: [u8; COLORS],
    count: u8,
    dealt: u8,
}

impl PairGen {
    /// The stream of `seed` with `colors` colours (clamped to 3 to 5).
    pub fn new(seed: u64, colors: u8) -> Self {
        let mut rng = GameRng::new(seed);
        let count = colors.clamp(3, COLORS as u8);
        let mut all = [0u8, 1, 2, 3, 4];
        // Partial Fisher-Yates: the first `count` entries are the game's colours.
        for i in 0..usize::from(count) {
            let j = i + rng.below((COLORS - i) as u64) as usize;
            all.swap(i, j);
        }
        PairGen {
            rng,
            colors: all,
            count,
            dealt: 0,
        }
    }

    /// The game's colours (colour indices), in draw order.
    pub fn colors(&self) -> &[u8] {
        &self.colors[..usize::from(self.count)]
    }

    /// The next pair.
    pub fn next_pair(&mut self) -> Pair {
        let n = if self.dealt < 2 { 3 } else { self.count };
        self.dealt = self.dealt.saturating_add(1);
        let axis = self.colors[self.rng.below(u64::from(n)) as usize];
        let child = self.colors[self.rng.below(u64::from(n)) as usize];
        Pair { axis, child }
    }
}

/// What a turn did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TsuStep {
    /// Chain length (0: nothing vanished).
    pub chain: u32,
    /// Points scored, the all-clear bonus included.
    pub score: u64,
    /// Whether the all-clear bonus was paid in this turn.
    pub all_clear_bonus: bool,
    /// Whether this turn emptied the field (the bonus goes to the next chain).
    pub all_clear: bool,
    /// Ojama the score made that cancelled incoming ojama.
    pub ojama_cancelled: u32,
    /// Ojama sent to the opponent.
    pub ojama_sent: u32,
    /// Incoming ojama that fell at the end of the turn.
    pub ojama_dropped: u32,
    /// Whether the game is over.
    pub game_over: bool,
}

/// A Puyo Puyo Tsu game; rules in the [module documentation](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TsuGame {
    field: Field,
    config: TsuConfig,
    pairs: PairGen,
    drops: GameRng,
    current: Pair,
    queue: [Pair; MAX_PAIR_PREVIEWS],
    score: u64,
    carry: u64,
    bonus: bool,
    incoming: u32,
    turns: u64,
    over: bool,
}

impl TsuGame {
    /// A new game on an empty Tsu field with pairs and ojama columns from `seed`.
    ///
    /// # Errors
    /// When `colors` is not 3 to 5, `previews` is more than [`MAX_PAIR_PREVIEWS`], or
    /// `target_point` or `max_drop` is 0.
    pub fn new(config: TsuConfig, seed: u64) -> Result<Self, TsuError> {
        if !(3..=5).contains(&config.colors) {
            return Err(TsuError::Config("colors must be 3 to 5"));
        }
        if config.previews > MAX_PAIR_PREVIEWS {
            return Err(TsuError::Config("previews must be 0 to 8"));
        }
        if config.target_point == 0 || config.max_drop == 0 {
            return Err(TsuError::Config(
                "target_point and max_drop must be at least 1",
            ));
        }
        let mut seeds = seed;
        let mut pairs = PairGen::new(crate::games::rng::splitmix64(&mut seeds), config.colors);
        let drops = GameRng::new(crate::games::rng::splitmix64(&mut seeds));
        let current = pairs.next_pair();
        let mut queue = [Pair { axis: 0, child: 0 }; MAX_PAIR_PREVIEWS];
        for q in &mut queue[..config.previews] {
            *q = pairs.next_pair();
        }
        Ok(TsuGame {
            field: Field::new(Rules::Tsu),
            config,
            pairs,
            drops,
            current,
            queue,
            score: 0,
            carry: 0,
            bonus: false,
            incoming: 0,
            turns: 0,
            over: false,
        })
    }

    /// The field.
    pub const fn field(&self) -> &Field {
        &self.field
    }

    /// Replaces the field, for setting up positions (a field whose death cell is filled
    /// ends the game).
    pub fn set_field(&mut self, field: Field) {
        let mut f = Field::new(Rules::Tsu);
        f.planes = field.planes;
        f.planes.iter_mut().for_each(|p| *p &= super::ALL);
        self.field = f;
        self.over = self.field.is_game_over();
    }

    /// The settings.
    pub const fn config(&self) -> &TsuConfig {
        &self.config
    }

    /// The pair to place.
    pub const fn current(&self) -> Pair {
        self.current
    }

    /// Replaces the current pair, for setting up positions.
    pub fn set_current(&mut self, pair: Pair) {
        self.current = pair;
    }

    /// The next pairs, next first.
    pub fn queue(&self) -> &[Pair] {
        &self.queue[..self.config.previews]
    }

    /// Score so far.
    pub const fn score(&self) -> u64 {
        self.score
    }

    /// Turns played.
    pub const fn turns(&self) -> u64 {
        self.turns
    }

    /// Incoming ojama waiting to fall.
    pub const fn incoming(&self) -> u32 {
        self.incoming
    }

    /// Whether the next chain gets the all-clear bonus.
    pub const fn all_clear_pending(&self) -> bool {
        self.bonus
    }

    /// Points carried towards the next ojama (less than the target point).
    pub const fn carry(&self) -> u64 {
        self.carry
    }

    /// Whether the game is over.
    pub const fn is_over(&self) -> bool {
        self.over
    }

    /// Queues `n` incoming ojama (they fall at the end of turns, unless offset).
    pub fn add_ojama(&mut self, n: u32) {
        self.incoming = self.incoming.saturating_add(n);
    }

    /// The legal moves now, bit `i` for [`PLACEMENTS`]`[i]` (0 once the game is over).
    pub fn legal_moves(&self) -> u32 {
        if self.over {
            return 0;
        }
        let mut m = 0;
        for mv in self.field.drops(self.current).moves() {
            if let Some(i) = placement_index(mv) {
                m |= 1 << i;
            }
        }
        m
    }

    /// Plays move `index` of [`PLACEMENTS`] (see the [module documentation](self)).
    ///
    /// # Errors
    /// When the game is over or the move is not legal; the game is unchanged.
    pub fn step(&mut self, index: usize) -> Result<TsuStep, TsuError> {
        if self.over {
            return Err(TsuError::GameOver);
        }
        let mv = *PLACEMENTS.get(index).ok_or(TsuError::IllegalMove(index))?;
        let after = self
            .field
            .drops(self.current)
            .find(mv)
            .ok_or(TsuError::IllegalMove(index))?;
        Ok(self.play(after))
    }

    /// Finishes a turn whose pair fell to `after`.
    fn play(&mut self, after: Field) -> TsuStep {
        let chain = after.simulate();
        self.field = chain.field;
        self.turns += 1;
        let mut r = TsuStep {
            chain: chain.chain,
            score: chain.score,
            ..TsuStep::default()
        };
        if chain.chain > 0 && self.bonus {
            r.score += ALL_CLEAR_BONUS;
            r.all_clear_bonus = true;
            self.bonus = false;
        }
        if chain.chain > 0 && self.field.count() == 0 {
            r.all_clear = true;
            self.bonus = true;
        }
        self.score += r.score;
        let tp = u64::from(self.config.target_point);
        let total = self.carry + r.score;
        let ojama = u32::try_from(total / tp).unwrap_or(u32::MAX);
        self.carry = total % tp;
        let cancel = ojama.min(self.incoming);
        self.incoming -= cancel;
        r.ojama_cancelled = cancel;
        r.ojama_sent = ojama - cancel;
        let fall = self.incoming.min(self.config.max_drop);
        if fall > 0 {
            self.incoming -= fall;
            self.drop_ojama(fall);
            r.ojama_dropped = fall;
        }
        self.current = self.next_from_queue();
        self.over = self.field.is_game_over();
        r.game_over = self.over;
        r
    }

    fn next_from_queue(&mut self) -> Pair {
        let n = self.config.previews;
        if n == 0 {
            return self.pairs.next_pair();
        }
        let next = self.queue[0];
        self.queue.copy_within(1..n, 0);
        self.queue[n - 1] = self.pairs.next_pair();
        next
    }

    /// Drops `n` ojama: whole rows, then the rest in distinct seeded columns.
    fn drop_ojama(&mut self, n: u32) {
        let mut per = [n / 6; COLUMNS];
        let rest = (n % 6) as usize;
        let mut cols = [0usize, 1, 2, 3, 4, 5];
        for i in 0..rest {
            let j = i + self.drops.below((COLUMNS - i) as u64) as usize;
            cols.swap(i, j);
            per[cols[i]] += 1;
        }
        let occ = self.field.occupied();
        let rows = self.field.rows() as u32;
        for (x, &k) in per.iter().enumerate() {
            let lane = (occ >> (LANE as usize * x)) as u16;
            let h = 16 - lane.leading_zeros();
            let top = (h + k).min(rows);
            if top > h {
                let bits = ((1u128 << (top - h)) - 1) << (h + LANE * x as u32);
                self.field.planes[GARBAGE] |= bits;
            }
        }
    }
}
