//! The chamfer (city-block, chessboard, or any 3 x 3 neighbourhood) distance transform in two
//! raster passes, as `scipy.ndimage.distance_transform_cdt` computes it: same distances, same
//! nearest background cell for every cell, ties included.
//!
//! Each pass runs over a copy of the distances padded with one cell of "unreached" on every
//! side, so the inner loop has no bounds checks; the neighbourhood's four "earlier" cells are
//! const-generic flags, so each of the 16 neighbourhoods compiles to its own straight loop.

use super::counted_layers::{shallow_layers, write_counts, Writer, SHALLOW_LAYERS, THINNING};
use super::layers::{self, layer_distances, surely_deep};
use super::sweeps::{sweep_distances, Distance, MAX_SUM};
use super::vector_passes::{vector_distances, Kernel, Widened, LANE_LIMIT};
use crate::error::{try_filled, try_vec};
use crate::{BitGrid, SizeError};

/// Distance of a cell no background cell reaches (scipy's `-1`), inside the passes.
const UNREACHED: u32 = i32::MAX as u32;

/// A 3 x 3 neighbourhood, scipy's `metric` structure: which of a cell's eight neighbours are
/// one step away. As in scipy, the transform reads only the four cells before the centre in
/// raster order (`[0][0]`, `[0][1]`, `[0][2]`, `[1][0]`), each for itself in the forward pass
/// and mirrored through the centre in the backward pass; the other five entries are ignored.
///
/// ```
/// use gridbits::algo::distance_transform::Neighbourhood;
/// assert_eq!(Neighbourhood::taxicab().steps(), [false, true, false, true]);
/// assert_eq!(Neighbourhood::chessboard().steps(), [true; 4]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Neighbourhood {
    /// `[up-left, up, up-right, left]`: the entries the passes read.
    steps: [bool; 4],
}

impl Neighbourhood {
    /// The four edge neighbours (scipy's `'taxicab'`, `'cityblock'`, `'manhattan'`):
    /// distances are `|dx| + |dy|`.
    pub fn taxicab() -> Self {
        Neighbourhood {
            steps: [false, true, false, true],
        }
    }

    /// All eight neighbours (scipy's `'chessboard'`): distances are `max(|dx|, |dy|)`.
    pub fn chessboard() -> Self {
        Neighbourhood { steps: [true; 4] }
    }

    /// A 3 x 3 structure, `rows[r][c]` for the neighbour at `(c - 1, r - 1)`; only the four
    /// cells before the centre in raster order count (see the type's documentation).
    pub fn from_rows(rows: [[bool; 3]; 3]) -> Self {
        Neighbourhood {
            steps: [rows[0][0], rows[0][1], rows[0][2], rows[1][0]],
        }
    }

    /// `[up-left, up, up-right, left]`: the neighbours the forward pass reads (the backward
    /// pass reads their mirror images).
    pub fn steps(&self) -> [bool; 4] {
        self.steps
    }
}

/// The result of [`chamfer_transform`]: per cell the number of steps to the nearest
/// background cell, and with it (when asked for) that cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChamferTransform {
    width: usize,
    height: usize,
    distances: Vec<i32>,
    nearest: Option<Vec<u32>>,
}

impl ChamferTransform {
    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The distances in row-major order: 0 on background cells, `-1` where the passes reach
    /// no background cell (a grid without any, or a neighbourhood that cannot get there).
    pub fn distances(&self) -> &[i32] {
        &self.distances
    }

    /// The distances, owned (see [`distances`](Self::distances)).
    pub fn into_distances(self) -> Vec<i32> {
        self.distances
    }

    /// Per cell, the row-major index `y * width + x` of the background cell its distance
    /// comes from (the cell itself where it is background or unreached); `None` unless
    /// asked for.
    pub fn nearest(&self) -> Option<&[u32]> {
        self.nearest.as_deref()
    }

