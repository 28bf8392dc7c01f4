//! Game of the Amazons: a greedy player that scores every legal move with the min-distance
//! territory evaluation (queen and king distance, both sides, one call per position).
//!
//! From the standard opening each side in turn tries all of its moves (an amazon's queen move,
//! then an arrow shot as a queen move from its new square) and plays the one that leaves the
//! best `queen territory + king territory / 4` difference. It prints each move and how many
//! positions per second the evaluation handles.
//!
//! Run: `cargo run --release --example amazons_eval`

use gridbits::games::amazons::{Position, Side};
use gridbits::Board10x10;

/// A move: the amazon's square, where it goes, where its arrow lands.
type Move = ((usize, usize), (usize, usize), (usize, usize));

fn square(x: usize, y: usize) -> String {
    // Algebraic: files a-j from the left, ranks 1-10 from the bottom.
    format!("{}{}", (b'a' + x as u8) as char, 10 - y)
}

fn score(p: &Position, side: Side) -> i64 {
    let e = p.evaluate();
    let q = e.queen.white as i64 - e.queen.black as i64;
    let k = e.king.white as i64 - e.king.black as i64;
    let s = 4 * q + k;
    if side == Side::White {
        s
    } else {
        -s
    }
}

/// The position after `side` moves the amazon at `from` to `to` (no arrow yet).
fn step(p: &Position, side: Side, from: (usize, usize), to: (usize, usize)) -> Position {
    let mover =
        p.amazons(side).and_not(Board10x10::cell(from.0, from.1)) | Board10x10::cell(to.0, to.1);
    let (white, black) = match side {
        Side::White => (mover, p.black()),
        Side::Black => (p.white(), mover),
    };
    Position::try_new(white, black, p.arrows()).expect("a queen move lands on an empty cell")
}

/// The position after an arrow lands on the empty cell `at`.
fn shoot(p: &Position, at: (usize, usize)) -> Position {
    Position::try_new(
        p.white(),
        p.black(),
        p.arrows() | Board10x10::cell(at.0, at.1),
    )
    .expect("an arrow lands on an empty cell")
}

fn main() {
    let mut p = Position::parse(
        "...B..B...\n..........\n..........\nB........B\n..........\n\
         ..........\nW........W\n..........\n..........\n...W..W...\n",
    )
    .expect("the opening position parses");
    let mut side = Side::White;
    let start = std::time::Instant::now();
    let mut evaluated = 0u64;
    for ply in 1..=6 {
        let mut best: Option<(i64, Move)> = None;
        for from in p.amazons(side) {
            for to in p.moves_from(from.0, from.1) {
                // The arrow flies from the new square; the old square is empty by then.
                let moved = step(&p, side, from, to);
                for arrow in moved.moves_from(to.0, to.1) {
                    let next = shoot(&moved, arrow);
                    let s = score(&next, side);
                    evaluated += 1;
                    if best.is_none_or(|b| s > b.0) {
                        best = Some((s, (from, to, arrow)));
                    }
                }
            }
        }
        let Some((s, (from, to, arrow))) = best else {
            println!("{side:?} cannot move and loses");
            break;
        };
        p = shoot(&step(&p, side, from, to), arrow);
        println!(
            "{ply}. {side:?} {}-{}/{}  (score {s:+})",
            square(from.0, from.1),
            square(to.0, to.1),
            square(arrow.0, arrow.1)
        );
        side = if side == Side::White {
            Side::Black
        } else {
            Side::White
        };
    }
    let secs = start.elapsed().as_secs_f64();
    println!("\n{}", p.to_text());
    let e = p.evaluate();
    println!(
        "queen territory: {:?}\nking territory:  {:?}",
        e.queen, e.king
    );
    println!(
        "{evaluated} positions evaluated in {:.0} ms: {:.1} M positions/s",
        secs * 1e3,
        evaluated as f64 / secs / 1e6
    );
}
