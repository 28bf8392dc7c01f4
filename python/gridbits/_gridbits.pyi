"""Type stubs of the native module (the public API is in the package's Python modules).

Every function here backs the public function of the same name (game functions carry
their module's name as a prefix: ``puyo_simulate`` backs ``gridbits.puyo.simulate``).
Cells are ``(row, col)`` and arrays are indexed ``[row, col]``, as in the public API.
"""

from typing import TYPE_CHECKING, Any, Literal, Optional, Union, overload

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from .tetris import MoveArrays

__version__: str

_U8 = npt.NDArray[np.uint8]
_I32 = npt.NDArray[np.int32]
_I64 = npt.NDArray[np.int64]
_F64 = npt.NDArray[np.float64]

# Binary morphology (crates/gridbits-py/src/morph.rs). Footprints are C-contiguous uint8
# arrays with their centre as (row, col); iterations below 1 repeat until stable. The
# results are uint8 arrays of 0 and 1.
# The fused path (crates/gridbits-py/src/morph_bytes.rs): steps (erode, border) in order,
# written into `out` (C-contiguous, the input's shape) as `set` and 0.
def binary_morph_into(
    input: _U8,
    structure: _U8,
    center: tuple[int, int],
    steps: list[tuple[bool, bool]],
    out: _U8,
    set: int,
) -> None: ...
# OpenCV morphology's value check (crates/gridbits-py/src/cvmorph.rs): (first, lo, hi), lo and
# hi the extremes of the values other than the first byte (lo > hi: none).
def cv_byte_values(image: _U8) -> tuple[int, int, int]: ...
# OpenCV morphology's quick call (cvmorph.rs): the steps into out with hi (the first nonzero
# byte) for a set cell, the values checked while packing; hi, or None when the image holds
# a third value or no nonzero byte (out is then to be dropped).
def cv_morph_into(
    input: _U8,
    structure: _U8,
    center: tuple[int, int],
    steps: list[tuple[bool, bool]],
    out: _U8,
) -> Optional[int]: ...
# The same for MORPH_GRADIENT (the dilation, border unset, without the erosion, border set),
# in one pass for kernels of the 3x3 box.
def cv_gradient_into(
    input: _U8,
    structure: _U8,
    center: tuple[int, int],
    out: _U8,
) -> Optional[int]: ...
def binary_erosion(
    input: _U8,
    structure: _U8,
    center: tuple[int, int],
    border: bool,
    iterations: int,
    mask: Optional[_U8] = None,
) -> _U8: ...
def binary_dilation(
    input: _U8,
    structure: _U8,
    center: tuple[int, int],
    border: bool,
    iterations: int,
    mask: Optional[_U8] = None,
) -> _U8: ...
def binary_opening(
    input: _U8,
    structure: _U8,
    center: tuple[int, int],
    border: bool,
    iterations: int,
    mask: Optional[_U8] = None,
) -> _U8: ...
def binary_closing(
    input: _U8,
    structure: _U8,
    center: tuple[int, int],
    border: bool,
    iterations: int,
    mask: Optional[_U8] = None,
) -> _U8: ...
def binary_propagation(
    input: _U8,
    structure: _U8,
    center: tuple[int, int],
    border: bool,
    mask: Optional[_U8] = None,
) -> _U8: ...
def binary_hit_or_miss(
    input: _U8,
    structure1: _U8,
    center1: tuple[int, int],
    structure2: _U8,
    center2: tuple[int, int],
) -> _U8: ...
def binary_fill_holes(input: _U8, structure: _U8, center: tuple[int, int]) -> _U8: ...

# Labelling and statistics (crates/gridbits-py/src/label.rs).
def label(image: _U8, connectivity: int) -> tuple[_I32, int]: ...
def label_packed(packed: _U8, width: int, connectivity: int) -> tuple[_I32, int]: ...
def connected_components_with_stats(
    image: _U8, connectivity: int, with_labels: bool
) -> tuple[int, Optional[_I32], _I32, _F64]:
    """``(n, labels, stats [n + 1, 5], centroids [n + 1, 2])``, row 0 the background: the
    count ``n`` is the components' (the public function returns ``n + 1``)."""
def label_stats(
    image: _U8,
    connectivity: int,
    with_labels: bool,
    packed_width: Optional[int] = None,
) -> tuple[int, Optional[_I32], _I64, _I32, _F64]: ...

# Region labelling and properties (crates/gridbits-py/src/measure.rs). Label images are
# C-contiguous uint32 or uint64 arrays; results are indexed by label - 1.
def measure_label(
    image: np.ndarray,
    background: Optional[int],
    connectivity: int,
    route: Literal["auto", "rows", "pairs", "binary"] = "auto",
) -> tuple[_I64, int]:
    """``(labels int64, n)`` of a C-contiguous value image of any integer type (read in
    place); ``background`` outside the type's range, or ``None``: no pixel is background.
    The result's buffer is recycled when numpy frees it (its ``base`` is the owner).
    ``route`` forces the labeller's route (benchmarks; the labels are the same)."""
