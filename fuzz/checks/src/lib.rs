//! The checks of the gridbits fuzz targets: one `check_*` function per target, taking the
//! fuzz input's bytes and panicking on a wrong answer (a result that differs from the
//! per-cell reference `gridbits::naive`, or from an independent model) or on any panic inside
//! gridbits.
//!
//! The cargo-fuzz crate in `fuzz/` calls them from its targets, and this crate's `replay`
//! test runs every file of the committed corpus `fuzz/corpus/TARGET/` through them on each
//! `cargo test`, so that every input the fuzzer ever found stays fixed.
//!
//! Inputs decode into bounded cases ([`bytes::Bytes`]): boards of a few fixed shapes or
//! runtime grids up to [`boards::MAX_SIDE`] a side, so that the targets test logic, not
//! allocation.

pub mod amazons;
pub mod boards;
pub mod bytes;
pub mod components;
pub mod fill;
pub mod image;
pub mod lines;
pub mod puyo;
pub mod slide;
pub mod tetris;
pub mod text;

/// The check of a target: panics on a wrong answer.
pub type Check = fn(&[u8]);

/// Every target: its name (the fuzz target and the corpus folder) and its check.
pub const TARGETS: &[(&str, Check)] = &[
    ("text", text::check_text),
    ("pbm", image::check_pbm),
    ("png", image::check_png),
    ("fill", fill::check_fill),
    ("distance", fill::check_distance),
    ("voronoi", fill::check_voronoi),
    ("slide", slide::check_slide),
    ("components", components::check_components),
    ("label", components::check_label),
    ("lines", lines::check_lines),
    ("tetris_moves", tetris::check_tetris),
    ("puyo", puyo::check_puyo),
    ("amazons", amazons::check_amazons),
];
