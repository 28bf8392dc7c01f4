//! Label and distance images for other tools: numpy `.npy` arrays and greyscale PNGs,
//! written row by row (no whole-image buffer).
//!
//! - Labels (`components --labels`): `.npy` version 1.0, dtype `<u4` (little-endian `u32`),
//!   shape `(height, width)`, C order: `numpy.load("labels.npy")` gives the label image,
//!   `labels[y, x]`; or a 16-bit greyscale `.png`, one sample per cell (big-endian as PNG
//!   wants). Needs every label to fit in 16 bits.
//! - Distances (`distance --npy`): `.npy`, dtype `<i4`, `-1` at walls and unreachable cells,
//!   as `gridbits.distance` returns them in Python; (`distance --png`): an 8-bit greyscale
//!   PNG, see [`write_distance_png`].
//!
//! PNGs carry their deflate stream in stored (uncompressed) blocks so that rows go out as
//! they are made.

use crate::input::CliError;
use gridbits::algo::distance::DistanceMap;
use gridbits::algo::label::Labels;
use std::fs::File;
use std::io::{BufWriter, Write};

/// Largest label a 16-bit PNG holds.
const PNG_MAX_LABEL: u32 = u16::MAX as u32;

/// Writes `labels` mapped through `renumber` (`renumber[label]`, 0 for background or for a
/// component left out) to `path`, in the format its extension names (`.npy` or `.png`).
/// `count` is the largest value written.
pub fn write_labels(
    labels: &Labels,
    renumber: &[u32],
    count: usize,
    path: &str,
) -> Result<(), CliError> {
    let ext = std::path::Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let format = match ext.as_deref() {
        Some("npy") => Format::Npy,
        Some("png") => {
            if count > PNG_MAX_LABEL as usize {
                return Err(CliError::msg(format!(
                    "{path}: {count} components do not fit in a 16-bit PNG (at most {PNG_MAX_LABEL}); \
                     write a .npy file instead"
                )));
            }
            Format::Png
        }
        _ => {
            return Err(CliError::msg(format!(
                "{path}: unknown label image format; use a .npy or .png file name"
            )))
        }
    };
    to_file(path, |out| match format {
        Format::Npy => write_npy(out, labels, renumber),
        Format::Png => write_png_grey(out, labels.width(), labels.height(), 16, |y, row| {
            for &l in labels.row(y) {
                row.extend_from_slice(&(renumber[l as usize] as u16).to_be_bytes());
            }
        }),
    })
}

enum Format {
    Npy,
    Png,
}

/// The `.npy` version 1.0 header: magic, version, header length, and the dict padded with
/// spaces so that the data starts at a multiple of 64 bytes.
pub(crate) fn npy_header(descr: &str, width: usize, height: usize) -> Vec<u8> {
    let dict =
        format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': ({height}, {width}), }}");
    // magic (6) + version (2) + length (2) + dict + padding + '\n'.
    let unpadded = 10 + dict.len() + 1;
    let total = unpadded.div_ceil(64) * 64;
    let mut h = Vec::with_capacity(total);
    h.extend_from_slice(b"\x93NUMPY\x01\x00");
    h.extend_from_slice(&((total - 10) as u16).to_le_bytes());
    h.extend_from_slice(dict.as_bytes());
    h.resize(total - 1, b' ');
    h.push(b'\n');
    h
}

fn write_npy(out: &mut impl Write, labels: &Labels, renumber: &[u32]) -> std::io::Result<()> {
    let (w, h) = (labels.width(), labels.height());
    out.write_all(&npy_header("<u4", w, h))?;
    let mut row = Vec::with_capacity(4 * w);
    for y in 0..h {
        row.clear();
        for &l in labels.row(y) {
            row.extend_from_slice(&renumber[l as usize].to_le_bytes());
        }
        out.write_all(&row)?;
    }
    Ok(())
}

/// CRC-32 (ISO-HDLC, as PNG uses) table.
const CRC_TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
};

fn crc32(init: u32, data: &[u8]) -> u32 {
    let mut c = init;
    for &b in data {
        c = CRC_TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8);
    }
    c
}

