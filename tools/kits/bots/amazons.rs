// gridbits CodinGame kit: amazons (Game of the Amazons: move generation, territory evaluation).
//
// The game: CodinGame "Amazons" (an 8 x 8 board). Input, first line: `boardSize`. Then every
// turn: your colour (`w` or `b`), boardSize lines of the board, top row first (`.` empty, `w`
// white, `b` black, `-` wall), the opponent's last action (`null` on the first turn), and the
// number of legal actions. Output, every turn: the amazon's square, where it goes and where it
// shoots its wall, e.g. `d8d1d7` (columns a, b, ... from the left; row 1 is the bottom line,
// as in chess; the bot checks that against the opponent's last action, whose squares must
// hold an opponent amazon and a wall, and numbers rows from the top if only that fits).
//
// The library's Position is 10 x 10; a smaller board is the same game on a 10 x 10 board
// whose extra rows and columns hold walls, so its move generator and evaluation are used
// unchanged. The bot plays the move after which the queen-distance territory (cells a side
// reaches in fewer queen moves) favours it most, king-distance territory breaking ties.
// The library is the module `gridbits` above: use it as `gridbits::...`, as you would the crate.

use gridbits::games::amazons::{Move, Position, Side};
use gridbits::Board10x10;
use std::io::{self, BufRead, Write};

/// The square `(x, y)` (`y` from the top) of an `n x n` board in algebraic notation: row 1
/// is the bottom line, or the top line when `top_is_1`.
fn square(n: usize, top_is_1: bool, (x, y): (u8, u8)) -> String {
    let row = if top_is_1 {
        y as usize + 1
    } else {
        n - y as usize
    };
    format!("{}{}", (b'a' + x) as char, row)
}

/// The squares of an action such as `d8d1d7`, as (column, row number).
fn parse_action(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut squares = Vec::new();
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_lowercase() {
        let mut j = i + 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        match text[i + 1..j].parse::<usize>() {
            Ok(row) => squares.push(((b[i] - b'a') as usize, row)),
            Err(_) => return Vec::new(),
        }
        i = j;
    }
    squares
}

/// Whether the opponent's last action fits the board with rows numbered from the top and not
/// from the bottom: its landing square holds an opponent amazon and its wall square a wall.
fn rows_from_top(rows: &[Vec<u8>], opponent: u8, action: &str) -> bool {
    let sq = parse_action(action.trim());
    let n = rows.len();
    let fits = |top: bool| {
        sq.len() == 3 && sq.iter().all(|&(x, r)| x < n && (1..=n).contains(&r)) && {
            let at = |(x, r): (usize, usize)| rows[if top { r - 1 } else { n - r }].get(x).copied();
            at(sq[1]) == Some(opponent) && at(sq[2]) == Some(b'-')
        }
    };
    fits(true) && !fits(false)
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
    let mut top_is_1 = false;
    loop {
        let Some(color) = lines.next() else { return };
        let side = if color.trim() == "b" {
            Side::Black
        } else {
            Side::White
        };
        let (mut white, mut black, mut walls) =
            (Board10x10::EMPTY, Board10x10::EMPTY, Board10x10::EMPTY);
        let rows: Vec<Vec<u8>> = (0..n)
            .map(|_| lines.next().unwrap_or_default().trim().as_bytes().to_vec())
            .collect();
        for y in 0..10 {
            let row = rows.get(y).map_or(&[][..], |r| &r[..]);
            for x in 0..10 {
                match row.get(x).filter(|_| x < n && y < n) {
                    Some(b'w') => white.set(x, y),
                    Some(b'b') => black.set(x, y),
                    Some(b'.') => {}
                    _ => walls.set(x, y),
                }
            }
        }
        let last_action = lines.next().unwrap_or_default();
        let opponent = if side == Side::White { b'b' } else { b'w' };
        top_is_1 |= rows_from_top(&rows, opponent, &last_action);
        let _actions = lines.next();
        let mv = Position::try_new(white, black, walls)
            .ok()
            .and_then(|p| choose(&p, side));
        let text = match mv {
            Some(m) => format!(
                "{}{}{}",
                square(n, top_is_1, m.from),
                square(n, top_is_1, m.to),
                square(n, top_is_1, m.arrow)
            ),
            None => "a1a1a1".to_string(), // no legal move: the game is lost anyway
        };
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}
