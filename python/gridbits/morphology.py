"""Binary morphology with scikit-image's conventions (``skimage.morphology``), on gridbits.

Swap the import and nothing else changes::

    from gridbits.morphology import binary_opening, disk   # was: from skimage.morphology ...

- :func:`binary_erosion`, :func:`binary_dilation`, :func:`binary_opening`,
  :func:`binary_closing` ``(image, footprint=None, out=None, *, mode='ignore')``: exactly
  scikit-image 0.26's results (``bool``), for 2D images (and 1D rows). The default
  footprint is the cross; ``mode`` decides the pixels off the image: ``'ignore'`` (the
  default) makes them not matter (set for erosion, unset for dilation), ``'max'`` set,
  ``'min'`` unset. A footprint may be a sequence of ``(footprint, repetitions)`` pairs,
  applied in turn. (scikit-image 0.26 deprecates these four in favour of its grey-level
  ``erosion`` and friends; their results are unchanged, and gridbits keeps them without a
  warning.)
- :func:`disk`, :func:`diamond`, :func:`footprint_rectangle` and :func:`square`: the same
  arrays as scikit-image's, dtype included (``uint8`` by default). gridbits decomposes large
  footprints itself, so ``decomposition`` must be ``None``.
- :func:`remove_small_objects` and :func:`remove_small_holes` with scikit-image 0.26's
  signatures (``max_size``, inclusive; the deprecated ``min_size`` and ``area_threshold``
  still work with the same ``FutureWarning``, and, as in scikit-image 0.26, are passed on
  as ``max_size``: inclusive too, whatever their old documentation says).
- :func:`skeletonize` and :func:`thin`: scikit-image's 2D skeletons, pixel for pixel.

>>> import numpy as np
>>> from gridbits.morphology import binary_opening, disk
>>> img = np.zeros((7, 7), dtype=bool); img[1:6, 1:6] = True; img[0, 6] = True
>>> binary_opening(img, disk(1)).astype(int)[0]
array([0, 0, 0, 0, 0, 0, 0])
"""

from __future__ import annotations

import warnings as _warnings
from typing import Any as _Any, Optional as _Optional

import numpy as _np

from . import _morph
from ._grid import label_stats as _label_stats
from ._skeleton import skeletonize, thin

__all__ = [
    "binary_erosion",
    "binary_dilation",
    "binary_opening",
    "binary_closing",
    "disk",
    "diamond",
    "footprint_rectangle",
    "square",
    "remove_small_objects",
    "remove_small_holes",
    "skeletonize",
    "thin",
]

_MODES = ("max", "min", "ignore")


class _Deprecated:
    """scikit-image's marker of a deprecated parameter left out."""

    def __repr__(self) -> str:
        return "<_DEPRECATED>"


_DEPRECATED = _Deprecated()


class _DefaultSize(int):
    """The default ``max_size`` (64), told apart from an explicit 64 as scikit-image's
    deprecation wrapper tells them apart."""


_MAX_SIZE = _DefaultSize(64)


def _mode(mode: _Any) -> None:
    if mode not in _MODES:
        raise ValueError(f"unsupported mode, got {mode!r}")


def _is_sequence(footprint: _Any) -> bool:
    """A sequence of ``(footprint, repetitions)`` pairs, as scikit-image tells them."""
    return isinstance(footprint, (tuple, list)) and len(footprint) > 0 and all(
        isinstance(p, (tuple, list)) and len(p) == 2 and _np.ndim(p[1]) == 0 for p in footprint
    )


def _steps(footprint: _Any, ndim: int):
    """``(fp, centre, repetitions)`` for each footprint of a sequence (or the one)."""
    pairs = footprint if _is_sequence(footprint) else [(footprint, 1)]
    out = []
    for fp, n in pairs:
        f = _morph.structure(fp, ndim, "footprint")
        out.append((f, _morph.center(0, f, ndim, "footprint"), _morph.iterations(n)))
    return out


