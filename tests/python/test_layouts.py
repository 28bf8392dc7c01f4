"""Every function reads any memory layout and dtype as it reads the same values in a
C-contiguous array: Fortran order, strided views, reversed (negative-stride) views and
transposes of bool, integer and float arrays give the results of the same call on
``np.ascontiguousarray(view)``."""

import numpy as np
import pytest

import gridbits

SHAPE = (70, 131)  # views: (35, 44) strided, (131, 70) transposed; rows of 2-3 words

LAYOUTS = {
    "fortran": np.asfortranarray,
    "strided": lambda a: a[::2, ::3],
    "reversed_rows": lambda a: a[::-1],
    "reversed_both": lambda a: a[::-1, ::-1],
    "transposed": lambda a: a.T,
    "row_slice": lambda a: a[3:-2, 5:-7],
}
DTYPES = [bool, np.uint8, np.int8, np.float32, np.float64]


def values(mask, dtype, seed):
    """``mask`` as ``dtype`` with set cells of assorted nonzero values (negative ones
    included for signed and float dtypes, fractions for floats)."""
    if dtype is bool:
        return mask.copy()
    rng = np.random.default_rng(seed)
    if dtype is np.uint8:
        vals = rng.integers(1, 256, mask.shape)
    elif dtype is np.int8:
        vals = rng.choice([-128, -1, 1, 2, 127], mask.shape)
    else:
        vals = rng.choice([-2.5, -1.0, 0.25, 1.0, 3e9], mask.shape)
    return np.where(mask, vals, 0).astype(dtype)


def base(density, seed, dtype=bool):
    rng = np.random.default_rng(seed)
    return values(rng.random(SHAPE) < density, dtype, seed + 1)


def lattice(seed, k):
    """``k`` random cells that every layout keeps: even rows, columns multiple of 3,
    inside the row slice."""
    rng = np.random.default_rng(seed)
    return rng.integers(2, 33, k) * 2, rng.integers(2, 41, k) * 3


def sparse(seed, k=6):
    """A bool mask with ``k`` random cells (seeds, sources, pieces)."""
    out = np.zeros(SHAPE, bool)
    out[lattice(seed, k)] = True
    return out


def layout_params():
    return [
        pytest.param(LAYOUTS[name], dtype, id=f"{name}-{np.dtype(dtype).name}")
        for name in LAYOUTS
        for dtype in DTYPES
    ]


def contiguous(*views):
    out = [np.ascontiguousarray(v) for v in views]
    for v, c in zip(views, out):
        np.testing.assert_array_equal(v, c)
    return out


def assert_pairs_same(f, a, b, c_a, c_b, want):
    """``f`` of two inputs, each a view (``a``, ``b``) or its contiguous copy (``c_a``,
    ``c_b``): every mix with a view gives ``want``, the result of ``f(c_a, c_b)``."""
    assert_same(f(a, b), want)
    assert_same(f(a, c_b), want)
    assert_same(f(c_a, b), want)


def assert_same(got, want):
    """Equal results: arrays, numbers, or (named) tuples of them."""
    if isinstance(want, tuple):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)
    elif want is None:
        assert got is None
    elif isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    else:
        assert got == want


def test_views_are_not_contiguous():
    """The layouts under test really are other layouts (or C only after a copy)."""
    a = base(0.5, 0)
    for name, f in LAYOUTS.items():
        assert not f(a).flags.c_contiguous, name


@pytest.mark.parametrize("layout, dtype", layout_params())
@pytest.mark.parametrize("conn", [4, 8])
def test_label_stats(layout, dtype, conn):
    view = layout(base(0.55, 1, dtype))
    (c,) = contiguous(view)
    want = gridbits.label_stats(c, conn)
    assert want.n > 3
    assert_same(gridbits.label_stats(view, conn), want)
    assert_same(gridbits.label_stats(view, conn, labels=False), gridbits.label_stats(c, conn, False))
    assert_same(gridbits.connected_components_with_stats(view, conn), gridbits.connected_components_with_stats(c, conn))


