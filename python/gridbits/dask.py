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

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

from . import _gridbits
from ._checks import as_mask, connectivity as _conn

try:
    import dask
    import dask.array as da
except ImportError as e:  # pragma: no cover - exercised only without dask
    raise ImportError(
        "gridbits.dask needs Dask: pip install 'dask[array]'"
    ) from e


def _label_block(block, conn):
    """Local labels of one chunk and their count."""
    m = as_mask(block, "image")
    if m.size == 0:
        return np.zeros(m.shape, dtype=np.int32), 0
    return _gridbits.label(m, conn)


def _shift(labels_n, offset):
    """Local labels moved to the global range ``offset + 1 ..``."""
    labels, _ = labels_n
    if offset:
        labels = np.where(labels > 0, labels + np.int32(offset), 0).astype(np.int32)
    return labels


def _count(labels_n):
    return labels_n[1]


def _add(a, b):
    return a + b


def _face_pairs(strip, conn, axis):
    """Pairs of labels that touch across the middle of a two-pixel strip (two rows, or two
    columns when ``axis == 1``): ``int64 [K, 2]``."""
    strip = np.asarray(strip)
    a, b = (strip[0], strip[1]) if axis == 0 else (strip[:, 0], strip[:, 1])
    pairs = [np.stack([a, b], axis=1)]
    if conn == 8:
        pairs.append(np.stack([a[:-1], b[1:]], axis=1))
        pairs.append(np.stack([a[1:], b[:-1]], axis=1))
    p = np.concatenate(pairs).astype(np.int64)
    p = p[(p[:, 0] > 0) & (p[:, 1] > 0) & (p[:, 0] != p[:, 1])]
    return np.unique(p, axis=0) if len(p) else p.reshape(0, 2)


def _merge(total, *pair_lists):
    pairs = [p for p in pair_lists if len(p)]
    pairs = np.ascontiguousarray(np.concatenate(pairs)) if pairs else np.zeros((0, 2), np.int64)
    return _gridbits.merge_labels(pairs, int(total))


def _relabel(block, merged):
    mapping, _ = merged
    return mapping[block]


def _n(merged):
    return merged[1]


def _boundaries(chunks):
    """The global indices where chunks start, but the first."""
    return list(itertools.accumulate(chunks))[:-1]


def _provisional(image, conn):
    """Chunk labels shifted to disjoint global ranges (lazy), the delayed total, and the
    delayed per-chunk `(labels, n)` results."""
    image = da.asarray(image)
    if image.ndim != 2:
        raise ValueError(f"image: expected a 2D array, got {image.ndim} dimensions")
    if image.dtype == object or image.dtype.kind not in "biufc":
        raise TypeError(f"image: expected an array of bool or numbers, got dtype {image.dtype}")
    blocks = image.to_delayed()
    nrows, ncols = blocks.shape
    offset = 0
    rows = []
    results = {}
    for i in range(nrows):
        row = []
        for j in range(ncols):
            shape = (image.chunks[0][i], image.chunks[1][j])
            ln = dask.delayed(_label_block, pure=True)(blocks[i, j], conn)
            results[i, j] = ln
            shifted = dask.delayed(_shift, pure=True)(ln, offset)
            row.append(da.from_delayed(shifted, shape=shape, dtype=np.int32))
            offset = dask.delayed(_add, pure=True)(offset, dask.delayed(_count)(ln))
        rows.append(row)
    return image, da.block(rows), offset, results


def _merged(image, labels, total, conn):
    """The delayed `(mapping, n)` merging labels across every chunk boundary."""
    pair_lists = []
    for b in _boundaries(image.chunks[0]):
        strip = labels[b - 1 : b + 1, :]
        pair_lists.append(dask.delayed(_face_pairs, pure=True)(strip, conn, 0))
    for b in _boundaries(image.chunks[1]):
        strip = labels[:, b - 1 : b + 1]
        pair_lists.append(dask.delayed(_face_pairs, pure=True)(strip, conn, 1))
    return dask.delayed(_merge, pure=True)(total, *pair_lists)


