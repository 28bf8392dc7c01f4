//! Which route the multi-class labeller ([`ValueLabeller`](super::ValueLabeller)) takes
//! for an image: [`ValueRoute`] (forced or chosen per image) and the measured rules of the
//! automatic choice.

/// Which way a [`ValueLabeller`](super::ValueLabeller) labels an image (for tests and
/// comparisons: every route gives the same labels). [`ValueRoute::Auto`], the default,
/// picks one per image.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ValueRoute {
    /// The measured choice: an 8-connected `u8` image with the background 0 and one class
    /// (every nonzero byte one value, checked while packing the bytes to bits, first)
    /// takes [`ValueRoute::Binary`] with no pass 1: measured on the 0/1 images of the
    /// Python bench in CPU time (docs/benchmarks.md, "labelbin"), within 5% of the fastest
    /// route on every image, 1.2-2x faster than rows and row pairs on noise. On CPUs
    /// without AVX-512 only when a sample of its rows is dense with short runs (as
    /// `binary_pays` below; else pass 1 as for other types): there the binary route took
    /// 1.1-1.7x the time of rows on noise 30%, blobs, a photograph and a page (AMD Zen 3,
    /// docs/benchmarks.md, "v2w").
    /// 4-connected images skip that check (rows beat the binary labeller there, its
    /// links cost as many row boundaries, "labelbin") unless a sample of their rows is
    /// dense with short runs (60% of the cells set, a run per 8 cells: noise 70%, where
    /// the binary route is 0.90x the time of rows, "label4c"). With other
    /// value types or backgrounds, an 8-connected image of one class
    /// takes [`ValueRoute::Binary`] when it has many short runs in dense rows (a run
    /// per 6 cells or more, 40% of its cells set or more), else [`ValueRoute::Pairs`];
    /// every other image takes [`ValueRoute::Rows`]. Measured on the 2048x2048 images of
    /// the Python bench (noise 30/50/70%, blobs, a photograph, a page; one class, and two
    /// classes at random on the set cells) in CPU time, docs/benchmarks.md ("label5"):
    /// row pairs are 0.87-0.99x the time of rows on 8-connected images of one class that
    /// are not dense noise, but 1.09-1.22x with two classes (the pass that gives every row
    /// run its pair run's first row run costs about what the links it saves do), 1.3-1.7x
    /// 4-connected; the binary route wins on 8-connected dense noise of one class only.
    #[default]
    Auto,
    /// Runs of each row linked to the touching runs of the row above, every row boundary.
    Rows,
    /// Rows in pairs: the runs of each class inside a pair joined by per-class bit masks,
    /// only every second row boundary linked. Images of more than four classes (values
    /// besides the background) take [`ValueRoute::Rows`].
    Pairs,
    /// Images of one class (every set cell of one value) as a binary image, through the
    /// bit-parallel binary [`Labeller`](super::Labeller) and its `u32` labels (`u8` images with the
    /// background 0 checked before pass 1, while packed to bits, at both connectivities);
    /// other images take [`ValueRoute::Rows`]. An image labelled in bands on several
    /// threads (see [`ValueLabeller`](super::ValueLabeller)) takes the binary labeller only
    /// from that check before pass 1, under this route and [`ValueRoute::Auto`] alike: its
    /// bands never hand their rows to it (their labels could not be joined).
    Binary,
}

/// Whether an 8-connected image of one class (one value besides the background) with `runs`
/// runs and `set` set cells among `cells` goes to the bit-parallel binary labeller: at
/// least one run per [`BINARY_CELLS_PER_RUN`] cells and [`BINARY_SET_PERCENT`]% of the cells
/// set. The binary labeller's links cost less per run (it links row pairs, BMRS's idea),
/// but its `u32` image and the widening into the output cost about 0.4 ns a cell more:
/// it pays where the links weigh most, many short runs in dense rows (each run touching
/// several runs above). Measured on 2048x2048 `uint8` images in CPU time (docs/benchmarks.md,
/// "label3"): noise 50% and 70%, 8-connected, 0.75x and 0.59x the time of the value
/// labeller; noise 30% 1.01x, blobs, a photograph and a page 1.24-1.41x (not taken), and
/// every 4-connected image 1.06-1.64x (never taken: without row pairs the binary labeller
/// links as many row boundaries).
#[inline(always)]
pub(super) fn binary_pays(runs: u64, set: u64, cells: u64) -> bool {
    runs.saturating_mul(BINARY_CELLS_PER_RUN) >= cells
        && set.saturating_mul(100) >= cells.saturating_mul(BINARY_SET_PERCENT)
}

