//! Puyo Puyo Tsu: a beam search over pair placements ([`Field::placements`]) that builds a
//! chain of 10 or more and fires it, on a fixed, seeded sequence of four-colour pairs.
//!
//! Each turn every field of the beam lists the placements of the next pair under Tsu's
//! reachability rule (walls of 12, the death cell), each with the chain it fires. A placement
//! that fires is a candidate answer; the others are scored by their chain potential: the
//! longest chain (then the best score) that one more puyo of any colour on any column would
//! fire, each such try run to its end with `simulate`, plus small terms for same-colour
//! neighbours and against tall columns. The `BEAM` best distinct fields go on. The search
//! stops at the first turn where some placement fires a chain of `TARGET` or more.
//!
//! Run: `cargo run --release --example puyo_beam`

use gridbits::games::puyo::{Field, Pair, PairMove, Rules, COLUMNS};
use std::collections::HashSet;
use std::time::Instant;

const BEAM: usize = 200;
const TURNS: usize = 60;
const TARGET: u32 = 10;
const COLOURS: u8 = 4;
const SEED: u64 = 20_261_123;

/// A reproducible pair sequence (splitmix64).
fn pairs(seed: u64, n: usize) -> Vec<Pair> {
    let mut s = seed;
    let mut next = move || {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % COLOURS as u64) as u8
    };
    (0..n).map(|_| Pair::new(next(), next())).collect()
}

/// Bits of the cells of play (rows 1-12 from the floor; the 16-bit lane layout of
/// `color_plane`).
const LANE_PLAY: u128 = {
    let mut m = 0u128;
    let mut x = 0;
    while x < COLUMNS {
        m |= 0x0fffu128 << (16 * x);
        x += 1;
    }
    m
};

/// The chain potential: the longest chain, then the best score, that one more puyo of one
/// colour dropped on one column fires. Only drops next to a puyo of their colour can fire,
/// so only those are simulated. Returns (chain, score, simulations).
fn potential(field: &Field) -> (u32, u64, u32) {
    let occ = field.occupied();
    let (mut best, mut score, mut sims) = (0, 0, 0);
    for x in 0..COLUMNS {
        let h = field.column_height(x);
        if h >= 12 {
            continue; // the cell would be in the ghost row: it never connects
        }
        let cell = 1u128 << (16 * x + h);
        // The landing cell's neighbours: below, left, right.
        let near = ((cell >> 1) | (cell >> 16) | (cell << 16)) & occ & LANE_PLAY;
        for c in 0..COLOURS {
            if field.color_plane(c as usize) & near == 0 {
                continue;
            }
            let mut f = *field;
            // Row from the top of the landing cell.
            f.set(
                x,
                field.rows() - 1 - h,
                gridbits::games::puyo::Cell::Color(c),
            );
            let chain = f.simulate();
            sims += 1;
            if (chain.chain, chain.score) > (best, score) {
                (best, score) = (chain.chain, chain.score);
            }
        }
    }
    (best, score, sims)
}

/// Pairs of orthogonal neighbours of one colour: shapes that grow into groups.
fn connections(field: &Field) -> i64 {
    (0..COLOURS as usize)
        .map(|c| {
            let p = field.color_plane(c) & LANE_PLAY;
            i64::from((p & (p >> 1)).count_ones() + (p & (p >> 16)).count_ones())
        })
        .sum()
}

/// The evaluation of a field that fired nothing: potential first, shape second.
fn evaluate(field: &Field, sims: &mut u64) -> i64 {
    let (chain, score, n) = potential(field);
    *sims += u64::from(n);
    let heights: Vec<i64> = (0..COLUMNS)
        .map(|x| field.column_height(x) as i64)
        .collect();
    // Keep the spawn column low and the surface even.
    let bumps: i64 = heights.windows(2).map(|w| (w[0] - w[1]).abs()).sum();
    let ghost =
        field.occupied().count_ones() as i64 - (field.occupied() & LANE_PLAY).count_ones() as i64;
    i64::from(chain) * 1000 + (score as i64 / 100).min(500) + 10 * connections(field)
        - 4 * bumps
        - 30 * (heights[2] - 9).max(0)
        - 100 * ghost
}

struct Node {
    field: Field,
    moves: Vec<PairMove>,
}

fn main() {
    let sequence = pairs(SEED, TURNS);
    let start = Instant::now();
    let mut beam = vec![Node {
        field: Field::new(Rules::Tsu),
        moves: Vec::new(),
    }];
    let mut sims = 0u64;
    // (chain, score, turn, field before the pair, moves, the pair's move)
    let mut fired: Option<(u32, u64, usize, Field, Vec<PairMove>)> = None;
    for (turn, &pair) in sequence.iter().enumerate() {
        let mut children: Vec<(i64, usize, PairMove, Field)> = Vec::new();
        for (i, node) in beam.iter().enumerate() {
            for p in node.field.placements(pair) {
                sims += 1;
                if p.chain.chain > 0 {
                    if fired
                        .as_ref()
                        .is_none_or(|f| (p.chain.chain, p.chain.score) > (f.0, f.1))
                    {
                        let mut moves = node.moves.clone();
                        moves.push(p.mv());
                        fired =
                            Some((p.chain.chain, p.chain.score, turn + 1, p.field_after, moves));
                    }
                    continue;
                }
                if p.field_after.is_game_over() {
                    continue;
                }
                children.push((0, i, p.mv(), p.field_after));
            }
        }
        if fired.as_ref().is_some_and(|f| f.0 >= TARGET) {
            break;
        }
        // Distinct fields only, then evaluated.
        let mut seen = HashSet::new();
        children.retain(|c| seen.insert(c.3));
        for c in &mut children {
            c.0 = evaluate(&c.3, &mut sims);
        }
        children.sort_by_key(|c| std::cmp::Reverse(c.0));
        children.truncate(BEAM);
        if children.is_empty() {
            break;
        }
        beam = children
            .into_iter()
            .map(|(_, i, mv, field)| {
                let mut moves = beam[i].moves.clone();
                moves.push(mv);
                Node { field, moves }
            })
            .collect();
    }
    let secs = start.elapsed().as_secs_f64();
    match fired {
        Some((chain, score, turn, before, moves)) => {
            println!(
                "fired a {chain}-chain for {score} points on turn {turn} (target {TARGET}) \
                 in {:.0} ms; the field as the last pair lands:\n",
                secs * 1e3
            );
            print!("{before}");
            let chain = before.simulate();
            let cleared: Vec<u32> = chain.steps().iter().map(|s| s.cleared).collect();
            let scores: Vec<u32> = chain.steps().iter().map(|s| s.score).collect();
            println!("\npuyos cleared per step: {cleared:?}\nscore per step: {scores:?}");
            let played: Vec<String> = moves
                .iter()
                .zip(&sequence)
                .map(|(m, p)| format!("{}@{}{}", p.to_text(Rules::Tsu), m.column, m.rotation))
                .collect();
            println!("\nmoves (pair@column rotation): {}", played.join(" "));
        }
        None => println!("no chain fired in {TURNS} turns"),
    }
    println!(
        "beam {BEAM}: {sims} placements and potentials simulated in {:.0} ms",
        secs * 1e3
    );
}
