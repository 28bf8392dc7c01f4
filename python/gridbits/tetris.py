"""Tetris: a 10-column matrix with SRS placement, line clears, evaluation features and the
move generator.

Coordinates are ``(row, col)``, as everywhere in gridbits: a position is the SRS box's top
row ``row`` (counted from the top) and left column ``col``; cells are ``(row, col)`` pairs
and :meth:`Tetris.to_array` is indexed ``[row, col]``. Rotations are ``"0"``, ``"R"``,
``"2"``, ``"L"`` (or 0-3, clockwise from spawn). The matrix has 40 rows by default (up to
64); pieces spawn above the visible 20. :meth:`Tetris.moves` returns :class:`Placement`
objects (immutable, with attributes), or with ``as_arrays=True`` a :class:`MoveArrays` of numpy
arrays. A :class:`Tetris` compares by value, copies (``copy``, ``copy.deepcopy``) and
pickles; :meth:`Tetris.from_array` reads any bool, integer or float array (nonzero =
filled).

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

import typing as _typing

import numpy as _np

from ._gridbits import Placement, Tetris

__all__ = ["MoveArrays", "Placement", "Tetris"]


class MoveArrays(_typing.NamedTuple):
    """Every placement of :meth:`Tetris.moves` as numpy arrays (``as_arrays=True``), one
    entry per placement in the order of the list form: for reinforcement learning and
    batch scoring, where building one :class:`Placement` per move costs more than finding
    the moves.

    >>> t = Tetris()
    >>> m = t.moves("T", as_arrays=True)
    >>> len(m.row), m.cells.shape, m.cells.dtype
    (34, (34, 4, 2), dtype('int16'))
    >>> lst = t.moves("T")
    >>> [(p.row, p.col) for p in lst[:3]] == list(zip(m.row[:3].tolist(), m.col[:3].tolist()))
    True
    """

    rotation: _np.ndarray
    """``uint8``: 0-3, clockwise from spawn (``"0"``, ``"R"``, ``"2"``, ``"L"``)."""
    row: _np.ndarray
    """``int16``: the SRS box's top row."""
    col: _np.ndarray
    """``int16``: the SRS box's left column (may be negative: the box can hang off)."""
    spin: _np.ndarray
    """``uint8``: 0 no spin, 1 T-spin mini, 2 full T-spin."""
    cells: _np.ndarray
    """``int16``, ``n x 4 x 2``: each placement's cells as ``(row, col)``."""
