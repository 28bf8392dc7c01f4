"""Reinforcement-learning environments: batched Tetris and Puyo Puyo Tsu stepped in Rust.

:class:`TetrisVecEnv` and :class:`PuyoVecEnv` run ``num_envs`` games at once and follow
Gymnasium 1.x's ``VectorEnv`` API (they subclass it when gymnasium is installed; without
it they work the same on plain numpy and expose ``single_observation_shape`` etc.):
``reset(seed=None, options=None) -> (obs, infos)`` and ``step(actions) -> (obs, rewards,
terminations, truncations, infos)`` with Gymnasium's *next-step* autoreset: the step that
ends a game returns its final observation and ``terminations[i] = True``; the next
``step`` ignores that game's action, starts a new game and returns its first observation
with reward 0. Game ``i``'s later episodes are seeded from its first seed, so a batch
replays identically from the same seeds, whatever the thread count
(:func:`gridbits.threads`).

Observations are flat ``uint8`` vectors (a ``Box(0, 255, (obs_len,), uint8)`` per game),
which every RL library consumes directly:

* Tetris: ``height * 10`` cells of the matrix, top row first (1 filled), then the current
  piece (0-6 for I, O, T, S, Z, J, L), the held piece (7: none), whether hold is possible,
  back-to-back, combo, queued garbage rows (capped at 255), then ``queue`` preview pieces.
  :meth:`TetrisVecEnv.boards` reshapes the cells to ``(num_envs, height, 10)``.
* Puyo: the 13 x 6 field, top (ghost) row first (0 empty, 1-5 colours, 6 ojama), the
  current pair (axis, child: colours 1-5), the preview pairs, incoming ojama (capped at
  255) and whether an all-clear bonus is pending.

Actions are ``Discrete``: Tetris ``actions="placements"`` has one action per (rotation,
column, row) lock position of the current piece (``4 * height * 10``, T-spins included):
action ``(rotation * height + y) * 10 + x`` locks the piece in rotation 0-3 (clockwise from
spawn) with its leftmost cell in column ``x`` and its top cell in row ``y`` of the
observation's matrix (row 0 at the top); ``"hard_drop"`` has one per (rotation, column),
``rotation * 10 + x`` (``40``). The last action is hold. Puyo has 22 pair placements, column
by column (axis column 0-5) and in each column the rotations 0 (child right), 1 (child
above), 2 (child left), 3 (child below) that keep the child on the field: actions 0-2 are
column 0 with rotations 0, 1, 3; 3-6, 7-10, 11-14 and 15-18 columns 1-4 with rotations 0-3;
19-21 column 5 with rotations 1, 2, 3. The legal actions are in ``infos["action_mask"]``
(bool, ``num_envs x actions``; where Gymnasium and pufferlib users look) and
:meth:`action_masks` (the convention of sb3-contrib's MaskablePPO). A masked-out, out of
range or badly typed action raises ``ValueError``/``TypeError`` naming the game and the
action (``invalid_action="raise"``); with ``invalid_action="penalty"`` it is replaced by the
first legal action, the reward gets ``invalid_penalty`` added and
``infos["invalid_action"]`` marks it.

**Buffers.** ``obs``, ``rewards``, ``terminations``, the mask and the info arrays returned
are views of buffers the environment owns and overwrites at the next call: copy what you
keep across steps (``np.copy``), or pass ``copy=True`` to get fresh arrays every step.
``terminations``, ``truncations`` and the masks are read-only views (the environment reads
them back: the penalty mode judges actions by its own mask, the autoreset by its own
terminations); combine them into new arrays (``mask & other``).
There is no truncation (``truncations`` is all False): add a time limit in your loop or
with ``gymnasium.wrappers.TimeLimit`` on the single environments.

With gymnasium installed, importing this module registers ``gridbits/Tetris-v0`` and
``gridbits/PuyoTsu-v0`` (single environments :class:`TetrisEnv`, :class:`PuyoEnv`, with
``vector_entry_point`` so that ``gymnasium.make_vec(..., vectorization_mode=
"vector_entry_point")`` builds the batched classes).

>>> import numpy as np
>>> from gridbits.envs import TetrisVecEnv
>>> env = TetrisVecEnv(4, seed=0, reward="lines")
>>> obs, infos = env.reset(seed=0)
>>> obs.shape, obs.dtype, infos["action_mask"].shape
((4, 251), dtype('uint8'), (4, 961))
>>> rng = np.random.default_rng(0)
>>> for _ in range(50):
...     actions = [rng.choice(np.flatnonzero(m)) for m in env.action_masks()]
...     obs, rewards, terminations, truncations, infos = env.step(actions)
>>> env.boards().shape
(4, 24, 10)
"""

