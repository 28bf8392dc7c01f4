//! Games on numpy arrays: Puyo Puyo chains and Game of the Amazons territory, one board or
//! a batch (`(N, rows, cols)` arrays).
//!
//! Puyo fields are `uint8` arrays of `rows x 6`, top row first: 0 empty, 1-5 the colours,
//! 6 garbage; 13 rows for Puyo Puyo Tsu (row 0 is the ghost row), 12 for Smash the Code.
//! Amazons positions are `uint8` arrays of 10 x 10, top row first: 0 empty, 1 a white
//! amazon, 2 a black amazon, 3 an arrow.

use crate::{filled, reserved};
use gridbits::games::amazons::{Position, Territory};
use gridbits::games::puyo::{Cell, Chain, Field, Rules};
use gridbits::Board10x10;
use numpy::ndarray::{Array1, Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray3, PyReadonlyArray3, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Puyo columns.
const COLUMNS: usize = 6;
/// The Puyo code of garbage.
const GARBAGE: u8 = 6;

fn rules(name: &str) -> PyResult<Rules> {
    match name {
        "tsu" => Ok(Rules::Tsu),
        "stc" => Ok(Rules::SmashTheCode),
        _ => Err(PyValueError::new_err(format!(
            "rules must be \"tsu\" or \"stc\", not {name:?}"
        ))),
    }
}

/// The field of `cells` (`rows * 6` codes, top row first), settled, or the first bad code.
fn field_of(cells: &[u8], rules: Rules, index: usize) -> PyResult<Field> {
    let mut f = Field::new(rules);
    for (i, &c) in cells.iter().enumerate() {
        let cell = match c {
            0 => continue,
            1..=5 => Cell::Color(c - 1),
            GARBAGE => Cell::Garbage,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "fields: code {c} at field {index}, row {}, column {} (0 empty, 1-5 \
                     colours, 6 garbage)",
                    i / COLUMNS,
                    i % COLUMNS
                )))
            }
        };
        f.set(i % COLUMNS, i / COLUMNS, cell);
    }
    f.settle();
    Ok(f)
}

/// The codes of a field, top row first.
fn codes_of(f: &Field, out: &mut [u8]) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = match f.get(i % COLUMNS, i / COLUMNS) {
            Cell::Empty => 0,
            Cell::Color(c) => c + 1,
            Cell::Garbage => GARBAGE,
        };
    }
}

/// The fields of a batch `(N, rows, 6)` for `rules`, each settled, and the rows per field;
/// an error names a wrong shape or the first bad code.
fn parse_fields(fields: &PyReadonlyArray3<'_, u8>, rules: Rules) -> PyResult<(Vec<Field>, usize)> {
    let s = fields.shape();
    if s[1] != rules.rows() || s[2] != COLUMNS {
        return Err(PyValueError::new_err(format!(
            "fields: each field must be {} x {COLUMNS} for these rules, not {} x {}",
            rules.rows(),
            s[1],
            s[2]
        )));
    }
    let cells = fields
        .as_slice()
        .map_err(|_| PyValueError::new_err("fields: must be C-contiguous"))?;
    let per = s[1] * COLUMNS;
    let parsed = (0..s[0])
        .map(|i| field_of(&cells[i * per..(i + 1) * per], rules, i))
        .collect::<PyResult<_>>()?;
    Ok((parsed, s[1]))
}

/// One chain: `{"chain", "score", "steps": [{"cleared", "garbage", "groups", "colors",
/// "group_bonus", "score"}], "field": after}` for field 0 of `fields` (shape `(1, rows, 6)`).
#[pyfunction]
fn puyo_simulate<'py>(
    py: Python<'py>,
    fields: PyReadonlyArray3<'py, u8>,
    rules: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let r = self::rules(rules)?;
    let (parsed, rows) = parse_fields(&fields, r)?;
    let f = parsed
        .first()
        .ok_or_else(|| PyValueError::new_err("fields: no field"))?;
    let chain = py.detach(|| f.simulate());
    let d = PyDict::new(py);
    d.set_item("chain", chain.chain)?;
    d.set_item("score", chain.score)?;
    let steps = pyo3::types::PyList::empty(py);
    for s in chain.steps() {
        let sd = PyDict::new(py);
        sd.set_item("cleared", s.cleared)?;
        sd.set_item("garbage", s.garbage)?;
        sd.set_item("groups", s.groups)?;
        sd.set_item("colors", s.colors)?;
        sd.set_item("group_bonus", s.group_bonus)?;
        sd.set_item("score", s.score)?;
        steps.append(sd)?;
    }
    d.set_item("steps", steps)?;
    let mut after = vec![0u8; rows * COLUMNS];
    codes_of(&chain.field, &mut after);
    let a = Array2::from_shape_vec((rows, COLUMNS), after)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    d.set_item("field", a.into_pyarray(py))?;
    Ok(d)
}

