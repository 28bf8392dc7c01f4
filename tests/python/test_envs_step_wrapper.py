"""gridbits.envs step wrapper (drop4): the action range check by two reductions and the info
dict built once per buffers, against the plain rules (an element-wise range check, a fresh
dict of fresh views each step)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridbits.envs import PuyoVecEnv, TetrisVecEnv


def fresh_infos(env):
    """The info dict as built before the cache: every key from the buffers."""
    return env._build_infos()


@pytest.mark.parametrize("cls", [TetrisVecEnv, PuyoVecEnv])
@pytest.mark.parametrize("copy", [False, True])
def test_infos_equal_a_fresh_build_every_step(cls, copy):
    env = cls(5, seed=1, copy=copy)
    _, first = env.reset()
    rng = np.random.default_rng(0)
    prev = first
    for step in range(40):
        m = env.action_masks()
        _, _, _, _, infos = env.step((rng.random(m.shape) * m).argmax(1))
        ref = fresh_infos(env)
        assert sorted(infos) == sorted(ref)
        for k in ref:
            assert np.array_equal(infos[k], ref[k]), (step, k)
            assert infos[k].dtype == ref[k].dtype
        # a new dict each step: the caller's changes stay theirs
        assert infos is not prev
        infos["mine"] = 1
        infos.pop("action_mask")
        prev = infos
    _, _, _, _, infos = env.step(env.action_masks().argmax(1))
    assert "mine" not in infos and "action_mask" in infos
    if not copy:  # views of the buffers, as before
        assert np.shares_memory(infos["action_mask"], env._masks)


def test_infos_follow_setting_changes():
    env = TetrisVecEnv(3, seed=2)
    env.reset()
    _, _, _, _, infos = env.step(env.action_masks().argmax(1))
    assert "invalid_action" not in infos
    env.invalid_action = "penalty"
    _, _, _, _, infos = env.step(env.action_masks().argmax(1))
    assert infos["invalid_action"].tolist() == [False] * 3
    env.copy = True
    _, _, _, _, infos = env.step(env.action_masks().argmax(1))
    assert not np.shares_memory(infos["action_mask"], env._masks)


def plain_range_error(a, n_act):
    """The first out-of-range game by the element-wise rule, or None."""
    bad = (a < 0) | (a >= n_act)
    return int(np.flatnonzero(bad)[0]) if bad.any() else None


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 6),
    st.sampled_from(["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", ">i4"]),
    st.sampled_from(["contiguous", "reversed", "strided"]),
    st.integers(-(2**40), 2**40),
)
def test_range_check_equals_the_element_wise_rule(k, dtype, layout, value):
    n = 7
    env = TetrisVecEnv(n, seed=3, actions="hard_drop")
    env.reset()
    n_act = env.single_action_count
    legal = env.action_masks().argmax(1)
    a = legal.astype(np.int64)
    info = np.iinfo(np.dtype(dtype))
    a[k] = min(max(value, info.min), info.max)
    if layout == "reversed":
        buf = np.ascontiguousarray(a[::-1].astype(dtype))
        arr = buf[::-1]
    elif layout == "strided":
        buf = np.zeros((n, 3), dtype=dtype)
        buf[:, 2] = a.astype(dtype)
        arr = buf[:, 2]
    else:
        arr = a.astype(dtype)
    bad = plain_range_error(arr.astype(np.int64) if arr.dtype != np.uint64 else arr, n_act)
    before = env._obs.copy()
    if bad is not None:
        with pytest.raises(ValueError, match=f"environment {bad} is out of range 0..{n_act - 1}"):
            env.step(arr)
        assert np.array_equal(env._obs, before)
    elif arr[k] != legal[k] and not env.action_masks()[k, int(arr[k])]:
        with pytest.raises(ValueError, match=f"environment {k}"):
            env.step(arr)
        assert np.array_equal(env._obs, before)
    else:
        ref = TetrisVecEnv(n, seed=3, actions="hard_drop")
        ref.reset()
        o, r, t, _, _ = env.step(arr)
        o2, r2, t2, _, _ = ref.step(np.asarray(arr).astype(np.int64))
        assert np.array_equal(o, o2) and np.array_equal(r, r2) and np.array_equal(t, t2)


def test_range_check_edges():
    env = TetrisVecEnv(2, actions="hard_drop")
    env.reset(seed=0)
    legal = env.action_masks().argmax(1)
    n_act = env.single_action_count
    for bad in (n_act, 2**32 + int(legal[1]), -1, -(2**63)):
        a = legal.astype(np.int64)
        a[1] = bad
        with pytest.raises(ValueError, match="environment 1 is out of range"):
            env.step(a)
    a = legal.astype(np.uint64)
    a[0] = 2**64 - 1
    with pytest.raises(ValueError, match="environment 0 is out of range"):
        env.step(a)
    # the empty batch has no action to check
    with pytest.raises((ValueError, TypeError)):
        TetrisVecEnv(0)
