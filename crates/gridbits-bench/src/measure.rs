//! Bench workloads of `algo::measure` (region properties) and `label_values` (multi-class
//! labelling), against the per-cell references of `naive::measure` and against the plain
//! one-pass loop a careful user writes (one visit per cell, the sums in floating point).

use crate::Bench;
use gridbits::algo::label::{label, label_values, Labeller, Labels, ValueLabeller, ValueRoute};
use gridbits::algo::measure::{euler_numbers, filled_areas, perimeters, regions};
use gridbits::naive::measure as nm;
use gridbits::{BitGrid, Connectivity};
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
    // Large: 0 and two classes at random on noise, into a reused int64 image (as
    // `gridbits.measure.label` writes them), against the plain run labeller.
    for (name, density) in [("noise 50%", 50), ("noise 70%", 70)] {
        let classes: Vec<u8> = (0..side * side)
            .map(|_| {
                let r = rng.next_u64();
                if r % 100 < density {
                    1 + ((r >> 32) & 1) as u8
                } else {
                    0
                }
            })
            .collect();
        let (mut out, mut plain_out) = (vec![0i64; side * side], vec![0i64; side * side]);
        let mut labeller = ValueLabeller::new();
        // Each route forced (label5; the automatic choice is `runs`), each with its own
        // output; and the one-class image of the same cells (0/1, as `gridbits.measure.label`
        // gets a thresholded image) through the automatic choice and each route.
        let routes = [ValueRoute::Rows, ValueRoute::Pairs, ValueRoute::Binary];
        let mut routed = routes.map(|r| {
            (
                r,
                ValueLabeller::new().with_route(r),
                vec![0i64; side * side],
            )
        });
        let ones: Vec<u8> = classes.iter().map(|&v| u8::from(v != 0)).collect();
        let mut one_out = vec![0i64; side * side];
        // The per-class route's bound (label4): each class's mask (built here, untimed: a
        // fraction of a cell's nanosecond) through the bit-parallel binary labeller, `u32`
        // labels in raster order per class; the merge of the two numberings into one raster
        // order and the `int64` write, which that route also needs, are not timed.
        let mask = |class: u8| {
            let bytes: Vec<u8> = classes.iter().map(|&v| u8::from(v == class)).collect();
            BitGrid::from_bytes(&bytes, side, side, side, 0)
        };
        let (Ok(mask1), Ok(mask2)) = (mask(1), mask(2)) else {
            return;
        };
        let (mut binary, mut labels1, mut labels2) =
            (Labeller::new(), Labels::new(), Labels::new());
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let c = if conn == Connectivity::Four { 4 } else { 8 };
            let mut w = bench
                .workload(
                    &format!("label_values 3 classes {name} {side}x{side} {c}-conn int64"),
                    "runs",
                )
                .case("runs", 1, || {
                    labeller
                        .label_into(black_box(&classes), side, side, Some(0), conn, &mut out)
                        .map_or(0, u64::from)
                });
            for (route, l, o) in routed.iter_mut().take(2) {
                let classes = &classes;
                w = w.alternative(&format!("{route:?}").to_lowercase(), 1, move || {
                    l.label_into(black_box(classes), side, side, Some(0), conn, o)
                        .map_or(0, u64::from)
                });
            }
            w.case("per-class binary, u32, no merge", 1, || {
                u64::from(binary.label(&mask1, conn, &mut labels1).unwrap_or(0))
                    + u64::from(binary.label(&mask2, conn, &mut labels2).unwrap_or(0))
            })
            .case("plain", 1, || {
                u64::from(plain_label_values(
                    black_box(&classes),
                    side,
                    conn,
                    &mut plain_out,
                ))
            })
            .finish();
            let mut w = bench
                .workload(
                    &format!("label_values 1 class {name} {side}x{side} {c}-conn int64"),
                    "auto",
                )
                .case("auto", 1, || {
                    labeller
                        .label_into(black_box(&ones), side, side, Some(0), conn, &mut one_out)
                        .map_or(0, u64::from)
                });
            for (route, l, o) in routed.iter_mut() {
                let ones = &ones;
                w = w.alternative(&format!("{route:?}").to_lowercase(), 1, move || {
                    l.label_into(black_box(ones), side, side, Some(0), conn, o)
                        .map_or(0, u64::from)
                });
            }
            w.case("plain", 1, || {
                u64::from(plain_label_values(
                    black_box(&ones),
                    side,
                    conn,
                    &mut plain_out,
                ))
            })
            .finish();
        }
    }
}

/// The run labeller a careful user writes: runs of equal values found cell by cell, joined
/// to the overlapping runs of the row above with the same value in a union-find (path
/// halving, smaller root kept), roots numbered in raster order, then the labels written run
/// by run over a zeroed image. Returns the number of components.
fn plain_label_values(v: &[u8], side: usize, conn: Connectivity, out: &mut [i64]) -> u32 {
    fn find(p: &mut [u32], mut a: u32) -> u32 {
        while p[a as usize] != a {
            let up = p[p[a as usize] as usize];
            p[a as usize] = up;
            a = up;
        }
        a
    }
    let reach = usize::from(conn == Connectivity::Eight);
    let (mut runs, mut rows): (Vec<(u32, u32, u8)>, Vec<usize>) = (Vec::new(), vec![0]);
    let mut parent: Vec<u32> = Vec::new();
    for y in 0..side {
        let row = &v[y * side..(y + 1) * side];
        let first = runs.len();
        let mut x = 0;
        while x < side {
            let c = row[x];
            let s = x;
            while x < side && row[x] == c {
                x += 1;
            }
            if c != 0 {
                parent.push(runs.len() as u32);
                runs.push((s as u32, x as u32, c));
            }
        }
        if y > 0 {
            let mut j = rows[y - 1];
            for i in first..runs.len() {
                let (s, e, c) = runs[i];
                while j < first && (runs[j].1 as usize + reach) <= s as usize {
                    j += 1;
                }
                let mut k = j;
                while k < first && (runs[k].0 as usize) < e as usize + reach {
                    if runs[k].2 == c {
                        let (a, b) = (find(&mut parent, k as u32), find(&mut parent, i as u32));
                        let (lo, hi) = (a.min(b), a.max(b));
                        parent[hi as usize] = lo;
                    }
                    k += 1;
                }
            }
        }
        rows.push(runs.len());
    }
    let mut n = 0;
    for i in 0..parent.len() {
        let p = parent[i] as usize;
        parent[i] = if p == i {
            n += 1;
            n
        } else {
            parent[p]
        };
    }
    out.fill(0);
    for y in 0..side {
        for i in rows[y]..rows[y + 1] {
            let (s, e, _) = runs[i];
            out[y * side + s as usize..y * side + e as usize].fill(i64::from(parent[i]));
        }
    }
    n
}

/// Area, box and centroid of every region: the block pass against a plain per-cell loop.
fn basic(bench: &mut Bench, name: &str, labels: &[u32], side: usize) {
    bench
        .workload(&format!("regions basic {name}"), "blocks")
        .case("blocks", 1, || {
            regions(black_box(labels), side, side, false)
                .map_or(0, |r| r.iter().map(|g| g.area ^ g.x1 as u64).sum())
        })
        .case("plain", 1, || plain(black_box(labels), side, false))
        .finish();
    bench
        .workload(&format!("regions moments {name}"), "blocks")
        .case("blocks", 1, || {
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
