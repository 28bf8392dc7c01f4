"""Game of the Amazons on the 10 x 10 board: territory, move generation, play and perft.

A position is a ``uint8`` array of 10 x 10 indexed ``[row, col]``, top row first: 0 empty,
1 a white amazon, 2 a black amazon, 3 an arrow; or text with ``W``, ``B``, ``#`` (or ``x``)
and ``.``, read by the library's parser (:func:`parse`). Results are named tuples:
:class:`Evaluation` of two :class:`Territory` counts. :func:`moves` lists a side's legal
moves as an array of ``(row, col)`` squares (from, to, arrow), :func:`play` plays one (an
array row, three squares or the notation ``"d1-d7/g7"``) and :func:`perft` counts move
sequences. The side to move is ``"white"`` or ``"black"``.

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
from ._checks import is_int as _is_int

if _typing.TYPE_CHECKING:
    from typing import Union

    from numpy.typing import ArrayLike

__all__ = [
    "Evaluation",
    "Territory",
    "evaluate",
    "evaluate_many",
    "moves",
    "parse",
    "perft",
    "play",
    "start",
]


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


def moves(position: "Union[ArrayLike, str]", side: str = "white") -> _np.ndarray:
    """Every legal move of ``side`` (``"white"`` or ``"black"``): a ``uint8`` array of
    ``n x 3 x 2``, each move's from, to and arrow squares as ``(row, col)``; ``n`` is 0
    where the side cannot move (it has lost). The GIL is released.

    >>> from gridbits import amazons
    >>> m = amazons.moves(amazons.start(), "white")
    >>> m.shape
    (2176, 3, 2)
    >>> m[0].tolist() in amazons.moves(amazons.play(amazons.start(), m[0]), "white").tolist()
    False
    """
    return _gridbits.amazons_moves(_positions(position, "position", False), _side(side))


def play(position: "Union[ArrayLike, str]", move, side: str = "white") -> _np.ndarray:
    """The position after ``side`` plays ``move``, as a new code array (``position`` is not
    changed). ``move`` is a row of :func:`moves` (three ``(row, col)`` squares: from, to,
    arrow) or the notation ``"d1-d7/g7"`` (a1 bottom left). ``ValueError`` names the rule an
    illegal move breaks.

    >>> from gridbits import amazons
    >>> p = amazons.play(amazons.start(), "d1-d7/g7")
    >>> int(p[3, 3]), int(p[9, 3]), int(p[3, 6])  # white amazon on d7, d1 empty, arrow on g7
    (1, 0, 3)
    >>> amazons.play(p, [(9, 6), (0, 6), (1, 6)])  # g1-g10 is blocked by the arrow on g7
    Traceback (most recent call last):
    ...
    ValueError: move: illegal move g1-g10/g9: the amazon cannot reach its target
    """
    if isinstance(move, _np.ndarray):
        move = move.tolist()
    _move_types(move)
    return _gridbits.amazons_play(_positions(position, "position", False), _side(side), move)


def _move_types(move) -> None:
    """``TypeError`` for a move that is neither text nor a sequence of squares of integers
    (``None``, a number, a float coordinate); the shape and the rules are the native
    call's ``ValueError``s."""
    if isinstance(move, str):
        return
    if not isinstance(move, (list, tuple)):
        raise TypeError(
            f"move: expected notation such as 'd1-d7/g7' or three (row, col) squares, "
            f"got {type(move).__name__}"
        )
    for square in move:
        if not isinstance(square, (list, tuple, _np.ndarray)):
            raise TypeError(f"move: a square is a (row, col) pair, got {square!r}")
        for v in square:
            if not _is_int(v):
                raise TypeError(f"move: square coordinates are integers, got {v!r}")


def perft(position: "Union[ArrayLike, str]", depth: int, side: str = "white") -> int:
    """The number of move sequences of ``depth`` plies from ``position``, ``side`` to move
    first (each ply a whole move: amazon and arrow). The count grows by about three orders
    of magnitude per ply in the opening; the GIL is released while it runs.

    >>> from gridbits import amazons
    >>> amazons.perft(amazons.start(), 1), amazons.perft(amazons.start(), 2)
    (2176, 4307152)
    """
    if isinstance(depth, bool) or not isinstance(depth, (int, _np.integer)):
        raise TypeError(f"depth: expected an int, got {type(depth).__name__}")
    if not 0 <= depth < 2**32:
        raise ValueError(f"depth: must be 0 to 2**32 - 1, not {depth}")
    return _gridbits.amazons_perft(_positions(position, "position", False), _side(side), int(depth))


def _side(side) -> str:
    if not isinstance(side, str):
        raise TypeError(f"side: expected \"white\" or \"black\", got {type(side).__name__}")
    return side
