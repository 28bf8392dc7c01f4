//! Labelling and component statistics on numpy images: `label`, `label_packed`,
//! `connected_components_with_stats` (OpenCV's layout, with the component count `n`: the
//! public function returns `n + 1` as OpenCV does) and `label_stats` (`gridbits.label_stats`'
//! arrays).

use crate::detach;
use crate::{array2, check_alloc, connectivity, reserved, size_error, Image};
use gridbits::algo::label::{ComponentStats, Labeller, Labels};
use gridbits::{BitGrid, Connectivity};
use numpy::ndarray::{s, Array1};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;

/// Components per parallel task when the statistics are laid out as arrays.
const CHUNK: usize = 16 * 1024;

/// The labels as an `int32` array, as numpy users get them, without copying or converting
/// a label: numpy takes over the library's buffer (the image starts inside it at an
/// offset) and views its `u32` as `int32`. Labels never exceed the cell count, far below
/// 2^31 for any array numpy can hold.
fn labels_array(py: Python<'_>, labels: Labels) -> PyResult<Bound<'_, PyArray2<i32>>> {
    let (w, h) = (labels.width(), labels.height());
    let (buffer, offset) = labels.into_raw_parts();
    let a = Array1::from_vec(buffer)
        .slice_move(s![offset..offset + w * h])
        .into_shape_with_order((h, w))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let a = a.into_pyarray(py);
    Ok(a.call_method1("view", (numpy::dtype::<i32>(py),))?
        .cast_into::<PyArray2<i32>>()?)
}

/// Grids up to this many cells keep the labeller's working memory (union-find, runs,
/// stripes, statistics) for the next call of the same thread; larger ones free it.
const KEEP_LABELLER_CELLS: usize = 1 << 25;

/// Per thread: a labeller and a statistics buffer kept between calls, so that labelling
/// many images does not allocate, and page-fault, tens of megabytes of scratch memory per
/// call (on noise the statistics alone are tens of bytes per component).
struct Scratch {
    labeller: Labeller,
    stats: Vec<ComponentStats>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch {
        labeller: Labeller::new(),
        stats: Vec::new(),
    });
}

/// Runs `f` with this thread's labeller and statistics buffer; frees them after a grid of
/// more than [`KEEP_LABELLER_CELLS`] cells.
fn with_scratch<R>(
    cells: usize,
    f: impl FnOnce(&mut Labeller, &mut Vec<ComponentStats>) -> R,
) -> R {
    SCRATCH.with(|s| {
        // A re-entrant call (none today) gets fresh buffers instead of a borrow panic.
        let Ok(mut guard) = s.try_borrow_mut() else {
            return f(&mut Labeller::new(), &mut Vec::new());
        };
        let sc = &mut *guard;
        let r = f(&mut sc.labeller, &mut sc.stats);
        if cells > KEEP_LABELLER_CELLS {
            *sc = Scratch {
                labeller: Labeller::new(),
                stats: Vec::new(),
            };
        }
        r
    })
}

/// The labels of `grid`.
fn label_grid(grid: &BitGrid, conn: Connectivity) -> PyResult<Labels> {
    let mut out = Labels::new();
    with_scratch(grid.width() * grid.height(), |l, _| {
        l.label(grid, conn, &mut out)
    })
    .map_err(|e| size_error("image", e))?;
    Ok(out)
}

/// `(labels int32, n)`: labels in raster order of each component's first pixel.
#[pyfunction]
fn label<'py>(
    py: Python<'py>,
    image: PyReadonlyArray2<'py, u8>,
    connectivity: u8,
) -> PyResult<(Bound<'py, PyArray2<i32>>, u32)> {
    let conn = self::connectivity(connectivity)?;
    let img = Image::new(&image, "image")?;
    check_alloc::<u32>(img.width * img.height, "label image")?;
    // Packed while the GIL is held (see `Image`); labelled without it.
    let grid = img.grid("image")?;
    let labels = detach(py, || label_grid(&grid, conn))?;
    let n = labels.count();
    Ok((labels_array(py, labels)?, n))
}

/// `(labels int32, n)` of an image packed as `numpy.packbits` packs rows (MSB first,
/// `row_bytes` per row): the pixels are never unpacked.
#[pyfunction]
fn label_packed<'py>(
    py: Python<'py>,
    packed: PyReadonlyArray2<'py, u8>,
    width: usize,
    connectivity: u8,
) -> PyResult<(Bound<'py, PyArray2<i32>>, u32)> {
    let conn = self::connectivity(connectivity)?;
    let img = Image::new(&packed, "image")?;
    let grid = image_grid(&img, Some(width))?;
    check_alloc::<u32>(width * img.height, "label image")?;
    let labels = detach(py, || label_grid(&grid, conn))?;
    let n = labels.count();
    Ok((labels_array(py, labels)?, n))
}

