//! End-to-end tests of `gridbits tetris` and `gridbits puyo`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn gridbits(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridbits"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn gridbits");
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    child.wait_with_output().expect("wait gridbits")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("json")
}

fn assert_error(o: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(err.starts_with("error: "), "stderr: {err}");
    assert!(err.contains(needle), "expected {needle:?} in {err:?}");
    assert!(!err.contains("panicked"));
    assert!(o.stdout.is_empty());
}

#[test]
fn tetris_clears_scattered_rows() {
    let board = b"..#.\n####\n#.##\n####\n";
    let v = json(&gridbits(&["tetris", "--json"], board));
    assert_eq!(v["cleared"], 2);
    assert_eq!(
        v["board"],
        serde_json::json!(["....", "....", "..#.", "#.##"])
    );
    let o = gridbits(&["tetris"], board);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "cleared: 2\n....\n....\n..#.\n#.##\n");
}

#[test]
fn tetris_any_width_up_to_64() {
    let full = "x".repeat(64);
    let text = format!("{}\n{full}\n{full}\n", ".".repeat(63) + "x");
    let v = json(&gridbits(&["tetris", "--json"], text.as_bytes()));
    assert_eq!(v["cleared"], 2);
    assert_eq!(v["width"], 64);
    let rows = v["board"].as_array().unwrap();
    assert_eq!(rows[2].as_str().unwrap(), ".".repeat(63) + "#");
    // A 40-row board with non-consecutive full rows in several chunks.
    let mut t = String::new();
    for y in 0..40 {
        t.push_str(if y % 7 == 0 {
            "##########\n"
        } else {
            "#.........\n"
        });
    }
    let v = json(&gridbits(&["tetris", "--json"], t.as_bytes()));
    assert_eq!(v["cleared"], 6);
    assert_eq!(v["board"][5], "..........");
    assert_eq!(v["board"][6], "#.........");
}

#[test]
fn tetris_bad_input() {
    let wide = format!("{}\n", ".".repeat(65));
    assert_error(&gridbits(&["tetris"], wide.as_bytes()), "line 1, column 65");
    assert_error(&gridbits(&["tetris"], b"...\n..\n"), "line 2, column 3");
    assert_error(&gridbits(&["tetris"], b""), "empty grid");
}

const CHAIN19: &str = ".G.BRG\nGBRRYR\nRRYYBY\nRGYRBR\nYGYRBY\nYGBGYR\nGRBGYR\n\
                       BRBYBY\nRYYBYY\nBRBYBR\nBGBYRR\nYGBGBG\nRBGBGG\n";

#[test]
fn puyo_tsu_19_chain_json() {
    let v = json(&gridbits(
        &["puyo", "--rules", "tsu", "--json"],
        CHAIN19.as_bytes(),
    ));
    assert_eq!(v["chain"], 19);
    assert_eq!(v["score"], 175_080);
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 19);
    assert_eq!(steps[0]["cleared"], 4);
    assert_eq!(steps[0]["groups"], 1);
    assert_eq!(steps[0]["score"], 40);
    let sum: u64 = steps.iter().map(|s| s["score"].as_u64().unwrap()).sum();
    assert_eq!(sum, 175_080);
    assert_eq!(v["board"].as_array().unwrap().len(), 13);
}

#[test]
fn puyo_stc_text_prints_each_step() {
    let mut field = "......\n".repeat(9);
    field.push_str("..2...\n.11...\n.11222\n");
    let o = gridbits(&["puyo"], field.as_bytes());
    assert_eq!(o.status.code(), Some(0));
    let s = stdout(&o);
    assert!(
        s.contains("step 1: cleared 4 in 1 group of 1 colour, score 40"),
        "{s}"
    );
    assert!(
        s.contains("step 2: cleared 4 in 1 group of 1 colour, score 320"),
        "{s}"
    );
    assert!(s.ends_with("chain: 2\nscore: 360\n"), "{s}");
    let v = json(&gridbits(
        &["puyo", "--json", "--rules", "stc"],
        field.as_bytes(),
    ));
    assert_eq!(v["chain"], 2);
    assert_eq!(v["board"][11], "......");
}

#[test]
fn puyo_bad_input() {
    // A Tsu colour under Smash the Code rules named on the command line.
    let mut f = "......\n".repeat(11);
    f.push_str("..R...\n");
    assert_error(
        &gridbits(&["puyo", "--rules", "stc"], f.as_bytes()),
        "line 12, column 3: unknown character 'R'",
    );
    // Without --rules the characters choose: letters are Tsu, and then a digit is an error.
    let v = json(&gridbits(&["puyo", "--json"], f.as_bytes()));
    assert_eq!(v["rules"], "tsu");
    let mut mixed = "......\n".repeat(11);
    mixed.push_str("..R1..\n");
    assert_error(
        &gridbits(&["puyo"], mixed.as_bytes()),
        "line 12, column 4: unknown character '1'",
    );
    // Wrong size: too wide, or more rows than the field (fewer are its bottom rows).
    assert_error(&gridbits(&["puyo"], b".......\n"), "expected 6x1");
    assert_error(
        &gridbits(
            &["puyo", "--rules", "tsu"],
            "......\n".repeat(14).as_bytes(),
        ),
        "expected 6x13",
    );
    // Unknown rule set: a usage error, exit 2.
    let o = gridbits(&["puyo", "--rules", "nope"], b"");
    assert_eq!(o.status.code(), Some(2));
}
