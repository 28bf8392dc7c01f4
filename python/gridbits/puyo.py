"""Puyo Puyo chains: Puyo Puyo Tsu (6 x 13 with the ghost row) and Smash the Code (6 x 12).

A field is a ``uint8`` array of ``rows x 6``, top row first: 0 empty, 1-5 the colours, 6
garbage (ojama / skulls); 13 rows for ``rules="tsu"`` (row 0 is the ghost row, which never
pops), 12 for ``rules="stc"``. Floating puyos fall before the chain starts. A text field
(the letters ``R G B Y P`` and ``O`` for Tsu, digits ``1-5`` and ``0`` for Smash the Code,
``.`` empty) can be read with :func:`parse`.

>>> from gridbits import puyo
>>> f = puyo.parse("RRRR..")
>>> r = puyo.simulate(f)
>>> r["chain"], r["score"]
(1, 40)
"""

from __future__ import annotations

from typing import Tuple

import numpy as np
from numpy.typing import ArrayLike

from . import _gridbits
from ._checks import code_batch

_TSU = {".": 0, "R": 1, "G": 2, "B": 3, "Y": 4, "P": 5, "O": 6}
_STC = {".": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "0": 6}
_ROWS = {"tsu": 13, "stc": 12}


def _rules(rules: str) -> str:
    if rules not in _ROWS:
        raise ValueError(f'rules must be "tsu" or "stc", not {rules!r}')
    return rules


def parse(text: str, rules: str = "tsu") -> np.ndarray:
    """A field from text, top row first; fewer rows than the field has are the bottom rows.

    >>> from gridbits import puyo
    >>> puyo.parse("R.....\\nRGB...", rules="tsu")[-2:].tolist()
    [[1, 0, 0, 0, 0, 0], [1, 2, 3, 0, 0, 0]]
    """
    if not isinstance(text, str):
        raise TypeError(f"text: expected a str, got {type(text).__name__}")
    rows = _ROWS[_rules(rules)]
    table = _TSU if rules == "tsu" else _STC
    lines = [ln for ln in text.strip("\n").split("\n")]
    if len(lines) > rows:
        raise ValueError(f"text: {len(lines)} rows, the field has {rows}")
    out = np.zeros((rows, 6), dtype=np.uint8)
    for i, ln in enumerate(lines):
        ln = ln.rstrip("\r")
        if len(ln) != 6:
            raise ValueError(f"text: line {i + 1} has {len(ln)} cells, not 6")
        for j, ch in enumerate(ln):
            if ch not in table:
                raise ValueError(f"text: line {i + 1}, column {j + 1}: unknown cell {ch!r}")
            out[rows - len(lines) + i, j] = table[ch]
    return out


def _fields(fields, name: str, batch: bool) -> np.ndarray:
    return code_batch(fields, name, batch, 6, "0 (empty), 1-5 (colours) or 6 (garbage)", True)


def simulate(field: ArrayLike, rules: str = "tsu") -> dict:
    """Run the chain of one field: ``{"chain", "score", "steps", "field"}``, ``steps`` a list
    of ``{"cleared", "garbage", "groups", "colors", "group_bonus", "score"}`` and ``field``
    the field after the chain.

    >>> from gridbits import puyo
    >>> f = puyo.parse("R.....\\nRGGGG.\\nRR....")  # G G G fall first
    >>> r = puyo.simulate(f)
    >>> r["chain"], [s["cleared"] for s in r["steps"]]
    (2, [4, 4])
    """
    r = _rules(rules)
    return _gridbits.puyo_simulate(_fields(field, "field", False), r)


def simulate_many(
    fields: ArrayLike, rules: str = "tsu"
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run the chains of a batch of fields ``(N, rows, 6)``: ``(chain int32 [N], score
    int64 [N], fields after uint8 [N, rows, 6])``. The GIL is released.

    >>> import numpy as np
    >>> from gridbits import puyo
    >>> batch = np.stack([puyo.parse("RRRR.."), puyo.parse("RRR...")])
    >>> chains, scores, after = puyo.simulate_many(batch)
    >>> chains.tolist(), scores.tolist()
    ([1, 0], [40, 0])
    """
    r = _rules(rules)
    return _gridbits.puyo_simulate_many(_fields(fields, "fields", True), r)
