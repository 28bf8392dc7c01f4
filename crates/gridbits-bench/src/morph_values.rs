//! Bench workloads of the two-value check folded into the morphology engines' packing
//! (`gridbits::algo::morph::morph_bytes_and_values`, what `gridbits.opencv`'s quick path
//! runs) on 2048x2048 images of 0 and 255 (noise 50% and blobs), by the 3x3 square, the
//! cross and the 15x15 square: against the plain way, a scan of the image for its largest
//! byte and its smallest nonzero one (a loop the compiler vectorises) and then
//! `morph_bytes`, and against `morph_bytes` alone (no check: the floor). And the
//! morphological gradient in one pass (`morph_bytes_gradient_and_values`) against the plain
//! way: a dilation and an erosion by `morph_bytes` and a byte loop keeping the one without
//! the other.

use crate::Bench;
use gridbits::algo::morph::{
    morph_bytes, morph_bytes_and_values, morph_bytes_gradient_and_values, ByteOutput, Footprint,
    Step,
};
use gridbits::grid::ByteImage;
use gridbits::BitGrid;
use gridbits_testkit::{discs, percent_grid, SplitMix};

/// Registers this topic's workloads.
pub fn register(bench: &mut Bench, rng: &mut SplitMix) {
    let size = if bench.quick() { 1024 } else { 2048 };
    let mut blobs = BitGrid::new(size, size);
    discs(rng, size, |x, y| blobs.set(x, y));
    let images = [
        ("noise 50%", percent_grid(rng, size, size, 50)),
        ("blobs", blobs),
    ];
    let footprints = [
        ("square 3x3", Footprint::square(3)),
        ("cross", Footprint::cross()),
        ("square 15x15", Footprint::square(15)),
    ];
    for (image, grid) in &images {
        let (w, h) = grid.size();
        let mut bytes = vec![0u8; w * h];
        if grid.write_bytes(&mut bytes, w, 255, 0).is_err() {
            return;
        }
        for (fp_name, fp) in &footprints {
            let name = format!("morph_values erosion {image} {fp_name} {size}x{size}");
            if bench.wants(&name) {
                checked(bench, &name, &bytes, (w, h), fp);
            }
            let name = format!("morph_values gradient {image} {fp_name} {size}x{size}");
            if bench.wants(&name) {
                gradient(bench, &name, &bytes, (w, h), fp);
            }
        }
    }
}

/// The largest byte and the smallest nonzero one, 64 bytes a step (the plain scan).
fn scan(bytes: &[u8]) -> (u8, u8) {
    let (mut hi, mut lo) = ([0u8; 64], [0xffu8; 64]);
    let mut chunks = bytes.chunks_exact(64);
    for c in &mut chunks {
        for i in 0..64 {
            hi[i] = hi[i].max(c[i]);
            lo[i] = lo[i].min(if c[i] == 0 { 0xff } else { c[i] });
        }
    }
    let rest = chunks.remainder();
    let hi = hi.iter().chain(rest).fold(0, |a, &b| a.max(b));
    let lo = lo
        .iter()
        .chain(rest.iter().filter(|&&b| b != 0))
        .fold(0xff, |a, &b| a.min(b));
    (hi, lo)
}

fn out_of(pixels: &mut [u8], w: usize) -> ByteOutput<'_> {
    ByteOutput {
        pixels,
        stride: w,
        set: 255,
        empty: 0,
    }
}

/// An erosion with the check folded in, against the scan then the erosion, and the
/// erosion alone.
fn checked(bench: &mut Bench, name: &str, bytes: &[u8], (w, h): (usize, usize), fp: &Footprint) {
    let Ok(image) = ByteImage::try_new(bytes, w, h, w, 0) else {
        return;
    };
    let steps = [Step::Erode { border: true }];
    let (mut a, mut b, mut c) = (vec![0u8; w * h], vec![0u8; w * h], vec![0u8; w * h]);
    bench
        .workload(name, "fused check")
        .warm_up()
        .case("fused check", 1, || {
            morph_bytes_and_values(&image, fp, &steps, out_of(&mut a, w))
                .map_or(0, |v| u64::from(v.two_valued()) + u64::from(a[w + 1]))
        })
        .case("scan, then morph_bytes", 1, || {
            let (hi, lo) = scan(bytes);
            let ok = hi == 0 || hi == lo;
            morph_bytes(&image, fp, &steps, out_of(&mut b, w))
                .map_or(0, |()| u64::from(ok) + u64::from(b[w + 1]))
        })
        .case("morph_bytes alone (no check)", 1, || {
            morph_bytes(&image, fp, &steps, out_of(&mut c, w)).map_or(0, |()| u64::from(c[w + 1]))
        })
        .finish();
}

/// The gradient in one pass against a dilation, an erosion and a byte loop.
fn gradient(bench: &mut Bench, name: &str, bytes: &[u8], (w, h): (usize, usize), fp: &Footprint) {
    let Ok(image) = ByteImage::try_new(bytes, w, h, w, 0) else {
        return;
    };
    let (mut a, mut b, mut e) = (vec![0u8; w * h], vec![0u8; w * h], vec![0u8; w * h]);
    bench
        .workload(name, "one pass")
        .warm_up()
        .case("one pass", 1, || {
            morph_bytes_gradient_and_values(&image, fp, false, true, out_of(&mut a, w))
                .map_or(0, |v| u64::from(v.two_valued()) + u64::from(a[w + 1]))
        })
        .case("dilation, erosion, subtraction", 1, || {
            let d = [Step::Dilate { border: false }];
            let er = [Step::Erode { border: true }];
            if morph_bytes(&image, fp, &d, out_of(&mut b, w)).is_err()
                || morph_bytes(&image, fp, &er, out_of(&mut e, w)).is_err()
            {
                return 0;
            }
            for (x, &y) in b.iter_mut().zip(&e) {
                *x = x.wrapping_sub(y);
            }
            u64::from(b[w + 1])
        })
        .finish();
}
