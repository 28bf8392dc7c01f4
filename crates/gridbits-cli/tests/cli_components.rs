//! End-to-end tests of `gridbits components`: text and JSON output, options, image input,
//! image and label-image output, and bad input.

use crate::common::*;
use std::process::Output;

use serde_json::Value;

fn ok(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(o));
    assert!(o.stderr.is_empty(), "stderr: {}", stderr(o));
    stdout(o)
}

const GRID: &[u8] = b"##..#\n.#.##\n#....\n..0.R\n";

#[test]
fn text_output_draws_components() {
    let out = ok(&gridbits(&["components"], GRID));
    assert_eq!(
        out,
        "components: 4 (4-connected)\nsizes: 3 3 1 1\naa..b\n.a.bb\nc....\n....d\n"
    );
    let out = ok(&gridbits(&["components", "--connectivity", "8", "-"], GRID));
    assert_eq!(
        out,
        "components: 3 (8-connected)\nsizes: 4 3 1\naa..b\n.a.bb\na....\n....c\n"
    );
}

#[test]
fn json_keys() {
    let v = json(&gridbits(&["components", "--json"], GRID));
    assert_eq!(v["width"], 5);
    assert_eq!(v["height"], 4);
    assert_eq!(v["count"], 4);
    let comps = v["components"].as_array().expect("components");
    assert_eq!(comps.len(), 4);
    assert_eq!(comps[0]["size"], 3);
    assert_eq!(
        comps[0]["cells"],
        serde_json::json!([[0, 0], [1, 0], [1, 1]])
    );
    assert_eq!(
        comps[1]["cells"],
        serde_json::json!([[4, 0], [3, 1], [4, 1]])
    );
    assert!(comps[0].get("char").is_none());
    // Statistics as cv2.connectedComponentsWithStats gives them.
    assert_eq!(comps[0]["area"], 3);
    assert_eq!(comps[0]["bbox"], serde_json::json!([0, 0, 2, 2]));
    assert_eq!(
        comps[0]["centroid"],
        serde_json::json!([2.0 / 3.0, 1.0 / 3.0])
    );
    assert_eq!(comps[1]["bbox"], serde_json::json!([3, 0, 2, 2]));
    assert_eq!(
        comps[1]["centroid"],
        serde_json::json!([11.0 / 3.0, 2.0 / 3.0])
    );
    assert_eq!(comps[3]["bbox"], serde_json::json!([4, 3, 1, 1]));
    assert_eq!(comps[3]["centroid"], serde_json::json!([4.0, 3.0]));
    for c in comps {
        let cells = c["cells"].as_array().unwrap();
        let n = cells.len() as f64;
        let mean = |i: usize| cells.iter().map(|p| p[i].as_f64().unwrap()).sum::<f64>() / n;
        assert_eq!(c["centroid"], serde_json::json!([mean(0), mean(1)]));
        assert_eq!(c["area"], c["size"]);
    }
    // Every set cell exactly once.
    let total: u64 = comps.iter().map(|c| c["size"].as_u64().unwrap()).sum();
    assert_eq!(total, 8);
}

#[test]
fn zero_is_empty_unless_by_char() {
    let v = json(&gridbits(&["components", "--json"], b"0#0\n"));
    assert_eq!(v["count"], 1);
    let v = json(&gridbits(&["components", "--json", "--by-char"], b"0#0\n"));
    assert_eq!(v["count"], 3);
}

#[test]
fn by_char_joins_only_the_same_character() {
    let grid = b"RRG.\nR.GG\nBB.G\n";
    let v = json(&gridbits(&["components", "--json", "--by-char"], grid));
    assert_eq!(v["count"], 3);
    let comps = v["components"].as_array().unwrap();
    let chars: Vec<&str> = comps.iter().map(|c| c["char"].as_str().unwrap()).collect();
    assert_eq!(chars, ["B", "G", "R"]);
    let sizes: Vec<u64> = comps.iter().map(|c| c["size"].as_u64().unwrap()).collect();
    assert_eq!(sizes, [2, 4, 3]);
    // Without --by-char every character is just "set": one component.
    let v = json(&gridbits(&["components", "--json"], grid));
    assert_eq!(v["count"], 1);
    let text = ok(&gridbits(&["components", "--by-char"], grid));
    assert!(text.starts_with("components: 3 (4-connected, by character)\nsizes: B:2 G:4 R:3\n"));
}

