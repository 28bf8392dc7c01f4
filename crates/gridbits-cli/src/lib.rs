//! The input layer of the `gridbits` command line as a library: how a file's bytes become a
//! text grid or a bit grid (format detection, PNG and netpbm decoding, `--threshold` and
//! `--invert`). The `gridbits` binary is built on it; the fuzz targets and tests reach it here.
//! It is not a stable API: use the `gridbits` crate for the algorithms.

pub mod input;
