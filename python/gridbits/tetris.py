"""Tetris: a 10-column matrix with SRS placement, line clears, evaluation features and the
move generator.

Positions are SRS boxes: ``x`` the box's left column, ``y`` its top row counted from the
top; rotations are ``"0"``, ``"R"``, ``"2"``, ``"L"`` (or 0-3, clockwise from spawn); cells are
``(x, y)`` pairs. The matrix has 40 rows by default (up to 64); pieces spawn above the
visible 20.

>>> from gridbits.tetris import Tetris
>>> t = Tetris()
>>> moves = t.moves("T")
>>> len(moves)
34
>>> sorted(m["spin"] for m in moves)[0]
'none'
>>> t.drop("I", "0", 3)     # a flat I in columns 3-6: no row is full
0
>>> t.heights()
[0, 0, 0, 1, 1, 1, 1, 0, 0, 0]
>>> t.to_array().shape
(40, 10)
"""

from __future__ import annotations

from ._gridbits import Tetris

__all__ = ["Tetris"]
