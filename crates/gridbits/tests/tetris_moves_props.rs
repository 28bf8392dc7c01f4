//! The bit-parallel Tetris move generator against the state-space BFS of `naive`: the same
//! placements and spins on random boards with overhangs, caves and carved T-spin slots, all
//! seven pieces, widths 1 to 64 and heights 1 to 64; input sequences as short as the BFS's
//! and replaying to the placement with its spin; the generator's build for this CPU and its
//! portable build.

use crate::common::{config, SplitMix as Rng};

use gridbits::algo::lines::ColumnBoard;
use gridbits::cpu::{self, with_level, Level};
use gridbits::games::tetris::{Input, MoveOptions, Piece, Placement, Rotation, Tetris};
use gridbits::naive::tetris::NaiveTetris;
use gridbits::naive::tetris_moves::{naive_moves_dist, naive_play, naive_spawn};
use proptest::prelude::*;

/// A random `w x h` matrix: a stack with holes, random overhang cells, and carved slots.
pub fn random_cells(seed: u64, w: usize, h: usize) -> Vec<bool> {
    let mut rng = Rng(seed);
    let mut cells = vec![false; w * h];
    let kind = rng.below(6);
    let top = rng.below(h as u64 + 1) as usize;
    let fill = 40 + rng.below(55) as u32;
    for y in 0..h {
        for x in 0..w {
            let below_top = h - y <= top;
            cells[y * w + x] = match kind {
                0 => false,
                1 => rng.percent(25),
                _ => below_top && rng.percent(fill),
            };
        }
    }
    // Overhangs: a few cells above the stack.
    for _ in 0..rng.below(2 * w as u64) {
        let (x, y) = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
        cells[y * w + x] = true;
    }
    // Slots: a piece's cells carved out, with one column open above one of them.
    for _ in 0..rng.below(4) {
        let p = Piece::ALL[rng.below(7) as usize];
        let r = Rotation::ALL[rng.below(4) as usize];
        let bx = rng.below(w as u64 + 2) as i32 - 2;
        let by = rng.below(h as u64 + 2) as i32 - 2;
        let mut open = None;
        for (dx, dy) in p.cells(r) {
            let (x, y) = (bx + dx, by + dy);
            if (0..w as i32).contains(&x) && (0..h as i32).contains(&y) {
                cells[y as usize * w + x as usize] = false;
                open = Some((x as usize, y as usize));
            }
        }
        if let (Some((x, y)), true) = (open, rng.percent(50)) {
            let x = (x + rng.below(3) as usize).saturating_sub(1).min(w - 1);
            for yy in 0..y.min(h) {
                cells[yy * w + x] = false;
            }
        }
    }
    cells
}

/// The cells as a `Tetris<W>` whose columns from `w` on are filled (walls), and as a naive
/// `w`-wide matrix.
fn pair<const W: usize>(cells: &[bool], w: usize, h: usize) -> (Tetris<W>, NaiveTetris) {
    let b = ColumnBoard::<W>::from_fn(h, |x, y| x >= w || cells[y * w + x]);
    let mut n = NaiveTetris::new(w, h);
    for y in 0..h {
        for x in 0..w {
            n.lines.set(x, y, cells[y * w + x]);
        }
    }
    (Tetris::from_board(b), n)
}

fn names(inputs: &[Input]) -> Vec<&'static str> {
    inputs.iter().map(|i| i.name()).collect()
}

/// Everything the generator says about `piece` against the BFS.
fn check_piece<const W: usize>(
    t: &Tetris<W>,
    n: &NaiveTetris,
    piece: Piece,
    half: bool,
    padded: bool,
) {
    let start = if padded {
        // The padded matrix is W wide: start at the spawn of the true width.
        naive_spawn(n, piece).map(|(x, y)| (Rotation::Spawn, x, y))
    } else {
        None
    };
    if padded && start.is_none() {
        return;
    }
    let opts = MoveOptions {
        rotate_180: half,
        start,
    };
    let expected = naive_moves_dist(n, piece, half, start);
    let got = t.moves_with(piece, &opts);
    let want: Vec<Placement> = expected.iter().map(|&(p, _)| p).collect();
    assert_eq!(
        got,
        want,
        "{piece:?} half {half}\n{}",
        gridbits::render_text(&n.lines, '#', '.')
    );
    let with = t.moves_with_inputs(piece, &opts);
    assert_eq!(with.len(), expected.len());
    let from = start
        .map(|(r, x, y)| (x, y, r.index()))
        .or_else(|| naive_spawn(n, piece).map(|(x, y)| (x, y, 0)));
    for ((p, inputs), &(q, d)) in with.iter().zip(&expected) {
        assert_eq!(*p, q);
        assert_eq!(
            inputs.len(),
            d,
            "{p:?} {inputs:?}\n{}",
            gridbits::render_text(&n.lines, '#', '.')
        );
        let from = from.expect("a placement needs a start");
        let ((x, y, r), spin) = naive_play(n, piece, half, from, &names(inputs))
            .unwrap_or_else(|| panic!("{p:?}: {inputs:?} cannot be played"));
        let mut a = piece
            .cells(Rotation::ALL[r])
            .map(|(dx, dy)| (x + dx, y + dy));
        let mut b = p.cells();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{p:?}: {inputs:?} ends elsewhere");
        assert_eq!(spin, p.spin, "{p:?}: {inputs:?}");
    }
}

