//! The native module `gridbits._gridbits`: thin wrappers over the gridbits library taking and
//! returning numpy arrays. The public Python API (`python/gridbits/*.py`) checks and converts
//! the arguments (dtype, shape, order) and carries the documentation; these functions expect
//! 2D `uint8` arrays whose rows are contiguous (any row stride), and release the GIL while
//! they work, on the pool that `gridbits.set_num_threads` chose (`src/threads.rs`).
//!
//! Names: a native function has the name of the public function it backs (`fill` backs
//! `gridbits.fill`); the module is flat, so those of a game module carry its name as a
//! prefix (`puyo_simulate` backs `gridbits.puyo.simulate`). Helpers that back no public
//! function start with `_` or say what they check (`parse_moves`).
//!
//! Coordinates: the library's cells are `(x, y)`, x the column; every Python function takes
//! and returns `(row, col)`. The conversion happens here, in the native functions (for
//! example `fill_count` and the `Tetris` methods), and nowhere else.

use gridbits::algo::distance::try_distance_map;
use gridbits::algo::fill::{try_fill, try_fill_count};
use gridbits::algo::slide;
use gridbits::algo::voronoi::{try_voronoi_owners, Owners};
use gridbits::{BitGrid, Connectivity, GridError, Moves};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;

mod borrow;
mod cvmorph;
mod distance_transform;
mod envs;
mod games;
mod label;
mod measure;
mod morph;
mod morph_bytes;
mod recycle;
mod skeleton;
mod tetris;
mod threads;

use threads::detach;

/// A read-only 2D byte image borrowed from numpy: the bytes, the size and the row stride.
struct Image<'a> {
    bytes: &'a [u8],
    width: usize,
    height: usize,
    stride: usize,
}

impl<'a> Image<'a> {
    /// Borrows `array`, whose rows must be contiguous with a non-negative row stride (the
    /// Python layer makes a contiguous copy of any other layout).
    fn new(array: &'a PyReadonlyArray2<'_, u8>, name: &str) -> PyResult<Self> {
        let shape = array.shape();
        let (height, width) = (shape[0], shape[1]);
        let strides = array.strides();
        if height == 0 || width == 0 {
            return Ok(Image {
                bytes: &[],
                width,
                height,
                stride: width,
            });
        }
        // The stride of a length-1 axis is never used to address an element, and numpy
        // leaves it arbitrary (`img[:, ::-1]` of a one-column image has strides (1, -1) and is
        // flagged C-contiguous, so the Python layer passes it unchanged): only the strides of
        // axes longer than 1 are checked.
        if (width > 1 && strides[1] != 1) || (height > 1 && strides[0] < width as isize) {
            return Err(PyValueError::new_err(format!(
                "{name}: rows must be contiguous (strides {strides:?})"
            )));
        }
        let stride = if height == 1 {
            width
        } else {
            strides[0] as usize
        };
        let len = (height - 1) * stride + width;
        // SAFETY: numpy guarantees that the array's memory covers every element: with a
        // positive row stride and contiguous rows, element (y, x) is at offset
        // `y * stride + x` from the data pointer, and the last one is at `len - 1`. The
        // `PyReadonlyArray2` borrow keeps the array alive and forbids mutable borrows from
        // Rust for the lifetime of `'a`. The bytes are read only while this thread holds the
        // GIL (every caller packs them into a grid of its own before releasing it), so no
        // Python code runs meanwhile; native code that released the GIL in another thread
        // could still write the array, which no borrow of numpy memory can exclude (numpy's
        // own loops share that limit; docs/python.md asks users not to).
        let bytes = unsafe { std::slice::from_raw_parts(array.data() as *const u8, len) };
        Ok(Image {
            bytes,
            width,
            height,
            stride,
        })
    }

    /// The set cells (nonzero bytes) as a bit grid.
    fn grid(&self, name: &str) -> PyResult<BitGrid> {
        if self.bytes.is_empty() {
            return BitGrid::try_new(self.width, self.height).map_err(|e| size_error(name, e));
        }
        BitGrid::from_bytes(self.bytes, self.width, self.height, self.stride, 0)
            .map_err(|e| size_error(name, e))
    }
}

/// The size errors of the library, for [`size_error`].
trait SizeProblem: std::fmt::Display {
    /// Whether the size was refused for its memory (a [`gridbits::SizeError`] that says so).
    fn is_memory(&self) -> bool;
}

impl SizeProblem for gridbits::SizeError {
    fn is_memory(&self) -> bool {
        self.is_out_of_memory()
    }
}

