//! Flood fill by dilation to a fixpoint: one whole-board step per BFS layer, the engine of
//! fixed boards.

use crate::{BitBoard, Connectivity};

/// Flood fill by repeated dilation inside `passable` until nothing changes.
///
/// One whole-board step per BFS layer: ideal for small boards, where a step is a few word
/// operations, but a winding maze on a large grid needs as many steps as its longest path.
///
/// # Panics
///
/// If `seeds` and `passable` are runtime grids of different sizes.
pub fn fill_dilate<B: BitBoard>(seeds: &B, passable: &B, conn: Connectivity) -> B {
    let mut cur = seeds.clone();
    cur.and_assign(passable);
    loop {
        let next = cur.dilate_within(conn, passable);
        if next == cur {
            return cur;
        }
        cur = next;
    }
}
