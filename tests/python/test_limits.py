"""Results too large for the memory raise MemoryError before anything is allocated.

The library checks and reserves every buffer whose size comes from the input (a label image
or a distance map holds 4 bytes per pixel) with ``try_reserve`` before the work starts, so a
size the allocator refuses is an exception, never an abort. To check that without using
gigabytes, a child process caps its own address space just above what it already uses:
the input fits, the 4-bytes-per-pixel results do not.
"""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import gridbits

CHILD = textwrap.dedent(
    """
    import resource
    import numpy as np
    import gridbits

    n = 6000  # a 36 MB image; its int32 labels or distances need 144 MB
    img = np.zeros((n, n), dtype=bool)
    img[::2, ::3] = True
    # Warm up (thread pools, lazy imports) on a small image before measuring.
    small = img[:64, :64].copy()
    gridbits.label(small)
    gridbits.distance(small, [(0, 0)])

    def vm_bytes():
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
        raise RuntimeError("no VmSize")

    headroom = 100 << 20
    resource.setrlimit(resource.RLIMIT_AS, (vm_bytes() + headroom, resource.RLIM_INFINITY))

    packed = np.packbits(img, axis=1)
    markers = np.zeros((n, n), dtype=np.uint8)
    markers[0, 0], markers[-1, -1] = 1, 2
    for name, run in [
        ("label", lambda: gridbits.label(img)),
        ("label_stats", lambda: gridbits.label_stats(img)),
        ("distance", lambda: gridbits.distance(img, [(0, 0)])),
        ("label_packed", lambda: gridbits.label(packed, packed_width=n)),
        ("voronoi", lambda: gridbits.voronoi(img, markers)),
        ("fill", lambda: gridbits.fill(img, [(0, 0)])),
    ]:
        try:
            run()
            print(name, "ok")
        except MemoryError as e:
            print(name, "MemoryError:", e)
    # The process is still healthy: a small call works.
    print("after", gridbits.label(small)[1])
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and RLIMIT_AS")
def test_results_too_large_for_the_memory_raise_memory_error():
    env = dict(os.environ, MALLOC_ARENA_MAX="1", RAYON_NUM_THREADS="1")
    out = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, timeout=300
    )
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(" ", 1) for line in out.stdout.splitlines())
    # Raised by gridbits' own checks (which name what they refused), not by numpy.
    assert lines["label"].startswith("MemoryError: not enough memory for the label image"), lines
    assert lines["label_stats"].startswith("MemoryError: not enough memory for the label image"), lines
    assert lines["distance"].startswith("MemoryError: passable: cannot make a 6000x6000 distance map"), lines
    assert "bytes" in lines["distance"], lines
    assert lines["label_packed"].startswith("MemoryError: not enough memory for the label image"), lines
    assert lines["voronoi"].startswith("MemoryError: "), lines
    # A fill's result is a bool per pixel (36 MB): it fits, or is refused by name.
    assert lines["fill"] == "ok" or lines["fill"].startswith("MemoryError: "), lines
    # 64 x 64 with every 2nd row and 3rd column set: 32 x 22 separate pixels.
    assert lines["after"] == str(32 * 22), lines


def test_voronoi_player_numbers_may_be_sparse_and_large():
    free = np.ones((5, 9), bool)
    dense = np.zeros((5, 9), np.int32)
    dense[0, 0], dense[4, 8], dense[2, 4] = 1, 2, 3
    ids = np.array([0, 7, 10**8, 40], np.int64)
    for moves in ["4", "8", "queen"]:
        want = gridbits.voronoi(free, dense, moves)
        # Player k of `dense` is player ids[k]: the same territory under the other numbers.
        got = gridbits.voronoi(free, ids[dense], moves)
        np.testing.assert_array_equal(got.owner, np.where(want.owner > 0, ids[want.owner], want.owner))
        assert got.counts.shape == (10**8 + 1,)
        assert got.counts[ids[1:]].tolist() == want.counts[1:].tolist()
        assert got.counts.sum() == want.counts.sum()
    with pytest.raises(ValueError, match="sources: player numbers must be below 2\\*\\*31"):
        gridbits.voronoi(free, np.where(dense > 0, 2**31, 0))
