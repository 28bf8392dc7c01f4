//! The Puyo chain simulator: every engine against the naive BFS simulator on thousands of
//! random fields, and hand-checked chains under both rule sets. Cells are `(x, y)`, `y` from
//! the top.

use crate::common::SplitMix as Rng;

use gridbits::games::puyo::{Cell, ChainEngine, Field, Rules, COLUMNS};
use gridbits::naive::puyo::NaivePuyo;
use proptest::prelude::*;

/// A random field: column heights random, `colors` colours, some garbage; `settled` false
/// leaves random holes (floating cells).
pub(crate) fn random_field(seed: u64, rules: Rules, colors: u64, settled: bool) -> Field {
    let mut rng = Rng(seed);
    let mut f = Field::new(rules);
    let garbage_rate = rng.below(4); // 0..3 in 16
    let rows = rules.rows();
    for x in 0..COLUMNS {
        let h = rng.below(rows as u64 + 1) as usize;
        // The h lowest rows, bottom first.
        for y in (rows - h..rows).rev() {
            if !settled && rng.below(5) == 0 {
                continue;
            }
            let cell = if rng.below(16) < garbage_rate {
                Cell::Garbage
            } else {
                Cell::Color(rng.below(colors) as u8)
            };
            f.set(x, y, cell);
        }
    }
    f
}

/// `f` with colour `c` renamed `(c + shift) % 5`.
fn rotate_colors(f: &Field, shift: u8) -> Field {
    let mut g = *f;
    for x in 0..COLUMNS {
        for y in 0..f.rows() {
            if let Cell::Color(c) = f.get(x, y) {
                g.set(x, y, Cell::Color((c + shift) % 5));
            }
        }
    }
    g
}

fn hash_of(c: &gridbits::games::puyo::Chain) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    c.hash(&mut h);
    h.finish()
}

fn check(f: &Field) {
    let naive = NaivePuyo::from_field(f).simulate();
    let portable = f.simulate_with(ChainEngine::Portable);
    for engine in ChainEngine::available() {
        let c = f.simulate_with(engine);
        // Equal chains compare and hash equal whatever an engine left in the steps past
        // the chain's length (the engines write only their own steps).
        assert_eq!(
            c, portable,
            "{engine:?} against the portable engine on\n{f:?}"
        );
        assert_eq!(hash_of(&c), hash_of(&portable));
        assert_eq!(format!("{c:?}"), format!("{portable:?}"));
        assert_eq!(c.steps().len(), c.chain as usize);
        assert_eq!(c.chain, naive.chain, "{engine:?} chain of\n{f:?}");
        assert_eq!(c.score, naive.score, "{engine:?} score of\n{f:?}");
        for (s, n) in c.steps().iter().zip(&naive.steps) {
            assert_eq!(s.cleared, n.cleared);
            assert_eq!(s.garbage, n.garbage);
            assert_eq!(s.groups as usize, n.group_sizes.len());
            assert_eq!(s.colors, n.colors);
            assert_eq!(s.score, n.score);
        }
        assert_eq!(
            c.field,
            naive.field.to_field(),
            "{engine:?} final field of\n{f:?}"
        );
    }
    // Step by step gives the same.
    let mut g = *f;
    let mut n = 0;
    while let Some(s) = g.step(n + 1) {
        assert_eq!(s.score, naive.steps[n as usize].score);
        n += 1;
    }
    assert_eq!(n, naive.chain);
    assert_eq!(g, naive.field.to_field());
}

proptest! {
    #![proptest_config(crate::common::config(3000))]

    #[test]
    fn simulate_matches_naive(
        seed: u64, tsu: bool, colors in 2u64..=5, settled: bool, shift in 0u8..5,
    ) {
        let rules = if tsu { Rules::Tsu } else { Rules::SmashTheCode };
        // Renaming the colours moves them between the engines' registers (the AVX2 engine
        // holds colours 0-1, 2-3 and 4 + garbage together), so every register is empty in
        // some fields.
        check(&rotate_colors(&random_field(seed, rules, colors, settled), shift));
    }

    #[test]
    fn turns_match_naive(seed: u64, tsu: bool, a in 0u8..6, b in 0u8..6, x in 0usize..7, rot in 0u8..5) {
        let rules = if tsu { Rules::Tsu } else { Rules::SmashTheCode };
        let mut f = random_field(seed, rules, 4, true);
        // Settle the field's own chain first, as a game would have.
        f = f.simulate().field;
        let before = f;
        let placed = f.place_pair(a, b, x, rot);
        match placed {
            Ok(()) => {
                assert_eq!(f.count(), before.count() + 2);
                check(&f);
            }
            Err(_) => assert_eq!(f, before),
        }
        // The naive twin agrees on the placement and on the error.
        let mut n = NaivePuyo::from_field(&before);
        assert_eq!(n.place_pair(a, b, x, rot), placed);
        assert_eq!(n.to_field(), f);
    }
}

