//! The `parallel` feature's thread-count API, and the batch functions for many small boards
//! (`simulate_many`, `components_many`, `count_components_many`, `evaluate_many`) on 1 and
//! 2 threads against one board at a time and the naive oracle. Without the feature they run
//! on the calling thread: the same results are checked.

use crate::common::{config, SplitMix as Rng, CONNS};

use gridbits::algo::components::{components, components_many, count_components_many};
use gridbits::games::amazons::{evaluate_many, Position};
use gridbits::games::puyo::{
    simulate_many, simulate_many_scores, simulate_many_scores_with, simulate_many_with, Cell,
    ChainEngine, Field, Rules,
};
use gridbits::naive::{self, components as nc, puyo::NaivePuyo, NaiveGrid};
use gridbits::parallel::{current_threads, with_threads};
use gridbits::{Board, Board10x10, Board6x12, Board8x8, Connectivity};
use proptest::prelude::*;

#[test]
fn with_threads_sets_the_count() {
    #[cfg(feature = "parallel")]
    {
        for n in 1..=3 {
            assert_eq!(with_threads(n, current_threads).unwrap(), n);
        }
        assert!(with_threads(0, current_threads).unwrap() >= 1);
    }
    #[cfg(not(feature = "parallel"))]
    assert_eq!(with_threads(4, current_threads).unwrap(), 1);
}

/// A random Puyo field (settled or with holes), some garbage.
fn puyo_field(seed: u64, rules: Rules) -> Field {
    let mut rng = Rng(seed);
    let mut f = Field::new(rules);
    let rows = rules.rows();
    let colors = 2 + rng.below(4);
    let holes = rng.below(2) == 0;
    for x in 0..6 {
        let h = rng.below(rows as u64 + 1) as usize;
        for y in (rows - h..rows).rev() {
            if holes && rng.below(6) == 0 {
                continue;
            }
            let cell = if rng.below(16) == 0 {
                Cell::Garbage
            } else {
                Cell::Color(rng.below(colors) as u8)
            };
            f.set(x, y, cell);
        }
    }
    f
}

fn amazons_position(seed: u64) -> Position {
    let mut rng = Rng(seed);
    let arrows = rng.below(60);
    let mut kind = [0u8; 100];
    for k in kind.iter_mut() {
        if rng.below(100) < arrows {
            *k = 3;
        }
    }
    for side in [1u8, 2] {
        for _ in 0..1 + rng.below(4) {
            kind[rng.below(100) as usize] = side;
        }
    }
    let board = |k: u8| Board10x10::from_fn(|x, y| kind[y * 10 + x] == k);
    Position::new(board(1), board(2), board(3))
}

fn random_board<const W: usize, const H: usize, const N: usize>(seed: u64) -> Board<W, H, N> {
    let mut rng = Rng(seed);
    let density = rng.below(101);
    Board::from_fn(|_, _| rng.below(100) < density)
}

/// The components of every board of a batch against one at a time and the naive BFS.
fn check_components_batch<const W: usize, const H: usize, const N: usize>(seed: u64, len: usize) {
    let boards: Vec<Board<W, H, N>> = (0..len as u64)
        .map(|i| random_board(seed.wrapping_add(i)))
        .collect();
    for conn in CONNS {
        for threads in [1, 2] {
            let (many, counts) = with_threads(threads, || {
                (
                    components_many(&boards, conn),
                    count_components_many(&boards, conn),
                )
            })
            .unwrap();
            assert_eq!(many.len(), boards.len());
            assert_eq!(counts.len(), boards.len());
            for ((b, parts), &c) in boards.iter().zip(&many).zip(&counts) {
                assert_eq!(parts, &components(*b, conn).collect::<Vec<_>>());
                assert_eq!(c as usize, parts.len());
                let mut got: Vec<NaiveGrid> = parts.iter().map(NaiveGrid::from_view).collect();
                let mut want = nc::components(&NaiveGrid::from_view(b), conn);
                got.sort_by_key(|g| g.cells());
                want.sort_by_key(|g| g.cells());
                assert_eq!(got, want, "{conn:?}");
            }
        }
    }
}

proptest! {
    #![proptest_config(config(8))]

    #[test]
    fn batch_components_match_naive(seed in any::<u64>(), len in 0usize..300) {
        check_components_batch::<6, 12, 2>(seed, len);
        check_components_batch::<8, 8, 1>(seed, len);
        check_components_batch::<1, 1, 1>(seed, len.min(20));
        check_components_batch::<65, 2, 3>(seed, len.min(40));
    }

    #[test]
    fn batch_puyo_matches_naive(seed in any::<u64>(), len in 0usize..400, tsu in any::<bool>()) {
        let rules = if tsu { Rules::Tsu } else { Rules::SmashTheCode };
        let fields: Vec<Field> = (0..len as u64)
            .map(|i| puyo_field(seed.wrapping_add(i), rules))
            .collect();
        let one: Vec<_> = fields.iter().map(Field::simulate).collect();
        for threads in [1, 2] {
            let many = with_threads(threads, || simulate_many(&fields)).unwrap();
            prop_assert_eq!(&many, &one);
            let portable =
                with_threads(threads, || simulate_many_with(&fields, ChainEngine::Portable)).unwrap();
            prop_assert_eq!(&portable, &one);
            let scores: Vec<u64> = one.iter().map(|c| c.score).collect();
            let many_scores = with_threads(threads, || simulate_many_scores(&fields)).unwrap();
            prop_assert_eq!(&many_scores, &scores);
            let portable_scores = with_threads(threads, || {
                simulate_many_scores_with(&fields, ChainEngine::Portable)
            })
            .unwrap();
            prop_assert_eq!(&portable_scores, &scores);
        }
        for (f, c) in fields.iter().zip(&one) {
            let naive = NaivePuyo::from_field(f).simulate();
            prop_assert_eq!((c.chain, c.score), (naive.chain, naive.score));
            prop_assert_eq!(c.field, naive.field.to_field());
        }
    }

    #[test]
    fn batch_amazons_matches_naive(seed in any::<u64>(), len in 0usize..300) {
        let positions: Vec<Position> =
            (0..len as u64).map(|i| amazons_position(seed.wrapping_add(i))).collect();
        for threads in [1, 2] {
            let evals = with_threads(threads, || evaluate_many(&positions)).unwrap();
            prop_assert_eq!(evals.len(), positions.len());
            for (p, e) in positions.iter().zip(&evals) {
                prop_assert_eq!(*e, p.evaluate());
                let (w, b, a) = (
                    NaiveGrid::from_view(&p.white()),
                    NaiveGrid::from_view(&p.black()),
                    NaiveGrid::from_view(&p.arrows()),
                );
                prop_assert_eq!(*e, naive::amazons::evaluate(&w, &b, &a));
            }
        }
    }
}

#[test]
fn batch_examples() {
    assert!(simulate_many(&[]).is_empty());
    assert!(simulate_many_scores(&[]).is_empty());
    assert!(evaluate_many(&[]).is_empty());
    assert!(components_many::<6, 12, 2>(&[], Connectivity::Four).is_empty());
    let start = Position::start();
    assert_eq!(evaluate_many(&[start]), [start.evaluate()]);
    let full = Board8x8::from_fn(|_, _| true);
    assert_eq!(
        count_components_many(&[full, Board8x8::EMPTY], Connectivity::Eight),
        [1, 0]
    );
    let b = Board6x12::from_fn(|x, y| (x + y) % 2 == 0);
    assert_eq!(count_components_many(&[b], Connectivity::Four), [36]);
    assert_eq!(count_components_many(&[b], Connectivity::Eight), [1]);
}
