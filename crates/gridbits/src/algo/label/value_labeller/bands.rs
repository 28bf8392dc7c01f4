//! The [`ValueLabeller`] on several threads: a large image is cut into bands of whole rows,
//! each band labelled as an image of its own by a thread, the bands' components joined
//! across the borders and numbered to the one-thread order, and each band's rows written by
//! a thread. The result is the one-thread result, bit for bit.
//!
//! 1. **Bands** (in parallel). Each band runs pass 1 of the one-thread labeller on its rows
//!    (masks, links, its route chosen for it alone, never the binary labeller): its
//!    components get local labels `1..=n` in its raster order, by run.
//! 2. **Borders** (one thread, `O(width)` a border). Only components that reach a band's
//!    first or last row can meet another band's. A component of band `k` with local label
//!    `l` has the id `offset[k] + l` (the bands' labels one after the other) in the crate's
//!    union-find. The two rows of a border are linked as the one-thread labeller links
//!    them (the same [`link_rows`], on their masks alone), and the ids of every pair of
//!    runs it joins are united. The smallest id of a set, its root, is the piece of the
//!    component in the first band it reaches that holds its first cell (local labels are
//!    in raster order), so numbering the roots in id order is the one-thread numbering.
//! 3. **Numbering.** The ids that are no root ("joined") are few: a root's final label is
//!    its id less the joined ids before it (an offset for each band, then a binary search
//!    in its band's short list), a joined id takes its root's.
//! 4. **Write** (in parallel). Each band maps its runs' local labels to the final ones
//!    and writes its rows with the one-thread writers (disjoint slices of the output).
//!
//! On two cores the time of a labelling falls by what both passes save, less the thread
//! hand-overs and the borders (figures in docs/benchmarks.md, "Value labelling in bands").

use super::super::parallel::piece_rows;
use super::super::relabel::Relabel;
use super::super::{memory_error, size_error};
use super::{link_rows, Rows, ValueLabeller};
use crate::algo::runs::union_find::{flatten, union};
use crate::parallel::share;
use crate::{Connectivity, SizeError};
use std::mem::MaybeUninit;

/// Bands per thread.
const BANDS_PER_THREAD: usize = 1;
/// Fewest rows of a band chosen by default.
const MIN_BAND_ROWS: usize = 16;

/// The working memory of a labelling in bands, kept for the next image.
#[derive(Clone, Debug, Default)]
pub(super) struct Bands {
    /// One labeller per band.
    labellers: Vec<ValueLabeller>,
    /// Per band: its local labels' final labels (entry 0 unused).
    maps: Vec<Vec<u32>>,
    /// Per band: its joined local labels, ascending, with their final labels.
    joined: Vec<Vec<(u32, u32)>>,
    /// The union-find over the bands' components (ids `1..=total`; entry 0 unused).
    ids: Vec<u32>,
    /// The ids a border joined (a root or not).
    touched: Vec<u32>,
    /// The two rows of a border: run starts, set cells, and their runs' union-find.
    starts: Vec<u64>,
    set: Vec<u64>,
    parent: Vec<u32>,
}

impl ValueLabeller {
    /// The rows of a band when a `w x h` image is to be labelled in bands: an image of at
    /// least [`LABEL_MIN_CELLS`](crate::parallel::LABEL_MIN_CELLS) cells on a pool of several threads (or as the test knob
    /// [`with_bands`](Self::with_bands) says); rounded up to even, so that the row pairs
    /// of the pair route keep their one-thread parity.
    pub(super) fn band_rows(&self, size: (usize, usize)) -> Option<usize> {
        piece_rows(self.split, size, (BANDS_PER_THREAD, MIN_BAND_ROWS, 2))
    }