const CHAIN19: &str = "\
.G.BRG
GBRRYR
RRYYBY
RGYRBR
YGYRBY
YGBGYR
GRBGYR
BRBYBY
RYYBYY
BRBYBR
BGBYRR
YGBGBG
RBGBGG
";

#[test]
fn tsu_19_chain() {
    let f = Field::parse(CHAIN19, Rules::Tsu).unwrap();
    let naive = NaivePuyo::from_field(&f).simulate();
    assert_eq!(naive.chain, 19);
    for engine in ChainEngine::available() {
        let c = f.simulate_with(engine);
        assert_eq!(c.chain, 19, "{engine:?}");
        assert_eq!(c.score, naive.score, "{engine:?}");
    }
    // The figure puyoai's and other simulators' tests give for this field.
    assert_eq!(naive.score, 175_080);
}

/// The automatic engine follows the CPU table and the caps: AVX-512 only where the CPU runs
/// 512-bit instructions at full width, else AVX-512 VL where the CPU has it, AVX2 under an
/// AVX2 cap, portable under a portable cap.
#[test]
fn best_engine_follows_cpu_table_and_caps() {
    use gridbits::cpu::{splits_512, with_level, Level};
    let available = ChainEngine::available();
    let best = ChainEngine::best();
    assert!(available.contains(&best), "{best:?}");
    if available.contains(&ChainEngine::Avx2) {
        let want = if available.contains(&ChainEngine::Avx512) && !splits_512() {
            ChainEngine::Avx512
        } else if available.contains(&ChainEngine::Avx512Vl) {
            ChainEngine::Avx512Vl
        } else {
            ChainEngine::Avx2
        };
        assert_eq!(best, want);
        assert_eq!(
            with_level(Level::Avx2, ChainEngine::best),
            ChainEngine::Avx2
        );
    }
    assert_eq!(
        with_level(Level::Portable, ChainEngine::best),
        ChainEngine::Portable
    );
    // The automatic engine gives the same chain as the reference under every cap.
    let f = Field::parse(CHAIN19, Rules::Tsu).unwrap();
    let want = f.simulate_with(ChainEngine::Portable);
    for level in Level::ALL {
        let got = with_level(level, || f.simulate());
        assert_eq!(
            (got.chain, got.score, got.field),
            (want.chain, want.score, want.field)
        );
    }
}

fn stc(rows: &[&str]) -> Field {
    let mut text = String::new();
    for _ in rows.len()..12 {
        text.push_str("......\n");
    }
    for r in rows {
        text.push_str(r);
        text.push('\n');
    }
    Field::parse(&text, Rules::SmashTheCode).unwrap()
}

fn tsu(rows: &[&str]) -> Field {
    let mut text = String::new();
    for _ in rows.len()..13 {
        text.push_str("......\n");
    }
    for r in rows {
        text.push_str(r);
        text.push('\n');
    }
    Field::parse(&text, Rules::Tsu).unwrap()
}

#[test]
fn single_group() {
    // StC: 5 cells of one colour: 10 * 5 * (0 + 0 + GB(5)=1) = 50.
    let c = stc(&["1.....", "1.....", "111..2"]).simulate();
    assert_eq!((c.chain, c.score), (1, 50));
    assert_eq!(c.steps()[0].groups, 1);
    assert_eq!(c.field.to_text().lines().last(), Some(".....2"));
    // Tsu: 4 cells: 10 * 4 * clamp(0, 1, 999) = 40.
    let c = tsu(&["RRRR.."]).simulate();
    assert_eq!((c.chain, c.score), (1, 40));
    // Three cells do not vanish.
    assert_eq!(tsu(&["RRR..."]).simulate().chain, 0);
}

#[test]
fn two_colours_in_one_step() {
    // StC: 4 of 1 and 5 of 2 at once: B = 9, CB(2) = 2, GB = 0 + 1: 10 * 9 * 3 = 270.
    let c = stc(&["22222.", "1111.."]).simulate();
    let s = c.steps()[0];
    assert_eq!((s.cleared, s.groups, s.colors, s.score), (9, 2, 2, 270));
    // Tsu: CB(2) = 3: 10 * 8 * 3 = 240.
    let c = tsu(&["BBBB..", "RRRR.."]).simulate();
    assert_eq!((c.chain, c.score), (1, 240));
    // Two groups of one colour in one step count one colour, two groups.
    let c = stc(&["1111.1", "....11", ".....1"]).simulate();
    let s = c.steps()[0];
    assert_eq!((s.cleared, s.groups, s.colors), (8, 2, 1));
}

