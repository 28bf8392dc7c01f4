"""The README's Python examples run as printed (against the installed package)."""

import re
from pathlib import Path

import numpy as np
import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def block_after(heading: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(heading)
    return re.search(r"```python\n(.*?)```", text[start:], re.S).group(1)


@pytest.mark.skipif(not README.exists(), reason="README.md is not beside the tests (installed wheel)")
def test_image_analysis_pipeline_runs_and_agrees_with_the_peers():
    ndi = pytest.importorskip("scipy.ndimage")
    skm = pytest.importorskip("skimage.measure")
    img = np.random.default_rng(3).random((120, 97))
    ns = {"img": img}
    exec(block_after("### Image analysis"), ns)
    clean, labels, table = ns["clean"], ns["labels"], ns["table"]
    assert (ns["dist"] == ndi.distance_transform_edt(clean)).all()
    assert (labels == skm.label(clean, connectivity=2)).all()
    want = skm.regionprops_table(labels, img, properties=("label", "area", "centroid"))
    for key, value in want.items():
        np.testing.assert_allclose(table[key], value)
    assert ns["skeleton"].dtype == bool and ns["l1"].dtype == np.float32