def measure_regions(
    label_image: np.ndarray, moments: bool
) -> tuple[_I64, _I64, _F64, Optional[_F64], Optional[_F64]]:
    """``(area, bbox [L, 4], centroid [L, 2], moments [L, 4, 4], moments_central [L, 4, 4])``
    in ``(row, col)`` order; the moments only with ``moments``."""
def measure_topology(label_image: np.ndarray, connectivity: int) -> tuple[_F64, _I64]:
    """``(perimeter, euler_number)`` of every label up to the largest."""
def measure_filled_areas(label_image: np.ndarray, label: _I64, area: _I64, bbox: _I64) -> _I64:
    """Filled areas of the regions of the given labels, areas and boxes (``(n, 4)``, rows first)."""
def measure_intensity(label_image: np.ndarray, intensity: np.ndarray) -> tuple[_F64, _F64, _F64]:
    """``(sum, min, max)`` per label of a uint8, uint16, float32 or float64 intensity image
    (NaN where a region holds a NaN)."""

# Fill, distance, Voronoi, reach (crates/gridbits-py/src/lib.rs).
def distance_transform_cdt(
    image: _U8, steps: tuple[bool, bool, bool, bool], with_indices: bool
) -> tuple[_I32, Optional[_I32]]:
    """``(distances, nearest row-major indices or None)``: scipy's two-pass chamfer transform
    with the neighbours ``[up-left, up, up-right, left]``."""
def distance_transform_edt(
    image: _U8, sampling: tuple[float, float], with_distances: bool, with_indices: bool = True
) -> tuple[Optional[npt.NDArray[np.float64]], Optional[_I32], bool]:
    """``(distances or None, indices [2, h, w] or None, has_background)``: scipy's exact
    Euclidean transform with ``sampling`` ``(row, col)``; the indices are ``None`` only without
    ``with_indices`` on an image with background."""
def distance_transform_cv(image: _U8, kind: str) -> npt.NDArray[np.float32]:
    """cv2.distanceTransform's float32 distances, ``kind`` ``"l1"``, ``"c"`` or ``"l2"``."""
def distance_transform_cv_labels(
    image: _U8, kind: str, labels: _I32
) -> tuple[npt.NDArray[np.float32], _I32]:
    """cv2.distanceTransformWithLabels' distances and labels (5x5 mask of ``kind``), the
    background pixels' labels given in ``labels``."""
def fill(passable: _U8, seeds: _U8, connectivity: int) -> _U8: ...
def fill_count(passable: _U8, row: int, col: int, connectivity: int) -> int: ...
def distance(passable: _U8, sources: _U8, moves: str) -> _I32: ...
def voronoi(passable: _U8, markers: _I32, players: int, moves: str) -> tuple[_I32, _I64]: ...
def reach(passable: _U8, pieces: _U8, moves: str) -> _U8: ...
def parse_moves(name: str) -> str:
    """The canonical name of a move kind ("4", "8", "rook", "bishop", "queen")."""

# Label merging for gridbits.dask.
def merge_labels(pairs: _I64, total: int) -> tuple[_I32, int]: ...
def relabel(labels: _I32, offset: int, mapping: _I32) -> None: ...

# Games (crates/gridbits-py/src/games.rs).
def puyo_parse(text: str, rules: str) -> _U8: ...
def puyo_simulate(
    fields: _U8, rules: str
) -> tuple[int, int, list[tuple[int, int, int, int, int, int]], _U8]: ...
def puyo_placements(
    field: _U8, pair: Union[str, Any], rules: str
) -> tuple[_U8, _U8, _U8, _I32, _I64, _U8]: ...
def puyo_simulate_many(fields: _U8, rules: str) -> tuple[_I32, _I64, _U8]: ...
def amazons_parse(text: str) -> _U8: ...
def amazons_evaluate_many(positions: _U8, single: bool = False) -> _I32: ...
def amazons_moves(position: _U8, side: str) -> _U8: ...
def amazons_play(position: _U8, side: str, mv: Union[str, Any]) -> _U8: ...
def amazons_perft(position: _U8, side: str, depth: int) -> int: ...

# Benchmark baselines (gridbits.bench).
def _puyo_rust_loop_seconds(fields: _U8, rules: str) -> float: ...
def _puyo_rust_batch_seconds(fields: _U8, rules: str) -> float: ...

