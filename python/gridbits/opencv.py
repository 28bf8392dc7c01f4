"""OpenCV's connected-components functions with OpenCV's own signatures, on gridbits.

Swap the import and the calls stay as they are::

    from gridbits.opencv import connectedComponentsWithStats   # was: from cv2 import ...

    n, labels, stats, centroids = connectedComponentsWithStats(img, connectivity=4)

The four functions take OpenCV's arguments in OpenCV's order (``image, labels, stats,
centroids, connectivity, ltype``, and ``ccltype`` for the ``WithAlgorithm`` forms) and return
what OpenCV returns: ``retval`` (the number of labels, background included), the label image
(``int32``, or ``uint16`` with ``ltype=CV_16U``), and with statistics an ``int32`` array of
``retval`` rows ``x, y, w, h, area`` (:data:`CC_STAT_LEFT` ... :data:`CC_STAT_AREA`) and a
``float64`` array of ``retval`` centroids ``(x, y)``, row 0 the background's.

>>> import numpy as np
>>> from gridbits.opencv import connectedComponentsWithStats
>>> img = np.array([[1, 1, 0, 0],
...                 [0, 0, 0, 1]], dtype=np.uint8)
>>> n, labels, stats, centroids = connectedComponentsWithStats(img, connectivity=4)
>>> n
3
>>> labels
array([[1, 1, 0, 0],
       [0, 0, 0, 2]], dtype=int32)
>>> stats.tolist()
[[0, 0, 4, 2, 5], [0, 0, 2, 1, 2], [3, 1, 1, 1, 1]]

**Numbering.** gridbits numbers the components in raster order of their first pixel. That
is OpenCV's numbering with ``ccltype=CCL_SAUF`` (or ``CCL_WU``), and with every algorithm for
4-connectivity. For 8-connectivity OpenCV's default algorithm (Spaghetti), like BBDT, may
number the same components in another order ("SAUF forces a row major ordering of labels
while Spaghetti and BBDT do not", OpenCV's documentation): the components, their statistics
and ``retval`` are the same, their numbers may differ. ``ccltype`` is accepted and checked,
and does not change the result.

**Differences.** OpenCV refuses any image but ``uint8`` or ``int8``; gridbits labels the
nonzero pixels of any bool or numeric 2D array (a 1D array is one row and an
``(H, W, 1)`` array one channel, as in OpenCV). An
empty image gives one label (the background) and, with statistics, a background row of
zeros with ``nan`` centroids (OpenCV crashes on one). OpenCV reports its errors as
``cv2.error``; gridbits raises ``ValueError`` (a bad ``connectivity``, ``ltype`` or
``ccltype``, or more labels than ``CV_16U`` holds) and ``TypeError`` (an image that is not
numbers). With ``CV_16U`` OpenCV may refuse an image a little earlier than gridbits does: it
counts its provisional labels, gridbits the components. For an image without background,
OpenCV's row 0 holds sentinel values (OpenCV 5.0: ``-1, 2147483647, 0, 0, 0``), gridbits'
zeros; the centroid is ``nan`` in both.

**Morphology.** :func:`erode`, :func:`dilate`, :func:`morphologyEx` (every ``MORPH_*``
operation, ``MORPH_HITMISS`` included) and :func:`getStructuringElement` take OpenCV's
arguments (``anchor`` is ``(x, y)``, ``kernel=None`` OpenCV's 3x3 square, ``iterations``,
``borderType``, ``borderValue``) and return OpenCV's arrays, dtype and values included, for
images of at most two distinct values (0/1, 0/255 or any pair, of ``uint8``, ``uint16``,
``int16``, ``float32``, ``float64``, and ``bool``). A third value, several channels, or a
``borderValue`` that would bring a third value raise ``ValueError`` (use cv2 there); see
``gridbits._cvmorph`` for the rules.

Output arrays: one of the right shape and dtype, and writeable, is written in place and
returned, as in OpenCV (strided views included, which OpenCV refuses); any other is left
alone and a new array is returned. OpenCV does that for a wrong shape or a dtype it knows,
and raises ``cv2.error`` for a dtype it has no type for (``int64``) or a read-only array.
"""

from typing import Optional as _Optional, Tuple as _Tuple

import numpy as _np

