//! The algorithm of the article "Fast Connected Components for 6x12 bitboard": a lookup
//! table indexed by two consecutive rows, for boards up to 8 cells wide.
//!
//! For each pair of rows the table gives, for each run of the lower row, which runs of the
//! upper row share its component in the two-row window; one scan down the board then
//! continues, merges, starts and seals components with no allocation (the algorithm, and the
//! article's caveat it handles, in docs/algorithms.md).
//!
//! The tables take `4^w` entries of 8 bytes: 32 KiB for width 6, 512 KiB for width 8;
//! each (width, connectivity) table is built on first use and shared.
//!
//! ```
//! use gridbits::algo::components::table::{self, RowPairTable};
//! use gridbits::{bitboard, Board, Connectivity};
//! // The article's example: rows 101010 over 111001 (column 0 is bit 0).
//! let t = RowPairTable::get(6, Connectivity::Four);
//! let (upper, lower) = (0b010101, 0b100111);
//! assert_eq!(t.index(upper, lower, 0), 0b011);
//! assert_eq!(t.row(upper, lower, 0), 0b000111);
//! assert_eq!((t.index(upper, lower, 1), t.row(upper, lower, 1)), (0, 0b100000));
//! assert_eq!((t.index(upper, lower, 2), t.row(upper, lower, 2)), (0, 0));
//!
//! type B = Board<6, 2, 1>;
//! let plane = bitboard!(B; "#.#.#.", "###..#");
//! assert_eq!(table::components(plane, Connectivity::Four).len(), 3);
//! assert_eq!(table::components(plane, Connectivity::Eight).len(), 2);
//! ```

use super::ComponentsError;
use crate::{Board, Connectivity};
use std::sync::OnceLock;

/// The widest board the table supports.
pub const MAX_WIDTH: usize = 8;

/// Running components per row for a board `width` cells wide: `ceil(width / 2)`.
pub const fn slots(width: usize) -> usize {
    width.div_ceil(2)
}

/// The transition table of one width and connectivity. See the [module
/// documentation](self).
#[derive(Clone, Debug)]
pub struct RowPairTable {
    width: usize,
    conn: Connectivity,
    /// Entry `upper | lower << width`: four 16-bit slots, each `row | index << 8`.
    entries: Box<[u64]>,
}

static TABLES: [OnceLock<RowPairTable>; 2 * MAX_WIDTH] = [const { OnceLock::new() }; 2 * MAX_WIDTH];

/// Whether the table supports boards `width` cells wide.
fn check_width(width: usize) -> Result<(), ComponentsError> {
    if (1..=MAX_WIDTH).contains(&width) {
        Ok(())
    } else {
        Err(ComponentsError::TableWidth { width })
    }
}

/// The runs of a row, lowest first, as masks.
fn runs(mut row: u32) -> Vec<u32> {
    let mut out = Vec::new();
    while row != 0 {
        let low = row & row.wrapping_neg();
        // The run starting at `low`: add carries through it.
        let run = (row.wrapping_add(low) ^ row) & row;
        out.push(run);
        row &= !run;
    }
    out
}

/// Bit-BFS inside the two-row window from one cell of the lower row: the component's
/// cells in the upper and the lower row.
fn window_fill(upper: u32, lower: u32, start: u32, width: usize, conn: Connectivity) -> (u32, u32) {
    let full = (1u32 << width) - 1;
    let spread = |r: u32| (r | r << 1 | r >> 1) & full;
    let (mut cu, mut cl) = (0u32, start & lower);
    loop {
        let (nu, nl) = match conn {
            Connectivity::Four => ((spread(cu) | cl) & upper, (spread(cl) | cu) & lower),
            Connectivity::Eight => (
                (spread(cu) | spread(cl)) & upper,
                (spread(cl) | spread(cu)) & lower,
            ),
        };
        if (nu, nl) == (cu, cl) {
            return (cu, cl);
        }
        (cu, cl) = (nu, nl);
    }
}

