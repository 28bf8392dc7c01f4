//! Morphology from a byte image straight into a byte image: [`morph_bytes`], the fused path
//! of the Python drop-ins; [`morph_bytes_and_values`], the same with the image's values
//! checked while its bytes are packed (OpenCV's drop-ins), and
//! [`morph_bytes_gradient_and_values`], the morphological gradient.
//!
//! Packing a whole image to bits, running each step on whole grids and unpacking the result
//! reads and writes every grid several times and allocates each one. Here the image goes
//! through in stripes of rows: a stripe's input rows, with a halo as tall as the steps
//! reach, are packed into a small grid that stays in the cache, the steps run on it, and
//! the stripe's rows of the result are unpacked straight into the output. Each input byte
//! is read about once and each output byte written once; an opening or a closing is two
//! steps on the same stripe.
//!
//! A step on a stripe reads cells past the stripe's top and bottom as the border value
//! where the stripe does not reach the image's edge; those wrong cells stay within the
//! step's reach of the stripe's edge, so after all the steps they lie in the halo, which is
//! not written out. Rows are whole, so columns need no halo.

use super::binary::once;
use super::footprint::Footprint;
use super::near_runs::{self, Plan};
use super::rect_rows::{self, Rect};
use super::three_rows::{self, Window};
use crate::grid::{ByteImage, ByteValues};
use crate::{BitGrid, ImageError};

/// One step of [`morph_bytes`]: an erosion or a dilation, and the value cells off the
/// image read as during it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Erosion ([`erosion_with`](super::erosion_with)) with this border value.
    Erode {
        /// The value of cells off the image.
        border: bool,
    },
    /// Dilation ([`dilation_with`](super::dilation_with)) with this border value.
    Dilate {
        /// The value of cells off the image.
        border: bool,
    },
}

impl Step {
    /// The steps of an opening (erosion then dilation) with scipy's default border.
    pub const OPENING: [Step; 2] = [
        Step::Erode { border: false },
        Step::Dilate { border: false },
    ];
    /// The steps of a closing (dilation then erosion) with scipy's default border.
    pub const CLOSING: [Step; 2] = [
        Step::Dilate { border: false },
        Step::Erode { border: false },
    ];
}

/// Where [`morph_bytes`] writes: `stride` bytes from a row to the next, `set` for a set
/// cell and `empty` for an empty one (`1, 0` for numpy's `bool`, `255, 0` for OpenCV's
/// masks). Bytes between rows are left as they are.
#[derive(Debug)]
pub struct ByteOutput<'a> {
    /// The bytes of the output image (row `y` starts at `y * stride`).
    pub pixels: &'a mut [u8],
    /// Bytes from the start of a row to the start of the next (at least the width).
    pub stride: usize,
    /// The byte of a set cell.
    pub set: u8,
    /// The byte of an empty cell.
    pub empty: u8,
}

/// The rows above and below a cell that one step by `fp` reads: the footprint's rows on
/// either side of its centre (the reflection, for dilation, swaps them; the larger serves
/// both).
fn reach(fp: &Footprint) -> usize {
    let cy = fp.center().1;
    let top = cy.unsigned_abs();
    let bottom = (fp.height() as isize - 1 - cy).unsigned_abs();
    top.max(bottom)
}

/// The output rows of one stripe: enough that the halo costs little, few enough that the
/// stripe's grids stay in the cache.
fn stripe_rows(halo: usize, words_per_row: usize) -> usize {
    // About 64 KiB of words per stripe grid, and at least four times the halo.
    let by_cache = (8192 / words_per_row.max(1)).max(16);
    by_cache.max(4 * halo)
}

