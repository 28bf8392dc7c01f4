//! Helpers shared by the run-based engines of labelling and fill: the union-find over runs.

pub(crate) mod union_find;
