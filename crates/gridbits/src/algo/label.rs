//! Connected-component labelling of runtime-sized grids (binary images, maps): a `u32`
//! label image, component statistics, and a summary path that never writes the image.
//!
//! The algorithm is a word-parallel run-based two-scan, in the family of BRTS ("bit-run
//! two-scan", Lee et al., surveyed by YACCLAB), working directly on the bit-packed rows of
//! a [`BitGrid`]; no cell is ever put in a queue.
//!
//! 1. **Links.** Every run of set cells (a maximal horizontal segment) gets an index in
//!    raster order. Between two rows, the runs that touch are found with word operations:
//!    with 4-connectivity each run of `row & above` links exactly one run below to one run
//!    above, so its first cell is a *link*; with 8-connectivity the links are the same plus
//!    the diagonal contacts at the ends of the runs above. A link's two run indices are
//!    word prefix counts plus a `popcount` of the run starts up to it, without a branch, and
//!    the two runs are joined in a union-find over run indices (Rem's algorithm with
//!    splicing: a root is the smallest index of its set).
//! 2. **Flatten.** One pass over the run indices, in order, turns roots into labels
//!    `1, 2, ...` and every other run into its root's label. Labels therefore number the
//!    components in raster order of their first cell, like [`crate::naive::components`].
//! 3. **Write.** The runs are found again from the bits (`trailing_zeros` over the run start
//!    and end masks) and each run and each gap is written in chunks of 8 cells, every
//!    chunk starting where the previous segment ended, so each cell is written about once
//!    and the stores stay branch-light.
//!
//! [`Labeller::stats`] runs steps 1 and 2 and accumulates sizes and bounding boxes instead
//! of writing the image (the `--summary` path of the command line).
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

