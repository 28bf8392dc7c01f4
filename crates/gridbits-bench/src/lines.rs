//! Bench workloads of the `lines` topic: Tetris line clears in both layouts against the
//! "Line Clears" article's consecutive clear and the per-cell board; place + drop + clear;
//! Puyo chains.

use crate::Bench;
use gridbits::algo::lines::{ColumnBoard, RowChunks, PEXT};
use gridbits::cpu::{self, with_level, Level};
use gridbits::games::puyo::{ChainEngine, Field, Rules};
use gridbits::games::tetris::{Piece, Rotation, Tetris};
use gridbits::naive::lines::NaiveLines;
use gridbits::naive::puyo::NaivePuyo;
use gridbits::naive::tetris::NaiveTetris;
use gridbits_testkit::SplitMix;
use std::hint::black_box;

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    tetris_clear(bench, rng, false);
    tetris_clear(bench, rng, true);
    tetris_place(bench, rng);
    puyo_19_chain(bench);
    puyo_stc_turns(bench, rng);
}

const BATCH: usize = 64;

/// Random 10x40 boards: the bottom 16 rows 70% filled, `0..=4` of them made full
/// (consecutive when `scattered` is false, at random rows otherwise). Rows are drawn from the
/// floor up (`f` = rows above the bottom one, `y = 39 - f`).
fn tetris_boards(rng: &mut SplitMix, scattered: bool) -> Vec<NaiveLines> {
    (0..BATCH)
        .map(|i| {
            let lines = i % 5;
            let start = (rng.next_u64() % 12) as usize;
            let full: Vec<usize> = if scattered {
                (0..lines).map(|_| (rng.next_u64() % 16) as usize).collect()
            } else {
                (start..start + lines).collect()
            };
            let mut filled = [[false; 10]; 16];
            for row in &mut filled {
                for c in row.iter_mut() {
                    *c = rng.chance(0.7);
                }
            }
            let mut b = NaiveLines::from_fn(10, 40, |x, y| y >= 24 && filled[39 - y][x]);
            for f in 0..16 {
                if !full.contains(&f) && b.row_is_full(39 - f) {
                    b.set((rng.next_u64() % 10) as usize, 39 - f, false);
                }
            }
            for &f in &full {
                for x in 0..10 {
                    b.set(x, 39 - f, true);
                }
            }
            b
        })
        .collect()
}

