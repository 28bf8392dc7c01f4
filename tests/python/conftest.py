"""Shared strategies of the Python tests."""

import itertools
import os
from pathlib import Path

import numpy as np
from hypothesis import example, settings
from hypothesis import strategies as st

import gridbits
from gridbits import _gridbits

settings.register_profile("gridbits", max_examples=60, deadline=None, derandomize=True)
settings.load_profile("gridbits")

# .ci/test-wheel runs these tests against an installed wheel and names the folder (the venv's
# site-packages) the package must come from: never the source tree's python/.
_INSTALLED_IN = os.environ.get("GRIDBITS_TEST_INSTALLED_IN")
if _INSTALLED_IN:
    for _module in (gridbits, _gridbits):
        _where = Path(_module.__file__).resolve()
        if Path(_INSTALLED_IN).resolve() not in _where.parents:
            raise RuntimeError(f"{_module.__name__} is imported from {_where}, not from {_INSTALLED_IN}")


def pytest_report_header(config):
    return f"gridbits: {Path(gridbits.__file__).parent}"


#: Widths and heights that cross word boundaries, plus empty and one-cell edges.
SIDES = [0, 1, 2, 3, 7, 63, 64, 65, 100, 127, 128, 129]

#: Shapes every comparison with a reference runs explicitly: empty either way, one cell,
#: one row or column crossing a 64-bit word, and widths on either side of one word.
EDGE_SHAPES = [(0, 7), (7, 0), (1, 65), (65, 1), (5, 63), (5, 64), (5, 65), (1, 1)]


@st.composite
def images(draw, sides=SIDES, max_side=130, min_side=0):
    """A random 2D bool image of a size drawn from ``sides`` or below ``max_side``
    (and no side below ``min_side``)."""
    sides = [s for s in sides if s >= min_side]
    h = draw(st.one_of(st.sampled_from(sides), st.integers(min_side, max_side)))
    w = draw(st.one_of(st.sampled_from(sides), st.integers(min_side, max_side)))
    density = draw(st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.6, 0.8, 1.0]))
    seed = draw(st.integers(0, 2**32 - 1))
    return np.random.default_rng(seed).random((h, w)) < density


def edge_images(min_side=0):
    """For every shape of ``EDGE_SHAPES`` (no side below ``min_side``): a random image
    about half set, and a full one."""
    out = []
    for shape in EDGE_SHAPES:
        if min(shape) < min_side:
            continue
        half = np.random.default_rng(shape[0] * 1000 + shape[1]).random(shape) < 0.5
        out += [half, np.ones(shape, bool)]
    return out


def edge_examples(*rest, min_side=0):
    """A decorator adding a hypothesis ``@example(image, *args)`` for every image of
    :func:`edge_images` and every combination ``args`` of the values listed in ``rest``
    (one list per remaining argument of the test)."""

    def decorate(test):
        for img in edge_images(min_side):
            for args in itertools.product(*rest):
                test = example(img, *args)(test)
        return test

    return decorate
