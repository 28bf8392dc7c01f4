//! The scan of [`Labeller`]: runs, links, union-find and flattening.

use super::bits::{merged, push_bits, starts, unit_runs, upto};
use super::flatten::flatten;
use super::source::Source;
#[cfg(target_arch = "x86_64")]
use super::x86;
use super::{
    memory_error, size_error, try_resize, LabelOrder, LabelStores, LabelWriter, Labeller, Labels,
    BIT_PATH, LABEL_SLACK,
};
use crate::algo::runs::union_find::union;
use crate::grid::first_marks;
use crate::{BitGrid, Connectivity, SizeError};

impl Labeller {
    /// A labeller with no scratch space yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same labeller capped at the CPU features of `level` (never more than the CPU's
    /// own): for tests and comparisons of its code paths, as
    /// [`cpu::with_level`](crate::cpu::with_level) does for a thread, but kept by the labeller
    /// and taken to every stripe of a striped labelling. Results are identical.
    ///
    /// ```
    /// use gridbits::algo::label::{Labeller, Labels};
    /// use gridbits::cpu::Level;
    /// use gridbits::{BitGrid, Connectivity};
    /// assert!(!Labeller::new().with_level(Level::Portable).accelerated());
    /// let g = BitGrid::parse("#.#\n###\n").unwrap();
    /// let (mut a, mut b) = (Labels::new(), Labels::new());
    /// Labeller::new().label(&g, Connectivity::Four, &mut a).unwrap();
    /// Labeller::new().with_level(Level::Avx2).label(&g, Connectivity::Four, &mut b).unwrap();
    /// assert_eq!(a.as_slice(), b.as_slice());
    /// ```
    pub fn with_level(mut self, level: crate::cpu::Level) -> Self {
        self.cap = Some(level.features());
        self
    }

    /// The same labeller numbering components in `order` (by default
    /// [`LabelOrder::Raster`]).
    ///
    /// ```
    /// use gridbits::algo::label::{LabelOrder, Labeller, Labels};
    /// use gridbits::{BitGrid, Connectivity};
    /// let g = BitGrid::parse("..#\n#..\n").unwrap();
    /// let mut out = Labels::new();
    /// Labeller::new().label(&g, Connectivity::Eight, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), [0, 0, 1, 2, 0, 0]);
    /// let mut pairs = Labeller::new().with_order(LabelOrder::RowPairs);
    /// pairs.label(&g, Connectivity::Eight, &mut out).unwrap();
    /// assert_eq!(out.as_slice(), [0, 0, 2, 1, 0, 0]);
    /// ```
    pub fn with_order(mut self, order: LabelOrder) -> Self {
        self.order = order;
        self
    }

    /// The same labeller storing label images as `stores` says (by default
    /// [`LabelStores::Auto`]): for comparisons of the store kinds. Results are identical.
    ///
    /// ```
    /// use gridbits::algo::label::{LabelStores, Labeller, Labels};
    /// use gridbits::{BitGrid, Connectivity};
    /// let g = BitGrid::parse("#.#\n###\n").unwrap();
    /// let (mut a, mut b) = (Labels::new(), Labels::new());
    /// Labeller::new().with_stores(LabelStores::Cached).label(&g, Connectivity::Four, &mut a).unwrap();
    /// Labeller::new().with_stores(LabelStores::Streaming).label(&g, Connectivity::Four, &mut b).unwrap();
    /// assert_eq!(a.as_slice(), b.as_slice());
    /// assert!(!LabelStores::Cached.streams(1 << 30) && LabelStores::Streaming.streams(64));
    /// ```
    pub fn with_stores(mut self, stores: LabelStores) -> Self {
        self.stores = stores;
        self
    }

    /// The same labeller writing label images with `writer` (by default
    /// [`LabelWriter::Auto`]): for comparisons of the writers. Results are identical.
    ///
    /// ```
    /// use gridbits::algo::label::{LabelWriter, Labeller, Labels};
    /// use gridbits::{BitGrid, Connectivity};
    /// let g = BitGrid::parse("#..#\n.##.\n").unwrap();
    /// let (mut a, mut b) = (Labels::new(), Labels::new());
    /// Labeller::new().with_writer(LabelWriter::Runs).label(&g, Connectivity::Four, &mut a).unwrap();
    /// Labeller::new().with_writer(LabelWriter::Cells).label(&g, Connectivity::Four, &mut b).unwrap();
    /// assert_eq!(a.as_slice(), b.as_slice());
    /// assert_eq!(a.as_slice(), [1, 0, 0, 2, 0, 3, 3, 0]);
    /// ```
    pub fn with_writer(mut self, writer: LabelWriter) -> Self {
        self.writer = writer;
        self
    }