/// Writes one PNG chunk.
fn chunk(out: &mut impl Write, kind: &[u8; 4], data: &[u8]) -> std::io::Result<()> {
    out.write_all(&(data.len() as u32).to_be_bytes())?;
    out.write_all(kind)?;
    out.write_all(data)?;
    let crc = crc32(crc32(!0, kind), data) ^ !0;
    out.write_all(&crc.to_be_bytes())
}

/// Largest stored deflate block.
const STORED_MAX: usize = 65535;

/// The image data of a PNG as a zlib stream of stored blocks, one `IDAT` chunk per block.
struct StoredIdat<'a, W: Write> {
    out: &'a mut W,
    /// Uncompressed bytes not yet written, at most one block.
    block: Vec<u8>,
    /// Uncompressed bytes still to come after `block`, to mark the final block.
    left: u64,
    /// Adler-32 of everything so far.
    a: u32,
    b: u32,
    first: bool,
}

impl<W: Write> StoredIdat<'_, W> {
    fn push(&mut self, mut data: &[u8]) -> std::io::Result<()> {
        while !data.is_empty() {
            let take = data.len().min(STORED_MAX - self.block.len());
            self.block.extend_from_slice(&data[..take]);
            data = &data[take..];
            self.left -= take as u64;
            if self.block.len() == STORED_MAX || self.left == 0 {
                self.flush_block()?;
            }
        }
        Ok(())
    }

    fn flush_block(&mut self) -> std::io::Result<()> {
        for &byte in &self.block {
            self.a = (self.a + u32::from(byte)) % 65521;
            self.b = (self.b + self.a) % 65521;
        }
        let last = self.left == 0;
        let mut data = Vec::with_capacity(self.block.len() + 11);
        if self.first {
            data.extend_from_slice(&[0x78, 0x01]); // zlib: deflate, 32 KiB window
            self.first = false;
        }
        let len = self.block.len() as u16;
        data.push(u8::from(last)); // BFINAL, BTYPE = 00 (stored)
        data.extend_from_slice(&len.to_le_bytes());
        data.extend_from_slice(&(!len).to_le_bytes());
        data.extend_from_slice(&self.block);
        if last {
            data.extend_from_slice(&((self.b << 16) | self.a).to_be_bytes());
        }
        self.block.clear();
        chunk(&mut *self.out, b"IDAT", &data)
    }
}

/// Writes a `w x h` greyscale PNG of `depth` bits a sample (8 or 16), `fill_row(y, row)`
/// appending row `y`'s samples (big-endian for 16 bits) to `row`.
fn write_png_grey(
    out: &mut impl Write,
    w: usize,
    h: usize,
    depth: u8,
    mut fill_row: impl FnMut(usize, &mut Vec<u8>),
) -> std::io::Result<()> {
    let too_big = || std::io::Error::other(format!("{w}x{h} is too large for a PNG"));
    let w32 = u32::try_from(w).map_err(|_| too_big())?;
    let h32 = u32::try_from(h).map_err(|_| too_big())?;
    out.write_all(b"\x89PNG\r\n\x1a\n")?;
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&w32.to_be_bytes());
    ihdr.extend_from_slice(&h32.to_be_bytes());
    // Bit depth, colour type 0 (greyscale), deflate, filter method 0, no interlace.
    ihdr.extend_from_slice(&[depth, 0, 0, 0, 0]);
    chunk(out, b"IHDR", &ihdr)?;
    let row_bytes = 1 + usize::from(depth / 8) * w;
    let mut idat = StoredIdat {
        out,
        block: Vec::with_capacity(STORED_MAX),
        left: row_bytes as u64 * h as u64,
        a: 1,
        b: 0,
        first: true,
    };
    let mut row = Vec::with_capacity(row_bytes);
    for y in 0..h {
        row.clear();
        row.push(0); // filter: none
        fill_row(y, &mut row);
        idat.push(&row)?;
    }
    chunk(out, b"IEND", &[])
}

