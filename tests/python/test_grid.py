"""fill, distance, voronoi and reach against plain Python references."""

from collections import deque

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gridbits
from conftest import images

STEPS = {
    "4": [(-1, 0), (1, 0), (0, -1), (0, 1)],
    "8": [(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx],
}
SLIDES = {
    "rook": STEPS["4"],
    "bishop": [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    "queen": STEPS["8"],
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


@given(images(max_side=70), st.integers(0, 1000), st.sampled_from(["4", "8", "queen", "rook", "bishop"]))
def test_distance_equals_bfs(free, seed, moves):
    src = random_sources(free, seed, 3)
    want = bfs(free & ~src, src, moves)
    got = gridbits.distance(free & ~src, src, moves=moves)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, want)


@given(images(max_side=70), st.integers(0, 1000), st.sampled_from([4, 8]))
def test_fill_equals_bfs(free, seed, conn):
    seeds = random_sources(free, seed, 2) & free
    want = bfs(free, seeds, str(conn)) >= 0
    got = gridbits.fill(free, seeds, connectivity=conn)
    assert got.dtype == bool
    np.testing.assert_array_equal(got, want)


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
