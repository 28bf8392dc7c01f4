//! The size of a flood fill from one cell, without the grid of its cells: [`fill_count`].
//!
//! A bot that asks "how much room is there from here" (Tron, snakes, any space heuristic)
//! wants a number, and on a large grid most starts are in small pockets. A fill that returns
//! its cells pays for a result the size of the grid, zeroed and then counted, whatever the
//! pocket's size. [`fill_count`] fills inside a window around the start instead (at first
//! 17 rows of 3 words), and grows the window (twice as tall and wide each time) while the
//! filled region touches one of its sides that is not a side of the grid. A region that
//! outgrows a window of [`WINDOW_SHARE`]-th of the grid is counted by a whole-grid fill
//! ([`fill_from`]), so a large region costs that fill plus windows of about 1% of it.

use super::fill_from;
use crate::algo::checks::fill_bytes;
use crate::error::check_memory;
use crate::{BitGrid, Connectivity, GridError, OffGrid};

/// Rows above and below the start in the first window.
const FIRST_ROWS: usize = 8;

/// Words left and right of the start's word in the first window (three words: 192 columns,
/// 17 rows).
const FIRST_WORDS: usize = 1;

/// The windows grow while they hold at most this fraction of the grid's words (1/128);
/// beyond it, a whole-grid fill counts the region. The windows a large region outgrows then
/// cost about 1% of its fill (the bench's noise and mazes: within the noise of the runs).
const WINDOW_SHARE: usize = 128;

/// The number of cells of `passable` reachable from `start = (x, y)` under `conn`: what
/// `fill_from(passable, start, conn).count()` returns, without building that grid.
///
/// The cost follows the region, not the grid: a pocket of a few cells on a 4096 x 4096 grid
/// takes a fill of a window around it (well under a microsecond), where a fill returning its
/// cells zeroes and counts 2 MiB. A region that spreads over much of the grid costs about
/// what `fill_from` and a count cost. 0 when the start is not passable.
///
/// ```
/// use gridbits::algo::fill::fill_count;
/// use gridbits::{BitGrid, Connectivity};
/// let free = !BitGrid::parse("..#..\n..#..\n###..").unwrap();
/// assert_eq!(fill_count(&free, (0, 0), Connectivity::Four), 4);
/// assert_eq!(fill_count(&free, (4, 2), Connectivity::Four), 6);
/// assert_eq!(fill_count(&free, (2, 0), Connectivity::Four), 0);
/// let diagonal = !BitGrid::parse(".#\n#.").unwrap();
/// assert_eq!(fill_count(&diagonal, (0, 0), Connectivity::Four), 1);
/// assert_eq!(fill_count(&diagonal, (0, 0), Connectivity::Eight), 2);
/// ```
///
/// # Panics
///
/// If `start` lies off the grid.
pub fn fill_count(passable: &BitGrid, start: (usize, usize), conn: Connectivity) -> u64 {
    fill_count_windows(
        passable,
        start,
        conn,
        (FIRST_ROWS, FIRST_WORDS),
        WINDOW_SHARE,
    )
}

/// [`fill_count`] that returns an error instead of panicking or aborting: a
/// [`GridError::OffGrid`] when `start` lies off the grid, a [`GridError::Size`] when the
/// region outgrows the windows and the whole-grid fill's memory (the result and working
/// memory of [`try_fill`](super::try_fill)) cannot be allocated.
///
/// ```
/// use gridbits::algo::fill::try_fill_count;
/// use gridbits::{BitGrid, Connectivity};
/// let free = BitGrid::full(6, 3);
/// assert_eq!(try_fill_count(&free, (5, 2), Connectivity::Four).unwrap(), 18);
/// let err = try_fill_count(&free, (6, 0), Connectivity::Four).unwrap_err();
/// assert_eq!(err.to_string(), "cell (6, 0) is off the 6x3 grid");
/// ```
pub fn try_fill_count(
    passable: &BitGrid,
    start: (usize, usize),
    conn: Connectivity,
) -> Result<u64, GridError> {
    let (w, h) = (passable.width(), passable.height());
    OffGrid::check(start.0, start.1, w, h).map_err(GridError::OffGrid)?;
    if let Some(count) = windowed(
        passable,
        start,
        conn,
        (FIRST_ROWS, FIRST_WORDS),
        WINDOW_SHARE,
    ) {
        return Ok(count);
    }
    check_memory("flood fill", w, h, fill_bytes(w, h)).map_err(GridError::Size)?;
    Ok(fill_from(passable, start, conn).count())
}

