//! OpenCV's 5 x 5 chamfer transform with labels (`cv2.distanceTransformWithLabels`), pass for
//! pass: fixed-point weights (1/65536) for the edge, diagonal and knight steps, two raster
//! passes over a copy padded with two cells of "far" on every side, and per cell the label
//! of the background cell its distance comes from (the first strictly smaller candidate in
//! OpenCV's order wins).

use crate::error::try_filled;
use crate::{BitGrid, SizeError};

/// Steps of the forward pass as `(dy, dx, weight index)` in OpenCV's order (the backward
/// pass takes them mirrored through the centre).
const STEPS: [(isize, isize, usize); 8] = [
    (-2, -1, 2),
    (-2, 1, 2),
    (-1, -2, 2),
    (-1, -1, 1),
    (-1, 0, 0),
    (-1, 1, 1),
    (-1, 2, 2),
    (0, -1, 0),
];

/// The fixed-point weights (in 1/65536) of OpenCV's 5 x 5 masks: `[edge, diagonal, knight]`
/// steps for `DIST_C`, `DIST_L1` and `DIST_L2` (`cvRound(w * 65536)` of OpenCV's
/// `(1, 1, 2)`, `(1, 2, 3)` and `(1, 1.4, 2.1969)`).
///
/// ```
/// use gridbits::algo::distance_transform::opencv_mask5_weights;
/// assert_eq!(opencv_mask5_weights("l1"), Some([65536, 131072, 196608]));
/// assert_eq!(opencv_mask5_weights("l2"), Some([65536, 91750, 143976]));
/// ```
pub fn opencv_mask5_weights(kind: &str) -> Option<[u32; 3]> {
    let w: [f32; 3] = match kind {
        "c" => [1.0, 1.0, 2.0],
        "l1" => [1.0, 2.0, 3.0],
        "l2" => [1.0, 1.4, 2.1969],
        _ => return None,
    };
    // cvRound of a float times 65536, in float as OpenCV computes it.
    Some(w.map(|v| (v * 65536.0).round_ties_even() as u32))
}

/// OpenCV's `distanceTransformWithLabels` on `grid` (set cells: the image's nonzero pixels)
/// with the 5 x 5 mask of `weights` (see [`opencv_mask5_weights`]): returns the `f32`
/// distances, row-major, and writes into `labels` (row-major, one per cell, the background
/// cells' labels already in it; the others' values are ignored) the label of each cell's
/// nearest background cell. Cells no background cell reaches get OpenCV's "far" value
/// (`(u32::MAX - knight) / 65536` as `f32`: 65533 for the `DIST_L1` weights) and label 0.
///
/// ```
/// use gridbits::algo::distance_transform::{opencv_chamfer5_with_labels, opencv_mask5_weights};
/// use gridbits::BitGrid;
/// let g = BitGrid::parse(".##\n###\n##.\n").unwrap();
/// let mut labels = vec![1, 0, 0, 0, 0, 0, 0, 0, 2];
/// let d = opencv_chamfer5_with_labels(&g, opencv_mask5_weights("l1").unwrap(), &mut labels).unwrap();
/// assert_eq!(d, vec![0.0, 1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 0.0]);
/// assert_eq!(labels, vec![1, 1, 1, 1, 1, 2, 1, 2, 2]);
/// ```
///
/// # Errors
///
/// A [`SizeError`] if the memory cannot be had.
///
/// # Panics
///
/// If `labels` does not hold one value per cell.
pub fn opencv_chamfer5_with_labels(
    grid: &BitGrid,
    weights: [u32; 3],
    labels: &mut [i32],
) -> Result<Vec<f32>, SizeError> {
    let (w, h) = grid.size();
    assert_eq!(labels.len(), w * h, "labels: one per cell");
    let far = u32::MAX - weights[2];
    let pw = w + 4;
    let mut t: Vec<u32> = try_filled("chamfer distances", w, h, (pw * (h + 4)) as u128, far)?;
    let mut lab: Vec<i32> = try_filled("chamfer labels", w, h, (pw * (h + 4)) as u128, 0)?;
    let at = |y: usize, x: usize| (y + 2) * pw + x + 2;
    for y in 0..h {
        for x in 0..w {
            lab[at(y, x)] = labels[y * w + x];
        }
    }
    // Forward pass.
    for y in 0..h {
        for x in 0..w {
            let i = at(y, x);
            if !grid.get(x, y) {
                t[i] = 0;
                continue;
            }
            let (t0, l0) = relax(&t, &lab, i, pw as isize, &weights, (far, 0));
            t[i] = t0;
            lab[i] = l0;
        }
    }
    // Backward pass, writing the distances.
    let mut out: Vec<f32> = try_filled("distances", w, h, (w * h) as u128, 0.0)?;
    let scale = 1.0f32 / 65536.0;
    for y in (0..h).rev() {
        for x in (0..w).rev() {
            let i = at(y, x);
            let (mut t0, mut l0) = (t[i], lab[i]);
            if t0 > weights[0] {
                (t0, l0) = relax(&t, &lab, i, -(pw as isize), &weights, (t0, l0));
                t[i] = t0;
                lab[i] = l0;
            }
            out[y * w + x] = t0 as f32 * scale;
        }
    }
    for y in 0..h {
        for x in 0..w {
            labels[y * w + x] = lab[at(y, x)];
        }
    }
    Ok(out)
}

/// `(t0, l0)` lowered to each step's neighbour of padded cell `i` plus the step's weight,
/// with that neighbour's label (the first strictly smaller wins, in [`STEPS`] order). `row`
/// is the padded row length, negated for the backward pass (which mirrors the steps).
#[inline(always)]
fn relax(
    t: &[u32],
    lab: &[i32],
    i: usize,
    row: isize,
    weights: &[u32; 3],
    (mut t0, mut l0): (u32, i32),
) -> (u32, i32) {
    let sign = row.signum();
    for &(dy, dx, k) in &STEPS {
        let j = i.wrapping_add_signed(dy * row + sign * dx);
        let c = t[j].wrapping_add(weights[k]);
        if t0 > c {
            t0 = c;
            l0 = lab[j];
        }
    }
    (t0, l0)
}
