"""Shared argument handling of the binary morphology drop-ins (:mod:`gridbits.ndimage` and
:mod:`gridbits.morphology`): images, structures, origins, masks and outputs as scipy.ndimage
reads them, and the calls into the native module.

The native functions take a 2D ``uint8`` image, a C-contiguous ``uint8`` footprint and its
centre ``(row, col)``; a 1D image is one row and a 1D structure one row of footprint.
"""

from __future__ import annotations

import operator
from typing import Any, Optional, Tuple

import numpy as np

from . import _gridbits
from ._checks import as_mask

__all__ = [
    "Prepared",
    "cross",
    "deliver",
    "fused",
    "in_place",
    "STEPS",
    "image",
    "mask",
    "quick",
    "structure",
    "center",
    "check_axes",
    "run",
]

_CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=np.uint8)
_CROSS.flags.writeable = False

#: The dtypes whose bytes the native functions read as they are (nonzero: set).
_BYTES = (np.dtype(np.bool_), np.dtype(np.uint8), np.dtype(np.int8))


class Prepared:
    """An input as the native module takes it: the 2D ``uint8`` view, the caller's shape
    and number of dimensions."""

    __slots__ = ("a", "shape", "ndim")

    def __init__(self, a: np.ndarray, shape: Tuple[int, ...], ndim: int) -> None:
        self.a = a
        self.shape = shape
        self.ndim = ndim


def image(value: Any, name: str = "input", peer: str = "scipy.ndimage") -> Prepared:
    """``value`` as a 1D or 2D image of bool or numbers (nonzero: set)."""
    try:
        a = np.asarray(value)
    except ValueError as e:  # a ragged list
        raise ValueError(f"{name}: {e}") from None
    if np.iscomplexobj(a):
        raise TypeError(f"{name}: complex type not supported")
    if a.dtype.kind not in "biuf":
        raise TypeError(f"{name}: expected an array of bool or numbers, got dtype {a.dtype}")
    if a.ndim not in (1, 2):
        raise ValueError(
            f"{name}: gridbits works on 1D and 2D images, got {a.ndim} dimensions "
            f"(use {peer} for others)"
        )
    a2 = a.reshape(1, -1) if a.ndim == 1 else a
    return Prepared(as_mask(a2, name), a.shape, a.ndim)


def cross(ndim: int) -> np.ndarray:
    """scipy's default structure, ``generate_binary_structure(ndim, 1)``, as a 2D footprint."""
    return _CROSS.copy() if ndim == 2 else np.ones((1, 3), dtype=np.uint8)


def structure(value: Any, ndim: int, name: str = "structure") -> np.ndarray:
    """A structure as scipy reads it (nonzero: set), as a C-contiguous 2D ``uint8``
    footprint; scipy's errors for the wrong rank and an empty one."""
    if value is None:
        return cross(ndim)
    s = np.asarray(value)
    if np.iscomplexobj(s) or s.dtype.kind not in "biuf":
        raise TypeError(f"{name}: expected an array of bool or numbers, got dtype {s.dtype}")
    if s.ndim != ndim:
        raise RuntimeError(
            f"{name}: structure and input must have same dimensionality "
            f"({s.ndim} and {ndim})"
        )
    if s.size < 1:
        raise RuntimeError(f"{name}: structure must not be empty")
    s = np.ascontiguousarray(s != 0, dtype=np.uint8)
    return s.reshape(1, -1) if ndim == 1 else s


