//! Writing results: standard output as one buffered stream, JSON written piece by piece,
//! PNG images (to a `.png` file or, for `-`, standard output) and the markers that text
//! drawings use for results.
//!
//! Commands write their results to a `&mut dyn Write` (standard output behind a
//! [`BufWriter`], see [`stdout`]) as they make them: no command builds its whole output in
//! memory, and JSON is written by hand in the order and format of `serde_json`'s compact
//! output of the same object (keys in sorted order, as `serde_json::json!` kept them; `fill`,
//! `transform`, `skeleton` and `regionprops` keep the order they always had, listed in
//! `docs/cli.md`).

use crate::input::CliError;
use gridbits::{BitGrid, CharGrid};
use image::codecs::png::PngEncoder;
use image::DynamicImage;
use std::io::{self, BufWriter, Write};

/// Standard output for results: locked once and buffered.
pub type Stdout = BufWriter<io::StdoutLock<'static>>;

/// Standard output, locked and behind a 64 KiB buffer.
pub fn stdout() -> Stdout {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// Appends the decimal digits of `n` to `buf`.
pub fn push_uint(buf: &mut Vec<u8>, n: u64) {
    let mut scratch = [0u8; 24];
    let len = put_uint(&mut scratch, 0, n);
    push_prefix(buf, &scratch, len);
}

/// Writes the decimal digits of `n` into `s` from `at`; returns the position after them.
/// `s` must have room for 20 digits from `at`.
#[inline(always)]
fn put_uint(s: &mut [u8], at: usize, mut n: u64) -> usize {
    let mut digits = 1;
    let mut t = n;
    while t >= 10 {
        t /= 10;
        digits += 1;
    }
    let end = at + digits;
    let mut i = end;
    loop {
        i -= 1;
        s[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    end
}

/// Appends the first `len` bytes of `scratch`: a copy of the whole fixed-size array (a few
/// vector stores, no call) and a truncation, faster than a copy of variable length.
#[inline(always)]
fn push_prefix<const N: usize>(buf: &mut Vec<u8>, scratch: &[u8; N], len: usize) {
    let start = buf.len();
    buf.extend_from_slice(scratch);
    buf.truncate(start + len);
}

/// Output made of many small pieces (numbers, cells), gathered in a local buffer and passed
/// on to the writer in blocks of about 64 KiB: no call through the writer per piece.
/// [`Chunked::finish`] writes the rest; dropping it without that loses the rest.
pub struct Chunked<'a> {
    out: &'a mut dyn Write,
    buf: Vec<u8>,
}

impl<'a> Chunked<'a> {
    /// Size of the blocks passed on.
    const BLOCK: usize = 1 << 16;

    /// A buffer in front of `out`.
    pub fn new(out: &'a mut dyn Write) -> Self {
        Chunked {
            out,
            buf: Vec::with_capacity(Self::BLOCK + 256),
        }
    }

    /// Appends bytes.
    pub fn bytes(&mut self, b: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(b);
        self.spill()
    }

    /// Appends a text.
    pub fn str(&mut self, s: &str) -> io::Result<()> {
        self.bytes(s.as_bytes())
    }

    /// Appends a whole number in decimal.
    pub fn uint(&mut self, n: u64) -> io::Result<()> {
        push_uint(&mut self.buf, n);
        self.spill()
    }

    /// Appends a cell as the JSON pair `[x,y]`, after a comma unless `first`.
    pub fn cell(&mut self, first: bool, x: usize, y: usize) -> io::Result<()> {
        let mut s = [0u8; 48];
        let mut n = 0;
        if !first {
            s[0] = b',';
            n = 1;
        }
        s[n] = b'[';
        n = put_uint(&mut s, n + 1, x as u64);
        s[n] = b',';
        n = put_uint(&mut s, n + 1, y as u64);
        s[n] = b']';
        push_prefix(&mut self.buf, &s, n + 1);
        self.spill()
    }

    /// Appends a JSON string, escaped as `serde_json` does.
    pub fn json_str(&mut self, s: &str) -> io::Result<()> {
        serde_json::to_writer(&mut self.buf, s)?;
        self.spill()
    }

    /// Appends a JSON number for `v` as `serde_json` writes an `f64` (`null` if not finite).
    pub fn json_f64(&mut self, v: f64) -> io::Result<()> {
        serde_json::to_writer(&mut self.buf, &v)?;
        self.spill()
    }

    /// Appends a JSON list of cells `[[x,y],...]`.
    pub fn cells(&mut self, cells: impl Iterator<Item = (usize, usize)>) -> io::Result<()> {
        self.buf.push(b'[');
        for (i, (x, y)) in cells.enumerate() {
            self.cell(i == 0, x, y)?;
        }
        self.bytes(b"]")
    }

    /// Writes what is left in the buffer (the writer itself is not flushed).
    pub fn finish(mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    fn spill(&mut self) -> io::Result<()> {
        if self.buf.len() >= Self::BLOCK {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
}

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
        // Encoded straight into standard output (no copy of the whole file in memory).
        let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
        let written = img
            .write_with_encoder(PngEncoder::new(&mut out))
            .map_err(plain_io)
            .and_then(|()| out.flush());
        return match written {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(CliError::msg(format!(
                "cannot write to standard output: {e}"
            ))),
            _ => Ok(()),
        };
    }
    // Through `to_file`, which flushes its buffer and reports the error: `image`'s own
    // `save_with_format` drops its `BufWriter` unflushed, losing the error of the last
    // write (a full disk went unreported for any image smaller than the buffer).
    crate::labels_out::to_file(path, |out| {
        img.write_with_encoder(PngEncoder::new(out))
            .map_err(plain_io)
    })
}

/// The I/O cause of an encoder error, without the encoder's wrapping.
fn plain_io(e: image::ImageError) -> io::Error {
    match e {
        image::ImageError::IoError(io) => io,
        other => io::Error::other(other.to_string()),
    }
}

/// The pixel buffer of a `w x h` PNG of `channels` bytes a pixel written to `path`, empty,
/// with its room reserved, and the sides as PNG takes them; or the error naming the cause (a
/// side past PNG's `2^32 - 1`, or memory).
pub fn png_buffer(
    path: &str,
    w: usize,
    h: usize,
    channels: usize,
) -> Result<(u32, u32, Vec<u8>), CliError> {
    let too_big = || CliError::msg(format!("{path}: grid {w}x{h} is too large for a PNG"));
    let w32 = u32::try_from(w).map_err(|_| too_big())?;
    let h32 = u32::try_from(h).map_err(|_| too_big())?;
    let bytes = w.checked_mul(h).and_then(|n| n.checked_mul(channels));
    let mut buf = Vec::new();
    if bytes.is_none_or(|n| buf.try_reserve_exact(n).is_err()) {
        return Err(CliError::msg(format!(
            "{path}: not enough memory for the {w}x{h} PNG ({} bytes)",
            w as u128 * h as u128 * channels as u128
        )));
    }
    Ok((w32, h32, buf))
}

/// Writes a grid as an 8-bit greyscale PNG: set cells white (255), empty cells black (0), so
/// reading it back gives the same grid. `path` `-` is standard output.
pub fn write_png(grid: &BitGrid, path: &str) -> Result<(), CliError> {
    let (w, h) = (grid.width(), grid.height());
    let (w32, h32, mut buf) = png_buffer(path, w, h, 1)?;
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
    let img = image::GrayImage::from_raw(w32, h32, buf)
        .ok_or_else(|| CliError::msg(format!("{path}: the PNG buffer is short")))?;
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
    fn numbers_and_cells() {
        let mut buf = Vec::new();
        for n in [0, 7, 9, 10, 99, 100, 65535, 131_071, 1 << 32, u64::MAX] {
            buf.clear();
            push_uint(&mut buf, n);
            assert_eq!(buf, n.to_string().as_bytes());
        }
        let mut out = Vec::new();
        let mut c = Chunked::new(&mut out);
        c.cells([(0, 0), (10, 131_071), (usize::MAX, 9)].into_iter())
            .expect("write");
        c.finish().expect("write");
        assert_eq!(
            String::from_utf8(out).expect("ascii"),
            format!("[[0,0],[10,131071],[{},9]]", usize::MAX)
        );
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
