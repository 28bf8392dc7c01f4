"""gridbits.envs and the game classes at their edges, as a new user meets them: batch sizes
past memory, buffers frozen or aliased by the caller, the autoreset step's ignored action,
the masks the penalty mode reads, copies of a single environment, out-of-range integers
of any size, and settings of the wrong type or value. Each case raises a clear
``TypeError``/``ValueError``/``MemoryError`` or follows the documented rule; none panics."""

import copy
import pickle

import numpy as np
import pytest

from gridbits import amazons
from gridbits.envs import PuyoVecEnv, TetrisVecEnv
from gridbits.tetris import Tetris

gym = pytest.importorskip("gymnasium")

from gridbits.envs import PuyoEnv, TetrisEnv  # noqa: E402

VEC = [
    (PuyoVecEnv, {}),
    (TetrisVecEnv, {}),
    (TetrisVecEnv, {"actions": "hard_drop"}),
]


def first_legal(env):
    return env.action_masks().argmax(axis=1)


def play_until_over(env):
    """Steps the first legal action until game 0 ends; returns the step's terminations."""
    for _ in range(100_000):
        _, _, term, _, _ = env.step(first_legal(env))
        if term[0]:
            return term
    raise AssertionError("no game ended")


@pytest.mark.parametrize("cls", [PuyoVecEnv, TetrisVecEnv])
@pytest.mark.parametrize("n", [2**40, 2**62])
def test_a_batch_past_memory_is_a_memory_error(cls, n):
    with pytest.raises(MemoryError, match="batch of games"):
        cls(n)


@pytest.mark.parametrize("cls, kw", VEC)
def test_frozen_returned_arrays_leave_the_env_working(cls, kw):
    env = cls(2, **kw)
    obs, infos = env.reset(seed=0)
    obs.flags.writeable = False
    for name in infos:
        if isinstance(infos[name], np.ndarray) and infos[name].flags.writeable:
            infos[name].flags.writeable = False
    obs2, rewards, term, trunc, _ = env.step(first_legal(env))
    rewards.flags.writeable = False
    env.step(first_legal(env))
    env.reset(seed=1)
    assert env.step(first_legal(env))[0].shape == obs.shape


@pytest.mark.parametrize("cls, kw", VEC)
def test_actions_aliasing_an_output_are_refused_cleanly(cls, kw):
    env = cls(2, **kw)
    _, infos = env.reset(seed=0)
    column = infos[cls is PuyoVecEnv and "chain" or "lines"]
    with pytest.raises(ValueError, match="shares memory"):
        env.step(column)
    env.step(first_legal(env))  # nothing was played or broken by the refusal


@pytest.mark.parametrize("cls, kw", VEC)
def test_masks_and_flags_are_read_only_views(cls, kw):
    env = cls(2, **kw)
    _, infos = env.reset(seed=0)
    for a in (infos["action_mask"], env.action_masks()):
        with pytest.raises(ValueError, match="read-only"):
            a[:] = True
    _, _, term, trunc, _ = env.step(first_legal(env))
    for a in (term, trunc):
        with pytest.raises(ValueError, match="read-only"):
            a[:] = True


def test_penalty_mode_judges_by_its_own_mask():
    env = TetrisVecEnv(1, invalid_action="penalty", invalid_penalty=-2.0)
    env.reset(seed=0)
    mask = env.action_masks()
    legal, illegal = int(mask[0].argmax()), int(np.flatnonzero(~mask[0])[0])
    mask.copy()[:] = True  # a copy may be edited; the env's mask cannot
    _, r, _, _, infos = env.step([illegal])
    assert infos["invalid_action"].tolist() == [True] and r[0] == -2.0
    twin = TetrisVecEnv(1, invalid_action="penalty")
    twin.reset(seed=0)
    _, r, _, _, infos = twin.step([legal])
    assert infos["invalid_action"].tolist() == [False]


@pytest.mark.parametrize("mode", ["raise", "penalty"])
@pytest.mark.parametrize("cls, kw", VEC)
@pytest.mark.parametrize("action", [-1, 10**6, 2**63 - 1, 2**64 - 1, 2**70])
def test_the_autoreset_step_ignores_any_action(mode, cls, kw, action):
    env = cls(2, invalid_action=mode, **kw)
    env.reset(seed=5)
    play_until_over(env)
    legal = first_legal(env)
    actions = np.array([action, legal[1]], dtype=object)
    obs, r, term, _, infos = env.step(actions)
    assert r[0] == 0 and not term[0]
    if mode == "penalty":
        assert not infos["invalid_action"][0]
    # the new game started: its first observation equals a fresh game from the next seed
    assert env.action_masks()[0].any()


def test_after_a_reset_no_game_awaits_an_autoreset():
    env = PuyoVecEnv(1)
    env.reset(seed=5)
    play_until_over(env)
    env.reset(seed=6)
    with pytest.raises(ValueError, match="action -1 of environment 0 is out of range"):
        env.step([-1])


