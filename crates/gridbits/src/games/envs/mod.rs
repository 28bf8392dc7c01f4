//! Batched game environments for reinforcement learning: `N` games stepped at once,
//! structure of arrays, writing into the caller's buffers.
//!
//! - [`TetrisEnv`]: guideline Tetris ([`crate::games::tetris::Game`]), an action per lock
//!   position of the current piece (or per rotation and column) plus hold.
//! - [`PuyoEnv`]: Puyo Puyo Tsu ([`crate::games::puyo::TsuGame`]), an action per pair
//!   placement (22).
//!
//! # The batch
//!
//! Every buffer holds one fixed-size row per game, game `i` at `i * len`: observations
//! (`u8`, [`TetrisEnv::obs_len`] / [`PuyoEnv::obs_len`] each), action masks (`u8`, 1 =
//! legal, one per action), rewards (`f32`), terminated flags (`u8`). `reset(seeds, obs,
//! masks)` starts every game; `step(actions, obs, masks, rewards, terminated)` plays one
//! action in every game. Neither allocates per game (with the feature `parallel`, rayon
//! boxes one small task per helping thread and pass). A buffer of the wrong length is an
//! [`EnvError`] and nothing is played; so is a masked-out action (checked for the whole
//! batch first).
//!
//! With the feature `parallel` a batch of more than [`CHUNK`] games is cut into chunks of
//! [`CHUNK`] games shared out over the threads of the current pool ([`crate::parallel`]; a
//! smaller batch runs on the calling thread): the calling thread takes chunks itself from
//! the start, and the pool's other threads join it as they wake, each taking the next chunk
//! when done with its last, so that a thread that starts late (woken from sleep) or is
//! preempted takes fewer chunks instead of holding a share of the batch. A step hands the
//! batch over once: the threads check the chunks' actions, wait for each other (a few
//! microseconds), then play the chunks, and the calling thread waits for the last chunks
//! awake rather than asleep ([`crate::parallel`]). Each game only
//! reads its own row and its own state, so the results are identical whatever the thread
//! count.
//!
//! # Autoreset (Gymnasium 1.x "next step")
//!
//! A step that ends a game writes that game's final observation, its reward and
//! `terminated = 1`, and a mask of all ones (every action is accepted and ignored). The
//! next `step` call resets that game instead of playing: its action is ignored, its
//! reward is 0, `terminated` is 0, and the observation and mask are those of the new
//! game's start. A game's first episode uses the seed given to `reset`; each later episode
//! uses the next output of SplitMix64 ([`crate::games::rng::splitmix64`]) run from that
//! seed, so a batch replays identically from the same seeds.
//!
//! There is no truncation: a time limit is the caller's (a wrapper counting steps).

mod puyo;
mod tetris;
mod tetris_cells;
#[cfg(target_arch = "x86_64")]
mod tetris_cells_x86;

pub use puyo::{PuyoEnv, PUYO_ACTIONS};
pub use tetris::{TetrisActions, TetrisEnv, TetrisEnvConfig, MIN_HEIGHT};

use crate::error::{check_count, try_vec};
use crate::parallel::{share, share_checked};
use crate::SizeError;
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Games per task when the batch is shared out over threads.
pub const CHUNK: usize = 64;

/// A batch call the environment refuses; nothing was played or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnvError {
    /// A buffer of the wrong length: its name, the length needed and the length given.
    Buffer {
        /// Which buffer.
        name: &'static str,
        /// The length it needs.
        expected: usize,
        /// The length it has.
        found: usize,
    },
    /// A masked-out (or out of range) action.
    IllegalAction {
        /// The game.
        env: usize,
        /// Its action.
        action: u32,
    },
    /// A setting out of range.
    Config(String),
    /// A batch too large to allocate (`SizeError::is_out_of_memory`): `n` games of the
    /// slot's bytes each.
    Size(SizeError),
}

