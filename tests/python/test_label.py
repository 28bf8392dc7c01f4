"""label, label_stats and connected_components_with_stats against scipy.ndimage."""

import numpy as np
import pytest
from hypothesis import example, given, strategies as st
from scipy import ndimage

import gridbits
from conftest import edge_examples, images

try:
    import cv2
except ImportError:  # not installed by `make test`
    cv2 = None

STRUCT = {4: None, 8: np.ones((3, 3), dtype=bool)}


@edge_examples([4, 8])
@given(images(), st.sampled_from([4, 8]))
def test_label_equals_scipy(img, conn):
    want, n = ndimage.label(img, structure=STRUCT[conn])
    got, m = gridbits.label(img, connectivity=conn)
    assert m == n
    assert got.dtype == np.int32
    assert got.shape == img.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape", [(1, 1), (1, 200), (200, 1), (64, 64), (65, 63), (2, 64)])
@pytest.mark.parametrize("conn", [4, 8])
def test_label_edges(shape, conn):
    rng = np.random.default_rng(sum(shape))
    for img in (np.zeros(shape, bool), np.ones(shape, bool), rng.random(shape) < 0.5):
        want, n = ndimage.label(img, structure=STRUCT[conn])
        got, m = gridbits.label(img, conn)
        assert m == n
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "dtype", [bool, np.uint8, np.int8, np.uint16, np.int32, np.int64, np.float32, np.float64]
)
def test_every_dtype_and_layout(dtype):
    rng = np.random.default_rng(3)
    base = (rng.random((70, 90)) < 0.4) * rng.integers(1, 100, (70, 90))
    img = base.astype(dtype)
    if dtype in (np.int8, np.int32, np.int64, np.float32, np.float64):
        img = img * -1  # negative values are set too
    want, n = ndimage.label(img != 0, structure=STRUCT[8])
    for view in (img, np.asfortranarray(img), img[::2, ::3], img[5:60, 7:80], img[::-1, ::-1]):
        w2, n2 = ndimage.label(view != 0, structure=STRUCT[8])
        got, m = gridbits.label(view)
        assert m == n2
        np.testing.assert_array_equal(got, w2)
    assert gridbits.label(img)[1] == n


def test_wider_row_stride_is_read_in_place():
    big = np.random.default_rng(4).random((50, 300)) < 0.5
    view = big[:, 10:200]  # contiguous rows, stride 300
    want, n = ndimage.label(view, structure=STRUCT[8])
    got, m = gridbits.label(view)
    assert m == n
    np.testing.assert_array_equal(got, want)


@edge_examples([4, 8])
@given(images(max_side=90), st.sampled_from([4, 8]))
def test_stats_equal_scipy(img, conn):
    want, n = ndimage.label(img, structure=STRUCT[conn])
    s = gridbits.label_stats(img, conn)
    assert s.n == n
    np.testing.assert_array_equal(s.labels, want)
    if n == 0:
        assert s.areas.shape == (0,) and s.bboxes.shape == (0, 4)
        return
    areas = np.bincount(want.ravel(), minlength=n + 1)[1:]
    np.testing.assert_array_equal(s.areas, areas)
    boxes = [
        (sl[1].start, sl[0].start, sl[1].stop - sl[1].start, sl[0].stop - sl[0].start)
        for sl in ndimage.find_objects(want)
    ]
    np.testing.assert_array_equal(s.bboxes, np.array(boxes))
    com = np.array(ndimage.center_of_mass(img, want, range(1, n + 1)))  # (row, col)
    np.testing.assert_allclose(s.centroids, com[:, ::-1])
    fast = gridbits.label_stats(img, conn, labels=False)
    assert fast.labels is None
    np.testing.assert_array_equal(fast.areas, s.areas)
    np.testing.assert_array_equal(fast.bboxes, s.bboxes)


@given(images(max_side=80), st.sampled_from([4, 8]))
def test_cv2_layout(img, conn):
    n1, labels, stats, cents = gridbits.connected_components_with_stats(img, conn)
    want, n = ndimage.label(img, structure=STRUCT[conn])
    assert n1 == n + 1
    assert stats.shape == (n + 1, 5) and stats.dtype == np.int32
    np.testing.assert_array_equal(labels, want)
    bg = ~img
    assert stats[0, 4] == bg.sum()
    if bg.any():
        rows, cols = np.nonzero(bg)
        assert tuple(stats[0, :4]) == (
            cols.min(), rows.min(), cols.max() - cols.min() + 1, rows.max() - rows.min() + 1
        )
        np.testing.assert_allclose(cents[0], [cols.mean(), rows.mean()])


