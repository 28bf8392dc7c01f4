//! One module per command of CLI.md: its clap options, `run`, and its `demo` section.

pub mod amazons;
pub mod components;
pub mod distance;
pub mod fill;
pub mod puyo;
pub mod reach;
pub mod tetris;
pub mod voronoi;
