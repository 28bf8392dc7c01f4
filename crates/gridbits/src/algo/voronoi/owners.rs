//! Voronoi for many players on a [`BitGrid`]: [`voronoi_owners`] returns an owner per cell
//! ([`Owners`]) instead of one plane per player, in a time that does not depend on the number
//! of players; [`voronoi_owners_with_distances`] adds the distance map.

use super::voronoi_with;
#[cfg(doc)]
use super::{voronoi, Voronoi};
use crate::algo::checks::{bfs_working_bytes, cells_of, check_sizes, grid_bytes};
use crate::algo::distance::{bfs, claim_source, Connections, DistanceMap};
use crate::error::check_memory;
use crate::{BitGrid, GridError, Moves, OffGrid};

/// The Voronoi territory of many players as an owner per cell: see [`voronoi_owners`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owners {
    width: usize,
    height: usize,
    owner: Vec<u32>,
    counts: Vec<u64>,
    contested: u64,
    unreached: u64,
    depth: u32,
    distances: Option<DistanceMap>,
}

impl Owners {
    /// The owner code of a cell reached first by two or more players at the same distance
    /// (or only through such cells).
    pub const CONTESTED: u32 = crate::algo::distance::CONTESTED;
    /// The owner code of a cell no player reaches (walls included).
    pub const UNREACHED: u32 = crate::algo::distance::UNREACHED;

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The player owning `(x, y)`: `None` if contested, unreached or off the grid.
    pub fn owner(&self, x: usize, y: usize) -> Option<u32> {
        if x >= self.width || y >= self.height() {
            return None;
        }
        let o = self.owner[y * self.width + x];
        (o < Self::CONTESTED).then_some(o)
    }

    /// Whether `(x, y)` is contested (`false` off the grid).
    pub fn is_contested(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.height() && self.owner[y * self.width + x] == Self::CONTESTED
    }

    /// Row-major owner codes: a player index, [`Owners::CONTESTED`] or [`Owners::UNREACHED`].
    pub fn as_slice(&self) -> &[u32] {
        &self.owner
    }

    /// Number of cells each player owns (its sources included), in the order of the players.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// Number of contested cells.
    pub fn contested(&self) -> u64 {
        self.contested
    }

    /// Number of passable cells no player reaches.
    pub fn unreached(&self) -> u64 {
        self.unreached
    }

    /// The largest claim distance (0 with no cell reached beyond the sources, or none).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The distance from the nearest source of every cell (the claim depths), when computed:
    /// by [`voronoi_owners_with_distances`], not by [`voronoi_owners`].
    ///
    /// ```
    /// use gridbits::algo::voronoi::{voronoi_owners, voronoi_owners_with_distances};
    /// use gridbits::{BitGrid, Moves};
    /// let free = BitGrid::full(4, 1);
    /// let players = [[(0, 0)]];
    /// assert!(voronoi_owners(&players, &free, Moves::Four, None).distances().is_none());
    /// let o = voronoi_owners_with_distances(&players, &free, Moves::Four, None);
    /// assert_eq!(o.distances().and_then(|d| d.get(3, 0)), Some(3));
    /// ```
    pub fn distances(&self) -> Option<&DistanceMap> {
        self.distances.as_ref()
    }
}

/// Voronoi territory of any number of players, as an owner per cell.
///
/// `players[p]` lists player `p`'s source cells `(x, y)`. The rules are those of
/// [`voronoi`]: a cell belongs to the player at the strictly smallest move distance; cells at
/// the same smallest distance from two or more players are contested, and so is every cell
/// reached at its distance only through contested cells; every source is an obstacle to all
/// players; a cell that is a source of two players is contested. Sources need not be passable.
///
/// With step moves (`Four`, `Eight`) this is one BFS from every source at once carrying an
/// owner per cell (the word-frontier engine of
/// [`distance_map`](crate::algo::distance::distance_map)): its
/// time does not depend on the number of players, and no plane per player is ever built (a
/// [`Voronoi`] with a thousand players on a large grid holds a thousand grids). Sliding moves
/// (`Rook`, `Bishop`, `Queen`) use the whole-grid engine of [`voronoi`], one plane per player.
/// With the feature `parallel` and a second thread in the pool, grids of 1 Mi cells and more
/// have their owners written by the second thread while the first runs the BFS (see
/// [`crate::parallel`]).
///
/// No distance map is written ([`Owners::distances`] is `None`):
/// [`voronoi_owners_with_distances`] writes one as well, which on a large grid costs about
/// what the owners cost.
///
/// ```
/// use gridbits::algo::voronoi::{voronoi_owners, Owners};
/// use gridbits::{BitGrid, Moves};
/// let free = BitGrid::full(5, 1);
/// let o = voronoi_owners(&[vec![(0, 0)], vec![(4, 0)]], &free, Moves::Four, None);
/// assert_eq!(o.counts(), [2, 2]);
/// assert!(o.is_contested(2, 0));
/// assert_eq!(o.owner(1, 0), Some(0));
/// assert_eq!(o.as_slice()[2], Owners::CONTESTED);
/// assert_eq!(o.depth(), 2);
/// ```
///
/// # Panics
///
/// If a source lies off the grid or a connection mask differs in size from `passable`
/// ([`try_voronoi_owners`] returns an error instead).
pub fn voronoi_owners<S: AsRef<[(usize, usize)]>>(
    players: &[S],
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
) -> Owners {
    try_voronoi_owners(players, passable, moves, con).unwrap_or_else(|e| panic!("{e}"))
}

