//! The cell limit (`--max-cells`) and inputs that declare huge sizes: a few bytes of PNG or
//! PBM header claiming 100000 x 100000 pixels, or text over the limit, are refused from the
//! header with a clear error (exit status 2) before anything is decoded or allocated.

use crate::common::*;

/// CRC-32 (IEEE, as PNG chunks use it), bit by bit: a few lines instead of a dependency.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// A valid PNG header declaring a `w x h` 1-bit grey image, followed by a tiny (stored, far
/// too short) image stream: a hostile file of a few dozen bytes.
fn png_declaring(w: u32, h: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[1, 0, 0, 0, 0]); // 1 bit, grey, deflate, filter 0, no interlace
    chunk(&mut png, b"IHDR", &ihdr);
    // zlib header, one stored block of 4 zero bytes, Adler-32 of them.
    let idat = [
        0x78, 0x01, 0x01, 0x04, 0x00, 0xfb, 0xff, 0, 0, 0, 0, 0, 0x04, 0, 0x01,
    ];
    chunk(&mut png, b"IDAT", &idat);
    chunk(&mut png, b"IEND", &[]);
    png
}

#[test]
fn the_crafted_png_is_a_real_png_header() {
    // The same construction at 3x1 decodes: the refusal below is the limit, not damage.
    let png = png_declaring(3, 1);
    let o = gridbits(&["show", "--json"], &png);
    assert_eq!(json(&o)["width"], 3, "{}", stderr(&o));
    assert_eq!(crc32(b"IEND"), 0xae42_6082);
}

#[test]
fn a_png_declaring_100000_squared_pixels_is_refused_from_its_header() {
    let png = png_declaring(100_000, 100_000);
    assert!(png.len() < 100, "{} bytes", png.len());
    for args in [
        &["show"][..],
        &["components", "--summary"],
        &["distance"],
        &["fill", "--from", "0,0"],
        &["voronoi", "--from", "0,0", "--from", "1,1"],
        &["reach", "--from", "0,0"],
    ] {
        let o = gridbits(args, &png);
        assert_error(
            &o,
            "standard input: the image is 100000x100000 = 10000000000 cells",
        );
        assert_error(&o, "more than the limit of 268435456 cells");
        assert_error(&o, "--max-cells N");
    }
}

#[test]
fn a_huge_png_with_the_limit_lifted_is_still_refused_by_the_decoder_budget() {
    let file = tmp("huge.png");
    std::fs::write(&file, png_declaring(100_000, 100_000)).expect("write");
    let o = gridbits(
        &["--max-cells", "none", "show", file.to_str().unwrap()],
        b"",
    );
    assert_error(&o, "image is too large");
}