/// A label image: one `u32` per cell, row-major, `0` for background and `1..=count` for the
/// components in raster order of their first cell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels {
    width: usize,
    height: usize,
    count: u32,
    /// `width * height` labels, then `CHUNK` spare cells for chunked writes.
    data: Vec<u32>,
}

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
        &self.data[..self.width * self.height]
    }

    /// The labels of row `y`. Panics when `y >= height`.
    pub fn row(&self, y: usize) -> &[u32] {
        assert!(y < self.height, "row off the image");
        &self.data[y * self.width..(y + 1) * self.width]
    }

    /// The label of `(x, y)`; 0 off the image.
    pub fn get(&self, x: usize, y: usize) -> u32 {
        if x < self.width && y < self.height {
            self.data[y * self.width + x]
        } else {
            0
        }
    }

    /// The labels as a `Vec`, row-major.
    pub fn into_vec(mut self) -> Vec<u32> {
        self.data.truncate(self.width * self.height);
        self.data
    }

    /// Makes room for a `width x height` image.
    fn resize(&mut self, width: usize, height: usize) -> Result<(), SizeError> {
        let cells = width * height;
        let need = cells + CHUNK;
        if self.data.len() != need {
            self.data.clear();
            self.data
                .try_reserve_exact(need)
                .map_err(|_| size_error(width, height, "not enough memory for the label image"))?;
            self.data.resize(need, 0);
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

/// Reusable scratch space of the labeller: keep one around to label many images without
/// allocating.
#[derive(Clone, Debug, Default)]
pub struct Labeller {
    /// Union-find parents of the runs, then their labels.
    parent: Vec<u32>,
    /// Start and end (exclusive) of the runs of one row.
    run_start: Vec<u32>,
    run_end: Vec<u32>,
}

impl Labeller {
    /// A labeller with no scratch space yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Pass 1 and the flattening: afterwards `parent[i]` is the label of run `i`, and the
    /// number of labels is returned.
    fn scan(&mut self, grid: &BitGrid, conn: Connectivity) -> Result<u32, SizeError> {
        let (w, h, wpr) = (grid.width(), grid.height(), grid.words_per_row());
        let words = grid.words();
        // Count the runs first, to size the union-find exactly.
        let mut total: u64 = 0;
        for row in words.chunks_exact(wpr) {
            let mut carry = 0;
            for &x in row {
                total += u64::from(starts(x, carry).count_ones());
                carry = x >> 63;
            }
        }
        if total >= u64::from(u32::MAX) {
            return Err(size_error(w, h, "too many runs for u32 labels"));
        }
        let parent = &mut self.parent;
        parent.clear();
        parent
            .try_reserve_exact(total as usize)
            .map_err(|_| size_error(w, h, "not enough memory to label"))?;
        parent.extend(0..total as u32);

        let mut row_base: u32 = 0; // index of the first run of the previous row
        let mut cur_base: u32 = 0; // index of the first run of this row
        for y in 0..h {
            let cur = &words[y * wpr..(y + 1) * wpr];
            if y == 0 {
                let mut carry = 0;
                for &c in cur {
                    cur_base += starts(c, carry).count_ones();
                    carry = c >> 63;
                }
                continue;
            }
            let prev = &words[(y - 1) * wpr..y * wpr];
            // Runs before the current word, in this row and the previous one.
            let (mut cc, mut pc) = (cur_base, row_base);
            let (mut carry_c, mut carry_p, mut carry_v) = (0u64, 0u64, 0u64);
            for k in 0..wpr {
                let (c, p) = (cur[k], prev[k]);
                let cs = starts(c, carry_c);
                let ps = starts(p, carry_p);
                let v = c & p;
                // First cells of the vertical overlaps: one link each.
                let mut links = starts(v, carry_v);
                if conn == Connectivity::Eight {
                    // Diagonal contacts where the run above ends at x - 1 ...
                    let left = (p << 1) | carry_p;
                    links |= c & left & !p;
                    // ... and where it starts at x + 1 (the run index is one more).
                    let next_p = if k + 1 < wpr { prev[k + 1] << 63 } else { 0 };
                    let mut right = c & ((p >> 1) | next_p) & !p;
                    while right != 0 {
                        let bit = right.trailing_zeros();
                        right &= right - 1;
                        let ci = cc + (cs & upto(bit)).count_ones() - 1;
                        let pi = pc + (ps & upto(bit)).count_ones();
                        union(parent, ci, pi);
                    }
                }
                while links != 0 {
                    let bit = links.trailing_zeros();
                    links &= links - 1;
                    let ci = cc + (cs & upto(bit)).count_ones() - 1;
                    let pi = pc + (ps & upto(bit)).count_ones() - 1;
                    union(parent, ci, pi);
                }
                cc += cs.count_ones();
                pc += ps.count_ones();
                carry_c = c >> 63;
                carry_p = p >> 63;
                carry_v = v >> 63;
            }
            row_base = cur_base;
            cur_base = cc;
        }

        // Flatten: roots get labels 1, 2, ... in index order, the others their root's.
        let mut next = 0u32;
        for i in 0..parent.len() {
            let p = parent[i];
            if p == i as u32 {
                next += 1;
                parent[i] = next;
            } else {
                parent[i] = parent[p as usize];
            }
        }
        Ok(next)
    }

    /// The runs of one row into `run_start` / `run_end` (end exclusive); returns how many.
    #[inline(always)]
    fn row_runs(&mut self, row: &[u64], width: usize) -> usize {
        let cap = width / 2 + 2;
        if self.run_start.len() < cap {
            self.run_start.resize(cap, 0);
            self.run_end.resize(cap, 0);
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

    /// Labels `grid` into `out` (reusing its memory) and returns the number of components.
    /// Errors only when the label image or the scratch space cannot be allocated, or the
    /// grid has 2^32 runs or more.
    pub fn label(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        out: &mut Labels,
    ) -> Result<u32, SizeError> {
        self.label_impl(grid, conn, out, None)
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
        self.label_impl(grid, conn, out, Some(stats))
    }

    fn label_impl(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
        out: &mut Labels,
        mut stats: Option<&mut Vec<ComponentStats>>,
    ) -> Result<u32, SizeError> {
        let (w, h, wpr) = (grid.width(), grid.height(), grid.words_per_row());
        out.resize(w, h)?;
        let count = self.scan(grid, conn)?;
        if let Some(s) = stats.as_deref_mut() {
            s.clear();
            s.resize(count as usize, ComponentStats::EMPTY);
        }
        let mut run = 0usize;
        for y in 0..h {
            let n = self.row_runs(&grid.words()[y * wpr..(y + 1) * wpr], w);
            // The row and everything after it: chunks may spill into the next row (which
            // is written later) or the spare cells after the last one.
            let cells = &mut out.data[y * w..];
            let mut x = 0usize;
            for i in 0..n {
                let (s, e) = (self.run_start[i] as usize, self.run_end[i] as usize);
                let label = self.parent[run + i];
                fill_chunks(cells, x, s, 0);
                fill_chunks(cells, s, e, label);
                x = e;
                if let Some(st) = stats.as_deref_mut() {
                    st[label as usize - 1].add_run(y, s, e);
                }
            }
            fill_chunks(cells, x, w, 0);
            run += n;
        }
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
        let (w, h, wpr) = (grid.width(), grid.height(), grid.words_per_row());
        let count = self.scan(grid, conn)?;
        stats.clear();
        stats
            .try_reserve_exact(count as usize)
            .map_err(|_| size_error(w, h, "not enough memory for the statistics"))?;
        stats.resize(count as usize, ComponentStats::EMPTY);
        let mut run = 0usize;
        for y in 0..h {
            let n = self.row_runs(&grid.words()[y * wpr..(y + 1) * wpr], w);
            for i in 0..n {
                let (s, e) = (self.run_start[i] as usize, self.run_end[i] as usize);
                stats[self.parent[run + i] as usize - 1].add_run(y, s, e);
            }
            run += n;
        }
        Ok(count)
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
        let (w, h, wpr) = (first.width(), first.height(), first.words_per_row());
        if planes.iter().any(|p| p.width() != w || p.height() != h) {
            return Err(size_error(w, h, "class planes of different sizes"));
        }
        out.resize(w, h)?;
        out.data.fill(0);
        let mut classes = Vec::new();
        let mut offset = 0u32;
        for (class, plane) in planes.iter().enumerate() {
            let count = self.scan(plane, conn)?;
            let mut run = 0usize;
            for y in 0..h {
                let n = self.row_runs(&plane.words()[y * wpr..(y + 1) * wpr], w);
                let cells = &mut out.data[y * w..(y + 1) * w];
                for i in 0..n {
                    let (s, e) = (self.run_start[i] as usize, self.run_end[i] as usize);
                    cells[s..e].fill(offset + self.parent[run + i]);
                }
                run += n;
            }
            offset = offset
                .checked_add(count)
                .ok_or_else(|| size_error(w, h, "too many components for u32 labels"))?;
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
