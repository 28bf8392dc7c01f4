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
    assert!(Piece::ALL.iter().all(|&p| t
        .moves(p)
        .iter()
        .all(|m| m.spin == Spin::None || p == Piece::T)));
}

/// A 10 x 40 matrix with `bottom` as its last rows.
fn matrix(bottom: &str) -> Tetris<10> {
    let rows = bottom.lines().count();
    let mut text = "..........\n".repeat(40 - rows);
    text.push_str(bottom);
    text.parse().unwrap()
}

#[test]
fn kick_tables() {
    use Rotation::*;
    // Guideline values (y down here): J L S T Z and I, every quarter turn.
    assert_eq!(
        kick_offsets(Piece::T, Spawn, Turn::Cw),
        &[(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]
    );
    assert_eq!(
        kick_offsets(Piece::J, Right, Turn::Cw),
        &[(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]
    );
    assert_eq!(
        kick_offsets(Piece::S, Two, Turn::Cw),
        &[(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]
    );
    assert_eq!(
        kick_offsets(Piece::Z, Left, Turn::Cw),
        &[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]
    );
    assert_eq!(
        kick_offsets(Piece::L, Spawn, Turn::Ccw),
        &[(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]
    );
    assert_eq!(
        kick_offsets(Piece::I, Spawn, Turn::Cw),
        &[(0, 0), (-2, 0), (1, 0), (-2, 1), (1, -2)]
    );
    assert_eq!(
        kick_offsets(Piece::I, Right, Turn::Cw),
        &[(0, 0), (-1, 0), (2, 0), (-1, -2), (2, 1)]
    );
    assert_eq!(
        kick_offsets(Piece::I, Two, Turn::Cw),
        &[(0, 0), (2, 0), (-1, 0), (2, -1), (-1, 2)]
    );
    assert_eq!(
        kick_offsets(Piece::I, Left, Turn::Cw),
        &[(0, 0), (1, 0), (-2, 0), (1, 2), (-2, -1)]
    );
    assert_eq!(kick_offsets(Piece::O, Left, Turn::Ccw), &[(0, 0)]);
    for p in Piece::ALL {
        for r in Rotation::ALL {
            assert_eq!(kick_offsets(p, r, Turn::Half), &[(0, 0)]);
            // Turning back undoes the kick: r -> r' tests are the negated r' -> r tests.
            let there = kick_offsets(p, r, Turn::Cw);
            let back = kick_offsets(p, r.cw(), Turn::Ccw);
            assert!(
                there
                    .iter()
                    .zip(back)
                    .all(|(a, b)| (a.0, a.1) == (-b.0, -b.1)),
                "{p:?} {r}"
            );
        }
        // J L S T Z share one table; I has its own.
        if !matches!(p, Piece::I | Piece::O) {
            for r in Rotation::ALL {
                assert_eq!(
                    kick_offsets(p, r, Turn::Cw),
                    kick_offsets(Piece::T, r, Turn::Cw)
                );
            }
        }
    }
}

#[test]
fn spawn_rule() {
    assert_eq!(spawn_position(Piece::T, 10, 40), (3, 18));
    assert_eq!(spawn_position(Piece::O, 10, 40), (4, 18));
    assert_eq!(spawn_position(Piece::I, 10, 40), (3, 18));
    assert_eq!(spawn_position(Piece::J, 7, 10), (2, 0));
    assert_eq!(spawn_position(Piece::I, 7, 10), (1, -1));
    let t = Tetris::<10>::default();
    assert_eq!(t.spawn(Piece::T), Some((3, 18)));
    // The I lies on row 19, just above the visible 20 rows, columns 3-6.
    let i = t.moves_with_inputs(Piece::I, &MoveOptions::default());
    assert!(i
        .iter()
        .any(|(p, inputs)| p.x == 3 && p.y == 38 && inputs == &[Input::Drop]));
    // Blocked: one row up, then game over.
    let mut t = Tetris::<10>::default();
    t.board_mut().set(4, 19);
    assert_eq!(t.spawn(Piece::T), Some((3, 17)));
    t.board_mut().set(4, 18);
    assert_eq!(t.spawn(Piece::T), None);
    assert!(t.moves(Piece::T).is_empty());
    assert_eq!(t.spawn(Piece::O), None); // O at columns 4-5 rows 18-19
    assert_eq!(t.spawn(Piece::I), None); // row 19, then row 18
}

#[test]
fn rotate_and_move() {
    let t = Tetris::<10>::default();
    assert_eq!(t.move_left(Piece::T, Rotation::Spawn, 0, 5), None);
    assert_eq!(t.move_right(Piece::T, Rotation::Spawn, 6, 5), Some(7));
    assert_eq!(t.move_right(Piece::T, Rotation::Spawn, 7, 5), None);
    // A vertical I against the right wall kicks left when turned flat.
    let k = t.rotate_cw(Piece::I, Rotation::Right, 7, 10).unwrap();
    assert_eq!((k.rotation, k.x, k.y, k.test), (Rotation::Two, 6, 10, 1));
    let k = t.rotate_180(Piece::T, Rotation::Spawn, 3, 10).unwrap();
    assert_eq!((k.rotation, k.x, k.y, k.test), (Rotation::Two, 3, 10, 0));
    assert_eq!(
        t.rotate_ccw(Piece::O, Rotation::Spawn, 4, 38).unwrap().test,
        0
    );
}

#[test]
fn tsd_slot() {
    let mut t = matrix("##........\n#...######\n##.#######\n");
    let m = t.moves(Piece::T);
    let tsd = m
        .iter()
        .find(|p| p.rotation == Rotation::Two && (p.x, p.y) == (1, 37))
        .unwrap();
    assert_eq!(tsd.spin, Spin::Full);
    // The same cells dropped flat are not a spin; the slot only takes the T by rotation.
    assert_eq!(t.drop_from_top(Piece::T, Rotation::Two, 1), Some(35));
    assert_eq!(t.place(Piece::T, Rotation::Two, 1, 37), Some(2));
}

#[test]
fn tst_slot_takes_the_fifth_kick() {
    let bottom = "###.......\n##........\n##.#######\n##..######\n##.#######\n";
    let t = matrix(bottom);
    let all = t.moves_with_inputs(Piece::T, &MoveOptions::default());
    let (p, inputs) = all
        .iter()
        .find(|(p, _)| p.rotation == Rotation::Right && (p.x, p.y) == (1, 37))
        .unwrap();
    assert_eq!(p.spin, Spin::Full);
    // The T slides under the roof flat, then turns clockwise with test 5: one left, two down.
    assert_eq!(inputs.last(), Some(&Input::Cw));
    let k = t.rotate_cw(Piece::T, Rotation::Spawn, 2, 35).unwrap();
    assert_eq!((k.rotation, k.x, k.y, k.test), (Rotation::Right, 1, 37, 4));
    let mut after = t;
    assert_eq!(after.place(Piece::T, Rotation::Right, 1, 37), Some(3));
    // With a front corner open the corners say mini, but the fifth kick makes it full.
    let t = matrix("###.......\n##........\n##.#######\n##..######\n##..######\n");
    assert_eq!(t.t_spin(Rotation::Right, 1, 37, 0), Spin::Mini);
    assert_eq!(t.t_spin(Rotation::Right, 1, 37, 4), Spin::Full);
    let p = t
        .moves(Piece::T)
        .into_iter()
        .find(|p| p.rotation == Rotation::Right && (p.x, p.y) == (1, 37))
        .unwrap();
    assert_eq!(p.spin, Spin::Full);
}

#[test]
fn no_spins_on_the_empty_matrix() {
    // Walls and floor give at most 2 of the 4 corners of a T's box: no spin anywhere.
    let t = Tetris::<10>::default();
    assert!(t.moves(Piece::T).iter().all(|p| p.spin == Spin::None));
    // In the TSD slot, a T turned pointing up has 3 corners but only one front one: a mini.
    let t = matrix("##........\n#...######\n##.#######\n");
    let m = t.moves(Piece::T);
    let minis: Vec<_> = m.iter().filter(|p| p.spin == Spin::Mini).collect();
    assert!(
        minis
            .iter()
            .any(|p| (p.rotation, p.x, p.y) == (Rotation::Spawn, 1, 37)),
        "{minis:?}"
    );
}

#[test]
fn i_in_a_well() {
    let row = "#########.\n";
    let mut t = matrix(&row.repeat(4));
    let m = t.moves(Piece::I);
    // Vertical I placements are merged (R and L cover the same cells) and reported as R.
    assert!(m
        .iter()
        .all(|p| p.rotation != Rotation::Two && p.rotation != Rotation::Left));
    let well = m
        .iter()
        .find(|p| p.cells().iter().all(|&(x, _)| x == 9))
        .unwrap();
    assert_eq!((well.rotation, well.x, well.y), (Rotation::Right, 7, 36));
    assert_eq!(t.place(Piece::I, well.rotation, well.x, well.y), Some(4));
}

#[test]
fn s_spin_into_a_cave() {
    let t: Tetris<10> = "..........\n..........\n..........\n..........\n###..#####\n\
                         ##..######\n....#..###\n.#####....\n"
        .parse()
        .unwrap();
    let all = t.moves_with_inputs(Piece::S, &MoveOptions::default());
    let (p, inputs) = all
        .iter()
        .find(|(p, _)| p.rotation == Rotation::Spawn && (p.x, p.y) == (2, 4))
        .unwrap();
    // Not reachable by a drop: the S turns into the cave.
    assert_ne!(t.drop_from_top(Piece::S, Rotation::Spawn, 2), Some(4));
    assert_eq!(inputs, &[Input::Drop, Input::Cw, Input::Left, Input::Cw]);
    assert_eq!(p.spin, Spin::None); // only T-spins are scored
    let mut after = t;
    assert_eq!(after.place(Piece::S, Rotation::Spawn, 2, 4), Some(2));
}

#[test]
fn start_option_and_half_turns() {
    let t = matrix("#.........\n#.........\n");
    let from = MoveOptions {
        start: Some((Rotation::Right, 5, 10)),
        ..MoveOptions::default()
    };
    assert_eq!(t.moves_with(Piece::T, &from).len(), t.moves(Piece::T).len());
    let off = MoveOptions {
        start: Some((Rotation::Spawn, -5, 10)),
        ..MoveOptions::default()
    };
    assert!(t.moves_with(Piece::T, &off).is_empty());
    let half = MoveOptions {
        rotate_180: true,
        ..MoveOptions::default()
    };
    let all = t.moves_with_inputs(Piece::T, &half);
    let (_, inputs) = all
        .iter()
        .find(|(p, _)| p.rotation == Rotation::Two && p.x == 3)
        .unwrap();
    assert!(
        inputs.contains(&Input::Half) && inputs.len() == 2,
        "{inputs:?}"
    );
}

/// Found by the `tetris_moves` fuzz target: on a matrix narrower than a kick's shift (an I
/// piece standing in a 1-wide matrix, from a start given in the options) the generator
/// indexed a column range off the matrix and panicked. Every start on 1- and 2-wide
/// matrices against the state-space BFS.
#[test]
fn kicks_wider_than_the_matrix() {
    fn check<const W: usize>(h: usize) {
        let t = Tetris::<W>::new(h);
        let n = gridbits::naive::tetris::NaiveTetris::new(W, h);
        for piece in Piece::ALL {
            for r in Rotation::ALL {
                for x in -3..=W as i32 {
                    for y in [-3, -1, 0, h as i32 / 2, h as i32 - 4, h as i32 - 1] {
                        for half in [false, true] {
                            let start = Some((r, x, y));
                            let opts = MoveOptions {
                                rotate_180: half,
                                start,
                            };
                            let want: Vec<_> =
                                gridbits::naive::tetris_moves::naive_moves(&n, piece, half, start);
                            assert_eq!(t.moves_with(piece, &opts), want, "{piece:?} {start:?}");
                        }
                    }
                }
            }
        }
    }
    for h in [4, 21] {
        check::<1>(h);
        check::<2>(h);
    }
}
