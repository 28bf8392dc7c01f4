//! Connected-component labelling of runtime-sized grids (binary images, maps): a `u32`
//! label image, component statistics, and a summary path that never writes the image.
//!
//! [`label`] writes the label image, [`label_with_stats`] adds what
//! `cv2.connectedComponentsWithStats` reports ([`ComponentStats`]: area, bounding box, the sums
//! behind the centroid), [`stats`](fn@stats) gives those statistics without writing the image and
//! [`count`] only counts; the [`Labeller`] methods of the same names take options
//! ([`LabelOrder`], [`Labeller::with_level`]). Labels number the components `1..=n` in raster
//! order of their first cell with both connectivities, as `scipy.ndimage.label` and
//! [`crate::naive::components`] do; `0` is background. Any grid can be labelled
//! ([`LabelInput`]): a [`BitGrid`], a [`Board`](crate::Board), a
//! [`NaiveGrid`](crate::naive::NaiveGrid) or a [`ByteImage`](crate::grid::ByteImage)
//! ([`Labeller::label_bytes`] packs it inside the labelling). [`grid_components`] splits a grid into
//! one [`BitGrid`] per component. [`label_values`] labels a value image by class (cells join
//! only neighbours of equal value), as `skimage.measure.label` does; [`ValueLabeller`] does it
//! into an output buffer of yours (`u32`, `u64` or `i64`), writing every cell once. With the feature `parallel`, grids of at least
//! [`LABEL_MIN_CELLS`](crate::parallel::LABEL_MIN_CELLS) cells are labelled in row stripes
//! ([`crate::parallel`]), with the labels, statistics and counts of one thread, bit for bit.
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
//! assert_eq!(s[1].bbox(), (3, 0, 2, 2));
//! assert_eq!(s[1].centroid(), (11.0 / 3.0, 2.0 / 3.0));
//!
//! // 8-connected labels are in raster order too.
//! let g = BitGrid::parse("..#\n#..\n").unwrap();
//! assert_eq!(label(&g, Connectivity::Eight).unwrap().as_slice(), [0, 0, 1, 2, 0, 0]);
//! ```
//!
//! How it runs (a word-parallel run-based two-scan): docs/algorithms.md.

/// Runs `$body` through the accelerated copy when the CPU allows it, else the portable one.
macro_rules! dispatch {
    ($self:ident, $fast:path, $body:ident ( $($arg:expr),* )) => {{
        #[cfg(target_arch = "x86_64")]
        {
            if $self.may($crate::algo::label::BIT_PATH) {
                // SAFETY: `may(BIT_PATH)` (a subset of `cpu::features()`) checked POPCNT, BMI1, BMI2 and LZCNT
                // just above: the features every `$fast` function (`x86::scan`, `x86::stats`,
                // `x86::label`, `x86::accumulate`) is compiled for, and their only
                // requirement.
                return unsafe { $fast($self, $($arg),*) };
            }
        }
        $self.$body($($arg),*)
    }};
}

mod bits;
mod bytes;
mod component_stats;
mod flatten;
mod input;
mod labeller;
mod labels;
mod merge;
mod output;
mod parallel;
mod relabel;
#[cfg(target_arch = "x86_64")]
mod run_writer;
mod scratch;
mod source;
mod split;
mod stats;
mod value_labeller;
mod value_pairs;
mod value_route;
#[cfg(target_arch = "x86_64")]
mod value_writer;
mod values;
mod write;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use component_stats::ComponentStats;
pub use input::LabelInput;
pub use labels::Labels;
pub use merge::{merge_labels, relabel, MergeError, UnknownLabel};
pub use scratch::{LabelOrder, LabelStores, LabelWriter, Labeller};
pub use split::{grid_components, GridComponents};
pub use value_labeller::ValueLabeller;
pub use value_route::ValueRoute;
pub use values::label_values;

use crate::cpu::Features;
use crate::{BitGrid, Connectivity, SizeError};

/// Cells written past the end of the image by chunked writes.
const CHUNK: usize = 8;
/// Zero labels after the last run's, for loads of four labels at a time.
const LABEL_SLACK: usize = 4;

/// A size the labeller refuses for another reason than memory (too many labels for `u32`).
fn size_error(width: usize, height: usize, reason: &'static str) -> SizeError {
    SizeError::new("label image", width, height, reason)
}

