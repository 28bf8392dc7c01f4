//! The "Line Clears" article's own clear on [`RowChunks`]: one run of consecutive full rows
//! inside one chunk per call, cascaded through the chunks above with two shifts and an OR per
//! chunk. Kept as a named baseline; [`RowChunks::clear_full_lines`] clears every full row in
//! one call.

use super::{shl, shr, RowChunks};

impl RowChunks {
    /// The article's `clear_lines(b, lines, i)`: shifts chunk `i` (a raw chunk index, bottom
    /// chunk 0) down by `lines` rows and cascades every chunk above down by the same number
    /// of rows, refilling each chunk's top rows from the chunk above: two shifts and an OR per
    /// chunk. Only right for `lines` full rows at the bottom of chunk `i`; `lines` is capped
    /// at `r`.
    ///
    /// Unlike the C original, shifts of 64 bits (width 64, one row per chunk) are defined, and
    /// the rows pulled from the chunk above are masked so that the overflow bits stay zero.
    ///
    /// ```
    /// use gridbits::algo::lines::RowChunks;
    /// let mut b: RowChunks = "#.\n.#\n##\n".parse().unwrap(); // 2 wide: 32 rows per chunk
    /// b.cascade_clear_lines(1, 0); // the bottom row is full
    /// assert_eq!(b.to_string(), "..\n#.\n.#\n");
    /// ```
    ///
    /// # Panics
    /// When `i` is not a chunk index.
    pub fn cascade_clear_lines(&mut self, lines: usize, i: usize) {
        let (w, r) = (self.width, self.rows_per_chunk);
        let l = (lines as u32).min(r);
        let n = self.chunks.len();
        let mut i = i;
        self.chunks[i] = shr(self.chunks[i], l * w);
        i += 1;
        while i < n {
            self.chunks[i - 1] |= shl(self.chunks[i], (r - l) * w) & self.cells_mask;
            self.chunks[i] = shr(self.chunks[i], l * w);
            i += 1;
        }
    }

    /// The article's `clear_check(b, i)`: finds the lowest run of consecutive full rows
    /// inside chunk `i` (a raw chunk index, bottom chunk 0), clears it with
    /// [`cascade_clear_lines`](Self::cascade_clear_lines), restores the rows below the run,
    /// and returns the run's length (0 when chunk `i` has no full row). Full rows above a gap
    /// in the chunk, or in other chunks, need more calls.
    ///
    /// ```
    /// use gridbits::algo::lines::RowChunks;
    /// // Two full rows with a gap between them: two calls.
    /// let mut b: RowChunks = "#.\n##\n.#\n##\n".parse().unwrap();
    /// assert_eq!(b.cascade_clear_check(0), 1);
    /// assert_eq!(b.cascade_clear_check(0), 1);
    /// assert_eq!(b.cascade_clear_check(0), 0);
    /// assert_eq!(b.to_string(), "..\n..\n#.\n.#\n");
    /// ```
    ///
    /// # Panics
    /// When `i` is not a chunk index.
    pub fn cascade_clear_check(&mut self, i: usize) -> usize {
        let mut mask = 0u64;
        let mut pres = 0u64;
        let mut lines = 0;
        for j in 0..self.rows_per_chunk() {
            let line = self.row_mask(j);
            let row = line & self.chunks[i];
            if row == line {
                lines += 1;
            } else {
                if lines > 0 {
                    break;
                }
                mask |= line;
                pres |= row;
            }
        }
        if lines == 0 {
            return 0;
        }
        self.cascade_clear_lines(lines, i);
        self.chunks[i] = (self.chunks[i] & !mask) | pres;
        lines
    }

    /// The article's procedure run to completion: [`cascade_clear_check`](Self::cascade_clear_check)
    /// on each chunk from the bottom, repeated on a chunk until it reports nothing. Returns the
    /// rows removed. Gives the same board as [`clear_full_lines`](Self::clear_full_lines), more
    /// slowly: the baseline of the benchmark.
    pub fn cascade_clear_all(&mut self) -> usize {
        let mut total = 0;
        for i in 0..self.chunks.len() {
            loop {
                let l = self.cascade_clear_check(i);
                if l == 0 {
                    break;
                }
                total += l;
            }
        }
        total
    }
}
