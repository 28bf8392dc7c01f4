"""The city-block and chessboard transforms of deep images large enough (1 Mpx and more) for
their two vertical sweeps to split between two threads, against scipy.ndimage and OpenCV, on
one thread and on two: odd heights (the halves differ by a row), widths at and beside word
edges, a few zero pixels (deep everywhere), large discs, and a thresholded photograph."""

import cv2
import numpy as np
import pytest
from scipy import ndimage

import gridbits
from gridbits import ndimage as gnd
from gridbits import opencv as gcv

cv2.setNumThreads(1)


def _discs(shape, seed):
    """Large overlapping discs on zeros, with a sprinkle of zero pixels inside."""
    rng = np.random.default_rng(seed)
    h, w = shape
    img = np.zeros(shape, np.uint8)
    yy, xx = np.ogrid[:h, :w]
    for _ in range(6):
        cy, cx, r = rng.integers(0, h), rng.integers(0, w), rng.integers(100, 400)
        img[(yy - cy) ** 2 + (xx - cx) ** 2 <= r * r] = 1
    img[rng.random(shape) < 0.0005] = 0
    return img


def _few_zeros(shape, n, seed):
    rng = np.random.default_rng(seed)
    img = np.ones(shape, np.uint8)
    img.flat[rng.integers(0, img.size, n)] = 0
    return img


def _photo(shape):
    from skimage import data

    cam = data.camera()
    reps = (-(-shape[0] // cam.shape[0]), -(-shape[1] // cam.shape[1]))
    big = np.tile(cam, reps)[: shape[0], : shape[1]]
    return (big > big.mean()).astype(np.uint8)


IMAGES = [
    ("discs 1025x1024", lambda: _discs((1025, 1024), 1)),
    ("discs 1031x1087", lambda: _discs((1031, 1087), 2)),
    ("few zeros 1024x1025", lambda: _few_zeros((1024, 1025), 3, 3)),
    ("photo 1100x1000", lambda: _photo((1100, 1000))),
]


@pytest.mark.parametrize("name,make", IMAGES, ids=[n for n, _ in IMAGES])
@pytest.mark.parametrize("threads", [1, 2])
def test_large_deep_images_equal_peers(name, make, threads):
    img = make()
    with gridbits.threads(threads):
        for metric in ("chessboard", "taxicab"):
            got = gnd.distance_transform_cdt(img, metric)
            want = ndimage.distance_transform_cdt(img, metric)
            assert got.dtype == want.dtype and np.array_equal(got, want), metric
        for kind in (gcv.DIST_L1, gcv.DIST_C):
            got = gcv.distanceTransform(img, kind, 3)
            want = cv2.distanceTransform(img, kind, 3)
            assert got.dtype == want.dtype and np.array_equal(got, want), kind


def test_large_image_without_zero():
    """No zero pixel: scipy's -1 and OpenCV's FLT_MAX everywhere (not the sweeps)."""
    img = np.ones((1024, 1030), np.uint8)
    with gridbits.threads(2):
        assert (gnd.distance_transform_cdt(img, "taxicab") == -1).all()
        assert (gcv.distanceTransform(img, gcv.DIST_C, 3) == np.finfo(np.float32).max).all()
