"""Game of the Amazons territory on the 10 x 10 board.

A position is a ``uint8`` array of 10 x 10 indexed ``[row, col]``, top row first: 0 empty,
1 a white amazon, 2 a black amazon, 3 an arrow; or text with ``W``, ``B``, ``#`` (or ``x``)
and ``.``, read by the library's parser (:func:`parse`). Results are named tuples:
:class:`Evaluation` of two :class:`Territory` counts.

>>> from gridbits import amazons
>>> e = amazons.evaluate(amazons.start())
>>> e.queen
Territory(white=22, black=22, contested=48, unreachable=0)
>>> e.queen.white, sum(e.king)
(22, 92)
"""

import typing as _typing

import numpy as _np

from . import _gridbits
from ._checks import code_batch as _code_batch

if _typing.TYPE_CHECKING:
    from typing import Union

    from numpy.typing import ArrayLike

__all__ = ["Evaluation", "Territory", "evaluate", "evaluate_many", "parse", "start"]


class Territory(_typing.NamedTuple):
    """Empty cells by who reaches them first: ``white`` and ``black`` strictly first,
    ``contested`` (both at the same distance) and ``unreachable`` (neither)."""

    white: int
    black: int
    contested: int
    unreachable: int


class Evaluation(_typing.NamedTuple):
    """Territory by queen distance and by king distance."""

    queen: Territory
    king: Territory


def parse(text: str) -> _np.ndarray:
    """A position from 10 lines of 10 characters (``W``, ``B``, ``#`` or ``x``, ``.``), top
    row first, read by the library's parser: a ``uint8`` array of codes. ``ValueError``
    names the line and column of a bad character or size, ``TypeError`` a text that is not
    a ``str``.

    >>> from gridbits import amazons
    >>> int(amazons.parse(("." * 10 + "\\n") * 9 + "W........B").sum())
    3
    """
    if not isinstance(text, str):
        raise TypeError(f"text: expected a str, got {type(text).__name__}")
    return _gridbits.amazons_parse(text)


_START = (
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


def start() -> _np.ndarray:
    """The standard start as a new code array: white a4 d1 g1 j4, black a7 d10 g10 j7 (a1
    bottom left), that is white at (row, col) (6, 0), (9, 3), (9, 6), (6, 9).

    >>> from gridbits import amazons
    >>> p = amazons.start()
    >>> p.shape, int((p == 1).sum()), int((p == 2).sum())
    ((10, 10), 4, 4)
    """
    return parse(_START)


def _positions(positions: "Union[ArrayLike, str]", name: str, batch: bool) -> _np.ndarray:
    if isinstance(positions, str):
        positions = parse(positions)
    meaning = "0 (empty), 1 (white), 2 (black) or 3 (arrow)"
    return _code_batch(positions, name, batch, 3, meaning)


def evaluate(position: "Union[ArrayLike, str]") -> Evaluation:
    """Territory by queen and by king distance of one position (an array or text): an
    :class:`Evaluation` whose ``queen`` and ``king`` are :class:`Territory` counts of the
    empty cells ``white`` and ``black`` reach strictly first, ``contested`` and
    ``unreachable``."""
    t = _gridbits.amazons_evaluate_many(_positions(position, "position", False), True)[0]
    queen, king = (Territory(*(int(v) for v in row)) for row in t)
    return Evaluation(queen, king)


def evaluate_many(positions: "ArrayLike") -> _np.ndarray:
    """Territory of a batch ``(N, 10, 10)``: ``int32 [N, 2, 4]``, metric (queen, king) by
    (white, black, contested, unreachable), the fields of :class:`Evaluation` and
    :class:`Territory` in order. The GIL is released.

    >>> import numpy as np
    >>> from gridbits import amazons
    >>> amazons.evaluate_many(np.stack([amazons.start()] * 3)).shape
    (3, 2, 4)
    """
    return _gridbits.amazons_evaluate_many(_positions(positions, "positions", True))
