"""``scipy.ndimage.label`` and the binary morphology of ``scipy.ndimage``
(``binary_erosion``, ``binary_dilation``, ``binary_opening``, ``binary_closing``,
``binary_propagation``, ``binary_hit_or_miss``, ``binary_fill_holes``) with scipy's own
signatures and defaults, on gridbits.

Swap the import and nothing else changes, the default structure included (scipy's default,
like this module's, is 4-connected; :func:`gridbits.label` defaults to 8)::

    from gridbits.ndimage import label     # was: from scipy.ndimage import label
    from gridbits.ndimage import binary_opening

The morphology functions give exactly scipy's arrays, borders included, for 1D and 2D
images, any structure (asymmetric and even-sized ones too) and origin within scipy's valid
range ``-(size // 2) .. (size - 1) // 2`` (scipy accepts some origins past it for erosion
and fails on others; gridbits raises ``ValueError``). ``axes`` may only name every axis in
order; ``brute_force`` is accepted and ignored (the result is the same).

The labels are exactly scipy's: 0 for the background, ``1..n`` in raster order of each
component's first pixel. Images are 2D (or 1D, labelled as one row); the structure is one of
the 2D structures that define a connectivity on a grid, scipy's default cross (4) or the
full 3x3 square (8), as ``generate_binary_structure(2, 1)`` and ``(2, 2)`` make them, or the
centre alone (every pixel a component of its own). As in scipy, the centre element does not
matter: a pixel is always connected to itself.

One difference in numbering: given an ``output`` array in Fortran order or with a negative
stride, scipy numbers the components in an order of its own (which depends on the
structure); gridbits always numbers them in raster order. The components and their count
are the same.

>>> import numpy as np
>>> from gridbits.ndimage import label
>>> img = np.array([[1, 0, 1],
...                 [0, 1, 0]])
>>> label(img)
(array([[1, 0, 2],
       [0, 3, 0]], dtype=int32), 3)
>>> label(img, structure=np.ones((3, 3)))[1]
1

Like scipy, an ``output`` array is written in place and only the count is returned:

>>> out = np.zeros((2, 3), dtype=np.int64)
>>> label(img, output=out)
3
>>> out
array([[1, 0, 2],
       [0, 3, 0]])
"""

from typing import Any as _Any, Optional as _Optional

import numpy as _np

from . import _morph
from ._distance_transform import distance_transform_cdt, distance_transform_edt
from ._find_objects import find_objects
from ._grid import label as _label

__all__ = [
    "label",
    "binary_erosion",
    "binary_dilation",
    "binary_opening",
    "binary_closing",
    "binary_propagation",
    "binary_hit_or_miss",
    "binary_fill_holes",
    "distance_transform_cdt",
    "distance_transform_edt",
    "find_objects",
]

_CROSS = _np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)


def label(input, structure=None, output=None):
    """Label the connected components of ``input``: ``scipy.ndimage.label`` with the same
    arguments, defaults and results.

    ``structure`` (default the 4-connected cross) may be the cross, the full 3x3 square or
    the centre alone, as any array whose nonzero elements form one of them, the centre
    element being ignored as scipy ignores it (for a 1D input, a 3-element line: ``[1, 1,
    1]`` joins neighbours, ``[0, 1, 0]`` does not). ``output`` may be ``None`` (an ``int32``
    array is returned with the count), a dtype (an array of that dtype is returned with the
    count) or an array of the input's shape, written in place (only the count is returned).
    A ``bool`` output, as in scipy, holds up to 254 labels, as ``True`` where a pixel is set.

    Raises, as scipy does, ``RuntimeError`` for a structure of the wrong rank and when the
    output type cannot hold the labels, and ``ValueError`` for a structure whose dimensions
    are not 3. Raises ``ValueError`` for an input of more than 2 dimensions, a structure
    pattern gridbits does not support (use scipy for those), or an output of the wrong
    shape; ``TypeError`` for a complex or non-numeric input.

    >>> import numpy as np
    >>> from gridbits.ndimage import label
    >>> label(np.array([1, 1, 0, 1]))
    (array([1, 1, 0, 2], dtype=int32), 2)
    """
    try:
        a = _np.asarray(input)
    except ValueError as e:  # a ragged list
        raise ValueError(f"input: {e}") from None
    if _np.iscomplexobj(a):
        raise TypeError("input: complex type not supported")
    if a.dtype.kind not in "biuf":
        raise TypeError(f"input: expected an array of bool or numbers, got dtype {a.dtype}")
    if a.ndim not in (1, 2):
        raise ValueError(
            f"input: gridbits labels 1D and 2D images, got {a.ndim} dimensions "
            "(use scipy.ndimage.label for others)"
        )
    conn = _connectivity(structure, a.ndim)
    if conn == 0:
        # The centre alone: every pixel is a component of its own, in raster order.
        set_ = a != 0
        labels = _np.cumsum(set_, dtype=_np.int64).reshape(a.shape).astype(_np.int32)
        labels[~set_] = 0
        n = int(_np.count_nonzero(set_))
    elif a.ndim == 1:
        labels, n = _label(a.reshape(1, -1), 4)
        labels = labels.reshape(a.shape)
    else:
        labels, n = _label(a, conn)
    return _deliver(labels, n, output, a.shape)