import typing as _typing

import numpy as _np

from ._checks import is_int as _is_int
from ._gridbits import PuyoBatch as _PuyoBatch
from ._gridbits import TetrisBatch as _TetrisBatch

try:  # gymnasium is optional: without it the classes work on plain numpy.
    import gymnasium as _gym
    from gymnasium import spaces as _spaces
    from gymnasium.vector import AutoresetMode as _AutoresetMode
    from gymnasium.vector import VectorEnv as _VectorBase

    _AUTORESET: _typing.Any = _AutoresetMode.NEXT_STEP
except ImportError:  # pragma: no cover - exercised only without gymnasium
    _gym = None
    _spaces = None
    _VectorBase = object  # type: ignore[misc,assignment]
    _AUTORESET = "next_step"

__all__ = ["PuyoVecEnv", "TetrisVecEnv", "TETRIS_INFO", "PUYO_INFO"]

TETRIS_INFO = (
    "lines",
    "score",
    "attack",
    "spin",
    "combo",
    "back_to_back",
    "perfect_clear",
    "cancelled",
    "garbage",
)
"""Per-game info arrays of :class:`TetrisVecEnv` (``int64``, from the last step; spin:
0 none, 1 T-spin mini, 2 full T-spin)."""

PUYO_INFO = ("chain", "score", "ojama_sent", "ojama_cancelled", "ojama_dropped", "all_clear")
"""Per-game info arrays of :class:`PuyoVecEnv` (``int64``, from the last step)."""

_PIECES = "IOTSZJL"
_PUYO_RGB = _np.array(
    [
        [20, 20, 20],
        [230, 40, 40],
        [40, 200, 40],
        [50, 80, 230],
        [230, 210, 40],
        [170, 60, 200],
        [160, 160, 160],
    ],
    dtype=_np.uint8,
)
_CELL_PX = 8


def _positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, _np.integer)):
        raise TypeError(f"{name}: expected an int, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name}: must be at least 1, got {value}")
    return int(value)


def _finite(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, _np.integer, _np.floating)):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__}")
    if not _np.isfinite(value):
        raise ValueError(f"{name}: must be finite, got {value}")
    return float(value)


def _flag(value, name: str) -> bool:
    if not isinstance(value, (bool, _np.bool_)):
        raise TypeError(f"{name}: expected a bool, got {type(value).__name__}")
    return bool(value)


def _choice(value, allowed: tuple, name: str) -> str:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")
    return value


def _seeds(seed, n: int) -> tuple:
    """``(generator, uint64 seeds)`` for a ``reset(seed=...)`` argument."""
    if seed is None:
        rng = _np.random.default_rng()
    elif isinstance(seed, (int, _np.integer)) and not isinstance(seed, bool):
        if seed < 0:
            raise ValueError(f"seed: must be non-negative, got {seed}")
        rng = _np.random.default_rng(int(seed))
    else:
        try:
            arr = _np.asarray(seed)
        except Exception as e:  # pragma: no cover - numpy's message is enough
            raise TypeError(f"seed: expected None, an int or {n} ints") from e
        if arr.shape != (n,) or arr.dtype.kind not in "iu":
            raise TypeError(f"seed: expected None, an int or a sequence of {n} ints")
        if (arr.dtype.kind == "i") and (arr < 0).any():
            raise ValueError("seed: seeds must be non-negative")
        return None, _np.ascontiguousarray(arr, dtype=_np.uint64)
    return rng, _draw(rng, n)


def _draw(rng, n: int) -> _np.ndarray:
    return rng.integers(0, 2**64 - 1, size=n, dtype=_np.uint64, endpoint=True)


