//! Pair placements: the counts on an open field, the walls, the death cell, Tsu's rows 13 and
//! 14, Smash the Code's fit rule, and every placement against the per-cell generator
//! (`naive::puyo_moves`) on thousands of random fields. Cells are `(x, y)`, `y` from the top.

use crate::common::SplitMix as Rng;

use gridbits::games::puyo::{
    Cell, Field, Pair, PairError, PairMove, Rules, COLUMNS, MAX_PLACEMENTS,
};
use gridbits::naive::puyo::NaivePuyo;
use gridbits::naive::puyo_moves::{naive_game_over, naive_placements};
use proptest::prelude::*;

const BOTH: [Rules; 2] = [Rules::SmashTheCode, Rules::Tsu];

/// A field whose column `x` holds a stack `heights[x]` high (colours cycling so that no
/// group of 4 forms: columns alternate two colour patterns).
fn stacks(rules: Rules, heights: [usize; COLUMNS]) -> Field {
    let mut f = Field::new(rules);
    let rows = rules.rows();
    for (x, &h) in heights.iter().enumerate() {
        for k in 0..h {
            // Row k from the floor; colours 0-3 in a pattern with no 4 connected.
            let c = ((k + 2 * (x % 2)) % 4) as u8;
            f.set(x, rows - 1 - k, Cell::Color(c));
        }
    }
    f
}

/// The moves of `pair` on `f`, in order.
fn moves(f: &Field, pair: Pair) -> Vec<PairMove> {
    f.drops(pair).moves().collect()
}

/// Every move of a pair of two colours whose columns are all in `cols`.
fn moves_within(cols: std::ops::RangeInclusive<usize>) -> Vec<PairMove> {
    let mut out = Vec::new();
    for column in 0..COLUMNS {
        for rotation in 0..4 {
            let m = PairMove { column, rotation };
            if let Some((a, c)) = m.columns() {
                if cols.contains(&a) && cols.contains(&c) {
                    out.push(m);
                }
            }
        }
    }
    out
}

#[test]
fn open_field_has_22_moves_or_11_for_one_colour() {
    for rules in BOTH {
        let f = Field::new(rules);
        assert!(!f.is_game_over());
        for a in 0..5 {
            for c in 0..5 {
                let pair = Pair::new(a, c);
                let want = if a == c { 11 } else { 22 };
                assert_eq!(f.drops(pair).len(), want, "{rules:?} {pair:?}");
                assert_eq!(f.placements(pair).len(), want, "{rules:?} {pair:?}");
                let naive = naive_placements(&NaivePuyo::new(rules), a, c);
                assert_eq!(naive.len(), want);
            }
        }
        assert_eq!(moves(&f, Pair::new(0, 1)), moves_within(0..=5));
        // One colour: rotations 0 and 1 only; every field distinct.
        let double: Vec<_> = f.drops(Pair::new(2, 2)).iter().collect();
        assert!(double.iter().all(|(m, _)| m.rotation < 2));
        for (i, (_, g)) in double.iter().enumerate() {
            assert!(double[..i].iter().all(|(_, h)| h != g));
            assert_eq!(g.count(), 2);
        }
    }
}

#[test]
fn rotations_put_the_child_where_they_say() {
    let f = Field::new(Rules::Tsu);
    let d = f.drops(Pair::new(0, 1)); // axis R, child G
    let at = |column, rotation| d.find(PairMove { column, rotation }).unwrap();
    assert_eq!(at(2, 0).to_text().lines().last(), Some("..RG.."));
    assert_eq!(at(2, 2).to_text().lines().last(), Some(".GR..."));
    let up = at(4, 1);
    assert_eq!(
        (up.get(4, 12), up.get(4, 11)),
        (Cell::Color(0), Cell::Color(1))
    );
    let down = at(4, 3);
    assert_eq!(
        (down.get(4, 12), down.get(4, 11)),
        (Cell::Color(1), Cell::Color(0))
    );
    assert_eq!(
        d.find(PairMove {
            column: 5,
            rotation: 0
        }),
        None
    );
}