def _apply(func: str, image: _Any, footprint: _Any, border: bool) -> _np.ndarray:
    img = _morph.image(image, "image", "skimage.morphology")
    r = None
    for fp, c, n in _steps(footprint, img.ndim):
        src = img if r is None else _morph.image(r, "image")
        # scikit-image repeats each footprint n times through scipy (n < 1: until stable).
        r = _morph.run(func, src, fp, c, border, n, None)
    return r if r is not None else _np.zeros(img.shape, dtype=bool)


def _run(pairs: _Any, image: _Any, footprint: _Any, out: _Any) -> _np.ndarray:
    """``pairs`` of ``(native function, border)`` in order, then ``out``: one footprint
    repeated once goes through the fused path (straight into ``out`` when it takes the
    bytes as they are), anything else step by step."""
    fused = tuple((_morph.STEPS[f][0], b) for f, b in pairs)
    if out is None:
        r = _morph.quick(fused, image, footprint)
        if r is not None:
            return r
    img = _morph.image(image, "image", "skimage.morphology")
    steps = _steps(footprint, img.ndim)
    if len(steps) == 1 and steps[0][2] == 1:
        fp, c, _ = steps[0]
        if out is not None and _morph.in_place(out, img):
            _morph.fused(fused, img, fp, c, out)
            return out
        return _out(_morph.fused(fused, img, fp, c), out)
    r = image
    for f, b in pairs:
        r = _apply(f, r, footprint, b)
    return _out(r, out)


def _out(r: _np.ndarray, out: _Any) -> _np.ndarray:
    if out is None:
        return r
    if not isinstance(out, _np.ndarray):
        raise TypeError(f"out: expected None or an array, got {type(out).__name__}")
    if out.shape != r.shape:
        raise ValueError(f"out: shape {out.shape} does not match the image's {r.shape}")
    _morph.check_output(out, "out")
    _np.copyto(out, r, casting="unsafe")
    return out


def binary_erosion(
    image: _Any, footprint: _Any = None, out: _Optional[_np.ndarray] = None, *, mode: str = "ignore"
) -> _np.ndarray:
    """Binary erosion, as ``skimage.morphology.binary_erosion``: a pixel stays set when the
    footprint (default: the cross) centred on it covers only set pixels. Pixels off the
    image count as set for ``mode='ignore'`` (default) and ``'max'``, unset for ``'min'``.

    >>> import numpy as np
    >>> from gridbits.morphology import binary_erosion, footprint_rectangle
    >>> img = np.ones((3, 4), dtype=bool)
    >>> binary_erosion(img, footprint_rectangle((3, 3))).all()
    np.True_
    >>> binary_erosion(img, footprint_rectangle((3, 3)), mode="min").astype(int)
    array([[0, 0, 0, 0],
           [0, 1, 1, 0],
           [0, 0, 0, 0]])
    """
    _mode(mode)
    return _run((("binary_erosion", mode != "min"),), image, footprint, out)


def binary_dilation(
    image: _Any, footprint: _Any = None, out: _Optional[_np.ndarray] = None, *, mode: str = "ignore"
) -> _np.ndarray:
    """Binary dilation, as ``skimage.morphology.binary_dilation`` (the footprint reflected,
    as scikit-image's binary dilation does). Pixels off the image count as set only for
    ``mode='max'``.

    >>> import numpy as np
    >>> from gridbits.morphology import binary_dilation, diamond
    >>> img = np.zeros((5, 5), dtype=bool); img[2, 2] = True
    >>> binary_dilation(img, diamond(2)).astype(int)
    array([[0, 0, 1, 0, 0],
           [0, 1, 1, 1, 0],
           [1, 1, 1, 1, 1],
           [0, 1, 1, 1, 0],
           [0, 0, 1, 0, 0]])
    """
    _mode(mode)
    return _run((("binary_dilation", mode == "max"),), image, footprint, out)


