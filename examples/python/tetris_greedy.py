"""A greedy Tetris agent on Dellacherie-style features, N games in one batch.

``python examples/python/tetris_greedy.py [N] [STEPS]`` plays N games of
``gridbits.envs.TetrisVecEnv`` (hard-drop actions: rotation x column) for STEPS steps. At
every step it scores each legal action of each game with numpy on all games at once: it
places the current piece where the action drops it, clears full rows, and evaluates
landing height, eroded cells, row transitions, column transitions, holes and well depth
(Dellacherie's weights). It never holds. Prints the lines cleared per finished game and
over the games still running.
"""

from __future__ import annotations

import sys

import numpy as np

from gridbits.envs import TetrisVecEnv

#: Piece cells (I, O, T, S, Z, J, L) in the spawn rotation; rotations are clockwise.
SHAPES = {
    "I": ["####"],
    "O": ["##", "##"],
    "T": [".#.", "###"],
    "S": [".##", "##."],
    "Z": ["##.", ".##"],
    "J": ["#..", "###"],
    "L": ["..#", "###"],
}
#: Dellacherie's weights: landing height, eroded cells, row transitions, column
#: transitions, holes, wells.
WEIGHTS = np.array([-1.0, 1.0, -1.0, -1.0, -4.0, -1.0])


def piece_tables():
    """``cells[piece, rotation]``: 4 ``(row, col)`` from the top-left of the piece box."""
    cells = np.zeros((7, 4, 4, 2), dtype=np.int64)
    for p, rows in enumerate(SHAPES.values()):
        grid = np.array([[c == "#" for c in r] for r in rows])
        for r in range(4):
            cells[p, r] = np.argwhere(grid)
            grid = np.rot90(grid, -1)
    return cells


CELLS = piece_tables()


def features(boards: np.ndarray, piece: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """Feature rows of dropping ``piece[i]`` with ``actions[i]`` (rotation * 10 + column)
    on ``boards[i]`` (``bool``, ``(n, h, 10)``); illegal (out of bounds) -> -inf score."""
    n, h, w = boards.shape
    rot, col = np.divmod(actions, w)
    cells = CELLS[piece, rot]
    cc = cells[:, :, 1] + col[:, None]
    inside = (cc < w).all(axis=1)
    cc = np.minimum(cc, w - 1)
    tops = np.where(boards.any(axis=1), boards.argmax(axis=1), h)
    y = (np.take_along_axis(tops, cc, axis=1) - 1 - cells[:, :, 0]).min(axis=1)
    ok = inside & (y >= 0)
    rr = np.clip(y[:, None] + cells[:, :, 0], 0, h - 1)
    after = boards.copy()
    after[np.arange(n)[:, None], rr, cc] = True
    full = after.all(axis=2)
    lines = full.sum(axis=1)
    eroded = lines * full[np.arange(n)[:, None], rr].sum(axis=1)
    order = np.argsort(~full, axis=1, kind="stable")
    after = np.take_along_axis(after, order[:, :, None], axis=1)
    after[np.arange(h)[None, :] < lines[:, None]] = False
    landing = h - (y + cells[:, :, 0].max(axis=1) + y) / 2
    padded = np.pad(after, ((0, 0), (0, 0), (1, 1)), constant_values=True)
    row_t = (padded[:, :, 1:] != padded[:, :, :-1]).sum(axis=(1, 2))
    colpad = np.pad(after, ((0, 0), (0, 1), (0, 0)), constant_values=True)
    col_t = (colpad[:, 1:] != colpad[:, :-1]).sum(axis=(1, 2))
    below_top = np.cumsum(after, axis=1) > 0
    holes = (below_top & ~after).sum(axis=(1, 2))
    walls = np.pad(after, ((0, 0), (0, 0), (1, 1)), constant_values=True)
    well = ~after & walls[:, :, :-2] & walls[:, :, 2:] & ~below_top
    wells = well.sum(axis=(1, 2))
    f = np.stack([landing, eroded, row_t, col_t, holes, wells], axis=1).astype(np.float64)
    score = f @ WEIGHTS
    score[~ok] = -np.inf
    return score


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 64
    steps = int(argv[1]) if len(argv) > 1 else 300
    env = TetrisVecEnv(n, seed=0, actions="hard_drop", reward="lines", queue=0)
    obs, infos = env.reset(seed=0)
    h = env.height
    lines = np.zeros(n, dtype=np.int64)
    finished: list[int] = []
    for _ in range(steps):
        boards = env.boards().astype(bool)
        piece = obs[:, h * 10].astype(np.int64)
        mask = infos["action_mask"][:, :40]
        best = np.full(n, -np.inf)
        choice = mask.argmax(axis=1)  # any legal action (autoreset steps accept anything)
        for a in range(40):
            s = features(boards, piece, np.full(n, a))
            s[~mask[:, a]] = -np.inf
            better = s > best
            best[better] = s[better]
            choice[better] = a
        obs, rewards, terminated, _, infos = env.step(choice)
        lines += rewards.astype(np.int64)
        for i in np.flatnonzero(terminated):
            finished.append(int(lines[i]))
            lines[i] = 0
    print(f"{n} games, {steps} pieces each: finished games {len(finished)}", end="")
    if finished:
        print(f", lines per finished game {np.mean(finished):.1f}", end="")
    print(f"; running games: {lines.mean():.1f} lines on average (max {lines.max()})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
