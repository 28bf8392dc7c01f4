//! Games on numpy arrays: Puyo Puyo chains and Game of the Amazons territory, one board or
//! a batch (`(N, rows, cols)` arrays).
//!
//! Puyo fields are `uint8` arrays of `rows x 6`, top row first: 0 empty, 1-5 the colours,
//! 6 garbage; 13 rows for Puyo Puyo Tsu (row 0 is the ghost row), 12 for Smash the Code.
//! Amazons positions are `uint8` arrays of 10 x 10, top row first: 0 empty, 1 a white
//! amazon, 2 a black amazon, 3 an arrow.

use crate::detach;
use crate::reserved;
use gridbits::games::amazons::{Move, Position, Side, Territory};
use gridbits::games::puyo::{Field, Pair, Rules};
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

/// A pair from Python: its text under `rules` (`"RG"` under Tsu, `"12"` under Smash the
/// Code, axis first) or two colour codes 1-5 (axis, child), the codes of a field.
fn pair_of(pair: &Bound<'_, PyAny>, rules: Rules) -> PyResult<Pair> {
    if let Ok(text) = pair.extract::<String>() {
        return Pair::parse(&text, rules).map_err(|e| PyValueError::new_err(format!("pair: {e}")));
    }
    let codes: Vec<i64> = pair.extract().map_err(|_| {
        PyValueError::new_err("pair: expected its text (\"RG\") or two colour codes 1-5")
    })?;
    match codes[..] {
        [axis, child] if (1..=5).contains(&axis) && (1..=5).contains(&child) => {
            Ok(Pair::new(axis as u8 - 1, child as u8 - 1))
        }
        _ => Err(PyValueError::new_err(format!(
            "pair: expected two colour codes 1-5 (axis, child), got {codes:?}"
        ))),
    }
}

/// Every placement of a pair (its text or two colour codes 1-5) on field 0 of `field` (shape
/// `(1, rows, 6)`, settled first), in the library's order (column, then rotation; a
/// one-colour pair lists each field once): `(column uint8 [n], rotation uint8 [n], dropped
/// uint8 [n, rows, 6] (right after the pair fell), chain int32 [n], score int64 [n],
/// settled uint8 [n, rows, 6] (after the chain))`. `gridbits.puyo.placements` names them.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn puyo_placements<'py>(
    py: Python<'py>,
    field: PyReadonlyArray3<'py, u8>,
    pair: &Bound<'py, PyAny>,
    rules: &str,
) -> PyResult<(
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray3<u8>>,
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray3<u8>>,
)> {
    let r = self::rules(rules)?;
    let (parsed, rows) = parse_fields(&field, r, true)?;
    let f = parsed
        .first()
        .ok_or_else(|| PyValueError::new_err("field: no field"))?;
    let pair = pair_of(pair, r)?;
    let placed = detach(py, || f.placements(pair));
    let n = placed.len();
    let cells = rows * COLUMNS;
    let (mut dropped, mut settled) = (vec![0u8; n * cells], vec![0u8; n * cells]);
    for (i, p) in placed.iter().enumerate() {
        p.field_after
            .write_codes(&mut dropped[i * cells..(i + 1) * cells]);
        p.chain
            .field
            .write_codes(&mut settled[i * cells..(i + 1) * cells]);
    }
    let batch = |v: Vec<u8>| {
        Array3::from_shape_vec((n, rows, COLUMNS), v)
            .map(|a| a.into_pyarray(py))
            .map_err(|e| PyValueError::new_err(e.to_string()))
    };
    let column: Vec<u8> = placed.iter().map(|p| p.column as u8).collect();
    let rotation: Vec<u8> = placed.iter().map(|p| p.rotation).collect();
    let chain: Vec<i32> = placed.iter().map(|p| p.chain.chain as i32).collect();
    let score: Vec<i64> = placed.iter().map(|p| p.chain.score as i64).collect();
    Ok((
        column.into_pyarray(py),
        rotation.into_pyarray(py),
        batch(dropped)?,
        chain.into_pyarray(py),
        score.into_pyarray(py),
        batch(settled)?,
    ))
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
    Ok(position_codes(&p).into_pyarray(py))
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

/// The side to move from Python: `"white"`/`"w"` or `"black"`/`"b"`, any case.
fn side(name: &str) -> PyResult<Side> {
    match name.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Side::White),
        "black" | "b" => Ok(Side::Black),
        _ => Err(PyValueError::new_err(format!(
            "side must be \"white\" or \"black\", not {name:?}"
        ))),
    }
}

/// The one position of a `(1, 10, 10)` code array (the Python layer adds the batch axis).
fn single_position(position: &PyReadonlyArray3<'_, u8>) -> PyResult<Position> {
    let s = position.shape();
    if s != [1, 10, 10] {
        return Err(PyValueError::new_err(format!(
            "position: must be 10 x 10, not {} x {}",
            s[1], s[2]
        )));
    }
    let cells = position
        .as_slice()
        .map_err(|_| PyValueError::new_err("position: must be C-contiguous"))?;
    position_of(cells, 0, true)
}

