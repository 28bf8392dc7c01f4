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
use gridbits::{BitGrid, ImageError as GridError};
use image::{DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader, Limits};
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
    // Comments in a netpbm header: the decoder reads them only at a line's start.
    let uncommented = match format {
        Format::Pbm | Format::Netpbm => super::netpbm::without_comments(buf).map_err(|bytes| {
            CliError::msg(format!(
                "{name}: not enough memory to read the image ({bytes} bytes)"
            ))
        })?,
        _ => None,
    };
    let buf = uncommented.as_deref().unwrap_or(buf);
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
    super::check_cells(name, "image", w.into(), h.into())?;
    // The decoder allocates its whole buffer at once, and an allocation the allocator refuses
    // aborts: reserve that many bytes first (released at once), an error rather than an abort.
    let bytes = open().into_decoder().map_err(bad)?.total_bytes();
    let fits = usize::try_from(bytes).is_ok_and(can_allocate);
    if !fits {
        return Err(CliError::msg(format!(
            "{name}: not enough memory to decode the {w}x{h} image ({bytes} bytes)"
        )));
    }
    let img = open().decode().map_err(bad)?;
    let grid = if format == Format::Pbm {
        // The decoder maps PBM 1 (black) to luma 0 and 0 (white) to 255.
        let luma = img.into_luma8();
        luma_bytes(luma.as_raw(), w, h, 0, !opts.invert)
    } else {
        threshold(img, opts)
    };
    grid.map_err(|e| CliError::msg(format!("{name}: {e}")))
}

/// Whether `bytes` can be allocated now: one `try_reserve` of that many bytes, released at
/// once. The probe is kept from the optimiser, which may remove an allocation nothing uses
/// and take it as granted.
fn can_allocate(bytes: usize) -> bool {
    let mut probe = Vec::<u8>::new();
    let ok = probe.try_reserve_exact(bytes).is_ok();
    std::hint::black_box(&mut probe);
    ok
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
/// than half opaque empty, `--invert` applied. 8-bit grey images are packed straight from
/// their bytes by `BitGrid::from_bytes` (SIMD); the other layouts first compute one byte per
/// pixel (0 or 1, in a loop over the samples), which `from_bytes` packs.
fn threshold(img: DynamicImage, opts: ImageOpts) -> Result<BitGrid, String> {
    let (w, h) = (img.width(), img.height());
    let t = opts.threshold.unwrap_or(0);
    let n = u64::from(t);
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
        DynamicImage::ImageLuma8(b) => luma_bytes(b.as_raw(), w, h, t, inv),
        DynamicImage::ImageLumaA8(b) => from_samples(b.as_raw(), 2, w, h, |p| {
            p[1] >= 128 && ((u64::from(p[0]) * SCALE > lim8) != inv)
        }),
        DynamicImage::ImageRgb8(b) => {
            from_samples(b.as_raw(), 3, w, h, |p| (rgb8(p) > lim8) != inv)
        }
        DynamicImage::ImageRgba8(b) => from_samples(b.as_raw(), 4, w, h, |p| {
            p[3] >= 128 && ((rgb8(p) > lim8) != inv)
        }),
        DynamicImage::ImageLuma16(b) => from_samples(b.as_raw(), 1, w, h, |p| {
            (u64::from(p[0]) * SCALE > lim16) != inv
        }),
        DynamicImage::ImageLumaA16(b) => from_samples(b.as_raw(), 2, w, h, |p| {
            p[1] >= 32768 && ((u64::from(p[0]) * SCALE > lim16) != inv)
        }),
        DynamicImage::ImageRgb16(b) => {
            from_samples(b.as_raw(), 3, w, h, |p| (rgb(p) > lim16) != inv)
        }
        other => {
            // RGBA16, and layouts the PNG and netpbm decoders do not produce: widen.
            let b = other.into_rgba16();
            from_samples(b.as_raw(), 4, w, h, |p| {
                p[3] >= 32768 && ((rgb(p) > lim16) != inv)
            })
        }
    }
}

/// 8-bit grey levels to bits: set where the level is greater than `t`, or with `invert`
/// where it is not.
fn luma_bytes(raw: &[u8], w: u32, h: u32, t: u8, invert: bool) -> Result<BitGrid, String> {
    let g = BitGrid::from_bytes(raw, w as usize, h as usize, w as usize, t)
        .map_err(|e: GridError| e.to_string())?;
    Ok(if invert { !g } else { g })
}

/// Pixels of `channels` samples each to bits: set where `set(pixel)`.
fn from_samples<T: Copy>(
    raw: &[T],
    channels: usize,
    w: u32,
    h: u32,
    set: impl Fn(&[T]) -> bool,
) -> Result<BitGrid, String> {
    let mut mask: Vec<u8> = Vec::new();
    let n = raw.len() / channels;
    mask.try_reserve_exact(n)
        .map_err(|_| format!("not enough memory for a {w}x{h} mask ({n} bytes)"))?;
    mask.extend(raw.chunks_exact(channels).map(|p| u8::from(set(p))));
    BitGrid::from_bytes(&mask, w as usize, h as usize, w as usize, 0).map_err(|e| e.to_string())
}
