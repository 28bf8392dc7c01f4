"""Puyo Puyo and Amazons through numpy, against the Rust engine's known results."""

from pathlib import Path

import numpy as np
import pytest

import gridbits
from gridbits import amazons, puyo

TSU19 = """\
.G.BRG
GBRRYR
RRYYBY
RGYRBR
YGYRBY
YGBGYR
GRBGYR
BRBYBY
RYYBYY
BRBYBR
BGBYRR
YGBGBG
RBGBGG"""


def test_tsu_19_chain():
    r = puyo.simulate(puyo.parse(TSU19))
    assert r.chain == 19
    assert r.score == 175080
    assert len(r.steps) == 19
    assert r.field.shape == (13, 6)


def test_simulate_many_equals_simulate():
    rng = np.random.default_rng(7)
    fields = rng.integers(0, 6, size=(200, 13, 6)).astype(np.uint8)
    fields[:, :4] = 0
    chains, scores, after = puyo.simulate_many(fields)
    for i in range(len(fields)):
        r = puyo.simulate(fields[i])
        assert chains[i] == r.chain and scores[i] == r.score
        np.testing.assert_array_equal(after[i], r.field)
    # Strided input, and an empty batch.
    c3, s3, a3 = puyo.simulate_many(np.asfortranarray(fields))
    assert (c3 == chains).all() and (s3 == scores).all() and (a3 == after).all()
    c0, s0, a0 = puyo.simulate_many(np.zeros((0, 13, 6), np.uint8))
    assert c0.shape == (0,) and s0.shape == (0,) and a0.shape == (0, 13, 6)
    stc = rng.integers(0, 7, size=(50, 12, 6)).astype(np.uint8)
    c2, s2, _ = puyo.simulate_many(stc, rules="stc")
    assert all(c2[i] == puyo.simulate(stc[i], "stc").chain for i in range(50))


#: Seeded random fields and their chains as the Rust library computes them (written and
#: checked by crates/gridbits/tests/puyo_fixture.rs): floating cells, garbage, both rules.
FIXTURE = Path(__file__).parents[2] / "crates/gridbits/tests/data/puyo_random_chains.txt"


def _recorded(rules):
    rows = 13 if rules == "tsu" else 12
    grid = lambda digits: np.frombuffer(digits.encode(), np.uint8).reshape(rows, 6) - ord("0")
    out = []
    for line in FIXTURE.read_text().splitlines():
        name, codes, chain, score, after = line.split()
        if name == rules:
            out.append((grid(codes), int(chain), int(score), grid(after)))
    return out


@pytest.mark.parametrize("rules", ["tsu", "stc"])
def test_random_fields_give_the_rust_results(rules):
    recorded = _recorded(rules)
    assert len(recorded) == 150
    fields = np.stack([r[0] for r in recorded])
    chains, scores, after = puyo.simulate_many(fields, rules=rules)
    assert chains.tolist() == [r[1] for r in recorded]
    assert scores.tolist() == [r[2] for r in recorded]
    np.testing.assert_array_equal(after, np.stack([r[3] for r in recorded]))
    for field, chain, score, left in recorded:
        r = puyo.simulate(field, rules=rules)
        assert (r.chain, r.score) == (chain, score)
        assert sum(s.score for s in r.steps) == score
        np.testing.assert_array_equal(r.field, left)
    assert max(chains) >= 3 and (chains == 0).any()


def test_puyo_errors():
    with pytest.raises(ValueError, match="fields: each field must be 13 x 6"):
        puyo.simulate_many(np.zeros((2, 12, 6), np.uint8))
    with pytest.raises(ValueError, match="^field: must be 13 x 6"):
        puyo.simulate(np.zeros((12, 6), np.uint8))
    with pytest.raises(ValueError, match="^field: bad codes: code 9 at row 0, column 0"):
        puyo.simulate(np.full((13, 6), 9, np.uint8))
    bad = np.zeros((300, 13, 6), np.uint8)
    bad[257, 4, 2] = 7
    bad[280, 0, 0] = 200
    with pytest.raises(ValueError, match="field 257: code 7 at row 4, column 2"):
        puyo.simulate_many(bad)
    with pytest.raises(ValueError, match="codes"):
        puyo.simulate_many(bad.astype(np.int16))
    with pytest.raises(ValueError, match="rules"):
        puyo.simulate(np.zeros((13, 6), np.uint8), rules="puyo")
    with pytest.raises(ValueError, match="line 1, column 1"):
        puyo.parse("X.....")