def binary_opening(
    image: _Any, footprint: _Any = None, out: _Optional[_np.ndarray] = None, *, mode: str = "ignore"
) -> _np.ndarray:
    """Binary opening, as ``skimage.morphology.binary_opening``: :func:`binary_erosion`
    then :func:`binary_dilation`, each with ``mode``.

    >>> import numpy as np
    >>> from gridbits.morphology import binary_opening
    >>> img = np.array([[1, 1, 1, 0, 1]], dtype=bool)
    >>> binary_opening(img, np.ones((1, 3))).astype(int)
    array([[1, 1, 1, 0, 0]])
    """
    _mode(mode)
    pairs = (("binary_erosion", mode != "min"), ("binary_dilation", mode == "max"))
    return _run(pairs, image, footprint, out)


def binary_closing(
    image: _Any, footprint: _Any = None, out: _Optional[_np.ndarray] = None, *, mode: str = "ignore"
) -> _np.ndarray:
    """Binary closing, as ``skimage.morphology.binary_closing``: :func:`binary_dilation`
    then :func:`binary_erosion`, each with ``mode``.

    >>> import numpy as np
    >>> from gridbits.morphology import binary_closing
    >>> img = np.array([[1, 0, 1, 0, 0, 0, 1]], dtype=bool)
    >>> binary_closing(img, np.ones((1, 3))).astype(int)
    array([[1, 1, 1, 0, 0, 0, 1]])
    """
    _mode(mode)
    pairs = (("binary_dilation", mode == "max"), ("binary_erosion", mode != "min"))
    return _run(pairs, image, footprint, out)


def _no_decomposition(decomposition: _Any) -> None:
    if decomposition is not None:
        raise ValueError(
            f"decomposition: gridbits decomposes footprints itself; pass None, not "
            f"{decomposition!r} (the sequences are scikit-image's, for its own functions)"
        )


def _radius(radius: _Any) -> int:
    try:
        r = int(radius)
    except (TypeError, ValueError):
        raise TypeError(f"radius: expected a number, got {radius!r}") from None
    return r


def disk(
    radius: int, dtype: _Any = _np.uint8, *, strict_radius: bool = True, decomposition: _Any = None
) -> _np.ndarray:
    """The disk footprint of ``skimage.morphology.disk``: the pixels within Euclidean
    distance ``radius`` of the centre (``radius + 0.5`` with ``strict_radius=False``), a
    ``2 * radius + 1`` square array of ``dtype``.

    >>> from gridbits.morphology import disk
    >>> disk(1)
    array([[0, 1, 0],
           [1, 1, 1],
           [0, 1, 0]], dtype=uint8)
    """
    _no_decomposition(decomposition)
    L = _np.arange(-radius, radius + 1)
    X, Y = _np.meshgrid(L, L)
    r = radius if strict_radius else radius + 0.5
    return _np.array((X**2 + Y**2) <= r**2, dtype=dtype)


def diamond(radius: int, dtype: _Any = _np.uint8, *, decomposition: _Any = None) -> _np.ndarray:
    """The diamond footprint of ``skimage.morphology.diamond``: the pixels within
    ``radius`` city-block steps of the centre.

    >>> from gridbits.morphology import diamond
    >>> diamond(1, dtype=bool).astype(int)
    array([[0, 1, 0],
           [1, 1, 1],
           [0, 1, 0]])
    """
    _no_decomposition(decomposition)
    L = _np.arange(0, radius * 2 + 1)
    I, J = _np.meshgrid(L, L)
    return _np.array(_np.abs(I - radius) + _np.abs(J - radius) <= radius, dtype=dtype)


