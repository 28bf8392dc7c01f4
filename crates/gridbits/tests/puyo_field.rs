//! The Puyo field outside the chain: coordinates (`y` from the top, as the text form), the
//! text form and its round trip, pair placement and its errors, setting cells, gravity.

use crate::common::SplitMix;

use gridbits::cpu::{with_level, Level};
use gridbits::games::puyo::{
    Cell, CellError, CodeError, Field, PlaceError, Rules, CODE_GARBAGE, COLUMNS,
};
use gridbits::text::ParseErrorKind;
use proptest::prelude::*;

/// A Smash the Code field whose bottom rows are `rows` (the rows above are empty).
fn stc(rows: &[&str]) -> Field {
    let mut text = "......\n".repeat(12 - rows.len());
    for r in rows {
        text.push_str(r);
        text.push('\n');
    }
    Field::parse(&text, Rules::SmashTheCode).unwrap()
}

/// A random field of any cells (holes and floating cells included).
fn random_field(seed: u64, rules: Rules) -> Field {
    let mut rng = SplitMix(seed);
    let mut f = Field::new(rules);
    let density = rng.next_u64() % 8;
    for x in 0..COLUMNS {
        for y in 0..rules.rows() {
            let r = rng.next_u64();
            if r % 8 < density {
                let cell = match (r >> 8) % 6 {
                    5 => Cell::Garbage,
                    c => Cell::Color(c as u8),
                };
                f.set(x, y, cell);
            }
        }
    }
    f
}

#[test]
fn y_counts_from_the_top_like_the_text() {
    // Smash the Code: line 0 is the top row of play, line 11 the bottom row.
    let mut text = String::from("1.....\n");
    text.push_str(&"......\n".repeat(10));
    text.push_str(".....0\n");
    let f = Field::parse(&text, Rules::SmashTheCode).unwrap();
    assert_eq!(f.char_at(0, 0), b'1');
    assert_eq!(f.get(0, 0), Cell::Color(0));
    assert_eq!(f.char_at(5, f.rows() - 1), b'0');
    assert_eq!(f.get(5, 11), Cell::Garbage);
    for (y, line) in f.to_text().lines().enumerate() {
        for (x, ch) in line.bytes().enumerate() {
            assert_eq!(f.char_at(x, y), ch, "({x}, {y})");
        }
    }
    // Tsu: line 0 is the ghost row.
    let mut text = String::from("R.....\n");
    text.push_str(&"......\n".repeat(11));
    text.push_str(".....O\n");
    let f = Field::parse(&text, Rules::Tsu).unwrap();
    assert_eq!(f.char_at(0, 0), b'R');
    assert_eq!(f.char_at(5, f.rows() - 1), b'O');
    assert_eq!(f.get(5, 12), Cell::Garbage);
    // set writes where get and the text read.
    let mut g = Field::new(Rules::SmashTheCode);
    g.set(3, 11, Cell::Color(4));
    assert_eq!(g.to_text().lines().last(), Some("...5.."));
    // The raw plane counts from the floor: the bottom row is bit 0 of its column's lane.
    assert_eq!(g.color_plane(4), 1 << (16 * 3));
    assert_eq!(g.column_height(3), 1);
    // Off the field: empty, '.'.
    assert_eq!(g.get(6, 0), Cell::Empty);
    assert_eq!(g.get(0, 12), Cell::Empty);
    assert_eq!(g.char_at(0, 12), b'.');
}

