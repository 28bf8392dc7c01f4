//! End-to-end tests of `gridbits skeleton`: text, PBM and PNG input, `--thin`, `--max-iter`,
//! `--json`, `--png`, the drawing and the errors. Results are checked against the library.

use crate::common::{assert_error, gridbits, json, stderr, stdout, tmp, walls_png};
use gridbits::algo::skeleton::{skeletonize, thin};
use gridbits::BitGrid;
use serde_json::Value;

/// A deterministic pseudo-random text grid of blobs: `w x h`, `#` set.
fn blob_text(w: usize, h: usize, seed: u64) -> String {
    let mut s = seed;
    let mut next = move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s >> 33
    };
    let mut cells = vec![false; w * h];
    for _ in 0..(w * h / 40).max(1) {
        let (cx, cy, r) = (
            (next() % w as u64) as i64,
            (next() % h as u64) as i64,
            1 + (next() % 5) as i64,
        );
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                if (x - cx).pow(2) + (y - cy).pow(2) <= r * r {
                    cells[y as usize * w + x as usize] = true;
                }
            }
        }
    }
    let mut t = String::new();
    for y in 0..h {
        for x in 0..w {
            t.push(if cells[y * w + x] { '#' } else { '.' });
        }
        t.push('\n');
    }
    t
}

/// The cells of `g` as the JSON `cells` list: `[[x, y], ...]` in raster order.
fn cells_json(g: &BitGrid) -> Value {
    Value::from(
        g.iter()
            .map(|(x, y)| Value::from(vec![x, y]))
            .collect::<Vec<_>>(),
    )
}

#[test]
fn json_equals_the_library_on_text_grids() {
    for (w, h, seed) in [
        (1, 1, 1),
        (9, 7, 2),
        (63, 20, 3),
        (64, 9, 4),
        (65, 30, 5),
        (130, 12, 6),
    ] {
        let text = blob_text(w, h, seed);
        let grid = BitGrid::parse(&text).expect("grid");
        let v = json(&gridbits(&["skeleton", "--json"], text.as_bytes()));
        let want = skeletonize(&grid);
        assert_eq!(v["method"], "zhang");
        assert_eq!(
            (v["width"].as_u64(), v["height"].as_u64()),
            (Some(w as u64), Some(h as u64))
        );
        assert_eq!(v["input"], grid.count());
        assert_eq!(v["count"], want.count());
        assert_eq!(v["cells"], cells_json(&want), "{w}x{h}");
        let t = json(&gridbits(
            &["skeleton", "--thin", "--json"],
            text.as_bytes(),
        ));
        assert_eq!(t["method"], "thin");
        assert_eq!(t["cells"], cells_json(&thin(&grid, None)), "thin {w}x{h}");
        for n in ["0", "1", "3"] {
            let t = json(&gridbits(
                &["skeleton", "--thin", "--max-iter", n, "--json"],
                text.as_bytes(),
            ));
            let want = thin(&grid, Some(n.parse().expect("n")));
            assert_eq!(t["cells"], cells_json(&want), "thin --max-iter {n} {w}x{h}");
        }
    }
}

/// The drawing the text output should show: `#` kept, `+` removed, `.` empty.
fn drawing(input: &BitGrid, kept: &BitGrid) -> String {
    let mut s = String::new();
    for y in 0..input.height() {
        for x in 0..input.width() {
            s.push(match (kept.get(x, y), input.get(x, y)) {
                (true, _) => '#',
                (false, true) => '+',
                _ => '.',
            });
        }
        s.push('\n');
    }
    s
}

#[test]
fn text_drawing_marks_kept_and_removed_cells() {
    let text = blob_text(30, 12, 8);
    let grid = BitGrid::parse(&text).expect("grid");
    for thinning in [false, true] {
        let args: &[&str] = if thinning {
            &["skeleton", "--thin"]
        } else {
            &["skeleton"]
        };
        let o = gridbits(args, text.as_bytes());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let kept = if thinning {
            thin(&grid, None)
        } else {
            skeletonize(&grid)
        };
        let (n, m) = (kept.count(), grid.count());
        let head = if thinning {
            "thinned (thin)"
        } else {
            "skeleton (zhang)"
        };
        assert!(n < m);
        assert_eq!(
            stdout(&o),
            format!(
                "{head}: {n} of {m} set cells kept (#), {} removed (+)\n{}",
                m - n,
                drawing(&grid, &kept)
            )
        );
    }
}

#[test]
fn png_and_pbm_input_and_png_output() {
    let rows = [
        "..........",
        ".######...",
        ".######...",
        ".######...",
        ".....###..",
        ".....###..",
        "..........",
    ];
    let input = tmp("skeleton_in.png");
    std::fs::write(&input, walls_png(&rows)).expect("write png");
    let grid = BitGrid::parse(&(rows.join("\n") + "\n")).expect("grid");
    let out = tmp("skeleton_out.png");
    let o = gridbits(
        &[
            "skeleton",
            "--png",
            out.to_str().expect("path"),
            input.to_str().expect("path"),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let back = json(&gridbits(
        &["show", "--json", out.to_str().expect("path")],
        b"",
    ));
    let want = skeletonize(&grid);
    assert_eq!(back["count"], want.count());
    let rows_back: Vec<String> = back["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r.as_str().expect("row").to_string())
        .collect();
    assert_eq!(rows_back.join("\n") + "\n", want.to_text());

    // P1 PBM: 1 = black = set.
    let mut pbm = format!("P1\n{} {}\n", rows[0].len(), rows.len());
    for r in rows {
        pbm.extend(r.chars().map(|c| if c == '#' { '1' } else { '0' }));
        pbm.push('\n');
    }
    let pbm_path = tmp("skeleton_in.pbm");
    std::fs::write(&pbm_path, pbm).expect("write pbm");
    let v = json(&gridbits(
        &[
            "skeleton",
            "--thin",
            "--json",
            pbm_path.to_str().expect("path"),
        ],
        b"",
    ));
    assert_eq!(v["cells"], cells_json(&thin(&grid, None)));
}

#[test]
fn png_to_standard_output() {
    let o = gridbits(&["skeleton", "--png", "-"], b"###\n###\n###\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.starts_with(b"\x89PNG"), "a PNG on stdout");
}

#[test]
fn large_grids_are_summarised() {
    let text = blob_text(300, 4, 9);
    let o = gridbits(&["skeleton"], text.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("not drawn"), "{}", stdout(&o));
}

#[test]
fn errors() {
    assert_error(&gridbits(&["skeleton"], b"..#\n.#\n"), "line 2");
    assert_error(
        &gridbits(&["skeleton", "no-such-file.png"], b""),
        "no-such-file.png",
    );
    assert_error(
        &gridbits(&["skeleton", "--max-iter", "2"], b"##\n##\n"),
        "--thin",
    );
    assert_error(
        &gridbits(&["skeleton", "--thin", "--max-iter", "x"], b"##\n##\n"),
        "--max-iter",
    );
    assert_error(&gridbits(&["skeleton"], b""), "empty");
}

#[test]
fn help_has_an_example() {
    let o = gridbits(&["help", "skeleton"], b"");
    assert_eq!(o.status.code(), Some(0));
    let h = stdout(&o);
    assert!(h.contains("gridbits skeleton --png"), "{h}");
    assert!(h.contains("--thin") && h.contains("--max-iter"), "{h}");
}
