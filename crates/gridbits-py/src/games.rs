//! Games on numpy arrays: Puyo Puyo chains and Game of the Amazons territory, one board or
//! a batch (`(N, rows, cols)` arrays).
//!
//! Puyo fields are `uint8` arrays of `rows x 6`, top row first: 0 empty, 1-5 the colours,
//! 6 garbage; 13 rows for Puyo Puyo Tsu (row 0 is the ghost row), 12 for Smash the Code.
//! Amazons positions are `uint8` arrays of 10 x 10, top row first: 0 empty, 1 a white
//! amazon, 2 a black amazon, 3 an arrow.

use crate::detach;
use crate::reserved;
use gridbits::games::amazons::{Position, Territory};
use gridbits::games::puyo::{Field, Rules};
use gridbits::Board10x10;
use numpy::ndarray::{Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyReadonlyArray3, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Puyo columns.
const COLUMNS: usize = 6;

fn rules(name: &str) -> PyResult<Rules> {
    match name {
        "tsu" => Ok(Rules::Tsu),
        "stc" => Ok(Rules::SmashTheCode),
        _ => Err(PyValueError::new_err(format!(
            "rules must be \"tsu\" or \"stc\", not {name:?}"
        ))),
    }
}

/// How errors name the argument: `"field"` for the one field of `puyo.simulate` (passed as a
/// batch of one), `"fields"` and the field's index for a batch.
fn bad_field(single: bool, i: usize, e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(if single {
        format!("field: bad codes: {e}")
    } else {
        format!("fields: bad codes in field {i}: {e}")
    })
}

/// The cells of a batch `(N, rows, 6)` for `rules` as one C-ordered slice, with `N` and
/// the rows per field; an error names a wrong shape or layout (`single`: see [`bad_field`]).
fn field_cells<'a>(
    fields: &'a PyReadonlyArray3<'_, u8>,
    rules: Rules,
    single: bool,
) -> PyResult<(&'a [u8], usize, usize)> {
    let s = fields.shape();
    let name = if single { "field" } else { "fields" };
    if s[1] != rules.rows() || s[2] != COLUMNS {
        let each = if single { "" } else { "each field " };
        return Err(PyValueError::new_err(format!(
            "{name}: {each}must be {} x {COLUMNS} for these rules, not {} x {}",
            rules.rows(),
            s[1],
            s[2]
        )));
    }
    let cells = fields
        .as_slice()
        .map_err(|_| PyValueError::new_err(format!("{name}: must be C-contiguous")))?;
    Ok((cells, s[0], s[1]))
}

/// The fields of a batch, each settled; an error names the first bad code.
fn parse_fields(
    fields: &PyReadonlyArray3<'_, u8>,
    rules: Rules,
    single: bool,
) -> PyResult<(Vec<Field>, usize)> {
    let (cells, _, rows) = field_cells(fields, rules, single)?;
    let parsed = cells
        .chunks_exact(rows * COLUMNS)
        .enumerate()
        .map(|(i, codes)| {
            let mut f = Field::from_codes(codes, rules).map_err(|e| bad_field(single, i, e))?;
            f.settle();
            Ok(f)
        })
        .collect::<PyResult<_>>()?;
    Ok((parsed, rows))
}

/// One step of a chain: `(cleared, garbage, groups, colors, group_bonus, score)`.
type StepTuple = (u32, u32, u32, u32, u32, u32);

/// One chain: `(chain, score, steps, field after)` for field 0 of `fields` (shape
/// `(1, rows, 6)`), `steps` a list of `(cleared, garbage, groups, colors, group_bonus,
/// score)`; `gridbits.puyo.simulate` makes them a `Chain` of `Step`s.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn puyo_simulate<'py>(
    py: Python<'py>,
    fields: PyReadonlyArray3<'py, u8>,
    rules: &str,
) -> PyResult<(u32, u64, Vec<StepTuple>, Bound<'py, PyArray2<u8>>)> {
    let r = self::rules(rules)?;
    let (parsed, rows) = parse_fields(&fields, r, true)?;
    let f = parsed
        .first()
        .ok_or_else(|| PyValueError::new_err("field: no field"))?;
    let chain = detach(py, || f.simulate());
    let steps = chain
        .steps()
        .iter()
        .map(|s| {
            (
                s.cleared,
                s.garbage,
                s.groups,
                s.colors,
                s.group_bonus,
                s.score,
            )
        })
        .collect();
    let mut after = vec![0u8; rows * COLUMNS];
    chain.field.write_codes(&mut after);
    let a = Array2::from_shape_vec((rows, COLUMNS), after)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((chain.chain, chain.score, steps, a.into_pyarray(py)))
}

