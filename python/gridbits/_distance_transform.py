"""Distance transforms: scipy.ndimage's ``distance_transform_cdt`` and
``distance_transform_edt`` (public in :mod:`gridbits.ndimage`) and OpenCV's
``distanceTransform`` (public in :mod:`gridbits.opencv`), with the peers' signatures,
defaults and outputs, on gridbits.

The native module computes; this module checks the arguments as the peers do and lays the
results out as they do (scipy's in-place ``distances=`` / ``indices=`` arrays, OpenCV's
``dst``).
"""

from __future__ import annotations

from typing import Any, Optional, Tuple, Union

import numpy as np

from . import _gridbits
from ._checks import as_mask

__all__ = [
    "DIST_C",
    "DIST_L1",
    "DIST_L2",
    "DIST_MASK_3",
    "DIST_MASK_5",
    "DIST_MASK_PRECISE",
    "CV_8U",
    "CV_32F",
    "DIST_LABEL_CCOMP",
    "DIST_LABEL_PIXEL",
    "distanceTransform",
    "distanceTransformWithLabels",
    "distance_transform_cdt",
    "distance_transform_edt",
]

#: Distance types, OpenCV's values (``cv2.DIST_*``).
DIST_L1 = 1
DIST_L2 = 2
DIST_C = 3
#: Mask sizes, OpenCV's values (``cv2.DIST_MASK_*``).
DIST_MASK_3 = 3
DIST_MASK_5 = 5
DIST_MASK_PRECISE = 0
#: Label types of ``distanceTransformWithLabels``, OpenCV's values.
DIST_LABEL_CCOMP = 0
DIST_LABEL_PIXEL = 1
#: Output types of ``distanceTransform``, OpenCV's values.
CV_8U = 0
CV_32F = 5

# [up-left, up, up-right, left]: the neighbours scipy's passes read.
_TAXICAB = (False, True, False, True)
_CHESSBOARD = (True, True, True, True)


def _mask(img: np.ndarray, name: str) -> np.ndarray:
    """``as_mask``, and a fresh copy where numpy left a one-pixel-wide view's odd strides
    (numpy calls any array with one element per row contiguous)."""
    m = as_mask(img, name)
    if m.size and (m.strides[1] != 1 or (m.shape[0] > 1 and m.strides[0] < m.shape[1])):
        m = m.copy(order="C")
    return m


def _arg_check(dt_inplace: bool, ft_inplace: bool, return_distances, return_indices) -> None:
    """scipy's argument check, its RuntimeError and messages."""
    msgs = []
    if (not return_distances) and (not return_indices):
        msgs.append("at least one of return_distances/return_indices must be True")
    if dt_inplace and not return_distances:
        msgs.append("return_distances must be True if distances is supplied")
    if ft_inplace and not return_indices:
        msgs.append("return_indices must be True if indices is supplied")
    if msgs:
        raise RuntimeError(", ".join(msgs))


def _image(input: Any) -> np.ndarray:
    """``input`` as a 1D or 2D numpy array of bool or numbers."""
    try:
        a = np.asarray(input)
    except Exception as e:  # ragged lists and the like
        raise ValueError(f"input: not an array ({e})") from None
    if a.dtype == object or a.dtype.kind not in "biufc":
        raise TypeError(f"input: expected an array of bool or numbers, got dtype {a.dtype}")
    if a.ndim not in (1, 2):
        raise ValueError(
            f"input: gridbits transforms 1D and 2D images, got {a.ndim} dimensions "
            "(use scipy.ndimage for others)"
        )
    return a


def _results(dt, ft, return_distances, return_indices, dt_inplace, ft_inplace):
    """scipy's return value: what was asked for and not written in place."""
    result = []
    if return_distances and not dt_inplace:
        result.append(dt)
    if return_indices and not ft_inplace:
        result.append(ft)
    if len(result) == 2:
        return tuple(result)
    if len(result) == 1:
        return result[0]
    return None