impl SizeProblem for gridbits::ImageError {
    fn is_memory(&self) -> bool {
        matches!(self, gridbits::ImageError::Size(e) if e.is_out_of_memory())
    }
}

impl SizeProblem for gridbits::GridError {
    fn is_memory(&self) -> bool {
        matches!(self, gridbits::GridError::Size(e) if e.is_out_of_memory())
    }
}

/// `MemoryError` for sizes that cannot be allocated (raised before the allocation: the
/// library checks and reserves with `try_reserve`), `ValueError` for the rest.
fn size_error(name: &str, e: impl SizeProblem) -> PyErr {
    let msg = format!("{name}: {e}");
    if e.is_memory() {
        PyMemoryError::new_err(msg)
    } else {
        PyValueError::new_err(msg)
    }
}

/// `MemoryError` unless `count` values of `T` can be allocated: checked before the work
/// starts, so that a result too large for this machine is an exception, not an abort.
fn check_alloc<T>(count: usize, what: &str) -> PyResult<()> {
    reserved::<T>(count, what).map(drop)
}

/// An empty vector with room for `count` values of `T` (reserved with `try_reserve`), or
/// `MemoryError` naming the count and bytes: every output buffer whose size comes from the
/// input is made with it or [`filled`].
pub(crate) fn reserved<T>(count: usize, what: &str) -> PyResult<Vec<T>> {
    let mut v: Vec<T> = Vec::new();
    v.try_reserve_exact(count).map_err(|_| {
        let bytes = count as u128 * std::mem::size_of::<T>() as u128;
        PyMemoryError::new_err(format!(
            "not enough memory for the {what} ({count} values, {bytes} bytes)"
        ))
    })?;
    // Fresh output pages are faulted in on first write: 512 times fewer faults on huge
    // pages for large outputs (a freed output goes back to the system, so every call pays
    // them again).
    gridbits::huge_pages::advise(&mut v);
    Ok(v)
}

/// `count` copies of `value`, reserved as [`reserved`] reserves them.
pub(crate) fn filled<T: Clone>(count: usize, value: T, what: &str) -> PyResult<Vec<T>> {
    let mut v = reserved(count, what)?;
    v.resize(count, value);
    Ok(v)
}

fn connectivity(c: u8) -> PyResult<Connectivity> {
    match c {
        4 => Ok(Connectivity::Four),
        8 => Ok(Connectivity::Eight),
        _ => Err(PyValueError::new_err(format!(
            "connectivity must be 4 or 8, not {c}"
        ))),
    }
}

fn moves(m: &str) -> PyResult<Moves> {
    m.parse::<Moves>()
        .map_err(|e| PyValueError::new_err(format!("moves: {e}")))
}

/// The canonical name (`"4"`, `"8"`, `"rook"`, `"bishop"` or `"queen"`) of a move kind as
/// the library's `Moves` parser reads it (any case; `"four"`, `"eight"` and `"king"` too),
/// or `ValueError` naming `moves`: the Python layer checks `moves` with it before any work.
#[pyfunction]
fn parse_moves(name: &str) -> PyResult<String> {
    moves(name).map(|m| m.to_string())
}

/// A `height x width` array from a row-major vector.
fn array2<T: numpy::Element>(
    py: Python<'_>,
    v: Vec<T>,
    height: usize,
    width: usize,
) -> PyResult<Bound<'_, PyArray2<T>>> {
    let a = Array2::from_shape_vec((height, width), v)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(a.into_pyarray(py))
}

/// The cells of `g` as a `uint8` array of 0 and 1 (viewed as `bool` by the Python layer).
fn grid_to_array<'py>(py: Python<'py>, g: &BitGrid) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let (w, h) = (g.width(), g.height());
    let mut out = filled(w * h, 0u8, "result")?;
    if w > 0 && h > 0 {
        g.write_bytes(&mut out, w, 1, 0)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    array2(py, out, h, w)
}

/// The number of cells of `passable` reachable from `(row, col)`: a window around the start,
/// grown as the region needs (`fill_count`). The start is checked by the Python layer.
#[pyfunction]
fn fill_count(
    py: Python<'_>,
    passable: PyReadonlyArray2<'_, u8>,
    row: usize,
    col: usize,
    connectivity: u8,
) -> PyResult<u64> {
    let conn = self::connectivity(connectivity)?;
    let p = Image::new(&passable, "passable")?.grid("passable")?;
    detach(py, || try_fill_count(&p, (col, row), conn)).map_err(|e| size_error("passable", e))
}