    /// The distance of `(x, y)` (`-1`: unreached).
    ///
    /// # Panics
    ///
    /// If `(x, y)` is off the grid.
    pub fn get(&self, x: usize, y: usize) -> i32 {
        assert!(x < self.width && y < self.height, "cell off the grid");
        self.distances[y * self.width + x]
    }
}

/// The chamfer distance transform of `grid`: for every set cell, the fewest steps of
/// `neighbourhood` to an unset (background) cell, with what lies outside the grid counted
/// as neither. With `nearest`, also which background cell each distance comes from.
///
/// This is scipy's two-pass algorithm, cell for cell: a forward raster pass taking the
/// smallest of the earlier neighbours plus one (the first in `[up-left, up, up-right, left]`
/// order on ties), then a backward pass over the mirrored neighbours (keeping the forward
/// value on ties). For [`Neighbourhood::taxicab`] and [`Neighbourhood::chessboard`] the
/// distances are exact `|dx| + |dy|` and `max(|dx|, |dy|)`.
///
/// ```
/// use gridbits::algo::distance_transform::{chamfer_transform, Neighbourhood};
/// use gridbits::BitGrid;
/// let g = BitGrid::parse("....\n.##.\n.##.\n###.\n").unwrap();
/// let t = chamfer_transform(&g, Neighbourhood::taxicab(), true).unwrap();
/// assert_eq!(t.distances(), &[0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 0, 1, 2, 1, 0]);
/// // (0, 3) takes its distance from (0, 2), the cell above it.
/// assert_eq!(t.nearest().unwrap()[12], 8);
/// ```
///
/// # Errors
///
/// A [`SizeError`] if the memory cannot be had.
pub fn chamfer_transform(
    grid: &BitGrid,
    neighbourhood: Neighbourhood,
    nearest: bool,
) -> Result<ChamferTransform, SizeError> {
    if !nearest {
        if let Some(distances) = by_layers::<i32>(grid, neighbourhood)? {
            return Ok(ChamferTransform {
                width: grid.width(),
                height: grid.height(),
                distances,
                nearest: None,
            });
        }
    }
    let (pad, feat) = padded_passes(grid, neighbourhood, nearest)?;
    Ok(ChamferTransform {
        width: grid.width(),
        height: grid.height(),
        distances: unpad(grid, &pad, |d| if d >= UNREACHED { -1 } else { d as i32 })?,
        nearest: feat,
    })
}

/// The distances of [`chamfer_transform`] as `f32`, with `f32::MAX` where no background
/// cell is reached: what OpenCV's `distanceTransform` gives for `DIST_L1`
/// ([`Neighbourhood::taxicab`]) and `DIST_C` ([`Neighbourhood::chessboard`]), whose passes
/// are the same (outside the image is not background there either).
///
/// ```
/// use gridbits::algo::distance_transform::{chamfer_distances_f32, Neighbourhood};
/// use gridbits::BitGrid;
/// let g = BitGrid::parse("##.\n").unwrap();
/// assert_eq!(chamfer_distances_f32(&g, Neighbourhood::taxicab()).unwrap(), vec![2.0, 1.0, 0.0]);
/// let full = BitGrid::parse("##\n").unwrap();
/// assert_eq!(chamfer_distances_f32(&full, Neighbourhood::taxicab()).unwrap(), vec![f32::MAX; 2]);
/// ```
///
/// # Errors
///
/// A [`SizeError`] if the memory cannot be had.
pub fn chamfer_distances_f32(
    grid: &BitGrid,
    neighbourhood: Neighbourhood,
) -> Result<Vec<f32>, SizeError> {
    if let Some(distances) = by_layers::<f32>(grid, neighbourhood)? {
        return Ok(distances);
    }
    let (pad, _) = padded_passes(grid, neighbourhood, false)?;
    unpad(
        grid,
        &pad,
        |d| if d >= UNREACHED { f32::MAX } else { d as f32 },
    )
}

