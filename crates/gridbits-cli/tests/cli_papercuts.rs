//! End-to-end tests of issue 33's papercuts, tried as a new user would: text errors name the
//! input, short Puyo fields, negative cells, `distance` without sources, distance images.

use crate::common::*;

#[test]
fn text_grid_errors_name_the_file_or_standard_input() {
    let bad = tmp("bad.txt");
    std::fs::write(&bad, "...\n..\n").unwrap();
    let path = bad.to_str().unwrap();
    let o = gridbits(&["show", path], b"");
    assert_error(
        &o,
        &format!("{path}: line 2, column 3: row has 2 columns, expected 3"),
    );
    let o = gridbits(&["show"], b"...\n..\n");
    assert_error(
        &o,
        "error: standard input: line 2, column 3: row has 2 columns, expected 3",
    );
    let o = gridbits(&["show", "-"], b"..\t\n");
    assert_error(&o, "error: standard input: line 1, column 3:");
    // Errors found by a command after reading (the characters of a game) too.
    let field = tmp("field.txt");
    std::fs::write(&field, "R.....\nRGX...\n").unwrap();
    let f = field.to_str().unwrap();
    let o = gridbits(&["puyo", "--rules", "tsu", f], b"");
    assert_error(&o, &format!("{f}: line 2, column 3: unknown character 'X'"));
    let o = gridbits(&["amazons"], b"Q.........\n");
    assert_error(&o, "error: standard input: line 1, column 1:");
}

#[test]
fn puyo_reads_fewer_rows_as_the_bottom_rows() {
    let v = json(&gridbits(&["puyo", "--json"], b"RRRR..\n"));
    assert_eq!(v["rules"], "tsu");
    assert_eq!(v["chain"], 1);
    let board = v["board"].as_array().unwrap();
    assert_eq!(board.len(), 13);
    assert!(board.iter().all(|r| r == "......"));
    // Smash the Code: 12 rows; the given rows at the bottom.
    let v = json(&gridbits(&["puyo", "--json"], b"1.....\n22....\n"));
    assert_eq!(v["rules"], "stc");
    let board = v["board"].as_array().unwrap();
    assert_eq!(board.len(), 12);
    assert_eq!(board[10], "1.....");
    assert_eq!(board[11], "22....");
    // Text output and --moves take short fields too.
    let o = gridbits(&["puyo", "--moves", "RG"], b"RR....\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // More rows than the field: an error naming the count.
    let tall = format!("R.....\n{}", "......\n".repeat(13));
    let o = gridbits(&["puyo"], tall.as_bytes());
    assert_error(
        &o,
        "standard input: line 14, column 1: grid is 6x14, expected 6x13",
    );
    let o = gridbits(
        &["puyo", "--rules", "stc"],
        "......\n".repeat(13).as_bytes(),
    );
    assert_error(&o, "grid is 6x13, expected 6x12");
}

#[test]
fn negative_cells_are_off_the_grid() {
    let grid = b"A..\n...\n";
    for args in [
        &["fill", "--from", "-1,0"][..],
        &["fill", "--from", "0,-2"],
        &["fill", "--from=-1,0"],
        &["distance", "--from", "-1,0"],
        &["voronoi", "--from", "-1,-1"],
        &["reach", "--from", "-3,0"],
    ] {
        let o = gridbits(args, grid);
        assert_error(&o, "--from");
        let err = stderr(&o);
        assert!(err.contains("is off the grid"), "{args:?}: {err}");
        assert!(!err.contains("-- -1"), "{args:?}: {err}");
    }
    // A cell past the grid's side names the grid's size.
    let o = gridbits(&["fill", "--from", "5,0"], grid);
    assert_error(&o, "--from 5,0 is outside the 3x2 grid");
    // Options after a negative cell still parse.
    let o = gridbits(&["fill", "--from", "-1,0", "--json"], grid);
    assert_error(&o, "off the grid");
}

#[test]
fn distance_without_sources_is_an_error_for_text_and_images() {
    let o = gridbits(&["distance"], b"...\n.#.\n");
    assert_error(&o, "distance needs sources: the grid has none");
    let o = gridbits(&["distance", "--json"], b"...\n.#.\n");
    assert_error(&o, "give --from X,Y");
    let o = gridbits(&["distance"], &walls_png(&["...", ".#."]));
    assert_error(&o, "distance on an image needs sources: give --from X,Y");
    // A --from cell is a source for either.
    let o = gridbits(&["distance", "--from", "0,0"], b"...\n.#.\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("1 sources, 5 cells reached"));
}

/// The header dict and the data of a version 1.0 `.npy` file.
fn parse_npy(bytes: &[u8]) -> (String, &[u8]) {
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + len) % 64, 0, "data aligned to 64 bytes");
    let dict = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
    assert!(dict.ends_with('\n'));
    (dict.trim_end().to_string(), &bytes[10 + len..])
}

