//! Large output arrays whose memory is recycled: when numpy frees such an array, its buffer
//! comes back here and the next call of the same size writes into it instead of into fresh
//! pages.
//!
//! Why: a fresh buffer of 32 MiB (the `int64` labels of a 2048 x 2048 image) is above
//! glibc's largest mmap threshold, so every call maps new pages and the kernel faults and
//! zeroes all of them on first write: 12 ms on huge pages, 50 ms on small ones on the
//! benchmark machine, where writing the labels into memory already mapped takes about 1 ms
//! (docs/benchmarks.md, "Region properties and multi-class labelling"). numpy itself keeps
//! a cache of small data buffers for the same reason. The array a caller gets is an
//! ordinary writeable numpy array whose `base` is a [`Recycled`] owner; the buffer is
//! reused only after that owner, and so every array viewing it, is gone.
//!
//! At most one buffer is kept ([`SPARE`]), of [`KEEP_MIN_BYTES`] to [`KEEP_MAX_BYTES`]
//! bytes: holding freed memory is a trade, bounded here to one label image.

use numpy::ndarray::ArrayView2;
use numpy::PyArray2;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Mutex;

/// Buffers smaller than this go back to the allocator (which reuses them without faults).
const KEEP_MIN_BYTES: usize = gridbits::huge_pages::HUGE_MIN_BYTES;
/// Buffers larger than this go back to the system.
const KEEP_MAX_BYTES: usize = 256 << 20;

/// The one spare buffer: the last freed output array's.
static SPARE: Mutex<Option<Vec<i64>>> = Mutex::new(None);

/// The owner of a recycled array's memory (the numpy array's `base`): gives the buffer back
/// to [`SPARE`] when Python frees it.
#[pyclass(frozen, module = "gridbits._gridbits")]
pub(crate) struct Recycled {
    data: Vec<i64>,
}

impl Drop for Recycled {
    fn drop(&mut self) {
        let data = std::mem::take(&mut self.data);
        let bytes = data.capacity() * std::mem::size_of::<i64>();
        if (KEEP_MIN_BYTES..=KEEP_MAX_BYTES).contains(&bytes) {
            if let Ok(mut spare) = SPARE.lock() {
                *spare = Some(data);
            }
        }
    }
}

/// The spare buffer when it holds at least `n` values and at most twice as many (its
/// contents are the labels of an earlier call: initialised, to be overwritten), with `n`
/// values in view; `None` otherwise.
pub(crate) fn take(n: usize) -> Option<Vec<i64>> {
    let mut spare = SPARE.lock().ok()?;
    let fits = spare
        .as_ref()
        .is_some_and(|v| v.len() >= n && v.len() <= n.saturating_mul(2));
    if !fits {
        return None;
    }
    let mut v = spare.take()?;
    v.truncate(n);
    Some(v)
}

/// A `height x width` numpy array of `v` (row-major, exactly `height * width` values) whose
/// buffer returns to [`take`] when numpy frees it.
pub(crate) fn array2(
    py: Python<'_>,
    v: Vec<i64>,
    height: usize,
    width: usize,
) -> PyResult<Bound<'_, PyArray2<i64>>> {
    if v.len() != height * width {
        return Err(PyValueError::new_err("recycled buffer of the wrong size"));
    }
    let owner = Bound::new(py, Recycled { data: v })?;
    let view = ArrayView2::from_shape((height, width), &owner.get().data[..])
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    // SAFETY: the array views the heap buffer of the `Vec` that `owner` holds; `owner` is
    // the array's base, so it outlives the array, and the `Vec` is never grown, shrunk or
    // moved out while `owner` lives (only its `Drop` takes it, once no array views it).
    Ok(unsafe { PyArray2::borrow_from_array(&view, owner.clone().into_any()) })
}
