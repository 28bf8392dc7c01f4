"""gridbits.measure (label, regionprops_table, largest_components) against scikit-image,
and gridbits.ndimage.find_objects against scipy, on random value and label images of many
shapes (empty sides, 1x1, widths 63/64/65, tall, wide), dtypes and layouts, thresholded
skimage.data images, and with hypothesis."""

import warnings

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import gridbits
from gridbits.measure import SUPPORTED_PROPERTIES, label, largest_components, regionprops_table
from gridbits.ndimage import find_objects

skm = pytest.importorskip("skimage.measure")
ndi = pytest.importorskip("scipy.ndimage")

SHAPES = [(1, 1), (1, 9), (9, 1), (7, 6), (5, 63), (4, 64), (3, 65), (70, 3), (2, 130), (33, 40)]

# Everything but the intensity properties and coords/slice (compared separately).
GEOMETRY = [
    p
    for p in SUPPORTED_PROPERTIES
    if not p.startswith("intensity") and p not in ("coords", "slice")
]


def values(rng, shape, classes, smooth):
    """A random value image whose cells copy a neighbour with probability ``smooth``."""
    a = rng.integers(0, classes, shape)
    for _ in range(3):
        copy = rng.random(shape) < smooth
        shifted = np.roll(a, 1, axis=rng.integers(0, 2))
        a = np.where(copy, shifted, a)
    return a


def layouts(a):
    """The same image in C, Fortran and strided layouts."""
    yield a
    yield np.asfortranarray(a)
    big = np.zeros((a.shape[0] * 2, a.shape[1] * 3), a.dtype)
    big[::2, ::3] = a
    yield big[::2, ::3]
    yield np.ascontiguousarray(a[::-1, ::-1])[::-1, ::-1]
    yield np.ascontiguousarray(a.T).T


def assert_tables_equal(got, want, rtol=1e-9):
    assert list(got) == list(want)
    for k in want:
        g, w = got[k], want[k]
        assert g.dtype == w.dtype, k
        assert g.shape == w.shape, k
        if w.dtype == object:
            for a, b in zip(g, w):
                if isinstance(b, np.ndarray):
                    np.testing.assert_array_equal(a, b, err_msg=k)
                    assert a.dtype == b.dtype
                else:
                    assert a == b, k
        elif k == "orientation":
            # A region symmetric about an axis has mu11 = 0 exactly here and +-1e-15 in
            # skimage's sums: the angle is +-pi/2 by the sign of that noise.
            same = np.isclose(g, w, rtol=rtol, atol=rtol)
            axis = np.isclose(np.abs(g), np.pi / 2) & np.isclose(np.abs(w), np.pi / 2)
            assert (same | axis).all(), (k, g[~(same | axis)], w[~(same | axis)])
        elif k.startswith("moments_central") and "bbox-0" in want:
            # skimage's float sums round relative to the terms' size: n * rows^p * cols^q.
            p, q = (int(i) for i in k.split("-")[1:])
            rows = want["bbox-2"] - want["bbox-0"]
            cols = want["bbox-3"] - want["bbox-1"]
            scale = np.maximum(1.0, want["area"] * rows**p * cols**q)
            np.testing.assert_array_less(np.abs(g - w), rtol * scale + 1e-300, err_msg=k)
        elif k.startswith("axis_") and "bbox-0" in want:
            # 4 sqrt(eigenvalue): a rounding error e in an eigenvalue of the inertia tensor
            # (sums of size area * side^2) moves the length by up to 4 sqrt(e), which is
            # 2e-8 for a line of two pixels where gridbits' exact sums give 0.
            rows = want["bbox-2"] - want["bbox-0"]
            cols = want["bbox-3"] - want["bbox-1"]
            scale = np.maximum(1.0, want["area"] * np.maximum(rows, cols) ** 2.0)
            atol = 4 * np.sqrt(1e-14 * scale)
            np.testing.assert_array_less(np.abs(g - w), atol + rtol * np.abs(w), err_msg=k)
        elif w.dtype.kind == "f":
            scale = max(1.0, float(np.nanmax(np.abs(w)))) if w.size and not np.isnan(w).all() else 1.0
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol * scale, err_msg=k)
        else:
            np.testing.assert_array_equal(g, w, err_msg=k)


