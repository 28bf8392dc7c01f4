//! The strict text format: `CharGrid::parse` rules and errors (exact line and column), the
//! board readers on top of it, and fuzzing with random bytes against an independent model of
//! the rules.

use crate::common::*;
use gridbits::text::{CharGrid, ParseError, ParseErrorKind, MAX_CELLS};
use gridbits::{BitGrid, Board};
use proptest::prelude::*;
use std::panic::catch_unwind;

fn ok(input: &[u8]) -> CharGrid {
    CharGrid::parse(input).unwrap_or_else(|e| panic!("{:?} should parse: {e}", show(input)))
}

fn err(input: &[u8]) -> ParseError {
    match CharGrid::parse(input) {
        Ok(g) => panic!("{:?} should not parse, got {g:?}", show(input)),
        Err(e) => e,
    }
}

fn show(input: &[u8]) -> String {
    String::from_utf8_lossy(input).into_owned()
}

fn rows_of(g: &CharGrid) -> Vec<Vec<u8>> {
    (0..g.height()).map(|y| g.row(y).to_vec()).collect()
}

/// Asserts the error position, kind and message.
#[track_caller]
fn assert_err(input: &[u8], line: usize, column: usize, kind: ParseErrorKind, message: &str) {
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
    // A blank first line followed by rows is an error at line 1.
    let e = err(b"\n..\n");
    assert_eq!((e.line, e.column), (1, 1));
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

// ---------------------------------------------------------------------------------------------
// An independent model of the rules, written as a left-to-right scan.

fn model(input: &[u8]) -> Result<Vec<Vec<u8>>, ParseError> {
    let mut lines: Vec<Vec<u8>> = input.split(|&b| b == b'\n').map(|l| l.to_vec()).collect();
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
    let width = lines.first().ok_or(empty.clone())?.len();
    if width == 0 {
        return Err(empty);
    }
    for (i, row) in lines.iter().enumerate() {
        for (j, &c) in row.iter().enumerate() {
            if j == width {
                return Err(ParseError::new(
                    i + 1,
                    width + 1,
                    ParseErrorKind::Ragged {
                        expected: width,
                        found: row.len(),
                    },
                ));
            }
            if !c.is_ascii_graphic() {
                return Err(ParseError::new(i + 1, j + 1, ParseErrorKind::BadByte(c)));
            }
        }
        if row.len() < width {
            return Err(ParseError::new(
                i + 1,
                row.len() + 1,
                ParseErrorKind::Ragged {
                    expected: width,
                    found: row.len(),
                },
            ));
        }
    }
    Ok(lines)
}

/// Bytes biased towards the interesting ones.
fn junk() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        4 => proptest::sample::select(b".#.#x".to_vec()),
        2 => Just(b'\n'),
        1 => Just(b'\r'),
        1 => proptest::sample::select(vec![b' ', b'\t', 0, 0x7f, 0xc3, 0xa9, 0xff]),
        1 => any::<u8>(),
    ];
    prop_oneof![
        proptest::collection::vec(byte, 0..80),
        proptest::collection::vec(any::<u8>(), 0..80),
    ]
}

/// A valid grid: its rows, the line endings, and the trailing blank lines.
fn valid_text() -> impl Strategy<Value = (Vec<Vec<u8>>, Vec<u8>)> {
    (1..=20usize, 1..=8usize)
        .prop_flat_map(|(w, h)| {
            (
                proptest::collection::vec(proptest::collection::vec(0x21u8..=0x7e, w), h),
                proptest::collection::vec(any::<bool>(), h),
                0..3usize,
                proptest::collection::vec(any::<bool>(), 0..3),
            )
        })
        .prop_map(|(rows, crlf, last, blanks)| {
            let mut text = Vec::new();
            for (i, row) in rows.iter().enumerate() {
                text.extend_from_slice(row);
                let is_last = i + 1 == rows.len();
                let ending: &[u8] = match (is_last, last, crlf[i]) {
                    (true, 0, _) => b"",
                    (true, 1, _) | (false, _, false) => b"\n",
                    _ => b"\r\n",
                };
                text.extend_from_slice(ending);
            }
            if last != 0 {
                for b in blanks {
                    text.extend_from_slice(if b { b"\r\n" } else { b"\n" });
                }
            }
            (rows, text)
        })
}

/// Bytes that are never cells and never line breaks.
fn bad_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        proptest::sample::select(vec![b' ', b'\t', 0, 0x7f, 0xc3]),
        (0u8..0x20).prop_filter("no line breaks", |b| *b != b'\n' && *b != b'\r'),
        0x80u8..=0xff,
    ]
}