/// A batch: `(chain int32 [N], score int64 [N], fields after uint8 [N, rows, 6])`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn puyo_simulate_many<'py>(
    py: Python<'py>,
    fields: PyReadonlyArray3<'py, u8>,
    rules: &str,
) -> PyResult<(
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray3<u8>>,
)> {
    let r = self::rules(rules)?;
    let (parsed, rows) = parse_fields(&fields, r)?;
    let (n, per) = (parsed.len(), rows * COLUMNS);
    let (chains, scores, after) = py.detach(|| -> PyResult<_> {
        let mut chains = reserved(n, "chains")?;
        let mut scores = reserved(n, "scores")?;
        let mut after = filled(n * per, 0u8, "fields")?;
        let results: Vec<Chain> = simulate_all(&parsed);
        for (c, out) in results.iter().zip(after.chunks_exact_mut(per.max(1))) {
            chains.push(c.chain as i32);
            scores.push(c.score as i64);
            codes_of(&c.field, out);
        }
        Ok((chains, scores, after))
    })?;
    let after = Array3::from_shape_vec((n, rows, COLUMNS), after)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((
        Array1::from(chains).into_pyarray(py),
        Array1::from(scores).into_pyarray(py),
        after.into_pyarray(py),
    ))
}

/// Every field's chain, on every core.
fn simulate_all(fields: &[Field]) -> Vec<Chain> {
    gridbits::games::puyo::simulate_many(fields)
}

/// Seconds the plain Rust loop `for f in fields { f.simulate() }` takes over the batch (the
/// fields parsed beforehand): the baseline of `puyo.simulate_many` in `gridbits.bench`.
#[pyfunction]
fn _puyo_rust_loop_seconds(
    py: Python<'_>,
    fields: PyReadonlyArray3<'_, u8>,
    rules: &str,
) -> PyResult<f64> {
    let r = self::rules(rules)?;
    let (parsed, _) = parse_fields(&fields, r)?;
    Ok(py.detach(|| {
        let start = std::time::Instant::now();
        let mut acc = 0u64;
        for f in &parsed {
            acc = acc.wrapping_add(std::hint::black_box(f).simulate().score);
        }
        std::hint::black_box(acc);
        start.elapsed().as_secs_f64()
    }))
}

/// The position of a 10 x 10 code array, or the first bad code.
fn position_of(cells: &[u8], index: usize) -> PyResult<Position> {
    let (mut w, mut b, mut a) = (Board10x10::EMPTY, Board10x10::EMPTY, Board10x10::EMPTY);
    for (i, &c) in cells.iter().enumerate() {
        let (x, y) = (i % 10, i / 10);
        match c {
            0 => {}
            1 => w.set(x, y),
            2 => b.set(x, y),
            3 => a.set(x, y),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "positions: code {c} at position {index}, row {y}, column {x} (0 empty, \
                     1 white, 2 black, 3 arrow)"
                )))
            }
        }
    }
    Position::new(w, b, a).ok_or_else(|| {
        PyValueError::new_err(format!(
            "positions: position {index} is not a valid position"
        ))
    })
}

fn territory_row(t: &Territory) -> [i32; 4] {
    [
        t.white as i32,
        t.black as i32,
        t.contested as i32,
        t.unreachable as i32,
    ]
}

/// Territory of a batch of positions `(N, 10, 10)`: int32 `[N, 2, 4]`, metric (queen, king)
/// by (white, black, contested, unreachable).
#[pyfunction]
fn amazons_evaluate_many<'py>(
    py: Python<'py>,
    positions: PyReadonlyArray3<'py, u8>,
) -> PyResult<Bound<'py, PyArray3<i32>>> {
    let s = positions.shape();
    if s[1] != 10 || s[2] != 10 {
        return Err(PyValueError::new_err(format!(
            "positions: each position must be 10 x 10, not {} x {}",
            s[1], s[2]
        )));
    }
    let n = s[0];
    let cells = positions
        .as_slice()
        .map_err(|_| PyValueError::new_err("positions: must be C-contiguous"))?;
    let parsed: Vec<Position> = (0..n)
        .map(|i| position_of(&cells[i * 100..(i + 1) * 100], i))
        .collect::<PyResult<_>>()?;
    let out = py.detach(|| -> PyResult<_> {
        let mut out = reserved(n * 8, "territories")?;
        for e in gridbits::games::amazons::evaluate_many(&parsed) {
            out.extend_from_slice(&territory_row(&e.queen));
            out.extend_from_slice(&territory_row(&e.king));
        }
        Ok(out)
    })?;
    let a =
        Array3::from_shape_vec((n, 2, 4), out).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(a.into_pyarray(py))
}

/// Adds the game functions to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(puyo_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(puyo_simulate_many, m)?)?;
    m.add_function(wrap_pyfunction!(_puyo_rust_loop_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(amazons_evaluate_many, m)?)?;
    Ok(())
}