#[test]
fn empty_grids() {
    for by_char in [false, true] {
        let mut args = vec!["components", "--json"];
        if by_char {
            args.push("--by-char");
        }
        let v = json(&gridbits(&args, b"...\n.0.\n"));
        assert_eq!(v["count"], if by_char { 1 } else { 0 });
        assert_eq!(
            (v["width"].clone(), v["height"].clone()),
            (3.into(), 2.into())
        );
        let v = json(&gridbits(&args, b"...\n...\n"));
        assert_eq!(v["count"], 0);
        assert_eq!(v["components"], serde_json::json!([]));
        args.push("--summary");
        let v = json(&gridbits(&args, b"...\n...\n"));
        assert_eq!(v, serde_json::json!({ "count": 0, "sizes": [] }));
    }
    let text = ok(&gridbits(&["components", "--by-char"], b"...\n...\n"));
    assert_eq!(
        text,
        "components: 0 (4-connected, by character)\nsizes:\n...\n...\n"
    );
}

#[test]
fn min_size_filters() {
    let v = json(&gridbits(
        &["components", "--json", "--min-size", "2"],
        GRID,
    ));
    assert_eq!(v["count"], 2);
    let text = ok(&gridbits(&["components", "--min-size", "3"], GRID));
    assert_eq!(
        text,
        "components: 2 (4-connected, size >= 3)\nsizes: 3 3\naa..b\n.a.bb\n.....\n.....\n"
    );
    let v = json(&gridbits(
        &["components", "--summary", "--json", "--min-size", "4"],
        GRID,
    ));
    assert_eq!(v, serde_json::json!({ "count": 0, "sizes": [] }));
    let v = json(&gridbits(
        &["components", "--json", "--min-size", "0"],
        GRID,
    ));
    assert_eq!(v["count"], 4);
}

#[test]
fn summary_has_only_count_and_sizes() {
    let v = json(&gridbits(&["components", "--summary", "--json"], GRID));
    assert_eq!(v, serde_json::json!({ "count": 4, "sizes": [3, 3, 1, 1] }));
    let v = json(&gridbits(
        &["components", "--summary", "--json", "--connectivity", "8"],
        GRID,
    ));
    assert_eq!(v, serde_json::json!({ "count": 3, "sizes": [4, 3, 1] }));
    let text = ok(&gridbits(&["components", "--summary"], GRID));
    assert_eq!(text, "components: 4 (4-connected)\nsizes: 3 3 1 1\n");
    // The summary agrees with the full listing on a larger random grid.
    let mut grid = Vec::new();
    let mut z = 12345u64;
    for _ in 0..40 {
        for _ in 0..90 {
            z = z
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            grid.push(if z >> 62 == 0 { b'.' } else { b'#' });
        }
        grid.push(b'\n');
    }
    for conn in ["4", "8"] {
        let full = json(&gridbits(
            &["components", "--json", "--connectivity", conn],
            &grid,
        ));
        let sum = json(&gridbits(
            &["components", "--json", "--summary", "--connectivity", conn],
            &grid,
        ));
        let sizes: Vec<Value> = full["components"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["size"].clone())
            .collect();
        assert_eq!(sum["sizes"], Value::Array(sizes));
        assert_eq!(sum["count"], full["count"]);
    }
}

#[test]
fn image_input_and_png_output() {
    // A PBM (P1): two components 4-connected, one 8-connected.
    let pbm = tmp("two.pbm");
    std::fs::write(&pbm, "P1\n4 3\n1 0 0 0\n0 1 0 0\n0 0 0 0\n").unwrap();
    let v = json(&gridbits(
        &["components", "--json", pbm.to_str().unwrap()],
        b"",
    ));
    assert_eq!(v["count"], 2);
    assert_eq!(
        (v["width"].clone(), v["height"].clone()),
        (4.into(), 3.into())
    );
    let v = json(&gridbits(
        &[
            "components",
            "--json",
            "--connectivity",
            "8",
            pbm.to_str().unwrap(),
        ],
        b"",
    ));
    assert_eq!(v["count"], 1);

    // PNG in, PNG out: each component in its own colour, background black.
    let png_in = tmp("in.png");
    let img = image::GrayImage::from_fn(70, 5, |x, y| {
        image::Luma([if x % 10 < 3 && y != 2 { 200 } else { 0 }])
    });
    img.save(&png_in).unwrap();
    let png_out = tmp("out.png");
    let text = ok(&gridbits(
        &[
            "components",
            "--png",
            png_out.to_str().unwrap(),
            png_in.to_str().unwrap(),
        ],
        b"",
    ));
    assert!(text.starts_with("components: 14 (4-connected)\n"), "{text}");
    let out = image::open(&png_out).unwrap().into_rgb8();
    assert_eq!(out.dimensions(), (70, 5));
    assert_eq!(out.get_pixel(5, 0).0, [0, 0, 0]);
    let mut colours: Vec<[u8; 3]> = out.pixels().map(|p| p.0).collect();
    colours.sort();
    colours.dedup();
    assert_eq!(colours.len(), 15, "14 colours and black");
    // Cells of one component share a colour, neighbours differ.
    assert_eq!(out.get_pixel(0, 0), out.get_pixel(2, 1));
    assert_ne!(out.get_pixel(0, 0), out.get_pixel(0, 3));
    assert_ne!(out.get_pixel(0, 0), out.get_pixel(10, 0));

    // --summary with --png still writes the image.
    let png2 = tmp("out2.png");
    let v = json(&gridbits(
        &[
            "components",
            "--summary",
            "--json",
            "--png",
            png2.to_str().unwrap(),
            png_in.to_str().unwrap(),
        ],
        b"",
    ));
    assert_eq!(v["count"], 14);
    assert!(png2.exists());
}

