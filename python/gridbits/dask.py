"""Connected components of Dask arrays: grids larger than one machine's memory.

Each chunk is labelled by gridbits on whichever worker holds it; the labels of touching
components across chunk faces are then merged (an equivalence graph of label pairs taken
from the two-pixel-thick strips along every chunk boundary, solved by union-find), and
every chunk is relabelled. Everything stays lazy until ``compute()``, and works on any
Dask scheduler (threads, processes, ``dask.distributed``).

The result is the same partition as ``scipy.ndimage.label`` on the whole array, with labels
``1..n``; labels are numbered by chunk (chunks in row-major order, each in raster order of
its components' first pixel), not in the global raster order.

>>> import numpy as np, dask.array as da
>>> import gridbits.dask
>>> img = da.from_array(np.eye(6, dtype=bool), chunks=2)
>>> labels, n = gridbits.dask.label(img)
>>> int(n.compute()), int(labels.max().compute())
(1, 1)
>>> int(gridbits.dask.label(img, connectivity=4)[1].compute())
6
"""

from typing import NamedTuple as _NamedTuple, Tuple as _Tuple

import numpy as _np

from . import _gridbits
from ._checks import as_mask as _as_mask, connectivity as _conn

try:
    import dask as _dask
    import dask.array as _da
except ImportError as e:  # pragma: no cover - exercised only without dask
    raise ImportError(
        "gridbits.dask needs Dask: pip install 'dask[array]'"
    ) from e

__all__ = ["DaskLabelStats", "label", "label_stats"]


class _Chunk:
    """A labelled chunk, as it stays on the worker that labelled it: its local labels, their
    count and the edges the merge needs (copied when labelled). ``final``: the labels have
    been overwritten with their final values by :func:`_relabel`."""

    __slots__ = ("labels", "n", "edges", "final")

    def __init__(self, labels, n):
        self.labels, self.n, self.edges, self.final = labels, n, _edges(labels), False


def _label_block(block, conn):
    """Local labels of one chunk, with their count and edges."""
    return _Chunk(*_gridbits.label(_as_mask(block, "image"), conn))


def _edges(labels):
    """The four edges of a chunk's label image: top and bottom rows, left and right
    columns (copies: small, and cheap to send)."""
    return (labels[0].copy(), labels[-1].copy(), labels[:, 0].copy(), labels[:, -1].copy())


def _summary(chunk):
    """What the merge needs of a labelled chunk: its count and its edges."""
    return chunk.n, chunk.edges


def _stats_summary(block, conn):
    """A chunk's count, edges and statistics rows ``(x, y, w, h, area)``, without keeping
    its label image."""
    n, labels, stats, _ = _gridbits.connected_components_with_stats(_as_mask(block, "image"), conn, True)
    return n, _edges(labels), stats[1:]


def _offsets(*counts):
    """The label offset of every chunk (row-major) and, last, the total."""
    return _np.concatenate([[0], _np.cumsum(_np.asarray(counts, dtype=_np.int64))])


def _shifted(edge, offset):
    return _np.where(edge > 0, edge.astype(_np.int64) + offset, 0)


def _face_pairs(conn, offsets, a_ids, b_ids, edge_a, edge_b, *summaries):
    """Pairs of global labels that touch across one chunk boundary: the edges ``edge_a``
    of the chunks ``a_ids`` (the side before the boundary) against ``edge_b`` of
    ``b_ids``, concatenated along the boundary."""
    k = len(a_ids)
    a = _np.concatenate(
        [_shifted(s[1][edge_a], offsets[i]) for i, s in zip(a_ids, summaries[:k])]
    )
    b = _np.concatenate(
        [_shifted(s[1][edge_b], offsets[i]) for i, s in zip(b_ids, summaries[k:])]
    )
    pairs = [_np.stack([a, b], axis=1)]
    if conn == 8:
        pairs.append(_np.stack([a[:-1], b[1:]], axis=1))
        pairs.append(_np.stack([a[1:], b[:-1]], axis=1))
    p = _np.concatenate(pairs)
    p = p[(p[:, 0] > 0) & (p[:, 1] > 0)]
    return _np.unique(p, axis=0) if len(p) else p.reshape(0, 2)


def _merge(offsets, *pair_lists):
    pairs = [p for p in pair_lists if len(p)]
    pairs = _np.require(_np.concatenate(pairs), _np.int64, ["C", "A"]) if pairs else _np.zeros((0, 2), _np.int64)
    return _gridbits.merge_labels(pairs, int(offsets[-1]))