fn check_all<const W: usize>(seed: u64, w: usize, h: usize, half: bool) {
    let cells = random_cells(seed, w, h);
    let (t, n) = pair::<W>(&cells, w, h);
    // The generator's build for this CPU (AVX2 where it runs) and its portable build.
    for level in [cpu::level(), Level::Portable] {
        with_level(level, || {
            for piece in Piece::ALL {
                check_piece(&t, &n, piece, half, w != W);
            }
        });
    }
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn moves_match_bfs_10_wide(seed: u64, h in 1usize..=64, half: bool) {
        check_all::<10>(seed, 10, h, half);
        check_all::<10>(seed, 10, 40, half);
        check_all::<10>(seed ^ 1, 10, 22, !half);
    }

    #[test]
    fn moves_match_bfs_fixed_widths(seed: u64, h in 1usize..=64, half: bool) {
        check_all::<4>(seed, 4, h, half);
        check_all::<1>(seed, 1, h, half);
        check_all::<63>(seed, 63, h.min(24), half);
        check_all::<64>(seed, 64, h.min(24), half);
    }

    #[test]
    fn moves_match_bfs_padded_widths(seed: u64, w in 2usize..=64, h in 1usize..=40, half: bool) {
        // Any width, through a 16- or 64-wide matrix walled off at w.
        if w <= 16 {
            check_all::<16>(seed, w, h, half);
        } else {
            check_all::<64>(seed, w, h.min(24), half);
        }
    }
}

#[test]
fn moves_match_bfs_edge_sizes() {
    for (w, h) in [
        (1, 1),
        (4, 1),
        (10, 1),
        (1, 64),
        (4, 16),
        (8, 8),
        (16, 8),
        (10, 64),
        (64, 2),
    ] {
        for seed in 0..6 {
            for half in [false, true] {
                match w {
                    1 => check_all::<1>(seed, w, h, half),
                    4 => check_all::<4>(seed, w, h, half),
                    8 => check_all::<8>(seed, w, h, half),
                    10 => check_all::<10>(seed, w, h, half),
                    16 => check_all::<16>(seed, w, h, half),
                    _ => check_all::<64>(seed, w, h, half),
                }
            }
        }
    }
    // Full and nearly full matrices.
    let full = Tetris::<10>::from_board(ColumnBoard::from_fn(40, |_, _| true));
    assert!(Piece::ALL.iter().all(|&p| full.moves(p).is_empty()));
}

#[test]
fn random_boards_have_spins() {
    // The random boards above do reach T-spins of both kinds (so the spin comparison bites).
    let (mut full, mut mini) = (0, 0);
    for seed in 0..300 {
        let cells = random_cells(seed, 10, 20);
        let (t, _) = pair::<10>(&cells, 10, 20);
        for p in t.moves(Piece::T) {
            full += usize::from(p.spin == gridbits::games::tetris::Spin::Full);
            mini += usize::from(p.spin == gridbits::games::tetris::Spin::Mini);
        }
    }
    assert!(full > 20 && mini > 20, "full {full} mini {mini}");
}

#[test]
fn moves_match_bfs_on_64_rows() {
    // The floor of a 64-row matrix is the last bit of a word: corners below it are outside.
    for seed in 0..40 {
        check_all::<10>(seed, 10, 64, seed % 2 == 0);
        check_all::<5>(seed, 5, 64, seed % 2 == 1);
    }
    // A T turned flat onto the floor of a 64-row matrix, next to one filled cell: a mini.
    let mut cells = vec![false; 4 * 64];
    cells[62 * 4] = true;
    cells[63 * 4 + 3] = true;
    let (t, n) = pair::<4>(&cells, 4, 64);
    check_piece(&t, &n, Piece::T, false, false);
}

#[test]
fn spins_at_the_floor_of_64_rows() {
    // Random low stacks on 64 rows, many seeds: every T lock next to the floor is compared.
    for seed in 100..400 {
        let mut rng = Rng(seed);
        let mut cells = vec![false; 6 * 64];
        for y in 60..64 {
            for x in 0..6 {
                cells[y * 6 + x] = rng.percent(45);
            }
        }
        let (t, n) = pair::<6>(&cells, 6, 64);
        check_piece(&t, &n, Piece::T, seed % 3 == 0, false);
    }
}