impl fmt::Display for EnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnvError::Buffer {
                name,
                expected,
                found,
            } => write!(f, "{name} has length {found}, expected {expected}"),
            EnvError::IllegalAction { env, action } => {
                write!(
                    f,
                    "action {action} of environment {env} is not legal (masked out)"
                )
            }
            EnvError::Config(why) => write!(f, "invalid environment setting: {why}"),
            EnvError::Size(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for EnvError {}

/// `n` copies of `slot`, each with `extra` bytes of its own on the heap, or the
/// [`EnvError::Size`] when the batch cannot be had: the whole batch's bytes are checked
/// against the address space and the slots reserved before any is made, so a huge `n` is
/// an error, not an abort.
pub(crate) fn slots<S: Clone>(slot: S, n: usize, extra: usize) -> Result<Vec<S>, EnvError> {
    let bytes = (std::mem::size_of::<S>() + extra) as u128 * n as u128;
    check_count::<u8>("batch of games", n, 1, bytes)
        .map(drop)
        .map_err(EnvError::Size)?;
    let mut v = try_vec::<S>("batch of games", n, 1, n as u128).map_err(EnvError::Size)?;
    v.resize(n, slot);
    Ok(v)
}

/// `Ok` when `buf` holds `expected` items.
pub(crate) fn check_len<T>(name: &'static str, buf: &[T], expected: usize) -> Result<(), EnvError> {
    if buf.len() == expected {
        Ok(())
    } else {
        Err(EnvError::Buffer {
            name,
            expected,
            found: buf.len(),
        })
    }
}

/// The output buffers of a step: observations, masks, rewards, terminated flags.
pub(crate) type StepOut<'a> = (&'a mut [u8], &'a mut [u8], &'a mut [f32], &'a mut [u8]);

/// A step of both environments' `step_with_rows`: the buffer lengths checked (`ol`
/// observation bytes and `al` mask bytes a game, `row_len` items of `rows`, at least 1), every
/// action checked by `legal` (nothing played when one is refused), then `play` on every game
/// with its action, its part of the buffers and its row. The check and the play are the two
/// passes of one [`share_checked`] over the chunks of [`CHUNK`] games: the threads are
/// handed the batch once a step.
pub(crate) fn step_batch<S: Send + Sync, R: Send>(
    slots: &mut [S],
    (ol, al): (usize, usize),
    actions: &[u32],
    (obs, masks, rewards, terminated): StepOut<'_>,
    (rows, row_len): (&mut [R], usize),
    legal: impl Fn(&S, u32) -> bool + Sync + Send,
    play: impl Fn(&mut S, u32, StepIo<'_>, &mut [R]) + Sync + Send,
) -> Result<(), EnvError> {
    let n = slots.len();
    check_len("actions", actions, n)?;
    check_len("obs", obs, n * ol)?;
    check_len("masks", masks, n * al)?;
    check_len("rewards", rewards, n)?;
    check_len("terminated", terminated, n)?;
    if row_len == 0 {
        return Err(EnvError::Config("row_len must be at least 1".into()));
    }
    check_len("rows", rows, n * row_len)?;
    // The lowest refused game so far (`usize::MAX`: none); a chunk past it is not checked.
    let bad = AtomicUsize::new(usize::MAX);
    let chunks = slots
        .chunks_mut(CHUNK)
        .zip(actions.chunks(CHUNK))
        .zip(obs.chunks_mut(CHUNK * ol.max(1)))
        .zip(masks.chunks_mut(CHUNK * al.max(1)))
        .zip(rewards.chunks_mut(CHUNK))
        .zip(terminated.chunks_mut(CHUNK))
        .zip(rows.chunks_mut(CHUNK * row_len))
        .enumerate();
    share_checked(
        chunks,
        |(k, ((((((s, a), _), _), _), _), _))| {
            let base = k * CHUNK;
            if base > bad.load(Ordering::Relaxed) {
                return;
            }
            if let Some(i) = s.iter().zip(a.iter()).position(|(s, &a)| !legal(s, a)) {
                bad.fetch_min(base + i, Ordering::Relaxed);
            }
        },
        || bad.load(Ordering::Relaxed) == usize::MAX,
        |(_, ((((((s, a), o), m), r), t), x))| {
            play_chunk(s, a, (o, ol), (m, al), r, t, (x, row_len), &play);
        },
    );
    match bad.into_inner() {
        usize::MAX => Ok(()),
        env => Err(EnvError::IllegalAction {
            env,
            action: actions[env],
        }),
    }
}

/// One game's part of the step buffers.
pub(crate) struct StepIo<'a> {
    pub(crate) obs: &'a mut [u8],
    pub(crate) mask: &'a mut [u8],
    pub(crate) reward: &'a mut f32,
    pub(crate) terminated: &'a mut u8,
}

/// The seed of a game's next episode (see the [autoreset rule](self)).
pub(crate) fn next_episode_seed(state: &mut u64) -> u64 {
    crate::games::rng::splitmix64(state)
}

/// Runs `f` on every game with its input and its rows of `obs` and `mask` (chunks of
/// [`CHUNK`] games over the threads with the feature `parallel`).
pub(crate) fn drive_observe<S: Send, A: Copy + Sync>(
    slots: &mut [S],
    inputs: &[A],
    (obs, obs_len): (&mut [u8], usize),
    (masks, mask_len): (&mut [u8], usize),
    f: impl Fn(&mut S, A, &mut [u8], &mut [u8]) + Sync + Send,
) {
    let chunk = |s: &mut [S], a: &[A], o: &mut [u8], m: &mut [u8]| {
        for (((s, &a), o), m) in s
            .iter_mut()
            .zip(a)
            .zip(o.chunks_exact_mut(obs_len.max(1)))
            .zip(m.chunks_exact_mut(mask_len.max(1)))
        {
            f(s, a, o, m);
        }
    };
    share(
        slots
            .chunks_mut(CHUNK)
            .zip(inputs.chunks(CHUNK))
            .zip(obs.chunks_mut(CHUNK * obs_len.max(1)))
            .zip(masks.chunks_mut(CHUNK * mask_len.max(1))),
        |(((s, a), o), m)| chunk(s, a, o, m),
    );
}

/// Runs `f` on every game of a chunk with its action, its part of the step buffers and
/// its row of `rows` (`row_len` items each, at least 1; a slice of `()` when the caller has
/// none).
#[allow(clippy::too_many_arguments)]
fn play_chunk<S, R>(
    slots: &mut [S],
    actions: &[u32],
    (obs, obs_len): (&mut [u8], usize),
    (masks, mask_len): (&mut [u8], usize),
    rewards: &mut [f32],
    terminated: &mut [u8],
    (rows, row_len): (&mut [R], usize),
    f: &impl Fn(&mut S, u32, StepIo<'_>, &mut [R]),
) {
    for ((((((s, &a), obs), mask), reward), terminated), row) in slots
        .iter_mut()
        .zip(actions)
        .zip(obs.chunks_exact_mut(obs_len.max(1)))
        .zip(masks.chunks_exact_mut(mask_len.max(1)))
        .zip(rewards.iter_mut())
        .zip(terminated.iter_mut())
        .zip(rows.chunks_exact_mut(row_len.max(1)))
    {
        let io = StepIo {
            obs,
            mask,
            reward,
            terminated,
        };
        f(s, a, io, row);
    }
}
