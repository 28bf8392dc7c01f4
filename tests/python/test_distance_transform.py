"""gridbits' distance transforms against scipy.ndimage (distance_transform_cdt and
distance_transform_edt: distances and indices to the last bit, ties included) and OpenCV
(cv2.distanceTransform), on random images of many shapes, dtypes and layouts."""

import cv2
import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy import ndimage

from conftest import EDGE_SHAPES, edge_examples, images
from gridbits import ndimage as gnd
from gridbits import opencv as gcv

cv2.setNumThreads(1)

METRICS = ["chessboard", "taxicab", "cityblock", "manhattan"]
SAMPLINGS = [None, 2, 0.5, (1, 1), (2.0, 1.0), (1, 3), (0.3, 1.7), (1e-3, 7.1), [0.9, 0.1]]


def _tie_images():
    """Images full of equidistant background pixels: lattices and checkers of zeros."""
    out = []
    for shape in [(9, 9), (20, 31), (64, 65), (33, 128)]:
        for step in (2, 3, 4, 5, 7):
            a = np.ones(shape, bool)
            a[::step, ::step] = False
            out.append(a)
            b = np.ones(shape, bool)
            b[1::step, ::step + 1] = False
            b[::step + 2, 2::step] = False
            out.append(b)
        yy, xx = np.indices(shape)
        out.append((yy + xx) % 4 != 0)
        out.append(((yy * 3 + xx * 5) % 11) != 0)
    return out


