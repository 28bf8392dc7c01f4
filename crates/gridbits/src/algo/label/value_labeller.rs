//! The multi-class run labeller ([`ValueLabeller`]): labels a value image by class in two
//! passes over masks of 64 cells, writing the final labels once, in raster order, into the
//! caller's buffer of any integer type wide enough (`u32`, `u64`, `i64`).
//!
//! Pass 1 compares each block of 64 cells with its left neighbours, the row above and (with
//! 8-connectivity) the row above shifted by one cell, into bit masks (vector compares):
//! set cells (value not the background), run starts (a set cell whose left neighbour
//! differs), and the cells equal to their neighbour above, above-left and, seen from the cell
//! to the right, above-right. Runs are numbered in raster order (a run's index is a
//! `popcount` of the run starts before it), and one link per pair of touching runs of equal
//! value (`value_labeller/row_links.rs`) joins them in the one union-find of the crate
//! (`algo/runs/union_find.rs`): at the first cell of each stretch where the pair is the
//! same, the pairs that another link already joins left out. A run's first link needs no
//! search (its set is the run alone: it takes the other run's parent). Roots are first
//! runs, so numbering roots in index order numbers the components in raster order of their
//! first cell, as `skimage.measure.label` does.
//!
//! Pass 2 writes every cell once, row by row from the run starts and set cells kept by pass
//! 1: a block of few runs as constant stretches (`fill`), a block of many cell by cell
//! without a branch (each cell reads its run's label from a small table of the row); into
//! 64-bit labels on CPUs with AVX-512 (F, VPOPCNTDQ), 8 cells per instruction, and on
//! other CPUs with AVX2, 4 (`value_writer.rs`).
//!
//! An 8-connected byte image with the background 0 (on CPUs without AVX-512, one whose sampled rows
//! are dense with short runs; a 4-connected one only then, on every CPU: `value_route.rs`) is first
//! checked for one class before pass 1: its bytes are packed to bits (a bit a cell, set where the
//! byte is not 0) by the crate's byte kernels with the two-value check folded into the packing loop
//! ([`ByteValues`](crate::grid::ByteValues): the largest byte equals the smallest nonzero one), row
//! by row, stopping at the first row that holds a second value. An image of one class skips pass 1
//! (`value_labeller/one_class.rs`): its bits go to the bit-parallel binary [`Labeller`] (runs of
//! row pairs, as BMRS), whose `u32` labels are widened into the output (with AVX-512 or AVX2, 8 or
//! 4 cells per instruction and streaming stores: `value_writer.rs`). Other types and backgrounds
//! check for one class in pass 1 (one more compare per block): an 8-connected image of one class
//! with many short runs in dense rows (`binary_pays`) is labelled as a binary image there (its set
//! cells, already bits). Other 8-connected images of one class take the row-pair route
//! (`value_pairs.rs`: runs inside a pair joined by class masks, only every second row boundary
//! linked, the same runs, numbering and writer); [`ValueRoute`] forces a route.
//!
//! Images of at least [`LABEL_MIN_CELLS`](crate::parallel::LABEL_MIN_CELLS) cells on a pool
//! of several threads (feature `parallel`) are labelled in bands of rows, a band a thread,
//! joined across their borders and numbered to the one-thread result (`bands.rs`); the
//! binary route's labeller runs in stripes and its widening in bands.

use super::flatten::flatten;
use super::relabel::Relabel;
use super::value_pairs::{join_pair, link_pairs, ClassMasks, MAX_CLASSES};
use super::value_route::{binary_pays, one_class_first, ValueRoute};
use super::{memory_error, size_error, try_resize};
use super::{Labeller, Labels};
use crate::algo::runs::masks::{low, shifted_eq, value_mask};
use crate::{BitGrid, Connectivity, SizeError};
use bands::Bands;
use row_links::{link_rows, Rows};
use std::mem::MaybeUninit;

