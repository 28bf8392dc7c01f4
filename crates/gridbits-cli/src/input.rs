//! Reading the command line's input: a text grid, or a PBM/PNG image chosen by extension.

use gridbits::text::{CharGrid, ParseError, MAX_CELLS};
use gridbits::BitGrid;
use image::{DynamicImage, ImageFormat, ImageReader, Limits};
use std::fmt;
use std::io::{self, Read};
use std::path::Path;

/// Largest image side accepted: 2^17 pixels, so that width * height stays within
/// `MAX_CELLS` (2^34).
const MAX_IMAGE_SIDE: u32 = 1 << 17;
/// Largest buffer the image decoder may allocate (a 16384 x 16384 RGBA16 image is 2 GiB).
const MAX_IMAGE_ALLOC: u64 = 4 << 30;

/// An error of the command line: printed as `error: ...`, exit status 2.
#[derive(Debug)]
pub enum CliError {
    /// A text grid that does not parse (line and column inside).
    Parse(ParseError),
    /// Anything else, with its message.
    Msg(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Parse(e) => write!(f, "{e}"),
            CliError::Msg(m) => f.write_str(m),
        }
    }
}

impl From<ParseError> for CliError {
    fn from(e: ParseError) -> Self {
        CliError::Parse(e)
    }
}

impl CliError {
    /// An error from a message.
    pub fn msg(m: impl Into<String>) -> Self {
        CliError::Msg(m.into())
    }
}

/// What an input turned out to be.
pub enum Input {
    /// A text grid, characters kept (commands give them meaning).
    Text(CharGrid),
    /// A binary image, already mapped to set/empty cells.
    Image(BitGrid),
}

impl Input {
    /// The input as a bit grid, `is_set` deciding which text characters are set.
    pub fn into_bits(self, is_set: impl FnMut(u8) -> bool) -> Result<BitGrid, CliError> {
        match self {
            Input::Image(g) => Ok(g),
            Input::Text(t) => {
                BitGrid::from_char_grid(&t, is_set).map_err(|e| CliError::msg(e.to_string()))
            }
        }
    }
}

/// The image format a path names by its extension, if any.
fn image_format(path: &Path) -> Option<ImageFormat> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "png" => Some(ImageFormat::Png),
        "pbm" => Some(ImageFormat::Pnm),
        _ => None,
    }
}

/// Reads `path` (or standard input for `None` or `-`).
pub fn read_input(path: Option<&str>) -> Result<Input, CliError> {
    match path {
        None | Some("-") => {
            let buf = read_capped(io::stdin(), "standard input")?;
            parse_text(&buf)
        }
        Some(p) => {
            let path = Path::new(p);
            match image_format(path) {
                Some(format) => read_image(path, format).map(Input::Image),
                None => {
                    let file = std::fs::File::open(path)
                        .map_err(|e| CliError::msg(format!("cannot read {p}: {e}")))?;
                    parse_text(&read_capped(file, p)?)
                }
            }
        }
    }
}

/// Largest text input read: 4 GiB (a 65536 x 65536 grid), refused past that before memory
/// runs out.
const MAX_TEXT_BYTES: u64 = 4 << 30;

/// Reads all of `r`, refusing more than [`MAX_TEXT_BYTES`].
fn read_capped(r: impl Read, name: &str) -> Result<Vec<u8>, CliError> {
    let mut buf = Vec::new();
    r.take(MAX_TEXT_BYTES + 1)
        .read_to_end(&mut buf)
        .map_err(|e| CliError::msg(format!("cannot read {name}: {e}")))?;
    if buf.len() as u64 > MAX_TEXT_BYTES {
        return Err(CliError::msg(format!(
            "{name}: text input larger than {} GiB; use a PNG or PBM image",
            MAX_TEXT_BYTES >> 30
        )));
    }
    Ok(buf)
}

/// Parses a text grid, with a hint when the bytes look like an image.
fn parse_text(buf: &[u8]) -> Result<Input, CliError> {
    CharGrid::parse(buf).map(Input::Text).map_err(|e| {
        let pbm = (buf.starts_with(b"P1") || buf.starts_with(b"P4"))
            && buf.get(2).is_some_and(u8::is_ascii_whitespace);
        let hint = if buf.starts_with(b"\x89PNG") {
            " (this looks like a PNG image: pass it as a file ending in .png)"
        } else if pbm {
            " (this looks like a PBM image: pass it as a file ending in .pbm)"
        } else {
            ""
        };
        if hint.is_empty() {
            CliError::Parse(e)
        } else {
            CliError::msg(format!("{e}{hint}"))
        }
    })
}