fn tetris_clear(bench: &mut Bench, rng: &mut SplitMix, scattered: bool) {
    let boards = tetris_boards(rng, scattered);
    let chunked: Vec<RowChunks> = boards
        .iter()
        .map(|b| RowChunks::from_fn(10, 40, |x, y| b.get(x, y)).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let columns: Vec<ColumnBoard<10>> = boards
        .iter()
        .map(|b| ColumnBoard::from_fn(40, |x, y| b.get(x, y)))
        .collect();
    let name = if scattered {
        "tetris clear 10x40 0-4 scattered rows"
    } else {
        "tetris clear 10x40 0-4 consecutive rows"
    };
    let mut scratch = chunked[0].clone();
    let mut scratch2 = chunked[0].clone();
    let mut w = bench
        .workload(name, "chunked")
        .case("chunked", BATCH as u64, move || {
            let mut n = 0;
            for b in &chunked {
                scratch.copy_from(black_box(b));
                n += scratch.clear_full_lines() as u64;
                n += scratch.chunks()[0] & 1;
            }
            n
        });
    let chunked2: Vec<RowChunks> = columns_to_chunked(&columns);
    w = w.case("cascade-loop", BATCH as u64, move || {
        let mut n = 0;
        for b in &chunked2 {
            scratch2.copy_from(black_box(b));
            n += scratch2.cascade_clear_all() as u64;
            n += scratch2.chunks()[0] & 1;
        }
        n
    });
    let cols = columns.clone();
    w = w.case("columns", BATCH as u64, move || {
        let mut n = 0;
        for b in &cols {
            let mut c = *black_box(b);
            n += u64::from(c.clear_full_lines());
            n += c.column(0) & 1;
        }
        n
    });
    #[cfg(target_arch = "x86_64")]
    if cpu::has(PEXT) {
        let cols = columns.clone();
        w = w.case("columns-pext", BATCH as u64, move || {
            let mut n = 0;
            for b in &cols {
                let mut c = *black_box(b);
                // SAFETY: `cpu::has(PEXT)` detected BMI2 and POPCNT (the enabled features) above.
                n += u64::from(unsafe { c.clear_full_lines_pext() });
                n += c.column(0) & 1;
            }
            n
        });
    }
    let cols = columns;
    w = w.case("columns-portable", BATCH as u64, move || {
        with_level(Level::Portable, || {
            let mut n = 0;
            for b in &cols {
                let mut c = *black_box(b);
                n += u64::from(c.clear_full_lines());
                n += c.column(0) & 1;
            }
            n
        })
    });
    w.case("naive", BATCH as u64, move || {
        let mut n = 0;
        for b in &boards {
            let mut c = black_box(b).clone();
            n += c.clear_full_lines() as u64;
            n += u64::from(c.get(0, 0));
        }
        n
    })
    .finish();
}

fn columns_to_chunked(cols: &[ColumnBoard<10>]) -> Vec<RowChunks> {
    cols.iter()
        .map(|c| RowChunks::from_fn(10, 40, |x, y| c.get(x, y)).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// Random placements: (piece, rotation, column), each dropped from the top of a 10x40 board;
/// the board is emptied when it gets high.
fn tetris_place(bench: &mut Bench, rng: &mut SplitMix) {
    const MOVES: usize = 256;
    let moves: Vec<(Piece, Rotation, i32)> = (0..MOVES)
        .map(|_| {
            let p = Piece::ALL[(rng.next_u64() % 7) as usize];
            let r = Rotation::ALL[(rng.next_u64() % 4) as usize];
            let (lo, hi) = p.x_range(r, 10);
            let x = lo + (rng.next_u64() % (hi - lo + 1) as u64) as i32;
            (p, r, x)
        })
        .collect();
    let moves2 = moves.clone();
    let mut board = Tetris::<10>::new(40);
    let mut nb = NaiveTetris::new(10, 40);
    bench
        .workload("tetris place+drop+clear 10x40", "columns")
        .case("columns", MOVES as u64, move || {
            let mut n = 0;
            for &(p, r, x) in &moves {
                match board.drop_and_place(p, r, black_box(x)) {
                    Some(c) => n += u64::from(c),
                    None => board = Tetris::new(40),
                }
                if board.max_height() > 20 {
                    board = Tetris::new(40);
                }
            }
            n + board.column(0)
        })
        .case("naive", MOVES as u64, move || {
            let mut n = 0;
            for &(p, r, x) in &moves2 {
                match nb.drop_and_place(p, r, black_box(x)) {
                    Some(c) => n += c as u64,
                    None => nb = NaiveTetris::new(10, 40),
                }
                if nb.max_height() > 20 {
                    nb = NaiveTetris::new(10, 40);
                }
            }
            n
        })
        .finish();
}

/// The chain engines the Puyo rows time by name.
const PUYO_ENGINES: [(&str, ChainEngine); 5] = [
    ("avx512", ChainEngine::Avx512),
    ("avx512vl", ChainEngine::Avx512Vl),
    ("avx2", ChainEngine::Avx2),
    ("sse2", ChainEngine::Sse2),
    ("portable", ChainEngine::Portable),
];

/// The Tsu 19-chain field (a common benchmark of Puyo simulators): a copy of the field and the whole chain, as the
/// public benchmarks time it (`black_box` of the field by value forces the copy). The first
/// case is [`Field::simulate`] (the best engine this CPU has), then every engine by name.
fn puyo_19_chain(bench: &mut Bench) {
    const CHAIN19: &str = ".G.BRG\nGBRRYR\nRRYYBY\nRGYRBR\nYGYRBY\nYGBGYR\nGRBGYR\n\
                           BRBYBY\nRYYBYY\nBRBYBR\nBGBYRR\nYGBGBG\nRBGBGG\n";
    let field = Field::parse(CHAIN19, Rules::Tsu).unwrap_or_else(|e| panic!("{e}"));
    let naive = NaivePuyo::from_field(&field);
    let mut w = bench
        .workload("puyo tsu 19-chain simulate", "simulate")
        .case("simulate", 1, move || {
            let f = black_box(field);
            let c = f.simulate();
            c.score + u64::from(c.chain)
        });
    for (name, engine) in PUYO_ENGINES {
        if ChainEngine::available().contains(&engine) {
            w = w.alternative(name, 1, move || {
                let f = black_box(field);
                let c = f.simulate_with(engine);
                c.score + u64::from(c.chain)
            });
        }
    }
    w.case("naive", 1, move || {
        let c = black_box(&naive).simulate();
        c.score + u64::from(c.chain)
    })
    .finish();
}

/// Random Smash the Code turns: a random settled field (4 colours, some skulls), a random
/// legal pair placement, and the chain it starts.
fn puyo_stc_turns(bench: &mut Bench, rng: &mut SplitMix) {
    const TURNS: usize = 256;
    let mut turns = Vec::with_capacity(TURNS);
    while turns.len() < TURNS {
        let mut f = Field::new(Rules::SmashTheCode);
        for x in 0..6 {
            let h = (rng.next_u64() % 10) as usize;
            // The h lowest rows, bottom first (y counts from the top).
            for y in (12 - h..12).rev() {
                let cell = if rng.chance(0.1) {
                    gridbits::games::puyo::Cell::Garbage
                } else {
                    gridbits::games::puyo::Cell::Color((rng.next_u64() % 4) as u8)
                };
                f.set(x, y, cell);
            }
        }
        let f = f.simulate().field;
        let (a, b) = ((rng.next_u64() % 4) as u8, (rng.next_u64() % 4) as u8);
        let (x, r) = ((rng.next_u64() % 6) as usize, (rng.next_u64() % 4) as u8);
        let mut g = f;
        if g.place_pair(a, b, x, r).is_ok() {
            turns.push((f, a, b, x, r));
        }
    }
    let placed: Vec<Field> = turns
        .iter()
        .map(|&(f, a, b, x, r)| {
            let mut g = f;
            // Placed above (every turn's placement is legal).
            let _ = g.place_pair(a, b, x, r);
            g
        })
        .collect();
    puyo_engines_on(bench, "puyo stc turn fields simulate (engines)", &placed);
    let naive: Vec<_> = turns
        .iter()
        .map(|&(f, a, b, x, r)| (NaivePuyo::from_field(&f), a, b, x, r))
        .collect();
    bench
        .workload("puyo stc turn (place pair + chain)", "simulate")
        .case("simulate", TURNS as u64, move || {
            let mut n = 0;
            for &(f, a, b, x, r) in &turns {
                let mut g = *black_box(&f);
                if let Ok(c) = g.play(a, b, x, r) {
                    n += c.score + u64::from(c.chain);
                }
            }
            n
        })
        .case("naive", TURNS as u64, move || {
            let mut n = 0;
            for (f, a, b, x, r) in &naive {
                let mut g = black_box(f).clone();
                if g.place_pair(*a, *b, *x, *r).is_ok() {
                    let c = g.simulate();
                    n += c.score + u64::from(c.chain);
                }
            }
            n
        })
        .finish();
}

/// The chains of `fields` (the turns' fields with their pair placed) on [`Field::simulate`]
/// and on every engine this CPU has, one workload: the engine comparison on random fields.
fn puyo_engines_on(bench: &mut Bench, name: &str, fields: &[Field]) {
    let n = fields.len() as u64;
    let run = |fields: &[Field], engine: Option<ChainEngine>| {
        let mut s = 0;
        for f in fields {
            let c = match engine {
                Some(e) => black_box(f).simulate_with(e),
                None => black_box(f).simulate(),
            };
            s += c.score + u64::from(c.chain);
        }
        s
    };
    let mut w = bench
        .workload(name, "simulate")
        .case("simulate", n, move || run(fields, None));
    for (name, engine) in PUYO_ENGINES {
        if ChainEngine::available().contains(&engine) {
            w = w.alternative(name, n, move || run(fields, Some(engine)));
        }
    }
    w.finish();
}