#[test]
fn pbm_headers_declaring_huge_sizes_are_refused() {
    for pbm in [
        &b"P4\n100000 100000\n\x00\x00"[..],
        b"P1\n100000 100000\n0 1 0\n",
        b"P4 # a comment\n200000 3\n",
    ] {
        let o = gridbits(&["show"], pbm);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("more than the limit of 268435456 cells") || err.contains("too large"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let o = gridbits(&["show"], b"P4\n100000 100000\n\x00");
    assert_error(&o, "the image is 100000x100000 = 10000000000 cells");
}

#[test]
fn text_over_the_limit_is_refused_before_parsing() {
    let grid = b"..#\n#..\n";
    assert_error(
        &gridbits(&["--max-cells", "5", "show"], grid),
        "standard input: the text grid is 3x2 = 6 cells, more than the limit of 5 cells",
    );
    // The limit is a global option: after the command too.
    assert_error(
        &gridbits(&["components", "--max-cells", "5"], grid),
        "more than the limit of 5 cells",
    );
    let o = gridbits(&["--max-cells", "6", "show"], grid);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = gridbits(&["--max-cells", "none", "show"], grid);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Blank lines at the end do not count; a ragged text is measured by its first row and
    // still gets the parser's error when under the limit.
    let o = gridbits(&["--max-cells", "6", "show"], b"..#\n#..\n\n  \n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_error(
        &gridbits(&["--max-cells", "6", "show"], b"..#\n#.\n"),
        "line 2, column 3: row has 2 columns, expected 3",
    );
}

#[test]
fn the_limit_applies_to_images_under_every_reader() {
    let png = png_declaring(3, 1);
    let o = gridbits(&["--max-cells", "3", "show"], &png);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_error(
        &gridbits(&["--max-cells", "2", "show"], &png),
        "the image is 3x1 = 3 cells, more than the limit of 2 cells",
    );
    assert_error(
        &gridbits(&["--max-cells", "2", "show"], b"P1\n3 1\n0 1 0\n"),
        "the image is 3x1 = 3 cells",
    );
}

#[test]
fn bad_limits_are_usage_errors() {
    for bad in ["0", "-1", "lots", "1e9", ""] {
        let flag = format!("--max-cells={bad}");
        let o = gridbits(&[&flag, "show"], b"#\n");
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(stderr(&o).contains("--max-cells"), "{bad}: {}", stderr(&o));
    }
    let o = gridbits(&["--max-cells", "NONE", "show"], b"#\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn the_help_documents_the_limit() {
    let help = stdout(&gridbits(&["--help"], b""));
    assert!(help.contains("--max-cells <N|none>"), "{help}");
    assert!(help.contains("268435456"), "{help}");
    let sub = stdout(&gridbits(&["help", "components"], b""));
    assert!(sub.contains("--max-cells"), "{sub}");
}

/// Runs `gridbits ARGS` with at most `kib` KiB of address space (`ulimit -v`), so that large
/// allocations fail as on a machine without the memory.
fn gridbits_in(kib: u64, args: &[&str]) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_gridbits"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("spawn sh")
}

#[test]
fn memory_the_machine_cannot_give_is_an_error_not_an_abort() {
    // A 4096 x 4096 RGBA PNG of 16-bit samples: 134 KB of file, 128 MiB to decode.
    let png = tmp("rgba16.png");
    let img = image::ImageBuffer::<image::Rgba<u16>, _>::new(4096, 4096);
    img.save(&png).expect("write the PNG");
    let path = png.to_str().expect("a UTF-8 path");
    let o = gridbits_in(100_000, &["components", "--summary", path]);
    assert_error(
        &o,
        "not enough memory to decode the 4096x4096 image (134217728 bytes)",
    );
    let o = gridbits_in(400_000, &["components", "--summary", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A 16384 x 16384 bitmap (32 MiB): Voronoi needs a plane per player and the BFS's
    // memory, 2.6 GB; the distance summary of a grid this wide the same.
    let mut pbm = b"P4\n16384 16384\n".to_vec();
    pbm.resize(pbm.len() + 2048 * 16384, 0);
    let big = tmp("big.pbm");
    std::fs::write(&big, &pbm).expect("write the PBM");
    let path = big.to_str().expect("a UTF-8 path");
    for args in [
        &["voronoi", "--from", "0,0", "--from", "9,9", "--json", path][..],
        &["voronoi", "--from", "0,0", "--from", "9,9", path],
        &["distance", "--from", "0,0", path],
    ] {
        let o = gridbits_in(1_100_000, args);
        assert_error(&o, "not enough memory");
    }
}

#[test]
fn text_is_read_as_text_even_when_its_first_rows_read_like_an_image_header() {
    // "P4", "12", "34": a netpbm header for 12x34, and the first rows of a 2x43 text grid.
    let mut text = b"P4\n12\n34\n".to_vec();
    for _ in 0..40 {
        text.extend_from_slice(b"#.\n");
    }
    let o = gridbits(&["show"], &text);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("size: 2x43\n"), "{}", stdout(&o));
    let o = gridbits(&["show"], b"GIF89a\n......\n");
    assert!(stdout(&o).starts_with("size: 6x2\n"), "{}", stderr(&o));
}

#[test]
fn text_errors_say_what_is_wrong_before_the_size() {
    // A ragged text over the limit is ragged, not too large.
    assert_error(
        &gridbits(&["--max-cells", "10", "show"], b".....\n.\n.\n"),
        "line 2, column 2: row has 1 columns, expected 5",
    );
    assert_error(
        &gridbits(&["show"], b"\nA..\n.#.\n"),
        "line 1, column 1: blank line before the grid",
    );
}

#[test]
fn netpbm_comments_after_the_size_are_comments() {
    for pbm in [
        &b"P1\n3 2 # size\n0 1 0\n1 1 1\n"[..],
        b"P1 # kind\n3 # width\n2\n0 1 0\n1 1 1\n",
    ] {
        let o = gridbits(&["show"], pbm);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o), "size: 3x2\nset: 4\n.#.\n###\n");
    }
    let o = gridbits(&["show"], b"P2 3 1 # c\n255 # max\n0 9 200\n");
    assert_eq!(stdout(&o), "size: 3x1\nset: 2\n.##\n", "{}", stderr(&o));
}

#[test]
fn a_file_past_4_gib_is_refused_before_it_is_read() {
    // Sparse: 5 GiB long, no disk and no time to read.
    let path = tmp("five-gib.txt");
    let file = std::fs::File::create(&path).expect("create");
    file.set_len(5 << 30).expect("set_len");
    let o = gridbits(&["show", path.to_str().expect("a UTF-8 path")], b"");
    assert_error(&o, "input larger than 4 GiB");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn netpbm_images_that_read_like_text_are_images_and_comments_end_at_cr() {
    // A plain 10x10 PBM of two digits a line: every line two printable characters, as in a
    // text grid, but its raster fits its header (libnetpbm reads it as 10x10).
    let mut p1 = b"P1\n10\n10\n".to_vec();
    p1.extend(b"01\n".repeat(50));
    let o = gridbits(&["show"], &p1);
    assert!(
        stdout(&o).starts_with("size: 10x10\nset: 50\n"),
        "{}",
        stderr(&o)
    );
    let o = gridbits(&["show"], b"P4\n16\n10\nab\ncd\nef\ngh\nij\nkl\nmn");
    assert!(stdout(&o).starts_with("size: 16x10\n"), "{}", stderr(&o));
    // A comment ends at a carriage return too; after the last number it is the raster's
    // one delimiter byte.
    let o = gridbits(&["show"], b"P4\n8 2#c\r\n\xff\x00");
    assert_eq!(
        stdout(&o),
        "size: 8x2\nset: 10\n....#.#.\n########\n",
        "{}",
        stderr(&o)
    );
    let o = gridbits(&["show"], b"P4\n#c\r8 1\n\xff");
    assert_eq!(
        stdout(&o),
        "size: 8x1\nset: 8\n########\n",
        "{}",
        stderr(&o)
    );
    // Comments inside a plain raster.
    let o = gridbits(&["show"], b"P1\n#c\n2 2\n01\n#d\n10\n");
    assert_eq!(stdout(&o), "size: 2x2\nset: 2\n.#\n#.\n", "{}", stderr(&o));
}