/// A field from text with the library's parser ([`Field::parse_bottom`]), as a `uint8` array
/// of `rows x 6` codes (0 empty, 1-5 the colours, 6 garbage), top row first. Fewer lines
/// than the field has are its bottom rows. `ValueError` names the line and column, counted
/// in the text as given.
#[pyfunction]
fn puyo_parse<'py>(py: Python<'py>, text: &str, rules: &str) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let r = self::rules(rules)?;
    let rows = r.rows();
    let field =
        Field::parse_bottom(text, r).map_err(|e| PyValueError::new_err(format!("text: {e}")))?;
    let mut codes = vec![0u8; rows * COLUMNS];
    field.write_codes(&mut codes);
    let a = Array2::from_shape_vec((rows, COLUMNS), codes)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(a.into_pyarray(py))
}

/// A 10 x 10 position from text with the library's parser ([`Position::parse`]: `W`, `B`,
/// `#` or `x`, `.`), as a `uint8` array of codes (0 empty, 1 white, 2 black, 3 arrow), top
/// row first. `ValueError` names the line and column.
#[pyfunction]
fn amazons_parse<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let p = Position::parse(text).map_err(|e| PyValueError::new_err(format!("text: {e}")))?;
    // The library has no code-array writer for a position: one pass over its 100 cells.
    let (w, b, a) = (p.white(), p.black(), p.arrows());
    let codes = Array2::from_shape_fn((10, 10), |(y, x)| {
        u8::from(w.get(x, y)) + 2 * u8::from(b.get(x, y)) + 3 * u8::from(a.get(x, y))
    });
    Ok(codes.into_pyarray(py))
}

/// A batch: `(chain int32 [N], score int64 [N], fields after uint8 [N, rows, 6])`.
///
/// The outputs are reserved first (`MemoryError` if they cannot be); then, without the GIL
/// and on every core, each field's codes are packed into planes straight from the numpy
/// buffer ([`Field::from_codes`]), settled, simulated, and written into the outputs: no
/// per-field object is built.
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
    let (cells, n, rows) = field_cells(&fields, r, false)?;
    let mut chains = reserved(n, "chain counts")?;
    let mut scores = reserved(n, "scores")?;
    let mut after = reserved(cells.len(), "fields after")?;
    let failed = detach(py, || {
        // Zeroed here, without the GIL (every value is then written over).
        chains.resize(n, 0i32);
        scores.resize(n, 0i64);
        after.resize(cells.len(), 0u8);
        simulate_into(cells, r, &mut chains, &mut scores, &mut after)
    });
    if failed {
        return Err(first_bad_field(cells, r));
    }
    let after = Array3::from_shape_vec((n, rows, COLUMNS), after)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((
        chains.into_pyarray(py),
        scores.into_pyarray(py),
        after.into_pyarray(py),
    ))
}

/// Items per rayon task: a field takes about 100 ns.
const FIELDS_PER_TASK: usize = 256;

/// Simulates every field of `cells` into the outputs, on every core; true when some field
/// holds a bad code (the outputs are then partly written).
fn simulate_into(
    cells: &[u8],
    r: Rules,
    chains: &mut [i32],
    scores: &mut [i64],
    after: &mut [u8],
) -> bool {
    use rayon::prelude::*;
    let per = r.rows() * COLUMNS;
    cells
        .par_chunks_exact(per)
        .zip(chains.par_iter_mut())
        .zip(scores.par_iter_mut())
        .zip(after.par_chunks_exact_mut(per))
        .with_min_len(FIELDS_PER_TASK)
        .try_for_each(|(((codes, chain), score), out)| {
            let mut f = Field::from_codes(codes, r).map_err(drop)?;
            f.settle();
            let c = f.simulate();
            *chain = c.chain as i32;
            *score = c.score as i64;
            c.field.write_codes(out);
            Ok::<(), ()>(())
        })
        .is_err()
}

/// The error of the first field of `cells` with a bad code.
fn first_bad_field(cells: &[u8], r: Rules) -> PyErr {
    let per = r.rows() * COLUMNS;
    for (i, codes) in cells.chunks_exact(per).enumerate() {
        if let Err(e) = Field::from_codes(codes, r) {
            return bad_field(false, i, e);
        }
    }
    PyValueError::new_err("fields: a bad code")
}