    /// Labels `values` in bands of `rows` rows (see the module): the same labels and count
    /// as the one-thread labelling.
    pub(super) fn banded<
        T: Copy + PartialEq + Send + Sync + 'static,
        O: Copy + From<u32> + Send + 'static,
    >(
        &mut self,
        values: &[T],
        (width, height): (usize, usize),
        background: Option<T>,
        conn: Connectivity,
        rows: usize,
        out: &mut [MaybeUninit<O>],
    ) -> Result<u32, SizeError> {
        let n = height.div_ceil(rows);
        let band_cells = rows * width;
        let route = self.route;
        let b = &mut self.bands;
        b.labellers.resize_with(n, ValueLabeller::new);
        b.maps.resize_with(n, Vec::new);
        b.joined.resize_with(n, Vec::new);
        let mut results: Vec<Result<u32, SizeError>> = vec![Ok(0); n];
        // 1. Pass 1 of every band.
        let jobs = b.labellers.iter_mut().zip(values.chunks(band_cells));
        share(jobs.zip(results.iter_mut()), |((l, v), r)| {
            l.route = route;
            *r = l.scan_band(v, (width, v.len() / width), background, conn);
        });
        let mut offsets = Vec::with_capacity(n + 1);
        let mut total = 0u64;
        for r in results.iter_mut() {
            offsets.push(total as u32);
            total += u64::from(std::mem::replace(r, Ok(0))?);
        }
        if total >= u64::from(u32::MAX) {
            return Err(size_error(width, height, "2^32 components or more"));
        }
        offsets.push(total as u32);
        // 2. The borders.
        b.ids.clear();
        b.ids.try_reserve(total as usize + 1).map_err(|_| {
            memory_error::<u32>(
                width,
                height,
                total as usize + 1,
                "not enough memory for the band borders",
            )
        })?;
        b.ids.extend(0..=total as u32);
        b.touched.clear();
        for k in 0..n - 1 {
            match conn {
                Connectivity::Four => join_border::<T, false>(b, values, width, rows, k, &offsets),
                Connectivity::Eight => join_border::<T, true>(b, values, width, rows, k, &offsets),
            }
        }
        // 3. The joined ids, band by band (the touched ids ascending), with their roots.
        b.touched.sort_unstable();
        b.touched.dedup();
        for j in b.joined.iter_mut() {
            j.clear();
        }
        let band_of = |id: u32| offsets.partition_point(|&o| o < id) - 1;
        for &id in &b.touched {
            let mut root = id;
            while b.ids[root as usize] != root {
                root = b.ids[root as usize];
            }
            if root != id {
                let k = band_of(id);
                b.joined[k].push((id - offsets[k], root));
            }
        }
        let mut before = Vec::with_capacity(n + 1);
        let mut joined_count = 0u32;
        for j in &b.joined {
            before.push(joined_count);
            joined_count += j.len() as u32;
        }
        before.push(joined_count);
        // Each joined id takes its root's final label: the root's id less the joined ids
        // before it (those of the bands above, and its band's smaller local labels; only
        // the local labels are read, so the entries are rewritten in place).
        for k in 0..n {
            for i in 0..b.joined[k].len() {
                let root = b.joined[k][i].1;
                let kr = band_of(root);
                let l = root - offsets[kr];
                let rank = b.joined[kr].partition_point(|&(x, _)| x < l) as u32;
                b.joined[k][i].1 = root - before[kr] - rank;
            }
        }
        // 4. Every band's runs to final labels, and its rows written.
        let out = &mut out[..width * height];
        let jobs = b.labellers.iter_mut().zip(b.maps.iter_mut()).zip(&b.joined);
        let jobs = jobs.zip(out.chunks_mut(band_cells)).zip(results.iter_mut());
        share(jobs.enumerate(), |(k, ((((l, map), joined), out), r))| {
            let base = offsets[k] - before[k];
            let relabel = if joined.is_empty() {
                Relabel::Offset(base)
            } else {
                let count = (offsets[k + 1] - offsets[k]) as usize;
                map.clear();
                if map.try_reserve(count + 1).is_err() {
                    *r = Err(memory_error::<u32>(
                        width,
                        height,
                        count + 1,
                        "not enough memory for the band labels",
                    ));
                    return;
                }
                // The labels between two joined ones move by one offset: `base` less the
                // joined ones before them (fewer than the label itself).
                map.push(0);
                for (at, &(local, fin)) in joined.iter().enumerate() {
                    let from = map.len() as u32;
                    map.extend((from..local).map(|l| l + base - at as u32));
                    map.push(fin);
                }
                let (from, at) = (map.len() as u32, joined.len() as u32);
                map.extend((from..=count as u32).map(|l| l + base - at));
                Relabel::Table(map)
            };
            l.write_band((width, out.len() / width), relabel, out);
        });
        for r in results {
            r?;
        }
        Ok(total as u32 - joined_count)
    }
}

