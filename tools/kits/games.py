#!/usr/bin/env python3
"""Referees for the kits' games, independent of the library: they record a game in CodinGame's
input format and check that a bot's answers are legal moves.

  games.py record GAME SEED > tools/kits/inputs/GAME.txt
      plays a game between seeded random legal players and writes the input one bot reads
      (every turn of it, in the game's format), as the game's referee would send it.
  games.py check GAME INPUT OUTPUT
      reads the recorded input turn by turn and checks that line n of OUTPUT is a legal move in
      turn n's position (and that there is one answer per turn); exit status 1 otherwise.

GAME: territory (Tron Battle), puyo (Smash the Code), amazons (Amazons 8x8), tetris (the
kit's documented format). Python 3 standard library only.
"""

from __future__ import annotations

import random
import sys

# ----------------------------------------------------------------------------------------------
# Tron Battle: 30 x 20, per turn `N P` and N lines `X0 Y0 X1 Y1`; answers UP DOWN LEFT RIGHT.

TW, TH = 30, 20
STEPS = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}


def tron_record(seed: int) -> str:
    rnd = random.Random(seed)
    n = rnd.choice([2, 3, 4])
    me = rnd.randrange(n)
    cells = rnd.sample([(x, y) for x in range(TW) for y in range(TH)], n)
    start = list(cells)
    heads: list[tuple[int, int] | None] = list(cells)
    trails = [{c} for c in cells]
    out = []
    for _turn in range(60):
        if heads[me] is None or sum(h is not None for h in heads) < 2:
            break
        out.append(f"{n} {me}")
        for p in range(n):
            h = heads[p]
            out.append("-1 -1 -1 -1" if h is None else f"{start[p][0]} {start[p][1]} {h[0]} {h[1]}")
        for p in range(n):
            h = heads[p]
            if h is None:
                continue
            walls = set().union(*trails)
            free = []
            for dx, dy in STEPS.values():
                x, y = h[0] + dx, h[1] + dy
                if 0 <= x < TW and 0 <= y < TH and (x, y) not in walls:
                    room = sum(
                        0 <= x + a < TW and 0 <= y + b < TH and (x + a, y + b) not in walls
                        for a, b in STEPS.values()
                    )
                    free.append((room + rnd.random() * 2, (x, y)))
            if not free:
                heads[p] = None
                trails[p] = set()
                continue
            nxt = max(free)[1]
            heads[p] = nxt
            trails[p].add(nxt)
    return "\n".join(out) + "\n"


def tron_check(inp: list[str], answers: list[str]) -> list[str]:
    errors, turns, i = [], 0, 0
    trails: dict[int, set] = {}
    while i < len(inp):
        if not inp[i].strip():
            i += 1
            continue
        n, me = map(int, inp[i].split())
        heads = {}
        for p in range(n):
            x0, y0, x1, y1 = map(int, inp[i + 1 + p].split())
            if x1 < 0:
                trails[p] = set()
                continue
            trails.setdefault(p, set()).update({(x0, y0), (x1, y1)})
            heads[p] = (x1, y1)
        i += 1 + n
        turns += 1
        if turns > len(answers):
            break
        a = answers[turns - 1].split()
        walls = set().union(*trails.values())
        legal = [d for d, (dx, dy) in STEPS.items()
                 if me in heads and 0 <= heads[me][0] + dx < TW and 0 <= heads[me][1] + dy < TH
                 and (heads[me][0] + dx, heads[me][1] + dy) not in walls]
        if legal and (not a or a[0] not in legal):
            errors.append(f"turn {turns}: {answers[turns - 1]!r} is not one of {legal}")
    return count_check(errors, turns, answers)


def count_check(errors: list[str], turns: int, answers: list[str]) -> list[str]:
    if turns != len(answers):
        errors.append(f"{turns} turns in the input, {len(answers)} answers")
    return errors


# ----------------------------------------------------------------------------------------------
# Smash the Code: 6 x 12; 8 pairs, score, 12 rows, score, 12 rows; answers `column rotation`.

PW, PH = 6, 12


