// gridbits CodinGame kit: puyo (Smash the Code: field, pair placements, chain simulation).
//
// The game: CodinGame "Smash the Code" (6 x 12 fields, pairs of colours 1 to 5, skulls 0).
// Input, every turn: 8 lines `colorA colorB` (the pair to play, then the next 7), your score,
// 12 lines of your field (top row first: `.` empty, `0` skull, `1`-`5` colours), the
// opponent's score, 12 lines of the opponent's field. Output, every turn: `column rotation`,
// the column of colour A and where B goes: 0 right of A, 1 above, 2 left, 3 below.
//
// The bot: a two-pair look-ahead. Every placement of the first pair (`Field::placements`,
// each with the chain it fires, simulated bit-parallel) is followed by the best placement of
// the next pair; a move is worth its chain score, half the best next score, and a little for
// same-colour neighbours it leaves (chain material) and low stacks. The library is the module
// `gridbits` above: use it as `gridbits::...`, as you would the crate.

use gridbits::games::puyo::{Field, Pair, Rules, COLUMNS};
use std::io::{self, BufRead, Write};

const ROWS: usize = 12;

/// Same-colour neighbour pairs minus the height of the tallest column, as a tie-breaker.
fn shape(field: &Field) -> i64 {
    let mut links = 0;
    for y in 0..ROWS {
        for x in 0..COLUMNS {
            let c = field.char_at(x, y);
            if !(b'1'..=b'5').contains(&c) {
                continue;
            }
            links += (x + 1 < COLUMNS && field.char_at(x + 1, y) == c) as i64;
            links += (y + 1 < ROWS && field.char_at(x, y + 1) == c) as i64;
        }
    }
    let tallest = (0..COLUMNS)
        .map(|x| field.column_height(x))
        .max()
        .unwrap_or(0) as i64;
    let danger = if tallest >= 10 { 50 } else { 0 };
    links * 2 - tallest - danger
}

/// The best move for `pairs[0]` on `field`: (column, rotation), or None when the field is full.
fn choose(field: &Field, pairs: &[Pair]) -> Option<(usize, u8)> {
    let mut best: Option<(i64, (usize, u8))> = None;
    for p in field.placements(pairs[0]) {
        let now = p.chain.score as i64;
        let after = p.chain.field;
        let next = pairs
            .get(1)
            .and_then(|&pair| {
                after
                    .placements(pair)
                    .iter()
                    .map(|q| q.chain.score as i64 * 1000 + shape(&q.chain.field))
                    .max()
            })
            .unwrap_or(-100_000);
        let value = now * 1000 + next / 2 + shape(&after);
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((value, (p.column, p.rotation)));
        }
    }
    best.map(|(_, m)| m)
}

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().map_while(Result::ok);
    let mut out = io::stdout();
    loop {
        let mut pairs = Vec::new();
        for _ in 0..8 {
            let Some(l) = lines.next() else { return };
            let c: Vec<u8> = l
                .split_whitespace()
                .filter_map(|t| t.parse().ok())
                .collect();
            if c.len() == 2 && (1..=5).contains(&c[0]) && (1..=5).contains(&c[1]) {
                pairs.push(Pair::new(c[0] - 1, c[1] - 1));
            }
        }
        let mut fields = Vec::new();
        for _ in 0..2 {
            let _score = lines.next();
            let mut text = String::new();
            for _ in 0..ROWS {
                let Some(l) = lines.next() else { return };
                text.push_str(l.trim());
                text.push('\n');
            }
            fields.push(
                Field::parse(&text, Rules::SmashTheCode).unwrap_or(Field::new(Rules::SmashTheCode)),
            );
        }
        let mv = if pairs.is_empty() {
            None
        } else {
            choose(&fields[0], &pairs)
        };
        let (column, rotation) = mv.unwrap_or((0, 1));
        let _ = writeln!(out, "{column} {rotation}");
        let _ = out.flush();
    }
}
