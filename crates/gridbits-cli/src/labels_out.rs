//! Label images for other tools: a numpy `.npy` array or a 16-bit greyscale PNG, written
//! row by row (no whole-image buffer).
//!
//! - `.npy`: format version 1.0, dtype `<u4` (little-endian `u32`), shape `(height, width)`,
//!   C order: `numpy.load("labels.npy")` gives the label image, `labels[y, x]`.
//! - `.png`: 16-bit greyscale, one sample per cell (big-endian as PNG wants), the deflate
//!   stream in stored (uncompressed) blocks so that rows go out as they are made. Needs
//!   every label to fit in 16 bits.

use crate::input::CliError;
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
    let write_err = |e: std::io::Error| CliError::msg(format!("cannot write {path}: {e}"));
    let file = File::create(path).map_err(write_err)?;
    let mut out = BufWriter::new(file);
    match format {
        Format::Npy => write_npy(&mut out, labels, renumber),
        Format::Png => write_png16(&mut out, labels, renumber),
    }
    .and_then(|()| out.flush())
    .map_err(write_err)
}

enum Format {
    Npy,
    Png,
}

/// The `.npy` version 1.0 header: magic, version, header length, and the dict padded with
/// spaces so that the data starts at a multiple of 64 bytes.
fn npy_header(width: usize, height: usize) -> Vec<u8> {
    let dict =
        format!("{{'descr': '<u4', 'fortran_order': False, 'shape': ({height}, {width}), }}");
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
    out.write_all(&npy_header(w, h))?;
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

fn write_png16(out: &mut impl Write, labels: &Labels, renumber: &[u32]) -> std::io::Result<()> {
    let (w, h) = (labels.width(), labels.height());
    let too_big = || std::io::Error::other(format!("{w}x{h} is too large for a PNG"));
    let w32 = u32::try_from(w).map_err(|_| too_big())?;
    let h32 = u32::try_from(h).map_err(|_| too_big())?;
    out.write_all(b"\x89PNG\r\n\x1a\n")?;
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&w32.to_be_bytes());
    ihdr.extend_from_slice(&h32.to_be_bytes());
    // Bit depth 16, colour type 0 (greyscale), deflate, filter method 0, no interlace.
    ihdr.extend_from_slice(&[16, 0, 0, 0, 0]);
    chunk(out, b"IHDR", &ihdr)?;
    let row_bytes = 1 + 2 * w;
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
        for &l in labels.row(y) {
            row.extend_from_slice(&(renumber[l as usize] as u16).to_be_bytes());
        }
        idat.push(&row)?;
    }
    chunk(out, b"IEND", &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_header_is_padded_to_64() {
        let h = npy_header(3, 2);
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