def _relabel(chunk, offsets, index, merged):
    """A chunk's final labels, written over its local ones.

    In place, though Dask tasks should not change their inputs: a copy would cost as much
    as the labelling (on the 2-vCPU VM of docs/python.md, fresh memory for it made 32768^2
    take 5.3 s instead of 2.0 s, threads scheduler). It is safe because nothing reads the
    local labels afterwards: the merge reads the edges copied when the chunk was labelled,
    and a chunk relabelled once (``final``) is returned as it is when the same task runs
    again on the same object (a retry, or a result cache that kept the labelled chunk):
    the same chunk, offsets and merge give the same final labels."""
    if chunk.final:
        return chunk.labels
    mapping, _ = merged
    # Arrays that crossed processes may sit at unaligned addresses, or be read-only: the
    # native code reads aligned int32 (np.require copies only then, and the chunk keeps
    # its local labels).
    out = _np.require(chunk.labels, _np.int32, ["C", "A", "W"])
    mapping = _np.require(mapping, _np.int32, ["C", "A"])
    _gridbits.relabel(out, int(offsets[index]), mapping)
    chunk.final = out is chunk.labels
    return out


def _n(merged):
    return merged[1]


def _check(image):
    """The image as a 2D Dask array of numbers, without zero-length chunks (an empty chunk
    has no edges to merge): ``None`` when the whole image is empty."""
    image = _da.asarray(image)
    if image.ndim != 2:
        raise ValueError(f"image: expected a 2D array, got {image.ndim} dimensions")
    if image.dtype == object or image.dtype.kind not in "biufc":
        raise TypeError(f"image: expected an array of bool or numbers, got dtype {image.dtype}")
    if any(c != c for axis in image.chunks for c in axis):  # nan: a size not known yet
        raise ValueError(
            "image: chunk sizes unknown (as after boolean indexing); "
            "call image.compute_chunk_sizes() first"
        )
    if image.size == 0:
        return None
    chunks = tuple(tuple(c for c in axis if c) for axis in image.chunks)
    return image if chunks == image.chunks else image.rechunk(chunks)


def _zero():
    """A lazy 0-d ``int64`` zero: the count of an empty image."""
    return _da.zeros((), dtype=_np.int64)


def _merged(shape, summaries, conn):
    """The delayed offsets and `(mapping, n)` merging labels across every chunk boundary.
    ``summaries`` is the row-major list of the chunks' delayed summaries."""
    rows, cols = shape
    counts = [_dask.delayed(lambda s: s[0], pure=True)(s) for s in summaries]
    offsets = _dask.delayed(_offsets, pure=True)(*counts)
    pair_lists = []
    for i in range(rows - 1):  # between chunk rows i and i + 1: bottom rows against top rows
        a_ids = [i * cols + j for j in range(cols)]
        b_ids = [(i + 1) * cols + j for j in range(cols)]
        sums = [summaries[k] for k in a_ids + b_ids]
        pair_lists.append(
            _dask.delayed(_face_pairs, pure=True)(conn, offsets, a_ids, b_ids, 1, 0, *sums)
        )
    for j in range(cols - 1):  # between chunk columns j and j + 1: right against left
        a_ids = [i * cols + j for i in range(rows)]
        b_ids = [i * cols + j + 1 for i in range(rows)]
        sums = [summaries[k] for k in a_ids + b_ids]
        pair_lists.append(
            _dask.delayed(_face_pairs, pure=True)(conn, offsets, a_ids, b_ids, 3, 2, *sums)
        )
    return offsets, _dask.delayed(_merge, pure=True)(offsets, *pair_lists)