    /// How this labeller numbers components.
    pub fn order(&self) -> LabelOrder {
        self.order
    }

    /// Whether this labeller runs the copies compiled for POPCNT and BMI (x86-64 CPUs that
    /// have them, unless capped below them); with AVX2 the label image is also written 8
    /// cells per instruction.
    pub fn accelerated(&self) -> bool {
        self.may(BIT_PATH)
    }

    /// The CPU features this labeller may use now: the calling thread's
    /// ([`crate::cpu::features`]) within its cap.
    pub(super) fn features(&self) -> crate::cpu::Features {
        let now = crate::cpu::features();
        self.cap.map_or(now, |cap| now & cap)
    }

    /// Whether this labeller may use every feature of `f` now.
    #[inline]
    pub(super) fn may(&self, f: crate::cpu::Features) -> bool {
        match self.cap {
            None => crate::cpu::has(f),
            Some(_) => self.features().contains(f),
        }
    }

    /// Pass 1 and the flattening: afterwards `parent[i]` is the label of run `i`, and the
    /// number of labels is returned.
    pub(super) fn scan(&mut self, grid: &BitGrid, conn: Connectivity) -> Result<u32, SizeError> {
        self.reserve_row_tables(grid)?;
        dispatch!(self, x86::scan, scan_body(grid, conn))
    }

    /// Makes the run tables of one row (three `u32` per possible run, `width / 2 + 2`) and
    /// the per-word tables of a row (a start mask and two prefix counts per word) with
    /// fallible allocations, so that the row loops never allocate: a one-row grid 2^34 cells
    /// wide needs 96 GiB of them, an error rather than an abort.
    pub(super) fn reserve_row_tables(&mut self, grid: &BitGrid) -> Result<(), SizeError> {
        let (w, h, wpr) = (grid.width(), grid.height(), grid.words_per_row());
        let cap = w / 2 + 2;
        let why = "not enough memory for the run tables";
        for t in [&mut self.run_start, &mut self.run_end, &mut self.run_label] {
            if t.len() < cap {
                try_resize(t, cap, 0, (w, h), why)?;
            }
        }
        let fail = |_| memory_error::<u64>(w, h, 4 * (wpr + 1), why);
        let starts = wpr.saturating_sub(self.unit_starts.len());
        self.unit_starts.try_reserve(starts).map_err(fail)?;
        let prefix = (2 * (wpr + 1)).saturating_sub(self.unit_prefix.len());
        self.unit_prefix.try_reserve(prefix).map_err(fail)?;
        let sums = (wpr + 1).saturating_sub(self.column_sums.len());
        self.column_sums.try_reserve(sums).map_err(fail)?;
        Ok(())
    }

