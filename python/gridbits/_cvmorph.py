"""OpenCV's morphology (``cv2.erode``, ``cv2.dilate``, ``cv2.morphologyEx``,
``cv2.getStructuringElement``) with OpenCV's signatures, defaults and outputs, on two-valued
images; re-exported by :mod:`gridbits.opencv`.

gridbits is binary: the source holds at most two distinct values (``lo`` and ``hi``: 0/1,
0/255 or any pair) and every result is computed on bits, then written back in the source's
dtype with OpenCV's values. Minimum and maximum filters keep the image two-valued; the
differences (``MORPH_GRADIENT``, ``MORPH_TOPHAT``, ``MORPH_BLACKHAT``) give 0 and ``hi - lo``
(OpenCV's saturating subtraction); ``MORPH_HITMISS`` ANDs the bytes as OpenCV does.

The common call (a C-contiguous ``uint8`` image of 0 and ``hi``, the default border, a
kernel symmetric about its anchor) runs the fused native path of
:mod:`gridbits.ndimage` and writes ``hi`` straight into the result: no conversion pass.
"""

from __future__ import annotations

import operator
import sys
import threading
from typing import Any, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from . import _gridbits

__all__ = [
    "BORDER_CONSTANT",
    "BORDER_DEFAULT",
    "BORDER_ISOLATED",
    "BORDER_REFLECT",
    "BORDER_REFLECT101",
    "BORDER_REFLECT_101",
    "BORDER_REPLICATE",
    "BORDER_TRANSPARENT",
    "BORDER_WRAP",
    "MORPH_BLACKHAT",
    "MORPH_CLOSE",
    "MORPH_CROSS",
    "MORPH_DIAMOND",
    "MORPH_DILATE",
    "MORPH_ELLIPSE",
    "MORPH_ERODE",
    "MORPH_GRADIENT",
    "MORPH_HITMISS",
    "MORPH_OPEN",
    "MORPH_RECT",
    "MORPH_TOPHAT",
    "dilate",
    "erode",
    "getStructuringElement",
    "morphologyDefaultBorderValue",
    "morphologyEx",
]

#: Operations, OpenCV's values.
MORPH_ERODE = 0
MORPH_DILATE = 1
MORPH_OPEN = 2
MORPH_CLOSE = 3
MORPH_GRADIENT = 4
MORPH_TOPHAT = 5
MORPH_BLACKHAT = 6
MORPH_HITMISS = 7
#: Structuring element shapes, OpenCV's values.
MORPH_RECT = 0
MORPH_CROSS = 1
MORPH_ELLIPSE = 2
MORPH_DIAMOND = 3
#: Border types, OpenCV's values (morphology takes CONSTANT, REPLICATE, REFLECT and
#: REFLECT_101, each with or without ISOLATED; WRAP and TRANSPARENT are refused, as OpenCV
#: refuses them).
BORDER_CONSTANT = 0
BORDER_REPLICATE = 1
BORDER_REFLECT = 2
BORDER_WRAP = 3
BORDER_REFLECT_101 = 4
BORDER_REFLECT101 = 4
BORDER_DEFAULT = 4
BORDER_TRANSPARENT = 5
BORDER_ISOLATED = 16

_DBL_MAX = sys.float_info.max
_DEFAULT_BORDER = (_DBL_MAX, _DBL_MAX, _DBL_MAX, _DBL_MAX)
_OPS = {
    MORPH_ERODE: "MORPH_ERODE",
    MORPH_DILATE: "MORPH_DILATE",
    MORPH_OPEN: "MORPH_OPEN",
    MORPH_CLOSE: "MORPH_CLOSE",
    MORPH_GRADIENT: "MORPH_GRADIENT",
    MORPH_TOPHAT: "MORPH_TOPHAT",
    MORPH_BLACKHAT: "MORPH_BLACKHAT",
    MORPH_HITMISS: "MORPH_HITMISS",
}
_BORDERS = {
    BORDER_CONSTANT: "BORDER_CONSTANT",
    BORDER_REPLICATE: "BORDER_REPLICATE",
    BORDER_REFLECT: "BORDER_REFLECT",
    BORDER_REFLECT_101: "BORDER_REFLECT_101",
}
#: The dtypes OpenCV's morphology takes, and bool (gridbits' extension).
_DTYPES = tuple(
    np.dtype(t) for t in (np.uint8, np.uint16, np.int16, np.float32, np.float64, np.bool_)
)
_INT_MAX = 2**31 - 1


def morphologyDefaultBorderValue() -> Tuple[float, float, float, float]:
    """``cv2.morphologyDefaultBorderValue()``: the border value that has no effect (the
    type's maximum for an erosion, its minimum for a dilation).

    >>> from gridbits.opencv import morphologyDefaultBorderValue
    >>> morphologyDefaultBorderValue()[0] > 1e308
    True
    """
    return _DEFAULT_BORDER


def _int(value: Any, name: str) -> int:
    """An integer argument as OpenCV's bindings read it (bool refused), or ``TypeError``."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: expected an integer, not bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{name}: expected an integer, got {value!r}") from None
    if not -(2**31) <= v <= _INT_MAX:
        raise ValueError(f"{name}: {v} does not fit a C int")
    return v


def _pair(value: Any, name: str) -> Tuple[int, int]:
    """A point or size ``(x, y)`` / ``(width, height)``: a sequence of two integers."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise TypeError(f"{name}: expected a sequence of two integers (x, y), got {value!r}")
    if len(value) != 2:
        raise ValueError(f"{name}: expected a sequence of two integers, got {len(value)} values")
    return _int(value[0], name), _int(value[1], name)