def center(origin: Any, fp: np.ndarray, ndim: int, name: str = "origin") -> Tuple[int, int]:
    """The footprint's centre ``(row, col)`` for scipy's ``origin`` (a number or one per
    axis): ``size // 2 + origin`` along each axis, origins limited to scipy's valid range
    ``-(size // 2) ..= (size - 1) // 2``."""
    if np.ndim(origin) == 0:
        origins = [origin] * ndim
    else:
        origins = list(origin)
        if len(origins) != ndim:
            raise RuntimeError(
                f"{name}: sequence argument must have length equal to input rank ({ndim})"
            )
    try:
        origins = [operator.index(o) for o in origins]
    except TypeError:
        raise TypeError(f"{name}: expected integers, got {origin!r}") from None
    sizes = fp.shape if ndim == 2 else fp.shape[1:]
    for o, n in zip(origins, sizes):
        if o < -(n // 2) or o > (n - 1) // 2:
            raise ValueError(
                f"{name}: invalid origin {o} for a structure of size {n} "
                f"(valid: {-(n // 2)} to {(n - 1) // 2})"
            )
    if ndim == 1:
        return 0, fp.shape[1] // 2 + origins[0]
    return fp.shape[0] // 2 + origins[0], fp.shape[1] // 2 + origins[1]


def check_axes(axes: Any, ndim: int) -> None:
    """gridbits works on every axis: ``axes`` may be ``None`` or all axes in order."""
    if axes is None:
        return
    try:
        given = [operator.index(a) for a in (axes if np.ndim(axes) else [axes])]
    except TypeError:
        raise TypeError(f"axes: expected integers, got {axes!r}") from None
    norm = [a % ndim if -ndim <= a < ndim else None for a in given]
    if norm != list(range(ndim)):
        raise ValueError(
            f"axes: gridbits works over all axes in order ({tuple(range(ndim))}), "
            f"not {axes!r}; use scipy.ndimage for a subset of axes"
        )


def mask(value: Any, img: Prepared, name: str = "mask") -> Optional[np.ndarray]:
    """An optional mask of the input's shape (scipy's RuntimeError otherwise)."""
    if value is None:
        return None
    m = np.asarray(value)
    if m.shape != img.shape:
        raise RuntimeError(
            f"{name}: mask and input must have equal sizes ({m.shape} and {img.shape})"
        )
    if np.iscomplexobj(m) or m.dtype.kind not in "biuf":
        raise TypeError(f"{name}: expected an array of bool or numbers, got dtype {m.dtype}")
    return as_mask(m.reshape(img.a.shape), name)


def iterations(value: Any) -> int:
    """``iterations`` as an integer (below 1: until stable)."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"iterations: expected an integer, got {value!r}") from None


def run(func: str, img: Prepared, *args: Any) -> np.ndarray:
    """Calls native ``func(img, *args)`` and returns a ``bool`` array of the caller's
    shape; an empty image gives an empty result without a call."""
    if img.a.size == 0:
        return np.zeros(img.shape, dtype=bool)
    out = getattr(_gridbits, func)(img.a, *args)
    return out.view(bool).reshape(img.shape)


#: The steps of each native function for the fused path: ``(erode, border)`` pairs, the
#: border filled in by :func:`fused`'s caller.
STEPS = {
    "binary_erosion": (True,),
    "binary_dilation": (False,),
    "binary_opening": (True, False),
    "binary_closing": (False, True),
}


def quick(steps: Tuple[Tuple[bool, bool], ...], value: Any, fp: Any) -> Optional[np.ndarray]:
    """The fused path for the common call, with no conversion: ``value`` a non-empty 2D
    C-contiguous ``bool`` / 8-bit integer array and ``fp`` ``None`` (the cross) or such an
    array, centred (origin 0), the result a new ``bool`` array. ``None`` for any other call,
    which takes the general path (same checks, same result)."""
    if type(value) is not np.ndarray or value.ndim != 2 or value.dtype not in _BYTES:
        return None
    if not value.flags.c_contiguous or value.size == 0:
        return None
    if fp is None:
        fp = _CROSS
    elif (
        type(fp) is not np.ndarray
        or fp.ndim != 2
        or fp.dtype not in _BYTES
        or not fp.flags.c_contiguous
        or fp.size == 0
    ):
        return None
    out = np.empty(value.shape, dtype=bool)
    u8 = np.uint8
    c = (fp.shape[0] // 2, fp.shape[1] // 2)
    _gridbits.binary_morph_into(value.view(u8), fp.view(u8), c, steps, out.view(u8), 1)
    return out


def in_place(output: Any, img: Prepared) -> bool:
    """Whether ``output`` can take the result as it is: a C-contiguous ``bool`` or 8-bit
    integer array of the input's shape that shares no memory with the input."""
    return (
        isinstance(output, np.ndarray)
        and output.shape == img.shape
        and output.dtype in (np.bool_, np.uint8, np.int8)
        and output.flags.c_contiguous
        and output.flags.writeable
        and not np.may_share_memory(output, img.a)
    )


def fused(
    steps: Tuple[Tuple[bool, bool], ...],
    img: Prepared,
    fp: np.ndarray,
    c: Tuple[int, int],
    output: Any = None,
    returns: bool = True,
) -> Optional[np.ndarray]:
    """Runs ``steps`` (``(erode, border)`` pairs: one repetition each, no mask) on ``img``
    through the fused native path, written straight into a new ``bool`` array or into
    ``output`` when it can take the bytes as they are (else as :func:`deliver` does)."""
    if in_place(output, img):
        out = output
    else:
        out = np.empty(img.shape, dtype=bool)
    if img.a.size:
        view = out.view(np.uint8).reshape(img.a.shape)
        _gridbits.binary_morph_into(img.a, fp, c, list(steps), view, 1)
    if out is output:
        return output if returns else None
    return deliver(out, output, returns)


# The output dtypes scipy.ndimage's binary functions write (its C code's types).
_OUTPUT_KINDS = frozenset(
    np.dtype(t)
    for t in (
        np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
        np.int64, np.uint64, np.float32, np.float64,
    )
)


def check_output(output: np.ndarray, name: str = "output") -> None:
    """scipy's refusals of an output array's dtype: ``TypeError`` for complex, as scipy
    says it, ``RuntimeError`` for the other types its C code does not write (object,
    float16, strings)."""
    if output.dtype.kind == "c":
        raise TypeError(f"{name}: Complex output type not supported")
    if output.dtype.newbyteorder("=") not in _OUTPUT_KINDS:
        raise RuntimeError(f"{name}: data type not supported ({output.dtype})")


def border(value: Any) -> bool:
    """scipy's ``border_value``: an integer (``operator.index``; a float, ``None`` or a
    string is a ``TypeError``, as in scipy), nonzero meaning set."""
    try:
        return operator.index(value) != 0
    except TypeError:
        raise TypeError(
            f"border_value: expected an integer, got {type(value).__name__}"
        ) from None


def deliver(result: np.ndarray, output: Any, returns: bool = True) -> Optional[np.ndarray]:
    """scipy's ``output``: ``None`` (the result), an array of the input's shape (written,
    and returned when ``returns``) or a dtype (a ``bool`` array, as scipy returns)."""
    if output is None:
        return result
    if isinstance(output, np.ndarray):
        if output.shape != result.shape:
            raise RuntimeError(
                f"output: output shape not correct ({output.shape}, expected {result.shape})"
            )
        check_output(output)
        np.copyto(output, result, casting="unsafe")
        return output if returns else None
    try:
        np.dtype(output)
    except TypeError:
        raise TypeError(
            f"output: expected None, a dtype or an array, got {type(output).__name__}"
        ) from None
    return result
