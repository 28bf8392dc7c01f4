//! Skeletons on numpy images: `skeletonize` and `thin` (backing `gridbits.morphology`'s
//! drop-ins for scikit-image's functions of those names). The Python layer checks the
//! arguments, handles empty images and views the `uint8` result as `bool`.

use crate::detach;
use crate::{grid_to_array, Image};
use gridbits::algo::skeleton;
use numpy::{PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;

/// The skeleton of `image` (nonzero = set) as 0/1 bytes, as `skimage.morphology.skeletonize`
/// computes it for a 2D image.
#[pyfunction]
fn skeletonize<'py>(
    py: Python<'py>,
    image: PyReadonlyArray2<'py, u8>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    // Packed while the GIL is held (see `Image`); thinned without it.
    let g = Image::new(&image, "image")?.grid("image")?;
    let out = detach(py, || skeleton::skeletonize(&g));
    grid_to_array(py, &out)
}

/// `image` thinned by at most `max_iterations` iterations (`None`: until nothing changes),
/// as 0/1 bytes, as `skimage.morphology.thin` computes it.
#[pyfunction]
#[pyo3(signature = (image, max_iterations=None))]
fn thin<'py>(
    py: Python<'py>,
    image: PyReadonlyArray2<'py, u8>,
    max_iterations: Option<usize>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let g = Image::new(&image, "image")?.grid("image")?;
    let out = detach(py, || skeleton::thin(&g, max_iterations));
    grid_to_array(py, &out)
}

/// Adds the skeleton functions to the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(skeletonize, m)?)?;
    m.add_function(wrap_pyfunction!(thin, m)?)?;
    Ok(())
}