impl RowPairTable {
    /// Builds the table for boards `width` cells wide (`1..=8`), or says why not.
    ///
    /// ```
    /// use gridbits::algo::components::table::RowPairTable;
    /// use gridbits::Connectivity;
    /// assert_eq!(RowPairTable::try_build(3, Connectivity::Eight).unwrap().len(), 64);
    /// assert!(RowPairTable::try_build(9, Connectivity::Four).is_err());
    /// ```
    pub fn try_build(width: usize, conn: Connectivity) -> Result<RowPairTable, ComponentsError> {
        check_width(width)?;
        Ok(Self::build(width, conn))
    }

    /// Builds the table for boards `width` cells wide (`1..=8`).
    ///
    /// # Panics
    ///
    /// On another width; [`try_build`](Self::try_build) returns an error instead.
    pub fn build(width: usize, conn: Connectivity) -> RowPairTable {
        if let Err(e) = check_width(width) {
            panic!("{e}");
        }
        let full = (1u32 << width) - 1;
        let entries = (0..1u32 << (2 * width))
            .map(|code| {
                let (upper, lower) = (code & full, code >> width);
                let upper_runs = runs(upper);
                let mut entry = 0u64;
                for (slot, run) in runs(lower).into_iter().enumerate() {
                    // BFS from the run's start (pattern ^1|01).
                    let (cu, _) = window_fill(upper, lower, run & run.wrapping_neg(), width, conn);
                    let index = upper_runs
                        .iter()
                        .enumerate()
                        .filter(|(_, &r)| r & cu != 0)
                        .fold(0u64, |acc, (i, _)| acc | 1 << i);
                    entry |= (u64::from(run) | index << 8) << (16 * slot);
                }
                entry
            })
            .collect();
        RowPairTable {
            width,
            conn,
            entries,
        }
    }

    /// The shared table for `width` (`1..=8`) and `conn`, built on first use, or says why
    /// not.
    pub fn try_get(
        width: usize,
        conn: Connectivity,
    ) -> Result<&'static RowPairTable, ComponentsError> {
        check_width(width)?;
        Ok(Self::get(width, conn))
    }

    /// The shared table for `width` (`1..=8`) and `conn`, built on first use.
    ///
    /// # Panics
    ///
    /// On another width; [`try_get`](Self::try_get) returns an error instead.
    pub fn get(width: usize, conn: Connectivity) -> &'static RowPairTable {
        if let Err(e) = check_width(width) {
            panic!("{e}");
        }
        let i = 2 * (width - 1) + usize::from(conn == Connectivity::Eight);
        TABLES[i].get_or_init(|| Self::build(width, conn))
    }

    /// Board width of this table.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Connectivity of this table.
    pub fn connectivity(&self) -> Connectivity {
        self.conn
    }

    /// Number of entries, `4^width`.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no entries (never: the smallest has 4).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    #[inline(always)]
    fn entry(&self, upper: u32, lower: u32) -> u64 {
        self.entries[(upper | lower << self.width) as usize]
    }

    /// `tableIndex[upper lower][slot]`: which running components of the upper row (bit
    /// `i` for slot `i`) continue into run `slot` of the lower row. Rows are bit masks,
    /// column 0 in bit 0.
    ///
    /// # Panics
    ///
    /// If a row has bits past the width or `slot >= 4`.
    pub fn index(&self, upper: u32, lower: u32, slot: usize) -> u32 {
        assert!(upper >> self.width == 0 && lower >> self.width == 0 && slot < 4);
        (self.entry(upper, lower) >> (16 * slot + 8)) as u32 & 0xf
    }

    /// `tableRow[upper lower][slot]`: the cells of run `slot` of the lower row (0 when the
    /// lower row has fewer runs).
    ///
    /// # Panics
    ///
    /// Like [`index`](Self::index).
    pub fn row(&self, upper: u32, lower: u32, slot: usize) -> u32 {
        assert!(upper >> self.width == 0 && lower >> self.width == 0 && slot < 4);
        (self.entry(upper, lower) >> (16 * slot)) as u32 & 0xff
    }
}

/// Row `y` of `plane` as `W` bits, column 0 in bit 0.
#[inline(always)]
fn row_bits<const W: usize, const H: usize, const N: usize>(
    plane: &Board<W, H, N>,
    y: usize,
) -> u32 {
    let i = y * Board::<W, H, N>::STRIDE;
    let full = (1u32 << W) - 1;
    if N <= 2 {
        (plane.to_u128() >> i) as u32 & full
    } else {
        let (w, b) = (i / 64, i % 64);
        let mut v = plane.words[w] >> b;
        if b + W > 64 {
            v |= plane.words[w + 1] << (64 - b);
        }
        v as u32 & full
    }
}