def puyo_settle(g: list[list[str]]) -> int:
    """Chains until nothing vanishes (colours in groups of 4+, skulls next to them)."""
    score = 0
    while True:
        for x in range(PW):
            col = [g[y][x] for y in range(PH) if g[y][x] != "."]
            col = ["."] * (PH - len(col)) + col
            for y in range(PH):
                g[y][x] = col[y]
        seen, gone = set(), set()
        for y in range(PH):
            for x in range(PW):
                c = g[y][x]
                if c in ".0" or (x, y) in seen:
                    continue
                group, stack = [], [(x, y)]
                seen.add((x, y))
                while stack:
                    a, b = stack.pop()
                    group.append((a, b))
                    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        u, v = a + dx, b + dy
                        if 0 <= u < PW and 0 <= v < PH and (u, v) not in seen and g[v][u] == c:
                            seen.add((u, v))
                            stack.append((u, v))
                if len(group) >= 4:
                    gone.update(group)
        if not gone:
            return score
        score += 10 * len(gone)
        skulls = set()
        for a, b in gone:
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                u, v = a + dx, b + dy
                if 0 <= u < PW and 0 <= v < PH and g[v][u] == "0":
                    skulls.add((u, v))
        for a, b in gone | skulls:
            g[b][a] = "."


def puyo_legal(g: list[list[str]]) -> list[tuple[int, int]]:
    free = [sum(g[y][x] == "." for y in range(PH)) for x in range(PW)]
    moves = []
    for x in range(PW):
        for r in range(4):
            if r in (1, 3):
                ok = free[x] >= 2
            else:
                c = x + 1 if r == 0 else x - 1
                ok = 0 <= c < PW and free[x] >= 1 and free[c] >= 1
            if ok:
                moves.append((x, r))
    return moves


def puyo_place(g, a: str, b: str, x: int, r: int) -> None:
    def drop(col, c):
        y = max(y for y in range(PH) if g[y][col] == ".")
        g[y][col] = c

    if r == 1:
        drop(x, a), drop(x, b)
    elif r == 3:
        drop(x, b), drop(x, a)
    else:
        drop(x, a), drop(x + 1 if r == 0 else x - 1, b)


def puyo_record(seed: int) -> str:
    rnd = random.Random(seed)
    queue = [(rnd.choice("12345"), rnd.choice("12345")) for _ in range(8)]
    fields = [[["."] * PW for _ in range(PH)] for _ in range(2)]
    scores = [0, 0]
    out = []
    for _turn in range(25):
        if not all(puyo_legal(f) for f in fields):
            break
        out += [f"{a} {b}" for a, b in queue]
        for p in range(2):
            out.append(str(scores[p]))
            out += ["".join(row) for row in fields[p]]
        for p in range(2):
            if rnd.random() < 0.15:  # a line of skulls from the other side
                for x in range(PW):
                    if fields[p][0][x] == ".":
                        fields[p][0][x] = "0"
                puyo_settle(fields[p])
            moves = puyo_legal(fields[p])
            if not moves:
                continue
            x, r = rnd.choice(moves)
            puyo_place(fields[p], *queue[0], x, r)
            scores[p] += puyo_settle(fields[p])
        queue = queue[1:] + [(rnd.choice("12345"), rnd.choice("12345"))]
    return "\n".join(out) + "\n"


def puyo_check(inp: list[str], answers: list[str]) -> list[str]:
    errors, turns, i = [], 0, 0
    while i + 8 + 2 * (PH + 1) <= len(inp):
        g = [list(row.strip()) for row in inp[i + 9:i + 9 + PH]]
        i += 8 + 2 * (PH + 1)
        turns += 1
        if turns > len(answers):
            break
        legal = puyo_legal(g)
        try:
            x, r = map(int, answers[turns - 1].split()[:2])
        except ValueError:
            x, r = -1, -1
        if legal and (x, r) not in legal:
            errors.append(f"turn {turns}: {answers[turns - 1]!r} is not a legal placement")
    return count_check(errors, turns, answers)


# ----------------------------------------------------------------------------------------------
# Amazons 8x8: boardSize, then per turn colour, rows, lastAction, actionsCount; `a1a2b3`.

QUEEN = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def amazons_reach(board, n, x, y):
    for dx, dy in QUEEN:
        u, v = x + dx, y + dy
        while 0 <= u < n and 0 <= v < n and board[v][u] == ".":
            yield u, v
            u, v = u + dx, v + dy


