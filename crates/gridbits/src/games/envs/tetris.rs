//! The batched Tetris environment.

use super::tetris_cells::write_cells;
use super::{check_len, drive_observe, next_episode_seed, slots, step_batch, EnvError, StepIo};
use crate::games::tetris::{
    tight_offset, Action, Game, GameConfig, Locks, MoveOptions, Piece, Placement, Rotation, Spin,
    StepResult, Tops,
};

/// The action space of a [`TetrisEnv`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TetrisActions {
    /// One action per lock position: index `(r * H + y) * W + x` for the orientation `r`
    /// (0 to 3: `0 R 2 L`) and the **tight box**'s top-left cell `(x, y)` (`y` from the top;
    /// the tight box is the piece's own bounding box, the SRS box moved by a per-piece,
    /// per-orientation offset, so every lock fits in `W x H`), then hold at `4 * H * W`.
    /// Every placement [`Tetris::moves`](crate::games::tetris::Tetris::moves) lists is one
    /// legal action; placements with the same cells (O's orientations, `2` and `L` of I, S
    /// and Z) are legal only at the orientation `moves` reports (`0` for O, `0` or `R` for
    /// I S Z); the other indices are masked out.
    #[default]
    Placements,
    /// One action per orientation and column, index `r * W + x` (`x` the tight box's left
    /// column), then hold at `4 * W`: the highest lock position `moves` lists in that
    /// orientation and column (the hard drop from above the stack when the piece can get
    /// there). Same canonical orientations as [`Placements`](Self::Placements). While every
    /// straight drop comes to rest at or below the spawn row, these are the straight drops,
    /// found from the column heights without the full search, and so is a T's spin where the
    /// rotations into its lock start above the stack; near the top, a search over the
    /// positions above the stack decides most pieces the same way (the same mask and
    /// placements; the proofs are in `games/tetris/straight_drops/`).
    HardDrop,
}

/// The settings of a [`TetrisEnv`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TetrisEnvConfig {
    /// The game settings; the default is the game's default with 24 rows (20 visible and a
    /// 4-row buffer: the spawn rows and two above).
    pub game: GameConfig,
    /// The action space.
    pub actions: TetrisActions,
}

impl Default for TetrisEnvConfig {
    fn default() -> Self {
        TetrisEnvConfig {
            game: GameConfig {
                height: 24,
                ..GameConfig::default()
            },
            actions: TetrisActions::Placements,
        }
    }
}

/// Header bytes of a Tetris observation after the board.
const HEADER: usize = 6;

/// The lowest matrix an environment takes: every piece is at most two rows tall in its spawn
/// orientation, so on an empty matrix of two rows or more the first piece of every game
/// fits (at one row all but the I block out at once).
pub const MIN_HEIGHT: usize = 2;

/// One game and what its step needs: with [`TetrisActions::HardDrop`] the highest lock of
/// each orientation and column (`tops`, 40 bytes on a 10-wide matrix), with
/// [`TetrisActions::Placements`] the lock planes (`locks`, 960 bytes, boxed so that the
/// hard-drop slots stay small: a step touches a few cache lines of its game).
#[derive(Clone, Debug)]
struct Slot<const W: usize> {
    game: Game<W>,
    tops: Tops<W>,
    seed: u64,
    needs_reset: bool,
    last: StepResult,
    locks: Option<Box<Locks<W>>>,
}

/// `N` guideline Tetris games stepped at once; the batch rules (buffers, threads,
/// autoreset) are in the [module documentation](super).
///
/// # Observation (`u8`, [`obs_len`](Self::obs_len) = `H * W + 6 + previews`)
///
/// | bytes | content |
/// |---|---|
/// | `0 .. H*W` | the matrix, row by row from the top, 1 = filled |
/// | `H*W` | the current piece, 0 to 6 in the order `I O T S Z J L` |
/// | `+1` | the held piece (7 = none) |
/// | `+2` | 1 when hold is allowed now |
/// | `+3` | 1 when a back-to-back chain is open |
/// | `+4` | the combo (line-clearing locks in a row), at most 255 |
/// | `+5` | queued garbage rows, at most 255 |
/// | `+6 ..` | the preview pieces, next first |
///
/// # Reward
///
/// The score of the step ([`StepResult::score`](crate::games::tetris::StepResult::score),
/// guideline points with the level), 0 for a hold.
///
/// ```
/// use gridbits::games::envs::{TetrisEnv, TetrisEnvConfig};
/// let mut env = TetrisEnv::<10>::new(TetrisEnvConfig::default(), 2).unwrap();
/// let (ol, al) = (env.obs_len(), env.action_count());
/// assert_eq!((ol, al), (24 * 10 + 6 + 5, 4 * 24 * 10 + 1));
/// let (mut obs, mut masks) = (vec![0u8; 2 * ol], vec![0u8; 2 * al]);
/// env.reset(&[1, 2], &mut obs, &mut masks).unwrap();
/// // Play the first legal action of each game.
/// let actions: Vec<u32> = masks.chunks(al).map(|m| m.iter().position(|&b| b == 1).unwrap() as u32).collect();
/// let (mut rewards, mut terminated) = (vec![0f32; 2], vec![0u8; 2]);
/// env.step(&actions, &mut obs, &mut masks, &mut rewards, &mut terminated).unwrap();
/// assert_eq!(env.game(0).pieces(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct TetrisEnv<const W: usize = 10> {
    config: TetrisEnvConfig,
    slots: Vec<Slot<W>>,
}

