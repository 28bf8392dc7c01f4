"""The batched environments give the same outputs whatever the thread count: one thread,
two, more threads than cores, and the default (the calling thread and the global pool's
threads sharing the 64-game chunks)."""

import numpy as np
import pytest

import gridbits
from gridbits.envs import PuyoVecEnv, TetrisVecEnv

_INFO_KEYS = {
    TetrisVecEnv: ("lines", "score", "attack", "spin", "combo", "back_to_back", "perfect_clear"),
    PuyoVecEnv: ("chain", "score", "all_clear"),
}


def _rollout(make, threads, steps):
    """Every output of ``steps`` uniformly random legal steps (the actions drawn from a
    fixed generator, so every thread count plays the same games while they agree)."""
    with gridbits.threads(threads):
        env = make()
        rng = np.random.default_rng(3)
        obs, infos = env.reset(seed=11)
        out = [obs.copy(), infos["action_mask"].copy()]
        for _ in range(steps):
            masks = env.action_masks()
            a = (rng.random(masks.shape, dtype=np.float32) * masks).argmax(axis=1)
            obs, rewards, term, trunc, infos = env.step(a)
            out += [obs.copy(), rewards.copy(), term.copy(), trunc.copy(), infos["action_mask"].copy()]
            out += [np.asarray(infos[k]).copy() for k in _INFO_KEYS[type(env)]]
        return out


@pytest.mark.parametrize(
    "make, steps",
    [
        # 1000 games: 16 chunks, the last one short.
        (lambda: TetrisVecEnv(1000, actions="placements"), 12),
        (lambda: TetrisVecEnv(1000, actions="hard_drop"), 25),
        (lambda: PuyoVecEnv(1000), 40),
        # One chunk and a bit: the calling thread and one helper.
        (lambda: TetrisVecEnv(65, actions="placements"), 40),
    ],
)
def test_thread_counts_agree(make, steps):
    one = _rollout(make, 1, steps)
    for threads in (2, 5, None):
        other = _rollout(make, threads, steps)
        assert len(other) == len(one)
        for x, y in zip(one, other):
            assert x.dtype == y.dtype and np.array_equal(x, y), threads


def test_illegal_action_reported_for_the_lowest_game_on_every_thread_count():
    reference = TetrisVecEnv(300)
    reference.reset(seed=4)
    masks = reference.action_masks().copy()
    legal = masks.argmax(axis=1)
    want = reference.step(legal)[0].copy()
    for threads in (1, 2, None):
        with gridbits.threads(threads):
            env = TetrisVecEnv(300)
            env.reset(seed=4)
            a = legal.copy()
            for bad in (250, 130):
                a[bad] = int(np.flatnonzero(~masks[bad])[0])
            with pytest.raises(ValueError, match="environment 130"):
                env.step(a)
            # Nothing was played: the legal actions then give the reference's step.
            assert np.array_equal(env.step(legal)[0], want)
