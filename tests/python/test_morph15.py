"""Rectangles through the one-pass rectangle engine (issue 31's 15x15 speed point, branch
morph15): every entry point (``gridbits.ndimage`` and ``gridbits.morphology``, the direct
call and the general one) against scipy.ndimage, scikit-image and OpenCV, on the 15x15
square and rectangles 1xN, Nx1, even and odd, with origins and both border values, on
shapes around the word edges (widths 1, 63-65, 127-129), short and tall images, images
narrower or shorter than the footprint, and the layouts the direct path does not take."""

import warnings

import cv2
import numpy as np
import pytest
import scipy.ndimage as ndi
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from gridbits import morphology as gm
from gridbits import ndimage as gn

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import skimage.morphology as sm

OPS = ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing"]
CV = {
    "binary_erosion": cv2.MORPH_ERODE,
    "binary_dilation": cv2.MORPH_DILATE,
    "binary_opening": cv2.MORPH_OPEN,
    "binary_closing": cv2.MORPH_CLOSE,
}
SHAPES = [(1, 1), (3, 63), (1, 64), (16, 65), (5, 127), (20, 128), (2, 129), (90, 1),
          (14, 300), (200, 64), (0, 5), (5, 0)]
RECTS = [(15, 15), (1, 15), (15, 1), (4, 6), (16, 16), (17, 9), (2, 1), (7, 64)]
rng = np.random.default_rng(31_15)


@pytest.mark.parametrize("name", OPS)
def test_rectangles_match_scipy(name):
    ours, theirs = getattr(gn, name), getattr(ndi, name)
    for shape in SHAPES:
        for p in (0.0, 0.5, 0.9, 1.0):
            a = rng.random(shape) < p
            for h, w in RECTS:
                s = np.ones((h, w), np.uint8)
                for bv in (0, 1):
                    want = theirs(a, s, border_value=bv)
                    got = ours(a.astype(np.uint8), s, border_value=bv)
                    assert got.dtype == bool and got.shape == shape
                    np.testing.assert_array_equal(got, want, err_msg=f"{shape} {p} {h}x{w} {bv}")


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation"])
def test_rectangles_with_origins_match_scipy(name):
    ours, theirs = getattr(gn, name), getattr(ndi, name)
    a = rng.random((37, 131)) < 0.6
    for h, w in [(15, 15), (4, 6), (1, 9), (9, 1)]:
        s = np.ones((h, w), bool)
        for oy in sorted({-(h // 2), 0, (h - 1) // 2}):
            for ox in sorted({-(w // 2), 0, (w - 1) // 2}):
                want = theirs(a, s, origin=(oy, ox))
                got = ours(a, s, origin=(oy, ox))
                np.testing.assert_array_equal(got, want, err_msg=f"{h}x{w} ({oy}, {ox})")


@pytest.mark.parametrize("name", OPS)
def test_odd_rectangles_match_skimage_and_opencv(name):
    ours, theirs = getattr(gm, name), getattr(sm, name)
    for shape in [(1, 1), (9, 64), (15, 65), (40, 127), (300, 129), (64, 2048)]:
        a = (rng.random(shape) < 0.5).astype(np.uint8)
        for h, w in [(15, 15), (1, 15), (15, 1), (5, 11)]:
            s = np.ones((h, w), np.uint8)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = theirs(a, s)
            got = ours(a, s)
            np.testing.assert_array_equal(got, want, err_msg=f"{shape} {h}x{w}")
            cv = cv2.morphologyEx(a, CV[name], s) != 0
            np.testing.assert_array_equal(got, cv, err_msg=f"cv2 {shape} {h}x{w}")
    # skimage's own rectangle constructors.
    a = rng.random((50, 70)) < 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        square = gm.square(15)
    for s in (square, gm.footprint_rectangle((15, 15)), gm.footprint_rectangle((4, 7))):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_array_equal(ours(a, s), theirs(a, s))


def test_layouts_dtypes_iterations_and_output():
    base = rng.random((67, 130)) < 0.5
    s = np.ones((15, 15), np.uint8)
    for v in (base, np.asfortranarray(base), base[::2, ::3], base[::-1, ::-1], base.T):
        for dtype in (bool, np.uint8, np.int8, np.float64):
            x = v.astype(dtype)
            for name in OPS:
                want = getattr(ndi, name)(v, s)
                np.testing.assert_array_equal(getattr(gn, name)(x, s), want,
                                              err_msg=f"{name} {v.strides} {dtype}")
    a = base
    np.testing.assert_array_equal(
        gn.binary_dilation(a, s, iterations=2), ndi.binary_dilation(a, s, iterations=2)
    )
    np.testing.assert_array_equal(
        gn.binary_opening(a, s, iterations=2), ndi.binary_opening(a, s, iterations=2)
    )
    m = rng.random(a.shape) < 0.5
    np.testing.assert_array_equal(
        gn.binary_erosion(a, s, mask=m), ndi.binary_erosion(a, s, mask=m)
    )
    out = np.zeros(a.shape, np.uint8)
    assert gn.binary_closing(a, s, output=out) is out
    np.testing.assert_array_equal(out != 0, ndi.binary_closing(a, s))


def test_large_image_15x15_matches_opencv():
    a = (rng.random((600, 2048)) < 0.7).astype(np.uint8)
    s = np.ones((15, 15), np.uint8)
    for name in OPS:
        np.testing.assert_array_equal(getattr(gm, name)(a, s),
                                      cv2.morphologyEx(a, CV[name], s) != 0, err_msg=name)


@settings(max_examples=60, deadline=None)
@given(
    a=hnp.arrays(np.uint8, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=140),
                 elements=st.sampled_from([0, 1, 1, 200])),
    h=st.integers(1, 17),
    w=st.integers(1, 17),
    name=st.sampled_from(OPS),
    bv=st.sampled_from([0, 1]),
)
def test_any_rectangle_matches_scipy(a, h, w, name, bv):
    s = np.ones((h, w), np.uint8)
    want = getattr(ndi, name)(a, s, border_value=bv)
    np.testing.assert_array_equal(getattr(gn, name)(a, s, border_value=bv), want)