mod bands;
mod one_class;
mod row_links;

/// Blocks with more value changes than this are written cell by cell, others stretch by
/// stretch.
const STRETCH_MAX: u32 = 6;

/// Labels value images by class into buffers of the caller's, keeping its working memory
/// (run masks, union-find) for the next image. Pass 1 turns each block of 64 cells into bit
/// masks (set cells, run starts, cells equal to their neighbours above) and joins touching
/// runs of equal value, one link per pair, in the crate's union-find; pass 2 writes every
/// output cell once, in raster order. Byte images are compared 16 cells at a time (SSE2);
/// on CPUs with AVX2 and POPCNT both passes run in a copy compiled for them, and with
/// AVX-512 (F, VPOPCNTDQ) 64-bit labels are written 8 cells per instruction (with AVX2
/// only, 4). An 8-connected image of one class (a `u8` image of one nonzero value with
/// the background 0, checked before pass 1, on CPUs without AVX-512 only when its sampled
/// rows are dense with short runs; with other types, one with many short runs in dense
/// rows) is labelled by the bit-parallel binary [`Labeller`] (row pairs), through a
/// `u32` label image that is also kept for the next image (4 bytes a cell). Large images
/// are labelled on every thread of the current pool with the feature `parallel` (a band of
/// rows a thread), with the one-thread result.
///
/// ```
/// use gridbits::algo::label::ValueLabeller;
/// use gridbits::Connectivity;
/// let img: [u8; 6] = [1, 1, 2,
///                     0, 2, 2];
/// let mut out = [0i64; 6];
/// let n = ValueLabeller::new()
///     .label_into(&img, 3, 2, Some(0), Connectivity::Four, &mut out)
///     .unwrap();
/// assert_eq!((n, out), (2, [1, 1, 2, 0, 2, 2]));
/// ```
#[derive(Clone, Debug, Default)]
pub struct ValueLabeller {
    /// Union-find over the runs of the image, then their labels.
    parent: Vec<u32>,
    /// Per block of every row: run starts and set cells.
    starts: Vec<u64>,
    set: Vec<u64>,
    /// Per row: the index of its first run (one more entry: the total).
    row_base: Vec<u32>,
    /// The labels of one row's runs, for the AVX-512 writer (x86-64 only).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    table: Vec<u64>,
    /// The labels of one row's runs, for the AVX2 writer (x86-64 only).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    table32: Vec<u32>,
    /// Images of one class: their bits, the binary labeller and its labels.
    grid: Option<BitGrid>,
    binary: Labeller,
    labels: Labels,
    /// The route taken (by default chosen per image).
    route: ValueRoute,
    /// Per-class masks of the row-pair route.
    classes: ClassMasks,
    /// The test knob of [`with_bands`](Self::with_bands): the fewest cells labelled in
    /// bands and the rows of a band (else the thread count decides).
    split: Option<(usize, usize)>,
    /// The working memory of a labelling in row bands (`value_labeller/bands.rs`).
    bands: Bands,
}

/// Both passes compiled for CPUs with AVX2, POPCNT and BMI: run ranks by `popcnt`, masks of
/// wide values by AVX2 compares.
#[cfg(target_arch = "x86_64")]
mod fast {
    use super::{Connectivity, MaybeUninit, Relabel, SizeError, ValueLabeller};

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn run<
        T: Copy + PartialEq + Send + Sync + 'static,
        O: Copy + From<u32> + Send + 'static,
    >(
        l: &mut ValueLabeller,
        values: &[T],
        size: (usize, usize),
        background: Option<T>,
        conn: Connectivity,
        out: &mut [MaybeUninit<O>],
    ) -> Result<u32, SizeError> {
        l.run(values, size, background, conn, out)
    }

