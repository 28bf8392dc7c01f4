//! Decoding PNG and netpbm images into bit grids.
//!
//! - PBM (P1, P4): a 1 (black) pixel is set.
//! - PNG, PGM, PPM, PAM: a pixel is set when its grey level is greater than the threshold
//!   (`--threshold N`, 0 by default, so every pixel that is not black is set). The grey level
//!   of a colour pixel is its luminance 0.2126 R + 0.7152 G + 0.0722 B; levels are on a
//!   0-255 scale whatever the bit depth (16-bit samples are divided by 257).
//! - A pixel less than half opaque (alpha below 128 of 255) is empty, whatever its colour.
//! - `--invert` swaps set and empty for the other (at least half opaque) pixels.

use super::format::Format;
use super::{CliError, ImageOpts};
use gridbits::text::MAX_CELLS;
use gridbits::BitGrid;
use image::{DynamicImage, ImageError, ImageFormat, ImageReader, Limits};
use std::io::{self, Cursor};

/// Largest image side accepted: 2^17 pixels, so that width * height stays within
/// `MAX_CELLS` (2^34).
const MAX_IMAGE_SIDE: u32 = 1 << 17;
/// Largest buffer the image decoder may allocate (a 16384 x 16384 RGBA16 image is 2 GiB).
const MAX_IMAGE_ALLOC: u64 = 4 << 30;

/// Luminance weights (Rec. 709) times 10000, so that levels compare exactly in integers.
const LUMA: [u64; 3] = [2126, 7152, 722];
const SCALE: u64 = 10_000;

/// Decodes the image `buf` (of a format [`super::format::detect`] found) into bits.
pub fn decode(
    buf: &[u8],
    format: Format,
    name: &str,
    opts: ImageOpts,
) -> Result<BitGrid, CliError> {
    let (image_format, label) = match format {
        Format::Png => (ImageFormat::Png, "PNG"),
        Format::Pbm => (ImageFormat::Pnm, "PBM"),
        _ => (ImageFormat::Pnm, "netpbm"),
    };
    if format == Format::Pbm && opts.threshold.is_some() {
        return Err(CliError::msg(format!(
            "{name}: --threshold applies to grey and colour images; a PBM bitmap is already \
             black and white"
        )));
    }
    let open = || {
        let mut r = ImageReader::with_format(Cursor::new(buf), image_format);
        let mut limits = Limits::default();
        limits.max_image_width = Some(MAX_IMAGE_SIDE);
        limits.max_image_height = Some(MAX_IMAGE_SIDE);
        limits.max_alloc = Some(MAX_IMAGE_ALLOC);
        r.limits(limits);
        r
    };
    let bad = |e: ImageError| CliError::msg(format!("{name}: {}", explain(e, label)));
    // Check the size from the header before decoding anything.
    let (w, h) = open().into_dimensions().map_err(bad)?;
    if w == 0 || h == 0 {
        return Err(CliError::msg(format!("{name}: image has no pixels")));
    }
    if u64::from(w) * u64::from(h) > MAX_CELLS {
        return Err(CliError::msg(format!(
            "{name}: image is {w}x{h}, more than {MAX_CELLS} pixels"
        )));
    }
    let img = open().decode().map_err(bad)?;
    let grid = if format == Format::Pbm {
        // The decoder maps PBM 1 (black) to luma 0 and 0 (white) to 255.
        let luma = img.into_luma8();
        grid_from_pixels(w, h, |x, y| (luma.get_pixel(x, y).0[0] == 0) != opts.invert)
    } else {
        threshold(img, opts)
    };
    grid.map_err(|e| CliError::msg(format!("{name}: {e}")))
}

