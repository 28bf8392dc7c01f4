//! Distance transforms on numpy images: `distance_transform_cdt` and `distance_transform_edt`
//! (scipy.ndimage's outputs: int32 chamfer distances, float64 Euclidean distances, int32
//! nearest-background indices) and `distance_transform_cv` (cv2.distanceTransform's float32
//! distances for DIST_L1, DIST_C and DIST_L2 with DIST_MASK_PRECISE). The image must not be
//! empty (the Python layer answers empty shapes itself).

use crate::{array2, detach, reserved, size_error, Image};
use gridbits::algo::distance_transform::{
    chamfer_distances_f32, chamfer_transform, euclidean_distances, euclidean_distances_f32,
    euclidean_transform, opencv_chamfer5_with_labels, opencv_mask5_weights, Neighbourhood,
    Sampling,
};
use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray2, PyArray3, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// `(distances int32 [h, w], nearest int32 [h, w] or None)`: the chamfer transform with the
/// neighbourhood `[up-left, up, up-right, left]`; `nearest` holds row-major indices.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn distance_transform_cdt<'py>(
    py: Python<'py>,
    image: PyReadonlyArray2<'py, u8>,
    steps: [bool; 4],
    with_indices: bool,
) -> PyResult<(Bound<'py, PyArray2<i32>>, Option<Bound<'py, PyArray2<i32>>>)> {
    let img = Image::new(&image, "input")?;
    let (w, h) = (img.width, img.height);
    if (w * h) as u128 > i32::MAX as u128 {
        return Err(PyValueError::new_err(
            "input: more than 2**31 - 1 pixels do not fit int32 indices",
        ));
    }
    let grid = img.grid("input")?;
    let n = Neighbourhood::from_rows([
        [steps[0], steps[1], steps[2]],
        [steps[3], false, false],
        [false; 3],
    ]);
    let t = detach(py, || chamfer_transform(&grid, n, with_indices))
        .map_err(|e| size_error("input", e))?;
    let nearest = t
        .nearest()
        .map(|f| f.iter().map(|&i| i as i32).collect::<Vec<i32>>());
    let d = array2(py, t.into_distances(), h, w)?;
    let f = nearest.map(|f| array2(py, f, h, w)).transpose()?;
    Ok((d, f))
}

/// `(distances float64 [h, w] or None, indices int32 [2, h, w] or None, has_background)`:
/// the exact Euclidean transform with `sampling` `(row, col)`, scipy's values (on an image
/// without background the indices are `-1` rows and `0` columns). The indices are `None`
/// only when not `with_indices` and the image has background.
#[pyfunction]
#[pyo3(signature = (image, sampling, with_distances, with_indices = true))]
#[allow(clippy::type_complexity)]
fn distance_transform_edt<'py>(
    py: Python<'py>,
    image: PyReadonlyArray2<'py, u8>,
    sampling: (f64, f64),
    with_distances: bool,
    with_indices: bool,
) -> PyResult<(
    Option<Bound<'py, PyArray2<f64>>>,
    Option<Bound<'py, PyArray3<i32>>>,
    bool,
)> {
    let img = Image::new(&image, "input")?;
    let (w, h) = (img.width, img.height);
    if w.max(h) as u128 > i32::MAX as u128 {
        return Err(PyValueError::new_err(
            "input: a side of 2**31 pixels or more does not fit int32 indices",
        ));
    }
    let grid = img.grid("input")?;
    let s = Sampling {
        y: sampling.0,
        x: sampling.1,
    };
    if with_distances {
        reserved::<f64>(w * h, "distances")?;
    }
    if with_distances && !with_indices && s == Sampling::default() {
        // Unit spacing, distances alone: the nearest cells' ties do not matter.
        let d = detach(py, || euclidean_distances(&grid)).map_err(|e| size_error("input", e))?;
        if let Some(d) = d {
            return Ok((Some(array2(py, d, h, w)?), None, true));
        }
    }
    let (t, d) = detach(py, || {
        let t = euclidean_transform(&grid, s)?;
        let d = if with_distances {
            Some(t.distances(s)?)
        } else {
            None
        };
        Ok((t, d))
    })
    .map_err(|e: gridbits::SizeError| size_error("input", e))?;
    let background = t.has_background();
    let d = d.map(|d| array2(py, d, h, w)).transpose()?;
    let f = Array3::from_shape_vec((2, h, w), t.into_nearest_planes())
        .map_err(|e| PyValueError::new_err(e.to_string()))?
        .into_pyarray(py);
    Ok((d, Some(f), background))
}

/// float32 `[h, w]`: cv2.distanceTransform's distances, `kind` `"l1"`, `"c"` or `"l2"`
/// (exact Euclidean); `f32::MAX` (`sqrt(f32::MAX)` for `"l2"`) on an image without zero.
#[pyfunction]
fn distance_transform_cv<'py>(
    py: Python<'py>,
    image: PyReadonlyArray2<'py, u8>,
    kind: &str,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let img = Image::new(&image, "src")?;
    let (w, h) = (img.width, img.height);
    let grid = img.grid("src")?;
    reserved::<f32>(w * h, "dst")?;
    let n = match kind {
        "l1" => Some(Neighbourhood::taxicab()),
        "c" => Some(Neighbourhood::chessboard()),
        "l2" => None,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown distance kind {kind:?}"
            )))
        }
    };
    let d = detach(py, || match n {
        Some(n) => chamfer_distances_f32(&grid, n),
        None => euclidean_distances_f32(&grid),
    })
    .map_err(|e| size_error("src", e))?;
    array2(py, d, h, w)
}

/// `(float32 [h, w], int32 [h, w])`: cv2.distanceTransformWithLabels' distances and labels
/// (5 x 5 mask of `kind` `"l1"`, `"c"` or `"l2"`), the background pixels' labels given in
/// `labels` (C-contiguous).
#[pyfunction]
#[allow(clippy::type_complexity)]
fn distance_transform_cv_labels<'py>(
    py: Python<'py>,
    image: PyReadonlyArray2<'py, u8>,
    kind: &str,
    labels: numpy::PyReadonlyArray2<'py, i32>,
) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<i32>>)> {
    let img = Image::new(&image, "src")?;
    let (w, h) = (img.width, img.height);
    let grid = img.grid("src")?;
    let weights = opencv_mask5_weights(kind)
        .ok_or_else(|| PyValueError::new_err(format!("unknown distance kind {kind:?}")))?;
    let given = labels
        .as_slice()
        .map_err(|_| PyValueError::new_err("labels: must be C-contiguous"))?;
    if given.len() != w * h {
        return Err(PyValueError::new_err("labels: one per pixel"));
    }
    let mut out = reserved::<i32>(w * h, "labels")?;
    out.extend_from_slice(given);
    let (d, out) = detach(py, move || {
        opencv_chamfer5_with_labels(&grid, weights, &mut out).map(|d| (d, out))
    })
    .map_err(|e| size_error("src", e))?;
    Ok((array2(py, d, h, w)?, array2(py, out, h, w)?))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(distance_transform_cdt, m)?)?;
    m.add_function(wrap_pyfunction!(distance_transform_edt, m)?)?;
    m.add_function(wrap_pyfunction!(distance_transform_cv, m)?)?;
    m.add_function(wrap_pyfunction!(distance_transform_cv_labels, m)?)?;
    Ok(())
}
