//! netpbm headers (P1-P6) as libnetpbm reads them: what [`super::format::detect`] needs to
//! tell an image from a text grid that starts like one, and the header without comments that
//! the image decoder can read.
//!
//! A header is the magic, then the width, the height and (but for P1 and P4) the maxval,
//! separated by whitespace and comments. A comment runs from `#` to the end of its line (a
//! newline or a carriage return) and may stand wherever whitespace may. In a raw format (P4,
//! P5, P6) one whitespace byte follows the last number, then the raster; a comment right
//! after the last number ends in that byte. A plain format's (P1, P2, P3) raster is numbers
//! separated by whitespace and comments (P1's digits need no whitespace).

/// A parsed header.
#[derive(Debug, PartialEq, Eq)]
pub struct Header<'a> {
    /// The format's digit: 1 to 6.
    pub kind: u8,
    /// The width, the height and the maxval (P2, P3, P5, P6), as written.
    pub numbers: Vec<&'a [u8]>,
    /// Where the raster starts.
    pub raster: usize,
    /// Whether a comment stands in the header.
    pub comments: bool,
}

fn space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// The end of the comment at `i` (a `#`): the index of its newline or carriage return, or the
/// input's end.
fn comment_end(buf: &[u8], i: usize) -> usize {
    buf[i..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(buf.len(), |k| i + k)
}

/// The first `count` numbers after a header's two-byte magic, each after whitespace or
/// comments: the numbers as written, the index past the last, and whether a comment stood
/// among them; `None` when the input does not go on so.
pub fn numbers(buf: &[u8], count: usize) -> Option<(Vec<&[u8]>, usize, bool)> {
    let mut i = 2;
    let mut numbers = Vec::with_capacity(count);
    let mut comments = false;
    while numbers.len() < count {
        let start = i;
        loop {
            match *buf.get(i)? {
                b if space(b) => i += 1,
                b'#' => {
                    comments = true;
                    i = comment_end(buf, i);
                }
                _ => break,
            }
        }
        if i == start {
            return None;
        }
        let digits = buf[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        numbers.push(&buf[i..i + digits]);
        i += digits;
    }
    Some((numbers, i, comments))
}

/// The header of a P1-P6 image, or `None` when `buf` does not start with a whole one.
pub fn header(buf: &[u8]) -> Option<Header<'_>> {
    let kind = match buf.get(..2)? {
        [b'P', k @ b'1'..=b'6'] => k - b'0',
        _ => return None,
    };
    let count = if kind == 1 || kind == 4 { 2 } else { 3 };
    let (numbers, mut i, mut comments) = numbers(buf, count)?;
    match buf.get(i) {
        // Raw: the one whitespace byte, or a comment ending in it.
        Some(b'#') if kind >= 4 => {
            comments = true;
            i = (comment_end(buf, i) + 1).min(buf.len());
        }
        Some(&b) if kind >= 4 && space(b) => i += 1,
        _ => {}
    }
    Some(Header {
        kind,
        numbers,
        raster: i,
        comments,
    })
}

/// A header number, saturated (a size past `u64` fits no input).
fn value(digits: &[u8]) -> u128 {
    digits.iter().fold(0u128, |n, &d| {
        (n * 10 + u128::from(d - b'0')).min(u128::from(u64::MAX))
    })
}

/// Whether the bytes after `h` are the raster of an image of its size: for a raw format
/// exactly its length (or one whitespace byte more), for a plain one only numbers (P1: the
/// digits 0 and 1), whitespace and comments, at least as many values as the pixels need.
/// A text grid that starts like a header has other bytes or another length there.
pub fn raster_fits(buf: &[u8], h: &Header<'_>) -> bool {
    // Saturating: a header's numbers may be any length.
    let (w, ht) = (value(h.numbers[0]), value(h.numbers[1]));
    let pixels = w.saturating_mul(ht);
    let rest = &buf[h.raster..];
    if h.kind >= 4 {
        let need = match h.kind {
            4 => w.div_ceil(8).saturating_mul(ht),
            k => {
                let wide = if value(h.numbers[2]) > 255 { 2 } else { 1 };
                pixels.saturating_mul(wide * if k == 6 { 3 } else { 1 })
            }
        };
        let len = rest.len() as u128;
        return len == need
            || (len == need.saturating_add(1) && rest.last().is_some_and(|&b| space(b)));
    }
    let per_pixel = if h.kind == 3 { 3 } else { 1 };
    let mut values = 0u128;
    let mut i = 0;
    while i < rest.len() {
        match rest[i] {
            b if space(b) => i += 1,
            b'#' => i = comment_end(rest, i),
            b'0' | b'1' if h.kind == 1 => {
                values += 1;
                i += 1;
            }
            b if b.is_ascii_digit() && h.kind != 1 => {
                values += 1;
                i += rest[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            }
            _ => return false,
        }
    }
    values >= pixels.saturating_mul(per_pixel)
}

/// A P1-P6 image with comments, rewritten without them for the decoder (which reads comments
/// only at a line's start): the magic, the numbers one a line, then the raster (a plain
/// raster without its comments too). `Ok(None)` when there is no comment (the image is read
/// as it is), `Err(bytes)` when the copy cannot be allocated.
pub fn without_comments(buf: &[u8]) -> Result<Option<Vec<u8>>, usize> {
    let Some(h) = header(buf) else {
        return Ok(None);
    };
    let rest = &buf[h.raster..];
    let plain = h.kind <= 3;
    let comments = h.comments || (plain && rest.contains(&b'#'));
    if !comments {
        return Ok(None);
    }
    let bytes = 2 + h.numbers.iter().map(|n| n.len() + 1).sum::<usize>() + 1 + rest.len();
    let mut out = Vec::new();
    out.try_reserve_exact(bytes).map_err(|_| bytes)?;
    out.extend_from_slice(&buf[..2]);
    for n in &h.numbers {
        out.push(b'\n');
        out.extend_from_slice(n);
    }
    out.push(b'\n');
    if plain {
        let mut i = 0;
        while i < rest.len() {
            if rest[i] == b'#' {
                i = comment_end(rest, i);
            } else {
                out.push(rest[i]);
                i += 1;
            }
        }
    } else {
        out.extend_from_slice(rest);
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_left_out() {
        let cases: [(&[u8], Option<&[u8]>); 12] = [
            (b"P1\n3 2\n010\n", None),
            (b"P1\n3 2 # c\n0 1 0\n", Some(b"P1\n3\n2\n \n0 1 0\n")),
            (b"P1\n# c\n3 2\n010", Some(b"P1\n3\n2\n\n010")),
            (b"P1\n2 2\n01\n#d\n10\n", Some(b"P1\n2\n2\n\n01\n\n10\n")),
            (b"P2 1 1 # c\n9 # max\n5\n", Some(b"P2\n1\n1\n9\n \n5\n")),
            // Raw: after a space the raster has begun, as libnetpbm reads it.
            (b"P4\n3 2 # c\n\x40\xe0", None),
            (b"P4\n3 2# c\n\x40\xe0", Some(b"P4\n3\n2\n\x40\xe0")),
            (b"P4 3 # w\n 2\n\x40\xe0", Some(b"P4\n3\n2\n\x40\xe0")),
            (
                b"P5\n2 1\n255#m\n\x07\x08",
                Some(b"P5\n2\n1\n255\n\x07\x08"),
            ),
            // A comment ends at a carriage return too.
            (b"P4\n8 2#c\r\xff\x00", Some(b"P4\n8\n2\n\xff\x00")),
            (b"P4\n#c\r8 1\n\xff", Some(b"P4\n8\n1\n\xff")),
            (b"P7\n# c\nWIDTH 2\n", None),
        ];
        for (input, want) in cases {
            let got = without_comments(input);
            assert_eq!(
                got,
                Ok(want.map(<[u8]>::to_vec)),
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn a_raster_fits_its_header_or_the_input_is_not_that_image() {
        let fits = |b: &[u8]| header(b).is_some_and(|h| raster_fits(b, &h));
        // Images: libnetpbm reads each (10x10 P1 of 2-digit lines, 16x10 P4 of 2-byte lines).
        let mut p1 = b"P1\n10\n10\n".to_vec();
        p1.extend(b"01\n".repeat(50));
        assert!(fits(&p1));
        assert!(fits(b"P4\n16\n10\nab\ncd\nef\ngh\nij\nkl\nmn"));
        assert!(fits(b"P5\n2 1\n255\n\x07\x08"));
        assert!(fits(b"P5\n2 1\n65535\n\x07\x08\x00\x01\n"));
        assert!(fits(b"P2 2 1 9 # c\n3 4\n"));
        // Text grids whose first rows read like a header.
        let mut text = b"P4\n12\n34\n".to_vec();
        text.extend(b"#.\n".repeat(40));
        assert!(!fits(&text));
        assert!(!fits(b"P1\n10\n01\n"));
        assert!(!fits(b"P2\n12\n34\n99\n.#\n"));
        assert!(!fits(b"P4\n12\n34\n"));
        // Sizes past u64 (saturated) fit no input, and do not overflow.
        let huge = b"P3\n99999999999999999999999999 99999999999999999999999999\n9\n0 0 0\n";
        assert!(!fits(huge));
        assert!(!fits(
            b"P6 99999999999999999999 99999999999999999999 65535\n\0"
        ));
        assert!(!fits(b"P4 99999999999999999999 99999999999999999999\n\0"));
    }
}
