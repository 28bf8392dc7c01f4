//! Line clears and gravity on Tetris-style boards, in the two layouts such engines use.
//!
//! A row is **full** when every one of its cells is filled. A line clear removes every full
//! row at once, wherever they are; each row above falls by the number of rows cleared below
//! it, and empty rows come in at the top.
//!
//! Every cell position in this module's public API is `(x, y)`: `x` the column from the left,
//! `y` the row **from the top** (row 0 is the top text line, `y = height - 1` the bottom row),
//! like the rest of the crate. Only the raw word accessors ([`RowChunks::chunks`],
//! [`ColumnBoard::column`], [`ColumnBoard::from_columns`], ...) expose the internal bit
//! layout, which counts rows from the floor; each documents it.
//!
//! [`RowChunks`] is the chunked row layout of the article "Line Clears" (several rows per u64);
//! [`RowChunks::clear_full_lines`] removes every full row in one call, and the article's own
//! cascade is kept as [`RowChunks::cascade_clear_lines`], the baseline. [`ColumnBoard`] stores
//! one u64 per column (the layout of [`Tetris`](crate::games::tetris::Tetris)). Gravity:
//! [`ColumnBoard::settle`] and [`settle_planes`] make every column fall to close its gaps;
//! [`settle_down`] does the same for any [`BitBoard`](crate::BitBoard).
//!
//! ```
//! use gridbits::algo::lines::RowChunks;
//! // A 4-wide board: the rows y = 1 and y = 3 are full, y = 2 is not.
//! let mut b: RowChunks = "..#.\n####\n#.##\n####\n".parse().unwrap();
//! assert_eq!(b.full_rows(), vec![1, 3]);
//! assert_eq!(b.clear_full_lines(), 2);
//! assert_eq!(b.to_string(), "....\n....\n..#.\n#.##\n");
//! ```
//!
//! How each layout clears and why Tetris uses columns: docs/algorithms.md.

mod chunk_cascade;
mod columns;
mod gravity;
mod row_chunks;

pub use columns::ColumnBoard;
#[cfg(target_arch = "x86_64")]
pub use gravity::settle_planes_pext;
pub use gravity::{settle_down, settle_planes, PlaneHeightsError};
pub use row_chunks::{RowChunks, MAX_CHUNKED_HEIGHT};

use crate::cpu::Features;

/// `v >> s`, 0 when `s >= 64`.
#[inline(always)]
fn shr(v: u64, s: u32) -> u64 {
    v.checked_shr(s).unwrap_or(0)
}

/// `v << s`, 0 when `s >= 64`.
#[inline(always)]
fn shl(v: u64, s: u32) -> u64 {
    v.checked_shl(s).unwrap_or(0)
}

/// The low `n` bits set (`n` up to 64).
#[inline(always)]
fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        !0
    } else {
        (1u64 << n) - 1
    }
}

/// `v` with the bits `start .. start + len` removed and the bits above moved down by `len`.
#[inline(always)]
fn remove_bits(v: u64, start: u32, len: u32) -> u64 {
    let low = low_bits(start);
    (v & low) | (shr(v, len) & !low)
}

/// The features of the `pext` paths: BMI2 and POPCNT (every BMI2 CPU has it). Query with
/// [`crate::cpu::has`]; force the portable paths with [`crate::cpu::with_level`].
pub const PEXT: Features = Features::BMI2.union(Features::POPCNT);