/// Creates `path` and runs `write` on a buffered writer to it; errors name the path.
pub(crate) fn to_file(
    path: &str,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<(), CliError> {
    let write_err = |e: std::io::Error| CliError::msg(format!("cannot write {path}: {e}"));
    let mut out = BufWriter::new(File::create(path).map_err(write_err)?);
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(write_err)
}

/// Checks `distance --npy OUT` before any work: a path ending in `.npy`.
pub fn check_npy_target(path: Option<&str>) -> Result<(), CliError> {
    match path {
        Some(p) if !p.to_ascii_lowercase().ends_with(".npy") => Err(CliError::msg(format!(
            "--npy {p}: the file name must end in .npy (a numpy array)"
        ))),
        _ => Ok(()),
    }
}

/// Writes a distance map to `path` as a numpy `.npy` array: dtype `<i4` (`int32`), shape
/// `(height, width)`, `-1` at walls and unreachable cells: the array `gridbits.distance`
/// returns in Python.
pub fn write_distance_npy(map: &DistanceMap, path: &str) -> Result<(), CliError> {
    let (w, h) = (map.width(), map.height());
    // A finite distance is below the number of cells: only maps of more than 2^31 cells
    // can hold one past `i32::MAX`.
    if w.saturating_mul(h) > i32::MAX as usize {
        if let Some(max) = map.max().filter(|&m| m > i32::MAX as u32) {
            return Err(CliError::msg(format!(
                "{path}: distance {max} does not fit in an int32 .npy array"
            )));
        }
    }
    to_file(path, |out| {
        out.write_all(&npy_header("<i4", w, h))?;
        let mut row = Vec::with_capacity(4 * w);
        for y in 0..h {
            row.clear();
            for &d in &map.as_slice()[y * w..(y + 1) * w] {
                // UNREACHABLE is u32::MAX, whose i32 bits are -1.
                row.extend_from_slice(&(d as i32).to_le_bytes());
            }
            out.write_all(&row)?;
        }
        Ok(())
    })
}

/// The grey level of a cell at distance `d` of a map whose largest distance is `max`, in
/// `distance --png`: sources (0) white, 255, darker with distance down to 1 at `max`
/// (`255 - 254 * d / max`, rounded down); walls and unreachable cells are 0, black.
pub fn distance_level(d: u32, max: u32) -> u8 {
    if d == DistanceMap::UNREACHABLE {
        0
    } else if max == 0 {
        255
    } else {
        (255 - u64::from(d) * 254 / u64::from(max)) as u8
    }
}

/// Writes a distance map as an 8-bit greyscale PNG to `path`, or to standard output for `-`
/// (levels: [`distance_level`]).
pub fn write_distance_png(map: &DistanceMap, path: &str) -> Result<(), CliError> {
    let (w, h) = (map.width(), map.height());
    let max = map.max().unwrap_or(0);
    write_grey_png_to(path, w, h, 8, |y, row| {
        row.extend(
            map.as_slice()[y * w..(y + 1) * w]
                .iter()
                .map(|&d| distance_level(d, max)),
        );
    })
}

/// Writes a `w x h` greyscale PNG of `depth` bits a sample to `path`, or to standard output
/// for `-` (rows from `fill_row`, as [`write_png_grey`] takes them).
pub(crate) fn write_grey_png_to(
    path: &str,
    w: usize,
    h: usize,
    depth: u8,
    mut fill_row: impl FnMut(usize, &mut Vec<u8>),
) -> Result<(), CliError> {
    let mut rows = |out: &mut dyn Write| {
        let mut out = out;
        write_png_grey(&mut out, w, h, depth, &mut fill_row)
    };
    if path == "-" {
        let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        return match rows(&mut out).and_then(|()| out.flush()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::msg(format!(
                "cannot write to standard output: {e}"
            ))),
            _ => Ok(()),
        };
    }
    to_file(path, |out| rows(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_header_is_padded_to_64() {
        let h = npy_header("<u4", 3, 2);
        assert_eq!(h.len() % 64, 0);
        assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
        assert_eq!(u16::from_le_bytes([h[8], h[9]]) as usize, h.len() - 10);
        assert_eq!(h.last(), Some(&b'\n'));
        let text = std::str::from_utf8(&h[10..]).unwrap();
        assert!(text.starts_with("{'descr': '<u4', 'fortran_order': False, 'shape': (2, 3), }"));
    }

    #[test]
    fn crc_of_iend() {
        // The CRC every PNG ends with.
        assert_eq!(crc32(!0, b"IEND") ^ !0, 0xae42_6082);
    }
}
