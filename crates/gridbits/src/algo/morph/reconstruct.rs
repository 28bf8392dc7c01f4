//! Dilation until stable inside a mask (reconstruction by dilation, scipy's
//! `binary_propagation`) and hole filling.

use super::binary::{once, try_dilation_with, Iterations, MorphOptions};
use super::footprint::Footprint;
use crate::algo::fill::fill;
use crate::{BitGrid, Connectivity, GridError, SizeMismatch};

/// The connectivity a 3x3 footprint centred on its middle cell (set) steps by, if it is the
/// cross or the full square: propagation by it is a flood fill.
fn as_connectivity(fp: &Footprint) -> Option<Connectivity> {
    if fp.width() != 3 || fp.height() != 3 || fp.center() != (1, 1) {
        return None;
    }
    if fp.is_full() {
        Some(Connectivity::Eight)
    } else if *fp == Footprint::cross() {
        Some(Connectivity::Four)
    } else {
        None
    }
}

/// Dilation of `seeds` by `fp` repeated until stable, only cells of `mask` changing (the
/// others keep the seeds' value): the reconstruction of the mask's parts that the seeds
/// reach. `border` is the value of cells off the grid (`true`: the edges seed too).
///
/// The cross and the 3x3 square are a flood fill (one pass over the runs); other footprints
/// repeat dilation steps.
///
/// ```
/// use gridbits::algo::morph::{propagation, Footprint};
/// use gridbits::BitGrid;
/// let mask = BitGrid::parse("##..#\n.#..#\n.##.#\n").unwrap();
/// let seed = BitGrid::parse("#....\n.....\n.....\n").unwrap();
/// let r = propagation(&seed, &Footprint::cross(), Some(&mask), false);
/// assert_eq!(r.to_text(), "##...\n.#...\n.##..\n");
/// ```
///
/// # Panics
///
/// If the mask's size differs from the seeds', or the engine's tables cannot be allocated;
/// [`try_propagation`] returns the error.
#[track_caller]
pub fn propagation(
    seeds: &BitGrid,
    fp: &Footprint,
    mask: Option<&BitGrid>,
    border: bool,
) -> BitGrid {
    try_propagation(seeds, fp, mask, border).unwrap_or_else(|e| panic!("{e}"))
}

/// [`propagation`], or an error if the mask's size differs from the seeds' or the engine's
/// tables cannot be allocated.
pub fn try_propagation(
    seeds: &BitGrid,
    fp: &Footprint,
    mask: Option<&BitGrid>,
    border: bool,
) -> Result<BitGrid, GridError> {
    if let Some(m) = mask {
        SizeMismatch::check(seeds, "seeds", m, "mask")?;
    }
    if let (Some(conn), true) = (as_connectivity(fp), fp.get(1, 1)) {
        // One step (it brings in the border and the kept cells' neighbours), then the
        // fill reaches the rest of the mask.
        let first = once(seeds, fp, false, border)?;
        let full;
        let m = match mask {
            Some(m) => m,
            None => {
                full = BitGrid::full(seeds.width(), seeds.height());
                &full
            }
        };
        let mut start = first;
        start.and_assign(m);
        let mut out = fill(&start, m, conn);
        out.or_assign(&seeds.and_not(m));
        return Ok(out);
    }
    let opts = MorphOptions {
        border,
        iterations: Iterations::UntilStable,
        mask,
    };
    try_dilation_with(seeds, fp, &opts)
}

/// The grid with its holes filled: the empty cells the edges cannot reach through empty
/// cells by the footprint's steps are set (scipy's `binary_fill_holes`: the cross by
/// default, the 3x3 square for 8-connected background).
///
/// ```
/// use gridbits::algo::morph::{fill_holes, Footprint};
/// use gridbits::BitGrid;
/// let g = BitGrid::parse("#####\n#.#.#\n#####\n").unwrap();
/// assert!(fill_holes(&g, &Footprint::cross()).is_full());
/// ```
///
/// # Panics
///
/// If the engine's tables cannot be allocated; [`try_fill_holes`] returns the error.
#[track_caller]
pub fn fill_holes(grid: &BitGrid, fp: &Footprint) -> BitGrid {
    try_fill_holes(grid, fp).unwrap_or_else(|e| panic!("{e}"))
}

/// [`fill_holes`], or an error if the engine's tables cannot be allocated.
pub fn try_fill_holes(grid: &BitGrid, fp: &Footprint) -> Result<BitGrid, GridError> {
    let background = !grid;
    let reached = try_propagation(&grid.empty_like(), fp, Some(&background), true)?;
    Ok(!reached)
}