def test_amazons_start_and_batch():
    e = amazons.evaluate(amazons.start())
    assert e.queen.white == e.queen.black
    assert sum(e.queen) == 92
    batch = amazons.evaluate_many(np.stack([amazons.start(), amazons.start()]))
    assert batch.shape == (2, 2, 4) and batch.dtype == np.int32
    assert batch[0, 0].tolist() == list(e.queen)
    with pytest.raises(ValueError, match="^positions: each position must be 10 x 10"):
        amazons.evaluate_many(np.zeros((1, 8, 8), np.uint8))
    with pytest.raises(ValueError, match="^position: must be 10 x 10"):
        amazons.evaluate(np.zeros((8, 8), np.uint8))
    with pytest.raises(ValueError, match="^position: codes must be"):
        amazons.evaluate(np.full((10, 10), 4, np.uint8))


def test_tetris_moves_place_and_errors():
    from gridbits.tetris import Tetris

    t = Tetris()
    moves = t.moves("T")
    assert len(moves) == len({tuple(m.cells) for m in moves})  # each placement once
    assert all(m.spin in ("none", "mini", "full") for m in moves)
    with_inputs = t.moves("T", inputs=True)
    assert [m.cells for m in with_inputs] == [m.cells for m in moves]
    assert all(isinstance(m.inputs, list) for m in with_inputs)
    # Every listed placement fits and locks: placing it changes exactly its four cells.
    for m in moves:
        b = t.copy()
        assert b.place("T", m.rotation, m.row, m.col) == 0
        a = b.to_array()
        assert a.sum() == 4
        assert all(a[r, c] for r, c in m.cells)
    # Fill the bottom row but one cell; a vertical I there clears it.
    rows = np.zeros((40, 10), np.uint8)
    rows[39, :9] = 1
    as_bool = Tetris.from_array(rows.astype(bool))
    assert (as_bool.to_array() == rows).all()
    t = Tetris.from_array(rows)
    assert t.drop("I", "R", 7) == 1
    assert t.heights() == [0] * 9 + [3]
    with pytest.raises(ValueError, match="piece"):
        t.moves("X")
    with pytest.raises(ValueError, match="rotation"):
        t.place("T", 7, 0, 0)
    with pytest.raises(ValueError, match="columns"):
        Tetris.from_array(np.zeros((20, 8), np.uint8))
    for bad in (np.full((20, 10), "a"), np.zeros((20, 10, 1)), "rows"):
        with pytest.raises(TypeError, match="cells: expected a 2D array of bool, integers or floats"):
            Tetris.from_array(bad)


@pytest.mark.parametrize("dtype", [bool, np.uint8, np.int8, np.int32, np.uint64, np.float32, np.float64])
def test_tetris_from_array_any_dtype_and_layout(dtype):
    from gridbits.tetris import Tetris

    rng = np.random.default_rng(3)
    cells = rng.random((24, 10)) < 0.4
    want = Tetris.from_array(cells.astype(np.uint8))
    values = np.where(cells, rng.choice([1, 2, 7], cells.shape), 0).astype(dtype)
    for view in (values, np.asfortranarray(values), values[::-1][::-1], values.tolist()):
        got = Tetris.from_array(view)
        assert got == want
        assert (got.to_array() == cells).all()


