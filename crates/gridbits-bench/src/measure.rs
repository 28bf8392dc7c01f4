//! Bench workloads of `algo::measure` (region properties) and `label_values` (multi-class
//! labelling), against the per-cell references of `naive::measure` and against the plain
//! one-pass loop a careful user writes (one visit per cell, the sums in floating point).

use crate::Bench;
use gridbits::algo::label::{label, label_values};
use gridbits::algo::measure::{euler_numbers, filled_areas, perimeters, regions};
use gridbits::naive::measure as nm;
use gridbits::Connectivity;
use gridbits_testkit::{random_grid, SplitMix};
use std::hint::black_box;

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    let side = if bench.quick() { 512 } else { 2048 };
    for (name, density) in [("noise 50%", 0.5), ("noise 70%", 0.7)] {
        let g = random_grid(rng, side, side, density);
        let labels = match label(&g, Connectivity::Eight) {
            Ok(l) => l.as_slice().to_vec(),
            Err(_) => return,
        };
        basic(bench, &format!("{name} {side}x{side}"), &labels, side);
    }
    // The references visit the image once per label: a small image.
    let small = 128;
    let g = random_grid(rng, small, small, 0.6);
    if let Ok(l) = label(&g, Connectivity::Eight) {
        full(
            bench,
            &format!("noise 60% {small}x{small}"),
            l.as_slice(),
            small,
        );
    }
    let classes: Vec<u8> = (0..small * small)
        .map(|_| (rng.next_u64() % 3) as u8)
        .collect();
    bench
        .workload(&format!("label_values 3 classes {small}x{small}"), "runs")
        .case("runs", 1, || {
            label_values(
                black_box(&classes),
                small,
                small,
                Some(0),
                Connectivity::Eight,
            )
            .map_or(0, |l| u64::from(l.count()))
        })
        .case("naive", 1, || {
            u64::from(
                nm::label_values(
                    black_box(&classes),
                    small,
                    small,
                    Some(0),
                    Connectivity::Eight,
                )
                .1,
            )
        })
        .finish();
}

/// Area, box and centroid of every region: the run pass against a plain per-cell loop.
fn basic(bench: &mut Bench, name: &str, labels: &[u32], side: usize) {
    bench
        .workload(&format!("regions basic {name}"), "runs")
        .case("runs", 1, || {
            regions(black_box(labels), side, side, false)
                .map_or(0, |r| r.iter().map(|g| g.area ^ g.x1 as u64).sum())
        })
        .case("plain", 1, || plain(black_box(labels), side, false))
        .finish();
    bench
        .workload(&format!("regions moments {name}"), "runs")
        .case("runs", 1, || {
            regions(black_box(labels), side, side, true)
                .map_or(0, |r| r.iter().map(|g| g.raw[3][3] as u64).sum())
        })
        .case("plain", 1, || plain(black_box(labels), side, true))
        .finish();
}

/// The plain loop: one visit per cell, area, box and sums of `x^p y^q` (`p, q <= 3` with
/// `moments`, else the first order) in `f64`.
fn plain(labels: &[u32], side: usize, moments: bool) -> u64 {
    let n = labels.iter().copied().max().unwrap_or(0) as usize;
    let mut area = vec![0u64; n];
    let mut bbox = vec![(usize::MAX, usize::MAX, 0usize, 0usize); n];
    let mut sums = vec![[0.0f64; 16]; n];
    for y in 0..side {
        for x in 0..side {
            let l = labels[y * side + x] as usize;
            if l == 0 {
                continue;
            }
            let i = l - 1;
            area[i] += 1;
            let b = &mut bbox[i];
            *b = (b.0.min(x), b.1.min(y), b.2.max(x + 1), b.3.max(y + 1));
            let s = &mut sums[i];
            if moments {
                let (xf, yf) = (x as f64, y as f64);
                let xs = [1.0, xf, xf * xf, xf * xf * xf];
                let ys = [1.0, yf, yf * yf, yf * yf * yf];
                for p in 0..4 {
                    for q in 0..4 {
                        s[p * 4 + q] += xs[p] * ys[q];
                    }
                }
            } else {
                s[1] += x as f64;
                s[4] += y as f64;
            }
        }
    }
    area.iter()
        .zip(&sums)
        .map(|(a, s)| a ^ s[15] as u64 ^ s[1] as u64)
        .sum()
}

/// Every property pass (moments, perimeter, Euler number, filled area) against the naive
/// reference, which computes the same per region.
fn full(bench: &mut Bench, name: &str, labels: &[u32], side: usize) {
    bench
        .workload(&format!("regions all passes {name}"), "passes")
        .case("passes", 1, || {
            let l = black_box(labels);
            let r = regions(l, side, side, true).unwrap_or_default();
            let p = perimeters(l, side, side).unwrap_or_default();
            let e = euler_numbers(l, side, side, Connectivity::Eight).unwrap_or_default();
            let f = filled_areas(l, side, side, &r).unwrap_or_default();
            p.len() as u64 + e.iter().sum::<i64>() as u64 + f.iter().sum::<u64>()
        })
        .case("naive", 1, || {
            let r = nm::regions(black_box(labels), side, side);
            r.iter().map(|g| g.filled + g.euler8 as u64).sum()
        })
        .finish();
}