    /// Pass 1 of a band ([`ValueLabeller::scan_band`]).
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn scan_band<T: Copy + PartialEq + Send + Sync + 'static>(
        l: &mut ValueLabeller,
        values: &[T],
        size: (usize, usize),
        background: Option<T>,
        conn: Connectivity,
    ) -> Result<u32, SizeError> {
        l.scan_band_here(values, size, background, conn)
    }

    /// Pass 2 of a band ([`ValueLabeller::write_band`]).
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn write_band<O: Copy + From<u32> + Send + 'static>(
        l: &mut ValueLabeller,
        size: (usize, usize),
        relabel: Relabel<'_>,
        out: &mut [MaybeUninit<O>],
    ) {
        l.write_best(size, relabel, out)
    }
}

impl ValueLabeller {
    /// A labeller with no working memory yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same labeller taking `route` (by default [`ValueRoute::Auto`]): for tests and
    /// comparisons of the routes. Results are identical.
    ///
    /// ```
    /// use gridbits::algo::label::{ValueLabeller, ValueRoute};
    /// use gridbits::Connectivity;
    /// let img: [u8; 6] = [1, 0, 2,
    ///                     0, 1, 2];
    /// for route in [ValueRoute::Rows, ValueRoute::Pairs, ValueRoute::Binary] {
    ///     let mut out = [0i64; 6];
    ///     let n = ValueLabeller::new()
    ///         .with_route(route)
    ///         .label_into(&img, 3, 2, Some(0), Connectivity::Eight, &mut out)
    ///         .unwrap();
    ///     assert_eq!((n, out), (2, [1, 0, 2, 0, 1, 2]));
    /// }
    /// ```
    pub fn with_route(mut self, route: ValueRoute) -> Self {
        self.route = route;
        self
    }

    /// Test knob: labels images of at least `min_cells` cells in row bands of `rows` rows
    /// (rounded up to even), whatever the thread count, so that small images exercise the
    /// join of the bands. Results are identical either way.
    #[doc(hidden)]
    pub fn with_bands(mut self, min_cells: usize, rows: usize) -> Self {
        self.split = Some((min_cells, rows.max(1)));
        self
    }

    /// Labels `values` (`width x height`, row-major) into `out` (its first `width * height`
    /// cells): two neighbouring cells (under `conn`) are in one component when their values
    /// are equal; cells whose value is `background` get 0 (with `None` every cell is
    /// labelled). Components are numbered `1..=n` in raster order of their first cell, as
    /// [`label_values`](super::label_values) numbers them; returns `n`. Every output cell is
    /// written once.
    ///
    /// Errors when `values.len()` is not `width * height`, when `out` is shorter, when
    /// memory for the runs cannot be had, or when the image has 2^32 runs or more.
    pub fn label_into<
        T: Copy + PartialEq + Send + Sync + 'static,
        O: Copy + From<u32> + Send + 'static,
    >(
        &mut self,
        values: &[T],
        width: usize,
        height: usize,
        background: Option<T>,
        conn: Connectivity,
        out: &mut [O],
    ) -> Result<u32, SizeError> {
        let cells = out.len();
        // SAFETY: `MaybeUninit<O>` has the layout of `O`; `label_uninit` only writes
        // initialised values (`MaybeUninit::write`), so every cell stays initialised.
        let out = unsafe { &mut *(out as *mut [O] as *mut [MaybeUninit<O>]) };
        debug_assert_eq!(out.len(), cells);
        self.label_uninit(values, width, height, background, conn, out)
    }

