"""Skeletons of binary images: drop-ins for ``skimage.morphology.skeletonize`` (2D) and
``skimage.morphology.thin``, equal pixel for pixel, on gridbits' bit-parallel thinning.

Both thin the image by two alternating parallel sub-iterations until nothing changes, as
scikit-image does: ``skeletonize`` with scikit-image's Zhang–Suen deletion table, ``thin``
with Guo and Hall's algorithm. Pixels outside the image are background. gridbits decides
64 pixels per step with boolean formulas on the neighbour words of each row word.

Differences from scikit-image: only 2D images (scikit-image thins 3D images, and 2D ones
with ``method="lee"``, by Lee's algorithm, which gridbits does not implement: those raise
``ValueError``); inputs of a non-numeric dtype (strings, objects) raise ``TypeError``;
``thin`` of an empty image (a zero-length axis) returns an empty ``bool`` array where
scikit-image raises ``ValueError`` (``skeletonize`` returns one in both).
"""

from __future__ import annotations

import math
import operator
from typing import Optional

import numpy as np
import numpy.typing as npt

from . import _gridbits
from ._checks import as_mask

__all__ = ["skeletonize", "thin"]

_METHODS = ("zhang", "lee", None)


def _check_2d(image, name: str) -> np.ndarray:
    """``image`` as a ``uint8`` mask with contiguous rows, or ``ValueError`` for other
    dimensions than 2."""
    ndim = np.ndim(image)
    if ndim != 2:
        raise ValueError(
            f"{name}: gridbits skeletons take 2D images, got {ndim} dimensions"
        )
    return as_mask(image, name)


def skeletonize(image: npt.ArrayLike, *, method: Optional[str] = None) -> np.ndarray:
    """The skeleton of a 2D binary image: ``skimage.morphology.skeletonize`` with the same
    signature and the same ``bool`` result, pixel for pixel.

    Each connected component is thinned to a one-pixel wide skeleton by Zhang and Suen's
    two-sub-iteration scheme with scikit-image's deletion table, until nothing changes.
    ``image`` may have any numeric or ``bool`` dtype (nonzero is foreground) and any layout.

    ``method`` is ``None`` or ``"zhang"`` (the same, the 2D default of scikit-image).
    ``"lee"`` (Lee's algorithm, scikit-image's method for 3D) is not implemented and raises
    ``ValueError``, as does an image that is not 2D.

    >>> import numpy as np
    >>> from gridbits.morphology import skeletonize
    >>> X, Y = np.ogrid[0:9, 0:9]
    >>> ellipse = (1./3 * (X - 4)**2 + (Y - 4)**2 < 3**2)
    >>> skeletonize(ellipse).view(np.uint8)
    array([[0, 0, 0, 0, 0, 0, 0, 0, 0],
           [0, 0, 0, 0, 0, 0, 0, 0, 0],
           [0, 0, 0, 0, 0, 0, 0, 0, 0],
           [0, 0, 0, 0, 1, 0, 0, 0, 0],
           [0, 0, 0, 0, 1, 0, 0, 0, 0],
           [0, 0, 0, 0, 1, 0, 0, 0, 0],
           [0, 0, 0, 0, 1, 0, 0, 0, 0],
           [0, 0, 0, 0, 0, 0, 0, 0, 0],
           [0, 0, 0, 0, 0, 0, 0, 0, 0]], dtype=uint8)
    >>> skeletonize(ellipse, method="lee")
    Traceback (most recent call last):
    ...
    ValueError: method: "lee" (Lee's algorithm) is not supported by gridbits; use None or "zhang"
    """
    if not (method is None or (isinstance(method, str) and method in _METHODS)):
        raise ValueError(
            f'skeletonize method should be either "lee" or "zhang", got {method}.'
        )
    if method == "lee":
        raise ValueError(
            'method: "lee" (Lee\'s algorithm) is not supported by gridbits; '
            'use None or "zhang"'
        )
    m = _check_2d(image, "image")
    if m.size == 0:
        return np.zeros(m.shape, dtype=bool)
    return _gridbits.skeletonize(m).view(bool)


def _iterations(max_num_iter) -> Optional[int]:
    """The iteration limit of ``thin`` as scikit-image reads ``max_num_iter``: ``None`` for
    no limit (``None``, 0, ``inf``: scikit-image uses ``max_num_iter or inf``), otherwise
    the number of whole iterations it runs (``num_iter < max_num_iter``: the ceiling of a
    fractional value; none for a negative one or NaN)."""
    if max_num_iter is None:
        return None
    if isinstance(max_num_iter, (str, bytes)) or not isinstance(
        max_num_iter, (int, float, np.integer, np.floating)
    ):
        try:
            max_num_iter = operator.index(max_num_iter)
        except TypeError:
            raise TypeError(
                "max_num_iter: expected None or a number, got "
                f"{type(max_num_iter).__name__}"
            ) from None
    if not max_num_iter:
        return None
    if isinstance(max_num_iter, (float, np.floating)):
        x = float(max_num_iter)
        if math.isnan(x) or x < 0:
            return 0
        if math.isinf(x):
            return None
        n = math.ceil(x)
    else:
        n = max(int(max_num_iter), 0)
    # More iterations than a 64-bit count of pixels can ever need is no limit.
    return None if n >= 1 << 62 else n


def thin(image: npt.ArrayLike, max_num_iter: Optional[int] = None) -> np.ndarray:
    """Morphological thinning of a 2D binary image: ``skimage.morphology.thin`` with the same
    signature and the same ``bool`` result, pixel for pixel.

    Guo and Hall's two-sub-iteration algorithm thins each connected region to a line,
    keeping eight-connected components and 2x2 squares' connectivity. ``image`` may have any
    numeric or ``bool`` dtype (nonzero is foreground) and any layout; it must be 2D.

    ``max_num_iter`` bounds the number of iterations (each of both sub-iterations); thinning
    stops earlier when an iteration changes nothing. As in scikit-image, ``None`` and ``0``
    mean no limit, and a negative value none at all (the image is returned as ``bool``).
    An empty image gives an empty ``bool`` array (scikit-image raises ``ValueError``).

    >>> import numpy as np
    >>> from gridbits.morphology import thin
    >>> square = np.zeros((7, 7), dtype=bool)
    >>> square[1:-1, 2:-2] = 1
    >>> square[0, 1] = 1
    >>> thin(square).view(np.uint8)
    array([[0, 1, 0, 0, 0, 0, 0],
           [0, 0, 1, 0, 0, 0, 0],
           [0, 0, 0, 1, 0, 0, 0],
           [0, 0, 0, 1, 0, 0, 0],
           [0, 0, 0, 1, 0, 0, 0],
           [0, 0, 0, 0, 0, 0, 0],
           [0, 0, 0, 0, 0, 0, 0]], dtype=uint8)
    >>> int(thin(square, max_num_iter=1).sum())
    5
    """
    limit = _iterations(max_num_iter)
    m = _check_2d(image, "image")
    if m.size == 0:
        return np.zeros(m.shape, dtype=bool)
    return _gridbits.thin(m, limit).view(bool)
