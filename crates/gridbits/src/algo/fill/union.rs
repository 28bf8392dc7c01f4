//! The run union-find flood fill of runtime grids ([`fill_union`]): every horizontal run of
//! passable cells gets an index, runs of neighbouring rows that touch are joined in a
//! union-find, and the runs whose set holds a seed are painted. No cell or run is ever put in
//! a queue, so nothing depends on the shape of the region.

#[cfg(doc)]
use super::fill_sweep;
use crate::algo::checks::assert_sizes;
use crate::algo::runs::table::{count_runs, link_rows, mark_seeds, paint_row, Runs};
use crate::algo::runs::union_find::flatten;
use crate::cpu::Features;
use crate::{BitGrid, Connectivity};

/// Flood fill of a [`BitGrid`] through a union-find over its horizontal runs.
///
/// For runtime grids only, like [`fill_sweep`]; fixed boards use
/// [`fill_dilate`](super::fill_dilate).
///
/// Three passes over the rows, each a few word operations per word plus a little work per run
/// or contact:
///
/// 1. **Runs.** The run starts of each row (`m & !(m << 1)`, carried across words) and their
///    count give every run an index, in row order.
/// 2. **Contacts.** Two runs of neighbouring rows touch exactly when one of them starts at a
///    cell `x` that the other row covers (4-connectivity), or covers at `x` or `x - 1`
///    (8-connectivity); the other run is then the last one of its row starting at or before
///    `x`. These cells are found with word operations, each run index is a prefix count
///    plus a `popcount`, and the two runs are joined in a union-find (Rem's algorithm with
///    splicing, the root of a set being its smallest index).
/// 3. **Paint.** One pass flattens the union-find (a parent never has a larger index); the
///    roots of the seeded runs are marked; each row's selected run starts are closed into
///    whole runs by one word addition per word.
///
/// The cost is linear in the cells of the grid, whatever the shape: a maze, whose paths turn
/// back on themselves everywhere, costs no more than noise with as many runs. It does not
/// depend on how much of the grid is reached, so [`fill`](super::fill) starts with row
/// sweeps, which finish open ground and noise in a few passes, and hands over to this engine
/// when the sweeps do not converge.
///
/// ```
/// use gridbits::algo::fill::fill_union;
/// use gridbits::{BitGrid, Connectivity};
/// let free = !&BitGrid::parse("\
/// .x......\n\
/// .x.xxxx.\n\
/// .x.x..x.\n\
/// ...xxxx.\n\
/// xxxx....\n").unwrap();
/// let mut seed = BitGrid::new(8, 5);
/// seed.set(0, 0);
/// let filled = fill_union(&seed, &free, Connectivity::Four);
/// assert!(filled.get(7, 4) && !filled.get(4, 2));
/// assert_eq!(filled.count(), free.count() - 2);
/// // The pocket is walled in diagonally too.
/// assert_eq!(fill_union(&seed, &free, Connectivity::Eight), filled);
/// ```
///
/// # Panics
///
/// If `seeds` and `passable` have different sizes ([`try_fill`](super::try_fill) returns an
/// error instead).
pub fn fill_union(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity) -> BitGrid {
    assert_sizes(passable, "seeds", std::slice::from_ref(seeds), None, None);
    let mut out = passable.empty_like();
    union_fill_into(seeds, passable, conn, &mut out);
    out
}

/// The CPU features of the x86-64 copies of the union-find (this one's and the stripes' of
/// `fill_union_parallel`): asked of [`crate::cpu`], whose override forces the portable code.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) const BIT_PATH: Features = Features::BIT_INSTRUCTIONS;

/// The engine compiled for POPCNT and BMI: `count_ones`, `trailing_zeros` and the masks
/// become single instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn union_x86(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity, out: &mut BitGrid) {
    union_body(seeds, passable, conn, out);
}

/// [`fill_union`] into `out` (a grid of the size of `passable`, overwritten): the copy
/// compiled for POPCNT and BMI when the CPU has them, else the portable code. Sizes must
/// match.
pub(super) fn union_fill_into(
    seeds: &BitGrid,
    passable: &BitGrid,
    conn: Connectivity,
    out: &mut BitGrid,
) {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::has(BIT_PATH) {
        // SAFETY: `union_x86` is only compiled for POPCNT, BMI1, BMI2 and LZCNT, which the
        // CPU was just checked to support; it has no other requirement.
        unsafe { union_x86(seeds, passable, conn, out) };
        return;
    }
    union_body(seeds, passable, conn, out);
}

/// The engine behind [`fill_union`], inlined into each compiled copy.
#[inline(always)]
fn union_body(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity, out: &mut BitGrid) {
    let (h, n) = (passable.height(), passable.words_per_row());
    let eight = conn == Connectivity::Eight;
    let mut starts = vec![0u64; h * n];
    let mut base = vec![0u32; h + 1];
    if count_runs(passable, 0..h, &mut starts, &mut base[1..]).is_none() {
        // More runs than u32 indices: the run stack has no such limit.
        *out = super::fill_runs(seeds, passable, conn);
        return;
    }
    for y in 0..h {
        base[y + 1] += base[y];
    }
    let runs = Runs { starts, base };
    let mut parent: Vec<u32> = (0..runs.base[h]).collect();
    for y in 1..h {
        link_rows::<true>(
            passable.row_words(y - 1),
            passable.row_words(y),
            &runs.starts[(y - 1) * n..y * n],
            &runs.starts[y * n..(y + 1) * n],
            runs.base[y - 1] as usize,
            runs.base[y] as usize,
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
            &runs.starts[y * n..(y + 1) * n],
            runs.base[y] as usize,
            &parent,
            &mut keep,
        );
    }
    for y in 0..h {
        paint_row(
            passable.row_words(y),
            &runs.starts[y * n..(y + 1) * n],
            runs.base[y] as usize,
            &parent,
            &keep,
            out.row_words_mut(y),
        );
    }
}
