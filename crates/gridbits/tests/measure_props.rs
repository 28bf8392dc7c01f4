//! Property tests of `algo::label::label_values` and `algo::measure` against the plain
//! references of `naive::measure` (queue floods, per-cell sums, skimage's perimeter recipe,
//! components minus holes for the Euler number), on random value images and label images of
//! many sizes (empty sides, 1x1, widths around 64) and densities, both connectivities.

use crate::common::{config, CONNS};

use gridbits::algo::label::label_values;
use gridbits::algo::measure::{
    euler_numbers, filled_areas, intensity_stats, perimeters, perimeters_and_euler_numbers,
    region_boxes, regions,
};
use gridbits::cpu::{with_level, Level};
use gridbits::naive::measure as nm;
use gridbits::Connectivity;
use gridbits_testkit::SplitMix;
use proptest::prelude::*;

const SIZES: [(usize, usize); 12] = [
    (0, 0),
    (0, 5),
    (5, 0),
    (1, 1),
    (1, 9),
    (9, 1),
    (7, 6),
    (63, 3),
    (64, 4),
    (65, 5),
    (20, 17),
    (31, 12),
];

/// [`smooth_values`](crate::common::smooth_values) as `u16`s.
fn values(rng: &mut SplitMix, w: usize, h: usize, classes: u64, smooth: u32) -> Vec<u16> {
    crate::common::smooth_values(rng, (w, h), classes, smooth, |v| v as u16)
}

/// The label image of a random value image, 8-connected or 4-connected.
fn label_image(rng: &mut SplitMix, w: usize, h: usize, conn: Connectivity) -> Vec<u32> {
    let classes = 2 + rng.below(4);
    let smooth = rng.below(90) as u32;
    let v = values(rng, w, h, classes, smooth);
    match label_values(&v, w, h, Some(0), conn) {
        Ok(l) => l.as_slice().to_vec(),
        Err(e) => panic!("{e}"),
    }
}

fn close(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= 1e-9 * scale.max(1.0)
}