def sk_table(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return skm.regionprops_table(*args, **kwargs)


# --- label -------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES + [(0, 5), (5, 0)])
@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, np.uint64, np.float32, np.float64])
def test_label_matches_skimage(shape, dtype):
    rng = np.random.default_rng(hash((shape, np.dtype(dtype).str)) % 2**32)
    a = values(rng, shape, 4, 0.5).astype(dtype)
    if np.dtype(dtype).kind == "f":
        a = a + rng.choice([0.0, 0.25], shape).astype(dtype)
    for conn in (None, 1, 2):
        for bg in (None, 0, 1, 2, -1):
            want = skm.label(a, background=bg, connectivity=conn, return_num=True) if a.size else None
            for lay in layouts(a):
                got = label(lay, background=bg, connectivity=conn, return_num=True)
                if want is None:
                    assert got[0].shape == shape and got[1] == 0
                    continue
                assert got[0].dtype == want[0].dtype
                np.testing.assert_array_equal(got[0], want[0])
                assert got[1] == want[1]


@pytest.mark.parametrize("shape", SHAPES)
def test_label_bool_matches_skimage(shape):
    rng = np.random.default_rng(sum(shape))
    a = rng.random(shape) < 0.5
    for bg in (None, 0, 1, 2):
        for conn in (1, 2):
            got = label(a, background=bg, connectivity=conn)
            want = skm.label(a, background=bg, connectivity=conn)
            assert got.dtype == want.dtype == np.int32
            np.testing.assert_array_equal(got, want)


def test_label_1d_and_errors():
    a = np.array([1, 1, 0, 2, 2, 1])
    np.testing.assert_array_equal(label(a), skm.label(a))
    with pytest.raises(ValueError, match=r"Connectivity for 1D image should be in \[1, ..., 1\]. Got 2."):
        label(a, connectivity=2)
    with pytest.raises(ValueError, match=r"Connectivity for 2D image should be in \[1, ..., 2\]. Got 3."):
        label(np.zeros((2, 2), int), connectivity=3)
    with pytest.raises(ValueError, match="Got 0"):
        label(np.zeros((2, 2), int), connectivity=0)
    with pytest.raises(ValueError, match="3 dimensions"):
        label(np.zeros((2, 2, 2), int))
    with pytest.raises(TypeError, match="label_image"):
        label(np.array([["a"]]))
    with pytest.raises(TypeError, match="background"):
        label(np.zeros((2, 2), int), background="x")


@settings(max_examples=60, deadline=None)
@given(
    hnp.arrays(np.int16, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=24), elements=st.integers(-2, 3)),
    st.sampled_from([None, 1, 2]),
    st.sampled_from([None, 0, -2, 3, 7]),
)
def test_label_hypothesis(a, conn, bg):
    got = label(a, background=bg, connectivity=conn, return_num=True)
    want = skm.label(a, background=bg, connectivity=conn, return_num=True)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1] == want[1]


# --- regionprops_table -------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
def test_regionprops_table_matches_skimage(shape):
    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    for classes, smooth in ((2, 0.0), (3, 0.6), (5, 0.9)):
        img = values(rng, shape, classes, smooth)
        labels = skm.label(img)
        want = sk_table(labels, properties=GEOMETRY + ["coords", "slice"])
        for lay in layouts(labels.astype(np.int32)):
            got = regionprops_table(lay, properties=GEOMETRY + ["coords", "slice"])
            assert_tables_equal(got, want)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_regionprops_label_dtypes_and_gaps(dtype):
    rng = np.random.default_rng(1)
    # Labels with gaps, repeated non-connected labels and, for signed types, negatives.
    lab = rng.integers(0, 9, (40, 37)).astype(dtype)
    lab[lab == 4] = 0
    if np.dtype(dtype).kind == "i":
        lab[:3, :3] = -3
    props = ["label", "area", "bbox", "centroid", "moments_central", "perimeter", "euler_number", "area_filled", "orientation"]
    assert_tables_equal(regionprops_table(lab, properties=props), sk_table(lab, properties=props))


