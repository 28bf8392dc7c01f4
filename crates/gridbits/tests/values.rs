//! Values behave like values: owned and borrowed operators agree, the text form round-trips
//! through `FromStr` and `Display`, `bool` slices and byte images convert cell by cell, sizes
//! that do not match are errors, and neighbourhood names parse and print.

use crate::common::*;
use gridbits::{BitGrid, Board, Connectivity, ImageError, Moves, OffGrid, SizeMismatch};
use proptest::prelude::*;

/// Sizes that load the word edges: 1x1, widths 63/64/65, exactly 64 and 128 cells.
const SIZES: [(usize, usize); 9] = [
    (1, 1),
    (63, 3),
    (64, 2),
    (65, 3),
    (8, 8),
    (16, 8),
    (130, 2),
    (1, 70),
    (7, 5),
];

fn sized_pair() -> impl Strategy<Value = (usize, usize, Vec<bool>, Vec<bool>)> {
    (0..SIZES.len()).prop_flat_map(|i| {
        let (w, h) = SIZES[i];
        (Just(w), Just(h), pattern(w, h), pattern(w, h))
    })
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn owned_and_borrowed_operators_agree((w, h, a, b) in sized_pair()) {
        let (ga, gb) = (grid_of(w, h, &a), grid_of(w, h, &b));
        let and = &ga & &gb;
        let or = &ga | &gb;
        let xor = &ga ^ &gb;
        for x in 0..w {
            for y in 0..h {
                let (p, q) = (a[y * w + x], b[y * w + x]);
                prop_assert_eq!(and.get(x, y), p && q);
                prop_assert_eq!(or.get(x, y), p || q);
                prop_assert_eq!(xor.get(x, y), p != q);
            }
        }
        prop_assert_eq!(ga.clone() & gb.clone(), and.clone());
        prop_assert_eq!(ga.clone() & &gb, and.clone());
        prop_assert_eq!(&ga & gb.clone(), and.clone());
        prop_assert_eq!(ga.clone() | gb.clone(), or.clone());
        prop_assert_eq!(&ga | gb.clone(), or.clone());
        prop_assert_eq!(ga.clone() ^ gb.clone(), xor.clone());
        prop_assert_eq!(&ga ^ gb.clone(), xor.clone());
        let mut m = ga.clone();
        m &= gb.clone();
        prop_assert_eq!(&m, &and);
        let mut m = ga.clone();
        m |= &gb;
        prop_assert_eq!(&m, &or);
        let mut m = ga.clone();
        m ^= gb.clone();
        prop_assert_eq!(&m, &xor);
        prop_assert_eq!(!ga.clone(), !&ga);
        prop_assert_eq!(ga.try_and(&gb).unwrap(), and);
        prop_assert_eq!(ga.try_or(&gb).unwrap(), or);
        prop_assert_eq!(ga.try_xor(&gb).unwrap(), xor);
        prop_assert_eq!(ga.try_and_not(&gb).unwrap(), ga.and_not(&gb));
    }

    #[test]
    fn grid_text_round_trips((w, h, a, _b) in sized_pair()) {
        let g = grid_of(w, h, &a);
        let text = g.to_string();
        prop_assert_eq!(&text, &g.to_text());
        prop_assert_eq!(text.parse::<BitGrid>().unwrap(), g.clone());
        prop_assert_eq!(BitGrid::from_bools(&g.to_bools(), w, h).unwrap(), g.clone());
        prop_assert_eq!(g.to_bools(), a);
    }

    #[test]
    fn byte_images_pack_cell_by_cell(
        i in 0..SIZES.len(),
        pad in 0usize..70,
        threshold in any::<u8>(),
        seed in any::<u64>(),
    ) {
        let (w, h) = SIZES[i];
        let stride = w + pad;
        let mut rng = SplitMix(seed);
        let pixels: Vec<u8> = (0..stride * h).map(|_| rng.next_u64() as u8).collect();
        let g = BitGrid::from_bytes(&pixels, w, h, stride, threshold).unwrap();
        let wide: Vec<u16> = pixels.iter().map(|&p| p as u16 * 3).collect();
        let g16 = BitGrid::from_slice(&wide, w, h, stride, |v| v > threshold as u16 * 3).unwrap();
        prop_assert_eq!(&g16, &g);
        for y in 0..h {
            for x in 0..w {
                prop_assert_eq!(g.get(x, y), pixels[y * stride + x] > threshold);
            }
        }
        // No bit past the width is ever set.
        prop_assert_eq!(g.count() as usize, g.iter().count());
        let mut out = vec![7u8; stride * h];
        g.write_bytes(&mut out, stride, 1, 0).unwrap();
        for y in 0..h {
            for x in 0..stride {
                let expected = if x < w { g.get(x, y) as u8 } else { 7 };
                prop_assert_eq!(out[y * stride + x], expected);
            }
        }
    }

    #[test]
    fn board_text_and_grid_conversions(a in pattern(10, 10)) {
        type B = gridbits::Board10x10;
        let b: B = board_of(&a);
        prop_assert_eq!(b.to_string().parse::<B>().unwrap(), b);
        prop_assert_eq!(B::from_bools(&a).unwrap(), b);
        let g = BitGrid::from(b);
        prop_assert_eq!(g.to_string(), b.to_string());
        prop_assert_eq!(B::try_from(&g).unwrap(), b);
    }
}