def amazons_moves(board, n, side):
    for y in range(n):
        for x in range(n):
            if board[y][x] != side:
                continue
            board[y][x] = "."
            for tx, ty in list(amazons_reach(board, n, x, y)):
                board[ty][tx] = side
                for ax, ay in list(amazons_reach(board, n, tx, ty)):
                    yield (x, y), (tx, ty), (ax, ay)
                board[ty][tx] = "."
            board[y][x] = side


def square(n, c):
    return "abcdefgh"[c[0]] + str(n - c[1])


def amazons_record(seed: int) -> str:
    rnd = random.Random(seed)
    n = 8
    board = [["."] * n for _ in range(n)]
    for x, y in ((2, 7), (5, 7), (0, 5), (7, 5)):
        board[y][x] = "w"
        board[n - 1 - y][x] = "b"
    me = rnd.choice("wb")
    side, last = "w", "null"
    out = [str(n)]
    for _ply in range(40):
        moves = list(amazons_moves(board, n, side))
        if not moves:
            break
        if side == me:
            out += [me] + ["".join(row) for row in board] + [last, str(len(moves))]
        f, t, a = rnd.choice(moves)
        board[f[1]][f[0]] = "."
        board[t[1]][t[0]] = side
        board[a[1]][a[0]] = "-"
        last = square(n, f) + square(n, t) + square(n, a)
        side = "b" if side == "w" else "w"
    return "\n".join(out) + "\n"


def amazons_check(inp: list[str], answers: list[str]) -> list[str]:
    n = int(inp[0])
    errors, turns, i = [], 0, 1
    while i + n + 3 <= len(inp):
        me = inp[i].strip()
        board = [list(r.strip()) for r in inp[i + 1:i + 1 + n]]
        i += n + 3
        turns += 1
        if turns > len(answers):
            break
        legal = {square(n, f) + square(n, t) + square(n, a) for f, t, a in amazons_moves(board, n, me)}
        a = answers[turns - 1].strip()
        if legal and a not in legal:
            errors.append(f"turn {turns}: {a!r} is not a legal move of {me}")
    return count_check(errors, turns, answers)


# ----------------------------------------------------------------------------------------------
# Tetris (the kit's format): `width height`; per turn pieces and rows; `rotation x y`.

