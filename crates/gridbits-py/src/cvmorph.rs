//! The native side of OpenCV's morphology drop-ins (`gridbits.opencv.erode`, `dilate`,
//! `morphologyEx`, in `python/gridbits/_cvmorph.py`): the fast call on a `uint8` image of 0
//! and one `hi` (`cv_morph_into`: the two-value check folded into the engine's packing, so
//! the image is read once), and the general path's value check (`cv_byte_values`: whether
//! a `uint8` image holds at most two distinct values, in one pass that the compiler
//! vectorizes), both without the GIL.

use crate::borrow::Rw2;
use crate::morph_bytes::MorphCall;
use crate::threads::detach;
use gridbits::algo::morph::morph_bytes_gradient_and_values;
use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// Lanes of the fold: 64 bytes, which the compiler turns into vector compares, minimums
/// and maximums (branch-free: a branch per byte costs ~7 ns on random images).
const LANES: usize = 64;

/// Folds into `acc` the minimum and maximum of the bytes of `bytes` other than `first`
/// (`(255, 0)` stands for none yet): the AVX2 build of [`fold_portable`] where the CPU has
/// AVX2 (`gridbits::cpu`), else the portable one.
fn fold_others(bytes: &[u8], first: u8, acc: (u8, u8)) -> (u8, u8) {
    #[cfg(target_arch = "x86_64")]
    if gridbits::cpu::has(gridbits::cpu::Features::AVX2) {
        // SAFETY: the CPU has AVX2 (checked just above), all `fold_avx2` requires.
        return unsafe { fold_avx2(bytes, first, acc) };
    }
    fold_portable(bytes, first, acc)
}

/// [`fold_portable`] compiled for AVX2 (32-byte vectors).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn fold_avx2(bytes: &[u8], first: u8, acc: (u8, u8)) -> (u8, u8) {
    fold_portable(bytes, first, acc)
}

/// The fold in plain code, which the compiler vectorizes for the target it builds for.
#[inline(always)]
fn fold_portable(bytes: &[u8], first: u8, acc: (u8, u8)) -> (u8, u8) {
    // A byte equal to `first` is masked to 255 for the minimum and to 0 for the maximum.
    let lanes = |b: u8| {
        let same = u8::from(b == first).wrapping_neg();
        (b | same, b & !same)
    };
    let mut lo = [acc.0; LANES];
    let mut hi = [acc.1; LANES];
    let mut chunks = bytes.chunks_exact(LANES);
    for chunk in &mut chunks {
        for i in 0..LANES {
            let (l, h) = lanes(chunk[i]);
            lo[i] = lo[i].min(l);
            hi[i] = hi[i].max(h);
        }
    }
    let mut acc = (
        lo.iter().fold(u8::MAX, |m, &v| m.min(v)),
        hi.iter().fold(0, |m, &v| m.max(v)),
    );
    for &b in chunks.remainder() {
        let (l, h) = lanes(b);
        acc = (acc.0.min(l), acc.1.max(h));
    }
    acc
}

/// The values of a `uint8` image: `(first, lo, hi)`, `first` its first byte and `lo`,
/// `hi` the smallest and largest of the other values (`lo > hi` when there is none, and
/// `lo == hi` when there is one: the image is two-valued). An empty image gives
/// `(0, 255, 0)`.
#[pyfunction]
fn cv_byte_values(py: Python<'_>, image: PyReadonlyArray2<'_, u8>) -> (u8, u8, u8) {
    if image.len() == 0 {
        return (0, u8::MAX, 0);
    }
    let view = image.as_array();
    let first = view.iter().next().copied().unwrap_or(0);
    if let Ok(bytes) = image.as_slice() {
        // The array's bytes are read without the GIL, as numpy's own loops do; the
        // borrow lasts the call.
        let (lo, hi) = detach(py, || fold_others(bytes, first, (u8::MAX, 0)));
        return (first, lo, hi);
    }
    // Rows of any stride (a Fortran-ordered or strided view), without the GIL too.
    let (lo, hi) = detach(py, || {
        let mut acc = (u8::MAX, 0);
        let mut row_bytes = Vec::new();
        for row in view.rows() {
            match row.as_slice() {
                Some(bytes) => acc = fold_others(bytes, first, acc),
                None => {
                    row_bytes.clear();
                    row_bytes.extend(row.iter().copied());
                    acc = fold_others(&row_bytes, first, acc);
                }
            }
        }
        acc
    });
    (first, lo, hi)
}