#[test]
fn mismatched_sizes_are_errors() {
    let a = BitGrid::new(3, 2);
    let b = BitGrid::new(2, 3);
    let e = SizeMismatch {
        what: "other",
        reference: "self",
        expected: (3, 2),
        found: (2, 3),
    };
    assert_eq!(a.try_and(&b), Err(e));
    assert_eq!(a.try_or(&b), Err(e));
    assert_eq!(a.try_xor(&b), Err(e));
    assert_eq!(a.try_and_not(&b), Err(e));
    assert_eq!(a.check_same_size(&b), Err(e));
    assert_eq!(a.clone().try_copy_from(&b), Err(e));
    assert_eq!(
        e.to_string(),
        "other is 2x3, expected 3x2 (the size of self)"
    );
    let r = std::panic::catch_unwind(|| &a & &b);
    assert!(r.is_err(), "the operator form panics, as documented");
    assert!(gridbits::Board8x8::try_from_grid(&a).is_err());
    assert!(gridbits::Board8x8::from_bools(&[false; 63]).is_err());
}

#[test]
fn cells_off_the_grid_are_errors() {
    let mut g = BitGrid::new(4, 3);
    assert_eq!(
        g.try_set(4, 0),
        Err(OffGrid {
            cell: (4, 0),
            size: (4, 3)
        })
    );
    assert!(g.try_set(0, 3).is_err());
    assert!(g.try_clear(usize::MAX, 0).is_err());
    assert!(g.try_set(3, 2).is_ok() && g.get(3, 2));
    assert!(g.try_clear(3, 2).is_ok() && !g.get(3, 2));
    let mut b = Board::<5, 5, 1>::EMPTY;
    assert!(b.try_set(5, 0).is_err());
    assert!(Board::<5, 5, 1>::try_cell(0, 5).is_err());
    assert!(b.try_set(4, 4).is_ok() && b.get(4, 4));
    assert!(b.try_clear(4, 4).is_ok() && b.is_empty());
}

#[test]
fn bad_images_are_errors() {
    let px = [1u8; 10];
    assert!(matches!(
        BitGrid::from_bytes(&px, 4, 2, 3, 0),
        Err(ImageError::Stride {
            stride: 3,
            width: 4
        })
    ));
    assert!(matches!(
        BitGrid::from_bytes(&px, 4, 3, 4, 0),
        Err(ImageError::TooShort {
            needed: 12,
            given: 10
        })
    ));
    // The last row needs only `width` elements, not a whole stride.
    assert!(BitGrid::from_bytes(&px, 4, 2, 6, 0).is_ok());
    assert!(matches!(
        BitGrid::from_bytes(&[], 0, 2, 0, 0),
        Err(ImageError::Size(_))
    ));
    assert!(BitGrid::from_bools(&[true; 4], usize::MAX, 2).is_err());
    assert!(matches!(
        BitGrid::from_bools(&[true; 5], 2, 2),
        Err(ImageError::WrongLength {
            expected: 4,
            found: 5
        })
    ));
    let g = BitGrid::new(3, 2);
    assert!(g.write_bytes(&mut [0u8; 5], 3, 1, 0).is_err());
}

#[test]
fn neighbourhood_names_parse_and_print() {
    for c in CONNS {
        assert_eq!(c.to_string().parse::<Connectivity>(), Ok(c));
        assert_eq!(Connectivity::try_from(Moves::from(c)), Ok(c));
    }
    for m in [
        Moves::Four,
        Moves::Eight,
        Moves::Rook,
        Moves::Bishop,
        Moves::Queen,
    ] {
        assert_eq!(m.to_string().parse::<Moves>(), Ok(m));
        assert_eq!(Connectivity::try_from(m).is_ok(), !m.is_sliding());
    }
    assert_eq!("EIGHT".parse::<Connectivity>(), Ok(Connectivity::Eight));
    let e = "6".parse::<Moves>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown value \"6\": expected 4, 8, rook, bishop or queen"
    );
    assert!(Connectivity::try_from(Moves::Rook)
        .unwrap_err()
        .to_string()
        .contains("rook"));
}

#[cfg(feature = "serde")]
#[test]
fn serde_round_trips_and_rejects_bad_rows() {
    let g: BitGrid = "#..\n.#.\n".parse().unwrap();
    let json = serde_json::to_string(&g).unwrap();
    assert_eq!(serde_json::from_str::<BitGrid>(&json).unwrap(), g);
    let b = gridbits::Board::<3, 2, 1>::try_from_grid(&g).unwrap();
    assert_eq!(serde_json::to_string(&b).unwrap(), json);
    assert_eq!(serde_json::from_str::<Board<3, 2, 1>>(&json).unwrap(), b);
    assert!(serde_json::from_str::<Board<2, 2, 1>>(&json).is_err());
    let ragged = r##"{"width":3,"height":2,"rows":["#..","#."]}"##;
    assert!(serde_json::from_str::<BitGrid>(ragged).is_err());
    let bad = r##"{"width":3,"height":1,"rows":["#x."]}"##;
    assert!(serde_json::from_str::<BitGrid>(bad).is_err());
    let conn = serde_json::to_string(&Connectivity::Eight).unwrap();
    assert_eq!(
        serde_json::from_str::<Connectivity>(&conn).unwrap(),
        Connectivity::Eight
    );
}
