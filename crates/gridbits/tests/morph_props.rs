//! Binary morphology (`algo::morph`) against the per-cell reference `naive::morph`: every
//! footprint kind (squares, rectangles, crosses, disks, diamonds, random patterns with centres
//! on and off the pattern), both border values, repetitions, masks, propagation, hit-or-miss
//! and hole filling, on sizes around the word boundaries and random densities.

use crate::common::SplitMix;
use gridbits::algo::morph::{
    closing_with, dilation, dilation_with, erosion, erosion_with, fill_holes, hit_or_miss,
    opening_with, propagation, try_dilation_with, try_erosion_with, try_propagation, Footprint,
    Iterations, MorphOptions,
};
use gridbits::naive::{morph as nm, NaiveGrid};
use gridbits::BitGrid;
use gridbits_testkit::percent_grid;

const SIZES: &[(usize, usize)] = &[
    (1, 1),
    (1, 6),
    (6, 1),
    (2, 2),
    (63, 3),
    (64, 4),
    (65, 5),
    (17, 13),
    (129, 6),
    (200, 2),
];
const DENSITIES: &[u32] = &[0, 30, 50, 70, 100];
/// The smaller sizes of the properties that repeat to a fixpoint (the reference is slow).
const SMALL: &[(usize, usize)] = &[(1, 1), (1, 6), (6, 1), (2, 2), (63, 3), (65, 4), (17, 9)];

fn naive(g: &BitGrid) -> NaiveGrid {
    NaiveGrid::from_view(g)
}

/// A random pattern of up to 6x6 with a random centre, possibly off the pattern.
fn random_footprint(rng: &mut SplitMix) -> Footprint {
    let w = 1 + rng.below(6) as usize;
    let h = 1 + rng.below(6) as usize;
    let pct = [20, 50, 80, 100][rng.below(4) as usize];
    let cells: Vec<bool> = (0..w * h).map(|_| rng.percent(pct)).collect();
    let fp = Footprint::try_from_cells(w, h, &cells).expect("a valid size");
    let cx = rng.below(w as u64 + 2) as isize - 1;
    let cy = rng.below(h as u64 + 2) as isize - 1;
    fp.with_center(cx, cy)
}

/// A random pattern whose centre is on it and set: repeating to a fixpoint ends.
fn centred_footprint(rng: &mut SplitMix) -> Footprint {
    let fp = random_footprint(rng);
    let (w, h) = (fp.width(), fp.height());
    let (cx, cy) = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
    Footprint::try_from_fn(w, h, |x, y| (x, y) == (cx, cy) || fp.get(x, y))
        .expect("a valid size")
        .with_center(cx as isize, cy as isize)
}

fn footprints(rng: &mut SplitMix) -> Vec<Footprint> {
    let mut v = vec![
        Footprint::cross(),
        Footprint::square(1),
        Footprint::square(3),
        Footprint::square(4),
        Footprint::rect(5, 2),
        Footprint::rect(1, 7),
        Footprint::rect(7, 1),
        Footprint::rect(70, 3),
        Footprint::disk(0),
        Footprint::disk(2),
        Footprint::disk(4),
        Footprint::diamond(2),
        Footprint::diamond(3),
        Footprint::square(3).with_center(0, 2),
        Footprint::rect(4, 3).with_center(-1, 3),
    ];
    for _ in 0..12 {
        v.push(random_footprint(rng));
    }
    v
}

#[test]
fn erosion_and_dilation_match_naive() {
    let mut rng = SplitMix::new(0x0031_0001);
    let fps = footprints(&mut rng);
    for &(w, h) in SIZES {
        for &pct in DENSITIES {
            let g = percent_grid(&mut rng, w, h, pct);
            let n = naive(&g);
            for fp in &fps {
                for border in [false, true] {
                    let opts = MorphOptions {
                        border,
                        ..MorphOptions::default()
                    };
                    let e = erosion_with(&g, fp, &opts);
                    assert_eq!(
                        naive(&e),
                        nm::erosion(&n, fp, border),
                        "erosion {w}x{h} {pct}% border {border} by\n{fp}centre {:?}",
                        fp.center()
                    );
                    let d = dilation_with(&g, fp, &opts);
                    assert_eq!(
                        naive(&d),
                        nm::dilation(&n, fp, border),
                        "dilation {w}x{h} {pct}% border {border} by\n{fp}centre {:?}",
                        fp.center()
                    );
                    assert_eq!(
                        e.words(),
                        BitGrid::from_fn(w, h, |x, y| e.get(x, y)).unwrap().words()
                    );
                }
            }
            assert_eq!(
                naive(&erosion(&g, &fps[0])),
                nm::erosion(&n, &fps[0], false)
            );
            assert_eq!(
                naive(&dilation(&g, &fps[0])),
                nm::dilation(&n, &fps[0], false)
            );
        }
    }
}

