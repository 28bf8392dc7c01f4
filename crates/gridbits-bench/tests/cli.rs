//! End-to-end tests of the `gridbits-bench` binary: the text table, the JSON shape, the help.
//! (They were `gridbits bench`'s tests in the command-line crate, asserting the same.)

use serde_json::Value;
use std::process::{Command, Output};

/// Runs `gridbits-bench ARGS`.
fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gridbits-bench"))
        .args(args)
        .output()
        .expect("run gridbits-bench")
}

/// Standard output as text.
fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Standard output parsed as JSON, after checking for success.
fn json(o: &Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(o));
    serde_json::from_slice(&o.stdout).expect("json on stdout")
}

#[test]
fn help_has_an_example_and_no_internal_references() {
    let o = bench(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.contains("Example"), "{out}");
    assert!(out.contains("gridbits-bench --quick"), "{out}");
    let lower = out.to_lowercase();
    for word in ["cli.md", "games.md", "../shared", "seed", "issue"] {
        assert!(!lower.contains(word), "help mentions {word:?}");
    }
}

#[test]
fn usage_errors_exit_2() {
    let o = bench(&["--no-such-flag"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error: "));
}

#[test]
fn bench_table_is_aligned_with_progress_on_stderr() {
    let o = bench(&["--quick", "--filter", "6x12 split 25"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    // The table ends at the first blank line (the automatic-choice summary follows).
    let rows: Vec<&str> = out
        .lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| !l.starts_with('('))
        .collect();
    assert!(
        out.contains("\nevery automatic choice is within 10%")
            || out.contains("\nautomatic choices more than 10% behind"),
        "{out}"
    );
    assert!(rows.len() >= 3, "{out}");
    // The ns/op column is right-aligned: it ends at the same place on every row.
    let end = |l: &str| {
        l.find("ns/op").map(|i| i + 5).or_else(|| {
            [" ns", " us", " ms"]
                .iter()
                .find_map(|u| l.find(u).map(|i| i + 3))
        })
    };
    let ends: Vec<Option<usize>> = rows.iter().map(|l| end(l)).collect();
    assert!(ends.iter().all(|e| e.is_some() && *e == ends[0]), "{out}");
    // Ratios read "N.Nx faster" or "N.Nx slower" with N.N >= 1.
    let words: Vec<&str> = out.split_whitespace().collect();
    for w in words.windows(2) {
        if w[1] == "faster" || w[1] == "slower" {
            let n: f64 = w[0].trim_end_matches('x').parse().expect("a ratio");
            assert!(n >= 1.0, "{out}");
        }
    }
    assert!(
        stderr(&o).contains("measured components 6x12 split 25%"),
        "{}",
        stderr(&o)
    );
    if !cfg!(feature = "peers") {
        assert!(out.contains("not compiled in"), "{out}");
        let o = bench(&["--quick", "--json", "--filter", "no-such-workload"]);
        assert_eq!(json(&o)["peers"], false);
    }
}

#[test]
fn bench_json_shape() {
    let o = bench(&["--quick", "--json", "--filter", "6x12"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let results = v["results"].as_array().expect("results");
    assert!(results.iter().any(|r| r["impl"] == "naive"));
    for r in results {
        assert!(r["workload"].is_string() && r["impl"].is_string());
        assert!(r["ns_per_op"].as_f64().is_some_and(|n| n > 0.0));
    }
    let ratios = v["ratios"].as_array().expect("ratios");
    assert!(ratios.iter().any(|r| r["fast"] == "board"
        && r["baseline"] == "naive"
        && r["ratio"].as_f64().is_some()));
}
