//! End-to-end tests of `gridbits amazons --moves`, `--perft`, `--start` and `--to-move`.

use crate::common::{assert_error, gridbits, json, stdout};
use std::collections::BTreeSet;

const OPENING: &[u8] = b"...B..B...\n..........\n..........\nB........B\n..........\n\
                         ..........\nW........W\n..........\n..........\n...W..W...\n";

/// White on a1 walled in by arrows except towards b1; black on j10.
const CORNER: &[u8] = b".........B\n..........\n..........\n..........\n..........\n\
                        ..........\n..........\n..........\n##........\nW.#.......\n";

#[test]
fn perft_from_the_start_and_from_stdin_agree() {
    let o = gridbits(&["amazons", "--start", "--perft", "1"], b"");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "perft(1) = 2176\n");
    let v = json(&gridbits(&["amazons", "--perft", "2", "--json"], OPENING));
    assert_eq!(v["perft"], 4_307_152);
    assert_eq!(v["depth"], 2);
    assert_eq!(v["to_move"], "white");
    let v = json(&gridbits(
        &[
            "amazons",
            "--start",
            "--perft",
            "0",
            "--to-move",
            "black",
            "--json",
        ],
        b"",
    ));
    assert_eq!(
        (v["perft"].as_u64(), v["to_move"].as_str()),
        (Some(1), Some("black"))
    );
}

#[test]
fn moves_lists_every_legal_move_once() {
    let o = gridbits(&["amazons", "--start", "--moves"], b"");
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2176);
    assert_eq!(lines.iter().collect::<BTreeSet<_>>().len(), 2176);
    assert!(lines.contains(&"d1-d7/g7"), "a known opening move");
    assert!(lines.iter().all(|l| l.starts_with(['a', 'd', 'g', 'j'])));
    let v = json(&gridbits(&["amazons", "--start", "--moves", "--json"], b""));
    assert_eq!(v["count"], 2176);
    assert_eq!(v["moves"].as_array().unwrap().len(), 2176);
    assert!(v.get("perft").is_none());
}

#[test]
fn to_move_black_and_a_small_position() {
    // White: a1 -> b1 only; from b1 the arrow goes back to a1 only (c1 and the a2/b2 row are
    // arrows, and the diagonal b1-c2... is open).
    let v = json(&gridbits(
        &["amazons", "--moves", "--perft", "1", "--json"],
        CORNER,
    ));
    let moves: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(moves.iter().all(|m| m.starts_with("a1-b1/")), "{moves:?}");
    assert!(
        moves.contains(&"a1-b1/a1") && moves.contains(&"a1-b1/c2"),
        "{moves:?}"
    );
    assert!(!moves.contains(&"a1-b1/c1"), "c1 is an arrow");
    assert_eq!(v["count"], moves.len());
    assert_eq!(v["perft"], moves.len());
    // Black on j10 of an almost empty board has many moves; white's turn was only one amazon.
    let b = json(&gridbits(
        &["amazons", "--perft", "1", "--to-move", "black", "--json"],
        CORNER,
    ));
    assert!(b["perft"].as_u64().unwrap() > 100);
    assert_eq!(b["to_move"], "black");
    // Text: moves then the perft line.
    let o = gridbits(&["amazons", "--moves", "--perft", "1"], CORNER);
    let text = stdout(&o);
    assert!(
        text.ends_with(&format!("perft(1) = {}\n", moves.len())),
        "{text}"
    );
    assert_eq!(text.lines().count(), moves.len() + 1);
}

#[test]
fn no_moves_is_an_empty_list_not_an_error() {
    let stuck = b"W#........\n##........\n..........\n..........\n..........\n\
                  ..........\n..........\n..........\n..........\n.........B\n";
    let v = json(&gridbits(
        &["amazons", "--moves", "--perft", "3", "--json"],
        stuck,
    ));
    assert_eq!(
        (v["count"].as_u64(), v["perft"].as_u64()),
        (Some(0), Some(0))
    );
    let o = gridbits(&["amazons", "--moves"], stuck);
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), String::new()));
}

#[test]
fn start_without_flags_is_the_territory_report() {
    let a = json(&gridbits(&["amazons", "--start", "--json"], b""));
    let b = json(&gridbits(&["amazons", "--json"], OPENING));
    assert_eq!(a, b);
}

#[test]
fn argument_errors() {
    assert_error(
        &gridbits(
            &["amazons", "--start", "--to-move", "red", "--perft", "1"],
            b"",
        ),
        "red",
    );
    assert_error(
        &gridbits(&["amazons", "--start", "--perft", "-1"], b""),
        "-1",
    );
    assert_error(&gridbits(&["amazons", "--start", "--perft", "x"], b""), "x");
    assert_error(
        &gridbits(&["amazons", "--start", "p.txt", "--perft", "1"], b""),
        "--start",
    );
    assert_error(
        &gridbits(&["amazons", "--moves"], b"W.B\n"),
        "expected 10x10",
    );
}