/// Whether a `u8` image with the background 0 goes to the one-class check (and, of one
/// class, to the binary labeller) before pass 1 (`ValueRoute::Auto`). Other types and
/// backgrounds: the answer does not matter (the check takes only those images), `true`
/// for 8-connected images on CPUs with the AVX-512 writer, as for `u8` ones.
///
/// - 8-connected, on CPUs with the AVX-512 writer ([`wide_writer`]): always (the binary
///   labeller within 5% of the fastest route on every image there, "labelbin").
/// - 8-connected, on other CPUs: when a sample of rows has many short runs in dense rows,
///   the rule of [`binary_pays`] (a run per [`BINARY_CELLS_PER_RUN`] cells or more,
///   [`BINARY_SET_PERCENT`]% of the cells set) on the rows of [`row_sample`]. Without
///   the AVX-512 writer, the binary labeller's AVX2 writer and the widening of its `u32`
///   image cost more than the value labeller's pass 1 saves except on dense noise:
///   measured on an AMD EPYC Zen 3 (AVX2) in CPU time, 2048x2048 (docs/benchmarks.md,
///   "v2w"): noise 50% and 70% 0.6-0.7x the time of rows, noise 30% 1.1x, blobs 1.7x, a
///   photograph 1.35x, a page 1.1x (these four take pass 1: row pairs, one class).
/// - 4-connected: [`dense_short_runs`] (every CPU).
#[inline(always)]
pub(super) fn one_class_first<T: Copy + 'static>(
    values: &[T],
    (width, height): (usize, usize),
    background: Option<T>,
    eight: bool,
) -> bool {
    if eight && wide_writer() {
        return true;
    }
    let Some((set, runs, cells)) = row_sample(values, width, height, background) else {
        return eight;
    };
    if eight {
        binary_pays(runs, set, cells)
    } else {
        dense_short_runs(set, runs, cells)
    }
}

/// Whether this CPU (under the caps of `crate::cpu`) has the value labeller's AVX-512
/// writer: the key of the route rules measured apart on CPUs with and without it.
#[inline(always)]
fn wide_writer() -> bool {
    #[cfg(target_arch = "x86_64")]
    return crate::cpu::has(super::AVX512_WRITER);
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether a 4-connected `u8` image with the background 0 whose sample of rows
/// ([`row_sample`]) has `set` set cells and `runs` runs among `cells` goes to the
/// one-class check and the binary labeller: at least [`FOUR_SET_PERCENT`]% of the cells
/// set and a run per [`FOUR_CELLS_PER_RUN`] cells or more. There the binary labeller's
/// links (word masks, no per-byte compares) beat pass 1 of the rows route despite its
/// `u32` image and widening: noise 70% 4-connected 0.90x the time of rows; noise 30% and
/// 50% (too few set cells), blobs, a photograph and a page (too few runs) 1.07-1.15x, not
/// taken (docs/benchmarks.md, "label4c"; on Zen 3 with AVX2, "v2w": noise 70% 0.95x, the
/// others 1.15-1.45x).
#[inline(always)]
fn dense_short_runs(set: u64, runs: u64, cells: u64) -> bool {
    runs.saturating_mul(FOUR_CELLS_PER_RUN) >= cells
        && set.saturating_mul(100) >= cells.saturating_mul(FOUR_SET_PERCENT)
        && cells > 0
}

/// The set cells, runs and cells of a sample of the rows of a `u8` image with the
/// background 0 (at most [`SAMPLE_ROWS`], evenly spaced); `None` for other types and
/// backgrounds, and for an empty image.
#[inline(always)]
fn row_sample<T: Copy + 'static>(
    values: &[T],
    width: usize,
    height: usize,
    background: Option<T>,
) -> Option<(u64, u64, u64)> {
    let bytes = zero_background_bytes(values, background)?;
    if width == 0 || height == 0 {
        return None;
    }
    let step = height.div_ceil(SAMPLE_ROWS).max(1);
    let (mut set, mut runs, mut cells) = (0u64, 0u64, 0u64);
    for row in bytes.chunks_exact(width).step_by(step) {
        let mut before = false;
        for &b in row {
            let on = b != 0;
            set += u64::from(on);
            runs += u64::from(on && !before);
            before = on;
        }
        cells += width as u64;
    }
    Some((set, runs, cells))
}

/// See [`row_sample`].
const SAMPLE_ROWS: usize = 32;
/// See [`dense_short_runs`].
const FOUR_SET_PERCENT: u64 = 60;
/// See [`dense_short_runs`].
const FOUR_CELLS_PER_RUN: u64 = 8;

/// See [`binary_pays`].
const BINARY_CELLS_PER_RUN: u64 = 6;
/// See [`binary_pays`].
const BINARY_SET_PERCENT: u64 = 40;

/// The image's bytes when it is a `u8` image whose background is 0 (the images the
/// one-class check packs to bits), else `None`.
#[inline(always)]
pub(super) fn zero_background_bytes<T: Copy + 'static>(
    values: &[T],
    background: Option<T>,
) -> Option<&[u8]> {
    let zero = background.and_then(|b| as_bytes(std::slice::from_ref(&b)).map(|b| b[0]));
    as_bytes(values).filter(|_| zero == Some(0))
}

/// `values` as bytes when `T` is `u8`, else `None`.
#[inline(always)]
fn as_bytes<T: 'static>(values: &[T]) -> Option<&[u8]> {
    if std::any::TypeId::of::<T>() == std::any::TypeId::of::<u8>() {
        // SAFETY: `T` is `u8` (checked just above): the same type, size and alignment.
        Some(unsafe { &*(values as *const [T] as *const [u8]) })
    } else {
        None
    }
}
