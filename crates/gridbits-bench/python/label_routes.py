"""The routes of ``gridbits.measure.label`` (``ValueRoute``) interleaved on the 0/1 ``uint8``
bench images (``bench._measure_images``), in CPU time (``time.process_time``: the machine
may be loaded), each checked equal to ``skimage.measure.label`` first.

Usage (from the repository root, after ``make develop``)::

    .venv/bin/python crates/gridbits-bench/python/label_routes.py [ROUTES [IMAGE [ROUNDS [3v]]]]

ROUTES: comma-separated among auto, rows, pairs, binary (default all); IMAGE: a
substring of the image names (default all); ROUNDS: rounds of the interleaved routes
(default 3), each timing 5 calls; a route's time is its best call. ``3v``: the 3-value images
of bench.py's ``measure.label`` rows instead (two classes at random on the set cells).
"""

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
from gridbits import _gridbits  # noqa: E402
from skimage import measure as skm  # noqa: E402


def cpu(f, n: int) -> float:
    """The least CPU time of ``n`` calls of ``f``, in seconds."""
    times = []
    for _ in range(n):
        t = time.process_time()
        f()
        times.append(time.process_time() - t)
    return min(times)


def main() -> None:
    routes = sys.argv[1].split(",") if len(sys.argv) > 1 else ["auto", "rows", "pairs", "binary"]
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    three = len(sys.argv) > 4 and sys.argv[4] == "3v"
    for name, img in bench._measure_images(2048).items():
        if only not in name:
            continue
        if three:
            rng = np.random.default_rng(5)
            img = (img * rng.integers(1, 3, img.shape)).astype(np.uint8)
        for conn in (8, 4):
            sk_conn = 2 if conn == 8 else 1
            want = skm.label(img, connectivity=sk_conn)
            t_sk = cpu(lambda: skm.label(img, connectivity=sk_conn), 2)
            res = {r: [] for r in routes}
            for _ in range(rounds):
                for r in routes:
                    got, _n = _gridbits.measure_label(img, 0, conn, r)
                    if not np.array_equal(got, want):
                        raise SystemExit(f"{name} {conn}-conn {r}: differs from skimage")
                    res[r].append(cpu(lambda: _gridbits.measure_label(img, 0, conn, r), 5))
            line = f"{name:10s} {conn}-conn skimage {t_sk * 1e3:7.2f} ms"
            for r in routes:
                t = min(res[r])
                line += f" | {r} {t * 1e3:6.2f} ms {t_sk / t:5.1f}x"
            print(line, flush=True)


if __name__ == "__main__":
    main()