/// Applies `steps` in order to `image` (a pixel set where its byte is above the image's
/// threshold) and writes the result into `out`: the same cells as packing the image with
/// [`BitGrid::from_bytes`], running [`erosion_with`](super::erosion_with) /
/// [`dilation_with`](super::dilation_with) once per step with its border, and
/// [`BitGrid::write_bytes`], without the whole-image grids.
///
/// Footprints within one cell of their centre (the 3x3 square, the cross, any pattern in
/// the 3x3 box about the centre) go through `three_rows`: one pass, one output row at a
/// time, each input row packed once into a ring of three rows and each step a ring behind
/// the one before. Full rectangles up to 64 columns wide that gather from within 63
/// columns (the 15x15 square, `1 x n`, `n x 1`, any centre) go through `rect_rows`, the
/// same one pass with each row's run made by doubling shifts and the column window by
/// doubling over a ring of rows (about half the stripes' time for the 15x15 square). Other
/// footprints go by stripes ([`morph_bytes_by_stripes`]).
///
/// No steps copy the image (as `set` / `empty`).
///
/// # Errors
/// [`ImageError::Stride`] when `out.stride` is below the image's width,
/// [`ImageError::TooShort`] when `out.pixels` does not hold the rows, [`ImageError::Size`]
/// when a stripe's grid cannot be allocated; nothing is written for the first two.
///
/// ```
/// use gridbits::algo::morph::{morph_bytes, ByteOutput, Footprint, Step};
/// use gridbits::grid::ByteImage;
/// let pixels = [
///     0, 0, 0, 0, 0, //
///     0, 9, 9, 9, 0, //
///     0, 9, 0, 9, 0, //
///     0, 9, 9, 9, 0, //
///     0, 0, 0, 0, 9, //
/// ];
/// let image = ByteImage::new(&pixels, 5, 5, 5, 0);
/// let mut out = [7u8; 25];
/// let dst = ByteOutput { pixels: &mut out, stride: 5, set: 255, empty: 0 };
/// morph_bytes(&image, &Footprint::square(3), &Step::CLOSING, dst).unwrap();
/// assert_eq!(&out[5..20], &[
///     0, 255, 255, 255, 0, //
///     0, 255, 255, 255, 0, //
///     0, 255, 255, 255, 0, //
/// ]);
/// ```
pub fn morph_bytes(
    image: &ByteImage<'_>,
    fp: &Footprint,
    steps: &[Step],
    out: ByteOutput<'_>,
) -> Result<(), ImageError> {
    run::<false>(image, fp, steps, out, &mut ByteValues::default())
}

/// [`morph_bytes`], and what the image's bytes hold, found while they are packed (the
/// image is read once): the largest byte and the smallest nonzero one ([`ByteValues`]), whose [`two_valued`](ByteValues::two_valued) says whether every byte
/// is 0 or one value. OpenCV's drop-ins (`gridbits.opencv`) take 0 / `hi` images: they
/// write `hi` as `out.set` and keep the result only when the image was two-valued with
/// that `hi`, instead of checking the image in a pass of its own first.
///
/// Every engine folds the bytes in the loop that packs them (each engine's packer at every
/// CPU level: one fold per register width, in `grid`'s byte kernels); the stripes engine
/// packs the rows of a stripe's halo twice, which changes neither fold.
///
/// # Errors
/// As [`morph_bytes`].
///
/// ```
/// use gridbits::algo::morph::{morph_bytes_and_values, ByteOutput, Footprint, Step};
/// use gridbits::grid::ByteImage;
/// let pixels = [0, 255, 255, 0, 255, 0];
/// let image = ByteImage::new(&pixels, 3, 2, 3, 0);
/// let mut out = [0u8; 6];
/// let dst = ByteOutput { pixels: &mut out, stride: 3, set: 255, empty: 0 };
/// let steps = [Step::Dilate { border: false }];
/// let values = morph_bytes_and_values(&image, &Footprint::square(3), &steps, dst).unwrap();
/// assert!(values.two_valued() && values.high() == 255);
/// assert_eq!(out, [255; 6]);
///
/// let grey = [0, 255, 7, 0, 255, 0];
/// let image = ByteImage::new(&grey, 3, 2, 3, 0);
/// let dst = ByteOutput { pixels: &mut out, stride: 3, set: 255, empty: 0 };
/// let values = morph_bytes_and_values(&image, &Footprint::square(3), &steps, dst).unwrap();
/// assert!(!values.two_valued()); // a third value: 7
/// ```
pub fn morph_bytes_and_values(
    image: &ByteImage<'_>,
    fp: &Footprint,
    steps: &[Step],
    out: ByteOutput<'_>,
) -> Result<ByteValues, ImageError> {
    let mut values = ByteValues::NONE;
    run::<true>(image, fp, steps, out, &mut values)?;
    Ok(values)
}

