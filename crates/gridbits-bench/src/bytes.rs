//! Bench workloads of the `bytes` topic: byte images in and out, in ns per pixel.
//!
//! - `from_bytes` on 2048x2048 and 4096x4096 grey noise (threshold 127): every byte kernel
//!   this CPU runs (`avx512`, `avx2`, `sse2`, `portable` SWAR) against the per-pixel
//!   `BitGrid::from_fn`, and the memory floor (one load per 64-byte line of the image);
//! - `write_bytes` 2048x2048 (bits to 0/255 bytes): every kernel against a per-pixel loop;
//! - `from_slice` of an `i32` image (`!= 0`) and `from_bools` against the per-pixel `from_fn`;
//! - `from_packbits` 2048x2048 (`numpy.packbits` rows) against `from_bytes` of the same image;
//! - "label from bytes" on 2048x2048 grey images (noise at 30/50/70% and a blobby image,
//!   8-connected): `Labeller::label_bytes` (each row stripe packed by the thread that labels
//!   it) against `label` of the already packed grid, `from_bytes` + `label` and `from_fn` +
//!   `label`, with `from_bytes` alone for its share.
//!
//! `--quick` runs use 1024x1024 images and skip 4096x4096.

use crate::Bench;
use gridbits::algo::label::{Labeller, Labels};
use gridbits::grid::{ByteImage, ByteKernel};
use gridbits::{BitGrid, Connectivity};
use gridbits_testkit::{discs, SplitMix};
use std::hint::black_box;

/// Grey noise: each byte uniform, so that `> threshold` sets `255 - threshold` in 256.
fn grey_noise(rng: &mut SplitMix, side: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(side * side + 8);
    while v.len() < side * side {
        v.extend_from_slice(&rng.next_u64().to_le_bytes());
    }
    v.truncate(side * side);
    v
}

/// A blobby grey image: bright discs of many sizes (about half the pixels) on dark noise.
fn grey_blobs(rng: &mut SplitMix, side: usize) -> Vec<u8> {
    let mut v: Vec<u8> = grey_noise(rng, side).iter().map(|b| b / 4).collect();
    discs(rng, side, |x, y| v[y * side + x] = 200);
    v
}

/// The kernels this CPU runs, fastest first.
fn kernels() -> Vec<ByteKernel> {
    ByteKernel::ALL
        .into_iter()
        .rev()
        .filter(|k| k.is_available())
        .collect()
}

fn checksum(g: &BitGrid) -> u64 {
    let w = g.words();
    w[w.len() / 2] ^ w[w.len() - 1] ^ g.width() as u64
}

fn from_bytes_rows(bench: &mut Bench, rng: &mut SplitMix, side: usize) {
    let name = format!("from_bytes {side}x{side} (ns/px)");
    if !bench.wants(&name) {
        return;
    }
    let px = grey_noise(rng, side);
    let n = (side * side) as u64;
    let best = ByteKernel::best();
    let mut w = bench.workload(&name, best.name());
    for k in kernels() {
        let px = &px;
        w = w.case(k.name(), n, move || {
            let g = BitGrid::from_bytes_with(k, black_box(px), side, side, side, 127);
            g.map_or(0, |g| checksum(&g))
        });
    }
    w.case("per-pixel from_fn", n, || {
        let g = BitGrid::from_fn(side, side, |x, y| px[y * side + x] > 127);
        g.map_or(0, |g| checksum(&g))
    })
    .case("read floor", n, || {
        // The memory floor: one load per 64-byte line of the image, nothing computed.
        black_box(&px)
            .as_chunks::<64>()
            .0
            .iter()
            .fold(0u64, |a, c| a ^ u64::from(c[0]))
    })
    .finish();
}

fn write_bytes_rows(bench: &mut Bench, rng: &mut SplitMix, side: usize) {
    let name = format!("write_bytes {side}x{side} (ns/px)");
    if !bench.wants(&name) {
        return;
    }
    let g = BitGrid::from_bytes(&grey_noise(rng, side), side, side, side, 127)
        .unwrap_or_else(|e| panic!("{e}"));
    let n = (side * side) as u64;
    let mut w = bench.workload(&name, ByteKernel::best().name());
    for k in kernels() {
        let g = &g;
        let mut out = vec![0u8; side * side];
        w = w.case(k.name(), n, move || {
            let _ = g.write_bytes_with(k, &mut out, side, 255, 0);
            u64::from(out[side * side / 2]) + u64::from(out[side * side - 1])
        });
    }
    let mut out = vec![0u8; side * side];
    w.case("per-pixel get", n, || {
        for y in 0..side {
            for x in 0..side {
                out[y * side + x] = if g.get(x, y) { 255 } else { 0 };
            }
        }
        u64::from(out[side * side / 2]) + u64::from(out[side * side - 1])
    })
    .finish();

    let name = format!("from_packbits {side}x{side} (ns/px)");
    if !bench.wants(&name) {
        return;
    }
    let row_bytes = side / 8;
    let mut packed = vec![0u8; row_bytes * side];
    let _ = g.write_packbits(&mut packed, row_bytes);
    let bytes = grey_noise(rng, side);
    bench
        .workload(&name, "from_packbits")
        .case("from_packbits", n, || {
            let g = BitGrid::from_packbits(black_box(&packed), side, side, row_bytes);
            g.map_or(0, |g| checksum(&g))
        })
        .case("from_bytes", n, || {
            let g = BitGrid::from_bytes(black_box(&bytes), side, side, side, 127);
            g.map_or(0, |g| checksum(&g))
        })
        .finish();
}