@pytest.mark.parametrize("layout, dtype", layout_params())
def test_groups_at_least(layout, dtype):
    view = layout(base(0.5, 2, dtype))
    (c,) = contiguous(view)
    want = gridbits.groups_at_least(c, 4)
    assert 0 < want.sum() < (c != 0).sum()
    assert_same(gridbits.groups_at_least(view, 4), want)
    assert_same(gridbits.groups_at_least(view, 4, 4), gridbits.groups_at_least(c, 4, 4))


@pytest.mark.parametrize("layout, dtype", layout_params())
@pytest.mark.parametrize("conn", [4, 8])
def test_fill(layout, dtype, conn):
    free = layout(base(0.65, 3, dtype))
    seeds = layout(values(sparse(4), dtype, 5))
    c_free, c_seeds = contiguous(free, seeds)
    want = gridbits.fill(c_free, c_seeds, conn)
    assert want.any()
    f = lambda a, b: gridbits.fill(a, b, conn)
    assert_pairs_same(f, free, seeds, c_free, c_seeds, want)


@pytest.mark.parametrize("layout, dtype", layout_params())
@pytest.mark.parametrize("moves", ["4", "8", "queen", "rook", "bishop"])
def test_distance(layout, dtype, moves):
    free = layout(base(0.65, 6, dtype))
    sources = layout(values(sparse(7), dtype, 8))
    c_free, c_sources = contiguous(free, sources)
    want = gridbits.distance(c_free, c_sources, moves)
    assert want.max() > 2
    f = lambda a, b: gridbits.distance(a, b, moves)
    assert_pairs_same(f, free, sources, c_free, c_sources, want)


@pytest.mark.parametrize("layout, dtype", layout_params())
@pytest.mark.parametrize("moves", ["4", "8", "queen"])
def test_voronoi(layout, dtype, moves):
    free = layout(base(0.7, 9, dtype))
    markers = np.zeros(SHAPE, np.int32)
    rows, cols = lattice(10, 4)
    markers[rows, cols] = np.arange(1, 5)
    for mdtype in (np.int32, np.uint8, np.int64):
        mview = layout(markers.astype(mdtype))
        c_free, c_markers = contiguous(free, mview)
        want = gridbits.voronoi(c_free, c_markers, moves)
        assert want.counts[1:].min() > 0
        f = lambda a, b: gridbits.voronoi(a, b, moves)
        assert_pairs_same(f, free, mview, c_free, c_markers, want)


@pytest.mark.parametrize("layout, dtype", layout_params())
@pytest.mark.parametrize("moves", ["4", "8", "queen", "rook", "bishop"])
def test_reach(layout, dtype, moves):
    free = layout(base(0.75, 11, dtype))
    pieces = layout(values(sparse(12, 10), dtype, 13))
    c_free, c_pieces = contiguous(free, pieces)
    want = gridbits.reach(c_free, c_pieces, moves)
    assert want.any()
    f = lambda a, b: gridbits.reach(a, b, moves)
    assert_pairs_same(f, free, pieces, c_free, c_pieces, want)


@pytest.mark.parametrize("layout", [pytest.param(f, id=name) for name, f in LAYOUTS.items()])
@pytest.mark.parametrize("conn", [4, 8])
def test_label_packed(layout, conn):
    """Packed rows (uint8 bytes) in every layout. ``packed_width`` is every width the
    view's bytes can hold from 8 below their capacity, and the result is also the
    labelling of the unpacked pixels."""
    packed = np.random.default_rng(14).integers(0, 256, SHAPE, dtype=np.uint8)
    view = layout(packed)
    (c,) = contiguous(view)
    for width in range(max(0, 8 * view.shape[1] - 8), 8 * view.shape[1] + 1):
        want = gridbits.label(c, conn, packed_width=width)
        assert_same(gridbits.label(view, conn, packed_width=width), want)
        want_stats = gridbits.label_stats(c, conn, packed_width=width)
        assert_same(gridbits.label_stats(view, conn, packed_width=width), want_stats)
        pixels = np.unpackbits(c, axis=1)[:, :width]
        assert_same(gridbits.label(pixels, conn), want)