def footprint_rectangle(shape: _Any, *, dtype: _Any = _np.uint8, decomposition: _Any = None) -> _np.ndarray:
    """The rectangle footprint of ``skimage.morphology.footprint_rectangle``: ones of
    ``shape``.

    >>> from gridbits.morphology import footprint_rectangle
    >>> footprint_rectangle((2, 3))
    array([[1, 1, 1],
           [1, 1, 1]], dtype=uint8)
    """
    _no_decomposition(decomposition)
    return _np.ones(shape, dtype=dtype)


def square(width: int, dtype: _Any = _np.uint8, *, decomposition: _Any = None) -> _np.ndarray:
    """The square footprint of ``skimage.morphology.square`` (deprecated there since 0.25
    for :func:`footprint_rectangle`; gridbits warns the same way).

    >>> import warnings
    >>> from gridbits.morphology import square
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     square(2)
    array([[1, 1],
           [1, 1]], dtype=uint8)
    """
    _warnings.warn(
        "`square` is deprecated since version 0.25 and will be removed in version 0.27. "
        "Use `skimage.morphology.footprint_rectangle` instead.",
        FutureWarning,
        stacklevel=2,
    )
    return footprint_rectangle((width, width), dtype=dtype, decomposition=decomposition)


def _check_dtype_supported(ar: _np.ndarray) -> None:
    if not (ar.dtype == bool or _np.issubdtype(ar.dtype, _np.integer)):
        raise TypeError(f"Only bool or integer image types are supported. Got {ar.dtype}.")


def _threshold(name: str, old: _Any, max_size: _Any) -> _Any:
    """``max_size``, or the deprecated parameter's value (scikit-image 0.26 passes it on
    as ``max_size``, so it is inclusive too), with its warning."""
    if old is _DEPRECATED:
        return max_size
    _deprecated_threshold(name)
    if not isinstance(max_size, _DefaultSize):
        raise ValueError(
            f"Both deprecated parameter `{name}` and new parameter `max_size` are used. "
            "Use only the latter to avoid conflicting values."
        )
    return old


def _deprecated_threshold(name: str) -> None:
    _warnings.warn(
        f"Parameter `{name}` is deprecated since version 0.26.0 and will be removed in "
        "2.0.0 (or later). To avoid this warning, please use the parameter `max_size` "
        "instead. Note that the new threshold removes objects smaller than **or equal to** "
        "its value, while the previous parameter only removed smaller ones.",
        FutureWarning,
        stacklevel=3,
    )


def _connectivity(connectivity: _Any, ndim: int) -> int:
    """scikit-image's connectivity (1 .. ndim) as 4 or 8. Below 1 it is 1, as
    ``scipy.ndimage.generate_binary_structure`` (which scikit-image calls) takes it."""
    try:
        c = int(connectivity)
    except (TypeError, ValueError):
        raise TypeError(f"connectivity: expected an integer, got {connectivity!r}") from None
    return 8 if (c >= 2 and ndim == 2) else 4


def _small_objects(ar: _np.ndarray, too_small, connectivity: int, out: _np.ndarray) -> _np.ndarray:
    """Clears in ``out`` the components of ``ar`` whose size ``too_small`` says."""
    if ar.dtype == bool:
        if ar.ndim not in (1, 2):
            raise ValueError(
                f"ar: gridbits works on 1D and 2D images, got {ar.ndim} dimensions "
                "(use skimage.morphology for others)"
            )
        conn = _connectivity(connectivity, ar.ndim)
        a2 = ar.reshape(1, -1) if ar.ndim == 1 else ar
        if a2.size == 0:
            return out
        s = _label_stats(a2, conn)
        sizes = _np.zeros(s.n + 1, dtype=_np.int64)
        sizes[1:] = s.areas
        # The background's "size", as scikit-image counts it through bincount.
        sizes[0] = a2.size - int(s.areas.sum())
        remove = too_small(sizes)
        remove[0] = False
        out[remove[s.labels].reshape(ar.shape)] = 0
        return out
    ccs = out
    try:
        sizes = _np.bincount(ccs.ravel())
    except ValueError:
        raise ValueError(
            "Negative value labels are not supported. Try relabeling the input with "
            "`scipy.ndimage.label` or `skimage.morphology.label`."
        ) from None
    if len(sizes) == 2:
        _warnings.warn(
            "Only one label was provided to `remove_small_objects`. "
            "Did you mean to use a boolean array?",
            UserWarning,
            stacklevel=3,
        )
    out[too_small(sizes)[ccs]] = 0
    return out