from . import _gridbits
from ._checks import as_mask as _as_mask, connectivity as _conn
from ._distance_transform import (
    CV_8U,
    CV_32F,
    DIST_C,
    DIST_L1,
    DIST_L2,
    DIST_LABEL_CCOMP,
    DIST_LABEL_PIXEL,
    DIST_MASK_3,
    DIST_MASK_5,
    DIST_MASK_PRECISE,
    distanceTransform,
    distanceTransformWithLabels,
)
from ._cvmorph import __all__ as _CVMORPH
from ._cvmorph import (
    BORDER_CONSTANT,
    BORDER_DEFAULT,
    BORDER_ISOLATED,
    BORDER_REFLECT,
    BORDER_REFLECT101,
    BORDER_REFLECT_101,
    BORDER_REPLICATE,
    BORDER_TRANSPARENT,
    BORDER_WRAP,
    MORPH_BLACKHAT,
    MORPH_CLOSE,
    MORPH_CROSS,
    MORPH_DIAMOND,
    MORPH_DILATE,
    MORPH_ELLIPSE,
    MORPH_ERODE,
    MORPH_GRADIENT,
    MORPH_HITMISS,
    MORPH_OPEN,
    MORPH_RECT,
    MORPH_TOPHAT,
    dilate,
    erode,
    getStructuringElement,
    morphologyDefaultBorderValue,
    morphologyEx,
)
from ._grid import _stats

__all__ = [
    "CCL_BBDT",
    "CCL_BOLELLI",
    "CCL_DEFAULT",
    "CCL_GRANA",
    "CCL_SAUF",
    "CCL_SPAGHETTI",
    "CCL_WU",
    "CC_STAT_AREA",
    "CC_STAT_HEIGHT",
    "CC_STAT_LEFT",
    "CC_STAT_TOP",
    "CC_STAT_WIDTH",
    "CV_16U",
    "CV_32F",
    "CV_32S",
    "CV_8U",
    "DIST_C",
    "DIST_L1",
    "DIST_L2",
    "DIST_LABEL_CCOMP",
    "DIST_LABEL_PIXEL",
    "DIST_MASK_3",
    "DIST_MASK_5",
    "DIST_MASK_PRECISE",
    "connectedComponents",
    "connectedComponentsWithAlgorithm",
    "connectedComponentsWithStats",
    "connectedComponentsWithStatsWithAlgorithm",
    "distanceTransform",
    "distanceTransformWithLabels",
    *_CVMORPH,
]

#: Label image types, OpenCV's values.
CV_16U = 2
CV_32S = 4
#: Labelling algorithms, OpenCV's values (accepted; the result is gridbits' in every case).
CCL_DEFAULT = -1
CCL_WU = 0
CCL_GRANA = 1
CCL_BOLELLI = 2
CCL_SAUF = 3
CCL_BBDT = 4
CCL_SPAGHETTI = 5
#: Columns of the statistics.
CC_STAT_LEFT = 0
CC_STAT_TOP = 1
CC_STAT_WIDTH = 2
CC_STAT_HEIGHT = 3
CC_STAT_AREA = 4

_LTYPES = {CV_32S: _np.int32, CV_16U: _np.uint16}
_CCLTYPES = (CCL_DEFAULT, CCL_WU, CCL_GRANA, CCL_BOLELLI, CCL_SAUF, CCL_BBDT, CCL_SPAGHETTI)


def connectedComponents(
    image, labels: _Optional[_np.ndarray] = None, connectivity: int = 8, ltype: int = CV_32S
) -> _Tuple[int, _np.ndarray]:
    """``cv2.connectedComponents``: ``(retval, labels)``, ``retval`` the number of labels
    with the background's.

    >>> import numpy as np
    >>> from gridbits.opencv import connectedComponents
    >>> connectedComponents(np.array([[1, 0, 1]], np.uint8))
    (3, array([[1, 0, 2]], dtype=int32))
    """
    return connectedComponentsWithAlgorithm(image, connectivity, ltype, CCL_DEFAULT, labels)