/// A table of `count` values of `T` for labelling a `width x height` image that the
/// allocator refused.
fn memory_error<T>(width: usize, height: usize, count: usize, what: &'static str) -> SizeError {
    let bytes = count as u128 * std::mem::size_of::<T>() as u128;
    SizeError::memory("label image", width, height, bytes.max(1), what)
}

/// Resizes `v` to `len` elements (new ones `value`), reserving first: a [`SizeError`] for the
/// `width x height` image, naming `what`, when the memory cannot be had.
fn try_resize<T: Copy>(
    v: &mut Vec<T>,
    len: usize,
    value: T,
    (width, height): (usize, usize),
    what: &'static str,
) -> Result<(), SizeError> {
    if len > v.len() {
        v.try_reserve(len - v.len())
            .map_err(|_| memory_error::<T>(width, height, len, what))?;
    }
    v.resize(len, value);
    Ok(())
}

/// The features of the accelerated scan (x86-64: POPCNT, BMI1, BMI2, LZCNT).
const BIT_PATH: Features = Features::BIT_INSTRUCTIONS;
/// The features of the AVX2 label writer: the scan's and AVX2.
const AVX2_WRITER: Features = BIT_PATH.union(Features::AVX2);
/// The features of the 16-cell label writer: the AVX2 writer's, AVX-512 F and VPOPCNTDQ.
#[cfg(target_arch = "x86_64")]
const AVX512_WRITER: Features = AVX2_WRITER
    .union(Features::AVX512F)
    .union(Features::AVX512VPOPCNTDQ);

/// Rows per unit of the scan: one with 4-connectivity, a row pair with 8.
fn unit_rows(conn: Connectivity) -> usize {
    match conn {
        Connectivity::Four => 1,
        Connectivity::Eight => 2,
    }
}

/// Labels `grid`: a new [`Labels`] image, components in raster order of their first cell.
/// See the [module documentation](self).
///
/// Errors only when memory for the image cannot be had, the grid has 2^32 runs or more, or
/// `grid` cannot be converted ([`LabelInput`]).
///
/// ```
/// use gridbits::algo::label::label;
/// use gridbits::{bitboard, Board, Connectivity};
/// type B = Board<4, 2, 1>;
/// let b = bitboard!(B; "#..#", ".##.");
/// assert_eq!(label(&b, Connectivity::Four).unwrap().as_slice(), [1, 0, 0, 2, 0, 3, 3, 0]);
/// assert_eq!(label(&b, Connectivity::Eight).unwrap().count(), 1);
/// ```
pub fn label<G: LabelInput + ?Sized>(grid: &G, conn: Connectivity) -> Result<Labels, SizeError> {
    let grid = grid.to_bit_grid()?;
    let mut out = Labels::new();
    Labeller::new().label(&grid, conn, &mut out)?;
    Ok(out)
}

/// Labels `grid` and returns the statistics of every component (`stats[label - 1]`).
///
/// Errors as [`label`].
pub fn label_with_stats<G: LabelInput + ?Sized>(
    grid: &G,
    conn: Connectivity,
) -> Result<(Labels, Vec<ComponentStats>), SizeError> {
    let grid = grid.to_bit_grid()?;
    let mut out = Labels::new();
    let mut stats = Vec::new();
    Labeller::new().label_with_stats(&grid, conn, &mut out, &mut stats)?;
    Ok((out, stats))
}

/// The statistics of every component (size, bounding box, centroid sums), in raster order
/// of their first cell, without a label image.
///
/// Errors as [`label`].
pub fn stats<G: LabelInput + ?Sized>(
    grid: &G,
    conn: Connectivity,
) -> Result<Vec<ComponentStats>, SizeError> {
    let grid = grid.to_bit_grid()?;
    let mut stats = Vec::new();
    Labeller::new().stats(&grid, conn, &mut stats)?;
    Ok(stats)
}

/// The number of components of `grid`.
///
/// Errors as [`label`].
///
/// ```
/// use gridbits::algo::label::count;
/// use gridbits::{BitGrid, Connectivity};
/// let g = BitGrid::parse("#.#\n.#.\n#.#\n").unwrap();
/// assert_eq!(count(&g, Connectivity::Four).unwrap(), 5);
/// assert_eq!(count(&g, Connectivity::Eight).unwrap(), 1);
/// ```
pub fn count<G: LabelInput + ?Sized>(grid: &G, conn: Connectivity) -> Result<u32, SizeError> {
    let grid = grid.to_bit_grid()?;
    Labeller::new().count(&grid, conn)
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
            planes.push((c, BitGrid::try_new(w, h)?));
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