#[test]
fn tsu_wall_at_x1_hides_column_0() {
    let f = stacks(Rules::Tsu, [0, 12, 0, 0, 0, 0]);
    assert_eq!(moves(&f, Pair::new(0, 1)), moves_within(2..=5));
    assert_eq!(f.drops(Pair::new(0, 1)).len(), 14);
    assert_eq!(f.drops(Pair::new(3, 3)).len(), 7);
    // 11 high does not block: a vertical pair on it reaches the ghost row (row 13).
    let f = stacks(Rules::Tsu, [0, 11, 0, 0, 0, 0]);
    let d = f.drops(Pair::new(0, 1));
    assert_eq!(d.len(), 22);
    let g = d
        .find(PairMove {
            column: 1,
            rotation: 1,
        })
        .unwrap();
    assert_eq!((g.get(1, 1), g.get(1, 0)), (Cell::Color(0), Cell::Color(1)));
    // The walls do not matter under Smash the Code: only the fit does.
    let f = stacks(Rules::SmashTheCode, [0, 12, 0, 0, 0, 0]);
    let want: Vec<PairMove> = moves_within(0..=5)
        .into_iter()
        .filter(|m| m.columns().is_some_and(|(a, c)| a != 1 && c != 1))
        .collect();
    assert_eq!(moves(&f, Pair::new(0, 1)), want);
    assert_eq!(want.len(), 16);
}

#[test]
fn tsu_wall_at_x3_hides_columns_3_to_5() {
    let f = stacks(Rules::Tsu, [0, 0, 0, 12, 0, 0]);
    assert_eq!(moves(&f, Pair::new(0, 1)), moves_within(0..=2));
    assert_eq!(f.drops(Pair::new(0, 1)).len(), 10);
    // Walls on both sides: only column 2, vertical.
    let f = stacks(Rules::Tsu, [0, 12, 3, 13, 0, 0]);
    assert_eq!(
        moves(&f, Pair::new(0, 1)),
        [1, 3].map(|rotation| PairMove {
            column: 2,
            rotation
        })
    );
    // A wall further out hides only what lies beyond it.
    let f = stacks(Rules::Tsu, [12, 0, 0, 0, 12, 5]);
    assert_eq!(moves(&f, Pair::new(0, 1)), moves_within(1..=3));
}

#[test]
fn tsu_death_cell_ends_the_game() {
    for h in [12, 13] {
        let f = stacks(Rules::Tsu, [0, 0, h, 0, 0, 0]);
        assert!(f.is_game_over());
        assert!(f.drops(Pair::new(0, 1)).is_empty());
        assert!(f.placements(Pair::new(0, 0)).is_empty());
        assert!(naive_game_over(&NaivePuyo::from_field(&f)));
    }
    // One below: every move is there, and those that put a puyo on column 2 end the game.
    let f = stacks(Rules::Tsu, [0, 0, 11, 0, 0, 0]);
    assert!(!f.is_game_over());
    let p = f.placements(Pair::new(0, 1));
    assert_eq!(p.len(), 22);
    for q in &p {
        let (a, c) = q.mv().columns().unwrap();
        let ends = q.field_after.is_game_over() && q.chain.field.is_game_over();
        assert_eq!(ends, a == 2 || c == 2, "{:?}", q.mv());
    }
    // The death cell is the only cell that ends it.
    let mut f = Field::new(Rules::Tsu);
    f.set(2, 0, Cell::Color(0)); // ghost row above it
    f.set(1, 1, Cell::Color(0));
    f.set(3, 1, Cell::Color(0));
    assert!(!f.is_game_over());
    assert_eq!(moves(&f, Pair::new(0, 1)), moves_within(2..=2));
}