/// Checks the run pass ([`regions`] with and without moments, [`region_boxes`]) against the
/// per-cell reference on the label image `labels` (negative labels, given as `signed`,
/// are background and 0 in `labels`).
fn check_regions(labels: &[u32], signed: &[i64], w: usize, h: usize) -> Result<(), TestCaseError> {
    let fail = |e: gridbits::SizeError| TestCaseError::fail(e.to_string());
    let want = nm::regions(labels, w, h);
    let got = regions(signed, w, h, true).map_err(fail)?;
    let basic = regions(signed, w, h, false).map_err(fail)?;
    let boxes = region_boxes(signed, w, h).map_err(fail)?;
    prop_assert_eq!(got.len(), want.len());
    prop_assert_eq!(basic.len(), want.len());
    prop_assert_eq!(boxes.len(), want.len());
    for (i, n) in want.iter().enumerate() {
        prop_assert_eq!(got[i].area, n.area, "label {} {}x{}", i + 1, w, h);
        prop_assert_eq!(boxes[i].area, n.area);
        if n.area == 0 {
            continue;
        }
        prop_assert_eq!(got[i].bbox(), n.bbox);
        prop_assert_eq!(got[i].raw, n.raw, "label {} {}x{}", i + 1, w, h);
        prop_assert_eq!(basic[i].bbox(), n.bbox);
        prop_assert_eq!(boxes[i].bbox(), n.bbox);
        prop_assert_eq!(basic[i].raw[1][0], n.raw[1][0]);
        prop_assert_eq!(basic[i].raw[0][1], n.raw[0][1]);
        prop_assert_eq!(basic[i].centroid(), got[i].centroid());
        prop_assert_eq!(boxes[i].centroid(), got[i].centroid());
        let cells = (0..w * h).filter(|&c| labels[c] as usize == i + 1);
        let (sx, sy) = cells.fold((0u128, 0u128), |(a, b), c| {
            (a + (c % w) as u128, b + (c / w) as u128)
        });
        prop_assert_eq!((boxes[i].sum_x, boxes[i].sum_y), (sx, sy));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(40))]

    /// Label images as any program makes them: labels in any order, neighbouring regions
    /// of different labels, gaps in the numbering, negative values (background), rows
    /// around 64 cells and one row wider than 2^16 (the 128-bit products).
    #[test]
    fn the_run_pass_takes_any_label_image(seed in any::<u64>(), labels in 1u64..40, smooth in 0u32..95) {
        let mut rng = SplitMix::new(seed);
        let mut sizes = SIZES.to_vec();
        sizes.extend([(127, 3), (129, 2), (70_000, 1), (3, 70)]);
        for (w, h) in sizes {
            let mut signed = vec![0i64; w * h];
            for c in 0..w * h {
                signed[c] = if c > 0 && rng.percent(smooth) {
                    signed[c - 1]
                } else if c >= w && rng.percent(smooth) {
                    signed[c - w]
                } else {
                    rng.below(labels + 3) as i64 - 2
                };
            }
            let unsigned: Vec<u32> = signed.iter().map(|&v| v.max(0) as u32).collect();
            check_regions(&unsigned, &signed, w, h)?;
            let small: Vec<i8> = signed.iter().map(|&v| v as i8).collect();
            prop_assert_eq!(regions(&small, w, h, true).ok(), regions(&signed, w, h, true).ok());
        }
    }

    #[test]
    fn label_values_matches_the_flood(seed in any::<u64>(), classes in 1u64..12, smooth in 0u32..95) {
        let mut rng = SplitMix::new(seed);
        for (w, h) in SIZES {
            let v = values(&mut rng, w, h, classes, smooth);
            for conn in CONNS {
                for background in [Some(0), Some(1), None] {
                    let got = label_values(&v, w, h, background, conn).map_err(|e| TestCaseError::fail(e.to_string()))?;
                    let (want, n) = nm::label_values(&v, w, h, background, conn);
                    prop_assert_eq!(got.as_slice(), &want[..], "{}x{} {:?} {:?}", w, h, conn, background);
                    prop_assert_eq!(got.count(), n);
                    let bytes: Vec<u8> = v.iter().map(|&x| x as u8).collect();
                    let bg = background.map(|b| b as u8);
                    // Bytes take the vector compares of the byte path.
                    let fast = label_values(&bytes, w, h, bg, conn).map_err(|e| TestCaseError::fail(e.to_string()))?;
                    prop_assert_eq!(fast, got, "bytes {}x{} {:?} {:?}", w, h, conn, background);
                }
            }
        }
    }

    #[test]
    fn region_properties_match_the_reference(seed in any::<u64>()) {
        let mut rng = SplitMix::new(seed);
        for (w, h) in SIZES {
            let conn = CONNS[rng.below(2) as usize];
            let labels = label_image(&mut rng, w, h, conn);
            let want = nm::regions(&labels, w, h);
            let got = regions(&labels, w, h, true).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let basic = regions(&labels, w, h, false).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let per = perimeters(&labels, w, h).map_err(|e| TestCaseError::fail(e.to_string()))?;
            // The portable copy of the perimeter pass, and wide labels.
            let portable = with_level(Level::Portable, || perimeters(&labels, w, h));
            prop_assert_eq!(portable.ok(), Some(per.clone()));
            let wide: Vec<i64> = labels.iter().map(|&l| i64::from(l)).collect();
            prop_assert_eq!(perimeters(&wide, w, h).ok(), Some(per.clone()));
            let e8 = euler_numbers(&labels, w, h, Connectivity::Eight).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let e4 = euler_numbers(&labels, w, h, Connectivity::Four).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let filled = filled_areas(&labels, w, h, &got).map_err(|e| TestCaseError::fail(e.to_string()))?;
            // Both from one pass of compares, as the separate passes give them.
            for (conn, e) in [(Connectivity::Eight, &e8), (Connectivity::Four, &e4)] {
                let both = perimeters_and_euler_numbers(&wide, w, h, conn).map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(&both.0, &per);
                prop_assert_eq!(&both.1, e);
                let portable = with_level(Level::Portable, || perimeters_and_euler_numbers(&labels, w, h, conn));
                prop_assert_eq!(portable.ok(), Some(both));
            }
            prop_assert_eq!(got.len(), want.len());
            for (i, (g, n)) in got.iter().zip(&want).enumerate() {
                prop_assert_eq!(g.area, n.area, "label {} {}x{}", i + 1, w, h);
                if n.area == 0 {
                    continue;
                }
                prop_assert_eq!(g.bbox(), n.bbox);
                prop_assert_eq!(g.raw, n.raw);
                prop_assert_eq!(basic[i].area, n.area);
                prop_assert_eq!(basic[i].bbox(), n.bbox);
                prop_assert_eq!(basic[i].raw[1][0], n.raw[1][0]);
                prop_assert_eq!(basic[i].raw[0][1], n.raw[0][1]);
                prop_assert_eq!(basic[i].centroid(), g.centroid());
                let mu = g.central();
                let scale = (n.area as f64) * ((w.max(h) as f64).powi(6));
                for (p, (row, want_row)) in mu.iter().zip(&n.central).enumerate() {
                    for (q, (&m, &c)) in row.iter().zip(want_row).enumerate() {
                        prop_assert!(close(m, c, scale), "mu{}{} {} vs {}", p, q, m, c);
                    }
                }
                prop_assert!(close(per[i].perimeter(), n.perimeter, 1.0));
                prop_assert_eq!(e8[i], n.euler8, "euler8 of label {}", i + 1);
                prop_assert_eq!(e4[i], n.euler4, "euler4 of label {}", i + 1);
                prop_assert_eq!(filled[i], n.filled, "filled area of label {}", i + 1);
            }
        }
    }

    #[test]
    fn intensity_statistics_match_the_cells(seed in any::<u64>()) {
        let mut rng = SplitMix::new(seed);
        let mut sizes = SIZES.to_vec();
        sizes.extend([(129, 3), (3, 70)]);
        for (w, h) in sizes {
            let labels = label_image(&mut rng, w, h, Connectivity::Eight);
            let vals: Vec<f64> = (0..w * h).map(|_| rng.below(300) as f64 - 10.0).collect();
            let got = intensity_stats(&labels, w, h, &vals).map_err(|e| TestCaseError::fail(e.to_string()))?;
            // The same values in the integer and float types (each its own loop).
            let small: Vec<i16> = vals.iter().map(|&v| v as i16).collect();
            let wide: Vec<i32> = vals.iter().map(|&v| v as i32).collect();
            let single: Vec<f32> = vals.iter().map(|&v| v as f32).collect();
            let signed_labels: Vec<i64> = labels.iter().map(|&l| i64::from(l)).collect();
            prop_assert_eq!(intensity_stats(&labels, w, h, &small).ok(), Some(got.clone()));
            prop_assert_eq!(intensity_stats(&labels, w, h, &wide).ok(), Some(got.clone()));
            prop_assert_eq!(intensity_stats(&signed_labels, w, h, &single).ok(), Some(got.clone()));
            let bytes: Vec<u8> = vals.iter().map(|&v| v.clamp(0.0, 255.0) as u8).collect();
            let by_bytes = intensity_stats(&labels, w, h, &bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let most = labels.iter().map(|&l| l as usize).max().unwrap_or(0);
            prop_assert_eq!(got.len(), most);
            for (i, s) in got.iter().enumerate() {
                let l = i as u32 + 1;
                let cells: Vec<usize> = (0..w * h).filter(|&c| labels[c] == l).collect();
                if cells.is_empty() {
                    prop_assert_eq!(*s, Default::default());
                    continue;
                }
                prop_assert_eq!(s.sum, cells.iter().map(|&c| vals[c]).sum::<f64>());
                let lo = cells.iter().map(|&c| vals[c]).fold(f64::INFINITY, f64::min);
                let hi = cells.iter().map(|&c| vals[c]).fold(f64::NEG_INFINITY, f64::max);
                prop_assert_eq!((s.min, s.max), (lo, hi));
                let b = &by_bytes[i];
                prop_assert_eq!(b.sum, cells.iter().map(|&c| f64::from(bytes[c])).sum::<f64>());
                prop_assert_eq!(b.min, cells.iter().map(|&c| f64::from(bytes[c])).fold(f64::INFINITY, f64::min));
                prop_assert_eq!(b.max, cells.iter().map(|&c| f64::from(bytes[c])).fold(f64::NEG_INFINITY, f64::max));
            }
        }
    }
}

