//! Puyo chains: Smash the Code (CodinGame) and Puyo Puyo Tsu on one bit-parallel engine.
//!
//! A [`Field`] holds the cells; [`Field::place_pair`] drops a pair, [`Field::simulate`] runs
//! the chain a field holds and scores it, and [`Field::play`] does both (one turn).
//!
//! ```
//! use gridbits::games::puyo::{Field, Rules};
//! // Step 1: the four 1s vanish; the 2 above them falls next to the other three 2s.
//! // Step 2: the four 2s vanish.
//! let field = Field::parse(
//!     "......\n......\n......\n......\n......\n......\n\
//!      ......\n......\n......\n..2...\n.11...\n.11222\n",
//!     Rules::SmashTheCode,
//! ).unwrap();
//! assert_eq!(field.char_at(2, 9), b'2'); // (x, y), y from the top
//! let chain = field.simulate();
//! assert_eq!(chain.chain, 2);
//! // Step 1: 10 * 4 * clamp(0 + 0 + 0, 1, 999); step 2: 10 * 4 * (8 + 0 + 0).
//! assert_eq!(chain.score, 40 + 320);
//! assert_eq!(chain.field.count(), 0);
//! ```
//!
//! A field has 6 columns and 12 rows ([`Rules::SmashTheCode`]) or 13 ([`Rules::Tsu`]: the
//! hidden ghost row on top); a cell is `(x, y)`, `y` from the top, as in the text form that
//! [`Field::parse`] reads and [`Field::to_text`] writes. [`Field::placements`] lists every move
//! of a [`Pair`] with the field after it and the chain it fires; [`Field::drops`] is the same
//! without the chains. [`Rules`] holds the scoring tables. [`ChainEngine::best`] picks the SIMD
//! engine at run time; every engine is tested against [`naive::puyo`](crate::naive::puyo).
//! [`TsuGame`] plays a Puyo Puyo Tsu game: seeded pairs, the 22 indexed placements, all
//! clear, ojama ([`game`]).
//!
//! The rules in full (field, text form, a turn, pair placements, chains, scoring):
//! docs/games.md. How the engine runs: docs/algorithms.md.

mod batch;
mod chain;
mod codes;
#[cfg(target_arch = "x86_64")]
mod codes_avx2;
mod engine;
mod error;
mod field;
pub mod game;
mod kernel;
mod pair;
pub mod placement;
mod rules;
mod run;

pub use batch::{
    simulate_many, simulate_many_scores, simulate_many_scores_with, simulate_many_with,
};
pub use chain::{Chain, Step};
pub use codes::{CodeError, CODE_GARBAGE};
pub use engine::ChainEngine;
pub use error::{CellError, PlaceError};
pub use field::{Cell, Field};
pub use game::{
    placement_index, PairGen, TsuConfig, TsuError, TsuGame, TsuStep, ALL_CLEAR_BONUS,
    MAX_PAIR_PREVIEWS, PLACEMENTS,
};
pub use pair::{Pair, PairError, PairMove};
pub use placement::{Drops, PairPlacement, MAX_PLACEMENTS};
pub use rules::{Nuisance, Rules};

/// Number of columns of every Puyo field.
pub const COLUMNS: usize = 6;
/// Number of colours a field may hold.
pub const COLORS: usize = 5;
/// Rows of play, the rows whose cells vanish and connect: every row of a Smash the Code
/// field, every row but the ghost row (`y = 0`) of a Tsu field.
pub const ACTIVE_ROWS: usize = 12;
/// The longest possible chain: every step vanishes at least 4 of the 78 cells.
pub const MAX_CHAIN: usize = 20;

/// Bits per column in a plane.
const LANE: u32 = 16;

/// The mask of the `rows` lowest rows in each of the six columns.
const fn rows_mask(rows: usize) -> u128 {
    let mut m = 0u128;
    let mut x = 0;
    while x < COLUMNS {
        m |= ((1u128 << rows) - 1) << (LANE as usize * x);
        x += 1;
    }
    m
}

/// The raw mask (layout as [`Field::color_plane`]) of the rows of play: the 12 lowest rows of
/// every column, the cells that vanish and connect.
pub const ACTIVE: u128 = rows_mask(ACTIVE_ROWS);
/// The raw mask (layout as [`Field::color_plane`]) of the 6 x 13 cells a field may use.
pub const ALL: u128 = rows_mask(13);
/// Bit 0 of each of the eight lanes.
const LANE_ONES: u128 = 0x0001_0001_0001_0001_0001_0001_0001_0001;
/// Bit 15 of each of the eight lanes.
const LANE_HIGH: u128 = LANE_ONES << 15;

/// Index of the garbage plane among a field's planes.
const GARBAGE: usize = COLORS;
