//! Word primitives on one row of a grid (a slice of words, bit `x % 64` of word `x / 64` =
//! column `x`).

/// Writes into `out` the runs of `mask` (a row of words, bit `x % 64` of word `x / 64` =
/// column `x`) that contain a bit of `seed` (a subset of `mask`). Runs may span words.
///
/// Upwards (towards larger x) one addition per word carries each seed to the top of its run;
/// downwards a parallel-prefix smear (six shift steps) carries it to the bottom, word by word
/// from the top of the row.
#[inline]
pub(crate) fn close_runs(seed: &[u64], mask: &[u64], out: &mut [u64]) {
    let n = mask.len();
    let mut carry = false;
    for i in 0..n {
        let (s1, c1) = mask[i].overflowing_add(seed[i]);
        let (s2, c2) = s1.overflowing_add(carry as u64);
        carry = c1 | c2;
        out[i] = ((s2 ^ mask[i]) | seed[i]) & mask[i];
    }
    let mut below = 0u64;
    for i in (0..n).rev() {
        let mut p = mask[i];
        let mut g = seed[i] | (below << 63 & p);
        g |= p & (g >> 1);
        p &= p >> 1;
        g |= p & (g >> 2);
        p &= p >> 2;
        g |= p & (g >> 4);
        p &= p >> 4;
        g |= p & (g >> 8);
        p &= p >> 8;
        g |= p & (g >> 16);
        p &= p >> 16;
        g |= p & (g >> 32);
        below = g & 1;
        out[i] |= g;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The downward smear of `close_runs` crosses words; runs spanning three words close whole.
    #[test]
    fn close_runs_spans_words() {
        let mask = [!0u64 << 60, !0, 0b111, 1 << 40];
        let mut seed = [0u64; 4];
        seed[1] = 1 << 7;
        let mut out = [0u64; 4];
        close_runs(&seed, &mask, &mut out);
        assert_eq!(out, [!0u64 << 60, !0, 0b111, 0]);
        seed = [0, 0, 0, 1 << 40];
        close_runs(&seed, &mask, &mut out);
        assert_eq!(out, [0, 0, 0, 1 << 40]);
    }
}