def _assert_same_stats(s, n1, lab, stats, cents):
    """``label_stats`` result ``s`` against OpenCV's ``(n + 1, labels, stats, centroids)``
    where OpenCV may number the components differently: compare through the mapping of
    gridbits labels to OpenCV labels, which must be a bijection fixing 0."""
    assert n1 == s.n + 1
    to_cv = np.zeros(n1, dtype=np.int64)
    to_cv[s.labels.ravel()] = lab.ravel()
    assert to_cv[0] == 0
    assert len(np.unique(to_cv)) == n1  # a bijection: the same partition
    np.testing.assert_array_equal(to_cv[s.labels], lab)
    np.testing.assert_array_equal(s.areas, stats[to_cv[1:], 4])
    np.testing.assert_array_equal(s.bboxes, stats[to_cv[1:], :4])
    np.testing.assert_allclose(s.centroids, cents[to_cv[1:]])


@pytest.mark.skipif(cv2 is None, reason="OpenCV (cv2) is not installed")
@edge_examples([4, 8], min_side=1)  # OpenCV rejects empty images
@example(np.random.default_rng(5).random((300, 257)) < 0.5, 4)
@example(np.random.default_rng(5).random((300, 257)) < 0.5, 8)
@given(images(min_side=1), st.sampled_from([4, 8]))
def test_stats_equal_opencv(img, conn):
    """Labels, areas, boxes and centroids as OpenCV's. With CCL_SAUF OpenCV numbers the
    components in raster order of their first pixel ("SAUF forces a row major ordering of
    labels while Spaghetti and BBDT do not"), like gridbits: the labels are identical. Its
    default algorithm (Spaghetti; for 8-connectivity a 2x2-block scan) may number them in
    another order: the same partition, compared through the label mapping."""
    u8 = img.astype(np.uint8)
    s = gridbits.label_stats(img, conn)
    n1, lab, stats, cents = cv2.connectedComponentsWithStatsWithAlgorithm(
        u8, conn, cv2.CV_32S, cv2.CCL_SAUF
    )
    assert n1 == s.n + 1
    np.testing.assert_array_equal(s.labels, lab)
    np.testing.assert_array_equal(s.areas, stats[1:, 4])
    np.testing.assert_array_equal(s.bboxes, stats[1:, :4])
    np.testing.assert_allclose(s.centroids, cents[1:])
    _assert_same_stats(s, *cv2.connectedComponentsWithStats(u8, connectivity=conn))
    # The cv2-shaped variant has OpenCV's background row too (OpenCV's row 0 of an image
    # without background holds sentinels, not a box: compared only with background).
    m1, glab, gstats, gcents = gridbits.connected_components_with_stats(u8, conn)
    assert m1 == n1
    np.testing.assert_array_equal(glab, lab)
    np.testing.assert_array_equal(gstats[1:], stats[1:])
    if not img.all():
        np.testing.assert_array_equal(gstats[0], stats[0])
        np.testing.assert_allclose(gcents[0], cents[0])


def test_groups_at_least():
    rng = np.random.default_rng(6)
    img = rng.random((100, 77)) < 0.5
    lab, n = ndimage.label(img, structure=STRUCT[8])
    sizes = np.bincount(lab.ravel())
    want = (sizes[lab] >= 5) & img
    np.testing.assert_array_equal(gridbits.groups_at_least(img, 5), want)
    assert not gridbits.groups_at_least(np.zeros((0, 4)), 1).any()


@pytest.mark.parametrize(
    "bad, exc, words",
    [
        (np.zeros(5), ValueError, "2D"),
        (np.zeros((2, 2, 2)), ValueError, "2D"),
        (np.array([[object()]]), TypeError, "dtype"),
        (np.array([["a"]]), TypeError, "dtype"),
        ([[1, 2], [3]], ValueError, "image"),
    ],
)
def test_bad_images_name_the_argument(bad, exc, words):
    with pytest.raises(exc, match=words) as e:
        gridbits.label(bad)
    assert "image" in str(e.value)


