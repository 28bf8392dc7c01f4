//! Random bit grids, fixed boards and row-major cell patterns, each set cell drawn from a
//! [`SplitMix`] in row-major order (row 0 first, then left to right).

use crate::SplitMix;
use gridbits::{BitGrid, Board};

/// A random `w x h` grid, each cell set with probability `density` ([`SplitMix::chance`]).
/// Panics on a size `BitGrid` refuses (tests and benchmarks pass their own constants).
pub fn random_grid(rng: &mut SplitMix, w: usize, h: usize, density: f64) -> BitGrid {
    BitGrid::from_fn(w, h, |_, _| rng.chance(density)).unwrap_or_else(|e| panic!("{e}"))
}

/// A random `w x h` grid, each cell set with probability `pct` in 100
/// ([`SplitMix::percent`]). Panics on a size `BitGrid` refuses.
pub fn percent_grid(rng: &mut SplitMix, w: usize, h: usize, pct: u32) -> BitGrid {
    BitGrid::from_fn(w, h, |_, _| rng.percent(pct)).unwrap_or_else(|e| panic!("{e}"))
}

/// `count` random boards of a fixed size, each cell set with probability `density`.
pub fn random_boards<const W: usize, const H: usize, const N: usize>(
    rng: &mut SplitMix,
    count: usize,
    density: f64,
) -> Vec<Board<W, H, N>> {
    (0..count)
        .map(|_| Board::from_fn(|_, _| rng.chance(density)))
        .collect()
}

/// `n` cells, each set with probability `density`, from `seed`.
pub fn density_bits(n: usize, density: f64, seed: u64) -> Vec<bool> {
    let mut rng = SplitMix(seed);
    (0..n).map(|_| rng.chance(density)).collect()
}

/// Calls `paint(x, y)` for every cell of random discs on a `side x side` image: `side^2 /
/// 7000` discs of radius 6 to 63, which cover about half the image (the benchmark's blobby
/// images, binary and grey). Cells of overlapping discs are painted more than once.
pub fn discs(rng: &mut SplitMix, side: usize, mut paint: impl FnMut(usize, usize)) {
    for _ in 0..side * side / 7000 {
        let cx = (rng.next_u64() % side as u64) as i64;
        let cy = (rng.next_u64() % side as u64) as i64;
        let r = 6 + (rng.next_u64() % 58) as i64;
        for dy in -r..=r {
            let y = cy + dy;
            if y < 0 || y >= side as i64 {
                continue;
            }
            let half = ((r * r - dy * dy) as f64).sqrt() as i64;
            let (x0, x1) = ((cx - half).max(0), (cx + half).min(side as i64 - 1));
            for x in x0..=x1 {
                paint(x as usize, y as usize);
            }
        }
    }
}
