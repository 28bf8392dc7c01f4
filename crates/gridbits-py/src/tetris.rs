//! The Tetris matrix for Python: a 10-column board (up to 64 rows) with placement, line
//! clears, evaluation features and the SRS move generator.
//!
//! The library places a piece at `(x, y)`, x the SRS box's left column and y its top row;
//! Python, like every function of the package, takes and returns `(row, col)`: the methods
//! here take `row, col` and swap them into the library's order, and [`PyPlacement`] gives
//! `row`, `col` and cells as `(row, col)` pairs. This file is the only place Tetris
//! coordinates are converted.

use crate::detach;
use gridbits::games::tetris::{MoveOptions, Piece, Placement, Rotation, Tetris as Matrix};
use numpy::ndarray::{Array2, ArrayView2};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyInt, PyString, PyTuple};

/// Columns of the Python board.
const WIDTH: usize = 10;

fn piece(name: &str) -> PyResult<Piece> {
    let mut chars = name.chars();
    match (chars.next().and_then(Piece::from_char), chars.next()) {
        (Some(p), None) => Ok(p),
        _ => Err(PyValueError::new_err(format!(
            "piece must be one of I O T S Z J L, not {name:?}"
        ))),
    }
}

/// A rotation given as an int 0-3 or one of `0 R 2 L`: `TypeError` for another type
/// (`bool` and `float` included), `ValueError` for another value.
fn rotation(r: &Bound<'_, PyAny>) -> PyResult<Rotation> {
    if let Ok(s) = r.cast::<PyString>() {
        return s
            .to_cow()?
            .parse::<Rotation>()
            .map_err(|e| PyValueError::new_err(format!("rotation: {e}")));
    }
    match int_arg(r, "rotation")? {
        Some(n) => u8::try_from(n)
            .ok()
            .and_then(|n| Rotation::try_from(n).ok()),
        None => None,
    }
    .ok_or_else(|| PyValueError::new_err("rotation must be 0-3 or one of 0 R 2 L"))
}

/// An int argument (Python or numpy integer, not `bool`): its value, `None` when it does
/// not fit in an `i64`; a `TypeError` naming `name` for any other type.
fn int_arg(v: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<i64>> {
    if v.is_instance_of::<PyBool>() || v.cast::<PyInt>().is_err() && !is_numpy_int(v) {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected an int, got {}",
            v.get_type().name()?
        )));
    }
    Ok(v.extract::<i64>().ok())
}

/// A numpy integer scalar (`np.int64(3)`, which is not a Python `int`).
fn is_numpy_int(v: &Bound<'_, PyAny>) -> bool {
    v.hasattr("dtype").unwrap_or(false) && v.hasattr("__index__").unwrap_or(false)
}

/// A cell coordinate argument: its value, or `None` when it lies off every matrix (beyond
/// `i32`, however large the int); `TypeError` for a non-int.
fn coord(v: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<i32>> {
    Ok(int_arg(v, name)?.and_then(|n| i32::try_from(n).ok()))
}

/// A Tetris matrix of 10 columns and `height` rows (40 by default), row 0 at the top.
///
/// Positions are SRS boxes, `(row, col)` as every gridbits function takes cells: `row` the
/// box's top row counted from the top, `col` its left column; rotations are `0`, `R`, `2`,
/// `L` (or 0-3, clockwise from spawn).
#[pyclass(module = "gridbits._gridbits", name = "Tetris", skip_from_py_object)]
#[derive(Clone)]
pub struct PyTetris {
    inner: Matrix<WIDTH>,
}

impl PyTetris {
    /// An empty matrix of `rows` rows, or the error naming the height.
    fn with_rows(rows: usize) -> PyResult<Self> {
        Matrix::<WIDTH>::try_new(rows)
            .map(|inner| PyTetris { inner })
            .map_err(|e| PyValueError::new_err(format!("height: {e}")))
    }

    /// A matrix from a `rows x 10` view, top row first; `filled` tells a filled cell.
    fn from_view<T: Copy>(a: ArrayView2<'_, T>, filled: impl Fn(T) -> bool) -> PyResult<Self> {
        let (rows, columns) = a.dim();
        if columns != WIDTH {
            return Err(PyValueError::new_err(format!(
                "cells: expected {WIDTH} columns, got {columns}"
            )));
        }
        let mut t = Self::with_rows(rows)?;
        for ((y, x), &v) in a.indexed_iter() {
            if filled(v) {
                t.inner.board_mut().set(x, y);
            }
        }
        Ok(t)
    }
}

/// `cells != 0` as a bool array where `cells` is a 2D numpy array (or anything
/// `np.asarray` reads as one) of bool (a nested list, say) or another integer or float dtype; `None` for anything else
/// (strings, objects, other dimensions), which the caller refuses by name.
fn nonzero_mask<'py>(cells: &Bound<'py, PyAny>) -> PyResult<Option<PyReadonlyArray2<'py, bool>>> {
    let np = cells.py().import("numpy")?;
    let Ok(a) = np.getattr("asarray")?.call1((cells,)) else {
        return Ok(None);
    };
    let kind: String = a.getattr("dtype")?.getattr("kind")?.extract()?;
    if !matches!(kind.as_str(), "b" | "i" | "u" | "f")
        || a.getattr("ndim")?.extract::<usize>()? != 2
    {
        return Ok(None);
    }
    let mask = np.getattr("not_equal")?.call1((a, 0))?;
    Ok(mask.extract::<PyReadonlyArray2<'py, bool>>().ok())
}

