//! Algorithms, each written once against [`BitBoard`](crate::BitBoard).

pub(crate) mod checks;
pub mod components;
pub mod distance;
pub mod distance_transform;
pub mod fill;
pub mod label;
pub mod lines;
pub mod measure;
pub mod morph;
pub(crate) mod runs;
pub mod skeleton;
pub mod slide;
pub mod voronoi;
