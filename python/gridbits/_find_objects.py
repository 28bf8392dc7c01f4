"""``scipy.ndimage.find_objects`` on gridbits (public in :mod:`gridbits.ndimage`): the bounding
boxes come from the native region pass of :mod:`gridbits.measure`."""

from __future__ import annotations

import operator
from typing import List, Optional, Tuple

import numpy as np
from numpy.typing import ArrayLike

from . import _gridbits
from ._regions import label_array

__all__ = ["find_objects"]


def find_objects(input: ArrayLike, max_label: int = 0) -> List[Optional[Tuple[slice, ...]]]:
    """The bounding box of every label, as ``scipy.ndimage.find_objects``: a list whose
    entry ``i`` is the tuple of slices (one per axis) of the smallest box around the pixels of
    label ``i + 1``, or ``None`` where that label does not occur. 0 and negative values are
    the background. The list runs up to ``max_label`` (labels above it are ignored), or with
    ``max_label < 1`` to the largest label.

    Differences: inputs are 1D or 2D, and an empty input gives ``[]`` (scipy raises
    ``ValueError``). Raises ``TypeError`` for a non-integer input or ``max_label``.

    >>> import numpy as np
    >>> from gridbits.ndimage import find_objects
    >>> a = np.array([[0, 2, 2],
    ...               [3, 0, 2]])
    >>> find_objects(a)
    [None, (slice(0, 2, None), slice(1, 3, None)), (slice(1, 2, None), slice(0, 1, None))]
    >>> find_objects(a, max_label=2)
    [None, (slice(0, 2, None), slice(1, 3, None))]
    """
    a = np.asarray(input)
    if a.dtype.kind not in "iu":
        raise TypeError(f"input: expected an array of integers, got dtype {a.dtype}")
    try:
        max_label = operator.index(max_label)
    except TypeError:
        raise TypeError(f"max_label: expected an integer, got {max_label!r}") from None
    if a.ndim not in (1, 2):
        raise ValueError(
            f"input: gridbits finds objects in 1D and 2D images, got {a.ndim} dimensions "
            "(use scipy.ndimage.find_objects for others)"
        )
    shape = a.shape
    a2 = a.reshape(1, -1) if a.ndim == 1 else a
    if a2.size == 0:
        return [None] * max(max_label, 0)
    if max_label >= 1 and a2.max() > max_label:
        # Labels above max_label are ignored: cleared first, so that the region table is
        # sized by max_label, not by the largest label (10**12 would need terabytes).
        a2 = np.where(a2 > max_label, 0, a2)
    area, bbox, _, _, _ = _gridbits.measure_regions(label_array(a2), False)
    n = len(area) if max_label < 1 else max_label
    out: List[Optional[Tuple[slice, ...]]] = [None] * n
    for i in np.flatnonzero(area[:n]).tolist():
        r0, c0, r1, c1 = bbox[i].tolist()
        out[i] = (slice(c0, c1, None),) if len(shape) == 1 else (slice(r0, r1, None), slice(c0, c1, None))
    return out