BASIC = ["label", "num_pixels", "area", "bbox", "centroid", "area_bbox", "extent",
         "equivalent_diameter_area", "slice"]


@pytest.mark.parametrize("dtype", ["u1", "i1", "<u2", ">i2", "<i4", ">u4", "<i8", ">i8", "<u8"])
def test_basic_properties_on_every_label_type(dtype):
    # The basic set alone takes the native pass without moments (a compact table), reading
    # every integer type in place: negatives, gaps, touching regions, any byte order.
    rng = np.random.default_rng(2)
    for shape in SHAPES:
        lab = values(rng, shape, 9, 0.6)
        if np.dtype(dtype).kind == "i":
            lab = np.where(lab == 1, -5, lab)
        lab = lab.astype(dtype)
        if lab.size == 0:
            continue  # skimage raises on an empty image
        want = sk_table(lab, properties=BASIC)
        for lay in layouts(lab):
            assert_tables_equal(regionprops_table(lay, properties=BASIC), want)


@pytest.mark.parametrize(
    "dtype", [np.uint8, np.uint16, np.int16, np.int64, np.float32, np.float64, bool]
)
def test_intensity_properties(dtype):
    rng = np.random.default_rng(7)
    labels = skm.label(values(rng, (45, 66), 3, 0.7))
    if dtype is bool:
        inten = rng.random(labels.shape) < 0.5
    elif np.dtype(dtype).kind == "f":
        inten = (rng.standard_normal(labels.shape) * 100).astype(dtype)
    else:
        info = np.iinfo(dtype)
        inten = rng.integers(max(info.min, -1000), min(info.max, 1000), labels.shape, endpoint=True).astype(dtype)
    props = ["label", "intensity_mean", "intensity_min", "intensity_max"]
    # skimage sums float32 intensities in float32, gridbits in float64.
    rtol = 1e-5 if dtype == np.float32 else 1e-9
    for lay in layouts(inten):
        assert_tables_equal(regionprops_table(labels, lay, properties=props), sk_table(labels, inten, properties=props), rtol)
    multi = np.dstack([inten, inten[::-1, ::-1]])
    assert_tables_equal(regionprops_table(labels, multi, properties=props), sk_table(labels, multi, properties=props), rtol)


def test_nan_intensity():
    labels = np.array([[1, 1, 2, 2]])
    inten = np.array([[np.nan, 1.0, 3.0, -2.0]])
    props = ["intensity_mean", "intensity_min", "intensity_max"]
    assert_tables_equal(regionprops_table(labels, inten, properties=props), sk_table(labels, inten, properties=props))


@pytest.mark.parametrize("name", ["coins", "camera", "horse", "text"])
def test_thresholded_data_images(name):
    from skimage import data

    try:
        img = getattr(data, name)()
    except Exception as e:  # pragma: no cover: an image that needs a download
        pytest.skip(f"skimage.data.{name}: {e}")
    if img.ndim == 3:
        img = img[..., 0]
    mask = img > np.median(img) if img.dtype != bool else img
    for conn in (1, 2):
        labels = label(mask, connectivity=conn)
        np.testing.assert_array_equal(labels, skm.label(mask, connectivity=conn))
    props = GEOMETRY + ["intensity_mean", "intensity_max", "intensity_min"]
    inten = img.astype(np.uint8) if img.dtype == bool else img
    assert_tables_equal(regionprops_table(labels, inten, properties=props), sk_table(labels, inten, properties=props))


def test_separator_aliases_and_key_order():
    labels = np.array([[1, 1, 0], [0, 2, 2]])
    props = ["centroid", "filled_area", "BoundingBox", "label", "inertia_tensor"]
    got = regionprops_table(labels, properties=props, separator="/")
    assert_tables_equal(got, sk_table(labels, properties=props, separator="/"))
    assert list(got)[:2] == ["centroid/0", "centroid/1"]


def test_empty_tables():
    for a in (np.zeros((4, 5), np.int64), np.zeros((0, 5), np.int64)):
        got = regionprops_table(a, properties=["label", "bbox", "centroid", "coords", "area"])
        want = sk_table(np.zeros((4, 5), np.int64), properties=["label", "bbox", "centroid", "coords", "area"])
        assert_tables_equal(got, want)


