//! Sizes that cannot be allocated: the fallible ways in return a [`SizeError`] naming the size
//! in cells and bytes (checked without allocating anything large), and agree with the
//! infallible forms on every size that fits. The text parser's measure agrees with `parse`.

use crate::common::*;
use gridbits::algo::distance::{distance_map, try_distance_map, try_layers, DistanceMap};
use gridbits::algo::fill::{fill, try_fill};
use gridbits::algo::voronoi::{
    try_voronoi, try_voronoi_depths, try_voronoi_owners, try_voronoi_owners_with_distances,
    voronoi, voronoi_depths,
};
use gridbits::text::{CharGrid, MAX_CELLS};
use gridbits::{BitGrid, Connectivity, GridError, Moves, SizeError};
use proptest::prelude::*;

#[test]
fn bit_grids_beyond_the_cell_limit_name_cells_and_bytes() {
    let e = BitGrid::try_new(1 << 20, 1 << 20).unwrap_err();
    assert!(e.is_out_of_memory());
    assert_eq!((e.width, e.height, e.what), (1 << 20, 1 << 20, "grid"));
    assert_eq!((e.cells(), e.bytes), (1 << 40, 1 << 37));
    assert_eq!(
        e.to_string(),
        "cannot make a 1048576x1048576 grid (1099511627776 cells, 137438953472 bytes): \
         more than 2^34 cells"
    );
    // width * height overflows usize itself: still an error, the exact count kept.
    let e = BitGrid::try_new(usize::MAX, usize::MAX).unwrap_err();
    assert_eq!(e.cells(), usize::MAX as u128 * usize::MAX as u128);
    assert!(e.is_out_of_memory());
    // One cell past the limit, in one row and in one column.
    let over = MAX_CELLS as usize + 1;
    for (w, h) in [(over, 1), (1, over)] {
        let e = BitGrid::try_new(w, h).unwrap_err();
        assert_eq!(e.reason, "more than 2^34 cells", "{w}x{h}");
    }
    // Zero sides are malformed, not out of memory.
    let e = BitGrid::try_new(0, 5).unwrap_err();
    assert!(!e.is_out_of_memory());
    assert_eq!(e.bytes, 0);
    assert_eq!(
        e.to_string(),
        "cannot make a 0x5 grid: width and height must be at least 1"
    );
}

#[test]
fn distance_maps_whose_bytes_overflow_are_refused_without_allocating() {
    // 4 bytes a cell: 2^64 - 1 cells would need 2^66 bytes.
    let e = DistanceMap::try_new(usize::MAX, 1).unwrap_err();
    assert_eq!(e.what, "distance map");
    assert_eq!(e.bytes, 4 * usize::MAX as u128);
    assert!(e.is_out_of_memory());
    let e = DistanceMap::try_new(1 << 17, (1 << 17) + 1).unwrap_err();
    assert_eq!(e.reason, "more than 2^34 cells");
    assert_eq!(e.bytes, 4 * (1u128 << 34) + 4 * (1 << 17));
    let d = DistanceMap::try_new(3, 2).unwrap();
    assert_eq!(d.as_slice(), [DistanceMap::UNREACHABLE; 6]);
    assert_eq!(d, DistanceMap::new(3, 2));
}

#[test]
fn try_distance_map_reports_mismatches_and_agrees_with_distance_map() {
    let free = BitGrid::full(5, 4);
    let seeds = BitGrid::new(5, 3);
    match try_distance_map(&seeds, &free, Moves::Four, None) {
        Err(GridError::Mismatch(m)) => assert_eq!(m.found, (5, 3)),
        other => panic!("{other:?}"),
    }
    for (w, h) in [
        (1, 1),
        (63, 2),
        (64, 1),
        (65, 3),
        (1, 64),
        (128, 1),
        (16, 8),
        (33, 17),
    ] {
        for (k, moves) in [Moves::Four, Moves::Eight, Moves::Queen]
            .into_iter()
            .enumerate()
        {
            let bits = density_bits(w * h, 0.7, (w * 1000 + h * 10 + k) as u64);
            let passable = grid_of(w, h, &bits);
            let mut src = BitGrid::new(w, h);
            src.set(w / 2, h / 2);
            let want = distance_map(&src, &passable, moves, None);
            let got = try_distance_map(&src, &passable, moves, None).unwrap();
            assert_eq!(got, want, "{w}x{h} {moves:?}");
        }
    }
}

#[test]
fn owners_errors_carry_the_memory_error() {
    let size = BitGrid::try_new(1 << 20, 1 << 20).unwrap_err();
    let e = GridError::Size(size);
    assert_eq!(e.to_string(), size.to_string());
    // On grids that fit, the fallible form runs.
    let free = BitGrid::full(65, 3);
    let o = try_voronoi_owners(&[vec![(0, 0)], vec![(64, 2)]], &free, Moves::Four, None);
    let o = o.unwrap();
    assert_eq!(o.counts().iter().sum::<u64>() + o.contested(), 65 * 3);
    assert_eq!(o.unreached(), 0);
    assert!(o.distances().is_none());
    let players = [vec![(0, 0)], vec![(64, 2)]];
    let od = try_voronoi_owners_with_distances(&players, &free, Moves::Four, None).unwrap();
    assert_eq!((od.as_slice(), od.counts()), (o.as_slice(), o.counts()));
    assert_eq!(od.distances().and_then(|d| d.get(64, 0)), Some(2));
    // Off the grid: the same error with the distance map.
    let off = try_voronoi_owners_with_distances(&[[(65, 0)]], &free, Moves::Four, None);
    assert!(matches!(off, Err(GridError::OffGrid(_))));
}

