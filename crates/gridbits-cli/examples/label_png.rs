//! Labels the 8-connected components of a PNG image, numbered as `scipy.ndimage.label`
//! numbers them (with its 3x3 structure), and writes them back as a colour PNG.
//!
//! A pixel is set when its grey level is above a threshold (default 127). Components are
//! numbered 1, 2, ... in raster order of their first pixel; the program prints their count, the
//! largest few with their bounding box and centroid, the time to label them straight from the
//! image's bytes (a `ByteImage` given to `Labeller::label_bytes_with_stats`: on two threads or
//! more each row stripe is packed into bits by the thread that labels it), and saves
//! `<input>-labels.png`.
//!
//! Run: `cargo run --release --example label_png -- IMAGE.png [THRESHOLD]`. Without an image
//! it draws a 2048 x 2048 test image of random discs first and labels that.

use gridbits::algo::label::{Labeller, Labels};
use gridbits::grid::ByteImage;
use gridbits::Connectivity;
use std::error::Error;
use std::time::Instant;

/// A test image: random discs on black, from a fixed seed.
fn test_image(path: &str) -> Result<(), Box<dyn Error>> {
    let (w, h) = (2048u32, 2048u32);
    let mut img = image::GrayImage::new(w, h);
    let mut s = 2026u64;
    let mut rand = move |n: u32| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % n as u64) as i64
    };
    for _ in 0..3000 {
        let (cx, cy, r) = (rand(w), rand(h), 2 + rand(24));
        for y in (cy - r).max(0)..(cy + r + 1).min(h as i64) {
            for x in (cx - r).max(0)..(cx + r + 1).min(w as i64) {
                if (x - cx).pow(2) + (y - cy).pow(2) <= r * r {
                    img.put_pixel(x as u32, y as u32, image::Luma([255]));
                }
            }
        }
    }
    img.save(path)?;
    println!("drew {path}: {w} x {h}, 3000 random discs");
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let path = match args.next() {
        Some(p) => p,
        None => {
            let p = std::env::temp_dir().join("gridbits-discs.png");
            let p = p.to_string_lossy().into_owned();
            test_image(&p)?;
            p
        }
    };
    let threshold: u8 = match args.next() {
        Some(t) => t
            .parse()
            .map_err(|_| format!("threshold {t:?} is not 0-255"))?,
        None => 127,
    };
    let img = image::open(&path)?.to_luma8();
    let (w, h) = (img.width() as usize, img.height() as usize);

    let image = ByteImage::try_new(img.as_raw(), w, h, w, threshold)?;
    let (mut labeller, mut labels, mut stats) = (Labeller::new(), Labels::new(), Vec::new());
    let t0 = Instant::now();
    labeller.label_bytes_with_stats(&image, Connectivity::Eight, &mut labels, &mut stats)?;
    let t1 = Instant::now();

    let px = (w * h) as f64;
    let set: u64 = stats.iter().map(|s| s.size).sum();
    println!(
        "{path}: {w} x {h}, {set} pixels set, {} components (8-connected)",
        labels.count()
    );
    println!(
        "labelled from the bytes in {:.2} ns/px",
        (t1 - t0).as_secs_f64() * 1e9 / px
    );
    let mut by_size: Vec<(usize, &gridbits::algo::label::ComponentStats)> =
        stats.iter().enumerate().collect();
    by_size.sort_by_key(|(_, s)| std::cmp::Reverse(s.size));
    for (i, s) in by_size.iter().take(5) {
        let (x, y, bw, bh) = s.bbox();
        let (cx, cy) = s.centroid();
        println!(
            "  label {:>6}: area {:>7}, bbox ({x}, {y}) {bw} x {bh}, centroid ({cx:.1}, {cy:.1})",
            i + 1,
            s.size
        );
    }

    // One colour per label, from a hash of the label; background black.
    let mut out = image::RgbImage::new(w as u32, h as u32);
    for (p, &l) in out.pixels_mut().zip(labels.as_slice()) {
        if l != 0 {
            let v = l.wrapping_mul(0x9e37_79b9);
            *p = image::Rgb([
                (v >> 24) as u8 | 64,
                (v >> 16) as u8 | 64,
                (v >> 8) as u8 | 64,
            ]);
        }
    }
    let out_path = format!("{}-labels.png", path.trim_end_matches(".png"));
    out.save(&out_path)?;
    println!("wrote {out_path}");
    Ok(())
}
