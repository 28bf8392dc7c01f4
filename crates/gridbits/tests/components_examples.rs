//! The worked examples of the article "Fast Connected Components for 6x12 bitboard" as tests
//! of the row-pair
//! table, and a few fixed boards for the fast path and the groups-of-K mask.

use gridbits::algo::components::{
    component_at, components, groups_at_least, row_pair_table, table, table::RowPairTable,
    try_component_at, ComponentsError,
};
use gridbits::{bitboard, Board, Board6x12, Connectivity, OffGrid};

/// A row written as in the article, column 0 first (`"101010"`), as a bit mask.
fn row(s: &str) -> u32 {
    s.bytes()
        .enumerate()
        .fold(0, |acc, (x, c)| acc | (u32::from(c == b'1') << x))
}

#[test]
fn article_example_101010_over_111001() {
    let t = RowPairTable::get(6, Connectivity::Four);
    let (upper, lower) = (row("101010"), row("111001"));
    // tableIndex[101010111001][0] = 011, tableRow[...][0] = 111000.
    assert_eq!(t.index(upper, lower, 0), 0b011);
    assert_eq!(t.row(upper, lower, 0), row("111000"));
    // tableIndex[...][1] = 000, tableRow[...][1] = 000001.
    assert_eq!(t.index(upper, lower, 1), 0);
    assert_eq!(t.row(upper, lower, 1), row("000001"));
    // tableIndex[...][2] = 000, tableRow[...][2] = 000000.
    assert_eq!(t.index(upper, lower, 2), 0);
    assert_eq!(t.row(upper, lower, 2), 0);
    assert_eq!(t.index(upper, lower, 3), 0);

    // The first version of the article draws input component 2 as 000010 / 000001: true
    // with 8-connectivity, where the diagonal joins it to the lower run at column 5.
    let t8 = RowPairTable::get(6, Connectivity::Eight);
    assert_eq!(t8.index(upper, lower, 0), 0b011);
    assert_eq!(t8.index(upper, lower, 1), 0b100);
    assert_eq!(t8.row(upper, lower, 1), row("000001"));

    // At most ceil(6 / 2) = 3 running components.
    assert_eq!(table::slots(6), 3);
    assert_eq!(t.index(row("101010"), row("010101"), 2), 0);
    assert_eq!(t.row(row("101010"), row("101101"), 2), row("000001"));
}

#[test]
fn article_example_as_a_board() {
    type B = Board<6, 2, 1>;
    let plane = bitboard!(B; "#.#.#.", "###..#");
    let four = table::components(plane, Connectivity::Four);
    assert_eq!(
        four,
        [
            bitboard!(B; "#.#...", "###..."),
            bitboard!(B; "....#.", "......"),
            bitboard!(B; "......", ".....#"),
        ]
    );
    let eight = table::components(plane, Connectivity::Eight);
    assert_eq!(
        eight,
        [
            bitboard!(B; "#.#...", "###..."),
            bitboard!(B; "....#.", ".....#"),
        ]
    );
}

/// The article's caveat: the left running component terminates (row 2 has nothing under
/// column 0) while the right one keeps the same component alive.
#[test]
fn caveat_configuration() {
    type B = Board<3, 4, 1>;
    let caveat = bitboard!(B; "###", "#.#", "..#", "..#");
    for conn in [Connectivity::Four, Connectivity::Eight] {
        assert_eq!(table::components(caveat, conn), [caveat]);
        assert_eq!(components(caveat, conn).collect::<Vec<_>>(), [caveat]);
    }
    // Mirrored, and inside a 6x12 board with other components around.
    let mirrored = bitboard!(B; "###", "#.#", "#..", "#..");
    assert_eq!(table::components(mirrored, Connectivity::Four), [mirrored]);
    let field = bitboard!(Board6x12;
        "......", "......", "......", "......", "......", "......",
        "###..#", "#.#...", "..#.##", "..#...", "......", "#.#.#.");
    let parts = table::components(field, Connectivity::Four);
    assert_eq!(parts.len(), 6);
    assert_eq!(parts[0].count(), 7);
    assert_eq!(parts.iter().map(|c| c.count()).sum::<u32>(), field.count());
}