/// `gridbits.tetris.MoveArrays`, the named tuple `Tetris.moves(..., as_arrays=True)`
/// returns, and `tuple.__new__`, which builds one without running the class's Python-level
/// `__new__`; looked up once.
static MOVE_ARRAYS: PyOnceLock<(Py<PyAny>, Py<PyAny>)> = PyOnceLock::new();

/// The placements as `MoveArrays`: `rotation` (`uint8`, 0-3 clockwise from spawn), `row`
/// and `col` (`int16`, the SRS box), `spin` (`uint8`: 0 none, 1 mini, 2 full) and `cells`
/// (`int16`, `n x 4 x 2` of `(row, col)`), in the order of the list form. Each array is
/// copied once from a Rust buffer into memory numpy owns (no hand-over object per array), and
/// the named tuple is made by `tuple.__new__` (no Python code runs).
fn move_arrays<'py>(py: Python<'py>, moves: &[Placement]) -> PyResult<Bound<'py, PyAny>> {
    let n = moves.len();
    // rotation, spin; row, col, cells.
    let mut small = vec![0u8; 2 * n];
    let mut wide = vec![0i16; 10 * n];
    let (rot, spin) = small.split_at_mut(n);
    let (pos, cells) = wide.split_at_mut(2 * n);
    let (row, col) = pos.split_at_mut(n);
    for (i, (m, c)) in moves.iter().zip(cells.chunks_exact_mut(8)).enumerate() {
        rot[i] = m.rotation.index() as u8;
        spin[i] = m.spin as u8;
        // A box position fits i16: the matrix has at most 64 rows and 10 columns.
        row[i] = m.y as i16;
        col[i] = m.x as i16;
        for (o, (x, y)) in c.chunks_exact_mut(2).zip(m.cells()) {
            o[0] = y as i16;
            o[1] = x as i16;
        }
    }
    let (class, tuple_new) = MOVE_ARRAYS.get_or_try_init(py, || {
        let class = py.import("gridbits.tetris")?.getattr("MoveArrays")?;
        let tuple_new = py
            .import("builtins")?
            .getattr("tuple")?
            .getattr("__new__")?;
        Ok::<_, PyErr>((class.unbind(), tuple_new.unbind()))
    })?;
    let fields = PyTuple::new(
        py,
        [
            PyArray1::from_slice(py, rot).into_any(),
            PyArray1::from_slice(py, row).into_any(),
            PyArray1::from_slice(py, col).into_any(),
            PyArray1::from_slice(py, spin).into_any(),
            PyArray1::from_slice(py, cells)
                .reshape([n, 4, 2])?
                .into_any(),
        ],
    )?;
    tuple_new.bind(py).call1((class.bind(py), fields))
}

/// A position `(row, col)` from Python as the library takes it, `(x, y)`: `None` past
/// `i32`, where no piece fits.
fn cell(row: &Bound<'_, PyAny>, col: &Bound<'_, PyAny>) -> PyResult<Option<(i32, i32)>> {
    let (row, col) = (coord(row, "row")?, coord(col, "col")?);
    Ok(col.zip(row))
}