fn slice_rows(bench: &mut Bench, rng: &mut SplitMix, side: usize) {
    let name = format!("from_slice i32/bool {side}x{side} (ns/px)");
    if !bench.wants(&name) {
        return;
    }
    let ints: Vec<i32> = grey_noise(rng, side)
        .iter()
        .map(|&b| i32::from(b > 127))
        .collect();
    let bools: Vec<bool> = ints.iter().map(|&v| v != 0).collect();
    let n = (side * side) as u64;
    bench
        .workload(&name, "from_slice i32 != 0")
        .case("from_slice i32 != 0", n, || {
            let g = BitGrid::from_slice(black_box(&ints), side, side, side, |v| v != 0);
            g.map_or(0, |g| checksum(&g))
        })
        .case("from_bools", n, || {
            let g = BitGrid::from_bools(black_box(&bools), side, side);
            g.map_or(0, |g| checksum(&g))
        })
        .case("per-pixel from_fn i32", n, || {
            let g = BitGrid::from_fn(side, side, |x, y| ints[y * side + x] != 0);
            g.map_or(0, |g| checksum(&g))
        })
        .finish();
}

fn label_rows(bench: &mut Bench, rng: &mut SplitMix, side: usize) {
    let n = (side * side) as u64;
    let conn = Connectivity::Eight;
    for what in ["noise 30%", "noise 50%", "noise 70%", "blobby"] {
        let name = format!("label from bytes {side}x{side} {what} 8-conn (ns/px)");
        if !bench.wants(&name) {
            // Keep the generator's stream the same whatever the filter.
            let _ = grey_noise(rng, side);
            continue;
        }
        // A pixel is set when greater than `t`: noise at density d needs t = 255 - 256 d.
        let (px, t) = match what {
            "noise 30%" => (grey_noise(rng, side), 178),
            "noise 50%" => (grey_noise(rng, side), 127),
            "noise 70%" => (grey_noise(rng, side), 76),
            _ => (grey_blobs(rng, side), 127),
        };
        let packed =
            BitGrid::from_bytes(&px, side, side, side, t).unwrap_or_else(|e| panic!("{e}"));
        let (mut l1, mut l2, mut l3) = (Labeller::new(), Labeller::new(), Labeller::new());
        let (mut i1, mut i2, mut i3) = (Labels::new(), Labels::new(), Labels::new());
        let (mut l0, mut i0) = (Labeller::new(), Labels::new());
        let px = &px;
        bench
            .workload(&name, "label_bytes")
            .warm_up()
            .case("label_bytes", n, || {
                let image = ByteImage::try_new(black_box(px), side, side, side, t);
                image.map_or(0, |image| {
                    u64::from(l0.label_bytes(&image, conn, &mut i0).unwrap_or(0))
                })
            })
            .case("from_bytes+label", n, || {
                let g = BitGrid::from_bytes(black_box(px), side, side, side, t);
                g.map_or(0, |g| u64::from(l1.label(&g, conn, &mut i1).unwrap_or(0)))
            })
            .case("label (packed)", n, || {
                u64::from(l2.label(black_box(&packed), conn, &mut i2).unwrap_or(0))
            })
            .case("from_bytes", n, || {
                let g = BitGrid::from_bytes(black_box(px), side, side, side, t);
                g.map_or(0, |g| checksum(&g))
            })
            .case("from_fn+label", n, || {
                let g = BitGrid::from_fn(side, side, |x, y| px[y * side + x] > t);
                g.map_or(0, |g| u64::from(l3.label(&g, conn, &mut i3).unwrap_or(0)))
            })
            .finish();
    }
}

/// Registers the workloads of this topic.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    let side = if bench.quick() { 1024 } else { 2048 };
    from_bytes_rows(bench, rng, side);
    if !bench.quick() {
        from_bytes_rows(bench, rng, 4096);
    }
    write_bytes_rows(bench, rng, side);
    slice_rows(bench, rng, side);
    label_rows(bench, rng, side);
}