/// Joins the components of band `k` and band `k + 1` that touch across their border (the
/// last row of band `k`, the first of band `k + 1`): the two rows linked as the one-thread
/// labeller links them, and the ids of each pair of runs joined united.
fn join_border<T: Copy + PartialEq + Send + Sync + 'static, const EIGHT: bool>(
    b: &mut Bands,
    values: &[T],
    width: usize,
    rows: usize,
    k: usize,
    offsets: &[u32],
) {
    let bpr = width.div_ceil(64);
    let (up, down) = (&b.labellers[k], &b.labellers[k + 1]);
    let (first, end) = (up.row_base[rows - 1] as usize, up.row_base[rows] as usize);
    let (na, nb) = (end - first, down.row_base[1] as usize);
    b.starts.clear();
    b.starts
        .extend_from_slice(&up.starts[(rows - 1) * bpr..rows * bpr]);
    b.starts.extend_from_slice(&down.starts[..bpr]);
    b.set.clear();
    b.set
        .extend_from_slice(&up.set[(rows - 1) * bpr..rows * bpr]);
    b.set.extend_from_slice(&down.set[..bpr]);
    b.parent.clear();
    b.parent.extend(0..(na + nb) as u32);
    let row_base = [0, na as u32, (na + nb) as u32];
    let y = (k + 1) * rows;
    let pair = Rows {
        values: &values[(y - 1) * width..(y + 1) * width],
        width,
        starts: &b.starts,
        set: &b.set,
        row_base: &row_base,
    };
    link_rows::<T, EIGHT>(&pair, &mut b.parent, 1);
    flatten(&mut b.parent, 0);
    let id = |i: usize| {
        if i < na {
            offsets[k] + up.parent[first + i]
        } else {
            offsets[k + 1] + down.parent[i - na]
        }
    };
    for i in 0..na + nb {
        let r = b.parent[i] as usize;
        if r != i {
            let (x, z) = (id(i), id(r));
            union(&mut b.ids, x, z);
            b.touched.push(x);
            b.touched.push(z);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two Us of one class whose arms meet only in the band below (in band 0, two pairs of
    /// pieces joined through band 1, with a label between them: the join, the joined list
    /// and the labels shifted between and after the joined ones), beside components that
    /// stay in one band, against the one-thread labelling.
    #[test]
    fn pieces_joined_below_take_their_first_piece_s_label() {
        #[rustfmt::skip]
        let img: [u8; 9 * 8] = [
            1, 0, 1, 0, 2, 0, 1, 0, 1,
            1, 0, 1, 0, 0, 0, 1, 0, 1,
            1, 0, 1, 0, 2, 0, 1, 0, 1,
            1, 1, 1, 0, 0, 0, 1, 1, 1,
            0, 0, 0, 0, 2, 2, 0, 0, 3,
            3, 0, 1, 0, 2, 0, 3, 0, 3,
            3, 0, 1, 1, 0, 4, 0, 0, 0,
            0, 0, 0, 0, 4, 4, 0, 1, 1,
        ];
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let mut one = [0u32; 72];
            let n = ValueLabeller::new()
                .label_into(&img, 9, 8, Some(0), conn, &mut one)
                .expect("labels");
            let mut l = ValueLabeller::new().with_bands(0, 2);
            let mut got = [0u32; 72];
            let m = l
                .label_into(&img, 9, 8, Some(0), conn, &mut got)
                .expect("labels");
            assert_eq!((m, got), (n, one), "{conn:?}");
            // Each U's right arm joined to its left arm.
            assert_eq!(l.bands.joined[0].len(), 2, "{conn:?}");
        }
    }
}