class _BatchEnv(_VectorBase):  # type: ignore[misc,valid-type]
    """The shared machinery of :class:`TetrisVecEnv` and :class:`PuyoVecEnv`."""

    metadata: _typing.ClassVar[dict] = {
        "render_modes": ["ansi", "rgb_array"],
        "autoreset_mode": _AUTORESET,
        "render_fps": 4,
    }
    _INFO: tuple = ()
    _REWARDS: tuple = ()

    def _setup(
        self,
        native,
        num_envs: int,
        seed,
        reward: str,
        invalid_action: str,
        invalid_penalty: float,
        render_mode,
        copy: bool,
    ) -> None:
        self._native = native
        self.num_envs = num_envs
        self.reward = reward
        self.invalid_action = _choice(invalid_action, ("raise", "penalty"), "invalid_action")
        self.invalid_penalty = _finite(invalid_penalty, "invalid_penalty")
        if render_mode is not None:
            _choice(render_mode, ("ansi", "rgb_array"), "render_mode")
        self.render_mode = render_mode
        self.copy = bool(copy)
        n, ol, al = num_envs, native.obs_len, native.action_count
        self._obs = _np.zeros((n, ol), dtype=_np.uint8)
        self._masks = _np.zeros((n, al), dtype=_np.uint8)
        self._rewards = _np.zeros(n, dtype=_np.float32)
        self._terminated = _np.zeros(n, dtype=_np.uint8)
        self._batch_shape = (n,)
        self._truncated = _np.zeros(n, dtype=bool)
        # What a call returns without ``copy``: views, so that a caller freezing or
        # replacing one (``flags.writeable = False``) leaves the buffers the native calls
        # write alone; the ones the environment reads back are read-only.
        self._obs_view = self._obs.view()
        self._rewards_view = self._rewards.view()
        self._terminations = _readonly(self._terminated.view(bool))
        self._truncations = _readonly(self._truncated.view())
        self._masks_view = _readonly(self._masks.view(bool))
        self._info = _np.zeros((n, native.info_len), dtype=_np.int64)
        self._invalid = _np.zeros(n, dtype=bool)
        self._every = _np.ones(n, dtype=bool)
        self._every.flags.writeable = False
        self._started = False
        self._rng = None if seed is None else _np.random.default_rng(_seed_int(seed))
        self.single_observation_shape = (ol,)
        self.single_action_count = al
        if _spaces is not None:
            self.single_observation_space = _spaces.Box(0, 255, (ol,), _np.uint8, seed=None)
            self.single_action_space = _spaces.Discrete(al)
            self.observation_space = _spaces.Box(0, 255, (n, ol), _np.uint8)
            self.action_space = _spaces.MultiDiscrete(_np.full(n, al, dtype=_np.int64))
            if seed is not None:
                self.action_space.seed(_seed_int(seed))

    # -- Gymnasium API -------------------------------------------------------------

    def reset(self, *, seed=None, options=None):
        """Starts every game; returns ``(obs, infos)`` (see the module notes on buffers).

        ``seed``: None (continue this environment's seed stream, or fresh entropy), an
        int (seeds every game from it) or ``num_envs`` ints (game ``i`` gets
        ``seed[i]``, the same as a single environment reset with that seed).
        """
        if options is not None and not isinstance(options, dict):
            raise TypeError("options: expected a dict or None")
        if options and "reset_mask" in options:
            raise ValueError("options: partial resets (reset_mask) are not supported")
        if seed is None and self._rng is not None:
            seeds = _draw(self._rng, self.num_envs)
        else:
            rng, seeds = _seeds(seed, self.num_envs)
            if rng is not None:
                self._rng = rng
        self._native.reset(seeds, self._obs, self._masks, self._info)
        self._invalid[:] = False
        # No game awaits an autoreset after a reset (the flags are read back by ``step``).
        self._terminated[:] = 0
        self._started = True
        return self._out(self._obs_view), self._infos()

    def step(self, actions):
        """Plays one action per game; returns ``(obs, rewards, terminations, truncations,
        infos)`` with next-step autoreset (see the module docstring)."""
        if not self._started:
            raise RuntimeError("step: call reset() first")
        a = self._actions(actions)
        try:
            self._native.step(
                a,
                self._obs,
                self._masks,
                self._rewards,
                self._terminated,
                self._info,
                self._REWARDS[self.reward],
            )
        except ValueError as e:  # a masked-out action: nothing was played
            raise ValueError(f"actions: {e}") from None
        if self.invalid_action != "raise":
            self._rewards[self._invalid] += self.invalid_penalty
        if self.copy:
            return (
                self._obs.copy(),
                self._rewards.copy(),
                self._terminations.copy(),
                self._truncated.copy(),
                self._infos(),
            )
        return (
            self._obs_view,
            self._rewards_view,
            self._terminations,
            self._truncations,
            self._infos(),
        )

    def action_masks(self) -> _np.ndarray:
        """The legal actions of every game, ``bool``, ``num_envs x actions`` (a read-only
        view: overwritten by the next step)."""
        return self._masks_view

    def render(self):
        """``render_mode="ansi"``: a tuple of one text board per game; ``"rgb_array"``: a
        tuple of ``uint8`` images; None without a render mode."""
        if self.render_mode is None or not self._started:
            return None
        if self.render_mode == "ansi":
            return tuple(self._text(i) for i in range(self.num_envs))
        return tuple(self._image(i) for i in range(self.num_envs))

    def close(self, **kwargs) -> None:
        """Releases nothing (the games live in this object); kept for the API."""
        self.closed = True

    # -- internals ------------------------------------------------------------------

    def _out(self, a: _np.ndarray) -> _np.ndarray:
        return a.copy() if self.copy else a

    def _actions(self, actions) -> _np.ndarray:
        if (
            type(actions) is _np.ndarray
            and actions.dtype == _np.int64
            and actions.shape == self._batch_shape
            and self.invalid_action == "raise"
        ):
            return actions  # the native step reads any stride and checks the range
        a = _np.asarray(actions)
        if a.dtype == object:
            a = _object_ints(a)
        if a.dtype == bool or a.dtype.kind not in "iu":
            raise TypeError(f"actions: expected integers, got dtype {a.dtype}")
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions: expected shape ({self.num_envs},), got {a.shape}")
        n_act = self._masks.shape[1]
        # Games that ended at the last step ignore their action (next-step autoreset).
        resetting = self._terminated.view(bool)
        if self.invalid_action == "raise":
            # The range is checked by the native step (one pass, no reductions here: they
            # cost more than a small batch's step); only values past int64 are told here,
            # before the cast would wrap them.
            if a.dtype.kind == "u" and a.size and a.max() > _I64_MAX:
                far = (a > _I64_MAX) & ~resetting
                if far.any():
                    i = int(_np.flatnonzero(far)[0])
                    raise ValueError(
                        f"actions: action {a[i]} of environment {i} is out of range "
                        f"0..{n_act - 1}"
                    )
                a = _np.where(resetting, 0, a)
            return _np.ascontiguousarray(a, dtype=_np.int64)
        outside = (a < 0) | (a >= n_act)
        safe = _np.where(outside, 0, a).astype(_np.int64)
        illegal = (outside & ~resetting) | (self._masks[_np.arange(self.num_envs), safe] == 0)
        self._invalid[:] = illegal
        if illegal.any():
            safe[illegal] = self._masks[illegal].argmax(axis=1)
        return safe

    def _infos(self) -> dict:
        # Gymnasium's vector info convention: ``infos[key]`` per game and ``infos["_" + key]``
        # the games that have it (all of them here). Without ``copy`` the arrays are views
        # of the same buffers at every step: the dict is built once for them (again when
        # ``invalid_action`` changes) and a shallow copy of it returned, so that a caller
        # changing it changes only theirs.
        if self.copy:
            return self._build_infos()
        cached = self.__dict__.get("_infos_cache")
        if (
            cached is None
            or cached[0] != self.invalid_action
            or cached[1] is not self._info
            or cached[2] is not self._masks
        ):
            cached = (self.invalid_action, self._info, self._masks, self._build_infos())
            self._infos_cache = cached
        return cached[3].copy()

    def _build_infos(self) -> dict:
        infos = {"action_mask": self._out(self._masks_view), "_action_mask": self._every}
        for k, name in enumerate(self._INFO):
            infos[name] = self._out(self._info[:, k])
            infos["_" + name] = self._every
        if self.invalid_action == "penalty":
            infos["invalid_action"] = self._out(self._invalid)
            infos["_invalid_action"] = self._every
        return infos


