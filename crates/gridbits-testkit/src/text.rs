//! An independent model of the text grid parser's rules (`gridbits::text::CharGrid::parse`),
//! written as a left-to-right scan: the oracle of the parser's property tests and of the
//! `text` fuzz target.

use gridbits::text::{ParseError, ParseErrorKind};

/// The rules of the format as a left-to-right scan: lines split at `\n`, one trailing `\r`
/// dropped, blank lines at the end ignored, every row as long as the first, cells printable
/// ASCII; the first departure is the error.
pub fn model(input: &[u8]) -> Result<Vec<Vec<u8>>, ParseError> {
    let mut lines: Vec<Vec<u8>> = input.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    for l in &mut lines {
        if l.last() == Some(&b'\r') {
            l.pop();
        }
    }
    while lines
        .last()
        .is_some_and(|l| l.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')))
    {
        lines.pop();
    }
    let empty = ParseError::new(1, 1, ParseErrorKind::Empty);
    let width = lines.first().ok_or(empty)?.len();
    if width == 0 {
        // Rows follow (the last line is not blank): the first line is the blank one.
        return Err(ParseError::new(1, 1, ParseErrorKind::BlankFirstLine));
    }
    for (i, row) in lines.iter().enumerate() {
        for (j, &c) in row.iter().enumerate() {
            if j == width {
                let found = row.len();
                let kind = ParseErrorKind::Ragged {
                    expected: width,
                    found,
                };
                return Err(ParseError::new(i + 1, width + 1, kind));
            }
            if !c.is_ascii_graphic() {
                return Err(ParseError::new(i + 1, j + 1, ParseErrorKind::BadByte(c)));
            }
        }
        if row.len() < width {
            let kind = ParseErrorKind::Ragged {
                expected: width,
                found: row.len(),
            };
            return Err(ParseError::new(i + 1, row.len() + 1, kind));
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules() {
        assert_eq!(
            model(b"#.\r\n.#\n\n \n"),
            Ok(vec![b"#.".to_vec(), b".#".to_vec()])
        );
        assert_eq!(
            model(b""),
            Err(ParseError::new(1, 1, ParseErrorKind::Empty))
        );
        assert_eq!(
            model(b"\n#\n"),
            Err(ParseError::new(1, 1, ParseErrorKind::BlankFirstLine))
        );
        let ragged = ParseErrorKind::Ragged {
            expected: 2,
            found: 3,
        };
        assert_eq!(model(b"##\n###\n"), Err(ParseError::new(2, 3, ragged)));
        assert_eq!(
            model(b"#\t\n"),
            Err(ParseError::new(1, 2, ParseErrorKind::BadByte(b'\t')))
        );
    }
}