def _connectivity(structure, ndim: int) -> int:
    """4 or 8 for the cross and the square (for 1D, 4 when neighbours join), 0 for the
    centre alone."""
    if structure is None:
        return 4
    s = _np.asarray(structure)
    # scipy's errors: RuntimeError for the rank, ValueError for the size.
    if s.ndim != ndim:
        raise RuntimeError(
            f"structure: must have the input's number of dimensions ({ndim}), not {s.ndim}"
        )
    if any(d != 3 for d in s.shape):
        raise ValueError(f"structure: dimensions must be equal to 3, not shape {s.shape}")
    s = s.astype(bool)
    # A pixel is always connected to itself: scipy ignores the centre.
    s[(1,) * ndim] = True
    if s.sum() == 1:
        return 0
    if ndim == 1:
        if s.all():
            return 4
        raise ValueError(
            "structure: for a 1D input gridbits supports [1, 1, 1] (neighbours join) and "
            f"[0, 1, 0] (they do not), not {s.astype(int).tolist()}"
        )
    if _np.array_equal(s, _CROSS):
        return 4
    if s.all():
        return 8
    raise ValueError(
        "structure: gridbits supports the 4-connected cross, the full 3x3 square "
        "(scipy.ndimage.generate_binary_structure(2, 1) and (2, 2)) and the centre alone, "
        f"not {s.astype(int).tolist()}"
    )


def _deliver(labels: _np.ndarray, n: int, output, shape):
    """scipy's three kinds of ``output``."""
    if output is None:
        return labels, n
    if isinstance(output, _np.ndarray):
        if output.shape != shape:
            raise ValueError(f"output: shape {output.shape} does not match the input's {shape}")
        _check_depth(output.dtype, n)
        _np.copyto(output, labels, casting="unsafe")
        return n
    try:
        dtype = _np.dtype(output)
    except TypeError:
        raise TypeError(f"output: expected None, a dtype or an array, got {type(output).__name__}") from None
    _check_depth(dtype, n)
    return labels.astype(dtype), n


def _check_depth(dtype: _np.dtype, n: int) -> None:
    """scipy's error when the labels do not fit the output type: integers up to their
    maximum, floats up to the largest integer they hold exactly, bool up to 254 labels."""
    if dtype.kind not in "biuf":
        raise TypeError(f"output: expected an integer, float or bool type, got {dtype}")
    if dtype.kind == "b":
        # scipy writes the labels as bytes (nonzero: True) and refuses 255 labels or more.
        fits = n <= 254
    elif dtype.kind == "f":
        fits = n <= 2 ** (_np.finfo(dtype).nmant + 1)
    else:
        fits = n <= _np.iinfo(dtype).max
    if not fits:
        raise RuntimeError("insufficient bit-depth in requested output type")


def _morph_call(func, input, structure, iterations, mask, output, border_value, origin, axes):
    """The shared body of erosion, dilation, opening and closing."""
    if (
        output is None
        and mask is None
        and axes is None
        and type(iterations) is int
        and iterations == 1
        and type(origin) is int
        and origin == 0
    ):
        border = _morph.border(border_value)
        r = _morph.quick(tuple((e, border) for e in _morph.STEPS[func]), input, structure)
        if r is not None:
            return r
    img = _morph.image(input)
    _morph.check_axes(axes, img.ndim)
    fp = _morph.structure(structure, img.ndim)
    c = _morph.center(origin, fp, img.ndim)
    m = _morph.mask(mask, img)
    n = _morph.iterations(iterations)
    border = _morph.border(border_value)
    if n == 1 and m is None:
        steps = tuple((erode, border) for erode in _morph.STEPS[func])
        return _morph.fused(steps, img, fp, c, output)
    r = _morph.run(func, img, fp, c, border, n, m)
    return _morph.deliver(r, output)


