//! The text grid parser (`gridbits::text`) against an independent model of its rules, and
//! every text reader built on it: parse what it accepts, print it, parse it back.

use gridbits::algo::lines::{ColumnBoard, RowChunks};
use gridbits::games::amazons::Position;
use gridbits::games::puyo::{Field, Rules};
use gridbits::games::tetris::Tetris;
use gridbits::text::{CharGrid, ParseErrorKind};
use gridbits::{BitGrid, Board};
use gridbits_testkit::text::model;
use std::fmt::Debug;

/// The parser against the model; then every reader on the same bytes.
pub fn check_text(data: &[u8]) {
    let got = CharGrid::parse(data);
    // check reads every row as parse does (parse refuses a size past MAX_CELLS first).
    if !matches!(&got, Err(e) if e.kind == ParseErrorKind::TooLarge) {
        let size = got
            .as_ref()
            .map(|g| (g.width(), g.height()))
            .map_err(Clone::clone);
        assert_eq!(CharGrid::check(data), size, "check");
    }
    match (&got, model(data)) {
        (Ok(g), Ok(rows)) => {
            let got_rows: Vec<Vec<u8>> = (0..g.height()).map(|y| g.row(y).to_vec()).collect();
            assert_eq!(got_rows, rows, "rows");
        }
        (Err(e), Err(m)) => {
            assert_eq!(*e, m, "error");
            assert!(!e.to_string().is_empty());
        }
        (g, m) => panic!("parse {g:?} but the model says {m:?}"),
    }
    let Ok(text) = std::str::from_utf8(data) else {
        // Only the byte readers take non-UTF-8 input.
        assert!(BitGrid::parse_bytes(data).is_err() || got.is_ok());
        return;
    };
    if let Ok(g) = &got {
        let bits = BitGrid::parse(text).expect("a parsed grid is a bit grid");
        for y in 0..g.height() {
            for x in 0..g.width() {
                assert_eq!(bits.get(x, y), g.get(x, y) != b'.', "cell ({x}, {y})");
            }
        }
        assert_eq!(
            bits.count(),
            (0..g.height())
                .map(|y| g.row(y).iter().filter(|&&c| c != b'.').count() as u64)
                .sum::<u64>()
        );
    }
    round_trip(text, BitGrid::parse, BitGrid::to_text);
    round_trip(text, Board::<6, 12, 2>::parse, |b| b.to_text());
    round_trip(text, Board::<64, 1, 1>::parse, |b| b.to_text());
    round_trip(text, RowChunks::parse, RowChunks::to_text);
    round_trip(text, ColumnBoard::<6>::parse, ColumnBoard::to_text);
    round_trip(text, Tetris::<10>::parse, Tetris::to_text);
    round_trip(text, Position::parse, Position::to_text);
    round_trip(text, str::parse::<Field>, Field::to_text);
    for rules in [Rules::SmashTheCode, Rules::Tsu] {
        if let Ok(f) = Field::parse(text, rules) {
            assert_eq!(Field::parse(&f.to_text(), rules), Ok(f), "{rules:?} field");
        }
    }
}

/// Where `text` parses as `T`, its printed form parses back to the same value.
fn round_trip<T: PartialEq + Debug, E: Debug>(
    text: &str,
    parse: impl Fn(&str) -> Result<T, E>,
    print: impl Fn(&T) -> String,
) {
    if let Ok(v) = parse(text) {
        let printed = print(&v);
        let back = parse(&printed);
        assert!(
            back.as_ref().ok() == Some(&v),
            "{} round trip: {printed:?} gives {back:?}",
            std::any::type_name::<T>()
        );
    }
}
