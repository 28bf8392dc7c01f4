"""Benchmark gridbits against the Python libraries people use for the same jobs.

``python crates/gridbits-bench/python/bench.py [--quick] [--json] [--dask]`` (a script of the
gridbits-bench crate, not a module of the package) times, in one process and on the same
``uint8`` arrays, ``gridbits.label`` (packing and raster renumbering included) against
``scipy.ndimage.label``, ``cv2.connectedComponents`` with one thread and with its default
threads, ``cc3d`` and ``skimage.measure.label`` (each only when installed), checking that
the component counts agree; ``gridbits.label_stats`` against
``cv2.connectedComponentsWithStats``; the drop-in ``gridbits.ndimage.label`` against
``scipy.ndimage.label`` with scipy's defaults; the skeletons ``skeletonize`` and ``thin``
against ``skimage.morphology``'s (checking that the pixels agree; a scikit-image call that
takes over a second is timed once, not interleaved); ``puyo.simulate_many`` per field; the
distance transforms of ``gridbits.ndimage`` against
``scipy.ndimage.distance_transform_cdt`` (both metrics) and ``distance_transform_edt``, and
``gridbits.opencv.distanceTransform`` against ``cv2.distanceTransform`` with one thread
(``DIST_L1``, ``DIST_C``, ``DIST_L2`` precise), on noise, blobs and a thresholded photograph,
checking that the results agree (``--only dt`` runs only these); ``gridbits.measure`` (``label``
of a value image, ``regionprops_table`` with the basic and the full property sets) against
``skimage.measure``, checking that the tables agree; the RL environments ``gridbits.envs``
(steps with random legal actions picked with numpy from the masks, N = 1, 256, 4096) against
numpy hard-drop Tetris and Puyo batches and Tetris-Gymnasium when installed (``--only envs``;
``--only envs-threads``: the Tetris step on one thread and on the default pool, with the cores
busy); and with ``--dask``
``gridbits.dask.label`` against ``dask_image.ndmeasure.label`` on the same chunks on a
local cluster of 2 worker processes. Prints a table (or JSON) of the time of each (the
best median of three rounds that take the libraries in turn) and its ratio to gridbits.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

import gridbits
from gridbits import puyo


def _each_alone(fns: dict, repeat: int, rounds: int = 3) -> dict:
    """``name -> wall time`` of each function, timed as if it ran alone, in ``rounds``
    rounds that take the functions in turn (forwards, then backwards, ...), so that a
    machine whose speed drifts over seconds (a shared virtual machine) slows every library
    alike. In each round, each function gets a pause first (OpenCV's pool threads, and
    OpenBLAS's, spin for a while after a call and would take a core from whatever runs
    next), then is warmed up and timed by ``_median_time``; its time is the best of its
    rounds' medians."""
    out = {}
    names = list(fns)
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            setup = getattr(fns[name], "setup", None)
            if setup is not None:
                setup()
            time.sleep(0.1)
            t = _median_time(fns[name], repeat)
            out[name] = min(out.get(name, t), t)
    return out


def _cv_threads(cv2) -> int:
    """OpenCV's default thread count, read once: timings set it to 1 and back."""
    if not hasattr(_cv_threads, "default"):
        _cv_threads.default = cv2.getNumThreads()
    return _cv_threads.default


def _with_setup(fn, setup):
    """``fn`` with ``fn.setup``: what ``_each_alone`` calls, untimed, before timing it (the
    thread count of OpenCV, which is not set inside the timed calls)."""

    def call(*args):
        return fn(*args)

    call.setup = setup
    return call