def test_tetris_moves_as_arrays_equal_the_list():
    from gridbits.tetris import MoveArrays, Tetris

    rng = np.random.default_rng(4)
    spins = 0
    for k in range(40):
        rows = 24 + k % 17
        cells = rng.random((rows, 10)) < 0.35
        cells[: rows // 2] = False  # room to spawn
        t = Tetris.from_array(cells)
        for piece in "IOTSZJL":
            for r180 in (False, True):
                lst = t.moves(piece, rotate_180=r180)
                arr = t.moves(piece, rotate_180=r180, as_arrays=True)
                assert isinstance(arr, MoveArrays)
                assert [a.dtype for a in arr] == [np.uint8, np.int16, np.int16, np.uint8, np.int16]
                assert arr.cells.shape == (len(lst), 4, 2)
                assert arr.rotation.tolist() == ["0R2L".index(m.rotation) for m in lst]
                assert arr.row.tolist() == [m.row for m in lst]
                assert arr.col.tolist() == [m.col for m in lst]
                assert arr.spin.tolist() == [("none", "mini", "full").index(m.spin) for m in lst]
                assert [list(map(tuple, c)) for c in arr.cells.tolist()] == [m.cells for m in lst]
                spins += int((arr.spin > 0).sum())
    assert spins > 0  # the random boards reach T-spins, so the spin codes are exercised
    with pytest.raises(ValueError, match="inputs=True needs the list form"):
        Tetris().moves("T", inputs=True, as_arrays=True)


def test_tetris_value_semantics_copy_and_pickle():
    import copy
    import pickle

    from gridbits.tetris import Tetris

    t = Tetris(23)
    t.drop("I", "0", 3)
    t.drop("T", "2", 5)
    for u in (pickle.loads(pickle.dumps(t)), copy.deepcopy(t), copy.copy(t), t.copy()):
        assert u == t and u is not t and u.height == 23
        assert (u.to_array() == t.to_array()).all()
        u.drop("O", 0, 0)
        assert u != t  # independent storage
    assert t != Tetris(23) and Tetris(23) == Tetris(23) and Tetris(23) != Tetris(24)
    assert t != "not a board"
    with pytest.raises(TypeError, match="unhashable"):
        hash(t)  # mutable: compares by value, so it is not hashable
    with pytest.raises(ValueError, match="state: 3 bytes for a 23 x 10 matrix"):
        Tetris(23).__setstate__(b"abc")


def test_tetris_and_puyo_arguments_out_of_range_are_named_or_do_not_fit():
    from gridbits import puyo
    from gridbits.tetris import Tetris

    with pytest.raises(ValueError, match="height: -1 is negative"):
        Tetris(-1)
    with pytest.raises(ValueError, match="height: .*height 1 to 64"):
        Tetris(65)
    t = Tetris()
    # Positions past 32 bits are off the matrix: nothing fits there, nothing changes.
    assert t.fits("T", 0, 0, 2**31) is False
    assert t.fits("T", 0, -(2**40), 3) is False
    assert t.place("T", 0, 5, 2**40) is None
    assert t.drop("T", 0, -(2**40)) is None
    assert t.to_array().sum() == 0
    for bad in (None, b"R.....", 5):
        with pytest.raises(TypeError, match="text: expected a str"):
            puyo.parse(bad)


def test_amazons_moves_play_and_perft():
    rng = np.random.default_rng(5)
    p = amazons.start()
    for ply in range(12):
        side = ("white", "black")[ply % 2]
        me = 1 + ply % 2
        ms = amazons.moves(p, side)
        assert ms.dtype == np.uint8 and ms.shape[1:] == (3, 2)
        assert len(ms) == amazons.perft(p, 1, side) > 0
        assert len({m.tobytes() for m in ms}) == len(ms)  # each move once
        for m in ms[rng.choice(len(ms), 20)]:
            (fr, fc), (tr, tc), (ar, ac) = m.tolist()
            q = amazons.play(p, m, side)
            assert q[fr, fc] == (0 if (fr, fc) != (ar, ac) else 3)
            assert q[tr, tc] == me and q[ar, ac] == 3
            assert (q != p).sum() == 2 + ((fr, fc) != (ar, ac))  # nothing else changes
            # The notation of the same move plays the same position (a1 bottom left).
            sq = lambda r, c: "abcdefghij"[c] + str(10 - r)
            text = f"{sq(fr, fc)}-{sq(tr, tc)}/{sq(ar, ac)}"
            assert (amazons.play(p, text, side) == q).all()
            assert (amazons.play(p, tuple(map(tuple, m.tolist())), side) == q).all()
        p = amazons.play(p, ms[rng.integers(len(ms))], side)
    assert amazons.perft(amazons.start(), 0) == 1
    assert amazons.perft(amazons.start(), 2, "black") == 4_307_152
    # A white amazon walled in by arrows has no move: an empty array, perft 0.
    boxed = amazons.parse("W#........\n##........\n" + ".........B\n" * 8)
    assert amazons.moves(boxed).shape == (0, 3, 2) and amazons.perft(boxed, 3) == 0
    assert len(amazons.moves(boxed, "BLACK")) > 0


def test_amazons_move_errors_are_named():
    p = amazons.start()
    with pytest.raises(ValueError, match="illegal move a7-a6/a5: no white amazon on a7"):
        amazons.play(p, "a7-a6/a5")
    with pytest.raises(ValueError, match="move: square \\(10, 0\\) is off the 10 x 10 board"):
        amazons.play(p, [(10, 0), (9, 0), (8, 0)])
    with pytest.raises(ValueError, match="move: expected three"):
        amazons.play(p, [(6, 0), (5, 0)])
    with pytest.raises(ValueError, match="move: expected notation"):
        amazons.play(p, [(6, 0, 1), (5, 0), (4, 0)])
    for bad in (17, None, [(9.0, 3), (3, 3), (3, 6)], [(True, 3), (3, 3), (3, 6)], [5, 6, 7]):
        with pytest.raises(TypeError, match="move: "):
            amazons.play(p, bad)
    with pytest.raises(ValueError, match="move: "):
        amazons.play(p, "d1d7")
    with pytest.raises(ValueError, match='side must be "white" or "black", not "red"'):
        amazons.moves(p, "red")
    with pytest.raises(TypeError, match="side: expected"):
        amazons.moves(p, 1)
    with pytest.raises(ValueError, match=r"depth: must be 0 to 2\*\*32 - 1, not -1"):
        amazons.perft(p, -1)
    with pytest.raises(TypeError, match="depth: expected an int"):
        amazons.perft(p, 1.5)
    with pytest.raises(ValueError, match="position: must be 10 x 10"):
        amazons.moves(np.zeros((8, 8), np.uint8))
    with pytest.raises(ValueError, match=r"position: codes must be 0 \(empty\)"):
        amazons.moves(np.full((10, 10), 7, np.uint8))
    assert (p == amazons.start()).all()  # play never changes its argument


@pytest.mark.parametrize("rules", ["tsu", "stc"])
def test_puyo_placements_drop_two_puyos_and_fire_their_chain(rules):
    rng = np.random.default_rng(6)
    rows = 13 if rules == "tsu" else 12
    letters = "RGBYP" if rules == "tsu" else "12345"
    seen = 0
    for k in range(60):
        heights = rng.integers(0, rows - 1 if k % 5 else rows, 6)
        field = np.zeros((rows, 6), np.uint8)
        for c, h in enumerate(heights):
            field[rows - h :, c] = rng.integers(1, 6 if k % 3 else 7, h)
        settled0 = puyo.simulate(field, rules).field  # what the field is after its own chain
        axis, child = (int(v) for v in rng.integers(1, 6, 2))
        pair = (axis, child) if k % 2 else letters[axis - 1] + letters[child - 1]
        p = puyo.placements(settled0, pair, rules)
        n = len(p.column)
        assert [a.shape[0] for a in p] == [n] * 6
        assert p.dropped.shape == p.settled.shape == (n, rows, 6)
        assert len({(c, r) for c, r in zip(p.column.tolist(), p.rotation.tolist())}) == n
        assert len({d.tobytes() for d in p.dropped}) == n  # each field once
        if axis == child:
            assert set(p.rotation.tolist()) <= {0, 1}
        for i in range(n):
            d = p.dropped[i]
            added = (d != settled0)
            assert added.sum() == 2 and (settled0[added] == 0).all()
            assert sorted(d[added].tolist()) == sorted([axis, child])
            # The two cells rest on the stack: no hole under either.
            for r, c in zip(*np.nonzero(added)):
                assert r == rows - 1 or d[r + 1, c] != 0
            chain = puyo.simulate(d, rules)
            assert (p.chain[i], p.score[i]) == (chain.chain, chain.score)
            assert (p.settled[i] == chain.field).all()
        seen += n
    assert seen > 500
    open_field = np.zeros((rows, 6), np.uint8)
    assert len(puyo.placements(open_field, (1, 2), rules).column) == 22
    assert len(puyo.placements(open_field, (3, 3), rules).column) == 11


def test_puyo_placements_game_over_and_errors():
    dead = puyo.parse("..O...\n" * 12)  # column 3 stacked to row 12: Tsu's death cell
    assert len(puyo.placements(dead, "RG").column) == 0
    f = np.zeros((13, 6), np.uint8)
    for bad, msg in [((0, 1), "two colour codes 1-5"), ((1, 2, 3), "two colour codes 1-5"),
                     ("R1", "pair: "), ("RGB", "pair: ")]:
        with pytest.raises(ValueError, match=msg):
            puyo.placements(f, bad)
    with pytest.raises(TypeError, match="pair: expected text"):
        puyo.placements(f, None)
    with pytest.raises(ValueError, match="field: must be 13 x 6"):
        puyo.placements(np.zeros((12, 6), np.uint8), "RG")
