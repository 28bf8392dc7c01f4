"""The direct path of the binary morphology drop-ins (issue 31's speed point, branch morph4):
a 2D C-contiguous ``bool`` / ``uint8`` / ``int8`` image with a footprint array (or the
default), centred, and no output argument goes to the native function with no conversion.
Checked against scipy.ndimage, scikit-image and OpenCV on the shapes where the one-step
engine's turns overlap (1-3 rows) and at word edges, every byte dtype and footprint dtype
(values other than 0/1 included), the layouts that take the direct path (C-contiguous,
length-1 axes with any stride) and those that do not (Fortran, strided, reversed), and
that a call the direct path does not take (origin, iterations, mask, output, another dtype)
still gives the peers' results."""

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
SHAPES = [(1, 1), (2, 5), (3, 63), (1, 64), (4, 65), (5, 127), (6, 128), (3, 129), (70, 1),
          (1, 300), (200, 64), (64, 200), (0, 5), (5, 0)]
rng = np.random.default_rng(31_4)


def footprints():
    yield None
    yield np.ones((3, 3), np.uint8)
    yield gm.disk(1)
    yield np.ones((3, 3), bool)
    yield np.array([[0, 2, 0], [5, 1, 0], [0, 0, 9]], np.uint8)  # nonzero: set
    yield np.array([[-1, 0, 1], [0, 0, 0], [1, 1, 0]], np.int8)
    yield np.ones((1, 3), np.uint8)
    yield np.ones((3, 1), np.uint8)
    yield np.ones((5, 5), np.uint8)  # past one cell: the stripes, same direct call


def images(shape, p):
    """The same random pixels as ``bool``, ``uint8`` 0/1, ``uint8`` 0/255 and ``int8``
    with negative values."""
    a = rng.random(shape) < p
    v = rng.integers(1, 256, shape)
    yield a
    yield a.astype(np.uint8)
    yield (a * 255).astype(np.uint8)
    yield (a * -((v % 127) + 1)).astype(np.int8)


@pytest.mark.parametrize("name", OPS)
def test_direct_calls_match_scipy(name):
    ours, theirs = getattr(gn, name), getattr(ndi, name)
    for shape in SHAPES:
        for p in (0.0, 0.4, 0.8, 1.0):
            for a in images(shape, p):
                for s in footprints():
                    want = theirs(a, s) if s is not None else theirs(a)
                    got = ours(a, s) if s is not None else ours(a)
                    assert got.dtype == bool and got.shape == shape
                    np.testing.assert_array_equal(got, want, err_msg=f"{shape} {p} {a.dtype} {s}")


@pytest.mark.parametrize("name", OPS)
def test_direct_calls_match_skimage_and_opencv(name):
    ours, theirs = getattr(gm, name), getattr(sm, name)
    cv_op = {
        "binary_erosion": cv2.MORPH_ERODE,
        "binary_dilation": cv2.MORPH_DILATE,
        "binary_opening": cv2.MORPH_OPEN,
        "binary_closing": cv2.MORPH_CLOSE,
    }[name]
    for shape in [(1, 1), (2, 64), (3, 65), (9, 127), (300, 129)]:
        a = (rng.random(shape) < 0.5).astype(np.uint8)
        for s in (np.ones((3, 3), np.uint8), gm.disk(1), np.ones((1, 3), np.uint8)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = theirs(a, s)
            got = ours(a, s)
            np.testing.assert_array_equal(got, want, err_msg=f"{shape} {s}")
            cv = cv2.morphologyEx(a, cv_op, s) != 0
            np.testing.assert_array_equal(got, cv, err_msg=f"cv2 {shape} {s}")


def test_layouts_direct_and_not():
    base = rng.random((67, 130)) < 0.5
    s = np.ones((3, 3), np.uint8)
    views = [
        base,
        np.asfortranarray(base),
        base[::2, ::3],
        base[::-1, ::-1],
        base.T,
        base[:, 5:6][:, ::-1],  # one column, flagged C-contiguous with an odd stride
        base[7:8, :][::-1],  # one row
        base[:, :1],
    ]
    for v in views:
        for name in OPS:
            want = getattr(ndi, name)(v, s)
            for dtype in (bool, np.uint8, np.int8, np.int32, np.float64):
                x = v.astype(dtype) if dtype is not bool else v
                if dtype is not bool and v.flags.c_contiguous and not x.flags.c_contiguous:
                    x = np.ascontiguousarray(x)
                got = getattr(gn, name)(x, s)
                np.testing.assert_array_equal(got, want, err_msg=f"{name} {v.strides} {dtype}")
    # Footprints in layouts the direct path does not take.
    a = base.astype(np.uint8)
    fp = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]], np.uint8)
    for f in (np.asfortranarray(fp), fp[::-1, ::-1].copy()[::-1, ::-1], fp.T, fp.astype(np.int64)):
        np.testing.assert_array_equal(gn.binary_erosion(a, f), ndi.binary_erosion(a, f))


def test_calls_off_the_direct_path_keep_their_results():
    a = rng.random((40, 70)) < 0.5
    s = np.ones((3, 3), np.uint8)
    np.testing.assert_array_equal(
        gn.binary_erosion(a, s, origin=(1, -1)), ndi.binary_erosion(a, s, origin=(1, -1))
    )
    np.testing.assert_array_equal(
        gn.binary_dilation(a, s, iterations=2), ndi.binary_dilation(a, s, iterations=2)
    )
    m = rng.random(a.shape) < 0.5
    np.testing.assert_array_equal(
        gn.binary_dilation(a, s, mask=m), ndi.binary_dilation(a, s, mask=m)
    )
    out = np.zeros(a.shape, np.uint8)
    assert gn.binary_erosion(a, s, output=out) is out
    np.testing.assert_array_equal(out != 0, ndi.binary_erosion(a, s))
    np.testing.assert_array_equal(
        gn.binary_erosion(a, s, border_value=1), ndi.binary_erosion(a, s, border_value=1)
    )
    out2 = np.zeros(a.shape, bool)
    assert gm.binary_closing(a, s, out=out2) is out2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(out2, sm.binary_closing(a, s))
    # A list image and a list footprint take the general path.
    np.testing.assert_array_equal(
        gn.binary_erosion(a.tolist(), s.tolist()), ndi.binary_erosion(a, s)
    )


def test_bad_input_on_the_direct_path_is_refused_as_before():
    a = np.ones((5, 5), np.uint8)
    with pytest.raises(RuntimeError):
        gn.binary_erosion(a, np.ones((3,), np.uint8))
    with pytest.raises(RuntimeError):
        gn.binary_erosion(a, np.ones((0, 3), np.uint8))
    with pytest.raises(ValueError):
        gm.binary_erosion(a, np.ones((3, 3), np.uint8), mode="nope")
    with pytest.raises(TypeError):
        gn.binary_erosion(np.ones((3, 3), complex))


@settings(max_examples=60, deadline=None)
@given(
    a=hnp.arrays(np.uint8, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=140),
                 elements=st.sampled_from([0, 0, 1, 200])),
    pattern=st.integers(1, 511),
    name=st.sampled_from(OPS),
    bv=st.sampled_from([0, 1]),
)
def test_every_pattern_matches_scipy(a, pattern, name, bv):
    s = np.array([(pattern >> i) & 1 for i in range(9)], np.uint8).reshape(3, 3)
    want = getattr(ndi, name)(a, s, border_value=bv)
    np.testing.assert_array_equal(getattr(gn, name)(a, s, border_value=bv), want)
