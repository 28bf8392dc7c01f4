"""The package's API surface: native parsers, move names, typed results, (row, col) in
Tetris, __all__ and help() of every module, and a stub that matches the native module."""

import ast
import importlib
import io
import pydoc
from pathlib import Path

import numpy as np
import pytest

import gridbits
from gridbits import _gridbits, amazons, puyo
from gridbits.tetris import Placement, Tetris

PACKAGE = Path(gridbits.__file__).parent
MODULES = [
    "gridbits",
    "gridbits._checks",
    "gridbits._grid",
    "gridbits.amazons",
    "gridbits.dask",
    "gridbits.envs",
    "gridbits.ndimage",
    "gridbits.opencv",
    "gridbits.puyo",
    "gridbits.tetris",
]
PUBLIC = [m for m in MODULES if not m.rsplit(".", 1)[-1].startswith("_")]


# Move names: whatever the library's Moves parser accepts.


@pytest.mark.parametrize(
    "name, same", [("four", "4"), ("Four", "4"), ("eight", "8"), ("EIGHT", "8"), ("king", "8")]
)
def test_moves_accept_the_library_names(name, same):
    free = np.ones((5, 6), bool)
    free[2, 1:5] = False
    np.testing.assert_array_equal(
        gridbits.distance(free, [(0, 0)], moves=name), gridbits.distance(free, [(0, 0)], same)
    )
    np.testing.assert_array_equal(
        gridbits.reach(free, [(0, 0)], moves=name), gridbits.reach(free, [(0, 0)], same)
    )
    a, b = gridbits.voronoi(free, [[(0, 0)], [(4, 5)]], name), gridbits.voronoi(
        free, [[(0, 0)], [(4, 5)]], same
    )
    np.testing.assert_array_equal(a.owner, b.owner)


def test_unknown_moves_are_named_by_the_native_parser_even_on_empty_grids():
    for free in (np.ones((3, 3), bool), np.ones((0, 3), bool)):
        with pytest.raises(ValueError, match=r'^moves: unknown value "knight": expected 4, 8'):
            gridbits.distance(free, [], moves="knight")
    assert _gridbits.parse_moves("Four") == "4"
    assert _gridbits.parse_moves("QUEEN") == "queen"


# Parsers: the library's, with its line and column.


def test_puyo_parse_is_the_library_parser_with_lines_of_the_text_as_given():
    with pytest.raises(ValueError, match=r"^text: line 2, column 3: unknown character 'X'"):
        puyo.parse("R.....\nRGX...")  # 2 lines: the field's bottom rows
    with pytest.raises(ValueError, match=r"^text: line 2, column 6: row has 5 columns"):
        puyo.parse("R.....\nRGB..")
    with pytest.raises(ValueError, match=r"^text: line 14, column 1: grid is 6x14, expected 6x13"):
        puyo.parse("......\n" * 14)
    with pytest.raises(ValueError, match=r"^text: line 1, column 1: unknown character '1'"):
        puyo.parse("1.....")  # Smash the Code digits under Tsu rules
    with pytest.raises(ValueError, match="rules"):
        puyo.parse("R.....", rules="puyo")
    for bad in (None, b"R.....", 5):
        with pytest.raises(TypeError, match="text: expected a str"):
            puyo.parse(bad)
    stc = puyo.parse("12345.\r\n0.....\n", rules="stc")
    assert stc.shape == (12, 6)
    assert stc[-2:].tolist() == [[1, 2, 3, 4, 5, 0], [6, 0, 0, 0, 0, 0]]
    # 12 and 13 lines of Tsu: the whole field, or the rows below the ghost row.
    full = puyo.parse("......\n" * 12 + "RRRR..")
    assert full.shape == (13, 6) and full[12].tolist() == [1, 1, 1, 1, 0, 0]
    np.testing.assert_array_equal(full, puyo.parse("......\n" * 11 + "RRRR.."))


def test_amazons_parse_is_the_library_parser():
    text = ("." * 10 + "\n") * 9 + "W.x#.....B"
    p = amazons.parse(text)
    assert p.dtype == np.uint8 and p.shape == (10, 10)
    assert p[9, :4].tolist() == [1, 0, 3, 3] and p[9, 9] == 2 and p[:9].sum() == 0
    with pytest.raises(ValueError, match=r"^text: line 10, column 3: unknown character 'Q'"):
        amazons.parse(("." * 10 + "\n") * 9 + "..Q.......")
    with pytest.raises(ValueError, match=r"^text: line 10, column 1: grid is 10x9, expected 10x10"):
        amazons.parse(("." * 10 + "\n") * 9)
    with pytest.raises(TypeError, match="text: expected a str"):
        amazons.parse(b"..")
    assert amazons.evaluate(text) == amazons.evaluate(p)


# Typed results.


def test_puyo_simulate_returns_a_chain_of_steps():
    r = puyo.simulate(puyo.parse("R.....\nRGGGG.\nRR...."))
    assert isinstance(r, puyo.Chain) and r._fields == ("chain", "score", "steps", "field")
    assert (r.chain, r.score) == (2, r.steps[0].score + r.steps[1].score)
    s = r.steps[0]
    assert isinstance(s, puyo.Step)
    assert s._fields == ("cleared", "garbage", "groups", "colors", "group_bonus", "score")
    assert (s.cleared, s.garbage, s.groups, s.colors) == (4, 0, 1, 1)
    assert r.field.dtype == np.uint8 and r.field.shape == (13, 6)
    assert r.field.sum() == 0  # both groups popped


