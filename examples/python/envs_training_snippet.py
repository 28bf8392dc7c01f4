"""How a training loop consumes ``gridbits.envs``: CleanRL-style rollout collection and a
few iterations of a masked policy gradient (REINFORCE with a batch baseline), in numpy.

``python examples/python/envs_training_snippet.py [ITERATIONS]`` trains a linear softmax
policy on ``PuyoVecEnv`` (reward: chain length) and prints the mean reward per iteration.
The pattern is the one any library follows with these vector environments:

* ``obs, infos = env.reset(seed=...)`` once; then ``env.step(actions)`` with one action per
  game, next-step autoreset (no manual reset of finished games);
* the legal actions in ``infos["action_mask"]``: logits of illegal actions set to -inf;
* ``obs`` and the infos are views of the environment's buffers, overwritten by the next
  step: rollouts copy what they store (``obs_buf[t] = obs`` copies into the buffer);
* the step that follows ``terminations[i]`` is a reset step: its reward is 0 and its
  action was ignored, so it is left out of the loss (``valid``).
"""

from __future__ import annotations

import sys

import numpy as np

from gridbits.envs import PuyoVecEnv

NUM_ENVS, STEPS, LR = 256, 32, 0.05


def softmax_masked(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask, logits, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


def main(argv: list[str]) -> int:
    iterations = int(argv[0]) if argv else 5
    env = PuyoVecEnv(NUM_ENVS, reward="chain")
    n_obs, n_act = env.single_observation_shape[0], env.single_action_count
    rng = np.random.default_rng(0)
    weights = np.zeros((n_obs + 1, n_act))  # linear policy on the scaled bytes + a bias

    obs_buf = np.zeros((STEPS, NUM_ENVS, n_obs + 1), dtype=np.float32)
    mask_buf = np.zeros((STEPS, NUM_ENVS, n_act), dtype=bool)
    act_buf = np.zeros((STEPS, NUM_ENVS), dtype=np.int64)
    rew_buf = np.zeros((STEPS, NUM_ENVS), dtype=np.float32)
    valid = np.ones((STEPS, NUM_ENVS), dtype=bool)

    obs, infos = env.reset(seed=0)
    after_end = np.zeros(NUM_ENVS, dtype=bool)
    for it in range(iterations):
        for t in range(STEPS):  # rollout collection
            obs_buf[t, :, :-1] = obs / 6.0
            obs_buf[t, :, -1] = 1.0
            mask_buf[t] = infos["action_mask"]
            p = softmax_masked(obs_buf[t] @ weights, mask_buf[t])
            actions = (rng.random((NUM_ENVS, 1)) > p.cumsum(axis=1)).sum(axis=1)
            actions = np.minimum(actions, n_act - 1)
            act_buf[t] = actions
            valid[t] = ~after_end
            obs, rewards, terminations, truncations, infos = env.step(actions)
            rew_buf[t] = rewards
            after_end = terminations | truncations
        # returns-to-go (no discount, cut at episode ends is skipped for brevity)
        returns = np.cumsum(rew_buf[::-1], axis=0)[::-1]
        adv = returns - returns.mean()
        grad = np.zeros_like(weights)
        for t in range(STEPS):  # gradient of sum(adv * log pi(a|s)) for a linear softmax
            p = softmax_masked(obs_buf[t] @ weights, mask_buf[t])
            onehot = np.zeros_like(p)
            onehot[np.arange(NUM_ENVS), act_buf[t]] = 1.0
            g = (onehot - p) * (adv[t] * valid[t])[:, None]
            grad += obs_buf[t].T @ g
        weights += LR * grad / (STEPS * NUM_ENVS)
        print(f"iteration {it}: mean reward per step {rew_buf[valid].mean():.4f}")
    env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