impl<const W: usize> TetrisEnv<W> {
    /// `n` games (started by [`reset`](Self::reset)).
    ///
    /// # Errors
    /// [`EnvError::Config`] when the game settings are refused ([`Game::new`]) or the
    /// height is below [`MIN_HEIGHT`]; [`EnvError::Size`] when `n` games cannot be
    /// allocated.
    pub fn new(config: TetrisEnvConfig, n: usize) -> Result<Self, EnvError> {
        if config.game.height < MIN_HEIGHT {
            return Err(EnvError::Config(format!(
                "height {} is below {MIN_HEIGHT}: the first piece of a game may not fit (a \
                 block out before the first step, which reset cannot report)",
                config.game.height
            )));
        }
        let game = Game::<W>::new(config.game, 0).map_err(|e| EnvError::Config(e.to_string()))?;
        let slot = Slot {
            game,
            tops: Tops::EMPTY,
            seed: 0,
            needs_reset: true,
            last: StepResult::default(),
            locks: (config.actions == TetrisActions::Placements).then(|| Box::new(Locks::EMPTY)),
        };
        let extra = if slot.locks.is_some() {
            std::mem::size_of::<Locks<W>>()
        } else {
            0
        };
        Ok(TetrisEnv {
            config,
            slots: slots(slot, n, extra)?,
        })
    }