#[test]
fn placement_rules() {
    let mut f = Field::new(Rules::SmashTheCode);
    let off = |x, rotation| Err(PlaceError::OffField { x, rotation });
    assert_eq!(f.place_pair(0, 1, 5, 0), off(5, 0));
    assert_eq!(f.place_pair(0, 1, 0, 2), off(0, 2));
    assert_eq!(f.place_pair(0, 1, 6, 1), off(6, 1));
    assert_eq!(f.place_pair(0, 1, usize::MAX, 3), off(usize::MAX, 3));
    for r in [4, 5, 255] {
        assert_eq!(f.place_pair(0, 1, 0, r), Err(PlaceError::BadRotation(r)));
    }
    assert_eq!(f.place_pair(5, 1, 0, 0), Err(PlaceError::BadColor(5)));
    assert_eq!(f.place_pair(1, 9, 0, 0), Err(PlaceError::BadColor(9)));
    assert_eq!(f.count(), 0);
    // Rotation 0: a at x, b at x + 1, both on the bottom row (y = 11).
    f.place_pair(0, 1, 2, 0).unwrap();
    assert_eq!(
        (f.get(2, 11), f.get(3, 11)),
        (Cell::Color(0), Cell::Color(1))
    );
    // Rotation 1: b on top of a.
    f.place_pair(0, 1, 2, 1).unwrap();
    assert_eq!(
        (f.get(2, 10), f.get(2, 9)),
        (Cell::Color(0), Cell::Color(1))
    );
    // Rotation 3: a on top of b.
    f.place_pair(0, 1, 2, 3).unwrap();
    assert_eq!((f.get(2, 8), f.get(2, 7)), (Cell::Color(1), Cell::Color(0)));
    // Rotation 2: a at x, b at x - 1; each falls in its own column.
    f.place_pair(2, 3, 2, 2).unwrap();
    assert_eq!(
        (f.get(2, 6), f.get(1, 11)),
        (Cell::Color(2), Cell::Color(3))
    );
    // Fill column 0 to 11 rows: a vertical pair no longer fits, a horizontal one does.
    for y in 1..12 {
        f.set(0, y, Cell::Garbage);
    }
    assert_eq!(f.column_height(0), 11);
    assert_eq!(
        f.place_pair(0, 1, 0, 1),
        Err(PlaceError::ColumnFull { x: 0 })
    );
    f.place_pair(0, 1, 0, 0).unwrap();
    assert_eq!(f.get(0, 0), Cell::Color(0));
    assert_eq!(
        f.place_pair(0, 1, 0, 0),
        Err(PlaceError::ColumnFull { x: 0 })
    );
    assert_eq!(
        f.place_pair(0, 1, 1, 2),
        Err(PlaceError::ColumnFull { x: 0 })
    );
    // A turn: place and resolve; an illegal turn changes nothing.
    let mut g = stc(&["11...."]);
    assert_eq!(g.play(0, 0, 2, 7), Err(PlaceError::BadRotation(7)));
    assert_eq!(g.count(), 2);
    let c = g.play(0, 0, 2, 0).unwrap();
    assert_eq!((c.chain, g.count()), (1, 0));
}

#[test]
fn parse_bottom_reads_fewer_rows_as_the_bottom_rows() {
    // Fewer lines: the bottom rows, the same field as the whole text padded with `.` rows.
    for rules in [Rules::Tsu, Rules::SmashTheCode] {
        let c = rules.color_chars()[0] as char;
        let rows = [format!("{c}....."), format!("{c}{c}{c}...")];
        for n in 1..=rules.rows() {
            let mut text = String::new();
            for i in 0..n {
                text.push_str(if i + 2 >= n {
                    &rows[i + 2 - n]
                } else {
                    "......"
                });
                text.push('\n');
            }
            let padded = "......\n".repeat(rules.rows() - n) + &text;
            let whole = Field::parse(&padded, rules).unwrap();
            assert_eq!(
                Field::parse_bottom(&text, rules).unwrap(),
                whole,
                "{rules:?} {n}"
            );
            let grid = gridbits::CharGrid::parse(text.as_bytes()).unwrap();
            assert_eq!(Field::from_char_grid_bottom(&grid, rules).unwrap(), whole);
        }
        // Only blank lines: the empty field.
        assert_eq!(Field::parse_bottom("", rules).unwrap(), Field::new(rules));
        assert_eq!(
            Field::parse_bottom("\n\n", rules).unwrap(),
            Field::new(rules)
        );
        // More lines than the field: an error naming the count, at the first line too many.
        let tall = "......\n".repeat(rules.rows() + 1);
        let e = Field::parse_bottom(&tall, rules).unwrap_err();
        let (h, line) = (rules.rows(), rules.rows() + 1);
        assert_eq!(
            e.to_string(),
            format!("line {line}, column 1: grid is 6x{line}, expected 6x{h}")
        );
    }
    // Errors name the line and column of the text as given.
    let e = Field::parse_bottom("R.....\nRGX...", Rules::Tsu).unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    assert!(matches!(e.kind, ParseErrorKind::UnknownChar('X')), "{e}");
    let e = Field::parse_bottom("R....\nR....", Rules::Tsu).unwrap_err();
    assert_eq!(e.to_string(), "line 1, column 6: grid is 5x2, expected 6x2");
    // `parse` keeps taking whole fields only.
    assert!(Field::parse("RRRR..\n", Rules::Tsu).is_err());
}

