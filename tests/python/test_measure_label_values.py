"""``gridbits.measure.label`` on integer images of every width, read in place by the native
multi-class run labeller, against ``skimage.measure.label``: edge shapes (0xN, 1x1, widths
63/64/65, several blocks per row), one class, 255 classes, all background, full; dtypes,
byte orders and layouts; and the recycled result buffers (a result kept alive is never
written by a later call)."""

import gc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from skimage import measure as skm

from gridbits import measure as gm

SHAPES = [(0, 5), (5, 0), (1, 1), (1, 70), (70, 1), (3, 63), (4, 64), (5, 65), (3, 130), (17, 19)]
DTYPES = [np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.uint64, np.int64]


def _image(rng, shape, classes, smooth=0.0):
    """Values ``0..classes`` where a pixel copies its left neighbour with probability
    ``smooth``."""
    a = rng.integers(0, classes, shape)
    if smooth and a.size:
        copy = rng.random(shape) < smooth
        for x in range(1, shape[1]):
            a[:, x] = np.where(copy[:, x], a[:, x - 1], a[:, x])
    return a


def _check(img, **kw):
    want = skm.label(img, return_num=True, **kw)
    got = gm.label(img, return_num=True, **kw)
    assert got[0].dtype == want[0].dtype
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1] == want[1]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("connectivity", [1, 2])
def test_edge_shapes(shape, connectivity):
    rng = np.random.default_rng(sum(shape) * connectivity)
    for classes, smooth in ((2, 0.0), (3, 0.5), (6, 0.8)):
        img = _image(rng, shape, classes, smooth).astype(np.uint8)
        for background in (0, 1, 255, 300, -1):
            _check(img, background=background, connectivity=connectivity)


@pytest.mark.parametrize("shape", [(1, 1), (5, 65), (64, 64), (3, 130)])
def test_one_class_all_background_full_and_255_classes(shape):
    rng = np.random.default_rng(7)
    for img in (
        np.zeros(shape, np.uint8),
        np.full(shape, 9, np.uint8),
        np.full(shape, 255, np.uint8),
        _image(rng, shape, 256, 0.3).astype(np.uint8),
        _image(rng, shape, 2, 0.0).astype(np.uint8),
    ):
        for connectivity in (1, 2):
            _check(img, connectivity=connectivity)
            _check(img, background=9, connectivity=connectivity)


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtypes_and_byte_orders(dtype):
    rng = np.random.default_rng(3)
    base = _image(rng, (13, 70), 4, 0.5)
    info = np.iinfo(dtype)
    # Values at both ends of the type's range, and a background it cannot hold.
    img = np.where(base == 1, info.max, np.where(base == 2, info.min, base)).astype(dtype)
    for order in ("=", ">"):
        a = img.astype(np.dtype(dtype).newbyteorder(order))
        for background in (0, int(info.max), int(info.min), 2**70 if dtype == np.uint8 else -(2**70)):
            try:
                want = skm.label(a, background=background)
            except (OverflowError, ValueError, TypeError):
                continue  # skimage refuses it: nothing to compare
            np.testing.assert_array_equal(gm.label(a, background=background), want)


def test_layouts():
    rng = np.random.default_rng(11)
    img = _image(rng, (40, 67), 3, 0.6).astype(np.int32)
    for view in (np.asfortranarray(img), img[::-1], img[:, ::-2], img.T, img[::3, 1::2]):
        _check(view)
    col = img[:, :1]
    _check(col[:, ::-1])
    _check(np.repeat(col, 2, axis=1)[:, ::2])


@settings(max_examples=40, deadline=None)
@given(
    h=st.integers(0, 9),
    w=st.integers(0, 140),
    classes=st.integers(1, 5),
    seed=st.integers(0, 2**32 - 1),
    dtype=st.sampled_from(DTYPES),
    connectivity=st.sampled_from([1, 2]),
)
def test_random_images(h, w, classes, seed, dtype, connectivity):
    img = _image(np.random.default_rng(seed), (h, w), classes, 0.4).astype(dtype)
    if img.size == 0:
        got = gm.label(img, connectivity=connectivity)
        assert got.shape == img.shape and got.dtype == np.int64
        return
    _check(img, connectivity=connectivity)


def test_recycled_results_are_never_shared():
    rng = np.random.default_rng(5)
    a = _image(rng, (1024, 1024), 3).astype(np.uint8)
    b = _image(rng, (1024, 1024), 3).astype(np.uint8)
    want_a, want_b = skm.label(a), skm.label(b)
    for _ in range(3):
        la = gm.label(a)
        lb = gm.label(b)  # la is alive: lb gets another buffer
        np.testing.assert_array_equal(la, want_a)
        np.testing.assert_array_equal(lb, want_b)
        view = la[10:20]
        del la
        gc.collect()
        lc = gm.label(b)  # la's buffer is still viewed: not reused
        np.testing.assert_array_equal(view, want_a[10:20])
        np.testing.assert_array_equal(lc, want_b)
        lc[:] = -5  # results are writeable and their own
        np.testing.assert_array_equal(lb, want_b)
        del view, lb, lc
        gc.collect()
        # Freed results come back: the next one is still exact.
        np.testing.assert_array_equal(gm.label(a), want_a)
        np.testing.assert_array_equal(gm.label(a[:1000]), skm.label(a[:1000]))


@pytest.mark.parametrize("connectivity", [1, 2])
@pytest.mark.parametrize("classes,smooth", [(2, 0.0), (3, 0.0), (3, 0.8), (6, 0.95)])
def test_images_labelled_in_bands_on_threads(classes, smooth, connectivity):
    """Images of 1 Mpx and more are labelled in row bands on the threads of the pool
    (joined across the band borders to the one-thread numbering): an odd height (the
    last band shorter), one class and several, short runs and long, two dtypes."""
    rng = np.random.default_rng(classes * 10 + int(smooth * 10))
    img = _image(rng, (1031, 1030), classes, smooth)
    for dtype in (np.uint8, np.int32):
        _check(img.astype(dtype), connectivity=connectivity)
