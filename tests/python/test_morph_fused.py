"""The fused path of the binary morphology drop-ins (one repetition, no mask: the byte
image read and the output written a stripe of rows at a time): against scipy.ndimage,
scikit-image and OpenCV on images taller than many stripes, with footprints whose reach
crosses the stripe edges, every layout and dtype, and ``output`` / ``out`` arrays written in
place, converted, or sharing memory with the input."""

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
SHAPES = [(0, 7), (7, 0), (1, 1), (1, 64), (64, 1), (300, 63), (260, 64), (333, 65), (3, 200), (700, 9)]
rng = np.random.default_rng(3131)


def footprints():
    yield np.ones((3, 3), np.uint8)
    yield gm.disk(1)
    yield np.ones((15, 15), np.uint8)
    yield gm.disk(7)
    yield np.ones((31, 3), np.uint8)
    yield gm.diamond(4)
    yield np.array([[1, 0, 0], [0, 0, 0], [0, 1, 1], [1, 0, 0]], np.uint8)


@pytest.mark.parametrize("name", OPS)
def test_tall_images_match_scipy(name):
    ours, theirs = getattr(gn, name), getattr(ndi, name)
    for shape in SHAPES:
        for p in (0.3, 0.7):
            a = rng.random(shape) < p
            for s in footprints():
                for bv in (0, 1):
                    want = theirs(a, s, border_value=bv)
                    got = ours(a, s, border_value=bv)
                    assert got.dtype == bool and got.shape == shape
                    np.testing.assert_array_equal(got, want, err_msg=f"{shape} {p} {s} {bv}")


@pytest.mark.parametrize("name", OPS)
def test_tall_images_match_skimage(name):
    ours, theirs = getattr(gm, name), getattr(sm, name)
    for shape in [(1, 1), (300, 65), (500, 64), (64, 300)]:
        a = rng.random(shape) < 0.5
        for s in footprints():
            for mode in ("ignore", "min", "max"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    want = theirs(a, s, mode=mode)
                got = ours(a, s, mode=mode)
                np.testing.assert_array_equal(got, want, err_msg=f"{shape} {s} {mode}")


@pytest.mark.parametrize(
    "cv_op,name",
    [(cv2.MORPH_ERODE, "binary_erosion"), (cv2.MORPH_DILATE, "binary_dilation"),
     (cv2.MORPH_OPEN, "binary_opening"), (cv2.MORPH_CLOSE, "binary_closing")],
)
def test_matches_opencv(cv_op, name):
    # OpenCV's default border leaves the edges alone (erosion reads set, dilation empty):
    # skimage's mode 'ignore'. Its anchor is the centre, as skimage's for odd footprints.
    ours = getattr(gm, name)
    for shape in [(1, 1), (9, 1), (300, 63), (257, 65), (64, 400)]:
        a = (rng.random(shape) < 0.5).astype(np.uint8) * 255
        for s in (np.ones((3, 3), np.uint8), gm.disk(1), np.ones((15, 15), np.uint8), gm.disk(7)):
            want = cv2.morphologyEx(a, cv_op, s) != 0
            np.testing.assert_array_equal(ours(a, s), want, err_msg=f"{shape} {s.shape}")


def test_layouts_and_dtypes_take_the_same_path():
    base = rng.random((130, 140)) < 0.5
    s = gm.disk(3)
    want = ndi.binary_opening(base, s)
    views = {
        "fortran": np.asfortranarray(base),
        "strided": np.repeat(np.repeat(base, 2, 0), 2, 1)[::2, ::2],
        "reversed": base[::-1, ::-1].copy()[::-1, ::-1],
        "transposed": base.T.copy().T,
        "column view": np.pad(base, ((0, 0), (3, 5)))[:, 3:-5],
    }
    for kind, v in views.items():
        for dt in (bool, np.uint8, np.int8, np.int16, np.uint32, np.float32, np.float64):
            got = gn.binary_opening(v.astype(dt, order="K") * (3 if dt is not bool else 1), s)
            np.testing.assert_array_equal(got, want, err_msg=f"{kind} {dt}")
    # A reversed one-column view (issue 31's layout defect).
    col = base[:, :1]
    np.testing.assert_array_equal(gn.binary_erosion(col[::-1]), ndi.binary_erosion(col[::-1]))
    np.testing.assert_array_equal(gn.binary_dilation(col[:, ::-1]), ndi.binary_dilation(col[:, ::-1]))


def test_one_dimensional_inputs():
    for n in (1, 63, 64, 65, 300):
        a = rng.random(n) < 0.5
        for s in (None, np.ones(5), np.array([1, 0, 1])):
            for name in OPS:
                want = getattr(ndi, name)(a, s)
                got = getattr(gn, name)(a, s)
                assert got.shape == (n,)
                np.testing.assert_array_equal(got, want, err_msg=f"{n} {s} {name}")


@pytest.mark.parametrize("name", OPS)
def test_output_arrays(name):
    ours, theirs = getattr(gn, name), getattr(ndi, name)
    a = rng.random((200, 70)) < 0.5
    s = np.ones((5, 5))
    want = theirs(a, s)
    # Written in place: bool, uint8 and int8, C-contiguous.
    for dt in (bool, np.uint8, np.int8):
        out = np.full(a.shape, 9, dtype=dt) if dt is not bool else np.zeros(a.shape, bool)
        r = ours(a, s, output=out)
        assert r is out
        np.testing.assert_array_equal(out, want.astype(dt))
    # Converted: other dtypes and layouts.
    for out in (np.zeros(a.shape, np.float32), np.zeros(a.shape, bool, order="F"),
                np.zeros((200, 140), bool)[:, ::2]):
        r = ours(a, s, output=out)
        assert r is out
        np.testing.assert_array_equal(out, want)
    # The input itself, or a view of it, as the output.
    for view in (lambda x: x, lambda x: x[:, :]):
        b = a.copy()
        r = ours(b, s, output=view(b))
        np.testing.assert_array_equal(b, want)
    u = a.astype(np.uint8)
    ours(u, s, output=u)
    np.testing.assert_array_equal(u, want)
    # A dtype as the output: scipy's bool result.
    np.testing.assert_array_equal(ours(a, s, output=bool), want)
    with pytest.raises(RuntimeError):
        ours(a, s, output=np.zeros((3, 3), bool))


@pytest.mark.parametrize("name", OPS)
def test_skimage_out_arrays(name):
    ours, theirs = getattr(gm, name), getattr(sm, name)
    a = rng.random((150, 66)) < 0.5
    s = gm.disk(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = theirs(a, s)
    for out in (np.zeros(a.shape, bool), np.zeros(a.shape, np.uint8), np.zeros(a.shape, bool, order="F")):
        r = ours(a, s, out=out)
        assert r is out
        np.testing.assert_array_equal(out != 0, want)
    b = a.copy()
    ours(b, s, out=b)
    np.testing.assert_array_equal(b, want)
    with pytest.raises(ValueError, match="out"):
        ours(a, s, out=np.zeros((2, 2), bool))


@settings(max_examples=60, deadline=None)
@given(
    a=hnp.arrays(bool, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=90)),
    s=hnp.arrays(bool, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=9)),
    bv=st.integers(0, 1),
    name=st.sampled_from(OPS),
)
def test_hypothesis_against_scipy(a, s, bv, name):
    if not s.any():
        s[s.shape[0] // 2, s.shape[1] // 2] = True
    want = getattr(ndi, name)(a, s, border_value=bv)
    np.testing.assert_array_equal(getattr(gn, name)(a, s, border_value=bv), want)
