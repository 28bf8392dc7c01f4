"""Label a 100,000 x 100,000 image (10^10 pixels, 10 GB as bool) that never exists in
memory: Dask generates each 4096 x 4096 chunk lazily from its position, gridbits labels it
on a local cluster, and only the statistics come back.

    python examples/python/dask_100k.py [SIZE] [CHUNK] [--labels]

The image is blobby (16 x 16 cells of random noise, 45% set), so components cross chunk
faces everywhere. By default it runs ``gridbits.dask.label_stats`` (areas and boxes merged
across chunks; no label image is kept). With ``--labels`` it runs ``gridbits.dask.label``
and reduces the final label image chunk by chunk (its largest label must be the count):
every chunk's labels are held until they are relabelled, 4 bytes a pixel, so pick a SIZE
whose label image fits the workers' memory (32768: 4.3 GB).
"""

import sys
import time

import dask.array as da
import numpy as np
from distributed import Client, LocalCluster

import gridbits.dask

CELL = 16


def make_chunk(block_info=None):
    """One chunk of the image, the same whatever worker makes it."""
    info = block_info[None]
    (y0, y1), (x0, x1) = info["array-location"]
    rng = np.random.default_rng([y0, x0])
    coarse = rng.random(((y1 - y0 + CELL - 1) // CELL, (x1 - x0 + CELL - 1) // CELL)) < 0.45
    return np.repeat(np.repeat(coarse, CELL, 0), CELL, 1)[: y1 - y0, : x1 - x0]


def main():
    labels_mode = "--labels" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--labels"]
    size = int(args[0]) if args else 100_000
    chunk = int(args[1]) if len(args) > 1 else 4096
    chunks = da.core.normalize_chunks(chunk, (size, size))
    img = da.map_blocks(make_chunk, dtype=bool, chunks=chunks)
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, Client(
        cluster
    ):
        t = time.perf_counter()
        if labels_mode:
            labels, n = gridbits.dask.label(img, connectivity=8)
            n, top = da.compute(n, labels.max())
            assert int(top) == int(n), (top, n)
            what = f"{int(n):,} components (label image reduced to its largest label)"
        else:
            stats = gridbits.dask.label_stats(img, connectivity=8)
            n, areas = da.compute(stats.n, stats.areas)
            what = f"{int(n):,} components, largest {areas.max():,} px"
        dt = time.perf_counter() - t
    px = size * size
    fn = "label" if labels_mode else "label_stats"
    print(f"{size} x {size}, chunks {chunk}, {fn}: {what}")
    print(f"{dt:.1f} s, {px / dt / 1e6:.0f} Mpx/s on 2 workers")


if __name__ == "__main__":
    main()