@pytest.mark.parametrize("cls", [TetrisEnv, PuyoEnv])
def test_copies_continue_the_unseeded_resets(cls):
    env = cls()
    env.reset(seed=0)
    env.step(int(env.action_masks().argmax()))
    env.reset()
    clones = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    following = env.reset()[0]
    for clone in clones:
        assert np.array_equal(clone.reset()[0], following)


@pytest.mark.parametrize("action", [2**63, 2**64 - 1, -(2**63) - 1, 2**100])
def test_single_env_huge_actions(action):
    env = TetrisEnv(invalid_action="penalty", invalid_penalty=-3.0)
    env.reset(seed=0)
    _, r, _, _, info = env.step(action)
    assert r == -3.0 and info["invalid_action"]
    env = TetrisEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="out of range"):
        env.step(action)
    with pytest.raises(ValueError, match="out of range"):
        env.step(np.uint64(2**64 - 1))


@pytest.mark.parametrize("action", [2**64, 2**100, -(2**70)])
def test_vector_env_python_ints_past_64_bits(action):
    env = PuyoVecEnv(2, invalid_action="penalty")
    env.reset(seed=0)
    _, r, _, _, infos = env.step([action, 0])
    assert infos["invalid_action"].tolist() == [True, False] and r[0] == -1.0
    env = PuyoVecEnv(2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="environment 0 is out of range"):
        env.step([action, 0])
    with pytest.raises(TypeError, match="integers"):
        env.step([action, "x"])


def test_settings_of_the_wrong_type_or_value():
    with pytest.raises(ValueError, match="non-negative"):
        TetrisVecEnv(2, seed=-1)
    with pytest.raises(TypeError, match="seed"):
        TetrisVecEnv(2, seed=1.5)
    with pytest.raises(ValueError, match="below 2\\*\\*64"):
        TetrisEnv().reset(seed=2**64)
    TetrisEnv().reset(seed=2**64 - 1)
    with pytest.raises(TypeError, match="invalid_penalty"):
        TetrisVecEnv(2, invalid_penalty="x")
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError, match="finite"):
            PuyoVecEnv(2, invalid_penalty=bad)
    for bad in ("no", None, 1):
        with pytest.raises(TypeError, match="hold"):
            TetrisVecEnv(2, hold=bad)
    TetrisVecEnv(2, hold=np.bool_(False))
    with pytest.raises(ValueError, match="height 1 is below 2"):
        TetrisVecEnv(2, height=1)
    env = TetrisVecEnv(64, height=2, invalid_action="penalty")
    _, infos = env.reset(seed=0)
    assert infos["action_mask"].any(axis=1).all()
    assert PuyoVecEnv(1, previews=8).reset(seed=0)[0].shape == (1, 78 + 2 + 16 + 2)


def test_puyo_action_order_is_the_documented_one():
    from gridbits.envs import __doc__ as doc

    assert "19-21 column 5 with rotations 1, 2, 3" in " ".join(doc.split())
    # On an empty field every placement of a two-colour pair is legal; of a one-colour
    # pair only the first of each two with the same cells: in the documented order, column
    # 0's right and above (0, 1), each middle column's right and above, column 5's above.
    env = PuyoVecEnv(64)
    obs, _ = env.reset(seed=0)
    pair = obs[:, 78:80]
    masks = env.action_masks()
    double = pair[:, 0] == pair[:, 1]
    assert (~double).any() and double.any()
    assert masks[~double].all()
    expected = np.zeros(22, dtype=bool)
    expected[[0, 1, 3, 4, 7, 8, 11, 12, 15, 16, 19]] = True
    assert (masks[double] == expected).all()


def test_perft_depth_bound_is_named():
    with pytest.raises(ValueError, match="0 to 2\\*\\*32 - 1"):
        amazons.perft(amazons.start(), 2**32)


def test_tetris_coordinates_and_rotations():
    t = Tetris()
    for big in (2**31, 2**63, 2**200, -(2**100)):
        assert t.fits("T", 0, big, 3) is False
        assert t.fits("T", 0, 0, big) is False
        assert t.place("T", 0, big, 0) is None
        assert t.drop("T", 0, big) is None
    assert t.fits("T", np.int64(1), np.int32(0), np.uint8(3)) == t.fits("T", "R", 0, 3)
    for bad in (1.0, True, None, [1]):
        with pytest.raises(TypeError, match="rotation"):
            t.fits("T", bad, 0, 0)
    for bad in (4, -1, 2**70, "X"):
        with pytest.raises(ValueError, match="rotation"):
            t.fits("T", bad, 0, 0)
    with pytest.raises(TypeError, match="row"):
        t.fits("T", 0, 1.0, 0)
    with pytest.raises(TypeError, match="col"):
        t.drop("T", 0, "3")
    with pytest.raises(TypeError, match="height"):
        Tetris(True)
    assert Tetris().to_array().shape == (40, 10)
    assert Tetris(np.int64(20)).to_array().shape == (20, 10)
