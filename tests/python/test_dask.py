"""gridbits.dask against scipy on the whole array, on threads and on a 2-process cluster."""

import numpy as np
import pytest
from scipy import ndimage

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


CHUNKS = [
    (7, 9),
    ((1, 1, 30, 8), (1, 63, 1, 1, 14)),
    ((13, 13, 14), (5,) * 16),
    (40, 80),
]


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("conn", [4, 8])
def test_label_equals_scipy(chunks, conn):
    rng = np.random.default_rng(8)
    for img in (rng.random((40, 80)) < 0.55, snake(40, 80), np.ones((40, 80), bool)):
        want, n = ndimage.label(img, structure=STRUCT[conn])
        labels, m = gd.label(da.from_array(img, chunks=chunks), connectivity=conn)
        got = labels.compute(scheduler="threads")
        assert int(m.compute()) == n
        assert got.max(initial=0) == n
        assert same_partition(got, want)
        s = gd.label_stats(da.from_array(img, chunks=chunks), connectivity=conn)
        areas = s.areas.compute()
        # Component k of gridbits has the area of the scipy component it covers.
        first = {}
        for lab_g, lab_s in zip(got.ravel(), want.ravel()):
            if lab_g:
                first.setdefault(lab_g, lab_s)
        sizes = np.bincount(want.ravel())
        assert [sizes[first[k]] for k in range(1, n + 1)] == areas.tolist()


def test_label_on_local_cluster():
    distributed = pytest.importorskip("distributed")
    img = snake(64, 96) | (np.random.default_rng(9).random((64, 96)) < 0.3)
    want, n = ndimage.label(img, structure=STRUCT[8])
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        labels, m = gd.label(da.from_array(img, chunks=((1, 20, 43), (17, 1, 78))))
        got, count = client.compute([labels, m], sync=True)
        assert int(count) == n
        assert same_partition(got, want)
        s = gd.label_stats(da.from_array(img, chunks=16))
        assert int(client.compute(s.areas, sync=True).sum()) == img.sum()


def test_bad_input():
    with pytest.raises(ValueError, match="2D"):
        gd.label(da.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="connectivity"):
        gd.label(da.zeros((2, 2)), connectivity=5)
