"""Game of the Amazons territory on the 10 x 10 board.

A position is a ``uint8`` array of 10 x 10, top row first: 0 empty, 1 a white amazon,
2 a black amazon, 3 an arrow; or text with ``W``, ``B``, ``#`` (or ``x``) and ``.``.

>>> from gridbits import amazons
>>> e = amazons.evaluate(amazons.START)
>>> e["queen"]
{'white': 22, 'black': 22, 'contested': 48, 'unreachable': 0}
"""

from __future__ import annotations

from typing import Union

import numpy as np
from numpy.typing import ArrayLike

from . import _gridbits
from ._checks import code_batch

_CODES = {".": 0, "W": 1, "B": 2, "#": 3, "x": 3}
_KEYS = ("white", "black", "contested", "unreachable")


def parse(text: str) -> np.ndarray:
    """A position from 10 lines of 10 characters.

    >>> from gridbits import amazons
    >>> int(amazons.parse(("." * 10 + "\\n") * 9 + "W........B").sum())
    3
    """
    lines = text.strip("\n").split("\n")
    if len(lines) != 10:
        raise ValueError(f"text: {len(lines)} rows, a position has 10")
    out = np.zeros((10, 10), dtype=np.uint8)
    for i, ln in enumerate(lines):
        ln = ln.rstrip("\r")
        if len(ln) != 10:
            raise ValueError(f"text: line {i + 1} has {len(ln)} cells, not 10")
        for j, ch in enumerate(ln):
            if ch not in _CODES:
                raise ValueError(f"text: line {i + 1}, column {j + 1}: unknown cell {ch!r}")
            out[i, j] = _CODES[ch]
    return out


#: The standard start: white a4 d1 g1 j4, black a7 d10 g10 j7 (a1 bottom left).
START = parse(
    "...B..B...\n"
    "..........\n"
    "..........\n"
    "B........B\n"
    "..........\n"
    "..........\n"
    "W........W\n"
    "..........\n"
    "..........\n"
    "...W..W...\n"
)


def _positions(positions, name: str, batch: bool) -> np.ndarray:
    if isinstance(positions, str):
        positions = parse(positions)
    meaning = "0 (empty), 1 (white), 2 (black) or 3 (arrow)"
    return code_batch(positions, name, batch, 3, meaning)


def evaluate(position: Union[ArrayLike, str]) -> dict:
    """Territory by queen and by king distance: ``{"queen": {...}, "king": {...}}``, each
    with the counts of empty cells ``white`` and ``black`` reach strictly first,
    ``contested`` and ``unreachable``."""
    t = _gridbits.amazons_evaluate_many(_positions(position, "position", False), True)[0]
    return {m: dict(zip(_KEYS, map(int, t[i]))) for i, m in enumerate(("queen", "king"))}


def evaluate_many(positions: ArrayLike) -> np.ndarray:
    """Territory of a batch ``(N, 10, 10)``: ``int32 [N, 2, 4]``, metric (queen, king) by
    (white, black, contested, unreachable). The GIL is released.

    >>> import numpy as np
    >>> from gridbits import amazons
    >>> amazons.evaluate_many(np.stack([amazons.START] * 3)).shape
    (3, 2, 4)
    """
    return _gridbits.amazons_evaluate_many(_positions(positions, "positions", True))
