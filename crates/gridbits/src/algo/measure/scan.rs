//! The cells of every region of a label image, block by block, found without a branch per
//! cell: each block of 64 cells becomes bit masks (cells of a region, cells equal to the
//! block's first region cell, cells that differ from the one before) built from comparisons
//! that the compiler turns into vector code. A block of one region (the common case in
//! images of large regions) is visited once, as a mask; a block of several regions once
//! per run of equal labels in it, where a per-cell loop mispredicts a branch at every
//! change of label.

use super::LabelValue;

/// Visits the cells of every region block by block: for each block of 64 cells of each
/// row, `visit(label, y, base, piece)` with `piece` a mask of cells (bit `i`: cell `base +
/// i` of row `y`) of one region: a block of one region (the common case) is one piece,
/// whatever its gaps; a block of several regions is cut into its runs of equal labels (a
/// run that crosses blocks comes in one piece per block). Errors are those of `visit`.
#[inline(always)]
pub(super) fn for_each_piece<T: LabelValue, E>(
    labels: &[T],
    width: usize,
    height: usize,
    mut visit: impl FnMut(u64, usize, usize, u64) -> Result<(), E>,
) -> Result<(), E> {
    for y in 0..height {
        let row = &labels[y * width..(y + 1) * width];
        for (b, block) in row.chunks(64).enumerate() {
            let base = b * 64;
            let mut cells = [0u64; 64];
            for (c, &v) in cells.iter_mut().zip(block) {
                *c = v.label();
            }
            let set = mask(&cells, |c| c != 0);
            if set == 0 {
                continue;
            }
            let first = cells[set.trailing_zeros() as usize];
            if mask(&cells, |c| c == first) == set {
                visit(first, y, base, set)?;
                continue;
            }
            // Runs within the block: from a cell that differs from the one before (the
            // block's first cell starts one) to one that differs from the one after.
            let mut previous = [0u64; 64];
            previous[1..].copy_from_slice(&cells[..63]);
            let differs = mask_pairs(&cells, &previous) | 1;
            let mut starts = set & differs;
            let mut ends = set & ((differs >> 1) | (1 << 63));
            while starts != 0 {
                let (s, e) = (starts.trailing_zeros(), ends.trailing_zeros());
                starts &= starts - 1;
                ends &= ends - 1;
                // Bits s..=e.
                let piece = (u64::MAX >> (63 - e)) & (u64::MAX << s);
                visit(cells[s as usize], y, base, piece)?;
            }
        }
    }
    Ok(())
}

/// Bit `i` set where `keep(cells[i])`: one loop the compiler vectorizes.
#[inline(always)]
fn mask(cells: &[u64; 64], keep: impl Fn(u64) -> bool) -> u64 {
    let mut m = 0u64;
    for (i, &c) in cells.iter().enumerate() {
        m |= u64::from(keep(c)) << i;
    }
    m
}

/// Bit `i` set where `a[i] != b[i]`.
#[inline(always)]
fn mask_pairs(a: &[u64; 64], b: &[u64; 64]) -> u64 {
    let mut m = 0u64;
    for i in 0..64 {
        m |= u64::from(a[i] != b[i]) << i;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::for_each_piece;

    #[test]
    fn pieces_cover_every_region_cell_once() {
        // xorshift64: the test kit is for the integration tests only.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for width in [0usize, 1, 2, 63, 64, 65, 127, 128, 129, 300] {
            for classes in [1u64, 2, 3, 7] {
                for _ in 0..10 {
                    let (height, long) = (3, next(2) == 0);
                    let mut cells: Vec<i16> = Vec::with_capacity(width * height);
                    for c in 0..width * height {
                        let copy = c % width.max(1) > 0 && long && next(5) != 0;
                        cells.push(if copy {
                            cells[c - 1]
                        } else {
                            next(classes) as i16 - 1
                        });
                    }
                    let mut seen = vec![0u32; cells.len()];
                    let r = for_each_piece(&cells, width, height, |l, y, base, piece| {
                        let mut m = piece;
                        assert!(piece != 0 && base + 64 - piece.leading_zeros() as usize <= width);
                        while m != 0 {
                            let c = y * width + base + m.trailing_zeros() as usize;
                            m &= m - 1;
                            seen[c] += 1;
                            assert_eq!(cells[c].max(0) as u64, l);
                        }
                        Ok::<(), ()>(())
                    });
                    assert!(r.is_ok());
                    for (c, &v) in cells.iter().enumerate() {
                        assert_eq!(seen[c], u32::from(v > 0), "{width} {cells:?}");
                    }
                }
            }
        }
    }
}