#[test]
fn full_and_empty_images() {
    for (w, h) in [(1, 1), (63, 2), (64, 3), (65, 4)] {
        let full = vec![1u8; w * h];
        let r = regions(&full, w, h, true).unwrap_or_default();
        assert_eq!((r[0].area, r[0].bbox()), ((w * h) as u64, (0, 0, w, h)));
        let empty = vec![0u8; w * h];
        assert!(regions(&empty, w, h, true).unwrap_or_default().is_empty());
        assert_eq!(
            label_values(&empty, w, h, Some(0), Connectivity::Four)
                .map(|l| l.count())
                .ok(),
            Some(0)
        );
        assert_eq!(
            label_values(&empty, w, h, None, Connectivity::Four)
                .map(|l| l.count())
                .ok(),
            Some(1)
        );
    }
    assert!(regions(&[1u8; 5], 2, 2, false).is_err());
    assert!(region_boxes(&[1u8; 5], 2, 2).is_err());
    assert!(regions(&[1u8; 5], 2, 2, true).is_err());
    // Every cell a region of its own, the last row's runs touching.
    let each: Vec<u16> = (1..=130).collect();
    let r = regions(&each, 65, 2, true).unwrap_or_default();
    assert_eq!(r.len(), 130);
    assert!(r
        .iter()
        .enumerate()
        .all(|(i, g)| g.area == 1 && g.bbox() == (i % 65, i / 65, i % 65 + 1, i / 65 + 1)));
    assert!(label_values(&[1u8; 5], 2, 2, None, Connectivity::Four).is_err());
}

