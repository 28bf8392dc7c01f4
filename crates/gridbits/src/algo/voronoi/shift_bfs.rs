//! The simultaneous BFS of "BFS and Voronoi diagrams using bit-shift operations" (written for
//! Amazonial and The Great Escape): every player's frontier advances one move per layer by
//! whole-board shifts, under optional per-direction connection masks, with a shared visited
//! set; a cell goes to the player that reaches it at the strictly smallest depth, ties are
//! contested. The article has two players; here any number ([`voronoi_with`], a slice) or a
//! number fixed at compile time ([`voronoi_n`], an array, no allocation).

#[cfg(doc)]
use super::voronoi;
use crate::algo::distance::{expand, Connections};
#[cfg(doc)]
use crate::BitGrid;
use crate::{BitBoard, Moves};

/// The result of [`voronoi`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Voronoi<B> {
    /// Cells owned by each player, in the order of the sources given (sources included).
    pub owned: Vec<B>,
    /// Cells reached first by two or more players at the same depth.
    pub contested: B,
    /// Every cell reached by some player (owned, contested and the sources).
    pub reached: B,
    /// Number of BFS layers after the sources (the largest claim depth).
    pub depth: u32,
}

impl<B: BitBoard> Voronoi<B> {
    /// Number of cells each player owns (popcount of [`Voronoi::owned`]).
    pub fn counts(&self) -> Vec<u64> {
        self.owned.iter().map(|b| b.count()).collect()
    }
}

/// Voronoi territory of several players (any number) on a grid.
///
/// All players expand at once, one move per layer, with a shared visited set (the algorithm
/// of "BFS and Voronoi diagrams using bit-shift operations", for any number of players): a
/// cell goes to the player that reaches it at the strictly smallest depth; cells reached by
/// two or more players at the same depth are contested (and keep expanding for each of
/// them, so distances stay exact); cells nobody reaches belong to no one. Every
/// player's sources are obstacles to all players. `on_layer(depth, claimed)` is called for
/// each layer with the cells first claimed at that depth (depth 0: the sources). With no
/// sources nothing is reached.
///
/// This is the whole-board engine (one board step per layer), used by fixed boards and for
/// sliding moves; [`voronoi`] picks the word-frontier BFS for a [`BitGrid`].
///
/// # Panics
///
/// If a source, `passable` or a connection mask are runtime grids of different sizes.
pub fn voronoi_with<B: BitBoard>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
    on_layer: impl FnMut(u32, &B),
) -> Voronoi<B> {
    let mut owned = sources.to_vec();
    let mut fronts = sources.to_vec();
    let mut next = sources.to_vec();
    let (contested, reached, depth) = voronoi_core(
        sources,
        passable,
        moves,
        con,
        &mut owned,
        &mut fronts,
        &mut next,
        on_layer,
    );
    Voronoi {
        owned,
        contested,
        reached,
        depth,
    }
}

/// The result of [`voronoi_n`]: like [`Voronoi`] with the players in an array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VoronoiN<B, const P: usize> {
    /// Cells owned by each player (sources included).
    pub owned: [B; P],
    /// Cells reached first by two or more players at the same depth.
    pub contested: B,
    /// Every cell reached by some player.
    pub reached: B,
    /// Number of BFS layers after the sources.
    pub depth: u32,
}

/// [`voronoi`] for a number of players fixed at compile time: no allocation, and on fixed
/// boards the whole computation stays in registers and on the stack.
///
/// ```
/// use gridbits::algo::voronoi::voronoi_n;
/// use gridbits::{Board8x8, Moves};
/// let v = voronoi_n(&[Board8x8::cell(0, 0), Board8x8::cell(7, 0)], &Board8x8::FULL, Moves::Four, None);
/// assert_eq!([v.owned[0].count(), v.owned[1].count(), v.contested.count()], [32, 32, 0]);
/// ```
///
/// # Panics
///
/// If a source, `passable` or a connection mask are runtime grids of different sizes.
pub fn voronoi_n<B: BitBoard, const P: usize>(
    sources: &[B; P],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
) -> VoronoiN<B, P> {
    let mut owned = sources.clone();
    let mut fronts = sources.clone();
    let mut next = sources.clone();
    let (contested, reached, depth) = voronoi_core(
        sources,
        passable,
        moves,
        con,
        &mut owned,
        &mut fronts,
        &mut next,
        |_, _| {},
    );
    VoronoiN {
        owned,
        contested,
        reached,
        depth,
    }
}

/// The state of a Voronoi expansion at depth 0: `(visited, contested, free)`. The sources
/// are visited; cells that are sources of two players at once are contested; `free` is
/// `passable` without any source (sources block every player).
pub(super) fn start_territory<B: BitBoard>(sources: &[B], passable: &B) -> (B, B, B) {
    let mut visited = passable.empty_like();
    let mut twice = passable.empty_like();
    for s in sources {
        let mut both = visited.clone();
        both.and_assign(s);
        twice.or_assign(&both);
        visited.or_assign(s);
    }
    let mut free = passable.clone();
    free.and_not_assign(&visited);
    (visited, twice, free)
}

/// The simultaneous expansion shared by [`voronoi_with`] and [`voronoi_n`]: `owned`, `fronts`
/// and `next` are scratch of the players' count (their contents are overwritten); returns
/// `(contested, reached, depth)` and leaves the territories in `owned`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn voronoi_core<B: BitBoard>(
    sources: &[B],
    passable: &B,
    moves: Moves,
    con: Option<&Connections<B>>,
    owned: &mut [B],
    fronts: &mut [B],
    next: &mut [B],
    mut on_layer: impl FnMut(u32, &B),
) -> (B, B, u32) {
    let empty = passable.empty_like();
    let (mut visited, mut contested, free) = start_territory(sources, passable);
    for ((o, f), s) in owned.iter_mut().zip(fronts.iter_mut()).zip(sources) {
        o.clone_from(s);
        o.and_not_assign(&contested);
        f.clone_from(s);
    }
    on_layer(0, &visited);
    let mut depth = 0;
    loop {
        let mut once = empty.clone();
        let mut twice = empty.clone();
        for (f, n) in fronts.iter().zip(next.iter_mut()) {
            *n = if f.is_empty() {
                f.clone()
            } else {
                expand(f, &free, moves, con)
            };
            n.and_not_assign(&visited);
            let mut both = once.clone();
            both.and_assign(n);
            twice.or_assign(&both);
            once.or_assign(n);
        }
        if once.is_empty() {
            break;
        }
        depth += 1;
        for (o, n) in owned.iter_mut().zip(next.iter()) {
            let mut mine = n.clone();
            mine.and_not_assign(&twice);
            o.or_assign(&mine);
        }
        contested.or_assign(&twice);
        visited.or_assign(&once);
        on_layer(depth, &once);
        fronts.swap_with_slice(next);
    }
    (contested, visited, depth)
}