#[test]
fn large_images_are_summarised_not_drawn() {
    let png = tmp("large.png");
    let img = image::GrayImage::from_fn(300, 300, |x, y| {
        image::Luma([if (x / 7 + y / 7) % 2 == 0 { 255 } else { 0 }])
    });
    img.save(&png).unwrap();
    let text = ok(&gridbits(&["components", png.to_str().unwrap()], b""));
    assert!(text.starts_with("components: "), "{text}");
    assert!(text.contains("not drawn"), "{text}");
    let v = json(&gridbits(
        &[
            "components",
            "--summary",
            "--json",
            "--connectivity",
            "8",
            png.to_str().unwrap(),
        ],
        b"",
    ));
    assert_eq!(v["count"], 1);
}

#[test]
fn bad_input_is_an_error_with_line_and_column() {
    assert_error(
        &gridbits(&["components"], b"##.\n#.\n"),
        "line 2, column 3: row has 2 columns, expected 3",
    );
    assert_error(
        &gridbits(&["components", "--by-char"], b"#\t#\n"),
        "line 1, column 2",
    );
    assert_error(&gridbits(&["components"], b""), "empty grid");
    assert_error(
        &gridbits(&["components", "no/such/file.txt"], b""),
        "cannot read",
    );
    let bad_png = tmp("bad.png");
    std::fs::write(&bad_png, b"\x89PNG\r\n\x1a\nnot really").unwrap();
    let o = gridbits(&["components", bad_png.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).contains("panicked"));
}

#[test]
fn bad_options_are_usage_errors() {
    for args in [
        &["components", "--connectivity", "6"][..],
        &["components", "--min-size", "-1"],
        &["components", "--min-size", "many"],
        &["components", "--frobnicate"],
    ] {
        let o = gridbits(args, GRID);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&o).contains("panicked"));
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn help_has_an_example() {
    let out = ok(&gridbits(&["help", "components"], b""));
    assert!(out.contains("Example"), "{out}");
    assert!(out.contains("--min-size"), "{out}");
    assert!(out.contains("--by-char"), "{out}");
    assert!(out.contains("--labels"), "{out}");
    assert!(out.contains("labels.npy"), "{out}");
}

#[test]
fn demo_has_a_components_section() {
    let out = ok(&gridbits(&["demo"], b""));
    assert!(out.contains("Puyo field"), "{out}");
    assert!(out.contains("row-pair table"), "{out}");
}

/// Reads a `.npy` file written by `--labels`: checks the header, returns shape and values.
fn read_npy(path: &std::path::Path) -> ((usize, usize), Vec<u32>) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + len) % 64, 0, "data aligned to 64 bytes");
    let header = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
    assert!(header.ends_with('\n'));
    assert!(header.starts_with("{'descr': '<u4', 'fortran_order': False, 'shape': ("));
    let shape = &header[header.find("'shape': (").unwrap() + 10..header.find(')').unwrap()];
    let dims: Vec<usize> = shape.split(", ").map(|d| d.parse().unwrap()).collect();
    let data: Vec<u32> = bytes[10 + len..]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(data.len(), dims[0] * dims[1]);
    ((dims[0], dims[1]), data)
}

/// The labels the JSON listing implies: component i (1-based) on its cells.
fn labels_from_json(v: &Value) -> Vec<u32> {
    let w = v["width"].as_u64().unwrap() as usize;
    let h = v["height"].as_u64().unwrap() as usize;
    let mut out = vec![0u32; w * h];
    for (i, c) in v["components"].as_array().unwrap().iter().enumerate() {
        for p in c["cells"].as_array().unwrap() {
            let (x, y) = (
                p[0].as_u64().unwrap() as usize,
                p[1].as_u64().unwrap() as usize,
            );
            out[y * w + x] = i as u32 + 1;
        }
    }
    out
}

