//! Binary morphology (`gridbits.ndimage.binary_*`, `gridbits.morphology.binary_*`): erosion,
//! dilation, opening, closing, propagation, hit-or-miss and hole filling by any footprint.
//!
//! Footprints come as 2D `uint8` arrays (nonzero: set), C-contiguous, with their centre as
//! `(row, col)` in the footprint; the Python layer turns scipy's and scikit-image's `origin`
//! conventions into that centre. Results are `uint8` arrays of 0 and 1, viewed as `bool` by
//! the Python layer.

use crate::{grid_to_array, threads::detach, Image};
use gridbits::algo::morph::{
    fill_holes, hit_or_miss, try_closing_with, try_dilation_with, try_erosion_with,
    try_opening_with, try_propagation, Footprint, Iterations, MorphOptions,
};
use gridbits::BitGrid;
use numpy::{PyArray2, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The footprint of a `uint8` array with its centre at `(row, col)`.
pub(crate) fn footprint(
    array: &PyReadonlyArray2<'_, u8>,
    center: (isize, isize),
    name: &str,
) -> PyResult<Footprint> {
    let shape = array.shape();
    let (h, w) = (shape[0], shape[1]);
    let cells = array
        .as_slice()
        .map_err(|_| PyValueError::new_err(format!("{name}: must be C-contiguous")))?;
    let bits: Vec<bool> = cells.iter().map(|&c| c != 0).collect();
    let fp = Footprint::try_from_cells(w, h, &bits)
        .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
    Ok(fp.with_center(center.1, center.0))
}

/// `iterations` as scipy reads it: below 1, until nothing changes.
fn iterations(n: i64) -> Iterations {
    if n < 1 {
        Iterations::UntilStable
    } else {
        Iterations::Times(n as usize)
    }
}

/// The operation of [`binary_morph`].
#[derive(Clone, Copy)]
enum Op {
    Erosion,
    Dilation,
    Opening,
    Closing,
}

/// The packed input, its footprint and the packed mask, read while the GIL is held (see
/// `Image`).
type Packed = (BitGrid, Footprint, Option<BitGrid>);

/// Packs `input` and `mask` and reads `structure` centred at `center`.
fn packed(
    input: &PyReadonlyArray2<'_, u8>,
    structure: &PyReadonlyArray2<'_, u8>,
    center: (isize, isize),
    mask: Option<&PyReadonlyArray2<'_, u8>>,
) -> PyResult<Packed> {
    let fp = footprint(structure, center, "structure")?;
    let g = Image::new(input, "input")?.grid("input")?;
    let m = match mask {
        Some(m) => Some(Image::new(m, "mask")?.grid("mask")?),
        None => None,
    };
    Ok((g, fp, m))
}

/// Runs `op` on packed inputs without the GIL and unpacks the result.
fn binary_morph<'py>(
    py: Python<'py>,
    op: Op,
    (g, fp, m): Packed,
    border: bool,
    iterations: i64,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let out = detach(py, || -> PyResult<BitGrid> {
        let opts = MorphOptions {
            border,
            iterations: self::iterations(iterations),
            mask: m.as_ref(),
        };
        let r = match op {
            Op::Erosion => try_erosion_with(&g, &fp, &opts),
            Op::Dilation => try_dilation_with(&g, &fp, &opts),
            Op::Opening => try_opening_with(&g, &fp, &opts),
            Op::Closing => try_closing_with(&g, &fp, &opts),
        };
        r.map_err(|e| crate::size_error("input", e))
    })?;
    grid_to_array(py, &out)
}

/// Defines the native function `$name` backing `gridbits.ndimage.$name`: `$op` of `input`
/// by `structure` centred at `center` (row, col), `iterations` times (below 1: until
/// stable), cells off the grid reading `border`, only `mask` changing.
macro_rules! morph_function {
    ($(#[$doc:meta])* $name:ident, $op:expr) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(signature = (input, structure, center, border, iterations, mask=None))]
        fn $name<'py>(
            py: Python<'py>,
            input: PyReadonlyArray2<'py, u8>,
            structure: PyReadonlyArray2<'py, u8>,
            center: (isize, isize),
            border: bool,
            iterations: i64,
            mask: Option<PyReadonlyArray2<'py, u8>>,
        ) -> PyResult<Bound<'py, PyArray2<u8>>> {
            let inputs = packed(&input, &structure, center, mask.as_ref())?;
            binary_morph(py, $op, inputs, border, iterations)
        }
    };
}

morph_function!(
    /// Erosion (see `morph_function!` for the arguments).
    binary_erosion,
    Op::Erosion
);
morph_function!(
    /// Dilation (the structure reflected, as dilation does).
    binary_dilation,
    Op::Dilation
);
morph_function!(
    /// Opening: `iterations` erosions then as many dilations, with the same options.
    binary_opening,
    Op::Opening
);
morph_function!(
    /// Closing: `iterations` dilations then as many erosions, with the same options.
    binary_closing,
    Op::Closing
);

/// Dilation until stable inside `mask` (everywhere without one).
#[pyfunction]
#[pyo3(signature = (input, structure, center, border, mask=None))]
fn binary_propagation<'py>(
    py: Python<'py>,
    input: PyReadonlyArray2<'py, u8>,
    structure: PyReadonlyArray2<'py, u8>,
    center: (isize, isize),
    border: bool,
    mask: Option<PyReadonlyArray2<'py, u8>>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let (g, fp, m) = packed(&input, &structure, center, mask.as_ref())?;
    let out = detach(py, || {
        try_propagation(&g, &fp, m.as_ref(), border).map_err(|e| crate::size_error("input", e))
    })?;
    grid_to_array(py, &out)
}

/// Where `structure1` fits the set cells and `structure2` the empty ones.
#[pyfunction]
fn binary_hit_or_miss<'py>(
    py: Python<'py>,
    input: PyReadonlyArray2<'py, u8>,
    structure1: PyReadonlyArray2<'py, u8>,
    center1: (isize, isize),
    structure2: PyReadonlyArray2<'py, u8>,
    center2: (isize, isize),
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let hit = footprint(&structure1, center1, "structure1")?;
    let miss = footprint(&structure2, center2, "structure2")?;
    let g = Image::new(&input, "input")?.grid("input")?;
    let out = detach(py, || hit_or_miss(&g, &hit, &miss));
    grid_to_array(py, &out)
}

/// `input` with the holes the structure's steps cannot reach from the edges filled.
#[pyfunction]
fn binary_fill_holes<'py>(
    py: Python<'py>,
    input: PyReadonlyArray2<'py, u8>,
    structure: PyReadonlyArray2<'py, u8>,
    center: (isize, isize),
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let fp = footprint(&structure, center, "structure")?;
    let g = Image::new(&input, "input")?.grid("input")?;
    let out = detach(py, || fill_holes(&g, &fp));
    grid_to_array(py, &out)
}

/// Registers the morphology functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(binary_erosion, m)?)?;
    m.add_function(wrap_pyfunction!(binary_dilation, m)?)?;
    m.add_function(wrap_pyfunction!(binary_opening, m)?)?;
    m.add_function(wrap_pyfunction!(binary_closing, m)?)?;
    m.add_function(wrap_pyfunction!(binary_propagation, m)?)?;
    m.add_function(wrap_pyfunction!(binary_hit_or_miss, m)?)?;
    m.add_function(wrap_pyfunction!(binary_fill_holes, m)?)?;
    Ok(())
}