def one_line_views(seed):
    """Views with a length-1 axis whose stride is not the item size: numpy flags them
    C-contiguous (the stride of a length-1 axis is never used), so ``np.ascontiguousarray``
    returns them unchanged and the native layer must accept them as they are."""
    rng = np.random.default_rng(seed)
    col = rng.random((70, 1)) < 0.6
    row = rng.random((1, 70)) < 0.6
    wide = rng.random((70, 3)) < 0.6
    views = {
        "column_reversed": col[:, ::-1],  # strides (1, -1)
        "column_of_fortran": np.asfortranarray(col)[:, ::-1],
        "row_reversed": row[::-1],  # strides (-70, 1)
        "column_of_transposed_row": row.T[:, ::-1],
        "column_of_reversed_wide": np.ascontiguousarray(wide[:, ::-1][:, :1])[:, ::-1],
    }
    for name, v in views.items():
        assert v.flags.c_contiguous and v.strides[v.shape.index(1)] != 1, name
    return views


ONE_LINE_CALLS = {
    "label": lambda a: gridbits.label(a, 4),
    "label_stats": lambda a: gridbits.label_stats(a, 8),
    "groups_at_least": lambda a: gridbits.groups_at_least(a, 2),
    "fill": lambda a: gridbits.fill(a, (0, 0)),
    "fill_count": lambda a: gridbits.fill_count(a, (0, 0)),
    "distance": lambda a: gridbits.distance(a, (0, 0)),
    "voronoi": lambda a: gridbits.voronoi(a, np.eye(*a.shape, dtype=np.int32) * 1),
    "reach": lambda a: gridbits.reach(a, (0, 0), "rook"),
    "ndimage.label": lambda a: gridbits.ndimage.label(a),
    "opencv.connectedComponentsWithStats": lambda a: gridbits.opencv.connectedComponentsWithStats(
        a.astype(np.uint8)
    ),
    "ndimage.binary_opening": lambda a: gridbits.ndimage.binary_opening(a),
    "ndimage.binary_fill_holes": lambda a: gridbits.ndimage.binary_fill_holes(a),
    "ndimage.distance_transform_cdt": lambda a: gridbits.ndimage.distance_transform_cdt(a),
    "ndimage.distance_transform_edt": lambda a: gridbits.ndimage.distance_transform_edt(a),
    "ndimage.find_objects": lambda a: gridbits.ndimage.find_objects(a.astype(np.int32)),
    "opencv.distanceTransform": lambda a: gridbits.opencv.distanceTransform(
        a.astype(np.uint8), gridbits.opencv.DIST_L1, 3
    ),
    "morphology.binary_closing": lambda a: gridbits.morphology.binary_closing(a),
    "morphology.remove_small_objects": lambda a: gridbits.morphology.remove_small_objects(a, max_size=2),
    "morphology.skeletonize": lambda a: gridbits.morphology.skeletonize(a),
    "morphology.thin": lambda a: gridbits.morphology.thin(a),
    "measure.label": lambda a: gridbits.measure.label(a),
    "measure.regionprops_table": lambda a: tuple(
        gridbits.measure.regionprops_table(gridbits.measure.label(a), properties=("area", "perimeter")).values()
    ),
}


@pytest.mark.parametrize("call", list(ONE_LINE_CALLS.values()), ids=list(ONE_LINE_CALLS))
def test_length_one_axis_any_stride(call):
    for name, view in one_line_views(15).items():
        view[0, 0] = True  # the start cell of fill and distance, written through the view
        (c,) = contiguous(view)
        assert_same(call(view), call(c))
