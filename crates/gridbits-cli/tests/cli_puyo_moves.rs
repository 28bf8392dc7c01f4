//! End-to-end tests of `gridbits puyo --moves PAIR`: the placements of a pair, their chains
//! and scores, the reachability rules, the errors.

use crate::common::{assert_error, gridbits, json, stdout};

fn empty(rows: usize) -> String {
    "......\n".repeat(rows)
}

/// A Tsu field (13 lines) whose column `x` is a 12-high stack without groups.
fn tsu_wall(x: usize) -> String {
    let mut line = *b"......";
    let mut out = String::from("......\n");
    for k in 0..12 {
        line[x] = if k % 2 == 0 { b'B' } else { b'Y' };
        out.push_str(std::str::from_utf8(&line).unwrap());
        out.push('\n');
    }
    out
}

fn columns_of(v: &serde_json::Value) -> Vec<(u64, u64)> {
    v["placements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["column"].as_u64().unwrap(),
                p["rotation"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn open_fields_list_22_or_11() {
    for (field, two, one, rules) in [
        (empty(13), "RG", "BB", "tsu"),
        (empty(12), "12", "33", "stc"),
    ] {
        let v = json(&gridbits(
            &["puyo", "--moves", two, "--json"],
            field.as_bytes(),
        ));
        assert_eq!(v["rules"], rules);
        assert_eq!(v["pair"], two);
        assert_eq!(v["game_over"], false);
        let list = v["placements"].as_array().unwrap();
        assert_eq!(list.len(), 22);
        for p in list {
            assert_eq!(p["chain"], 0);
            assert_eq!(p["score"], 0);
            let board = p["field"].as_array().unwrap();
            assert_eq!(board.len(), field.lines().count());
            let puyos: usize = board
                .iter()
                .map(|l| l.as_str().unwrap().bytes().filter(|&c| c != b'.').count())
                .sum();
            assert_eq!(puyos, 2);
        }
        let v = json(&gridbits(
            &["puyo", "--moves", one, "--json"],
            field.as_bytes(),
        ));
        assert_eq!(v["placements"].as_array().unwrap().len(), 11);
    }
}

#[test]
fn a_blank_12_line_field_takes_the_rules_of_the_pair() {
    let v = json(&gridbits(
        &["puyo", "--moves", "RG", "--json"],
        empty(12).as_bytes(),
    ));
    assert_eq!(v["rules"], "tsu");
    assert_eq!(v["placements"][0]["field"].as_array().unwrap().len(), 13);
}

#[test]
fn placements_carry_their_chains() {
    let field = format!("{}RRR...\n", empty(12));
    let v = json(&gridbits(
        &["puyo", "--moves", "RR", "--json"],
        field.as_bytes(),
    ));
    let list = v["placements"].as_array().unwrap();
    assert_eq!(list.len(), 11);
    // Columns 0-3 touch the three reds: 5 vanish, 10 * 5 * (group bonus 2).
    for p in list {
        let fires = p["column"].as_u64().unwrap() <= 3;
        assert_eq!(p["chain"], u64::from(fires), "{p}");
        assert_eq!(p["score"], if fires { 100 } else { 0 }, "{p}");
        let last = p["board"][12].as_str().unwrap();
        assert_eq!(last == "......", fires, "{p}");
    }
    assert_eq!(list[0]["child"], "right");
    assert_eq!(list[0]["field"][12], "RRR...");
    assert_eq!(list[0]["field"][11], "RR....");
    // The text form: a header and one line per placement.
    let o = gridbits(&["puyo", "--moves", "RR"], field.as_bytes());
    let s = stdout(&o);
    assert!(
        s.starts_with("placements of RR (axis R, child R) on the tsu field: 11\n"),
        "{s}"
    );
    assert!(s.contains("\n3       1 child above      1  100\n"), "{s}");
    assert!(s.contains("\n5       1 child above      0  0\n"), "{s}");
    assert_eq!(s.lines().count(), 13);
}

#[test]
fn tsu_walls_and_the_death_cell() {
    let v = json(&gridbits(
        &["puyo", "--moves", "RG", "--json"],
        tsu_wall(1).as_bytes(),
    ));
    let cols = columns_of(&v);
    assert_eq!(cols.len(), 14);
    assert!(
        cols.iter().all(|&(x, r)| x >= 2 && !(x == 2 && r == 2)),
        "{cols:?}"
    );
    let v = json(&gridbits(
        &["puyo", "--moves", "RG", "--json"],
        tsu_wall(3).as_bytes(),
    ));
    let cols = columns_of(&v);
    assert_eq!(cols.len(), 10);
    assert!(
        cols.iter().all(|&(x, r)| x <= 2 && !(x == 2 && r == 0)),
        "{cols:?}"
    );
    // Under Smash the Code a wall only hides its own column.
    let stc = ".1....\n.2....\n".repeat(6);
    let v = json(&gridbits(
        &["puyo", "--moves", "34", "--json"],
        stc.as_bytes(),
    ));
    assert_eq!(v["rules"], "stc");
    assert_eq!(v["placements"].as_array().unwrap().len(), 16, "{stc}");
    // The death cell: game over, nothing listed.
    let dead = tsu_wall(2);
    let v = json(&gridbits(
        &["puyo", "--moves", "RG", "--json"],
        dead.as_bytes(),
    ));
    assert_eq!(v["game_over"], true);
    assert!(v["placements"].as_array().unwrap().is_empty());
    let s = stdout(&gridbits(&["puyo", "--moves", "RG"], dead.as_bytes()));
    assert!(s.contains("game over: the death cell"), "{s}");
}

#[test]
fn bad_pairs_are_errors() {
    let field = empty(13);
    assert_error(
        &gridbits(&["puyo", "--moves", "RX"], field.as_bytes()),
        "'X' is not a colour of Puyo Puyo Tsu (R G B Y P)",
    );
    assert_error(
        &gridbits(&["puyo", "--moves", "RGB"], field.as_bytes()),
        "not 3 characters",
    );
    assert_error(
        &gridbits(
            &["puyo", "--moves", "", "--rules", "stc"],
            empty(12).as_bytes(),
        ),
        "not 0 characters",
    );
    assert_error(
        &gridbits(
            &["puyo", "--moves", "RG"],
            format!("{}1.....\n", empty(11)).as_bytes(),
        ),
        "'R' is not a colour of Smash the Code (1 2 3 4 5)",
    );
    let help = stdout(&gridbits(&["help", "puyo"], b""));
    assert!(
        help.contains("gridbits puyo --moves RG field.txt"),
        "{help}"
    );
}

#[test]
fn an_empty_field_is_tsu_at_13_rows() {
    // As the help says, whatever its number of rows; `--moves RG` agrees.
    for rows in [1, 12, 13] {
        let v = json(&gridbits(&["puyo", "--json"], empty(rows).as_bytes()));
        assert_eq!(v["rules"], "tsu", "{rows} rows");
        assert_eq!(v["board"].as_array().map(Vec::len), Some(13), "{rows} rows");
        let v = json(&gridbits(
            &["puyo", "--moves", "RG", "--json"],
            empty(rows).as_bytes(),
        ));
        assert_eq!(v["rules"], "tsu", "{rows} rows");
    }
    // Smash the Code's digits still choose it.
    let v = json(&gridbits(
        &["puyo", "--moves", "12", "--json"],
        empty(1).as_bytes(),
    ));
    assert_eq!(v["rules"], "stc");
}

#[test]
fn a_bad_pair_names_its_bad_character() {
    // `R` is a Tsu colour: the error is about `X`, under Tsu.
    let o = gridbits(&["puyo", "--moves", "RX"], empty(1).as_bytes());
    assert_error(&o, "'X' is not a colour of Puyo Puyo Tsu (R G B Y P)");
    let o = gridbits(&["puyo", "--moves", "1X"], empty(1).as_bytes());
    assert_error(&o, "'X' is not a colour of Smash the Code (1 2 3 4 5)");
}
