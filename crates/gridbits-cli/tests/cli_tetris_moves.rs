//! End-to-end tests of `gridbits tetris --moves`.

use crate::common::{assert_error, gridbits, json, stdout};

const TSD: &[u8] =
    b"..........\n..........\n..........\n..........\n##........\n#...######\n##.#######\n";

#[test]
fn lists_placements_with_spins_and_inputs() {
    let o = gridbits(&["tetris", "--moves", "T", "--inputs"], TSD);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.starts_with("T: 37 placements from spawn x 3, y 0\n"),
        "{out}"
    );
    // The T-spin double: pointing down into the slot, the last input a rotation.
    let tsd = out
        .lines()
        .find(|l| l.contains("rotation 2 x  1 y  4"))
        .expect("TSD placement");
    assert!(tsd.contains("spin full"), "{tsd}");
    assert!(tsd.ends_with(" cw") || tsd.ends_with(" ccw"), "{tsd}");
}

#[test]
fn json_and_show() {
    let v = json(&gridbits(
        &[
            "tetris", "--moves", "t", "--json", "--show", "20", "--inputs",
        ],
        TSD,
    ));
    assert_eq!(v["piece"], "T");
    assert_eq!(v["count"], 37);
    assert_eq!(v["spawn"]["x"], 3);
    let p = &v["placements"][20];
    assert_eq!(
        (p["rotation"].as_str(), p["x"].as_i64(), p["y"].as_i64()),
        (Some("2"), Some(1), Some(4))
    );
    assert_eq!(p["spin"], "full");
    assert_eq!(p["cells"][3], serde_json::json!([2, 6]));
    assert!(p["inputs"].as_array().is_some_and(|a| !a.is_empty()));
    assert_eq!(v["show"], 20);
    assert_eq!(v["board"][5], "#TTT######");
    assert_eq!(v["board"][6], "##T#######");
    // Without --inputs the key is absent; --show draws the piece letter.
    let v = json(&gridbits(
        &["tetris", "--moves", "O", "--json"],
        b"....\n....\n",
    ));
    assert_eq!(v["count"], 3);
    assert!(v["placements"][0].get("inputs").is_none());
    let o = gridbits(&["tetris", "--moves", "I", "--show", "0"], b"....\n....\n");
    assert_eq!(stdout(&o), "I: 1 placements from spawn x 0, y -1\n  0: rotation 0 x  0 y  0 spin none cells 0,1 1,1 2,1 3,1\n....\nIIII\n");
}

#[test]
fn blocked_spawn_and_errors() {
    let o = gridbits(&["tetris", "--moves", "T"], b"###\n###\n");
    assert_eq!(stdout(&o), "T: spawn blocked, no placements (game over)\n");
    assert_error(
        &gridbits(&["tetris", "--moves", "T", "--show", "0"], b"###\n"),
        "no placements",
    );
    assert_error(
        &gridbits(&["tetris", "--moves", "O", "--show", "5"], b"....\n....\n"),
        "0 to 2",
    );
    let o = gridbits(&["tetris", "--moves", "X"], b"....\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("piece letter"));
    let tall = "....\n".repeat(65);
    assert_error(
        &gridbits(&["tetris", "--moves", "T"], tall.as_bytes()),
        "at most 64",
    );
    let o = gridbits(&["tetris", "--show", "1"], b"....\n");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn half_turns_option() {
    let a = json(&gridbits(&["tetris", "--moves", "T", "--json"], TSD));
    let b = json(&gridbits(
        &["tetris", "--moves", "T", "--json", "--180"],
        TSD,
    ));
    assert!(b["count"].as_u64() >= a["count"].as_u64());
}
