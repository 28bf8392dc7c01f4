"""gridbits.opencv against cv2: the same calls, the same results (OpenCV is installed by
`make test`)."""

import numpy as np
import pytest
from hypothesis import example, given, strategies as st

import gridbits
from gridbits import opencv as gcv
from conftest import edge_examples, images

cv2 = pytest.importorskip("cv2")


def test_constants_are_opencvs():
    for name in gcv.__all__:
        if name.isupper() or name.startswith(("CV_", "CCL_", "CC_STAT_")):
            assert getattr(gcv, name) == getattr(cv2, name), name


def _same_partition(lab, want):
    """The label images ``lab`` and ``want`` number the same partition (0 kept)."""
    pairs = np.unique(np.stack([lab.ravel(), want.ravel()]), axis=1)
    assert len(np.unique(pairs[0])) == len(np.unique(pairs[1])) == pairs.shape[1]
    assert ((pairs[0] == 0) == (pairs[1] == 0)).all()
    return dict(zip(pairs[0].tolist(), pairs[1].tolist()))


@edge_examples([4, 8], [gcv.CV_32S, gcv.CV_16U], min_side=1)  # OpenCV crashes on empty images
@example(np.random.default_rng(5).random((300, 257)) < 0.5, 8, gcv.CV_16U)
@given(images(min_side=1), st.sampled_from([4, 8]), st.sampled_from([gcv.CV_32S, gcv.CV_16U]))
def test_equals_opencv(img, conn, ltype):
    u8 = img.astype(np.uint8) * 255
    # SAUF numbers in raster order: everything identical.
    want = cv2.connectedComponentsWithStatsWithAlgorithm(u8, conn, ltype, cv2.CCL_SAUF)
    got = gcv.connectedComponentsWithStatsWithAlgorithm(u8, conn, ltype, gcv.CCL_SAUF)
    assert got[0] == want[0]
    assert got[1].dtype == want[1].dtype
    np.testing.assert_array_equal(got[1], want[1])
    assert got[2].dtype == want[2].dtype == np.int32
    assert got[3].dtype == want[3].dtype == np.float64
    # Row 0 of an image without background holds OpenCV's sentinels (see the module docs).
    first = 0 if not img.all() else 1
    np.testing.assert_array_equal(got[2][first:], want[2][first:])
    np.testing.assert_allclose(got[3][first:], want[3][first:])
    n, lab = gcv.connectedComponentsWithAlgorithm(u8, conn, ltype, gcv.CCL_SAUF)
    assert n == want[0]
    np.testing.assert_array_equal(lab, want[1])
    # The default algorithm: the same components and statistics, perhaps numbered otherwise.
    want = cv2.connectedComponentsWithStats(u8, connectivity=conn, ltype=ltype)
    got = gcv.connectedComponentsWithStats(u8, connectivity=conn, ltype=ltype)
    assert got[0] == want[0]
    to_cv = _same_partition(got[1], want[1])
    order = [to_cv[k] for k in range(1, got[0])]
    np.testing.assert_array_equal(got[2][1:], want[2][order])
    np.testing.assert_allclose(got[3][1:], want[3][order])
    n, lab = gcv.connectedComponents(u8, connectivity=conn, ltype=ltype)
    m, want_lab = cv2.connectedComponents(u8, connectivity=conn, ltype=ltype)
    assert n == m
    _same_partition(lab, want_lab)
    if conn == 4:
        np.testing.assert_array_equal(lab, want_lab)


def test_positional_arguments_are_opencvs():
    img = (np.random.default_rng(1).random((40, 50)) < 0.5).astype(np.uint8)
    # image, labels, stats, centroids, connectivity, ltype
    want = cv2.connectedComponentsWithStats(img, None, None, None, 4, cv2.CV_16U)
    got = gcv.connectedComponentsWithStats(img, None, None, None, 4, gcv.CV_16U)
    assert got[0] == want[0]
    np.testing.assert_array_equal(got[1], want[1])
    assert got[1].dtype == np.uint16
    # image, labels, connectivity, ltype
    want = cv2.connectedComponents(img, None, 4, cv2.CV_32S)
    got = gcv.connectedComponents(img, None, 4, gcv.CV_32S)
    assert got[0] == want[0]
    np.testing.assert_array_equal(got[1], want[1])


def test_output_arrays_as_opencv_uses_them():
    img = (np.random.default_rng(2).random((6, 9)) < 0.5).astype(np.uint8)
    n = cv2.connectedComponents(img, connectivity=4)[0]
    for mod in (cv2, gcv):
        # The right shape and dtype: written in place and returned.
        labels = np.full(img.shape, 7, np.int32)
        stats = np.zeros((n, 5), np.int32)
        cents = np.zeros((n, 2))
        r = mod.connectedComponentsWithStats(img, labels, stats, cents, 4)
        assert r[1] is labels and r[2] is stats and r[3] is cents, mod
        assert labels.max() == n - 1 and stats[:, 4].sum() == img.size
        # Another shape or dtype: left alone, a new array returned.
        wrong = [np.full((3, 9), 7, np.int32), np.full(img.shape, 7, np.uint16)]
        for out in wrong:
            r = mod.connectedComponents(img, out, 4)
            assert r[1] is not out and (out == 7).all(), mod
        small = np.zeros((1, 5), np.int32)
        r = mod.connectedComponentsWithStats(img, None, small, None, 4)
        assert r[2] is not small and r[2].shape == (n, 5) and not small.any(), mod


