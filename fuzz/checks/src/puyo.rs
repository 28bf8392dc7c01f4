//! Puyo: `simulate` on every engine this CPU runs, step by step, and batched, against the
//! BFS simulator of `gridbits::naive::puyo`; pair placement and the placement list against
//! `gridbits::naive::puyo_moves`.

use crate::bytes::Bytes;
use gridbits::games::puyo::{simulate_many_with, Cell, ChainEngine, Field, Pair, Rules, COLUMNS};
use gridbits::naive::puyo::NaivePuyo;
use gridbits::naive::puyo_moves::{naive_game_over, naive_placements};

/// A field of either rule set, any cells (floating ones too), or its text form; its chain,
/// then a pair placed.
pub fn check_puyo(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let f = field(&mut bytes);
    let rules = f.rules();
    check_chain(&f);
    assert!(
        Field::parse(&f.to_text(), rules).ok() == Some(f),
        "text round trip"
    );

    // A pair placed on the field at the end of its chain, as a game plays.
    let settled = f.simulate().field;
    let (a, c, x, rot) = (
        bytes.byte() % 6,
        bytes.byte() % 6,
        bytes.below(7),
        bytes.byte() % 5,
    );
    let mut g = settled;
    let mut n = NaivePuyo::from_field(&settled);
    let placed = g.place_pair(a, c, x, rot);
    assert_eq!(n.place_pair(a, c, x, rot), placed, "place_pair");
    assert!(n.to_field() == g, "place_pair field");
    if placed.is_ok() {
        check_chain(&g);
    }
    let naive = NaivePuyo::from_field(&settled);
    assert_eq!(settled.is_game_over(), naive_game_over(&naive), "game over");
    let (a, c) = (a % 5, c % 5);
    let got = settled.placements(Pair::new(a, c));
    let want = naive_placements(&naive, a, c);
    assert_eq!(got.len(), want.len(), "placements of {a} {c}");
    for (p, q) in got.iter().zip(&want) {
        assert_eq!((p.column, p.rotation), (q.column, q.rotation));
        assert!(
            p.field_after == q.field.to_field(),
            "field after {:?}",
            p.mv()
        );
        assert!(p.chain.field == p.field_after.simulate().field);
    }
}

/// A field from the input: the rule set, whether to settle it, then every cell (top row
/// first): 0-4 a colour (the next byte mod 5), 5 garbage, 6-7 empty (mod 8).
pub fn field(bytes: &mut Bytes<'_>) -> Field {
    let rules = if bytes.bool() {
        Rules::Tsu
    } else {
        Rules::SmashTheCode
    };
    let mut f = Field::new(rules);
    let settle = bytes.bool();
    for y in 0..rules.rows() {
        for x in 0..COLUMNS {
            let cell = match bytes.byte() % 8 {
                0..=4 => Cell::Color(bytes.byte() % 5),
                5 => Cell::Garbage,
                _ => Cell::Empty,
            };
            f.set(x, y, cell);
        }
    }
    if settle {
        f.settle();
    }
    f
}

fn check_chain(f: &Field) {
    let naive = NaivePuyo::from_field(f).simulate();
    for engine in ChainEngine::available() {
        let c = f.simulate_with(engine);
        assert_eq!(c.chain, naive.chain, "{engine:?} chain of\n{f:?}");
        assert_eq!(c.score, naive.score, "{engine:?} score of\n{f:?}");
        assert_eq!(c.steps().len(), naive.steps.len());
        for (s, n) in c.steps().iter().zip(&naive.steps) {
            assert_eq!(s.cleared, n.cleared);
            assert_eq!(s.garbage, n.garbage);
            assert_eq!(s.groups as usize, n.group_sizes.len());
            assert_eq!(s.colors, n.colors);
            assert_eq!(s.score, n.score);
        }
        assert!(
            c.field == naive.field.to_field(),
            "{engine:?} final field of\n{f:?}"
        );
        let batch = simulate_many_with(&[*f, *f], engine);
        assert!(
            batch.len() == 2 && batch.iter().all(|b| *b == c),
            "{engine:?} batch"
        );
    }
    let mut g = *f;
    let mut n = 0;
    while let Some(s) = g.step(n + 1) {
        assert_eq!(s.score, naive.steps[n as usize].score, "step {n}");
        n += 1;
    }
    assert_eq!(n, naive.chain);
    assert!(g == naive.field.to_field(), "stepped field");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tsu_seed_is_the_19_chain() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/puyo/seed-tsu19");
        let data = std::fs::read(path).expect("the seed");
        let f = field(&mut Bytes::new(&data));
        assert_eq!(f.rules(), Rules::Tsu);
        let c = f.simulate();
        assert_eq!((c.chain, c.score), (19, 175_080));
    }
}
