//! Erosion, dilation, opening and closing by a [`Footprint`], with scipy's options: a border
//! value, repetitions (or until nothing changes) and a mask of the cells that may change.

use super::footprint::Footprint;
use super::row_runs::{gather, separable};
use crate::{BitGrid, GridError, SizeError, SizeMismatch};

/// How many times an operation is applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Iterations {
    /// Exactly this many times (0: the input unchanged).
    Times(usize),
    /// Until the result stops changing (scipy's `iterations < 1`). With the footprint's
    /// centre set, erosion only clears cells and dilation only sets them, so this ends;
    /// without it the result can cycle (scipy then loops forever): gridbits stops at the
    /// first repeat of the result two steps back, or after `width * height + 1` steps.
    UntilStable,
}

/// The options of [`erosion_with`] and its siblings: scipy.ndimage's `border_value`,
/// `iterations` and `mask`.
///
/// ```
/// use gridbits::algo::morph::{erosion_with, Footprint, Iterations, MorphOptions};
/// use gridbits::BitGrid;
/// let g = BitGrid::full(5, 5);
/// let opts = MorphOptions { border: true, ..MorphOptions::default() };
/// assert!(erosion_with(&g, &Footprint::square(3), &opts).is_full());
/// let twice = MorphOptions { iterations: Iterations::Times(2), ..MorphOptions::default() };
/// assert_eq!(erosion_with(&g, &Footprint::square(3), &twice).count(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MorphOptions<'a> {
    /// The value cells off the grid read as (default `false`: erosion eats in from the
    /// edges, dilation sees nothing outside).
    pub border: bool,
    /// How many times the operation is applied (default once).
    pub iterations: Iterations,
    /// Only the cells set in the mask change; the others keep the input's value at every
    /// repetition (default: every cell may change).
    pub mask: Option<&'a BitGrid>,
}

impl Default for MorphOptions<'_> {
    fn default() -> Self {
        MorphOptions {
            border: false,
            iterations: Iterations::Times(1),
            mask: None,
        }
    }
}

/// One erosion (`ALL`) or dilation step through the gather offsets of `fp`, choosing the
/// separable rectangle engine for full patterns.
fn step<const ALL: bool>(
    grid: &BitGrid,
    fp: &Footprint,
    outside: bool,
) -> Result<BitGrid, SizeError> {
    if fp.is_full() && fp.height() > 1 {
        let (cx, cy) = fp.center();
        return separable::<ALL>(grid, (-cx, fp.width()), (-cy, fp.height()), outside);
    }
    gather::<ALL>(grid, &fp.run_rows(), outside)
}

/// One step of erosion (`ALL`) or dilation, whose gather offsets are the reflection; an
/// error when the engine's tables cannot be allocated.
///
/// The footprint is first cut to the offsets that can reach the grid from a cell of it
/// ([`Footprint::within`]): any other offset reads the border value `outside` at every
/// cell. Under the operation's identity (`true` for AND, `false` for OR) such offsets
/// change nothing and are dropped; otherwise (erosion with an empty border, dilation with
/// a full one) one of them decides every cell, and the result is empty or full. Either
/// way the result is exactly that of the whole footprint, and the engines' tables are
/// bounded by the grid's size instead of the footprint's. The cut comes before the
/// reflection of a dilation, which then copies only what is kept.
pub(crate) fn once(
    grid: &BitGrid,
    fp: &Footprint,
    erode: bool,
    outside: bool,
) -> Result<BitGrid, SizeError> {
    let (cut, dropped) = fp.within(grid.width(), grid.height())?;
    // An offset cut off reads `outside` at every cell: it decides every cell unless
    // `outside` is the identity of the operation (erosion's AND: true; dilation's OR: false).
    if dropped && erode != outside {
        let mut out = grid.empty_like();
        if !erode {
            out.complement_assign();
        }
        return Ok(out);
    }
    let fp = cut.as_ref().unwrap_or(fp);
    if erode {
        step::<true>(grid, fp, outside)
    } else {
        step::<false>(grid, &fp.reflected(), outside)
    }
}

