//! Turning fuzz bytes into bounded values: numbers, sizes and cell patterns.
//!
//! Reading past the end gives zeros, so every input decodes to something and short inputs
//! to small, simple cases.

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
            4 => maze(w, h, self.u64()),
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

/// A perfect maze of passages (`true`) on a `w x h` grid: cells at even coordinates joined
/// by a depth-first search in random order; every passage cell reachable from (0, 0).
pub fn maze(w: usize, h: usize, seed: u64) -> Vec<bool> {
    let mut rng = SplitMix(seed);
    let mut open = vec![false; w * h];
    let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
    let mut seen = vec![false; cw * ch];
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    open[0] = true;
    while let Some(&(cx, cy)) = stack.last() {
        let mut next = Vec::with_capacity(4);
        if cx > 0 && !seen[cy * cw + cx - 1] {
            next.push((cx - 1, cy));
        }
        if cx + 1 < cw && !seen[cy * cw + cx + 1] {
            next.push((cx + 1, cy));
        }
        if cy > 0 && !seen[(cy - 1) * cw + cx] {
            next.push((cx, cy - 1));
        }
        if cy + 1 < ch && !seen[(cy + 1) * cw + cx] {
            next.push((cx, cy + 1));
        }
        if next.is_empty() {
            stack.pop();
            continue;
        }
        let (nx, ny) = next[(rng.next() % next.len() as u64) as usize];
        seen[ny * cw + nx] = true;
        open[(2 * ny) * w + 2 * nx] = true;
        open[(cy + ny) * w + cx + nx] = true;
        stack.push((nx, ny));
    }
    open
}

/// splitmix64: a small deterministic pseudo-random stream.
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next value.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mazes_are_connected_trees() {
        for (w, h) in [(1, 1), (2, 3), (7, 5), (10, 10), (65, 3)] {
            let m = maze(w, h, 7);
            let open = m.iter().filter(|&&c| c).count();
            // Every cell at even coordinates is open; a tree on k cells has k - 1 joins.
            let k = w.div_ceil(2) * h.div_ceil(2);
            assert_eq!(open, 2 * k - 1, "{w}x{h}");
        }
    }

    #[test]
    fn past_the_end_reads_zero() {
        let mut b = Bytes::new(&[5]);
        assert_eq!((b.byte(), b.byte(), b.u64()), (5, 0, 0));
        assert_eq!(Bytes::new(&[]).cells(3, 2), vec![false; 6]);
    }
}
