//! The fused path of binary morphology (`gridbits.ndimage.binary_*` and
//! `gridbits.morphology.binary_*` with one repetition and no mask): the byte image is read
//! and the output array written a stripe of rows at a time by
//! [`morph_bytes`](gridbits::algo::morph::morph_bytes), with the GIL released, into an
//! array numpy allocated (or the caller's `output`), with no whole-image grid and no copy.

use crate::morph::footprint;
use crate::threads::detach;
use crate::Image;
use gridbits::algo::morph::{morph_bytes, ByteOutput, Step};
use gridbits::grid::ByteImage;
use numpy::{PyReadonlyArray2, PyReadwriteArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// Writes into `out` (a C-contiguous `uint8` array of the input's shape) the result of
/// `steps` on `input` (nonzero: set): each step `(erode, border)` an erosion (`true`) or a
/// dilation by `structure` centred at `center` (row, col), cells off the image reading
/// `border`; `set` for a set cell, 0 for an empty one.
#[pyfunction]
fn binary_morph_into(
    py: Python<'_>,
    input: PyReadonlyArray2<'_, u8>,
    structure: PyReadonlyArray2<'_, u8>,
    center: (isize, isize),
    steps: Vec<(bool, bool)>,
    mut out: PyReadwriteArray2<'_, u8>,
    set: u8,
) -> PyResult<()> {
    let fp = footprint(&structure, center, "structure")?;
    if out.shape() != input.shape() {
        return Err(PyValueError::new_err(format!(
            "output: shape {:?} does not match the input's {:?}",
            out.shape(),
            input.shape()
        )));
    }
    let img = Image::new(&input, "input")?;
    if img.width == 0 || img.height == 0 {
        return Ok(());
    }
    let image = ByteImage::try_new(img.bytes, img.width, img.height, img.stride, 0)
        .map_err(|e| PyValueError::new_err(format!("input: {e}")))?;
    let pixels = out
        .as_slice_mut()
        .map_err(|_| PyTypeError::new_err("output: must be a C-contiguous array"))?;
    let steps: Vec<Step> = steps
        .into_iter()
        .map(|(erode, border)| {
            if erode {
                Step::Erode { border }
            } else {
                Step::Dilate { border }
            }
        })
        .collect();
    let stride = image.width();
    // The input's bytes and the output's are read and written without the GIL, as numpy's
    // own loops do; the borrows of both arrays last the call.
    detach(py, || {
        let dst = ByteOutput {
            pixels,
            stride,
            set,
            empty: 0,
        };
        morph_bytes(&image, &fp, &steps, dst)
    })
    .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Registers the fused morphology function.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(binary_morph_into, m)?)?;
    Ok(())
}