def test_bad_connectivity():
    with pytest.raises(ValueError, match="connectivity"):
        gridbits.label(np.zeros((2, 2)), connectivity=6)


@pytest.mark.parametrize(
    "call",
    [
        gridbits.label,
        gridbits.label_stats,
        gridbits.connected_components_with_stats,
        lambda img, c: gridbits.groups_at_least(img, 1, c),
    ],
)
@pytest.mark.parametrize("structure", [np.ones((3, 3)), [[0, 1, 0], [1, 1, 1], [0, 1, 0]], [4]])
def test_a_structure_for_the_connectivity_names_the_argument(call, structure):
    # A scipy call moved over as it was: the structure lands where the connectivity goes.
    with pytest.raises(ValueError, match=r"connectivity must be 4 or 8, not an array of shape"):
        call(np.ones((3, 3)), structure)
    assert call(np.ones((3, 3)), np.int64(4)) is not None


def test_empty_arrays():
    for shape in [(0, 0), (0, 5), (5, 0)]:
        lab, n = gridbits.label(np.zeros(shape, bool))
        assert n == 0 and lab.shape == shape and lab.dtype == np.int32
        s = gridbits.label_stats(np.zeros(shape))
        assert s.n == 0 and s.areas.shape == (0,)


def test_sizes_that_cannot_be_allocated_raise_memory_error():
    # A 10^6 x 10^6 view of one row (no memory of its own): packing it would need 10^12
    # bytes of rows, labelling 4 * 10^12 bytes of labels.
    huge = np.broadcast_to(np.ones((1, 10**6), dtype=bool), (10**6, 10**6))
    with pytest.raises(MemoryError):
        gridbits.label(huge)


def test_label_from_several_threads_at_once():
    """Four Python threads label one image at once (each call releases the GIL, see
    test_gil.py): each gets the whole result."""
    import threading

    img = np.random.default_rng(10).random((1500, 1500)) < 0.5
    want = gridbits.label(img)[1]
    results = []
    threads = [threading.Thread(target=lambda: results.append(gridbits.label(img)[1])) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [want] * 4


@edge_examples([4, 8])
@given(images(max_side=140), st.sampled_from([4, 8]))
def test_packed_input_equals_unpacked(img, conn):
    packed = np.packbits(img, axis=1)
    got, m = gridbits.label(packed, conn, packed_width=img.shape[1])
    want, n = gridbits.label(img, conn)
    assert m == n
    np.testing.assert_array_equal(got, want)


@edge_examples([4, 8])
@given(images(max_side=140), st.sampled_from([4, 8]))
def test_packed_stats_equal_unpacked(img, conn):
    packed = np.packbits(img, axis=1)
    for with_labels in (True, False):
        got = gridbits.label_stats(packed, conn, with_labels, packed_width=img.shape[1])
        want = gridbits.label_stats(img, conn, with_labels)
        assert got.n == want.n
        for a, b in zip(got[1:], want[1:]):
            if b is None:
                assert a is None
            else:
                np.testing.assert_array_equal(a, b)


def test_packed_input_errors():
    for f in (gridbits.label, gridbits.label_stats):
        with pytest.raises(TypeError, match="uint8"):
            f(np.zeros((2, 2), bool), packed_width=4)
        with pytest.raises(ValueError, match="cannot hold"):
            f(np.zeros((2, 1), np.uint8), packed_width=9)
        with pytest.raises(ValueError, match="packed_width"):
            f(np.zeros((2, 1), np.uint8), packed_width=-1)


@pytest.mark.parametrize("shape", [(1100, 1000), (37, 29)])
def test_label_array_is_an_ordinary_owned_array(shape):
    """The label image numpy takes over from the library (large: striped on every core,
    kept scratch reused across calls) behaves like any C-ordered int32 array."""
    rng = np.random.default_rng(3)
    img = rng.random(shape) < 0.45
    want, n = ndimage.label(img, structure=STRUCT[8])
    for _ in range(2):
        got, m = gridbits.label(img)
        assert m == n and got.dtype == np.int32 and got.flags.c_contiguous
        np.testing.assert_array_equal(got, want)
        got[0, 0] = -5  # writeable, and independent of the next call's result
        s = gridbits.label_stats(img)
        assert s.n == n and s.labels.flags.writeable
        np.testing.assert_array_equal(s.labels, want)
        np.testing.assert_array_equal(s.areas, np.bincount(want.ravel())[1:])
