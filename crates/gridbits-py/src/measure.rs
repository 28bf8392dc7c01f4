//! Region labelling and properties for `gridbits.measure` (skimage's `label` and
//! `regionprops_table`): `measure_label` labels a value image by class, the `measure_*`
//! functions below it run one pass of `gridbits::algo::measure` over a label image each and
//! return one numpy array per property, `result[label - 1]` for every label up to the
//! largest. Label images come as C-contiguous 2D arrays of any integer type, read in place
//! (negative labels are background, as skimage and scipy ignore them); coordinates are
//! turned into `(row, col)` here.

use crate::detach;
use crate::recycle;
use crate::{array2, connectivity, reserved, size_error};
use gridbits::algo::label::{ValueLabeller, ValueRoute};
use gridbits::algo::measure::{
    filled_area, intensity_stats, perimeters_and_euler_numbers, region_boxes, regions, Region,
};
use numpy::ndarray::{Array1, Array3};
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArray3, PyReadonlyArray1, PyReadonlyArray2,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// A C-contiguous label image of any integer type (negative labels are background).
enum LabelArray<'py> {
    U8(PyReadonlyArray2<'py, u8>),
    U16(PyReadonlyArray2<'py, u16>),
    U32(PyReadonlyArray2<'py, u32>),
    U64(PyReadonlyArray2<'py, u64>),
    I8(PyReadonlyArray2<'py, i8>),
    I16(PyReadonlyArray2<'py, i16>),
    I32(PyReadonlyArray2<'py, i32>),
    I64(PyReadonlyArray2<'py, i64>),
}

/// `$body` with `$a` bound to the array of each variant of a [`LabelArray`].
macro_rules! each_label_type {
    ($labels:expr, |$a:ident| $body:expr) => {
        match $labels {
            LabelArray::U8($a) => $body,
            LabelArray::U16($a) => $body,
            LabelArray::U32($a) => $body,
            LabelArray::U64($a) => $body,
            LabelArray::I8($a) => $body,
            LabelArray::I16($a) => $body,
            LabelArray::I32($a) => $body,
            LabelArray::I64($a) => $body,
        }
    };
}

impl<'py> LabelArray<'py> {
    fn new(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        macro_rules! try_type {
            ($($variant:ident: $t:ty),*) => {
                $(if let Ok(a) = obj.extract::<PyReadonlyArray2<'py, $t>>() {
                    return Ok(LabelArray::$variant(a));
                })*
            };
        }
        try_type!(U8: u8, U16: u16, U32: u32, U64: u64, I8: i8, I16: i16, I32: i32, I64: i64);
        Err(PyTypeError::new_err(
            "label_image: expected a 2D array of integers",
        ))
    }

    /// `(height, width)`.
    fn shape(&self) -> (usize, usize) {
        let s = each_label_type!(self, |a| a.shape());
        (s[0], s[1])
    }
}

/// Runs `$body` on the labels' slice (`$s`, of the array's type) and size without the GIL.
macro_rules! on_labels {
    ($py:expr, $labels:expr, |$s:ident, $w:ident, $h:ident| $body:expr) => {{
        let (h, w) = $labels.shape();
        each_label_type!(&$labels, |a| {
            let s = slice(a.as_slice())?;
            detach($py, || {
                let ($s, $w, $h) = (s, w, h);
                $body
            })
        })
    }};
}

/// A contiguous array's elements, or the error of one that is not contiguous.
fn slice<T>(s: Result<&[T], numpy::AsSliceError>) -> PyResult<&[T]> {
    s.map_err(|_| PyValueError::new_err("label_image: must be C-contiguous"))
}

/// Images up to this many cells keep the value labeller's working memory (run masks and
/// union-find, a few bytes per cell; after an image of one class labelled as a binary
/// image, its `u32` labels, 4 bytes per cell) for the next call of the same thread.
const KEEP_LABELLER_CELLS: usize = 1 << 25;

thread_local! {
    static VALUE_LABELLER: std::cell::RefCell<ValueLabeller> =
        std::cell::RefCell::new(ValueLabeller::new());
}

/// Labels `values` into `out` with this thread's value labeller (a fresh one for a
/// re-entrant call), freed after an image of more than [`KEEP_LABELLER_CELLS`] cells.
fn label_values_with<T: Copy + PartialEq + Send + Sync + 'static>(
    values: &[T],
    (w, h): (usize, usize),
    background: Option<T>,
    conn: gridbits::Connectivity,
    route: ValueRoute,
    out: &mut [std::mem::MaybeUninit<i64>],
) -> Result<u32, gridbits::SizeError> {
    VALUE_LABELLER.with(|l| {
        let Ok(mut guard) = l.try_borrow_mut() else {
            return ValueLabeller::new()
                .with_route(route)
                .label_uninit(values, w, h, background, conn, out);
        };
        *guard = std::mem::take(&mut *guard).with_route(route);
        let r = guard.label_uninit(values, w, h, background, conn, out);
        if w * h > KEEP_LABELLER_CELLS {
            *guard = ValueLabeller::new();
        }
        r
    })
}

/// `(labels int64, n)`: the value image (a C-contiguous 2D array of any integer type)
/// labelled by class (cells join neighbours of equal value), cells equal to `background`
/// label 0 (a background the type cannot hold, or `None`: no cell is background),
/// components in raster order. The labels are written once, into the buffer of an earlier
/// result numpy freed when one of the size is spare ([`recycle`]). `route` forces the
/// labeller's route (`"auto"`, `"rows"`, `"pairs"`, `"binary"`: for the benchmarks; every
/// route gives the same labels).
#[pyfunction]
#[pyo3(signature = (image, background, connectivity, route = "auto"))]
fn measure_label<'py>(
    py: Python<'py>,
    image: &Bound<'py, PyAny>,
    background: Option<i64>,
    connectivity: u8,
    route: &str,
) -> PyResult<(Bound<'py, PyArray2<i64>>, u32)> {
    let conn = self::connectivity(connectivity)?;
    let route = match route {
        "auto" => ValueRoute::Auto,
        "rows" => ValueRoute::Rows,
        "pairs" => ValueRoute::Pairs,
        "binary" => ValueRoute::Binary,
        _ => {
            return Err(PyValueError::new_err(
                "route: expected 'auto', 'rows', 'pairs' or 'binary'",
            ))
        }
    };
    let image = LabelArray::new(image)
        .map_err(|_| PyTypeError::new_err("label_image: expected a 2D array of integers"))?;
    let (h, w) = image.shape();
    let cells = w * h;
    let mut buffer = match recycle::take(cells) {
        Some(v) => v,
        None => {
            let mut v = reserved::<i64>(cells, "label image")?;
            v.clear();
            v
        }
    };
    let recycled = !buffer.is_empty();
    // Either the recycled labels (initialised, overwritten) or the fresh capacity.
    let out: &mut [std::mem::MaybeUninit<i64>] = if recycled {
        // SAFETY: `MaybeUninit<i64>` has the layout of `i64`, and the labeller writes only
        // initialised values, so the buffer stays initialised.
        unsafe { &mut *(&mut buffer[..] as *mut [i64] as *mut [std::mem::MaybeUninit<i64>]) }
    } else {
        &mut buffer.spare_capacity_mut()[..cells]
    };
    let n = each_label_type!(&image, |a| {
        let s = slice(a.as_slice())?;
        // A background the image's type cannot hold equals no cell (the macro binds one
        // type per arm; for `int64` the conversion is the identity).
        #[allow(clippy::useless_conversion)]
        let bg = background.and_then(|b| b.try_into().ok());
        detach(py, || label_values_with(s, (w, h), bg, conn, route, out))
    })
    .map_err(|e| size_error("label_image", e))?;
    if !recycled {
        // SAFETY: `label_uninit` returned Ok: it wrote the first `cells` values of the
        // capacity (`reserved` made room for `cells`).
        unsafe { buffer.set_len(cells) };
    }
    Ok((recycle::array2(py, buffer, h, w)?, n))
}

/// `(area, bbox, centroid, moments, moments_central)`: int64 `(L,)`, int64 `(L, 4)` as
/// `(min_row, min_col, max_row + 1, max_col + 1)`, float64 `(L, 2)` as `(row, col)`, and with
/// `moments` the float64 `(L, 4, 4)` raw moments about the box corner and central moments,
/// indexed `[row order][col order]` as skimage indexes them (else `None`).
#[allow(clippy::type_complexity)]
#[pyfunction]
fn measure_regions<'py>(
    py: Python<'py>,
    label_image: &Bound<'py, PyAny>,
    moments: bool,
) -> PyResult<(
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray2<f64>>,
    Option<Bound<'py, PyArray3<f64>>>,
    Option<Bound<'py, PyArray3<f64>>>,
)> {
    let labels = LabelArray::new(label_image)?;
    if !moments {
        let r = on_labels!(py, labels, |s, w, h| region_boxes(s, w, h))
            .map_err(|e| size_error("label_image", e))?;
        let (area, bbox, centroid) =
            basic_arrays(py, r.iter().map(|g| (g.area, g.bbox(), g.centroid())))?;
        return Ok((area, bbox, centroid, None, None));
    }
    let r: Vec<Region> = on_labels!(py, labels, |s, w, h| regions(s, w, h, true))
        .map_err(|e| size_error("label_image", e))?;
    let n = r.len();
    let (area, bbox, centroid) =
        basic_arrays(py, r.iter().map(|g| (g.area, g.bbox(), g.centroid())))?;
    let mut raw = reserved::<f64>(16 * n, "moments")?;
    let mut central = reserved::<f64>(16 * n, "central moments")?;
    for g in &r {
        let mu = g.central();
        // Transposed: skimage indexes [row order][col order], the library [x][y].
        for i in 0..4 {
            raw.extend(g.raw.iter().map(|col| col[i] as f64));
            central.extend(mu.iter().map(|col| col[i]));
        }
    }
    let shape = |v: Vec<f64>| {
        Array3::from_shape_vec((n, 4, 4), v)
            .map(|a| a.into_pyarray(py))
            .map_err(|e| PyValueError::new_err(e.to_string()))
    };
    Ok((
        area,
        bbox,
        centroid,
        Some(shape(raw)?),
        Some(shape(central)?),
    ))
}

/// The area, box and centroid arrays of [`measure_regions`] from `(area, (x0, y0, x1, y1),
/// (cx, cy))` per label, built once.
#[allow(clippy::type_complexity)]
fn basic_arrays<'py>(
    py: Python<'py>,
    regions: impl ExactSizeIterator<Item = (u64, (usize, usize, usize, usize), (f64, f64))>,
) -> PyResult<(
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray2<f64>>,
)> {
    let n = regions.len();
    let mut area = reserved::<i64>(n, "areas")?;
    let mut bbox = reserved::<i64>(4 * n, "boxes")?;
    let mut centroid = reserved::<f64>(2 * n, "centroids")?;
    for (a, (x0, y0, x1, y1), (cx, cy)) in regions {
        area.push(a as i64);
        bbox.extend([y0 as i64, x0 as i64, y1 as i64, x1 as i64]);
        centroid.extend([cy, cx]);
    }
    Ok((
        Array1::from_vec(area).into_pyarray(py),
        array2(py, bbox, n, 4)?,
        array2(py, centroid, n, 2)?,
    ))
}

/// `(perimeter, euler)`: skimage's `perimeter(region, 4)` of every region (float64 `(L,)`)
/// and its Euler number, its cells joined under `connectivity` (int64 `(L,)`), from one
/// pass of label compares.
#[allow(clippy::type_complexity)]
#[pyfunction]
fn measure_topology<'py>(
    py: Python<'py>,
    label_image: &Bound<'py, PyAny>,
    connectivity: u8,
) -> PyResult<(Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<i64>>)> {
    let conn = self::connectivity(connectivity)?;
    let labels = LabelArray::new(label_image)?;
    let (p, e) = on_labels!(py, labels, |s, w, h| perimeters_and_euler_numbers(
        s, w, h, conn
    ))
    .map_err(|e| size_error("label_image", e))?;
    Ok((
        Array1::from_iter(p.iter().map(|c| c.perimeter())).into_pyarray(py),
        Array1::from_vec(e).into_pyarray(py),
    ))
}

/// The area with its holes filled of the regions of labels `label` (int64 `(n,)`), of
/// areas `area` (int64 `(n,)`) and boxes `bbox` (int64 `(n, 4)`, as [`measure_regions`]
/// gives them): int64 `(n,)`.
#[pyfunction]
fn measure_filled_areas<'py>(
    py: Python<'py>,
    label_image: &Bound<'py, PyAny>,
    label: PyReadonlyArray1<'py, i64>,
    area: PyReadonlyArray1<'py, i64>,
    bbox: PyReadonlyArray2<'py, i64>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let labels = LabelArray::new(label_image)?;
    let n = label.len();
    if area.len() != n || bbox.shape() != [n, 4] {
        return Err(PyValueError::new_err(
            "label, area and bbox: expected (n,), (n,) and (n, 4) arrays",
        ));
    }
    let bad = |_| PyValueError::new_err("label, area and bbox: must be C-contiguous");
    let (label, area, bbox) = (
        label.as_slice().map_err(bad)?,
        area.as_slice().map_err(bad)?,
        bbox.as_slice().map_err(bad)?,
    );
    let mut out = reserved::<i64>(n, "filled areas")?;
    let f: Result<(), gridbits::GridError> = on_labels!(py, labels, |s, w, h| {
        for i in 0..n {
            let b = &bbox[4 * i..4 * i + 4];
            let at = |v: i64| usize::try_from(v).unwrap_or(usize::MAX);
            let bx = (at(b[1]), at(b[0]), at(b[3]), at(b[2]));
            let l = u64::try_from(label[i]).unwrap_or(0);
            let a = u64::try_from(area[i]).unwrap_or(0);
            out.push(filled_area(s, w, h, l, a, bx)? as i64);
        }
        Ok(())
    });
    f.map_err(|e| size_error("label_image", e))?;
    Ok(Array1::from_vec(out).into_pyarray(py))
}

