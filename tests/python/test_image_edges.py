"""The image drop-ins at edges a new user met, each against its peer: skimage's
connectivity below 1, a sampled 1-D Euclidean transform, find_objects with huge labels past
max_label, a big-endian chamfer metric, a negative background on uint64 labels, scipy's
refusals of a non-integer border_value and of complex, object or float16 outputs, and an
intensity image of no channels."""

import numpy as np
import pytest
import scipy.ndimage as sn

import gridbits.measure as gme
import gridbits.morphology as gm
import gridbits.ndimage as gn

skm = pytest.importorskip("skimage.measure")
km = pytest.importorskip("skimage.morphology")

BINARY = ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing", "binary_propagation"]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("connectivity", [0, -1, -7, 1, 2])
@pytest.mark.parametrize("shape", [(1, 7), (7,), (9, 11)])
def test_small_objects_and_holes_connectivity_below_one(connectivity, shape):
    rng = np.random.default_rng(abs(connectivity) * 10 + len(shape))
    a = rng.random(shape) < 0.5
    for size in (1, 2, 3):
        assert np.array_equal(
            gm.remove_small_objects(a, max_size=size, connectivity=connectivity),
            km.remove_small_objects(a, max_size=size, connectivity=connectivity),
        )
        assert np.array_equal(
            gm.remove_small_holes(a, max_size=size, connectivity=connectivity),
            km.remove_small_holes(a, max_size=size, connectivity=connectivity),
        )


@pytest.mark.parametrize("sampling", [2.0, [0.5], (3,)])
@pytest.mark.parametrize("n", [1, 3, 64, 65])
def test_edt_1d_with_sampling(sampling, n):
    a = np.ones(n, int)
    a[0] = 0
    a[n // 2] = 0
    np.testing.assert_array_equal(
        gn.distance_transform_edt(a, sampling=sampling), sn.distance_transform_edt(a, sampling=sampling)
    )
    d, i = gn.distance_transform_edt(a, sampling=sampling, return_indices=True)
    d2, i2 = sn.distance_transform_edt(a, sampling=sampling, return_indices=True)
    np.testing.assert_array_equal(d, d2)
    np.testing.assert_array_equal(i, i2)


@pytest.mark.parametrize("big", [10**12, 2**31 - 1, 2**62])
@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_find_objects_ignores_huge_labels_past_max_label(big, dtype):
    a = np.array([[1, 0, 3], [0, big, 3]], dtype=dtype)
    for max_label in (1, 2, 3, 4):
        assert gn.find_objects(a, max_label=max_label) == sn.find_objects(a, max_label=max_label)


@pytest.mark.parametrize("dtype", [">i2", "<i2", ">i8", ">f8", ">u4", "bool", "uint8"])
def test_cdt_metric_of_any_byte_order(dtype):
    rng = np.random.default_rng(3)
    a = rng.random((9, 12)) < 0.8
    for k in range(4):
        m = np.zeros((3, 3), dtype)
        m.flat[rng.choice(9, size=3 + k, replace=False)] = 1
        m[1, 1] = 1
        np.testing.assert_array_equal(
            gn.distance_transform_cdt(a, metric=m), sn.distance_transform_cdt(a, metric=m)
        )


@pytest.mark.parametrize("background", [-1, -2, 0, 5])
def test_label_uint64_background_wraps_as_skimage(background):
    u = np.array([[2**64 - 1, 2**64 - 1, 0], [5, 0, 2**64 - 1], [2**64 - 2, 5, 5]], np.uint64)
    for conn in (1, 2):
        np.testing.assert_array_equal(
            gme.label(u, background=background, connectivity=conn),
            skm.label(u, background=background, connectivity=conn),
        )


@pytest.mark.parametrize("func", BINARY)
@pytest.mark.parametrize("value", [None, 0.5, 1.0, float("nan"), "1", np.True_])
def test_border_value_must_be_an_integer(func, value):
    a = np.ones((3, 4), bool)
    with pytest.raises(TypeError):
        getattr(sn, func)(a, border_value=value)
    with pytest.raises(TypeError, match="border_value"):
        getattr(gn, func)(a, border_value=value)


@pytest.mark.parametrize("func", BINARY)
@pytest.mark.parametrize("value", [0, 1, 2, np.int8(1), True])
def test_integer_border_values_as_scipy(func, value):
    a = np.random.default_rng(1).random((6, 7)) < 0.6
    np.testing.assert_array_equal(getattr(gn, func)(a, border_value=value), getattr(sn, func)(a, border_value=value))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # scipy's own, on a '>i4' output
@pytest.mark.parametrize("func", BINARY + ["binary_fill_holes", "binary_hit_or_miss"])
def test_output_dtypes_scipy_refuses(func):
    a = np.random.default_rng(2).random((5, 6)) < 0.5
    for dtype, exc in ((complex, TypeError), (object, RuntimeError), (np.float16, RuntimeError)):
        with pytest.raises(exc):
            getattr(sn, func)(a, output=np.zeros(a.shape, dtype))
        with pytest.raises(exc):
            getattr(gn, func)(a, output=np.zeros(a.shape, dtype))
    for dtype in (np.float32, ">i4", np.uint64, bool):
        mine, theirs = np.zeros(a.shape, dtype), np.zeros(a.shape, dtype)
        getattr(gn, func)(a, output=mine)
        getattr(sn, func)(a, output=theirs)
        np.testing.assert_array_equal(mine, theirs)


@pytest.mark.filterwarnings("ignore")
def test_skimage_out_dtypes_refused_as_skimage():
    a = np.ones((3, 4), bool)
    for dtype, exc in ((complex, TypeError), (object, RuntimeError)):
        with pytest.raises(exc):
            km.binary_erosion(a, out=np.zeros(a.shape, dtype))
        with pytest.raises(exc):
            gm.binary_erosion(a, out=np.zeros(a.shape, dtype))


def test_regionprops_intensity_of_no_channels():
    labels = np.array([[1, 1], [0, 2]])
    props = ["label", "intensity_mean", "intensity_max", "area"]
    want = skm.regionprops_table(labels, np.zeros((2, 2, 0)), properties=props)
    got = gme.regionprops_table(labels, np.zeros((2, 2, 0)), properties=props)
    assert sorted(got) == sorted(want)
    for k in want:
        np.testing.assert_array_equal(got[k], want[k])