def _anchor(anchor: Any, width: int, height: int) -> Tuple[int, int]:
    """OpenCV's ``normalizeAnchor``: -1 on an axis is the kernel's middle; the anchor
    ``(x, y)`` must lie in the kernel."""
    ax, ay = _pair(anchor, "anchor")
    ax = width // 2 if ax == -1 else ax
    ay = height // 2 if ay == -1 else ay
    if not (0 <= ax < width and 0 <= ay < height):
        raise ValueError(
            f"anchor: {tuple(anchor)!r} lies outside the {width}x{height} kernel "
            "(an anchor is (x, y) in the kernel, or -1 for its middle)"
        )
    return ax, ay


def getStructuringElement(
    shape: int, ksize: Sequence[int], anchor: Sequence[int] = (-1, -1)
) -> np.ndarray:
    """``cv2.getStructuringElement``: a ``uint8`` kernel of ``ksize = (width, height)``,
    1 in the shape: ``MORPH_RECT``, ``MORPH_CROSS`` (its arms through ``anchor``),
    ``MORPH_ELLIPSE`` (OpenCV's rounding) or ``MORPH_DIAMOND``.

    >>> from gridbits.opencv import getStructuringElement, MORPH_ELLIPSE, MORPH_CROSS
    >>> getStructuringElement(MORPH_ELLIPSE, (5, 5))
    array([[0, 0, 1, 0, 0],
           [1, 1, 1, 1, 1],
           [1, 1, 1, 1, 1],
           [1, 1, 1, 1, 1],
           [0, 0, 1, 0, 0]], dtype=uint8)
    >>> getStructuringElement(MORPH_CROSS, (3, 2), anchor=(0, 0))
    array([[1, 1, 1],
           [1, 0, 0]], dtype=uint8)
    """
    shape = _int(shape, "shape")
    if shape not in (MORPH_RECT, MORPH_CROSS, MORPH_ELLIPSE, MORPH_DIAMOND):
        raise ValueError(
            f"shape must be MORPH_RECT (0), MORPH_CROSS (1), MORPH_ELLIPSE (2) or "
            f"MORPH_DIAMOND (3), not {shape!r}"
        )
    w, h = _pair(ksize, "ksize")
    if w < 1 or h < 1:
        raise ValueError(f"ksize: width and height must be positive, got {(w, h)!r}")
    ax, ay = _anchor(anchor, w, h)
    if (w, h) == (1, 1):
        shape = MORPH_RECT
    elem = np.zeros((h, w), dtype=np.uint8)
    if shape == MORPH_RECT:
        elem[:] = 1
        return elem
    if shape == MORPH_CROSS:
        elem[ay, :] = 1
        elem[:, ax] = 1
        return elem
    r, c = h // 2, w // 2
    inv_r2 = 1.0 / (r * r) if r else 0.0
    for i in range(h):
        dy = i - r
        if abs(dy) > r:
            continue
        if shape == MORPH_ELLIPSE:
            # OpenCV: saturate_cast<int>(c * sqrt((r*r - dy*dy) * inv_r2)), rounding half even.
            dx = int(np.rint(c * np.sqrt((r * r - dy * dy) * inv_r2)))
        else:
            dx = r - abs(dy)
        elem[i, max(c - dx, 0) : min(c + dx + 1, w)] = 1
    return elem


# ---------------------------------------------------------------------------------------
# Arguments.


class _Src:
    """The source: its 2D array (the shape OpenCV returns) and its one or two values."""

    __slots__ = ("a", "values")

    def __init__(self, a: np.ndarray, values: List[Any]) -> None:
        self.a = a
        self.values = values


def _source(src: Any) -> _Src:
    """``src`` as OpenCV reads it (a 1D array is one row, an ``(H, W, 1)`` array one
    channel), with its one or two values; a third value, NaN, an unknown dtype, several
    channels or an empty image raise."""
    try:
        a = np.asarray(src)
    except ValueError as e:
        raise ValueError(f"src: not an array ({e})") from None
    if a.dtype not in _DTYPES:
        raise TypeError(
            f"src: dtype {a.dtype} is not one OpenCV's morphology takes (uint8, uint16, "
            "int16, float32, float64; gridbits also takes bool)"
        )
    if a.ndim == 1:
        a = a.reshape(1, -1)
    elif a.ndim == 3 and a.shape[2] == 1:
        a = a[:, :, 0]
    elif a.ndim == 3:
        raise ValueError(
            f"src: {a.shape[2]} channels; gridbits takes one-channel images "
            "(call it on each channel, or use cv2)"
        )
    if a.ndim != 2:
        raise ValueError(f"src: expected a 2D image, got {a.ndim} dimensions")
    if a.size == 0:
        raise ValueError(f"src: the image is empty ({a.shape}); OpenCV refuses it too")
    if a.dtype == np.uint8:
        first, olo, ohi = _gridbits.cv_byte_values(a)
        if olo > ohi:
            return _Src(a, [a.dtype.type(first)])
        if olo == ohi:
            return _Src(a, sorted([a.dtype.type(first), a.dtype.type(olo)]))
        lo, hi = a.dtype.type(min(first, olo)), a.dtype.type(max(first, olo))
        third = a.dtype.type(ohi if olo in (lo, hi) else olo)
        raise _third(third, lo, hi)
    lo, hi = a.min(), a.max()
    if a.dtype.kind == "f" and (np.isnan(lo) or np.isnan(hi)):
        raise ValueError("src: holds NaN; gridbits takes two-valued images (use cv2)")
    if lo == hi:
        return _Src(a, [lo])
    if a.dtype != np.bool_ and not _two_valued(a, lo, hi):
        raise _third(a[(a != lo) & (a != hi)].flat[0], lo, hi)
    return _Src(a, [lo, hi])