/// The cells of `passable` reachable from `seeds & passable`.
#[pyfunction]
fn fill<'py>(
    py: Python<'py>,
    passable: PyReadonlyArray2<'py, u8>,
    seeds: PyReadonlyArray2<'py, u8>,
    connectivity: u8,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let conn = self::connectivity(connectivity)?;
    let (p, s) = (
        Image::new(&passable, "passable")?,
        Image::new(&seeds, "seeds")?,
    );
    // Packed while the GIL is held (see `Image`); filled without it.
    let (p, s) = (p.grid("passable")?, s.grid("seeds")?);
    let out = detach(py, || -> PyResult<BitGrid> {
        // The fill's run tables are checked and reserved up front (a MemoryError, not an abort).
        try_fill(&s, &p, conn).map_err(|e| size_error("passable", e))
    })?;
    grid_to_array(py, &out)
}

/// Move distances from the nearest source: int32, -1 where unreachable.
#[pyfunction]
fn distance<'py>(
    py: Python<'py>,
    passable: PyReadonlyArray2<'py, u8>,
    sources: PyReadonlyArray2<'py, u8>,
    moves: &str,
) -> PyResult<Bound<'py, PyArray2<i32>>> {
    let m = self::moves(moves)?;
    let (p, s) = (
        Image::new(&passable, "passable")?,
        Image::new(&sources, "sources")?,
    );
    let (w, h) = (p.width, p.height);
    let (p, s) = (p.grid("passable")?, s.grid("sources")?);
    let out = detach(py, || -> PyResult<Vec<i32>> {
        // The map (4 bytes per cell) and its int32 copy are checked and reserved up front.
        let d = try_distance_map(&s, &p, m, None).map_err(|e| size_error("passable", e))?;
        let mut out = filled(w * h, 0i32, "distances")?;
        d.write_i32(&mut out, w)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(out)
    })?;
    array2(py, out, h, w)
}

/// The owner array and the counts of [`voronoi`].
type OwnerArrays<'py> = (Bound<'py, PyArray2<i32>>, Bound<'py, numpy::PyArray1<i64>>);

/// Voronoi territory of the players `1..=players`: `markers[y, x] = k` puts a source of
/// player `k` at `(x, y)` (0: none). Returns `(owner int32, counts int64 [players + 1])`:
/// owner `k` for player k's cells (sources included), 0 unreached, -1 contested.
#[pyfunction]
fn voronoi<'py>(
    py: Python<'py>,
    passable: PyReadonlyArray2<'py, u8>,
    markers: PyReadonlyArray2<'py, i32>,
    players: usize,
    moves: &str,
) -> PyResult<OwnerArrays<'py>> {
    let m = self::moves(moves)?;
    let p = Image::new(&passable, "passable")?;
    let (w, h) = (p.width, p.height);
    check_alloc::<u32>(w * h, "owner array")?;
    let marks = markers.as_slice().map_err(|_| {
        PyValueError::new_err("markers: must be C-contiguous (the Python layer copies it)")
    })?;
    // The inputs are read while the GIL is held (see `Image`).
    let free = p.grid("passable")?;
    let mut sources: Vec<Vec<(usize, usize)>> = vec![Vec::new(); players];
    for (i, &k) in marks.iter().enumerate() {
        if k > 0 {
            sources[k as usize - 1].push((i % w, i / w));
        }
    }
    let (owner, counts) = detach(py, || -> PyResult<(Vec<i32>, Vec<i64>)> {
        let o = try_voronoi_owners(&sources, &free, m, None).map_err(|e| match e {
            GridError::Size(e) => size_error("passable", e),
            e => PyValueError::new_err(format!("sources: {e}")),
        })?;
        let owner: Vec<i32> = o
            .as_slice()
            .iter()
            .map(|&c| match c {
                Owners::CONTESTED => -1,
                Owners::UNREACHED => 0,
                p => p as i32 + 1,
            })
            .collect();
        let mut counts = Vec::with_capacity(players + 1);
        counts.push(0);
        counts.extend(o.counts().iter().map(|&c| c as i64));
        Ok((owner, counts))
    })?;
    Ok((array2(py, owner, h, w)?, counts.into_pyarray(py)))
}

/// The cells reachable in one move by any piece (pieces block each other).
#[pyfunction]
fn reach<'py>(
    py: Python<'py>,
    passable: PyReadonlyArray2<'py, u8>,
    pieces: PyReadonlyArray2<'py, u8>,
    moves: &str,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let m = self::moves(moves)?;
    let (p, s) = (
        Image::new(&passable, "passable")?,
        Image::new(&pieces, "pieces")?,
    );
    let (p, s) = (p.grid("passable")?, s.grid("pieces")?);
    let out = detach(py, || -> PyResult<BitGrid> {
        let open = p & !s.clone();
        Ok(slide::reach(&s, &open, m))
    })?;
    grid_to_array(py, &out)
}

