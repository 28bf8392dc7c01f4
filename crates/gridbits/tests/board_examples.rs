//! The `bitboard!` macro, the crate's board examples and the constructors' error cases.

use crate::common::*;
use gridbits::naive::NaiveGrid;
use gridbits::{bitboard, Board, Connectivity};
use std::panic::catch_unwind;

#[test]
fn bitboard_macro_builds_the_drawn_board() {
    const B: Board<4, 3, 1> = bitboard!(Board<4, 3, 1>; "#..#", ".x..", "...o");
    let expected = NaiveGrid::from_fn(4, 3, |x, y| {
        matches!((x, y), (0, 0) | (3, 0) | (1, 1) | (3, 2))
    });
    check_board(B, &expected, "bitboard! 4x3");

    let b = bitboard!(gridbits::Board6x12;
        "......", "......", "......", "......", "......", "......",
        "......", "......", "......", "..#...", "..##..", "#....#");
    assert_eq!(
        b.iter().collect::<Vec<_>>(),
        vec![(2, 9), (2, 10), (3, 10), (0, 11), (5, 11)]
    );
    assert_eq!(b, gridbits::Board6x12::parse(&b.to_text()).unwrap());
    // Trailing comma accepted.
    let one = bitboard!(Board<1, 1, 1>; "#",);
    assert!(one.is_full());
    let empty = bitboard!(Board<2, 2, 1>; "..", "..");
    assert!(empty.is_empty());
}

#[test]
fn flood_fill_example_from_the_crate_docs() {
    use gridbits::Board10x10;
    let walls = bitboard!(Board10x10;
        "..........", "..........", "..#####...", "......#...", "......#...",
        "..........", "..........", "..........", "..........", "..........");
    let free = !walls;
    let mut region = Board10x10::cell(0, 0);
    let mut naive = naive_cell(10, 10, 0, 0);
    let nfree = NaiveGrid::from_view(&free);
    for _ in 0..30 {
        region = region.dilate_within(Connectivity::Four, free);
        naive = naive.dilate_within(Connectivity::Four, &nfree);
        check_board(region, &naive, "flood");
    }
    assert_eq!(region, free, "the free cells are connected");
}

#[test]
fn from_rows_rejects_wrong_shapes() {
    type B = Board<3, 2, 1>;
    assert!(
        catch_unwind(|| B::from_rows(&["###"])).is_err(),
        "too few rows"
    );
    assert!(
        catch_unwind(|| B::from_rows(&["###", "##"])).is_err(),
        "short row"
    );
    assert!(
        catch_unwind(|| B::from_rows(&["###", "####"])).is_err(),
        "long row"
    );
    assert!(
        catch_unwind(|| B::from_rows(&["# #", "###"])).is_err(),
        "space"
    );
    assert!(
        catch_unwind(|| B::from_rows(&["#é", "###"])).is_err(),
        "non-ASCII"
    );
    assert_eq!(B::from_rows(&["#.#", ".#."]).count(), 3);
}

#[test]
fn wrong_size_parse_is_an_error() {
    use gridbits::text::ParseErrorKind;
    type B = Board<3, 2, 1>;
    let err = B::parse("###\n").unwrap_err();
    assert_eq!(
        err.kind,
        ParseErrorKind::WrongSize {
            expected: (3, 2),
            found: (3, 1)
        }
    );
    assert_eq!((err.line, err.column), (2, 1));
    let err = B::parse("##\n##\n").unwrap_err();
    assert_eq!(
        err.kind,
        ParseErrorKind::WrongSize {
            expected: (3, 2),
            found: (2, 2)
        }
    );
    assert_eq!((err.line, err.column), (1, 3));
    let err = B::parse("####\n####\n").unwrap_err();
    assert_eq!(
        err.kind,
        ParseErrorKind::WrongSize {
            expected: (3, 2),
            found: (4, 2)
        }
    );
    assert_eq!((err.line, err.column), (1, 4));
    let err = B::parse("###\n###\n###\n").unwrap_err();
    assert_eq!(
        err.kind,
        ParseErrorKind::WrongSize {
            expected: (3, 2),
            found: (3, 3)
        }
    );
    assert_eq!((err.line, err.column), (3, 1));
    assert_eq!(
        err.to_string(),
        "line 3, column 1: grid is 3x3, expected 3x2"
    );
    // Errors of the text itself come first.
    let err = B::parse("#.\t\n").unwrap_err();
    assert_eq!(err.kind, ParseErrorKind::BadByte(b'\t'));
    assert_eq!(B::parse("").unwrap_err().kind, ParseErrorKind::Empty);
}

/// Masks of rows and columns past the board are empty, whatever the index.
#[test]
fn row_and_column_masks_of_huge_indices_are_empty() {
    type B = gridbits::Board8x8;
    assert!(B::row(usize::MAX).is_empty());
    assert!(B::column(usize::MAX).is_empty());
}
