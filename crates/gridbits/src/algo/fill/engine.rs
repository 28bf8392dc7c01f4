//! The choice of flood-fill engine, in one place: dilation for fixed boards; for a
//! [`BitGrid`], the run stack within a budget of runs, then row sweeps, then the run
//! union-find (on every core for large grids with the `parallel` feature) when the sweeps
//! stop converging.

use super::fill_dilate;
use super::run_stack::{claim_runs, run_stack_bounded, seed_runs};
use super::sweep::{sweep_rows, unfilled_touching};
use super::union::union_fill_into;
#[cfg(doc)]
use super::{fill_runs, fill_union};
use crate::algo::checks::{assert_sizes, fill_bytes, reserve};
use crate::{BitGrid, Board, Connectivity, GridError, OffGrid};

/// Board types with a flood fill: fixed boards dilate to a fixpoint (straight-line word code
/// per step); [`BitGrid`] uses [`fill_sweep`]: the run stack for small regions, row sweeps
/// for large ones, handing over to [`fill_union`] when the sweeps do not converge.
pub trait FloodFill: crate::BitBoard {
    /// The cells of `passable` reachable from `seeds & passable` under `conn`.
    ///
    /// # Panics
    ///
    /// If `seeds` and `passable` are runtime grids of different sizes.
    fn flood_fill(seeds: &Self, passable: &Self, conn: Connectivity) -> Self;
}

impl<const W: usize, const H: usize, const N: usize> FloodFill for Board<W, H, N> {
    #[inline]
    fn flood_fill(seeds: &Self, passable: &Self, conn: Connectivity) -> Self {
        fill_dilate(seeds, passable, conn)
    }
}

impl FloodFill for BitGrid {
    fn flood_fill(seeds: &Self, passable: &Self, conn: Connectivity) -> Self {
        fill_sweep(seeds, passable, conn)
    }
}

/// The runs the run stack may explore before the sweeps take over: a sixteenth of the
/// grid's words, at least 64, so that a small pocket costs only its runs.
fn run_budget(passable: &BitGrid) -> usize {
    64 + passable.words().len() / 16
}

/// How many sweeps [`fill_sweep`] makes before it may hand over to the run union-find: after
/// these, it goes on only while each sweep evaluates fewer than half the rows of the one
/// before (the tail of a converging fill). Open ground and noise up to about 35% walls finish
/// in one to ten sweeps, the last few shrinking fast; mazes would need hundreds of sweeps of
/// about the same size.
const MIN_SWEEPS: usize = 8;

/// Completes a fill whose cells `cur` are whole runs of `passable`: row sweeps (at least
/// `min_sweeps`, [`MIN_SWEEPS`] outside tests), then the run
/// union-find on what they leave when they stop converging (by stripes on every core for a
/// grid of [`FILL_MIN_CELLS`](crate::parallel::FILL_MIN_CELLS) cells or more when the pool
/// has two threads or more).
fn sweep_then_union(cur: &mut BitGrid, passable: &BitGrid, conn: Connectivity, min_sweeps: usize) {
    if sweep_rows(cur, passable, conn, min_sweeps) {
        return;
    }
    let (touch, rest) = unfilled_touching(cur, passable, conn);
    #[cfg(feature = "parallel")]
    if passable.width() * passable.height() >= crate::parallel::FILL_MIN_CELLS
        && crate::parallel::current_threads() >= 2
    {
        cur.or_assign(&super::fill_union_parallel(&touch, &rest, conn));
        return;
    }
    let mut more = passable.empty_like();
    union_fill_into(&touch, &rest, conn, &mut more);
    cur.or_assign(&more);
}

