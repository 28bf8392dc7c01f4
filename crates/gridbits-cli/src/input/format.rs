//! What an input is, from its first bytes ("magic numbers"), for files and standard input
//! alike.

use std::path::Path;

/// The kind of an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A PNG image.
    Png,
    /// A netpbm bitmap (P1 or P4): 1 = black = set.
    Pbm,
    /// Another netpbm image (P2/P5 greymap, P3/P6 pixmap, P7 arbitrary map): grey levels.
    Netpbm,
    /// A text grid (or something that is none of the above: the text parser says what).
    Text,
    /// An image format that is recognised but not read, by name.
    Unsupported(&'static str),
    /// Text with a byte-order mark, by encoding.
    ByteOrderMark(&'static str),
}

/// Recognised signatures that are not supported: (offset, bytes, name).
const UNSUPPORTED: &[(usize, &[u8], &str)] = &[
    (0, b"\xff\xd8\xff", "JPEG"),
    (0, b"GIF87a", "GIF"),
    (0, b"GIF89a", "GIF"),
    (0, b"II*\0", "TIFF"),
    (0, b"MM\0*", "TIFF"),
    (8, b"WEBP", "WebP"),
    (4, b"ftypavif", "AVIF"),
    (4, b"ftypheic", "HEIF"),
    (4, b"ftypmif1", "HEIF"),
    (0, b"\0\0\x01\0", "ICO"),
    (0, b"qoif", "QOI"),
    (0, b"8BPS", "Photoshop (PSD)"),
    (0, b"\x76\x2f\x31\x01", "OpenEXR"),
    (0, b"DDS ", "DDS"),
    (0, b"farbfeld", "farbfeld"),
    (0, b"#?RADIANCE", "Radiance HDR"),
    (0, b"%PDF-", "PDF (not an image)"),
    (0, b"\x1f\x8b", "gzip-compressed data (not an image)"),
    (0, b"PK\x03\x04", "ZIP archive (not an image)"),
    (0, b"<svg", "SVG"),
    (0, b"<?xml", "XML/SVG"),
];

/// What `buf` is, from its first bytes.
pub fn detect(buf: &[u8]) -> Format {
    if buf.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Format::Png;
    }
    if buf.starts_with(b"\xef\xbb\xbf") {
        return Format::ByteOrderMark("UTF-8 with a byte-order mark");
    }
    if buf.starts_with(b"\xff\xfe") || buf.starts_with(b"\xfe\xff") {
        return Format::ByteOrderMark("UTF-16");
    }
    if let Some(f) = netpbm(buf) {
        // Both an image and a text grid can start "P1", "10", "10": a text grid's rows are
        // not a raster of the header's size. The raster (a whole plain image's scan) is only
        // looked at when the first lines read as text.
        let text = reads_as_text(buf)
            && !super::netpbm::header(buf).is_some_and(|h| super::netpbm::raster_fits(buf, &h));
        return if text { Format::Text } else { f };
    }
    // BMP: "BM", file size, then four reserved zero bytes (never in a text grid).
    if buf.starts_with(b"BM") && buf.len() >= 14 && buf[6..10] == [0, 0, 0, 0] {
        return Format::Unsupported("BMP");
    }
    if buf.starts_with(b"RIFF") && buf.get(8..12) != Some(b"WEBP") {
        return Format::Text;
    }
    for &(at, magic, name) in UNSUPPORTED {
        if buf.get(at..at + magic.len()) == Some(magic) && !reads_as_text(buf) {
            return Format::Unsupported(name);
        }
    }
    Format::Text
}

/// Whether `buf` begins as a text grid: its first lines (up to [`TEXT_PROBE_LINES`], within
/// its first [`TEXT_PROBE_BYTES`]; the last only when the input ends there) all have one
/// length, more than zero, and only printable ASCII. A text grid whose first row reads like
/// an image signature (`P1`, `GIF89a`, `%PDF-`, ...) is then read as the text it is. The
/// headers of the other formats hold spaces or binary bytes; a netpbm image can pass (`P1`,
/// `10`, `10`, then rows of two digits), so [`detect`] asks first whether its raster fits.
fn reads_as_text(buf: &[u8]) -> bool {
    let head = &buf[..buf.len().min(TEXT_PROBE_BYTES)];
    let mut lines = head.split(|&b| b == b'\n').peekable();
    let mut width = None;
    let mut checked = 0;
    while let Some(line) = lines.next() {
        let printable = |row: &[u8]| row.iter().all(|b| (0x21..=0x7e).contains(b));
        if lines.peek().is_none() {
            if line.is_empty() {
                break; // after the input's final newline
            }
            if head.len() < buf.len() {
                // Cut by the probe's end: its length is not known, its bytes are.
                return checked > 0 && printable(line) && width.is_some_and(|w| line.len() <= w);
            }
        }
        let row = line.strip_suffix(b"\r").unwrap_or(line);
        if row.is_empty() || *width.get_or_insert(row.len()) != row.len() || !printable(row) {
            return false;
        }
        checked += 1;
        if checked == TEXT_PROBE_LINES {
            break;
        }
    }
    checked > 0
}

