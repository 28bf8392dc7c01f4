//! One BFS step ([`expand`]) and the BFS frontiers as an iterator ([`layers`]), written once
//! against [`BitBoard`] for both board kinds.

use super::Connections;
use crate::algo::checks::{check_sizes, grid_bytes, reserve};
use crate::algo::slide;
#[cfg(doc)]
use crate::BitGrid;
use crate::{BitBoard, Connectivity, GridError, Moves};

/// The cells reached in one move from `front`, inside `passable`.
///
/// Step moves (`Four`, `Eight`) shift the front one cell; sliding moves slide through
/// `passable` cells ([`slide::reach`]). With `con`, a move in direction `d` may start only
/// from cells in `con[d.index()]` (and, sliding, continue only from such cells). The result
/// may include cells of `front` that other cells of `front` reach.
///
/// # Panics
///
/// If `front`, `passable` and the connection masks are runtime grids of different sizes.
pub fn expand<B: BitBoard>(
    front: &B,
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> B {
    match (con, moves) {
        (None, Moves::Four) => front.dilate_within(Connectivity::Four, passable),
        (None, Moves::Eight) => front.dilate_within(Connectivity::Eight, passable),
        (None, _) => slide::reach(front, passable, moves),
        (Some(con), _) => {
            let mut out = front.empty_like();
            for &d in moves.dirs() {
                let mut f = front.clone();
                let mut reached = front.empty_like();
                loop {
                    f.and_assign(&con[d.index()]);
                    f = f.shift(d);
                    f.and_assign(passable);
                    f.and_not_assign(&reached);
                    if f.is_empty() {
                        break;
                    }
                    reached.or_assign(&f);
                    if !moves.is_sliding() {
                        break;
                    }
                }
                out.or_assign(&reached);
            }
            out
        }
    }
}

/// Iterator over BFS frontiers: see [`layers`].
#[derive(Clone, Debug)]
pub struct Layers<'a, B: BitBoard> {
    passable: B,
    moves: Moves,
    con: Option<&'a Connections<B>>,
    front: B,
    visited: B,
    depth: u32,
}

impl<B: BitBoard> Iterator for Layers<'_, B> {
    /// `(depth, cells first reached at that depth)`.
    type Item = (u32, B);
    fn next(&mut self) -> Option<(u32, B)> {
        if self.front.is_empty() {
            return None;
        }
        let out = (self.depth, self.front.clone());
        let mut next = expand(&self.front, &self.passable, self.moves, self.con);
        next.and_not_assign(&self.visited);
        self.visited.or_assign(&next);
        self.front = next;
        self.depth += 1;
        Some(out)
    }
}

/// BFS frontiers from `sources`: depth 0 is `sources`, depth `k` the cells of `passable`
/// first reached after `k` moves. Sources are obstacles: moves never enter or slide through
/// a source cell.
///
/// Each layer is a whole-board step and a new board: ideal on fixed boards. On a large
/// [`BitGrid`] with many layers prefer [`distance_map`](super::distance_map) /
/// [`voronoi_depths`](crate::algo::voronoi::voronoi_depths), whose engine
/// only touches the words next to the frontier.
///
/// ```
/// use gridbits::algo::distance::layers;
/// use gridbits::{Board, Moves};
/// type B = Board<5, 1, 1>;
/// let sizes: Vec<u32> = layers(&B::cell(2, 0), &B::FULL, Moves::Four, None)
///     .map(|(_, front)| front.count())
///     .collect();
/// assert_eq!(sizes, [1, 2, 2]);
/// ```
///
/// # Panics
///
/// If `sources`, `passable` and the connection masks are runtime grids of different sizes
/// ([`try_layers`] returns an error instead; a size mismatch of the masks
/// shows when the first layer is computed).
pub fn layers<'a, B: BitBoard>(
    sources: &B,
    passable: &B,
    moves: Moves,
    con: Option<&'a Connections<B>>,
) -> Layers<'a, B> {
    let mut passable = passable.clone();
    passable.and_not_assign(sources);
    Layers {
        passable,
        moves,
        con,
        front: sources.clone(),
        visited: sources.clone(),
        depth: 0,
    }
}

/// [`layers`] that returns an error instead of panicking or aborting: a
/// [`GridError::Mismatch`] when `sources`, `passable` and the connection masks are runtime
/// grids of different sizes, a [`GridError::Size`] when the iterator's boards (four of the
/// grid's size) cannot be allocated.
pub fn try_layers<'a, B: BitBoard>(
    sources: &B,
    passable: &B,
    moves: Moves,
    con: Option<&'a Connections<B>>,
) -> Result<Layers<'a, B>, GridError> {
    check_sizes(
        passable,
        "sources",
        std::slice::from_ref(sources),
        con,
        None,
    )?;
    let (w, h) = (passable.width(), passable.height());
    reserve("BFS layers", passable, 4 * grid_bytes(w, h))?;
    Ok(layers(sources, passable, moves, con))
}
