//! Puyo Puyo Tsu: a beam search over pair placements that builds a chain and fires it.
//!
//! The pairs come from a fixed, seeded sequence of four colours. Every turn each field of the
//! beam tries its 22 placements (11 when both puyos have one colour). A placement that starts a
//! chain is recorded; the others are scored by the chain the field *could* fire: one or two
//! puyos of each colour dropped on each column, simulated to the end, the longest chain wins,
//! with same-colour neighbours as the tie-break. The best fields go on. At the end the search
//! prints the longest chain it fired, the turn it fired on, its score and the field before it.
//!
//! Run: `cargo run --release --example puyo_chain_search`

use gridbits::games::puyo::{Cell, Field, Rules, COLUMNS};

const BEAM: usize = 60;
const TURNS: usize = 40;
const COLOURS: u8 = 4;

/// A reproducible pair sequence (splitmix64).
fn pairs(seed: u64, n: usize) -> Vec<(u8, u8)> {
    let mut s = seed;
    let mut next = move || {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % COLOURS as u64) as u8
    };
    (0..n).map(|_| (next(), next())).collect()
}

/// The longest chain that one or two more puyos of one colour on one column would fire.
fn potential(field: &Field) -> u32 {
    let mut best = 0;
    for x in 0..COLUMNS {
        let height = field.column_height(x);
        for c in 0..COLOURS {
            let mut f = *field;
            for k in 0..2 {
                if height + k + 2 > field.rows() {
                    break;
                }
                // y counts from the top: the free cell above the stack.
                f.set(x, field.rows() - 1 - height - k, Cell::Color(c));
                best = best.max(f.simulate().chain);
            }
        }
    }
    best
}

/// Pairs of orthogonal neighbours of one colour: shapes that grow into groups.
fn connections(field: &Field) -> u32 {
    (0..COLOURS as usize)
        .map(|c| {
            let p = field.color_plane(c);
            // Columns are 16-bit lanes: >> 1 is the cell below, >> 16 the next column.
            (p & (p >> 1)).count_ones() + (p & (p >> 16)).count_ones()
        })
        .sum()
}

fn main() {
    let sequence = pairs(2026, TURNS);
    let start = std::time::Instant::now();
    let mut beam = vec![Field::new(Rules::Tsu)];
    // (chain, score, turn, field before the trigger)
    let mut best_fired: Option<(u32, u64, usize, Field)> = None;
    let mut simulated = 0u64;
    for (turn, &(a, b)) in sequence.iter().enumerate() {
        let mut next: Vec<(u32, u32, Field)> = Vec::new();
        for field in &beam {
            for x in 0..COLUMNS {
                for rotation in 0..4 {
                    // Same colours: rotations 2 and 3 repeat 0 and 1 elsewhere.
                    if a == b && rotation >= 2 {
                        continue;
                    }
                    let mut f = *field;
                    let Ok(chain) = f.play(a, b, x, rotation) else {
                        continue;
                    };
                    simulated += 1;
                    if chain.chain > 0 {
                        if best_fired.as_ref().is_none_or(|b| chain.chain > b.0) {
                            let mut before = *field;
                            let _ = before.place_pair(a, b, x, rotation);
                            best_fired = Some((chain.chain, chain.score, turn + 1, before));
                        }
                        continue;
                    }
                    simulated += 2 * COLOURS as u64 * COLUMNS as u64;
                    next.push((potential(&f), connections(&f), f));
                }
            }
        }
        next.sort_by_key(|q| std::cmp::Reverse((q.0, q.1)));
        next.dedup_by(|p, q| p.2 == q.2);
        next.truncate(BEAM);
        if next.is_empty() {
            break;
        }
        beam = next.into_iter().map(|(_, _, f)| f).collect();
    }
    let secs = start.elapsed().as_secs_f64();
    match best_fired {
        Some((chain, score, turn, before)) => {
            println!("fired a {chain}-chain for {score} points on turn {turn}; the field then:\n");
            print!("{before}");
        }
        None => println!("no chain fired in {TURNS} turns"),
    }
    println!(
        "\n{simulated} chains simulated in {:.0} ms ({:.0} ns each)",
        secs * 1e3,
        secs * 1e9 / simulated as f64
    );
}