/// Lines [`reads_as_text`] looks at, at most.
const TEXT_PROBE_LINES: usize = 8;
/// Bytes [`reads_as_text`] looks at, at most.
const TEXT_PROBE_BYTES: usize = 1 << 16;

/// A netpbm header: `P1`-`P7`, whitespace, and (P1-P6) two decimal numbers, comments
/// allowed. A text grid can match (`P4`, `12` and `34` as its first rows): [`detect`] tells
/// them apart by the raster ([`super::netpbm::raster_fits`]) and [`reads_as_text`].
fn netpbm(buf: &[u8]) -> Option<Format> {
    let kind = match buf.get(..2)? {
        b"P1" | b"P4" => Format::Pbm,
        b"P2" | b"P3" | b"P5" | b"P6" => Format::Netpbm,
        b"P7" => {
            let head = &buf[..buf.len().min(4096)];
            let pam = buf.get(2) == Some(&b'\n') && head.windows(6).any(|w| w == b"ENDHDR");
            return pam.then_some(Format::Netpbm);
        }
        _ => return None,
    };
    // The width and the height (a truncated rest is the decoder's error to name).
    super::netpbm::numbers(buf, 2)?;
    Some(kind)
}

/// The image format a file's extension names, if any (for the error when the content is not
/// that image).
pub fn named_by_extension(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "png" => "PNG",
        "pbm" => "PBM",
        "pgm" => "PGM",
        "ppm" => "PPM",
        "pnm" | "pam" => "netpbm",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures() {
        assert_eq!(detect(b"\x89PNG\r\n\x1a\n...."), Format::Png);
        assert_eq!(detect(b"P1\n3 2\n010\n101\n"), Format::Pbm);
        assert_eq!(detect(b"P4 # c\n8 1\n\xff"), Format::Pbm);
        assert_eq!(detect(b"P5\n2 2\n255\n\0\0\0\0"), Format::Netpbm);
        assert_eq!(detect(b"\xff\xd8\xff\xe0"), Format::Unsupported("JPEG"));
        assert_eq!(
            detect(b"BM\x36\0\0\0\0\0\0\0\x36\0\0\0"),
            Format::Unsupported("BMP")
        );
        assert_eq!(detect(b"RIFF\0\0\0\0WEBPVP8 "), Format::Unsupported("WebP"));
        assert!(matches!(
            detect(b"\xef\xbb\xbf..\n"),
            Format::ByteOrderMark(_)
        ));
    }

    #[test]
    fn text_grids_stay_text() {
        for t in [
            &b"P1\n..\n"[..],
            b"P1\nP1\n",
            b"BM..\n....\n",
            b"BMW...........\n",
            b"GIF8\n",
            b"P7\n",
            b"..\n",
            // First rows that read as a netpbm header (P4, width 12, height 34) or another
            // format's signature, in a grid whose rows are all one length.
            b"P4\n12\n34\n#.\n#.\n#.\n",
            b"P4\r\n12\r\n34\r\n#.\r\n",
            b"P1\n10\n01\n",
            b"P5\n12\n34\n",
            b"GIF89a\n......\n",
            b"qoif..\n######",
            b"%PDF-1\n......\n",
            b"<svg>\n.....\n",
            b"farbfeld\n........\n",
        ] {
            assert_eq!(detect(t), Format::Text, "{:?}", String::from_utf8_lossy(t));
        }
    }

    #[test]
    fn images_whose_header_lines_have_one_length_stay_images() {
        // Dimensions on lines of their own, then a maxval or pixel rows of another length.
        assert_eq!(detect(b"P1\n10\n10\n0101010101\n"), Format::Pbm);
        assert_eq!(detect(b"P5\n12\n34\n255\n\0\x01"), Format::Netpbm);
        assert_eq!(detect(b"P4\n12\n34\n\xff\x00\xff"), Format::Pbm);
        assert_eq!(detect(b"GIF89a\x01\x00"), Format::Unsupported("GIF"));
        // A text probe cut by its byte budget does not count the cut line.
        let mut long = b"P4\n12\n34\n".to_vec();
        long.extend(std::iter::repeat_n(b'\xff', TEXT_PROBE_BYTES));
        assert_eq!(detect(&long), Format::Pbm);
    }
}