#[test]
fn tsu_row_14_puyos_vanish() {
    // Column 4: row 12 empty under a floating ghost-row puyo, so the column is reachable and a
    // puyo dropped on it lands in row 14 and vanishes.
    let mut f = stacks(Rules::Tsu, [0, 0, 0, 0, 11, 0]);
    f.set(4, 0, Cell::Garbage);
    let d = f.drops(Pair::new(0, 1));
    assert_eq!(d.len(), 22);
    assert_eq!(
        d.find(PairMove {
            column: 4,
            rotation: 1
        })
        .unwrap(),
        f
    );
    let h = d
        .find(PairMove {
            column: 3,
            rotation: 0,
        })
        .unwrap();
    assert_eq!(h.count(), f.count() + 1);
    assert_eq!(h.get(3, 12), Cell::Color(0));
    // The oracle agrees.
    let naive = naive_placements(&NaivePuyo::from_field(&f), 0, 1);
    for (n, (m, g)) in naive.iter().zip(d.iter()) {
        assert_eq!((n.column, n.rotation), (m.column, m.rotation));
        assert_eq!(n.field.to_field(), g);
    }
}

#[test]
fn smash_the_code_placements_must_fit() {
    // 11 high: a vertical pair does not fit, one puyo does.
    let f = stacks(Rules::SmashTheCode, [11, 0, 0, 0, 0, 0]);
    let m = moves(&f, Pair::new(0, 1));
    assert_eq!(m.len(), 20);
    assert!(!m.iter().any(|m| m.column == 0 && m.rotation % 2 == 1));
    // Only columns 3 and 4 have room for one puyo each: two horizontal moves.
    let f = stacks(Rules::SmashTheCode, [12, 12, 12, 11, 11, 12]);
    assert!(!f.is_game_over());
    assert_eq!(
        moves(&f, Pair::new(0, 1)),
        [
            PairMove {
                column: 3,
                rotation: 0
            },
            PairMove {
                column: 4,
                rotation: 2
            }
        ]
    );
    assert_eq!(
        moves(&f, Pair::new(1, 1)),
        [PairMove {
            column: 3,
            rotation: 0
        }]
    );
    // Nothing fits: the game is lost.
    for heights in [[12, 11, 12, 11, 12, 11], [12; COLUMNS]] {
        let f = stacks(Rules::SmashTheCode, heights);
        assert!(f.is_game_over());
        assert!(f.drops(Pair::new(0, 1)).is_empty());
        assert!(naive_game_over(&NaivePuyo::from_field(&f)));
    }
}

#[test]
fn placements_fire_their_chains() {
    // Smash the Code: three 1s on the floor and a 2 pair; rotation 1 at column 3 puts a 1
    // next to them.
    let text = format!("{}111...\n", "......\n".repeat(11));
    let f = Field::parse(&text, Rules::SmashTheCode).unwrap();
    let p = f.placements(Pair::new(0, 1));
    let fired: Vec<PairMove> = p
        .iter()
        .filter(|q| q.chain.chain > 0)
        .map(|q| q.mv())
        .collect();
    // Axis 1 next to or on the three: vertical on columns 0-3 (axis at the bottom:
    // rotation 1), horizontal with the axis on column 3 or on top of columns 0-2.
    assert!(fired.contains(&PairMove {
        column: 3,
        rotation: 1
    }));
    assert!(!fired.contains(&PairMove {
        column: 3,
        rotation: 3
    })); // the 2 lands first
    for q in &p {
        assert_eq!(q.chain, q.field_after.simulate());
        assert_eq!(q.field_after.count(), f.count() + 2);
    }
}

#[test]
fn pairs_parse_in_each_rule_set() {
    assert_eq!(Pair::parse("YP", Rules::Tsu), Ok(Pair::new(3, 4)));
    assert_eq!(Pair::parse("51", Rules::SmashTheCode), Ok(Pair::new(4, 0)));
    assert_eq!(Pair::parse("R", Rules::Tsu), Err(PairError::Length(1)));
    assert_eq!(Pair::parse("", Rules::Tsu), Err(PairError::Length(0)));
    assert_eq!(
        Pair::parse("RG", Rules::SmashTheCode),
        Err(PairError::NotAColor {
            ch: 'R',
            rules: Rules::SmashTheCode
        })
    );
    assert_eq!(
        Pair::parse("0R", Rules::Tsu),
        Err(PairError::NotAColor {
            ch: '0',
            rules: Rules::Tsu
        })
    );
    assert_eq!(Pair::try_new(0, 5), Err(PairError::BadColor(5)));
    // A pair made field by field with a colour of 5 has no moves.
    let bad = Pair { axis: 0, child: 5 };
    assert!(Field::new(Rules::Tsu).drops(bad).is_empty());
    assert!(naive_placements(&NaivePuyo::new(Rules::Tsu), 0, 5).is_empty());
    assert_eq!(Pair::new(4, 2).to_text(Rules::SmashTheCode), "53");
    assert!(Pair::new(1, 1).is_double() && !Pair::new(1, 2).is_double());
}