/// ORs `row` (column 0 in bit 0) into row `y` of `board`.
#[inline(always)]
fn put_row<const W: usize, const H: usize, const N: usize>(
    board: &mut Board<W, H, N>,
    row: u32,
    y: usize,
) {
    let i = y * Board::<W, H, N>::STRIDE;
    let (w, b) = (i / 64, i % 64);
    board.words[w] |= u64::from(row) << b;
    if b + W > 64 {
        board.words[w + 1] |= u64::from(row) >> (64 - b);
    }
}

/// Calls `f` with every component of `plane`, by the row-pair table. Components come in
/// the order they are sealed (when the scan leaves them), so sort if order matters.
/// Compile-time error for boards wider than 8.
pub fn for_each_component<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    conn: Connectivity,
    mut f: impl FnMut(Board<W, H, N>),
) {
    const { assert!(W <= MAX_WIDTH, "the row-pair table supports widths up to 8") };
    let table = RowPairTable::get(W, conn);
    let n_slots = slots(W);
    // Component ids 1..=2*slots; 0 is "no component" (the article's background).
    let mut comps = [Board::<W, H, N>::EMPTY; 2 * MAX_WIDTH / 2 + 1];
    let mut free: u32 = ((1u32 << (2 * n_slots)) - 1) << 1;
    let mut running = [0u8; 4];
    let mut prev = 0u32;
    for y in 0..H {
        let row = row_bits(&plane, y);
        if row == 0 && prev == 0 {
            continue; // skip empty rows
        }
        let entry = table.entry(prev, row);
        let mut old = running;
        running = [0; 4];
        for j in 0..n_slots {
            let slot = (entry >> (16 * j)) as u32 & 0xffff;
            let (index, cells) = (slot >> 8, slot & 0xff);
            if index != 0 {
                // Continue: the first continued component keeps its id ...
                let id = old[index.trailing_zeros() as usize];
                let mut others = index & (index - 1);
                while others != 0 {
                    let i = others.trailing_zeros() as usize;
                    others &= others - 1;
                    let merged = old[i];
                    if merged != id {
                        // ... the others merge into it and every reference moves.
                        let m = comps[merged as usize];
                        comps[id as usize] |= m;
                        comps[merged as usize] = Board::EMPTY;
                        free |= 1 << merged;
                        for k in 0..4 {
                            if old[k] == merged {
                                old[k] = id;
                            }
                            if running[k] == merged {
                                running[k] = id;
                            }
                        }
                    }
                }
                put_row(&mut comps[id as usize], cells, y);
                running[j] = id;
            } else if cells != 0 {
                // New component.
                let id = free.trailing_zeros() as u8;
                free &= free - 1;
                comps[id as usize] = Board::EMPTY;
                put_row(&mut comps[id as usize], cells, y);
                running[j] = id;
            } else {
                // Terminate: this slot and the ones after it are empty.
                break;
            }
        }
        // Seal the components no running slot refers to any more.
        let mut live = 0u32;
        for &id in &running {
            live |= 1 << id;
        }
        let mut sealed = 0u32;
        for &id in &old {
            sealed |= 1 << id;
        }
        sealed &= !live & !1;
        while sealed != 0 {
            let id = sealed.trailing_zeros() as usize;
            sealed &= sealed - 1;
            f(comps[id]);
            free |= 1 << id;
        }
        prev = row;
    }
    let mut live = 0u32;
    for &id in &running {
        live |= 1 << id;
    }
    live &= !1;
    while live != 0 {
        let id = live.trailing_zeros() as usize;
        live &= live - 1;
        f(comps[id]);
    }
}

/// Every component of `plane` by the row-pair table, sorted in raster order of their
/// lowest cell. Compile-time error for boards wider than 8.
pub fn components<const W: usize, const H: usize, const N: usize>(
    plane: Board<W, H, N>,
    conn: Connectivity,
) -> Vec<Board<W, H, N>> {
    let mut out = Vec::new();
    for_each_component(plane, conn, |c| out.push(c));
    out.sort_by_key(|c| c.lowest_index());
    out
}
