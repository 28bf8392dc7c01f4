//! Batched reinforcement-learning environments: [`TetrisEnv`] and [`PuyoEnv`] stepping `N`
//! games at once into numpy arrays that the Python object owns (`gridbits.envs` wraps
//! them in Gymnasium's vector API).
//!
//! Every call writes in place, with the GIL released, on the pool of `crate::threads`:
//! `reset(seeds, obs, masks)` and `step(actions, obs, masks, rewards, terminated, info,
//! reward=None)` take C-contiguous arrays (`uint64` seeds, `uint8` observations and masks,
//! `float32` rewards, `uint8` terminated flags, `int64` info rows) and `int64` actions of
//! any stride; a wrong length, an action out of range or an illegal action is a
//! `ValueError` and nothing is played. `reward`, an info column, is copied into `rewards`
//! after the step (the Python class's reward choice).
//!
//! Info columns, one row per game, from the last step (zeros after a reset or an
//! autoreset step): Tetris `lines, score, attack, spin (0 none, 1 mini, 2 full), combo,
//! back_to_back, perfect_clear, cancelled, garbage`; Puyo `chain, score, ojama_sent,
//! ojama_cancelled, ojama_dropped, all_clear`.

use crate::borrow::{Rw1, Rw2};
use crate::detach;
use gridbits::games::envs::{
    EnvError, PuyoEnv, TetrisActions, TetrisEnv, TetrisEnvConfig, PUYO_ACTIONS,
};
use gridbits::games::puyo::{TsuConfig, TsuStep};
use gridbits::games::tetris::{GameConfig, Spin, StepResult};
use numpy::PyReadonlyArray1;
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;

/// `(piece, rotation, x, y, spin)` of a placement.
type PlacementTuple = (u8, u8, i32, i32, u8);

/// Info columns of [`TetrisEnv`].
const TETRIS_INFO: usize = 9;
/// Info columns of [`PuyoEnv`].
const PUYO_INFO: usize = 6;

/// `MemoryError` for a batch too large to allocate, `ValueError` for the rest.
fn env_error(e: EnvError) -> PyErr {
    match e {
        EnvError::Size(s) if s.is_out_of_memory() => PyMemoryError::new_err(s.to_string()),
        e => PyValueError::new_err(e.to_string()),
    }
}

/// A C-contiguous view of `a`, or a `TypeError` naming `name`.
fn slice_mut<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    name: &str,
    a: &'a mut numpy::PyReadwriteArray<'_, T, D>,
) -> PyResult<&'a mut [T]> {
    a.as_slice_mut()
        .map_err(|_| PyTypeError::new_err(format!("{name}: must be a C-contiguous array")))
}

/// A C-contiguous view of `a`, or a `TypeError` naming `name`.
fn slice<'a, T: numpy::Element>(name: &str, a: &'a PyReadonlyArray1<'_, T>) -> PyResult<&'a [T]> {
    a.as_slice()
        .map_err(|_| PyTypeError::new_err(format!("{name}: must be a C-contiguous array")))
}

/// `Ok` when `info` is `n x cols`.
fn check_info(info: &[i64], n: usize, cols: usize) -> PyResult<()> {
    if info.len() == n * cols {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "info has length {}, expected {}",
            info.len(),
            n * cols
        )))
    }
}

fn tetris_info(r: &StepResult, row: &mut [i64]) {
    let spin = match r.spin {
        Spin::None => 0,
        Spin::Mini => 1,
        Spin::Full => 2,
    };
    row.copy_from_slice(&[
        i64::from(r.lines),
        i64::try_from(r.score).unwrap_or(i64::MAX),
        i64::from(r.attack),
        spin,
        i64::from(r.combo),
        i64::from(r.back_to_back),
        i64::from(r.perfect_clear),
        i64::from(r.cancelled),
        i64::from(r.garbage),
    ]);
}

fn puyo_info(r: &TsuStep, row: &mut [i64]) {
    row.copy_from_slice(&[
        i64::from(r.chain),
        i64::try_from(r.score).unwrap_or(i64::MAX),
        i64::from(r.ojama_sent),
        i64::from(r.ojama_cancelled),
        i64::from(r.ojama_dropped),
        i64::from(r.all_clear),
    ]);
}

