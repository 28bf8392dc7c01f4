//! Puyo chains: Smash the Code (CodinGame) and Puyo Puyo Tsu on one bit-parallel engine.
//!
//! A [`Field`] is six columns of colour planes plus a garbage plane. Each plane is a `u128`
//! in **column-major 16-bit lanes**: cell `(x, y)` (column `x` from the left, row `y` from the
//! floor) is bit `16 * x + y`. Rows 12 and up of a lane (13 for Tsu's ghost row), and lanes 6
//! and 7, are always zero, so a vertical shift cannot leak a cell into the next column once it
//! is ANDed with a plane, and a horizontal shift is a shift by 16.
//!
//! [`Field::simulate`] runs a whole chain, one step at a time:
//!
//! 1. **Vanish**: for every colour whose plane moved since it was last checked, the groups of
//!    4 or more are found with puyoai's neighbour-count filter: a cell of a group of 4+ has 3
//!    same-colour neighbours, or has 2 and touches another cell with 2; every other cell of
//!    such a group touches one of those, so one dilation inside the plane gives the whole
//!    vanishing set. No flood fill, no loop. A colour with no such seed costs about 25
//!    register operations.
//! 2. **Garbage** orthogonally next to a vanishing cell vanishes too (never in Tsu's ghost
//!    row; the ghost row's colours never vanish or connect either).
//! 3. **Score**: blocks, colours and group sizes. A colour's vanishing set of fewer than 8
//!    cells is one group; larger sets (rare) are split by flood fill.
//! 4. **Gravity**: the field is settled after every step, so only the cells above a removed
//!    cell fall. Each round takes the lowest removed cell of every column at once (lane-wise
//!    `r & -r`), keeps the rows below it and moves the rows above down by one; the rounds are
//!    the most cells removed from one column. A field that starts with floating cells gets
//!    one-row falls (a lane-wise add finds the cells resting on the floor) on its first step.
//!    [`Engine::Sse2Bmi2`] instead runs every plane's words through `pext` by the occupancy
//!    and `pdep` into the settled occupancy; it measured slower here.
//!
//! On x86_64 the planes live in SSE2 registers during the chain (vertical shifts per 16-bit
//! lane, horizontal shifts by two bytes); elsewhere the same code runs on `u128`. With AVX2
//! (detected at run time) [`Engine::Avx2`] holds two planes per 256-bit register, so the
//! vanish check of four colours is two register-wide checks and each gravity round moves
//! two planes per instruction; it also skips the check of a register none of whose cells
//! fell, and scores a step of groups of exactly 4 without counting colour by colour. With
//! AVX-512 F and BW [`Engine::Avx512`] holds colours 0-3 in one 512-bit register and merges
//! three-input logic into `vpternlogq`: the vanish check of four colours is 25 instructions.
//! Every engine, and both gravities, are tested against [`naive::puyo`](crate::naive::puyo).
//! Nothing allocates.
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
//! let chain = field.simulate();
//! assert_eq!(chain.chain, 2);
//! // 10 * 4 * max(1, 0) + 10 * 4 * (8 + 0 + 0)
//! assert_eq!(chain.score, 40 + 320);
//! assert_eq!(chain.field.count(), 0);
//! ```

mod chain;
mod engine;
mod field;
mod kernel;
mod rules;

pub use chain::{Chain, Step};
pub use engine::Engine;
pub use field::{Cell, Field, PlaceError};
pub use rules::{Nuisance, Rules};

/// Number of columns of every Puyo field.
pub const COLUMNS: usize = 6;
/// Number of colours a field may hold.
pub const COLORS: usize = 5;
/// Rows that take part in vanishing (rows 0..12 from the floor).
pub const ACTIVE_ROWS: usize = 12;
/// The longest possible chain: every step vanishes at least 4 of the 78 cells.
pub const MAX_CHAIN: usize = 20;

const LANE: u32 = 16;

/// The mask of rows `0..rows` in each of the six columns.
const fn rows_mask(rows: usize) -> u128 {
    let mut m = 0u128;
    let mut x = 0;
    while x < COLUMNS {
        m |= ((1u128 << rows) - 1) << (LANE as usize * x);
        x += 1;
    }
    m
}

/// Rows 0..12 of every column: the cells that vanish and connect.
pub const ACTIVE: u128 = rows_mask(ACTIVE_ROWS);
/// Every one of the 6 x 13 cells a field may use.
pub const ALL: u128 = rows_mask(13);
/// Bit 0 of each of the eight lanes.
const LANE_ONES: u128 = 0x0001_0001_0001_0001_0001_0001_0001_0001;
/// Bit 15 of each of the eight lanes.
const LANE_HIGH: u128 = LANE_ONES << 15;

/// Index of the garbage plane among a field's planes.
const GARBAGE: usize = COLORS;
