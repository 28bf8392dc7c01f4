//! The Puyo chains of seeded random fields, as the Rust library computes them, kept in
//! `tests/data/puyo_random_chains.txt`: this test checks the library still gives them, and the
//! Python package's tests (`tests/python/test_games.py`) check that `puyo.simulate` and
//! `puyo.simulate_many` give the same through numpy.
//!
//! The fields are built with [`Field::set`] (not from the numpy codes the Python binding
//! reads), with floating cells that must settle first, garbage, and both rule sets. A line:
//! `rules codes chain score after`, the codes one digit a cell, top row first, 0 empty, 1-5
//! the colours, 6 garbage. `GRIDBITS_WRITE_FIXTURES=1` rewrites the file.

use crate::common::SplitMix;
use gridbits::games::puyo::{Cell, Field, Rules};

const PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/puyo_random_chains.txt"
);
/// Fields per rule set.
const FIELDS: usize = 150;

fn code(c: Cell) -> char {
    match c {
        Cell::Empty => '0',
        Cell::Color(k) => char::from(b'1' + k),
        Cell::Garbage => '6',
    }
}

fn codes(f: &Field) -> String {
    (0..f.rows())
        .flat_map(|y| (0..6).map(move |x| (x, y)))
        .map(|(x, y)| code(f.get(x, y)))
        .collect()
}

/// A random field: columns of random heights in 4 of the 5 colours with some garbage,
/// and in one field of three a few cells floating above the columns.
fn random_field(rng: &mut SplitMix, rules: Rules) -> Field {
    let mut f = Field::new(rules);
    let rows = f.rows();
    let skip = rng.below(5) as u8;
    let colour = |rng: &mut SplitMix| {
        if rng.percent(6) {
            Cell::Garbage
        } else {
            let k = rng.below(4) as u8;
            Cell::Color(if k >= skip { k + 1 } else { k })
        }
    };
    for x in 0..6 {
        let h = rng.below(rows as u64 - 1) as usize;
        for y in rows - h..rows {
            f.set(x, y, colour(rng));
        }
    }
    if rng.below(3) == 0 {
        for _ in 0..1 + rng.below(4) {
            let (x, y) = (rng.below(6) as usize, rng.below(rows as u64 - 2) as usize);
            if f.get(x, y) == Cell::Empty {
                f.set(x, y, colour(rng));
            }
        }
    }
    f
}

fn lines() -> String {
    let mut rng = SplitMix(0x5EED_CAFE);
    let mut out = String::new();
    for (name, rules) in [("tsu", Rules::Tsu), ("stc", Rules::SmashTheCode)] {
        for _ in 0..FIELDS {
            let f = random_field(&mut rng, rules);
            let mut settled = f;
            settled.settle();
            let c = settled.simulate();
            let line = format!(
                "{name} {} {} {} {}\n",
                codes(&f),
                c.chain,
                c.score,
                codes(&c.field)
            );
            out.push_str(&line);
        }
    }
    out
}

#[test]
fn random_chains_are_the_recorded_ones() {
    let got = lines();
    if std::env::var_os("GRIDBITS_WRITE_FIXTURES").is_some() {
        std::fs::write(PATH, &got).unwrap();
    }
    let want = std::fs::read_to_string(PATH).unwrap();
    assert_eq!(
        got, want,
        "rewrite {PATH} with GRIDBITS_WRITE_FIXTURES=1 if the rules changed"
    );
    // The fields hold chains of several lengths, garbage and floating cells.
    let chains: Vec<u32> = got
        .lines()
        .map(|l| l.split(' ').nth(2).unwrap().parse().unwrap())
        .collect();
    assert!(chains.iter().filter(|&&c| c == 0).count() > 10);
    assert!(
        chains.iter().filter(|&&c| c >= 2).count() > 10,
        "{chains:?}"
    );
    assert!(got
        .lines()
        .any(|l| l.split(' ').nth(1).unwrap().contains('6')));
}