/// The byte offset of `(x, y)` in a text made by `valid_text`.
fn offset(text: &[u8], x: usize, y: usize) -> usize {
    let mut start = 0;
    for _ in 0..y {
        start += text[start..].iter().position(|&b| b == b'\n').unwrap() + 1;
    }
    start + x
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn random_bytes_never_panic_and_follow_the_model(input in junk()) {
        let got = CharGrid::parse(&input);
        let expected = model(&input);
        match (&got, &expected) {
            (Ok(g), Ok(rows)) => prop_assert_eq!(&rows_of(g), rows),
            (Err(e), Err(m)) => {
                prop_assert_eq!(e, m);
                prop_assert!(!e.to_string().is_empty());
            }
            _ => prop_assert!(false, "parse {:?} vs model {:?}", got, expected),
        }
        // The readers on top agree.
        let grid = BitGrid::parse_bytes(&input);
        match (&got, &grid) {
            (Ok(g), Ok(b)) => {
                prop_assert_eq!((b.width(), b.height()), (g.width(), g.height()));
                for y in 0..g.height() {
                    for x in 0..g.width() {
                        prop_assert_eq!(b.get(x, y), g.get(x, y) != b'.');
                    }
                }
            }
            (Err(e), Err(f)) => prop_assert_eq!(e, f),
            _ => prop_assert!(false, "CharGrid {:?} vs BitGrid {:?}", got, grid),
        }
        let lossy = String::from_utf8_lossy(&input);
        let _ = Board::<3, 3, 1>::parse(&lossy);
        let _ = Board::<10, 10, 2>::parse(&lossy);
        let _ = BitGrid::parse(&lossy);
    }

    #[test]
    fn valid_texts_parse_exactly((rows, text) in valid_text()) {
        let g = CharGrid::parse(&text);
        prop_assert_eq!(g.as_ref().map(rows_of), Ok(rows.clone()), "text {:?}", show(&text));
        let g = g.unwrap();
        prop_assert_eq!((g.width(), g.height()), (rows[0].len(), rows.len()));
        for (y, row) in rows.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                prop_assert_eq!(g.get(x, y), c);
            }
        }
        prop_assert_eq!(model(&text), Ok(rows));
    }

    #[test]
    fn a_replaced_bad_byte_is_reported_where_it_is(
        (rows, text) in valid_text(),
        (px, py) in (any::<usize>(), any::<usize>()),
        b in bad_byte(),
    ) {
        // A blank byte in a one-column grid can turn a last row into a (ignored) blank line.
        prop_assume!(rows[0].len() > 1 || !matches!(b, b' ' | b'\t' | b'\r'));
        let (x, y) = (px % rows[0].len(), py % rows.len());
        let mut text = text;
        let at = offset(&text, x, y);
        text[at] = b;
        prop_assert_eq!(
            CharGrid::parse(&text),
            Err(ParseError::new(y + 1, x + 1, ParseErrorKind::BadByte(b))),
            "text {:?}", show(&text)
        );
    }

    #[test]
    fn an_inserted_bad_byte_is_reported_by_the_width_rule(
        (rows, text) in valid_text(),
        (px, py) in (any::<usize>(), any::<usize>()),
        b in bad_byte(),
    ) {
        let w = rows[0].len();
        let (x, y) = (px % (w + 1), py % rows.len());
        let mut text = text;
        let at = offset(&text, x, y);
        text.insert(at, b);
        let expected = if y == 0 || x < w {
            // On the first row the width grows with it; elsewhere it lies inside the width.
            ParseError::new(y + 1, x + 1, ParseErrorKind::BadByte(b))
        } else {
            ParseError::new(y + 1, w + 1, ParseErrorKind::Ragged { expected: w, found: w + 1 })
        };
        prop_assert_eq!(CharGrid::parse(&text), Err(expected), "text {:?}", show(&text));
    }

    #[test]
    fn a_row_of_another_length_is_ragged(
        (rows, _text) in valid_text(),
        py in any::<usize>(),
        len in 0..45usize,
        crlf in any::<bool>(),
    ) {
        prop_assume!(rows.len() >= 2);
        let w = rows[0].len();
        let len = if len == w { w + 1 } else { len };
        let y = 1 + py % (rows.len() - 1);
        let mut rows = rows;
        rows[y] = vec![b'#'; len];
        let nl: &[u8] = if crlf { b"\r\n" } else { b"\n" };
        let text: Vec<u8> = rows.iter().flat_map(|r| r.iter().chain(nl).copied()).collect();
        let got = CharGrid::parse(&text);
        if len == 0 && y + 1 == rows.len() {
            // A blank last line is ignored.
            prop_assert_eq!(got.map(|g| g.height()), Ok(rows.len() - 1));
        } else {
            prop_assert_eq!(
                got,
                Err(ParseError::new(
                    y + 1,
                    len.min(w) + 1,
                    ParseErrorKind::Ragged { expected: w, found: len },
                ))
            );
        }
    }

    #[test]
    fn board_parse_checks_the_size(w in 1..=9usize, h in 1..=15usize, bits in pattern(9, 15)) {
        type B = gridbits::Board6x12;
        let text: String = (0..h)
            .map(|y| {
                let row: String = (0..w).map(|x| if bits[y * 9 + x] { '#' } else { '.' }).collect();
                row + "\n"
            })
            .collect();
        let got = B::parse(&text);
        if (w, h) == (6, 12) {
            let b = got.unwrap();
            check_board(b, &naive_of(6, 12, &(0..72).map(|i| bits[i / 6 * 9 + i % 6]).collect::<Vec<_>>()), "parse");
            prop_assert_eq!(b.to_text(), text);
        } else {
            let e = got.unwrap_err();
            prop_assert_eq!(&e.kind, &ParseErrorKind::WrongSize { expected: (6, 12), found: (w, h) });
            let pos = if w != 6 { (1, w.min(6) + 1) } else { (h.min(12) + 1, 1) };
            prop_assert_eq!((e.line, e.column), pos);
        }
    }
}
