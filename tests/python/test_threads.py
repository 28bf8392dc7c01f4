"""Thread control: ``gridbits.set_num_threads``, ``get_num_threads`` and ``threads``."""

import threading

import numpy as np
import pytest

import gridbits
from gridbits import puyo


@pytest.fixture(autouse=True)
def default_threads():
    gridbits.set_num_threads(None)
    yield
    gridbits.set_num_threads(None)


def _work():
    """Calls that run on the pool: labelling and a distance map of a 1100 x 1100 image
    (past the size where labelling goes parallel), a batch of Puyo fields."""
    rng = np.random.default_rng(5)
    image = rng.random((1100, 1100)) < 0.45
    labels, n = gridbits.label(image)
    sources = np.zeros_like(image)
    sources[0, 0] = True
    dist = gridbits.distance(~image, sources)
    fields = rng.integers(0, 6, size=(64, 13, 6), dtype=np.uint8)
    chains = puyo.simulate_many(fields)
    return labels, n, dist, chains


def _same(a, b):
    assert a[1] == b[1]
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[2], b[2])
    for x, y in zip(a[3], b[3]):
        np.testing.assert_array_equal(x, y)


def test_one_and_two_threads_give_the_same_results():
    gridbits.set_num_threads(1)
    assert gridbits.get_num_threads() == 1
    one = _work()
    gridbits.set_num_threads(2)
    assert gridbits.get_num_threads() == 2
    two = _work()
    _same(one, two)
    gridbits.set_num_threads(None)
    _same(one, _work())


def test_threads_restores_the_previous_setting():
    default = gridbits.get_num_threads()
    with gridbits.threads(1):
        assert gridbits.get_num_threads() == 1
        with gridbits.threads(2):
            assert gridbits.get_num_threads() == 2
        assert gridbits.get_num_threads() == 1
    assert gridbits.get_num_threads() == default
    gridbits.set_num_threads(3)
    with gridbits.threads(1):
        assert gridbits.get_num_threads() == 1
    assert gridbits.get_num_threads() == 3
    with gridbits.threads(None):
        assert gridbits.get_num_threads() == default
    assert gridbits.get_num_threads() == 3


def test_threads_restores_on_an_exception():
    gridbits.set_num_threads(2)
    with pytest.raises(KeyError):
        with gridbits.threads(1):
            assert gridbits.get_num_threads() == 1
            raise KeyError("boom")
    assert gridbits.get_num_threads() == 2


def test_calls_in_other_python_threads_use_the_setting():
    seen = []
    with gridbits.threads(1):
        t = threading.Thread(target=lambda: seen.append(gridbits.get_num_threads()))
        t.start()
        t.join()
    assert seen == [1]


@pytest.mark.parametrize("bad", [0, -1, 257])
def test_out_of_range_is_a_value_error(bad):
    with pytest.raises(ValueError, match="n: expected 1 to 256 threads"):
        gridbits.set_num_threads(bad)
    with pytest.raises(ValueError, match="n: expected 1 to 256 threads"):
        with gridbits.threads(bad):
            pass  # pragma: no cover
    assert gridbits.get_num_threads() >= 1


@pytest.mark.parametrize("bad", [1.0, "2", True, [1]])
def test_a_non_int_is_a_type_error(bad):
    gridbits.set_num_threads(2)
    with pytest.raises(TypeError, match="n: expected an int"):
        gridbits.set_num_threads(bad)
    with pytest.raises(TypeError, match="n: expected an int"):
        with gridbits.threads(bad):
            pass  # pragma: no cover
    assert gridbits.get_num_threads() == 2


def test_numpy_integers_are_taken():
    gridbits.set_num_threads(np.int64(2))
    assert gridbits.get_num_threads() == 2