_I64_MAX = _np.iinfo(_np.int64).max


def _readonly(a: _np.ndarray) -> _np.ndarray:
    a.flags.writeable = False
    return a


def _object_ints(a: _np.ndarray) -> _np.ndarray:
    """An ``object`` array of Python ints (values past 64 bits) as ``uint64`` or ``int64``,
    values beyond both as 2**64 - 1 (out of any action range); anything else unchanged (the
    caller refuses its dtype)."""
    flat = a.ravel().tolist()
    if not all(isinstance(v, (int, _np.integer)) and not isinstance(v, bool) for v in flat):
        return a
    if all(v >= 0 for v in flat):
        return _np.array([min(int(v), 2**64 - 1) for v in flat], dtype=_np.uint64).reshape(a.shape)
    return _np.array([max(min(int(v), _I64_MAX), -(2**63)) for v in flat], dtype=_np.int64).reshape(
        a.shape
    )


def _seed_int(seed) -> int:
    if not _is_int(seed):
        raise TypeError(f"seed: expected None or a non-negative int, got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed: must be non-negative, got {seed}")
    return int(seed)


class TetrisVecEnv(_BatchEnv):
    """``num_envs`` guideline Tetris games (10 columns, SRS, 7-bag, hold, T-spins, combos,
    back-to-back) stepped at once; Gymnasium ``VectorEnv`` API, see the module docstring.

    ``actions``: ``"placements"`` (every lock position, ``4 * height * 10`` actions plus
    hold) or ``"hard_drop"`` (rotation x column, 40 plus hold). ``reward``: ``"lines"``
    (lines cleared), ``"score"`` (guideline points) or ``"attack"`` (lines sent).
    ``queue``: preview pieces (0-5+). ``hold``: whether hold is allowed. ``height``: rows
    of the matrix (24: 20 visible and 4 above; at least 2, so that the first piece of a
    game always fits). Info arrays: :data:`TETRIS_INFO`.

    >>> env = TetrisVecEnv(2, actions="hard_drop")
    >>> obs, infos = env.reset(seed=[1, 2])
    >>> env.single_action_count, int(infos["action_mask"][0].sum()) >= 9
    (41, True)
    >>> obs, r, term, trunc, infos = env.step([env.action_masks()[0].argmax(),
    ...                                        env.action_masks()[1].argmax()])
    >>> r.dtype, term.dtype, [k for k in sorted(infos) if k[0] != "_"][:3]
    (dtype('float32'), dtype('bool'), ['action_mask', 'attack', 'back_to_back'])
    """

    _INFO = TETRIS_INFO
    _REWARDS: _typing.ClassVar[dict] = {"score": None, "lines": 0, "attack": 2}

    def __init__(
        self,
        num_envs: int,
        seed: _typing.Optional[int] = None,
        *,
        actions: str = "placements",
        reward: str = "lines",
        queue: int = 5,
        hold: bool = True,
        height: int = 24,
        invalid_action: str = "raise",
        invalid_penalty: float = -1.0,
        render_mode: _typing.Optional[str] = None,
        copy: bool = False,
    ) -> None:
        n = _positive_int(num_envs, "num_envs")
        _choice(actions, ("placements", "hard_drop"), "actions")
        _choice(reward, tuple(self._REWARDS), "reward")
        for v, name in ((queue, "queue"), (height, "height")):
            if isinstance(v, bool) or not isinstance(v, (int, _np.integer)):
                raise TypeError(f"{name}: expected an int, got {type(v).__name__}")
        hold = _flag(hold, "hold")
        try:
            native = _TetrisBatch(n, actions, int(height), int(queue), hold)
        except (ValueError, OverflowError) as e:
            raise ValueError(f"TetrisVecEnv: {e}") from None
        self.height = int(height)
        self.actions = actions
        self._setup(native, n, seed, reward, invalid_action, invalid_penalty, render_mode, copy)

    def boards(self) -> _np.ndarray:
        """The matrices, ``uint8``, ``num_envs x height x 10``, top row first (a view)."""
        return self._obs[:, : self.height * 10].reshape(self.num_envs, self.height, 10)

    def _text(self, i: int) -> str:
        o = self._obs[i]
        h = self.height
        rows = ["|" + "".join("#" if c else "." for c in o[r * 10 : r * 10 + 10]) + "|" for r in range(h)]
        head = o[h * 10 :]
        held = "-" if head[1] == 7 else _PIECES[head[1]]
        queue = "".join(_PIECES[p] for p in head[6:])
        rows.append(f"piece {_PIECES[head[0]]} hold {held} next {queue}")
        return "\n".join(rows)

    def _image(self, i: int) -> _np.ndarray:
        b = self._obs[i, : self.height * 10].reshape(self.height, 10)
        img = _np.where(b[:, :, None] != 0, _np.uint8(200), _np.uint8(0)).repeat(3, 2)
        return img.astype(_np.uint8).repeat(_CELL_PX, 0).repeat(_CELL_PX, 1)


