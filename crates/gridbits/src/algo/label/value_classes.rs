//! The per-class route of the multi-class labeller ([`ValueRoute::Classes`]): an image of
//! few classes (at most [`MAX_PLANES`] values besides the background) is packed into one bit
//! plane per class in one pass (vector compares of 64 cells with each class value, a new
//! class taken from the first cell no plane holds), each plane goes through the
//! bit-parallel binary [`Labeller`]'s first pass (runs of row pairs, union-find,
//! flattening: no label image), and one writer produces the global numbering of
//! `skimage.measure.label`.
//!
//! Each plane's labels are numbered in raster order of their first cell within the class,
//! so the global label of a component is its rank by first cell among the first cells of
//! every class: the classes' first cells (in order within each class) are merged into one
//! map per class. The writer then writes each output row once: zeros, then every class's
//! runs of the row (disjoint) with their mapped labels.
//!
//! [`ValueRoute::Classes`]: super::ValueRoute::Classes

use super::{memory_error, size_error, Labeller};
use crate::algo::runs::masks::{low, value_mask};
use crate::{BitGrid, Connectivity, SizeError};
use std::mem::MaybeUninit;

/// The most classes (values besides the background) the per-class route takes.
pub(super) const MAX_PLANES: usize = 4;

/// The runs of one class plane, row by row, with their labels in the plane and the first
/// cell (`y * width + x`) of each label.
#[derive(Clone, Debug, Default)]
struct ClassRuns {
    start: Vec<u32>,
    end: Vec<u32>,
    label: Vec<u32>,
    /// Index of each row's first run (one more entry: the total).
    row: Vec<u32>,
    /// The first cell of labels `1..=n`, in order.
    first: Vec<u64>,
    /// Global label of each plane label (entry 0 unused).
    map: Vec<u32>,
}

/// Planes and runs of the per-class route, kept for the next image.
#[derive(Clone, Debug, Default)]
pub(super) struct ClassPlanes {
    planes: Vec<BitGrid>,
    runs: Vec<ClassRuns>,
    /// Classes of the image packed last.
    classes: usize,
}