/// Test knob: [`fill_count`] with a first window of `first.0` rows above and below the start
/// and `first.1` words beside its word, grown while it holds at most `1 / share` of the
/// grid's words (`share` 0 or 1: up to the whole grid). Results are identical for every
/// setting; small windows exercise the growth on small grids.
#[doc(hidden)]
pub fn fill_count_windows(
    passable: &BitGrid,
    start: (usize, usize),
    conn: Connectivity,
    first: (usize, usize),
    share: usize,
) -> u64 {
    let (x, y) = start;
    if let Err(e) = OffGrid::check(x, y, passable.width(), passable.height()) {
        panic!("the start {e}");
    }
    windowed(passable, start, conn, first, share)
        .unwrap_or_else(|| fill_from(passable, start, conn).count())
}

/// The count of the fill from `start` (on the grid) found in windows (see
/// [`fill_count_windows`]), or `None` when the region outgrows them.
fn windowed(
    passable: &BitGrid,
    start: (usize, usize),
    conn: Connectivity,
    first: (usize, usize),
    share: usize,
) -> Option<u64> {
    let (x, y) = start;
    if !passable.get(x, y) {
        return Some(0);
    }
    let (h, n) = (passable.height(), passable.words_per_row());
    let (mut ry, mut rw) = first;
    loop {
        let rows = y.saturating_sub(ry)..(y.saturating_add(ry).saturating_add(1)).min(h);
        let words = (x / 64).saturating_sub(rw)..(x / 64).saturating_add(rw + 1).min(n);
        let size = rows.len() * words.len();
        // The whole grid, or more than its share: a whole-grid fill.
        if size == n * h || size.saturating_mul(share) > n * h {
            return None;
        }
        if let Some(count) = count_in(passable, start, conn, rows, words) {
            return Some(count);
        }
        ry = ry.saturating_mul(2).max(1);
        rw = rw.saturating_mul(2).max(1);
    }
}

/// The fill from `start` inside the window of rows `rows` and words `words` of `passable`:
/// its count, or `None` when the region touches a side of the window that is not a side of
/// the grid (it may go on beyond), or the window's memory is refused.
fn count_in(
    passable: &BitGrid,
    start: (usize, usize),
    conn: Connectivity,
    rows: std::ops::Range<usize>,
    words: std::ops::Range<usize>,
) -> Option<u64> {
    let (w, h, n) = (
        passable.width(),
        passable.height(),
        passable.words_per_row(),
    );
    // Whole words: the window's columns start at a word boundary; its last word is the
    // grid's last (partial) one, or a whole word.
    let left = 64 * words.start;
    let width = if words.end == n {
        w - left
    } else {
        64 * words.len()
    };
    let mut window = BitGrid::try_new(width, rows.len()).ok()?;
    for (r, y) in rows.clone().enumerate() {
        window
            .row_words_mut(r)
            .copy_from_slice(&passable.row_words(y)[words.clone()]);
    }
    let f = fill_from(&window, (start.0 - left, start.1 - rows.start), conn);
    let last = rows.len() - 1;
    let any = |r: usize| f.row_words(r).iter().any(|&v| v != 0);
    let escapes = (rows.start > 0 && any(0))
        || (rows.end < h && any(last))
        || (words.start > 0 && (0..rows.len()).any(|r| f.row_words(r)[0] & 1 != 0))
        || (words.end < n && (0..rows.len()).any(|r| f.row_words(r)[words.len() - 1] >> 63 != 0));
    (!escapes).then(|| f.count())
}
