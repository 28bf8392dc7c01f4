"""gridbits.opencv's quick path with the two-value check fused into the engine's packing
(``cv_morph_into``): a third value anywhere still raises exactly as the general path does,
and the quick path and the general path give the same arrays (and cv2's) on every op,
kernel, border, dtype and layout, images of zeros alone and of one value included."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridbits import _cvmorph as cm
from gridbits import opencv as go

cv2 = pytest.importorskip("cv2")

SHAPES = [(1, 1), (1, 9), (9, 1), (3, 63), (4, 64), (5, 65), (2, 127), (3, 129), (70, 3), (17, 40)]
HIS = [255, 1, 77]
QUICK_OPS = [go.MORPH_ERODE, go.MORPH_DILATE, go.MORPH_OPEN, go.MORPH_CLOSE, go.MORPH_GRADIENT]
ALL_OPS = list(range(7))
BORDERS = [go.BORDER_CONSTANT, go.BORDER_CONSTANT | go.BORDER_ISOLATED]


def kernels():
    """Kernels of each native engine: the 3x3 box (rectangle, cross, ellipse = cross),
    rectangles (15x15, 5x3), an ellipse of 15x15 (stripes), and an asymmetric one
    (erosion only on the quick path)."""
    yield None
    for shape in (go.MORPH_RECT, go.MORPH_CROSS, go.MORPH_ELLIPSE):
        yield cv2.getStructuringElement(shape, (3, 3))
    yield cv2.getStructuringElement(go.MORPH_RECT, (15, 15))
    yield cv2.getStructuringElement(go.MORPH_RECT, (5, 3))
    yield cv2.getStructuringElement(go.MORPH_ELLIPSE, (15, 15))
    yield np.array([[1, 1, 0], [0, 1, 1], [0, 0, 1]], np.uint8)


def image(rng, shape, hi, p):
    return np.where(rng.random(shape) < p, np.uint8(hi), np.uint8(0)).astype(np.uint8)


def check(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def general(op, a, k, border=go.BORDER_CONSTANT):
    return cm._morph_op(op, a, k, None, (-1, -1), 1, border, cm._DEFAULT_BORDER, True)


def quick(op, a, k, border=go.BORDER_CONSTANT):
    return cm._quick(op, a, k, None, (-1, -1), 1, border, cm._DEFAULT_BORDER)


def eligible(op, k):
    """Whether the quick path takes the kernel ``k`` for ``op`` (an odd, symmetric kernel
    holding its middle cell, or any such kernel for an erosion)."""
    if k is None:
        return True
    h, w = k.shape
    if not k[h // 2, w // 2]:
        return False
    return op == go.MORPH_ERODE or (h % 2 == 1 and w % 2 == 1 and np.array_equal(k, k[::-1, ::-1]))


def source_error(a):
    """The message the general path's value check gives for ``a``."""
    with pytest.raises(ValueError) as e:
        cm._source(a)
    return str(e.value)


def test_fast_and_general_paths_agree():
    rng = np.random.default_rng(31)
    for shape in SHAPES:
        for hi in HIS:
            for p in (0.0, 0.3, 0.5, 1.0):
                a = image(rng, shape, hi, p)
                for k in kernels():
                    for op in QUICK_OPS:
                        for border in BORDERS:
                            q = quick(op, a, k, border)
                            want = cv2.morphologyEx(a, op, k, borderType=border)
                            check(general(op, a, k, border), want)
                            if q is None:
                                # Zeros alone, or a kernel the quick path does not take.
                                assert not a.any() or not eligible(op, k), (shape, hi, p, op, k)
                                continue
                            check(q, want)
                    for op in ALL_OPS:
                        check(go.morphologyEx(a, op, k), cv2.morphologyEx(a, op, k))
                    if k is not None:
                        check(go.erode(a, k), cv2.erode(a, k))
                        check(go.dilate(a, k), cv2.dilate(a, k))


def layouts(a):
    yield np.asfortranarray(a)
    big = np.zeros((a.shape[0] * 2, a.shape[1] * 3), a.dtype)
    big[::2, ::3] = a
    yield big[::2, ::3]
    yield np.ascontiguousarray(a[::-1, ::-1])[::-1, ::-1]
    yield np.ascontiguousarray(a.T).T


