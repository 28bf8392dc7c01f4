//! A Tron (light cycles) bot that picks each move by Voronoi territory.
//!
//! Four bots play on the 30 x 20 CodinGame arena. Every turn each living bot tries its four
//! moves and keeps the one after which it owns the most cells, counting a cell as its own when
//! it reaches it strictly before every other head (contested cells count for nobody). A trail
//! is a wall; a bot that cannot move dies and its trail is removed.
//!
//! Run: `cargo run --release --example tron_voronoi`

use gridbits::algo::voronoi::voronoi_n;
use gridbits::{Board30x20, Dir, Moves};

const PLAYERS: usize = 4;

fn main() {
    let starts = [(3, 3), (26, 16), (26, 3), (3, 16)];
    let mut heads: [Option<(usize, usize)>; PLAYERS] = starts.map(Some);
    let mut trails = [Board30x20::EMPTY; PLAYERS];
    for (p, &(x, y)) in starts.iter().enumerate() {
        trails[p].set(x, y);
    }
    let mut turn = 0;
    let start = std::time::Instant::now();
    let mut evaluations = 0u64;
    while heads.iter().flatten().count() > 1 && turn < 600 {
        for p in 0..PLAYERS {
            let Some(head) = heads[p] else { continue };
            let walls = trails.iter().fold(Board30x20::EMPTY, |a, &t| a | t);
            let free = !walls;
            // Every other head stays where it is for this look-ahead.
            let mut best: Option<(i64, (usize, usize))> = None;
            for dir in Dir::ORTHOGONAL {
                let Some(next) = gridbits::dir::step(head.0, head.1, dir, 1, 30, 20) else {
                    continue;
                };
                if walls.get(next.0, next.1) {
                    continue;
                }
                let mut sources = [Board30x20::EMPTY; PLAYERS];
                for (q, h) in heads.iter().enumerate() {
                    if let Some((x, y)) = if q == p { Some(next) } else { *h } {
                        sources[q].set(x, y);
                    }
                }
                let passable = free.and_not(Board30x20::cell(next.0, next.1));
                let v = voronoi_n(&sources, &passable, Moves::Four, None);
                evaluations += 1;
                let mine = v.owned[p].count() as i64;
                let theirs = (0..PLAYERS)
                    .filter(|&q| q != p)
                    .map(|q| v.owned[q].count() as i64)
                    .max()
                    .unwrap_or(0);
                let score = 2 * mine - theirs;
                if best.is_none_or(|(s, _)| score > s) {
                    best = Some((score, next));
                }
            }
            match best {
                Some((_, next)) => {
                    trails[p].set(next.0, next.1);
                    heads[p] = Some(next);
                }
                None => {
                    println!("turn {turn}: player {p} is boxed in and leaves the game");
                    heads[p] = None;
                    trails[p] = Board30x20::EMPTY;
                }
            }
        }
        turn += 1;
    }
    let elapsed = start.elapsed();
    println!();
    for y in 0..20 {
        let row: String = (0..30)
            .map(|x| {
                let owner = (0..PLAYERS).find(|&p| trails[p].get(x, y));
                match owner {
                    Some(p) if heads[p] == Some((x, y)) => (b'A' + p as u8) as char,
                    Some(p) => (b'a' + p as u8) as char,
                    None => '.',
                }
            })
            .collect();
        println!("{row}");
    }
    let alive: Vec<char> = (0..PLAYERS)
        .filter(|&p| heads[p].is_some())
        .map(|p| (b'A' + p as u8) as char)
        .collect();
    println!(
        "\nafter {turn} turns alive: {alive:?}; {evaluations} Voronoi evaluations in {:.1} ms ({:.2} us each)",
        elapsed.as_secs_f64() * 1e3,
        elapsed.as_secs_f64() * 1e6 / evaluations.max(1) as f64
    );
}
