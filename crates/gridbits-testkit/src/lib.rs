//! The test kit of gridbits: what its tests, fuzz checks, benchmark and examples share instead
//! of copying it. A development crate, never published.
//!
//! - [`rng`]: [`SplitMix`], the seeded splitmix64 stream every generator draws from.
//! - [`random`]: random bit grids, fixed boards and cell patterns at a density.
//! - [`shapes`]: the serpentine corridor and perfect mazes.
//! - [`text`]: an independent model of the text grid parser's rules.
//!
//! Everything is deterministic: the same seed gives the same boards on every machine, so
//! tests and benchmark rows see the same inputs on every run.
//!
//! The kit depends on `gridbits` (it returns its `BitGrid` and `Board`). The crate's
//! integration tests may use it as a dev-dependency (they link the same `gridbits`); the unit
//! tests inside `crates/gridbits/src` must not (they are a second copy of the crate, whose
//! types differ from the kit's).
#![warn(missing_docs)]

pub mod random;
pub mod rng;
pub mod shapes;
pub mod text;

pub use random::{density_bits, discs, percent_grid, random_boards, random_grid};
pub use rng::SplitMix;
pub use shapes::{maze, maze_cells, serpentine};
