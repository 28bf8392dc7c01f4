//! The thread count of the module's calls (`gridbits.set_num_threads`, `get_num_threads`,
//! `threads`): a pool held by the module, installed around every call that releases the
//! GIL ([`detach`]): the call runs on the calling thread and the pool's other threads help
//! with its parallel work (a one-thread pool has none); without one, rayon's global pool
//! (one thread per core, or `RAYON_NUM_THREADS`). Results are the same with any number of
//! threads.

use gridbits::parallel::{current_threads, Pool};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::sync::{Arc, PoisonError, RwLock};

/// The most threads `set_num_threads` takes, as the command line's `--threads`: each is a
/// thread of the OS, started with the pool.
pub const MAX_THREADS: usize = 256;

/// The pool `set_num_threads` chose; `None`: rayon's global pool.
static POOL: RwLock<Option<Arc<Pool>>> = RwLock::new(None);

fn pool() -> Option<Arc<Pool>> {
    POOL.read().unwrap_or_else(PoisonError::into_inner).clone()
}

/// Runs `f` with the GIL released, on the module's pool when one is set.
pub fn detach<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> T {
    let pool = pool();
    py.detach(move || match pool {
        Some(p) => p.install(f),
        None => f(),
    })
}

/// Sets the threads of the module's calls: `n` (1 to [`MAX_THREADS`]) or `None` for the
/// default. A pool of `n` threads is built unless the current one has `n` already.
#[pyfunction]
#[pyo3(signature = (n))]
fn _set_num_threads(n: Option<usize>) -> PyResult<()> {
    let mut slot = POOL.write().unwrap_or_else(PoisonError::into_inner);
    let Some(n) = n else {
        *slot = None;
        return Ok(());
    };
    if !(1..=MAX_THREADS).contains(&n) {
        return Err(PyValueError::new_err(format!(
            "n: expected 1 to {MAX_THREADS} threads, got {n}"
        )));
    }
    if slot.as_ref().is_some_and(|p| p.threads() == n) {
        return Ok(());
    }
    let p = Pool::try_new(n).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    *slot = Some(Arc::new(p));
    Ok(())
}

/// The thread count set by `_set_num_threads`, or `None` for the default.
#[pyfunction]
fn _thread_setting() -> Option<usize> {
    pool().map(|p| p.threads())
}

/// The number of threads the module's calls use now.
#[pyfunction]
fn get_num_threads() -> usize {
    pool().map_or_else(current_threads, |p| p.threads())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(_thread_setting, m)?)?;
    m.add_function(wrap_pyfunction!(get_num_threads, m)?)?;
    m.add("MAX_THREADS", MAX_THREADS)?;
    Ok(())
}
