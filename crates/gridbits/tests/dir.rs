//! Directions and connectivities.

use gridbits::{Connectivity, Dir};
use std::collections::HashSet;

#[test]
fn directions() {
    let deltas: HashSet<(isize, isize)> = Dir::ALL.iter().map(|d| d.delta()).collect();
    assert_eq!(deltas.len(), 8, "eight distinct deltas");
    for (i, d) in Dir::ALL.into_iter().enumerate() {
        let (dx, dy) = d.delta();
        assert!(
            dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0),
            "{d:?}"
        );
        assert_eq!(d.index(), i, "{d:?} index");
        assert_eq!(d.opposite().delta(), (-dx, -dy), "{d:?} opposite");
        assert_eq!(d.opposite().opposite(), d);
        // Clockwise from north: the cross product of consecutive deltas is positive
        // (y grows downwards).
        let (ex, ey) = Dir::ALL[(i + 1) % 8].delta();
        assert!(dx * ey - dy * ex > 0, "{d:?} then the next is clockwise");
    }
    assert_eq!(Dir::N.delta(), (0, -1));
    assert_eq!(Dir::E.delta(), (1, 0));
    assert_eq!(Dir::SW.delta(), (-1, 1));
    for d in Dir::ORTHOGONAL {
        let (dx, dy) = d.delta();
        assert_eq!(dx.abs() + dy.abs(), 1, "{d:?} orthogonal");
    }
    for d in Dir::DIAGONAL {
        let (dx, dy) = d.delta();
        assert_eq!((dx.abs(), dy.abs()), (1, 1), "{d:?} diagonal");
    }
    assert_eq!(Connectivity::Four.dirs(), &Dir::ORTHOGONAL);
    assert_eq!(Connectivity::Eight.dirs(), &Dir::ALL);
}
