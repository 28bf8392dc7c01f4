"""Argument checks and conversions shared by the public functions.

Every public function accepts 2D arrays of bool or any integer or float dtype (nonzero is
set), in C or Fortran order or as strided views; the native code wants ``uint8`` rows that
are contiguous. These helpers convert with as few copies as possible and raise
``TypeError`` / ``ValueError`` naming the argument.
"""

from __future__ import annotations

import operator

import numpy as np

from . import _gridbits

__all__ = [
    "as_array2d",
    "as_mask",
    "cell",
    "cells_mask",
    "code_batch",
    "connectivity",
    "moves",
    "same_shape",
]

_CONNECTIVITIES = (4, 8)


def as_array2d(value, name: str) -> np.ndarray:
    """``value`` as a 2D numpy array of a numeric or bool dtype, or a clear error."""
    try:
        a = np.asarray(value)
    except Exception as e:  # ragged lists and the like
        raise ValueError(f"{name}: not an array ({e})") from None
    if a.dtype == object or a.dtype.kind not in "biufc":
        raise TypeError(
            f"{name}: expected an array of bool or numbers, got dtype {a.dtype}"
        )
    if a.ndim != 2:
        raise ValueError(f"{name}: expected a 2D array, got {a.ndim} dimensions")
    return a


def as_mask(value, name: str) -> np.ndarray:
    """A 2D ``uint8`` array, nonzero where ``value`` is nonzero, with contiguous rows.

    ``bool`` and 8-bit integer arrays are viewed, not copied, when their rows are
    contiguous (any row stride); other layouts and dtypes cost one pass.
    """
    a = as_array2d(value, name)
    if a.dtype.kind == "b" or a.dtype in (np.uint8, np.int8):
        m = a.view(np.uint8)
    else:
        m = np.not_equal(a, 0).view(np.uint8)
    if m.size and (m.strides[1] != 1 or (m.shape[0] > 1 and m.strides[0] < m.shape[1])):
        m = np.ascontiguousarray(m)
    return m


