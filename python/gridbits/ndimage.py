"""``scipy.ndimage.label`` with scipy's own signature and defaults, on gridbits.

Swap the import and nothing else changes, the default structure included (scipy's default,
like this module's, is 4-connected; :func:`gridbits.label` defaults to 8)::

    from gridbits.ndimage import label     # was: from scipy.ndimage import label

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

import numpy as _np

from ._find_objects import find_objects
from ._grid import label as _label

__all__ = ["find_objects", "label"]

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