def load_native(path: str):
    """A build of the native module loaded from ``path`` (a ``.so`` file), beside the one
    the package imports: the A/B scripts (``cv_native_ab.py``, ``label_native_ab.py``)
    compare two builds in one process this way."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("gridbits._gridbits", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _timed(fn):
    """``(seconds, result)`` of one call of ``fn``."""
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


#: Seconds of untimed calls before timing. A virtual CPU that has idled (the pause above,
#: or a pool thread's core while one thread worked) runs slower for some milliseconds once
#: work resumes: on the 2-vCPU machine of docs/python.md, gridbits' 2.5 ms labelling timed
#: right after a 0.1 s pause took 3-5.7 ms, and 2.5 ms after 0.1 s of calls. The warm-up
#: gives every library the same steady state, whatever the length of one of its calls.
WARM_UP = 0.1
#: Seconds of timed calls at least, per round: a fast function is called more than
#: ``repeat`` times, so that its median does not rest on a few milliseconds of the machine.
MIN_TIMED = 0.05


def _median_time(fn, repeat: int, warm_up: float = WARM_UP) -> float:
    """Median wall time of ``fn()`` in seconds: calls for ``warm_up`` seconds (one at
    least) untimed, then ``repeat`` timed calls, or more while they take under
    ``MIN_TIMED`` seconds in all."""
    start = time.perf_counter()
    fn()
    while time.perf_counter() - start < warm_up:
        fn()
    times, total = [], 0.0
    while len(times) < repeat or total < MIN_TIMED:
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
        total += times[-1]
    times.sort()
    return times[len(times) // 2]


def images(size: int) -> dict:
    """The workloads: noise at 30/50/70% and a blobby image, as ``uint8`` 0/1 arrays."""
    rng = np.random.default_rng(2048)
    out = {f"noise {p}%": (rng.random((size, size)) < p / 100).astype(np.uint8) for p in (30, 50, 70)}
    # Blobs: smoothed noise, thresholded (a box filter by cumulative sums, no scipy needed).
    base = rng.random((size, size))
    k = 9
    c = np.cumsum(np.cumsum(np.pad(base, ((k, 0), (k, 0))), 0), 1)
    box = c[k:, k:] - c[:-k, k:] - c[k:, :-k] + c[:-k, :-k]
    out["blobs"] = (box > np.median(box) * 1.02).astype(np.uint8)
    return out


def _peers(conn: int):
    """``name -> function(img) -> count`` for every installed peer."""
    peers = {}
    try:
        from scipy import ndimage

        structure = np.ones((3, 3)) if conn == 8 else None
        peers["scipy.ndimage.label"] = lambda img: ndimage.label(img, structure=structure)[1]
    except ImportError:
        pass
    try:
        import cv2

        threads = _cv_threads(cv2)

        def cv_label(img):
            return cv2.connectedComponents(img, connectivity=conn)[0] - 1

        peers["cv2 1 thread"] = _with_setup(cv_label, lambda: cv2.setNumThreads(1))
        peers[f"cv2 {threads} threads"] = _with_setup(cv_label, lambda: cv2.setNumThreads(threads))
    except ImportError:
        pass
    try:
        import cc3d

        peers["cc3d"] = lambda img: cc3d.connected_components(img, connectivity=conn, return_N=True)[1]
    except ImportError:
        pass
    try:
        from skimage.measure import label as sk_label

        peers["skimage"] = lambda img: sk_label(img, connectivity=1 if conn == 4 else 2, return_num=True)[1]
    except ImportError:
        pass
    return peers


def _compared(workload: str, ours, peers: dict, img, want: int, repeat: int) -> list:
    """Rows of ``ours`` and each peer (``peer(img) -> count``) timed alone on ``img``, after
    checking that every peer counts ``want`` components."""
    fns = {"gridbits": ours}
    for peer, fn in peers.items():
        n = fn(img)
        if n != want:
            raise SystemExit(f"{workload}: {peer} counts {n}, gridbits {want}")
        fns[peer] = _with_setup(lambda fn=fn: fn(img), getattr(fn, "setup", None))
    return [
        {"workload": workload, "impl": impl, "seconds": t}
        for impl, t in _each_alone(fns, repeat).items()
    ]


def _stats_peers(conn: int):
    peers = {}
    try:
        import cv2

        threads = _cv_threads(cv2)

        def cv_stats(img):
            return cv2.connectedComponentsWithStats(img, connectivity=conn)[0] - 1

        peers["cv2 with stats 1 thread"] = _with_setup(cv_stats, lambda: cv2.setNumThreads(1))
    except ImportError:
        pass
    return peers


def run(quick: bool, use_dask: bool, only: str = "") -> list:
    size = 1024 if quick else 2048
    repeat = 3 if quick else 7
    if only == "morph":
        return _morph_rows(size, 3)
    if only == "morph-cv2":
        return _morph_rows(size, 10, cv2_only=True) + _cvmorph_rows(size, 10)
    if only == "cvmorph":
        return _cvmorph_rows(size, 10)
    if only == "dt":
        return _distance_transform_rows(size, repeat)
    if only == "measure":
        return _measure_rows(quick)
    if only == "envs":
        return _env_rows(quick)
    if only == "envs-cpu":
        return _env_cpu_rows(quick)
    if only == "envs-threads":
        return _env_thread_rows(quick)
    rows = []
    for conn in (8, 4):
        for name, img in images(size).items():
            want = gridbits.label(img, conn)[1]
            for kind, ours, peers in (
                ("label", lambda: gridbits.label(img, conn), _peers(conn)),
                ("label_stats", lambda: gridbits.label_stats(img, conn), _stats_peers(conn)),
            ):
                workload = f"{kind} {name} {size}x{size} {conn}-conn"
                rows.extend(_compared(workload, ours, peers, img, want, repeat))
    for name, img in images(size).items():
        rows.extend(_ndimage_rows(f"ndimage.label {name} {size}x{size}", img, repeat))
    rows.extend(_skeleton_rows(size, repeat))
    rows.extend(_morph_rows(size, 3))
    rows.extend(_measure_rows(quick))
    rows.extend(_puyo_rows(quick, repeat))
    rows.extend(_distance_transform_rows(size, repeat))
    rows.extend(_env_rows(quick))
    if use_dask:
        rows.extend(_dask_rows(quick))
    return rows


def _ndimage_rows(workload: str, img, repeat: int) -> list:
    """The drop-in: ``gridbits.ndimage.label(img)`` against ``scipy.ndimage.label(img)``,
    both with scipy's defaults (4-connected, ``int32`` labels returned), argument checks
    included; no rows without scipy."""
    try:
        from scipy import ndimage
    except ImportError:
        return []
    from gridbits import ndimage as ours

    want = ours.label(img)[1]
    return _compared(
        workload,
        lambda: ours.label(img),
        {"scipy.ndimage.label": lambda a: ndimage.label(a)[1]},
        img,
        want,
        repeat,
    )


def _discs(size: int) -> np.ndarray:
    """Random discs of radius 6 to 63 covering about half the image (the Rust bench's
    blobby image): thick shapes, up to about 60 thinning iterations."""
    rng = np.random.default_rng(7000)
    img = np.zeros((size, size), np.uint8)
    for _ in range(size * size // 7000):
        cy, cx, r = rng.integers(0, size), rng.integers(0, size), rng.integers(6, 64)
        y0, y1, x0, x1 = max(cy - r, 0), min(cy + r + 1, size), max(cx - r, 0), min(cx + r + 1, size)
        yy, xx = np.ogrid[y0:y1, x0:x1]
        img[y0:y1, x0:x1] |= ((yy - cy) ** 2 + (xx - cx) ** 2 <= r * r).astype(np.uint8)
    return img


def _skeleton_rows(size: int, repeat: int) -> list:
    """``skeletonize`` and ``thin`` against ``skimage.morphology``'s on noise, blobs, discs
    and a thresholded photograph (scikit-image's camera, tiled to the size, Otsu's
    threshold), after checking that the skeletons are equal; no rows without scikit-image.
    scikit-image's thin takes up to a minute on 2048x2048: its calls that take over a
    second are timed once."""
    try:
        from skimage import data, filters
        from skimage import morphology as skm
    except ImportError:
        return []
    from gridbits import morphology as ours

    imgs = dict(images(size))
    imgs["discs"] = _discs(size)
    cam = data.camera()
    reps = -(-size // cam.shape[0])
    cam = np.tile(cam, (reps, reps))[:size, :size]
    imgs["camera Otsu"] = (cam > filters.threshold_otsu(cam)).astype(np.uint8)
    rows = []
    for name, img in imgs.items():
        for op, fast, peer in (
            ("skeletonize", ours.skeletonize, skm.skeletonize),
            ("thin", ours.thin, skm.thin),
        ):
            workload = f"{op} {name} {size}x{size}"
            t_peer, want = _timed(lambda: peer(img))
            if not np.array_equal(fast(img), want):
                raise SystemExit(f"{workload}: gridbits and scikit-image differ")
            if t_peer < 1.0:
                t_peer = _median_time(lambda: peer(img), repeat)
            t_fast = _median_time(lambda: fast(img), repeat)
            rows.append({"workload": workload, "impl": "gridbits", "seconds": t_fast})
            rows.append({"workload": workload, "impl": f"skimage.morphology.{op}", "seconds": t_peer})
    return rows


def _photo(size: int):
    """scikit-image's camera photograph scaled to ``size`` and thresholded at its mean
    (``None`` without scikit-image)."""
    try:
        from skimage import data
    except ImportError:
        return None
    cam = data.camera()
    reps = -(-size // cam.shape[0])
    big = np.repeat(np.repeat(cam, reps, 0), reps, 1)[:size, :size]
    return (big > big.mean()).astype(np.uint8)


def _page(size: int):
    """scikit-image's scanned page (``data.page``) tiled to ``size`` and thresholded at its
    mean: paper set, text and shadows not (``None`` without scikit-image)."""
    try:
        from skimage import data
    except ImportError:
        return None
    page = data.page()
    reps = (-(-size // page.shape[0]), -(-size // page.shape[1]))
    big = np.tile(page, reps)[:size, :size]
    return (big > big.mean()).astype(np.uint8)


def _distance_transform_rows(size: int, repeat: int) -> list:
    """The drop-ins of the distance transforms against scipy and OpenCV (one thread), on
    every image of ``images``, the thresholded photograph and a thresholded page scan, after
    checking the results."""
    try:
        import cv2
        from scipy import ndimage
    except ImportError:
        return []
    from gridbits import ndimage as gnd
    from gridbits import opencv as gcv

    imgs = dict(images(size))
    photo = _photo(size)
    if photo is not None:
        imgs["photo"] = photo
    page = _page(size)
    if page is not None:
        imgs["page scan"] = page
    threads = _cv_threads(cv2)
    one = lambda: cv2.setNumThreads(1)  # noqa: E731
    rows = []
    for name, img in imgs.items():
        cases = [
            ("cdt chessboard", lambda: gnd.distance_transform_cdt(img), lambda: ndimage.distance_transform_cdt(img), "scipy", None),
            ("cdt taxicab", lambda: gnd.distance_transform_cdt(img, "taxicab"), lambda: ndimage.distance_transform_cdt(img, "taxicab"), "scipy", None),
            ("edt", lambda: gnd.distance_transform_edt(img), lambda: ndimage.distance_transform_edt(img), "scipy", None),
            ("distanceTransform L1", lambda: gcv.distanceTransform(img, gcv.DIST_L1, 3), lambda: cv2.distanceTransform(img, cv2.DIST_L1, 3), "cv2 1 thread", one),
            ("distanceTransform C", lambda: gcv.distanceTransform(img, gcv.DIST_C, 3), lambda: cv2.distanceTransform(img, cv2.DIST_C, 3), "cv2 1 thread", one),
            ("distanceTransform L2 precise", lambda: gcv.distanceTransform(img, gcv.DIST_L2, 0), lambda: cv2.distanceTransform(img, cv2.DIST_L2, 0), "cv2 1 thread", one),
        ]
        for kind, ours, theirs, peer, setup in cases:
            workload = f"{kind} {name} {size}x{size}"
            if setup:
                setup()
            a, b = ours(), theirs()
            if kind.endswith("precise"):
                # OpenCV's IPP rounds some square roots one unit in the last place apart.
                np.testing.assert_array_max_ulp(a, b, maxulp=4)
            elif not (a.dtype == b.dtype and np.array_equal(a, b)):
                raise SystemExit(f"{workload}: gridbits and {peer} differ")
            fns = {"gridbits": ours, peer: _with_setup(theirs, setup) if setup else theirs}
            rows.extend(
                {"workload": workload, "impl": impl, "seconds": t}
                for impl, t in _each_alone(fns, repeat).items()
            )
    cv2.setNumThreads(threads)
    return rows


def _morph_images(size: int) -> dict:
    """``images(size)``, a thresholded photograph (scikit-image's camera, Otsu) and a page
    scan (scikit-image's page, dark text set, Otsu), each tiled to ``size``."""
    out = images(size)
    try:
        from skimage import data, filters
    except ImportError:
        return out
    for name, photo, dark in (("photo", data.camera(), False), ("page scan", data.page(), True)):
        reps = (-(-size // photo.shape[0]), -(-size // photo.shape[1]))
        tiled = np.tile(photo, reps)[:size, :size]
        t = filters.threshold_otsu(tiled)
        out[name] = ((tiled <= t) if dark else (tiled > t)).astype(np.uint8)
    return out


def _morph_rows(size: int, repeat: int, cv2_only: bool = False) -> list:
    """Binary erosion, dilation, opening and closing by 3x3 and 15x15 squares and disks of
    radius 1 and 7 on noise, blobs, a thresholded photograph and a page scan:
    ``gridbits.morphology`` (scikit-image's conventions, the borders OpenCV's defaults give
    too) against scikit-image, scipy.ndimage (the same work; its default border differs at
    the edges) and OpenCV's ``morphologyEx`` on one thread. Every peer's result is checked
    against gridbits' first (scipy's 16 pixels away from the edges). ``cv2_only``: OpenCV
    alone (``--only morph-cv2``: a run short enough to time more calls per row)."""
    import warnings

    from gridbits import morphology as gm

    rows = []
    peers = {}
    try:
        if cv2_only:
            raise ImportError("OpenCV alone")
        from scipy import ndimage

        peers["scipy.ndimage"] = {
            "erosion": lambda a, fp: ndimage.binary_erosion(a, fp),
            "dilation": lambda a, fp: ndimage.binary_dilation(a, fp),
            "opening": lambda a, fp: ndimage.binary_opening(a, fp),
            "closing": lambda a, fp: ndimage.binary_closing(a, fp),
        }
    except ImportError:
        pass
    try:
        if cv2_only:
            raise ImportError("OpenCV alone")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import skimage.morphology as sm

        def quiet(f):
            def call(a, fp):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    return f(a, fp)

            return call

        peers["skimage"] = {
            "erosion": quiet(sm.binary_erosion),
            "dilation": quiet(sm.binary_dilation),
            "opening": quiet(sm.binary_opening),
            "closing": quiet(sm.binary_closing),
        }
    except ImportError:
        pass
    try:
        import cv2

        _cv_threads(cv2)
        cv = {
            "erosion": lambda a, fp: cv2.morphologyEx(a, cv2.MORPH_ERODE, fp),
            "dilation": lambda a, fp: cv2.morphologyEx(a, cv2.MORPH_DILATE, fp),
            "opening": lambda a, fp: cv2.morphologyEx(a, cv2.MORPH_OPEN, fp),
            "closing": lambda a, fp: cv2.morphologyEx(a, cv2.MORPH_CLOSE, fp),
        }
        peers["cv2 1 thread"] = {
            op: _with_setup(f, lambda: cv2.setNumThreads(1)) for op, f in cv.items()
        }
    except ImportError:
        pass
    ours = {
        "erosion": gm.binary_erosion,
        "dilation": gm.binary_dilation,
        "opening": gm.binary_opening,
        "closing": gm.binary_closing,
    }
    footprints = {
        "square 3x3": gm.footprint_rectangle((3, 3)),
        "square 15x15": gm.footprint_rectangle((15, 15)),
        "disk r1": gm.disk(1),
        "disk r7": gm.disk(7),
    }
    for name, img in _morph_images(size).items():
        for fp_name, fp in footprints.items():
            for op, fn in ours.items():
                workload = f"morph {op} {name} {fp_name} {size}x{size}"
                want = fn(img, fp)
                inner = (slice(16, -16), slice(16, -16))
                fns = {"gridbits": lambda fn=fn, fp=fp: fn(img, fp)}
                for peer, ops in peers.items():
                    got = np.asarray(ops[op](img, fp)) != 0
                    same = got[inner] if peer == "scipy.ndimage" else got
                    if not np.array_equal(same, want[inner] if peer == "scipy.ndimage" else want):
                        raise SystemExit(f"{workload}: {peer} differs from gridbits")
                    f = ops[op]
                    fns[peer] = _with_setup(lambda f=f, fp=fp: f(img, fp), getattr(f, "setup", None))
                rows.extend(
                    {"workload": workload, "impl": impl, "seconds": t}
                    for impl, t in _each_alone(fns, repeat).items()
                )
    return rows




def _cvmorph_rows(size: int, repeat: int) -> list:
    """``gridbits.opencv.morphologyEx`` (OpenCV's signature and values) against
    ``cv2.morphologyEx`` on one thread, on 0/255 ``uint8`` images: erosion, dilation,
    opening, closing and gradient by 3x3 and 15x15 rectangles and ellipses; the results
    checked equal first."""
    try:
        import cv2
    except ImportError:
        return []
    from gridbits import opencv as go

    _cv_threads(cv2)
    ops = {
        "erode": cv2.MORPH_ERODE,
        "dilate": cv2.MORPH_DILATE,
        "open": cv2.MORPH_OPEN,
        "close": cv2.MORPH_CLOSE,
        "gradient": cv2.MORPH_GRADIENT,
    }
    kernels = {
        f"{name} {n}x{n}": cv2.getStructuringElement(shape, (n, n))
        for name, shape in (("rect", cv2.MORPH_RECT), ("ellipse", cv2.MORPH_ELLIPSE))
        for n in (3, 15)
    }
    rows = []
    imgs = _morph_images(size)
    for name in ("noise 50%", "blobs", "page scan"):
        if name not in imgs:
            continue
        img = imgs[name] * np.uint8(255)
        for k_name, k in kernels.items():
            for op_name, op in ops.items():
                workload = f"cv morphologyEx {op_name} {name} {k_name} 0/255 {size}x{size}"
                if not np.array_equal(go.morphologyEx(img, op, k), cv2.morphologyEx(img, op, k)):
                    raise SystemExit(f"{workload}: cv2 differs from gridbits")
                fns = {
                    "gridbits.opencv": lambda op=op, k=k: go.morphologyEx(img, op, k),
                    "cv2 1 thread": _with_setup(
                        lambda op=op, k=k: cv2.morphologyEx(img, op, k),
                        lambda: cv2.setNumThreads(1),
                    ),
                }
                rows.extend(
                    {"workload": workload, "impl": impl, "seconds": t}
                    for impl, t in _each_alone(fns, repeat).items()
                )
    cv2.setNumThreads(_cv_threads(cv2))
    return rows


#: ``regionprops_table`` properties: the basic set, and every property gridbits computes but
#: ``coords`` (an object column, not a statistic).
BASIC = ("label", "area", "bbox", "centroid")
FULL = (
    "label", "area", "bbox", "centroid", "area_bbox", "extent", "area_filled", "euler_number",
    "perimeter", "moments_central", "inertia_tensor", "inertia_tensor_eigvals", "orientation",
    "axis_major_length", "axis_minor_length", "eccentricity", "equivalent_diameter_area",
    "intensity_mean", "intensity_min", "intensity_max",
)


def _measure_images(size: int) -> dict:
    """``images(size)``, a thresholded photograph (skimage's camera, tiled to ``size``) and a
    page scan (skimage's page, its dark pixels below Otsu's threshold, tiled)."""
    out = images(size)
    try:
        from skimage import data
        from skimage.filters import threshold_otsu

        def tiled(a):
            reps = (-(-size // a.shape[0]), -(-size // a.shape[1]))
            return np.tile(a, reps)[:size, :size]

        out["photo"] = (tiled(data.camera()) > 100).astype(np.uint8)
        page = data.page()
        out["page"] = tiled(page < threshold_otsu(page)).astype(np.uint8)
    except Exception:  # no skimage, or no data file
        pass
    return out


def _measure_rows(quick: bool) -> list:
    """``gridbits.measure`` against ``skimage.measure``: ``label`` of a 3-class value image
    made from each workload and of the 0/1 image itself (one class), and ``regionprops_table`` of its 8-connected labels with the
    basic and the full property set (the full set on noise at a quarter of the side: skimage
    takes minutes per call there). skimage is timed once per round (its calls take seconds),
    gridbits as the other rows; the tables are checked equal first."""
    try:
        from skimage import measure as skm
    except ImportError:
        return []
    from gridbits import measure as gm

    size = 512 if quick else 2048
    rows = []
    for name, img in _measure_images(size).items():
        rng = np.random.default_rng(5)
        classes = (img * rng.integers(1, 3, img.shape)).astype(np.uint8)
        want = skm.label(classes)
        if not np.array_equal(gm.label(classes), want):
            raise SystemExit(f"measure.label {name}: gridbits differs from skimage")
        rows.extend(_measure_timed(f"measure.label {name} {size}x{size}", lambda: gm.label(classes), lambda: skm.label(classes)))
        # The 0/1 image itself (one class), as a thresholded image is labelled.
        if not np.array_equal(gm.label(img), skm.label(img)):
            raise SystemExit(f"measure.label binary {name}: gridbits differs from skimage")
        rows.extend(_measure_timed(f"measure.label binary {name} {size}x{size}", lambda: gm.label(img), lambda: skm.label(img)))
        labels = skm.label(img)
        intensity = rng.integers(0, 256, img.shape).astype(np.uint8)
        for set_name, props in (("basic", BASIC), ("full", FULL)):
            lab, inten, side = labels, intensity, size
            if set_name == "full" and name.startswith("noise"):
                side = size // 4
                lab, inten = skm.label(img[:side, :side]), intensity[:side, :side]
            ours = lambda lab=lab, inten=inten, props=props: gm.regionprops_table(lab, inten, properties=props)
            theirs = lambda lab=lab, inten=inten, props=props: skm.regionprops_table(lab, inten, properties=props)
            t_theirs, want = _timed(theirs)
            got = ours()
            for k in want:
                g, w = got[k], want[k]
                if k == "orientation":  # +-pi/2 by the sign of skimage's rounding in mu11
                    g, w = np.where(np.isclose(np.abs(g), np.pi / 2), np.abs(g), g), np.where(np.isclose(np.abs(w), np.pi / 2), np.abs(w), w)
                if k.startswith("moments_central"):
                    # skimage's sums round relative to their terms: area * rows^p * cols^q.
                    p, q = (int(i) for i in k.split("-")[1:])
                    rows_, cols_ = want["bbox-2"] - want["bbox-0"], want["bbox-3"] - want["bbox-1"]
                    ok = bool(np.all(np.abs(g - w) <= 1e-9 * np.maximum(1.0, want["area"] * rows_**p * cols_**q)))
                else:
                    ok = np.allclose(g, w, rtol=1e-6, atol=1e-6, equal_nan=True)
                if not ok:
                    raise SystemExit(f"regionprops_table {name} {k}: gridbits differs from skimage")
            workload = f"regionprops {set_name} {name} {side}x{side} ({len(want['label'])} regions)"
            rows.extend(_measure_timed(workload, ours, theirs, first=t_theirs))
    return rows


def _measure_timed(workload: str, ours, theirs, first: float = None) -> list:
    """Rows of gridbits (median of repeated calls) and skimage (the best of two single calls,
    or of one and ``first`` when given)."""
    t_ours = _median_time(ours, 5)
    t_theirs = min(_timed(theirs)[0], first if first is not None else _timed(theirs)[0])
    return [
        {"workload": workload, "impl": "gridbits", "seconds": t_ours},
        {"workload": workload, "impl": "skimage", "seconds": t_theirs},
    ]


def _puyo_rows(quick: bool, repeat: int) -> list:
    rng = np.random.default_rng(19)
    n = 2000 if quick else 20000
    fields = rng.integers(0, 6, size=(n, 13, 6)).astype(np.uint8)
    fields[:, :5] = 0
    from . import _gridbits

    # Each returns its time in seconds: the Rust loops time themselves, in Rust.
    times = {
        "gridbits": lambda: _timed(lambda: puyo.simulate_many(fields))[0],
        "loop": lambda: _gridbits._puyo_rust_loop_seconds(fields, "tsu"),
        "batch": lambda: _gridbits._puyo_rust_batch_seconds(fields, "tsu"),
    }
    best = {}
    for r in range(3):
        for name in times if r % 2 == 0 else list(times)[::-1]:
            got = sorted(times[name]() for _ in range(repeat))
            best[name] = min(best.get(name, got[len(got) // 2]), got[len(got) // 2])
    t, loop, batch = best["gridbits"], best["loop"], best["batch"]
    workload = f"puyo.simulate_many {n} random fields (per field)"
    return [
        {"workload": workload, "impl": "gridbits", "seconds": t / n},
        {"workload": workload, "impl": "Rust loop, 1 thread", "seconds": loop / n},
        {"workload": workload, "impl": "Rust simulate_many", "seconds": batch / n},
    ]


# -- RL environments ------------------------------------------------------------------

#: Cells of the 7 pieces (I, O, T, S, Z, J, L) in their 4 rotations, ``(row, col)`` from
#: the top-left of the piece's bounding box: the tables of the numpy environment below.
_NP_SHAPES = {
    "I": ["####"],
    "O": ["##", "##"],
    "T": [".#.", "###"],
    "S": [".##", "##."],
    "Z": ["##.", ".##"],
    "J": ["#..", "###"],
    "L": ["..#", "###"],
}


def _np_piece_tables():
    """``cells`` (7, 4 rotations, 4 cells, 2), ``width`` (7, 4): clockwise rotations."""
    cells = np.zeros((7, 4, 4, 2), dtype=np.int64)
    width = np.zeros((7, 4), dtype=np.int64)
    for p, rows in enumerate(_NP_SHAPES.values()):
        grid = np.array([[c == "#" for c in r] for r in rows])
        for r in range(4):
            cells[p, r] = np.argwhere(grid)
            width[p, r] = grid.shape[1]
            grid = np.rot90(grid, -1)
    return cells, width


class NumpyTetris:
    """``n`` hard-drop Tetris games on ``(n, 20, 10)`` bool boards, as a careful numpy user
    writes them: action ``rotation * 10 + column`` (40), a vectorised drop height from the
    column tops, line clears by a stable sort of the rows, reset of the games that top
    out, uniform random pieces. The mask rules out pieces sticking out of the walls."""

    H, W = 20, 10

    def __init__(self, n: int, seed: int = 0):
        self.n = n
        self.rng = np.random.default_rng(seed)
        self.cells, width = _np_piece_tables()
        self.legal = np.arange(self.W)[None, None, :] + width[:, :, None] <= self.W  # (7,4,10)
        self.boards = np.zeros((n, self.H, self.W), dtype=bool)
        self.piece = self.rng.integers(0, 7, n)
        self.rows = np.arange(n)[:, None]

    def masks(self) -> np.ndarray:
        return self.legal[self.piece].reshape(self.n, 40)

    def step(self, actions: np.ndarray):
        rot, col = np.divmod(actions, self.W)
        cells = self.cells[self.piece, rot]  # (n, 4, 2)
        cc = cells[:, :, 1] + col[:, None]  # columns of the cells
        filled = self.boards.any(axis=1)
        tops = np.where(filled, self.boards.argmax(axis=1), self.H)  # (n, 10) first filled row
        y = (np.take_along_axis(tops, cc, axis=1) - 1 - cells[:, :, 0]).min(axis=1)
        over = y < 0
        rr = np.maximum(y, 0)[:, None] + cells[:, :, 0]
        self.boards[self.rows, rr, cc] = True
        full = self.boards.all(axis=2)
        lines = full.sum(axis=1)
        if lines.any():
            order = np.argsort(~full, axis=1, kind="stable")  # full rows first, order kept
            self.boards = np.take_along_axis(self.boards, order[:, :, None], axis=1)
            self.boards[np.arange(self.H)[None, :] < lines[:, None]] = False
        self.boards[over] = False
        self.piece = self.rng.integers(0, 7, self.n)
        return self.boards, lines.astype(np.float32), over


class NumpyPuyo:
    """``n`` Puyo games on ``(n, 13, 6)`` uint8 fields (0 empty, 1-4 colours), as a careful
    numpy user writes them: 22 pair placements (child above, below, right, left), drops
    from the column heights, chains by propagating the largest cell id between
    same-coloured neighbours until stable, ``bincount`` group sizes, pops of 4 and more,
    gravity by a stable sort of each column; game over when the third column's 12th row is
    filled. Simplified rules next to gridbits': no ojama, reward the chain length."""

    def __init__(self, n: int, seed: int = 0):
        self.n = n
        self.rng = np.random.default_rng(seed)
        self.fields = np.zeros((n, 13, 6), dtype=np.uint8)
        self.pair = self.rng.integers(1, 5, (n, 2)).astype(np.uint8)
        axis, child, dx = [], [], []
        for c in range(6):
            axis.append(c), child.append(c), dx.append(1)  # child above
        for c in range(6):
            axis.append(c), child.append(c), dx.append(-1)  # child below
        for c in range(5):
            axis.append(c), child.append(c + 1), dx.append(0)
        for c in range(5):
            axis.append(c + 1), child.append(c), dx.append(0)
        self.axis_col, self.child_col, self.kind = np.array(axis), np.array(child), np.array(dx)
        self.ids = np.arange(1, 13 * 6 + 1, dtype=np.int64)[None].repeat(n, 0).reshape(n, 13, 6)
        self.ids += (np.arange(n) * 78)[:, None, None]
        self.env = np.arange(n)

    def masks(self) -> np.ndarray:
        h = (self.fields != 0).sum(axis=1)  # (n, 6): columns stay packed at the bottom
        ha, hc = h[:, self.axis_col], h[:, self.child_col]
        vertical = self.kind != 0
        return np.where(vertical[None], ha <= 11, (ha <= 12) & (hc <= 12))

    def step(self, actions: np.ndarray):
        f, e = self.fields, self.env
        h = (f != 0).sum(axis=1)
        ac, cc, kind = self.axis_col[actions], self.child_col[actions], self.kind[actions]
        ha = h[e, ac]
        lower = np.where(kind == -1, self.pair[:, 1], self.pair[:, 0])
        upper = np.where(kind == -1, self.pair[:, 0], self.pair[:, 1])
        vertical = kind != 0
        f[e, 12 - ha, ac] = np.where(vertical, lower, self.pair[:, 0])
        hc = np.where(vertical, ha + 1, h[e, cc])
        f[e, 12 - hc, cc] = np.where(vertical, upper, self.pair[:, 1])
        chains = np.zeros(self.n, dtype=np.int64)
        while True:
            colored = f != 0
            lab = np.where(colored, self.ids, 0)
            while True:  # the largest id of each same-coloured group
                new = lab.copy()
                for a, b in (
                    (np.s_[:, 1:, :], np.s_[:, :-1, :]),
                    (np.s_[:, :-1, :], np.s_[:, 1:, :]),
                    (np.s_[:, :, 1:], np.s_[:, :, :-1]),
                    (np.s_[:, :, :-1], np.s_[:, :, 1:]),
                ):
                    same = colored[a] & (f[a] == f[b])
                    new[a] = np.where(same, np.maximum(new[a], lab[b]), new[a])
                if np.array_equal(new, lab):
                    break
                lab = new
            sizes = np.bincount(lab.ravel(), minlength=self.n * 78 + 1)
            pop = colored & (sizes[lab] >= 4)
            popped = pop.any(axis=(1, 2))
            if not popped.any():
                break
            chains += popped
            f[pop] = 0
            order = np.argsort(f != 0, axis=1, kind="stable")  # empties up, order kept
            f[:] = np.take_along_axis(f, order, axis=1)
        over = f[:, 1, 2] != 0
        f[over] = 0
        self.pair = self.rng.integers(1, 5, (self.n, 2)).astype(np.uint8)
        return f, chains.astype(np.float32), over


def _random_legal(rng, masks: np.ndarray) -> np.ndarray:
    """One random legal action per row of ``masks`` (numpy: a random key per action,
    the largest legal one)."""
    return (rng.random(masks.shape, dtype=np.float32) * masks).argmax(axis=1)


def _env_steps(step, masks, n: int, seconds: float, rng) -> tuple:
    """``(seconds per env-step of the step calls alone, of step + numpy action choice)``
    over ``seconds`` of stepping."""
    in_step = total = 0.0
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or steps < 3:
        t0 = time.perf_counter()
        a = _random_legal(rng, masks())
        t1 = time.perf_counter()
        step(a)
        t2 = time.perf_counter()
        in_step += t2 - t1
        total += t2 - t0
        steps += 1
    return in_step / (steps * n), total / (steps * n)


def _tetris_gymnasium_rows(seconds: float) -> list:
    """Tetris-Gymnasium's single env (keypress actions, and its grouped placement
    wrapper), per step, when installed."""
    try:
        import gymnasium
        import tetris_gymnasium  # noqa: F401
        from tetris_gymnasium.envs import Tetris
        from tetris_gymnasium.wrappers.grouped import GroupedActionsObservations
    except ImportError:
        return []
    rows = []
    rng = np.random.default_rng(0)
    for name, env in (
        ("Tetris-Gymnasium keypress", gymnasium.make("tetris_gymnasium/Tetris")),
        (
            "Tetris-Gymnasium grouped",
            GroupedActionsObservations(gymnasium.make("tetris_gymnasium/Tetris"), terminate_on_illegal_action=False),
        ),
    ):
        env.reset(seed=0)
        mask = np.ones(env.action_space.n)
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds or steps < 3:
            a = int(_random_legal(rng, mask[None])[0])
            _, _, term, trunc, info = env.step(a)
            mask = np.asarray(info.get("action_mask", mask))
            if term or trunc:
                env.reset()
                mask = np.ones(env.action_space.n)
            steps += 1
        rows.append((name, (time.perf_counter() - start) / steps))
    return rows


def _env_rows(quick: bool) -> list:
    """Steps per second of TetrisVecEnv / PuyoVecEnv against numpy and Tetris-Gymnasium."""
    from gridbits.envs import PuyoVecEnv, TetrisVecEnv

    seconds = 0.3 if quick else 1.0
    rows = []
    peers = _tetris_gymnasium_rows(seconds)
    for n in (1, 256, 4096):
        for actions in ("placements", "hard_drop"):
            env = TetrisVecEnv(n, seed=0, actions=actions)
            env.reset()
            rng = np.random.default_rng(1)
            step_only, with_choice = _env_steps(env.step, env.action_masks, n, seconds, rng)
            workload = f"Tetris env N={n} (per env-step)"
            rows.append({"workload": workload, "impl": f"gridbits {actions}", "seconds": with_choice})
            rows.append({"workload": workload, "impl": f"gridbits {actions}, step alone", "seconds": step_only})
        np_env = NumpyTetris(n)
        np_step, np_total = _env_steps(np_env.step, np_env.masks, n, seconds, np.random.default_rng(1))
        rows.append({"workload": workload, "impl": "numpy hard drop", "seconds": np_total})
        rows.append({"workload": workload, "impl": "numpy hard drop, step alone", "seconds": np_step})
        for name, t in peers:  # a batch of single envs costs N single steps
            rows.append({"workload": workload, "impl": name, "seconds": t})
        env = PuyoVecEnv(n, seed=0)
        env.reset()
        step_only, with_choice = _env_steps(env.step, env.action_masks, n, seconds, np.random.default_rng(1))
        workload = f"Puyo env N={n} (per env-step)"
        rows.append({"workload": workload, "impl": "gridbits", "seconds": with_choice})
        rows.append({"workload": workload, "impl": "gridbits, step alone", "seconds": step_only})
        np_env = NumpyPuyo(n)
        np_step, np_total = _env_steps(np_env.step, np_env.masks, n, seconds, np.random.default_rng(1))
        rows.append({"workload": workload, "impl": "numpy Puyo", "seconds": np_total})
        rows.append({"workload": workload, "impl": "numpy Puyo, step alone", "seconds": np_step})
    return rows


def _env_cpu_rows(quick: bool) -> list:
    """CPU time (process time, every thread summed) per env-step of the Tetris ``step``
    calls alone at N = 4096 on one thread, and of the numpy hard-drop batch: the work per
    step, which a loaded machine inflates far less than the wall time. Best of 3 runs of
    ``steps`` steps each, random legal actions chosen with numpy (not timed)."""
    from gridbits.envs import TetrisVecEnv

    n, steps = 4096, 20 if quick else 60

    def cpu(step, masks) -> float:
        rng = np.random.default_rng(1)
        best = float("inf")
        for _ in range(3):
            total = 0.0
            for _ in range(steps):
                a = _random_legal(rng, masks())
                t0 = time.process_time()
                step(a)
                total += time.process_time() - t0
            best = min(best, total / (steps * n))
        return best

    rows = []
    workload = f"Tetris env N={n} CPU time, 1 thread (per env-step)"
    with gridbits.threads(1):
        for actions in ("placements", "hard_drop"):
            env = TetrisVecEnv(n, seed=0, actions=actions)
            env.reset()
            rows.append({"workload": workload, "impl": f"gridbits {actions}", "seconds": cpu(env.step, env.action_masks)})
        np_env = NumpyTetris(n)
        rows.append({"workload": workload, "impl": "numpy hard drop", "seconds": cpu(np_env.step, np_env.masks)})
    return rows


def _env_thread_rows(quick: bool) -> list:
    """The Tetris ``step`` calls alone at N = 4096 (placements and hard drop) on one thread
    and on the default pool (the calling thread and rayon's global pool), wall time and the
    cores busy (process time over wall time) during the calls: how well the batch's chunks
    spread over the threads. Random legal actions chosen with numpy between the calls (not
    timed), as a training loop does. Best of 3 runs of ``steps`` steps each."""
    from gridbits.envs import TetrisVecEnv

    n, steps = 4096, 20 if quick else 60
    rows = []
    for actions in ("placements", "hard_drop"):
        workload = f"Tetris env N={n} {actions}, step alone (per env-step)"
        for threads in (1, None):
            with gridbits.threads(threads):
                env = TetrisVecEnv(n, seed=0, actions=actions)
                env.reset()
                rng = np.random.default_rng(1)
                best = (float("inf"), 0.0)
                for _ in range(3):
                    wall = cpu = 0.0
                    for _ in range(steps):
                        a = _random_legal(rng, env.action_masks())
                        t0, c0 = time.perf_counter(), time.process_time()
                        env.step(a)
                        wall += time.perf_counter() - t0
                        cpu += time.process_time() - c0
                    best = min(best, (wall / (steps * n), cpu / wall))
            name = "gridbits 1 thread" if threads == 1 else f"gridbits default ({gridbits.get_num_threads()} threads)"
            rows.append({"workload": workload, "impl": f"{name}, {best[1]:.2f} cores busy", "seconds": best[0]})
    return rows


def _dask_rows(quick: bool) -> list:
    import dask.array as da
    from distributed import Client, LocalCluster

    import gridbits.dask as gd

    size = 4096 if quick else 16384
    chunk = 1024 if quick else 2048
    img = da.random.RandomState(5).random((size, size), chunks=chunk) < 0.5
    rows = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        workload = f"dask label noise 50% {size}x{size} chunks {chunk}"

        def ours():
            labels, n = gd.label(img)
            return int(client.compute(n, sync=True)), labels.max().compute()

        # One timed run each (dask-image takes minutes on the full size), the counts of the
        # timed runs compared.
        t, (n_ours, _) = _timed(ours)
        rows.append({"workload": workload, "impl": "gridbits.dask", "seconds": t})
        try:
            from dask_image.ndmeasure import label as di_label

            def theirs():
                labels, n = di_label(img, structure=np.ones((3, 3)))
                return int(client.compute(n, sync=True)), labels.max().compute()

            t, (n_theirs, _) = _timed(theirs)
            if n_theirs != n_ours:
                raise SystemExit(f"{workload}: dask-image counts {n_theirs}, gridbits {n_ours}")
            rows.append({"workload": workload, "impl": "dask_image", "seconds": t})
        except ImportError:
            pass
    return rows


def ratios(rows: list) -> list:
    """Each peer's time over gridbits' in the same workload."""
    fast = {r["workload"]: r["seconds"] for r in rows if r["impl"].startswith("gridbits")}
    return [
        {"workload": r["workload"], "baseline": r["impl"], "ratio": r["seconds"] / fast[r["workload"]]}
        for r in rows
        if not r["impl"].startswith("gridbits") and r["workload"] in fast
    ]


def _fmt(seconds: float) -> str:
    """A time with a readable unit."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.2f} {unit}"
    return f"{seconds / 1e-9:.0f} ns"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="1024^2 images and fewer repeats")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--dask", action="store_true", help="also time gridbits.dask against dask-image")
    ap.add_argument(
        "--only",
        choices=["cvmorph", "dt", "envs", "envs-cpu", "envs-threads", "measure", "morph", "morph-cv2"],
        default="",
        help="run one section: dt (the distance transforms), envs (gridbits.envs), envs-cpu "
        "(Tetris env CPU time per step, one thread), envs-threads (Tetris env step on one "
        "thread and the default pool, with the cores busy), measure "
        "(gridbits.measure), morph (binary morphology) or morph-cv2 (binary morphology "
        "against OpenCV alone, with gridbits.opencv.morphologyEx's rows) or cvmorph "
        "(gridbits.opencv.morphologyEx against cv2.morphologyEx alone)",
    )
    args = ap.parse_args(argv)
    rows = run(args.quick, args.dask, args.only)
    rat = ratios(rows)
    if args.json:
        print(json.dumps({"cpus": os.cpu_count(), "results": rows, "ratios": rat}, indent=1))
        return 0
    ratio_of = {(r["workload"], r["baseline"]): r["ratio"] for r in rat}
    print(f"{'workload':<50} {'impl':<24} {'time':>10}  gridbits is")
    for r in rows:
        q = ratio_of.get((r["workload"], r["impl"]))
        speed = f"{q:.1f}x faster" if q and q >= 1 else (f"{1 / q:.1f}x slower" if q else "")
        print(f"{r['workload']:<50} {r['impl']:<24} {_fmt(r['seconds']):>10}  {speed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