/// Seconds the plain Rust loop `for f in fields { f.simulate() }` takes over the batch (the
/// fields parsed beforehand): the baseline of `puyo.simulate_many` in the Python benchmark
/// (`crates/gridbits-bench/python/bench.py`).
#[pyfunction]
fn _puyo_rust_loop_seconds(
    py: Python<'_>,
    fields: PyReadonlyArray3<'_, u8>,
    rules: &str,
) -> PyResult<f64> {
    let r = self::rules(rules)?;
    let (parsed, _) = parse_fields(&fields, r, false)?;
    Ok(detach(py, || {
        let start = std::time::Instant::now();
        let mut acc = 0u64;
        for f in &parsed {
            acc = acc.wrapping_add(std::hint::black_box(f).simulate().score);
        }
        std::hint::black_box(acc);
        start.elapsed().as_secs_f64()
    }))
}

/// Seconds the library's batch [`gridbits::games::puyo::simulate_many`] takes over the
/// batch (fields parsed beforehand) on every core: the all-threads baseline of
/// `puyo.simulate_many` in the Python benchmark (`crates/gridbits-bench/python/bench.py`).
#[pyfunction]
fn _puyo_rust_batch_seconds(
    py: Python<'_>,
    fields: PyReadonlyArray3<'_, u8>,
    rules: &str,
) -> PyResult<f64> {
    let r = self::rules(rules)?;
    let (parsed, _) = parse_fields(&fields, r, false)?;
    Ok(detach(py, || {
        let start = std::time::Instant::now();
        let chains = gridbits::games::puyo::simulate_many(std::hint::black_box(&parsed));
        std::hint::black_box(chains);
        start.elapsed().as_secs_f64()
    }))
}

/// The position of a 10 x 10 code array, or the first bad code. Errors name `position`
/// when `single` (the one position of `amazons.evaluate`), else `positions` and the index.
fn position_of(cells: &[u8], index: usize, single: bool) -> PyResult<Position> {
    let at = |what: String| {
        PyValueError::new_err(if single {
            format!("position: {what}")
        } else {
            format!("positions: position {index}: {what}")
        })
    };
    let (mut w, mut b, mut a) = (Board10x10::EMPTY, Board10x10::EMPTY, Board10x10::EMPTY);
    for (i, &c) in cells.iter().enumerate() {
        let (x, y) = (i % 10, i / 10);
        match c {
            0 => {}
            1 => w.set(x, y),
            2 => b.set(x, y),
            3 => a.set(x, y),
            _ => {
                return Err(at(format!(
                    "code {c} at row {y}, column {x} (0 empty, 1 white, 2 black, 3 arrow)"
                )))
            }
        }
    }
    Position::try_new(w, b, a).map_err(|_| at("not a valid position".into()))
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
/// by (white, black, contested, unreachable). `single`: the batch holds the one position of
/// `amazons.evaluate`, and errors name `position`.
#[pyfunction]
#[pyo3(signature = (positions, single = false))]
fn amazons_evaluate_many<'py>(
    py: Python<'py>,
    positions: PyReadonlyArray3<'py, u8>,
    single: bool,
) -> PyResult<Bound<'py, PyArray3<i32>>> {
    let s = positions.shape();
    let name = if single { "position" } else { "positions" };
    if s[1] != 10 || s[2] != 10 {
        let each = if single { "" } else { "each position " };
        return Err(PyValueError::new_err(format!(
            "{name}: {each}must be 10 x 10, not {} x {}",
            s[1], s[2]
        )));
    }
    let n = s[0];
    let cells = positions
        .as_slice()
        .map_err(|_| PyValueError::new_err(format!("{name}: must be C-contiguous")))?;
    let parsed: Vec<Position> = (0..n)
        .map(|i| position_of(&cells[i * 100..(i + 1) * 100], i, single))
        .collect::<PyResult<_>>()?;
    let out = detach(py, || -> PyResult<_> {
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
    m.add_function(wrap_pyfunction!(puyo_parse, m)?)?;
    m.add_function(wrap_pyfunction!(amazons_parse, m)?)?;
    m.add_function(wrap_pyfunction!(_puyo_rust_loop_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(_puyo_rust_batch_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(amazons_evaluate_many, m)?)?;
    Ok(())
}
