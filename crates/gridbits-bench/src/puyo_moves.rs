//! Bench workloads of Puyo pair placements: every placement of a pair on Tsu mid-game fields
//! cut from the 19-chain benchmark field, the bit-parallel generator against the per-cell one
//! (`naive::puyo_moves`), without and with each placement's chain.

use crate::Bench;
use gridbits::games::puyo::{Cell, Field, Pair, Rules, COLUMNS};
use gridbits::naive::puyo::NaivePuyo;
use gridbits::naive::puyo_moves::naive_placements;
use gridbits_testkit::SplitMix;
use std::hint::black_box;

const CHAIN19: &str = ".G.BRG\nGBRRYR\nRRYYBY\nRGYRBR\nYGYRBY\nYGBGYR\nGRBGYR\n\
                       BRBYBY\nRYYBYY\nBRBYBR\nBGBYRR\nYGBGBG\nRBGBGG\n";

/// Mid-game fields like the 19-chain field: each column of it cut to a random height of 4 to
/// 11 (no group of 4 forms; the pair placed on top may fire a chain), with a random pair.
fn fields(rng: &mut SplitMix, count: usize) -> Vec<(Field, Pair)> {
    let full = Field::parse(CHAIN19, Rules::Tsu).unwrap_or_else(|e| panic!("{e}"));
    let rows = full.rows();
    (0..count)
        .map(|_| {
            let mut f = full;
            for x in 0..COLUMNS {
                let h = 4 + (rng.next_u64() % 8) as usize;
                // Clear the rows above height h (y counts from the top).
                for y in 0..rows - h {
                    f.set(x, y, Cell::Empty);
                }
            }
            let pair = Pair::new((rng.next_u64() % 4) as u8, (rng.next_u64() % 4) as u8);
            (f, pair)
        })
        .collect()
}

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    const N: usize = 64;
    let cases = fields(rng, N);
    let naive: Vec<(NaivePuyo, Pair)> = cases
        .iter()
        .map(|(f, p)| (NaivePuyo::from_field(f), *p))
        .collect();
    bench
        .workload("puyo tsu placements of a pair (fields only)", "drops")
        .case("drops", N as u64, || {
            let mut n = 0u64;
            for (f, p) in &cases {
                // Every field built (the list keeps the landing cells and builds each
                // move's field when read).
                for (_, g) in black_box(f).drops(*p).iter() {
                    black_box(&g);
                    n += 1;
                }
            }
            n
        })
        .case("place_pair x22", N as u64, || {
            // What the per-move API gives: 22 tries of `Field::place_pair` (no reachability
            // rule, so more moves than `drops` on tall fields).
            let mut n = 0u64;
            for (f, p) in &cases {
                for x in 0..COLUMNS {
                    for r in 0..4 {
                        let mut g = *black_box(f);
                        if g.place_pair(p.axis, p.child, x, r).is_ok() {
                            n += 1;
                        }
                        black_box(&g);
                    }
                }
            }
            n
        })
        .case("naive", N as u64, || {
            let mut n = 0u64;
            for (f, p) in &naive {
                let list = naive_placements(black_box(f), p.axis, p.child);
                n += black_box(&list).len() as u64;
            }
            n
        })
        .finish();
    bench
        .workload("puyo tsu placements of a pair + chains", "placements")
        .case("placements", N as u64, || {
            let mut n = 0u64;
            for (f, p) in &cases {
                for q in black_box(f).placements(*p) {
                    n += q.chain.score + u64::from(q.chain.chain);
                }
            }
            n
        })
        .case("naive", N as u64, || {
            let mut n = 0u64;
            for (f, p) in &naive {
                for q in naive_placements(black_box(f), p.axis, p.child) {
                    let c = q.field.simulate();
                    n += c.score + u64::from(c.chain);
                }
            }
            n
        })
        .finish();
}