/// What the two classes drive alike: a library batch, its reset, and its step with each
/// game's info row written in the step's own pass (right after the game's step, while its
/// state is in cache).
trait Batch: Send + Sync {
    /// Info columns per game.
    const INFO: usize;
    fn games(&self) -> usize;
    /// Actions per game (the mask's length).
    fn actions(&self) -> usize;
    /// Game `i` ended at the last step: the next step resets it and ignores its action.
    fn needs_reset(&self, i: usize) -> bool;
    fn reset(&mut self, seeds: &[u64], obs: &mut [u8], masks: &mut [u8]) -> Result<(), EnvError>;
    /// The step, and every game's info row (`INFO` columns each).
    fn step_info(
        &mut self,
        actions: &[u32],
        obs: &mut [u8],
        masks: &mut [u8],
        rewards: &mut [f32],
        terminated: &mut [u8],
        info: &mut [i64],
    ) -> Result<(), EnvError>;
}

impl Batch for TetrisEnv<10> {
    const INFO: usize = TETRIS_INFO;
    fn games(&self) -> usize {
        self.len()
    }
    fn actions(&self) -> usize {
        self.action_count()
    }
    fn needs_reset(&self, i: usize) -> bool {
        TetrisEnv::needs_reset(self, i)
    }
    fn reset(&mut self, seeds: &[u64], obs: &mut [u8], masks: &mut [u8]) -> Result<(), EnvError> {
        TetrisEnv::reset(self, seeds, obs, masks)
    }
    fn step_info(
        &mut self,
        actions: &[u32],
        obs: &mut [u8],
        masks: &mut [u8],
        rewards: &mut [f32],
        terminated: &mut [u8],
        info: &mut [i64],
    ) -> Result<(), EnvError> {
        self.step_with_rows(
            actions,
            obs,
            masks,
            rewards,
            terminated,
            (info, TETRIS_INFO),
            tetris_info,
        )
    }
}

impl Batch for PuyoEnv {
    const INFO: usize = PUYO_INFO;
    fn games(&self) -> usize {
        self.len()
    }
    fn actions(&self) -> usize {
        PUYO_ACTIONS
    }
    fn needs_reset(&self, i: usize) -> bool {
        PuyoEnv::needs_reset(self, i)
    }
    fn reset(&mut self, seeds: &[u64], obs: &mut [u8], masks: &mut [u8]) -> Result<(), EnvError> {
        PuyoEnv::reset(self, seeds, obs, masks)
    }
    fn step_info(
        &mut self,
        actions: &[u32],
        obs: &mut [u8],
        masks: &mut [u8],
        rewards: &mut [f32],
        terminated: &mut [u8],
        info: &mut [i64],
    ) -> Result<(), EnvError> {
        self.step_with_rows(
            actions,
            obs,
            masks,
            rewards,
            terminated,
            (info, PUYO_INFO),
            puyo_info,
        )
    }
}

/// `reset` of either class: every game from its seed, `obs` and `masks` written in place,
/// the info rows zeroed; the GIL released.
fn reset_batch<E: Batch>(
    env: &mut E,
    py: Python<'_>,
    seeds: PyReadonlyArray1<'_, u64>,
    mut obs: Rw2<'_, u8>,
    mut masks: Rw2<'_, u8>,
    mut info: Rw2<'_, i64>,
) -> PyResult<()> {
    let seeds = slice("seeds", &seeds)?;
    let obs = slice_mut("obs", &mut obs)?;
    let masks = slice_mut("masks", &mut masks)?;
    let info = slice_mut("info", &mut info)?;
    check_info(info, env.games(), E::INFO)?;
    detach(py, move || {
        env.reset(seeds, obs, masks)?;
        info.fill(0);
        Ok(())
    })
    .map_err(env_error)
}

