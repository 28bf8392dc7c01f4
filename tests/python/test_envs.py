"""gridbits.envs: batched Tetris / Puyo environments against single environments, the
move generator (gridbits.tetris), Gymnasium's checker and registry, seeding and errors."""

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gridbits
from gridbits.envs import PuyoVecEnv, TetrisVecEnv
from gridbits.tetris import Tetris

gym = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from gridbits.envs import PuyoEnv, TetrisEnv  # noqa: E402

PIECES = "IOTSZJL"


def random_legal(rng, masks):
    """One uniformly random legal action per row of ``masks``."""
    m = masks.astype(np.float64)
    u = rng.random(m.shape) * m
    return u.argmax(axis=1)


def rollout(env, seeds, steps, rng_seed=0):
    """Every step's (obs, rewards, terminations, masks, infos) copied, with random legal
    actions."""
    rng = np.random.default_rng(rng_seed)
    obs, infos = env.reset(seed=seeds)
    out = [(obs.copy(), infos["action_mask"].copy())]
    for _ in range(steps):
        a = random_legal(rng, env.action_masks())
        obs, r, term, trunc, infos = env.step(a)
        assert not trunc.any()
        out.append((obs.copy(), r.copy(), term.copy(), infos["action_mask"].copy(), a))
    return out


@pytest.mark.parametrize("make", [
    lambda n: TetrisVecEnv(n, reward="score"),
    lambda n: TetrisVecEnv(n, actions="hard_drop", queue=2, hold=False, reward="lines"),
    lambda n: PuyoVecEnv(n),
])
def test_batch_equals_single_games(make):
    n, steps = 5, 150
    seeds = [11, 0, 2**64 - 1, 12345, 7]
    batch = make(n)
    rng = np.random.default_rng(1)
    obs, infos = batch.reset(seed=np.array(seeds, dtype=np.uint64))
    singles = [make(1) for _ in range(n)]
    for i, s in enumerate(singles):
        o, inf = s.reset(seed=[seeds[i]])
        assert np.array_equal(o[0], obs[i])
        assert np.array_equal(inf["action_mask"][0], infos["action_mask"][i])
    ended = 0
    for _ in range(steps):
        a = random_legal(rng, batch.action_masks())
        obs, r, term, _, infos = batch.step(a)
        ended += int(term.sum())
        for i, s in enumerate(singles):
            o, r1, t1, _, inf = s.step(a[i : i + 1])
            assert np.array_equal(o[0], obs[i])
            assert r1[0] == r[i] and t1[0] == term[i]
            assert np.array_equal(inf["action_mask"][0], infos["action_mask"][i])
    assert ended > 0 or isinstance(batch, PuyoVecEnv)  # autoresets were exercised


def _shapes(piece: str) -> dict:
    """Rotation -> cells relative to (top row, leftmost column)."""
    m = Tetris().moves(piece, as_arrays=True)
    shapes = {}
    for r, cells in zip(m.rotation.tolist(), m.cells):
        if r not in shapes:
            rows, cols = cells[:, 0], cells[:, 1]
            shapes[r] = frozenset(zip((rows - rows.min()).tolist(), (cols - cols.min()).tolist()))
    return shapes


def _mask_cells(mask, piece: str, height: int, hard_drop: bool, board) -> set:
    shapes = _shapes(piece)
    out = set()
    for idx in np.flatnonzero(mask[:-1]):
        if hard_drop:
            r, x = divmod(int(idx), 10)
        else:
            r, rest = divmod(int(idx), height * 10)
            y, x = divmod(rest, 10)
        shape = shapes.get(r) or shapes.get(r % 2) or shapes[0]
        if hard_drop:  # one action per (shape, leftmost column)
            out.add((shape, x))
        else:
            out.add(frozenset((y + dr, x + dc) for dr, dc in shape))  # y: the top cell's row
    return out


@pytest.mark.parametrize("hard_drop", [False, True])
def test_masks_equal_move_generator(hard_drop):
    h = 24
    env = TetrisVecEnv(6, actions="hard_drop" if hard_drop else "placements", height=h)
    rng = np.random.default_rng(5)
    env.reset(seed=3)
    checked = 0
    for _ in range(60):
        for i in range(env.num_envs):
            o = env._obs[i]
            board = env.boards()[i].astype(bool)
            piece = PIECES[o[h * 10]]
            mask = env.action_masks()[i]
            if mask.all():  # a finished game waiting for its autoreset
                continue
            moves = Tetris.from_array(board).moves(piece, as_arrays=True)
            want = {frozenset(map(tuple, c.tolist())) for c in moves.cells}
            if hard_drop:  # legal iff some placement of that shape has that leftmost column
                want = set()
                for cells in moves.cells:
                    rows, cols = cells[:, 0], cells[:, 1]
                    key = zip((rows - rows.min()).tolist(), (cols - cols.min()).tolist())
                    want.add((frozenset(key), int(cols.min())))
                assert _mask_cells(mask, piece, h, True, board) == want
            else:
                assert _mask_cells(mask, piece, h, False, board) == want
            checked += 1
        env.step(random_legal(rng, env.action_masks()))
    assert checked > 200