def remove_small_objects(
    ar: _Any,
    min_size: _Any = _DEPRECATED,
    connectivity: int = 1,
    *,
    max_size: int = _MAX_SIZE,
    out: _Optional[_np.ndarray] = None,
) -> _np.ndarray:
    """Remove the connected components of ``max_size`` pixels or fewer, as
    ``skimage.morphology.remove_small_objects`` (0.26): a ``bool`` image is labelled
    (``connectivity`` 1: 4-connected, 2: 8-connected); an integer image is taken as labels.
    The deprecated ``min_size`` warns (``FutureWarning``) and stands for ``max_size``, as
    in scikit-image 0.26. Returns ``out`` (a copy of ``ar`` by default).

    >>> import numpy as np
    >>> from gridbits.morphology import remove_small_objects
    >>> a = np.array([[1, 1, 0, 0, 1],
    ...               [1, 1, 0, 0, 0]], dtype=bool)
    >>> remove_small_objects(a, max_size=1).astype(int)
    array([[1, 1, 0, 0, 0],
           [1, 1, 0, 0, 0]])
    """
    max_size = _threshold("min_size", min_size, max_size)
    ar = _np.asarray(ar)
    _check_dtype_supported(ar)
    if out is None:
        out = ar.copy()
    else:
        out[:] = ar
    if max_size == 0:
        return out

    def too_small(sizes):
        return sizes <= max_size

    return _small_objects(ar if out.dtype == bool else out, too_small, connectivity, out)


def remove_small_holes(
    ar: _Any,
    area_threshold: _Any = _DEPRECATED,
    connectivity: int = 1,
    *,
    max_size: int = _MAX_SIZE,
    out: _Optional[_np.ndarray] = None,
) -> _np.ndarray:
    """Fill the holes (connected components of unset pixels, those touching the edge
    included) of ``max_size`` pixels or fewer, as ``skimage.morphology.remove_small_holes``
    (0.26); the deprecated ``area_threshold`` warns and stands for ``max_size``. Returns a
    ``bool`` array (``out`` if given, which must be ``bool``).

    >>> import numpy as np
    >>> from gridbits.morphology import remove_small_holes
    >>> a = np.array([[1, 1, 1, 1, 1, 0],
    ...               [1, 1, 1, 0, 1, 0],
    ...               [1, 0, 0, 1, 1, 0],
    ...               [1, 1, 1, 1, 1, 0]], bool)
    >>> remove_small_holes(a, max_size=1).astype(int)
    array([[1, 1, 1, 1, 1, 0],
           [1, 1, 1, 1, 1, 0],
           [1, 0, 0, 1, 1, 0],
           [1, 1, 1, 1, 1, 0]])
    """
    max_size = _threshold("area_threshold", area_threshold, max_size)
    ar = _np.asarray(ar)
    _check_dtype_supported(ar)
    if ar.dtype != bool:
        _warnings.warn(
            "_Any labeled images will be returned as a boolean array. "
            "Did you mean to use a boolean array?",
            UserWarning,
            stacklevel=2,
        )
    if out is not None:
        if out.dtype != bool:
            raise TypeError("out dtype must be bool")
    else:
        out = ar.astype(bool, copy=True)
    _np.logical_not(ar, out=out)
    out = remove_small_objects(out, max_size=max_size, connectivity=connectivity, out=out)
    _np.logical_not(out, out=out)
    return out
