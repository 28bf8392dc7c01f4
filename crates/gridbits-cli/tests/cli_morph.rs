//! End-to-end tests of `gridbits morph`.

use crate::common::{assert_error, gridbits, json, stderr};

fn ok_text(args: &[&str], stdin: &[u8]) -> String {
    let o = gridbits(args, stdin);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    String::from_utf8(o.stdout).expect("utf8")
}

const RING: &[u8] = b".....\n.###.\n.#.#.\n.###.\n.....\n";

#[test]
fn fill_holes_text() {
    let t = ok_text(&["morph", "fill-holes"], RING);
    assert_eq!(
        t,
        "fill-holes by a cross of radius 1: 9 cells set (before: 8)\n.....\n.###.\n.###.\n.###.\n.....\n"
    );
}

#[test]
fn dilate_erode_open_close_json() {
    let dot = b".......\n.......\n...#...\n.......\n.......\n";
    let v = json(&gridbits(
        &[
            "morph",
            "dilate",
            "--footprint",
            "disk",
            "--radius",
            "2",
            "--json",
        ],
        dot,
    ));
    assert_eq!(v["count"], 13);
    assert_eq!(v["before"], 1);
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(7), Some(5))
    );
    assert_eq!(v["rows"][0], "...#...");
    assert_eq!(v["rows"][2], ".#####.");
    let v = json(&gridbits(
        &["morph", "erode", "--footprint", "square", "--json"],
        RING,
    ));
    assert_eq!(v["count"], 0);
    let v = json(&gridbits(
        &["morph", "close", "--footprint", "square", "--json"],
        RING,
    ));
    assert_eq!(v["rows"][2], ".###.");
    let v = json(&gridbits(
        &[
            "morph",
            "open",
            "--footprint",
            "rect",
            "--size",
            "1x3",
            "--json",
        ],
        RING,
    ));
    assert_eq!(
        v["rows"],
        serde_json::json!([".....", ".###.", ".....", ".###.", "....."])
    );
    // Repeated until stable: a dilation fills the grid.
    let v = json(&gridbits(
        &["morph", "dilate", "--iterations", "0", "--json"],
        dot,
    ));
    assert_eq!(v["count"], 35);
    let v = json(&gridbits(
        &[
            "morph",
            "dilate",
            "--footprint",
            "diamond",
            "--radius",
            "1",
            "--iterations",
            "2",
            "--json",
        ],
        dot,
    ));
    assert_eq!(v["count"], 13);
}

#[test]
fn bad_options_are_errors() {
    assert_error(
        &gridbits(&["morph", "dilate", "--footprint", "rect"], RING),
        "--size",
    );
    assert_error(
        &gridbits(
            &["morph", "dilate", "--size", "2x0", "--footprint", "rect"],
            RING,
        ),
        "HxW",
    );
    assert_error(
        &gridbits(
            &["morph", "dilate", "--footprint", "disk", "--size", "2x3"],
            RING,
        ),
        "--size",
    );
    assert_error(
        &gridbits(&["morph", "dilate", "--radius", "40000"], RING),
        "--radius",
    );
    assert_error(&gridbits(&["morph", "shrink"], RING), "shrink");
    assert_error(&gridbits(&["morph", "dilate"], b"..\n...\n"), "line 2");
}

/// A footprint far larger than the grid: its tables once grew with the footprint (a disk of
/// radius 5000 on one cell asked for 36 GB and aborted). Offsets farther than the grid's
/// size never join two of its cells, so the results are those of the whole footprint.
#[test]
fn footprints_larger_than_the_grid() {
    for (args, stdin, want) in [
        (
            &["dilate", "--footprint", "disk", "--radius", "5000"][..],
            &b"#\n"[..],
            "#\n",
        ),
        (
            &["erode", "--footprint", "diamond", "--radius", "4000"],
            b"#\n",
            ".\n",
        ),
        (
            &["dilate", "--footprint", "disk", "--radius", "5000"],
            b"#..\n...\n",
            "###\n###\n",
        ),
        // Erosion reads the empty border through every offset that leaves the grid.
        (
            &["close", "--footprint", "disk", "--radius", "5000"],
            b"#\n",
            ".\n",
        ),
        (
            &["open", "--footprint", "square", "--radius", "4000"],
            b"##\n##\n",
            "..\n..\n",
        ),
        // One step of the diamond reaches the hole from the edge (read as set): not a hole.
        (
            &["fill-holes", "--footprint", "diamond", "--radius", "4000"],
            b"###\n#.#\n###\n",
            "###\n#.#\n###\n",
        ),
    ] {
        let mut a = vec!["morph"];
        a.extend_from_slice(args);
        let t = ok_text(&a, stdin);
        let drawing = t.split_once('\n').map_or("", |(_, rest)| rest);
        assert_eq!(drawing, want, "{args:?}: {t}");
    }
}

/// Repetitions stop at the first one that changes nothing: no later one can (once took
/// minutes for 10^8 repetitions of a 2x1 grid). The results are those of every repetition.
#[test]
fn iterations_stop_when_nothing_changes() {
    for (op, want) in [
        ("dilate", "##\n"),
        ("erode", "..\n"),
        ("open", "..\n"),
        ("close", "..\n"),
    ] {
        let t = ok_text(&["morph", op, "--iterations", "100000000"], b"#.\n");
        let drawing = t.split_once('\n').map_or("", |(_, rest)| rest);
        assert_eq!(drawing, want, "{op}: {t}");
    }
    // Fewer repetitions than it takes to settle: each one still counts.
    let t = ok_text(&["morph", "dilate", "--iterations", "2"], b"#....\n");
    assert!(t.ends_with("###..\n"), "{t}");
}

/// The largest radius and rectangle, on small grids: the footprint is built only as far as
/// the grid reaches (not 2^32 cells first), with the same results as any footprint that
/// reaches past the grid; one past the largest is still an error.
#[test]
fn the_largest_footprints_on_small_grids() {
    let grid = b"#..\n...\n";
    for shape in ["disk", "diamond", "cross", "square"] {
        for op in ["dilate", "erode", "close", "fill-holes"] {
            let big = ok_text(
                &["morph", op, "--footprint", shape, "--radius", "32767"],
                grid,
            );
            let small = ok_text(&["morph", op, "--footprint", shape, "--radius", "3"], grid);
            let drawing = |t: &str| t.split_once('\n').map_or("", |(_, rest)| rest).to_string();
            assert_eq!(drawing(&big), drawing(&small), "{op} {shape}: {big}");
            assert!(
                big.contains("radius 32767") || big.contains("65535x65535 square"),
                "{big}"
            );
        }
    }
    let t = ok_text(
        &[
            "morph",
            "dilate",
            "--footprint",
            "rect",
            "--size",
            "65536x65536",
        ],
        grid,
    );
    assert!(t.starts_with("dilate by a 65536x65536 rectangle"), "{t}");
    assert!(t.ends_with("###\n###\n"), "{t}");
    let o = gridbits(
        &[
            "morph",
            "dilate",
            "--footprint",
            "disk",
            "--radius",
            "32768",
        ],
        grid,
    );
    assert_error(&o, "--radius 32768: cannot make a 65537x65537 footprint");
    let o = gridbits(
        &[
            "morph",
            "dilate",
            "--footprint",
            "rect",
            "--size",
            "3x65537",
        ],
        grid,
    );
    assert_error(&o, "--size 3x65537: cannot make a 65537x3 footprint");
}
