//! Connected-component labelling of runtime-sized grids (binary images, maps): a `u32`
//! label image, component statistics, and a summary path that never writes the image.
//!
//! The algorithm is a word-parallel run-based two-scan in the family of BRTS and BMRS
//! ("bit-run two-scan" and "bit-merge-run scan", Lee et al., surveyed by YACCLAB), working
//! directly on the bit-packed rows of a [`BitGrid`]; no cell is ever put in a queue.
//!
//! 1. **Units and runs.** With 4-connectivity a *unit* is one row; with 8-connectivity it is
//!    two rows OR-ed together: a run of the merged row (a maximal horizontal segment) is
//!    8-connected, since any cell of one column touches any cell of the next, and cells of
//!    different runs of one unit never touch. Merging halves the row boundaries to link and
//!    shrinks the runs ~2.5x on noise. Runs get indices in unit order.
//! 2. **Links.** At the boundary of two units, the runs of the two boundary rows that touch
//!    are found with word operations, each pair exactly once: the first cell of every
//!    vertical overlap, and with 8-connectivity the diagonal contacts of runs that do not
//!    overlap. A link's two unit runs are ranks (word prefix counts plus a `popcount` of the
//!    run starts up to the link), without a branch, and are joined in a union-find over run
//!    indices (Rem's algorithm with splicing: a root is the smallest index of its set).
//! 3. **Flatten.** One branch-free pass over the run indices turns roots into labels
//!    `1, 2, ...` and every other run into its root's label.
//! 4. **Write.** Portable: the runs of each row are found again (`trailing_zeros` over the
//!    run start and end masks) and each gap and run is written in chunks of 8 cells, every
//!    chunk starting where the previous segment ended. With AVX2 (detected at run time):
//!    for each byte of a unit's merged row a 512-entry table says where each of its 8 cells
//!    takes its label from, one `vpermd` builds the 8 labels and each row of the unit keeps
//!    its set cells; the stores stream past the caches.
//!
//! Labels number the components in the order the scan meets them: with 4-connectivity, the
//! raster order of their first cell (top row first, then left to right), like
//! [`crate::naive::components`]; with 8-connectivity, by the first pair of rows (0-1, 2-3,
//! ...) they reach, then by their leftmost column in that pair.
//!
//! [`Labeller::stats`] runs steps 1 to 3 and accumulates sizes and bounding boxes instead
//! of writing the image (the `--summary` path of the command line). On x86-64 CPUs with
//! POPCNT and BMI every step runs from a copy compiled for them, chosen at run time;
//! [`Labeller::portable`] forces the portable code.
//!
//! ```
//! use gridbits::algo::label::{label, stats};
//! use gridbits::{BitGrid, Connectivity};
//! let g = BitGrid::parse("##..#\n...##\n#....\n").unwrap();
//! let labels = label(&g, Connectivity::Four).unwrap();
//! assert_eq!(labels.count(), 3);
//! assert_eq!(labels.row(0), [1, 1, 0, 0, 2]);
//! assert_eq!(labels.row(1), [0, 0, 0, 2, 2]);
//! assert_eq!(labels.row(2), [3, 0, 0, 0, 0]);
//! let s = stats(&g, Connectivity::Eight).unwrap();
//! assert_eq!(s.iter().map(|c| c.size).collect::<Vec<_>>(), [2, 3, 1]);
//! assert_eq!((s[1].min_x, s[1].max_x, s[1].min_y, s[1].max_y), (3, 4, 0, 1));
//! ```

use crate::{BitGrid, Connectivity, SizeError};

/// Cells written past the end of the image by chunked writes.
const CHUNK: usize = 8;
/// Zero labels after the last run's, for loads of four labels at a time.
const LABEL_SLACK: usize = 4;

/// A label image: one `u32` per cell, row-major, `0` for background and `1..=count` for the
/// components in raster order of their first cell.
#[derive(Clone, Debug, Default)]
pub struct Labels {
    width: usize,
    height: usize,
    count: u32,
    /// From `offset` (which 64-byte aligns the cells, for streaming stores): `width *
    /// height` labels, then `CHUNK` spare cells for chunked writes.
    data: Vec<u32>,
    offset: usize,
}

impl PartialEq for Labels {
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.height, self.count) == (other.width, other.height, other.count)
            && self.as_slice() == other.as_slice()
    }
}

impl Eq for Labels {}

impl Labels {
    /// An empty label image, to be filled by [`Labeller::label`] (which reuses its memory).
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of components: the largest label.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// All labels, row-major.
    pub fn as_slice(&self) -> &[u32] {
        &self.data[self.offset..self.offset + self.width * self.height]
    }

    /// The cells and the spare cells after them, for the writers.
    fn cells_mut(&mut self) -> &mut [u32] {
        &mut self.data[self.offset..]
    }

    /// The labels of row `y`. Panics when `y >= height`.
    pub fn row(&self, y: usize) -> &[u32] {
        assert!(y < self.height, "row off the image");
        &self.as_slice()[y * self.width..(y + 1) * self.width]
    }