/// `step` of either class: one action in every game (next-step autoreset), every buffer
/// written in place; the GIL released. With `reward`, each game's reward is then its info
/// row's column `reward` (the Python side's reward choice, in the same pass).
#[allow(clippy::too_many_arguments)]
fn step_batch<E: Batch>(
    env: &mut E,
    py: Python<'_>,
    actions: PyReadonlyArray1<'_, i64>,
    mut obs: Rw2<'_, u8>,
    mut masks: Rw2<'_, u8>,
    mut rewards: Rw1<'_, f32>,
    mut terminated: Rw1<'_, u8>,
    mut info: Rw2<'_, i64>,
    reward: Option<usize>,
) -> PyResult<()> {
    if let Some(column) = reward.filter(|&c| c >= E::INFO) {
        return Err(PyValueError::new_err(format!(
            "reward: info column {column} is out of range 0..{}",
            E::INFO - 1
        )));
    }
    // The range is checked here, once over the array (the Python side's two reductions
    // cost more than a small batch's whole step); any stride is read. A game that ended
    // at the last step ignores its action (next-step autoreset), so any value is taken
    // there (as 0) when the batch has that many games.
    let count = env.actions();
    let games = env.games();
    let actions = actions
        .as_array()
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            u32::try_from(a)
                .ok()
                .filter(|&u| (u as usize) < count)
                .or_else(|| (i < games && env.needs_reset(i)).then_some(0))
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "action {a} of environment {i} is out of range 0..{}",
                        count - 1
                    ))
                })
        })
        .collect::<PyResult<Vec<u32>>>()?;
    let actions = &actions[..];
    let obs = slice_mut("obs", &mut obs)?;
    let masks = slice_mut("masks", &mut masks)?;
    let rewards = slice_mut("rewards", &mut rewards)?;
    let terminated = slice_mut("terminated", &mut terminated)?;
    let info = slice_mut("info", &mut info)?;
    check_info(info, env.games(), E::INFO)?;
    detach(py, move || {
        env.step_info(actions, obs, masks, rewards, terminated, info)?;
        if let Some(column) = reward {
            for (r, row) in rewards.iter_mut().zip(info.chunks_exact(E::INFO)) {
                // Rewards are float32: counts of lines, attack or points, exact up to 2^24.
                *r = row[column] as f32;
            }
        }
        Ok(())
    })
    .map_err(env_error)
}

/// `N` guideline Tetris games on 10-wide matrices (`gridbits.envs.TetrisVecEnv`'s engine).
#[pyclass(module = "gridbits._gridbits", name = "TetrisBatch")]
struct PyTetrisEnv {
    env: TetrisEnv<10>,
}

#[pymethods]
impl PyTetrisEnv {
    #[new]
    #[pyo3(signature = (n, actions="placements", height=24, previews=5, hold=true, level=1, lines_per_level=10))]
    fn new(
        n: usize,
        actions: &str,
        height: usize,
        previews: usize,
        hold: bool,
        level: u32,
        lines_per_level: u32,
    ) -> PyResult<Self> {
        let actions = match actions {
            "placements" => TetrisActions::Placements,
            "hard_drop" => TetrisActions::HardDrop,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "actions must be \"placements\" or \"hard_drop\", not {actions:?}"
                )))
            }
        };
        let config = TetrisEnvConfig {
            game: GameConfig {
                height,
                previews,
                hold,
                level,
                lines_per_level,
                ..GameConfig::default()
            },
            actions,
        };
        Ok(PyTetrisEnv {
            env: TetrisEnv::new(config, n).map_err(env_error)?,
        })
    }

    /// Games in the batch.
    fn __len__(&self) -> usize {
        self.env.len()
    }

    /// Observation bytes per game.
    #[getter]
    fn obs_len(&self) -> usize {
        self.env.obs_len()
    }

    /// Actions per game (the last one is hold).
    #[getter]
    fn action_count(&self) -> usize {
        self.env.action_count()
    }

    /// Info columns per game.
    #[getter]
    fn info_len(&self) -> usize {
        TETRIS_INFO
    }

    /// The placement of action `index` in game `i`: `(piece, rotation, x, y, spin)` in
    /// the game's coordinates, or None (hold, masked out or out of range).
    fn placement(&self, i: usize, index: u32) -> PyResult<Option<PlacementTuple>> {
        if i >= self.env.len() {
            return Err(PyValueError::new_err(format!("i: no game {i}")));
        }
        Ok(self.env.placement(i, index).map(|p| {
            (
                p.piece as u8,
                p.rotation as u8,
                p.x,
                p.y,
                match p.spin {
                    Spin::None => 0,
                    Spin::Mini => 1,
                    Spin::Full => 2,
                },
            )
        }))
    }

    /// Starts every game from its seed, writing `obs` and `masks` in place.
    fn reset(
        &mut self,
        py: Python<'_>,
        seeds: PyReadonlyArray1<'_, u64>,
        obs: Rw2<'_, u8>,
        masks: Rw2<'_, u8>,
        info: Rw2<'_, i64>,
    ) -> PyResult<()> {
        reset_batch(&mut self.env, py, seeds, obs, masks, info)
    }

    /// Plays one action in every game (next-step autoreset), writing every buffer in place;
    /// `reward`: the info column copied into `rewards` (None: the step's own reward).
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (actions, obs, masks, rewards, terminated, info, reward=None))]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        obs: Rw2<'_, u8>,
        masks: Rw2<'_, u8>,
        rewards: Rw1<'_, f32>,
        terminated: Rw1<'_, u8>,
        info: Rw2<'_, i64>,
        reward: Option<usize>,
    ) -> PyResult<()> {
        step_batch(
            &mut self.env,
            py,
            actions,
            obs,
            masks,
            rewards,
            terminated,
            info,
            reward,
        )
    }
}