def _equal(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _equal(g, w)
        return
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def _structures():
    rng = np.random.default_rng(5)
    return [rng.random((3, 3)) < 0.5 for _ in range(6)] + [
        ndimage.generate_binary_structure(2, 1),
        np.ones((3, 3), int),
        np.zeros((3, 3)),
    ]


STRUCTURES = _structures()


@given(images(), st.sampled_from(range(len(METRICS) + len(STRUCTURES))))
@edge_examples([0, 1, len(METRICS)])
def test_cdt_equals_scipy(img, k):
    metric = METRICS[k] if k < len(METRICS) else STRUCTURES[k - len(METRICS)]
    want = ndimage.distance_transform_cdt(img, metric, return_indices=True)
    _equal(gnd.distance_transform_cdt(img, metric, return_indices=True), want)
    _equal(gnd.distance_transform_cdt(img, metric), want[0])
    _equal(gnd.distance_transform_cdt(img, metric, return_distances=False, return_indices=True), want[1])


@given(images(), st.sampled_from(SAMPLINGS))
@edge_examples(SAMPLINGS[:4])
def test_edt_equals_scipy(img, sampling):
    want = ndimage.distance_transform_edt(img, sampling, return_indices=True)
    _equal(gnd.distance_transform_edt(img, sampling, return_indices=True), want)
    _equal(gnd.distance_transform_edt(img, sampling), want[0])
    _equal(gnd.distance_transform_edt(img, sampling, return_distances=False, return_indices=True), want[1])


def _both_equal_scipy(img, samplings):
    """Both transforms with indices equal scipy's: edt with each of ``samplings``, cdt with
    both metrics."""
    for sampling in samplings:
        _equal(
            gnd.distance_transform_edt(img, sampling, return_indices=True),
            ndimage.distance_transform_edt(img, sampling, return_indices=True),
        )
    for metric in ("chessboard", "taxicab"):
        _equal(
            gnd.distance_transform_cdt(img, metric, return_indices=True),
            ndimage.distance_transform_cdt(img, metric, return_indices=True),
        )


@pytest.mark.parametrize("i", range(len(_tie_images())))
def test_ties_pick_scipys_pixel(i):
    _both_equal_scipy(_tie_images()[i], (None, (1, 2), (0.7, 0.7)))


def _layouts(img):
    """The same image in other dtypes and memory layouts (values: nonzero is set)."""
    yield np.asfortranarray(img)
    yield img.astype(np.float32) * 0.5
    yield img.astype(np.int64) * -3
    yield img.astype(np.uint8) * 255
    yield img.astype(np.complex128) * 1j
    big = np.zeros((img.shape[0] * 2, img.shape[1] * 3), bool)
    big[::2, ::3] = img
    yield big[::2, ::3]
    yield np.ascontiguousarray(img[::-1, ::-1])[::-1, ::-1]
    yield np.ascontiguousarray(img.T).T


@pytest.mark.parametrize("shape", EDGE_SHAPES + [(40, 130), (130, 3)])
def test_layouts_and_dtypes(shape):
    img = np.random.default_rng(sum(shape)).random(shape) < 0.7
    want_c = ndimage.distance_transform_cdt(img, "taxicab", return_indices=True)
    want_e = ndimage.distance_transform_edt(img, (1, 2), return_indices=True)
    for a in _layouts(img):
        _equal(gnd.distance_transform_cdt(a, "taxicab", return_indices=True), want_c)
        _equal(gnd.distance_transform_edt(a, (1, 2), return_indices=True), want_e)
        # Lists work too.
    _equal(gnd.distance_transform_edt(img.tolist()), ndimage.distance_transform_edt(img.tolist()))


@pytest.mark.parametrize("fill", [0, 1])
@pytest.mark.parametrize("shape", [(0,), (1,), (7,), (65,), (200,)])
def test_one_dimension(shape, fill):
    rng = np.random.default_rng(shape[0])
    for img in (rng.random(shape) < 0.6, np.full(shape, fill)):
        for metric in ("chessboard", "taxicab", [1, 0, 0], [0, 0, 1]):
            _equal(
                gnd.distance_transform_cdt(img, metric, return_indices=True),
                ndimage.distance_transform_cdt(img, metric, return_indices=True),
            )
        for sampling in (None, 3.0, [0.5]):
            _equal(
                gnd.distance_transform_edt(img, sampling, return_indices=True),
                ndimage.distance_transform_edt(img, sampling, return_indices=True),
            )


def test_scalar_edt():
    for v in (0, 1, 2.5):
        _equal(
            gnd.distance_transform_edt(v, return_indices=True),
            ndimage.distance_transform_edt(v, return_indices=True),
        )


@pytest.mark.parametrize("shape", [(1, 1), (3, 70), (65, 2)])
def test_in_place_outputs(shape):
    rng = np.random.default_rng(7)
    for img in (rng.random(shape) < 0.6, np.ones(shape, bool)):
        # Old values of ``indices`` matter in scipy (cdt maps them; edt keeps them without
        # background): the same garbage goes to both.
        garbage = rng.integers(-5, 50, size=(2,) + shape).astype(np.int32)
        for fn, kw, dtype in (
            ("distance_transform_cdt", {"metric": "taxicab"}, np.int32),
            ("distance_transform_edt", {"sampling": (2, 1)}, np.float64),
        ):
            outs = []
            for lib in (ndimage, gnd):
                d = np.full(shape, 9, dtype)
                i = garbage.copy()
                r = getattr(lib, fn)(img, return_indices=True, distances=d, indices=i, **kw)
                outs.append((r, d, i))
            assert outs[0][0] is None and outs[1][0] is None
            _equal(outs[1][1], outs[0][1])
            _equal(outs[1][2], outs[0][2])
            # One in place, the other returned.
            for lib in (ndimage, gnd):
                d = np.zeros(shape, dtype)
                r = getattr(lib, fn)(img, return_indices=True, distances=d, **kw)
                outs.append((r, d))
            _equal(outs[3][0], outs[2][0])
            _equal(outs[3][1], outs[2][1])


def _error(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001
        return type(e)
    return None


@pytest.mark.parametrize(
    "kwargs",
    [
        {"return_distances": False},
        {"return_distances": False, "distances": np.zeros((3, 4), np.int32), "return_indices": True},
        {"indices": np.zeros((2, 3, 4), np.int32)},
        {"distances": np.zeros((3, 4), np.int64)},
        {"distances": np.zeros((4, 3), np.int32)},
        {"distances": np.zeros((3, 4), np.float64)},
        {"distances": np.zeros((4, 3), np.float64)},
        {"indices": np.zeros((2, 3, 4), np.int64), "return_indices": True},
        {"indices": np.zeros((2, 4, 3), np.int32), "return_indices": True},
        {"metric": "euclid"},
        {"metric": np.ones((3, 4))},
        {"sampling": (1, 2, 3)},
    ],
)
def test_errors_are_scipys(kwargs):
    img = np.ones((3, 4), bool)
    img[1, 1] = False
    for fn, drop in (("distance_transform_cdt", "sampling"), ("distance_transform_edt", "metric")):
        kw = {k: v for k, v in kwargs.items() if k != drop}
        want = _error(getattr(ndimage, fn), img, **kw)
        assert _error(getattr(gnd, fn), img, **kw) == want, (fn, kw)


def test_bad_input():
    with pytest.raises(ValueError, match="metric"):
        gnd.distance_transform_cdt(np.ones((2, 2)), np.ones(3, bool))
    with pytest.raises(ValueError, match="input"):
        gnd.distance_transform_edt(np.ones((2, 2, 2)))
    with pytest.raises(TypeError, match="input"):
        gnd.distance_transform_cdt(np.array(["a", "b"]))
    with pytest.raises(TypeError, match="sampling"):
        gnd.distance_transform_edt(np.ones((2, 2)), sampling="ab")
    for bad in (0, -1, np.inf, np.nan, 1e-300, (1, 1e300)):
        with pytest.raises(ValueError, match="sampling"):
            gnd.distance_transform_edt(np.ones((2, 2)), sampling=bad)


@pytest.mark.parametrize("sampling", [(1e-100, 1), (1e100, 1e100), (1e-100, 1e100), (3e-50, 7e40)])
def test_extreme_samplings_equal_scipy(sampling):
    img = np.random.default_rng(1).random((60, 70)) < 0.8
    _equal(
        gnd.distance_transform_edt(img, sampling, return_indices=True),
        ndimage.distance_transform_edt(img, sampling, return_indices=True),
    )


# OpenCV


def test_constants_are_cv2s():
    for name in ("DIST_L1", "DIST_L2", "DIST_C", "DIST_MASK_3", "DIST_MASK_5", "DIST_MASK_PRECISE", "CV_8U", "CV_32F"):
        assert getattr(gcv, name) == getattr(cv2, name), name


def _cv_cases(img):
    u8 = img.astype(np.uint8)
    for t in (cv2.DIST_L1, cv2.DIST_C):
        for m in (cv2.DIST_MASK_3, cv2.DIST_MASK_5, cv2.DIST_MASK_PRECISE):
            yield u8, (t, m), {}
    yield u8, (cv2.DIST_L1, 3), {"dstType": cv2.CV_8U}
    yield u8, (cv2.DIST_C, 3), {"dstType": cv2.CV_8U}


@given(images(min_side=1), st.sampled_from([0.0, 0.5, 0.9, 0.995]))
@edge_examples([0.5], min_side=1)
def test_distance_transform_equals_cv2(img, keep):
    # Sparser backgrounds than images() draws, for long distances.
    img = img | (np.random.default_rng(img.size).random(img.shape) < keep)
    for u8, args, kw in _cv_cases(img):
        _equal(gcv.distanceTransform(u8, *args, **kw), cv2.distanceTransform(u8, *args, **kw))
    want = cv2.distanceTransform(img.astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
    got = gcv.distanceTransform(img, gcv.DIST_L2, gcv.DIST_MASK_PRECISE)
    assert got.dtype == want.dtype == np.float32
    if img.all():
        _equal(got, want)
    else:
        # OpenCV's IPP can be one or two units in the last place off the square root;
        # gridbits' values are the correctly rounded ones.
        np.testing.assert_array_max_ulp(got, want, maxulp=2)
        sq = np.rint(ndimage.distance_transform_edt(img) ** 2)
        _equal(got, np.sqrt(sq.astype(np.float32)))
        small = sq < 37
        _equal(got[small], want[small])


def test_distance_transform_dst_and_shapes():
    img = np.random.default_rng(3).random((5, 70)) < 0.8
    want = cv2.distanceTransform(img.astype(np.uint8), cv2.DIST_L1, 3)
    dst = np.zeros((5, 70), np.float32)
    assert gcv.distanceTransform(img, gcv.DIST_L1, 3, dst) is dst
    _equal(dst, want)
    # Wrong dst: a new array, dst untouched.
    bad = np.zeros((5, 70), np.float64)
    _equal(gcv.distanceTransform(img, gcv.DIST_L1, 3, bad), want)
    assert not bad.any()
    row = img[0].astype(np.uint8)
    _equal(gcv.distanceTransform(row, gcv.DIST_C, 3), cv2.distanceTransform(row, cv2.DIST_C, 3))
    _equal(gcv.distanceTransform(img[:, :, None], gcv.DIST_C, 3), want * 0 + cv2.distanceTransform(img.astype(np.uint8), cv2.DIST_C, 3))
    assert gcv.distanceTransform(np.zeros((0, 4)), gcv.DIST_L1, 3).shape == (0, 4)


def test_distance_transform_errors():
    img = np.ones((4, 4), np.uint8)
    with pytest.raises(ValueError, match="DIST_MASK_PRECISE"):
        gcv.distanceTransform(img, gcv.DIST_L2, gcv.DIST_MASK_3)
    with pytest.raises(ValueError, match="maskSize"):
        gcv.distanceTransform(img, gcv.DIST_L1, 7)
    with pytest.raises(ValueError, match="distanceType"):
        gcv.distanceTransform(img, 9, 3)
    with pytest.raises(TypeError, match="distanceType"):
        gcv.distanceTransform(img, "l1", 3)
    with pytest.raises(ValueError, match="src"):
        gcv.distanceTransform(np.ones((2, 2, 2)), gcv.DIST_L1, 3)


@pytest.mark.parametrize("density", [0.5, 0.9, 0.99, 0.9995])
def test_larger_images(density):
    img = np.random.default_rng(int(density * 1e4)).random((300, 517)) < density
    _both_equal_scipy(img, (None, (1.3, 0.4)))


@given(images(min_side=1), st.sampled_from([0.0, 0.5, 0.9, 0.99]))
@edge_examples([0.5], min_side=1)
def test_distance_transform_with_labels_equals_cv2(img, keep):
    img = img | (np.random.default_rng(img.size + 1).random(img.shape) < keep)
    u8 = img.astype(np.uint8)
    for t in (cv2.DIST_L1, cv2.DIST_C, cv2.DIST_L2):
        for m in (3, 5, 0):
            for lt in (cv2.DIST_LABEL_CCOMP, cv2.DIST_LABEL_PIXEL):
                want = cv2.distanceTransformWithLabels(u8, t, m, labelType=lt)
                _equal(gcv.distanceTransformWithLabels(img, t, m, labelType=lt), want)


def test_distance_transform_with_labels_outputs_and_errors():
    img = np.random.default_rng(4).random((6, 70)) < 0.8
    want = cv2.distanceTransformWithLabels(img.astype(np.uint8), cv2.DIST_L2, 5)
    dst, labels = np.zeros((6, 70), np.float32), np.zeros((6, 70), np.int32)
    got = gcv.distanceTransformWithLabels(img, gcv.DIST_L2, 5, dst, labels)
    assert got[0] is dst and got[1] is labels
    _equal(got, want)
    assert gcv.DIST_LABEL_CCOMP == cv2.DIST_LABEL_CCOMP and gcv.DIST_LABEL_PIXEL == cv2.DIST_LABEL_PIXEL
    with pytest.raises(ValueError, match="labelType"):
        gcv.distanceTransformWithLabels(img, gcv.DIST_L1, 5, labelType=2)
    with pytest.raises(TypeError, match="maskSize"):
        gcv.distanceTransformWithLabels(img, gcv.DIST_L1, "5")
    d, lab = gcv.distanceTransformWithLabels(np.zeros((0, 3)), gcv.DIST_L1, 5)
    assert d.shape == lab.shape == (0, 3) and d.dtype == np.float32 and lab.dtype == np.int32