    /// [`label_into`](Self::label_into) into a buffer that need not be initialised (such as
    /// [`Vec::spare_capacity_mut`]): when it returns `Ok`, the first `width * height` cells
    /// of `out` are initialised (on an error, none need be).
    ///
    /// Errors as [`label_into`](Self::label_into).
    ///
    /// ```
    /// use gridbits::algo::label::ValueLabeller;
    /// use gridbits::Connectivity;
    /// let img = [5u16, 5, 7, 5];
    /// let mut out: Vec<u32> = Vec::with_capacity(4);
    /// let n = ValueLabeller::new()
    ///     .label_uninit(&img, 2, 2, None, Connectivity::Eight, out.spare_capacity_mut())
    ///     .unwrap();
    /// // SAFETY: `label_uninit` returned Ok: the 4 cells are written.
    /// unsafe { out.set_len(4) };
    /// assert_eq!((n, out), (2, vec![1, 1, 2, 1]));
    /// ```
    pub fn label_uninit<
        T: Copy + PartialEq + Send + Sync + 'static,
        O: Copy + From<u32> + Send + 'static,
    >(
        &mut self,
        values: &[T],
        width: usize,
        height: usize,
        background: Option<T>,
        conn: Connectivity,
        out: &mut [MaybeUninit<O>],
    ) -> Result<u32, SizeError> {
        let cells = width.checked_mul(height);
        if cells != Some(values.len()) {
            return Err(size_error(
                width,
                height,
                "the value slice does not hold width * height values",
            ));
        }
        if out.len() < values.len() {
            return Err(size_error(
                width,
                height,
                "the output holds fewer than width * height cells",
            ));
        }
        if values.is_empty() {
            return Ok(0);
        }
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has(super::AVX2_WRITER) {
            // SAFETY: `cpu::has(AVX2_WRITER)` checked AVX2, POPCNT, BMI1, BMI2 and LZCNT just
            // above: the features `fast::run` is compiled for, its only requirement.
            return unsafe { fast::run(self, values, (width, height), background, conn, out) };
        }
        self.run(values, (width, height), background, conn, out)
    }

    /// Both passes (inlined into the portable and the accelerated copy).
    #[inline(always)]
    fn run<T: Copy + PartialEq + Send + Sync + 'static, O: Copy + From<u32> + Send + 'static>(
        &mut self,
        values: &[T],
        (width, height): (usize, usize),
        background: Option<T>,
        conn: Connectivity,
        out: &mut [MaybeUninit<O>],
    ) -> Result<u32, SizeError> {
        // The one-class check first where the binary labeller takes its images (see
        // `ValueRoute::Auto`).
        let one_class_first = match self.route {
            ValueRoute::Binary => true,
            ValueRoute::Auto => one_class_first(
                values,
                (width, height),
                background,
                conn == Connectivity::Eight,
            ),
            ValueRoute::Rows | ValueRoute::Pairs => false,
        };
        if one_class_first && self.pack_one_class(values, width, height, background)? {
            return self.widen_binary(conn, out);
        }
        if let Some(rows) = self.band_rows((width, height)) {
            return self.banded(values, (width, height), background, conn, rows, out);
        }
        let scanned = self.scan_conn(values, (width, height), background, conn, true)?;
        let Some(count) = scanned else {
            return self.label_binary(width, height, conn, out);
        };
        self.write_best((width, height), Relabel::Offset(0), out);
        Ok(count)
    }

