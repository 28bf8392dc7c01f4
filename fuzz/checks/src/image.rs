//! Images through the command line's input layer (`gridbits_cli::input`): format detection,
//! PNG and PBM decoding, `--threshold` and `--invert`. Whatever the bytes, an error or a grid;
//! a grid is checked pixel by pixel against the documented rules applied to the image
//! crate's own decoding.

use gridbits::BitGrid;
use gridbits_cli::input::format::{detect, Format};
use gridbits_cli::input::netpbm::without_comments;
use gridbits_cli::input::{read_bytes, ImageOpts, Input};
use image::ImageFormat;

/// PBM (P1, P4) files: plain, inverted, and with a threshold (an error for a bitmap).
pub fn check_pbm(data: &[u8]) {
    check_image(
        data,
        &[opts(None, false), opts(None, true), opts(Some(0), false)],
    );
}

/// PNG files: the default threshold, a threshold from the input's length, inverted.
pub fn check_png(data: &[u8]) {
    let t = (data.len() % 255) as u8;
    check_image(data, &[opts(None, false), opts(Some(t), true)]);
}

fn opts(threshold: Option<u8>, invert: bool) -> ImageOpts {
    ImageOpts { threshold, invert }
}

fn check_image(data: &[u8], all: &[ImageOpts]) {
    let format = detect(data);
    for &o in all {
        let got = read_bytes(data, "input", o);
        let grid = match (got, format) {
            (Ok(Input::Image(g)), Format::Png | Format::Pbm | Format::Netpbm) => g,
            (Ok(Input::Text(_)), Format::Text) => continue,
            (Ok(_), f) => panic!("{f:?} read as the other kind"),
            (Err(e), _) => {
                assert!(!e.to_string().is_empty());
                continue;
            }
        };
        assert!(
            !(format == Format::Pbm && o.threshold.is_some()),
            "a threshold on a bitmap is an error"
        );
        let want = oracle(data, format, o).expect("the image crate decodes what the CLI read");
        assert_eq!(grid, want, "{format:?} {o:?}");
    }
}

/// The documented rules on the image crate's RGBA16 pixels: set when the luminance
/// 0.2126 R + 0.7152 G + 0.0722 B is above the threshold (0-255 scale, 16-bit samples
/// divided by 257), never when less than half opaque; PBM black is set; `--invert` swaps
/// set and empty for the opaque pixels.
fn oracle(data: &[u8], format: Format, o: ImageOpts) -> Option<BitGrid> {
    let f = if format == Format::Png {
        ImageFormat::Png
    } else {
        ImageFormat::Pnm
    };
    // The image crate reads netpbm comments only at a line's start; the CLI leaves the
    // header's comments out first (that rewrite has its own unit tests in `netpbm.rs`).
    let uncommented = without_comments(data).ok().flatten();
    let img = image::load_from_memory_with_format(uncommented.as_deref().unwrap_or(data), f)
        .ok()?
        .to_rgba16();
    let (w, h) = (img.width() as usize, img.height() as usize);
    let limit = u64::from(o.threshold.unwrap_or(0)) * 257 * 10_000;
    BitGrid::from_fn(w, h, |x, y| {
        let p = img.get_pixel(x as u32, y as u32).0;
        let level = 2126 * u64::from(p[0]) + 7152 * u64::from(p[1]) + 722 * u64::from(p[2]);
        if format == Format::Pbm {
            (level == 0) != o.invert
        } else {
            p[3] >= 32768 && ((level > limit) != o.invert)
        }
    })
    .ok()
}