/// The first nonzero byte of `bytes`, 64 bytes a step (an OR the compiler vectorizes),
/// or `None`.
fn first_nonzero(bytes: &[u8]) -> Option<u8> {
    bytes
        .chunks(LANES)
        .find(|c| c.iter().fold(0, |a, &b| a | b) != 0)
        .and_then(|c| c.iter().copied().find(|&b| b != 0))
}

/// OpenCV's morphology on a `uint8` image of 0 and one `hi`, the quick path of
/// `gridbits.opencv`: `steps` (as `binary_morph_into` takes them) on `input` into `out`,
/// `hi` written for a set cell, the image's values checked while the engine packs it
/// ([`morph_bytes_and_values`](gridbits::algo::morph::morph_bytes_and_values)). Returns
/// `hi` when every byte was 0 or `hi`; `None` when the image holds another value, or no
/// nonzero byte (then `out` holds nothing to keep: the caller takes the general path).
/// `hi` is the image's first nonzero byte, found first (a scan that stops there).
#[pyfunction]
fn cv_morph_into(
    py: Python<'_>,
    input: PyReadonlyArray2<'_, u8>,
    structure: PyReadonlyArray2<'_, u8>,
    center: (isize, isize),
    steps: Vec<(bool, bool)>,
    out: Rw2<'_, u8>,
) -> PyResult<Option<u8>> {
    let Some(hi) = image_high(py, &input) else {
        return Ok(None);
    };
    let call = MorphCall {
        input,
        structure,
        center,
        steps,
    };
    let values = call.run::<true>(py, out, hi)?;
    Ok((values.two_valued() && values.high() == hi).then_some(hi))
}

/// `cv_morph_into` for OpenCV's `MORPH_GRADIENT` (the dilation by `structure`, border
/// unset, without the erosion, border set: OpenCV's default borders), in one pass for
/// footprints of the 3x3 box
/// ([`morph_bytes_gradient_and_values`](gridbits::algo::morph::morph_bytes_gradient_and_values)).
#[pyfunction]
fn cv_gradient_into(
    py: Python<'_>,
    input: PyReadonlyArray2<'_, u8>,
    structure: PyReadonlyArray2<'_, u8>,
    center: (isize, isize),
    out: Rw2<'_, u8>,
) -> PyResult<Option<u8>> {
    let Some(hi) = image_high(py, &input) else {
        return Ok(None);
    };
    let call = MorphCall {
        input,
        structure,
        center,
        steps: Vec::new(),
    };
    let values = call.run_with(py, out, hi, |image, fp, _, dst| {
        morph_bytes_gradient_and_values(image, fp, false, true, dst)
    })?;
    Ok((values.two_valued() && values.high() == hi).then_some(hi))
}

/// The first nonzero byte of `input` (`None` for zeros alone), read without the GIL.
fn image_high(py: Python<'_>, input: &PyReadonlyArray2<'_, u8>) -> Option<u8> {
    match input.as_slice() {
        // Read without the GIL, as numpy's own loops do; the borrow lasts the call.
        Ok(bytes) => detach(py, || first_nonzero(bytes)),
        Err(_) => input.as_array().iter().copied().find(|&b| b != 0),
    }
}

/// Registers the value check and the quick call.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cv_byte_values, m)?)?;
    m.add_function(wrap_pyfunction!(cv_morph_into, m)?)?;
    m.add_function(wrap_pyfunction!(cv_gradient_into, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{fold_others, fold_portable};

    /// The fold against a plain scan, on lengths around the lanes.
    #[test]
    fn fold_matches_a_plain_scan() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for len in [1usize, 2, 63, 64, 65, 127, 128, 129, 300] {
            for kinds in 1..4u64 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        state = state
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        [0u8, 255, 7][((state >> 33) % kinds) as usize]
                    })
                    .collect();
                let first = bytes[0];
                let others: Vec<u8> = bytes.iter().copied().filter(|&b| b != first).collect();
                let want = (
                    others.iter().copied().min().unwrap_or(u8::MAX),
                    others.iter().copied().max().unwrap_or(0),
                );
                assert_eq!(fold_others(&bytes, first, (u8::MAX, 0)), want, "len {len}");
                assert_eq!(
                    fold_portable(&bytes, first, (u8::MAX, 0)),
                    want,
                    "len {len}"
                );
            }
        }
    }
}