    /// Pass 2 by the fastest writer for the CPU and the output type (inlined into the
    /// portable and the accelerated copy).
    #[inline(always)]
    fn write_best<O: Copy + From<u32> + Send + 'static>(
        &mut self,
        (width, height): (usize, usize),
        relabel: Relabel<'_>,
        out: &mut [MaybeUninit<O>],
    ) {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has(super::AVX512_WRITER) {
            if let Some(out) = as_u64_cells(out) {
                let masks = (&self.starts[..], &self.set[..]);
                let runs = (&self.row_base[..], &self.parent[..]);
                // SAFETY: `cpu::has(AVX512_WRITER)` checked AVX-512 F and VPOPCNTDQ, AVX2,
                // POPCNT, BMI1, BMI2 and LZCNT just above: the features `write_avx512` is
                // compiled for, its only requirement.
                unsafe {
                    super::value_writer::write_avx512(
                        (width, height),
                        masks,
                        runs,
                        (&mut self.table, relabel),
                        out,
                    )
                };
                return;
            }
        }
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has(super::AVX2_WRITER) {
            if let Some(out) = as_u64_cells(out) {
                let masks = (&self.starts[..], &self.set[..]);
                let runs = (&self.row_base[..], &self.parent[..]);
                // SAFETY: `cpu::has(AVX2_WRITER)` checked AVX2, POPCNT, BMI1, BMI2 and LZCNT
                // just above: the features `write_avx2` is compiled for, its only
                // requirement.
                unsafe {
                    super::value_writer::write_avx2(
                        (width, height),
                        masks,
                        runs,
                        (&mut self.table32, relabel),
                        out,
                    )
                };
                return;
            }
        }
        self.write(width, height, relabel, out);
    }

    /// Pass 1 of one band of a labelling in bands (an image of its own): its components
    /// numbered `1..=n` in its raster order (in `parent`, by run); returns `n`. Never hands
    /// the band to the binary labeller (its labels could not be joined to the other
    /// bands'). Runs the accelerated copy where the CPU allows it.
    fn scan_band<T: Copy + PartialEq + Send + Sync + 'static>(
        &mut self,
        values: &[T],
        size: (usize, usize),
        background: Option<T>,
        conn: Connectivity,
    ) -> Result<u32, SizeError> {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has(super::AVX2_WRITER) {
            // SAFETY: `cpu::has(AVX2_WRITER)` checked AVX2, POPCNT, BMI1, BMI2 and LZCNT just
            // above: the features `fast::scan_band` is compiled for, its only requirement.
            return unsafe { fast::scan_band(self, values, size, background, conn) };
        }
        self.scan_band_here(values, size, background, conn)
    }

    /// [`scan_band`](Self::scan_band) in this copy.
    #[inline(always)]
    fn scan_band_here<T: Copy + PartialEq + Send + Sync + 'static>(
        &mut self,
        values: &[T],
        size: (usize, usize),
        background: Option<T>,
        conn: Connectivity,
    ) -> Result<u32, SizeError> {
        let scanned = self.scan_conn(values, size, background, conn, false)?;
        // (`None` only where `may_binary`: never here.)
        Ok(scanned.unwrap_or(0))
    }

    /// [`scan`](Self::scan) at the connectivity `conn`.
    #[inline(always)]
    fn scan_conn<T: Copy + PartialEq + Send + Sync + 'static>(
        &mut self,
        values: &[T],
        (width, height): (usize, usize),
        background: Option<T>,
        conn: Connectivity,
        may_binary: bool,
    ) -> Result<Option<u32>, SizeError> {
        match conn {
            Connectivity::Four => {
                self.scan::<T, false>(values, width, height, background, may_binary)
            }
            Connectivity::Eight => {
                self.scan::<T, true>(values, width, height, background, may_binary)
            }
        }
    }

    /// Pass 2 of one band of a labelling in bands, its `parent` holding the final labels of
    /// its runs. Runs the accelerated copy where the CPU allows it.
    fn write_band<O: Copy + From<u32> + Send + 'static>(
        &mut self,
        size: (usize, usize),
        relabel: Relabel<'_>,
        out: &mut [MaybeUninit<O>],
    ) {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has(super::AVX2_WRITER) {
            // SAFETY: `cpu::has(AVX2_WRITER)` checked AVX2, POPCNT, BMI1, BMI2 and LZCNT just
            // above: the features `fast::write_band` is compiled for, its only requirement.
            return unsafe { fast::write_band(self, size, relabel, out) };
        }
        self.write_best(size, relabel, out)
    }

    /// Pass 1: run masks, links, then the labels of the runs in `parent`; returns the count,
    /// or `None` (links not made) for an image of one class that [`binary_pays`] (or the
    /// forced binary route) sends to [`label_binary`](Self::label_binary) when `may_binary`.
    #[inline(always)]
    fn scan<T: Copy + PartialEq + Send + Sync + 'static, const EIGHT: bool>(
        &mut self,
        values: &[T],
        width: usize,
        height: usize,
        background: Option<T>,
        may_binary: bool,
    ) -> Result<Option<u32>, SizeError> {
        let size = (width, height);
        let bpr = width.div_ceil(64);
        let blocks = bpr * height;
        let why = "not enough memory for the run masks";
        try_resize(&mut self.starts, blocks, 0, size, why)?;
        try_resize(&mut self.set, blocks, 0, size, why)?;
        try_resize(&mut self.row_base, height + 1, 0, size, why)?;
        // Masks of every block first, and the run count of every row: the union-find is
        // sized once, exactly.
        let mut total = 0u64;
        // The value of the first set cell, whether every set cell so far has it, and the
        // set cells.
        let (mut first, mut single, mut set_cells) = (None, true, 0u64);
        // The row-pair route while the image has at most `MAX_CLASSES` classes.
        let route = self.route;
        // (Automatic: 8-connected images of one class only, see `ValueRoute::Auto`: their
        // one class mask is the set cells, copied after this pass.)
        let mut pairs = route == ValueRoute::Pairs;
        let mut class_values = [values[0]; MAX_CLASSES];
        self.classes.begin();
        for y in 0..height {
            let row = &values[y * width..(y + 1) * width];
            self.row_base[y] = total as u32;
            for j in 0..bpr {
                let x0 = j * 64;
                let n = (width - x0).min(64);
                let set = match background {
                    Some(b) => !value_mask(&row[x0..x0 + n], b) & low(n),
                    None => low(n),
                };
                if single && set != 0 {
                    let f = *first.get_or_insert(row[x0 + set.trailing_zeros() as usize]);
                    single = set & !value_mask(&row[x0..x0 + n], f) == 0;
                }
                if pairs {
                    let at = y * bpr + j;
                    pairs = self
                        .classes
                        .block(&mut class_values, &row[x0..x0 + n], set, (at, blocks))
                        .map_err(|_| memory_error::<u64>(width, height, blocks, why))?;
                }
                set_cells += u64::from(set.count_ones());
                // Cells equal to their left neighbour (none for the row's first cell).
                let same = shifted_eq(row, row, x0, n, -1);
                let s = set & !same;
                self.set[y * bpr + j] = set;
                self.starts[y * bpr + j] = s;
                total += u64::from(s.count_ones());
            }
            if total >= u64::from(u32::MAX) {
                return Err(size_error(width, height, "2^32 runs or more"));
            }
        }
        self.row_base[height] = total as u32;
        let binary = may_binary
            && match route {
                ValueRoute::Binary => single,
                ValueRoute::Auto => {
                    EIGHT && single && binary_pays(total, set_cells, (width * height) as u64)
                }
                ValueRoute::Rows | ValueRoute::Pairs => false,
            };
        if binary {
            return Ok(None);
        }
        if route == ValueRoute::Auto && EIGHT && single {
            self.classes
                .one_class(&self.set, set_cells > 0)
                .map_err(|_| memory_error::<u64>(width, height, blocks, why))?;
            pairs = true;
        }
        let parent = &mut self.parent;
        parent.clear();
        parent
            .try_reserve_exact(total as usize)
            .map_err(|_| memory_error::<u32>(width, height, total as usize, "not enough memory"))?;
        parent.extend(0..total as u32);
        let parent = &mut parent[..];
        let rows = Rows {
            values,
            width,
            starts: &self.starts,
            set: &self.set,
            row_base: &self.row_base,
        };
        if pairs {
            // A pair's runs of one class: 8-connected, runs of the merged rows, separated by
            // an empty column (at most half the width, rounded up); 4-connected they may
            // abut (a cell only in the top row beside one only in the bottom row starts a
            // run), up to one a column.
            let cap = if EIGHT { width / 2 + 2 } else { width + 1 };
            self.classes
                .reserve_tables(cap)
                .map_err(|_| memory_error::<u32>(width, height, cap, "not enough memory"))?;
            for top in (0..height).step_by(2) {
                let bottom = top + 1 < height;
                join_pair::<EIGHT>(
                    &mut self.classes,
                    parent,
                    rows.starts,
                    rows.row_base,
                    bpr,
                    top,
                    bottom,
                );
                if top > 0 {
                    link_pairs::<EIGHT>(&self.classes, parent, bpr, top, bottom);
                }
                self.classes.next_pair();
            }
        } else {
            for y in 1..height {
                link_rows::<T, EIGHT>(&rows, parent, y);
            }
        }
        // Number the roots in index order (raster order of first cells); every other run
        // takes its parent's label (a parent comes first, so it is a label by then).
        let count = flatten(parent, 0, parent.len(), 0);
        Ok(Some(count))
    }

    /// Pass 2: every cell of `out` once, row by row.
    #[inline(always)]
    fn write<O: Copy + From<u32> + Send + 'static>(
        &mut self,
        width: usize,
        height: usize,
        relabel: Relabel<'_>,
        out: &mut [MaybeUninit<O>],
    ) {
        let bpr = width.div_ceil(64);
        let zero = O::from(0);
        let mut table: Vec<O> = Vec::new();
        for y in 0..height {
            let (b0, b1) = (self.row_base[y] as usize, self.row_base[y + 1] as usize);
            table.clear();
            table.push(zero);
            relabel.extend(&mut table, &self.parent[b0..b1]);
            let row = &mut out[y * width..(y + 1) * width];
            let mut r = 0usize; // runs started so far in this row
            let mut prev_set = 0u64; // whether the cell before the block is set
            for j in 0..bpr {
                let x0 = j * 64;
                let n = (width - x0).min(64);
                let (s, set) = (self.starts[y * bpr + j], self.set[y * bpr + j]);
                let cells = &mut row[x0..x0 + n];
                // Where the output value changes: run starts and ends of set stretches.
                let changes = s | ((set ^ ((set << 1) | prev_set)) & low(n));
                if changes.count_ones() <= STRETCH_MAX {
                    let mut at = 0usize;
                    let mut rest = changes | 1;
                    while rest != 0 {
                        let from = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        let to = if rest == 0 {
                            n
                        } else {
                            rest.trailing_zeros() as usize
                        };
                        r += ((s >> from) & 1) as usize;
                        let value = if (set >> from) & 1 != 0 {
                            table[r]
                        } else {
                            zero
                        };
                        for c in &mut cells[from..to] {
                            c.write(value);
                        }
                        at = to;
                    }
                    debug_assert_eq!(at, n);
                } else {
                    // Entry 0 of the table is 0: a background cell reads it, a set cell
                    // its run's label.
                    let (mut starts, mut set) = (s, set);
                    for c in cells.iter_mut() {
                        r += (starts & 1) as usize;
                        c.write(table[r & 0usize.wrapping_sub((set & 1) as usize)]);
                        starts >>= 1;
                        set >>= 1;
                    }
                }
                prev_set = (set >> 63) & 1;
            }
        }
    }
}

/// `out` as `u64` cells when `O` is `i64` or `u64` (whose values from `u32` labels have the
/// same bits), else `None`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn as_u64_cells<O: 'static>(out: &mut [MaybeUninit<O>]) -> Option<&mut [MaybeUninit<u64>]> {
    use std::any::TypeId;
    let t = TypeId::of::<O>();
    if t == TypeId::of::<i64>() || t == TypeId::of::<u64>() {
        // SAFETY: `O` is `i64` or `u64` (checked just above): the size and alignment of
        // `u64`, and a label `l` written as `u64` has the bits of `O::from(l)` (a
        // non-negative value below 2^32).
        Some(unsafe { &mut *(out as *mut [MaybeUninit<O>] as *mut [MaybeUninit<u64>]) })
    } else {
        None
    }
}
