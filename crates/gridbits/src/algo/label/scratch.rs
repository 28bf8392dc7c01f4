//! The labeller's state: [`Labeller`] (options and scratch space, reused between images),
//! [`LabelOrder`], and the scratch space of one stripe of a striped labelling ([`Stripe`]).
//! The methods are in the files of each pass (`labeller.rs`, `stats.rs`, `parallel.rs`, ...).

use super::ComponentStats;
use crate::BitGrid;

/// How [`Labeller`] numbers the components.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LabelOrder {
    /// Raster order of each component's first cell (top row first, then left to right),
    /// as `scipy.ndimage.label` numbers them (and OpenCV with `CCL_SAUF`). The default.
    #[default]
    Raster,
    /// With 8-connectivity, the order the scan meets the components in: by the first pair of
    /// rows (0-1, 2-3, ...) they reach, then by their leftmost column there. Saves a small
    /// renumbering pass. With 4-connectivity it is the raster order.
    RowPairs,
}

/// How the label image is stored by the vector writers (AVX2 and AVX-512; the portable writer
/// always stores through the cache). Results are identical; only the time differs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LabelStores {
    /// Through the cache when the image takes at most a quarter of the last-level cache
    /// ([`crate::cpu::last_level_cache`]), where its reader finds it; streaming
    /// (non-temporal) stores when it is larger, which skip the read for ownership of each
    /// line. On the shared 2-vCPU EPYC of docs/benchmarks.md (32 MiB L3, other processes
    /// running) streaming took 0.55-0.85x the time of ordinary stores with 8-connectivity
    /// already at 2048x2048 (a 16 MiB image, half the L3), hence a quarter rather than a
    /// half. The rows the run writer writes ([`LabelWriter`]: sparse rows, mostly zeros) go
    /// through the cache up to the whole last-level cache ([`streams_runs`](Self::streams_runs)):
    /// on the text scan at 2048x2048 that took 0.9x the time of streaming them, where the
    /// dense rows of noise lose with ordinary stores. Streaming when the cache size is
    /// unknown.
    ///
    /// The AVX2 writer (the writer of CPUs without AVX-512, or under
    /// [`crate::cpu::Level::Avx2`]) writes row pairs (8-connectivity) through the cache at
    /// any size ([`streams_avx2_pairs`](Self::streams_avx2_pairs)): its stores are 32 bytes,
    /// half a line, and alternate between the pair's two rows, which leaves write-combining
    /// lines half full when they are flushed (streamed so, the page and text scans at
    /// 2048x2048 and 4096x4096 took 1.4-2.2x the time of ordinary stores on an AMD Zen 3;
    /// with each line's two halves stored together, still 1.1-1.5x). Its single rows
    /// (4-connectivity) stream as above. The AVX-512 writer stores whole lines. The default.
    #[default]
    Auto,
    /// Always ordinary stores, through the cache.
    Cached,
    /// Always streaming stores where a row's cells are aligned (as before `Auto`).
    Streaming,
}

impl LabelStores {
    /// Whether an image of `bytes` bytes is written with streaming stores.
    pub fn streams(self, bytes: usize) -> bool {
        match self {
            LabelStores::Auto => bytes > crate::cpu::last_level_cache() / 4,
            LabelStores::Cached => false,
            LabelStores::Streaming => true,
        }
    }

    /// Whether the AVX2 writer streams the row pairs of 8-connectivity of an image that
    /// [`streams`](Self::streams) streams: with `Auto` never (see [`LabelStores::Auto`]).
    ///
    /// ```
    /// use gridbits::algo::label::LabelStores;
    /// assert!(!LabelStores::Auto.streams_avx2_pairs() && LabelStores::Streaming.streams_avx2_pairs());
    /// ```
    pub fn streams_avx2_pairs(self) -> bool {
        self == LabelStores::Streaming
    }

    /// Whether the rows of an image of `bytes` bytes that the run writer writes
    /// ([`LabelWriter`]) are streamed (with `Auto`: images larger than the last-level
    /// cache; [`streams`](Self::streams) says it for the other rows).
    ///
    /// ```
    /// use gridbits::algo::label::LabelStores;
    /// assert!(!LabelStores::Cached.streams_runs(1 << 40) && LabelStores::Streaming.streams_runs(4));
    /// assert!(LabelStores::Auto.streams_runs(1 << 40));
    /// ```
    pub fn streams_runs(self, bytes: usize) -> bool {
        match self {
            LabelStores::Auto => bytes > crate::cpu::last_level_cache(),
            LabelStores::Cached => false,
            LabelStores::Streaming => true,
        }
    }
}

/// Which writer writes the rows of the label image where the CPU has AVX-512 (F and
/// VPOPCNTDQ; the AVX2 and portable writers have one way only). Results are identical; only
/// the time differs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LabelWriter {
    /// Each unit of the scan (a row, or a row pair with 8-connectivity) whose merged row has
    /// at most one run per 24 cells run by run ([`Runs`](Self::Runs)), the others 16 cells
    /// per instruction ([`Cells`](Self::Cells)); except that when the run writer's rows are
    /// streamed ([`LabelStores::streams_runs`]) and with 8-connectivity every unit takes
    /// `Cells`, which writes a row pair's two rows from one computation (run by run was no
    /// faster there on the text scan and slower on the page scan; docs/benchmarks.md,
    /// "Document scans"). Through the cache, a row pair is written run by run from its
    /// merged row's runs, each once for both rows. The default.
    #[default]
    Auto,
    /// Every row 16 cells per instruction: each 16 cells' labels computed from the run
    /// starts (`vpopcntd`, `vpermd`), set cells or not.
    Cells,
    /// Every row run by run: zeros over the row, then each run's label over its cells
    /// (masked stores), the runs found with `tzcnt` on the row XOR itself shifted by one
    /// cell. Through the cache; with streaming stores a row is written in a buffer in the
    /// cache and streamed from it.
    Runs,
}