/// The grid of `img`: its nonzero bytes, or with `packed_width` rows of that many pixels
/// packed by `np.packbits` (read without unpacking).
fn image_grid(img: &Image<'_>, packed_width: Option<usize>) -> PyResult<BitGrid> {
    let Some(width) = packed_width else {
        return img.grid("image");
    };
    if img.width < width.div_ceil(8) {
        return Err(PyValueError::new_err(format!(
            "image: {} bytes per row cannot hold {width} packed pixels",
            img.width
        )));
    }
    BitGrid::from_packbits(img.bytes, width, img.height, img.stride)
        .map_err(|e| size_error("image", e))
}

/// The labels (when asked for) of the set cells of `grid` and `extra` of the grid and the
/// components' statistics, computed without the GIL.
#[allow(clippy::type_complexity)]
fn labels_and_stats<R: Send>(
    py: Python<'_>,
    grid: BitGrid,
    connectivity: u8,
    with_labels: bool,
    extra: impl FnOnce(&BitGrid, &[ComponentStats]) -> PyResult<R> + Send,
) -> PyResult<(Option<Labels>, R)> {
    let conn = self::connectivity(connectivity)?;
    let cells = grid.width() * grid.height();
    if with_labels {
        check_alloc::<u32>(cells, "label image")?;
    }
    detach(py, || {
        with_scratch(cells, |l, stats| {
            let labels = if with_labels {
                let mut out = Labels::new();
                l.label_with_stats(&grid, conn, &mut out, stats)
                    .map_err(|e| size_error("image", e))?;
                Some(out)
            } else {
                l.stats(&grid, conn, stats)
                    .map_err(|e| size_error("image", e))?;
                None
            };
            Ok((labels, extra(&grid, stats)?))
        })
    })
}

/// Statistics as `cv2.connectedComponentsWithStats` gives them, with the background as row 0:
/// `(n, labels int32 or None, stats int32 [n+1, 5] (x, y, w, h, area), centroids f64 [n+1, 2])`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn connected_components_with_stats<'py>(
    py: Python<'py>,
    image: PyReadonlyArray2<'py, u8>,
    connectivity: u8,
    with_labels: bool,
) -> PyResult<(
    u32,
    Option<Bound<'py, PyArray2<i32>>>,
    Bound<'py, PyArray2<i32>>,
    Bound<'py, PyArray2<f64>>,
)> {
    let img = Image::new(&image, "image")?;
    let (w, h) = (img.width, img.height);
    let (labels, (stats, centroids)) = labels_and_stats(
        py,
        img.grid("image")?,
        connectivity,
        with_labels,
        |grid, comps| {
            // Row 0: the background, as OpenCV reports it.
            let (area, sx, sy) = comps.iter().fold((0u64, 0u64, 0u64), |(a, x, y), c| {
                (a + c.size, x + c.sum_x, y + c.sum_y)
            });
            let total = (w * h) as u64;
            let bg_area = total - area;
            let all_x = (w as u64 * (w as u64).saturating_sub(1) / 2) * h as u64;
            let all_y = (h as u64 * (h as u64).saturating_sub(1) / 2) * w as u64;
            let (bx, by, bw, bh) = background_bbox(grid);
            let background = (
                [bx, by, bw, bh, bg_area as i32],
                if bg_area > 0 {
                    [
                        (all_x - sx) as f64 / bg_area as f64,
                        (all_y - sy) as f64 / bg_area as f64,
                    ]
                } else {
                    [f64::NAN; 2]
                },
                [0u8; 0],
            );
            let (stats, cents, _) = tables(comps, Some(background), |c| {
                let (x, y, cw, ch) = c.bbox();
                let (cx, cy) = c.centroid();
                let st = [x as i32, y as i32, cw as i32, ch as i32, c.size as i32];
                (st, [cx, cy], [])
            })?;
            Ok((stats, cents))
        },
    )?;
    let n = stats.len() / 5 - 1;
    let labels = match labels {
        Some(l) => Some(labels_array(py, l)?),
        None => None,
    };
    Ok((
        n as u32,
        labels,
        array2(py, stats, n + 1, 5)?,
        array2(py, centroids, n + 1, 2)?,
    ))
}

