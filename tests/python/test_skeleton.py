"""gridbits skeletonize / thin against skimage.morphology's: same call, same pixels."""

import numpy as np
import pytest
from hypothesis import given, strategies as st
from skimage import data, filters
from skimage import morphology as skm

from gridbits.morphology import skeletonize, thin
from conftest import EDGE_SHAPES, edge_images, images


def sk_thin(img, max_num_iter=None):
    """skimage's thin; for an empty image (which it refuses), the empty result."""
    if img.size == 0:
        return np.zeros(img.shape, bool)
    return skm.thin(img, max_num_iter)


def same(got, want):
    assert got.dtype == np.bool_
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def blobby(shape, seed, count=None, max_r=12):
    """Random overlapping discs and squares touching the edges (thick shapes: many
    iterations)."""
    rng = np.random.default_rng(seed)
    h, w = shape
    img = np.zeros(shape, bool)
    yy, xx = np.ogrid[:h, :w]
    for _ in range(count or max(1, h * w // 300)):
        cy, cx, r = rng.integers(0, h), rng.integers(0, w), rng.integers(1, max_r + 1)
        if rng.random() < 0.3:
            img[max(cy - r, 0) : cy + r + 1, max(cx - r, 0) : cx + r + 1] = True
        else:
            img |= (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r
    return img


@given(images())
def test_skeletonize_equals_skimage(img):
    same(skeletonize(img), skm.skeletonize(img))


@given(images(), st.sampled_from([None, 0, 1, 2, 3, 5]))
def test_thin_equals_skimage(img, n):
    same(thin(img, n), sk_thin(img, n))


@pytest.mark.parametrize("shape", EDGE_SHAPES + [(2, 2), (3, 3), (130, 3), (3, 130)])
def test_edges(shape):
    imgs = edge_images() + [np.zeros(shape, bool), np.ones(shape, bool)]
    imgs += [np.random.default_rng(7).random(shape) < d for d in (0.2, 0.7, 0.9)]
    for img in imgs:
        same(skeletonize(img), skm.skeletonize(img))
        same(thin(img), sk_thin(img))


@pytest.mark.parametrize(
    "shape", [(64, 64), (65, 63), (150, 129), (40, 300), (300, 40), (1, 200)]
)
@pytest.mark.parametrize("seed", [0, 1])
def test_blobby_images(shape, seed):
    img = blobby(shape, seed)
    same(skeletonize(img), skm.skeletonize(img))
    same(thin(img), skm.thin(img))
    for n in (1, 2, 4, 7):
        same(thin(img, max_num_iter=n), skm.thin(img, max_num_iter=n))


def _thresholded():
    horse = ~data.horse()  # the horse is False on a True background
    text = data.text() < filters.threshold_otsu(data.text())
    page = data.page() < filters.threshold_otsu(data.page())
    coins = data.coins() > filters.threshold_otsu(data.coins())
    blobs = data.binary_blobs(length=256, blob_size_fraction=0.1, rng=3)
    return {"horse": horse, "horse_background": data.horse(), "text": text, "page": page,
            "coins": coins, "binary_blobs": blobs}


@pytest.mark.parametrize("name", list(_thresholded()))
def test_thresholded_photographs(name):
    img = _thresholded()[name]
    same(skeletonize(img), skm.skeletonize(img))
    same(thin(img), skm.thin(img))
    same(thin(img, max_num_iter=3), skm.thin(img, max_num_iter=3))


DTYPES = [np.bool_, np.uint8, np.int8, np.int16, np.uint32, np.int64, np.float32, np.float64]


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtypes(dtype):
    rng = np.random.default_rng(5)
    img = blobby((70, 90), 5) * rng.integers(1, 100, (70, 90))
    if np.dtype(dtype).kind == "b":
        img = img != 0
    elif np.dtype(dtype).kind in "iu":
        img = img.astype(dtype)
    else:
        img = img.astype(dtype) * np.float64(0.25)  # fractions are nonzero: foreground
    a = img.astype(dtype)
    same(skeletonize(a), skm.skeletonize(a))
    same(thin(a), skm.thin(a))


def test_negative_and_nan_values_are_foreground():
    img = blobby((40, 70), 9).astype(np.float64)
    img[img == 1] = -1.0
    img[5, 5] = np.nan
    same(skeletonize(img), skm.skeletonize(img))
    same(thin(img), skm.thin(img))


@pytest.mark.parametrize(
    "layout",
    ["fortran", "strided", "reversed_rows", "reversed_cols", "transposed", "column_view"],
)
def test_layouts(layout):
    base = blobby((140, 130), 11)
    img = {
        "fortran": np.asfortranarray(base),
        "strided": base[::2, ::3],
        "reversed_rows": base[::-1],
        "reversed_cols": base[:, ::-1],
        "transposed": base.T,
        "column_view": base[:, 7:8],
    }[layout]
    want = np.ascontiguousarray(img)
    same(skeletonize(img), skm.skeletonize(want))
    same(thin(img), skm.thin(want))
    same(thin(img, 2), skm.thin(want, 2))


@pytest.mark.parametrize(
    "limit", [None, 0, 1, 2, True, False, -1, -5, 1.5, 2.0, 0.5, np.inf, np.int64(3), np.uint8(2)]
)
def test_max_num_iter_is_read_as_skimage_reads_it(limit):
    img = blobby((50, 60), 2, max_r=15)
    same(thin(img, limit), skm.thin(img, limit))


def test_max_num_iter_nan_runs_no_iteration():
    img = blobby((20, 30), 1)
    same(thin(img, float("nan")), skm.thin(img, float("nan")))


def test_results_are_new_arrays():
    img = blobby((30, 30), 4)
    before = img.copy()
    s, t = skeletonize(img), thin(img)
    np.testing.assert_array_equal(img, before)
    assert not np.shares_memory(s, img) and not np.shares_memory(t, img)
    assert s.flags.writeable and t.flags.writeable


def test_method_argument():
    img = blobby((30, 40), 3)
    same(skeletonize(img, method="zhang"), skm.skeletonize(img, method="zhang"))
    same(skeletonize(img, method=None), skm.skeletonize(img))
    with pytest.raises(ValueError, match="lee"):
        skeletonize(img, method="lee")
    with pytest.raises(ValueError, match='either "lee" or "zhang"'):
        skeletonize(img, method="medial")
    with pytest.raises(TypeError):
        skeletonize(img, "zhang")  # keyword-only, as in skimage


@pytest.mark.parametrize("shape", [(5,), (3, 4, 5), (), (2, 2, 2, 2)])
def test_other_dimensions_are_a_clear_error(shape):
    img = np.ones(shape, bool)
    with pytest.raises(ValueError, match="2D"):
        skeletonize(img)
    with pytest.raises(ValueError, match="2D"):
        thin(img)


def test_bad_arguments():
    with pytest.raises(TypeError, match="image"):
        skeletonize(np.array([["a", "b"]]))
    with pytest.raises(TypeError, match="image"):
        thin(np.array([[object()]], dtype=object))
    with pytest.raises(TypeError, match="max_num_iter"):
        thin(np.ones((3, 3)), "2")
    with pytest.raises(TypeError, match="max_num_iter"):
        thin(np.ones((3, 3)), [2])


def test_lists_are_accepted():
    img = [[0, 1, 1, 0], [1, 1, 1, 1], [0, 1, 1, 0]]
    same(skeletonize(img), skm.skeletonize(np.array(img)))
    same(thin(img), skm.thin(np.array(img)))