/// Merges provisional labels `1..=total` that touch (`pairs`, shape `(K, 2)`) and numbers
/// the merged sets `1..=n` in order of their smallest provisional label. Returns `(mapping
/// int32 [total + 1], n)` with `mapping[0] = 0`: the chunk-merging step of `gridbits.dask`.
#[pyfunction]
fn merge_labels<'py>(
    py: Python<'py>,
    pairs: PyReadonlyArray2<'py, i64>,
    total: usize,
) -> PyResult<(Bound<'py, numpy::PyArray1<i32>>, u32)> {
    let shape = pairs.shape();
    if shape[1] != 2 && shape[0] != 0 {
        return Err(PyValueError::new_err("pairs: expected shape (K, 2)"));
    }
    let flat = pairs
        .as_slice()
        .map_err(|_| PyValueError::new_err("pairs: must be C-contiguous"))?;
    if total >= i32::MAX as usize {
        return Err(PyValueError::new_err("total: too many labels for int32"));
    }
    let (mapping, n) = detach(py, || -> PyResult<(Vec<i32>, u32)> {
        let pairs = flat.chunks_exact(2).map(|p| {
            // A label past u32 is outside 1..=total whatever total is: 0 stands for it.
            let at = |l: i64| u32::try_from(l).unwrap_or(0);
            (at(p[0]), at(p[1]))
        });
        let bad_pair = |e: gridbits::algo::label::MergeError| match e {
            gridbits::algo::label::MergeError::Size(_) => {
                PyMemoryError::new_err("not enough memory for the labels")
            }
            gridbits::algo::label::MergeError::Unknown(u) => {
                // Name the pair as given, not as narrowed to u32.
                let (a, b) = (flat[2 * u.at], flat[2 * u.at + 1]);
                PyValueError::new_err(format!("pairs: label pair ({a}, {b}) outside 1..={total}"))
            }
            e => PyValueError::new_err(format!("pairs: {e}")),
        };
        let (mapping, n) =
            gridbits::algo::label::merge_labels(pairs, total as u32).map_err(bad_pair)?;
        // total < i32::MAX was checked: every final label fits.
        Ok((mapping.into_iter().map(|l| l as i32).collect(), n))
    })?;
    Ok((mapping.into_pyarray(py), n))
}

/// Rewrites a chunk's local labels in place as final ones: `labels[i] = mapping[labels[i] +
/// offset]` for every nonzero label (the relabelling step of `gridbits.dask`).
#[pyfunction]
fn relabel<'py>(
    py: Python<'py>,
    mut labels: borrow::Rw2<'py, i32>,
    offset: i64,
    mapping: numpy::PyReadonlyArray1<'py, i32>,
) -> PyResult<()> {
    let map = mapping
        .as_slice()
        .map_err(|_| PyValueError::new_err("mapping: must be contiguous"))?;
    let labels = labels
        .as_slice_mut()
        .map_err(|_| PyValueError::new_err("labels: must be C-contiguous"))?;
    detach(py, || {
        let done = gridbits::algo::label::relabel(&mut *labels, offset, map);
        // Labels before the refused one were rewritten; the refused one is as given.
        done.map_err(|e| {
            let l = labels[e.at];
            PyValueError::new_err(format!("labels: {l} + {offset} is past the mapping"))
        })
    })
}

/// The native module.
#[pymodule]
fn _gridbits(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fill, m)?)?;
    m.add_function(wrap_pyfunction!(fill_count, m)?)?;
    m.add_function(wrap_pyfunction!(distance, m)?)?;
    m.add_function(wrap_pyfunction!(voronoi, m)?)?;
    m.add_function(wrap_pyfunction!(reach, m)?)?;
    m.add_function(wrap_pyfunction!(parse_moves, m)?)?;
    m.add_function(wrap_pyfunction!(merge_labels, m)?)?;
    m.add_function(wrap_pyfunction!(relabel, m)?)?;
    cvmorph::register(m)?;
    distance_transform::register(m)?;
    envs::register(m)?;
    label::register(m)?;
    morph::register(m)?;
    morph_bytes::register(m)?;
    measure::register(m)?;
    games::register(m)?;
    skeleton::register(m)?;
    tetris::register(m)?;
    threads::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