    /// The label of `(x, y)`; 0 off the image.
    pub fn get(&self, x: usize, y: usize) -> u32 {
        if x < self.width && y < self.height {
            self.as_slice()[y * self.width + x]
        } else {
            0
        }
    }

    /// The labels as a `Vec`, row-major.
    pub fn into_vec(mut self) -> Vec<u32> {
        self.data.truncate(self.offset + self.width * self.height);
        self.data.drain(..self.offset);
        self.data
    }

    /// Makes room for a `width x height` image.
    fn resize(&mut self, width: usize, height: usize) -> Result<(), SizeError> {
        let cells = width * height;
        let need = cells + CHUNK + 15;
        if self.data.len() != need {
            self.data = Vec::new();
            self.data
                .try_reserve_exact(need)
                .map_err(|_| size_error(width, height, "not enough memory for the label image"))?;
            self.data.resize(need, 0);
            let misalign = self.data.as_ptr() as usize % 64;
            self.offset = (64 - misalign) % 64 / 4;
        }
        self.width = width;
        self.height = height;
        self.count = 0;
        Ok(())
    }
}

/// Size and bounding box of one component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ComponentStats {
    /// Number of cells.
    pub size: u64,
    /// Smallest `x` of a cell.
    pub min_x: usize,
    /// Smallest `y` of a cell.
    pub min_y: usize,
    /// Largest `x` of a cell.
    pub max_x: usize,
    /// Largest `y` of a cell.
    pub max_y: usize,
}

impl ComponentStats {
    const EMPTY: ComponentStats = ComponentStats {
        size: 0,
        min_x: usize::MAX,
        min_y: usize::MAX,
        max_x: 0,
        max_y: 0,
    };

    #[inline(always)]
    fn add_run(&mut self, y: usize, start: usize, end: usize) {
        self.size += (end - start) as u64;
        self.min_x = self.min_x.min(start);
        self.max_x = self.max_x.max(end - 1);
        self.min_y = self.min_y.min(y);
        self.max_y = y;
    }
}

fn size_error(width: usize, height: usize, reason: &'static str) -> SizeError {
    SizeError {
        width,
        height,
        reason,
    }
}

/// Bits `0..=p` of a word.
#[inline(always)]
fn upto(p: u32) -> u64 {
    u64::MAX >> (63 - p)
}

/// Joins the sets of runs `a` and `b` (Rem's algorithm with splicing). A root is the
/// smallest index of its set, and every parent is at most its child.
#[inline(always)]
fn union(parent: &mut [u32], mut a: u32, mut b: u32) {
    loop {
        let mut pa = parent[a as usize];
        let mut pb = parent[b as usize];
        if pa == pb {
            return;
        }
        if pa < pb {
            std::mem::swap(&mut a, &mut b);
            std::mem::swap(&mut pa, &mut pb);
        }
        // Now pa > pb: hang a's branch below pb.
        parent[a as usize] = pb;
        if pa == a {
            return;
        }
        a = pa;
    }
}

/// Run starts of a row word: set cells whose left neighbour is empty. `carry` is the top
/// bit of the previous word of the row, in bit 0.
#[inline(always)]
fn starts(w: u64, carry: u64) -> u64 {
    w & !((w << 1) | carry)
}

/// Appends the positions `base + i` of the set bits `i` of `m` to `out` at `*n`.
#[inline(always)]
fn push_bits(mut m: u64, base: u32, out: &mut [u32], n: &mut usize) {
    while m != 0 {
        out[*n] = base + m.trailing_zeros();
        *n += 1;
        m &= m - 1;
    }
}

/// Word `j` of the merged row of unit `k`: the OR of its `unit` rows.
#[inline(always)]
fn merged(words: &[u64], wpr: usize, h: usize, unit: usize, k: usize, j: usize) -> u64 {
    let y = k * unit;
    let mut m = words[y * wpr + j];
    if unit == 2 && y + 1 < h {
        m |= words[(y + 1) * wpr + j];
    }
    m
}

