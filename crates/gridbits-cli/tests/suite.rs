//! End-to-end tests of the `gridbits` command line.
//!
//! One test binary for the whole suite: each file of this folder is a module, so the suite
//! links once instead of once per file.

mod common;

mod cli;
mod cli_amazons_moves;
mod cli_components;
mod cli_fill;
mod cli_images;
mod cli_json_order;
mod cli_limits;
mod cli_lines;
mod cli_morph;
mod cli_papercuts;
mod cli_puyo_moves;
mod cli_regionprops;
mod cli_skeleton;
mod cli_slide;
mod cli_sources;
mod cli_stream;
mod cli_stream_more;
mod cli_tetris_moves;
mod cli_threads;
mod cli_transform;
mod cli_usage;
mod cli_write_errors;
