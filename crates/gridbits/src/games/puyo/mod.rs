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
//! # The field
//!
//! Every field has 6 columns. Under [`Rules::SmashTheCode`] it has 12 rows. Under
//! [`Rules::Tsu`] it has 13: the 12 rows of play and, above them, the hidden 13th row (the
//! "ghost row"), where a cell can sit but never vanishes and never connects to a group.
//!
//! A cell is `(x, y)`: `x` the column from the left (0 to 5), `y` the row **from the top**
//! (0 to `rows - 1`), the same as line `y`, character `x` of the text form. For Tsu, `y = 0`
//! is the ghost row; for Smash the Code it is the top row of play. The bottom row is
//! `y = rows - 1` (11 or 12). A cell is empty, one of five colours (indices 0 to 4) or
//! garbage ([`Cell`]).
//!
//! # Text form
//!
//! One line per row, top row first, six characters each, `.` for an empty cell:
//!
//! | rule set       | lines                                     | colours 0 to 4 | garbage    |
//! |----------------|-------------------------------------------|----------------|------------|
//! | Smash the Code | 12                                        | `1 2 3 4 5`    | `0` (skull)|
//! | Tsu            | 13 (first the ghost row), or 12 (no ghost)| `R G B Y P`    | `O` (ojama)|
//!
//! [`Field::parse`] reads it for a given rule set; [`str::parse`] picks the rule set from the
//! characters (see the [`FromStr`](std::str::FromStr) impl of [`Field`]); [`Field::to_text`]
//! and [`Display`](std::fmt::Display) print it (always every row, so 13 lines for Tsu).
//!
//! # A turn
//!
//! A turn drops a pair of two coloured blocks `a` and `b` at column `x` with a rotation:
//!
//! - 0: `a` at column `x`, `b` at `x + 1`;
//! - 1: `b` on top of `a`, both in column `x`;
//! - 2: `a` at column `x`, `b` at `x - 1`;
//! - 3: `a` on top of `b`, both in column `x`.
//!
//! Each block falls onto the highest occupied cell of its column (the two blocks of a
//! horizontal pair fall on their own). A placement is illegal when the rotation is 4 or more,
//! a block would be off the field (column 6 or more, rotation 0 at column 5, rotation 2 at
//! column 0), a colour index is 5 or more, or a column has no room (a vertical pair needs two
//! free rows, each block of a horizontal pair one): [`Field::place_pair`] then returns a
//! [`PlaceError`] and leaves the field unchanged. After a legal placement the chain resolves.
//!
//! # Pair placements
//!
//! [`Field::placements`] lists every move of a [`Pair`] (axis and child colours) with the
//! field right after it fell and the chain it fires; [`Field::drops`] is the same list without
//! the chains (no simulation, no allocation). A pair of two colours has 22 moves on an open
//! field (vertical on each of the 6 columns, horizontal across each of the 5 pairs of
//! neighbouring columns, both ways), a pair of one colour 11. Under Tsu the stack hides some:
//! the pair cannot enter or pass a column whose row 12 is filled, and once the death cell
//! (column 3, row 12) is filled the game is over ([`Field::is_game_over`]); under Smash the
//! Code a move must fit in the 12 rows. The exact rules are in [`placement`];
//! [`naive::puyo_moves`](crate::naive::puyo_moves) is the per-cell twin, and
//! `gridbits puyo --moves RG field.txt` lists them on the command line.
//!
//! ```
//! use gridbits::games::puyo::{Field, Pair, Rules};
//! let text = format!("{}RRR...\n", "......\n".repeat(12));
//! let field = Field::parse(&text, Rules::Tsu).unwrap();
//! let best = field
//!     .placements(Pair::new(0, 1)) // axis R, child G
//!     .into_iter()
//!     .max_by_key(|p| p.chain.score)
//!     .unwrap();
//! assert_eq!((best.chain.chain, best.chain.score), (1, 40));
//! ```
//!
//! # A chain
//!
//! A chain is a sequence of steps, repeated while something vanishes:
//!
//! 1. Every group of 4 or more orthogonally connected cells of one colour vanishes, every
//!    such group at once (groups of several colours can vanish in one step). Only the 12 rows
//!    of play count: cells in Tsu's ghost row never vanish and never connect.
//! 2. Garbage orthogonally next to a vanishing cell vanishes too (not in the ghost row).
//!    Garbage never forms groups of its own.
//! 3. Gravity: every cell falls to close the gaps below it.
//!
//! The chain's length ([`Chain::chain`]) is the number of steps that vanished something.
//! [`Field::simulate`] takes the field as it is: cells floating over a hole fall only with
//! the first step's gravity (call [`Field::settle`] first to drop them before anything
//! vanishes).
//!
//! # Scoring
//!
//! Step `n` (from 1) of a chain scores `10 * B * clamp(CP + CB + GB, 1, 999)`, where `B` is
//! the number of coloured cells that vanished (garbage does not count), `CP` the chain power
//! of step `n`, `CB` the colour bonus for the number of distinct colours that vanished in
//! the step, and `GB` the sum of the group bonus of every group that vanished, by its size:
//!
//! | rule set       | `CP` by step `n`                                                                 |
//! |----------------|----------------------------------------------------------------------------------|
//! | Smash the Code | 0 for step 1, 8 for step 2, then doubling: `8 * 2^(n - 2)`                        |
//! | Tsu            | 0, 8, 16, 32, 64, 96, 128, 160, 192 for steps 1 to 9, then 32 more a step, at most 999 |
//!
//! | rule set       | `CB` by colours: 1, 2, 3, 4, 5 | `GB` by group size: 4, 5, 6, 7, 8, 9, 10, 11+ |
//! |----------------|--------------------------------|-----------------------------------------------|
//! | Smash the Code | 0, 2, 4, 8, 16                 | 0, 1, 2, 3, 4, 5, 6, 8                         |
//! | Tsu            | 0, 3, 6, 12, 24                | 0, 2, 3, 4, 5, 6, 7, 10                        |
//!
//! [`Rules`] has these as functions. In Smash the Code a score also sends nuisance to the
//! opponent: each step's score divided by 70 is added to a running total, and every whole 6
//! of it sends one row of skulls ([`Nuisance`]).
//!
//! # How it runs
//!
//! A field is five colour planes and a garbage plane. Each plane is a `u128` in column-major
//! 16-bit lanes counted **from the floor**: cell `(x, y)` is bit `16 * x + (rows - 1 - y)`
//! (the raw plane accessors such as [`Field::color_plane`] use this layout). The bits above
//! the field in each lane, and lanes 6 and 7, are always zero, so a vertical shift cannot leak
//! a cell into the next column once it is ANDed with a plane, and a horizontal shift is a
//! shift by 16.
//!
//! [`Field::simulate`] runs a chain one step at a time:
//!
//! 1. **Vanish**: for every colour whose plane moved since it was last checked, the groups of
//!    4 or more are found with puyoai's neighbour-count filter: a cell of a group of 4+ has 3
//!    same-colour neighbours, or has 2 and touches another cell with 2; every other cell of
//!    such a group touches one of those, so one dilation inside the plane gives the whole
//!    vanishing set. No flood fill, no loop. A colour with no such seed costs about 25
//!    register operations.
//! 2. **Garbage** next to a vanishing cell: the dilated vanishing set ANDed with the garbage
//!    plane and the rows of play.
//! 3. **Score**: blocks, colours and group sizes. A colour's vanishing set of fewer than 8
//!    cells is one group; larger sets (rare) are split by flood fill.
//! 4. **Gravity**: the field is settled after every step, so only the cells above a removed
//!    cell fall. Each round takes the lowest removed cell of every column at once (lane-wise
//!    `r & -r`), keeps the rows below it and moves the rows above down by one; the rounds are
//!    the most cells removed from one column. A field that starts with floating cells gets
//!    one-row falls (a lane-wise add finds the cells resting on the floor) on its first step.
//!    [`ChainEngine::Sse2Bmi2`] instead runs every plane's words through `pext` by the occupancy
//!    and `pdep` into the settled occupancy; it measured slower here.
//!
//! On x86_64 the planes live in SSE2 registers during the chain (vertical shifts per 16-bit
//! lane, horizontal shifts by two bytes); elsewhere the same code runs on `u128`. With AVX2
//! (detected at run time) [`ChainEngine::Avx2`] holds two planes per 256-bit register, so the
//! vanish check of four colours is two register-wide checks and each gravity round moves
//! two planes per instruction; it also skips the check of a register none of whose cells
//! fell, and scores a step of groups of exactly 4 without counting colour by colour. With
//! AVX-512 F and BW [`ChainEngine::Avx512`] holds colours 0-3 in one 512-bit register and merges
//! three-input logic into `vpternlogq`: the vanish check of four colours is 25 instructions.
//! Every engine, and both gravities, are tested against [`naive::puyo`](crate::naive::puyo),
//! a cell-by-cell simulator. Nothing allocates.

mod batch;
mod chain;
mod codes;
#[cfg(target_arch = "x86_64")]
mod codes_avx2;
mod engine;
mod error;
mod field;
mod kernel;
mod pair;
pub mod placement;
mod rules;
mod run;

pub use batch::{simulate_many, simulate_many_with};
pub use chain::{Chain, Step};
pub use codes::{CodeError, CODE_GARBAGE};
pub use engine::ChainEngine;
pub use error::{CellError, PlaceError};
pub use field::{Cell, Field};
pub use pair::{Move, Pair, PairError};
pub use placement::{Drops, Placement, MAX_PLACEMENTS};
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