def _third(third: Any, lo: Any, hi: Any) -> ValueError:
    """The error for a source of three values or more."""
    return ValueError(
        f"src: holds a third value {third.item()!r} besides {lo.item()!r} and {hi.item()!r}; "
        "gridbits' morphology is binary (two-valued images), use cv2 for grey levels"
    )


def _two_valued(a: np.ndarray, lo: Any, hi: Any) -> bool:
    """Whether every value of ``a`` is ``lo`` or ``hi``."""
    return np.count_nonzero(a == hi) + np.count_nonzero(a == lo) == a.size


def _kernel(kernel: Any, name: str = "kernel") -> Optional[np.ndarray]:
    """A kernel as a 2D array (``None`` or an empty array: OpenCV's default)."""
    if kernel is None:
        return None
    k = np.asarray(kernel)
    if k.dtype == object or k.dtype.kind not in "biuf":
        raise TypeError(f"{name}: expected an array of bool or numbers, got dtype {k.dtype}")
    if k.size == 0:
        return None
    if k.ndim != 2:
        raise ValueError(f"{name}: expected a 2D array, got {k.ndim} dimensions")
    if k.dtype.kind == "f" and np.isnan(k).any():
        raise ValueError(f"{name}: holds NaN")
    return k


def _border_type(border_type: Any) -> int:
    """The border type without ``BORDER_ISOLATED`` (which changes nothing on a numpy
    array: it has no parent image); the types OpenCV's morphology refuses raise."""
    b = _int(border_type, "borderType")
    base = b & ~BORDER_ISOLATED if b >= 0 else b
    if base not in _BORDERS or b not in (base, base | BORDER_ISOLATED):
        raise ValueError(
            f"borderType: {b!r} is not one OpenCV's morphology takes (BORDER_CONSTANT, "
            "BORDER_REPLICATE, BORDER_REFLECT, BORDER_REFLECT_101, optionally | "
            "BORDER_ISOLATED; BORDER_WRAP and BORDER_TRANSPARENT are refused by OpenCV too)"
        )
    return base


def _border_value(value: Any, dtype: np.dtype) -> Optional[Any]:
    """An explicit ``borderValue`` (its first channel) cast as OpenCV casts it to the
    image's type (rounded half to even and saturated for integers, a value beyond the C
    int range read as its minimum, as OpenCV's ``cvRound`` does), ``None`` for the
    default."""
    sequence = isinstance(value, (tuple, list, np.ndarray))
    if sequence:
        vals = list(np.asarray(value, dtype=object).ravel())
        if not 1 <= len(vals) <= 4:
            raise ValueError(f"borderValue: expected 1 to 4 numbers, got {len(vals)}")
    else:
        vals = [value]
    try:
        nums = [float(v) for v in vals]
    except (TypeError, ValueError):
        raise TypeError(f"borderValue: expected numbers, got {value!r}") from None
    # OpenCV's binding: a sequence of DBL_MAX (any length) is the default; a number is
    # (value, 0, 0, 0), never the default.
    if sequence and all(v == _DBL_MAX for v in nums):
        return None
    b = nums[0]
    if np.isnan(b):
        raise ValueError("borderValue: NaN")
    if dtype == np.bool_:  # as a uint8 image of 0 and 1 reads it, then nonzero
        return np.bool_(_border_value(value, np.dtype(np.uint8)) != 0)
    if dtype.kind in "iu":
        # OpenCV's saturate_cast from double: cvRound (half to even), which gives INT_MIN
        # beyond the int range (x86's cvtsd2si), then saturation to the type.
        r = np.rint(b)
        r = r if -(2.0**31) <= r <= _INT_MAX else -(2.0**31)
        info = np.iinfo(dtype)
        return dtype.type(min(max(r, info.min), info.max))
    with np.errstate(over="ignore"):
        return dtype.type(b)


def _type_max(dtype: np.dtype) -> Any:
    """OpenCV's default border of an erosion: the type's maximum."""
    if dtype == np.bool_:
        return np.bool_(True)
    if dtype.kind == "f":
        return dtype.type(np.finfo(dtype).max)
    return dtype.type(np.iinfo(dtype).max)


def _type_min(dtype: np.dtype) -> Any:
    """OpenCV's default border of a dilation: 0 for unsigned types, else the minimum."""
    if dtype == np.bool_:
        return np.bool_(False)
    if dtype.kind == "f":
        return dtype.type(-np.finfo(dtype).max)
    return dtype.type(np.iinfo(dtype).min)


def _into(dst: Any, value: np.ndarray) -> np.ndarray:
    """OpenCV's ``dst``: an array of the result's shape and dtype, writeable, is written
    and returned; any other is left alone and a new array returned."""
    if (
        isinstance(dst, np.ndarray)
        and dst.shape == value.shape
        and dst.dtype == value.dtype
        and dst.flags.writeable
    ):
        if dst is not value:
            np.copyto(dst, value)
        return dst
    return value


# ---------------------------------------------------------------------------------------
# Steps on bits.

_SCRATCH = threading.local()
#: The largest scratch image kept between calls (bytes).
_SCRATCH_KEPT = 64 << 20


