//! The batched Puyo Puyo Tsu environment.

use super::{check_len, drive_observe, next_episode_seed, slots, step_batch, EnvError, StepIo};
use crate::games::puyo::{TsuConfig, TsuGame, TsuStep, PLACEMENTS};

/// Number of actions of a [`PuyoEnv`]: the 22 placements of [`PLACEMENTS`].
pub const PUYO_ACTIONS: usize = PLACEMENTS.len();

/// Cells of a Tsu field (13 rows of 6).
const FIELD_CELLS: usize = 13 * 6;

#[derive(Clone, Copy, Debug)]
struct Slot {
    game: TsuGame,
    legal: u32,
    seed: u64,
    needs_reset: bool,
    last: TsuStep,
}

/// `N` Puyo Puyo Tsu games stepped at once; the batch rules (buffers, threads, autoreset)
/// are in the [module documentation](super).
///
/// # Actions
///
/// 22, action `i` = [`PLACEMENTS`]`[i]` (column by column, rotations 0 to 3 where the child
/// stays on the field); legal when [`Field::drops`](crate::games::puyo::Field::drops) lists
/// the move (Tsu's reachability; for a pair of one colour only rotations 0 and 1).
///
/// # Observation (`u8`, [`obs_len`](Self::obs_len) = `78 + 2 + 2 * previews + 2`)
///
/// | bytes | content |
/// |---|---|
/// | `0 .. 78` | the field, 13 rows of 6 from the top (the ghost row first): 0 empty, 1-5 colours, 6 ojama ([`Field::write_codes`](crate::games::puyo::Field::write_codes)) |
/// | `78, 79` | the current pair, axis then child, as colour + 1 |
/// | `80 ..` | the next pairs, two bytes each, next first |
/// | then | incoming ojama, at most 255 |
/// | then | 1 when the all-clear bonus is pending |
///
/// # Reward
///
/// The score of the turn ([`TsuStep::score`](crate::games::puyo::TsuStep::score), all-clear
/// bonus included).
///
/// ```
/// use gridbits::games::envs::{PuyoEnv, PUYO_ACTIONS};
/// use gridbits::games::puyo::TsuConfig;
/// let mut env = PuyoEnv::new(TsuConfig::default(), 3).unwrap();
/// let ol = env.obs_len();
/// let (mut obs, mut masks) = (vec![0u8; 3 * ol], vec![0u8; 3 * PUYO_ACTIONS]);
/// env.reset(&[7, 8, 9], &mut obs, &mut masks).unwrap();
/// let actions: Vec<u32> = masks.chunks(PUYO_ACTIONS).map(|m| m.iter().position(|&b| b == 1).unwrap() as u32).collect();
/// let (mut rewards, mut terminated) = (vec![0f32; 3], vec![0u8; 3]);
/// env.step(&actions, &mut obs, &mut masks, &mut rewards, &mut terminated).unwrap();
/// assert_eq!(env.game(0).turns(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct PuyoEnv {
    config: TsuConfig,
    slots: Vec<Slot>,
}