/// `N` Puyo Puyo Tsu games (`gridbits.envs.PuyoVecEnv`'s engine).
#[pyclass(module = "gridbits._gridbits", name = "PuyoBatch")]
struct PyPuyoEnv {
    env: PuyoEnv,
}

#[pymethods]
impl PyPuyoEnv {
    #[new]
    #[pyo3(signature = (n, colors=4, previews=2, target_point=70, max_drop=30))]
    fn new(
        n: usize,
        colors: u8,
        previews: usize,
        target_point: u32,
        max_drop: u32,
    ) -> PyResult<Self> {
        let config = TsuConfig {
            colors,
            previews,
            target_point,
            max_drop,
        };
        Ok(PyPuyoEnv {
            env: PuyoEnv::new(config, n).map_err(env_error)?,
        })
    }

    /// Games in the batch.
    fn __len__(&self) -> usize {
        self.env.len()
    }

    /// Observation bytes per game.
    #[getter]
    fn obs_len(&self) -> usize {
        self.env.obs_len()
    }

    /// Actions per game.
    #[getter]
    fn action_count(&self) -> usize {
        gridbits::games::envs::PUYO_ACTIONS
    }

    /// Info columns per game.
    #[getter]
    fn info_len(&self) -> usize {
        PUYO_INFO
    }

    /// Starts every game from its seed, writing `obs` and `masks` in place.
    fn reset(
        &mut self,
        py: Python<'_>,
        seeds: PyReadonlyArray1<'_, u64>,
        obs: Rw2<'_, u8>,
        masks: Rw2<'_, u8>,
        info: Rw2<'_, i64>,
    ) -> PyResult<()> {
        reset_batch(&mut self.env, py, seeds, obs, masks, info)
    }

    /// Plays one action in every game (next-step autoreset), writing every buffer in place;
    /// `reward`: the info column copied into `rewards` (None: the step's own reward).
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (actions, obs, masks, rewards, terminated, info, reward=None))]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        obs: Rw2<'_, u8>,
        masks: Rw2<'_, u8>,
        rewards: Rw1<'_, f32>,
        terminated: Rw1<'_, u8>,
        info: Rw2<'_, i64>,
        reward: Option<usize>,
    ) -> PyResult<()> {
        step_batch(
            &mut self.env,
            py,
            actions,
            obs,
            masks,
            rewards,
            terminated,
            info,
            reward,
        )
    }
}

/// Adds the environment classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTetrisEnv>()?;
    m.add_class::<PyPuyoEnv>()?;
    Ok(())
}
