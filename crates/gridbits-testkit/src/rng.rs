//! [`SplitMix`]: a small, seeded, dependency-free pseudo-random stream.

/// splitmix64 (Steele, Lea and Flood): a deterministic stream of 64-bit values from a seed.
/// The state is public so that a test can start one from a seed in a literal,
/// `SplitMix(seed)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// A stream from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// The next value (the same as [`SplitMix::next_u64`]).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.next_u64()
    }

    /// A value in `0..n` (`n > 0`; a plain remainder).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// `true` with probability `pct` in 100 (a remainder of the next value).
    pub fn percent(&mut self, pct: u32) -> bool {
        (self.next() % 100) < u64::from(pct)
    }

    /// `true` with probability `per_256` in 256.
    pub fn chance_256(&mut self, per_256: u64) -> bool {
        self.next() % 256 < per_256
    }

    /// `true` with probability `p`: the top 53 bits of the next value as a fraction of 1.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) < p
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix;

    #[test]
    fn the_reference_stream() {
        // splitmix64 from seed 0 (the reference implementation's first outputs).
        let mut r = SplitMix(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }
}
