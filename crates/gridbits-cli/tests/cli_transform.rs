//! End-to-end tests of `gridbits transform`: text, JSON, the 16-bit PNG and the `.npy` array,
//! on text grids and images, and its errors.

use crate::common::{assert_error, gridbits, json, stderr, stdout, tmp, walls_png};

const GRID: &[u8] = b"###\n###\n##.\n";

#[test]
fn text_output_per_metric() {
    let o = gridbits(&["transform", "--metric", "taxicab"], GRID);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "taxicab distance transform: 8 set cells, largest distance 4\n4 3 2\n3 2 1\n2 1 0\n"
    );
    let o = gridbits(&["transform", "--metric", "chessboard"], GRID);
    assert_eq!(
        stdout(&o),
        "chessboard distance transform: 8 set cells, largest distance 2\n2 2 2\n2 1 1\n2 1 0\n"
    );
    let o = gridbits(&["transform"], GRID);
    assert!(stdout(&o).starts_with(
        "euclidean distance transform: 8 set cells, largest distance 2.83\n2.83 2.24 2.00\n"
    ));
}

#[test]
fn json_values() {
    let v = json(&gridbits(
        &["transform", "--json", "--metric", "taxicab"],
        GRID,
    ));
    assert_eq!(v["metric"], "taxicab");
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(v["largest"], 4);
    assert_eq!(v["distance"][0], serde_json::json!([4, 3, 2]));
    let v = json(&gridbits(&["transform", "--json"], GRID));
    assert_eq!(v["distance"][0][0].as_f64(), Some(8f64.sqrt()));
    assert_eq!(v["distance"][2][2].as_f64(), Some(0.0));
    // No empty cell: no distances.
    let v = json(&gridbits(&["transform", "--json"], b"##\n##\n"));
    assert!(v["largest"].is_null());
    assert!(v["distance"][1][1].is_null());
    let o = gridbits(&["transform"], b"##\n");
    assert!(stdout(&o).contains("no empty cell"));
}

#[test]
fn images_in_png16_and_npy_out() {
    // A 70-pixel-wide image: set pixels (white) everywhere but one black pixel.
    let rows: Vec<String> = (0..5)
        .map(|y| {
            (0..70)
                .map(|x| if (x, y) == (0, 0) { '.' } else { '#' })
                .collect()
        })
        .collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let png = walls_png(&refs);
    let png_out = tmp("transform.png");
    let npy_out = tmp("transform.npy");
    let o = gridbits(
        &[
            "transform",
            "--metric",
            "taxicab",
            "--png",
            png_out.to_str().unwrap(),
            "--npy",
            npy_out.to_str().unwrap(),
        ],
        &png,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("largest distance 73"));
    let img = image::open(&png_out).expect("png").into_luma16();
    assert_eq!(img.dimensions(), (70, 5));
    assert_eq!(img.get_pixel(69, 4).0, [73]);
    assert_eq!(img.get_pixel(3, 2).0, [5]);
    assert_eq!(img.get_pixel(0, 0).0, [0]);
    // The .npy: version 1 header, int32, then row-major values.
    let bytes = std::fs::read(&npy_out).expect("npy");
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = std::str::from_utf8(&bytes[10..10 + header_len]).unwrap();
    assert!(
        header.contains("'descr': '<i4'") && header.contains("'shape': (5, 70)"),
        "{header}"
    );
    let data = &bytes[10 + header_len..];
    assert_eq!(data.len(), 4 * 350);
    let at = |i: usize| i32::from_le_bytes(data[4 * i..4 * i + 4].try_into().unwrap());
    assert_eq!(at(0), 0);
    assert_eq!(at(349), 73);
    assert_eq!(at(70 + 1), 2);
    // Euclidean: float64.
    let o = gridbits(&["transform", "--npy", npy_out.to_str().unwrap()], &png);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bytes = std::fs::read(&npy_out).expect("npy");
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert!(std::str::from_utf8(&bytes[10..10 + header_len])
        .unwrap()
        .contains("'<f8'"));
    let data = &bytes[10 + header_len..];
    let last = f64::from_le_bytes(data[8 * 349..].try_into().unwrap());
    assert_eq!(last, ((69 * 69 + 4 * 4) as f64).sqrt());
}

#[test]
fn errors() {
    assert_error(
        &gridbits(&["transform", "--metric", "l2"], GRID),
        "invalid value 'l2'",
    );
    assert_error(
        &gridbits(&["transform", "--png", "out.jpg"], GRID),
        "--png out.jpg",
    );
    assert_error(
        &gridbits(&["transform", "--npy", "out.txt"], GRID),
        "--npy out.txt",
    );
    assert_error(
        &gridbits(&["transform", "--json", "--png", "-"], GRID),
        "--png -",
    );
    assert_error(&gridbits(&["transform"], b"##\n#\n"), "line 2");
}