def test_seeded_replay_and_threads():
    def run(n_threads):
        with gridbits.threads(n_threads):
            env = TetrisVecEnv(300, seed=9)  # > 64 games: chunks shared over the threads
            return rollout(env, 42, 40)

    a, b, c = run(1), run(2), run(2)
    for x, y, z in zip(a, b, c):
        for u, v, w in zip(x, y, z):
            assert np.array_equal(u, v) and np.array_equal(v, w)
    env = TetrisVecEnv(3)
    o1, _ = env.reset(seed=1)
    o1 = o1.copy()
    o2, _ = env.reset(seed=2)
    assert not np.array_equal(o1, o2)
    assert np.array_equal(env.reset(seed=1)[0], o1)


def test_next_step_autoreset():
    env = TetrisVecEnv(4, actions="hard_drop", queue=0, reward="lines")
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    pending = np.zeros(4, dtype=bool)
    seen = 0
    for _ in range(400):
        a = random_legal(rng, env.action_masks())
        before = env._obs.copy()
        obs, r, term, trunc, infos = env.step(a)
        for i in np.flatnonzero(pending):  # reset step: reward 0, not terminated, new game
            assert r[i] == 0 and not term[i]
            assert infos["lines"][i] == 0
            assert not infos["action_mask"][i].all()
            seen += 1
        for i in np.flatnonzero(term):  # final step: the final observation, every action accepted
            assert infos["action_mask"][i].all()
            assert not np.array_equal(obs[i], before[i])
        pending = term.copy()
    assert seen > 0


def test_rewards_and_infos():
    env = TetrisVecEnv(64, actions="hard_drop", reward="lines", seed=0)
    env.reset()
    rng = np.random.default_rng(2)
    total = 0
    for _ in range(200):
        _, r, _, _, infos = env.step(random_legal(rng, env.action_masks()))
        assert np.array_equal(r, infos["lines"].astype(np.float32))
        assert (infos["score"] >= 100 * infos["lines"]).all()
        total += infos["lines"].sum()
    assert total > 0
    p = PuyoVecEnv(64, reward="chain", seed=0)
    p.reset()
    for _ in range(100):
        _, r, _, _, infos = p.step(random_legal(rng, p.action_masks()))
        assert np.array_equal(r, infos["chain"].astype(np.float32))
        assert ((infos["chain"] > 0) == (infos["score"] > 0)).all()
    # every reward choice is its info column; the infos dict returned is the caller's
    for cls, reward, key in [
        (TetrisVecEnv, "score", "score"),
        (TetrisVecEnv, "attack", "attack"),
        (PuyoVecEnv, "score", "score"),
        (PuyoVecEnv, "ojama", "ojama_sent"),
    ]:
        e = cls(32, reward=reward, seed=1)
        e.reset()
        seen = 0
        for _ in range(150):
            _, r, _, _, infos = e.step(random_legal(rng, e.action_masks()))
            assert np.array_equal(r, infos[key].astype(np.float32)), (cls, reward)
            seen += int((r != 0).sum())
            infos["mine"] = 1
        assert seen > 0 or reward == "attack", (cls, reward)  # random play rarely attacks
        assert "mine" not in e.step(random_legal(rng, e.action_masks()))[4]
        e.invalid_action = "penalty"
        assert "invalid_action" in e.step(random_legal(rng, e.action_masks()))[4]


@pytest.mark.filterwarnings("ignore:.*alternative render modes")
@pytest.mark.parametrize("cls", [TetrisEnv, PuyoEnv])
@pytest.mark.parametrize("render_mode", [None, "ansi", "rgb_array"])
def test_check_env(cls, render_mode):
    # check_env samples actions without the mask: the penalty option accepts them.
    check_env(cls(render_mode=render_mode, invalid_action="penalty"), skip_render_check=False)