#[test]
fn errors_say_what_is_wrong() {
    let msg = |e: PlaceError| e.to_string();
    assert_eq!(
        msg(PlaceError::BadRotation(4)),
        "rotation 4 is not one of 0, 1, 2, 3"
    );
    assert_eq!(
        msg(PlaceError::OffField { x: 5, rotation: 0 }),
        "rotation 0 at column 5 puts a block off the field (columns 0 to 5)"
    );
    assert_eq!(
        msg(PlaceError::OffField { x: 9, rotation: 1 }),
        "column 9 is off the field (columns 0 to 5)"
    );
    assert_eq!(
        msg(PlaceError::ColumnFull { x: 3 }),
        "column 3 has no room for the pair"
    );
    assert_eq!(
        msg(PlaceError::BadColor(7)),
        "colour 7 is not a colour index (0 to 4)"
    );
    let mut f = Field::new(Rules::Tsu);
    assert_eq!(
        f.try_set(2, 13, Cell::Garbage).unwrap_err().to_string(),
        "cell (2, 13) is off the 6x13 field"
    );
    assert_eq!(
        f.try_set(6, 0, Cell::Empty),
        Err(CellError::OffField {
            x: 6,
            y: 0,
            rows: 13
        })
    );
    assert_eq!(f.try_set(0, 0, Cell::Color(5)), Err(CellError::BadColor(5)));
    assert_eq!(f.count(), 0);
    f.try_set(0, 0, Cell::Color(4)).unwrap();
    assert_eq!(f.char_at(0, 0), b'P');
}

#[test]
#[should_panic(expected = "cell (0, 12) is off the 6x12 field")]
fn set_off_the_field_panics() {
    Field::new(Rules::SmashTheCode).set(0, 12, Cell::Garbage);
}

#[test]
fn text_errors_name_line_and_column() {
    let e = Field::parse("......\n", Rules::SmashTheCode).unwrap_err();
    assert_eq!(e.line, 2);
    let mut t = "......\n".repeat(11);
    t.push_str("..R...\n");
    let e = Field::parse(&t, Rules::SmashTheCode).unwrap_err();
    assert_eq!((e.line, e.column), (12, 3));
    let mut t = "......\n".repeat(12);
    t.push_str(".....1\n");
    let e = Field::parse(&t, Rules::Tsu).unwrap_err();
    assert_eq!((e.line, e.column), (13, 6));
    // Tsu accepts 12 rows: they are rows 1 to 12, the ghost row is empty.
    let f = Field::parse(&"RGBYPO\n".repeat(12), Rules::Tsu).unwrap();
    assert_eq!(f.get(0, 0), Cell::Empty);
    assert_eq!(f.get(0, 1), Cell::Color(0));
    assert_eq!(f.get(5, 12), Cell::Garbage);
    assert_eq!(f.to_text().lines().next(), Some("......"));
    assert_eq!(f.to_text().lines().count(), 13);
}

#[test]
fn from_str_picks_the_rules_from_the_characters() {
    let stc_text = format!("{}..12..\n", "......\n".repeat(11));
    let f: Field = stc_text.parse().unwrap();
    assert_eq!(f.rules(), Rules::SmashTheCode);
    let f: Field = format!("{}..0...\n", "......\n".repeat(11))
        .parse()
        .unwrap();
    assert_eq!(f.rules(), Rules::SmashTheCode);
    let f: Field = format!("{}..O...\n", "......\n".repeat(12))
        .parse()
        .unwrap();
    assert_eq!(f.rules(), Rules::Tsu);
    // Tsu text of 12 lines.
    let f: Field = format!("{}..RG..\n", "......\n".repeat(11))
        .parse()
        .unwrap();
    assert_eq!((f.rules(), f.get(2, 12)), (Rules::Tsu, Cell::Color(0)));
    // Only '.': 12 lines is Smash the Code, 13 Tsu.
    let f: Field = "......\n".repeat(12).parse().unwrap();
    assert_eq!(f.rules(), Rules::SmashTheCode);
    let f: Field = "......\n".repeat(13).parse().unwrap();
    assert_eq!(f.rules(), Rules::Tsu);
    // Mixing the two sets: an error at the first character of the other set.
    let e = format!("{}.R1...\n", "......\n".repeat(11))
        .parse::<Field>()
        .unwrap_err();
    assert_eq!((e.line, e.column), (12, 3));
    assert_eq!(e.kind, ParseErrorKind::UnknownChar('1'));
    // A character of neither.
    let e = "......\n".repeat(11).parse::<Field>().unwrap_err();
    assert_eq!(e.line, 12);
    let e = format!("{}..x...\n", "......\n".repeat(11))
        .parse::<Field>()
        .unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::UnknownChar('x'));
}