/// One final placement found by `Tetris.moves`: the piece, its rotation (`"0"`, `"R"`,
/// `"2"`, `"L"`), the SRS box's top row `row` and left column `col` (the arguments of
/// `Tetris.place`), the best T-spin its lock scores (`"none"`, `"mini"`, `"full"`), its four
/// `cells` as `(row, col)` pairs, and `inputs`, a shortest input sequence from spawn (only
/// with `moves(..., inputs=True)`, else `None`). Immutable, comparable and hashable.
#[pyclass(
    module = "gridbits._gridbits",
    name = "Placement",
    frozen,
    eq,
    hash,
    get_all,
    skip_from_py_object
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyPlacement {
    piece: String,
    rotation: String,
    row: i32,
    col: i32,
    spin: String,
    cells: Vec<(i32, i32)>,
    inputs: Option<Vec<String>>,
}

impl PyPlacement {
    fn new(pl: &Placement, inputs: Option<Vec<String>>) -> Self {
        PyPlacement {
            piece: pl.piece.to_string(),
            rotation: pl.rotation.to_string(),
            row: pl.y,
            col: pl.x,
            spin: pl.spin.to_string(),
            cells: pl.cells().iter().map(|&(x, y)| (y, x)).collect(),
            inputs,
        }
    }
}

#[pymethods]
impl PyPlacement {
    fn __repr__(&self) -> String {
        let cells: Vec<String> = self
            .cells
            .iter()
            .map(|(r, c)| format!("({r}, {c})"))
            .collect();
        let inputs = match &self.inputs {
            Some(seq) => format!("{seq:?}"),
            None => "None".into(),
        };
        format!(
            "Placement(piece={:?}, rotation={:?}, row={}, col={}, spin={:?}, cells=[{}], inputs={})",
            self.piece,
            self.rotation,
            self.row,
            self.col,
            self.spin,
            cells.join(", "),
            inputs
        )
        .replace('"', "'")
    }
}

#[pymethods]
impl PyTetris {
    #[new]
    #[pyo3(signature = (height = None))]
    fn new(height: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let height = match height {
            Some(h) => {
                int_arg(h, "height")?.ok_or_else(|| PyValueError::new_err("height: too large"))?
            }
            None => 40,
        };
        let rows = usize::try_from(height)
            .map_err(|_| PyValueError::new_err(format!("height: {height} is negative")))?;
        Self::with_rows(rows)
    }

