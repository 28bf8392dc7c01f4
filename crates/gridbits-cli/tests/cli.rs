//! End-to-end tests of the `gridbits` binary: output, JSON, images, and every kind of bad input.

use crate::common::*;

#[test]
fn show_text_from_stdin() {
    let o = gridbits(&["show"], b".#.\n##.\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "size: 3x2\nset: 3\n.#.\n##.\n");
}

#[test]
fn show_accepts_crlf_and_trailing_blank_lines_and_dash() {
    let o = gridbits(&["show", "-"], b"a.\r\n.b\r\n\r\n\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "size: 2x2\nset: 2\n#.\n.#\n");
}

#[test]
fn show_json() {
    let o = gridbits(&["show", "--json"], b"..#\n#..\n");
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["width"], 3);
    assert_eq!(v["height"], 2);
    assert_eq!(v["count"], 2);
    assert_eq!(v["rows"], serde_json::json!(["..#", "#.."]));
}

#[test]
fn bad_text_inputs_name_line_and_column() {
    let cases: &[(&[u8], &str)] = &[
        (
            b"...\n..\n",
            "line 2, column 3: row has 2 columns, expected 3",
        ),
        (
            b"...\n....\n",
            "line 2, column 4: row has 4 columns, expected 3",
        ),
        (b"...\n.\t.\n", "line 2, column 2: tab"),
        (b"...\n. .\n", "line 2, column 2: space"),
        (b"..\xc3\xa9\n", "line 1, column 3: non-ASCII"),
        (b"...\n\n...\n", "line 2, column 1: row has 0 columns"),
        (b"..\x01\n", "line 1, column 3: control byte"),
        (b"", "line 1, column 1: empty grid"),
        (b"\n\n\n", "line 1, column 1: empty grid"),
        (b"\x00\xff\xfe\x89junk", "line 1, column 1"),
    ];
    for (input, needle) in cases {
        let o = gridbits(&["show"], input);
        assert_error(&o, needle);
    }
}

#[test]
fn truncated_png_on_stdin_is_reported_as_a_png() {
    let o = gridbits(&["show"], b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    assert_error(&o, "standard input: the PNG image");
    assert!(!stderr(&o).contains("Format error"), "{}", stderr(&o));
}

#[test]
fn missing_file_and_bad_images() {
    assert_error(
        &gridbits(&["show", "/nonexistent/x.txt"], b""),
        "cannot read",
    );
    let junk_png = tmp("junk.png");
    std::fs::write(&junk_png, b"not a png at all").expect("write");
    assert_error(
        &gridbits(&["show", junk_png.to_str().unwrap()], b""),
        "junk.png",
    );
    let junk_pbm = tmp("junk.pbm");
    std::fs::write(&junk_pbm, b"P1\n3 2\n1 0 2\n").expect("write");
    assert_error(
        &gridbits(&["show", junk_pbm.to_str().unwrap()], b""),
        "junk.pbm",
    );
    // A header claiming an enormous image is refused before any allocation.
    let huge = tmp("huge.pbm");
    std::fs::write(&huge, b"P4\n4000000000 4000000000\n\x00").expect("write");
    assert_error(
        &gridbits(&["show", huge.to_str().unwrap()], b""),
        "huge.pbm",
    );
    let truncated = tmp("short.pbm");
    std::fs::write(&truncated, b"P4\n64 64\n\x00\x00").expect("write");
    assert_error(
        &gridbits(&["show", truncated.to_str().unwrap()], b""),
        "short.pbm",
    );
}

#[test]
fn netpbm_is_read_by_its_content() {
    // A greymap named .pbm is read as the greymap it is: non-zero is set.
    let p5 = tmp("grey.pbm");
    std::fs::write(&p5, b"P5\n2 1\n255\n\x00\xff").expect("write");
    let o = gridbits(&["show", p5.to_str().unwrap()], b"");
    assert_eq!(stdout(&o), "size: 2x1\nset: 1\n.#\n", "{}", stderr(&o));
    // A PBM on standard input: 1 (black) is set.
    let o = gridbits(&["show"], b"P1\n2 1\n1 0\n");
    assert_eq!(stdout(&o), "size: 2x1\nset: 1\n#.\n", "{}", stderr(&o));
}

#[test]
fn whitespace_only_trailing_lines_are_blank() {
    let o = gridbits(&["show"], b"#.\n  \n\t\n");
    assert_eq!(stdout(&o), "size: 2x1\nset: 1\n#.\n");
}

#[test]
fn pbm_one_is_black_is_set() {
    let p1 = tmp("a.pbm");
    std::fs::write(&p1, b"P1\n# comment\n4 2\n1 0 0 1\n0 1 1 0\n").expect("write");
    let o = gridbits(&["show", p1.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "size: 4x2\nset: 4\n#..#\n.##.\n");
    // P4: rows padded to whole bytes, most significant bit first.
    let p4 = tmp("b.PBM");
    std::fs::write(&p4, b"P4\n10 2\n\xc0\x40\x00\x80").expect("write");
    let o = gridbits(&["show", p4.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "size: 10x2\nset: 4\n##.......#\n........#.\n");
}

#[test]
fn png_round_trip() {
    let text = b"#....#..\n.#..#...\n..##...#\n";
    let out = tmp("rt.png");
    let o = gridbits(&["show", "--png", out.to_str().unwrap()], text);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o2 = gridbits(&["show", out.to_str().unwrap()], b"");
    assert_eq!(o2.status.code(), Some(0), "{}", stderr(&o2));
    assert_eq!(stdout(&o), stdout(&o2));
}

#[test]
fn png_colour_pixels_are_set_when_not_black() {
    let path = tmp("rgb.png");
    let mut img = image::RgbaImage::new(3, 1);
    img.put_pixel(0, 0, image::Rgba([0, 0, 0, 255]));
    img.put_pixel(1, 0, image::Rgba([0, 0, 1, 255]));
    img.put_pixel(2, 0, image::Rgba([200, 0, 0, 0]));
    img.save(&path).expect("save");
    // The transparent pixel is empty whatever its colour.
    let o = gridbits(&["show", path.to_str().unwrap()], b"");
    assert_eq!(stdout(&o), "size: 3x1\nset: 1\n.#.\n");
    let rgba16 = tmp("rgba16.png");
    let img = image::ImageBuffer::<image::Rgba<u16>, _>::from_raw(
        2,
        1,
        vec![0u16, 0, 0, 65535, 0, 0, 1, 65535],
    )
    .unwrap();
    img.save(&rgba16).expect("save");
    let o = gridbits(&["show", rgba16.to_str().unwrap()], b"");
    assert_eq!(stdout(&o), "size: 2x1\nset: 1\n.#\n");
    let path16 = tmp("grey16.png");
    let img16 = image::ImageBuffer::<image::Luma<u16>, _>::from_raw(2, 1, vec![0u16, 1]).unwrap();
    img16.save(&path16).expect("save");
    let o = gridbits(&["show", path16.to_str().unwrap()], b"");
    assert_eq!(stdout(&o), "size: 2x1\nset: 1\n.#\n");
}

#[test]
fn large_png_4096() {
    let path = tmp("big.png");
    let (w, h) = (4096u32, 4096u32);
    let img = image::GrayImage::from_fn(w, h, |x, y| {
        image::Luma([if (x * 7 + y * 13) % 11 == 0 { 255 } else { 0 }])
    });
    img.save(&path).expect("save");
    let expected = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|(x, y)| (x * 7 + y * 13) % 11 == 0)
        .count();
    let o = gridbits(&["show", "--json", path.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["width"], 4096);
    assert_eq!(v["height"], 4096);
    assert_eq!(v["count"], expected as u64);
    assert!(
        v.get("rows").is_none(),
        "large grids are not printed without --full"
    );
    assert_eq!(v["truncated"], true);
    let o = gridbits(&["show", path.to_str().unwrap()], b"");
    assert!(stdout(&o).contains("not printed"));
}

#[test]
fn help_for_each_command_has_an_example() {
    for cmd in ["show", "demo"] {
        let o = gridbits(&["help", cmd], b"");
        assert_eq!(o.status.code(), Some(0));
        assert!(stdout(&o).contains("Example"), "help {cmd}: {}", stdout(&o));
    }
    let o = gridbits(&["--help"], b"");
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("show"));
}

#[test]
fn usage_errors_exit_2() {
    let o = gridbits(&["frobnicate"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error: "));
    let o = gridbits(&["show", "--no-such-flag"], b"");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn demo_runs_without_colour_when_piped() {
    let o = gridbits(&["demo"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("dilate 8") && out.contains("flood fill"));
    assert!(
        !out.contains('\x1b'),
        "no ANSI codes when stdout is not a terminal"
    );
}
