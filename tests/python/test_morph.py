"""Binary morphology drop-ins against their peers: ``gridbits.ndimage.binary_*`` against
scipy.ndimage and ``gridbits.morphology`` against scikit-image, on random images of many
shapes, dtypes and layouts, asymmetric and even-sized structures, origins, border values,
iterations and masks."""

import warnings

import numpy as np
import pytest
import scipy.ndimage as ndi
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import gridbits
from gridbits import morphology as gm
from gridbits import ndimage as gn

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import skimage.morphology as sm

SHAPES = [(0, 5), (5, 0), (1, 1), (1, 9), (9, 1), (3, 63), (4, 64), (5, 65), (40, 7), (7, 130)]
rng = np.random.default_rng(31)


def images():
    for shape in SHAPES:
        for p in (0.3, 0.5, 0.7):
            yield shape, rng.random(shape) < p


def structures():
    yield None
    yield np.ones((3, 3), bool)
    yield np.array([[1, 0], [1, 1]], bool)
    yield np.array([[0, 1, 1, 0], [1, 0, 0, 1]], bool)
    yield np.ones((1, 5), bool)
    yield np.ones((4, 1), bool)
    for _ in range(4):
        h, w = rng.integers(1, 6, 2)
        yield rng.random((h, w)) < 0.5