#[test]
fn skulls_and_ojama_clear_next_to_groups() {
    // The skull above and the skull to the right of the group vanish; the far one stays.
    let c = stc(&["0.....", "111100"]).simulate();
    let s = c.steps()[0];
    assert_eq!((s.cleared, s.garbage), (4, 2));
    assert_eq!(c.field.to_text().lines().last(), Some(".....0"));
    // Garbage never connects a group: 2 + 2 across an ojama stays.
    assert_eq!(tsu(&["RROR.R"]).simulate().chain, 0);
    // Ojama falls with the chain and vanishes next to the second step's group.
    let c = tsu(&["O.....", "G...Y.", "RRRRY.", "GGGY.."]).simulate();
    assert_eq!(c.chain, 2);
    assert_eq!((c.steps()[0].garbage, c.steps()[1].garbage), (0, 1));
    assert_eq!(c.steps()[1].score, 10 * 4 * 8);
    assert_eq!(c.field.to_text().lines().last(), Some("...YY."));
}

#[test]
fn ghost_row_never_vanishes_nor_connects() {
    fn column0(cells_from_floor: &[char]) -> Field {
        let rows: Vec<String> = cells_from_floor
            .iter()
            .rev()
            .map(|&c| format!("{c}....."))
            .collect();
        tsu(&rows.iter().map(String::as_str).collect::<Vec<_>>())
    }
    // Rows 1-4 R (the top four rows of play), an R in the ghost row (y = 0) on top: the group
    // of 4 vanishes, the ghost R touches it but stays, and falls to row 4.
    let f = column0(
        &[
            "G", "B", "G", "B", "G", "B", "G", "B", "R", "R", "R", "R", "R",
        ]
        .map(|s| s.chars().next().unwrap()),
    );
    assert_eq!(f.get(0, 0), Cell::Color(0));
    let c = f.simulate();
    assert_eq!((c.chain, c.steps()[0].cleared), (1, 4));
    assert_eq!(c.field.get(0, 4), Cell::Color(0));
    assert_eq!(c.field.get(0, 3), Cell::Empty);
    assert_eq!(c.field.count(), 9);
    // Three R in rows 1-3 and one in the ghost row: no group of 4.
    let f = column0(&[
        'G', 'B', 'G', 'B', 'G', 'B', 'G', 'B', 'G', 'R', 'R', 'R', 'R',
    ]);
    assert_eq!(f.simulate().chain, 0);
    // Ojama in the ghost row next to a vanishing cell stays, and falls.
    let mut rows = vec![".O....", "RRRR.."];
    rows.extend(["BYBY..", "YBYB.."].repeat(5));
    rows.push("BYBY..");
    let f = tsu(&rows);
    assert_eq!(f.get(1, 0), Cell::Garbage);
    let c = f.simulate();
    assert_eq!((c.chain, c.steps()[0].garbage), (1, 0));
    assert_eq!(c.field.get(1, 1), Cell::Garbage);
}

/// Found by the `puyo` fuzz target: cells of colour 4 (`P`) in the ghost row that fall into
/// the active rows after a step must be checked for groups, even where no colour-4 cell was
/// in the active rows (the AVX2 and AVX-512 engines looked only there, and stopped the chain).
#[test]
fn ghost_row_cells_of_the_last_colour_fall_and_chain() {
    // Only the ghost row holds P: the R row vanishes, the P row falls into its place.
    let only_ghost = "PPPP..\nRRRR..\nGBGB..\nBGBG..\nGBGB..\nBGBG..\nGBGB..\nBGBG..\n\
                      GBGB..\nBGBG..\nGBGB..\nBGBG..\nGBGB..\n";
    // P in the active rows too, vanishing with R in step 1; the ghost row's P fall and
    // four of them join on the floor in step 2 (the fuzzer's field).
    let with_active = "PPPPPP\nPPPPPP\nPPPPPP\nPPPPPP\nPPPPPP\nPPPPPP\nPPPPPP\nPPPPPP\n\
                       PPPPPP\nGGRRRR\nRRRRRR\nRRRRRR\nRRRRRR\n";
    for text in [only_ghost, with_active] {
        let f = Field::parse(text, Rules::Tsu).unwrap();
        assert_eq!(NaivePuyo::from_field(&f).simulate().chain, 2);
        check(&f);
        // The same with colours renamed, so that every register holds the ghost cells.
        for shift in 1..5 {
            check(&rotate_colors(&f, shift));
        }
    }
}
