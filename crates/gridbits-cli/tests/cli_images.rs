//! End-to-end tests of image input: formats recognised by content, `--threshold`, `--invert`,
//! alpha, PGM, images on standard input, and every unsupported or damaged input.

use crate::common::*;
use std::io::Cursor;

/// The bytes of a PNG image.
fn png_bytes(img: impl Into<image::DynamicImage>) -> Vec<u8> {
    let mut out = Vec::new();
    img.into()
        .write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png)
        .expect("encode png");
    out
}

/// `show`'s grid lines for an input on standard input.
fn shown(args: &[&str], input: &[u8]) -> String {
    let mut all = vec!["show"];
    all.extend_from_slice(args);
    let o = gridbits(&all, input);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o).lines().skip(2).collect::<Vec<_>>().join("\n")
}

fn grey_row(levels: &[u8]) -> Vec<u8> {
    png_bytes(image::GrayImage::from_raw(levels.len() as u32, 1, levels.to_vec()).expect("img"))
}

#[test]
fn threshold_is_strictly_greater_and_invert_swaps() {
    let png = grey_row(&[0, 1, 100, 128, 129, 255]);
    assert_eq!(shown(&[], &png), ".#####");
    assert_eq!(shown(&["--threshold", "0"], &png), ".#####");
    assert_eq!(shown(&["--threshold", "128"], &png), "....##");
    assert_eq!(shown(&["--threshold", "254"], &png), ".....#");
    assert_eq!(shown(&["--invert"], &png), "#.....");
    assert_eq!(shown(&["--threshold", "128", "--invert"], &png), "####..");
}

#[test]
fn colour_uses_luminance() {
    // Red 255 has luminance 0.2126 * 255 = 54.2; green 255 182.4; blue 255 18.4.
    let img = image::RgbImage::from_raw(3, 1, vec![255, 0, 0, 0, 255, 0, 0, 0, 255]).expect("img");
    let png = png_bytes(img);
    assert_eq!(shown(&[], &png), "###");
    assert_eq!(shown(&["--threshold", "54"], &png), "##.");
    assert_eq!(shown(&["--threshold", "55"], &png), ".#.");
    assert_eq!(shown(&["--threshold", "183"], &png), "...");
}

#[test]
fn sixteen_bit_levels_are_on_the_same_scale() {
    let img = image::ImageBuffer::<image::Luma<u16>, _>::from_raw(3, 1, vec![1u16, 32896, 32897])
        .expect("img");
    let png = png_bytes(image::DynamicImage::ImageLuma16(img));
    assert_eq!(shown(&[], &png), "###");
    assert_eq!(shown(&["--threshold", "128"], &png), "..#");
}

#[test]
fn pixels_less_than_half_opaque_are_empty_even_inverted() {
    let img = image::RgbaImage::from_raw(
        4,
        1,
        vec![
            255, 255, 255, 127, // white, mostly transparent
            255, 255, 255, 128, // white, half opaque
            0, 0, 0, 0, // black, transparent
            0, 0, 0, 255, // black, opaque
        ],
    )
    .expect("img");
    let png = png_bytes(img);
    assert_eq!(shown(&[], &png), ".#..");
    assert_eq!(shown(&["--invert"], &png), "...#");
    let la = image::ImageBuffer::<image::LumaA<u8>, _>::from_raw(2, 1, vec![255, 0, 255, 255])
        .expect("img");
    assert_eq!(
        shown(&[], &png_bytes(image::DynamicImage::ImageLumaA8(la))),
        ".#"
    );
}

#[test]
fn pgm_ascii_and_binary_with_threshold() {
    // maxval 15: levels scale to 0, 119, 255.
    let p2 = b"P2\n# a greymap\n3 1\n15\n0 7 15\n";
    assert_eq!(shown(&[], p2), ".##");
    assert_eq!(shown(&["--threshold", "128"], p2), "..#");
    let p5 = b"P5 3 1 255\n\x00\x80\xff";
    assert_eq!(shown(&["--threshold", "127"], p5), ".##");
    assert_eq!(shown(&["--invert"], p5), "#..");
    let path = tmp("g.pgm");
    std::fs::write(&path, p5).expect("write");
    let o = gridbits(&["show", path.to_str().unwrap()], b"");
    assert_eq!(stdout(&o), "size: 3x1\nset: 2\n.##\n", "{}", stderr(&o));
}

#[test]
fn ppm_colour_is_read() {
    let p6 = b"P6\n2 1\n255\n\xff\x00\x00\x00\x00\x00";
    assert_eq!(shown(&[], p6), "#.");
    assert_eq!(shown(&["--threshold", "60"], p6), "..");
}

#[test]
fn pbm_invert_and_no_threshold() {
    let p1 = b"P1\n3 1\n1 0 1\n";
    assert_eq!(shown(&[], p1), "#.#");
    assert_eq!(shown(&["--invert"], p1), ".#.");
    assert_error(
        &gridbits(&["show", "--threshold", "3"], p1),
        "PBM bitmap is already black and white",
    );
}

