// gridbits CodinGame kit: tetris (the matrix, SRS rotation with kicks, reachable placements).
//
// CodinGame has no standard Tetris game, so this kit reads a small documented format in the
// style of CodinGame's referees. Input, first line: `width height` (width 10; height 1 to 64).
// Then every turn: a line with the current piece and the preview, as letters of `IOTSZJL`
// (e.g. `T O S`), and `height` lines of the matrix, top row first (`.` empty, any other
// character filled). Output, every turn: `rotation x y`, where the piece locks: its rotation
// (`0` spawn, `R` clockwise, `2`, `L`) and the top-left corner of its SRS box (x from the left,
// y from the top; the box is 4 x 4 for I, 2 x 2 for O, 3 x 3 otherwise, with the guideline
// shapes). Only placements the piece can reach from its spawn by shifts, soft drops and SRS
// rotations (kicks included) are played; `Tetris::moves` lists them all, T-spins included.
//
// The bot: every placement of the current piece, followed by the best placement of the
// first preview piece, is scored with the usual features (lines cleared, aggregate height,
// holes, bumpiness). The library is the module `gridbits` above: use it as `gridbits::...`,
// as you would the crate.

use gridbits::games::tetris::{Piece, Placement, Tetris};
use std::io::{self, BufRead, Write};

const W: usize = 10;

/// The matrix after `p` locks, and its value.
fn after(t: &Tetris<W>, p: &Placement) -> (Tetris<W>, f64) {
    let mut next = *t;
    let lines = next.place(p.piece, p.rotation, p.x, p.y).unwrap_or(0);
    let height: u32 = next.heights().iter().sum();
    let value = 0.76 * lines as f64
        - 0.51 * height as f64
        - 0.36 * next.holes() as f64
        - 0.18 * next.bumpiness() as f64;
    (next, value)
}

/// The best placement of `pieces[0]`, looking one preview piece ahead.
fn choose(t: &Tetris<W>, pieces: &[Piece]) -> Option<Placement> {
    let mut best: Option<(f64, Placement)> = None;
    for p in t.moves(pieces[0]) {
        let (next, now) = after(t, &p);
        let ahead = pieces
            .get(1)
            .map(|&q| {
                next.moves(q)
                    .iter()
                    .map(|m| after(&next, m).1)
                    .fold(f64::MIN, f64::max)
            })
            .filter(|v| *v > f64::MIN)
            .unwrap_or(now - 100.0);
        let value = now + ahead;
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((value, p));
        }
    }
    best.map(|(_, p)| p)
}

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().map_while(Result::ok);
    let mut out = io::stdout();
    let Some(first) = lines.next() else { return };
    let size: Vec<usize> = first
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect();
    let height = size.get(1).copied().unwrap_or(20).clamp(1, 64);
    while let Some(line) = lines.next() {
        let pieces: Vec<Piece> = line
            .split_whitespace()
            .filter_map(|t| t.chars().next())
            .filter_map(Piece::from_char)
            .collect();
        let mut t = Tetris::<W>::new(height);
        for y in 0..height {
            let row = lines.next().unwrap_or_default();
            for (x, c) in row.bytes().take(W).enumerate() {
                if c != b'.' {
                    t.board_mut().set(x, y);
                }
            }
        }
        let text = match pieces.first().and_then(|_| choose(&t, &pieces)) {
            Some(p) => format!("{} {} {}", p.rotation, p.x, p.y),
            None => "0 0 0".to_string(), // no placement: the game is over anyway
        };
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}
