//! Game engines built on the algorithms, each with its rules in its module docs:
//!
//! - [`puyo`]: Puyo Puyo Tsu and Smash the Code chains on colour planes, with SIMD engines
//!   chosen at run time.
//! - [`tetris`]: a Tetris matrix in column words, SRS pieces, placement, line clears and
//!   evaluation features; SRS kicks, T-spins and every reachable placement, found
//!   bit-parallel.
//! - [`amazons`]: Game of the Amazons positions, queen and king distance territory and
//!   mobility.
//! - [`envs`]: batched reinforcement-learning environments of guideline Tetris
//!   ([`tetris::Game`]) and Puyo Puyo Tsu ([`puyo::TsuGame`]), with masks from the move
//!   generators.
//! - [`rng`]: the seeded stream (xoshiro256\*\*) the games draw pieces, pairs and garbage
//!   from.
//!
//! Every module uses the crate's coordinates, `(x, y)` with `y` from the top, and reads and
//! prints its own text form through `FromStr` and `Display`.

pub mod amazons;
pub mod envs;
pub mod puyo;
pub mod rng;
pub mod tetris;
