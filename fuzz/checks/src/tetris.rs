//! Tetris: the bit-parallel move generator against the state-space BFS of
//! `gridbits::naive::tetris_moves` (placements, spins, shortest input sequences that replay
//! to the placement), and collision, hard drop, placement and line clears against
//! `gridbits::naive::tetris`.

use crate::bytes::Bytes;
use gridbits::algo::lines::ColumnBoard;
use gridbits::games::tetris::{Input, MoveOptions, Piece, Placement, Rotation, Tetris};
use gridbits::naive::tetris::NaiveTetris;
use gridbits::naive::tetris_moves::{naive_moves_dist, naive_play, naive_spawn};

/// A matrix of a width and height from the input (narrow widths through a wider matrix
/// walled off), one piece's moves, then a few placements.
pub fn check_tetris(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let b = &mut bytes;
    match b.byte() % 8 {
        0 => run::<1>(b, 1, 64),
        1 => run::<4>(b, 4, 64),
        2 | 3 => run::<10>(b, 10, 64),
        4 => {
            let w = 2 + b.below(15);
            run::<16>(b, w, 40)
        }
        5 => run::<63>(b, 63, 24),
        6 => run::<64>(b, 64, 24),
        _ => {
            let w = 17 + b.below(47);
            run::<64>(b, w, 24)
        }
    }
}

fn run<const W: usize>(bytes: &mut Bytes<'_>, w: usize, max_h: usize) {
    let h = bytes.side(max_h);
    let cells = bytes.cells(w, h);
    // Columns from w on are walls.
    let board = ColumnBoard::<W>::from_fn(h, |x, y| x >= w || cells[y * w + x]);
    let mut n = NaiveTetris::new(w, h);
    for y in 0..h {
        for x in 0..w {
            n.lines.set(x, y, cells[y * w + x]);
        }
    }
    let mut t = Tetris::from_board(board);
    let piece = Piece::ALL[bytes.below(7)];
    let half = bytes.bool();
    let start = match bytes.byte() % 4 {
        // A start of the input's choosing: anywhere, fitting or not.
        0 => Some((
            Rotation::ALL[bytes.below(4)],
            bytes.below(w + 6) as i32 - 3,
            bytes.below(h + 6) as i32 - 3,
        )),
        // The spawn: the generator's own unless the matrix is walled off.
        _ if w != W => naive_spawn(&n, piece).map(|(x, y)| (Rotation::Spawn, x, y)),
        _ => None,
    };
    if w == W || start.is_some() {
        check_moves(&t, &n, piece, half, start);
    }
    // Placements: fits, hard drop, place and clear, against the per-cell matrix. Only on
    // matrices without walls (the naive matrix has none).
    if w != W {
        return;
    }
    for _ in 0..bytes.below(8) {
        let p = Piece::ALL[bytes.below(7)];
        let r = Rotation::ALL[bytes.below(4)];
        let x = bytes.below(W + 4) as i32 - 2;
        let y = bytes.below(h + 4) as i32 - 2;
        assert_eq!(
            t.fits(p, r, x, y),
            n.fits(p, r, x, y),
            "fits {p:?} {r} ({x}, {y})"
        );
        assert_eq!(
            t.hard_drop(p, r, x, y),
            n.hard_drop(p, r, x, y),
            "hard_drop"
        );
        match t.hard_drop(p, r, x, y) {
            Some(land) => assert_eq!(t.place(p, r, x, land), n.place(p, r, x, land), "place"),
            None => assert_eq!(t.place(p, r, x, y), None),
        }
        assert_eq!(
            t.drop_and_place(p, r, x),
            n.drop_and_place(p, r, x),
            "drop_and_place"
        );
        for yy in 0..h {
            for xx in 0..W {
                assert_eq!(t.get(xx, yy), n.lines.get(xx, yy), "cell ({xx}, {yy})");
            }
        }
        assert_eq!(t.heights().to_vec(), n.heights());
        assert_eq!(t.holes(), n.holes());
        assert_eq!(t.row_transitions(), n.row_transitions());
        assert_eq!(t.column_transitions(), n.column_transitions());
        assert_eq!(t.bumpiness(), n.bumpiness());
        assert_eq!(t.max_height(), n.max_height());
    }
    assert_eq!(t.to_string().parse::<Tetris<W>>().expect("round trip"), t);
}

fn names(inputs: &[Input]) -> Vec<&'static str> {
    inputs.iter().map(|i| i.name()).collect()
}

/// Everything the generator says about `piece` against the BFS.
fn check_moves<const W: usize>(
    t: &Tetris<W>,
    n: &NaiveTetris,
    piece: Piece,
    half: bool,
    start: Option<(Rotation, i32, i32)>,
) {
    let opts = MoveOptions {
        rotate_180: half,
        start,
    };
    let expected = naive_moves_dist(n, piece, half, start);
    let got = t.moves_with(piece, &opts);
    let want: Vec<Placement> = expected.iter().map(|&(p, _)| p).collect();
    assert_eq!(got, want, "{piece:?} half {half} start {start:?}");
    let with = t.moves_with_inputs(piece, &opts);
    assert_eq!(with.len(), expected.len());
    // Where the inputs start: the start, or one row up where it is blocked.
    let from = match start {
        Some((r, x, y)) => [(x, y), (x, y - 1)]
            .into_iter()
            .find(|&(x, y)| n.fits(piece, r, x, y))
            .map(|(x, y)| (x, y, r.index())),
        None => naive_spawn(n, piece).map(|(x, y)| (x, y, 0)),
    };
    for ((p, inputs), &(q, d)) in with.iter().zip(&expected) {
        assert_eq!(*p, q);
        assert_eq!(
            inputs.len(),
            d,
            "{p:?} {inputs:?}: not a shortest input sequence"
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
