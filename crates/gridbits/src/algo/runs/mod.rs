//! Primitives shared by the run-based engines of labelling and fill: the union-find over
//! runs, the run table of a grid (run starts, links between rows, painting), and word
//! operations on one row.

pub(crate) mod masks;
pub(crate) mod rows;
pub(crate) mod table;
pub(crate) mod union_find;