#[test]
fn distance_writes_npy_and_png() {
    let npy = tmp("dist.npy");
    let png = tmp("dist.png");
    let (npy_s, png_s) = (npy.to_str().unwrap(), png.to_str().unwrap());
    // A wall, a sealed-off cell (bottom right) and one source.
    let grid = b"A...\n.##.\n..#.\n.#.#\n";
    let o = gridbits(&["distance", "--npy", npy_s, "--png", png_s], grid);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The text result is still printed.
    assert!(stdout(&o).starts_with("1 sources, "), "{}", stdout(&o));
    let bytes = std::fs::read(&npy).unwrap();
    let (dict, data) = parse_npy(&bytes);
    assert_eq!(
        dict,
        "{'descr': '<i4', 'fortran_order': False, 'shape': (4, 4), }"
    );
    let d: Vec<i32> = data
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    #[rustfmt::skip]
    assert_eq!(d, [
        0, 1, 2, 3,
        1, -1, -1, 4,
        2, 3, -1, 5,
        3, -1, -1, -1,
    ]);
    // The same numbers as --json, with -1 for null.
    let v = json(&gridbits(&["distance", "--json"], grid));
    let from_json: Vec<i32> = v["distance"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap().iter())
        .map(|c| c.as_i64().map_or(-1, |n| n as i32))
        .collect();
    assert_eq!(from_json, d);
    // PNG: 8-bit grey, 255 - 254 * d / max (max 5), walls and unreachable 0.
    let img = image::open(&png).unwrap();
    assert_eq!(img.color(), image::ColorType::L8);
    let img = img.to_luma8();
    assert_eq!(img.dimensions(), (4, 4));
    let level = |x, y| img.get_pixel(x, y)[0];
    assert_eq!(level(0, 0), 255); // the source
    assert_eq!(level(1, 0), 255 - 254 / 5); // distance 1: 205
    assert_eq!(level(3, 2), 1); // the largest distance
    assert_eq!(level(1, 1), 0); // a wall
    assert_eq!(level(2, 3), 0); // unreachable
                                // `--png -`: the image alone on standard output.
    let o = gridbits(&["distance", "--png", "-"], grid);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let img = image::load_from_memory(&o.stdout).unwrap().to_luma8();
    assert_eq!(img.get_pixel(0, 0)[0], 255);
    // Bad targets are refused before any work.
    assert_error(
        &gridbits(&["distance", "--npy", "out.txt"], grid),
        "--npy out.txt: the file name must end in .npy",
    );
    assert_error(
        &gridbits(&["distance", "--png", "out.txt"], grid),
        "--png out.txt",
    );
    assert_error(
        &gridbits(&["distance", "--png", "-", "--json"], grid),
        "cannot go with --json",
    );
}

#[test]
fn distance_images_of_large_grids_are_written_with_the_summary() {
    let npy = tmp("big.npy");
    let row = format!("A{}\n", ".".repeat(299));
    let o = gridbits(
        &["distance", "--npy", npy.to_str().unwrap()],
        row.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("not drawn"), "{}", stdout(&o));
    let bytes = std::fs::read(&npy).unwrap();
    let (dict, data) = parse_npy(&bytes);
    assert!(dict.contains("'shape': (1, 300)"));
    assert_eq!(&data[4 * 299..], &299i32.to_le_bytes());
}
