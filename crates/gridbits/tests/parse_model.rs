//! The text parser against an independent model of the rules (a left-to-right scan, the test
//! kit's `text::model`, also the fuzz target's oracle), on random valid texts, junk and single
//! bad bytes.

use crate::common::*;
use crate::parse::*;
use gridbits::text::{CharGrid, ParseError, ParseErrorKind};
use gridbits::{BitGrid, Board};
use gridbits_testkit::text::model;
use proptest::prelude::*;

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
