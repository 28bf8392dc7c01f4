//! Bit planes of the Tetris matrix as one byte a cell (1 = set), rows from the top: the
//! board part of a [`TetrisEnv`](super::TetrisEnv) observation, written from the column
//! words (bit `y` of column `x`: the cell `(x, y)` counted from the floor), and the
//! placement mask, written from the lock planes (bit `y` counted from the top). A
//! transposition: on x86-64 with SSE2 (planes up to 16 wide, [`super::tetris_cells_x86`])
//! every row is one shift, one mask and one 16-byte store; the portable form (every width,
//! tested against it under [`crate::cpu::Level::Portable`]) fills the matrix's rows above
//! the stack at once and builds the other rows eight at a time in byte lanes.

/// 1 in every byte.
const LANE_ONE: u64 = 0x0101_0101_0101_0101;

/// Writes every row of the plane whose columns are `cols` (`h` rows, at most 64) into the
/// first `h * W` bytes of `out`: row by row from the top, `W` bytes a row, 1 = set. Bit `y`
/// of a column is row `y` from the top when `FROM_TOP` (the lock planes), else row `y` from
/// the floor (the matrix). The columns hold no bit at or above `h`. The bytes of `out` past
/// the plane may be overwritten (the caller writes them after): a row is one 16-byte store
/// on SSE2 even where it is narrower.
pub(super) fn write_cells<const W: usize, const FROM_TOP: bool>(
    cols: &[u64; W],
    h: usize,
    out: &mut [u8],
) {
    #[cfg(target_arch = "x86_64")]
    if W <= super::tetris_cells_x86::MAX_WIDTH && crate::cpu::has(crate::cpu::Features::SSE2) {
        // SAFETY: SSE2 is present (checked just above); the function stores only inside
        // `out`.
        unsafe { super::tetris_cells_x86::write_cells::<W, FROM_TOP>(cols, h, out) };
        return;
    }
    if FROM_TOP {
        write_rows::<W, true>(cols, h, &mut out[..h * W]);
        return;
    }
    // The empty rows above the stack at once, then the stack.
    let top = ((64 - cols.iter().fold(0, |a, c| a | c).leading_zeros()) as usize).min(h);
    let (empty, stack) = out[..h * W].split_at_mut((h - top) * W);
    empty.fill(0);
    write_rows::<W, false>(cols, top, stack);
}

