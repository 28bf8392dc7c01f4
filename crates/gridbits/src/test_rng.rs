//! The xorshift generator of the crate's unit tests (the integration tests have their own,
//! in `tests/common`).

/// Marsaglia's xorshift64 with shifts 13, 7, 17: a fixed stream from a non-zero seed.
pub(crate) struct XorShift(pub(crate) u64);

impl XorShift {
    /// The next 64 bits of the stream.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// `true` with probability `p` percent.
    pub(crate) fn percent(&mut self, p: u64) -> bool {
        self.next_u64() % 100 < p
    }
}
