//! Word helpers the scans share: masks, run starts, set-bit positions and merged unit rows.

/// Bits `0..=p` of a word.
#[inline(always)]
pub(super) fn upto(p: u32) -> u64 {
    u64::MAX >> (63 - p)
}

/// Run starts of a row word: set cells whose left neighbour is empty. `carry` is the top
/// bit of the previous word of the row, in bit 0.
#[inline(always)]
pub(super) fn starts(w: u64, carry: u64) -> u64 {
    w & !((w << 1) | carry)
}

/// Appends the positions `base + i` of the set bits `i` of `m` to `out` at `*n`.
#[inline(always)]
pub(super) fn push_bits(mut m: u64, base: u32, out: &mut [u32], n: &mut usize) {
    while m != 0 {
        out[*n] = base + m.trailing_zeros();
        *n += 1;
        m &= m - 1;
    }
}

/// Word `j` of the merged row of unit `k`: the OR of its `unit` rows.
#[inline(always)]
pub(super) fn merged(words: &[u64], wpr: usize, h: usize, unit: usize, k: usize, j: usize) -> u64 {
    let y = k * unit;
    let mut m = words[y * wpr + j];
    if unit == 2 && y + 1 < h {
        m |= words[(y + 1) * wpr + j];
    }
    m
}

/// The number of runs of the merged row of unit `k` (of `unit` rows).
#[inline(always)]
pub(super) fn unit_runs(words: &[u64], wpr: usize, h: usize, unit: usize, k: usize) -> u32 {
    let mut n = 0;
    let mut carry = 0;
    for j in 0..wpr {
        let m = merged(words, wpr, h, unit, k, j);
        n += starts(m, carry).count_ones();
        carry = m >> 63;
    }
    n
}
