"""Label images for the native region passes, and the table of region properties.

:func:`label_array` turns any integer label image into the C-contiguous array the native
``measure_*`` functions read in place, of its own integer type (negative labels, which
skimage and scipy ignore, are background there). :class:`Regions` runs each native pass at most once and
derives skimage's properties from their arrays with numpy.
"""

from __future__ import annotations

import math
from typing import Dict, Optional

import numpy as np

from . import _gridbits

__all__ = ["Regions", "label_array"]

# Intensity types the native pass reads in place.
_NATIVE_INTENSITY = tuple(np.dtype(t) for t in (np.uint8, np.uint16, np.float32, np.float64))


def label_array(a: np.ndarray) -> np.ndarray:
    """``a`` (a 2D integer array) as a C-contiguous label array of its own integer type in
    native byte order (not copied when it is one already); the native passes read negative
    labels as background."""
    return np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("="))


class Regions:
    """The regions of a label image (from :func:`label_array`), each native pass run once on
    demand. Arrays are indexed by ``label - 1`` over all labels up to the largest;
    :attr:`index` selects the labels present."""

    def __init__(
        self, labels: np.ndarray, intensity: Optional[np.ndarray] = None, moments: bool = False
    ) -> None:
        self.labels = labels
        self.intensity = intensity
        self._cache: Dict[str, object] = {}
        self._moments = False
        self._run(moments)

    def _run(self, moments: bool) -> None:
        area, bbox, centroid, raw, central = _gridbits.measure_regions(self.labels, moments)
        self.index = np.flatnonzero(area)
        self.count = area[self.index]
        self.bbox = bbox[self.index]
        self.centroid = centroid[self.index]
        if moments:
            self.raw = raw[self.index]
            self.central = central[self.index]
            self._moments = True

    def need_moments(self) -> None:
        """Runs the pass with moments up to order 3 (once)."""
        if not self._moments:
            self._run(True)

    def once(self, name: str, compute):
        """``compute()``, computed once per name."""
        if name not in self._cache:
            self._cache[name] = compute()
        return self._cache[name]

    def inertia(self):
        """Inertia tensor entries ``(a, b, c)`` (``[[a, b], [b, c]]``) as skimage builds it."""
        self.need_moments()
        mu = self.central
        mu0 = mu[:, 0, 0]
        return mu[:, 0, 2] / mu0, -mu[:, 1, 1] / mu0, mu[:, 2, 0] / mu0

    def eigvals(self):
        """The inertia tensor's eigenvalues, largest first, clipped at 0 as skimage clips."""

        def compute():
            a, b, c = self.inertia()
            mean = (a + c) / 2
            root = np.sqrt(((a - c) / 2) ** 2 + b * b)
            return np.clip(mean + root, 0, None), np.clip(mean - root, 0, None)

        return self.once("eigvals", compute)

    def intensity_stats(self, channel: int):
        """``(sum, min, max)`` of one channel of the intensity image (present labels), read
        in its own type where the native pass takes it (``uint8``, ``uint16``, ``float32``,
        ``float64``; ``bool`` as ``uint8``), else as ``float64``."""

        def compute():
            img = self.intensity if self.intensity.ndim == 2 else self.intensity[..., channel]
            if img.dtype == np.bool_:
                img = img.view(np.uint8)
            kind = img.dtype.newbyteorder("=")
            if kind not in _NATIVE_INTENSITY:
                kind = np.dtype(np.float64)
            values = np.ascontiguousarray(img, dtype=kind)
            s, lo, hi = _gridbits.measure_intensity(self.labels, values)
            return s[self.index], lo[self.index], hi[self.index]

        return self.once(f"intensity{channel}", compute)

    def coords(self) -> np.ndarray:
        """skimage's ``coords``: an object array of ``(n, 2)`` int64 arrays of ``(row, col)``
        in raster order."""
        flat = self.labels.reshape(-1)
        cells = np.flatnonzero(flat > 0)
        order = np.argsort(flat[cells], kind="stable")
        cells = cells[order]
        width = self.labels.shape[1]
        rc = np.stack([cells // width, cells % width], axis=1).astype(np.int64)
        out = np.empty(len(self.index), dtype=object)
        start = 0
        for i, n in enumerate(self.count.tolist()):
            out[i] = rc[start : start + n]
            start += n
        return out


def hu(nu: np.ndarray) -> np.ndarray:
    """Hu's seven invariants of normalized moments ``nu`` (``(L, 4, 4)``), as skimage's
    ``moments_hu``: ``(L, 7)``."""
    n = lambda p, q: nu[:, p, q]  # noqa: E731
    t0 = n(3, 0) + n(1, 2)
    t1 = n(2, 1) + n(0, 3)
    q0 = t0 * t0
    q1 = t1 * t1
    n4 = 4 * n(1, 1)
    s = n(2, 0) + n(0, 2)
    d = n(2, 0) - n(0, 2)
    out = np.empty((nu.shape[0], 7))
    out[:, 0] = s
    out[:, 1] = d * d + n4 * n(1, 1)
    out[:, 3] = q0 + q1
    out[:, 5] = d * (q0 - q1) + n4 * t0 * t1
    t0 = t0 * (q0 - 3 * q1)
    t1 = t1 * (3 * q0 - q1)
    q0 = n(3, 0) - 3 * n(1, 2)
    q1 = 3 * n(2, 1) - n(0, 3)
    out[:, 2] = q0 * q0 + q1 * q1
    out[:, 4] = q0 * t0 + q1 * t1
    out[:, 6] = q1 * t0 - q0 * t1
    return out


def normalized(mu: np.ndarray) -> np.ndarray:
    """skimage's ``moments_normalized`` of central moments ``(L, 4, 4)``: NaN below order 2."""
    out = np.full(mu.shape, np.nan)
    mu0 = mu[:, 0, 0]
    for p in range(4):
        for q in range(4):
            if p + q >= 2:
                out[:, p, q] = mu[:, p, q] / mu0 ** ((p + q) / 2 + 1)
    return out


def orientation(r: Regions) -> np.ndarray:
    """skimage's ``orientation`` from the inertia tensor."""
    a, b, c = r.inertia()
    out = 0.5 * np.arctan2(-2 * b, c - a)
    flat = (a - c) == 0
    out[flat] = np.where(b[flat] < 0, math.pi / 4, -math.pi / 4)
    return out
