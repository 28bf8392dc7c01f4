//! The strict text format: `CharGrid::parse` rules and errors (exact line and column) and the
//! board readers on top of it. Random inputs against a model of the rules: `parse_model`.

use gridbits::text::{CharGrid, ParseError, ParseErrorKind, MAX_CELLS};
use gridbits::{BitGrid, Board};
use std::panic::catch_unwind;

pub(crate) fn ok(input: &[u8]) -> CharGrid {
    CharGrid::parse(input).unwrap_or_else(|e| panic!("{:?} should parse: {e}", show(input)))
}

pub(crate) fn err(input: &[u8]) -> ParseError {
    match CharGrid::parse(input) {
        Ok(g) => panic!("{:?} should not parse, got {g:?}", show(input)),
        Err(e) => e,
    }
}

pub(crate) fn show(input: &[u8]) -> String {
    String::from_utf8_lossy(input).into_owned()
}

pub(crate) fn rows_of(g: &CharGrid) -> Vec<Vec<u8>> {
    (0..g.height()).map(|y| g.row(y).to_vec()).collect()
}

/// Asserts the error position, kind and message.
#[track_caller]
pub(crate) fn assert_err(
    input: &[u8],
    line: usize,
    column: usize,
    kind: ParseErrorKind,
    message: &str,
) {
    let e = err(input);
    assert_eq!(
        (e.line, e.column, &e.kind),
        (line, column, &kind),
        "input {:?}",
        show(input)
    );
    assert_eq!(
        e.to_string(),
        format!("line {line}, column {column}: {message}")
    );
    assert_eq!(e, ParseError::new(line, column, kind));
}

#[test]
fn valid_grids() {
    let g = ok(b"..#\n#..\n");
    assert_eq!((g.width(), g.height()), (3, 2));
    assert_eq!(rows_of(&g), vec![b"..#".to_vec(), b"#..".to_vec()]);
    assert_eq!(g.get(2, 0), b'#');
    assert_eq!(g.get(0, 1), b'#');
    assert_eq!(g.get(1, 1), b'.');
    // Every printable ASCII character is a cell.
    let all: Vec<u8> = (0x21..=0x7e).collect();
    let g = ok(&all);
    assert_eq!((g.width(), g.height()), (94, 1));
    assert_eq!(g.row(0), &all[..]);
    assert_eq!(g.check_chars(&all), Ok(()));
}

#[test]
fn line_endings_and_trailing_blank_lines() {
    let expected = ok(b"..#\n#..\n");
    for input in [
        &b"..#\n#.."[..],
        b"..#\r\n#..\r\n",
        b"..#\r\n#..\n",
        b"..#\n#..\r\n",
        b"..#\n#..\r",
        b"..#\n#..\n\n",
        b"..#\n#..\n\n\n\n",
        b"..#\n#..\r\n\r\n",
        b"..#\n#..\n\r\n\n\r",
        b"..#\r\n#..\r\n\r\n\r\n",
    ] {
        assert_eq!(ok(input), expected, "input {:?}", show(input));
    }
    let one = ok(b"#\r");
    assert_eq!((one.width(), one.height(), one.get(0, 0)), (1, 1, b'#'));
}

#[test]
fn ragged_rows() {
    assert_err(
        b"...\n..\n",
        2,
        3,
        ParseErrorKind::Ragged {
            expected: 3,
            found: 2,
        },
        "row has 2 columns, expected 3",
    );
    assert_err(
        b"...\n....\n",
        2,
        4,
        ParseErrorKind::Ragged {
            expected: 3,
            found: 4,
        },
        "row has 4 columns, expected 3",
    );
    assert_err(
        b"..\n..\n...\n..\n",
        3,
        3,
        ParseErrorKind::Ragged {
            expected: 2,
            found: 3,
        },
        "row has 3 columns, expected 2",
    );
    // The last row without its newline, and with CRLF elsewhere.
    assert_err(
        b"....\r\n....\r\n.",
        3,
        2,
        ParseErrorKind::Ragged {
            expected: 4,
            found: 1,
        },
        "row has 1 columns, expected 4",
    );
    // A blank line in the middle is a row of length 0.
    assert_err(
        b"..\n\n..\n",
        2,
        1,
        ParseErrorKind::Ragged {
            expected: 2,
            found: 0,
        },
        "row has 0 columns, expected 2",
    );
    assert_err(
        b"..\r\n\r\n..\r\n",
        2,
        1,
        ParseErrorKind::Ragged {
            expected: 2,
            found: 0,
        },
        "row has 0 columns, expected 2",
    );
}

