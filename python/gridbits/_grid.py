"""Grid functions: labelling, statistics, fill, distance, Voronoi, sliding reach.

Cells are ``(row, col)`` pairs and arrays are indexed ``[row, col]``; the statistics keep
OpenCV's ``(x, y, w, h)`` boxes and ``(x, y)`` centroids."""

from __future__ import annotations

from typing import ClassVar, Iterable, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike

from . import _gridbits
from ._checks import as_mask, cell, cells_mask, connectivity as _conn, moves as _moves, same_shape

__all__ = [
    "Cells",
    "LabelStats",
    "Voronoi",
    "connected_components_with_stats",
    "distance",
    "fill",
    "fill_count",
    "groups_at_least",
    "label",
    "label_stats",
    "reach",
    "voronoi",
]

#: Cells: a mask of the grid's shape, or ``(row, col)`` pairs.
Cells = Union[ArrayLike, Iterable[Tuple[int, int]]]


def label(
    image: ArrayLike, connectivity: int = 8, *, packed_width: Optional[int] = None
) -> Tuple[np.ndarray, int]:
    """Label the connected components of the nonzero pixels of a 2D array.

    Returns ``(labels, n)``: an ``int32`` array of the image's shape, 0 for the background
    and ``1..n`` for the components in raster order of their first pixel, exactly as
    ``scipy.ndimage.label`` numbers them (``connectivity=8`` matches
    ``structure=np.ones((3, 3))``, ``connectivity=4`` scipy's default structure), and the
    count ``n``. The GIL is released while labelling.

    >>> import numpy as np, gridbits
    >>> img = np.array([[1, 1, 0, 0],
    ...                 [0, 0, 0, 1],
    ...                 [1, 0, 1, 0]])
    >>> labels, n = gridbits.label(img)
    >>> n
    3
    >>> labels
    array([[1, 1, 0, 0],
           [0, 0, 0, 2],
           [3, 0, 2, 0]], dtype=int32)
    >>> gridbits.label(img, connectivity=4)[1]
    4

    With ``packed_width=W`` the image is rows packed by ``np.packbits(..., axis=1)`` (uint8,
    most significant bit first) of ``W`` pixels each, read without unpacking:

    >>> packed = np.packbits(img.astype(bool), axis=1)
    >>> gridbits.label(packed, packed_width=4)[1]
    3
    """
    c = _conn(connectivity)
    if packed_width is not None:
        return _label_packed(image, packed_width, c)
    m = as_mask(image, "image")
    if m.size == 0:
        return np.zeros(m.shape, dtype=np.int32), 0
    return _gridbits.label(m, c)


def _packed(image, width):
    """Packed rows (``np.packbits``) of ``width`` pixels, checked, as the native code reads
    them: ``(array, width)``, the array ``None`` when the image has no pixel."""
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)):
        raise TypeError(f"packed_width: expected a non-negative integer, not {width!r}")
    if width < 0:
        raise ValueError(f"packed_width: expected a non-negative integer, not {width!r}")
    a = np.asarray(image)
    if a.dtype != np.uint8:
        raise TypeError(f"image: packed rows must be uint8 (np.packbits), got dtype {a.dtype}")
    if a.ndim != 2:
        raise ValueError(f"image: expected a 2D array, got {a.ndim} dimensions")
    if a.shape[1] * 8 < width:
        raise ValueError(f"image: {a.shape[1]} bytes per row cannot hold {width} pixels")
    if a.shape[0] == 0 or width == 0:
        return None, int(width)
    if a.strides[1] != 1 or (a.shape[0] > 1 and a.strides[0] < a.shape[1]):
        a = np.ascontiguousarray(a)
    return a, int(width)


def _label_packed(image, width, c):
    a, width = _packed(image, width)
    if a is None:
        return np.zeros((np.shape(image)[0], width), dtype=np.int32), 0
    return _gridbits.label_packed(a, width, c)


