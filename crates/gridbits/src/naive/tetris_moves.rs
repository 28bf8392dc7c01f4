//! The Tetris move generator written the way bots write it: a breadth-first search over
//! states `(x, y, rotation, how the state was entered)` with a `HashSet`-like map, one input
//! at a time, the kick tables transcribed from the guideline (`y` up) and the three-corner
//! rule checked cell by cell. The reference of
//! [`Tetris::moves_with`](crate::games::tetris::Tetris::moves_with) and
//! [`moves_with_inputs`](crate::games::tetris::Tetris::moves_with_inputs).
//!
//! ```
//! use gridbits::games::tetris::Piece;
//! use gridbits::naive::tetris::NaiveTetris;
//! use gridbits::naive::tetris_moves::naive_moves;
//! let t = NaiveTetris::new(10, 40);
//! assert_eq!(naive_moves(&t, Piece::T, false, None).len(), 34);
//! ```

use crate::games::tetris::{Piece, Placement, Rotation, Spin};
use crate::naive::tetris::NaiveTetris;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};

/// Guideline SRS kicks for J L S T Z, `(x, y up)`, by `(from, to)`.
fn jlstz(from: usize, to: usize) -> [(i32, i32); 5] {
    match (from, to) {
        (0, 1) => [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
        (1, 0) => [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
        (1, 2) => [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
        (2, 1) => [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
        (2, 3) => [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
        (3, 2) => [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
        (3, 0) => [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
        (0, 3) => [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
        _ => unreachable!("not a quarter turn"),
    }
}

/// Guideline SRS kicks for I, `(x, y up)`, by `(from, to)`.
fn i_kicks(from: usize, to: usize) -> [(i32, i32); 5] {
    match (from, to) {
        (0, 1) => [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
        (1, 0) => [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
        (1, 2) => [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
        (2, 1) => [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
        (2, 3) => [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
        (3, 2) => [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
        (3, 0) => [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
        (0, 3) => [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
        _ => unreachable!("not a quarter turn"),
    }
}

/// The kick tests `(dx, dy down)` from `from` to `to` (a quarter or half turn).
pub fn naive_kicks(piece: Piece, from: usize, to: usize) -> Vec<(i32, i32)> {
    if piece == Piece::O || (from + 2) % 4 == to {
        return vec![(0, 0)];
    }
    let t = if piece == Piece::I {
        i_kicks(from, to)
    } else {
        jlstz(from, to)
    };
    t.iter().map(|&(x, y)| (x, -y)).collect()
}

/// One input and its effect, as the search sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Entered {
    /// Spawned, moved or dropped.
    Moved,
    /// Rotated with kick test `k`.
    Rotated(usize),
}

type State = (i32, i32, usize, Entered);

/// Per cell set: `(orientation, x, y)` to report, best spin, fewest inputs for it.
type Best = ((usize, i32, i32), Spin, usize);

/// Whether `(x, y)` is filled or outside.
fn solid(t: &NaiveTetris, x: i32, y: i32) -> bool {
    x < 0
        || y < 0
        || x >= t.lines.width() as i32
        || y >= t.lines.height() as i32
        || t.lines.get(x as usize, y as usize)
}

/// The T-spin kind of a T locked at `(x, y)` in `rotation` after entering it `how`.
fn spin_of(t: &NaiveTetris, piece: Piece, x: i32, y: i32, rotation: usize, how: Entered) -> Spin {
    let Entered::Rotated(test) = how else {
        return Spin::None;
    };
    if piece != Piece::T {
        return Spin::None;
    }
    let tl = solid(t, x, y);
    let tr = solid(t, x + 2, y);
    let bl = solid(t, x, y + 2);
    let br = solid(t, x + 2, y + 2);
    let n = [tl, tr, bl, br].iter().filter(|&&c| c).count();
    if n < 3 {
        return Spin::None;
    }
    let front = match rotation {
        0 => tl && tr,
        1 => tr && br,
        2 => bl && br,
        _ => tl && bl,
    };
    if front || test == 4 {
        Spin::Full
    } else {
        Spin::Mini
    }
}

/// A successor: `(x, y, rotation, kick test if it was a rotation)`.
pub type NextState = (i32, i32, usize, Option<usize>);

/// The successors of `(x, y, r)`: `(x, y, r, how entered)` in the order left, right, down,
/// drop, cw, ccw, 180 (when `half`), each with its input name.
pub fn naive_next(
    t: &NaiveTetris,
    piece: Piece,
    half: bool,
    (x, y, r): (i32, i32, usize),
) -> Vec<(NextState, &'static str)> {
    let rot = Rotation::ALL[r];
    let mut out = Vec::new();
    if t.fits(piece, rot, x - 1, y) {
        out.push(((x - 1, y, r, None), "left"));
    }
    if t.fits(piece, rot, x + 1, y) {
        out.push(((x + 1, y, r, None), "right"));
    }
    if t.fits(piece, rot, x, y + 1) {
        out.push(((x, y + 1, r, None), "down"));
        let mut land = y + 1;
        while t.fits(piece, rot, x, land + 1) {
            land += 1;
        }
        out.push(((x, land, r, None), "drop"));
    }
    if piece != Piece::O {
        let mut turns = vec![((r + 1) % 4, "cw"), ((r + 3) % 4, "ccw")];
        if half {
            turns.push(((r + 2) % 4, "180"));
        }
        for (to, name) in turns {
            for (k, (dx, dy)) in naive_kicks(piece, r, to).into_iter().enumerate() {
                if t.fits(piece, Rotation::ALL[to], x + dx, y + dy) {
                    out.push(((x + dx, y + dy, to, Some(k)), name));
                    break;
                }
            }
        }
    }
    out
}

/// The spawn `(x, y)` of the guideline rule: box column `(width - box) / 2`, row
/// `height - 22` (the top row on short matrices), one row up when blocked.
pub fn naive_spawn(t: &NaiveTetris, piece: Piece) -> Option<(i32, i32)> {
    let b = piece.box_size() as i32;
    let x = (t.lines.width() as i32 - b).div_euclid(2);
    let mut y = t.lines.height() as i32 - 22;
    let top = if piece == Piece::I { -1 } else { 0 };
    if y < top {
        y = top;
    }
    [(x, y), (x, y - 1)]
        .into_iter()
        .find(|&(x, y)| t.fits(piece, Rotation::Spawn, x, y))
}

/// The lowest orientation (and its `(x, y)`) in which the piece covers exactly `cells`
/// (sorted), searched near the cells.
fn canonical(piece: Piece, cells: &[(i32, i32)]) -> Option<(usize, i32, i32)> {
    let (x0, y0) = cells[0];
    for r in 0..4 {
        for x in x0 - 4..=x0 + 4 {
            for y in y0 - 4..=y0 + 4 {
                let mut c: Vec<(i32, i32)> = piece
                    .cells(Rotation::ALL[r])
                    .iter()
                    .map(|&(dx, dy)| (x + dx, y + dy))
                    .collect();
                c.sort();
                if c == cells {
                    return Some((r, x, y));
                }
            }
        }
    }
    None
}

/// Every final placement with its best spin and the fewest inputs that lock it with that
/// spin, by a breadth-first search over `(x, y, rotation, how entered)`. Placements with the
/// same cells are one, reported in the lowest orientation; ordered by orientation, `x`, `y`.
/// `start` is `(rotation, x, y)`, or the spawn; the blocked rule (one row up) applies to it.
pub fn naive_moves_dist(
    t: &NaiveTetris,
    piece: Piece,
    half: bool,
    start: Option<(Rotation, i32, i32)>,
) -> Vec<(Placement, usize)> {
    let start = match start {
        None => naive_spawn(t, piece).map(|(x, y)| (x, y, 0)),
        Some((r, x, y)) => [(x, y), (x, y - 1)]
            .into_iter()
            .find(|&(x, y)| t.fits(piece, r, x, y))
            .map(|(x, y)| (x, y, r.index())),
    };
    let Some((sx, sy, sr)) = start else {
        return Vec::new();
    };
    let mut dist: HashMap<State, usize> = HashMap::new();
    let mut queue = VecDeque::new();
    let s: State = (sx, sy, sr, Entered::Moved);
    dist.insert(s, 0);
    queue.push_back(s);
    while let Some(st) = queue.pop_front() {
        let d = dist[&st];
        for ((x, y, r, kick), _) in naive_next(t, piece, half, (st.0, st.1, st.2)) {
            let how = kick.map_or(Entered::Moved, Entered::Rotated);
            let n = (x, y, r, how);
            if let Entry::Vacant(e) = dist.entry(n) {
                e.insert(d + 1);
                queue.push_back(n);
            }
        }
    }
    // Per cell set: (lowest orientation, x, y), best spin, fewest inputs for it.
    let mut best: HashMap<Vec<(i32, i32)>, Best> = HashMap::new();
    for (&(x, y, r, how), &d) in &dist {
        let rot = Rotation::ALL[r];
        if t.fits(piece, rot, x, y + 1) {
            continue;
        }
        let spin = spin_of(t, piece, x, y, r, how);
        let mut cells: Vec<(i32, i32)> = piece
            .cells(rot)
            .iter()
            .map(|&(dx, dy)| (x + dx, y + dy))
            .collect();
        cells.sort();
        let canon = canonical(piece, &cells).unwrap_or((r, x, y));
        let e = best.entry(cells).or_insert((canon, spin, d));
        if spin > e.1 || (spin == e.1 && d < e.2) {
            e.1 = spin;
            e.2 = d;
        }
    }
    let mut out: Vec<(Placement, usize)> = best
        .into_values()
        .map(|((r, x, y), spin, d)| {
            (
                Placement {
                    piece,
                    rotation: Rotation::ALL[r],
                    x,
                    y,
                    spin,
                },
                d,
            )
        })
        .collect();
    out.sort_by_key(|(p, _)| (p.rotation, p.x, p.y));
    out
}

/// [`naive_moves_dist`] without the distances.
pub fn naive_moves(
    t: &NaiveTetris,
    piece: Piece,
    half: bool,
    start: Option<(Rotation, i32, i32)>,
) -> Vec<Placement> {
    naive_moves_dist(t, piece, half, start)
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

/// Plays `inputs` (names as [`naive_next`] gives them) from `(x, y, rotation)`: the final
/// `(x, y, rotation)` and the spin a lock there scores, or `None` when an input cannot be
/// played.
pub fn naive_play(
    t: &NaiveTetris,
    piece: Piece,
    half: bool,
    from: (i32, i32, usize),
    inputs: &[&str],
) -> Option<((i32, i32, usize), Spin)> {
    let mut at = from;
    let mut how = Entered::Moved;
    for &name in inputs {
        let ((x, y, r, kick), _) = naive_next(t, piece, half, at)
            .into_iter()
            .find(|&(_, n)| n == name)?;
        at = (x, y, r);
        how = kick.map_or(Entered::Moved, Entered::Rotated);
    }
    Some((at, spin_of(t, piece, at.0, at.1, at.2, how)))
}
