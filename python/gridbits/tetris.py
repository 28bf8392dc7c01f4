"""Tetris: a 10-column matrix with SRS placement, line clears, evaluation features and the
move generator.

Coordinates are ``(row, col)``, as everywhere in gridbits: a position is the SRS box's top
row ``row`` (counted from the top) and left column ``col``; cells are ``(row, col)`` pairs
and :meth:`Tetris.to_array` is indexed ``[row, col]``. Rotations are ``"0"``, ``"R"``,
``"2"``, ``"L"`` (or 0-3, clockwise from spawn). The matrix has 40 rows by default (up to
64); pieces spawn above the visible 20. :meth:`Tetris.moves` returns :class:`Placement`
objects (immutable, with attributes).

>>> from gridbits.tetris import Tetris
>>> t = Tetris()
>>> moves = t.moves("T")
>>> len(moves)
34
>>> sorted(m.spin for m in moves)[0]
'none'
>>> m = min(moves, key=lambda m: (m.row, m.col, m.rotation))  # the box may hang off
>>> m.row, m.col, m.rotation, m.cells
(37, -1, 'R', [(37, 0), (38, 0), (38, 1), (39, 0)])
>>> t.copy().place("T", m.rotation, m.row, m.col)
0
>>> t.drop("I", "0", 3)     # a flat I in columns 3-6: no row is full
0
>>> t.heights()
[0, 0, 0, 1, 1, 1, 1, 0, 0, 0]
>>> t.to_array().shape
(40, 10)
"""

from ._gridbits import Placement, Tetris

__all__ = ["Placement", "Tetris"]
