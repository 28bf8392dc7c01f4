"""Puyo Puyo chains: Puyo Puyo Tsu (6 x 13 with the ghost row) and Smash the Code (6 x 12).

A field is a ``uint8`` array of ``rows x 6`` indexed ``[row, col]``, top row first: 0 empty,
1-5 the colours, 6 garbage (ojama / skulls); 13 rows for ``rules="tsu"`` (row 0 is the
ghost row, which never pops), 12 for ``rules="stc"``. Floating puyos fall before the chain
starts. A text field (the letters ``R G B Y P`` and ``O`` for Tsu, digits ``1-5`` and ``0``
for Smash the Code, ``.`` empty) is read by the library's parser with :func:`parse`.
:func:`simulate` returns a :class:`Chain` of :class:`Step` named tuples; :func:`placements`
lists every move of a pair with the field and chain it leaves.

>>> from gridbits import puyo
>>> f = puyo.parse("RRRR..")
>>> r = puyo.simulate(f)
>>> r.chain, r.score
(1, 40)
"""

import typing as _typing

import numpy as _np

from . import _gridbits
from ._checks import code_batch as _code_batch
from ._checks import is_int as _is_int

if _typing.TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["Chain", "Placements", "Step", "parse", "placements", "simulate", "simulate_many"]


class Step(_typing.NamedTuple):
    """One step of a chain: puyos ``cleared``, ``garbage`` cleared beside them, the number
    of ``groups`` and of ``colors`` that popped, the ``group_bonus`` and the step's
    ``score``."""

    cleared: int
    garbage: int
    groups: int
    colors: int
    group_bonus: int
    score: int


class Chain(_typing.NamedTuple):
    """The result of :func:`simulate`: the ``chain`` length, the total ``score``, the
    ``steps`` (a list of :class:`Step`) and the ``field`` after the chain (``uint8``, the
    input's shape)."""

    chain: int
    score: int
    steps: list[Step]
    field: _np.ndarray


class Placements(_typing.NamedTuple):
    """Every move of a pair on a field (:func:`placements`), one entry per move, in the
    library's order (column, then rotation): the axis ``column`` (0-5) and ``rotation`` (0
    child right, 1 above, 2 left, 3 below) as ``uint8 [n]``; the ``dropped`` fields right
    after the pair fell, ``uint8 [n, rows, 6]``; the ``chain`` (``int32 [n]``) and
    ``score`` (``int64 [n]``) each fires; the ``settled`` fields after the chain."""

    column: _np.ndarray
    rotation: _np.ndarray
    dropped: _np.ndarray
    chain: _np.ndarray
    score: _np.ndarray
    settled: _np.ndarray


def parse(text: str, rules: str = "tsu") -> _np.ndarray:
    """A field from text, top row first, read by the library's parser; fewer rows than the
    field has are its bottom rows. ``ValueError`` names the line and column (counted in the
    text as given) of a bad character or size, ``TypeError`` a text that is not a ``str``.

    >>> from gridbits import puyo
    >>> puyo.parse("R.....\\nRGB...", rules="tsu")[-2:].tolist()
    [[1, 0, 0, 0, 0, 0], [1, 2, 3, 0, 0, 0]]
    """
    if not isinstance(text, str):
        raise TypeError(f"text: expected a str, got {type(text).__name__}")
    return _gridbits.puyo_parse(text, rules)


def _fields(fields: "ArrayLike", name: str, batch: bool) -> _np.ndarray:
    return _code_batch(fields, name, batch, 6, "0 (empty), 1-5 (colours) or 6 (garbage)", True)


def simulate(field: "ArrayLike", rules: str = "tsu") -> Chain:
    """Run the chain of one field: a :class:`Chain` ``(chain, score, steps, field)``,
    ``steps`` a list of :class:`Step` ``(cleared, garbage, groups, colors, group_bonus,
    score)`` and ``field`` the field after the chain.

    >>> from gridbits import puyo
    >>> f = puyo.parse("R.....\\nRGGGG.\\nRR....")  # G G G fall first
    >>> r = puyo.simulate(f)
    >>> r.chain, [s.cleared for s in r.steps]
    (2, [4, 4])
    """
    chain, score, steps, after = _gridbits.puyo_simulate(_fields(field, "field", False), rules)
    return Chain(chain, score, [Step(*s) for s in steps], after)


def simulate_many(
    fields: "ArrayLike", rules: str = "tsu"
) -> tuple[_np.ndarray, _np.ndarray, _np.ndarray]:
    """Run the chains of a batch of fields ``(N, rows, 6)``: ``(chain int32 [N], score
    int64 [N], fields after uint8 [N, rows, 6])``. The GIL is released.

    >>> import numpy as np
    >>> from gridbits import puyo
    >>> batch = np.stack([puyo.parse("RRRR.."), puyo.parse("RRR...")])
    >>> chains, scores, after = puyo.simulate_many(batch)
    >>> chains.tolist(), scores.tolist()
    ([1, 0], [40, 0])
    """
    return _gridbits.puyo_simulate_many(_fields(fields, "fields", True), rules)


def placements(field: "ArrayLike", pair, rules: str = "tsu") -> Placements:
    """Every move ``pair`` can make on ``field`` (settled first), with the field each leaves
    and the chain it fires: :class:`Placements`. ``pair`` is its text under ``rules``
    (``"RG"`` under Tsu, ``"12"`` under Smash the Code; axis first) or two colour codes 1-5
    ``(axis, child)``. Up to 22 moves: each column vertical (child above or below) and each
    pair of neighbouring columns horizontal; a one-colour pair lists each field once (11 on
    an open field); columns the stack walls off are left out, and there is none once the
    game is over (Tsu: the cell of column 3, row 12 filled). The rules in full:
    docs/games.md.

    >>> from gridbits import puyo
    >>> p = puyo.placements(puyo.parse("RR....\\nRGG..."), "RG")
    >>> len(p.column), int(p.chain.max()), int(p.score.max())
    (22, 1, 40)
    >>> best = int(p.score.argmax())
    >>> int(p.column[best]), int(p.rotation[best]), int(p.settled[best].sum())
    (0, 0, 6)
    """
    if not isinstance(pair, str):
        pair = _pair_codes(pair)
    return Placements(*_gridbits.puyo_placements(_fields(field, "field", False), pair, rules))


def _pair_codes(pair) -> tuple:
    """Colour codes ``(axis, child)`` as ints: ``TypeError`` for anything but integers
    (``True``, ``1.0`` and ``None`` are not colours); their count and range are the native
    call's ``ValueError``."""
    what = "pair: expected text such as 'RG' or two colour codes (axis, child)"
    try:
        codes = tuple(pair)
    except TypeError:
        raise TypeError(f"{what}, got {type(pair).__name__}") from None
    if not all(_is_int(v) for v in codes):
        raise TypeError(f"{what}, got {pair!r}")
    return tuple(int(v) for v in codes)