def _scratch(shape: Tuple[int, int]) -> np.ndarray:
    """A ``uint8`` array of ``shape`` for a difference's second image, kept per thread
    between calls: a fresh image-sized array each call costs its page faults (a 2048x2048
    gradient took 3.2 ms with one, 0.8 ms without)."""
    n = shape[0] * shape[1]
    if n > _SCRATCH_KEPT:
        return np.empty(shape, dtype=np.uint8)
    buf = getattr(_SCRATCH, "buf", None)
    if buf is None or buf.size < n:
        buf = np.empty(n, dtype=np.uint8)
        _SCRATCH.buf = buf
    return buf[:n].reshape(shape)


def _rect(
    h: int, w: int, ay: int, ax: int, shape: Tuple[int, int]
) -> Tuple[np.ndarray, int, int]:
    """OpenCV's full ``h`` x ``w`` rectangle anchored at ``(ay, ax)``, its reach cut to
    twice the image's size on each side (``fp, ay, ax``): the same result for every border
    (an offset beyond the image's size reads the constant border for every pixel, and a
    replicated or reflected border repeats within twice the size), without a kernel of
    ``iterations`` squared cells for a large ``iterations``."""
    rows, cols = 2 * shape[0], 2 * shape[1]
    top, bottom = min(ay, rows), min(h - 1 - ay, rows)
    left, right = min(ax, cols), min(w - 1 - ax, cols)
    return np.ones((top + bottom + 1, left + right + 1), dtype=np.uint8), top, left


class _Plan:
    """One erosion or dilation as OpenCV runs it: the footprint (``uint8``, C-contiguous),
    the anchor ``(x, y)``, the repetitions and the border (a mode, or ``None`` for a
    constant border)."""

    __slots__ = ("fp", "ax", "ay", "times", "mode", "identity")

    def __init__(
        self,
        kernel: Optional[np.ndarray],
        anchor: Any,
        iterations: int,
        mode: int,
        ex: bool,
        shape: Tuple[int, int],
    ) -> None:
        """OpenCV's ``morphOp`` preparation for an image of ``shape``; ``ex``: called by
        ``morphologyEx`` (which turns no kernel into a 3x3 rectangle before, not the
        ``1 + 2 * iterations`` one)."""
        if kernel is None and ex:
            kernel = np.ones((3, 3), dtype=np.uint8)
        if kernel is None:
            kw = kh = 3
        else:
            kh, kw = kernel.shape
        ax, ay = _anchor(anchor, kw, kh)
        self.mode = mode
        self.identity = iterations == 0 or (kernel is not None and kernel.size == 1)
        if self.identity:
            self.fp, self.ax, self.ay, self.times = np.ones((1, 1), np.uint8), 0, 0, 0
            return
        if kernel is None:
            if iterations < 0:
                raise ValueError(
                    f"iterations: {iterations} with the default kernel (OpenCV refuses it too)"
                )
            n = 1 + 2 * iterations
            fp, ay, ax = _rect(n, n, iterations, iterations, shape)
            iterations = 1
        else:
            fp = np.ascontiguousarray(kernel != 0, dtype=np.uint8)
            if not fp.any():
                raise ValueError(
                    "kernel: no nonzero element (OpenCV's result is undefined there: it "
                    "shifts the image)"
                )
            if iterations > 1 and fp.all():
                h = kh + (iterations - 1) * (kh - 1)
                w = kw + (iterations - 1) * (kw - 1)
                fp, ay, ax = _rect(h, w, ay * iterations, ax * iterations, shape)
                iterations = 1
        self.fp, self.ax, self.ay = fp, ax, ay
        self.times = max(iterations, 1)

    def symmetric(self) -> bool:
        """Whether the footprint is its own reflection about the anchor (a dilation by it
        is scipy's, the native one)."""
        h, w = self.fp.shape
        return 2 * self.ax == w - 1 and 2 * self.ay == h - 1 and bool(
            np.array_equal(self.fp, self.fp[::-1, ::-1])
        )

    def native(self, erode: bool) -> Tuple[np.ndarray, Tuple[int, int]]:
        """The footprint and centre ``(row, col)`` the native step takes: OpenCV's dilation
        does not reflect the kernel, scipy's (the native one) does."""
        if erode:
            return self.fp, (self.ay, self.ax)
        h, w = self.fp.shape
        return np.ascontiguousarray(self.fp[::-1, ::-1]), (h - 1 - self.ay, w - 1 - self.ax)

    def reach_full(self, shape: Tuple[int, int]) -> bool:
        """Whether every pixel's window holds a cell of the image (else OpenCV writes the
        border value there)."""
        if self.identity or self.fp[self.ay, self.ax]:
            return True
        ones = np.ones(shape, dtype=np.uint8)
        return bool(_run(ones, [(self, False, False)]).all())


def _border_index(n: int, before: int, after: int, mode: int) -> np.ndarray:
    """OpenCV's ``borderInterpolate`` for the positions ``-before .. n + after - 1``."""
    p = np.arange(-before, n + after)
    if mode == BORDER_REPLICATE:
        return np.clip(p, 0, n - 1)
    if n == 1:
        return np.zeros_like(p)
    delta = 1 if mode == BORDER_REFLECT_101 else 0
    while True:
        low, high = p < 0, p >= n
        if not (low.any() or high.any()):
            return p
        p = np.where(low, -p - 1 + delta, np.where(high, n - 1 - (p - n) - delta, p))


