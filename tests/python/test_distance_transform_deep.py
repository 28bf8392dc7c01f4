"""The distances-only paths of gridbits' distance transforms against scipy.ndimage and OpenCV:
``distance_transform_edt`` without indices and ``distanceTransform(DIST_L2,
DIST_MASK_PRECISE)`` (a column pass on the bits and a row pass that skips the runs the column
pass decides), and the city-block and chessboard transforms of shapes too deep for the
erosion layers (separable passes instead). Deep images (a few zero pixels in a full image,
large discs, long bars), edge shapes, dtypes and layouts."""

import cv2
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import ndimage

from conftest import EDGE_SHAPES
from gridbits import ndimage as gnd
from gridbits import opencv as gcv

cv2.setNumThreads(1)


def _few_zeros(shape, n, seed):
    """A full image with ``n`` zero pixels at random places (deep everywhere)."""
    rng = np.random.default_rng(seed)
    img = np.ones(shape, np.uint8)
    if img.size:
        img.flat[rng.integers(0, img.size, n)] = 0
    return img


def _discs(shape, seed):
    """Large overlapping discs on zeros: deep, round shapes."""
    rng = np.random.default_rng(seed)
    img = np.zeros(shape, np.uint8)
    h, w = shape
    yy, xx = np.indices(shape)
    for _ in range(4):
        cy, cx, r = rng.integers(0, h), rng.integers(0, w), rng.integers(20, 90)
        img[(yy - cy) ** 2 + (xx - cx) ** 2 <= r * r] = 1
    return img


def _deep_images():
    out = [_few_zeros(s, 1, 1) for s in [(1, 1), (1, 300), (300, 1), (63, 64), (65, 200)]]
    out += [_few_zeros((120, 333), n, n) for n in (1, 2, 5, 40, 400)]
    out += [_discs((190, 257), seed) for seed in range(4)]
    bars = np.ones((100, 129), np.uint8)
    bars[::37, :] = 0
    out.append(bars)
    out.append(np.ascontiguousarray(bars.T))
    return out


DEEP = _deep_images()


def _check_all(img):
    """Every distances-only path against its peer on ``img`` (uint8 0/1)."""
    u8 = (np.asarray(img) != 0).astype(np.uint8)
    want = ndimage.distance_transform_edt(u8)
    got = gnd.distance_transform_edt(img)
    assert got.dtype == np.float64 and np.array_equal(got, want)
    for metric in ("chessboard", "taxicab"):
        got = gnd.distance_transform_cdt(img, metric)
        want = ndimage.distance_transform_cdt(u8, metric)
        assert got.dtype == want.dtype and np.array_equal(got, want), metric
    if u8.size:
        for kind in (gcv.DIST_L1, gcv.DIST_C):
            got = gcv.distanceTransform(img, kind, 3)
            want = cv2.distanceTransform(u8, kind, 3)
            assert got.dtype == want.dtype and np.array_equal(got, want), kind
        got = gcv.distanceTransform(img, gcv.DIST_L2, gcv.DIST_MASK_PRECISE)
        want = cv2.distanceTransform(u8, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
        assert got.dtype == np.float32
        # OpenCV's IPP square roots can be a unit or two in the last place off; gridbits
        # gives the correctly rounded float32 root of the exact squared distance.
        np.testing.assert_array_max_ulp(got, want, maxulp=4)
        sq = ndimage.distance_transform_edt(u8) ** 2
        if 0 in u8:
            assert np.array_equal(got, np.sqrt(np.round(sq).astype(np.float32)))


@pytest.mark.parametrize("i", range(len(DEEP)))
def test_deep_images_equal_peers(i):
    _check_all(DEEP[i])


@pytest.mark.parametrize("shape", EDGE_SHAPES + [(2, 300), (300, 2)])
@pytest.mark.parametrize("density", [0.0, 0.3, 0.7, 0.97, 1.0])
def test_edge_shapes_equal_peers(shape, density):
    img = (np.random.default_rng(len(shape) + int(density * 100)).random(shape) < density).astype(np.uint8)
    _check_all(img)


def test_layouts_and_dtypes():
    base = _few_zeros((70, 129), 6, 3)
    views = [
        base.astype(bool),
        base.astype(np.float64) * 0.5,
        np.asfortranarray(base),
        np.repeat(np.repeat(base, 2, 0), 2, 1)[::2, ::2],
        base[::-1, ::-1],
        base.T,
        np.ascontiguousarray(base[:, :1])[::-1],
        np.repeat(base[:, :1], 3, 1)[:, ::-3],
    ]
    for v in views:
        _check_all(v)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 160),
    st.integers(1, 160),
    st.sampled_from([0.9, 0.99, 0.999]),
    st.integers(0, 2**32 - 1),
)
def test_random_deep_images(h, w, density, seed):
    img = (np.random.default_rng(seed).random((h, w)) < density).astype(np.uint8)
    _check_all(img)
