"""gridbits.dask against scipy on the whole array, on threads and on a 2-process cluster."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import ndimage

from conftest import images

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
import gridbits.dask as gd  # noqa: E402

STRUCT = {4: None, 8: np.ones((3, 3), dtype=bool)}


def same_partition(a, b):
    """Whether two label images describe the same partition (labels may be renamed)."""
    if not np.array_equal(a > 0, b > 0):
        return False
    pairs = np.unique(np.stack([a[a > 0], b[b > 0]]), axis=1)
    return len(np.unique(pairs[0])) == pairs.shape[1] == len(np.unique(pairs[1]))


def snake(h, w):
    """A one-pixel-wide serpentine through the whole array, and a few blobs."""
    img = np.zeros((h, w), bool)
    img[::4, :] = True
    img[1::4, -1] = True
    img[2::4, :] = True
    img[3::4, 0] = True
    return img


def assert_stats_match_scipy(got, want, areas, bboxes):
    """Dask ``label_stats`` rows (row ``k - 1`` for label ``k`` of the Dask label image
    ``got``) against scipy's label image ``want``: each gridbits component has the area
    and bounding box ``(x, y, w, h)`` of the scipy component it covers."""
    n = int(want.max(initial=0))
    assert areas.shape == (n,) and bboxes.shape == (n, 4)
    assert areas.dtype == np.int64 and bboxes.dtype == np.int64
    to_scipy = np.zeros(n + 1, dtype=np.int64)
    to_scipy[got.ravel()] = want.ravel()
    assert sorted(to_scipy[1:]) == list(range(1, n + 1))  # a bijection
    sizes = np.bincount(want.ravel(), minlength=n + 1)
    boxes = np.array(
        [
            (sl[1].start, sl[0].start, sl[1].stop - sl[1].start, sl[0].stop - sl[0].start)
            for sl in ndimage.find_objects(want)
        ],
        dtype=np.int64,
    ).reshape(-1, 4)
    np.testing.assert_array_equal(areas, sizes[to_scipy[1:]])
    np.testing.assert_array_equal(bboxes, boxes[to_scipy[1:] - 1])


CHUNKS = [
    (7, 9),
    ((1, 1, 30, 8), (1, 63, 1, 1, 14)),
    ((13, 13, 14), (5,) * 16),
    (40, 80),
    # Zero-length chunks (left out: they have no edges), first, inside and last.
    ((0, 20, 0, 20, 0), (0, 40, 0, 40)),
]


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("conn", [4, 8])
def test_label_equals_scipy(chunks, conn):
    rng = np.random.default_rng(8)
    spots = np.zeros((40, 80), bool)
    spots[::3, ::4] = True  # many one-pixel components, some on chunk edges and corners
    for img in (
        rng.random((40, 80)) < 0.55,
        snake(40, 80),
        np.ones((40, 80), bool),
        np.zeros((40, 80), bool),
        spots,
    ):
        want, n = ndimage.label(img, structure=STRUCT[conn])
        labels, m = gd.label(da.from_array(img, chunks=chunks), connectivity=conn)
        got = labels.compute(scheduler="threads")
        assert int(m.compute()) == n
        assert got.max(initial=0) == n
        assert same_partition(got, want)
        s = gd.label_stats(da.from_array(img, chunks=chunks), connectivity=conn)
        count, areas, bboxes = dask.compute(s.n, s.areas, s.bboxes, scheduler="threads")
        assert int(count) == n
        # Numbered as gd.label numbers them: row k - 1 is the component labelled k in
        # `got`, which covers one scipy component.
        assert_stats_match_scipy(got, want, areas, bboxes)


# Chunk boundaries: 1..3 chunks per axis cut at random places (chunks of one pixel
# included), over random images of up to 70 x 70.
@st.composite
def chunked_images(draw):
    img = draw(images(sides=[1, 2, 3, 7, 63, 64, 65], max_side=70, min_side=1))
    chunks = []
    for side in img.shape:
        cuts = []
        if side > 1:
            cuts = draw(st.lists(st.integers(1, side - 1), max_size=2, unique=True))
        edges = [0, *sorted(cuts), side]
        chunks.append(tuple(b - a for a, b in zip(edges, edges[1:])))
    return img, tuple(chunks)


@settings(max_examples=25)
@given(chunked_images(), st.sampled_from([4, 8]))
def test_stats_boxes_equal_scipy(img_chunks, conn):
    img, chunks = img_chunks
    want, n = ndimage.label(img, structure=STRUCT[conn])
    labels, m = gd.label(da.from_array(img, chunks=chunks), connectivity=conn)
    s = gd.label_stats(da.from_array(img, chunks=chunks), connectivity=conn)
    got, m, count, areas, bboxes = dask.compute(
        labels, m, s.n, s.areas, s.bboxes, scheduler="sync"
    )
    assert int(m) == int(count) == n
    assert same_partition(got, want)
    assert_stats_match_scipy(got, want, areas, bboxes)


def test_label_on_local_cluster():
    distributed = pytest.importorskip("distributed")
    img = snake(64, 96) | (np.random.default_rng(9).random((64, 96)) < 0.3)
    want, n = ndimage.label(img, structure=STRUCT[8])
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        for chunks in (((1, 20, 43), (17, 1, 78)), 16):
            labels, m = gd.label(da.from_array(img, chunks=chunks))
            s = gd.label_stats(da.from_array(img, chunks=chunks))
            got, count, count_s, areas, bboxes = client.compute(
                [labels, m, s.n, s.areas, s.bboxes], sync=True
            )
            assert int(count) == int(count_s) == n
            assert same_partition(got, want)
            assert int(areas.sum()) == img.sum()
            assert_stats_match_scipy(got, want, areas, bboxes)


def test_bad_input():
    with pytest.raises(ValueError, match="2D"):
        gd.label(da.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="connectivity"):
        gd.label(da.zeros((2, 2)), connectivity=5)
    with pytest.raises(ValueError, match="not an array of shape"):
        gd.label(da.zeros((2, 2)), np.ones((3, 3)))
    unknown = da.ones((4, 4), chunks=2)[da.arange(4, chunks=2) > 1]  # rows of unknown count
    for call in (gd.label, gd.label_stats):
        with pytest.raises(ValueError, match="chunk sizes unknown"):
            call(unknown)
    labels, n = gd.label(unknown.compute_chunk_sizes())
    assert int(n.compute()) == 1 and labels.shape == (2, 4)


@pytest.mark.parametrize("shape, chunks", [((0, 5), 2), ((5, 0), 2), ((0, 0), 1), ((0, 7), ((0,), (3, 0, 4)))])
def test_empty_images(shape, chunks):
    img = da.zeros(shape, dtype=bool, chunks=chunks)
    labels, n = gd.label(img)
    got = labels.compute(scheduler="threads")
    assert got.shape == shape and got.dtype == np.int32 and int(n.compute()) == 0
    s = gd.label_stats(img)
    count, areas, bboxes = dask.compute(s.n, s.areas, s.bboxes, scheduler="threads")
    assert int(count) == 0 and areas.shape == (0,) and bboxes.shape == (0, 4)


def test_relabelled_chunks_stay_right_when_their_task_runs_again():
    """``_relabel`` writes over a chunk's local labels: running it again on the same chunk
    (a retry, a result cache) gives the same labels, and the merge still reads the local
    edges."""
    rng = np.random.default_rng(31)
    img = rng.random((40, 50)) < 0.5
    chunk = gd._label_block(img, 8)
    local = chunk.labels.copy()
    edges = [e.copy() for e in gd._summary(chunk)[1]]
    offsets = gd._offsets(chunk.n, 7)  # a second chunk of 7 labels after this one
    merged = gd._merge(offsets)
    first = gd._relabel(chunk, offsets, 0, merged).copy()
    assert chunk.final and (first == local).all()  # offset 0, nothing merged: unchanged
    shifted = gd._Chunk(local.copy(), chunk.n)
    once = gd._relabel(shifted, gd._offsets(3, chunk.n), 1, gd._merge(gd._offsets(3, chunk.n)))
    once = once.copy()
    again = gd._relabel(shifted, gd._offsets(3, chunk.n), 1, gd._merge(gd._offsets(3, chunk.n)))
    np.testing.assert_array_equal(again, once)
    np.testing.assert_array_equal(once, np.where(local > 0, local + 3, 0))
    for a, b in zip(gd._summary(shifted)[1], edges):
        np.testing.assert_array_equal(a, b)


def test_results_stay_right_with_a_result_cache():
    """With Dask's result cache holding the labelled chunks (and nothing after them), a
    second computation reuses chunks relabelled by the first."""
    pytest.importorskip("cachey")
    from dask.cache import Cache

    rng = np.random.default_rng(32)
    img = rng.random((300, 400)) < 0.55
    want, m = ndimage.label(img, structure=STRUCT[8])
    cache = Cache(2e9, limit=0)
    with cache:
        labels, n = gd.label(da.from_array(img, chunks=(70, 90)))
        first = labels.compute(scheduler="threads")
        for key in list(cache.cache.data):
            if "_label_block" not in str(key):
                cache.cache.retire(key)
        assert int(n.compute(scheduler="threads")) == m
        second = labels.compute(scheduler="threads")
    np.testing.assert_array_equal(second, first)
    assert same_partition(second, want)


def test_native_merge_and_relabel_name_the_bad_label():
    """The chunk-merging steps refuse labels outside their tables, naming the pair or label as
    given (a pair past 32 bits included), and relabel leaves the refused label as it was."""
    from gridbits import _gridbits

    pairs = np.array([[1, 2], [3, 2**40]], dtype=np.int64)
    with pytest.raises(ValueError, match=r"label pair \(3, 1099511627776\) outside 1\.\.=3"):
        _gridbits.merge_labels(pairs, 3)
    mapping, n = _gridbits.merge_labels(np.array([[1, 3]], dtype=np.int64), 3)
    assert (mapping.tolist(), n) == ([0, 1, 2, 1], 2)
    labels = np.array([[1, 0], [7, 2]], dtype=np.int32)
    with pytest.raises(ValueError, match=r"labels: 7 \+ 1 is past the mapping"):
        _gridbits.relabel(labels, 1, mapping)
    assert labels.tolist() == [[2, 0], [7, 2]]