def connectedComponentsWithAlgorithm(
    image, connectivity: int, ltype: int, ccltype: int, labels: _Optional[_np.ndarray] = None
) -> _Tuple[int, _np.ndarray]:
    """``cv2.connectedComponentsWithAlgorithm``: :func:`connectedComponents` with the
    algorithm named (see the module's notes on numbering)."""
    dtype, c = _check(connectivity, ltype, ccltype)
    m = _image(image)
    if m.size == 0:
        lab, n = _np.zeros(m.shape, _np.int32), 0
    else:
        lab, n = _gridbits.label(m, c)
    return n + 1, _into(labels, _typed(lab, n, dtype))


def connectedComponentsWithStats(
    image,
    labels: _Optional[_np.ndarray] = None,
    stats: _Optional[_np.ndarray] = None,
    centroids: _Optional[_np.ndarray] = None,
    connectivity: int = 8,
    ltype: int = CV_32S,
) -> _Tuple[int, _np.ndarray, _np.ndarray, _np.ndarray]:
    """``cv2.connectedComponentsWithStats``: ``(retval, labels, stats, centroids)``, row 0
    of ``stats`` and ``centroids`` the background's.

    >>> import numpy as np
    >>> from gridbits.opencv import connectedComponentsWithStats
    >>> n, labels, stats, centroids = connectedComponentsWithStats(np.eye(2, dtype=np.uint8))
    >>> n, stats[1].tolist(), centroids[1].tolist()
    (2, [0, 0, 2, 2, 2], [0.5, 0.5])
    """
    return connectedComponentsWithStatsWithAlgorithm(
        image, connectivity, ltype, CCL_DEFAULT, labels, stats, centroids
    )


def connectedComponentsWithStatsWithAlgorithm(
    image,
    connectivity: int,
    ltype: int,
    ccltype: int,
    labels: _Optional[_np.ndarray] = None,
    stats: _Optional[_np.ndarray] = None,
    centroids: _Optional[_np.ndarray] = None,
) -> _Tuple[int, _np.ndarray, _np.ndarray, _np.ndarray]:
    """``cv2.connectedComponentsWithStatsWithAlgorithm``: :func:`connectedComponentsWithStats`
    with the algorithm named (see the module's notes on numbering)."""
    dtype, c = _check(connectivity, ltype, ccltype)
    n, lab, st, cents = _stats(_image(image), c, True)
    return (
        n + 1,
        _into(labels, _typed(lab, n, dtype)),
        _into(stats, st),
        _into(centroids, cents),
    )


def _check(connectivity, ltype, ccltype):
    """The label dtype and the connectivity, checked as OpenCV checks them."""
    c = _conn(connectivity)
    if isinstance(ltype, bool) or ltype not in _LTYPES:
        raise ValueError(f"ltype must be CV_32S ({CV_32S}) or CV_16U ({CV_16U}), not {ltype!r}")
    if isinstance(ccltype, bool) or ccltype not in _CCLTYPES:
        raise ValueError(f"ccltype must be one of OpenCV's CCL_* values, not {ccltype!r}")
    return _LTYPES[ltype], c


def _image(image) -> _np.ndarray:
    """The image as a 2D mask; a 1D array is one row, as OpenCV reads it."""
    try:
        a = _np.asarray(image)
    except Exception:  # a ragged list: as_mask's error names the argument
        a = image
    if getattr(a, "ndim", None) == 1:
        a = a.reshape(1, -1)
    elif getattr(a, "ndim", None) == 3 and a.shape[2] == 1:
        a = a[:, :, 0]  # one channel, as OpenCV takes it
    return _as_mask(a, "image")


def _typed(labels: _np.ndarray, n: int, dtype) -> _np.ndarray:
    """The labels as ``dtype``, refused when it cannot hold them (as OpenCV refuses)."""
    if dtype is _np.int32:
        return labels
    if n > _np.iinfo(dtype).max:
        raise ValueError(f"ltype: {n} labels do not fit CV_16U (at most {_np.iinfo(dtype).max})")
    return labels.astype(dtype)


def _into(out: _Optional[_np.ndarray], value: _np.ndarray) -> _np.ndarray:
    """OpenCV's output arrays: one of the right shape and dtype is written and returned,
    any other is left alone."""
    if (
        isinstance(out, _np.ndarray)
        and out.shape == value.shape
        and out.dtype == value.dtype
        and out.flags.writeable
    ):
        out[...] = value
        return out
    return value