    /// A matrix from a 2D `uint8` or `bool` array of `rows x 10`, top row first (nonzero =
    /// filled).
    #[staticmethod]
    fn from_array(cells: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(a) = cells.extract::<PyReadonlyArray2<'_, u8>>() {
            Self::from_view(a.as_array(), |v| v != 0)
        } else if let Ok(a) = cells.extract::<PyReadonlyArray2<'_, bool>>() {
            Self::from_view(a.as_array(), |v| v)
        } else if let Some(mask) = nonzero_mask(cells)? {
            Self::from_view(mask.as_array(), |v| v)
        } else {
            let got = match cells.getattr("dtype") {
                Ok(dtype) => format!("dtype {dtype}, {} dimensions", cells.getattr("ndim")?),
                Err(_) => format!("{}", cells.get_type().name()?),
            };
            Err(PyTypeError::new_err(format!(
                "cells: expected a 2D array of bool, integers or floats, got {got}"
            )))
        }
    }

    /// A matrix from text: one line per row, top first, `.` empty, anything else filled.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        text.parse::<Matrix<WIDTH>>()
            .map(|inner| PyTetris { inner })
            .map_err(|e| PyValueError::new_err(format!("text: {e}")))
    }

    /// The cells as a `uint8` array of `height x 10` (1 filled), top row first.
    fn to_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let h = self.inner.height();
        let mut v = vec![0u8; h * WIDTH];
        for (i, c) in v.iter_mut().enumerate() {
            *c = u8::from(self.inner.get(i % WIDTH, i / WIDTH));
        }
        Array2::from_shape_vec((h, WIDTH), v)
            .map(|a| a.into_pyarray(py))
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Tetris(height={})", self.inner.height())
    }

    /// Rows.
    #[getter]
    fn height(&self) -> usize {
        self.inner.height()
    }

    /// A copy.
    fn copy(&self) -> Self {
        self.clone()
    }

    /// Whether the piece fits in `rotation` with its SRS box's top row at `row` and its left
    /// column at `col`.
    fn fits(
        &self,
        piece: &str,
        rotation: &Bound<'_, PyAny>,
        row: &Bound<'_, PyAny>,
        col: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let (piece, rotation) = (self::piece(piece)?, self::rotation(rotation)?);
        Ok(cell(row, col)?.is_some_and(|(x, y)| self.inner.fits(piece, rotation, x, y)))
    }

    /// Locks the piece with its SRS box at `(row, col)` and clears full rows: the number
    /// cleared, or `None` (and nothing changes) where it does not fit.
    fn place(
        &mut self,
        piece: &str,
        rotation: &Bound<'_, PyAny>,
        row: &Bound<'_, PyAny>,
        col: &Bound<'_, PyAny>,
    ) -> PyResult<Option<u32>> {
        let (piece, rotation) = (self::piece(piece)?, self::rotation(rotation)?);
        Ok(cell(row, col)?.and_then(|(x, y)| self.inner.place(piece, rotation, x, y)))
    }

    /// Hard-drops the piece from the top with its SRS box's left column at `col` and locks
    /// it: rows cleared, or `None` where it does not fit.
    fn drop(
        &mut self,
        piece: &str,
        rotation: &Bound<'_, PyAny>,
        col: &Bound<'_, PyAny>,
    ) -> PyResult<Option<u32>> {
        let (piece, rotation) = (self::piece(piece)?, self::rotation(rotation)?);
        let x = coord(col, "col")?;
        Ok(x.and_then(|x| self.inner.drop_and_place(piece, rotation, x)))
    }

    /// Clears full rows; returns how many.
    fn clear_lines(&mut self) -> u32 {
        self.inner.clear_lines()
    }

    /// Column heights, left to right.
    fn heights(&self) -> Vec<u32> {
        self.inner.heights().to_vec()
    }

    /// Empty cells under a filled one.
    fn holes(&self) -> u32 {
        self.inner.holes()
    }

    /// Sum of height differences of neighbouring columns.
    fn bumpiness(&self) -> u32 {
        self.inner.bumpiness()
    }

    /// Every final placement reachable from spawn (left, right, soft drop, SRS rotations
    /// with kicks), each once: a list of `Placement`s, with `inputs` (a shortest input
    /// sequence) when `inputs=True`.
    #[pyo3(signature = (piece, rotate_180 = false, inputs = false, as_arrays = false))]
    fn moves<'py>(
        &self,
        py: Python<'py>,
        piece: &str,
        rotate_180: bool,
        inputs: bool,
        as_arrays: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = self::piece(piece)?;
        let opts = MoveOptions {
            rotate_180,
            ..MoveOptions::default()
        };
        let t = self.inner;
        if as_arrays {
            if inputs {
                return Err(PyValueError::new_err(
                    "inputs=True needs the list form: as_arrays=True has no input sequences",
                ));
            }
            // Under a microsecond of work: releasing the GIL would cost more than it frees.
            return move_arrays(py, &t.moves_with(p, &opts));
        }
        let list: Vec<PyPlacement> = detach(py, || {
            if inputs {
                t.moves_with_inputs(p, &opts)
                    .into_iter()
                    .map(|(pl, seq)| {
                        PyPlacement::new(&pl, Some(seq.iter().map(|i| i.to_string()).collect()))
                    })
                    .collect()
            } else {
                t.moves_with(p, &opts)
                    .into_iter()
                    .map(|pl| PyPlacement::new(&pl, None))
                    .collect()
            }
        });
        list.into_pyobject(py).map(Bound::into_any)
    }

    /// Equal when every cell and the height are equal.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyTetris>()
            .is_ok_and(|o| o.borrow().inner == self.inner)
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Pickling: `Tetris(height)` then `__setstate__` with the cells, one bit each, in
    /// `to_array`'s order.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let t = slf.borrow().inner;
        let (h, w) = (t.height(), WIDTH);
        let mut bits = vec![0u8; (h * w).div_ceil(8)];
        for i in 0..h * w {
            if t.get(i % w, i / w) {
                bits[i / 8] |= 1 << (i % 8);
            }
        }
        (slf.get_type(), (h,), PyBytes::new(py, &bits)).into_pyobject(py)
    }

    fn __setstate__(&mut self, state: &[u8]) -> PyResult<()> {
        let (h, w) = (self.inner.height(), WIDTH);
        if state.len() != (h * w).div_ceil(8) {
            return Err(PyValueError::new_err(format!(
                "state: {} bytes for a {h} x {w} matrix, expected {}",
                state.len(),
                (h * w).div_ceil(8)
            )));
        }
        let mut t = Self::with_rows(h)?;
        for i in 0..h * w {
            if state[i / 8] >> (i % 8) & 1 == 1 {
                t.inner.board_mut().set(i % w, i / w);
            }
        }
        *self = t;
        Ok(())
    }
}

/// Adds the Tetris class to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTetris>()?;
    m.add_class::<PyPlacement>()
}