/// Reusable scratch space of the labeller: keep one around to label many images without
/// allocating.
///
/// On x86-64 CPUs with POPCNT and BMI (detected at run time) the labeller runs a copy of its
/// code compiled for those instructions, and with AVX2 it writes label images with a
/// table-driven `vpermd`, 8 cells at a time (with AVX-512 F and VPOPCNTDQ, 16 cells at a
/// time). [`with_level`](Self::with_level) caps them at a [`crate::cpu::Level`]; a labelling
/// also takes the cap of [`crate::cpu::with_level`] on the calling thread to every stripe it
/// runs on other threads.
#[derive(Clone, Debug, Default)]
pub struct Labeller {
    /// Union-find parents of the runs, then their labels.
    pub(super) parent: Vec<u32>,
    /// Start, end (exclusive) and label of the runs of one row.
    pub(super) run_start: Vec<u32>,
    pub(super) run_end: Vec<u32>,
    pub(super) run_label: Vec<u32>,
    /// Run starts of a unit's merged row and their counts before each word.
    pub(super) unit_starts: Vec<u64>,
    pub(super) unit_prefix: Vec<u32>,
    /// Sums of the columns of the set cells of a row pair before each word.
    pub(super) column_sums: Vec<u64>,
    /// Index of the first run of each unit, and one past the last run.
    pub(super) unit_base: Vec<u32>,
    /// New label of each new component of one unit, for the raster order.
    pub(super) renumber: Vec<u32>,
    /// How many labels units `0..=k` have given, for each unit `k` (labels are given unit by
    /// unit: the first cell of label `l` lies in the first unit whose entry reaches `l`).
    pub(super) unit_labels: Vec<u32>,
    /// The CPU features this labeller may use at most: the level of
    /// [`with_level`](Self::with_level), or during a striped labelling the features of its
    /// calling thread (stripes run on other threads, whose own cap is not the caller's).
    pub(super) cap: Option<crate::cpu::Features>,
    /// How components are numbered.
    pub(super) order: LabelOrder,
    /// How the vector writers store the image, and the choice for the image being written
    /// (set at the start of each labelling, taken to the stripes).
    pub(super) stores: LabelStores,
    pub(super) stream: bool,
    /// The same for the rows the run writer writes ([`LabelStores::streams_runs`]).
    pub(super) stream_runs: bool,
    /// Which writer writes the rows (with AVX-512).
    pub(super) writer: LabelWriter,
    /// Forced stripes (test knob): minimum cells and rows per stripe.
    pub(super) split: Option<(usize, usize)>,
    /// Scratch space of the stripes of a striped labelling.
    pub(super) stripes: Vec<Stripe>,
    /// A byte image packed for a labelling on one thread (by
    /// [`label_bytes`](Self::label_bytes) and its siblings), kept for the next one.
    pub(super) packed: Option<BitGrid>,
}

/// One stripe's scratch space and results.
#[derive(Clone, Debug, Default)]
pub(super) struct Stripe {
    pub(super) labeller: Labeller,
    pub(super) grid: Option<BitGrid>,
    /// First row of the stripe in the grid, and its number of rows.
    pub(super) y0: usize,
    pub(super) rows: usize,
    /// Units whose rows a pipelined first pass wrote (the first stripe's;
    /// `parallel::stripe_write::final_units`).
    pub(super) written: usize,
    /// Number of local labels.
    pub(super) count: u32,
    /// The local labels of the first and last rows, increasing, and the union-find id of
    /// the first.
    pub(super) border: Vec<u32>,
    pub(super) border_base: u32,
    /// Final label of the first new component of the stripe, minus 1.
    pub(super) first: u32,
    /// Statistics of the joined pieces whose component is another stripe's (one slot per
    /// joined label), merged into the result after the last pass.
    pub(super) side: Vec<ComponentStats>,
    /// Where each local label's statistics accumulate: `k` below the number of the
    /// stripe's own new components is their slot `k`, the others slot `k - own` of `side`.
    pub(super) slot_of: Vec<u32>,
    /// The first and last rows, each cell's label as `1 +` its index in `border` (0: empty).
    pub(super) top: Vec<u32>,
    pub(super) bottom: Vec<u32>,
    /// Local labels whose border id is no root (increasing), joined to a component whose
    /// root is in an earlier stripe or, through a later one, in this one; and the final
    /// label of each.
    pub(super) joined: Vec<u32>,
    pub(super) joined_final: Vec<u32>,
    /// Final label of each local label from `map_base` on (0 for 0): `map[i]` of label
    /// `map_base + i`.
    pub(super) map: Vec<u32>,
    pub(super) map_base: u32,
}