#[test]
fn nan_intensities_are_the_extremes() {
    for vals in [
        [1.0, f64::NAN, -1.0],
        [f64::NAN, 1.0, -1.0],
        [1.0, -1.0, f64::NAN],
    ] {
        let s = intensity_stats(&[1u8, 1, 1], 3, 1, &vals).unwrap_or_default();
        assert!(s[0].sum.is_nan() && s[0].min.is_nan() && s[0].max.is_nan());
        // A NaN in another region or the background leaves the others alone.
        let s = intensity_stats(&[0u8, 2, 2], 3, 1, &vals).unwrap_or_default();
        assert_eq!(s[0], Default::default());
        assert_eq!(s[1].sum.is_nan(), vals[0].is_finite());
    }
}

/// Rings in rings (holes in holes, regions in holes, rings touching the border), the
/// rings of one label or alternating labels, at widths around 64: the filled areas, Euler
/// numbers and box pass against the reference.
#[test]
fn nested_rings_match_the_reference() {
    for side in [3usize, 5, 9, 63, 64, 65, 130] {
        for labels_of in [[1u32, 0, 1, 0], [1, 0, 2, 0], [1, 2, 3, 4], [3, 0, 0, 1]] {
            let w = side;
            let h = side / 2 + 2;
            let labels: Vec<u32> = (0..w * h)
                .map(|c| {
                    let (x, y) = (c % w, c / w);
                    let ring = x.min(y).min(w - 1 - x).min(h - 1 - y);
                    labels_of[ring % 4]
                })
                .collect();
            let want = nm::regions(&labels, w, h);
            let got = regions(&labels, w, h, false).unwrap_or_default();
            let filled = filled_areas(&labels, w, h, &got).unwrap_or_default();
            let e8 = euler_numbers(&labels, w, h, Connectivity::Eight).unwrap_or_default();
            let e4 = euler_numbers(&labels, w, h, Connectivity::Four).unwrap_or_default();
            assert_eq!(filled.len(), want.len(), "{w}x{h} {labels_of:?}");
            for (i, n) in want.iter().enumerate() {
                assert_eq!(got[i].area, n.area);
                if n.area == 0 {
                    continue;
                }
                assert_eq!(got[i].bbox(), n.bbox, "{w}x{h} {labels_of:?}");
                assert_eq!(filled[i], n.filled, "{w}x{h} {labels_of:?} label {}", i + 1);
                assert_eq!(
                    (e8[i], e4[i]),
                    (n.euler8, n.euler4),
                    "{w}x{h} {labels_of:?}"
                );
            }
        }
    }
}