def test_one_dimension_is_a_row_and_other_dtypes_are_labelled():
    x = np.array([1, 0, 1, 1, 0, 0, 1], np.uint8)
    want = cv2.connectedComponentsWithStats(x)
    got = gcv.connectedComponentsWithStats(x)
    assert got[1].shape == want[1].shape == (1, 7)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    # OpenCV takes only 8-bit images; gridbits labels the nonzero pixels of any other.
    img = np.random.default_rng(3).random((20, 30))
    mask = (img > 0.5).astype(np.uint8)
    for other in (img > 0.5, np.where(img > 0.5, img, 0.0), (img > 0.5).astype(np.int64)):
        n, lab = gcv.connectedComponents(other)
        m, want = gcv.connectedComponents(mask)
        assert n == m
        np.testing.assert_array_equal(lab, want)


def test_empty_images_give_the_background_alone():
    for shape in [(0, 5), (5, 0), (0, 0)]:
        n, lab, stats, cents = gcv.connectedComponentsWithStats(np.zeros(shape, np.uint8))
        assert n == 1 and lab.shape == shape and lab.dtype == np.int32
        assert stats.shape == (1, 5) and cents.shape == (1, 2)
        assert gcv.connectedComponents(np.zeros(shape, np.uint8), ltype=gcv.CV_16U)[1].dtype == (
            np.uint16
        )


def test_more_labels_than_cv_16u_holds_is_refused_as_opencv_refuses():
    img = (np.arange(2 * 65536).reshape(1, -1) % 2 == 0).astype(np.uint8)  # 65536 components
    with pytest.raises(cv2.error):
        cv2.connectedComponents(img, ltype=cv2.CV_16U)
    with pytest.raises(ValueError, match="ltype: 65536 labels do not fit CV_16U"):
        gcv.connectedComponents(img, ltype=gcv.CV_16U)
    # 65535 components: labels up to 65535 fit. OpenCV refuses these already (it counts its
    # provisional labels, one more than it ends with here); gridbits writes them.
    ok = img[:, :-2]
    n, lab = gcv.connectedComponents(ok, ltype=gcv.CV_16U)
    m, want = cv2.connectedComponents(ok, ltype=cv2.CV_32S)
    assert n == m == 65536
    assert lab.dtype == np.uint16
    np.testing.assert_array_equal(lab, want)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"connectivity": 6}, "connectivity must be 4 or 8"),
        ({"connectivity": np.ones((3, 3))}, "not an array of shape"),
        ({"ltype": 5}, "ltype must be CV_32S"),
        ({"ltype": True}, "ltype must be CV_32S"),
    ],
)
def test_bad_arguments_are_value_errors(kwargs, words):
    img = np.ones((3, 3), np.uint8)
    with pytest.raises(ValueError, match=words):
        gcv.connectedComponents(img, **kwargs)
    with pytest.raises(ValueError, match=words):
        gcv.connectedComponentsWithStats(img, **kwargs)


def test_opencv_refuses_what_gridbits_refuses():
    img = np.ones((3, 3), np.uint8)
    for kwargs in ({"connectivity": 6}, {"ltype": 5}):
        with pytest.raises(cv2.error):
            cv2.connectedComponents(img, **kwargs)
        with pytest.raises(ValueError):
            gcv.connectedComponents(img, **kwargs)


def test_bad_algorithm_and_images():
    img = np.ones((3, 3), np.uint8)
    with pytest.raises(ValueError, match="ccltype"):
        gcv.connectedComponentsWithAlgorithm(img, 8, gcv.CV_32S, 9)
    with pytest.raises(ValueError, match="image: expected a 2D array"):
        gcv.connectedComponents(np.ones((2, 2, 2), np.uint8))
    with pytest.raises(TypeError, match="image: expected an array of bool or numbers"):
        gcv.connectedComponents(np.array([["a"]]))
    with pytest.raises(ValueError, match="image"):
        gcv.connectedComponents([[1, 2], [3]])


def test_package_docs_name_the_module():
    assert "gridbits.opencv" in gridbits.__doc__


def test_one_channel_images_as_opencv_takes_them():
    img = (np.random.default_rng(4).random((20, 30)) < 0.5).astype(np.uint8)
    want = cv2.connectedComponentsWithStats(img[:, :, None], connectivity=4)
    got = gcv.connectedComponentsWithStats(img[:, :, None], connectivity=4)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    with pytest.raises(ValueError, match="image: expected a 2D array"):
        gcv.connectedComponents(np.zeros((3, 3, 2), np.uint8))
