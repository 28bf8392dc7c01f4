# gridbits: `make test` runs every test, Rust and Python; `make demo` the main job.
# The Python side lives in .venv (created here, filled from PyPI by pip).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: kits test test-rust test-python develop wheel sdist test-wheel test-sdist demo bench bench-python clean-venv playground playground-build

test: test-rust test-python

test-rust:
	cargo test --workspace --exclude gridbits-py

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "maturin>=1.9.4,<2" ziglang twine numpy scipy pytest hypothesis "dask[array]" distributed cachey opencv-python-headless scikit-image "gymnasium>=1.0"
	touch $(STAMP)

# Builds the native module (release) into the venv.
develop: $(STAMP)
	VIRTUAL_ENV=$(abspath $(VENV)) PATH=$(abspath $(VENV))/bin:$$PATH \
		$(VENV)/bin/maturin develop --release --quiet

test-python: develop
	$(PY) -m pytest -q

# The wheel users install: abi3 (one wheel for CPython 3.9+), release, into target/wheels/ (the
# previous one is removed first). Linked by zig (ziglang from PyPI) against glibc 2.17, so it is
# manylinux2014 / manylinux_2_17 like the wheels of GitHub's manylinux containers; maturin's
# auditwheel check verifies the tag (a plain `maturin build` here links against this machine's
# glibc: manylinux_2_34). Its own cargo target folder: the zig linker's flags would otherwise
# rebuild what `make develop` built, and the other way round. twine checks the metadata.
WHEELS := target/wheels
wheel: $(STAMP)
	rm -f $(WHEELS)/gridbits-*.whl
	VIRTUAL_ENV=$(abspath $(VENV)) PATH=$(abspath $(VENV))/bin:$$PATH CARGO_TARGET_DIR=target/zig \
		$(VENV)/bin/maturin build --release --quiet --zig --compatibility manylinux2014 --out $(WHEELS)
	$(VENV)/bin/twine check --strict $(WHEELS)/gridbits-*.whl
	@ls -l $(WHEELS)/gridbits-*.whl

# The source distribution, into target/wheels/.
sdist: $(STAMP)
	rm -f $(WHEELS)/gridbits-*.tar.gz
	$(VENV)/bin/maturin sdist --out $(WHEELS)
	$(VENV)/bin/twine check --strict $(WHEELS)/gridbits-*.tar.gz

# The wheel of `make wheel`, installed into a fresh venv with no Rust on PATH, and the Python
# tests (and docstring examples of the installed modules) run against it, away from the source
# tree: see .ci/test-wheel.
test-wheel:
	.ci/test-wheel $(WHEELS)

# Builds a wheel from the sdist of `make sdist` with pip (a few minutes: a full release build).
test-sdist: sdist
	.ci/test-sdist $(WHEELS)

demo:
	cargo run --release -q -- demo

# The Rust benchmark (crates/gridbits-bench): every workload, a few minutes.
bench:
	cargo run --release -q -p gridbits-bench

# The Python benchmark also needs OpenCV, cc3d, scikit-image and dask-image (for its
# --dask rows, left out here: dask-image takes about 17 minutes on 16384^2).
bench-python: develop
	$(PY) -m pip install --quiet opencv-python-headless connected-components-3d scikit-image dask-image gymnasium tetris-gymnasium
	$(PY) crates/gridbits-bench/python/bench.py

# The CodinGame kits: kits/<name>.rs regenerated from the library's source and the bots in
# tools/kits/bots/ (needs rustc; sizes printed). .ci/kits-test checks, compiles and plays them.
kits:
	$(PYTHON) tools/kits/make_kits.py

clean-venv:
	rm -rf $(VENV)

# The browser playground (web/): crates/gridbits-web compiled to WebAssembly, its JavaScript
# glue from wasm-bindgen-cli (the version the crate pins; installed once, about 2.5 minutes)
# into web/pkg/. `make playground` serves web/ on http://localhost:$(PLAYGROUND_PORT)/.
WASM_BINDGEN_VERSION := 0.2.130
PLAYGROUND_PORT ?= 8000
playground-build:
	rustup target add wasm32-unknown-unknown
	@if ! wasm-bindgen --version 2>/dev/null | grep -q "$(WASM_BINDGEN_VERSION)"; then \
		echo "installing wasm-bindgen-cli $(WASM_BINDGEN_VERSION)"; \
		cargo install wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION); \
	fi
	cargo build --release --target wasm32-unknown-unknown -p gridbits-web
	wasm-bindgen --target web --no-typescript --out-dir web/pkg \
		target/wasm32-unknown-unknown/release/gridbits_web.wasm

playground: playground-build
	@echo "gridbits playground: http://localhost:$(PLAYGROUND_PORT)/ (Ctrl-C stops it)"
	cd web && $(PYTHON) -m http.server $(PLAYGROUND_PORT) --bind 127.0.0.1
