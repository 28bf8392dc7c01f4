"""gridbits: bit-parallel algorithms on 2D grids, for numpy.

Each cell is one bit and a whole row of 64 cells moves per machine word, so labelling,
distance maps, Voronoi territory and flood fill run at memory speed. Every function takes
2D numpy arrays (bool or any integer or float dtype, nonzero = set; C or Fortran order or
strided views) and returns numpy arrays; long calls release the GIL.

- :func:`label`, :func:`label_stats`, :func:`connected_components_with_stats`,
  :func:`groups_at_least`: connected components, with the results of
  ``scipy.ndimage.label`` and ``cv2.connectedComponentsWithStats``. The drop-ins, with the
  libraries' own signatures and defaults: :mod:`gridbits.ndimage` has scipy's ``label``
  (``structure``, ``output``), :mod:`gridbits.opencv` OpenCV's ``connectedComponents``,
  ``connectedComponentsWithStats`` and their ``WithAlgorithm`` forms.
- Binary morphology: :mod:`gridbits.ndimage` has scipy's ``binary_erosion``,
  ``binary_dilation``, ``binary_opening``, ``binary_closing``, ``binary_propagation``,
  ``binary_hit_or_miss`` and ``binary_fill_holes``; :mod:`gridbits.morphology` has
  scikit-image's binary operations, footprints (``disk``, ``diamond``,
  ``footprint_rectangle``) and ``remove_small_objects`` / ``remove_small_holes``;
  :mod:`gridbits.opencv` has OpenCV's ``erode``, ``dilate``, ``morphologyEx`` and
  ``getStructuringElement`` (two-valued images, OpenCV's values).
- :func:`fill`, :func:`fill_count`, :func:`distance`, :func:`voronoi`, :func:`reach`: flood
  fill (its cells, or their number), BFS distance maps, territory of many players,
  sliding-piece reach.
- :mod:`gridbits.measure`: scikit-image's ``label`` (multi-class) and ``regionprops_table``,
  and :func:`gridbits.measure.largest_components`; :mod:`gridbits.ndimage` also has scipy's
  ``find_objects``.
- :mod:`gridbits.puyo`, :mod:`gridbits.tetris`, :mod:`gridbits.amazons`: game engines.
- :mod:`gridbits.dask`: labelling of Dask arrays larger than one machine.
- :func:`set_num_threads`, :func:`get_num_threads`, :func:`threads` (a context manager):
  how many threads the calls use (default: one per core, or ``RAYON_NUM_THREADS``).

Coordinates are numpy's in every function: cells are ``(row, col)`` pairs and arrays are
indexed ``[row, col]`` (Tetris positions too); only the OpenCV-shaped statistics keep
OpenCV's ``(x, y, w, h)`` boxes and ``(x, y)`` centroids.

>>> import numpy as np, gridbits
>>> labels, n = gridbits.label(np.eye(3, dtype=bool))
>>> n
1
"""

from ._grid import (
    LabelStats,
    Voronoi,
    connected_components_with_stats,
    distance,
    fill,
    fill_count,
    groups_at_least,
    label,
    label_stats,
    reach,
    voronoi,
)
from ._gridbits import __version__
from ._threads import get_num_threads, set_num_threads, threads
from . import amazons, measure, morphology, ndimage, opencv, puyo, tetris

__all__ = [
    "LabelStats",
    "Voronoi",
    "__version__",
    "amazons",
    "connected_components_with_stats",
    "distance",
    "fill",
    "fill_count",
    "get_num_threads",
    "groups_at_least",
    "label",
    "label_stats",
    "morphology",
    "measure",
    "ndimage",
    "opencv",
    "puyo",
    "reach",
    "set_num_threads",
    "tetris",
    "threads",
    "voronoi",
]
