//! Algorithms, each written once against [`BitBoard`](crate::BitBoard).

pub(crate) mod checks;
pub mod components;
pub mod distance;
pub mod fill;
pub mod label;
pub mod lines;
pub mod measure;
pub(crate) mod runs;
pub mod slide;
pub mod voronoi;
