//! End-to-end tests of `gridbits regionprops`.

use crate::common::{assert_error, gridbits, json, stderr};

use serde_json::json;

fn ok_text(args: &[&str], stdin: &[u8]) -> String {
    let o = gridbits(args, stdin);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    String::from_utf8(o.stdout).expect("utf8")
}

#[test]
fn text_output_is_the_help_example() {
    let t = ok_text(&["regionprops", "--connectivity", "4"], b"##.\n..#\n");
    assert_eq!(
        t,
        "regions: 2 (4-connected)\n\
         label area bbox_x0 bbox_y0 bbox_x1 bbox_y1 centroid_x centroid_y\n\
         1 2 0 0 2 1 0.5 0.0\n\
         2 1 2 1 3 2 2.0 1.0\n"
    );
    // 8-connected by default, as skimage.
    assert!(ok_text(&["regionprops"], b"##.\n..#\n").starts_with("regions: 1 (8-connected)\n"));
}

#[test]
fn json_has_one_object_per_region() {
    // A ring with a hole (and a lone cell): Euler number 0, filled area 9, skimage's perimeter.
    let ring = b"###..\n#.#..\n###.#\n";
    let props = "label,area,bbox,centroid,area_bbox,extent,perimeter,euler_number,area_filled";
    let v = json(&gridbits(
        &["regionprops", "--json", "--properties", props],
        ring,
    ));
    assert_eq!(
        (v["width"].clone(), v["height"].clone(), v["count"].clone()),
        (json!(5), json!(3), json!(2))
    );
    let r = &v["regions"];
    assert_eq!(r[0]["label"], 1);
    assert_eq!(r[0]["area"], 8);
    assert_eq!(r[0]["bbox"], json!([0, 0, 3, 3]));
    assert_eq!(r[0]["centroid"], json!([1.0, 1.0]));
    assert_eq!(r[0]["area_bbox"], 9);
    assert_eq!(r[0]["extent"], json!(8.0 / 9.0));
    assert_eq!(r[0]["perimeter"], json!(8.0));
    assert_eq!(r[0]["euler_number"], 0);
    assert_eq!(r[0]["area_filled"], 9);
    assert_eq!(r[1]["bbox"], json!([4, 2, 5, 3]));
    assert_eq!(r[1]["euler_number"], 1);
    assert_eq!(r[1]["perimeter"], json!(0.0));
}

#[test]
fn csv_has_a_header_and_a_line_per_region() {
    let t = ok_text(
        &[
            "regionprops",
            "--csv",
            "--properties",
            "area,label,area_bbox",
        ],
        b"#.#\n#..\n",
    );
    assert_eq!(t, "area,label,area_bbox\n2,1,2\n1,2,1\n");
    // No region: the header alone.
    assert_eq!(
        ok_text(&["regionprops", "--csv"], b"...\n"),
        "label,area,bbox_x0,bbox_y0,bbox_x1,bbox_y1,centroid_x,centroid_y\n"
    );
}

#[test]
fn bad_options_are_errors() {
    assert_error(
        &gridbits(&["regionprops", "--properties", "label,solidity"], b"#\n"),
        "unknown property 'solidity'",
    );
    assert_error(
        &gridbits(&["regionprops", "--json", "--csv"], b"#\n"),
        "cannot be used with",
    );
    assert_error(
        &gridbits(&["regionprops", "--connectivity", "6"], b"#\n"),
        "6",
    );
    assert_error(&gridbits(&["regionprops"], b"#.\n#\n"), "line 2");
}

#[test]
fn png_input_is_labelled_like_text() {
    let rows = ["##..#", "#...#", "..#.."];
    let png = crate::common::walls_png(&rows);
    let text = rows.join("\n") + "\n";
    let args = [
        "regionprops",
        "--csv",
        "--properties",
        "label,area,bbox,perimeter",
    ];
    let from_png = gridbits(&args, &png);
    assert_eq!(from_png.status.code(), Some(0), "{}", stderr(&from_png));
    assert_eq!(
        String::from_utf8_lossy(&from_png.stdout),
        ok_text(&args, text.as_bytes())
    );
}

#[test]
fn repeated_properties_are_listed_once() {
    // One JSON key and one CSV column per property, at its first place, as skimage's
    // regionprops_table (a dict) has them.
    let grid = b"##.\n..#\n";
    let o = gridbits(
        &["regionprops", "--json", "--properties", "label,area,label"],
        grid,
    );
    let raw = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(raw.matches("\"label\"").count(), 1, "{raw}");
    let v = json(&o);
    let keys: Vec<&String> = v["regions"][0]
        .as_object()
        .expect("object")
        .keys()
        .collect();
    assert_eq!(keys.len(), 2, "{v}");
    let csv = ok_text(
        &[
            "regionprops",
            "--csv",
            "--properties",
            "area,label,area,bbox,label",
        ],
        grid,
    );
    assert_eq!(
        csv.lines().next(),
        Some("area,label,bbox_x0,bbox_y0,bbox_x1,bbox_y1")
    );
}
