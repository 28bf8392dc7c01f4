"""A/B of two builds of the native module on OpenCV's quick call (``cv_morph_into``, the
3x3 erode/dilate rows of ``bench.py --only cvmorph``), interleaved call by call with
``cv2.morphologyEx`` (one thread) and ``np.copyto`` (a byte-in byte-out pass, the floor),
medians of ``REPS`` calls (default 200), 2048x2048 0/255 images. Both results are checked
equal to cv2's first.

    python cv_native_ab.py BEFORE.so AFTER.so

(``BEFORE.so``, ``AFTER.so``: ``python/gridbits/_gridbits.abi3.so`` copied after
``make develop`` on each commit; the branch cross3 compared its byte engine this way.)
"""

import os
import sys
import time

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def main() -> None:
    a, b = bench.load_native(sys.argv[1]), bench.load_native(sys.argv[2])
    cv2.setNumThreads(1)
    size, reps = int(os.environ.get("SIZE", 2048)), int(os.environ.get("REPS", 200))
    imgs = bench._morph_images(size)
    kernels = {
        "rect": cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)),
        "ellipse": cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)),
    }
    ops = {"erode": (cv2.MORPH_ERODE, [(True, True)]), "dilate": (cv2.MORPH_DILATE, [(False, False)])}
    for name in ("noise 50%", "blobs", "photo", "page scan"):
        if name not in imgs:
            continue
        img = np.ascontiguousarray(imgs[name] * np.uint8(255))
        for kn, k in kernels.items():
            for on, (op, steps) in ops.items():
                ref = cv2.morphologyEx(img, op, k)
                oa, ob = np.empty_like(img), np.empty_like(img)
                for mod, o in ((a, oa), (b, ob)):
                    if mod.cv_morph_into(img, k, (1, 1), steps, o) != 255 or not np.array_equal(o, ref):
                        raise SystemExit(f"{name} {kn} {on}: differs from cv2")
                # One output buffer for the three byte-writing calls and the order rotated
                # every round: a call right after another that wrote the same buffer finds
                # it in the cache (with a buffer each and a fixed order, A ran about 10%
                # faster than B for the same build).
                fns = {
                    "A": lambda k=k, s=steps: a.cv_morph_into(img, k, (1, 1), s, oa),
                    "B": lambda k=k, s=steps: b.cv_morph_into(img, k, (1, 1), s, oa),
                    "cv2": lambda k=k, op=op: cv2.morphologyEx(img, op, k),
                    "copy": lambda: np.copyto(oa, img),
                }
                t = {key: [] for key in fns}
                keys = list(fns)
                for r in range(reps):
                    for key in keys[r % 4 :] + keys[: r % 4]:
                        f = fns[key]
                        s = time.perf_counter()
                        f()
                        t[key].append(time.perf_counter() - s)
                m = {key: float(np.median(v)) * 1e6 for key, v in t.items()}
                print(
                    f"{name:10s} {kn:8s} {on:7s} A {m['A']:6.1f} us  B {m['B']:6.1f} us  "
                    f"cv2 {m['cv2']:6.1f} us  copyto {m['copy']:6.1f} us  "
                    f"cv2/A {m['cv2'] / m['A']:.2f}  cv2/B {m['cv2'] / m['B']:.2f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
