"""A/B of builds of the native module on ``measure_label`` (``gridbits.measure.label``),
alternated call by call (the order reversed every other round), wall clock, medians of
``REPS`` calls (default 9), on the 2048x2048 images of ``bench.py``'s ``measure.label``
rows: the 0/1 image and its 3-value form (two classes at random on the set cells), each
checked equal to ``skimage.measure.label`` first, with skimage's time of one call.

    python label_native_ab.py BEFORE.so AFTER.so [MORE.so ...]

``CONNS`` (default ``8``; ``8,4`` for both connectivities) and ``ONLY`` (a substring of
the image names) narrow the rows. The ``.so`` files: ``python/gridbits/_gridbits.abi3.so``
copied after ``make develop`` on each commit, or ``target/release/lib_gridbits.so`` after
``cargo build --release -p gridbits-py --features pyo3/extension-module``.
"""

import os
import sys
import time

import numpy as np
from skimage import measure as skm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def main() -> None:
    mods = [bench.load_native(p) for p in sys.argv[1:]]
    reps = int(os.environ.get("REPS", 9))
    conns = [int(c) for c in os.environ.get("CONNS", "8").split(",")]
    only = os.environ.get("ONLY", "")
    for name, img in bench._measure_images(2048).items():
        if only not in name:
            continue
        rng = np.random.default_rng(5)
        three = (img * rng.integers(1, 3, img.shape)).astype(np.uint8)
        for kind, im in (("3v", three), ("01", img)):
            for conn in conns:
                sk_conn = 1 if conn == 4 else 2
                want = skm.label(im, connectivity=sk_conn)
                t0 = time.perf_counter()
                skm.label(im, connectivity=sk_conn)
                t_sk = time.perf_counter() - t0
                for m in mods:
                    got, _n = m.measure_label(im, 0, conn, "auto")
                    if not np.array_equal(got, want):
                        raise SystemExit(f"{name} {kind} {conn}-conn: differs from skimage")
                times = [[] for _ in mods]
                for r in range(reps):
                    order = range(len(mods)) if r % 2 == 0 else reversed(range(len(mods)))
                    for i in order:
                        t = time.perf_counter()
                        mods[i].measure_label(im, 0, conn, "auto")
                        times[i].append(time.perf_counter() - t)
                meds = [sorted(t)[len(t) // 2] * 1e3 for t in times]
                cells = " | ".join(f"{m:6.2f} ms {t_sk * 1e3 / m:5.1f}x" for m in meds)
                print(f"{name:10s} {kind} {conn}-conn skimage {t_sk * 1e3:6.1f} ms | {cells}", flush=True)


if __name__ == "__main__":
    main()
