//! Hand-checked examples of the naive oracle itself, so the property tests do not trust it
//! blindly.

use gridbits::naive::NaiveGrid;
use gridbits::{Connectivity, Dir};

fn grid(rows: &[&str]) -> NaiveGrid {
    let w = rows[0].len();
    NaiveGrid::from_fn(w, rows.len(), |x, y| rows[y].as_bytes()[x] == b'#')
}

#[test]
fn shifts_by_hand() {
    let g = grid(&["#..", ".#.", "..#"]);
    assert_eq!(g.shift(Dir::E), grid(&[".#.", "..#", "..."]));
    assert_eq!(g.shift(Dir::W), grid(&["...", "#..", ".#."]));
    assert_eq!(g.shift(Dir::N), grid(&[".#.", "..#", "..."]));
    assert_eq!(g.shift(Dir::S), grid(&["...", "#..", ".#."]));
    assert_eq!(g.shift(Dir::NE), grid(&["..#", "...", "..."]));
    assert_eq!(g.shift(Dir::SW), grid(&["...", "...", "#.."]));
    assert_eq!(
        g.shift(Dir::SE),
        grid(&["...", ".#.", "..."]).or(&grid(&["...", "...", "..#"]))
    );
    assert_eq!(g.shift(Dir::NW), grid(&["#..", ".#.", "..."]));
    assert_eq!(g.shift_by(Dir::SE, 2), grid(&["...", "...", "..#"]));
    assert_eq!(g.shift_by(Dir::E, 3), NaiveGrid::new(3, 3));
    assert_eq!(g.shift_by(Dir::E, 0), g);
    assert_eq!(g.cells(), vec![(0, 0), (1, 1), (2, 2)]);
    assert_eq!(g.lowest(), Some((0, 0)));
}

#[test]
fn morphology_by_hand() {
    let g = grid(&[".....", ".....", "..#..", ".....", "....."]);
    assert_eq!(
        g.dilate(Connectivity::Four),
        grid(&[".....", "..#..", ".###.", "..#..", "....."])
    );
    assert_eq!(
        g.dilate(Connectivity::Eight),
        grid(&[".....", ".###.", ".###.", ".###.", "....."])
    );
    let f = NaiveGrid::full(4, 3);
    assert_eq!(f.erode(Connectivity::Four), grid(&["....", ".##.", "...."]));
    assert_eq!(
        f.erode(Connectivity::Eight),
        grid(&["....", ".##.", "...."])
    );
    let plus = grid(&[".#.", "###", ".#."]);
    assert_eq!(plus.erode(Connectivity::Four), grid(&["...", ".#.", "..."]));
    assert_eq!(plus.erode(Connectivity::Eight), NaiveGrid::new(3, 3));
    assert_eq!(NaiveGrid::border_mask(3, 3), grid(&["###", "#.#", "###"]));
    assert_eq!(NaiveGrid::border_mask(1, 1), grid(&["#"]));
    assert_eq!(NaiveGrid::row_mask(2, 2, 1), grid(&["..", "##"]));
    assert_eq!(NaiveGrid::column_mask(2, 2, 0), grid(&["#.", "#."]));
}

#[test]
fn shift_by_beyond_isize_max_is_empty() {
    // Checked separately so the remaining oracle behaviour stays covered.
    let g = NaiveGrid::full(3, 3);
    assert_eq!(g.shift_by(Dir::N, usize::MAX / 2), NaiveGrid::new(3, 3));
}

#[test]
fn naive_shift_by_usize_max_is_empty() {
    let g = NaiveGrid::full(3, 3);
    for d in Dir::ALL {
        assert_eq!(g.shift_by(d, usize::MAX), NaiveGrid::new(3, 3), "{d:?}");
    }
}
