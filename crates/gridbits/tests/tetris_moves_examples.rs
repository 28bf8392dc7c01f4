//! Worked examples of the Tetris move generator: kick tables, spawn, famous setups.

use gridbits::games::tetris::{
    kick_offsets, spawn_position, Input, MoveOptions, Piece, Rotation, Spin, Tetris, Turn,
};

#[test]
fn empty_board_counts() {
    let t = Tetris::<10>::default();
    let counts: Vec<usize> = Piece::ALL.iter().map(|&p| t.moves(p).len()).collect();
    // I O T S Z J L: 7 + 10, 9, 8 + 9 + 8 + 9, 8 + 9 twice, 34 twice.
    assert_eq!(counts, [17, 9, 34, 17, 17, 34, 34]);
    assert!(Piece::ALL
        .iter()
        .all(|&p| t.moves(p).iter().all(|m| m.spin == Spin::None || p == Piece::T)));
}