/// A random field, heights biased to the top rows so that walls, the death cell and full
/// columns come up often; `settled` false leaves holes (floating cells, ghost-row puyos over
/// an empty row 12).
fn random_field(seed: u64, rules: Rules, settled: bool) -> Field {
    let mut rng = Rng(seed);
    let mut f = Field::new(rules);
    let rows = rules.rows();
    let garbage = rng.below(3);
    for x in 0..COLUMNS {
        let h = match rng.below(4) {
            0 => rows - rng.below(3) as usize, // rows, rows - 1, rows - 2
            _ => rng.below(rows as u64 + 1) as usize,
        };
        for k in 0..h {
            if !settled && rng.below(6) == 0 {
                continue;
            }
            let cell = if rng.below(16) < garbage {
                Cell::Garbage
            } else {
                Cell::Color(rng.below(4) as u8)
            };
            f.set(x, rows - 1 - k, cell);
        }
    }
    f
}

/// Every placement of `pair` on `f` against the per-cell generator.
fn check_against_naive(f: &Field, pair: Pair) -> Result<(), TestCaseError> {
    let n = NaivePuyo::from_field(f);
    let fast = f.drops(pair);
    let naive = naive_placements(&n, pair.axis, pair.child);
    prop_assert!(fast.len() <= MAX_PLACEMENTS);
    prop_assert_eq!(fast.len(), naive.len(), "moves of {:?} on\n{:?}", pair, f);
    for ((m, g), q) in fast.iter().zip(&naive) {
        prop_assert_eq!((m.column, m.rotation), (q.column, q.rotation));
        prop_assert_eq!(g, q.field.to_field(), "{:?} on\n{:?}", m, f);
    }
    prop_assert_eq!(f.is_game_over(), naive_game_over(&n));
    prop_assert_eq!(fast.is_empty(), f.is_game_over());
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::config(4000))]

    #[test]
    fn drops_match_naive(seed: u64, tsu: bool, settled: bool, a in 0u8..5, c in 0u8..5) {
        let rules = if tsu { Rules::Tsu } else { Rules::SmashTheCode };
        check_against_naive(&random_field(seed, rules, settled), Pair::new(a, c))?;
    }
}

proptest! {
    #![proptest_config(crate::common::config(400))]

    #[test]
    fn placements_chains_match_naive(seed: u64, tsu: bool, a in 0u8..4, c in 0u8..4) {
        let rules = if tsu { Rules::Tsu } else { Rules::SmashTheCode };
        // A field as a game leaves it: settled, its own chain already fired.
        let f = random_field(seed, rules, true).simulate().field;
        let pair = Pair::new(a, c);
        check_against_naive(&f, pair)?;
        let naive = naive_placements(&NaivePuyo::from_field(&f), a, c);
        let placed = f.placements(pair);
        prop_assert_eq!(placed.len(), naive.len());
        for (p, q) in placed.iter().zip(&naive) {
            let chain = q.field.simulate();
            prop_assert_eq!(p.chain.chain, chain.chain);
            prop_assert_eq!(p.chain.score, chain.score);
            prop_assert_eq!(p.chain.field, chain.field.to_field());
        }
    }
}

#[test]
fn every_column_height_against_naive() {
    // Each column alone at every height, both rule sets, every pair shape.
    for rules in BOTH {
        for x in 0..COLUMNS {
            for h in 0..=rules.rows() {
                let mut heights = [0; COLUMNS];
                heights[x] = h;
                let f = stacks(rules, heights);
                for pair in [Pair::new(0, 1), Pair::new(2, 2)] {
                    if let Err(e) = check_against_naive(&f, pair) {
                        panic!("{rules:?} column {x} at {h}: {e}");
                    }
                }
            }
        }
    }
}
