"""Shared strategies of the Python tests."""

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st

settings.register_profile("gridbits", max_examples=60, deadline=None, derandomize=True)
settings.load_profile("gridbits")

#: Widths and heights that cross word boundaries, plus empty and one-cell edges.
SIDES = [0, 1, 2, 3, 7, 63, 64, 65, 100, 127, 128, 129]


@st.composite
def images(draw, sides=SIDES, max_side=130):
    """A random 2D bool image of a size drawn from ``sides`` or below ``max_side``."""
    h = draw(st.one_of(st.sampled_from(sides), st.integers(0, max_side)))
    w = draw(st.one_of(st.sampled_from(sides), st.integers(0, max_side)))
    density = draw(st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.6, 0.8, 1.0]))
    seed = draw(st.integers(0, 2**32 - 1))
    return np.random.default_rng(seed).random((h, w)) < density