#[test]
fn bad_bytes() {
    use ParseErrorKind::BadByte;
    assert_err(
        b"..\t\n",
        1,
        3,
        BadByte(b'\t'),
        "tab character is not allowed",
    );
    assert_err(
        b"...\n.\t.\n",
        2,
        2,
        BadByte(b'\t'),
        "tab character is not allowed",
    );
    assert_err(
        b". .\n",
        1,
        2,
        BadByte(b' '),
        "space character is not allowed",
    );
    assert_err(
        b"...\n.. \n",
        2,
        3,
        BadByte(b' '),
        "space character is not allowed",
    );
    // Trailing lines of only spaces and tabs are blank, and ignored; not in the middle.
    assert_eq!(CharGrid::parse(b"..\n  \n\t\r\n").unwrap().height(), 1);
    assert_err(
        b"..\n  \n..\n",
        2,
        1,
        BadByte(b' '),
        "space character is not allowed",
    );
    assert_err(
        "..é\n".as_bytes(),
        1,
        3,
        BadByte(0xc3),
        "non-ASCII byte 0xc3 is not allowed",
    );
    assert_err(
        b"#\xff\n",
        1,
        2,
        BadByte(0xff),
        "non-ASCII byte 0xff is not allowed",
    );
    assert_err(
        b"..\x01\n",
        1,
        3,
        BadByte(0x01),
        "control byte 0x01 is not allowed",
    );
    assert_err(
        b"\x00.\n",
        1,
        1,
        BadByte(0x00),
        "control byte 0x00 is not allowed",
    );
    assert_err(
        b"..\n.\x7f\n",
        2,
        2,
        BadByte(0x7f),
        "control byte 0x7f is not allowed",
    );
    assert_err(
        b"a\rb\n",
        1,
        2,
        BadByte(b'\r'),
        "carriage return inside a row",
    );
    assert_err(
        b"abc\nd\re\n",
        2,
        2,
        BadByte(b'\r'),
        "carriage return inside a row",
    );
    // Only one trailing '\r' is a line ending.
    assert_err(
        b"ab\r\r\n",
        1,
        3,
        BadByte(b'\r'),
        "carriage return inside a row",
    );
    // A bad byte inside the expected width wins over the length mismatch ...
    assert_err(
        b"...\n.\t..\n",
        2,
        2,
        BadByte(b'\t'),
        "tab character is not allowed",
    );
    // A line of only a tab at the end is blank; in the middle it is an error.
    assert_eq!(CharGrid::parse(b"...\n\t\n").unwrap().height(), 1);
    assert_err(
        b"...\n\t\n...\n",
        2,
        1,
        BadByte(b'\t'),
        "tab character is not allowed",
    );
    // ... but one past it is a ragged row.
    assert_err(
        b"...\n...\t\n",
        2,
        4,
        ParseErrorKind::Ragged {
            expected: 3,
            found: 4,
        },
        "row has 4 columns, expected 3",
    );
}

#[test]
fn empty_inputs() {
    for input in [
        &b""[..],
        b"\n",
        b"\n\n\n",
        b"\r",
        b"\r\n",
        b"\r\n\r\n",
        b"\n\r\n\n",
    ] {
        let e = err(input);
        assert_eq!(
            e,
            ParseError::new(1, 1, ParseErrorKind::Empty),
            "input {:?}",
            show(input)
        );
        assert_eq!(e.to_string(), "line 1, column 1: empty grid");
    }
    // A blank first line followed by rows is an error at line 1, saying so.
    for input in [&b"\n..\n"[..], b"\r\n\n..\n.#\n", b"\n\n#"] {
        let e = err(input);
        assert_eq!(e, ParseError::new(1, 1, ParseErrorKind::BlankFirstLine));
        assert_eq!(
            e.to_string(),
            "line 1, column 1: blank line before the grid (a grid starts on its first line)"
        );
    }
}

#[test]
fn check_reports_what_parse_reports_without_copying() {
    for input in [
        &b"..#\n#..\n"[..],
        b"..#\n#.\n",
        b"..#\n#\t.\n",
        b"\n..\n",
        b"",
        b"ab\r\ncd\r\n\r\n",
        b"..\n...\n..\n",
    ] {
        let parsed = CharGrid::parse(input).map(|g| (g.width(), g.height()));
        assert_eq!(CharGrid::check(input), parsed, "{:?}", show(input));
    }
}

