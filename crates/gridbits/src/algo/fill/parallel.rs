//! The run union-find flood fill on every core (feature `parallel`): horizontal stripes of
//! rows find their runs, join them and paint them independently; only the rows where two
//! stripes meet are joined on one thread.

use super::union::{count_runs, flatten, link_rows, mark_seeds, paint_row};
use crate::{BitGrid, Connectivity};
use rayon::prelude::*;

/// [`fill_union`](super::fill_union) on every core: the same result, computed by horizontal
/// stripes.
///
/// Each stripe of rows numbers its runs and joins the touching ones in its own part of the
/// union-find; the row pairs where stripes meet are then joined on one thread, the
/// union-find is flattened, the seeded roots are marked, and the stripes paint their runs in
/// parallel again.
///
/// [`fill`](super::fill) does not route to it: on two cores shared with other work it
/// measured 0.6-0.95x the one-thread union-find on 4096 x 4096 mazes and noise (the rows
/// where stripes meet and the final flattening run on one thread, and this path uses the
/// portable bit counts). Call it directly on machines with more cores.
///
/// ```
/// use gridbits::algo::fill::{fill_union, fill_union_parallel};
/// use gridbits::{BitGrid, Connectivity};
/// let free = BitGrid::from_fn(300, 200, |x, y| (x * 7 + y * 13) % 10 < 6).unwrap();
/// let mut seed = BitGrid::new(300, 200).unwrap();
/// seed.set(1, 0);
/// let conn = Connectivity::Four;
/// assert_eq!(fill_union_parallel(&seed, &free, conn), fill_union(&seed, &free, conn));
/// ```
///
/// # Panics
///
/// If `seeds` and `passable` have different sizes.
pub fn fill_union_parallel(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity) -> BitGrid {
    super::assert_sizes(passable, "seeds", std::slice::from_ref(seeds), None, None);
    let mut out = passable.empty_like();
    let stripes = rayon::current_num_threads().max(1) * 4;
    parallel_fill_into(seeds, passable, conn, &mut out, stripes);
    out
}

/// [`fill_union_parallel`] into `out` (overwritten) with `stripes` stripes (at least one).
pub(super) fn parallel_fill_into(
    seeds: &BitGrid,
    passable: &BitGrid,
    conn: Connectivity,
    out: &mut BitGrid,
    stripes: usize,
) {
    let (h, n) = (passable.height(), passable.words_per_row());
    let eight = conn == Connectivity::Eight;
    let rows = h.div_ceil(stripes.clamp(1, h));
    // 1. Runs of each stripe.
    let mut starts = vec![0u64; h * n];
    let mut counts = vec![0u32; h];
    let ok = starts
        .par_chunks_mut(rows * n)
        .zip(counts.par_chunks_mut(rows))
        .enumerate()
        .map(|(k, (s, c))| {
            let first = k * rows;
            count_runs(passable, first..first + c.len(), s, c).map(|_| ())
        })
        .collect::<Option<Vec<()>>>();
    let mut base = vec![0u64; h + 1];
    for y in 0..h {
        base[y + 1] = base[y] + u64::from(counts[y]);
    }
    if ok.is_none() || base[h] >= u64::from(u32::MAX) {
        *out = super::fill_runs(seeds, passable, conn);
        return;
    }
    let base: Vec<u32> = base.into_iter().map(|b| b as u32).collect();
    let mut parent: Vec<u32> = (0..base[h]).collect();
    // 2. Joins inside each stripe, on its own part of the union-find.
    let mut parts = Vec::new();
    let mut rest = parent.as_mut_slice();
    for first in (0..h).step_by(rows) {
        let last = (first + rows).min(h);
        let (part, tail) = rest.split_at_mut((base[last] - base[first]) as usize);
        parts.push((first, last, part));
        rest = tail;
    }
    parts.into_par_iter().for_each(|(first, last, part)| {
        let offset = base[first] as usize;
        // Local indices: the part starts at the stripe's first run.
        let local: Vec<u32> = (0..part.len() as u32).collect();
        part.copy_from_slice(&local);
        for y in first + 1..last {
            link_rows::<true>(
                passable.row_words(y - 1),
                passable.row_words(y),
                &starts[(y - 1) * n..y * n],
                &starts[y * n..(y + 1) * n],
                base[y - 1] as usize - offset,
                base[y] as usize - offset,
                eight,
                part,
            );
        }
        flatten(part, 0);
        for p in part.iter_mut() {
            *p += offset as u32;
        }
    });
    // 3. Joins where stripes meet, then one flat union-find.
    for y in (rows..h).step_by(rows) {
        link_rows::<false>(
            passable.row_words(y - 1),
            passable.row_words(y),
            &starts[(y - 1) * n..y * n],
            &starts[y * n..(y + 1) * n],
            base[y - 1] as usize,
            base[y] as usize,
            eight,
            &mut parent,
        );
    }
    flatten(&mut parent, 0);
    let mut keep = vec![false; parent.len()];
    for y in 0..h {
        mark_seeds(
            seeds.row_words(y),
            passable.row_words(y),
            &starts[y * n..(y + 1) * n],
            base[y] as usize,
            &parent,
            &mut keep,
        );
    }
    // 4. Paint, stripe by stripe.
    let mut words = vec![0u64; h * n];
    words
        .par_chunks_mut(rows * n)
        .enumerate()
        .for_each(|(k, chunk)| {
            for (j, row) in chunk.chunks_exact_mut(n).enumerate() {
                let y = k * rows + j;
                paint_row(
                    passable.row_words(y),
                    &starts[y * n..(y + 1) * n],
                    base[y] as usize,
                    &parent,
                    &keep,
                    row,
                );
            }
        });
    for y in 0..h {
        out.row_words_mut(y)
            .copy_from_slice(&words[y * n..(y + 1) * n]);
    }
}