proptest! {
    #![proptest_config(crate::common::config(500))]

    #[test]
    fn text_round_trips(seed: u64, tsu: bool) {
        let rules = if tsu { Rules::Tsu } else { Rules::SmashTheCode };
        let f = random_field(seed, rules);
        let text = f.to_string();
        prop_assert_eq!(&text, &f.to_text());
        prop_assert_eq!(Field::parse(&text, rules).unwrap(), f);
        // FromStr finds the rule set back (a field of only '.' prints 12 or 13 lines).
        prop_assert_eq!(text.parse::<Field>().unwrap(), f);
        for (y, line) in text.lines().enumerate() {
            for (x, ch) in line.bytes().enumerate() {
                prop_assert_eq!(f.char_at(x, y), ch);
            }
        }
    }

    /// Byte codes in and out agree with the per-cell `get` / `set`.
    #[test]
    fn codes_round_trip(seed: u64, tsu: bool) {
        let rules = if tsu { Rules::Tsu } else { Rules::SmashTheCode };
        let f = random_field(seed, rules);
        let mut codes = vec![0xAAu8; rules.rows() * COLUMNS];
        f.write_codes(&mut codes);
        for (i, &c) in codes.iter().enumerate() {
            let want = match f.get(i % COLUMNS, i / COLUMNS) {
                Cell::Empty => 0,
                Cell::Color(c) => c + 1,
                Cell::Garbage => CODE_GARBAGE,
            };
            prop_assert_eq!(c, want);
        }
        prop_assert_eq!(Field::from_codes(&codes, rules), Ok(f));
        // The portable path (the default one on CPUs without AVX2) agrees.
        let mut portable = vec![0x55u8; codes.len()];
        with_level(Level::Portable, || f.write_codes(&mut portable));
        prop_assert_eq!(&portable, &codes);
        prop_assert_eq!(with_level(Level::Portable, || Field::from_codes(&codes, rules)), Ok(f));
        // Built cell by cell from the codes.
        let mut g = Field::new(rules);
        for (i, &c) in codes.iter().enumerate() {
            let cell = match c {
                0 => Cell::Empty,
                CODE_GARBAGE => Cell::Garbage,
                c => Cell::Color(c - 1),
            };
            g.set(i % COLUMNS, i / COLUMNS, cell);
        }
        prop_assert_eq!(g, f);
    }

    /// Settling equals dropping each column's cells cell by cell, on both paths.
    #[test]
    fn settle_drops_every_column(seed: u64, tsu: bool) {
        let rules = if tsu { Rules::Tsu } else { Rules::SmashTheCode };
        let f = random_field(seed, rules);
        let mut want = Field::new(rules);
        for x in 0..COLUMNS {
            let mut y = rules.rows();
            for from in (0..rules.rows()).rev() {
                let c = f.get(x, from);
                if c != Cell::Empty {
                    y -= 1;
                    want.set(x, y, c);
                }
            }
        }
        let (mut fast, mut portable) = (f, f);
        fast.settle();
        with_level(Level::Portable, || portable.settle());
        prop_assert_eq!(fast, want);
        prop_assert_eq!(portable, want);
    }

    /// A bad byte anywhere is reported where it is, the first one if there are several.
    #[test]
    fn bad_codes_are_located(seed: u64, tsu: bool, at in 0usize..78, bad in 7u8..=255) {
        let rules = if tsu { Rules::Tsu } else { Rules::SmashTheCode };
        let mut codes = vec![0u8; rules.rows() * COLUMNS];
        random_field(seed, rules).write_codes(&mut codes);
        let at = at % codes.len();
        codes[at] = bad;
        if at + 1 < codes.len() {
            codes[at + 1] = 7;
        }
        let want = Err(CodeError::BadCode { code: bad, x: at % COLUMNS, y: at / COLUMNS });
        prop_assert_eq!(Field::from_codes(&codes, rules), want.clone());
        prop_assert_eq!(with_level(Level::Portable, || Field::from_codes(&codes, rules)), want);
    }
}

#[test]
fn codes_of_the_wrong_length_are_refused() {
    for len in [0, 71, 73, 78] {
        let e = Field::from_codes(&vec![0; len], Rules::SmashTheCode);
        assert_eq!(e.map_err(|e| e.to_string()).err().is_some(), len != 72);
    }
    assert_eq!(
        Field::from_codes(&[0; 72], Rules::Tsu),
        Err(CodeError::Length {
            len: 72,
            expected: 78
        })
    );
    assert_eq!(
        CodeError::BadCode {
            code: 9,
            x: 1,
            y: 2
        }
        .to_string(),
        "code 9 at row 2, column 1 (0 empty, 1-5 colours, 6 garbage)"
    );
}

#[test]
fn settle_closes_gaps() {
    let mut f = stc(&["1.....", "......", "2....0"]);
    f.settle();
    assert_eq!(f.get(0, 11), Cell::Color(1));
    assert_eq!(f.get(0, 10), Cell::Color(0));
    assert_eq!(f.get(0, 9), Cell::Empty);
    assert_eq!(f.get(5, 11), Cell::Garbage);
}