#[test]
fn too_large_is_refused_before_reading_rows() {
    // 2^20 columns and 2^14 + 1 lines: just over 2^34 cells, in about 1 MiB of text.
    let mut input = vec![b'.'; 1 << 20];
    input.extend(std::iter::repeat_n(b'\n', 1 << 14));
    input.push(b'#');
    const { assert!((1u64 << 20) * ((1 << 14) + 1) > MAX_CELLS) };
    let e = CharGrid::parse(&input).unwrap_err();
    assert_eq!(e, ParseError::new(1, 1, ParseErrorKind::TooLarge));
    assert_eq!(
        e.to_string(),
        format!("line 1, column 1: grid is larger than {MAX_CELLS} cells")
    );
    assert_eq!(BitGrid::parse_bytes(&input).unwrap_err(), e);
}

#[test]
fn check_chars_reports_the_first_unknown_character() {
    let g = ok(b"#.\n.z\n");
    assert_eq!(
        g.check_chars(b".#").unwrap_err().to_string(),
        "line 2, column 2: unknown character 'z'"
    );
    let g = ok(b"#a\nb#\n");
    assert_eq!(
        g.check_chars(b".#"),
        Err(ParseError::new(1, 2, ParseErrorKind::UnknownChar('a')))
    );
    assert_eq!(
        g.check_chars(b"#a"),
        Err(ParseError::new(2, 1, ParseErrorKind::UnknownChar('b')))
    );
    assert_eq!(g.check_chars(b"ab#"), Ok(()));
    assert_eq!(
        g.check_chars(b""),
        Err(ParseError::new(1, 1, ParseErrorKind::UnknownChar('#')))
    );
}

#[test]
fn check_size_points_at_the_first_departure() {
    let g = ok(b"...\n...\n");
    assert_eq!(g.check_size(3, 2), Ok(()));
    let e = g.check_size(4, 2).unwrap_err();
    assert_eq!(
        e,
        ParseError::new(
            1,
            4,
            ParseErrorKind::WrongSize {
                expected: (4, 2),
                found: (3, 2)
            }
        )
    );
    assert_eq!(e.to_string(), "line 1, column 4: grid is 3x2, expected 4x2");
    let pos = |w, h| {
        let e = g.check_size(w, h).unwrap_err();
        (e.line, e.column)
    };
    assert_eq!(pos(2, 2), (1, 3));
    assert_eq!(pos(3, 5), (3, 1));
    assert_eq!(pos(3, 1), (2, 1));
    // Both wrong: the width is reported.
    assert_eq!(pos(5, 5), (1, 4));
}

#[test]
fn char_grid_accessors_panic_out_of_range() {
    let g = ok(b"ab\ncd\n");
    assert_eq!(g.get(1, 1), b'd');
    assert_eq!(g.row(1), b"cd");
    assert!(catch_unwind(|| g.get(2, 0)).is_err());
    assert!(catch_unwind(|| g.get(0, 2)).is_err());
    assert!(catch_unwind(|| g.row(2).len()).is_err());
}

#[test]
fn board_and_grid_readers() {
    type B = Board<3, 2, 1>;
    let b = B::parse("#..\n.x.\n").unwrap();
    assert_eq!(b.iter().collect::<Vec<_>>(), vec![(0, 0), (1, 1)]);
    assert_eq!(b.to_text(), "#..\n.#.\n");
    let g = BitGrid::parse("#..\n.x.\n").unwrap();
    assert_eq!(g.iter().collect::<Vec<_>>(), vec![(0, 0), (1, 1)]);
    assert_eq!(g.to_text(), "#..\n.#.\n");
    // Board::parse goes through the same rules.
    assert_eq!(B::parse("#..\n.\t.\n").unwrap_err(), err(b"#..\n.\t.\n"));
    assert_eq!(B::parse("").unwrap_err().kind, ParseErrorKind::Empty);
    assert_eq!(BitGrid::parse("...\n..\n").unwrap_err(), err(b"...\n..\n"));
    assert_eq!(
        BitGrid::parse_bytes(b"..\xc3\n").unwrap_err(),
        ParseError::new(1, 3, ParseErrorKind::BadByte(0xc3))
    );
    // WrongSize for every near miss.
    for (w, h) in [(2, 2), (4, 2), (3, 1), (3, 3), (1, 1), (6, 4)] {
        let text = format!("{}\n", ".".repeat(w)).repeat(h);
        assert_eq!(
            B::parse(&text).unwrap_err().kind,
            ParseErrorKind::WrongSize {
                expected: (3, 2),
                found: (w, h)
            },
            "{w}x{h}"
        );
    }
}