SHAPES = {  # spawn cells in the SRS box, y down; the box side
    "I": ([(0, 1), (1, 1), (2, 1), (3, 1)], 4),
    "O": ([(0, 0), (1, 0), (0, 1), (1, 1)], 2),
    "T": ([(1, 0), (0, 1), (1, 1), (2, 1)], 3),
    "S": ([(1, 0), (2, 0), (0, 1), (1, 1)], 3),
    "Z": ([(0, 0), (1, 0), (1, 1), (2, 1)], 3),
    "J": ([(0, 0), (0, 1), (1, 1), (2, 1)], 3),
    "L": ([(2, 0), (0, 1), (1, 1), (2, 1)], 3),
}
ROT = "0R2L"
# SRS kicks, y up (as the guideline writes them), per (from, to).
JLSTZ = {
    "0R": [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
    "R0": [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
    "R2": [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
    "2R": [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
    "2L": [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
    "L2": [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
    "L0": [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
    "0L": [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
}
IKICK = {
    "0R": [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
    "R0": [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
    "R2": [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
    "2R": [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
    "2L": [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
    "L2": [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
    "L0": [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
    "0L": [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
}


def tetris_cells(piece: str, r: int):
    cells, b = SHAPES[piece]
    for _ in range(r):
        cells = [(b - 1 - y, x) for x, y in cells]
    return cells


def tetris_fits(rows, w, h, piece, r, x, y):
    for dx, dy in tetris_cells(piece, r):
        u, v = x + dx, y + dy
        if not (0 <= u < w and v < h) or (v >= 0 and rows[v][u] != "."):
            return False
    return True


def tetris_reachable(rows, w, h, piece):
    """Every (rotation, x, y) the piece reaches from its spawn: shifts, soft drops, SRS turns."""
    b = SHAPES[piece][1]
    sx, sy = (w - b) // 2, max(h - 22, -1 if piece == "I" else 0)
    if not tetris_fits(rows, w, h, piece, 0, sx, sy):
        sy -= 1
        if not tetris_fits(rows, w, h, piece, 0, sx, sy):
            return set()
    seen = {(0, sx, sy)}
    stack = [(0, sx, sy)]
    kicks = IKICK if piece == "I" else JLSTZ
    while stack:
        r, x, y = stack.pop()
        nxt = [(r, x - 1, y), (r, x + 1, y), (r, x, y + 1)]
        if piece != "O":
            for t in ((r + 1) % 4, (r + 3) % 4):
                for kx, ky in kicks[ROT[r] + ROT[t]]:
                    if tetris_fits(rows, w, h, piece, t, x + kx, y - ky):
                        nxt.append((t, x + kx, y - ky))
                        break
        for s in nxt:
            if s not in seen and tetris_fits(rows, w, h, piece, *s):
                seen.add(s)
                stack.append(s)
    return seen


def tetris_locks(rows, w, h, piece):
    return {s for s in tetris_reachable(rows, w, h, piece)
            if not tetris_fits(rows, w, h, piece, s[0], s[1], s[2] + 1)
            and all(s[2] + dy >= 0 for _, dy in tetris_cells(piece, s[0]))}


def tetris_record(seed: int) -> str:
    rnd = random.Random(seed)
    w, h = 10, 20
    rows = [["."] * w for _ in range(h)]
    for y in range(h - 4, h):  # a few rows of garbage with one hole each
        hole = rnd.randrange(w)
        rows[y] = ["#" if x != hole else "." for x in range(w)]
    bag: list[str] = []
    queue: list[str] = []
    out = [f"{w} {h}"]
    for _turn in range(20):
        while len(queue) < 3:
            if not bag:
                bag = list("IOTSZJL")
                rnd.shuffle(bag)
            queue.append(bag.pop())
        locks = sorted(tetris_locks(rows, w, h, queue[0]))
        if not locks:
            break
        out.append(" ".join(queue))
        out += ["".join(r) for r in rows]
        # A random lock among the lowest few (a plausible player).
        locks.sort(key=lambda s: -s[2])
        r, x, y = rnd.choice(locks[:6])
        for dx, dy in tetris_cells(queue[0], r):
            rows[y + dy][x + dx] = "#"
        rows = [row for row in rows if "." in row]
        rows = [["."] * w for _ in range(h - len(rows))] + rows
        queue.pop(0)
    return "\n".join(out) + "\n"


def tetris_check(inp: list[str], answers: list[str]) -> list[str]:
    w, h = map(int, inp[0].split())
    errors, turns, i = [], 0, 1
    while i + 1 + h <= len(inp):
        piece = inp[i].split()[0]
        rows = [list(r.strip()) for r in inp[i + 1:i + 1 + h]]
        i += 1 + h
        turns += 1
        if turns > len(answers):
            break
        locks = tetris_locks(rows, w, h, piece)
        a = answers[turns - 1].split()
        try:
            s = (ROT.index(a[0]), int(a[1]), int(a[2]))
        except (ValueError, IndexError):
            s = None
        if locks and s not in locks:
            errors.append(f"turn {turns}: {answers[turns - 1]!r} is not a lock {piece} reaches")
    return count_check(errors, turns, answers)


GAMES = {
    "territory": (tron_record, tron_check),
    "puyo": (puyo_record, puyo_check),
    "amazons": (amazons_record, amazons_check),
    "tetris": (tetris_record, tetris_check),
}


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "record" and sys.argv[2] in GAMES:
        sys.stdout.write(GAMES[sys.argv[2]][0](int(sys.argv[3])))
        return
    if len(sys.argv) == 5 and sys.argv[1] == "check" and sys.argv[2] in GAMES:
        with open(sys.argv[3], encoding="utf-8") as f:
            inp = f.read().splitlines()
        with open(sys.argv[4], encoding="utf-8") as f:
            answers = [a for a in f.read().splitlines()]
        errors = GAMES[sys.argv[2]][1](inp, answers)
        for e in errors:
            print(f"{sys.argv[2]}: {e}", file=sys.stderr)
        if errors:
            sys.exit(1)
        print(f"{sys.argv[2]}: {len(answers)} answers, all legal")
        return
    sys.exit(__doc__)


if __name__ == "__main__":
    main()