def test_regionprops_errors_as_skimage():
    labels = np.array([[1, 2]])
    for props in (["foo"], "label"):
        with pytest.raises(AttributeError) as want:
            skm.regionprops_table(labels, properties=props)
        with pytest.raises(AttributeError) as got:
            regionprops_table(labels, properties=props)
        assert str(got.value) == str(want.value)
    with pytest.raises(AttributeError, match="unavailable when `intensity_image` has not been specified"):
        regionprops_table(labels, properties=["intensity_mean"])
    with pytest.raises(TypeError, match="Non-integer image types are ambiguous"):
        regionprops_table(labels.astype(bool))
    with pytest.raises(TypeError, match="Non-integer label_image types are ambiguous"):
        regionprops_table(labels.astype(float))
    with pytest.raises(ValueError, match="shapes must match"):
        regionprops_table(labels, np.zeros((1, 3)), properties=["intensity_mean"])
    with pytest.raises(ValueError, match="does not compute 'solidity'.*area_bbox"):
        regionprops_table(labels, properties=["label", "solidity"])
    with pytest.raises(ValueError, match="extra_properties"):
        regionprops_table(labels, extra_properties=[np.sum])
    with pytest.raises(ValueError, match="spacing"):
        regionprops_table(labels, spacing=(2, 1))
    assert list(regionprops_table(labels, spacing=(1, 1))) == ["label", "bbox-0", "bbox-1", "bbox-2", "bbox-3"]


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.uint8, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=20), elements=st.integers(0, 4)))
@example(np.array([[1, 0, 0, 0], [0, 0, 0, 1]], np.uint8))  # a line of two: minor axis 0 vs 2e-8
def test_regionprops_hypothesis(a):
    props = GEOMETRY + ["intensity_mean", "intensity_min", "intensity_max"]
    inten = a.astype(np.float64) * 1.5 - 2
    assert_tables_equal(regionprops_table(a, inten, properties=props), sk_table(a, inten, properties=props))


# --- find_objects, largest_components ----------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
def test_find_objects_matches_scipy(shape):
    rng = np.random.default_rng(shape[1])
    lab = rng.integers(-1, 6, shape)
    for dtype in (np.int32, np.int64, np.uint16):
        a = lab.astype(dtype) if dtype != np.uint16 else np.clip(lab, 0, None).astype(dtype)
        for max_label in (0, 2, 9):
            for lay in layouts(a):
                assert find_objects(lay, max_label) == ndi.find_objects(a, max_label)
    v = rng.integers(0, 4, shape[1])
    assert find_objects(v) == ndi.find_objects(v)


def test_find_objects_errors():
    with pytest.raises(TypeError, match="input"):
        find_objects(np.zeros((2, 2)))
    with pytest.raises(TypeError, match="max_label"):
        find_objects(np.zeros((2, 2), int), 2.5)
    assert find_objects(np.zeros((0, 3), int)) == []
    assert find_objects(np.zeros((0, 3), int), 2) == [None, None]


@pytest.mark.parametrize("shape", SHAPES)
def test_largest_components(shape):
    rng = np.random.default_rng(3)
    img = rng.random(shape) < 0.45
    for conn in (4, 8):
        labels, n = ndi.label(img, structure=np.ones((3, 3)) if conn == 8 else None)
        sizes = np.bincount(labels.ravel(), minlength=n + 1)[1:]
        for k in (0, 1, 3, n + 2):
            got = largest_components(img, k, connectivity=conn)
            assert got.dtype == np.int32
            order = sorted(range(n), key=lambda i: (-sizes[i], i))[:k]
            want = np.zeros_like(got)
            for rank, i in enumerate(order, 1):
                want[labels == i + 1] = rank
            np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="k"):
        largest_components(img, -1)
    with pytest.raises(ValueError, match="connectivity"):
        largest_components(img, 1, connectivity=6)


def test_module_exports():
    assert gridbits.measure.label is label
    assert "find_objects" in gridbits.ndimage.__all__
