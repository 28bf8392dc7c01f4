//! End-to-end tests of sources and markers: `--from` on `distance`, `voronoi` and `reach`
//! (text and images), and text drawings whose marks never equal an input character.

use crate::common::*;

#[test]
fn distance_on_an_image_from_sources() {
    let png = walls_png(&["...", ".#.", "..."]);
    let v = json(&gridbits(&["distance", "--json", "--from", "0,0"], &png));
    assert_eq!(
        v["distance"],
        serde_json::json!([[0, 1, 2], [1, null, 3], [2, 3, 4]])
    );
    let v = json(&gridbits(
        &["distance", "--json", "--from", "0,0", "--from", "2,2"],
        &png,
    ));
    assert_eq!(v["distance"][0], serde_json::json!([0, 1, 2]));
    assert_eq!(v["distance"][2], serde_json::json!([2, 1, 0]));
    let o = gridbits(&["distance", "--from", "2,0"], &png);
    assert_eq!(
        stdout(&o),
        "1 sources, 8 cells reached, largest distance 4\n2 1 0\n3 # 1\n4 3 2\n"
    );
}

#[test]
fn distance_from_adds_to_text_sources() {
    let v = json(&gridbits(
        &["distance", "--json", "--from", "2,0"],
        b"A..\n",
    ));
    assert_eq!(v["distance"], serde_json::json!([[0, 1, 0]]));
}

#[test]
fn from_errors() {
    let png = walls_png(&["...", ".#.", "..."]);
    for cmd in ["distance", "voronoi", "reach"] {
        assert_error(
            &gridbits(&[cmd, "--from", "3,0"], &png),
            "--from 3,0 is outside the 3x3 grid",
        );
        assert_error(
            &gridbits(&[cmd, "--from", "1,1"], &png),
            "--from 1,1 is a wall",
        );
        assert_error(
            &gridbits(&[cmd, "--from", "1,9"], b"A.#\n"),
            "outside the 3x1 grid",
        );
        assert_error(&gridbits(&[cmd, "--from", "2,0"], b"A.#\n"), "is a wall");
        assert_error(&gridbits(&[cmd], &png), "--from X,Y");
        let o = gridbits(&[cmd, "--from", "1;1"], &png);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("expected X,Y"), "{}", stderr(&o));
    }
    assert_error(
        &gridbits(&["voronoi", "--from", "0,0"], b"A.\n"),
        "already a source of player 'A'",
    );
    assert_error(
        &gridbits(&["fill", "--from", "5,0"], b"..\n"),
        "--from 5,0 is outside the 2x1 grid",
    );
}

#[test]
fn voronoi_from_players_get_letters_in_order() {
    let png = walls_png(&["....", "....", "...."]);
    let v = json(&gridbits(
        &["voronoi", "--json", "--from", "0,0", "--from", "3,2"],
        &png,
    ));
    assert_eq!(v["players"], serde_json::json!({ "A": 6, "B": 6 }));
    assert_eq!(v["owner"], serde_json::json!(["AAAB", "AABB", "ABBB"]));
    // On text, letters the input uses are skipped.
    let v = json(&gridbits(
        &["voronoi", "--json", "--from", "3,0"],
        b"A...\nB...\n",
    ));
    assert_eq!(v["players"]["C"], 3);
    assert_eq!(v["owner"][0], "AACC");
}

#[test]
fn voronoi_contested_mark_avoids_player_characters() {
    let o = gridbits(&["voronoi"], b"+..\n...\n..B\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("contested (*): 3"), "{out}");
    assert!(out.ends_with("++*\n+*B\n*BB\n"), "{out}");
    let v = json(&gridbits(&["voronoi", "--json"], b"+..\n...\n..B\n"));
    assert_eq!(v["legend"]["contested"], "*");
    assert_eq!(v["owner"][1], "+*B");
    let v = json(&gridbits(&["voronoi", "--json"], b"A..\n..B\n"));
    assert_eq!(v["legend"]["contested"], "+");
}

#[test]
fn fill_mark_avoids_input_characters() {
    // `o` is a wall here: the filled cells must be drawn with another mark.
    let o = gridbits(&["fill", "--from", "0,0"], b"..o\nooo\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "filled 2 cells (*) from (0, 0), 4-connected\n**o\nooo\n"
    );
    let o = gridbits(&["fill", "--from", "0,0"], b"..#\n");
    assert_eq!(
        stdout(&o),
        "filled 2 cells (o) from (0, 0), 4-connected\noo#\n"
    );
}

#[test]
fn reach_marks_avoid_input_characters() {
    let o = gridbits(&["reach", "--moves", "rook"], b"*..\n.Q.\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // `*` is a piece here, so reached cells are drawn `o`.
    assert_eq!(stdout(&o), "reach (rook moves): 4 cells (o)\n*oo\noQo\n");
    let png = walls_png(&["...", ".#.", "..."]);
    let o = gridbits(&["reach", "--moves", "rook", "--from", "0,0"], &png);
    assert_eq!(
        stdout(&o),
        "reach (rook moves): 4 cells (*), --from pieces P\nP**\n*#.\n*..\n"
    );
    let v = json(&gridbits(
        &["reach", "--json", "--moves", "4", "--from", "0,0"],
        &png,
    ));
    assert_eq!(v["cells"], serde_json::json!([[1, 0], [0, 1]]));
    assert_eq!(v["moves"], "4");
}

#[test]
fn reach_does_not_draw_large_grids() {
    let row = format!("Q{}\n", ".".repeat(299));
    let o = gridbits(&["reach", "--moves", "rook"], row.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("299 cells") && out.contains("not drawn"),
        "{out}"
    );
    assert_eq!(out.lines().count(), 2, "{out}");
}