def label(image, connectivity: int = 8):
    """Label the nonzero pixels of a 2D Dask array: ``(labels, n)``, ``labels`` a lazy
    ``int32`` Dask array with the image's chunks and ``n`` a lazy 0-d Dask array.

    The computed result is the partition ``scipy.ndimage.label`` gives on the whole array
    (``connectivity=8``: ``structure=np.ones((3, 3))``), labelled ``1..n``.
    """
    conn = _conn(connectivity)
    image, labels, total, _ = _provisional(image, conn)
    merged = _merged(image, labels, total, conn)
    out = labels.map_blocks(_relabel, merged, dtype=np.int32)
    n = da.from_delayed(dask.delayed(_n)(merged), shape=(), dtype=np.int64)
    return out, n


class DaskLabelStats(NamedTuple):
    """Lazy statistics of :func:`label_stats`; row ``i`` is component ``i + 1``."""

    #: Number of components (0-d).
    n: object
    #: Pixels per component (``int64``).
    areas: object
    #: Bounding boxes ``(x, y, w, h)`` (``int64``), x the column, y the row.
    bboxes: object


def _block_stats(block, conn, y0, x0, offset, merged):
    """Areas and global bounding boxes of one chunk's components, by merged label."""
    mapping, n = merged
    m = as_mask(block, "image")
    areas = np.zeros(n + 1, dtype=np.int64)
    lo = np.full((n + 1, 2), np.iinfo(np.int64).max, dtype=np.int64)
    hi = np.full((n + 1, 2), -1, dtype=np.int64)
    if m.size:
        k, _, stats, _ = _gridbits.label_stats(m, conn, False)
        if k:
            ids = mapping[offset + 1 + np.arange(k)]
            st = stats[1:].astype(np.int64)
            np.add.at(areas, ids, st[:, 4])
            np.minimum.at(lo, ids, np.stack([st[:, 0] + x0, st[:, 1] + y0], axis=1))
            np.maximum.at(
                hi, ids, np.stack([st[:, 0] + st[:, 2] - 1 + x0, st[:, 1] + st[:, 3] - 1 + y0], 1)
            )
    return areas, lo, hi


def _combine(*parts):
    areas = sum(p[0] for p in parts)
    lo = np.minimum.reduce([p[1] for p in parts])
    hi = np.maximum.reduce([p[2] for p in parts])
    bboxes = np.concatenate([lo, hi - lo + 1], axis=1)[1:]
    return areas[1:], bboxes


def label_stats(image, connectivity: int = 8) -> DaskLabelStats:
    """Areas and bounding boxes of the components of a 2D Dask array, merged across
    chunks, numbered as :func:`label` numbers them; each chunk's statistics are computed
    where the chunk is, without materialising the label image.

    >>> import numpy as np, dask.array as da
    >>> import gridbits.dask
    >>> img = da.from_array(np.eye(5, dtype=bool), chunks=2)
    >>> s = gridbits.dask.label_stats(img)
    >>> int(s.n.compute()), s.areas.compute().tolist(), s.bboxes.compute().tolist()
    (1, [5], [[0, 0, 5, 5]])
    """
    conn = _conn(connectivity)
    image, labels, total, _ = _provisional(image, conn)
    merged = _merged(image, labels, total, conn)
    blocks = image.to_delayed()
    parts = []
    offset = 0
    for i, j in itertools.product(range(blocks.shape[0]), range(blocks.shape[1])):
        y0 = sum(image.chunks[0][:i])
        x0 = sum(image.chunks[1][:j])
        ln = dask.delayed(_label_block, pure=True)(blocks[i, j], conn)
        parts.append(
            dask.delayed(_block_stats, pure=True)(blocks[i, j], conn, y0, x0, offset, merged)
        )
        offset = dask.delayed(_add, pure=True)(offset, dask.delayed(_count)(ln))
    combined = dask.delayed(_combine, pure=True)(*parts)
    n = da.from_delayed(dask.delayed(_n)(merged), shape=(), dtype=np.int64)
    areas = da.from_delayed(
        dask.delayed(lambda c: c[0])(combined), shape=(np.nan,), dtype=np.int64
    )
    bboxes = da.from_delayed(
        dask.delayed(lambda c: c[1])(combined), shape=(np.nan, 4), dtype=np.int64
    )
    return DaskLabelStats(n, areas, bboxes)
