//! Voronoi territory of any number of players on fixed [`Board`]s and runtime [`BitGrid`]s:
//! every cell goes to the player that reaches it at the strictly smallest move distance,
//! ties are contested, and so is every cell reached at its distance only through contested
//! cells. Sources are obstacles to every player.
//!
//! - [`voronoi_with`] and [`voronoi_n`]: the simultaneous BFS of "BFS and Voronoi diagrams
//!   using bit-shift operations" (Amazonial, The Great Escape), for any number of players:
//!   all expand at once by whole-board shifts, with a shared visited set.
//! - [`voronoi`] and [`voronoi_depths`] pick the engine of each board kind
//!   ([`VoronoiEngine`], `engine.rs`): the simultaneous BFS on fixed boards and with sliding
//!   moves, the word-frontier BFS of [`distance`](crate::algo::distance) carrying an owner
//!   per cell on a [`BitGrid`] with step moves. Both give one plane per player.
//! - [`voronoi_owners`] gives an owner per cell ([`Owners`]) on a [`BitGrid`], in a time that
//!   does not depend on the number of players and without a plane per player.
//!
//! Moves and connection masks are those of [`distance`](crate::algo::distance). The `try_`
//! forms return a [`GridError`] for grids of different sizes, a source off
//! the grid or memory that cannot be had, instead of panicking or aborting.
//!
//! ```
//! use gridbits::algo::voronoi::voronoi;
//! use gridbits::{bitboard, Board, Moves};
//! type B = Board<6, 4, 1>;
//! let walls = bitboard!(B; "..#...", "..#...", "..#...", "......");
//! // Two players: left and right of the wall.
//! let v = voronoi(&[B::cell(0, 0), B::cell(5, 0)], &!walls, Moves::Four, None);
//! assert_eq!((v.owned[0].count(), v.owned[1].count()), (9, 12));
//! ```

mod engine;
mod owners;
mod shift_bfs;

pub use engine::VoronoiEngine;
pub use owners::{
    try_voronoi_owners, try_voronoi_owners_with_distances, voronoi_owners,
    voronoi_owners_with_distances, Owners,
};
pub use shift_bfs::{voronoi_n, voronoi_with, Voronoi, VoronoiN};

use crate::algo::checks::{check_sizes, reserve, voronoi_bytes};
use crate::algo::distance::{Connections, DistanceMap};
#[cfg(doc)]
use crate::{BitGrid, Board};
use crate::{GridError, Moves};

/// Voronoi territory (the rules of [`voronoi_with`]) with the best engine for the board type:
/// see [`VoronoiEngine`]. With no sources nothing is reached: no territory, depth 0.
///
/// # Panics
///
/// If a source, `passable` or a connection mask are runtime grids of different sizes
/// ([`try_voronoi`] returns an error instead).
pub fn voronoi<B: VoronoiEngine>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> Voronoi<B> {
    B::territory(sources, passable, moves, con, None)
}

/// Voronoi territory and the depth at which each cell was claimed (sources at 0).
///
/// # Panics
///
/// If a source, `passable` or a connection mask are runtime grids of different sizes
/// ([`try_voronoi_depths`] returns an error instead).
pub fn voronoi_depths<B: VoronoiEngine>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> (Voronoi<B>, DistanceMap) {
    let mut map = DistanceMap::new(passable.width(), passable.height());
    let v = B::territory(sources, passable, moves, con, Some(&mut map));
    (v, map)
}

/// [`voronoi`] that returns an error instead of panicking or aborting: a
/// [`GridError::Mismatch`] when a source, `passable` or a connection mask are runtime grids
/// of different sizes, a [`GridError::Size`] when a plane per player and the BFS's memory
/// cannot be allocated ([`try_voronoi_owners`] needs no planes).
///
/// ```
/// use gridbits::algo::voronoi::try_voronoi;
/// use gridbits::{BitGrid, Moves};
/// let (mut a, mut b) = (BitGrid::new(4, 1), BitGrid::new(4, 1));
/// a.set(0, 0);
/// b.set(3, 0);
/// let free = BitGrid::full(4, 1);
/// assert_eq!(try_voronoi(&[a.clone(), b], &free, Moves::Four, None).unwrap().counts(), [2, 2]);
/// let err = try_voronoi(&[a, BitGrid::new(5, 1)], &free, Moves::Four, None);
/// assert_eq!(err.unwrap_err().to_string(), "a source is 5x1, expected 4x1 (the size of passable)");
/// ```
pub fn try_voronoi<B: VoronoiEngine>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> Result<Voronoi<B>, GridError> {
    check_voronoi(sources, passable, con)?;
    Ok(voronoi(sources, passable, moves, con))
}

/// [`voronoi_depths`] that returns an error instead of panicking or aborting, as
/// [`try_voronoi`].
pub fn try_voronoi_depths<B: VoronoiEngine>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> Result<(Voronoi<B>, DistanceMap), GridError> {
    check_voronoi(sources, passable, con)?;
    Ok(voronoi_depths(sources, passable, moves, con))
}

/// The sizes and memory of a Voronoi by planes.
fn check_voronoi<B: VoronoiEngine>(
    sources: &[B],
    passable: &B,
    con: Option<&Connections<B>>,
) -> Result<(), GridError> {
    check_sizes(passable, "a source", sources, con, None)?;
    let (w, h) = (passable.width(), passable.height());
    reserve("Voronoi", passable, voronoi_bytes(sources.len(), w, h))?;
    Ok(())
}
