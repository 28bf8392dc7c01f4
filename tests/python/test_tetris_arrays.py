"""``Tetris.moves(as_arrays=True)`` built from Rust buffers: edge cases of the arrays
themselves (the values against the list form are in test_games.py)."""

import numpy as np

from gridbits.tetris import MoveArrays, Tetris

DTYPES = [np.uint8, np.int16, np.int16, np.uint8, np.int16]


def test_blocked_spawn_gives_empty_arrays_of_the_right_shapes():
    t = Tetris.from_array(np.ones((24, 10), dtype=np.uint8))
    m = t.moves("T", as_arrays=True)
    assert isinstance(m, MoveArrays)
    assert [a.dtype for a in m] == DTYPES
    assert [a.shape for a in m] == [(0,), (0,), (0,), (0,), (0, 4, 2)]


def test_arrays_are_fresh_writable_and_contiguous():
    t = Tetris()
    a = t.moves("L", as_arrays=True)
    b = t.moves("L", as_arrays=True)
    for x, y in zip(a, b):
        assert x.flags["C_CONTIGUOUS"] and x.flags["WRITEABLE"]
        assert not np.shares_memory(x, y)
        x[...] = 0
    assert b.cells.any() and b.row.any()
    # The named tuple behaves as one.
    rotation, row, col, spin, cells = b
    assert b._fields == ("rotation", "row", "col", "spin", "cells")
    assert b[4] is cells and len(b) == 5
    assert b == MoveArrays(*b)


def test_every_matrix_height_and_piece():
    rng = np.random.default_rng(9)
    for rows in (1, 2, 4, 21, 22, 40, 64):
        cells = rng.random((rows, 10)) < 0.3
        cells[: rows // 2] = False
        t = Tetris.from_array(cells)
        for piece in "IOTSZJL":
            lst = t.moves(piece)
            arr = t.moves(piece, as_arrays=True)
            assert arr.cells.shape == (len(lst), 4, 2)
            assert [list(map(tuple, c)) for c in arr.cells.tolist()] == [m.cells for m in lst]