/// City-block and chessboard distances without nearest cells, on a grid with a background
/// cell: for shallow shapes by erosion layers counted into the output
/// ([`counted_layers`](super::counted_layers): every distance below
/// [`SHALLOW_LAYERS`], each layer keeping under [`THINNING`]` / 64` of the one before); else
/// by the raster passes vectorised in `i16` lanes ([`vector_passes`](super::vector_passes))
/// where a vector kernel runs and the sides sum below [`LANE_LIMIT`]; else by erosion layers
/// ([`layers`]) for shapes shallow enough for the layers' budget (or
/// [`surely_deep`]: the layers skipped) and past it the two vertical sweeps over whole rows
/// ([`sweeps`](super::sweeps)). `None` sends the caller to the passes, which give the same
/// distances.
fn by_layers<T: Widened>(
    grid: &BitGrid,
    neighbourhood: Neighbourhood,
) -> Result<Option<Vec<T>>, SizeError> {
    let diagonal = if neighbourhood == Neighbourhood::chessboard() {
        true
    } else if neighbourhood == Neighbourhood::taxicab() {
        false
    } else {
        return Ok(None);
    };
    let (w, h) = grid.size();
    // No background cell: nothing is reached, the passes say so. Sides summing to 2^24 or
    // more: distances past the sweeps' exact range in `f32`, the passes too.
    let set = grid.count();
    if set as usize == w * h || w + h >= MAX_SUM {
        return Ok(None);
    }
    // Shallow shapes (noise): the erosion layers counted straight into the output, while
    // they end within a dozen layers and keep thinning (docs/benchmarks.md, "cdtc").
    if let Some(layers) = shallow_layers(grid, diagonal, set, SHALLOW_LAYERS, THINNING)? {
        return Ok(Some(write_counts::<T>(grid, &layers, Writer::best())?));
    }
    // The vector passes where the lanes hold every distance and a vector kernel runs:
    // 2-5x the layers and the sweeps on every bench image (docs/benchmarks.md, "cdt3").
    let kernel = Kernel::best();
    if w + h < LANE_LIMIT && kernel != Kernel::Portable {
        return Ok(Some(vector_distances::<T>(grid, diagonal, kernel)?));
    }
    if surely_deep(grid) {
        let mut out: Vec<T> = try_vec("chamfer distances", w, h, (w * h) as u128)?;
        sweep_distances(grid, diagonal, &mut out);
        return Ok(Some(out));
    }
    let mut out: Vec<T> = try_filled("chamfer distances", w, h, (w * h) as u128, T::of(0))?;
    if !layer_distances(grid, diagonal, &mut out, T::of) {
        // Deep shapes: the sweeps, whose work does not grow with the distances.
        sweep_distances(grid, diagonal, &mut out);
    }
    Ok(Some(out))
}

/// Bench and test knob: which engine [`chamfer_distances_f32_by`] runs.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChamferEngine {
    /// The automatic choice of [`chamfer_distances_f32`].
    Auto,
    /// Erosion layers counted straight into the output (`counted_layers.rs`), no depth limit.
    CountedLayers,
    /// Erosion layers in bit-sliced counters (`layers.rs`), no budget.
    Layers,
    /// The raster passes in `i16` lanes (`vector_passes/`), the best kernel.
    VectorPasses,
    /// The two vertical sweeps (`sweeps.rs`).
    Sweeps,
}