class LabelStats(NamedTuple):
    """Per-component statistics; row ``i`` of each array is component ``i + 1``."""

    #: Number of components.
    n: int
    #: The label image (``int32``), or ``None`` when not asked for.
    labels: Optional[np.ndarray]
    #: Pixels per component (``int64``).
    areas: np.ndarray
    #: Bounding boxes ``(x, y, w, h)`` (``int32``), x the column, y the row.
    bboxes: np.ndarray
    #: Centroids ``(x, y)`` (``float64``).
    centroids: np.ndarray


def label_stats(
    image: ArrayLike,
    connectivity: int = 8,
    labels: bool = True,
    *,
    packed_width: Optional[int] = None,
) -> LabelStats:
    """Label and measure every component: areas, bounding boxes and centroids, as
    ``cv2.connectedComponentsWithStats`` reports them but without the background row.

    With ``labels=False`` no label image is written (faster, less memory). With
    ``packed_width=W`` the image is rows packed by ``np.packbits``, as for :func:`label`.

    >>> import numpy as np, gridbits
    >>> img = np.array([[1, 1, 0],
    ...                 [0, 0, 0],
    ...                 [0, 1, 1]], dtype=bool)
    >>> s = gridbits.label_stats(img)
    >>> s.n, s.areas.tolist(), s.bboxes.tolist()
    (2, [2, 2], [[0, 0, 2, 1], [1, 2, 2, 1]])
    >>> s.centroids.tolist()
    [[0.5, 0.0], [1.5, 2.0]]
    >>> gridbits.label_stats(np.packbits(img, axis=1), packed_width=3).areas.tolist()
    [2, 2]
    """
    c = _conn(connectivity)
    if packed_width is not None:
        m, width = _packed(image, packed_width)
        shape = (np.shape(image)[0], width)
    else:
        m, width = as_mask(image, "image"), None
        shape = m.shape
        m = m if m.size else None
    if m is None:
        lab = np.zeros(shape, dtype=np.int32) if labels else None
        return LabelStats(
            0, lab, np.zeros(0, np.int64), np.zeros((0, 4), np.int32), np.zeros((0, 2))
        )
    return LabelStats(*_gridbits.label_stats(m, c, bool(labels), width))


def connected_components_with_stats(
    image: ArrayLike, connectivity: int = 8
) -> Tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats`` with gridbits: ``(n + 1, labels, stats,
    centroids)``, row 0 the background, ``stats`` columns ``x, y, w, h, area`` (``int32``).

    >>> import numpy as np, gridbits
    >>> img = np.array([[0, 1], [0, 1]], dtype=np.uint8)
    >>> n, labels, stats, centroids = gridbits.connected_components_with_stats(img)
    >>> n, stats.tolist()
    (2, [[0, 0, 1, 2, 2], [1, 0, 1, 2, 2]])
    """
    n, lab, stats, cents = _stats(image, connectivity, True)
    return n + 1, lab, stats, cents


def _stats(image, connectivity, with_labels):
    c = _conn(connectivity)
    m = as_mask(image, "image")
    if m.size == 0:
        lab = np.zeros(m.shape, dtype=np.int32) if with_labels else None
        return 0, lab, np.zeros((1, 5), dtype=np.int32), np.full((1, 2), np.nan)
    return _gridbits.connected_components_with_stats(m, c, bool(with_labels))


def groups_at_least(image: ArrayLike, k: int, connectivity: int = 8) -> np.ndarray:
    """The pixels of the components of ``k`` pixels or more, as a bool array.

    >>> import numpy as np, gridbits
    >>> img = np.array([[1, 1, 0, 1]])
    >>> gridbits.groups_at_least(img, 2).astype(int).tolist()
    [[1, 1, 0, 0]]
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"k: expected an integer, got {type(k).__name__}")
    s = label_stats(image, connectivity)
    keep = np.zeros(s.n + 1, dtype=bool)
    keep[1:] = s.areas >= k
    return keep[s.labels]


