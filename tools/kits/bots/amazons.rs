// gridbits CodinGame kit: amazons (Game of the Amazons: move generation, territory evaluation).
//
// The game: CodinGame "Amazons" (an 8 x 8 board). Input, first line: `boardSize`. Then every
// turn: your colour (`w` or `b`), boardSize lines of the board, top row first (`.` empty, `w`
// white, `b` black, `-` wall), the opponent's last action (`null` on the first turn), and the
// number of legal actions. Output, every turn: the amazon's square, where it goes and where it
// shoots its wall, e.g. `d8d1d7` (columns a, b, ... from the left; row 1 is the bottom line).
//
// The library's Position is 10 x 10; a smaller board is the same game on a 10 x 10 board
// whose extra rows and columns hold walls, so its move generator and evaluation are used
// unchanged. The bot plays the move after which the queen-distance territory (cells a side
// reaches in fewer queen moves) favours it most, king-distance territory breaking ties.
// The library is the module `gridbits` above: use it as `gridbits::...`, as you would the crate.

use gridbits::games::amazons::{Move, Position, Side};
use gridbits::Board10x10;
use std::io::{self, BufRead, Write};

/// The square `(x, y)` (`y` from the top) of an `n x n` board in algebraic notation.
fn square(n: usize, (x, y): (u8, u8)) -> String {
    format!("{}{}", (b'a' + x) as char, n - y as usize)
}

/// The best move of `side`, or None when it has none.
fn choose(pos: &Position, side: Side) -> Option<Move> {
    let mut best: Option<((i64, i64), Move)> = None;
    pos.for_each_move(side, |mv| {
        let e = pos.play(side, mv).evaluate();
        let (q, k) = match side {
            Side::White => (
                e.queen.white as i64 - e.queen.black as i64,
                e.king.white as i64 - e.king.black as i64,
            ),
            Side::Black => (
                e.queen.black as i64 - e.queen.white as i64,
                e.king.black as i64 - e.king.white as i64,
            ),
        };
        if best.is_none_or(|(s, _)| (q, k) > s) {
            best = Some(((q, k), mv));
        }
    });
    best.map(|(_, m)| m)
}

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().map_while(Result::ok);
    let mut out = io::stdout();
    let Some(first) = lines.next() else { return };
    let n: usize = first.trim().parse().unwrap_or(8).clamp(1, 10);
    loop {
        let Some(color) = lines.next() else { return };
        let side = if color.trim() == "b" {
            Side::Black
        } else {
            Side::White
        };
        let (mut white, mut black, mut walls) =
            (Board10x10::EMPTY, Board10x10::EMPTY, Board10x10::EMPTY);
        for y in 0..10 {
            let row = if y < n {
                lines.next().unwrap_or_default()
            } else {
                String::new()
            };
            let row = row.as_bytes();
            for x in 0..10 {
                match row.get(x).filter(|_| x < n && y < n) {
                    Some(b'w') => white.set(x, y),
                    Some(b'b') => black.set(x, y),
                    Some(b'.') => {}
                    _ => walls.set(x, y),
                }
            }
        }
        let _last_action = lines.next();
        let _actions = lines.next();
        let mv = Position::try_new(white, black, walls)
            .ok()
            .and_then(|p| choose(&p, side));
        let text = match mv {
            Some(m) => format!(
                "{}{}{}",
                square(n, m.from),
                square(n, m.to),
                square(n, m.arrow)
            ),
            None => "a1a1a1".to_string(), // no legal move: the game is lost anyway
        };
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}
