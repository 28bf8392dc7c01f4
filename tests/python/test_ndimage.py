"""gridbits.ndimage.label against scipy.ndimage.label: same call, same results."""

import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy import ndimage

from gridbits import ndimage as gnd
from conftest import images

STRUCTURES = [
    None,
    ndimage.generate_binary_structure(2, 1),
    ndimage.generate_binary_structure(2, 2),
    np.ones((3, 3), dtype=np.int64),
    [[0, 1, 0], [1, 1, 1], [0, 1, 0]],
    # The centre does not matter (a pixel is connected to itself).
    [[0, 1, 0], [1, 0, 1], [0, 1, 0]],
    [[1, 1, 1], [1, 0, 1], [1, 1, 1]],
    # The centre alone, or nothing: every pixel a component of its own.
    [[0, 0, 0], [0, 1, 0], [0, 0, 0]],
    np.zeros((3, 3), int),
]


@given(images(), st.sampled_from(range(len(STRUCTURES))))
def test_label_equals_scipy(img, k):
    s = STRUCTURES[k]
    want, n = ndimage.label(img, structure=s)
    got, m = gnd.label(img, structure=s)
    assert m == n
    assert got.dtype == want.dtype == np.int32
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape", [(0, 5), (5, 0), (1, 1), (1, 65), (63, 2), (64, 64), (65, 1)])
@pytest.mark.parametrize("k", range(len(STRUCTURES)))
def test_edges_and_the_default_is_scipys(shape, k):
    rng = np.random.default_rng(sum(shape) + k)
    for img in (np.zeros(shape, bool), np.ones(shape, bool), rng.random(shape) < 0.5):
        want, n = ndimage.label(img, structure=STRUCTURES[k])
        got, m = gnd.label(img, structure=STRUCTURES[k])
        assert m == n
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "structure", [None, [1, 1, 1], [0, 1, 0], np.array([True, True, True]), [1, 0, 1], [0, 0, 0]]
)
@pytest.mark.parametrize("n", [0, 1, 63, 64, 65, 200])
def test_one_dimension(structure, n):
    x = np.random.default_rng(n).random(n) < 0.5
    want, k = ndimage.label(x, structure=structure)
    got, m = gnd.label(x, structure=structure)
    assert m == k
    assert got.shape == x.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint16, np.float64, "int16"])
def test_output_dtype(dtype):
    img = np.random.default_rng(5).random((40, 50)) < 0.5
    want, n = ndimage.label(img, output=dtype)
    got, m = gnd.label(img, output=dtype)
    assert m == n
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32, np.float32])
def test_output_array_is_written_in_place(dtype):
    img = np.random.default_rng(6).random((40, 50)) < 0.5
    want = np.full(img.shape, 7, dtype=dtype)
    got = np.full(img.shape, 7, dtype=dtype)
    n = ndimage.label(img, structure=np.ones((3, 3)), output=want)
    m = gnd.label(img, structure=np.ones((3, 3)), output=got)
    assert m == n
    np.testing.assert_array_equal(got, want)


def test_too_small_output_type_is_scipys_error():
    img = np.indices((40, 40)).sum(axis=0) % 2 == 0  # a checkerboard: 800 components
    with pytest.raises(RuntimeError):
        ndimage.label(img, output=np.uint8)
    with pytest.raises(RuntimeError, match="bit-depth"):
        gnd.label(img, output=np.uint8)
    with pytest.raises(RuntimeError, match="bit-depth"):
        gnd.label(img, output=np.zeros(img.shape, np.uint8))


def test_float_and_bool_outputs_check_their_depth():
    # scipy writes up to 254 labels into a bool output (True where a pixel is set) and
    # refuses more.
    for img in (np.array([[1, 0, 1]]), np.arange(508).reshape(1, -1) % 2 == 0):
        want = ndimage.label(img, output=np.bool_)
        got = gnd.label(img, output=np.bool_)
        assert got[1] == want[1]
        assert got[0].dtype == want[0].dtype == np.bool_
        np.testing.assert_array_equal(got[0], want[0] != 0)
        out = np.zeros(img.shape, bool)
        assert gnd.label(img, output=out) == want[1]
        np.testing.assert_array_equal(out, img != 0)
    many = np.arange(510).reshape(1, -1) % 2 == 0  # 255 components
    with pytest.raises(RuntimeError, match="bit-depth"):
        ndimage.label(many, output=np.bool_)
    with pytest.raises(RuntimeError, match="bit-depth"):
        gnd.label(many, output=np.bool_)
    # float16 holds the integers up to 2048 exactly.
    checker = np.indices((90, 90)).sum(axis=0) % 2 == 0  # 4050 components
    with pytest.raises(RuntimeError, match="bit-depth"):
        gnd.label(checker, output=np.float16)
    assert gnd.label(checker, output=np.float32)[1] == 4050


@pytest.mark.parametrize("shape", [(5, 5), (2, 2), (1, 3), (3, 4)])
def test_a_structure_of_the_wrong_size_is_scipys_value_error(shape):
    img = np.ones((4, 4), bool)
    with pytest.raises(ValueError, match="dimensions must be equal to 3"):
        ndimage.label(img, structure=np.ones(shape))
    with pytest.raises(ValueError, match="structure: dimensions must be equal to 3"):
        gnd.label(img, structure=np.ones(shape))


def test_bad_arguments_name_what_is_wrong():
    img = np.ones((4, 4), bool)
    with pytest.raises(ValueError, match="output: shape"):
        gnd.label(img, output=np.zeros((3, 3), np.int32))
    with pytest.raises(ValueError, match="structure: gridbits supports"):
        gnd.label(img, structure=[[0, 0, 0], [1, 1, 1], [0, 0, 0]])
    with pytest.raises(ValueError, match="structure: for a 1D input gridbits supports"):
        gnd.label(np.ones(4), structure=[1, 1, 0])
    with pytest.raises(RuntimeError, match="structure: must have"):
        gnd.label(img, structure=[1, 1, 1])
    with pytest.raises(TypeError, match="input: expected an array of bool or numbers"):
        gnd.label(np.array(["a", "b"]))
    with pytest.raises(ValueError, match="input:"):
        gnd.label([[1, 0], [1]])
    with pytest.raises(TypeError, match="output: expected an integer"):
        gnd.label(img, output=np.complex64)
    with pytest.raises(ValueError, match="input: gridbits labels 1D and 2D"):
        gnd.label(np.ones((2, 2, 2)))
    with pytest.raises(TypeError, match="complex"):
        gnd.label(np.ones((2, 2), complex))
    with pytest.raises(TypeError, match="output: expected"):
        gnd.label(img, output=object())


def test_bench_times_the_drop_in_against_scipy():
    # The benchmark's drop-in rows: both libraries timed on one image whose counts agree
    # (the rows are refused when they differ), and one ratio of scipy to gridbits.
    # The benchmark is a script of the gridbits-bench crate, not a module of the package.
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[2] / "crates/gridbits-bench/python/bench.py"
    spec = importlib.util.spec_from_file_location("gridbits_bench_script", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)

    img = bench.images(64)["noise 50%"]
    rows = bench._ndimage_rows("ndimage.label noise 50% 64x64", img, 1)
    assert [r["impl"] for r in rows] == ["gridbits", "scipy.ndimage.label"]
    assert all(r["seconds"] > 0 for r in rows)
    assert [r["baseline"] for r in bench.ratios(rows)] == ["scipy.ndimage.label"]