def fill(passable: ArrayLike, seeds: Cells, connectivity: int = 4) -> np.ndarray:
    """The cells of ``passable`` reachable from ``seeds`` (a mask of the grid's shape or
    ``(row, col)`` pairs; seeds on blocked cells start nothing), as a bool array.

    >>> import numpy as np, gridbits
    >>> free = np.array([[1, 1, 0, 1],
    ...                  [0, 1, 0, 1]], dtype=bool)
    >>> gridbits.fill(free, [(0, 0)]).astype(int).tolist()
    [[1, 1, 0, 0], [0, 1, 0, 0]]
    """
    c = _conn(connectivity)
    p = as_mask(passable, "passable")
    s = cells_mask(seeds, p.shape, "seeds")
    if p.size == 0:
        return np.zeros(p.shape, dtype=bool)
    return _gridbits.fill(p, s, c).view(bool)


def fill_count(passable: ArrayLike, start: Tuple[int, int], connectivity: int = 4) -> int:
    """The number of cells of ``passable`` reachable from ``start``, a ``(row, col)`` pair:
    ``fill(passable, [start]).sum()`` without the array of those cells (0 when ``start`` is
    blocked). The cells are counted in a window around the start, grown as the region needs,
    so a small pocket of a large grid costs little beyond reading ``passable``.

    >>> import numpy as np, gridbits
    >>> free = np.array([[1, 1, 0, 1],
    ...                  [0, 1, 0, 1]], dtype=bool)
    >>> gridbits.fill_count(free, (0, 0)), gridbits.fill_count(free, (1, 3))
    (3, 2)
    """
    c = _conn(connectivity)
    p = as_mask(passable, "passable")
    row, col = cell(start, p.shape, "start")
    return int(_gridbits.fill_count(p, row, col, c))


def distance(passable: ArrayLike, sources: Cells, moves: str = "4") -> np.ndarray:
    """Move distance from the nearest source to every cell: ``int32``, 0 at the sources,
    -1 where unreachable. ``moves`` is "4", "8" (king steps), "queen", "rook" or "bishop"
    (sliding moves stop at blocked cells; one slide is one move). Sources need not be
    passable; they are where every path starts.

    >>> import numpy as np, gridbits
    >>> free = np.array([[1, 1, 1],
    ...                  [0, 0, 1],
    ...                  [1, 1, 1]], dtype=bool)
    >>> gridbits.distance(free, [(0, 0)]).tolist()
    [[0, 1, 2], [-1, -1, 3], [6, 5, 4]]
    >>> gridbits.distance(free, [(0, 0)], moves="queen").tolist()
    [[0, 1, 1], [-1, -1, 2], [3, 3, 2]]
    """
    m = _moves(moves)
    p = as_mask(passable, "passable")
    s = cells_mask(sources, p.shape, "sources")
    if p.size == 0:
        return np.zeros(p.shape, dtype=np.int32)
    return _gridbits.distance(p, s, m)


class _VoronoiFields(NamedTuple):
    owner: np.ndarray
    counts: np.ndarray


class Voronoi(_VoronoiFields):
    """Territory: ``owner[r, c]`` is the player (1..P) who reaches the cell strictly first,
    ``0`` where nobody reaches it (walls included), ``-1`` where two or more players tie
    (contested). ``counts[k]`` is player k's number of cells, sources included
    (``counts[0]`` is 0)."""

    __slots__ = ()

    #: Owner code of contested cells.
    CONTESTED: ClassVar[int] = -1
    #: Owner code of cells nobody reaches.
    UNREACHED: ClassVar[int] = 0


