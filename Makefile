# gridbits: `make test` runs every test, Rust and Python; `make demo` the main job.
# The Python side lives in .venv (created here, filled from PyPI by pip).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test test-rust test-python develop demo bench bench-python clean-venv

test: test-rust test-python

test-rust:
	cargo test --workspace --exclude gridbits-py

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "maturin>=1.7,<2" numpy scipy pytest hypothesis "dask[array]" distributed cachey opencv-python-headless
	touch $(STAMP)

# Builds the native module (release) into the venv.
develop: $(STAMP)
	VIRTUAL_ENV=$(abspath $(VENV)) PATH=$(abspath $(VENV))/bin:$$PATH \
		$(VENV)/bin/maturin develop --release --quiet

test-python: develop
	$(PY) -m pytest -q

demo:
	cargo run --release -q -- demo

# The Rust benchmark (crates/gridbits-bench): every workload, a few minutes.
bench:
	cargo run --release -q -p gridbits-bench

# The Python benchmark also needs OpenCV, cc3d, scikit-image and dask-image (for its
# --dask rows, left out here: dask-image takes about 17 minutes on 16384^2).
bench-python: develop
	$(PY) -m pip install --quiet opencv-python-headless connected-components-3d scikit-image dask-image
	$(PY) crates/gridbits-bench/python/bench.py

clean-venv:
	rm -rf $(VENV)