/// Reads a PBM or PNG image as a bit grid: PBM 1 (black) is set; a PNG pixel is set when any
/// colour channel is not zero.
pub fn read_image(path: &Path, format: ImageFormat) -> Result<BitGrid, CliError> {
    let name = path.display();
    let open = || -> Result<ImageReader<_>, CliError> {
        let mut r = ImageReader::open(path)
            .map_err(|e| CliError::msg(format!("cannot read {name}: {e}")))?;
        r.set_format(format);
        let mut limits = Limits::default();
        limits.max_image_width = Some(MAX_IMAGE_SIDE);
        limits.max_image_height = Some(MAX_IMAGE_SIDE);
        limits.max_alloc = Some(MAX_IMAGE_ALLOC);
        r.limits(limits);
        Ok(r)
    };
    if format == ImageFormat::Pnm {
        // Only bitmaps: a greyscale or colour netpbm file would read with the opposite
        // polarity to the same pixels in a PNG.
        let mut magic = [0u8; 2];
        let ok = std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut magic))
            .is_ok();
        if !ok || !(magic == *b"P1" || magic == *b"P4") {
            return Err(CliError::msg(format!(
                "{name}: not a PBM bitmap (P1 or P4); convert other netpbm images to PNG"
            )));
        }
    }
    let bad = |e: image::ImageError| {
        let why = match e {
            image::ImageError::Limits(_) => format!(
                "image is too large (at most {MAX_IMAGE_SIDE} pixels a side and {} GiB to decode)",
                MAX_IMAGE_ALLOC >> 30
            ),
            image::ImageError::IoError(io) if io.kind() == io::ErrorKind::UnexpectedEof => {
                "image data ends early (truncated file)".to_string()
            }
            other => other.to_string(),
        };
        CliError::msg(format!("{name}: {why}"))
    };
    // Check the size from the header before decoding anything.
    let (w, h) = open()?.into_dimensions().map_err(bad)?;
    if w == 0 || h == 0 {
        return Err(CliError::msg(format!("{name}: image has no pixels")));
    }
    if u64::from(w) * u64::from(h) > MAX_CELLS {
        return Err(CliError::msg(format!(
            "{name}: image is {w}x{h}, more than {MAX_CELLS} pixels"
        )));
    }
    let img = open()?.decode().map_err(bad)?;
    let grid = match format {
        ImageFormat::Pnm => {
            // The decoder maps PBM 1 (black) to luma 0 and 0 (white) to non-zero.
            let luma = img.into_luma8();
            grid_from_pixels(w, h, |x, y| luma.get_pixel(x, y).0[0] == 0)
        }
        _ => image_to_bits(img),
    };
    grid.map_err(|e| CliError::msg(format!("{name}: {e}")))
}

/// A PNG's pixels as bits: set where any colour channel is non-zero (alpha is ignored).
fn image_to_bits(img: DynamicImage) -> Result<BitGrid, gridbits::SizeError> {
    let (w, h) = (img.width(), img.height());
    match img {
        DynamicImage::ImageLuma8(b) => grid_from_pixels(w, h, |x, y| b.get_pixel(x, y).0[0] != 0),
        DynamicImage::ImageLumaA8(b) => grid_from_pixels(w, h, |x, y| b.get_pixel(x, y).0[0] != 0),
        DynamicImage::ImageRgb8(b) => {
            grid_from_pixels(w, h, |x, y| b.get_pixel(x, y).0 != [0, 0, 0])
        }
        DynamicImage::ImageRgba8(b) => {
            grid_from_pixels(w, h, |x, y| b.get_pixel(x, y).0[..3] != [0, 0, 0])
        }
        DynamicImage::ImageLuma16(b) => grid_from_pixels(w, h, |x, y| b.get_pixel(x, y).0[0] != 0),
        DynamicImage::ImageLumaA16(b) => grid_from_pixels(w, h, |x, y| b.get_pixel(x, y).0[0] != 0),
        DynamicImage::ImageRgb16(b) => {
            grid_from_pixels(w, h, |x, y| b.get_pixel(x, y).0 != [0, 0, 0])
        }
        DynamicImage::ImageRgba16(b) => {
            grid_from_pixels(w, h, |x, y| b.get_pixel(x, y).0[..3] != [0, 0, 0])
        }
        DynamicImage::ImageRgb32F(b) => {
            grid_from_pixels(w, h, |x, y| b.get_pixel(x, y).0 != [0.0, 0.0, 0.0])
        }
        DynamicImage::ImageRgba32F(b) => {
            grid_from_pixels(w, h, |x, y| b.get_pixel(x, y).0[..3] != [0.0, 0.0, 0.0])
        }
        other => {
            // Layouts added to `image` after this was written: widen to RGBA32F.
            let b = other.into_rgba32f();
            grid_from_pixels(w, h, |x, y| b.get_pixel(x, y).0[..3] != [0.0, 0.0, 0.0])
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

/// Writes a grid as an 8-bit greyscale PNG: set cells white (255), empty cells black (0), so
/// reading it back gives the same grid.
pub fn write_png(grid: &BitGrid, path: &str) -> Result<(), CliError> {
    let (w, h) = (grid.width(), grid.height());
    let too_big = || CliError::msg(format!("{path}: grid {w}x{h} is too large for a PNG"));
    let w32 = u32::try_from(w).map_err(|_| too_big())?;
    let h32 = u32::try_from(h).map_err(|_| too_big())?;
    let mut buf = Vec::new();
    buf.try_reserve_exact(w * h).map_err(|_| too_big())?;
    for y in 0..h {
        let row = grid.row_words(y);
        buf.extend((0..w).map(|x| {
            if row[x / 64] >> (x % 64) & 1 != 0 {
                255u8
            } else {
                0
            }
        }));
    }
    let img = image::GrayImage::from_raw(w32, h32, buf).ok_or_else(too_big)?;
    img.save_with_format(path, ImageFormat::Png)
        .map_err(|e| CliError::msg(format!("cannot write {path}: {e}")))
}