/// Writes the cells of the lowest `n` bits of `cols` into `out`, `W` bytes a row from the
/// top (1 = set): bit `y` is row `y` when `FROM_TOP`, else row `n - 1 - y`. Eight rows at a
/// time: byte `x` of the lane words holds column `x`'s bits `lo .. lo + 8`, so each row is
/// one shift and mask per word of eight cells.
fn write_rows<const W: usize, const FROM_TOP: bool>(cols: &[u64; W], n: usize, out: &mut [u8]) {
    let mut rows = out.chunks_exact_mut(W);
    for block in 0..n.div_ceil(8) {
        // The block's bits `lo .. lo + count`, in the order of the rows.
        let (lo, count) = if FROM_TOP {
            (8 * block, (n - 8 * block).min(8))
        } else {
            let hi = n - 8 * block;
            let lo = hi.saturating_sub(8);
            (lo, hi - lo)
        };
        let mut lanes = [0u64; 8]; // W is at most 64: at most 8 words
        for (x, &col) in cols.iter().enumerate() {
            lanes[x / 8] |= (col >> lo & 0xFF) << (8 * (x % 8));
        }
        for k in 0..count {
            let j = if FROM_TOP { k } else { count - 1 - k };
            let Some(row) = rows.next() else { return };
            // Whole words of eight cells, then the last `W % 8` (lengths known at compile
            // time: no loop, no call).
            let (whole, part) = row.split_at_mut(W / 8 * 8);
            for (cells, &w) in whole.chunks_exact_mut(8).zip(&lanes) {
                cells.copy_from_slice(&(w >> j & LANE_ONE).to_le_bytes());
            }
            if !W.is_multiple_of(8) {
                let bytes = (lanes[(W / 8).min(7)] >> j & LANE_ONE).to_le_bytes();
                part.copy_from_slice(&bytes[..W % 8]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{write_cells, write_rows};
    use crate::cpu::{with_level, Level};
    use crate::games::rng::GameRng;

    /// Random columns of a matrix `h` high: empty, full, or random at a density (in 256ths)
    /// under a random stack height.
    fn columns<const W: usize>(rng: &mut GameRng, h: usize, kind: u64) -> [u64; W] {
        let below = |n: usize| if n >= 64 { !0 } else { (1u64 << n) - 1 };
        let top = rng.below(h as u64 + 1) as usize;
        let density = rng.below(257);
        std::array::from_fn(|_| match kind {
            0 => 0,
            1 => below(h),
            _ => {
                let mut c = 0u64;
                for y in 0..top {
                    c |= u64::from(rng.below(256) < density) << y;
                }
                c
            }
        })
    }

    /// The cells of `cols` against the per-cell rule, row by row from the top (bit `y` is
    /// row `y` when `from_top`, else row `h - 1 - y`).
    fn check<const W: usize>(cols: &[u64; W], h: usize, from_top: bool, board: &[u8], what: &str) {
        for (i, row) in board.chunks_exact(W).enumerate() {
            let y = if from_top { i } else { h - 1 - i };
            for (x, &o) in row.iter().enumerate() {
                assert_eq!(
                    o,
                    (cols[x] >> y & 1) as u8,
                    "{what} W {W} h {h} y {y} x {x}"
                );
            }
        }
    }

    /// `write_cells` in both bit orders at every CPU level against the per-cell rule, on
    /// every height up to 64, the empty and the full matrix and random stacks (upside down
    /// for the order from the top), into a slice of the board's length and into one with
    /// room after it; the bytes before the board are left alone.
    fn cells_agree<const W: usize>(rng: &mut GameRng) {
        for h in 1..=64 {
            for kind in 0..6 {
                let cols = columns::<W>(rng, h, kind);
                for level in Level::ALL {
                    for (slack, from_top) in [0, 1, 6, 16]
                        .into_iter()
                        .flat_map(|s| [(s, false), (s, true)])
                    {
                        let mut buf = vec![7u8; 20 + h * W + slack];
                        with_level(level, || {
                            if from_top {
                                write_cells::<W, true>(&cols, h, &mut buf[20..]);
                            } else {
                                write_cells::<W, false>(&cols, h, &mut buf[20..]);
                            }
                        });
                        check(
                            &cols,
                            h,
                            from_top,
                            &buf[20..20 + h * W],
                            &format!("{level:?} {slack} {from_top}"),
                        );
                        assert!(buf[..20].iter().all(|&b| b == 7));
                    }
                }
            }
        }
    }

    #[test]
    fn cells_equal_the_per_cell_rule() {
        let mut rng = GameRng::new(6);
        cells_agree::<1>(&mut rng);
        cells_agree::<2>(&mut rng);
        cells_agree::<4>(&mut rng);
        cells_agree::<7>(&mut rng);
        cells_agree::<8>(&mut rng);
        cells_agree::<9>(&mut rng);
        cells_agree::<10>(&mut rng);
        cells_agree::<15>(&mut rng);
        cells_agree::<16>(&mut rng);
        cells_agree::<17>(&mut rng);
        cells_agree::<33>(&mut rng);
        cells_agree::<63>(&mut rng);
        cells_agree::<64>(&mut rng);
    }

    /// `write_rows` in both bit orders against the per-cell rule, on random columns of every
    /// height up to 64 (blocks of eight rows and the rest) and widths across the eight-cell
    /// words.
    fn rows_agree<const W: usize>(rng: &mut GameRng) {
        for top in 0..=64 {
            let cols: [u64; W] = std::array::from_fn(|_| {
                let v = rng.next_u64() & rng.next_u64();
                if top == 64 {
                    v
                } else {
                    v & ((1u64 << top) - 1)
                }
            });
            let (mut down, mut up) = (vec![7u8; top * W], vec![7u8; top * W]);
            write_rows::<W, false>(&cols, top, &mut down);
            write_rows::<W, true>(&cols, top, &mut up);
            if top > 0 {
                check(&cols, top, false, &down, "rows from the floor");
                check(&cols, top, true, &up, "rows from the top");
            }
        }
    }

    #[test]
    fn rows_equal_the_cells() {
        let mut rng = GameRng::new(5);
        rows_agree::<1>(&mut rng);
        rows_agree::<7>(&mut rng);
        rows_agree::<8>(&mut rng);
        rows_agree::<9>(&mut rng);
        rows_agree::<10>(&mut rng);
        rows_agree::<16>(&mut rng);
        rows_agree::<63>(&mut rng);
        rows_agree::<64>(&mut rng);
    }
}
