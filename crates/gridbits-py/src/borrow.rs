//! Array arguments borrowed without a panic. numpy's own extraction of a
//! `PyReadwriteArray` unwraps its borrow, so a read-only array (`flags.writeable` False) or
//! one that another argument of the same call already borrows (an output that shares
//! memory with an input) would panic; [`Rw`] raises `ValueError` saying which instead.

use numpy::ndarray::{Dimension, Ix1, Ix2};
use numpy::{BorrowError, Element, PyArray, PyArrayMethods, PyReadwriteArray};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::ops::{Deref, DerefMut};

/// A writable, exclusively borrowed numpy array argument; dereferences to numpy's
/// `PyReadwriteArray`.
pub(crate) struct Rw<'py, T: Element, D: Dimension>(PyReadwriteArray<'py, T, D>);

/// A writable one-dimensional array argument.
pub(crate) type Rw1<'py, T> = Rw<'py, T, Ix1>;
/// A writable two-dimensional array argument.
pub(crate) type Rw2<'py, T> = Rw<'py, T, Ix2>;

impl<'a, 'py, T: Element + 'a, D: Dimension + 'a> FromPyObject<'a, 'py> for Rw<'py, T, D> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> Result<Self, Self::Error> {
        let array = obj.cast::<PyArray<T, D>>()?;
        array.try_readwrite().map(Rw).map_err(|e| {
            PyValueError::new_err(match e {
                BorrowError::NotWriteable => {
                    "an output array is read-only (its flags.writeable is False)"
                }
                _ => "an output array shares memory with another array of the same call",
            })
        })
    }
}

impl<'py, T: Element, D: Dimension> Deref for Rw<'py, T, D> {
    type Target = PyReadwriteArray<'py, T, D>;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl<T: Element, D: Dimension> DerefMut for Rw<'_, T, D> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}