/// The statistics `gridbits.label_stats` returns, each array built here in its final
/// layout: `(n, labels int32 or None, areas int64 [n], bboxes int32 [n, 4] (x, y, w, h),
/// centroids f64 [n, 2])`. With `packed_width`, `image` holds rows packed by `np.packbits`.
#[pyfunction]
#[pyo3(signature = (image, connectivity, with_labels, packed_width = None))]
#[allow(clippy::type_complexity)]
fn label_stats<'py>(
    py: Python<'py>,
    image: PyReadonlyArray2<'py, u8>,
    connectivity: u8,
    with_labels: bool,
    packed_width: Option<usize>,
) -> PyResult<(
    u32,
    Option<Bound<'py, PyArray2<i32>>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<i32>>,
    Bound<'py, PyArray2<f64>>,
)> {
    let img = Image::new(&image, "image")?;
    let grid = image_grid(&img, packed_width)?;
    let (labels, (areas, boxes, cents)) =
        labels_and_stats(py, grid, connectivity, with_labels, |_, comps| {
            let (areas, boxes, cents) = tables(comps, None, |c| {
                let (x, y, cw, ch) = c.bbox();
                let (cx, cy) = c.centroid();
                let b = [x as i32, y as i32, cw as i32, ch as i32];
                ([c.size as i64], b, [cx, cy])
            })?;
            Ok((areas, boxes, cents))
        })?;
    let n = areas.len();
    let labels = match labels {
        Some(l) => Some(labels_array(py, l)?),
        None => None,
    };
    Ok((
        n as u32,
        labels,
        Array1::from_vec(areas).into_pyarray(py),
        array2(py, boxes, n, 4)?,
        array2(py, cents, n, 2)?,
    ))
}

/// Three tables of one row per component (after the row `head` when given), made by
/// `row` on every thread and written straight into fresh memory: no pass zeroes them first.
#[allow(clippy::type_complexity)]
fn tables<A, B, C, const KA: usize, const KB: usize, const KC: usize>(
    comps: &[ComponentStats],
    head: Option<([A; KA], [B; KB], [C; KC])>,
    row: impl Fn(&ComponentStats) -> ([A; KA], [B; KB], [C; KC]) + Sync,
) -> PyResult<(Vec<A>, Vec<B>, Vec<C>)>
where
    A: Copy + Send,
    B: Copy + Send,
    C: Copy + Send,
{
    let skip = usize::from(head.is_some());
    let n = comps.len() + skip;
    let (mut va, mut vb, mut vc) = (
        reserved::<[A; KA]>(n, "statistics")?,
        reserved::<[B; KB]>(n, "statistics")?,
        reserved::<[C; KC]>(n, "statistics")?,
    );
    let (sa, sb, sc) = (
        &mut va.spare_capacity_mut()[..n],
        &mut vb.spare_capacity_mut()[..n],
        &mut vc.spare_capacity_mut()[..n],
    );
    if let Some((a, b, c)) = head {
        sa[0].write(a);
        sb[0].write(b);
        sc[0].write(c);
    }
    let rows = sa[skip..]
        .par_chunks_mut(CHUNK)
        .zip(sb[skip..].par_chunks_mut(CHUNK))
        .zip(sc[skip..].par_chunks_mut(CHUNK));
    comps
        .par_chunks(CHUNK)
        .zip(rows)
        .for_each(|(comps, ((sa, sb), sc))| {
            for (c, ((a, b), d)) in comps.iter().zip(sa.iter_mut().zip(sb).zip(sc)) {
                let (x, y, z) = row(c);
                a.write(x);
                b.write(y);
                d.write(z);
            }
        });
    // SAFETY: the first `n` elements of each were written above: the head, then one row per
    // component (the chunks of `comps` and of the tables pair up one to one, all of
    // `CHUNK` elements but the last, of the same length).
    unsafe {
        va.set_len(n);
        vb.set_len(n);
        vc.set_len(n);
    }
    Ok((
        va.into_flattened(),
        vb.into_flattened(),
        vc.into_flattened(),
    ))
}

/// The bounding box `(x, y, w, h)` of the empty cells of `g`, `(0, 0, 0, 0)` if none.
fn background_bbox(g: &BitGrid) -> (i32, i32, i32, i32) {
    let (w, h) = (g.width(), g.height());
    let mut rows = None::<(usize, usize)>;
    let mut all_set = BitGrid::try_full(w, 1).ok();
    for y in 0..h {
        let row_full = g.row_words(y).iter().map(|w| w.count_ones()).sum::<u32>() as usize == w;
        if !row_full {
            rows = Some(rows.map_or((y, y), |(a, _)| (a, y)));
        }
        if let Some(acc) = all_set.as_mut() {
            for (a, r) in acc.row_words_mut(0).iter_mut().zip(g.row_words(y)) {
                *a &= r;
            }
        }
    }
    let Some((y0, y1)) = rows else {
        return (0, 0, 0, 0);
    };
    let Some(acc) = all_set else {
        return (0, 0, 0, 0);
    };
    let mut cols = None::<(usize, usize)>;
    for x in 0..w {
        if !acc.get(x, 0) {
            cols = Some(cols.map_or((x, x), |(a, _)| (a, x)));
        }
    }
    let (x0, x1) = cols.unwrap_or((0, 0));
    (
        x0 as i32,
        y0 as i32,
        (x1 - x0 + 1) as i32,
        (y1 - y0 + 1) as i32,
    )
}

/// Adds the labelling functions to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(label, m)?)?;
    m.add_function(wrap_pyfunction!(label_packed, m)?)?;
    m.add_function(wrap_pyfunction!(connected_components_with_stats, m)?)?;
    m.add_function(wrap_pyfunction!(label_stats, m)?)?;
    Ok(())
}