/// Bench and test knob: [`chamfer_distances_f32`] by `engine`, for city block and
/// chessboard on a grid with a background cell and sides summing below `i16::MAX`
/// (`None` otherwise, or when the engine's limits refuse the grid). Same results whatever
/// the engine.
#[doc(hidden)]
pub fn chamfer_distances_f32_by(
    grid: &BitGrid,
    neighbourhood: Neighbourhood,
    engine: ChamferEngine,
) -> Result<Option<Vec<f32>>, SizeError> {
    let diagonal = neighbourhood == Neighbourhood::chessboard();
    let (w, h) = grid.size();
    let set = grid.count();
    if !(diagonal || neighbourhood == Neighbourhood::taxicab())
        || set as usize == w * h
        || w + h >= LANE_LIMIT
    {
        return Ok(None);
    }
    Ok(match engine {
        ChamferEngine::Auto => Some(chamfer_distances_f32(grid, neighbourhood)?),
        ChamferEngine::CountedLayers => match shallow_layers(grid, diagonal, set, 63, 64)? {
            Some(layers) => Some(write_counts::<f32>(grid, &layers, Writer::best())?),
            None => None,
        },
        ChamferEngine::Layers => {
            let mut out = try_filled("chamfer distances", w, h, (w * h) as u128, 0f32)?;
            layers::layers_within(grid, diagonal, &mut out, f32::of, usize::MAX);
            Some(out)
        }
        ChamferEngine::VectorPasses => {
            Some(vector_distances::<f32>(grid, diagonal, Kernel::best())?)
        }
        ChamferEngine::Sweeps => {
            let mut out: Vec<f32> = try_vec("chamfer distances", w, h, (w * h) as u128)?;
            sweep_distances(grid, diagonal, &mut out);
            Some(out)
        }
    })
}

/// The cells of the padded distances `pad`, row-major, each through `f`.
fn unpad<T>(grid: &BitGrid, pad: &[u32], f: impl Fn(u32) -> T) -> Result<Vec<T>, SizeError> {
    let (w, h) = grid.size();
    let pw = w + 2;
    let mut out: Vec<T> = try_vec("chamfer distances", w, h, (w * h) as u128)?;
    for y in 0..h {
        out.extend(
            pad[(y + 1) * pw + 1..(y + 1) * pw + 1 + w]
                .iter()
                .map(|&d| f(d)),
        );
    }
    Ok(out)
}

/// Both passes: the padded distances (`w + 2` columns, `h + 2` rows, [`UNREACHED`] where
/// no background cell is reached) and, with `nearest`, the nearest cells.
#[allow(clippy::type_complexity)]
fn padded_passes(
    grid: &BitGrid,
    neighbourhood: Neighbourhood,
    nearest: bool,
) -> Result<(Vec<u32>, Option<Vec<u32>>), SizeError> {
    let (w, h) = grid.size();
    let pw = w + 2;
    let mut pad: Vec<u32> = try_filled(
        "chamfer distances",
        w,
        h,
        (pw as u128) * (h as u128 + 2),
        UNREACHED,
    )?;
    for y in 0..h {
        let row = grid.row_words(y);
        let out = &mut pad[(y + 1) * pw + 1..(y + 1) * pw + 1 + w];
        for (o, &word) in out.chunks_mut(64).zip(row) {
            for (i, o) in o.iter_mut().enumerate() {
                *o = ((word >> i) & 1) as u32 * UNREACHED;
            }
        }
    }
    let mut feat = if nearest {
        let mut f: Vec<u32> = try_vec("chamfer nearest cells", w, h, (w * h) as u128)?;
        f.extend(0..(w * h) as u32);
        Some(f)
    } else {
        None
    };
    let s = neighbourhood.steps;
    macro_rules! dispatch {
        ($($a:literal $b:literal $c:literal $d:literal),*) => {
            match (s[0], s[1], s[2], s[3]) {
                $(($a, $b, $c, $d) => {
                    passes::<$a, $b, $c, $d>(&mut pad, feat.as_deref_mut(), w, h)
                })*
            }
        };
    }
    dispatch!(
        false false false false, false false false true, false false true false,
        false false true true, false true false false, false true false true,
        false true true false, false true true true, true false false false,
        true false false true, true false true false, true false true true,
        true true false false, true true false true, true true true false,
        true true true true
    );
    Ok((pad, feat))
}

