//! Writing results: PNG images (to a `.png` file or, for `-`, standard output) and the
//! markers that text drawings use for results.

use crate::input::CliError;
use gridbits::{BitGrid, CharGrid};
use image::{DynamicImage, ImageFormat};
use std::io::{self, Write};

/// Checks a `--png OUT` value before any work: `-` (standard output, which then carries only
/// the image, so not with `--json`) or a path ending in `.png`.
pub fn check_png_target(png: Option<&str>, json: bool) -> Result<(), CliError> {
    match png {
        None => Ok(()),
        Some("-") if json => Err(CliError::msg(
            "--png - writes the image to standard output: it cannot go with --json",
        )),
        Some("-") => Ok(()),
        Some(path) => {
            let ext = std::path::Path::new(path)
                .extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase);
            if ext.as_deref() == Some("png") {
                Ok(())
            } else {
                Err(CliError::msg(format!(
                    "--png {path}: output images are PNG, so the file name must end in .png \
                     (or use - for standard output)"
                )))
            }
        }
    }
}

/// Whether `--png` sends the image to standard output (the text result is then not printed).
pub fn png_to_stdout(png: Option<&str>) -> bool {
    png == Some("-")
}

/// Saves an image as PNG to `path`, or to standard output for `-`.
pub fn save_png(img: impl Into<DynamicImage>, path: &str) -> Result<(), CliError> {
    check_png_target(Some(path), false)?;
    let img: DynamicImage = img.into();
    if path == "-" {
        let mut bytes = Vec::new();
        img.write_to(&mut io::Cursor::new(&mut bytes), ImageFormat::Png)
            .map_err(|e| CliError::msg(format!("cannot encode the PNG image: {e}")))?;
        let mut out = io::stdout().lock();
        return match out.write_all(&bytes).and_then(|()| out.flush()) {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(CliError::msg(format!(
                "cannot write to standard output: {e}"
            ))),
            _ => Ok(()),
        };
    }
    img.save_with_format(path, ImageFormat::Png)
        .map_err(|e| CliError::msg(format!("cannot write {path}: {}", plain_io(e))))
}

/// The I/O cause of an encoder error, without the encoder's wrapping.
fn plain_io(e: image::ImageError) -> String {
    match e {
        image::ImageError::IoError(io) => io.to_string(),
        other => other.to_string(),
    }
}

/// Writes a grid as an 8-bit greyscale PNG: set cells white (255), empty cells black (0), so
/// reading it back gives the same grid. `path` `-` is standard output.
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
    save_png(img, path)
}

/// The characters a drawing already uses: a text grid's characters (or `#` and `.` for an
/// image), plus the markers picked so far. [`Chars::pick`] gives a marker that is none of them.
pub struct Chars([bool; 128]);

impl Chars {
    /// The characters of `text`, or `#` and `.` (how images are drawn) for `None`.
    pub fn of(text: Option<&CharGrid>) -> Self {
        let mut used = [false; 128];
        match text {
            Some(t) => {
                for y in 0..t.height() {
                    for &c in t.row(y) {
                        used[usize::from(c & 0x7f)] = true;
                    }
                }
            }
            None => {
                used[usize::from(b'#')] = true;
                used[usize::from(b'.')] = true;
            }
        }
        Chars(used)
    }

    /// Marks `c` as used.
    pub fn add(&mut self, c: char) {
        if c.is_ascii() {
            self.0[c as usize] = true;
        }
    }

    /// Whether `c` is used.
    pub fn contains(&self, c: char) -> bool {
        c.is_ascii() && self.0[c as usize]
    }

    /// The first of `preferred` not yet used, else any unused printable ASCII character, else
    /// `¤`; it is marked used.
    pub fn pick(&mut self, preferred: &str) -> char {
        let c = preferred
            .chars()
            .chain((b'!'..=b'~').map(char::from))
            .find(|&c| !self.contains(c))
            .unwrap_or('¤');
        self.add(c);
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_skip_used_characters() {
        let t = CharGrid::parse(b"o*\n.#\n").expect("grid");
        let mut used = Chars::of(Some(&t));
        assert_eq!(used.pick("o*+"), '+');
        assert_eq!(used.pick("o*+"), '!');
        let mut img = Chars::of(None);
        assert_eq!(img.pick("#o"), 'o');
    }

    #[test]
    fn png_targets() {
        assert!(check_png_target(Some("a.PNG"), false).is_ok());
        assert!(check_png_target(Some("-"), false).is_ok());
        assert!(check_png_target(Some("-"), true).is_err());
        assert!(check_png_target(Some("a.jpg"), false).is_err());
        assert!(check_png_target(Some("png"), false).is_err());
    }
}