def test_amazons_evaluate_returns_named_territories():
    e = amazons.evaluate(amazons.start())
    assert isinstance(e, amazons.Evaluation) and isinstance(e.queen, amazons.Territory)
    assert e.queen == amazons.Territory(white=22, black=22, contested=48, unreachable=0)
    assert all(type(v) is int for v in e.queen + e.king)
    assert amazons.evaluate_many(amazons.start()[None])[0].tolist() == [list(e.queen), list(e.king)]


def test_tetris_placements_are_immutable_objects_in_row_col():
    t = Tetris()
    moves = t.moves("O")
    assert all(isinstance(m, Placement) for m in moves)
    m = max(moves, key=lambda m: m.col)
    # An O on the floor at the right wall: its box's top row 38, left column 8.
    assert (m.piece, m.rotation, m.spin, m.inputs) == ("O", "0", "none", None)
    assert (m.row, m.col) == (38, 8)
    assert sorted(m.cells) == [(38, 8), (38, 9), (39, 8), (39, 9)]
    assert m == t.moves("O")[moves.index(m)] and hash(m) == hash(t.moves("O")[moves.index(m)])
    assert "row=38, col=8" in repr(m)
    with pytest.raises(AttributeError):
        m.row = 0
    # Keyword arguments name the order; x and y are not accepted.
    b = t.copy()
    assert b.fits("O", "0", row=m.row, col=m.col)
    assert b.place("O", "0", row=m.row, col=m.col) == 0
    assert np.argwhere(b.to_array()).tolist() == sorted([list(c) for c in m.cells])
    with pytest.raises(TypeError):
        b.fits("O", "0", x=7, y=38)
    assert b.drop("O", 0, col=0) == 0 and b.heights()[:2] == [2, 2]


# Module surface.


@pytest.mark.parametrize("name", MODULES)
def test_every_module_has_an_all_of_names_it_defines(name):
    m = importlib.import_module(name)
    assert isinstance(m.__all__, list) and len(set(m.__all__)) == len(m.__all__)
    for n in m.__all__:
        assert hasattr(m, n), f"{name}.{n}"


@pytest.mark.parametrize("name", PUBLIC)
def test_public_modules_show_only_their_own_api(name):
    m = importlib.import_module(name)
    public = {n for n in dir(m) if not n.startswith("_")}
    if name == "gridbits":  # submodules imported on demand (dask, bench, envs) become attributes
        public -= {"dask", "bench", "envs"}
    exported = {n for n in m.__all__ if not n.startswith("_")}
    assert public == exported, sorted(public ^ exported)
    # help() documents the names of __all__ and no imported ones (numpy, typing).
    out = io.StringIO()
    pydoc.Helper(output=out).help(m)
    section, shown = None, set()
    for line in out.getvalue().splitlines():
        if line and not line.startswith(" "):
            section = line
        elif section in ("CLASSES", "FUNCTIONS", "DATA") and line[4:5].isalpha():
            if line[:4] == "    " and (line.startswith("    class ") or "(" in line or " = " in line):
                word = line.split()[1] if line.startswith("    class ") else line.split()[0]
                word = word.split("(")[0]
                if "." not in word:  # not a base class in the class tree
                    shown.add(word)
    assert shown and shown <= set(m.__all__), shown


def test_help_of_amazons_is_bounded():
    out = io.StringIO()
    pydoc.Helper(output=out).help(amazons)
    # 197 lines before __all__, mostly numpy.typing's and typing's documentation (and
    # ndarray's, for the START array that start() replaces); now the module's own functions
    # and its two named tuples, which pydoc lists with tuple's methods (313 lines), and
    # since moves, play and perft, their docstrings (352 lines).
    assert len(out.getvalue().splitlines()) < 400


# The native module: public names, and a stub that declares every name it has.


def test_native_functions_have_the_public_names():
    for old in ("fill_mask", "reach_mask", "voronoi_owner", "label_stats_split"):
        assert not hasattr(_gridbits, old)
    for name in ("fill", "reach", "voronoi", "distance", "label", "label_stats"):
        assert getattr(_gridbits, name).__name__ == name
        assert getattr(gridbits, name).__name__ == name


def test_stub_declares_every_native_name_and_nothing_else():
    tree = ast.parse((PACKAGE / "_gridbits.pyi").read_text())
    declared = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            declared.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            declared.add(node.target.id)
    declared = {n for n in declared if not (n.startswith("_") and n[1:2].isupper())}
    native = {n for n in dir(_gridbits) if not (n.startswith("__") and n != "__version__")}
    assert declared == native, sorted(declared ^ native)
    methods = {
        n.name
        for c in tree.body
        if isinstance(c, ast.ClassDef) and c.name == "Tetris"
        for n in c.body
        if isinstance(n, ast.FunctionDef)
    }
    assert {n for n in dir(Tetris) if not n.startswith("_")} <= methods