    #[inline(always)]
    pub(super) fn scan_body(
        &mut self,
        grid: &BitGrid,
        conn: Connectivity,
    ) -> Result<u32, SizeError> {
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
        // Count the runs first, to size the union-find exactly; `unit_base[k]` is the index
        // of the first run of unit `k`.
        let bases = &mut self.unit_base;
        bases.clear();
        bases
            .try_reserve_exact(units + 1)
            .map_err(|_| memory_error::<u32>(w, h, units + 1, "not enough memory to label"))?;
        self.unit_labels.clear();
        self.unit_labels
            .try_reserve_exact(units)
            .map_err(|_| memory_error::<u32>(w, h, units, "not enough memory to label"))?;
        let mut total = 0u64;
        bases.push(0);
        for k in 0..units {
            total += u64::from(unit_runs(words, wpr, h, UNIT, k));
            if total >= u64::from(u32::MAX) - LABEL_SLACK as u64 {
                return Err(size_error(w, h, "too many runs for u32 labels"));
            }
            bases.push(total as u32);
        }
        let parent = &mut self.parent;
        parent.clear();
        parent
            .try_reserve_exact(total as usize + LABEL_SLACK)
            .map_err(|_| {
                let n = total as usize + LABEL_SLACK;
                memory_error::<u32>(w, h, n, "not enough memory for the union-find table")
            })?;
        parent.extend(0..total as u32);
        // A slice: the links below keep its address and length in registers.
        let parent = &mut parent[..];

        let mut prev_base: u32 = 0; // index of the first run of the previous unit
        let mut cur_base: u32 = self.unit_base[1];
        for k in 1..units {
            let next_base = self.unit_base[k + 1];
            if prev_base == cur_base || cur_base == next_base {
                // A unit without runs (the white between lines of a scan): no links.
                (prev_base, cur_base) = (cur_base, next_base);
                continue;
            }
            let upper = &words[(k * UNIT - 1) * wpr..k * UNIT * wpr];
            let lower = &words[k * UNIT * wpr..(k * UNIT + 1) * wpr];
            // Runs before the current word, in this unit and the previous one.
            let (mut cc, mut pc) = (cur_base, prev_base);
            let (mut carry_mu, mut carry_md) = (0u64, 0u64);
            let (mut carry_u, mut carry_d, mut carry_v) = (0u64, 0u64, 0u64);
            // Whether the lower unit run reaching the next word has no link yet.
            let mut pending = 0u64;
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
                if !EIGHT {
                    // The first link of each lower run finds it alone in its set: it only
                    // takes the upper run's parent, no branch. It is the run's first overlap
                    // cell.
                    let mut first = first_marks(d, sd, v, &mut pending);
                    links &= !first;
                    while first != 0 {
                        let bit = first.trailing_zeros();
                        first &= first - 1;
                        let ci = cc + (sd & upto(bit)).count_ones() - 1;
                        let pi = pc + (su & upto(bit)).count_ones() - 1;
                        parent[ci as usize] = parent[pi as usize];
                    }
                }
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
                    // The first link of each lower unit run finds it alone in its set, as
                    // with 4-connectivity (every link lies in its lower unit run). A cell
                    // with both diagonal links gives the left one first.
                    let mut first = first_marks(md, sd, links | right, &mut pending);
                    let right_only = first & !links;
                    links &= !first;
                    right &= !right_only;
                    while first != 0 {
                        let bit = first.trailing_zeros();
                        first &= first - 1;
                        let shifted = ((right_only & !mu) >> bit) & 1;
                        let ci = cc + (sd & upto(bit)).count_ones() - 1;
                        let pi = pc + (su & upto(bit)).count_ones() + shifted as u32 - 1;
                        parent[ci as usize] = parent[pi as usize];
                    }
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
        let next = if EIGHT && self.order == LabelOrder::Raster {
            self.flatten_raster(grid)
        } else {
            let Self {
                parent,
                unit_base,
                unit_labels,
                ..
            } = self;
            // `unit_labels` was cleared and reserved with the unit bases.
            let mut next = 0;
            for k in 0..units {
                let (from, to) = (unit_base[k] as usize, unit_base[k + 1] as usize);
                next = flatten(&mut parent[..to], from, to, next);
                unit_labels.push(next);
            }
            next
        };
        // Slack for the AVX2 writer, which loads four labels at a time.
        self.parent.extend_from_slice(&[0; LABEL_SLACK]);
        Ok(next)
    }

    /// The runs of one row into `run_start` / `run_end` (end exclusive); returns how many.
    #[inline(always)]
    pub(super) fn row_runs(&mut self, row: &[u64], width: usize) -> usize {
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
    pub(super) fn for_each_row(
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

    /// The number of components only.
    pub fn count(&mut self, grid: &BitGrid, conn: Connectivity) -> Result<u32, SizeError> {
        if let Some(rows) = self.stripe_rows(grid.size(), conn) {
            return self.striped(Source::Grid(grid), conn, rows, None, None);
        }
        self.scan(grid, conn)
    }

    /// Labels the components of several planes of one size (one per class) into one image:
    /// cells join only cells of their own plane. The planes must not overlap (a cell set in
    /// two planes gets the label of the later one). Numbering is class by class: plane 0's
    /// components get labels `1..=n0` in raster order of their first cell, plane 1's the next
    /// ones, and so on (so each plane's statistics from [`stats`](Self::stats) line up with
    /// its labels); returns for each label its plane (`classes[label - 1]`).
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