/// A decoder error in words for people, without the decoder's internals.
fn explain(e: ImageError, label: &str) -> String {
    match e {
        ImageError::Limits(_) => format!(
            "image is too large (at most {MAX_IMAGE_SIDE} pixels a side and {} GiB to decode)",
            MAX_IMAGE_ALLOC >> 30
        ),
        ImageError::IoError(io) if io.kind() == io::ErrorKind::UnexpectedEof => {
            format!("the {label} image ends early (truncated file)")
        }
        ImageError::Unsupported(_) => {
            format!("this kind of {label} image is not supported (convert it to an 8-bit PNG)")
        }
        ImageError::IoError(io) => format!("cannot read the {label} image: {io}"),
        _ => format!("the {label} image is damaged or truncated and cannot be decoded"),
    }
}

/// Grey or colour pixels to bits: set when the grey level is above the threshold, pixels less
/// than half opaque empty, `--invert` applied.
fn threshold(img: DynamicImage, opts: ImageOpts) -> Result<BitGrid, gridbits::SizeError> {
    let (w, h) = (img.width(), img.height());
    let n = u64::from(opts.threshold.unwrap_or(0));
    let inv = opts.invert;
    // Levels are times SCALE; 16-bit samples are 257 times 8-bit ones.
    let (lim8, lim16) = (n * SCALE, n * SCALE * 257);
    let rgb = |p: &[u16]| {
        LUMA[0] * u64::from(p[0]) + LUMA[1] * u64::from(p[1]) + LUMA[2] * u64::from(p[2])
    };
    let rgb8 = |p: &[u8]| {
        LUMA[0] * u64::from(p[0]) + LUMA[1] * u64::from(p[1]) + LUMA[2] * u64::from(p[2])
    };
    match img {
        DynamicImage::ImageLuma8(b) => grid_from_pixels(w, h, |x, y| {
            (u64::from(b.get_pixel(x, y).0[0]) * SCALE > lim8) != inv
        }),
        DynamicImage::ImageLumaA8(b) => grid_from_pixels(w, h, |x, y| {
            let [v, a] = b.get_pixel(x, y).0;
            a >= 128 && ((u64::from(v) * SCALE > lim8) != inv)
        }),
        DynamicImage::ImageRgb8(b) => {
            grid_from_pixels(w, h, |x, y| (rgb8(&b.get_pixel(x, y).0) > lim8) != inv)
        }
        DynamicImage::ImageRgba8(b) => grid_from_pixels(w, h, |x, y| {
            let p = b.get_pixel(x, y).0;
            p[3] >= 128 && ((rgb8(&p) > lim8) != inv)
        }),
        DynamicImage::ImageLuma16(b) => grid_from_pixels(w, h, |x, y| {
            (u64::from(b.get_pixel(x, y).0[0]) * SCALE > lim16) != inv
        }),
        DynamicImage::ImageLumaA16(b) => grid_from_pixels(w, h, |x, y| {
            let [v, a] = b.get_pixel(x, y).0;
            a >= 32768 && ((u64::from(v) * SCALE > lim16) != inv)
        }),
        DynamicImage::ImageRgb16(b) => {
            grid_from_pixels(w, h, |x, y| (rgb(&b.get_pixel(x, y).0) > lim16) != inv)
        }
        other => {
            // RGBA16, and layouts the PNG and netpbm decoders do not produce: widen.
            let b = other.into_rgba16();
            grid_from_pixels(w, h, |x, y| {
                let p = b.get_pixel(x, y).0;
                p[3] >= 32768 && ((rgb(&p) > lim16) != inv)
            })
        }
    }
}

fn grid_from_pixels(
    w: u32,
    h: u32,
    set: impl Fn(u32, u32) -> bool,
) -> Result<BitGrid, gridbits::SizeError> {
    let mut g = BitGrid::new(w as usize, h as usize)?;
    for y in 0..h {
        let row = g.row_words_mut(y as usize);
        for x in 0..w {
            if set(x, y) {
                row[x as usize / 64] |= 1 << (x % 64);
            }
        }
    }
    Ok(g)
}