/// The morphological gradient of a byte image straight into a byte image (OpenCV's
/// `MORPH_GRADIENT` on a two-valued image): `out.set` where the dilation by `fp` (border
/// `dilate_border`) is set and the erosion by `fp` (border `erode_border`) is not,
/// `out.empty` elsewhere; and, as [`morph_bytes_and_values`], what the image's bytes hold.
///
/// Footprints within one cell of their centre (the 3x3 square, the cross) take one pass
/// of `three_rows`: each image row packed once into the erosion's and the dilation's rings,
/// each output row the one without the other, unpacked as it is made. Other footprints run
/// the dilation into `out` and the erosion into a buffer of the image's size, then combine
/// them.
///
/// # Errors
/// As [`morph_bytes`].
///
/// ```
/// use gridbits::algo::morph::{morph_bytes_gradient_and_values, ByteOutput, Footprint};
/// use gridbits::grid::ByteImage;
/// let pixels = [
///     0, 0, 0, 0, 0, //
///     0, 9, 9, 9, 0, //
///     0, 9, 9, 9, 0, //
///     0, 9, 9, 9, 0, //
///     0, 0, 0, 0, 0, //
/// ];
/// let image = ByteImage::new(&pixels, 5, 5, 5, 0);
/// let mut out = [0u8; 25];
/// let dst = ByteOutput { pixels: &mut out, stride: 5, set: 9, empty: 0 };
/// let fp = Footprint::square(3);
/// let values = morph_bytes_gradient_and_values(&image, &fp, false, true, dst).unwrap();
/// assert!(values.two_valued());
/// assert_eq!(&out[10..15], &[9, 9, 0, 9, 9]); // the ring around the eroded centre
/// ```
pub fn morph_bytes_gradient_and_values(
    image: &ByteImage<'_>,
    fp: &Footprint,
    dilate_border: bool,
    erode_border: bool,
    out: ByteOutput<'_>,
) -> Result<ByteValues, ImageError> {
    let (w, h) = image.size();
    crate::error::check_image(out.pixels.len(), w, h, out.stride)?;
    let mut values = ByteValues::NONE;
    let windows = Window::new(fp, true, erode_border).zip(Window::new(fp, false, dilate_border));
    if let Some((e, d)) = windows {
        three_rows::run_gradient::<true>(image, [e, d], three_rows_out(out), &mut values);
        return Ok(values);
    }
    let mut eroded = crate::error::try_vec::<u8>("gradient", w, h, (w * h) as u128)?;
    eroded.resize(w * h, 0);
    let steps = [Step::Erode {
        border: erode_border,
    }];
    let dst = ByteOutput {
        pixels: &mut eroded,
        stride: w,
        set: 1,
        empty: 0,
    };
    run::<false>(image, fp, &steps, dst, &mut values)?;
    let (set, empty, stride) = (out.set, out.empty, out.stride);
    let steps = [Step::Dilate {
        border: dilate_border,
    }];
    let dst = ByteOutput {
        pixels: out.pixels,
        stride,
        set: 1,
        empty: 0,
    };
    run::<true>(image, fp, &steps, dst, &mut values)?;
    for (y, e) in eroded.chunks_exact(w.max(1)).enumerate().take(h) {
        let o = &mut out.pixels[y * stride..y * stride + w];
        for (o, &e) in o.iter_mut().zip(e) {
            *o = if *o > e { set } else { empty };
        }
    }
    Ok(values)
}