# Tetris (crates/gridbits-py/src/tetris.rs).
class Placement:
    """A final placement: the SRS box at ``(row, col)``, its cells as ``(row, col)``."""

    @property
    def piece(self) -> str: ...
    @property
    def rotation(self) -> str: ...
    @property
    def row(self) -> int: ...
    @property
    def col(self) -> int: ...
    @property
    def spin(self) -> str: ...
    @property
    def cells(self) -> list[tuple[int, int]]: ...
    @property
    def inputs(self) -> Optional[list[str]]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Tetris:
    def __init__(self, height: int = 40) -> None: ...
    @staticmethod
    def from_array(cells: npt.ArrayLike) -> "Tetris": ...
    @staticmethod
    def parse(text: str) -> "Tetris": ...
    def to_array(self) -> _U8: ...
    @property
    def height(self) -> int: ...
    def copy(self) -> "Tetris": ...
    def fits(self, piece: str, rotation: Union[int, str], row: int, col: int) -> bool: ...
    def place(
        self, piece: str, rotation: Union[int, str], row: int, col: int
    ) -> Optional[int]: ...
    def drop(self, piece: str, rotation: Union[int, str], col: int) -> Optional[int]: ...
    def clear_lines(self) -> int: ...
    def heights(self) -> list[int]: ...
    def holes(self) -> int: ...
    def bumpiness(self) -> int: ...
    @overload
    def moves(
        self,
        piece: str,
        rotate_180: bool = False,
        inputs: bool = False,
        as_arrays: Literal[False] = False,
    ) -> list[Placement]: ...
    @overload
    def moves(
        self,
        piece: str,
        rotate_180: bool = False,
        inputs: Literal[False] = False,
        *,
        as_arrays: Literal[True],
    ) -> "MoveArrays": ...
    def __eq__(self, other: object) -> bool: ...
    def __copy__(self) -> "Tetris": ...
    def __deepcopy__(self, memo: Any) -> "Tetris": ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __setstate__(self, state: bytes) -> None: ...

# Threads (crates/gridbits-py/src/threads.rs).
MAX_THREADS: int

def _set_num_threads(n: Optional[int]) -> None: ...
def _thread_setting() -> Optional[int]: ...
def get_num_threads() -> int: ...

# Skeletons (crates/gridbits-py/src/skeleton.rs).
def skeletonize(image: _U8) -> _U8:
    """The skeleton of ``image`` (nonzero = set) as 0/1 bytes (non-empty 2D)."""
def thin(image: _U8, max_iterations: Optional[int] = None) -> _U8:
    """``image`` thinned by at most ``max_iterations`` iterations (``None``: no limit)."""

# Reinforcement-learning environments (crates/gridbits-py/src/envs.rs); gridbits.envs wraps them.
class TetrisBatch:
    """``n`` Tetris games writing caller-owned C-contiguous numpy buffers in place."""
    def __init__(
        self,
        n: int,
        actions: str = "placements",
        height: int = 24,
        previews: int = 5,
        hold: bool = True,
        level: int = 1,
        lines_per_level: int = 10,
    ) -> None: ...
    def __len__(self) -> int: ...
    @property
    def obs_len(self) -> int: ...
    @property
    def action_count(self) -> int: ...
    @property
    def info_len(self) -> int: ...
    def placement(self, i: int, index: int) -> Optional[tuple[int, int, int, int, int]]:
        """``(piece, rotation, x, y, spin)`` of action ``index`` in game ``i``, or None."""
    def reset(self, seeds: npt.NDArray[np.uint64], obs: _U8, masks: _U8, info: npt.NDArray[np.int64]) -> None: ...
    def step(
        self,
        actions: npt.NDArray[np.int64],
        obs: _U8,
        masks: _U8,
        rewards: npt.NDArray[np.float32],
        terminated: _U8,
        info: npt.NDArray[np.int64],
        reward: Optional[int] = None,
    ) -> None: ...

class PuyoBatch:
    """``n`` Puyo Puyo Tsu games writing caller-owned C-contiguous numpy buffers in place."""
    def __init__(
        self, n: int, colors: int = 4, previews: int = 2, target_point: int = 70, max_drop: int = 30
    ) -> None: ...
    def __len__(self) -> int: ...
    @property
    def obs_len(self) -> int: ...
    @property
    def action_count(self) -> int: ...
    @property
    def info_len(self) -> int: ...
    def reset(self, seeds: npt.NDArray[np.uint64], obs: _U8, masks: _U8, info: npt.NDArray[np.int64]) -> None: ...
    def step(
        self,
        actions: npt.NDArray[np.int64],
        obs: _U8,
        masks: _U8,
        rewards: npt.NDArray[np.float32],
        terminated: _U8,
        info: npt.NDArray[np.int64],
        reward: Optional[int] = None,
    ) -> None: ...