#[test]
fn labels_as_npy_and_16_bit_png() {
    let npy = tmp("labels.npy");
    let png = tmp("labels.PNG");
    for extra in [
        &[][..],
        &["--connectivity", "8"],
        &["--min-size", "2"],
        &["--by-char"],
        &["--summary"],
    ] {
        let mut args = vec!["components", "--json"];
        args.extend_from_slice(extra);
        let listing = json(&gridbits(&args, GRID));
        let full = if extra.contains(&"--summary") {
            let mut a = vec!["components", "--json"];
            a.extend(extra.iter().filter(|&&e| e != "--summary"));
            json(&gridbits(&a, GRID))
        } else {
            listing
        };
        let want = labels_from_json(&full);
        args.extend(["--labels", npy.to_str().unwrap()]);
        let _ = json(&gridbits(&args, GRID));
        let (shape, data) = read_npy(&npy);
        assert_eq!(shape, (4, 5), "{extra:?}");
        assert_eq!(data, want, "{extra:?}");
        args.pop();
        args.push(png.to_str().unwrap());
        let _ = json(&gridbits(&args, GRID));
        let img = image::open(&png).unwrap();
        assert_eq!(img.color(), image::ColorType::L16);
        let img = img.into_luma16();
        assert_eq!(img.dimensions(), (5, 4));
        let got: Vec<u32> = img.pixels().map(|p| u32::from(p.0[0])).collect();
        assert_eq!(got, want, "{extra:?}");
    }
    // The raster order of 8-connected labels: the component of (2, 0) is 1.
    let _ = ok(&gridbits(
        &[
            "components",
            "--connectivity",
            "8",
            "--labels",
            npy.to_str().unwrap(),
        ],
        b"..#\n#..\n",
    ));
    assert_eq!(read_npy(&npy).1, [0, 0, 1, 2, 0, 0]);
}

#[test]
fn large_label_images_stream_through_many_png_blocks() {
    // 300x300 with stripes: rows of 601 bytes, several stored deflate blocks.
    let png_in = tmp("stripes.png");
    image::GrayImage::from_fn(300, 300, |x, y| {
        image::Luma([if (x / 3 + y) % 4 == 0 { 255 } else { 0 }])
    })
    .save(&png_in)
    .unwrap();
    let (npy, png) = (tmp("stripes.npy"), tmp("stripes-labels.png"));
    let _ = ok(&gridbits(
        &[
            "components",
            "--labels",
            npy.to_str().unwrap(),
            png_in.to_str().unwrap(),
        ],
        b"",
    ));
    let _ = ok(&gridbits(
        &[
            "components",
            "--labels",
            png.to_str().unwrap(),
            png_in.to_str().unwrap(),
        ],
        b"",
    ));
    let (shape, data) = read_npy(&npy);
    assert_eq!(shape, (300, 300));
    let img = image::open(&png).unwrap().into_luma16();
    let got: Vec<u32> = img.pixels().map(|p| u32::from(p.0[0])).collect();
    assert_eq!(got, data);
    assert!(data.iter().copied().max().unwrap() > 255);
}

#[test]
fn label_image_errors() {
    let grid = b"#.\n.#\n";
    assert_error(
        &gridbits(
            &[
                "components",
                "--labels",
                tmp("labels.txt").to_str().unwrap(),
            ],
            grid,
        ),
        "use a .npy or .png file name",
    );
    assert_error(
        &gridbits(
            &["components", "--labels", tmp("labels").to_str().unwrap()],
            grid,
        ),
        "unknown label image format",
    );
    assert_error(
        &gridbits(&["components", "--labels", "/no/such/dir/labels.npy"], grid),
        "cannot write /no/such/dir/labels.npy",
    );
    // 65536 single cells do not fit in a 16-bit PNG; the .npy takes them.
    let mut many = Vec::new();
    for y in 0..512 {
        for x in 0..512 {
            many.push(if x % 2 == 0 && y % 2 == 0 { b'#' } else { b'.' });
        }
        many.push(b'\n');
    }
    let png = tmp("many.png");
    assert_error(
        &gridbits(
            &["components", "--summary", "--labels", png.to_str().unwrap()],
            &many,
        ),
        "65536 components do not fit in a 16-bit PNG",
    );
    assert_error(
        &gridbits(
            &["components", "--summary", "--labels", png.to_str().unwrap()],
            &many,
        ),
        "write a .npy file instead",
    );
    assert!(!png.exists());
    let npy = tmp("many.npy");
    let out = ok(&gridbits(
        &["components", "--summary", "--labels", npy.to_str().unwrap()],
        &many,
    ));
    assert!(out.starts_with("components: 65536 "), "{out}");
    let (_, data) = read_npy(&npy);
    assert_eq!(data.iter().copied().max(), Some(65536));
    // With --min-size the kept components are renumbered, and then they fit.
    let _ = ok(&gridbits(
        &[
            "components",
            "--summary",
            "--min-size",
            "2",
            "--labels",
            png.to_str().unwrap(),
        ],
        &many,
    ));
    assert!(image::open(&png)
        .unwrap()
        .into_luma16()
        .pixels()
        .all(|p| p.0[0] == 0));
}