class PuyoVecEnv(_BatchEnv):
    """``num_envs`` Puyo Puyo Tsu games (13 x 6 field, 4 colours, ojama) stepped at once;
    Gymnasium ``VectorEnv`` API, see the module docstring.

    ``reward``: ``"score"`` (points), ``"chain"`` (chain length) or ``"ojama"`` (ojama
    sent). ``colors``: 3 to 5; ``previews``: preview pairs (0 to 8; each adds two bytes to
    the observation). Info arrays:
    :data:`PUYO_INFO`.

    >>> env = PuyoVecEnv(3, reward="chain")
    >>> obs, infos = env.reset(seed=7)
    >>> obs.shape, env.single_action_count
    ((3, 86), 22)
    """

    _INFO = PUYO_INFO
    _REWARDS: _typing.ClassVar[dict] = {"score": None, "chain": 0, "ojama": 2}

    def __init__(
        self,
        num_envs: int,
        seed: _typing.Optional[int] = None,
        *,
        reward: str = "score",
        colors: int = 4,
        previews: int = 2,
        invalid_action: str = "raise",
        invalid_penalty: float = -1.0,
        render_mode: _typing.Optional[str] = None,
        copy: bool = False,
    ) -> None:
        n = _positive_int(num_envs, "num_envs")
        _choice(reward, tuple(self._REWARDS), "reward")
        for v, name in ((colors, "colors"), (previews, "previews")):
            if isinstance(v, bool) or not isinstance(v, (int, _np.integer)):
                raise TypeError(f"{name}: expected an int, got {type(v).__name__}")
        if not 3 <= colors <= 5:
            raise ValueError(f"colors: must be 3 to 5, got {colors}")
        try:
            native = _PuyoBatch(n, int(colors), int(previews))
        except (ValueError, OverflowError) as e:
            raise ValueError(f"PuyoVecEnv: {e}") from None
        self._setup(native, n, seed, reward, invalid_action, invalid_penalty, render_mode, copy)

    def fields(self) -> _np.ndarray:
        """The fields, ``uint8``, ``num_envs x 13 x 6``, top (ghost) row first (a view)."""
        return self._obs[:, :78].reshape(self.num_envs, 13, 6)

    def _text(self, i: int) -> str:
        f = self._obs[i, :78].reshape(13, 6)
        rows = ["|" + "".join(".RGBYPo"[c] for c in row) + "|" for row in f]
        o = self._obs[i, 78:]
        rows.append("pair " + "".join(".RGBYP"[c] for c in o[:2]))
        return "\n".join(rows)

    def _image(self, i: int) -> _np.ndarray:
        f = self._obs[i, :78].reshape(13, 6)
        return _PUYO_RGB[_np.minimum(f, 6)].repeat(_CELL_PX, 0).repeat(_CELL_PX, 1)


