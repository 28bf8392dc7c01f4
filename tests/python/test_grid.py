"""fill, distance, voronoi and reach against plain Python references."""

from collections import deque

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gridbits
from conftest import edge_examples, images

STEPS = {
    "4": [(-1, 0), (1, 0), (0, -1), (0, 1)],
    "8": [(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx],
}
SLIDES = {
    "rook": STEPS["4"],
    "bishop": [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    "queen": STEPS["8"],
}
#: Every ``moves`` the API accepts (``_checks._MOVES``, read case-insensitively through
#: ``str``: the integers 4 and 8 too), and the reference's name of each.
MOVES = {
    "4": "4", "8": "8", "king": "8", "queen": "queen", "rook": "rook", "bishop": "bishop",
    4: "4", 8: "8", "King": "8", "QUEEN": "queen", "Rook": "rook", "Bishop": "bishop",
}


def neighbours(free, r, c, moves):
    """Cells one move away from (r, c): steps, or slides stopped by blocked cells."""
    h, w = free.shape
    if moves in STEPS:
        for dy, dx in STEPS[moves]:
            y, x = r + dy, c + dx
            if 0 <= y < h and 0 <= x < w and free[y, x]:
                yield y, x
        return
    for dy, dx in SLIDES[moves]:
        y, x = r + dy, c + dx
        while 0 <= y < h and 0 <= x < w and free[y, x]:
            yield y, x
            y, x = y + dy, x + dx


def bfs(free, sources, moves):
    """Plain BFS: -1 unreached, 0 at the sources."""
    dist = np.full(free.shape, -1, dtype=np.int64)
    q = deque()
    for r, c in zip(*np.nonzero(sources)):
        dist[r, c] = 0
        q.append((r, c))
    while q:
        r, c = q.popleft()
        for y, x in neighbours(free, r, c, moves):
            if dist[y, x] < 0:
                dist[y, x] = dist[r, c] + 1
                q.append((y, x))
    return dist


def random_sources(img, seed, k):
    rng = np.random.default_rng(seed)
    src = np.zeros(img.shape, bool)
    if img.size:
        src[rng.integers(0, img.shape[0], k), rng.integers(0, img.shape[1], k)] = True
    return src


@edge_examples([11], ["4", "8", "queen", "rook", "bishop"])
@given(images(max_side=70), st.integers(0, 1000), st.sampled_from(["4", "8", "queen", "rook", "bishop"]))
def test_distance_equals_bfs(free, seed, moves):
    src = random_sources(free, seed, 3)
    want = bfs(free & ~src, src, moves)
    got = gridbits.distance(free & ~src, src, moves=moves)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, want)


def sources_on_and_off(free, seed, k):
    """Up to ``k`` sources on passable cells and up to ``k`` anywhere (blocked or not)."""
    rng = np.random.default_rng(seed)
    src = random_sources(free, seed, k)
    cells = np.argwhere(free)
    if len(cells):
        on = cells[rng.integers(0, len(cells), k)]
        src[on[:, 0], on[:, 1]] = True
    return src


@edge_examples([12], list(MOVES))
@given(images(max_side=70), st.integers(0, 1000), st.sampled_from(list(MOVES)))
def test_distance_from_passable_sources_equals_bfs(free, seed, moves):
    """Sources on passable cells (and some on blocked ones), under every accepted
    ``moves``: as a mask and as ``(row, col)`` pairs."""
    src = sources_on_and_off(free, seed, 3)
    want = bfs(free, src, MOVES[moves])
    got = gridbits.distance(free, src, moves=moves)
    assert got.dtype == np.int32 and got.shape == free.shape
    np.testing.assert_array_equal(got, want)
    pairs = np.argwhere(src)
    # A (K, 2) array of the grid's very shape is a mask (cells_mask's rule): pairs as a list.
    if pairs.shape == free.shape:
        pairs = pairs.tolist()
    np.testing.assert_array_equal(gridbits.distance(free, pairs, moves), want)


@pytest.mark.parametrize("moves", list(MOVES), ids=repr)
def test_distance_from_passable_sources_in_open_grid(moves):
    """A fixed case per ``moves``: two passable sources on an open 9 x 70 grid with a wall."""
    free = np.ones((9, 70), bool)
    free[2:, 40] = False
    free[0, 66:69] = False
    src = np.zeros_like(free)
    src[4, 3] = src[8, 69] = True
    want = bfs(free, src, MOVES[moves])
    assert (want >= 0).sum() > free.sum() // 2
    np.testing.assert_array_equal(gridbits.distance(free, src, moves), want)


@edge_examples([13], [4, 8])
@given(images(max_side=70), st.integers(0, 1000), st.sampled_from([4, 8]))
def test_fill_equals_bfs(free, seed, conn):
    seeds = random_sources(free, seed, 2) & free
    want = bfs(free, seeds, str(conn)) >= 0
    got = gridbits.fill(free, seeds, connectivity=conn)
    assert got.dtype == bool
    np.testing.assert_array_equal(got, want)


@edge_examples([13], [4, 8])
@given(images(max_side=70), st.integers(0, 1000), st.sampled_from([4, 8]))
def test_fill_count_equals_bfs(free, seed, conn):
    """From a few random cells, blocked ones included (0 cells)."""
    rng = np.random.default_rng(seed)
    h, w = free.shape
    for _ in range(3 if free.size else 0):
        r, c = int(rng.integers(h)), int(rng.integers(w))
        one = np.zeros_like(free)
        one[r, c] = True
        want = int((bfs(free, one & free, str(conn)) >= 0).sum())
        assert gridbits.fill_count(free, (r, c), connectivity=conn) == want
        assert gridbits.fill_count(free, np.array([r, c]), conn) == want


def test_fill_count_of_pockets_and_regions_of_a_large_grid():
    """2048 x 1100 noise, large enough for the count's windows: the same as fill().sum()."""
    rng = np.random.default_rng(3)
    free = rng.random((1100, 2048)) < 0.55
    starts = [(0, 0), (1099, 2047), (17, 64), (500, 63)] + [
        (int(r), int(c)) for r, c in zip(rng.integers(1100, size=6), rng.integers(2048, size=6))
    ]
    for conn in (4, 8):
        for start in starts:
            want = int(gridbits.fill(free, [start], connectivity=conn).sum())
            assert gridbits.fill_count(free, start, conn) == want, (start, conn)


def test_fill_count_errors():
    free = np.ones((3, 4), bool)
    with pytest.raises(ValueError, match=r"start: \(3, 0\) is off the 3x4 grid"):
        gridbits.fill_count(free, (3, 0))
    with pytest.raises(ValueError, match=r"start: \(0, -1\) is off"):
        gridbits.fill_count(free, (0, -1))
    with pytest.raises(TypeError, match="start: expected a \\(row, col\\) pair"):
        gridbits.fill_count(free, (1.5, 0))
    with pytest.raises(TypeError, match="start"):
        gridbits.fill_count(free, (1, 2, 3))
    with pytest.raises(ValueError, match="connectivity"):
        gridbits.fill_count(free, (0, 0), connectivity=6)
    with pytest.raises(ValueError, match="off the 0x5 grid"):
        gridbits.fill_count(np.ones((0, 5), bool), (0, 0))
    assert gridbits.fill_count(free, (2, 3)) == 12
    assert gridbits.fill_count(~free, (2, 3)) == 0


def owners(free, markers, moves):
    """Plain multi-player Voronoi: each player's own BFS, then strict minima."""
    players = int(markers.max()) if markers.size else 0
    blocked = markers > 0
    dists = []
    for k in range(1, players + 1):
        d = bfs(free & ~blocked, markers == k, moves)
        dists.append(np.where(d < 0, np.iinfo(np.int64).max, d))
    owner = np.zeros(free.shape, dtype=np.int64)
    if not players:
        return owner
    stack = np.stack(dists)
    best = stack.min(axis=0)
    winners = (stack == best).sum(axis=0)
    arg = stack.argmin(axis=0) + 1
    reached = best != np.iinfo(np.int64).max
    owner[reached & (winners == 1)] = arg[reached & (winners == 1)]
    owner[reached & (winners > 1)] = -1
    return owner


@edge_examples([14], [2, 3], ["4", "8", "queen"])
@given(images(max_side=50), st.integers(0, 1000), st.integers(1, 6), st.sampled_from(["4", "8", "queen"]))
def test_voronoi_equals_plain(free, seed, players, moves):
    rng = np.random.default_rng(seed)
    markers = np.zeros(free.shape, dtype=np.int32)
    if free.size:
        for k in range(1, players + 1):
            markers[rng.integers(0, free.shape[0]), rng.integers(0, free.shape[1])] = k
    want = owners(free, markers, moves)
    v = gridbits.voronoi(free, markers, moves=moves)
    np.testing.assert_array_equal(v.owner, want)
    for k in range(1, int(markers.max(initial=0)) + 1):
        assert v.counts[k] == (want == k).sum()


def test_voronoi_from_lists():
    free = np.ones((3, 7), bool)
    v = gridbits.voronoi(free, [[(1, 0)], [(1, 6)]])
    assert v.owner[1].tolist() == [1, 1, 1, -1, 2, 2, 2]
    assert v.counts.tolist() == [0, 9, 9]


@edge_examples([15], ["4", "8", "queen", "rook", "bishop"])
@given(images(max_side=40), st.integers(0, 1000), st.sampled_from(["4", "8", "queen", "rook", "bishop"]))
def test_reach_equals_rays(free, seed, moves):
    pieces = random_sources(free, seed, 3)
    open_ = free & ~pieces
    want = np.zeros(free.shape, bool)
    for r, c in zip(*np.nonzero(pieces)):
        for y, x in neighbours(open_, r, c, moves):
            want[y, x] = True
    np.testing.assert_array_equal(gridbits.reach(free, pieces, moves), want)


def test_seeds_as_pairs_and_errors():
    free = np.ones((4, 5), bool)
    assert gridbits.fill(free, [(0, 0)]).all()
    assert gridbits.fill(free, np.array([[3, 4]])).all()
    with pytest.raises(ValueError, match=r"seeds: \(4, 0\) is off the 4x5 grid"):
        gridbits.fill(free, [(4, 0)])
    with pytest.raises(ValueError, match="sources: shape"):
        gridbits.distance(free, np.zeros((3, 3), bool))
    with pytest.raises(ValueError, match="moves"):
        gridbits.distance(free, [(0, 0)], moves="knight")
    with pytest.raises(TypeError, match="passable"):
        gridbits.distance(np.array([[None]]), [(0, 0)])


@pytest.mark.parametrize(
    "cells",
    [[(1.9, 1.9)], [(0.5, 2.0)], np.array([[1.0, 2.0]]), [(float("inf"), 0)], [("a", 0)]],
)
def test_cells_that_are_not_integers_are_type_errors(cells):
    # Never truncated to integers: (1.9, 1.9) is not cell (1, 1).
    free = np.ones((3, 3), bool)
    with pytest.raises(TypeError, match=r"seeds: expected (a mask .* or )?\(row, col\) pairs of integers"):
        gridbits.fill(free, cells)
    with pytest.raises(TypeError, match=r"sources: expected (a mask .* or )?\(row, col\) pairs of integers"):
        gridbits.distance(free, cells)


@pytest.mark.parametrize(
    "cells, shown",
    [
        ([(2**64, 0)], "18446744073709551616, 0"),
        ([(0, -(2**70))], f"0, {-(2**70)}"),
        (np.array([[2**64 - 1, 0]], np.uint64), "18446744073709551615, 0"),
    ],
)
def test_cells_past_64_bits_are_off_the_grid_as_given(cells, shown):
    free = np.ones((3, 3), bool)
    with pytest.raises(ValueError, match=rf"seeds: \({shown}\) is off the 3x3 grid"):
        gridbits.fill(free, cells)
    with pytest.raises(ValueError, match=rf"sources\[0\]: \({shown}\) is off the 3x3 grid"):
        gridbits.voronoi(free, [cells])


def test_voronoi_lists_keep_every_player_and_refuse_shared_sources():
    free = np.ones((1, 5), bool)
    v = gridbits.voronoi(free, [[(0, 0)], [(0, 4)], []])
    assert v.counts.tolist() == [0, 2, 2, 0]  # the third player, without cells, owns none
    assert gridbits.voronoi(free, [[], []]).counts.tolist() == [0, 0, 0]
    with pytest.raises(ValueError, match=r"sources\[1\]: \(0, 0\) is already a source of player 1"):
        gridbits.voronoi(free, [[(0, 0)], [(0, 0)]])


@pytest.mark.parametrize(
    "cells",
    [
        [(np.uint64(1), 1)],
        [(np.uint64(1), np.int64(1))],
        [np.array([1, 1], np.uint64)],
        [(np.int8(1), np.uint64(1))],
    ],
)
def test_integer_pairs_numpy_promotes_to_float_are_still_integers(cells):
    free = np.ones((3, 4), bool)
    seeds = np.zeros((3, 4), bool)
    seeds[1, 1] = True
    np.testing.assert_array_equal(gridbits.fill(free, cells), gridbits.fill(free, seeds))
    with pytest.raises(ValueError, match=r"seeds: \(-1, 9223372036854775808\) is off"):
        gridbits.fill(free, [(-1, 2**63)])