def origins(s):
    shape = (3, 3) if s is None else np.shape(s)
    yield 0
    yield tuple(-(n // 2) for n in shape)
    yield tuple((n - 1) // 2 for n in shape)


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing"])
def test_erosion_family_matches_scipy(name):
    ours, theirs = getattr(gn, name), getattr(ndi, name)
    for shape, a in images():
        for s in structures():
            for o in origins(s):
                for bv in (0, 1):
                    want = theirs(a, s, origin=o, border_value=bv)
                    got = ours(a, s, origin=o, border_value=bv)
                    assert got.dtype == want.dtype == bool
                    np.testing.assert_array_equal(got, want, err_msg=f"{shape} {s} {o} {bv}")


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing"])
def test_iterations_and_masks_match_scipy(name):
    ours, theirs = getattr(gn, name), getattr(ndi, name)
    # scipy loops forever on some patterns without their centre when repeating to a
    # fixpoint: these all have it.
    fps = [None, np.ones((3, 3)), np.array([[1, 1], [0, 1]]), np.array([[0, 1, 1]])]
    for shape in [(1, 1), (6, 70), (17, 9), (33, 64)]:
        a = rng.random(shape) < 0.5
        m = rng.random(shape) < 0.6
        for s in fps:
            for it in (2, 3, 0, -1):
                for mask in (None, m):
                    for bv in (0, 1):
                        want = theirs(a, s, iterations=it, mask=mask, border_value=bv)
                        got = ours(a, s, iterations=it, mask=mask, border_value=bv)
                        np.testing.assert_array_equal(got, want, err_msg=f"{shape} {s} {it} {bv}")


def test_propagation_fill_holes_hit_or_miss_match_scipy():
    for shape, a in images():
        m = rng.random(shape) < 0.6
        seeds = rng.random(shape) < 0.05
        for s in [None, np.ones((3, 3)), np.array([[1, 1, 0], [0, 1, 1]]), np.ones((1, 3))]:
            for bv in (0, 1):
                np.testing.assert_array_equal(
                    gn.binary_propagation(seeds, s, mask=m, border_value=bv),
                    ndi.binary_propagation(seeds, s, mask=m, border_value=bv),
                )
            np.testing.assert_array_equal(gn.binary_fill_holes(a, s), ndi.binary_fill_holes(a, s))
        for s1, s2, o1, o2 in [
            (None, None, 0, None),
            (np.array([[1, 0], [0, 0]]), np.array([[0, 1], [1, 0]]), 0, None),
            (np.array([[0, 1, 1]]), np.array([[1, 0, 0], [0, 0, 1]]), (0, 1), (-1, 0)),
        ]:
            np.testing.assert_array_equal(
                gn.binary_hit_or_miss(a, s1, s2, origin1=o1, origin2=o2),
                ndi.binary_hit_or_miss(a, s1, s2, origin1=o1, origin2=o2),
            )


def test_layouts_and_dtypes():
    base = rng.random((37, 70)) < 0.5
    variants = [
        base,
        np.asfortranarray(base),
        base[::-1, ::-1],
        base.T.copy().T,
        np.ascontiguousarray(base.T).T,
        np.pad(base, 2)[2:-2:1, 2:-2],
        base.astype(np.uint8) * 7,
        base.astype(np.int64) - 0,
        base.astype(np.float32) * 0.5,
        base.astype(np.int8) * -1,
    ]
    for v in variants:
        for f in ("binary_erosion", "binary_dilation", "binary_closing"):
            np.testing.assert_array_equal(getattr(gn, f)(v), getattr(ndi, f)(v))
    strided = np.zeros((20, 140), bool)[:, ::2]
    strided[::3, ::5] = True
    np.testing.assert_array_equal(gn.binary_dilation(strided), ndi.binary_dilation(strided))
    # 1D rows, as scipy takes them.
    row = rng.random(50) < 0.5
    np.testing.assert_array_equal(gn.binary_erosion(row), ndi.binary_erosion(row))
    np.testing.assert_array_equal(gn.binary_dilation(row, [1, 1, 0, 1]), ndi.binary_dilation(row, [1, 1, 0, 1]))


def test_output_arguments_match_scipy():
    a = rng.random((6, 7)) < 0.5
    for f in ("binary_erosion", "binary_dilation", "binary_opening", "binary_closing", "binary_propagation"):
        o1, o2 = np.zeros((6, 7), np.uint8), np.zeros((6, 7), np.uint8)
        r1, r2 = getattr(gn, f)(a, output=o1), getattr(ndi, f)(a, output=o2)
        assert (r1 is o1) == (r2 is o2)
        np.testing.assert_array_equal(o1, o2)
        assert getattr(gn, f)(a, output=np.uint8).dtype == getattr(ndi, f)(a, output=np.uint8).dtype
    for f in ("binary_fill_holes", "binary_hit_or_miss"):
        o1, o2 = np.zeros((6, 7), bool), np.zeros((6, 7), bool)
        assert getattr(gn, f)(a, output=o1) is None and getattr(ndi, f)(a, output=o2) is None
        np.testing.assert_array_equal(o1, o2)


def test_bad_arguments():
    a = np.zeros((4, 4), bool)
    with pytest.raises(ValueError, match="use scipy.ndimage"):
        gn.binary_erosion(np.zeros((2, 2, 2)))
    with pytest.raises(RuntimeError, match="structure must not be empty"):
        gn.binary_erosion(a, np.zeros((0, 3)))
    with pytest.raises(RuntimeError, match="same dimensionality"):
        gn.binary_dilation(a, np.ones(3))
    with pytest.raises(RuntimeError, match="mask and input"):
        gn.binary_erosion(a, mask=np.ones((3, 3)))
    with pytest.raises(RuntimeError, match="output shape"):
        gn.binary_erosion(a, output=np.ones((3, 3)))
    with pytest.raises(ValueError, match="origin"):
        gn.binary_dilation(a, origin=5)
    with pytest.raises(TypeError, match="input"):
        gn.binary_erosion(np.zeros((2, 2), complex))
    with pytest.raises(TypeError, match="iterations"):
        gn.binary_erosion(a, iterations=1.5)
    with pytest.raises(ValueError, match="axes"):
        gn.binary_erosion(a, axes=(0,))
    np.testing.assert_array_equal(gn.binary_erosion(a, axes=(0, 1)), ndi.binary_erosion(a))
    with pytest.raises(ValueError, match="mode"):
        gm.binary_erosion(a, mode="reflect")
    with pytest.raises(ValueError, match="decomposition"):
        gm.disk(3, decomposition="sequence")
    with pytest.raises(TypeError, match="bool or integer"):
        gm.remove_small_objects(np.zeros((3, 3), float))


def test_empty_structure_matches_scipy():
    a = rng.random((5, 9)) < 0.5
    for f in ("binary_erosion", "binary_dilation"):
        np.testing.assert_array_equal(getattr(gn, f)(a, np.zeros((3, 3))), getattr(ndi, f)(a, np.zeros((3, 3))))


@settings(max_examples=60, deadline=None)
@given(
    a=hnp.arrays(bool, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=70)),
    s=hnp.arrays(bool, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=5)),
    bv=st.integers(0, 1),
    data=st.data(),
)
def test_hypothesis_against_scipy(a, s, bv, data):
    o = tuple(data.draw(st.integers(-(n // 2), (n - 1) // 2)) for n in s.shape)
    for f in ("binary_erosion", "binary_dilation"):
        np.testing.assert_array_equal(
            getattr(gn, f)(a, s, origin=o, border_value=bv),
            getattr(ndi, f)(a, s, origin=o, border_value=bv),
        )


# --- skimage ---------------------------------------------------------------------------


def test_footprints_match_skimage():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for r in range(0, 12):
            for strict in (True, False):
                want, got = sm.disk(r, strict_radius=strict), gm.disk(r, strict_radius=strict)
                assert got.dtype == want.dtype
                np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(gm.diamond(r), sm.diamond(r))
            assert gm.diamond(r, dtype=bool).dtype == sm.diamond(r, dtype=bool).dtype
            np.testing.assert_array_equal(gm.square(r + 1), sm.square(r + 1))
        for shape in [(1, 1), (2, 5), (4, 3)]:
            got, want = gm.footprint_rectangle(shape), sm.footprint_rectangle(shape)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)
    with pytest.warns(FutureWarning):
        gm.square(3)


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing"])
def test_skimage_binary_ops(name):
    ours, theirs = getattr(gm, name), getattr(sm, name)
    fps = [None, gm.disk(1), gm.disk(3), gm.diamond(2), np.ones((2, 4)), np.array([[1, 0], [1, 1]]),
           ((np.ones((3, 1)), 1), (np.ones((1, 3)), 2))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for shape, a in images():
            for fp in fps:
                for mode in ("ignore", "max", "min"):
                    want = theirs(a, fp, mode=mode)
                    got = ours(a, fp, mode=mode)
                    assert got.dtype == want.dtype
                    np.testing.assert_array_equal(got, want, err_msg=f"{shape} {fp} {mode}")
        out = np.zeros((9, 1), bool)
        a = rng.random((9, 1)) < 0.5
        assert ours(a, out=out) is out
        np.testing.assert_array_equal(out, theirs(a))


def test_remove_small_objects_and_holes_match_skimage():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for shape, a in images():
            for conn in (1, 2):
                for size in (0, 1, 2, 3, 5, 10):
                    np.testing.assert_array_equal(
                        gm.remove_small_objects(a, max_size=size, connectivity=conn),
                        sm.remove_small_objects(a, max_size=size, connectivity=conn),
                    )
                    np.testing.assert_array_equal(
                        gm.remove_small_holes(a, max_size=size, connectivity=conn),
                        sm.remove_small_holes(a, max_size=size, connectivity=conn),
                    )
                np.testing.assert_array_equal(
                    gm.remove_small_objects(a, 5, conn), sm.remove_small_objects(a, 5, conn)
                )
                np.testing.assert_array_equal(
                    gm.remove_small_holes(a, 5, conn), sm.remove_small_holes(a, 5, conn)
                )
        labels = np.array([[1, 1, 0, 2], [0, 0, 0, 2], [3, 0, 0, 2]])
        np.testing.assert_array_equal(
            gm.remove_small_objects(labels, max_size=2), sm.remove_small_objects(labels, max_size=2)
        )
    with pytest.warns(FutureWarning, match="min_size"):
        gm.remove_small_objects(np.zeros((3, 3), bool), 4)
    with pytest.raises(ValueError, match="Both"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gm.remove_small_objects(np.zeros((3, 3), bool), 4, max_size=64)
    out = np.zeros((3, 3), bool)
    assert gm.remove_small_holes(np.ones((3, 3), bool), out=out) is out
