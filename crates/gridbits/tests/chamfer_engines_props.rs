//! Every engine of the city-block and chessboard distances without nearest cells (the
//! automatic choice, the erosion layers counted into the output, the layers in bit-sliced
//! counters, the vector passes, the sweeps; `ChamferEngine`), at every CPU level, against
//! scipy's two passes written cell by cell (`naive::distance_transform::two_pass_chamfer`):
//! widths 1, 15-17, 31-33, 63-65 and more, heights past the counted layers' row sample
//! (64), 1 x 1, every density from empty to full, and deep shapes (a full grid but a few cells).

use crate::common::config;

use gridbits::algo::distance_transform::{chamfer_distances_f32_by, ChamferEngine, Neighbourhood};
use gridbits::cpu::{self, Level};
use gridbits::naive::distance_transform::two_pass_chamfer;
use gridbits::naive::NaiveGrid;
use gridbits::BitGrid;
use gridbits_testkit::{percent_grid, SplitMix};
use proptest::prelude::*;

const ENGINES: [ChamferEngine; 5] = [
    ChamferEngine::Auto,
    ChamferEngine::CountedLayers,
    ChamferEngine::Layers,
    ChamferEngine::VectorPasses,
    ChamferEngine::Sweeps,
];

/// Every engine at every level on `g` equals the naive passes (engines that refuse the grid,
/// as the counted layers past their depth, are skipped; `Auto` never refuses a grid with a
/// background cell).
fn check(g: &BitGrid) -> Result<(), TestCaseError> {
    let naive = NaiveGrid::from_view(g);
    let has_background = (g.count() as usize) < g.width() * g.height();
    for n in [Neighbourhood::taxicab(), Neighbourhood::chessboard()] {
        let s = n.steps();
        let rows = [[s[0], s[1], s[2]], [s[3], true, s[3]], [s[2], s[1], s[0]]];
        let want: Vec<f32> = two_pass_chamfer(&naive, rows)
            .0
            .iter()
            .map(|&d| if d < 0 { f32::MAX } else { d as f32 })
            .collect();
        for level in Level::ALL {
            for e in ENGINES {
                let got = cpu::with_level(level, || chamfer_distances_f32_by(g, n, e)).unwrap();
                match got {
                    Some(got) => prop_assert_eq!(&got, &want, "{:?} {:?}", level, e),
                    None => prop_assert!(
                        !has_background || e == ChamferEngine::CountedLayers,
                        "{:?} {:?} refused",
                        level,
                        e
                    ),
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(96))]

    /// Random grids of every density.
    #[test]
    fn chamfer_engines_equal_the_naive_passes(
        w in prop::sample::select(vec![1usize, 15, 16, 17, 31, 32, 33, 63, 64, 65, 97, 130]),
        h in prop::sample::select(vec![1usize, 2, 3, 33, 65, 70, 129]),
        pct in prop::sample::select(vec![0u32, 10, 30, 50, 70, 90, 97, 99, 100]),
        seed in any::<u64>(),
    ) {
        check(&percent_grid(&mut SplitMix::new(seed), w, h, pct))?;
    }

    /// Deep shapes: a full grid with a few background cells (distances past the counted
    /// layers' depth), and thick bars (the layers thinning slowly).
    #[test]
    fn chamfer_engines_on_deep_shapes(
        w in prop::sample::select(vec![1usize, 17, 33, 64, 65, 130]),
        h in prop::sample::select(vec![1usize, 16, 65, 129]),
        holes in 1usize..4,
        bar in 2usize..24,
        seed in any::<u64>(),
    ) {
        let mut rng = SplitMix::new(seed);
        let mut g = BitGrid::full(w, h);
        for _ in 0..holes {
            g.clear(rng.below(w as u64) as usize, rng.below(h as u64) as usize);
        }
        check(&g)?;
        let mut bars = BitGrid::full(w, h);
        for y in (0..h).step_by(bar) {
            for x in 0..w {
                bars.clear(x, y);
            }
        }
        check(&bars)?;
    }
}

/// The 1 x 1 grids, set and unset.
#[test]
fn chamfer_engines_on_tiny_grids() {
    for g in [BitGrid::new(1, 1), BitGrid::full(1, 1)] {
        check(&g).unwrap();
    }
}