impl PuyoEnv {
    /// `n` games (started by [`reset`](Self::reset)).
    ///
    /// # Errors
    /// [`EnvError::Config`] when the settings are refused ([`TsuGame::new`]);
    /// [`EnvError::Size`] when `n` games cannot be allocated.
    pub fn new(config: TsuConfig, n: usize) -> Result<Self, EnvError> {
        let game = TsuGame::new(config, 0).map_err(|e| EnvError::Config(e.to_string()))?;
        let slot = Slot {
            game,
            legal: 0,
            seed: 0,
            needs_reset: true,
            last: TsuStep::default(),
        };
        Ok(PuyoEnv {
            config,
            slots: slots(slot, n, 0)?,
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

    /// Game `i`.
    ///
    /// # Panics
    /// When `i` is not below [`len`](Self::len).
    pub fn game(&self, i: usize) -> &TsuGame {
        &self.slots[i].game
    }

    /// What the last `reset` or `step` call did in game `i`: the turn's [`TsuStep`], or
    /// the default (nothing) after a reset or an autoreset step.
    ///
    /// # Panics
    ///
    /// When `i >= self.len()`.
    pub fn last_step(&self, i: usize) -> &TsuStep {
        &self.slots[i].last
    }

    /// Bytes of one observation.
    pub const fn obs_len(&self) -> usize {
        FIELD_CELLS + 2 + 2 * self.config.previews + 2
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
        let ol = self.obs_len();
        check_len("seeds", seeds, n)?;
        check_len("obs", obs, n * ol)?;
        check_len("masks", masks, n * PUYO_ACTIONS)?;
        let config = self.config;
        drive_observe(
            &mut self.slots,
            seeds,
            (obs, ol),
            (masks, PUYO_ACTIONS),
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

    /// [`step`](Self::step), and `write(result, row)` for every game right after its turn,
    /// in the same pass over the games (as
    /// [`TetrisEnv::step_with_rows`](super::TetrisEnv::step_with_rows)): `result` is what
    /// [`last_step`](Self::last_step) then returns, `row` the game's `row_len` items of
    /// `rows` (game `i` at `i * row_len`).
    ///
    /// ```
    /// use gridbits::games::envs::{PuyoEnv, PUYO_ACTIONS};
    /// use gridbits::games::puyo::TsuConfig;
    /// let mut env = PuyoEnv::new(TsuConfig::default(), 2).unwrap();
    /// let mut obs = vec![0u8; 2 * env.obs_len()];
    /// let mut masks = vec![0u8; 2 * PUYO_ACTIONS];
    /// env.reset(&[1, 2], &mut obs, &mut masks).unwrap();
    /// let (mut rewards, mut terminated) = (vec![0f32; 2], vec![0u8; 2]);
    /// let actions: Vec<u32> = masks.chunks(PUYO_ACTIONS).map(|m| m.iter().position(|&b| b == 1).unwrap() as u32).collect();
    /// let mut chains = vec![0u32; 2];
    /// env.step_with_rows(&actions, &mut obs, &mut masks, &mut rewards, &mut terminated,
    ///     (&mut chains, 1), |r, row| row[0] = r.chain).unwrap();
    /// assert_eq!(chains[1], env.last_step(1).chain);
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
        write: impl Fn(&TsuStep, &mut [R]) + Sync + Send,
    ) -> Result<(), EnvError> {
        let (config, ol) = (self.config, self.obs_len());
        step_batch(
            &mut self.slots,
            (ol, PUYO_ACTIONS),
            actions,
            (obs, masks, rewards, terminated),
            (rows, row_len),
            |s, a| s.needs_reset || (a < 32 && s.legal >> a & 1 == 1),
            |s, a, io, row| {
                step_one(&config, s, a, io);
                write(&s.last, row);
            },
        )
    }
}

fn start(c: &TsuConfig, s: &mut Slot, seed: u64, obs: &mut [u8], mask: &mut [u8]) {
    // The settings were accepted by `new`: the game cannot be refused.
    if let Ok(g) = TsuGame::new(*c, seed) {
        s.game = g;
    }
    s.needs_reset = false;
    s.last = TsuStep::default();
    observe(&s.game, obs);
    write_mask(s, mask);
}

fn step_one(c: &TsuConfig, s: &mut Slot, a: u32, io: StepIo<'_>) {
    if s.needs_reset {
        let seed = next_episode_seed(&mut s.seed);
        start(c, s, seed, io.obs, io.mask);
        *io.reward = 0.0;
        *io.terminated = 0;
        return;
    }
    let r = s.game.step(a as usize).unwrap_or_default();
    *io.reward = r.score as f32;
    s.last = r;
    *io.terminated = u8::from(r.game_over);
    observe(&s.game, io.obs);
    if r.game_over {
        s.needs_reset = true;
        s.legal = 0;
        io.mask.fill(1);
    } else {
        write_mask(s, io.mask);
    }
}

fn write_mask(s: &mut Slot, mask: &mut [u8]) {
    s.legal = s.game.legal_moves();
    for (i, m) in mask.iter_mut().enumerate() {
        *m = (s.legal >> i & 1) as u8;
    }
}

fn observe(g: &TsuGame, obs: &mut [u8]) {
    let (field, rest) = obs.split_at_mut(FIELD_CELLS);
    g.field().write_codes(field);
    let p = g.current();
    rest[0] = p.axis + 1;
    rest[1] = p.child + 1;
    let mut k = 2;
    for q in g.queue() {
        rest[k] = q.axis + 1;
        rest[k + 1] = q.child + 1;
        k += 2;
    }
    rest[k] = g.incoming().min(255) as u8;
    rest[k + 1] = u8::from(g.all_clear_pending());
}