/// Flood fill of a [`BitGrid`]: run stack first, then alternating row sweeps, then the run
/// union-find if the sweeps do not converge.
///
/// For runtime grids only: it works on rows of whole words. Fixed boards, a few words in all,
/// fill fastest by dilation ([`fill_dilate`]); [`fill`](super::fill) picks
/// the engine of each board kind.
///
/// 1. **Small regions.** The runs of the seeds go on the scanline run stack of
///    [`fill_runs`], which explores up to a budget of runs (a sixteenth of the grid's words,
///    at least 64). A pocket of a few hundred cells is done here, in time proportional to its
///    runs, without a pass over the grid.
/// 2. **Row sweeps.** Every row of the result is kept *closed*: a union of whole runs of
///    passable cells. A row is evaluated when a neighbouring row gained cells next to its
///    unfilled passable cells (a bitset of dirty rows, scanned with trailing/leading zero
///    counts): those cells seed new runs, closed in one pass of word additions upwards and one
///    parallel-prefix smear downwards. Sweeps go down then up, so a path that goes down (or up)
///    while zig-zagging sideways is filled in one sweep; only vertical reversals need another.
///    Open ground, serpentines and noise up to about 35% walls finish in one to six sweeps.
/// 3. **Mazes**, whose paths reverse vertical direction over and over, would need hundreds of
///    sweeps: after eight sweeps, unless the sweeps are shrinking geometrically (the tail of a
///    fill that converges), the fill hands over to the union-find of [`fill_union`], run on
///    the passable cells not filled yet, whose cost is linear in the grid size whatever the
///    shape.
///
/// ```
/// use gridbits::algo::fill::fill_sweep;
/// use gridbits::{BitGrid, Connectivity};
/// let maze = BitGrid::parse("\
/// .x......\n\
/// .x.xxxx.\n\
/// .x.x..x.\n\
/// ...xxxx.\n\
/// xxxx....\n").unwrap();
/// let free = !&maze;
/// let mut seed = BitGrid::new(8, 5);
/// seed.set(0, 0);
/// let filled = fill_sweep(&seed, &free, Connectivity::Four);
/// // Down, right, up, along the top, down the right side.
/// assert!(filled.get(7, 4) && filled.get(4, 4));
/// // The pocket at (4, 2)-(5, 2) is walled in.
/// assert!(!filled.get(4, 2) && !filled.get(5, 2));
/// assert_eq!(filled.count(), free.count() - 2);
/// ```
///
/// # Panics
///
/// If `seeds` and `passable` have different sizes ([`try_fill`](super::try_fill) returns an
/// error instead).
pub fn fill_sweep(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity) -> BitGrid {
    assert_sizes(passable, "seeds", std::slice::from_ref(seeds), None, None);
    let mut cur = passable.empty_like();
    let budget = run_budget(passable);
    if let Some(mut stack) = seed_runs(seeds, passable, &mut cur, budget) {
        if run_stack_bounded(&mut cur, passable, conn, &mut stack, budget) {
            return cur;
        }
    }
    sweep_then_union(&mut cur, passable, conn, MIN_SWEEPS);
    cur
}

/// The flood fill of [`fill_sweep`] from one cell: the cells of `passable` reachable from
/// `start = (x, y)` under `conn` (none if the start is not passable).
///
/// The same engines, without a seed grid: the start's run goes straight on the run stack, so
/// a small pocket costs its runs and the pages of the result it touches, nothing in
/// proportion to the grid (no seed grid to build or scan).
///
/// ```
/// use gridbits::algo::fill::fill_from;
/// use gridbits::{BitGrid, Connectivity};
/// let free = !BitGrid::parse("..#..\n..#..\n###..").unwrap();
/// let left = fill_from(&free, (0, 0), Connectivity::Four);
/// assert_eq!(left.count(), 4);
/// assert!(!left.get(3, 0));
/// assert_eq!(fill_from(&free, (2, 0), Connectivity::Four).count(), 0);
/// ```
///
/// # Panics
///
/// If `start` lies off the grid ([`try_fill_from`] returns an error
/// instead).
pub fn fill_from(passable: &BitGrid, start: (usize, usize), conn: Connectivity) -> BitGrid {
    let (x, y) = start;
    if let Err(e) = OffGrid::check(x, y, passable.width(), passable.height()) {
        panic!("the start {e}");
    }
    let mut cur = passable.empty_like();
    let mut stack = Vec::new();
    let (i, bit) = (x / 64, 1u64 << (x % 64));
    claim_runs(
        passable.row_words(y),
        cur.row_words_mut(y),
        y,
        i,
        bit,
        &mut stack,
    );
    if !run_stack_bounded(&mut cur, passable, conn, &mut stack, run_budget(passable)) {
        sweep_then_union(&mut cur, passable, conn, MIN_SWEEPS);
    }
    cur
}