#: Repetitions per native call: a long run of them (``iterations=10**6``) is made in
#: calls of this many, never as one list of steps.
_CHUNK = 256


def _chunks(segments: List[Tuple[bool, bool, int]]) -> Iterator[List[Tuple[bool, bool]]]:
    """The steps of ``segments`` (``(erode, border, count)``) in lists of ``_CHUNK`` at
    most."""
    chunk: List[Tuple[bool, bool]] = []
    for erode, border, count in segments:
        while count:
            take = min(count, _CHUNK - len(chunk))
            chunk.extend([(erode, border)] * take)
            count -= take
            if len(chunk) == _CHUNK:
                yield chunk
                chunk = []
    if chunk:
        yield chunk


def _run(
    m: np.ndarray,
    steps: List[Tuple[_Plan, bool, bool]],
    out: Optional[np.ndarray] = None,
    set_value: int = 1,
) -> np.ndarray:
    """Runs ``steps`` (``(plan, erode, border)``: ``plan.times`` erosions or OpenCV
    dilations, off-image cells reading ``border`` or the plan's border mode) on the bits
    ``m`` (2D ``uint8``, nonzero: set, contiguous rows); the result as ``uint8`` 0 and
    ``set_value``, in ``out`` when given."""
    if out is None:
        out = np.empty(m.shape, dtype=np.uint8)
    steps = [s for s in steps if not s[0].identity]
    if not steps:
        np.copyto(out, np.where(m != 0, np.uint8(set_value), np.uint8(0)))
        return out
    # Consecutive steps of one plan with a constant border and a symmetric footprint run
    # as one native call (_CHUNK repetitions at most a call); the others one call per plan
    # (or per repetition, with a mode).
    calls: List[Tuple[_Plan, List[Tuple[bool, bool, int]], bool]] = []
    for plan, erode, border in steps:
        segment = (erode, border, plan.times)
        if (
            calls
            and calls[-1][0] is plan
            and plan.mode == BORDER_CONSTANT
            and plan.symmetric()
        ):
            calls[-1][1].append(segment)
        else:
            calls.append((plan, [segment], erode))
    cur = m
    for i, (plan, segments, erode) in enumerate(calls):
        last = i == len(calls) - 1
        target = out if last else np.empty(m.shape, dtype=np.uint8)
        value = set_value if last else 1
        fp, c = plan.native(erode)
        if plan.mode == BORDER_CONSTANT:
            calls_left = -(-sum(n for _, _, n in segments) // _CHUNK)
            for j, chunk in enumerate(_chunks(segments)):
                done = j == calls_left - 1
                into = target if done else np.empty(m.shape, dtype=np.uint8)
                _gridbits.binary_morph_into(cur, fp, c, chunk, into, value if done else 1)
                cur = into
        else:
            native = [segments[0][:2]]
            h, w = plan.fp.shape
            rows = _border_index(cur.shape[0], plan.ay, h - 1 - plan.ay, plan.mode)
            cols = _border_index(cur.shape[1], plan.ax, w - 1 - plan.ax, plan.mode)
            inner = (slice(plan.ay, plan.ay + cur.shape[0]), slice(plan.ax, plan.ax + cur.shape[1]))
            times = segments[0][2]
            for k in range(times):
                padded = np.ascontiguousarray(cur[rows][:, cols])
                res = np.empty(padded.shape, dtype=np.uint8)
                v = value if k == times - 1 else 1
                _gridbits.binary_morph_into(padded, fp, c, native, res, v)
                cur = res[inner]
            np.copyto(target, cur)
        cur = target
    return out


# ---------------------------------------------------------------------------------------
# Values.


class _Binary:
    """A two-valued source on bits: ``lo`` and ``hi`` (equal for a one-valued image after
    the borders), the bits (``hi``: set) and each step kind's border as a bit."""

    __slots__ = ("src", "lo", "hi", "erode_border", "dilate_border")

    def __init__(self, src: _Src, plan: _Plan, border: Optional[Any], erodes: bool, dilates: bool):
        a = src.a
        dtype = a.dtype
        values = list(src.values)
        be = _type_max(dtype) if border is None else border
        bd = _type_min(dtype) if border is None else border
        constant = plan.mode == BORDER_CONSTANT
        full: List[bool] = []

        def reached() -> bool:
            if not full:
                full.append(plan.reach_full(a.shape))
            return full[0]

        # A constant border's value shows where it is below the image's maximum
        # (erosion) or above its minimum (dilation), and where a window misses the image.
        for _ in range(2):  # a value taken in may make the other step's border count
            if constant and erodes and be not in values and (be < max(values) or not reached()):
                values.append(be)
            if constant and dilates and bd not in values and (bd > min(values) or not reached()):
                values.append(bd)
            values = sorted(set(values))
        if len(values) > 2:
            raise ValueError(
                f"borderValue: the border's value would add a third value to the image's "
                f"{[v.item() for v in src.values]} (values {[v.item() for v in values]}; "
                "gridbits' morphology is binary): use one of the image's values, or cv2"
            )
        self.src = src
        self.lo, self.hi = dtype.type(values[0]), dtype.type(values[-1])
        self.erode_border = bool(be >= self.hi)
        self.dilate_border = bool(bd > self.lo)

    def bits(self) -> np.ndarray:
        """The set cells (``hi``) as a 2D ``uint8`` array with contiguous rows."""
        a = self.src.a
        if a.dtype in (np.uint8, np.bool_) and self.lo == 0 and self.lo != self.hi:
            m = a.view(np.uint8)
            if m.strides[1] != 1 or (m.shape[0] > 1 and m.strides[0] < m.shape[1]):
                m = np.ascontiguousarray(m)
            return m
        return np.equal(a, self.hi, order="C").view(np.uint8)

    def direct(self, dst: Any) -> Optional[np.ndarray]:
        """The array the native code can write ``lo``/``hi`` into as they are (``uint8`` or
        ``bool`` with ``lo == 0``): ``dst`` when it fits, else a new one; ``None`` when the
        values need mapping."""
        a = self.src.a
        if a.dtype not in (np.uint8, np.bool_) or self.lo != 0:
            return None
        if (
            isinstance(dst, np.ndarray)
            and dst.shape == a.shape
            and dst.dtype == a.dtype
            and dst.flags.writeable
            and dst.flags.c_contiguous
            and not np.may_share_memory(dst, a)
        ):
            return dst
        return np.empty(a.shape, dtype=a.dtype)

    def values(self, bits: np.ndarray) -> np.ndarray:
        """``hi`` where ``bits`` is set, else ``lo``, in the source's dtype."""
        table = np.array([self.lo, self.hi], dtype=self.src.a.dtype)
        return table[bits.astype(bool, copy=False).view(np.uint8)]

    def difference(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """OpenCV's ``a - b`` of the values of two bit images (saturated for integers)."""
        dtype = self.src.a.dtype
        table = np.zeros(4, dtype=dtype)
        vals = (self.lo, self.hi)
        for i in range(2):
            for j in range(2):
                table[2 * i + j] = _subtract(vals[i], vals[j], dtype)
        idx = np.left_shift(a.astype(bool, copy=False).view(np.uint8), 1)
        idx |= b.astype(bool, copy=False).view(np.uint8)
        return table[idx]


def _subtract(x: Any, y: Any, dtype: np.dtype) -> Any:
    """``x - y`` as OpenCV's arithmetic gives it in ``dtype`` (saturated for integers,
    ``x and not y`` for bool)."""
    if dtype == np.bool_:
        return np.bool_(bool(x) and not bool(y))
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return dtype.type(min(max(int(x) - int(y), info.min), info.max))
    return dtype.type(dtype.type(x) - dtype.type(y))


def _checked(
    src: Any, kernel: Any, iterations: Any, borderType: Any
) -> Tuple[_Src, Optional[np.ndarray], int, int]:
    """The common checks: source, kernel, anchor, iterations, border type."""
    s = _source(src)
    k = _kernel(kernel)
    it = _int(iterations, "iterations")
    mode = _border_type(borderType)
    return s, k, it, mode


def _morph_op(
    op: int, src: Any, kernel: Any, dst: Any, anchor: Any, iterations: Any,
    borderType: Any, borderValue: Any, ex: bool,
) -> np.ndarray:
    """``op`` (erode, dilate, open, close, gradient, top-hat, black-hat) as OpenCV runs it."""
    s, k, it, mode = _checked(src, kernel, iterations, borderType)
    border = _border_value(borderValue, s.a.dtype)
    plan = _Plan(k, anchor, it, mode, ex, s.a.shape)
    erodes = op != MORPH_DILATE
    dilates = op != MORPH_ERODE
    b = _Binary(s, plan, border, erodes, dilates)
    E = (plan, True, b.erode_border)
    D = (plan, False, b.dilate_border)
    bits = b.bits()
    if op in (MORPH_ERODE, MORPH_DILATE, MORPH_OPEN, MORPH_CLOSE):
        steps = {
            MORPH_ERODE: [E],
            MORPH_DILATE: [D],
            MORPH_OPEN: [E, D],
            MORPH_CLOSE: [D, E],
        }[op]
        out = b.direct(dst)
        if out is not None:
            _run(bits, steps, out.view(np.uint8), int(b.hi))
            return _into(dst, out)
        return _into(dst, b.values(_run(bits, steps)))
    out = b.direct(dst)
    if out is not None and _ordered(op, plan, b):
        # The first image holds the second: their difference is ``first`` without
        # ``second``, no saturation, written as ``hi`` by the native steps.
        fast = {
            MORPH_GRADIENT: ([D], [E]),
            MORPH_TOPHAT: (None, [E, D]),
            MORPH_BLACKHAT: ([D, E], None),
        }[op]
        tmp = _scratch(bits.shape)
        hi = int(b.hi)
        if fast[0] is None:
            first = b.src.a.view(np.uint8)
            _run(bits, fast[1], tmp, hi)
            np.subtract(first, tmp, out=out.view(np.uint8))
        elif fast[1] is None:
            _run(bits, fast[0], out.view(np.uint8), hi)
            np.subtract(out.view(np.uint8), b.src.a.view(np.uint8), out=out.view(np.uint8))
        else:
            _run(bits, fast[0], out.view(np.uint8), hi)
            _run(bits, fast[1], tmp, hi)
            np.subtract(out.view(np.uint8), tmp, out=out.view(np.uint8))
        return _into(dst, out)
    if op == MORPH_GRADIENT:
        first, second = _run(bits, [D]), _run(bits, [E])
    elif op == MORPH_TOPHAT:
        first, second = bits, _run(bits, [E, D])
    else:  # MORPH_BLACKHAT
        first, second = _run(bits, [D, E]), bits
    return _into(dst, b.difference(first, second))


def _ordered(op: int, plan: _Plan, b: "_Binary") -> bool:
    """Whether the difference ``op`` takes holds no negative cell: a dilation holds the
    image and an erosion lies in it when the kernel holds its anchor; an opening lies in
    it (a closing holds it) when the kernel is its own reflection and the border is
    constant with no effect on the dilation (the erosion). Only with two values (a
    one-valued image gives zeros by the general path)."""
    if b.lo == b.hi or plan.identity:
        return plan.identity and b.lo != b.hi
    if op == MORPH_GRADIENT:
        return bool(plan.fp[plan.ay, plan.ax])
    no_effect = not b.dilate_border if op == MORPH_TOPHAT else b.erode_border
    return plan.mode == BORDER_CONSTANT and no_effect and plan.symmetric()


def _hitmiss(src: Any, kernel: Any, dst: Any, rest: Tuple[Any, Any, Any, Any]) -> np.ndarray:
    """``MORPH_HITMISS`` as OpenCV runs it: ``erode(src, kernel == 1) &
    erode(~src, kernel == -1)`` on the bytes; ``rest``: ``anchor, iterations, borderType,
    borderValue``."""
    anchor, iterations, borderType, borderValue = rest
    s, k, it, mode = _checked(src, kernel, iterations, borderType)
    if s.a.dtype not in (np.uint8, np.bool_):
        raise TypeError(
            f"src: MORPH_HITMISS takes uint8 images (OpenCV's rule; gridbits also takes "
            f"bool), not {s.a.dtype}"
        )
    if k is None:
        k = np.ones((3, 3), dtype=np.uint8)
    if not np.any(k != 0):
        return _into(dst, s.a.copy())
    is_bool = s.a.dtype == np.bool_
    a = s.a.view(np.uint8) * np.uint8(255) if is_bool else s.a
    border = _border_value(borderValue, np.dtype(np.uint8))
    if is_bool and border is not None:
        border = np.uint8(255) if _border_value(borderValue, np.dtype(np.bool_)) else np.uint8(0)
    parts = []
    for part, image in ((k == 1, a), (k == -1, np.invert(a))):
        if not part.any():
            parts.append((None, np.uint8(255), np.uint8(255)))
            continue
        img = _Src(image, sorted({v for v in (image.min(), image.max())}))
        plan = _Plan(part.astype(np.uint8), anchor, it, mode, False, a.shape)
        b = _Binary(img, plan, border, True, False)
        parts.append((_run(b.bits(), [(plan, True, b.erode_border)]), b.lo, b.hi))
    table = np.zeros(4, dtype=np.uint8)
    for i in range(2):
        for j in range(2):
            table[2 * i + j] = parts[0][1 + i] & parts[1][1 + j]
    idx = np.zeros(a.shape, dtype=np.uint8)
    for shift, (bits, lo, hi) in zip((1, 0), parts):
        if bits is not None:
            idx |= np.left_shift(bits.astype(bool).view(np.uint8), shift)
    out = table[idx]
    if is_bool:
        out = out != 0
    return _into(dst, out)


_ONES3 = np.ones((3, 3), dtype=np.uint8)
_ONES3.flags.writeable = False
_QUICK_STEPS = {
    MORPH_ERODE: [(True, True)],
    MORPH_DILATE: [(False, False)],
    MORPH_OPEN: [(True, True), (False, False)],
    MORPH_CLOSE: [(False, False), (True, True)],
}


def _quick(
    op: int,
    src: Any,
    kernel: Any,
    dst: Any,
    anchor: Any,
    iterations: Any,
    borderType: Any,
    borderValue: Any,
) -> Optional[np.ndarray]:
    """The commonest call with few checks: a 2D C-contiguous ``uint8`` image of 0 and
    ``hi``, a C-contiguous ``uint8`` kernel (or ``None``) holding its middle cell, odd and
    symmetric but for an erosion, the default anchor, border and ``dst``, one iteration;
    one native call writing ``hi`` (two and a subtraction for the gradient), which checks
    the image's values while it packs them (the image is read once). ``None`` for any
    other call, and for an image with another value or no nonzero one (the native
    result is dropped): those take the general path (same checks, same result, OpenCV's
    errors)."""
    if (
        type(src) is not np.ndarray
        or src.dtype != np.uint8
        or src.ndim != 2
        or not src.flags.c_contiguous
        or src.size == 0
        or dst is not None
        or borderValue is not _DEFAULT_BORDER
        or type(iterations) is not int
        or iterations != 1
        or type(borderType) is not int
        or borderType & ~BORDER_ISOLATED != BORDER_CONSTANT
        or type(anchor) is not tuple
        or anchor != (-1, -1)
    ):
        return None
    if kernel is None:
        fp = _ONES3
    elif (
        type(kernel) is not np.ndarray
        or kernel.ndim != 2
        or kernel.dtype != np.uint8
        or not kernel.flags.c_contiguous
        or kernel.size <= 1
    ):
        return None
    else:
        fp = kernel
    h, w = fp.shape
    if not fp[h // 2, w // 2]:
        return None
    if op != MORPH_ERODE and (
        h % 2 == 0 or w % 2 == 0 or fp.tobytes() != fp[::-1, ::-1].tobytes()
    ):
        return None
    out = np.empty(src.shape, dtype=np.uint8)
    c = (h // 2, w // 2)
    if op == MORPH_GRADIENT:  # the dilation holds the erosion: no saturation
        if h <= 3 and w <= 3:  # one pass: the dilation without the erosion
            return out if _gridbits.cv_gradient_into(src, fp, c, out) is not None else None
        hi = _gridbits.cv_morph_into(src, fp, c, [(False, False)], out)
        if hi is None:
            return None
        tmp = _scratch(src.shape)
        _gridbits.binary_morph_into(src, fp, c, [(True, True)], tmp, hi)
        return np.subtract(out, tmp, out=out)
    if _gridbits.cv_morph_into(src, fp, c, _QUICK_STEPS[op], out) is None:
        return None
    return out


def erode(
    src: Any,
    kernel: Any,
    dst: Optional[np.ndarray] = None,
    anchor: Sequence[int] = (-1, -1),
    iterations: int = 1,
    borderType: int = BORDER_CONSTANT,
    borderValue: Any = _DEFAULT_BORDER,
) -> np.ndarray:
    """``cv2.erode``: the minimum over ``kernel``'s nonzero cells placed at ``anchor``
    ``(x, y)``, ``iterations`` times, of a two-valued image; the result has ``src``'s dtype
    and values.

    ``kernel=None`` is OpenCV's: a ``(1 + 2 * iterations)`` square in one pass. The
    default border has no effect (OpenCV writes the type's maximum where a window holds no
    cell of the image at all).

    >>> import numpy as np
    >>> from gridbits.opencv import erode
    >>> img = np.zeros((4, 5), np.uint8); img[:, 1:5] = 255
    >>> erode(img, np.ones((3, 3), np.uint8))
    array([[  0,   0, 255, 255, 255],
           [  0,   0, 255, 255, 255],
           [  0,   0, 255, 255, 255],
           [  0,   0, 255, 255, 255]], dtype=uint8)
    >>> erode(img, None, borderValue=0)[1]
    array([  0,   0, 255, 255,   0], dtype=uint8)
    """
    out = _quick(MORPH_ERODE, src, kernel, dst, anchor, iterations, borderType, borderValue)
    if out is not None:
        return out
    return _morph_op(
        MORPH_ERODE, src, kernel, dst, anchor, iterations, borderType, borderValue, False
    )


def dilate(
    src: Any,
    kernel: Any,
    dst: Optional[np.ndarray] = None,
    anchor: Sequence[int] = (-1, -1),
    iterations: int = 1,
    borderType: int = BORDER_CONSTANT,
    borderValue: Any = _DEFAULT_BORDER,
) -> np.ndarray:
    """``cv2.dilate``: the maximum over ``kernel``'s nonzero cells placed at ``anchor``
    ``(x, y)`` (not reflected, as in OpenCV), ``iterations`` times.

    >>> import numpy as np
    >>> from gridbits.opencv import dilate
    >>> img = np.array([[0, 0, 0, 1, 0]], np.uint8)
    >>> dilate(img, np.array([[1, 1, 0]], np.uint8))
    array([[0, 0, 0, 1, 1]], dtype=uint8)
    """
    out = _quick(MORPH_DILATE, src, kernel, dst, anchor, iterations, borderType, borderValue)
    if out is not None:
        return out
    return _morph_op(
        MORPH_DILATE, src, kernel, dst, anchor, iterations, borderType, borderValue, False
    )


def morphologyEx(
    src: Any,
    op: int,
    kernel: Any,
    dst: Optional[np.ndarray] = None,
    anchor: Sequence[int] = (-1, -1),
    iterations: int = 1,
    borderType: int = BORDER_CONSTANT,
    borderValue: Any = _DEFAULT_BORDER,
) -> np.ndarray:
    """``cv2.morphologyEx``: ``MORPH_ERODE``, ``MORPH_DILATE``, ``MORPH_OPEN`` (erode then
    dilate, each ``iterations`` times), ``MORPH_CLOSE``, ``MORPH_GRADIENT`` (dilation minus
    erosion), ``MORPH_TOPHAT`` (``src`` minus its opening), ``MORPH_BLACKHAT`` (closing minus
    ``src``) and ``MORPH_HITMISS`` (``kernel``: 1 must be set, -1 must be clear, 0 either;
    ``uint8`` images) of a two-valued image, with OpenCV's values.

    >>> import numpy as np
    >>> from gridbits.opencv import morphologyEx, getStructuringElement
    >>> from gridbits.opencv import MORPH_OPEN, MORPH_GRADIENT, MORPH_RECT
    >>> img = np.zeros((5, 6), np.uint8); img[1:4, 1:4] = 255; img[0, 5] = 255
    >>> k = getStructuringElement(MORPH_RECT, (3, 3))
    >>> morphologyEx(img, MORPH_OPEN, k)
    array([[  0,   0,   0,   0,   0,   0],
           [  0, 255, 255, 255,   0,   0],
           [  0, 255, 255, 255,   0,   0],
           [  0, 255, 255, 255,   0,   0],
           [  0,   0,   0,   0,   0,   0]], dtype=uint8)
    >>> morphologyEx(img > 0, MORPH_GRADIENT, k)[2].tolist()
    [True, True, False, True, True, False]
    """
    if type(op) is int and (op in _QUICK_STEPS or op == MORPH_GRADIENT):
        out = _quick(op, src, kernel, dst, anchor, iterations, borderType, borderValue)
        if out is not None:
            return out
    o = _int(op, "op")
    if o not in _OPS:
        raise ValueError(
            f"op: {o!r} is not an OpenCV morphological operation "
            "(MORPH_ERODE ... MORPH_HITMISS, 0 to 7)"
        )
    if o == MORPH_HITMISS:
        return _hitmiss(src, kernel, dst, (anchor, iterations, borderType, borderValue))
    return _morph_op(o, src, kernel, dst, anchor, iterations, borderType, borderValue, True)
