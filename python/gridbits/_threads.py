"""How many threads gridbits' calls use: :func:`set_num_threads`, :func:`get_num_threads` and
the context manager :func:`threads`, as ``cv2.setNumThreads`` and threadpoolctl offer.

The setting is global to the process (every Python thread's calls share it), and results are
the same with any number of threads."""

from __future__ import annotations

import contextlib
import operator
from typing import Iterator, Optional

from . import _gridbits

__all__ = ["get_num_threads", "set_num_threads", "threads"]

#: The most threads :func:`set_num_threads` takes.
MAX_THREADS: int = _gridbits.MAX_THREADS


def _count(n: object) -> int:
    if isinstance(n, bool) or not hasattr(type(n), "__index__"):
        raise TypeError(f"n: expected an int, got {type(n).__name__}")
    n = operator.index(n)
    if not 1 <= n <= MAX_THREADS:
        raise ValueError(f"n: expected 1 to {MAX_THREADS} threads, got {n}")
    return n


def set_num_threads(n: Optional[int]) -> None:
    """Run gridbits' calls on ``n`` threads (1 to 256), or, for ``None``, on the default
    pool: one thread per core, or ``RAYON_NUM_THREADS`` when set. A pool of ``n`` threads is
    started once and kept; results are the same with any ``n``. ``TypeError`` for a value
    that is not an int (or ``None``), ``ValueError`` for one out of range.

    >>> import gridbits
    >>> gridbits.set_num_threads(1)
    >>> gridbits.get_num_threads()
    1
    >>> gridbits.set_num_threads(None)  # back to the default
    """
    _gridbits._set_num_threads(None if n is None else _count(n))


def get_num_threads() -> int:
    """The number of threads gridbits' calls use now: the last :func:`set_num_threads`, or
    the default pool's (one per core, or ``RAYON_NUM_THREADS``).

    >>> import gridbits
    >>> with gridbits.threads(2):
    ...     gridbits.get_num_threads()
    2
    """
    return _gridbits.get_num_threads()


@contextlib.contextmanager
def threads(n: Optional[int]) -> Iterator[None]:
    """Run the calls of a ``with`` block on ``n`` threads (as :func:`set_num_threads`);
    the previous setting comes back when the block ends, also on an exception.

    >>> import numpy as np, gridbits
    >>> image = np.eye(4, dtype=bool)
    >>> with gridbits.threads(1):
    ...     labels, n = gridbits.label(image)
    >>> n
    1
    """
    new = None if n is None else _count(n)
    previous = _gridbits._thread_setting()
    _gridbits._set_num_threads(new)
    try:
        yield
    finally:
        _gridbits._set_num_threads(previous)