def binary_erosion(
    input: _Any,
    structure: _Any = None,
    iterations: int = 1,
    mask: _Any = None,
    output: _Any = None,
    border_value: _Any = 0,
    origin: _Any = 0,
    brute_force: bool = False,
    *,
    axes: _Any = None,
) -> _Optional[_np.ndarray]:
    """Binary erosion: ``scipy.ndimage.binary_erosion`` with the same arguments and results.

    A pixel stays set when every element of ``structure`` (default: the cross), centred at
    ``size // 2 + origin``, lands on a set pixel; pixels off the image count as
    ``border_value`` (default 0: the image erodes from its edges). ``iterations`` repeats
    the erosion (below 1: until nothing changes); with ``mask`` only the pixels set in it
    change. ``output`` may be an array (written and returned) or a dtype (ignored, as scipy
    does: the result is ``bool``).

    >>> import numpy as np
    >>> from gridbits.ndimage import binary_erosion
    >>> a = np.zeros((5, 5), dtype=int); a[1:4, 1:4] = 1
    >>> binary_erosion(a).astype(int)
    array([[0, 0, 0, 0, 0],
           [0, 0, 0, 0, 0],
           [0, 0, 1, 0, 0],
           [0, 0, 0, 0, 0],
           [0, 0, 0, 0, 0]])
    >>> binary_erosion(np.ones((2, 3)), border_value=1).all()
    np.True_
    """
    return _morph_call(
        "binary_erosion", input, structure, iterations, mask, output, border_value, origin, axes
    )


def binary_dilation(
    input: _Any,
    structure: _Any = None,
    iterations: int = 1,
    mask: _Any = None,
    output: _Any = None,
    border_value: _Any = 0,
    origin: _Any = 0,
    brute_force: bool = False,
    *,
    axes: _Any = None,
) -> _Optional[_np.ndarray]:
    """Binary dilation: ``scipy.ndimage.binary_dilation`` with the same arguments and
    results.

    Each set pixel stamps ``structure`` (default: the cross) with its element ``size // 2 +
    origin`` on the pixel (the structure is reflected, as in scipy); pixels off the image
    count as ``border_value``. ``iterations`` (below 1: until nothing changes), ``mask``
    and ``output`` as in :func:`binary_erosion`.

    >>> import numpy as np
    >>> from gridbits.ndimage import binary_dilation
    >>> a = np.zeros((3, 5), dtype=bool); a[1, 2] = True
    >>> binary_dilation(a).astype(int)
    array([[0, 0, 1, 0, 0],
           [0, 1, 1, 1, 0],
           [0, 0, 1, 0, 0]])
    >>> binary_dilation(a, structure=[[1, 1]]).astype(int)[1]
    array([0, 1, 1, 0, 0])
    """
    return _morph_call(
        "binary_dilation", input, structure, iterations, mask, output, border_value, origin, axes
    )


def binary_opening(
    input: _Any,
    structure: _Any = None,
    iterations: int = 1,
    output: _Any = None,
    origin: _Any = 0,
    mask: _Any = None,
    border_value: _Any = 0,
    brute_force: bool = False,
    *,
    axes: _Any = None,
) -> _Optional[_np.ndarray]:
    """Binary opening: ``scipy.ndimage.binary_opening`` with the same arguments and
    results: ``iterations`` erosions, then as many dilations, by the same structure, with
    the same ``mask``, ``border_value`` and ``origin``.

    >>> import numpy as np
    >>> from gridbits.ndimage import binary_opening
    >>> a = np.zeros((5, 6), dtype=int); a[1:4, 1:4] = 1; a[0, 5] = 1
    >>> binary_opening(a, structure=np.ones((3, 3))).astype(int)
    array([[0, 0, 0, 0, 0, 0],
           [0, 1, 1, 1, 0, 0],
           [0, 1, 1, 1, 0, 0],
           [0, 1, 1, 1, 0, 0],
           [0, 0, 0, 0, 0, 0]])
    """
    return _morph_call(
        "binary_opening", input, structure, iterations, mask, output, border_value, origin, axes
    )


def binary_closing(
    input: _Any,
    structure: _Any = None,
    iterations: int = 1,
    output: _Any = None,
    origin: _Any = 0,
    mask: _Any = None,
    border_value: _Any = 0,
    brute_force: bool = False,
    *,
    axes: _Any = None,
) -> _Optional[_np.ndarray]:
    """Binary closing: ``scipy.ndimage.binary_closing`` with the same arguments and
    results: ``iterations`` dilations, then as many erosions. As in scipy, with the default
    ``border_value=0`` the erosion eats in from the edges, so a closing can clear pixels
    near them.

    >>> import numpy as np
    >>> from gridbits.ndimage import binary_closing
    >>> a = np.zeros((5, 5), dtype=int); a[1:4, 1:4] = 1; a[2, 2] = 0
    >>> binary_closing(a).astype(int)[2]
    array([0, 1, 1, 1, 0])
    """
    return _morph_call(
        "binary_closing", input, structure, iterations, mask, output, border_value, origin, axes
    )


