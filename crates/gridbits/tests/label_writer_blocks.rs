//! The label writers on the 16-cell blocks of a row: runs that cross 16- and 64-cell
//! boundaries, blocks with no set cell between and inside words where runs start, rows of
//! one run, full rows, on widths 1-17 and 127-129 (and 63-65, 191-193), with every store
//! kind, writer and CPU level, against the naive labels.

use gridbits::algo::label::{LabelStores, LabelWriter, Labeller, Labels};
use gridbits::cpu::Level;
use gridbits::naive::{components as nc, NaiveGrid};
use gridbits::{BitGrid, Connectivity};

const WIDTHS: [usize; 26] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 63, 64, 65, 127, 128, 129, 191, 192,
    193,
];

/// A cell pattern: `f(x, y, width)`.
type Pattern = fn(usize, usize, usize) -> bool;

/// Row patterns: `f(x, y, w)`, chosen to put runs and empty blocks on both sides of the
/// 16- and 64-cell boundaries.
fn patterns() -> Vec<(&'static str, Pattern)> {
    vec![
        ("empty", |_, _, _| false),
        ("full", |_, _, _| true),
        // One run a row, over the middle (across 16- and 64-cell boundaries when wide).
        ("one run", |x, _, w| x >= w / 3 && x < w - w / 4),
        // Runs crossing each 16-cell boundary: cells 14..18 of every 32.
        ("across 16", |x, y, _| {
            (x % 32 >= 14 && x % 32 < 18) || (y % 3 == 0 && x % 64 == 15)
        }),
        // Runs crossing each 64-cell boundary, and single cells at its edges.
        ("across 64", |x, y, _| {
            let r = x % 64;
            !(3..60).contains(&r) || (y % 2 == 1 && (r == 16 || r == 31 || r == 32))
        }),
        // A run in one 16-cell block, the next blocks of the word empty (a scan's
        // words where runs start next to empty blocks).
        ("sparse blocks", |x, y, _| {
            let r = x % 64;
            (r + 7 * y) % 48 < 5
        }),
        // Alternate rows: row pairs with one row empty.
        ("alternate rows", |x, y, _| y % 2 == 0 && x % 20 < 9),
        // Diagonal strokes joining across rows, as text strokes.
        ("strokes", |x, y, _| {
            (x + y) % 23 < 3 || (x + 2 * y) % 37 == 0
        }),
        // The last cell of the row only, and the first.
        ("edges", |x, _, w| x == 0 || x + 1 == w),
    ]
}

#[test]
fn writers_label_blocks_like_naive() {
    let mut image = Labels::new();
    for w in WIDTHS {
        for h in [1usize, 2, 3, 6] {
            for (name, p) in patterns() {
                let g = BitGrid::from_fn(w, h, |x, y| p(x, y, w)).unwrap();
                let ng = NaiveGrid::from_view(&g);
                for conn in [Connectivity::Four, Connectivity::Eight] {
                    let (want, n) = nc::label(&ng, conn);
                    for level in [Level::Portable, Level::Bmi, Level::Avx2, Level::Avx512] {
                        for stores in [
                            LabelStores::Auto,
                            LabelStores::Cached,
                            LabelStores::Streaming,
                        ] {
                            for writer in [LabelWriter::Auto, LabelWriter::Cells, LabelWriter::Runs]
                            {
                                let mut l = Labeller::new()
                                    .with_level(level)
                                    .with_stores(stores)
                                    .with_writer(writer);
                                assert_eq!(l.label(&g, conn, &mut image).unwrap(), n);
                                assert_eq!(
                                    image.as_slice(),
                                    want,
                                    "{name} {w}x{h} {conn:?} {level:?} {stores:?} {writer:?}\n{g}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