def test_dtypes_and_layouts_match_the_quick_path():
    rng = np.random.default_rng(32)
    for shape in [(5, 65), (64, 3), (6, 129)]:
        a = image(rng, shape, 255, 0.5)
        for k in kernels():
            for op in ALL_OPS:
                fast = go.morphologyEx(a, op, k)
                check(fast, cv2.morphologyEx(a, op, k))
                for b in layouts(a):
                    check(go.morphologyEx(b, op, k), fast)
                as_bool = go.morphologyEx(a > 0, op, k)
                check(as_bool, fast > 0)
                wide = a.astype(np.uint16) * 257
                check(go.morphologyEx(wide, op, k), cv2.morphologyEx(wide, op, k))


@pytest.mark.parametrize("where", ["first", "last", "middle", "row end", "random"])
def test_third_value_raises_as_before(where):
    rng = np.random.default_rng(33)
    for shape in [(2, 2), (3, 5), (4, 64), (2, 65), (5, 129), (40, 40)]:
        for hi, third in [(255, 7), (1, 2), (128, 255), (200, 199)]:
            a = image(rng, shape, hi, 0.5)
            a.flat[0], a.flat[-1] = 0, hi  # both values present
            pos = {
                "first": 0,
                "last": a.size - 1,
                "middle": a.size // 2,
                "row end": a.shape[1] - 1,
                "random": int(rng.integers(a.size)),
            }[where]
            a.flat[pos] = third
            if len(np.unique(a)) < 3:
                continue
            msg = source_error(a)
            assert "third value" in msg
            for k in kernels():
                for op in ALL_OPS:
                    with pytest.raises(ValueError) as e:
                        go.morphologyEx(a, op, k)
                    assert str(e.value) == msg
                if k is not None:
                    for f in (go.erode, go.dilate):
                        with pytest.raises(ValueError) as e:
                            f(a, k)
                        assert str(e.value) == msg


def test_one_valued_images():
    # All zeros (the quick call declines), all hi (the quick path runs): as cv2.
    for shape in [(1, 1), (3, 64), (5, 65)]:
        for v in (0, 1, 255):
            a = np.full(shape, v, np.uint8)
            for k in kernels():
                for op in QUICK_OPS:
                    q = quick(op, a, k)
                    assert (q is None) == (v == 0 or not eligible(op, k))
                    want = cv2.morphologyEx(a, op, k)
                    if q is not None:
                        check(q, want)
                    check(general(op, a, k), want)


def test_failed_fast_call_leaves_no_trace():
    # A quick call that finds a third value returns None; the next call is unaffected.
    a = np.zeros((8, 70), np.uint8)
    a[2:6, 3:60] = 255
    b = a.copy()
    b[7, 69] = 9
    k = np.ones((3, 3), np.uint8)
    for op in QUICK_OPS:
        assert quick(op, b, k) is None
        check(quick(op, a, k), cv2.morphologyEx(a, op, k))


@settings(max_examples=60, deadline=None)
@given(
    h=st.integers(1, 20),
    w=st.integers(1, 140),
    hi=st.integers(1, 255),
    third=st.integers(0, 255),
    pos=st.floats(0, 1, exclude_max=True),
    op=st.sampled_from(ALL_OPS),
    kernel=st.integers(0, 7),
    p=st.sampled_from([0.0, 0.2, 0.5, 1.0]),
    seed=st.integers(0, 2**32 - 1),
)
def test_hypothesis(h, w, hi, third, pos, op, kernel, p, seed):
    rng = np.random.default_rng(seed)
    a = image(rng, (h, w), hi, p)
    a.flat[int(pos * a.size)] = third
    k = list(kernels())[kernel]
    if len(np.unique(a)) > 2:
        msg = source_error(a)
        with pytest.raises(ValueError) as e:
            go.morphologyEx(a, op, k)
        assert str(e.value) == msg
    else:
        check(go.morphologyEx(a, op, k), cv2.morphologyEx(a, op, k))