def voronoi(
    passable: ArrayLike,
    sources: Union[ArrayLike, Sequence[Iterable[Tuple[int, int]]]],
    moves: str = "4",
) -> Voronoi:
    """Voronoi territory of several players.

    ``sources`` is an integer array of the grid's shape (0: no source, ``k``: a source of
    player ``k``, like the markers of a watershed), or a list with, for each player, its
    ``(row, col)`` cells (a player may have none; a cell may not be two players' source).
    ``counts`` has a slot per player number and one for 0. Sources are obstacles to every
    player; each player's BFS starts from its own. A cell belongs to the player with the
    strictly smallest move distance; ties are contested.

    >>> import numpy as np, gridbits
    >>> free = np.ones((1, 5), dtype=bool)
    >>> v = gridbits.voronoi(free, [[(0, 0)], [(0, 4)]])
    >>> v.owner.tolist(), v.counts.tolist()
    ([[1, 1, -1, 2, 2]], [0, 2, 2])
    """
    m = _moves(moves)
    p = as_mask(passable, "passable")
    markers, players = _markers(sources, p.shape)
    if p.size == 0:
        return Voronoi(np.zeros(p.shape, dtype=np.int32), np.zeros(players + 1, np.int64))
    if players <= np.count_nonzero(markers):
        return Voronoi(*_gridbits.voronoi(p, markers, players, m))
    # Numbers used sparsely (more numbers than source cells): the native call gets them
    # renumbered 1..k, so that its per-player work follows the players that exist.
    # ``counts`` keeps a slot per number: numpy raises MemoryError first if it cannot.
    counts = np.zeros(players + 1, np.int64)
    ids = np.unique(markers[markers > 0])
    dense = np.searchsorted(ids, markers, side="right").astype(np.int32)
    owner, dense_counts = _gridbits.voronoi(p, dense, len(ids), m)
    played = owner > 0
    owner[played] = ids[owner[played] - 1]
    counts[ids] = dense_counts[1:]
    return Voronoi(owner, counts)


def _markers(sources, shape) -> Tuple[np.ndarray, int]:
    """The marker array (``int32``, C order) of ``sources`` and the number of players: the
    largest marker, or the length of a list (players without cells included)."""
    if isinstance(sources, np.ndarray):
        if sources.shape != shape:
            raise ValueError(
                f"sources: shape {sources.shape} does not match the grid's {shape}"
            )
        if sources.dtype.kind not in "iub":
            raise TypeError(f"sources: expected an integer array, got dtype {sources.dtype}")
        if sources.size and sources.min() < 0:
            raise ValueError("sources: player numbers must be 0 (none) or positive")
        if sources.size and int(sources.max()) > np.iinfo(np.int32).max:
            raise ValueError(
                f"sources: player numbers must be below 2**31 (the owner array is int32), "
                f"got {int(sources.max())}"
            )
        markers = np.require(sources, np.int32, ["C", "A"])
        return markers, int(markers.max()) if markers.size else 0
    out = np.zeros(shape, dtype=np.int32)
    players = 0
    for k, cells in enumerate(sources, start=1):
        mask = cells_mask(list(cells), shape, f"sources[{k - 1}]") != 0
        taken = mask & (out != 0)
        if taken.any():
            r, c = np.argwhere(taken)[0]
            raise ValueError(
                f"sources[{k - 1}]: ({r}, {c}) is already a source of player {out[r, c]}"
            )
        out[mask] = k
        players = k
    return out, players


def reach(passable: ArrayLike, pieces: Cells, moves: str = "queen") -> np.ndarray:
    """The cells reachable in one move by any of ``pieces`` (a mask or ``(row, col)``
    pairs): sliding moves stop before blocked cells and before other pieces.

    >>> import numpy as np, gridbits
    >>> free = np.ones((3, 3), dtype=bool)
    >>> gridbits.reach(free, [(1, 1)], moves="rook").astype(int).tolist()
    [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
    """
    m = _moves(moves)
    p = as_mask(passable, "passable")
    s = cells_mask(pieces, p.shape, "pieces")
    same_shape(p, s, "passable", "pieces")
    if p.size == 0:
        return np.zeros(p.shape, dtype=bool)
    return _gridbits.reach(p, s, m).view(bool)