/// [`once`] for the infallible forms: the [`SizeError`] as a panic.
#[track_caller]
pub(crate) fn once_or_panic(grid: &BitGrid, fp: &Footprint, erode: bool, outside: bool) -> BitGrid {
    once(grid, fp, erode, outside).unwrap_or_else(|e| panic!("{e}"))
}

/// Repeats `once` as the options say.
///
/// Each repetition applies one fixed function to the current grid (the step, then the mask
/// with the input's kept cells), so once a step changes nothing, no later one does: the
/// loop stops there, also for [`Iterations::Times`], with exactly the result of all `n`
/// steps. Likewise a step that gives back the grid of two steps before starts a cycle of
/// two, and the result after `n` steps is the one of the same parity.
fn repeat(
    grid: &BitGrid,
    fp: &Footprint,
    erode: bool,
    opts: &MorphOptions<'_>,
) -> Result<BitGrid, GridError> {
    if let Some(m) = opts.mask {
        SizeMismatch::check(grid, "grid", m, "mask")?;
    }
    // Cells the mask keeps: the input's.
    let kept = opts.mask.map(|m| grid.and_not(m));
    let mut cur = grid.clone();
    let mut before: Option<BitGrid> = None;
    let mut done = 0usize;
    let cap = grid.width() as u128 * grid.height() as u128 + 1;
    loop {
        if let Iterations::Times(n) = opts.iterations {
            if done >= n {
                return Ok(cur);
            }
        }
        let mut next = once(&cur, fp, erode, opts.border)?;
        if let (Some(m), Some(k)) = (opts.mask, &kept) {
            next.and_assign(m);
            next.or_assign(k);
        }
        done += 1;
        let fixed = next == cur;
        let cycle = before.as_ref() == Some(&next);
        if let Iterations::Times(n) = opts.iterations {
            // `next` is step `done`, `cur` step `done - 1`: from here on the steps repeat
            // `next` (fixed) or alternate `next`, `cur` (a cycle of two).
            if fixed || (cycle && (n - done).is_multiple_of(2)) {
                return Ok(next);
            }
            if cycle {
                return Ok(cur);
            }
        }
        let stable = fixed || cycle || done as u128 >= cap;
        before = Some(std::mem::replace(&mut cur, next));
        if stable && opts.iterations == Iterations::UntilStable {
            return Ok(cur);
        }
    }
}

/// Erosion: the cells `p` such that `grid(p + d)` is set for every offset `d` of `fp` (cells
/// off the grid empty). scipy's `binary_erosion` with its defaults.
///
/// ```
/// use gridbits::algo::morph::{erosion, Footprint};
/// use gridbits::BitGrid;
/// let g = BitGrid::parse("#####\n#####\n#####\n").unwrap();
/// assert_eq!(erosion(&g, &Footprint::cross()).to_text(), ".....\n.###.\n.....\n");
/// ```
///
/// # Panics
///
/// If the engine's tables cannot be allocated; [`try_erosion_with`] returns the error.
#[track_caller]
pub fn erosion(grid: &BitGrid, fp: &Footprint) -> BitGrid {
    once_or_panic(grid, fp, true, false)
}

/// Dilation: the cells `p` such that `grid(p - d)` is set for some offset `d` of `fp`: each
/// set cell stamps the footprint at its place. scipy's `binary_dilation` with its defaults.
///
/// ```
/// use gridbits::algo::morph::{dilation, Footprint};
/// use gridbits::BitGrid;
/// let g = BitGrid::parse(".....\n..#..\n.....\n").unwrap();
/// let pair = Footprint::try_from_fn(2, 1, |_, _| true).unwrap(); // offsets -1 and 0
/// assert_eq!(dilation(&g, &pair).to_text(), ".....\n.##..\n.....\n");
/// ```
///
/// # Panics
///
/// If the engine's tables cannot be allocated; [`try_dilation_with`] returns the error.
#[track_caller]
pub fn dilation(grid: &BitGrid, fp: &Footprint) -> BitGrid {
    once_or_panic(grid, fp, false, false)
}