/// [`voronoi_owners`] with the distance map: [`Owners::distances`] holds every cell's
/// distance from its nearest source (the depth at which it was claimed).
///
/// ```
/// use gridbits::algo::voronoi::voronoi_owners_with_distances;
/// use gridbits::{BitGrid, Moves};
/// let free = BitGrid::full(5, 1);
/// let o = voronoi_owners_with_distances(&[[(0, 0)], [(4, 0)]], &free, Moves::Four, None);
/// let d = o.distances().unwrap();
/// assert_eq!((d.get(2, 0), d.get(3, 0)), (Some(2), Some(1)));
/// assert!(o.is_contested(2, 0));
/// ```
///
/// # Panics
///
/// As [`voronoi_owners`] ([`try_voronoi_owners_with_distances`] returns an error instead).
pub fn voronoi_owners_with_distances<S: AsRef<[(usize, usize)]>>(
    players: &[S],
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
) -> Owners {
    try_voronoi_owners_with_distances(players, passable, moves, con)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// [`voronoi_owners`] that returns an error instead of panicking when a source lies off the
/// grid or a connection mask differs in size from `passable`, or aborting when the owner
/// array and the working memory (the BFS's, about 1.3 bytes per cell; with sliding moves two
/// grids per player) cannot be allocated (checked with `try_reserve` before any work).
///
/// ```
/// use gridbits::algo::voronoi::try_voronoi_owners;
/// use gridbits::{BitGrid, GridError, Moves};
/// let free = BitGrid::full(3, 3);
/// let err = try_voronoi_owners(&[[(3, 0)]], &free, Moves::Four, None).unwrap_err();
/// assert!(matches!(err, GridError::OffGrid(_)));
/// assert_eq!(err.to_string(), "cell (3, 0) is off the 3x3 grid");
/// ```
pub fn try_voronoi_owners<S: AsRef<[(usize, usize)]>>(
    players: &[S],
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
) -> Result<Owners, GridError> {
    owners(players, passable, moves, con, false)
}

/// [`voronoi_owners_with_distances`] that returns an error as [`try_voronoi_owners`] does
/// (the distance map is checked and reserved with the owner array).
///
/// ```
/// use gridbits::algo::voronoi::try_voronoi_owners_with_distances;
/// use gridbits::{BitGrid, GridError, Moves};
/// let free = BitGrid::full(3, 3);
/// let wide = BitGrid::full(4, 3);
/// let con = gridbits::algo::distance::connections_from_walls(&wide, &[]);
/// let err = try_voronoi_owners_with_distances(&[[(0, 0)]], &free, Moves::Four, Some(&con));
/// assert!(matches!(err, Err(GridError::Mismatch(_))));
/// ```
pub fn try_voronoi_owners_with_distances<S: AsRef<[(usize, usize)]>>(
    players: &[S],
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
) -> Result<Owners, GridError> {
    owners(players, passable, moves, con, true)
}

/// [`try_voronoi_owners`], and the distance map when `with_distances`.
fn owners<S: AsRef<[(usize, usize)]>>(
    players: &[S],
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
    with_distances: bool,
) -> Result<Owners, GridError> {
    check_sizes(passable, "a source", &[], con, None)?;
    let (w, h) = (passable.width(), passable.height());
    let memory = GridError::Size;
    // Sliding moves build two planes per player (its sources, its territory) and three more;
    // the count of cells per player takes [`TALLY_BYTES_PER_SLOT`] bytes a player.
    if moves.is_sliding() {
        let planes = (2 * players.len() as u128 + 3) * grid_bytes(w, h);
        check_memory("grid per player (sliding moves)", w, h, planes).map_err(memory)?;
    }
    let working = bfs_working_bytes(w, h) + TALLY_BYTES_PER_SLOT * (players.len() as u128 + 2);
    check_memory("owner array", w, h, working).map_err(memory)?;
    let mut owner = cells_of("owner array", w, h, Owners::UNREACHED).map_err(memory)?;
    let mut distances = if with_distances {
        Some(DistanceMap::try_new(w, h).map_err(memory)?)
    } else {
        None
    };
    let mut seeds = passable.empty_like();
    for (p, cells) in players.iter().enumerate() {
        for &(x, y) in cells.as_ref() {
            OffGrid::check(x, y, w, h)?;
            seeds.set(x, y);
            claim_source(&mut owner[y * w + x], p);
        }
    }
    let depth = if moves.is_sliding() {
        sliding(
            players,
            passable,
            moves,
            con,
            &mut owner,
            distances.as_mut(),
        )
    } else {
        let dist = distances.as_mut().map(|d| &mut d.dist[..]);
        bfs(&seeds, passable, moves, con, dist, Some(&mut owner))
    };
    let (counts, contested) = tally(&owner, players.len());
    // Every reached cell is passable or a source; every source is reached.
    let reached = counts.iter().sum::<u64>() + contested;
    let walled_sources = seeds.and_not(passable).count();
    let unreached = passable.count() - (reached - walled_sources);
    Ok(Owners {
        width: w,
        height: h,
        owner,
        counts,
        contested,
        unreached,
        depth,
        distances,
    })
}

/// Bytes the tally takes per slot (player), at most: in each of two halves eight ways of a
/// `u64` and a count, then the merged count.
const TALLY_BYTES_PER_SLOT: u128 = 2 * (8 * 8 + 8) + 8;

/// Owner arrays of at least this many cells are tallied in two halves side by side, when
/// each half has at least [`TALLY_SPLIT_CELLS_PER_SLOT`] cells per histogram slot.
#[cfg(feature = "parallel")]
const TALLY_SPLIT_CELLS: usize = 1 << 20;

/// Fewest cells per histogram slot (player) in each half for the split to pay: each half
/// zeroes and sums histograms of its own.
#[cfg(feature = "parallel")]
const TALLY_SPLIT_CELLS_PER_SLOT: usize = 16;

/// The cells of each of `players` players and the contested cells of an owner array.
fn tally(owner: &[u32], players: usize) -> (Vec<u64>, u64) {
    // Large arrays with few players per cell: two halves side by side (measured in
    // docs/benchmarks.md). One split only: the histograms are per half.
    #[cfg(feature = "parallel")]
    if owner.len() >= TALLY_SPLIT_CELLS
        && owner.len() / 2 >= TALLY_SPLIT_CELLS_PER_SLOT * (players + 2)
        && crate::parallel::current_threads() >= 2
    {
        let (a, b) = owner.split_at(owner.len() / 2);
        let ((ca, xa), (cb, xb)) =
            crate::parallel::halves(|| tally_one(a, players), || tally_one(b, players));
        return (ca.iter().zip(&cb).map(|(x, y)| x + y).collect(), xa + xb);
    }
    tally_one(owner, players)
}

/// One way per lane: the eight ways of a histogram slot in one cache line.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Ways([u64; 8]);

/// [`tally`] on one thread. Eight interleaved histograms, so that a run of cells of one
/// owner does not wait on the increment before; the codes map to slots without a branch
/// (unpredictable where territories meet).
fn tally_one(owner: &[u32], players: usize) -> (Vec<u64>, u64) {
    const WAYS: usize = 8;
    // Slots: contested cells (the code plus two wraps to 0), unreached cells (1), then the
    // players (`2..players + 2`).
    let n = players + 2;
    let slot = |o: u32| (o.wrapping_add(2) as usize).min(n - 1);
    let mut hist = vec![Ways::default(); n];
    let mut groups = owner.chunks_exact(WAYS);
    for g in &mut groups {
        for (way, &o) in g.iter().enumerate() {
            hist[slot(o)].0[way] += 1;
        }
    }
    for &o in groups.remainder() {
        hist[slot(o)].0[0] += 1;
    }
    let total = |i: usize| hist[i].0.iter().sum::<u64>();
    let counts = (2..n).map(total).collect();
    (counts, total(0))
}

/// Sliding moves: the whole-grid engine with one plane per player, turned into owners.
fn sliding<S: AsRef<[(usize, usize)]>>(
    players: &[S],
    passable: &BitGrid,
    moves: Moves,
    con: Option<&Connections<BitGrid>>,
    owner: &mut [u32],
    mut distances: Option<&mut DistanceMap>,
) -> u32 {
    let planes: Vec<BitGrid> = players
        .iter()
        .map(|cells| {
            let mut g = passable.empty_like();
            for &(x, y) in cells.as_ref() {
                g.set(x, y);
            }
            g
        })
        .collect();
    let w = passable.width();
    let v = voronoi_with(&planes, passable, moves, con, |d, cells| {
        if let Some(map) = distances.as_deref_mut() {
            map.paint(cells, d);
        }
    });
    for (p, plane) in v.owned.iter().enumerate() {
        for (x, y) in plane.iter() {
            owner[y * w + x] = p as u32;
        }
    }
    for (x, y) in v.contested.iter() {
        owner[y * w + x] = Owners::CONTESTED;
    }
    v.depth
}