    /// Whether game `i` ended at the last step: the next [`step`](Self::step) starts a
    /// new game there and ignores its action (any value is accepted).
    ///
    /// # Panics
    /// When `i` is not below [`len`](Self::len).
    pub fn needs_reset(&self, i: usize) -> bool {
        self.slots[i].needs_reset
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the batch has no game.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The settings.
    pub const fn config(&self) -> &TetrisEnvConfig {
        &self.config
    }

    /// Game `i`.
    ///
    /// # Panics
    /// When `i` is not below [`len`](Self::len).
    pub fn game(&self, i: usize) -> &Game<W> {
        &self.slots[i].game
    }

    /// What the last `reset` or `step` call did in game `i`: the lock's (or hold's)
    /// [`StepResult`], or the default (nothing) after a reset or an autoreset step.
    ///
    /// # Panics
    ///
    /// When `i >= self.len()`.
    pub fn last_step(&self, i: usize) -> &StepResult {
        &self.slots[i].last
    }

    /// Bytes of one observation.
    pub const fn obs_len(&self) -> usize {
        self.config.game.height * W + HEADER + self.config.game.previews
    }

    /// Number of actions (the mask length), hold included.
    pub const fn action_count(&self) -> usize {
        self.hold_action() as usize + 1
    }

    /// The index of the hold action (the last).
    pub const fn hold_action(&self) -> u32 {
        (match self.config.actions {
            TetrisActions::Placements => 4 * self.config.game.height * W,
            TetrisActions::HardDrop => 4 * W,
        }) as u32
    }

    /// The placement action `index` stands for in game `i` now, or `None` when it is hold or
    /// not legal.
    ///
    /// # Panics
    /// When `i` is not below [`len`](Self::len).
    pub fn placement(&self, i: usize, index: u32) -> Option<Placement> {
        decode(&self.config, &self.slots[i], index)
    }

    /// Starts game `i` with `seeds[i]` and writes the first observations and masks.
    ///
    /// # Errors
    /// When a buffer has the wrong length.
    pub fn reset(
        &mut self,
        seeds: &[u64],
        obs: &mut [u8],
        masks: &mut [u8],
    ) -> Result<(), EnvError> {
        let n = self.slots.len();
        let (ol, al) = (self.obs_len(), self.action_count());
        check_len("seeds", seeds, n)?;
        check_len("obs", obs, n * ol)?;
        check_len("masks", masks, n * al)?;
        let config = self.config;
        drive_observe(
            &mut self.slots,
            seeds,
            (obs, ol),
            (masks, al),
            |s, seed, o, m| {
                s.seed = seed;
                start(&config, s, seed, o, m);
            },
        );
        Ok(())
    }

    /// Plays `actions[i]` in game `i` (see the [batch rules](super)) and writes the
    /// observations, masks, rewards and terminated flags.
    ///
    /// # Errors
    /// When a buffer has the wrong length or an action is masked out (then nothing is
    /// played).
    pub fn step(
        &mut self,
        actions: &[u32],
        obs: &mut [u8],
        masks: &mut [u8],
        rewards: &mut [f32],
        terminated: &mut [u8],
    ) -> Result<(), EnvError> {
        let mut none = vec![(); self.slots.len()]; // zero-sized: no allocation
        self.step_with_rows(
            actions,
            obs,
            masks,
            rewards,
            terminated,
            (&mut none, 1),
            |_, _| {},
        )
    }

    /// [`step`](Self::step), and `write(result, row)` for every game right after its step,
    /// in the same pass over the games (on the same thread, while the game is in cache):
    /// `result` is what [`last_step`](Self::last_step) then returns, `row` the game's
    /// `row_len` items of `rows` (game `i` at `i * row_len`). For per-game records of each
    /// step (the Python binding's info rows) without a second pass over the batch.
    ///
    /// ```
    /// use gridbits::games::envs::{TetrisEnv, TetrisEnvConfig};
    /// let mut env = TetrisEnv::<10>::new(TetrisEnvConfig::default(), 2).unwrap();
    /// let (ol, al) = (env.obs_len(), env.action_count());
    /// let (mut obs, mut masks) = (vec![0u8; 2 * ol], vec![0u8; 2 * al]);
    /// env.reset(&[1, 2], &mut obs, &mut masks).unwrap();
    /// let actions: Vec<u32> = masks.chunks(al).map(|m| m.iter().position(|&b| b == 1).unwrap() as u32).collect();
    /// let (mut rewards, mut terminated) = (vec![0f32; 2], vec![0u8; 2]);
    /// let mut records = vec![0u64; 2 * 2]; // (lines, score) per game
    /// env.step_with_rows(&actions, &mut obs, &mut masks, &mut rewards, &mut terminated,
    ///     (&mut records, 2), |r, row| row.copy_from_slice(&[u64::from(r.lines), r.score])).unwrap();
    /// assert_eq!(records[1], env.last_step(0).score);
    /// ```
    ///
    /// # Errors
    /// As [`step`](Self::step), and when `rows` is not `len() * row_len` long or `row_len`
    /// is 0.
    #[allow(clippy::too_many_arguments)]
    pub fn step_with_rows<R: Send>(
        &mut self,
        actions: &[u32],
        obs: &mut [u8],
        masks: &mut [u8],
        rewards: &mut [f32],
        terminated: &mut [u8],
        (rows, row_len): (&mut [R], usize),
        write: impl Fn(&StepResult, &mut [R]) + Sync + Send,
    ) -> Result<(), EnvError> {
        let lens = (self.obs_len(), self.action_count());
        let config = self.config;
        let hold = self.hold_action();
        step_batch(
            &mut self.slots,
            lens,
            actions,
            (obs, masks, rewards, terminated),
            (rows, row_len),
            |s, a| {
                s.needs_reset
                    || if a == hold {
                        s.game.can_hold()
                    } else {
                        lock_of(&config, s, a).is_some()
                    }
            },
            |s, a, io, row| {
                step_one(&config, hold, s, a, io);
                write(&s.last, row);
            },
        )
    }
}

/// Starts a game from `seed` and writes its observation and mask.
fn start<const W: usize>(
    c: &TetrisEnvConfig,
    s: &mut Slot<W>,
    seed: u64,
    obs: &mut [u8],
    mask: &mut [u8],
) {
    // The settings were accepted by `new`: the game cannot be refused.
    if let Ok(g) = Game::new(c.game, seed) {
        s.game = g;
    }
    s.needs_reset = false;
    s.last = StepResult::default();
    observe(s, obs);
    write_mask(c, s, mask);
}

fn step_one<const W: usize>(
    c: &TetrisEnvConfig,
    hold: u32,
    s: &mut Slot<W>,
    a: u32,
    io: StepIo<'_>,
) {
    if s.needs_reset {
        let seed = next_episode_seed(&mut s.seed);
        start(c, s, seed, io.obs, io.mask);
        *io.reward = 0.0;
        *io.terminated = 0;
        return;
    }
    if a == hold {
        s.last = s.game.step(Action::Hold).unwrap_or_default();
    } else {
        match decode(c, s, a) {
            Some(p) => s.game.lock(p, &mut s.last),
            None => s.last = StepResult::default(), // checked before: not reached
        }
    }
    *io.reward = s.last.score as f32;
    let over = s.game.game_over().is_some();
    *io.terminated = u8::from(over);
    observe(s, io.obs);
    if over {
        s.needs_reset = true;
        io.mask.fill(1);
    } else {
        write_mask(c, s, io.mask);
    }
}

/// The lock position `(r, cx, cy)` (tight coordinates) of action `a` and its spin, if it is
/// a legal placement action.
#[inline(always)]
fn lock_of<const W: usize>(
    c: &TetrisEnvConfig,
    s: &Slot<W>,
    a: u32,
) -> Option<(usize, usize, u32, Spin)> {
    if s.game.game_over().is_some() {
        return None;
    }
    let a = a as usize;
    let h = c.game.height;
    match (c.actions, &s.locks) {
        (TetrisActions::Placements, Some(lk)) => {
            if a >= 4 * h * W {
                return None;
            }
            let (r, rest) = (a / (h * W), a % (h * W));
            let (cy, cx) = (rest / W, rest % W);
            (lk.lock[r][cx] >> cy & 1 != 0).then(|| (r, cx, cy as u32, lk.spin(r, cx, cy as u32)))
        }
        (TetrisActions::Placements, None) => None, // `new` boxes the planes: not reached
        (TetrisActions::HardDrop, _) => {
            if a >= 4 * W {
                return None;
            }
            let (r, cx) = (a / W, a % W);
            let (cy, spin) = s.tops.get(r, cx)?;
            Some((r, cx, cy, spin))
        }
    }
}

/// The placement of action `a`, if it is a legal placement action.
fn decode<const W: usize>(c: &TetrisEnvConfig, s: &Slot<W>, a: u32) -> Option<Placement> {
    let (r, cx, cy, spin) = lock_of(c, s, a)?;
    let piece = s.game.current();
    let rotation = Rotation::ALL[r];
    let (dx, ty) = tight_offset(piece, rotation);
    Some(Placement {
        piece,
        rotation,
        x: cx as i32 - dx,
        y: cy as i32 - ty,
        spin,
    })
}

/// Computes the lock positions of the current piece (the highest per orientation and
/// column for hard drop, the planes for placements) and writes the mask.
fn write_mask<const W: usize>(c: &TetrisEnvConfig, s: &mut Slot<W>, mask: &mut [u8]) {
    let g = &s.game;
    let over = g.game_over().is_some();
    let h = c.game.height;
    match (c.actions, &mut s.locks) {
        (TetrisActions::Placements, Some(lk)) => {
            if over {
                **lk = Locks::EMPTY;
            } else {
                g.matrix()
                    .lock_planes(g.current(), &MoveOptions::default(), lk);
            }
            // Each plane's rows (`cy` from the top) transposed into bytes; a plane's last
            // store may run into the next plane or the hold byte, written after it.
            for (r, plane) in lk.lock.iter().enumerate() {
                write_cells::<W, true>(plane, h, &mut mask[r * h * W..]);
            }
        }
        (TetrisActions::Placements, None) => mask.fill(0), // `new` boxes the planes
        (TetrisActions::HardDrop, _) => {
            // The highest lock of each orientation and column (and its spin): from the
            // column heights while every drop rests below the spawn, or near the top when
            // the search over the air reaches every column, else from the full generator's
            // planes (on the stack, not kept).
            if over {
                s.tops = Tops::EMPTY;
            } else if !g.matrix().straight_drop_tops(g.current(), &mut s.tops) {
                let mut lk = Locks::EMPTY;
                g.matrix()
                    .lock_planes(g.current(), &MoveOptions::default(), &mut lk);
                s.tops = Tops::from_locks(&lk);
            }
            // Every entry written: no fill first. One flat run of `4 * W` bytes (the compiler
            // turns it into vector compares).
            let tops = s.tops.0.as_flattened();
            for (m, &t) in mask[..tops.len()].iter_mut().zip(tops) {
                *m = u8::from(t != Tops::<W>::NONE);
            }
        }
    }
    if let Some(last) = mask.last_mut() {
        *last = u8::from(s.game.can_hold());
    }
}

/// Writes the observation of a game (layout in [`TetrisEnv`]).
fn observe<const W: usize>(s: &Slot<W>, obs: &mut [u8]) {
    let g = &s.game;
    let t = g.matrix();
    let h = t.height();
    // The board first: it may write past its end, into the header written next.
    write_cells::<W, false>(t.board().columns(), h, obs);
    let rest = &mut obs[h * W..];
    let piece = |p: Piece| p as u8;
    let (head, queue) = rest.split_at_mut(HEADER);
    head.copy_from_slice(&[
        piece(g.current()),
        g.held().map_or(7, piece),
        u8::from(g.can_hold()),
        u8::from(g.back_to_back()),
        g.combo().min(255) as u8,
        g.pending_garbage().min(255) as u8,
    ]);
    for (o, &p) in queue.iter_mut().zip(g.queue()) {
        *o = piece(p);
    }
}