def _single_env_classes():
    """The single environments (gymnasium.Env subclasses), built when gymnasium imports."""

    class _Single(_gym.Env):
        metadata: _typing.ClassVar[dict] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}
        _Vec: type = _BatchEnv

        def __init__(self, render_mode: _typing.Optional[str] = None, **kwargs) -> None:
            self._kwargs = dict(kwargs)
            self._vec = self._Vec(1, render_mode=render_mode, **kwargs)
            self.render_mode = render_mode
            self.observation_space = self._vec.single_observation_space
            self.action_space = self._vec.single_action_space
            self._seed: _typing.Optional[int] = None
            self._history: list = []

        def reset(self, *, seed=None, options=None):
            if seed is not None:
                _seed_int(seed)
                if seed >= 2**64:
                    raise ValueError(f"seed: must be below 2**64, got {seed}")
            super().reset(seed=seed)
            if seed is None:
                seed = int(self.np_random.integers(0, 2**63))
            self._seed = int(seed)
            self._history = []
            obs, infos = self._vec.reset(seed=[self._seed], options=options)
            return obs[0].copy(), self._info(infos)

        def step(self, action):
            if isinstance(action, _np.ndarray) and action.shape == ():
                action = action[()]
            if isinstance(action, bool) or not isinstance(action, (int, _np.integer)):
                raise TypeError(f"action: expected an int, got {type(action).__name__}")
            a = int(action)
            if not -(2**63) <= a <= _I64_MAX:
                if self._vec.invalid_action == "raise":
                    n = self._vec.single_action_count
                    raise ValueError(f"action: {a} is out of range 0..{n - 1}")
                a = -1  # out of range either way: the penalty mode's replacement
            obs, r, term, trunc, infos = self._vec.step(_np.array([a], dtype=_np.int64))
            self._history.append(int(action))
            return obs[0].copy(), float(r[0]), bool(term[0]), bool(trunc[0]), self._info(infos)

        def action_masks(self) -> _np.ndarray:
            """The legal actions (bool; sb3-contrib MaskablePPO's convention)."""
            return self._vec.action_masks()[0].copy()

        def render(self):
            out = self._vec.render()
            return None if out is None else out[0]

        def close(self) -> None:
            self._vec.close()

        def _info(self, infos: dict) -> dict:
            return {
                k: (v[0].copy() if k == "action_mask" else v[0].item())
                for k, v in infos.items()
                if not k.startswith("_")
            }

        # Pickling replays the episode from its seed (the games are deterministic) and
        # carries the generator of later unseeded resets, so a copy continues as the
        # original does.
        def __getstate__(self) -> dict:
            return {
                "kwargs": self._kwargs,
                "render_mode": self.render_mode,
                "seed": self._seed,
                "history": list(self._history),
                "np_random": self._np_random,
                "np_random_seed": self._np_random_seed,
            }

        def __setstate__(self, state: dict) -> None:
            self.__init__(render_mode=state["render_mode"], **state["kwargs"])
            if state["seed"] is not None:
                self.reset(seed=state["seed"])
                for a in state["history"]:
                    self.step(a)
            self._np_random = state.get("np_random")
            self._np_random_seed = state.get("np_random_seed")

    class TetrisEnv(_Single):
        """One Tetris game as a ``gymnasium.Env`` (``gridbits/Tetris-v0``); the settings,
        observations and actions of :class:`TetrisVecEnv`. ``info["action_mask"]`` and
        :meth:`action_masks` give the legal actions. Pickles (by replaying its episode).

        >>> env = TetrisEnv(reward="lines")
        >>> obs, info = env.reset(seed=3)
        >>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))
        >>> obs.shape, type(reward), terminated
        ((251,), <class 'float'>, False)
        """

        _Vec = TetrisVecEnv

    class PuyoEnv(_Single):
        """One Puyo Puyo Tsu game as a ``gymnasium.Env`` (``gridbits/PuyoTsu-v0``); the
        settings, observations and actions of :class:`PuyoVecEnv`.

        >>> env = PuyoEnv()
        >>> obs, info = env.reset(seed=3)
        >>> obs.shape, int(env.action_space.n)
        ((86,), 22)
        """

        _Vec = PuyoVecEnv

    return TetrisEnv, PuyoEnv


if _gym is not None:
    TetrisEnv, PuyoEnv = _single_env_classes()
    TetrisEnv.__module__ = PuyoEnv.__module__ = __name__
    TetrisEnv.__qualname__, PuyoEnv.__qualname__ = "TetrisEnv", "PuyoEnv"
    __all__ += ["PuyoEnv", "TetrisEnv"]
    for _id, _single, _vec in (
        ("gridbits/Tetris-v0", "TetrisEnv", "TetrisVecEnv"),
        ("gridbits/PuyoTsu-v0", "PuyoEnv", "PuyoVecEnv"),
    ):
        if _id not in _gym.registry:
            _gym.register(
                id=_id,
                entry_point=f"gridbits.envs:{_single}",
                vector_entry_point=f"gridbits.envs:{_vec}",
            )
