//! The fused path of binary morphology (`gridbits.ndimage.binary_*` and
//! `gridbits.morphology.binary_*` with one repetition and no mask): the byte image is read
//! and the output array written a stripe of rows at a time by
//! [`morph_bytes`](gridbits::algo::morph::morph_bytes), with the GIL released, into an
//! array numpy allocated (or the caller's `output`), with no whole-image grid and no copy.

use crate::borrow::Rw2;
use crate::morph::footprint;
use crate::threads::detach;
use crate::Image;
use gridbits::algo::morph::{morph_bytes, morph_bytes_and_values, ByteOutput, Footprint, Step};
use gridbits::grid::{ByteImage, ByteValues};
use gridbits::ImageError;
use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
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
    out: Rw2<'_, u8>,
    set: u8,
) -> PyResult<()> {
    let call = MorphCall {
        input,
        structure,
        center,
        steps,
    };
    call.run::<false>(py, out, set).map(drop)
}

/// The arguments of [`binary_morph_into`] (and of `cv_morph_into`, in `cvmorph.rs`).
pub(crate) struct MorphCall<'py> {
    pub input: PyReadonlyArray2<'py, u8>,
    pub structure: PyReadonlyArray2<'py, u8>,
    pub center: (isize, isize),
    pub steps: Vec<(bool, bool)>,
}

impl MorphCall<'_> {
    /// The call's steps into `out` with `set` for a set cell; when `CHECK`, the image's
    /// bytes are folded into the returned [`ByteValues`] as they are packed
    /// ([`morph_bytes_and_values`]). An empty image gives `ByteValues::NONE`.
    pub(crate) fn run<const CHECK: bool>(
        &self,
        py: Python<'_>,
        out: Rw2<'_, u8>,
        set: u8,
    ) -> PyResult<ByteValues> {
        self.run_with(py, out, set, |image, fp, steps, dst| {
            if CHECK {
                morph_bytes_and_values(image, fp, steps, dst)
            } else {
                morph_bytes(image, fp, steps, dst).map(|()| ByteValues::NONE)
            }
        })
    }

    /// The arguments checked and converted (the footprint, the image, the steps, the
    /// output with `set` for a set cell), then `work` on them without the GIL. An empty
    /// image gives `ByteValues::NONE` without calling `work`.
    pub(crate) fn run_with(
        &self,
        py: Python<'_>,
        mut out: Rw2<'_, u8>,
        set: u8,
        work: impl FnOnce(
                &ByteImage<'_>,
                &Footprint,
                &[Step],
                ByteOutput<'_>,
            ) -> Result<ByteValues, ImageError>
            + Send,
    ) -> PyResult<ByteValues> {
        let (input, structure, center) = (&self.input, &self.structure, self.center);
        let steps = &self.steps;
        let fp = footprint(structure, center, "structure")?;
        if out.shape() != input.shape() {
            return Err(PyValueError::new_err(format!(
                "output: shape {:?} does not match the input's {:?}",
                out.shape(),
                input.shape()
            )));
        }
        let img = Image::new(input, "input")?;
        if img.width == 0 || img.height == 0 {
            return Ok(ByteValues::NONE);
        }
        let image = ByteImage::try_new(img.bytes, img.width, img.height, img.stride, 0)
            .map_err(|e| PyValueError::new_err(format!("input: {e}")))?;
        let pixels = out
            .as_slice_mut()
            .map_err(|_| PyTypeError::new_err("output: must be a C-contiguous array"))?;
        let steps: Vec<Step> = steps
            .iter()
            .map(|&(erode, border)| {
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
            work(&image, &fp, &steps, dst)
        })
        .map_err(|e| PyValueError::new_err(e.to_string()))
    }
}

/// Registers the fused morphology function.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(binary_morph_into, m)?)?;
    Ok(())
}