/// An intensity image of a type the native pass reads in place (others are converted to
/// `float64` in Python).
enum IntensityArray<'py> {
    U8(PyReadonlyArray2<'py, u8>),
    U16(PyReadonlyArray2<'py, u16>),
    F32(PyReadonlyArray2<'py, f32>),
    F64(PyReadonlyArray2<'py, f64>),
}

/// `(sum, min, max)` of `intensity` (`uint8`, `uint16`, `float32` or `float64`, C-contiguous,
/// the label image's shape) over every region: float64 `(L,)` each (NaN where a region holds
/// a NaN), read in the intensity image's own type.
#[allow(clippy::type_complexity)]
#[pyfunction]
fn measure_intensity<'py>(
    py: Python<'py>,
    label_image: &Bound<'py, PyAny>,
    intensity: &Bound<'py, PyAny>,
) -> PyResult<(
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
)> {
    let labels = LabelArray::new(label_image)?;
    let values = if let Ok(a) = intensity.extract::<PyReadonlyArray2<'py, u8>>() {
        IntensityArray::U8(a)
    } else if let Ok(a) = intensity.extract::<PyReadonlyArray2<'py, u16>>() {
        IntensityArray::U16(a)
    } else if let Ok(a) = intensity.extract::<PyReadonlyArray2<'py, f32>>() {
        IntensityArray::F32(a)
    } else if let Ok(a) = intensity.extract::<PyReadonlyArray2<'py, f64>>() {
        IntensityArray::F64(a)
    } else {
        return Err(PyTypeError::new_err(
            "intensity_image: expected a 2D uint8, uint16, float32 or float64 array",
        ));
    };
    let (h, w) = labels.shape();
    let shape = match &values {
        IntensityArray::U8(a) => a.shape(),
        IntensityArray::U16(a) => a.shape(),
        IntensityArray::F32(a) => a.shape(),
        IntensityArray::F64(a) => a.shape(),
    };
    if shape != [h, w] {
        return Err(PyValueError::new_err(format!(
            "intensity_image: shape {shape:?} does not match the label image's ({h}, {w})"
        )));
    }
    let contiguous = |_| PyValueError::new_err("intensity_image: must be C-contiguous");
    let st = match &values {
        IntensityArray::U8(a) => {
            let v = a.as_slice().map_err(contiguous)?;
            on_labels!(py, labels, |s, w, h| intensity_stats(s, w, h, v))
        }
        IntensityArray::U16(a) => {
            let v = a.as_slice().map_err(contiguous)?;
            on_labels!(py, labels, |s, w, h| intensity_stats(s, w, h, v))
        }
        IntensityArray::F32(a) => {
            let v = a.as_slice().map_err(contiguous)?;
            on_labels!(py, labels, |s, w, h| intensity_stats(s, w, h, v))
        }
        IntensityArray::F64(a) => {
            let v = a.as_slice().map_err(contiguous)?;
            on_labels!(py, labels, |s, w, h| intensity_stats(s, w, h, v))
        }
    }
    .map_err(|e| size_error("intensity_image", e))?;
    Ok((
        Array1::from_iter(st.iter().map(|s| s.sum)).into_pyarray(py),
        Array1::from_iter(st.iter().map(|s| s.min)).into_pyarray(py),
        Array1::from_iter(st.iter().map(|s| s.max)).into_pyarray(py),
    ))
}

/// Adds the measure functions to the native module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(measure_label, m)?)?;
    m.add_function(wrap_pyfunction!(measure_regions, m)?)?;
    m.add_function(wrap_pyfunction!(measure_topology, m)?)?;
    m.add_function(wrap_pyfunction!(measure_filled_areas, m)?)?;
    m.add_function(wrap_pyfunction!(measure_intensity, m)?)?;
    Ok(())
}
