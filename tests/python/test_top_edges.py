"""Argument types of the top-level functions and the game helpers, as a new user meets
them: a float where an integer goes is a ``TypeError`` (8.0 is not the connectivity 8),
``True`` is not row 1 nor a colour, and ``None`` where cells or a move go is a
``TypeError``; the values keep their ``ValueError``s."""

import numpy as np
import pytest

import gridbits as g
from gridbits import amazons, puyo


@pytest.mark.parametrize("c", [8.0, 4.0, np.float64(4), "8"])
def test_connectivity_must_be_an_integer(c):
    for f in (g.label, g.label_stats):
        with pytest.raises(TypeError, match="connectivity"):
            f(np.eye(3), c)
    with pytest.raises(TypeError, match="connectivity"):
        g.fill(np.ones((3, 3)), [(0, 0)], c)
    assert g.label(np.eye(3), np.int64(8))[1] == 1
    with pytest.raises(ValueError, match="4 or 8"):
        g.label(np.eye(3), 6)


@pytest.mark.parametrize("cell", [(True, 0), (0, np.True_), (1.0, 0), None, 5])
def test_a_start_cell_is_two_integers(cell):
    with pytest.raises(TypeError, match="start"):
        g.fill_count(np.ones((3, 3)), cell)
    assert g.fill_count(np.ones((3, 3)), (np.int8(1), 0)) == 9


@pytest.mark.parametrize("seeds", [None, 5, 2.5])
def test_seeds_of_the_wrong_type(seeds):
    with pytest.raises(TypeError, match="seeds"):
        g.fill(np.ones((3, 3)), seeds)


def test_packed_width_type_and_value():
    rows = np.packbits(np.eye(4, dtype=bool), axis=1)
    with pytest.raises(TypeError, match="packed_width"):
        g.label(rows, packed_width=4.0)
    with pytest.raises(ValueError, match="packed_width"):
        g.label(rows, packed_width=-1)
    assert g.label(rows, packed_width=4, connectivity=4)[1] == 4


def test_puyo_pair_codes():
    field = np.zeros((13, 6), np.uint8)
    for bad in ((True, 2), (1.0, 2), None, (1, None)):
        with pytest.raises(TypeError, match="pair"):
            puyo.placements(field, bad)
    for bad in ((1, 2, 3), (9, 2), (0, 1), (1,)):
        with pytest.raises(ValueError, match="pair"):
            puyo.placements(field, bad)
    a = puyo.placements(field, (np.int64(1), 2))
    b = puyo.placements(field, "RG")
    assert np.array_equal(a.column, b.column) and np.array_equal(a.settled, b.settled)


def test_amazons_move_types():
    p = amazons.start()
    for bad in (None, 17, 2.5, [(9.0, 3), (3, 3), (3, 6)], [(np.True_, 3), (3, 3), (3, 6)]):
        with pytest.raises(TypeError, match="move"):
            amazons.play(p, bad)
    a = amazons.play(p, np.array([[9, 3], [3, 3], [3, 6]]))
    assert np.array_equal(a, amazons.play(p, "d1-d7/g7"))