def is_int(v) -> bool:
    """A Python or numpy integer, not a ``bool``: what an integer argument takes (``True``
    is not 1 there, ``1.0`` is not an integer)."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def connectivity(c, name: str = "connectivity") -> int:
    """4 or 8."""
    if isinstance(c, (list, tuple)) or (isinstance(c, np.ndarray) and c.ndim > 0):
        # Most likely a scipy structure passed where the connectivity goes.
        try:
            what = f"an array of shape {np.shape(c)}"
        except ValueError:  # ragged
            what = f"a {type(c).__name__}"
        raise ValueError(
            f"{name} must be 4 or 8, not {what} "
            "(for scipy's structure argument, use gridbits.ndimage.label)"
        )
    if not isinstance(c, bool):
        try:
            operator.index(c)
        except TypeError:
            # 8.0 would compare equal to 8: a float is refused, as every integer argument.
            raise TypeError(f"{name} must be the integer 4 or 8, not {c!r}") from None
    if isinstance(c, bool) or c not in _CONNECTIVITIES:
        raise ValueError(f"{name} must be 4 or 8, not {c!r}")
    return int(c)


def moves(m) -> str:
    """A move kind, as the library's parser reads it (any case): "4" (or "four"), "8" (or
    "eight", "king"), "rook", "bishop", "queen"; the integers 4 and 8 too. Returns the
    canonical name; ``ValueError`` naming ``moves`` for any other."""
    return _gridbits.parse_moves(str(m))


def _off_grid(name: str, row, col, shape: tuple) -> ValueError:
    """The error of a cell ``(row, col)`` given in ``name`` off a grid of ``shape``."""
    return ValueError(f"{name}: ({row}, {col}) is off the {shape[0]}x{shape[1]} grid")


def cell(value, shape: tuple, name: str) -> tuple:
    """One cell: a ``(row, col)`` pair of integers on a grid of ``shape``."""
    try:
        pair = tuple(value)
        if not all(is_int(v) for v in pair):
            raise TypeError  # True is not row 1, 1.0 not an integer
        row, col = (operator.index(v) for v in pair)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected a (row, col) pair of integers, got {value!r}") from None
    if not (0 <= row < shape[0] and 0 <= col < shape[1]):
        raise _off_grid(name, row, col, shape)
    return row, col


def cells_mask(value, shape: tuple, name: str) -> np.ndarray:
    """A ``uint8`` mask of ``shape`` from either a numpy array of that shape (any dtype,
    nonzero set) or ``(row, col)`` pairs: a list or tuple of pairs, or a ``(K, 2)`` integer
    array whose shape is not the grid's. Pairs off the grid are an error."""
    if isinstance(value, np.ndarray) and value.shape == shape:
        return as_mask(value, name)
    if isinstance(value, np.ndarray) and value.ndim == 2 and value.shape[1] != 2:
        raise ValueError(f"{name}: shape {value.shape} does not match the grid's {shape}")
    try:
        pts = np.asarray(value)
        if pts.dtype.kind == "f" and not isinstance(value, np.ndarray):
            # Mixed integer types numpy promotes to float (uint64 with a signed integer):
            # each element is checked as an integer below.
            pts = np.asarray(value, dtype=object)
    except (TypeError, ValueError):
        pts = None
    if pts is not None and pts.ndim == 0:
        raise TypeError(
            f"{name}: expected a mask of shape {shape} or (row, col) pairs of integers, "
            f"got {value!r}"
        )
    if pts is None or pts.dtype.kind not in "iuO" and pts.size:
        what = f"{pts.dtype} values" if pts is not None else "something else"
        raise TypeError(
            f"{name}: expected a mask of shape {shape} or (row, col) pairs of integers, "
            f"got {what}"
        ) from None
    if pts.size == 0:
        return np.zeros(shape, dtype=np.uint8)
    if pts.ndim == 1 and pts.shape[0] == 2:
        pts = pts.reshape(1, 2)
    if pts.ndim != 2 or pts.shape[1] != 2:
        raise ValueError(f"{name}: expected (row, col) pairs, got shape {pts.shape}")
    if pts.dtype.kind == "O":
        # Python integers past 64 bits (or anything else): off every grid, or not integers.
        for r, c in pts:
            try:
                r, c = operator.index(r), operator.index(c)
            except TypeError:
                raise TypeError(
                    f"{name}: expected (row, col) pairs of integers, got {(r, c)!r}"
                ) from None
            if not (0 <= r < shape[0] and 0 <= c < shape[1]):
                raise _off_grid(name, r, c, shape)
        pts = pts.astype(np.int64)
    rows, cols = pts[:, 0], pts[:, 1]
    bad = (rows < 0) | (rows >= shape[0]) | (cols < 0) | (cols >= shape[1])
    if bad.any():
        r, c = pts[np.argmax(bad)]
        raise _off_grid(name, int(r), int(c), shape)
    out = np.zeros(shape, dtype=np.uint8)
    out[rows, cols] = 1
    return out


def code_batch(
    value, name: str, batch: bool, max_code: int, meaning: str, native_check: bool = False
) -> np.ndarray:
    """A C-ordered ``uint8`` batch ``(N, rows, cols)`` of game codes ``0..=max_code`` from one
    board (``batch=False``, 2D) or a batch (3D); ``meaning`` explains the codes in errors.
    ``native_check``: the native function checks the codes of a ``uint8`` array itself (it
    reads them anyway), so they are not scanned here."""
    a = np.asarray(value)
    if a.dtype == object or a.dtype.kind not in "iub":
        raise TypeError(f"{name}: expected an integer array, got dtype {a.dtype}")
    want = 3 if batch else 2
    if a.ndim != want:
        raise ValueError(f"{name}: expected {want} dimensions, got {a.ndim}")
    if native_check and a.dtype == np.uint8:
        return np.ascontiguousarray(a) if batch else np.ascontiguousarray(a)[None]
    if a.size and (a.min() < 0 or a.max() > max_code):
        raise ValueError(f"{name}: codes must be {meaning}")
    a = np.ascontiguousarray(a, dtype=np.uint8)
    return a if batch else a[None]


def same_shape(a: np.ndarray, b: np.ndarray, name_a: str, name_b: str) -> None:
    """ValueError unless both arrays have one shape."""
    if a.shape != b.shape:
        raise ValueError(f"{name_b}: shape {b.shape} does not match {name_a}'s {a.shape}")
