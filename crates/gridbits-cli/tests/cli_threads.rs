//! The global `--threads N` option: the same results with 1 and 2 threads on a grid large
//! enough to be labelled in stripes, before or after the command; bad counts are usage errors.

use crate::common::*;

/// A 1100 x 1000 text grid of pseudo-random cells (above the 1 Mpx striping threshold).
fn big_grid(density: u64) -> Vec<u8> {
    let mut s = 0x1234_5678u64;
    let mut text = Vec::with_capacity(1101 * 1000);
    for _ in 0..1000 {
        for _ in 0..1100 {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            text.push(if (s >> 33) % 100 < density {
                b'#'
            } else {
                b'.'
            });
        }
        text.push(b'\n');
    }
    text
}

#[test]
fn threads_give_the_same_components() {
    let grid = big_grid(55);
    for conn in ["4", "8"] {
        let run = |args: &[&str]| {
            let o = gridbits(args, &grid);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            json(&o)
        };
        let one = run(&[
            "--threads",
            "1",
            "components",
            "--summary",
            "--json",
            "--connectivity",
            conn,
        ]);
        let two = run(&[
            "--threads",
            "2",
            "components",
            "--summary",
            "--json",
            "--connectivity",
            conn,
        ]);
        let after = run(&[
            "components",
            "--summary",
            "--json",
            "--connectivity",
            conn,
            "--threads",
            "2",
        ]);
        let default = run(&["components", "--summary", "--json", "--connectivity", conn]);
        assert!(one["count"].as_u64().unwrap() > 1000);
        assert_eq!(one, two);
        assert_eq!(one, after);
        assert_eq!(one, default);
    }
}

#[test]
fn bad_thread_counts_are_usage_errors() {
    for bad in ["0", "-1", "many", "", "257", "65535", "65536"] {
        let o = gridbits(&["--threads", bad, "show"], b"#\n");
        assert_eq!(o.status.code(), Some(2), "--threads {bad:?}");
        assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
    }
    let o = gridbits(&["--threads", "65535", "show"], b"#\n");
    assert!(stderr(&o).contains("1..=256"), "{}", stderr(&o));
    let o = gridbits(&["--threads", "256", "show"], b"#\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = gridbits(&["--threads", "3", "show"], b".#\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "size: 2x1\nset: 1\n.#\n");
}

#[test]
fn help_documents_threads() {
    let o = gridbits(&["--help"], b"");
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("--threads <N>"), "{}", stdout(&o));
}