/// [`morph_bytes`], folding the bytes into `values` when `CHECK`.
fn run<const CHECK: bool>(
    image: &ByteImage<'_>,
    fp: &Footprint,
    steps: &[Step],
    out: ByteOutput<'_>,
    values: &mut ByteValues,
) -> Result<(), ImageError> {
    if steps.is_empty() {
        return by_stripes::<CHECK>(image, fp, steps, out, 0, values);
    }
    let (w, h) = image.size();
    let windows: Option<Vec<Window>> = steps
        .iter()
        .map(|s| match *s {
            Step::Erode { border } => Window::new(fp, true, border),
            Step::Dilate { border } => Window::new(fp, false, border),
        })
        .collect();
    if let Some(windows) = windows {
        crate::error::check_image(out.pixels.len(), w, h, out.stride)?;
        three_rows::run::<CHECK>(image, &windows, three_rows_out(out), values);
        return Ok(());
    }
    let rects: Option<Vec<Rect>> = steps
        .iter()
        .map(|s| match *s {
            Step::Erode { border } => Rect::new(fp, true, border),
            Step::Dilate { border } => Rect::new(fp, false, border),
        })
        .collect();
    if let Some(rects) = rects {
        crate::error::check_image(out.pixels.len(), w, h, out.stride)?;
        rect_rows::run::<CHECK>(image, &rects, three_rows_out(out), values);
        return Ok(());
    }
    by_stripes::<CHECK>(image, fp, steps, out, 0, values)
}

/// The output as the one-pass engines take it.
fn three_rows_out(out: ByteOutput<'_>) -> three_rows::Out<'_> {
    three_rows::Out {
        pixels: out.pixels,
        stride: out.stride,
        set: out.set,
        empty: out.empty,
    }
}

/// [`morph_bytes`] by stripes of `stripe` output rows (`0`: the size [`morph_bytes`]
/// picks, a few tens of KiB of bits), whatever the footprint: the engine [`morph_bytes`]
/// takes for footprints that neither stay within one cell of their centre nor are
/// rectangles it runs in one pass (and for no steps).
/// Every stripe height gives the same bytes; tests use small ones to cross many stripe
/// edges, benchmarks this to compare the engines.
///
/// # Errors
/// As [`morph_bytes`].
pub fn morph_bytes_by_stripes(
    image: &ByteImage<'_>,
    fp: &Footprint,
    steps: &[Step],
    out: ByteOutput<'_>,
    stripe: usize,
) -> Result<(), ImageError> {
    by_stripes::<false>(image, fp, steps, out, stripe, &mut ByteValues::default())
}

/// [`morph_bytes_by_stripes`], folding the bytes into `values` when `CHECK`.
fn by_stripes<const CHECK: bool>(
    image: &ByteImage<'_>,
    fp: &Footprint,
    steps: &[Step],
    out: ByteOutput<'_>,
    stripe: usize,
    values: &mut ByteValues,
) -> Result<(), ImageError> {
    let (w, h) = image.size();
    crate::error::check_image(out.pixels.len(), w, h, out.stride)?;
    let halo = reach(fp).saturating_mul(steps.len()).min(h);
    let wpr = w.div_ceil(64);
    let rows = if stripe == 0 {
        stripe_rows(halo, wpr)
    } else {
        stripe
    };
    // Each step's plan for the word engine, when its footprint is near enough.
    let plans: Vec<Option<Plan>> = steps
        .iter()
        .map(|s| Plan::new(fp, matches!(s, Step::Erode { .. })))
        .collect();
    let mut y0 = 0;
    while y0 < h {
        let y1 = (y0 + rows).min(h);
        // Input rows top..bottom: the stripe and its halo, inside the image.
        let top = y0.saturating_sub(halo);
        let bottom = (y1 + halo).min(h);
        let mut g = BitGrid::try_new(w, bottom - top)?;
        image.pack_rows_with::<CHECK>(top, &mut g, values);
        for (step, plan) in steps.iter().zip(&plans) {
            let (erode, border) = match *step {
                Step::Erode { border } => (true, border),
                Step::Dilate { border } => (false, border),
            };
            g = match plan {
                Some(plan) => {
                    let mut next = BitGrid::try_new(w, g.height())?;
                    let size = (w, g.height());
                    if erode {
                        near_runs::step::<true>(plan, g.words(), next.words_mut(), size, border);
                    } else {
                        near_runs::step::<false>(plan, g.words(), next.words_mut(), size, border);
                    }
                    next
                }
                None => once(&g, fp, erode, border)?,
            };
        }
        let dst = &mut out.pixels[y0 * out.stride..];
        g.write_rows_bytes(y0 - top, y1 - y0, dst, out.stride, (out.set, out.empty));
        y0 = y1;
    }
    Ok(())
}