def test_render():
    env = TetrisEnv(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text.count("\n") == 24 and "piece" in text
    img = TetrisEnv(render_mode="rgb_array")
    img.reset(seed=0)
    im = img.render()
    assert im.dtype == np.uint8 and im.shape == (24 * 8, 10 * 8, 3)
    p = PuyoEnv(render_mode="rgb_array")
    p.reset(seed=0)
    assert p.render().shape == (13 * 8, 6 * 8, 3)


def test_make_and_make_vec():
    e = gym.make("gridbits/Tetris-v0", reward="attack")
    obs, info = e.reset(seed=1)
    assert e.observation_space.contains(obs)
    assert "action_mask" in info
    v = gym.make_vec("gridbits/PuyoTsu-v0", num_envs=16, vectorization_mode="vector_entry_point")
    assert isinstance(v, PuyoVecEnv) and v.num_envs == 16
    obs, infos = v.reset(seed=0)
    assert v.observation_space.contains(obs)
    obs, *_ = v.step(random_legal(np.random.default_rng(0), v.action_masks()))
    assert obs.shape == (16, 86)
    t = gym.make_vec("gridbits/Tetris-v0", num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(t, TetrisVecEnv) and t.single_action_space.n == 961


def test_pickle_single_env():
    env = TetrisEnv(reward="score")
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(12):
        _, _, term, _, info = env.step(int(random_legal(rng, info["action_mask"][None])[0]))
        if term:
            break
    clone = pickle.loads(pickle.dumps(env))
    for _ in range(20):
        a = int(random_legal(rng, env.action_masks()[None])[0])
        assert [np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y
                for x, y in zip(env.step(a)[:4], clone.step(a)[:4])] == [True] * 4


def test_bad_actions():
    env = TetrisVecEnv(3)
    with pytest.raises(RuntimeError, match="reset"):
        env.step([0, 0, 0])
    env.reset(seed=0)
    legal = env.action_masks().argmax(axis=1)
    bad = legal.copy()
    bad[1] = int(np.flatnonzero(~env.action_masks()[1])[0])
    with pytest.raises(ValueError, match=f"action {bad[1]} of environment 1"):
        env.step(bad)
    with pytest.raises(ValueError, match="environment 2 is out of range"):
        env.step([legal[0], legal[1], 10_000])
    with pytest.raises(ValueError, match="environment 0 is out of range"):
        env.step([-1, legal[1], legal[2]])
    # values that a cast to 32 bits would wrap onto a legal action, and uint64 past int64
    with pytest.raises(ValueError, match=f"action {2**32 + legal[1]} of environment 1 is out of range"):
        env.step(np.array([legal[0], 2**32 + legal[1], legal[2]], dtype=np.int64))
    with pytest.raises(ValueError, match=f"action {2**64 - 1} of environment 2 is out of range 0..960"):
        env.step(np.array([legal[0], legal[1], 2**64 - 1], dtype=np.uint64))
    puyo = PuyoVecEnv(2)
    puyo.reset(seed=0)
    with pytest.raises(ValueError, match="action 22 of environment 1 is out of range 0..21"):
        puyo.step([0, 22])
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        env.step(legal[:2])
    with pytest.raises(TypeError, match="integers"):
        env.step(legal.astype(np.float64))
    with pytest.raises(TypeError, match="integers"):
        env.step(np.ones(3, dtype=bool))
    # nothing was played by the refused calls; any integer dtype and layout works
    obs, *_ = env.step(legal.astype(np.int8 if legal.max() < 128 else np.int16))
    legal = env.action_masks().argmax(axis=1)
    strided = np.zeros((3, 2), dtype=">i4")
    strided[::-1, 1] = legal[::-1]
    _, _, _, _, infos = env.step(strided[:, 1])
    assert infos["_lines"].all() and infos["lines"].shape == (3,)
    # an int64 column of a wider array goes to the native step as it is (read with its
    # stride), and its range is checked there
    wide = np.zeros((3, 3), dtype=np.int64)
    wide[:, 2] = env.action_masks().argmax(axis=1)
    twin = TetrisVecEnv(3)
    twin.reset(seed=0)
    for _ in range(2):
        twin.step(twin.action_masks().argmax(axis=1))
    o_twin = twin.step(wide[:, 2].copy())[0].copy()
    assert np.array_equal(env.step(wide[:, 2])[0], o_twin)
    wide[:, 2] = env.action_masks().argmax(axis=1)
    wide[1, 2] = 10_000
    with pytest.raises(ValueError, match="action 10000 of environment 1 is out of range"):
        env.step(wide[:, 2])
    pen = TetrisVecEnv(3, invalid_action="penalty", invalid_penalty=-5.0)
    pen.reset(seed=0)
    bad = pen.action_masks().argmax(axis=1)
    bad[0] = int(np.flatnonzero(~pen.action_masks()[0])[0])
    _, r, _, _, infos = pen.step(bad)
    assert infos["invalid_action"].tolist() == [True, False, False]
    assert r[0] == -5.0
    for kwargs, exc in [
        ({"num_envs": 0}, ValueError),
        ({"num_envs": 2.0}, TypeError),
        ({"num_envs": 2, "actions": "keys"}, ValueError),
        ({"num_envs": 2, "reward": "fun"}, ValueError),
        ({"num_envs": 2, "height": 100}, ValueError),
        ({"num_envs": 2, "invalid_action": "skip"}, ValueError),
    ]:
        with pytest.raises(exc):
            TetrisVecEnv(**kwargs)
    with pytest.raises(ValueError):
        PuyoVecEnv(2, colors=9)
    with pytest.raises(TypeError, match="seed"):
        env.reset(seed="x")
    with pytest.raises(TypeError, match="action"):
        TetrisEnv().step(1.5)


def test_copy_option_and_views():
    env = TetrisVecEnv(2, copy=True)
    o1, _ = env.reset(seed=0)
    o2, *_ = env.step(env.action_masks().argmax(axis=1))
    assert o1 is not o2 and not np.shares_memory(o1, o2)
    view = TetrisVecEnv(2)
    v1, _ = view.reset(seed=0)
    v2, *_ = view.step(view.action_masks().argmax(axis=1))
    assert np.shares_memory(v1, v2)  # documented: the caller copies what it keeps


_DIGEST = """
import hashlib, numpy as np
from gridbits.envs import TetrisVecEnv
env = TetrisVecEnv(70, seed=3)
obs, infos = env.reset()
h = hashlib.sha256(obs.tobytes())
rng = np.random.default_rng(0)
for _ in range(30):
    m = env.action_masks()
    obs, r, t, _, infos = env.step((rng.random(m.shape) * m).argmax(1))
    h.update(obs.tobytes()); h.update(r.tobytes()); h.update(t.tobytes())
print(h.hexdigest())
"""


def test_same_seed_same_games_across_processes():
    import os
    import subprocess
    import sys

    def digest(threads):
        env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
        out = subprocess.run([sys.executable, "-c", _DIGEST], env=env, capture_output=True, text=True, check=True)
        return out.stdout.strip()

    assert digest(1) == digest(2) != ""


@given(
    queue=st.integers(0, 5),
    hold=st.booleans(),
    height=st.integers(4, 30),
    hard_drop=st.booleans(),
    seed=st.integers(0, 2**64 - 1),
)
@settings(max_examples=15, deadline=None)
def test_settings_batch_equals_single(queue, hold, height, hard_drop, seed):
    kwargs = dict(queue=queue, hold=hold, height=height, actions="hard_drop" if hard_drop else "placements")
    batch = TetrisVecEnv(3, **kwargs)
    single = TetrisVecEnv(1, **kwargs)
    seeds = [seed, seed ^ 1, 5]
    obs, _ = batch.reset(seed=seeds)
    o1, _ = single.reset(seed=seeds[:1])
    assert obs.shape == (3, height * 10 + 6 + queue) and np.array_equal(obs[0], o1[0])
    assert batch.single_action_count == (4 * height * 10 if not hard_drop else 40) + 1
    rng = np.random.default_rng(seed % 1000)
    for _ in range(20):
        a = random_legal(rng, batch.action_masks())
        if not hold:
            assert not batch.action_masks()[:, -1].any() or batch.action_masks().all(axis=1).any()
        obs, r, t, _, _ = batch.step(a)
        o1, r1, t1, _, _ = single.step(a[:1])
        assert np.array_equal(obs[0], o1[0]) and r[0] == r1[0] and t[0] == t1[0]


def test_works_without_gymnasium():
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "import numpy as np, gridbits.envs as E\n"
        "assert not hasattr(E, 'TetrisEnv') and 'TetrisEnv' not in E.__all__\n"
        "env = E.PuyoVecEnv(3, seed=1)\n"
        "obs, infos = env.reset()\n"
        "obs, r, t, tr, infos = env.step(env.action_masks().argmax(1))\n"
        "assert not hasattr(env, 'action_space')\n"
        "print(env.single_observation_shape, env.single_action_count, obs.shape)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "(86,) 22 (3, 86)"
