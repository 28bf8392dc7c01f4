//! Property tests of `algo::skeleton` (skeletonize, thin) against the per-pixel reference
//! `naive::skeleton`, on sizes around the word boundaries, random densities, blobs, full and
//! empty grids, and every iteration limit of `thin` up to convergence.

use crate::common::{config, SplitMix};
use gridbits::algo::skeleton::{skeletonize, thin};
use gridbits::cpu::{self, Level};
use gridbits::naive::{skeleton as naive, NaiveGrid};
use gridbits::BitGrid;
use gridbits_testkit::random_grid;
use proptest::prelude::*;

/// Sizes `(width, height)`: single pixels and lines, 2x2 and 3x3, widths around 64 and 128,
/// tall and wide.
const SIZES: [(usize, usize); 16] = [
    (1, 1),
    (1, 9),
    (9, 1),
    (2, 2),
    (3, 3),
    (4, 7),
    (63, 6),
    (64, 5),
    (65, 7),
    (127, 4),
    (128, 3),
    (129, 6),
    (5, 63),
    (3, 70),
    (200, 12),
    (70, 70),
];

/// A grid of random discs and rectangles (radius / half-size 1 to `max_r`): thick objects
/// whose skeletons take many iterations, touching the edges of the grid.
fn blobs(rng: &mut SplitMix, w: usize, h: usize, count: usize, max_r: usize) -> BitGrid {
    let mut g = BitGrid::new(w, h);
    for _ in 0..count {
        let (cx, cy) = (rng.below(w as u64) as i64, rng.below(h as u64) as i64);
        let r = 1 + rng.below(max_r as u64) as i64;
        let square = rng.percent(30);
        for y in (cy - r).max(0)..=(cy + r).min(h as i64 - 1) {
            for x in (cx - r).max(0)..=(cx + r).min(w as i64 - 1) {
                let (dx, dy) = (x - cx, y - cy);
                if square || dx * dx + dy * dy <= r * r {
                    g.set(x as usize, y as usize);
                }
            }
        }
    }
    g
}

/// Checks skeletonize and thin (unbounded and with limits 0 to 3) against the oracle, and
/// that both results are fixed points contained in the input.
fn check(g: &BitGrid) -> Result<(), TestCaseError> {
    check_limits(g, &[0, 1, 2, 3])
}

/// [`check`] with thin's iteration limits `limits`.
fn check_limits(g: &BitGrid, limits: &[usize]) -> Result<(), TestCaseError> {
    let ng = NaiveGrid::from_view(g);
    let what = || format!("{}x{} grid\n{g}", g.width(), g.height());
    let skel = skeletonize(g);
    prop_assert_eq!(
        NaiveGrid::from_view(&skel),
        naive::skeletonize(&ng),
        "skeletonize of {}",
        what()
    );
    prop_assert!(skel.is_subset(g));
    prop_assert_eq!(
        skeletonize(&skel),
        skel.clone(),
        "skeleton is a fixed point"
    );
    let thinned = thin(g, None);
    prop_assert_eq!(
        NaiveGrid::from_view(&thinned),
        naive::thin(&ng, None),
        "thin of {}",
        what()
    );
    prop_assert!(thinned.is_subset(g));
    prop_assert_eq!(
        thin(&thinned, None),
        thinned.clone(),
        "thin is a fixed point"
    );
    for &limit in limits {
        prop_assert_eq!(
            NaiveGrid::from_view(&thin(g, Some(limit))),
            naive::thin(&ng, Some(limit)),
            "thin with max {} iterations of {}",
            limit,
            what()
        );
    }
    Ok(())
}

#[test]
fn random_densities_on_edge_sizes() {
    let mut rng = SplitMix::new(0x5ce1_e70f);
    for (w, h) in SIZES {
        for density in [0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0] {
            let g = random_grid(&mut rng, w, h, density);
            check(&g).unwrap();
        }
    }
}

#[test]
fn empty_and_full_grids() {
    for (w, h) in SIZES {
        check(&BitGrid::new(w, h)).unwrap();
        check(&BitGrid::full(w, h)).unwrap();
    }
}

#[test]
fn blobs_on_edge_sizes() {
    let mut rng = SplitMix::new(0xb10b);
    for (w, h) in SIZES {
        for (count, max_r) in [(3, 4), (8, 10), (40, 3)] {
            check(&blobs(&mut rng, w, h, count, max_r)).unwrap();
        }
    }
}

/// Thick shapes, some on wide images: many iterations, in the later ones most words no longer
/// change and the engine skips them (and whole rows); the skipping must not change a pixel.
#[test]
fn large_blobs_take_many_iterations() {
    let mut rng = SplitMix::new(0xdeed);
    for (w, h, count, r) in [
        (150, 90, 12, 30),
        (320, 70, 10, 30),
        (257, 129, 25, 20),
        (700, 20, 30, 9),
    ] {
        check_limits(&blobs(&mut rng, w, h, count, r), &[5, 9, 14]).unwrap();
    }
}

/// Every compiled copy of the engine (portable, AVX2, AVX-512, as far as this CPU goes)
/// against the oracle.
#[test]
fn every_cpu_level_agrees_with_the_oracle() {
    let mut rng = SplitMix::new(0x1e7e1);
    let grids = [
        blobs(&mut rng, 300, 50, 12, 20),
        random_grid(&mut rng, 129, 33, 0.5),
        random_grid(&mut rng, 65, 40, 0.8),
        BitGrid::full(64, 9),
    ];
    for level in Level::ALL {
        for g in &grids {
            cpu::with_level(level, || check(g)).unwrap_or_else(|e| panic!("{level:?}: {e}"));
        }
    }
}

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn random_grids(w in 1usize..140, h in 1usize..24, density in 0u32..=100, seed: u64) {
        let mut rng = SplitMix::new(seed);
        check(&random_grid(&mut rng, w, h, f64::from(density) / 100.0))?;
    }

    #[test]
    fn random_blobs(w in 1usize..140, h in 1usize..40, count in 1usize..30, r in 1usize..12,
                    seed: u64) {
        let mut rng = SplitMix::new(seed);
        check(&blobs(&mut rng, w, h, count, r))?;
    }
}