/// Both passes over the padded distances `pad` (`w + 2` columns, `h + 2` rows) and, if
/// given, the nearest cells `feat` (`w x h`, unpadded).
///
/// Without nearest cells the order within a row does not matter for the minimum, so each
/// row takes the previous row's three cells in one branch-free, vectorisable loop and then
/// runs one scan along the row for the left (right) neighbour. With nearest cells the first
/// strictly smaller candidate wins, so the cells go one by one in scipy's order.
fn passes<const UL: bool, const U: bool, const UR: bool, const L: bool>(
    pad: &mut [u32],
    feat: Option<&mut [u32]>,
    w: usize,
    h: usize,
) {
    let pw = w + 2;
    // Neighbour offsets in the padded buffer (forward pass; the backward pass negates them)
    // and in the unpadded one, in scipy's order.
    let offs: [(bool, usize, usize); 4] = [
        (UL, pw + 1, w + 1),
        (U, pw, w),
        (UR, pw - 1, w - 1),
        (L, 1, 1),
    ];
    match feat {
        None => {
            for y in 0..h {
                let (done, rest) = pad.split_at_mut((y + 1) * pw);
                row_step::<UL, U, UR, L>(&done[y * pw..], &mut rest[..pw], false);
            }
            for y in (0..h).rev() {
                let (rest, done) = pad.split_at_mut((y + 2) * pw);
                row_step::<UR, U, UL, L>(&done[..pw], &mut rest[(y + 1) * pw..], true);
            }
        }
        Some(f) => {
            // With the nearest cells, the first strictly smaller candidate wins, as in scipy.
            for y in 0..h {
                let base = (y + 1) * pw + 1;
                for x in 0..w {
                    let i = base + x;
                    let v = pad[i];
                    if v != 0 {
                        let (mut m, mut from) = (v, usize::MAX);
                        for &(on, po, fo) in &offs {
                            if on && pad[i - po] + 1 < m {
                                m = pad[i - po] + 1;
                                from = y * w + x - fo;
                            }
                        }
                        pad[i] = m;
                        if from != usize::MAX {
                            f[y * w + x] = f[from];
                        }
                    }
                }
            }
            for y in (0..h).rev() {
                let base = (y + 1) * pw + 1;
                for x in (0..w).rev() {
                    let i = base + x;
                    let v = pad[i];
                    if v != 0 {
                        let (mut m, mut from) = (v, usize::MAX);
                        for &(on, po, fo) in &offs {
                            if on && pad[i + po] + 1 < m {
                                m = pad[i + po] + 1;
                                from = y * w + x + fo;
                            }
                        }
                        pad[i] = m;
                        if from != usize::MAX {
                            f[y * w + x] = f[from];
                        }
                    }
                }
            }
        }
    }
}

/// One row of a pass without nearest cells: `cur` (a padded row) takes the minimum of
/// itself and `prev`'s (the row before in the pass) cells up-left, up and up-right plus one,
/// then the scan along the row (left to right, or right to left with `backward`, where
/// the mirrored neighbourhood swaps up-left and up-right, as the caller's flags do).
#[inline(always)]
fn row_step<const UL: bool, const U: bool, const UR: bool, const L: bool>(
    prev: &[u32],
    cur: &mut [u32],
    backward: bool,
) {
    let n = cur.len();
    if UL || U || UR {
        for x in 1..n - 1 {
            let mut m = UNREACHED;
            if UL {
                m = m.min(prev[x - 1]);
            }
            if U {
                m = m.min(prev[x]);
            }
            if UR {
                m = m.min(prev[x + 1]);
            }
            cur[x] = cur[x].min(m + 1);
        }
    }
    if L {
        if backward {
            let mut run = cur[n - 1];
            for c in cur[1..n - 1].iter_mut().rev() {
                run = (*c).min(run + 1);
                *c = run;
            }
        } else {
            let mut run = cur[0];
            for c in cur[1..n - 1].iter_mut() {
                run = (*c).min(run + 1);
                *c = run;
            }
        }
    }
}
