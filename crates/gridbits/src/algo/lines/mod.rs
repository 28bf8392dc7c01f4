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
//! # The chunked row layout ([`RowChunks`])
//!
//! This is the layout of the article "Line Clears" on a Tetris board stored as several 64-bit
//! chunks. A row is `w` bits (bit `x` = column `x`), and `r = floor(64 / w)` whole rows share
//! one u64 chunk; the top `64 - r * w` bits of each chunk are "overflow" bits that stay zero.
//! The bottom row is row 0 of chunk 0. For the usual width `w = 10` a chunk holds `r = 6` rows
//! with 4 overflow bits, and a 10 x 40 board is 7 chunks (the last one holding 4 rows).
//!
//! [`RowChunks::clear_full_lines`] removes **every** full row in one call, consecutive or
//! not, anywhere on the board, however many: each chunk's full rows are found with one SWAR
//! carry test, the chunk is compacted (`pext`, or shifts without BMI2), and each output chunk
//! is two shifts of two compacted chunks, with no data-dependent branch (a streaming loop
//! takes over once `r` or more rows are gone).
//!
//! # The article's cascade (the baseline)
//!
//! The article clears `l` consecutive full rows at the bottom of chunk `i` by shifting that
//! chunk down `l * w` bits and then, for every chunk above, ORing the bottom `l` rows of the
//! chunk above into the top of the chunk below (two shifts and an OR per chunk) before shifting
//! it down in turn. Its limit: one call clears only **one run of consecutive full rows inside
//! one chunk**; full rows separated by a gap, or in other chunks, need more calls. It is kept
//! as [`RowChunks::cascade_clear_lines`], [`RowChunks::cascade_clear_check`] and
//! [`RowChunks::cascade_clear_all`], the baseline of the benchmark's
//! Tetris rows (`cargo run --release -p gridbits-bench -- --filter tetris`).
//!
//! # The column layout ([`ColumnBoard`])
//!
//! The alternative stores one u64 per column (bit `i` = the `i`-th row from the floor), for
//! a height up to 64. The full rows are the AND of all columns; a clear compacts every column
//! with BMI2 `pext` when the CPU has it (detected at run time) and otherwise removes each run
//! of full rows with two shifts and a mask. A piece touches at most 4 words and its landing
//! row is a leading-zero count per column, which is why [`Tetris`](crate::games::tetris::Tetris)
//! uses this layout.
//!
//! # Gravity
//!
//! [`ColumnBoard::settle`] and [`settle_planes`] make every column fall to close its gaps
//! (several planes, such as the colours of a Puyo field, fall together); [`settle_down`] does
//! the same for any [`BitBoard`](crate::BitBoard), by parallel one-row falls.
//!
//! ```
//! use gridbits::algo::lines::RowChunks;
//! // A 4-wide board: the rows y = 1 and y = 3 are full, y = 2 is not.
//! let mut b: RowChunks = "..#.\n####\n#.##\n####\n".parse().unwrap();
//! assert_eq!(b.full_rows(), vec![1, 3]);
//! assert_eq!(b.clear_full_lines(), 2);
//! assert_eq!(b.to_string(), "....\n....\n..#.\n#.##\n");
//! ```

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