#[test]
fn images_on_standard_input_are_recognised() {
    let png = grey_row(&[0, 9, 0]);
    let o = gridbits(&["show", "-"], &png);
    assert_eq!(stdout(&o), "size: 3x1\nset: 1\n.#.\n", "{}", stderr(&o));
    let o = gridbits(&["show"], b"P4\n8 1\n\xf0");
    assert_eq!(
        stdout(&o),
        "size: 8x1\nset: 4\n####....\n",
        "{}",
        stderr(&o)
    );
}

#[test]
fn threshold_and_invert_on_text_are_errors() {
    assert_error(
        &gridbits(&["show", "--threshold", "9"], b"#.\n"),
        "--threshold and --invert apply to images",
    );
    assert_error(
        &gridbits(&["fill", "--from", "1,0", "--invert"], b"#.\n"),
        "this is a text grid",
    );
}

#[test]
fn bad_threshold_values_are_usage_errors() {
    for bad in ["255", "-1", "abc", "1.5", ""] {
        let o = gridbits(&["show", "--threshold", bad], &grey_row(&[1]));
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).starts_with("error: "), "{bad}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn unsupported_formats_are_named() {
    let cases: &[(&[u8], &str)] = &[
        (
            b"\xff\xd8\xff\xe0\0\x10JFIF\0",
            "unsupported image format: JPEG",
        ),
        (
            b"BM\x3a\0\0\0\0\0\0\0\x36\0\0\0\x28\0",
            "unsupported image format: BMP",
        ),
        (b"GIF89a\x01\0\x01\0", "unsupported image format: GIF"),
        (b"II*\0\x08\0\0\0", "unsupported image format: TIFF"),
        (b"MM\0*\0\0\0\x08", "unsupported image format: TIFF"),
        (b"RIFF\x24\0\0\0WEBPVP8 ", "unsupported image format: WebP"),
        (b"\xef\xbb\xbf..\n..\n", "UTF-8 with a byte-order mark"),
        (b"\xff\xfe.\0.\0", "UTF-16"),
    ];
    for (bytes, needle) in cases {
        assert_error(&gridbits(&["show"], bytes), needle);
        assert_error(&gridbits(&["components"], bytes), needle);
        let path = tmp("mystery.bin");
        std::fs::write(&path, bytes).expect("write");
        assert_error(&gridbits(&["show", path.to_str().unwrap()], b""), needle);
    }
}

#[test]
fn damaged_images_get_plain_messages() {
    let mut png = grey_row(&[0, 255, 0, 255]);
    let n = png.len();
    png[n - 20..n - 12].copy_from_slice(b"garbage!");
    let o = gridbits(&["show"], &png);
    assert_error(&o, "standard input: the PNG image");
    let err = stderr(&o);
    assert!(
        !err.contains("Format error") && !err.contains("Png"),
        "{err}"
    );
    // Truncated after the header.
    let short = &grey_row(&[0; 64])[..40];
    assert_error(&gridbits(&["show"], short), "PNG image");
    // A text file named .png.
    let path = tmp("text.png");
    std::fs::write(&path, b"..#\n").expect("write");
    assert_error(
        &gridbits(&["show", path.to_str().unwrap()], b""),
        "not a PNG image",
    );
}

#[test]
fn threshold_reaches_every_image_command() {
    // Levels 0 and 200 in a 3x3 image; with --threshold 100 only the 200s are set.
    let img =
        image::GrayImage::from_raw(3, 3, vec![200, 50, 0, 50, 50, 0, 0, 0, 200]).expect("img");
    let png = png_bytes(img);
    let v = json(&gridbits(
        &["components", "--json", "--threshold", "100"],
        &png,
    ));
    assert_eq!(v["count"], 2);
    let v = json(&gridbits(&["components", "--json"], &png));
    assert_eq!(v["count"], 2, "default: 200 and 50 set, two groups");
    let v = json(&gridbits(
        &["fill", "--from", "1,1", "--json", "--threshold", "100"],
        &png,
    ));
    assert_eq!(v["size"], 7);
    let o = gridbits(&["tetris", "--json", "--invert"], &png);
    assert_eq!(json(&o)["cleared"], 0);
}

#[test]
fn a_netpbm_signature_with_a_bad_header_says_what_is_wrong() {
    // It starts with P1, the PBM signature: the width after it is what is wrong.
    for (name, bytes, needle) in [
        ("neg.pbm", &b"P1 -3 2\n"[..], "found '-3'"),
        ("bare.pbm", b"P1", "nothing follows it"),
        ("short.pgm", b"P2 3\n", "the header ends after 1 of them"),
    ] {
        let path = tmp(name);
        std::fs::write(&path, bytes).expect("write");
        let o = gridbits(&["show", path.to_str().expect("utf8")], b"");
        assert_error(&o, needle);
        let err = stderr(&o);
        assert!(err.contains("header"), "{err}");
        assert!(!err.contains("not a PBM signature"), "{err}");
    }
}