def _steps(metric, ndim: int) -> Tuple[bool, bool, bool, bool]:
    """The neighbours scipy's passes read, from ``metric`` (a name or a 3x..x3 array)."""
    if isinstance(metric, str):
        if metric in ("taxicab", "cityblock", "manhattan"):
            return _TAXICAB
        if metric == "chessboard":
            return _CHESSBOARD
        raise ValueError("invalid metric provided")
    try:
        s = np.asarray(metric)
    except Exception as e:
        raise ValueError("invalid metric provided") from e
    if s.dtype == object or s.dtype.kind not in "biuf":
        raise ValueError("invalid metric provided")
    if any(d != 3 for d in s.shape):
        raise ValueError("metric sizes must be equal to 3")
    if s.ndim != ndim:
        # scipy reads such a structure as one of the input's rank laid over its memory.
        raise ValueError(
            f"metric: a structure of {s.ndim} dimensions for an input of {ndim} "
            "(gridbits wants the input's number of dimensions)"
        )
    # scipy's C code reads the structure's memory as bool bytes, whatever its dtype: the
    # first size // 2 bytes count (for an int64 or float64 array of ones, not the ones).
    # (In native byte order first, as scipy converts it before reading.)
    native = s.astype(s.dtype.newbyteorder("="), copy=False)
    raw = np.ascontiguousarray(native).view(np.uint8).ravel()[: s.size // 2]
    flat = np.zeros(4, bool)
    flat[: raw.size] = raw != 0
    if ndim == 1:
        # A row: only the left neighbour comes before the centre.
        return (False, False, False, bool(flat[0]))
    return (bool(flat[0]), bool(flat[1]), bool(flat[2]), bool(flat[3]))


def distance_transform_cdt(
    input: Any,
    metric: Union[str, Any] = "chessboard",
    return_distances: bool = True,
    return_indices: bool = False,
    distances: Optional[np.ndarray] = None,
    indices: Optional[np.ndarray] = None,
):
    """Chamfer distance transform: ``scipy.ndimage.distance_transform_cdt`` with the same
    arguments, defaults and results (``int32`` distances and indices, to the last value).

    Every nonzero pixel gets the number of steps to the nearest zero pixel, a step going to
    a neighbour of ``metric``: ``'chessboard'`` (the default, 8 neighbours),
    ``'taxicab'`` / ``'cityblock'`` / ``'manhattan'`` (4 neighbours), or a 3x3 structure
    array (for a 1D input, 3 elements) used as scipy uses it: its entries before the centre
    in raster order, in a forward and a mirrored backward pass. As in scipy, whose C code
    reads the structure's memory as ``bool`` bytes, give it as a ``bool`` array: one of
    another dtype counts by its first bytes (an ``int64`` array of ones means the upper-left
    neighbour only), and gridbits reads it the same way. Outside the image is not
    background; pixels no zero pixel reaches (an image without zero) get ``-1``, as in scipy.

    ``return_indices=True`` adds, per pixel, the ``(row, col)`` of the zero pixel its
    distance comes from, as an ``int32`` array of shape ``(ndim,) + input.shape``; where
    several are equally near it is the one scipy's passes pick. ``distances`` (``int32``)
    and ``indices`` (``int32``) arrays are written in place instead of returned, as in
    scipy (which reads ``indices``' old values to map the result, and so does gridbits).

    Raises, as scipy does, ``RuntimeError`` for contradicting ``return_*`` / output
    arguments, ``ValueError`` for a bad metric or a
    ``distances`` / ``indices`` array of the wrong type or shape; ``ValueError`` for an input
    of more than 2 dimensions (use scipy for those), ``TypeError`` for one that is not
    numbers, and ``ValueError`` for a structure whose rank is not the input's (scipy takes
    it and reads its memory as a structure of the input's rank).

    >>> import numpy as np
    >>> from gridbits.ndimage import distance_transform_cdt
    >>> img = np.array([[1, 1, 1, 1],
    ...                 [1, 1, 1, 1],
    ...                 [1, 1, 1, 0]])
    >>> distance_transform_cdt(img)
    array([[3, 2, 2, 2],
           [3, 2, 1, 1],
           [3, 2, 1, 0]], dtype=int32)
    >>> d, (rows, cols) = distance_transform_cdt(img, "taxicab", return_indices=True)
    >>> d[0, 0], rows[0, 0], cols[0, 0]
    (np.int32(5), np.int32(2), np.int32(3))
    """
    ft_inplace = isinstance(indices, np.ndarray)
    dt_inplace = isinstance(distances, np.ndarray)
    _arg_check(dt_inplace, ft_inplace, return_distances, return_indices)
    a = _image(input)
    steps = _steps(metric, a.ndim)
    if dt_inplace:
        if distances.dtype.type != np.int32:
            raise ValueError("distances must be of int32 type")
        if distances.shape != a.shape:
            raise ValueError("distances has wrong shape")
    img = a.reshape(1, -1) if a.ndim == 1 else a
    h, w = img.shape
    if h * w == 0:
        dt = np.zeros(a.shape, dtype=np.int32)
        flat = np.zeros(0, dtype=np.intp)
    else:
        dt, flat = _gridbits.distance_transform_cdt(
            _mask(img, "input"), steps, bool(return_indices)
        )
        dt = dt.reshape(a.shape)
        if flat is not None:
            flat = flat.ravel()
    if dt_inplace:
        distances[...] = dt
        dt = distances
    ft = None
    if return_indices:
        if ft_inplace:
            if indices.dtype.type != np.int32:
                raise ValueError("indices array must be int32")
            if indices.shape != (a.ndim,) + a.shape:
                raise ValueError("indices array has wrong shape")
            # scipy maps the indices array's own values through the nearest pixels.
            for i in range(a.ndim):
                indices[i, ...] = np.ravel(indices[i, ...])[flat].reshape(a.shape)
            ft = indices
        elif a.ndim == 1:
            ft = flat.astype(np.int32).reshape((1,) + a.shape)
        else:
            rows, cols = np.divmod(flat, np.int32(w))
            ft = np.stack([rows.reshape(a.shape), cols.reshape(a.shape)]).astype(
                np.int32, copy=False
            )
    return _results(dt, ft, return_distances, return_indices, dt_inplace, ft_inplace)


#: The spacings gridbits takes: positive, and far enough from 0 and infinity that no squared
#: distance underflows or overflows, so that nearer is always smaller, as it is in scipy then.
_MIN_SAMPLING = 1e-100
_MAX_SAMPLING = 1e100


def _sampling(sampling, ndim: int) -> Optional[np.ndarray]:
    """scipy's ``sampling``: a number for every axis or one per axis, as float64."""
    if sampling is None:
        return None
    if isinstance(sampling, str):
        raise TypeError("sampling: expected a number or a sequence of numbers, got a str")
    if np.ndim(sampling) == 0:
        seq = [sampling] * ndim
    else:
        seq = list(sampling)
        if len(seq) != ndim:
            raise RuntimeError("sequence argument must have length equal to input rank")
    try:
        s = np.asarray(seq, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise TypeError(f"sampling: expected numbers ({e})") from None
    # scipy also takes zero, negative, infinite and nan spacings (and spacings whose squares
    # underflow or overflow), and returns what its arithmetic makes of them.
    if not np.all((s >= _MIN_SAMPLING) & (s <= _MAX_SAMPLING)):
        raise ValueError(
            f"sampling: spacings must be between {_MIN_SAMPLING:g} and {_MAX_SAMPLING:g}, "
            f"got {s.tolist()}"
        )
    return s


def distance_transform_edt(
    input: Any,
    sampling: Any = None,
    return_distances: bool = True,
    return_indices: bool = False,
    distances: Optional[np.ndarray] = None,
    indices: Optional[np.ndarray] = None,
):
    """Exact Euclidean distance transform: ``scipy.ndimage.distance_transform_edt`` with the
    same arguments, defaults and results (``float64`` distances, ``int32`` indices, equal to
    the last bit, ties included).

    Every nonzero pixel gets its distance to the nearest zero pixel, with ``sampling`` the
    spacing along each axis (a number for all, or one per axis). ``return_indices=True``
    adds the ``(row, col)`` of that zero pixel as an ``int32`` array of shape ``(ndim,) +
    input.shape``; where several are equally near, it is the one scipy's algorithm picks
    (Maurer's feature transform: along columns the upper one, then along rows the first
    that scipy's lower envelope keeps; gridbits runs the same arithmetic in the same order).
    ``distances`` (``float64``) and ``indices`` (``int32``) arrays are written in place instead
    of returned, as in scipy. Outside the image is not background: on an image without a
    zero pixel, scipy's values come back (rows ``-1``, columns unchanged, distances measured to
    them).

    Raises, as scipy does, ``RuntimeError`` for contradicting ``return_*`` / output
    arguments, a ``sampling`` of the wrong length and ``distances`` / ``indices`` arrays of
    the wrong type or shape; ``ValueError`` for an input of more than 2 dimensions (use scipy
    for those), ``TypeError`` for one that is not numbers, and ``ValueError`` for a spacing
    outside ``[1e-100, 1e100]`` (zero, negative, infinite, nan), which scipy takes and
    returns what its arithmetic makes of.

    >>> import numpy as np
    >>> from gridbits.ndimage import distance_transform_edt
    >>> img = np.array([[1, 1, 1],
    ...                 [1, 1, 1],
    ...                 [1, 1, 0]])
    >>> distance_transform_edt(img)
    array([[2.82842712, 2.23606798, 2.        ],
           [2.23606798, 1.41421356, 1.        ],
           [2.        , 1.        , 0.        ]])
    >>> distance_transform_edt(img, sampling=(2, 1))[0, 2]
    np.float64(4.0)
    >>> distance_transform_edt(img, return_distances=False, return_indices=True)[:, 0, 0]
    array([2, 2], dtype=int32)
    """
    ft_inplace = isinstance(indices, np.ndarray)
    dt_inplace = isinstance(distances, np.ndarray)
    _arg_check(dt_inplace, ft_inplace, return_distances, return_indices)
    a = _image(np.atleast_1d(input) if np.ndim(input) == 0 else input)
    s = _sampling(sampling, a.ndim)
    if ft_inplace:
        if indices.shape != (a.ndim,) + a.shape:
            raise RuntimeError("indices array has wrong shape")
        if indices.dtype.type != np.int32:
            raise RuntimeError("indices array must be int32")
    img = a.reshape(1, -1) if a.ndim == 1 else a
    h, w = img.shape
    s2 = (1.0, 1.0) if s is None else ((1.0, float(s[0])) if a.ndim == 1 else (float(s[0]), float(s[1])))
    if h * w == 0:
        dt, planes, background = np.zeros(a.shape), None, True
    else:
        dt, planes, background = _gridbits.distance_transform_edt(
            _mask(img, "input"), s2, bool(return_distances), bool(return_indices)
        )
    if ft_inplace:
        ft = indices
    elif planes is not None and background and a.ndim == 2:
        ft = planes  # a fresh array: no copy
    elif return_indices or not background:
        ft = np.zeros((a.ndim,) + a.shape, dtype=np.int32)
    else:
        ft = None  # the distances alone
    # (The native call may give the index planes that a sampling needs without their being
    # asked for: ``ft`` is then None and they are dropped.)
    if planes is not None and ft is not None and ft is not planes:
        if not background:
            # scipy marks the rows -1 and leaves the other planes as they were.
            ft[0] = -1
        elif a.ndim == 1:
            ft[0] = planes[1].reshape(a.shape)
        else:
            ft[...] = planes
    if return_distances:
        if not background:
            # Measured to scipy's leftover indices, as scipy does.
            d = (ft - np.indices(a.shape, dtype=ft.dtype)).astype(np.float64)
            if s is not None:
                for i in range(len(s)):
                    d[i, ...] *= s[i]
            np.multiply(d, d, d)
            dt = np.sqrt(np.add.reduce(d, axis=0))
        else:
            dt = dt.reshape(a.shape)
        if dt_inplace:
            if distances.shape != dt.shape:
                raise RuntimeError("distances array has wrong shape")
            if distances.dtype.type != np.float64:
                raise RuntimeError("distances array must be float64")
            distances[...] = dt
    return _results(dt, ft, return_distances, return_indices, dt_inplace, ft_inplace)


def distanceTransform(
    src: Any,
    distanceType: int,
    maskSize: int,
    dst: Optional[np.ndarray] = None,
    dstType: int = CV_32F,
) -> np.ndarray:
    """``cv2.distanceTransform``: the distance of every nonzero pixel to the nearest zero
    pixel, with OpenCV's signature, defaults and values.

    ``distanceType`` :data:`DIST_L1` (``|dx| + |dy|``), :data:`DIST_C` (``max(|dx|, |dy|)``)
    or :data:`DIST_L2` with ``maskSize`` :data:`DIST_MASK_PRECISE` (the exact Euclidean
    distance); for ``DIST_L1`` and ``DIST_C`` every ``maskSize`` gives the exact distance, as
    in OpenCV. Results are ``float32`` (``dstType=CV_8U`` with ``DIST_L1``: ``uint8``,
    saturated at 255, as OpenCV). As in OpenCV, outside the image is not background, and an
    image without a zero pixel gives ``FLT_MAX`` (``sqrt(FLT_MAX)`` with
    ``DIST_MASK_PRECISE``, 255 as ``uint8``). ``dst`` of the right shape and dtype is written
    in place and returned.

    Differences: OpenCV's ``DIST_L2`` with ``DIST_MASK_3`` / ``DIST_MASK_5`` (Borgefors'
    chamfer approximations) is not offered (``ValueError``: use ``DIST_MASK_PRECISE``).
    ``DIST_MASK_PRECISE`` gives the correctly rounded ``float32`` square root of the exact
    squared distance; OpenCV's pip wheels compute it through Intel IPP, whose values can be
    one or two units in the last place off that once distances pass 6 (about one value in
    eight on a thresholded photograph; a relative difference below ``2.5e-7``). OpenCV takes only ``uint8`` images;
    gridbits takes any bool or numeric 2D array (nonzero is set). Bad arguments raise
    ``ValueError`` / ``TypeError`` instead of ``cv2.error``.

    >>> import numpy as np
    >>> from gridbits.opencv import distanceTransform, DIST_L1, DIST_L2, DIST_MASK_PRECISE
    >>> img = np.array([[1, 1, 1],
    ...                 [1, 1, 0]], dtype=np.uint8)
    >>> distanceTransform(img, DIST_L1, 3)
    array([[3., 2., 1.],
           [2., 1., 0.]], dtype=float32)
    >>> distanceTransform(img, DIST_L2, DIST_MASK_PRECISE)[0, 0]
    np.float32(2.236068)
    """
    a = _cv_image(src)
    kind = _cv_kind(distanceType, maskSize)
    if isinstance(dstType, bool) or not isinstance(dstType, (int, np.integer)):
        raise TypeError(f"dstType: expected an integer, got {type(dstType).__name__}")
    h, w = a.shape
    if h * w == 0:
        out = np.zeros(a.shape, dtype=np.float32)
    else:
        out = _gridbits.distance_transform_cv(a, kind)
    if kind == "l1" and dstType == CV_8U:
        out = np.minimum(out, 255).astype(np.uint8)
    from .opencv import _into

    return _into(dst, out)


def distanceTransformWithLabels(
    src: Any,
    distanceType: int,
    maskSize: int,
    dst: Optional[np.ndarray] = None,
    labels: Optional[np.ndarray] = None,
    labelType: int = DIST_LABEL_CCOMP,
) -> Tuple[np.ndarray, np.ndarray]:
    """``cv2.distanceTransformWithLabels``: the distances of ``distanceTransform`` and, per
    pixel, the label of its nearest zero pixel (the discrete Voronoi diagram), with OpenCV's
    signature, defaults and values.

    As in OpenCV, the labels need the 5x5 masks, so every ``distanceType`` and ``maskSize``
    runs OpenCV's 5x5 chamfer passes in its fixed point (``DIST_L1`` and ``DIST_C`` exact,
    ``DIST_L2`` Borgefors' approximation with OpenCV's weights ``1, 1.4, 2.1969``); ties go
    to the label OpenCV's passes keep. ``labelType`` :data:`DIST_LABEL_CCOMP` (the default)
    labels the 8-connected components of zero pixels ``1..n`` in raster order,
    :data:`DIST_LABEL_PIXEL` every zero pixel in raster order. Returns ``(dst, labels)``
    (``float32``, ``int32``); ``dst`` and ``labels`` arrays of the right shape and dtype are
    written in place. On an image without a zero pixel every distance is OpenCV's "far"
    value (65533 for ``DIST_L1``) and every label 0.

    >>> import numpy as np
    >>> from gridbits.opencv import distanceTransformWithLabels, DIST_L1, DIST_LABEL_PIXEL
    >>> img = np.array([[0, 1, 1],
    ...                 [1, 1, 0]], dtype=np.uint8)
    >>> d, labels = distanceTransformWithLabels(img, DIST_L1, 5, labelType=DIST_LABEL_PIXEL)
    >>> d
    array([[0., 1., 1.],
           [1., 1., 0.]], dtype=float32)
    >>> labels
    array([[1, 1, 2],
           [1, 2, 2]], dtype=int32)
    """
    a = _cv_image(src)
    if isinstance(maskSize, bool) or not isinstance(maskSize, (int, np.integer)):
        raise TypeError(f"maskSize: expected an integer, got {type(maskSize).__name__}")
    # OpenCV takes any mask size here: the labels always run the 5x5 masks.
    kind = _cv_kind(distanceType, DIST_MASK_5, labels=True)
    if isinstance(labelType, bool) or labelType not in (DIST_LABEL_CCOMP, DIST_LABEL_PIXEL):
        raise ValueError(
            f"labelType must be DIST_LABEL_CCOMP (0) or DIST_LABEL_PIXEL (1), not {labelType!r}"
        )
    zero = a == 0
    if labelType == DIST_LABEL_PIXEL:
        start = np.cumsum(zero, dtype=np.int64).reshape(a.shape).astype(np.int32)
        start[~zero] = 0
    elif a.size:
        from ._grid import label

        start = label(zero, 8)[0]
    else:
        start = np.zeros(a.shape, np.int32)
    if a.size == 0:
        d, lab = np.zeros(a.shape, np.float32), start
    else:
        d, lab = _gridbits.distance_transform_cv_labels(a, kind, np.ascontiguousarray(start))
    from .opencv import _into

    return _into(dst, d), _into(labels, lab)


def _cv_image(src: Any) -> np.ndarray:
    """``src`` as a 2D mask; a 1D array is one row and ``(H, W, 1)`` one channel."""
    try:
        a = np.asarray(src)
    except Exception:  # a ragged list: as_mask's error names the argument
        a = src
    if getattr(a, "ndim", None) == 1:
        a = a.reshape(1, -1)
    elif getattr(a, "ndim", None) == 3 and a.shape[2] == 1:
        a = a[:, :, 0]
    return _mask(a, "src")


def _cv_kind(distance_type, mask_size, labels: bool = False) -> str:
    """The native kind of a distance type and mask size, checked as OpenCV checks them
    (``labels``: for ``distanceTransformWithLabels``, where every mask size is 5x5)."""
    for name, v in (("distanceType", distance_type), ("maskSize", mask_size)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name}: expected an integer, got {type(v).__name__}")
    if mask_size not in (DIST_MASK_3, DIST_MASK_5, DIST_MASK_PRECISE):
        raise ValueError(f"maskSize must be 3, 5 or 0 (DIST_MASK_PRECISE), not {mask_size}")
    if distance_type == DIST_L1:
        return "l1"
    if distance_type == DIST_C:
        return "c"
    if distance_type == DIST_L2:
        if labels:
            return "l2"
        if mask_size != DIST_MASK_PRECISE:
            raise ValueError(
                "DIST_L2 with DIST_MASK_3 or DIST_MASK_5 (OpenCV's chamfer approximation) is "
                "not supported: use DIST_MASK_PRECISE for the exact distance"
            )
        return "l2"
    raise ValueError(
        f"distanceType must be DIST_L1 (1), DIST_L2 (2) or DIST_C (3), not {distance_type}"
    )