def label(image, connectivity: int = 8) -> _Tuple["_da.Array", "_da.Array"]:
    """Label the nonzero pixels of a 2D Dask array: ``(labels, n)``, ``labels`` a lazy
    ``int32`` Dask array with the image's chunks (zero-length chunks left out) and ``n`` a
    lazy 0-d Dask array.

    The computed result is the partition ``scipy.ndimage.label`` gives on the whole array
    (``connectivity=8``: ``structure=np.ones((3, 3))``), labelled ``1..n``. Only chunk
    edges and label pairs travel between workers; each chunk's labels stay where the chunk
    was labelled until the final relabelling.
    """
    conn = _conn(connectivity)
    checked = _check(image)
    if checked is None:
        image = _da.asarray(image)
        return _da.zeros(image.shape, dtype=_np.int32, chunks=image.chunks), _zero()
    image = checked
    blocks = image.to_delayed()
    rows, cols = blocks.shape
    labelled = [
        _dask.delayed(_label_block, pure=True)(blocks[i, j], conn)
        for i in range(rows)
        for j in range(cols)
    ]
    summaries = [_dask.delayed(_summary, pure=True)(ln) for ln in labelled]
    offsets, merged = _merged((rows, cols), summaries, conn)
    out_rows = []
    for i in range(rows):
        row = []
        for j in range(cols):
            k = i * cols + j
            final = _dask.delayed(_relabel, pure=True)(labelled[k], offsets, k, merged)
            shape = (image.chunks[0][i], image.chunks[1][j])
            row.append(_da.from_delayed(final, shape=shape, dtype=_np.int32))
        out_rows.append(row)
    n = _da.from_delayed(_dask.delayed(_n)(merged), shape=(), dtype=_np.int64)
    return _da.block(out_rows), n


class DaskLabelStats(_NamedTuple):
    """Lazy statistics of :func:`label_stats`; row ``i`` is component ``i + 1``."""

    #: Number of components (0-d).
    n: object
    #: Pixels per component (``int64``).
    areas: object
    #: Bounding boxes ``(x, y, w, h)`` (``int64``), x the column, y the row.
    bboxes: object


def _combine(offsets, merged, origins, *summaries):
    """Merged areas and bounding boxes from every chunk's statistics rows."""
    mapping, n = merged
    areas = _np.zeros(n + 1, dtype=_np.int64)
    lo = _np.full((n + 1, 2), _np.iinfo(_np.int64).max, dtype=_np.int64)
    hi = _np.full((n + 1, 2), -1, dtype=_np.int64)
    for k, (s, (y0, x0)) in enumerate(zip(summaries, origins)):
        st = s[2].astype(_np.int64)
        if not len(st):
            continue
        ids = mapping[offsets[k] + 1 + _np.arange(len(st))]
        _np.add.at(areas, ids, st[:, 4])
        _np.minimum.at(lo, ids, _np.stack([st[:, 0] + x0, st[:, 1] + y0], axis=1))
        far = _np.stack([st[:, 0] + st[:, 2] - 1 + x0, st[:, 1] + st[:, 3] - 1 + y0], axis=1)
        _np.maximum.at(hi, ids, far)
    bboxes = _np.concatenate([lo, hi - lo + 1], axis=1)[1:]
    return areas[1:], bboxes


def label_stats(image, connectivity: int = 8) -> DaskLabelStats:
    """Areas and bounding boxes of the components of a 2D Dask array, merged across
    chunks, numbered as :func:`label` numbers them. Each chunk is labelled where it is and
    only its edges and statistics rows travel: the label image is never materialised.

    >>> import numpy as np, dask.array as da
    >>> import gridbits.dask
    >>> img = da.from_array(np.eye(5, dtype=bool), chunks=2)
    >>> s = gridbits.dask.label_stats(img)
    >>> int(s.n.compute()), s.areas.compute().tolist(), s.bboxes.compute().tolist()
    (1, [5], [[0, 0, 5, 5]])
    """
    conn = _conn(connectivity)
    image = _check(image)
    if image is None:
        return DaskLabelStats(
            _zero(), _da.zeros((0,), dtype=_np.int64), _da.zeros((0, 4), dtype=_np.int64)
        )
    blocks = image.to_delayed()
    rows, cols = blocks.shape
    summaries = [
        _dask.delayed(_stats_summary, pure=True)(blocks[i, j], conn)
        for i in range(rows)
        for j in range(cols)
    ]
    offsets, merged = _merged((rows, cols), summaries, conn)
    origins = [
        (sum(image.chunks[0][:i]), sum(image.chunks[1][:j]))
        for i in range(rows)
        for j in range(cols)
    ]
    combined = _dask.delayed(_combine, pure=True)(offsets, merged, origins, *summaries)
    n = _da.from_delayed(_dask.delayed(_n)(merged), shape=(), dtype=_np.int64)
    areas = _da.from_delayed(
        _dask.delayed(lambda c: c[0])(combined), shape=(_np.nan,), dtype=_np.int64
    )
    bboxes = _da.from_delayed(
        _dask.delayed(lambda c: c[1])(combined), shape=(_np.nan, 4), dtype=_np.int64
    )
    return DaskLabelStats(n, areas, bboxes)
