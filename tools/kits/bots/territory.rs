// gridbits CodinGame kit: territory (Tron Battle, and any game on a fixed board: fill,
// distance layers, Voronoi).
//
// The game: CodinGame "Tron Battle" (light cycles on a 30 x 20 grid, 2 to 4 players).
// Input, every turn: a line `N P` (number of players, your player number), then N lines
// `X0 Y0 X1 Y1` (the cell a player's trail started from and its head; all four -1 once the
// player is out, whose trail then disappears). Output, every turn: UP, DOWN, LEFT or RIGHT.
//
// The bot: every cell a head has been on is a wall. For each legal step it counts the cells it
// would own by Voronoi (reached strictly before every other head, `voronoi_n`); when no other
// head can reach it any more it counts the cells its flood fill reaches instead (`fill`); ties
// go to the step nearer to the closest opponent (BFS `layers`). The library is the module
// `gridbits` above: use it as `gridbits::...`, as you would the crate.

use gridbits::algo::distance::layers;
use gridbits::algo::fill::fill;
use gridbits::algo::voronoi::voronoi_n;
use gridbits::{Board30x20, Connectivity, Dir, Moves};
use std::io::{self, BufRead, Write};

const W: usize = 30;
const H: usize = 20;
const MAX_PLAYERS: usize = 4;

/// The cell one step from `(x, y)` towards `dir`, if it is on the grid.
fn step(x: usize, y: usize, dir: Dir) -> Option<(usize, usize)> {
    gridbits::dir::step(x, y, dir, 1, W, H)
}

/// The best step for player `me`: its direction, or None when every step is blocked.
fn choose(
    trails: &[Board30x20; MAX_PLAYERS],
    heads: &[Option<(usize, usize)>; MAX_PLAYERS],
    me: usize,
) -> Option<Dir> {
    let (hx, hy) = heads[me]?;
    let walls = trails.iter().fold(Board30x20::EMPTY, |a, &t| a | t);
    let mut best: Option<((i64, i64), Dir)> = None;
    for dir in Dir::ORTHOGONAL {
        let Some((nx, ny)) = step(hx, hy, dir) else {
            continue;
        };
        if walls.get(nx, ny) {
            continue;
        }
        let next = Board30x20::cell(nx, ny);
        let free = !(walls | next);
        let mut sources = [Board30x20::EMPTY; MAX_PLAYERS];
        let mut others = Board30x20::EMPTY;
        for (p, h) in heads.iter().enumerate() {
            match (p == me, h) {
                (true, _) => sources[p] = next,
                (false, Some((x, y))) => {
                    sources[p] = Board30x20::cell(*x, *y);
                    others |= sources[p];
                }
                (false, None) => {}
            }
        }
        // The region I can still reach from the new head, and whether an opponent touches it.
        let region = fill(&next, &(free | next), Connectivity::Four);
        let touching = region
            .dilate_within(Connectivity::Four, free | others)
            .intersects(others);
        let area = if touching {
            let v = voronoi_n(&sources, &free, Moves::Four, None);
            let theirs = (0..MAX_PLAYERS)
                .filter(|&p| p != me)
                .map(|p| v.owned[p].count())
                .max()
                .unwrap_or(0);
            2 * v.owned[me].count() as i64 - theirs as i64
        } else {
            1000 + region.count() as i64
        };
        // Distance to the nearest opponent head (closer is better while fighting).
        let near = layers(&next, &(free | others), Moves::Four, None)
            .find(|(_, front)| front.intersects(others))
            .map_or(0, |(d, _)| -(d as i64));
        let score = (area, near);
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, dir));
        }
    }
    best.map(|(_, d)| d)
}

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().map_while(Result::ok);
    let mut out = io::stdout();
    let mut trails = [Board30x20::EMPTY; MAX_PLAYERS];
    let mut heads = [None; MAX_PLAYERS];
    let num = |s: &str| s.trim().parse::<i64>().unwrap_or(-1);
    while let Some(line) = lines.next() {
        let v: Vec<i64> = line.split_whitespace().map(num).collect();
        if v.len() < 2 {
            continue;
        }
        let (n, me) = (
            v[0].clamp(0, MAX_PLAYERS as i64) as usize,
            v[1].max(0) as usize,
        );
        for p in 0..n {
            let Some(l) = lines.next() else { return };
            let c: Vec<i64> = l.split_whitespace().map(num).collect();
            if c.len() < 4 || c[2] < 0 {
                trails[p] = Board30x20::EMPTY;
                heads[p] = None;
                continue;
            }
            for (x, y) in [(c[0], c[1]), (c[2], c[3])] {
                if (0..W as i64).contains(&x) && (0..H as i64).contains(&y) {
                    trails[p].set(x as usize, y as usize);
                }
            }
            heads[p] = Some((c[2] as usize, c[3] as usize));
        }
        let dir = choose(&trails, &heads, me.min(MAX_PLAYERS - 1)).unwrap_or(Dir::N);
        let word = match dir {
            Dir::N => "UP",
            Dir::S => "DOWN",
            Dir::W => "LEFT",
            _ => "RIGHT",
        };
        let _ = writeln!(out, "{word}");
        let _ = out.flush();
    }
}