/// For the AVX2 writer: for each byte of a row (bits 0-7) and whether the cell before it is
/// set (bit 8), where each of the 8 cells takes its label from: `0..=3` the label of the
/// first..fourth run starting in the byte, `5` the run coming in from the left, `4` zero.
#[cfg(target_arch = "x86_64")]
static SLOTS: [[u8; 8]; 512] = {
    let mut t = [[4u8; 8]; 512];
    let mut i = 0;
    while i < 512 {
        let (bits, before) = (i & 0xff, i >> 8);
        let mut starts = 0;
        let mut j = 0;
        while j < 8 {
            let set = bits >> j & 1 == 1;
            let left = if j == 0 {
                before == 1
            } else {
                bits >> (j - 1) & 1 == 1
            };
            if set {
                if !left {
                    starts += 1;
                }
                t[i][j] = if starts == 0 { 5 } else { starts - 1 };
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// Whether this CPU has the bit instructions of the accelerated path (x86-64: POPCNT, BMI1,
/// BMI2, LZCNT). Detected once at run time; always `false` elsewhere.
fn cpu_has_bit_instructions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU also has AVX2, for the label writer.
fn cpu_has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        cpu_has_bit_instructions() && std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The same code compiled for CPUs with POPCNT and BMI: `popcount`, `trailing_zeros` and
/// the masks of [`upto`] become single instructions; and the AVX2 label writer.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;

    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn scan(
        l: &mut Labeller,
        grid: &BitGrid,
        conn: Connectivity,
    ) -> Result<u32, SizeError> {
        l.scan_body(grid, conn)
    }

    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn label(
        l: &mut Labeller,
        grid: &BitGrid,
        conn: Connectivity,
        out: &mut Labels,
        stats: Option<&mut Vec<ComponentStats>>,
    ) -> Result<u32, SizeError> {
        l.label_body(grid, conn, out, stats)
    }

    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn stats(
        l: &mut Labeller,
        grid: &BitGrid,
        conn: Connectivity,
        stats: &mut Vec<ComponentStats>,
    ) -> Result<u32, SizeError> {
        l.stats_body(grid, conn, stats)
    }

    /// Labels with the AVX2 writer (no statistics).
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn label_avx2(
        l: &mut Labeller,
        grid: &BitGrid,
        conn: Connectivity,
        out: &mut Labels,
    ) -> Result<u32, SizeError> {
        out.resize(grid.width(), grid.height())?;
        let count = l.scan_body(grid, conn)?;
        match conn {
            Connectivity::Four => write_avx2::<1>(grid, &l.parent, out.cells_mut()),
            Connectivity::Eight => write_avx2::<2>(grid, &l.parent, out.cells_mut()),
        }
        out.count = count;
        Ok(count)
    }

    /// Writes the label image 8 cells at a time without finding the runs again. For each
    /// byte of a unit's merged row, a table gives each cell's source among the labels of the
    /// (at most four) runs starting in the byte, the label of the run coming in from the
    /// left, and 0; one `vpermd` picks them. With two-row units each row then keeps the
    /// cells it has set.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    fn write_avx2<const UNIT: usize>(grid: &BitGrid, labels: &[u32], out: &mut [u32]) {
        use std::arch::x86_64::{
            __m128i, __m256i, _mm256_and_si256, _mm256_cmpeq_epi32, _mm256_cvtepu8_epi32,
            _mm256_permutevar8x32_epi32, _mm256_set1_epi32, _mm256_set_m128i, _mm256_setr_epi32,
            _mm256_storeu_si256, _mm256_stream_si256, _mm_cvtsi32_si128, _mm_loadl_epi64,
            _mm_loadu_si128, _mm_sfence, _mm_slli_si128,
        };
        let (w, h, wpr) = (grid.width(), grid.height(), grid.words_per_row());
        let words = grid.words();
        let lanes = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        let mut run = 0usize; // index of the next run to start
        for k in 0..h.div_ceil(UNIT) {
            let y0 = k * UNIT;
            let rows = UNIT.min(h - y0);
            let mut incoming = 0u32; // label of the run reaching the next byte from the left
            let mut carry = 0u64;
            for j in 0..wpr {
                let m = merged(words, wpr, h, UNIT, k, j);
                let starts = m & !((m << 1) | carry);
                let before = (m << 1) | carry; // bit i: cell i - 1 is set
                let x0 = j * 64;
                for b in 0..(w - x0).div_ceil(8).min(8) {
                    let shift = 8 * b as u32;
                    let pattern =
                        ((m >> shift) & 0xff) as usize | (((before >> shift) & 1) as usize) << 8;
                    let new = ((starts >> shift) & 0xff).count_ones() as usize;
                    let four = &labels[run..run + 4];
                    let x = x0 + 8 * b;
                    // SAFETY: `SLOTS[pattern]` is 8 bytes and `four` 4 u32: the unaligned
                    // loads stay inside them.
                    let (slots, fresh) = unsafe {
                        (
                            _mm_loadl_epi64(SLOTS[pattern].as_ptr().cast::<__m128i>()),
                            _mm_loadu_si128(four.as_ptr().cast::<__m128i>()),
                        )
                    };
                    let from_left = _mm_slli_si128::<4>(_mm_cvtsi32_si128(incoming as i32));
                    let candidates = _mm256_set_m128i(from_left, fresh);
                    let v = _mm256_permutevar8x32_epi32(candidates, _mm256_cvtepu8_epi32(slots));
                    for r in 0..rows {
                        let y = y0 + r;
                        let v = if UNIT == 1 {
                            v
                        } else {
                            let bits = (words[y * wpr + j] >> shift) as i32 & 0xff;
                            let set = _mm256_and_si256(_mm256_set1_epi32(bits), lanes);
                            _mm256_and_si256(v, _mm256_cmpeq_epi32(set, lanes))
                        };
                        let row = &mut out[y * w..(y + 1) * w];
                        if x + 8 <= w {
                            let dst = &mut row[x..x + 8];
                            let ptr = dst.as_mut_ptr().cast::<__m256i>();
                            if (ptr as usize).is_multiple_of(32) {
                                // Streaming: the image is usually larger than the caches;
                                // no read for ownership.
                                // SAFETY: `dst` is 8 u32 and 32-byte aligned.
                                unsafe { _mm256_stream_si256(ptr, v) };
                            } else {
                                // SAFETY: `dst` is 8 u32: the store stays inside it.
                                unsafe { _mm256_storeu_si256(ptr, v) };
                            }
                        } else {
                            // The row's last cells: the other row of the unit follows.
                            let mut tail = [0u32; 8];
                            // SAFETY: `tail` is 8 u32: the unaligned store stays inside it.
                            unsafe { _mm256_storeu_si256(tail.as_mut_ptr().cast::<__m256i>(), v) };
                            row[x..].copy_from_slice(&tail[..w - x]);
                        }
                    }
                    let last = labels[(run + new).saturating_sub(1)];
                    incoming = if new != 0 { last } else { incoming };
                    run += new;
                }
                carry = m >> 63;
            }
        }
        // Order the streaming stores before anything that follows.
        _mm_sfence();
    }
}

/// Runs `$body` through the accelerated copy when the CPU allows it, else the portable one.
macro_rules! dispatch {
    ($self:ident, $fast:path, $body:ident ( $($arg:expr),* )) => {{
        #[cfg(target_arch = "x86_64")]
        {
            if !$self.portable && cpu_has_bit_instructions() {
                // SAFETY: the CPU supports every feature the function is compiled for.
                return unsafe { $fast($self, $($arg),*) };
            }
        }
        $self.$body($($arg),*)
    }};
}

/// Reusable scratch space of the labeller: keep one around to label many images without
/// allocating.
///
/// On x86-64 CPUs with POPCNT and BMI (detected at run time) the labeller runs a copy of its
/// code compiled for those instructions, and with AVX2 it writes label images with a
/// table-driven `vpermd`, 8 cells at a time; [`portable`](Self::portable) turns both off.
#[derive(Clone, Debug, Default)]
pub struct Labeller {
    /// Union-find parents of the runs, then their labels.
    parent: Vec<u32>,
    /// Start, end (exclusive) and label of the runs of one row.
    run_start: Vec<u32>,
    run_end: Vec<u32>,
    run_label: Vec<u32>,
    /// Run starts of a unit's merged row and their counts before each word.
    unit_starts: Vec<u64>,
    unit_prefix: Vec<u32>,
    /// Never use the accelerated copies.
    portable: bool,
}

impl Labeller {
    /// A labeller with no scratch space yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same labeller restricted to the portable code (no run-time CPU feature path):
    /// for tests and comparisons. Results are identical.
    ///
    /// ```
    /// use gridbits::algo::label::Labeller;
    /// assert!(!Labeller::new().portable().accelerated());
    /// ```
    pub fn portable(mut self) -> Self {
        self.portable = true;
        self
    }

    /// Whether this labeller runs the copies compiled for POPCNT and BMI (x86-64 CPUs that
    /// have them, unless [`portable`](Self::portable)); with AVX2 the label image is also
    /// written 8 cells per instruction.
    pub fn accelerated(&self) -> bool {
        !self.portable && cpu_has_bit_instructions()
    }

    /// Pass 1 and the flattening: afterwards `parent[i]` is the label of run `i`, and the
    /// number of labels is returned.
    fn scan(&mut self, grid: &BitGrid, conn: Connectivity) -> Result<u32, SizeError> {
        dispatch!(self, x86::scan, scan_body(grid, conn))
    }

    #[inline(always)]
    fn scan_body(&mut self, grid: &BitGrid, conn: Connectivity) -> Result<u32, SizeError> {
        match conn {
            Connectivity::Four => self.scan_units::<1, false>(grid),
            Connectivity::Eight => self.scan_units::<2, true>(grid),
        }
    }

    /// The union-find pass over *units* of `UNIT` rows. With 4-connectivity a unit is one
    /// row and its runs are the runs of the row. With 8-connectivity a unit is two rows,
    /// OR-ed: a run of the merged row is 8-connected (any cell of one column touches any
    /// cell of the next), and runs of different units meet only across the boundary rows,
    /// so half the row boundaries need links (the bit-merge idea of BMRS).
    ///
    /// Links come from the two rows at the boundary of units, one per pair of touching row
    /// runs: the first cell of each vertical overlap, and with 8-connectivity the diagonal
    /// contacts of runs that do not overlap. Each link's two unit runs are ranks: the run
    /// starts of the merged row up to the link's cell, counted by `popcount`.
    #[inline(always)]
    fn scan_units<const UNIT: usize, const EIGHT: bool>(
        &mut self,
        grid: &BitGrid,
    ) -> Result<u32, SizeError> {
        let (w, h, wpr) = (grid.width(), grid.height(), grid.words_per_row());
        let words = grid.words();
        let units = h.div_ceil(UNIT);
        let unit_runs = |k: usize| -> u32 {
            let mut n = 0;
            let mut carry = 0;
            for j in 0..wpr {
                let m = merged(words, wpr, h, UNIT, k, j);
                n += starts(m, carry).count_ones();
                carry = m >> 63;
            }
            n
        };
        // Count the runs first, to size the union-find exactly.
        let total: u64 = (0..units).map(|k| u64::from(unit_runs(k))).sum();
        if total >= u64::from(u32::MAX) - LABEL_SLACK as u64 {
            return Err(size_error(w, h, "too many runs for u32 labels"));
        }
        let parent = &mut self.parent;
        parent.clear();
        parent
            .try_reserve_exact(total as usize + LABEL_SLACK)
            .map_err(|_| size_error(w, h, "not enough memory to label"))?;
        parent.extend(0..total as u32);

        let mut prev_base: u32 = 0; // index of the first run of the previous unit
        let mut cur_base: u32 = unit_runs(0);
        for k in 1..units {
            let upper = &words[(k * UNIT - 1) * wpr..k * UNIT * wpr];
            let lower = &words[k * UNIT * wpr..(k * UNIT + 1) * wpr];
            // Runs before the current word, in this unit and the previous one.
            let (mut cc, mut pc) = (cur_base, prev_base);
            let (mut carry_mu, mut carry_md) = (0u64, 0u64);
            let (mut carry_u, mut carry_d, mut carry_v) = (0u64, 0u64, 0u64);
            for j in 0..wpr {
                let (mu, md) = (
                    merged(words, wpr, h, UNIT, k - 1, j),
                    merged(words, wpr, h, UNIT, k, j),
                );
                let (u, d) = (upper[j], lower[j]);
                let su = starts(mu, carry_mu);
                let sd = starts(md, carry_md);
                let v = u & d;
                // The first cell of each vertical overlap links its two runs.
                let mut links = starts(v, carry_v);
                if EIGHT {
                    // Runs that touch only diagonally: the upper row run ends at x - 1
                    // where the lower one starts at x ...
                    let (left_u, left_d) = ((u << 1) | carry_u, (d << 1) | carry_d);
                    links |= d & !left_d & left_u & !u;
                    // ... or starts at x + 1 where the lower one ends at x. Its unit run
                    // holds x + 1, one more than the count up to x if x is empty there.
                    let (next_u, next_d) = if j + 1 < wpr {
                        (upper[j + 1] << 63, lower[j + 1] << 63)
                    } else {
                        (0, 0)
                    };
                    let mut right = d & !((d >> 1) | next_d) & ((u >> 1) | next_u) & !u;
                    while right != 0 {
                        let bit = right.trailing_zeros();
                        right &= right - 1;
                        let ci = cc + (sd & upto(bit)).count_ones() - 1;
                        let pi = pc + (su & upto(bit)).count_ones() + ((!mu >> bit) & 1) as u32 - 1;
                        union(parent, ci, pi);
                    }
                }
                while links != 0 {
                    let bit = links.trailing_zeros();
                    links &= links - 1;
                    let ci = cc + (sd & upto(bit)).count_ones() - 1;
                    let pi = pc + (su & upto(bit)).count_ones() - 1;
                    union(parent, ci, pi);
                }
                cc += sd.count_ones();
                pc += su.count_ones();
                (carry_mu, carry_md) = (mu >> 63, md >> 63);
                (carry_u, carry_d, carry_v) = (u >> 63, d >> 63, v >> 63);
            }
            prev_base = cur_base;
            cur_base = cc;
        }

        // Flatten: roots get labels 1, 2, ... in index order, the others their root's
        // (already a label: parents come first). Branch-free, roots are unpredictable.
        let mut next = 0u32;
        for i in 0..parent.len() {
            let p = parent[i];
            let root = p == i as u32;
            next += u32::from(root);
            let inherited = parent[p as usize];
            parent[i] = if root { next } else { inherited };
        }
        // Slack for the AVX2 writer, which loads four labels at a time.
        parent.extend_from_slice(&[0; LABEL_SLACK]);
        Ok(next)
    }

    /// The runs of one row into `run_start` / `run_end` (end exclusive); returns how many.
    #[inline(always)]
    fn row_runs(&mut self, row: &[u64], width: usize) -> usize {
        let cap = width / 2 + 2;
        if self.run_start.len() < cap {
            self.run_start.resize(cap, 0);
            self.run_end.resize(cap, 0);
            self.run_label.resize(cap, 0);
        }
        let (mut ns, mut ne) = (0usize, 0usize);
        let mut carry = 0u64;
        for (k, &c) in row.iter().enumerate() {
            let shifted = (c << 1) | carry;
            let base = (k * 64) as u32;
            push_bits(c & !shifted, base, &mut self.run_start, &mut ns);
            push_bits(!c & shifted, base, &mut self.run_end, &mut ne);
            carry = c >> 63;
        }
        if carry != 0 {
            // The row's last cell is set and ends a word: the run ends at the width.
            self.run_end[ne] = width as u32;
            ne += 1;
        }
        debug_assert_eq!(ns, ne);
        ns
    }

    /// After [`scan`](Self::scan): calls `f(y, starts, ends, labels)` with the runs of every
    /// row and their labels (plus `offset`), row by row.
    #[inline(always)]
    fn for_each_row(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        offset: u32,
        f: impl FnMut(usize, &[u32], &[u32], &[u32]),
    ) {
        match conn {
            Connectivity::Four => self.for_each_row_units::<1>(grid, offset, f),
            Connectivity::Eight => self.for_each_row_units::<2>(grid, offset, f),
        }
    }

    #[inline(always)]
    fn for_each_row_units<const UNIT: usize>(
        &mut self,
        grid: &BitGrid,
        offset: u32,
        mut f: impl FnMut(usize, &[u32], &[u32], &[u32]),
    ) {
        let (w, h, wpr) = (grid.width(), grid.height(), grid.words_per_row());
        let words = grid.words();
        self.unit_starts.resize(wpr, 0);
        self.unit_prefix.resize(wpr + 1, 0);
        let mut base = 0u32; // index of the unit's first run
        for k in 0..h.div_ceil(UNIT) {
            if UNIT > 1 {
                let mut carry = 0;
                for j in 0..wpr {
                    let m = merged(words, wpr, h, UNIT, k, j);
                    self.unit_starts[j] = starts(m, carry);
                    self.unit_prefix[j + 1] =
                        self.unit_prefix[j] + self.unit_starts[j].count_ones();
                    carry = m >> 63;
                }
            }
            let mut unit_total = 0;
            for y in k * UNIT..h.min((k + 1) * UNIT) {
                let n = self.row_runs(&words[y * wpr..(y + 1) * wpr], w);
                for i in 0..n {
                    let index = if UNIT == 1 {
                        base + i as u32
                    } else {
                        let s = self.run_start[i];
                        let (j, bit) = ((s / 64) as usize, s % 64);
                        base + self.unit_prefix[j] + (self.unit_starts[j] & upto(bit)).count_ones()
                            - 1
                    };
                    self.run_label[i] = offset + self.parent[index as usize];
                }
                f(
                    y,
                    &self.run_start[..n],
                    &self.run_end[..n],
                    &self.run_label[..n],
                );
                unit_total = if UNIT == 1 {
                    n as u32
                } else {
                    self.unit_prefix[wpr]
                };
            }
            base += unit_total;
        }
    }

    /// Labels `grid` into `out` (reusing its memory) and returns the number of components.
    /// Errors only when the label image or the scratch space cannot be allocated, or the
    /// grid has 2^32 runs or more.
    pub fn label(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        out: &mut Labels,
    ) -> Result<u32, SizeError> {
        self.label_dispatch(grid, conn, out, None)
    }

    /// Labels `grid` into `out` and fills `stats` with the size and bounding box of every
    /// component (`stats[label - 1]`).
    pub fn label_with_stats(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        out: &mut Labels,
        stats: &mut Vec<ComponentStats>,
    ) -> Result<u32, SizeError> {
        self.label_dispatch(grid, conn, out, Some(stats))
    }

    fn label_dispatch(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        out: &mut Labels,
        stats: Option<&mut Vec<ComponentStats>>,
    ) -> Result<u32, SizeError> {
        #[cfg(target_arch = "x86_64")]
        {
            if stats.is_none() && !self.portable && cpu_has_avx2() {
                // SAFETY: the CPU supports every feature the function is compiled for.
                return unsafe { x86::label_avx2(self, grid, conn, out) };
            }
        }
        dispatch!(self, x86::label, label_body(grid, conn, out, stats))
    }

    /// The portable writer: each gap and each run in chunks of [`CHUNK`] cells.
    #[inline(always)]
    fn label_body(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        out: &mut Labels,
        mut stats: Option<&mut Vec<ComponentStats>>,
    ) -> Result<u32, SizeError> {
        let (w, h) = (grid.width(), grid.height());
        out.resize(w, h)?;
        let count = self.scan_body(grid, conn)?;
        if let Some(s) = stats.as_deref_mut() {
            s.clear();
            s.try_reserve_exact(count as usize)
                .map_err(|_| size_error(w, h, "not enough memory for the statistics"))?;
            s.resize(count as usize, ComponentStats::EMPTY);
        }
        let data = out.cells_mut();
        self.for_each_row(grid, conn, 0, |y, starts, ends, labels| {
            // The row and everything after it: chunks may spill into the next row (which
            // is written later) or the spare cells after the last one.
            let cells = &mut data[y * w..];
            let mut x = 0usize;
            for ((&s, &e), &label) in starts.iter().zip(ends).zip(labels) {
                let (s, e) = (s as usize, e as usize);
                fill_chunks(cells, x, s, 0);
                fill_chunks(cells, s, e, label);
                x = e;
                if let Some(st) = stats.as_deref_mut() {
                    st[label as usize - 1].add_run(y, s, e);
                }
            }
            fill_chunks(cells, x, w, 0);
        });
        out.count = count;
        Ok(count)
    }

    /// The size and bounding box of every component, in label order (raster order of their
    /// first cell), without writing a label image: the summary path. Returns the count.
    pub fn stats(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        stats: &mut Vec<ComponentStats>,
    ) -> Result<u32, SizeError> {
        dispatch!(self, x86::stats, stats_body(grid, conn, stats))
    }

    #[inline(always)]
    fn stats_body(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        stats: &mut Vec<ComponentStats>,
    ) -> Result<u32, SizeError> {
        let (w, h) = (grid.width(), grid.height());
        let count = self.scan_body(grid, conn)?;
        stats.clear();
        stats
            .try_reserve_exact(count as usize)
            .map_err(|_| size_error(w, h, "not enough memory for the statistics"))?;
        stats.resize(count as usize, ComponentStats::EMPTY);
        match conn {
            Connectivity::Four => {
                self.for_each_row(grid, conn, 0, |y, starts, ends, labels| {
                    for ((&s, &e), &label) in starts.iter().zip(ends).zip(labels) {
                        stats[label as usize - 1].add_run(y, s as usize, e as usize);
                    }
                });
            }
            Connectivity::Eight => self.stats_pairs(grid, stats),
        }
        Ok(count)
    }

    /// Statistics from the runs of the merged row pairs: a run's cells in each row are
    /// prefix popcounts of the row at its ends, its columns are its span.
    #[inline(always)]
    fn stats_pairs(&mut self, grid: &BitGrid, stats: &mut [ComponentStats]) {
        let (w, h, wpr) = (grid.width(), grid.height(), grid.words_per_row());
        let words = grid.words();
        let cap = w / 2 + 2;
        if self.run_start.len() < cap {
            self.run_start.resize(cap, 0);
            self.run_end.resize(cap, 0);
            self.run_label.resize(cap, 0);
        }
        // Cells of each row of the pair before each word.
        self.unit_prefix.resize(2 * (wpr + 1), 0);
        let mut base = 0usize;
        for k in 0..h.div_ceil(2) {
            let y0 = 2 * k;
            let rows = 2.min(h - y0);
            let (mut ns, mut ne) = (0usize, 0usize);
            let mut carry = 0u64;
            for j in 0..wpr {
                let m = merged(words, wpr, h, 2, k, j);
                let shifted = (m << 1) | carry;
                let at = (j * 64) as u32;
                push_bits(m & !shifted, at, &mut self.run_start, &mut ns);
                push_bits(!m & shifted, at, &mut self.run_end, &mut ne);
                carry = m >> 63;
                for r in 0..2 {
                    let cells = if r < rows {
                        words[(y0 + r) * wpr + j].count_ones()
                    } else {
                        0
                    };
                    self.unit_prefix[r * (wpr + 1) + j + 1] =
                        self.unit_prefix[r * (wpr + 1) + j] + cells;
                }
            }
            if carry != 0 {
                self.run_end[ne] = w as u32;
                ne += 1;
            }
            debug_assert_eq!(ns, ne);
            // Set cells of row `r` of the pair before column `x`.
            let prefix = |r: usize, x: usize| -> u32 {
                if r >= rows {
                    return 0;
                }
                let (j, bit) = (x / 64, x % 64);
                let before = if bit == 0 {
                    0
                } else {
                    (words[(y0 + r) * wpr + j] << (64 - bit)).count_ones()
                };
                self.unit_prefix[r * (wpr + 1) + j] + before
            };
            for i in 0..ns {
                let (s, e) = (self.run_start[i] as usize, self.run_end[i] as usize);
                let top = prefix(0, e) - prefix(0, s);
                let bottom = prefix(1, e) - prefix(1, s);
                let st = &mut stats[self.parent[base + i] as usize - 1];
                st.size += u64::from(top + bottom);
                st.min_x = st.min_x.min(s);
                st.max_x = st.max_x.max(e - 1);
                st.min_y = st.min_y.min(if top > 0 { y0 } else { y0 + 1 });
                st.max_y = if bottom > 0 { y0 + 1 } else { st.max_y.max(y0) };
            }
            base += ns;
        }
    }

    /// The number of components only.
    pub fn count(&mut self, grid: &BitGrid, conn: Connectivity) -> Result<u32, SizeError> {
        self.scan(grid, conn)
    }

    /// Labels the components of several planes of one size (one per class) into one image:
    /// cells join only cells of their own plane. The planes must not overlap (a cell set in
    /// two planes gets the label of the later one). Plane 0's components get labels
    /// `1..=n0`, plane 1's the next ones, and so on; returns for each label its plane
    /// (`classes[label - 1]`).
    ///
    /// Errors as [`label`](Self::label), and when the planes differ in size.
    pub fn label_classes(
        &mut self,
        planes: &[BitGrid],
        conn: Connectivity,
        out: &mut Labels,
    ) -> Result<Vec<u32>, SizeError> {
        let Some(first) = planes.first() else {
            out.resize(0, 0)?;
            return Ok(Vec::new());
        };
        let (w, h) = (first.width(), first.height());
        if planes.iter().any(|p| p.width() != w || p.height() != h) {
            return Err(size_error(w, h, "class planes of different sizes"));
        }
        out.resize(w, h)?;
        out.cells_mut().fill(0);
        let mut classes = Vec::new();
        let mut offset = 0u32;
        for (class, plane) in planes.iter().enumerate() {
            let count = self.scan(plane, conn)?;
            if offset.checked_add(count).is_none() {
                return Err(size_error(w, h, "too many components for u32 labels"));
            }
            let data = out.cells_mut();
            self.for_each_row(plane, conn, offset, |y, starts, ends, labels| {
                let cells = &mut data[y * w..(y + 1) * w];
                for ((&s, &e), &label) in starts.iter().zip(ends).zip(labels) {
                    cells[s as usize..e as usize].fill(label);
                }
            });
            offset += count;
            classes.resize(offset as usize, class as u32);
        }
        out.count = offset;
        Ok(classes)
    }
}

/// Writes `value` over cells `from..to` of `cells` in chunks of [`CHUNK`], at least one: the
/// last chunk may write up to `CHUNK - 1` cells past `to`, which the caller overwrites next
/// (or which are spare cells).
#[inline(always)]
fn fill_chunks(cells: &mut [u32], from: usize, to: usize, value: u32) {
    let chunk = [value; CHUNK];
    let mut i = from;
    loop {
        cells[i..i + CHUNK].copy_from_slice(&chunk);
        i += CHUNK;
        if i >= to {
            break;
        }
    }
}

/// Labels `grid`: a new [`Labels`] image. See the [module documentation](self).
///
/// Errors only when memory for the image cannot be had or the grid has 2^32 runs or more.
pub fn label(grid: &BitGrid, conn: Connectivity) -> Result<Labels, SizeError> {
    let mut out = Labels::new();
    Labeller::new().label(grid, conn, &mut out)?;
    Ok(out)
}

/// Labels `grid` and returns the size and bounding box of every component
/// (`stats[label - 1]`).
pub fn label_with_stats(
    grid: &BitGrid,
    conn: Connectivity,
) -> Result<(Labels, Vec<ComponentStats>), SizeError> {
    let mut out = Labels::new();
    let mut stats = Vec::new();
    Labeller::new().label_with_stats(grid, conn, &mut out, &mut stats)?;
    Ok((out, stats))
}

/// The size and bounding box of every component, in raster order of their first cell,
/// without a label image.
pub fn stats(grid: &BitGrid, conn: Connectivity) -> Result<Vec<ComponentStats>, SizeError> {
    let mut stats = Vec::new();
    Labeller::new().stats(grid, conn, &mut stats)?;
    Ok(stats)
}

/// The number of components of `grid`.
///
/// ```
/// use gridbits::algo::label::count;
/// use gridbits::{BitGrid, Connectivity};
/// let g = BitGrid::parse("#.#\n.#.\n#.#\n").unwrap();
/// assert_eq!(count(&g, Connectivity::Four).unwrap(), 5);
/// assert_eq!(count(&g, Connectivity::Eight).unwrap(), 1);
/// ```
pub fn count(grid: &BitGrid, conn: Connectivity) -> Result<u32, SizeError> {
    Labeller::new().count(grid, conn)
}

/// Labels several non-overlapping planes of one size (one per class) into one image; see
/// [`Labeller::label_classes`]. Returns the image and the plane of each label.
///
/// ```
/// use gridbits::algo::label::label_classes;
/// use gridbits::{BitGrid, Connectivity};
/// let red = BitGrid::parse("##.\n...\n").unwrap();
/// let blue = BitGrid::parse("..#\n###\n").unwrap();
/// let (labels, classes) = label_classes(&[red, blue], Connectivity::Four).unwrap();
/// assert_eq!(labels.as_slice(), [1, 1, 2, 2, 2, 2]);
/// assert_eq!(classes, [0, 1]);
/// ```
pub fn label_classes(
    planes: &[BitGrid],
    conn: Connectivity,
) -> Result<(Labels, Vec<u32>), SizeError> {
    let mut out = Labels::new();
    let classes = Labeller::new().label_classes(planes, conn, &mut out)?;
    Ok((out, classes))
}

/// Splits a character grid into one plane per distinct character (except those in `empty`),
/// in increasing byte order: the input of [`label_classes`] for a multi-class map.
///
/// ```
/// use gridbits::algo::label::planes_by_char;
/// use gridbits::text::CharGrid;
/// let g = CharGrid::parse(b"RR.\nGR.\n").unwrap();
/// let planes = planes_by_char(&g, b".").unwrap();
/// assert_eq!(planes.iter().map(|(c, p)| (*c, p.count())).collect::<Vec<_>>(),
///            [(b'G', 1), (b'R', 3)]);
/// ```
pub fn planes_by_char(
    grid: &crate::text::CharGrid,
    empty: &[u8],
) -> Result<Vec<(u8, BitGrid)>, SizeError> {
    let (w, h) = (grid.width(), grid.height());
    let mut index = [usize::MAX; 256];
    let mut present = [false; 256];
    for y in 0..h {
        for &c in grid.row(y) {
            present[c as usize] = true;
        }
    }
    let mut planes = Vec::new();
    for c in 0..=255u8 {
        if present[c as usize] && !empty.contains(&c) {
            index[c as usize] = planes.len();
            planes.push((c, BitGrid::new(w, h)?));
        }
    }
    for y in 0..h {
        for (x, &c) in grid.row(y).iter().enumerate() {
            if let Some((_, plane)) = planes.get_mut(index[c as usize]) {
                plane.row_words_mut(y)[x / 64] |= 1 << (x % 64);
            }
        }
    }
    Ok(planes)
}
