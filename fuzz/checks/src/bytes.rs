//! Turning fuzz bytes into bounded values: numbers, sizes and cell patterns.
//!
//! Reading past the end gives zeros, so every input decodes to something and short inputs
//! to small, simple cases.

use gridbits_testkit::{maze_cells, SplitMix};

/// A reader over the fuzz input.
pub struct Bytes<'a> {
    data: &'a [u8],
}

/// Sizes that sit on word edges, picked more often than their share.
const EDGE_SIDES: [usize; 8] = [1, 2, 63, 64, 65, 127, 128, 129];

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }

    /// The next byte, 0 past the end.
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// Whether bytes are left.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// A bool from the low bit of the next byte.
    pub fn bool(&mut self) -> bool {
        self.byte() & 1 != 0
    }

    /// A little-endian `u64` from the next eight bytes.
    pub fn u64(&mut self) -> u64 {
        (0..8).fold(0, |v, i| v | u64::from(self.byte()) << (8 * i))
    }

    /// A value in `0..n` (`n > 0`): one byte for `n <= 256`, else two.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0);
        if n <= 256 {
            usize::from(self.byte()) % n
        } else {
            (usize::from(self.byte()) | usize::from(self.byte()) << 8) % n
        }
    }

    /// A side length in `1..=max`, word edges (63, 64, 65, ...) often.
    pub fn side(&mut self, max: usize) -> usize {
        let b = usize::from(self.byte());
        if b >= 224 {
            EDGE_SIDES[b % EDGE_SIDES.len()].min(max)
        } else {
            1 + b % max
        }
    }

    /// `w * h` cells (row-major) in one of several patterns, chosen by the next byte:
    /// raw bits, runs, random at a density, constant with toggled cells, a perfect maze, or
    /// overlapping rectangles.
    pub fn cells(&mut self, w: usize, h: usize) -> Vec<bool> {
        let n = w * h;
        match self.byte() % 6 {
            0 => {
                // One bit per cell, low bit first.
                let mut out = Vec::with_capacity(n);
                while out.len() < n {
                    let b = self.byte();
                    out.extend((0..8).map(|i| b >> i & 1 != 0).take(n - out.len()));
                }
                out
            }
            1 => {
                // Alternating runs (empty first), each as long as the next byte.
                let mut out = Vec::with_capacity(n);
                let mut v = false;
                while out.len() < n && !self.is_empty() {
                    let len = usize::from(self.byte()).min(n - out.len());
                    out.extend(std::iter::repeat_n(v, len));
                    v = !v;
                }
                out.resize(n, false);
                out
            }
            2 => {
                // Random at density d/255 (0: empty, 255: full).
                let mut rng = SplitMix(self.u64());
                let d = u64::from(self.byte());
                (0..n).map(|_| rng.next() % 255 < d).collect()
            }
            3 => {
                // Constant, with cells toggled.
                let mut out = vec![self.bool(); n];
                for _ in 0..self.byte() {
                    let (x, y) = (self.below(w), self.below(h));
                    out[y * w + x] ^= true;
                }
                out
            }
            4 => maze_cells(w, h, self.u64()),
            _ => {
                // Rectangles toggled in turn.
                let mut out = vec![false; n];
                for _ in 0..self.byte() % 16 {
                    let (x0, y0) = (self.below(w), self.below(h));
                    let (x1, y1) = (x0 + self.below(w - x0), y0 + self.below(h - y0));
                    for y in y0..=y1 {
                        for c in &mut out[y * w + x0..=y * w + x1] {
                            *c ^= true;
                        }
                    }
                }
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_the_end_reads_zero() {
        let mut b = Bytes::new(&[5]);
        assert_eq!((b.byte(), b.byte(), b.u64()), (5, 0, 0));
        assert_eq!(Bytes::new(&[]).cells(3, 2), vec![false; 6]);
    }

    #[test]
    fn pattern_4_is_the_kits_maze() {
        // The maze pattern decodes to `gridbits_testkit::maze_cells` (a connected tree, tested
        // there) with the seed that follows it.
        let mut b = Bytes::new(&[4, 7, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(b.cells(7, 5), maze_cells(7, 5, 7));
    }
}
