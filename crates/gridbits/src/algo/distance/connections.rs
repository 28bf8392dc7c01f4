//! Per-direction connection masks ([`Connections`]), and walls between cells (The Great
//! Escape) turned into them.

use crate::{BitBoard, Dir};

/// Per-direction connection masks, indexed by [`Dir::index`]: a cell may move in direction
/// `d` only where `con[d.index()]` is set.
pub type Connections<B> = [B; 8];

/// A wall on the edge between cell `(x, y)` and its orthogonal neighbour in direction `dir`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wall {
    /// Column of the cell.
    pub x: usize,
    /// Row of the cell.
    pub y: usize,
    /// Which edge of the cell: `N`, `E`, `S` or `W` (diagonals are ignored).
    pub dir: Dir,
}

/// Connection masks for walls between cells (The Great Escape) on a board like `like`.
///
/// `con[d]` holds the cells that may move one step in direction `d`: the neighbour exists and
/// no wall stands on that edge (a wall blocks both ways). A diagonal step is allowed when at
/// least one of the two orthogonal two-step paths around the corner is open. Walls off the
/// board, or with a diagonal `dir`, are ignored.
///
/// ```
/// use gridbits::algo::distance::{connections_from_walls, distance_map, Wall};
/// use gridbits::{Board9x9, Dir, Moves};
/// let walls = [Wall { x: 4, y: 4, dir: Dir::E }];
/// let con = connections_from_walls(&Board9x9::EMPTY, &walls);
/// assert!(!con[Dir::E.index()].get(4, 4) && !con[Dir::W.index()].get(5, 4));
/// let d = distance_map(&Board9x9::cell(4, 4), &Board9x9::FULL, Moves::Four, Some(&con));
/// assert_eq!(d.get(5, 4), Some(3));
/// ```
pub fn connections_from_walls<B: BitBoard>(like: &B, walls: &[Wall]) -> Connections<B> {
    let full = like.full_like();
    // Orthogonal masks: cells whose neighbour in d exists.
    let mut con: Connections<B> = std::array::from_fn(|i| full.shift(Dir::ALL[i].opposite()));
    let (w, h) = (like.width(), like.height());
    for wall in walls {
        if wall.x >= w || wall.y >= h || !Dir::ORTHOGONAL.contains(&wall.dir) {
            continue;
        }
        let Some((nx, ny)) = crate::dir::step(wall.x, wall.y, wall.dir, 1, w, h) else {
            continue;
        };
        con[wall.dir.index()].clear(wall.x, wall.y);
        con[wall.dir.opposite().index()].clear(nx, ny);
    }
    // Diagonals: NE is open from c if (N from c, then E from c+N) or (E from c, then N from c+E).
    for d in Dir::DIAGONAL {
        let (dx, dy) = d.delta();
        let v = if dy < 0 { Dir::N } else { Dir::S };
        let hz = if dx > 0 { Dir::E } else { Dir::W };
        // Cells c whose neighbour c+v may move in hz: shift con[hz] back by v.
        let mut via_v = con[hz.index()].shift(v.opposite());
        via_v.and_assign(&con[v.index()]);
        let mut via_h = con[v.index()].shift(hz.opposite());
        via_h.and_assign(&con[hz.index()]);
        via_v.or_assign(&via_h);
        con[d.index()] = via_v;
    }
    con
}