#[test]
fn repetitions_and_masks_match_naive() {
    let mut rng = SplitMix::new(0x0031_0002);
    let fps = [
        Footprint::cross(),
        Footprint::square(3),
        Footprint::disk(2),
        Footprint::rect(3, 2).with_center(0, 0),
        centred_footprint(&mut rng),
        centred_footprint(&mut rng),
    ];
    for &(w, h) in SMALL {
        for &pct in &[30, 70] {
            let g = percent_grid(&mut rng, w, h, pct);
            let m = percent_grid(&mut rng, w, h, 60);
            let (n, nmask) = (naive(&g), naive(&m));
            for fp in &fps {
                for (iterations, times) in [
                    (Iterations::Times(0), Some(0)),
                    (Iterations::Times(2), Some(2)),
                    (Iterations::Times(3), Some(3)),
                    (Iterations::UntilStable, None),
                ] {
                    for mask in [false, true] {
                        for border in [false, true] {
                            let opts = MorphOptions {
                                border,
                                iterations,
                                mask: mask.then_some(&m),
                            };
                            let nmask = mask.then_some(&nmask);
                            for erode in [true, false] {
                                let got = if erode {
                                    erosion_with(&g, fp, &opts)
                                } else {
                                    dilation_with(&g, fp, &opts)
                                };
                                let want = nm::repeated(&n, fp, erode, border, times, nmask);
                                assert_eq!(
                                    naive(&got),
                                    want,
                                    "erode {erode} {w}x{h} {iterations:?} mask {mask} border {border}\n{fp}"
                                );
                            }
                            let open = opening_with(&g, fp, &opts);
                            let e = nm::repeated(&n, fp, true, border, times, nmask);
                            assert_eq!(
                                naive(&open),
                                nm::repeated(&e, fp, false, border, times, nmask)
                            );
                            let close = closing_with(&g, fp, &opts);
                            let d = nm::repeated(&n, fp, false, border, times, nmask);
                            assert_eq!(
                                naive(&close),
                                nm::repeated(&d, fp, true, border, times, nmask)
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn propagation_matches_naive() {
    let mut rng = SplitMix::new(0x0031_0003);
    let fps = [
        Footprint::cross(),
        Footprint::square(3),
        Footprint::diamond(2),
        Footprint::cross().with_center(0, 1),
        centred_footprint(&mut rng),
        centred_footprint(&mut rng),
    ];
    for &(w, h) in SMALL {
        for &pct in &[2, 20, 60] {
            let seeds = percent_grid(&mut rng, w, h, pct);
            let m = percent_grid(&mut rng, w, h, 65);
            let (ns, nmask) = (naive(&seeds), naive(&m));
            for fp in &fps {
                for border in [false, true] {
                    for mask in [false, true] {
                        let got = propagation(&seeds, fp, mask.then_some(&m), border);
                        let want =
                            nm::repeated(&ns, fp, false, border, None, mask.then_some(&nmask));
                        assert_eq!(
                            naive(&got),
                            want,
                            "{w}x{h} border {border} mask {mask}\n{fp}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn hit_or_miss_and_fill_holes_match_naive() {
    let mut rng = SplitMix::new(0x0031_0004);
    for &(w, h) in SMALL {
        for &pct in DENSITIES {
            let g = percent_grid(&mut rng, w, h, pct);
            let n = naive(&g);
            for fp in [
                Footprint::cross(),
                Footprint::square(3),
                Footprint::diamond(2),
            ] {
                assert_eq!(
                    naive(&fill_holes(&g, &fp)),
                    nm::fill_holes(&n, &fp),
                    "{w}x{h}\n{fp}"
                );
            }
            for _ in 0..4 {
                let (hit, miss) = (random_footprint(&mut rng), random_footprint(&mut rng));
                assert_eq!(
                    naive(&hit_or_miss(&g, &hit, &miss)),
                    nm::hit_or_miss(&n, &hit, &miss),
                    "{w}x{h} hit\n{hit}miss\n{miss}"
                );
            }
        }
    }
}

#[test]
fn footprints_are_the_expected_shapes() {
    assert_eq!(Footprint::square(3).count(), 9);
    assert_eq!(
        Footprint::cross().offsets(),
        vec![(0, -1), (-1, 0), (0, 0), (1, 0), (0, 1)]
    );
    // Disk: dx² + dy² <= r² counts lattice points.
    for r in 0..20usize {
        let d = Footprint::disk(r);
        let ri = r as i64;
        let expected = (-ri..=ri)
            .flat_map(|y| (-ri..=ri).map(move |x| (x, y)))
            .filter(|(x, y)| x * x + y * y <= ri * ri)
            .count();
        assert_eq!(d.count(), expected);
        assert_eq!(Footprint::diamond(r).count(), 2 * r * r + 2 * r + 1);
    }
    let fp = random_footprint(&mut SplitMix::new(7));
    assert_eq!(fp.reflected().reflected(), fp);
    assert!(Footprint::try_from_fn(0, 3, |_, _| true).is_err());
    assert!(Footprint::try_from_cells(2, 2, &[true; 3]).is_err());
    assert!(Footprint::try_rect(1 << 20, 1).is_err());
}

#[test]
fn masks_of_another_size_are_errors() {
    let g = BitGrid::new(8, 8);
    let m = BitGrid::new(8, 7);
    let opts = MorphOptions {
        mask: Some(&m),
        ..MorphOptions::default()
    };
    let err = try_erosion_with(&g, &Footprint::cross(), &opts).unwrap_err();
    assert_eq!(
        err.to_string(),
        "mask is 8x7, expected 8x8 (the size of grid)"
    );
    assert!(try_dilation_with(&g, &Footprint::cross(), &opts).is_err());
    assert!(try_propagation(&g, &Footprint::cross(), Some(&m), false).is_err());
}

#[test]
fn repeating_without_the_centre_ends() {
    // The ring around the centre turns a checkerboard into its complement and back: the
    // repetition to a fixpoint stops at the cycle instead of looping forever.
    let ring = Footprint::try_from_fn(3, 3, |x, y| (x, y) != (1, 1)).unwrap();
    let board = BitGrid::from_fn(9, 7, |x, y| (x + y) % 2 == 0).unwrap();
    let opts = MorphOptions {
        border: true,
        iterations: Iterations::UntilStable,
        mask: None,
    };
    let got = erosion_with(&board, &ring, &opts);
    let once = erosion_with(
        &board,
        &ring,
        &MorphOptions {
            border: true,
            ..MorphOptions::default()
        },
    );
    assert!(got.count() <= once.count().max(board.count()) + 63);
}

#[test]
fn repetitions_without_the_centre_match_naive() {
    // Without its centre a footprint can cycle (the ring turns a checkerboard into its
    // complement and back); a fixed count of repetitions stops at the first step that
    // changes nothing or gives back the grid of two steps before, and must still give the
    // result of every step: the parity of the count decides within a cycle of two.
    let mut rng = SplitMix::new(0x0031_0007);
    let ring = Footprint::try_from_fn(3, 3, |x, y| (x, y) != (1, 1)).unwrap();
    let mut fps = vec![ring];
    for _ in 0..6 {
        fps.push(random_footprint(&mut rng));
    }
    let checker = BitGrid::from_fn(9, 7, |x, y| (x + y) % 2 == 0).unwrap();
    let mut grids = vec![checker];
    for &(w, h) in &[(1, 1), (2, 2), (6, 1), (17, 9)] {
        grids.push(percent_grid(&mut rng, w, h, 50));
    }
    for g in &grids {
        let n = naive(g);
        for fp in &fps {
            for border in [false, true] {
                for erode in [true, false] {
                    for times in [1, 2, 3, 4, 5, 6, 100, 101] {
                        let opts = MorphOptions {
                            border,
                            iterations: Iterations::Times(times),
                            mask: None,
                        };
                        let got = if erode {
                            erosion_with(g, fp, &opts)
                        } else {
                            dilation_with(g, fp, &opts)
                        };
                        assert_eq!(
                            naive(&got),
                            nm::repeated(&n, fp, erode, border, Some(times), None),
                            "erode {erode} {}x{} x{times} border {border}\n{fp}centre {:?}",
                            g.width(),
                            g.height(),
                            fp.center()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn footprints_larger_than_the_grid_match_naive() {
    // The engines cut a footprint to the offsets that can join two cells of the grid; the
    // offsets cut off read the border everywhere. Large patterns, centres on and off them,
    // on grids far smaller.
    let mut rng = SplitMix::new(0x0031_0008);
    let fps = [
        Footprint::disk(40),
        Footprint::diamond(30),
        Footprint::square(61),
        Footprint::rect(90, 3).with_center(-5, 1),
        Footprint::rect(3, 90).with_center(1, 95),
        Footprint::try_from_fn(50, 50, |x, y| x == 49 && y == 0).unwrap(),
        Footprint::try_from_fn(50, 50, |x, y| (x + y) % 7 == 0).unwrap(),
    ];
    for &(w, h) in &[(1, 1), (3, 2), (2, 5), (7, 7), (70, 3)] {
        for pct in [0, 50, 100] {
            let g = percent_grid(&mut rng, w, h, pct);
            let n = naive(&g);
            for fp in &fps {
                for border in [false, true] {
                    let opts = MorphOptions {
                        border,
                        ..MorphOptions::default()
                    };
                    let what = format!("{w}x{h} {pct}% border {border} centre {:?}", fp.center());
                    let e = erosion_with(&g, fp, &opts);
                    assert_eq!(naive(&e), nm::erosion(&n, fp, border), "erosion {what}");
                    let d = dilation_with(&g, fp, &opts);
                    assert_eq!(naive(&d), nm::dilation(&n, fp, border), "dilation {what}");
                }
            }
            let filled = fill_holes(&g, &fps[1]);
            assert_eq!(
                naive(&filled),
                nm::fill_holes(&n, &fps[1]),
                "fill_holes {w}x{h}"
            );
        }
    }
}
