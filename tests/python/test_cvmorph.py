"""gridbits.opencv's morphology (erode, dilate, morphologyEx, getStructuringElement) against
OpenCV itself on random two-valued images of many shapes, dtypes and layouts."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridbits import opencv as go

cv2 = pytest.importorskip("cv2")

SHAPES = [(1, 1), (1, 7), (7, 1), (5, 63), (4, 64), (3, 65), (70, 3), (3, 130), (33, 40)]
DTYPES = [np.uint8, np.uint16, np.int16, np.float32, np.float64]
PAIRS = {
    np.uint8: [(0, 255), (0, 1), (3, 200)],
    np.uint16: [(0, 65535), (7, 9)],
    np.int16: [(-30000, 30000), (0, 1), (-5, -2)],
    np.float32: [(0.0, 1.0), (-1.5, 2.25)],
    np.float64: [(0.0, 255.0), (-3.0, 1e300)],
}
OPS = list(range(7))


def two_valued(rng, shape, dtype, lo, hi, p=0.5):
    return np.where(rng.random(shape) < p, hi, lo).astype(dtype)


def layouts(a):
    """The same image as C, Fortran, strided, reversed and transposed-back arrays."""
    yield a
    yield np.asfortranarray(a)
    big = np.zeros((a.shape[0] * 2, a.shape[1] * 3), a.dtype)
    big[::2, ::3] = a
    yield big[::2, ::3]
    r = np.ascontiguousarray(a[::-1, ::-1])
    yield r[::-1, ::-1]
    yield np.ascontiguousarray(a.T).T


def check(got, want):
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def kernels(rng):
    for shape in (go.MORPH_RECT, go.MORPH_CROSS, go.MORPH_ELLIPSE):
        for ks in ((3, 3), (1, 3), (4, 2), (5, 5)):
            yield cv2.getStructuringElement(shape, ks)
    yield (rng.random((3, 4)) < 0.6).astype(np.uint8) | np.eye(3, 4, dtype=np.uint8)
    yield np.array([[1, 0, 1]], np.uint8)  # no anchor cell: windows may miss the image


SHAPES_SE = [go.MORPH_RECT, go.MORPH_CROSS, go.MORPH_ELLIPSE, go.MORPH_DIAMOND]


@pytest.mark.parametrize("shape_", SHAPES_SE)
def test_structuring_elements(shape_):
    for w in range(1, 32):
        for h in range(1, 32):
            want = cv2.getStructuringElement(shape_, (w, h))
            check(go.getStructuringElement(shape_, (w, h)), want)
    for anchor in ((0, 0), (2, 1), (-1, 0), (4, 2)):
        check(
            go.getStructuringElement(shape_, (5, 3), anchor),
            cv2.getStructuringElement(shape_, (5, 3), anchor),
        )


@pytest.mark.parametrize("dtype", DTYPES)
def test_ops_dtypes_values(dtype):
    rng = np.random.default_rng(1)
    for (lo, hi), shape in itertools.product(PAIRS[dtype], SHAPES):
        a = two_valued(rng, shape, dtype, lo, hi)
        for op in OPS:
            for k in (None, np.ones((3, 3), np.uint8), cv2.getStructuringElement(2, (5, 5))):
                check(go.morphologyEx(a, op, k), cv2.morphologyEx(a, op, k))


def test_every_op_kernel_anchor_iterations():
    rng = np.random.default_rng(2)
    for shape in ((1, 1), (6, 63), (9, 65), (17, 5)):
        a = two_valued(rng, shape, np.uint8, 0, 255)
        for k in kernels(rng):
            h, w = k.shape
            for anchor in ((-1, -1), (0, 0), (w - 1, h - 1), (w // 2, 0)):
                for it in (0, 1, 2, 3, -1):
                    for op in OPS:
                        want = cv2.morphologyEx(a, op, k, anchor=anchor, iterations=it)
                        check(go.morphologyEx(a, op, k, anchor=anchor, iterations=it), want)
                    for ours, theirs in ((go.erode, cv2.erode), (go.dilate, cv2.dilate)):
                        want = theirs(a, k, anchor=anchor, iterations=it)
                        check(ours(a, k, anchor=anchor, iterations=it), want)


def test_many_iterations():
    # Full rectangles run as one rectangle (cut to the image), other kernels in chunks of
    # native steps: both as OpenCV, with every border.
    rng = np.random.default_rng(10)
    a = two_valued(rng, (9, 66), np.uint8, 0, 255, 0.7)
    odd = np.array([[0, 1, 0], [1, 1, 0], [0, 1, 1]], np.uint8)
    for k, it in ((None, 1000), (np.ones((2, 3), np.uint8), 777), (odd, 300)):
        for border in (0, 1, 2, 4):
            for op in (go.MORPH_ERODE, go.MORPH_CLOSE):
                want = cv2.morphologyEx(a, op, k, iterations=it, borderType=border)
                check(go.morphologyEx(a, op, k, iterations=it, borderType=border), want)
    check(go.erode(a, None, iterations=2**30), np.zeros_like(a))


def test_default_kernel_iterations():
    rng = np.random.default_rng(3)
    a = two_valued(rng, (20, 70), np.uint8, 0, 1)
    for it in (0, 1, 2, 3):
        for anchor in ((-1, -1), (0, 0), (2, 1)):
            for ours, theirs in ((go.erode, cv2.erode), (go.dilate, cv2.dilate)):
                want = theirs(a, None, anchor=anchor, iterations=it)
                check(ours(a, None, anchor=anchor, iterations=it), want)
            for op in OPS:
                want = cv2.morphologyEx(a, op, None, anchor=anchor, iterations=it)
                check(go.morphologyEx(a, op, None, anchor=anchor, iterations=it), want)
    check(go.erode(a, np.zeros((0, 3), np.uint8)), cv2.erode(a, np.zeros((0, 3), np.uint8)))


@pytest.mark.parametrize("border", [0, 1, 2, 4, 16, 17, 18, 20])
def test_border_types(border):
    rng = np.random.default_rng(4)
    for shape in ((1, 1), (1, 5), (2, 2), (7, 64), (12, 9)):
        for dtype, (lo, hi) in (
            (np.uint8, (0, 255)),
            (np.float32, (0.0, 1.0)),
            (np.int16, (-3, 4)),
        ):
            a = two_valued(rng, shape, dtype, lo, hi, 0.6)
            for k in kernels(rng):
                for it in (1, 2):
                    for op in OPS:
                        want = cv2.morphologyEx(a, op, k, iterations=it, borderType=border)
                        try:
                            got = go.morphologyEx(a, op, k, iterations=it, borderType=border)
                        except ValueError as e:
                            # Windows that miss the image read OpenCV's default border
                            # value (the type's extreme): a third value, refused.
                            assert "third value" in str(e) and border in (0, 16)
                            assert k[k.shape[0] // 2, k.shape[1] // 2] == 0
                            continue
                        check(got, want)


def test_border_values():
    rng = np.random.default_rng(5)
    for dtype, (lo, hi) in ((np.uint8, (0, 255)), (np.uint8, (0, 1)), (np.float64, (-1.0, 2.0))):
        a = two_valued(rng, (9, 66), dtype, lo, hi)
        for bv in (lo, hi, (hi, 0, 0, 0), [lo]):
            for op in OPS:
                for k in (None, np.array([[1, 0, 1]], np.uint8)):
                    try:
                        want = cv2.morphologyEx(a, op, k, borderValue=bv)
                    except cv2.error:
                        continue
                    check(go.morphologyEx(a, op, k, borderValue=bv), want)
    # Values beyond the image's saturate and have no effect, as in OpenCV.
    a = two_valued(rng, (8, 8), np.uint8, 0, 255)
    check(go.erode(a, None, borderValue=300), cv2.erode(a, None, borderValue=300))
    check(go.dilate(a, None, borderValue=-5), cv2.dilate(a, None, borderValue=-5))
    # Beyond the C int range OpenCV's rounding gives INT_MIN (then 0 for uint8); the
    # default is all four channels at DBL_MAX, any other tuple an explicit value.
    dbl = np.finfo(np.float64).max
    for bv in (1e10, -1e10, dbl, (dbl,), [dbl, dbl], (dbl, dbl, dbl, 0), 254.6, -0.4, 0.5):
        for op in OPS:
            want = cv2.morphologyEx(a, op, None, borderValue=bv)
            check(go.morphologyEx(a, op, None, borderValue=bv), want)
    # One-valued images take the border as their second value.
    ones = np.full((5, 6), 7, np.uint16)
    for op in OPS:
        want = cv2.morphologyEx(ones, op, None, borderValue=2)
        check(go.morphologyEx(ones, op, None, borderValue=2), want)
    # A kernel without its anchor on a thin image: OpenCV writes its default border value.
    thin = two_valued(rng, (1, 9), np.uint8, 0, 255)
    k = np.array([[1], [0], [1]], np.uint8)
    check(go.erode(thin, k), cv2.erode(thin, k))
    check(go.dilate(thin, k), cv2.dilate(thin, k))
    with pytest.raises(ValueError, match="third value"):
        go.erode(thin // 255, k)  # 0/1 image, the border's 255 shows


def test_hitmiss():
    rng = np.random.default_rng(6)
    ks = [
        np.array([[0, 1, 0], [-1, 1, -1], [0, 0, 0]], np.int32),
        np.array([[1, -1]], np.int8),
        np.array([[-1, -1, -1], [-1, 1, -1], [-1, -1, -1]], np.float64),
        np.array([[1, 1], [1, 1]], np.int16),
        np.array([[2]], np.int32),
        np.zeros((3, 3), np.int32),
    ]
    for shape in ((1, 1), (5, 63), (30, 65)):
        for lo, hi in ((0, 255), (0, 1), (3, 200)):
            a = two_valued(rng, shape, np.uint8, lo, hi, 0.4)
            for k in ks:
                for it in (0, 1, 2):
                    for border in (0, 1, 4):
                        kw = dict(iterations=it, borderType=border)
                        want = cv2.morphologyEx(a, go.MORPH_HITMISS, k, **kw)
                        try:
                            got = go.morphologyEx(a, go.MORPH_HITMISS, k, **kw)
                        except ValueError as e:
                            # A 0/1 image whose windows miss it read OpenCV's 255.
                            assert "third value" in str(e) and hi != 255 and border == 0
                            assert k[k.shape[0] // 2, k.shape[1] // 2] != 1
                            continue
                        check(got, want)


def test_layouts_and_shapes():
    rng = np.random.default_rng(7)
    k = cv2.getStructuringElement(go.MORPH_ELLIPSE, (5, 3))
    for shape in SHAPES:
        base = two_valued(rng, shape, np.uint8, 0, 255)
        for op in OPS:
            want = cv2.morphologyEx(base, op, k)
            for a in layouts(base):
                check(go.morphologyEx(a, op, k), want)
        hm = np.array([[0, 1, 0], [-1, 1, -1]], np.int8)
        for pair in ((0, 255), (0, 1), (9, 30)):
            two = two_valued(rng, shape, np.uint8, *pair)
            want = cv2.morphologyEx(two, go.MORPH_HITMISS, hm)
            for a in layouts(two):
                try:
                    got = go.morphologyEx(a, go.MORPH_HITMISS, hm)
                except ValueError as e:  # a 1-pixel-wide image: windows miss it
                    assert "third value" in str(e) and min(shape) < 3
                    continue
                check(got, want)
    a = two_valued(rng, (9,), np.uint8, 0, 255)
    check(go.erode(a, np.array([[1, 1, 0]], np.uint8)), cv2.erode(a, np.array([[1, 1, 0]], np.uint8)))
    a3 = two_valued(rng, (6, 7, 1), np.uint8, 0, 1)
    check(go.dilate(a3, None), cv2.dilate(a3, None))


def test_bool_extension():
    rng = np.random.default_rng(8)
    a = rng.random((20, 65)) < 0.5
    for op in OPS:
        want = cv2.morphologyEx(a.astype(np.uint8), op, None) != 0
        check(go.morphologyEx(a, op, None), want)
    want = cv2.morphologyEx(a.astype(np.uint8) * 255, go.MORPH_HITMISS, np.array([[1, -1]], np.int32)) != 0
    check(go.morphologyEx(a, go.MORPH_HITMISS, np.array([[1, -1]], np.int32)), want)


def test_dst():
    rng = np.random.default_rng(9)
    a = two_valued(rng, (8, 70), np.uint8, 0, 255)
    want = cv2.morphologyEx(a, go.MORPH_CLOSE, None)
    d = np.zeros_like(a)
    assert go.morphologyEx(a, go.MORPH_CLOSE, None, dst=d) is d
    check(d, want)
    strided = np.zeros((8, 140), np.uint8)[:, ::2]
    assert go.morphologyEx(a, go.MORPH_CLOSE, None, dst=strided) is strided
    check(strided, want)
    other = np.zeros((8, 70), np.float32)
    got = go.erode(a, None, dst=other)
    assert got is not other and not other.any()
    f = two_valued(rng, (8, 70), np.float32, 0, 1)
    d = np.empty_like(f)
    assert go.morphologyEx(f, go.MORPH_GRADIENT, None, dst=d) is d
    check(d, cv2.morphologyEx(f, go.MORPH_GRADIENT, None))
    d = a.copy()  # dst the source itself, as cv2 allows
    go.dilate(d, None, dst=d)
    check(d, cv2.dilate(a, None))


@given(
    h=st.integers(1, 40),
    w=st.integers(1, 70),
    p=st.floats(0, 1),
    op=st.integers(0, 6),
    shape_=st.integers(0, 3),
    kw=st.integers(1, 7),
    kh=st.integers(1, 7),
    it=st.integers(0, 3),
    border=st.sampled_from([0, 1, 2, 4]),
    seed=st.integers(0, 2**32 - 1),
)
def test_hypothesis(h, w, p, op, shape_, kw, kh, it, border, seed):
    rng = np.random.default_rng(seed)
    a = two_valued(rng, (h, w), np.uint8, 0, 255, p)
    k = cv2.getStructuringElement(shape_, (kw, kh))
    anchor = (int(rng.integers(-1, kw)), int(rng.integers(-1, kh)))
    want = cv2.morphologyEx(a, op, k, anchor=anchor, iterations=it, borderType=border)
    check(go.morphologyEx(a, op, k, anchor=anchor, iterations=it, borderType=border), want)


@given(
    dtype=st.sampled_from(DTYPES),
    pair=st.integers(0, 2),
    h=st.integers(1, 20),
    w=st.integers(1, 70),
    op=st.integers(0, 6),
    kernel=st.sampled_from(["none", "rect", "ellipse", "odd", "row"]),
    it=st.integers(0, 3),
    border=st.sampled_from([0, 1, 2, 4, 16, 20]),
    layout=st.integers(0, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_hypothesis_dtypes_layouts(dtype, pair, h, w, op, kernel, it, border, layout, seed):
    rng = np.random.default_rng(seed)
    lo, hi = PAIRS[dtype][pair % len(PAIRS[dtype])]
    base = two_valued(rng, (h, w), dtype, lo, hi, rng.random())
    a = list(layouts(base))[layout]
    k = {
        "none": None,
        "rect": np.ones((3, 5), np.uint8),
        "ellipse": cv2.getStructuringElement(go.MORPH_ELLIPSE, (7, 5)),
        "odd": np.array([[1, 1, 0], [0, 1, 0], [0, 1, 1]], np.uint8),
        "row": np.array([[1, 1, 1, 1]], np.uint8),
    }[kernel]
    want = cv2.morphologyEx(base, op, k, iterations=it, borderType=border)
    check(go.morphologyEx(a, op, k, iterations=it, borderType=border), want)


def test_bad_inputs():
    a = np.zeros((4, 5), np.uint8)
    a[0, 0] = 255
    k = np.ones((3, 3), np.uint8)
    three = a.copy()
    three[1, 1] = 7
    with pytest.raises(ValueError, match="third value 7"):
        go.erode(three, k)
    with pytest.raises(ValueError, match="op"):
        go.morphologyEx(a, 8, k)
    with pytest.raises(TypeError, match="op"):
        go.morphologyEx(a, 1.0, k)
    with pytest.raises(ValueError, match="kernel"):
        go.erode(a, np.ones((3, 3, 2), np.uint8))
    with pytest.raises(ValueError, match="kernel"):
        go.erode(a, np.zeros((3, 3), np.uint8))
    with pytest.raises(TypeError, match="kernel"):
        go.erode(a, np.array([["x"]]))
    for anchor in ((3, 0), (-2, 0), (0,)):
        with pytest.raises(ValueError, match="anchor"):
            go.erode(a, k, anchor=anchor)
    with pytest.raises(TypeError, match="anchor"):
        go.erode(a, k, anchor=5)
    for bt in (3, 5, 19, 21, 32, -1):
        with pytest.raises(ValueError, match="borderType"):
            go.erode(a, k, borderType=bt)
    with pytest.raises(TypeError, match="borderType"):
        go.erode(a, k, borderType=1.0)
    with pytest.raises(ValueError, match="borderValue"):
        go.erode(a, k, borderValue=100)
    with pytest.raises(TypeError, match="borderValue"):
        go.erode(a, k, borderValue="x")
    with pytest.raises(TypeError, match="iterations"):
        go.erode(a, k, iterations=1.5)
    with pytest.raises(TypeError, match="iterations"):
        go.erode(a, k, iterations=True)
    with pytest.raises(ValueError, match="iterations"):
        go.erode(a, None, iterations=-1)
    with pytest.raises(ValueError, match="iterations"):
        go.erode(a, k, iterations=2**31)
    for bad in (a.astype(np.int8), a.astype(np.int32), a.astype(np.float16)):
        with pytest.raises(TypeError, match="src"):
            go.erode(bad, k)
    with pytest.raises(ValueError, match="channels"):
        go.erode(np.dstack([a, a, a]), k)
    with pytest.raises(ValueError, match="empty"):
        go.erode(np.zeros((0, 5), np.uint8), k)
    with pytest.raises(ValueError, match="NaN"):
        go.erode(np.array([[np.nan, 1.0]]), k)
    with pytest.raises(TypeError, match="src"):
        go.morphologyEx(a.astype(np.uint16), go.MORPH_HITMISS, k)
    with pytest.raises(ValueError, match="shape"):
        go.getStructuringElement(4, (3, 3))
    with pytest.raises(ValueError, match="ksize"):
        go.getStructuringElement(0, (0, 3))
    with pytest.raises(TypeError, match="ksize"):
        go.getStructuringElement(0, 3)
    with pytest.raises(ValueError, match="anchor"):
        go.getStructuringElement(1, (3, 3), (5, 5))