/// [`fill_from`] that returns an error instead of panicking or aborting: a
/// [`GridError::OffGrid`] when `start` lies off the grid, a [`GridError::Size`] when the
/// result and the fill's working memory (as for [`try_fill`](super::try_fill)) cannot be allocated.
///
/// ```
/// use gridbits::algo::fill::try_fill_from;
/// use gridbits::{BitGrid, Connectivity, GridError};
/// let free = BitGrid::full(6, 3);
/// assert_eq!(try_fill_from(&free, (5, 2), Connectivity::Four).unwrap(), free);
/// let err = try_fill_from(&free, (6, 0), Connectivity::Four).unwrap_err();
/// assert!(matches!(err, GridError::OffGrid(_)));
/// assert_eq!(err.to_string(), "cell (6, 0) is off the 6x3 grid");
/// ```
pub fn try_fill_from(
    passable: &BitGrid,
    start: (usize, usize),
    conn: Connectivity,
) -> Result<BitGrid, GridError> {
    let (w, h) = (passable.width(), passable.height());
    OffGrid::check(start.0, start.1, w, h).map_err(GridError::OffGrid)?;
    reserve("flood fill", passable, fill_bytes(w, h))?;
    Ok(fill_from(passable, start, conn))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive::{fill as nf, NaiveGrid};

    use crate::test_rng::XorShift as Rng;

    /// A grid with `p`% free cells, or a comb of vertical corridors joined alternately at
    /// the top and bottom (every path reverses vertical direction: sweeps never converge).
    fn grid(rng: &mut Rng, w: usize, h: usize, p: u64) -> BitGrid {
        if p == 0 {
            return BitGrid::from_fn(w, h, |x, y| {
                x % 2 == 0 || (y == 0 && x % 4 == 1) || (y == h - 1 && x % 4 == 3)
            })
            .unwrap();
        }
        BitGrid::from_fn(w, h, |_, _| rng.percent(p)).unwrap()
    }

    fn expected(seeds: &BitGrid, passable: &BitGrid, conn: Connectivity) -> BitGrid {
        let got = nf::fill(
            &NaiveGrid::from_view(seeds),
            &NaiveGrid::from_view(passable),
            conn,
        );
        BitGrid::from_fn(passable.width(), passable.height(), |x, y| got.get(x, y)).unwrap()
    }

    /// Every way through the engine: the run stack cut short after `budget` runs (or the seed
    /// runs over budget), then sweeps handing over to the union-find after `min_sweeps`.
    #[test]
    fn every_path_matches_naive() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for (w, h) in [
            (1, 1),
            (1, 40),
            (40, 1),
            (63, 9),
            (64, 8),
            (65, 33),
            (130, 70),
        ] {
            for p in [0, 35, 55, 65, 80, 100] {
                let passable = grid(&mut rng, w, h, p);
                let seeds = grid(&mut rng, w, h, 3);
                for conn in [Connectivity::Four, Connectivity::Eight] {
                    let want = expected(&seeds, &passable, conn);
                    assert_eq!(fill_sweep(&seeds, &passable, conn), want);
                    for budget in [0, 1, 5] {
                        for min_sweeps in [1, 2, 8] {
                            let mut cur = passable.empty_like();
                            if let Some(mut stack) = seed_runs(&seeds, &passable, &mut cur, budget)
                            {
                                run_stack_bounded(&mut cur, &passable, conn, &mut stack, budget);
                            }
                            sweep_then_union(&mut cur, &passable, conn, min_sweeps);
                            assert_eq!(cur, want, "{w}x{h} {p}% {conn:?} {budget} {min_sweeps}");
                        }
                    }
                }
            }
        }
    }
}