/// [`erosion`] with options.
///
/// # Panics
///
/// If the mask's size differs from the grid's, or the engine's tables cannot be allocated;
/// [`try_erosion_with`] returns the error.
#[track_caller]
pub fn erosion_with(grid: &BitGrid, fp: &Footprint, opts: &MorphOptions<'_>) -> BitGrid {
    try_erosion_with(grid, fp, opts).unwrap_or_else(|e| panic!("{e}"))
}

/// [`erosion_with`], or an error if the mask's size differs from the grid's or the engine's
/// tables cannot be allocated.
pub fn try_erosion_with(
    grid: &BitGrid,
    fp: &Footprint,
    opts: &MorphOptions<'_>,
) -> Result<BitGrid, GridError> {
    repeat(grid, fp, true, opts)
}

/// [`dilation`] with options.
///
/// # Panics
///
/// If the mask's size differs from the grid's, or the engine's tables cannot be allocated;
/// [`try_dilation_with`] returns the error.
#[track_caller]
pub fn dilation_with(grid: &BitGrid, fp: &Footprint, opts: &MorphOptions<'_>) -> BitGrid {
    try_dilation_with(grid, fp, opts).unwrap_or_else(|e| panic!("{e}"))
}

/// [`dilation_with`], or an error if the mask's size differs from the grid's or the engine's
/// tables cannot be allocated.
pub fn try_dilation_with(
    grid: &BitGrid,
    fp: &Footprint,
    opts: &MorphOptions<'_>,
) -> Result<BitGrid, GridError> {
    repeat(grid, fp, false, opts)
}

/// Opening: [`erosion`] then [`dilation`] by the same footprint; removes what the footprint
/// does not fit in.
///
/// ```
/// use gridbits::algo::morph::{opening, Footprint};
/// use gridbits::BitGrid;
/// let g = BitGrid::parse("#....\n.###.\n.###.\n.###.\n").unwrap();
/// assert_eq!(opening(&g, &Footprint::square(3)).to_text(), ".....\n.###.\n.###.\n.###.\n");
/// ```
pub fn opening(grid: &BitGrid, fp: &Footprint) -> BitGrid {
    dilation(&erosion(grid, fp), fp)
}

/// Closing: [`dilation`] then [`erosion`] by the same footprint; fills gaps the footprint
/// does not fit in (with the default border, closing may clear cells near the edge, as in
/// scipy).
pub fn closing(grid: &BitGrid, fp: &Footprint) -> BitGrid {
    erosion(&dilation(grid, fp), fp)
}

/// [`opening`] with options, applied to both steps (scipy's `binary_opening`: `iterations`
/// erosions then as many dilations).
///
/// # Panics
///
/// If the mask's size differs from the grid's, or the engine's tables cannot be allocated;
/// [`try_opening_with`] returns the error.
#[track_caller]
pub fn opening_with(grid: &BitGrid, fp: &Footprint, opts: &MorphOptions<'_>) -> BitGrid {
    try_opening_with(grid, fp, opts).unwrap_or_else(|e| panic!("{e}"))
}

/// [`opening_with`], or an error if the mask's size differs from the grid's or the engine's
/// tables cannot be allocated.
pub fn try_opening_with(
    grid: &BitGrid,
    fp: &Footprint,
    opts: &MorphOptions<'_>,
) -> Result<BitGrid, GridError> {
    let e = try_erosion_with(grid, fp, opts)?;
    try_dilation_with(&e, fp, opts)
}

/// [`closing`] with options, applied to both steps.
///
/// # Panics
///
/// If the mask's size differs from the grid's, or the engine's tables cannot be allocated;
/// [`try_closing_with`] returns the error.
#[track_caller]
pub fn closing_with(grid: &BitGrid, fp: &Footprint, opts: &MorphOptions<'_>) -> BitGrid {
    try_closing_with(grid, fp, opts).unwrap_or_else(|e| panic!("{e}"))
}

/// [`closing_with`], or an error if the mask's size differs from the grid's or the engine's
/// tables cannot be allocated.
pub fn try_closing_with(
    grid: &BitGrid,
    fp: &Footprint,
    opts: &MorphOptions<'_>,
) -> Result<BitGrid, GridError> {
    let d = try_dilation_with(grid, fp, opts)?;
    try_erosion_with(&d, fp, opts)
}