def binary_propagation(
    input: _Any,
    structure: _Any = None,
    mask: _Any = None,
    output: _Any = None,
    border_value: _Any = 0,
    origin: _Any = 0,
    *,
    axes: _Any = None,
) -> _Optional[_np.ndarray]:
    """Propagation (reconstruction by dilation): ``scipy.ndimage.binary_propagation`` with
    the same arguments and results, dilation of ``input`` repeated until stable inside
    ``mask``. The cross and the 3x3 square run as one flood fill.

    >>> import numpy as np
    >>> from gridbits.ndimage import binary_propagation
    >>> mask = np.array([[1, 1, 0, 1],
    ...                  [0, 1, 0, 1]])
    >>> seed = np.array([[1, 0, 0, 0],
    ...                  [0, 0, 0, 0]])
    >>> binary_propagation(seed, mask=mask).astype(int)
    array([[1, 1, 0, 0],
           [0, 1, 0, 0]])
    """
    img = _morph.image(input)
    _morph.check_axes(axes, img.ndim)
    fp = _morph.structure(structure, img.ndim)
    c = _morph.center(origin, fp, img.ndim)
    m = _morph.mask(mask, img)
    r = _morph.run("binary_propagation", img, fp, c, _morph.border(border_value), m)
    return _morph.deliver(r, output)


def binary_hit_or_miss(
    input: _Any,
    structure1: _Any = None,
    structure2: _Any = None,
    output: _Any = None,
    origin1: _Any = 0,
    origin2: _Any = None,
    *,
    axes: _Any = None,
) -> _Optional[_np.ndarray]:
    """Hit-or-miss: ``scipy.ndimage.binary_hit_or_miss`` with the same arguments and
    results: the pixels where ``structure1`` (default: the cross) fits set pixels and
    ``structure2`` (default: its complement) fits unset ones, pixels off the image being
    unset. Given an ``output`` array, it is written and ``None`` returned, as in scipy.

    >>> import numpy as np
    >>> from gridbits.ndimage import binary_hit_or_miss
    >>> a = np.array([[0, 0, 0, 0],
    ...               [0, 1, 0, 1],
    ...               [0, 0, 0, 1]])
    >>> iso = np.ones((3, 3)); iso[1, 1] = 0
    >>> binary_hit_or_miss(a, [[0, 0, 0], [0, 1, 0], [0, 0, 0]], iso).astype(int)
    array([[0, 0, 0, 0],
           [0, 1, 0, 0],
           [0, 0, 0, 0]])
    """
    img = _morph.image(input)
    _morph.check_axes(axes, img.ndim)
    s1 = _morph.structure(structure1, img.ndim, "structure1")
    if structure2 is None:
        s2 = (s1 == 0).astype(_np.uint8)
    else:
        s2 = _morph.structure(structure2, img.ndim, "structure2")
    c1 = _morph.center(origin1, s1, img.ndim, "origin1")
    c2 = _morph.center(origin1 if origin2 is None else origin2, s2, img.ndim, "origin2")
    r = _morph.run("binary_hit_or_miss", img, s1, c1, s2, c2)
    return _morph.deliver(r, output, returns=False)


def binary_fill_holes(
    input: _Any,
    structure: _Any = None,
    output: _Any = None,
    origin: _Any = 0,
    *,
    axes: _Any = None,
) -> _Optional[_np.ndarray]:
    """Hole filling: ``scipy.ndimage.binary_fill_holes`` with the same arguments and
    results: the unset pixels that the structure's steps (default: the cross) cannot reach
    from outside the image through unset pixels are set. Given an ``output`` array, it is
    written and ``None`` returned, as in scipy.

    >>> import numpy as np
    >>> from gridbits.ndimage import binary_fill_holes
    >>> a = np.array([[1, 1, 1, 0],
    ...               [1, 0, 1, 0],
    ...               [1, 1, 1, 0]])
    >>> binary_fill_holes(a).astype(int)
    array([[1, 1, 1, 0],
           [1, 1, 1, 0],
           [1, 1, 1, 0]])
    """
    img = _morph.image(input)
    _morph.check_axes(axes, img.ndim)
    fp = _morph.structure(structure, img.ndim)
    c = _morph.center(origin, fp, img.ndim)
    r = _morph.run("binary_fill_holes", img, fp, c)
    return _morph.deliver(r, output, returns=False)
