//! Bench workloads of the `skeleton` topic: `skeletonize` (scikit-image's Zhang–Suen table)
//! and `thin` (Guo–Hall) to convergence, in ns per pixel, on noise at 30/50/70% and a blobby
//! image (discs of radius 6 to 63: up to about 60 iterations), against the byte image a
//! careful user writes (scikit-image's loop: a padded `u8` image, each set pixel's 8
//! neighbours packed into a table index, a second image per sub-iteration) on 2048x2048
//! (`--quick`: 1024x1024), and against the per-pixel `naive::skeleton` on 256x256.

use crate::components::blobby;
use crate::Bench;
use gridbits::algo::skeleton::{skeletonize, thin};
use gridbits::naive::skeleton::{self as naive, skeletonize_deletes, thin_deletes};
use gridbits::naive::NaiveGrid;
use gridbits::{BitGrid, Dir};
use gridbits_testkit::{random_grid, SplitMix};
use std::cell::OnceCell;

/// Side of the images against the byte baseline (`--quick`: 1024).
const SIDE: usize = 2048;
const QUICK_SIDE: usize = 1024;
/// Side of the images against the naive reference (it is slow).
const NAIVE_SIDE: usize = 256;

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    let side = if bench.quick() { QUICK_SIDE } else { SIDE };
    for (what, g) in images(rng, side) {
        rows(bench, &what, &g, false);
    }
    for (what, g) in images(rng, NAIVE_SIDE) {
        rows(bench, &what, &g, true);
    }
}

/// The images of one side: noise at 30, 50 and 70% and a blobby image.
fn images(rng: &mut SplitMix, side: usize) -> Vec<(String, BitGrid)> {
    let mut out: Vec<(String, BitGrid)> = [30u32, 50, 70]
        .iter()
        .map(|&d| {
            let g = random_grid(rng, side, side, f64::from(d) / 100.0);
            (format!("noise {d}%"), g)
        })
        .collect();
    out.push(("blobby".to_string(), blobby(rng, side)));
    out
}

/// The rows of one image: skeletonize and thin against the byte baseline, and with
/// `with_naive` against the naive reference too.
fn rows(bench: &mut Bench, what: &str, g: &BitGrid, with_naive: bool) {
    let (w, h) = g.size();
    let px = (w * h) as u64;
    for thinning in [false, true] {
        let op = if thinning { "thin" } else { "skeletonize" };
        let name = format!("{op} {w}x{h} {what} (ns/px)");
        // The baselines' inputs are built on first use, so a filtered-out row costs nothing.
        let bytes: OnceCell<ByteSkeleton> = OnceCell::new();
        let naive_in: OnceCell<NaiveGrid> = OnceCell::new();
        let mut work = bench.workload(&name, "gridbits").case("gridbits", px, || {
            if thinning {
                thin(g, None).count()
            } else {
                skeletonize(g).count()
            }
        });
        work = work.case("bytes+table", px, || {
            bytes.get_or_init(|| ByteSkeleton::new(g, thinning)).run()
        });
        if with_naive {
            work = work.case("naive", px, || {
                let n = naive_in.get_or_init(|| NaiveGrid::from_view(g));
                if thinning {
                    naive::thin(n, None).count()
                } else {
                    naive::skeletonize(n).count()
                }
            });
        }
        work.finish();
    }
}

/// The byte implementation: what scikit-image's Cython `_fast_skeletonize` does, for either
/// rule, with the rule's two tables indexed by the 8 neighbours' bits.
struct ByteSkeleton {
    width: usize,
    height: usize,
    /// The image with a zero border of one pixel.
    padded: Vec<u8>,
    /// Per sub-iteration, whether a neighbourhood (bit `k`: direction `Dir::ALL[k]`) is
    /// deleted.
    tables: [[bool; 256]; 2],
}

impl ByteSkeleton {
    fn new(g: &BitGrid, thinning: bool) -> Self {
        let (width, height) = g.size();
        let mut padded = vec![0u8; (width + 2) * (height + 2)];
        for (x, y) in g.iter() {
            padded[(y + 1) * (width + 2) + x + 1] = 1;
        }
        let rule = |code: u8, second: bool| {
            if thinning {
                thin_deletes(code, second)
            } else {
                skeletonize_deletes(code, second)
            }
        };
        let mut tables = [[false; 256]; 2];
        for (sub, table) in tables.iter_mut().enumerate() {
            for (code, t) in table.iter_mut().enumerate() {
                *t = rule(code as u8, sub == 1);
            }
        }
        ByteSkeleton {
            width,
            height,
            padded,
            tables,
        }
    }

    /// Thins a copy of the image to convergence; returns the pixels left.
    fn run(&self) -> u64 {
        let s = self.width + 2;
        let offsets: Vec<isize> = Dir::ALL
            .iter()
            .map(|d| {
                let (dx, dy) = d.delta();
                dy * s as isize + dx
            })
            .collect();
        let mut skel = self.padded.clone();
        let mut cleaned = skel.clone();
        loop {
            let mut removed = false;
            for table in &self.tables {
                for y in 1..=self.height {
                    for x in 1..=self.width {
                        let i = y * s + x;
                        if skel[i] == 0 {
                            continue;
                        }
                        let mut code = 0usize;
                        for (k, &o) in offsets.iter().enumerate() {
                            code |= usize::from(skel[(i as isize + o) as usize]) << k;
                        }
                        if table[code] {
                            cleaned[i] = 0;
                            removed = true;
                        }
                    }
                }
                skel.copy_from_slice(&cleaned);
            }
            if !removed {
                break;
            }
        }
        skel.iter().map(|&b| u64::from(b)).sum()
    }
}
