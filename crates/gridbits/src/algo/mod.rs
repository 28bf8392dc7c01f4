//! Algorithms, each written once against [`BitBoard`](crate::BitBoard).

pub mod components;
pub mod fill;
pub mod label;
pub mod lines;
pub(crate) mod runs;
pub mod slide;