/// A position as a `uint8` code array, top row first (the inverse of [`position_of`]; the
/// library has no code-array writer for a position: one pass over its 100 cells).
fn position_codes(p: &Position) -> Array2<u8> {
    let (w, b, a) = (p.white(), p.black(), p.arrows());
    Array2::from_shape_fn((10, 10), |(y, x)| {
        u8::from(w.get(x, y)) + 2 * u8::from(b.get(x, y)) + 3 * u8::from(a.get(x, y))
    })
}

/// A move from Python: its notation (`"d1-d7/g7"`) or three `(row, col)` squares (from, to,
/// arrow). A square off the board is refused here, by name.
fn move_of(mv: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(text) = mv.extract::<String>() {
        return text
            .parse::<Move>()
            .map_err(|e| PyValueError::new_err(format!("move: {e}")));
    }
    let expected = || {
        PyValueError::new_err(
            "move: expected notation such as \"d1-d7/g7\" or three (row, col) squares (from, to, arrow)",
        )
    };
    // Lists and tuples alike (a row of `amazons.moves` arrives as nested lists).
    let squares: Vec<Vec<i64>> = mv.extract().map_err(|_| expected())?;
    let squares: Vec<(i64, i64)> = squares
        .into_iter()
        .map(|sq| match sq[..] {
            [row, col] => Ok((row, col)),
            _ => Err(expected()),
        })
        .collect::<PyResult<_>>()?;
    let [from, to, arrow]: [(i64, i64); 3] = squares.try_into().map_err(|v: Vec<_>| {
        PyValueError::new_err(format!(
            "move: expected three (row, col) squares (from, to, arrow), got {}",
            v.len()
        ))
    })?;
    let square = |(row, col): (i64, i64)| match (u8::try_from(col), u8::try_from(row)) {
        (Ok(x), Ok(y)) if x < 10 && y < 10 => Ok((x, y)),
        _ => Err(PyValueError::new_err(format!(
            "move: square ({row}, {col}) is off the 10 x 10 board"
        ))),
    };
    Ok(Move {
        from: square(from)?,
        to: square(to)?,
        arrow: square(arrow)?,
    })
}

/// Every legal move of `side`: `uint8 [n, 3, 2]`, each move's from, to and arrow squares as
/// `(row, col)`, in the library's order.
#[pyfunction]
fn amazons_moves<'py>(
    py: Python<'py>,
    position: PyReadonlyArray3<'py, u8>,
    side: &str,
) -> PyResult<Bound<'py, PyArray3<u8>>> {
    let (p, side) = (single_position(&position)?, self::side(side)?);
    let flat = detach(py, || -> PyResult<Vec<u8>> {
        let n = usize::try_from(p.count_moves(side)).unwrap_or(usize::MAX);
        let mut out = reserved(n.saturating_mul(6), "moves")?;
        p.for_each_move(side, |m| {
            for (x, y) in [m.from, m.to, m.arrow] {
                out.extend_from_slice(&[y, x]);
            }
        });
        Ok(out)
    })?;
    let n = flat.len() / 6;
    let a = Array3::from_shape_vec((n, 3, 2), flat)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(a.into_pyarray(py))
}

/// The position after `side` plays `mv` (notation or three `(row, col)` squares), as a new
/// code array; `ValueError` names the rule an illegal move breaks.
#[pyfunction]
fn amazons_play<'py>(
    py: Python<'py>,
    position: PyReadonlyArray3<'py, u8>,
    side: &str,
    mv: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let (p, side, mv) = (single_position(&position)?, self::side(side)?, move_of(mv)?);
    let next = p
        .try_play(side, mv)
        .map_err(|e| PyValueError::new_err(format!("move: {e}")))?;
    Ok(position_codes(&next).into_pyarray(py))
}

/// The number of move sequences of `depth` plies from the position, `side` to move first
/// (perft), without the GIL.
#[pyfunction]
fn amazons_perft(
    py: Python<'_>,
    position: PyReadonlyArray3<'_, u8>,
    side: &str,
    depth: u32,
) -> PyResult<u64> {
    let (p, side) = (single_position(&position)?, self::side(side)?);
    Ok(detach(py, || p.perft(side, depth)))
}

/// Adds the game functions to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(puyo_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(puyo_simulate_many, m)?)?;
    m.add_function(wrap_pyfunction!(puyo_parse, m)?)?;
    m.add_function(wrap_pyfunction!(puyo_placements, m)?)?;
    m.add_function(wrap_pyfunction!(amazons_parse, m)?)?;
    m.add_function(wrap_pyfunction!(_puyo_rust_loop_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(_puyo_rust_batch_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(amazons_evaluate_many, m)?)?;
    m.add_function(wrap_pyfunction!(amazons_moves, m)?)?;
    m.add_function(wrap_pyfunction!(amazons_play, m)?)?;
    m.add_function(wrap_pyfunction!(amazons_perft, m)?)?;
    Ok(())
}