#[test]
fn sliding_owners_refuse_planes_for_too_many_players() {
    // Sliding moves build two planes per player: 2^40 players (of no cells, so the list
    // itself takes no memory) would need 2^41 grids, refused before any is built.
    let players: Vec<[(usize, usize); 0]> = vec![[]; 1 << 40];
    let free = BitGrid::full(64, 64);
    for moves in [Moves::Rook, Moves::Bishop, Moves::Queen] {
        let e = try_voronoi_owners(&players, &free, moves, None).unwrap_err();
        let GridError::Size(size) = e else {
            panic!("{moves:?}: {e}")
        };
        assert!(size.bytes > 1 << 50, "{moves:?}: {size}");
        assert_eq!(size.what, "grid per player (sliding moves)");
    }
    // The step moves' BFS builds no plane per player, but counts cells per player.
    let e = try_voronoi_owners(&players, &free, Moves::Four, None).unwrap_err();
    assert!(matches!(e, GridError::Size(_)), "{e}");
    let o = try_voronoi_owners(&players[..3], &free, Moves::Four, None).unwrap();
    assert_eq!((o.unreached(), o.counts()), (64 * 64, &[0, 0, 0][..]));
}

#[test]
fn grid_errors_wrap_each_kind() {
    let size: SizeError = BitGrid::try_new(0, 1).unwrap_err();
    let e = GridError::from(size);
    assert_eq!(e.to_string(), size.to_string());
    assert!(std::error::Error::source(&e).is_some());
}

#[test]
fn measure_is_the_size_parse_finds() {
    for (text, size) in [
        (&b""[..], (0, 0)),
        (b"\n\n \r\n", (0, 0)),
        (b"#", (1, 1)),
        (b"..#\r\n#..\r\n", (3, 2)),
        (b"..#\n#..\n\n\t\n", (3, 2)),
        (b"\n..", (0, 2)),
        (b"...\n.", (3, 2)),
    ] {
        assert_eq!(
            CharGrid::measure(text),
            size,
            "{:?}",
            String::from_utf8_lossy(text)
        );
    }
}

proptest! {
    #![proptest_config(config(400))]

    /// Whenever `parse` succeeds its size is `measure`'s; `measure` never reads past the text.
    #[test]
    fn measure_agrees_with_parse(
        rows in proptest::collection::vec(proptest::collection::vec(
            prop_oneof![Just(b'.'), Just(b'#'), Just(b'\r'), Just(b' ')], 0..6), 0..6),
        tail in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b' '), Just(b'\r')], 0..4),
    ) {
        let mut text = rows.join(&b'\n');
        text.extend_from_slice(&tail);
        let (w, h) = CharGrid::measure(&text);
        if let Ok(g) = CharGrid::parse(&text) {
            prop_assert_eq!((g.width(), g.height()), (w, h));
            prop_assert!(w * h <= text.len());
        }
    }
}

/// The fallible forms that reserve their memory first (fill, layers, Voronoi by planes, text
/// and cell lists) give what the infallible forms give on every edge size.
#[test]
fn reserving_forms_agree_with_the_plain_ones() {
    for (w, h) in [
        (1, 1),
        (63, 2),
        (64, 1),
        (65, 3),
        (1, 64),
        (128, 1),
        (64, 2),
        (33, 17),
    ] {
        let bits = density_bits(w * h, 0.6, (w * 7919 + h) as u64);
        let passable = grid_of(w, h, &bits);
        let (mut a, mut b) = (BitGrid::new(w, h), BitGrid::new(w, h));
        a.set(0, 0);
        b.set(w - 1, h - 1);
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let got = try_fill(&a, &passable, conn).unwrap();
            assert_eq!(got, fill(&a, &passable, conn), "{w}x{h}");
        }
        for moves in [Moves::Four, Moves::Eight, Moves::Rook] {
            let players = [a.clone(), b.clone()];
            let got = try_voronoi(&players, &passable, moves, None).unwrap();
            assert_eq!(got, voronoi(&players, &passable, moves, None));
            let got = try_voronoi_depths(&players, &passable, moves, None).unwrap();
            assert_eq!(got, voronoi_depths(&players, &passable, moves, None));
            let layers = try_layers(&a, &passable, moves, None).unwrap().count();
            assert_eq!(
                layers,
                gridbits::algo::distance::layers(&a, &passable, moves, None).count()
            );
        }
        assert_eq!(passable.try_to_text().unwrap(), passable.to_text());
        assert_eq!(passable.try_to_bools().unwrap(), passable.to_bools());
    }
}
