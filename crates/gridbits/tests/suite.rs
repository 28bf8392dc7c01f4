//! The gridbits test suite: properties against the naive oracle, worked examples, API contracts.
//!
//! One test binary for the whole suite: each file of this folder is a module, so the suite
//! links once instead of once per file.

mod common;

mod amazons_moves;
mod amazons_props;
mod board_examples;
mod board_props;
mod bytes_props;
mod chamfer_engines_props;
mod components_examples;
mod components_props;
mod cross;
mod dir;
mod distance_frontier;
mod distance_transform_props;
mod fill_engines;
mod fill_props;
mod game_envs;
mod grid_props;
mod label_bytes;
mod label_props;
mod label_writer_blocks;
mod limits;
mod lines_props;
mod measure_props;
mod morph_bytes_props;
mod morph_props;
mod morph_rect_rows_props;
mod morph_three_rows_props;
mod morph_values_props;
mod naive_oracle;
mod owners_props;
mod parallel_batches;
mod parallel_props;
mod parse;
mod parse_model;
mod puyo_field;
mod puyo_fixture;
mod puyo_game;
mod puyo_moves;
mod puyo_sim;
mod simd_paths;
mod skeleton_props;
mod slide_line;
mod slide_props;
mod tetris_game;
mod tetris_moves_examples;
mod tetris_moves_props;
mod tetris_props;
mod value_labeller_props;
mod values;