impl ClassPlanes {
    /// Packs `values` (`width x height`) into one plane per class (cells not `background`;
    /// with `None`, every cell); returns `false`, planes unusable, when the image holds more
    /// than [`MAX_PLANES`] classes (it stops at the first block that shows one more).
    #[inline(always)]
    pub(super) fn pack<T: Copy + PartialEq + 'static>(
        &mut self,
        values: &[T],
        width: usize,
        height: usize,
        background: Option<T>,
    ) -> Result<bool, SizeError> {
        let bpr = width.div_ceil(64);
        let mut class_values: [Option<T>; MAX_PLANES] = [None; MAX_PLANES];
        let mut k = 0usize;
        for y in 0..height {
            let row = &values[y * width..(y + 1) * width];
            for j in 0..bpr {
                let x0 = j * 64;
                let n = (width - x0).min(64);
                let cells = &row[x0..x0 + n];
                let mut rest = match background {
                    Some(b) => !value_mask(cells, b) & low(n),
                    None => low(n),
                };
                for (c, v) in class_values[..k].iter().enumerate() {
                    let m = match v {
                        Some(v) if rest != 0 => value_mask(cells, *v) & rest,
                        _ => 0,
                    };
                    self.planes[c].row_words_mut(y)[j] = m;
                    rest &= !m;
                }
                while rest != 0 {
                    if k == MAX_PLANES {
                        return Ok(false);
                    }
                    let v = cells[rest.trailing_zeros() as usize];
                    class_values[k] = Some(v);
                    self.plane(k, width, height)?;
                    let m = value_mask(cells, v) & rest;
                    self.planes[k].row_words_mut(y)[j] = m;
                    rest &= !m;
                    k += 1;
                }
            }
        }
        self.classes = k;
        Ok(true)
    }

    /// Plane `c`, all clear, of `width x height`.
    fn plane(&mut self, c: usize, width: usize, height: usize) -> Result<(), SizeError> {
        if c < self.planes.len() && self.planes[c].size() == (width, height) {
            let p = &mut self.planes[c];
            for y in 0..height {
                p.row_words_mut(y).fill(0);
            }
        } else {
            let g = BitGrid::try_new(width, height)?;
            if c < self.planes.len() {
                self.planes[c] = g;
            } else {
                self.planes.push(g);
            }
        }
        Ok(())
    }

    /// Labels the planes packed by [`pack`](Self::pack) with `binary`'s first pass and
    /// writes the global labels into `out`; returns their count.
    #[inline(always)]
    pub(super) fn label<O: Copy + From<u32> + 'static>(
        &mut self,
        binary: &mut Labeller,
        width: usize,
        height: usize,
        conn: Connectivity,
        out: &mut [MaybeUninit<O>],
    ) -> Result<u32, SizeError> {
        let k = self.classes;
        if self.runs.len() < k {
            self.runs.resize_with(k, ClassRuns::default);
        }
        let why = "not enough memory for the class runs";
        for (plane, runs) in self.planes[..k].iter().zip(&mut self.runs) {
            let count = binary.scan(plane, conn)?;
            let ClassRuns {
                start,
                end,
                label,
                row,
                first,
                ..
            } = runs;
            start.clear();
            end.clear();
            label.clear();
            row.clear();
            first.clear();
            first
                .try_reserve_exact(count as usize)
                .map_err(|_| memory_error::<u64>(width, height, count as usize, why))?;
            let mut seen = 0u32;
            let mut failed = false;
            binary.for_each_row(plane, conn, 0, |y, s, e, l| {
                row.push(start.len() as u32);
                if start.try_reserve(s.len()).is_err()
                    || end.try_reserve(s.len()).is_err()
                    || label.try_reserve(s.len()).is_err()
                {
                    failed = true;
                    return;
                }
                start.extend_from_slice(s);
                end.extend_from_slice(e);
                label.extend_from_slice(l);
                for (&x, &l) in s.iter().zip(l) {
                    if l > seen {
                        seen = l;
                        first.push((y * width) as u64 + u64::from(x));
                    }
                }
            });
            if failed {
                return Err(memory_error::<u32>(width, height, 3 * width, why));
            }
            row.push(start.len() as u32);
            debug_assert_eq!(seen, count);
        }
        // The global numbering: ranks of the first cells among all classes'.
        let runs = &mut self.runs[..k];
        let mut heads = [0usize; MAX_PLANES];
        let mut total = 0u32;
        for r in runs.iter_mut() {
            r.map.clear();
            r.map
                .try_reserve_exact(r.first.len() + 1)
                .map_err(|_| memory_error::<u32>(width, height, r.first.len(), why))?;
            r.map.push(0);
            total = total
                .checked_add(r.first.len() as u32)
                .ok_or_else(|| size_error(width, height, "too many components"))?;
        }
        for g in 1..=total {
            let mut best = usize::MAX;
            let mut at = u64::MAX;
            for (c, r) in runs.iter().enumerate() {
                if let Some(&f) = r.first.get(heads[c]) {
                    if f < at {
                        (best, at) = (c, f);
                    }
                }
            }
            runs[best].map.push(g);
            heads[best] += 1;
        }
        // The writer: each row zeroed, then every class's runs.
        let zero = O::from(0);
        for y in 0..height {
            let cells = &mut out[y * width..(y + 1) * width];
            for c in cells.iter_mut() {
                c.write(zero);
            }
            for r in runs.iter() {
                let (a, b) = (r.row[y] as usize, r.row[y + 1] as usize);
                for i in a..b {
                    let v = O::from(r.map[r.label[i] as usize]);
                    for c in &mut cells[r.start[i] as usize..r.end[i] as usize] {
                        c.write(v);
                    }
                }
            }
        }
        Ok(total)
    }
}