/// Two slots of the upper row that already belong to one component both continue into one
/// lower run: the merge must see the ids are equal and not zero the component.
#[test]
fn merge_of_a_component_with_itself() {
    type B = Board<3, 3, 1>;
    let ring = bitboard!(B; "###", "#.#", "###");
    for conn in [Connectivity::Four, Connectivity::Eight] {
        assert_eq!(table::components(ring, conn), [ring]);
    }
    // A U that closes two rows later, and a W whose three prongs merge at once.
    type C = Board<5, 4, 1>;
    let u = bitboard!(C; "#...#", "#...#", "#...#", "#####");
    assert_eq!(table::components(u, Connectivity::Four), [u]);
    let w = bitboard!(C; "#.#.#", "#.#.#", "#####", ".....");
    assert_eq!(table::components(w, Connectivity::Four), [w]);
}

/// Empty rows are skipped, and components before and after them stay apart.
#[test]
fn empty_rows_between_components() {
    type B = Board<8, 6, 1>;
    let plane =
        bitboard!(B; "#.#.#.#.", "........", "........", ".#.#.#.#", "........", "########");
    let parts = table::components(plane, Connectivity::Eight);
    assert_eq!(parts.len(), 9);
    assert_eq!(parts[8], Board::row(5));
}

#[test]
fn puyo_vanish_mask() {
    // Shapes of four: line, square, L, T, S; and shapes of three that must stay.
    let plane = bitboard!(Board6x12;
        "####..", "......", "##..#.", "##..#.", "....##", "......",
        "#.###.", "#..#..", "......", "##...#", ".##..#", "......");
    let vanish = groups_at_least(plane, 4, Connectivity::Four);
    let want = bitboard!(Board6x12;
        "####..", "......", "##..#.", "##..#.", "....##", "......",
        "..###.", "...#..", "......", "##....", ".##...", "......");
    assert_eq!(vanish, want);
    // With 8-connectivity the two lone pieces in the corner join their neighbours.
    let vanish8 = groups_at_least(plane, 4, Connectivity::Eight);
    assert!(want.is_subset(vanish8));
}

/// Caller mistakes are errors from the `try_` forms, panics (documented) from the others.
#[test]
fn errors_for_cells_off_the_board_and_bad_table_widths() {
    type B = Board<4, 3, 1>;
    let plane = bitboard!(B; "##..", "..#.", "..##");
    assert_eq!(
        try_component_at(plane, 3, 2, Connectivity::Four).unwrap(),
        component_at(plane, 3, 2, Connectivity::Four)
    );
    for (x, y) in [(4, 0), (0, 3), (usize::MAX, 0)] {
        let err = try_component_at(plane, x, y, Connectivity::Eight).unwrap_err();
        assert_eq!(
            err,
            ComponentsError::OffGrid(OffGrid {
                cell: (x, y),
                size: (4, 3)
            })
        );
        assert!(err.to_string().contains("off the 4x3 board"));
        assert!(
            std::panic::catch_unwind(|| component_at(plane, x, y, Connectivity::Four)).is_err()
        );
    }
    for width in [0, 9, 64] {
        let err = RowPairTable::try_get(width, Connectivity::Four).unwrap_err();
        assert_eq!(err, ComponentsError::TableWidth { width });
        assert!(err.to_string().contains("1 to 8 cells wide"));
        assert!(RowPairTable::try_build(width, Connectivity::Eight).is_err());
    }
    let t = RowPairTable::try_get(6, Connectivity::Eight).unwrap();
    assert!(std::ptr::eq(t, RowPairTable::get(6, Connectivity::Eight)));
    // The module's own name and its short alias are one module.
    assert!(std::ptr::eq(
        row_pair_table::RowPairTable::get(5, Connectivity::Four),
        table::RowPairTable::get(5, Connectivity::Four)
    ));
}
