//! The streamed output of `components`, `show` and `fill`: byte for byte what the JSON
//! objects built with `serde_json::json!` printed (keys sorted, compact), checked against the
//! per-cell oracle on many grid sizes, and in the text form; the grids that need no label
//! image give the same text.

use crate::common::*;
use gridbits::naive::{self, NaiveGrid};
use gridbits::Connectivity;
use serde_json::{json, Value};

/// A small deterministic generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Sizes every streamed command is checked on: 1x1, one row, one column, widths 63/64/65,
/// exactly 64 and 128 cells, odd sizes, and a grid too wide to draw.
pub const SIZES: [(usize, usize); 13] = [
    (1, 1),
    (1, 9),
    (9, 1),
    (63, 3),
    (64, 2),
    (65, 3),
    (8, 8),
    (16, 8),
    (128, 1),
    (1, 128),
    (13, 11),
    (130, 5),
    (300, 2),
];

/// Densities: empty, full and in between.
pub const DENSITIES: [u64; 5] = [0, 100, 30, 50, 70];

/// A random grid of `#` and `.`.
pub fn random_grid(rng: &mut Rng, w: usize, h: usize, percent: u64) -> NaiveGrid {
    NaiveGrid::from_fn(w, h, |_, _| rng.chance(percent))
}

/// A grid as text, `set` and `.` characters.
pub fn text_of(g: &NaiveGrid, set: u8) -> Vec<u8> {
    let mut t = Vec::new();
    for y in 0..g.height() {
        t.extend((0..g.width()).map(|x| if g.get(x, y) { set } else { b'.' }));
        t.push(b'\n');
    }
    t
}

/// What the JSON objects of the old implementation printed: compact, keys sorted.
pub fn old_json(v: &Value) -> String {
    format!("{}\n", serde_json::to_string(v).expect("json"))
}

/// Standard output of a successful run with nothing on standard error.
pub fn ok_out(args: &[&str], stdin: &[u8]) -> String {
    let o = gridbits(args, stdin);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    assert!(o.stderr.is_empty(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// The components of `classes` (one class per plane, in order) by the oracle, as
/// `(class, cells in raster order)`, class by class.
fn oracle_components(
    classes: &[(u8, NaiveGrid)],
    conn: Connectivity,
) -> Vec<(u8, Vec<[usize; 2]>)> {
    let mut out = Vec::new();
    for (c, plane) in classes {
        for mut cells in naive::components::component_cells(plane, conn) {
            cells.sort_by_key(|&(x, y)| (y, x));
            out.push((*c, cells.into_iter().map(|(x, y)| [x, y]).collect()));
        }
    }
    out
}

/// The `components --json` object the old implementation built, from the oracle.
fn expected_components(
    w: usize,
    h: usize,
    comps: &[(u8, Vec<[usize; 2]>)],
    by_char: bool,
) -> Value {
    let list: Vec<Value> = comps
        .iter()
        .map(|(c, cells)| {
            let n = cells.len();
            let (min_x, max_x) = (
                cells.iter().map(|p| p[0]).min(),
                cells.iter().map(|p| p[0]).max(),
            );
            let (min_y, max_y) = (
                cells.iter().map(|p| p[1]).min(),
                cells.iter().map(|p| p[1]).max(),
            );
            let (min_x, max_x, min_y, max_y) = (
                min_x.unwrap(),
                max_x.unwrap(),
                min_y.unwrap(),
                max_y.unwrap(),
            );
            let sx: u64 = cells.iter().map(|p| p[0] as u64).sum();
            let sy: u64 = cells.iter().map(|p| p[1] as u64).sum();
            let mut o = json!({
                "size": n,
                "area": n,
                "bbox": [min_x, min_y, max_x + 1 - min_x, max_y + 1 - min_y],
                "centroid": [sx as f64 / n as f64, sy as f64 / n as f64],
                "cells": cells,
            });
            if by_char {
                o["char"] = (*c as char).to_string().into();
            }
            o
        })
        .collect();
    json!({ "width": w, "height": h, "count": comps.len(), "components": list })
}

fn conn_arg(conn: Connectivity) -> &'static str {
    match conn {
        Connectivity::Four => "4",
        Connectivity::Eight => "8",
    }
}

#[test]
fn components_json_is_the_old_output_on_many_sizes() {
    let mut rng = Rng::new(1);
    for (w, h) in SIZES {
        for p in DENSITIES {
            let g = random_grid(&mut rng, w, h, p);
            let text = text_of(&g, b'#');
            for conn in [Connectivity::Four, Connectivity::Eight] {
                let c = conn_arg(conn);
                let comps = oracle_components(&[(b'#', g.clone())], conn);
                let got = ok_out(&["components", "--json", "--connectivity", c], &text);
                assert_eq!(
                    got,
                    old_json(&expected_components(w, h, &comps, false)),
                    "{w}x{h} {p}% {c}"
                );
                // --min-size drops small components; --summary keeps only count and sizes.
                let big: Vec<_> = comps
                    .iter()
                    .filter(|(_, cells)| cells.len() >= 3)
                    .cloned()
                    .collect();
                let got = ok_out(
                    &[
                        "components",
                        "--json",
                        "--min-size",
                        "3",
                        "--connectivity",
                        c,
                    ],
                    &text,
                );
                assert_eq!(
                    got,
                    old_json(&expected_components(w, h, &big, false)),
                    "{w}x{h} {p}% {c} min 3"
                );
                let sizes: Vec<usize> = big.iter().map(|(_, cells)| cells.len()).collect();
                let got = ok_out(
                    &[
                        "components",
                        "--json",
                        "--summary",
                        "--min-size",
                        "3",
                        "--connectivity",
                        c,
                    ],
                    &text,
                );
                assert_eq!(
                    got,
                    old_json(&json!({ "count": big.len(), "sizes": sizes }))
                );
            }
        }
    }
}

#[test]
fn components_by_char_json_is_the_old_output() {
    let mut rng = Rng::new(2);
    for (w, h) in SIZES {
        // Three classes and background, drawn at random.
        let cells: Vec<u8> = (0..w * h)
            .map(|_| b".abc"[(rng.next() % 4) as usize])
            .collect();
        let mut text = Vec::new();
        for row in cells.chunks(w) {
            text.extend_from_slice(row);
            text.push(b'\n');
        }
        let planes: Vec<(u8, NaiveGrid)> = b"abc"
            .iter()
            .map(|&c| (c, NaiveGrid::from_fn(w, h, |x, y| cells[y * w + x] == c)))
            .filter(|(_, g)| !g.is_empty())
            .collect();
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let comps = oracle_components(&planes, conn);
            let got = ok_out(
                &[
                    "components",
                    "--json",
                    "--by-char",
                    "--connectivity",
                    conn_arg(conn),
                ],
                &text,
            );
            assert_eq!(
                got,
                old_json(&expected_components(w, h, &comps, true)),
                "{w}x{h}"
            );
        }
    }
}

#[test]
fn components_json_edge_cases_byte_for_byte() {
    // Captured from the implementation that built a `serde_json::Value` per cell.
    let cases: [(&[&str], &[u8], &str); 6] = [
        (&["components", "--json"], b"##.\n..#\n", "{\"components\":[{\"area\":2,\"bbox\":[0,0,2,1],\"cells\":[[0,0],[1,0]],\"centroid\":[0.5,0.0],\"size\":2},{\"area\":1,\"bbox\":[2,1,1,1],\"cells\":[[2,1]],\"centroid\":[2.0,1.0],\"size\":1}],\"count\":2,\"height\":2,\"width\":3}\n"),
        (&["components", "--json", "--by-char"], b"ab.\n.ab\n", "{\"components\":[{\"area\":1,\"bbox\":[0,0,1,1],\"cells\":[[0,0]],\"centroid\":[0.0,0.0],\"char\":\"a\",\"size\":1},{\"area\":1,\"bbox\":[1,1,1,1],\"cells\":[[1,1]],\"centroid\":[1.0,1.0],\"char\":\"a\",\"size\":1},{\"area\":1,\"bbox\":[1,0,1,1],\"cells\":[[1,0]],\"centroid\":[1.0,0.0],\"char\":\"b\",\"size\":1},{\"area\":1,\"bbox\":[2,1,1,1],\"cells\":[[2,1]],\"centroid\":[2.0,1.0],\"char\":\"b\",\"size\":1}],\"count\":4,\"height\":2,\"width\":3}\n"),
        (&["components", "--json", "--summary"], b"##.\n..#\n", "{\"count\":2,\"sizes\":[2,1]}\n"),
        (&["components", "--json"], b"...\n", "{\"components\":[],\"count\":0,\"height\":1,\"width\":3}\n"),
        (&["components", "--json", "--summary"], b".\n", "{\"count\":0,\"sizes\":[]}\n"),
        (&["components", "--json"], b"#\n", "{\"components\":[{\"area\":1,\"bbox\":[0,0,1,1],\"cells\":[[0,0]],\"centroid\":[0.0,0.0],\"size\":1}],\"count\":1,\"height\":1,\"width\":1}\n"),
    ];
    for (args, input, want) in cases {
        assert_eq!(ok_out(args, input), want, "{args:?}");
    }
}

#[test]
fn components_text_without_a_label_image_is_the_same() {
    // Grids too large to draw print the header from the run statistics (no label image);
    // with --png a label image is made: both give the same text.
    let mut rng = Rng::new(3);
    for (w, h) in [(300, 2), (257, 1), (1, 300), (400, 3)] {
        for p in DENSITIES {
            let g = random_grid(&mut rng, w, h, p);
            let text = text_of(&g, b'#');
            let png = tmp(&format!("stream-{w}x{h}-{p}.png"));
            let png = png.to_str().expect("path");
            for c in ["4", "8"] {
                let plain = ok_out(&["components", "--connectivity", c], &text);
                let labelled = ok_out(&["components", "--connectivity", c, "--png", png], &text);
                assert_eq!(plain, labelled);
                let sizes: Vec<String> = oracle_components(
                    &[(b'#', g.clone())],
                    if c == "4" {
                        Connectivity::Four
                    } else {
                        Connectivity::Eight
                    },
                )
                .iter()
                .map(|(_, cells)| format!(" {}", cells.len()))
                .collect();
                assert_eq!(
                    plain,
                    format!(
                        "components: {} ({c}-connected)\nsizes:{}\n(grid larger than 256x256 \
                         not drawn; use --json or --png OUT)\n",
                        sizes.len(),
                        sizes.concat()
                    )
                );
                let summary = ok_out(&["components", "--summary", "--connectivity", c], &text);
                assert!(plain.starts_with(&summary), "{summary}");
            }
        }
    }
}

#[test]
fn show_json_is_the_old_output() {
    let mut rng = Rng::new(4);
    for (w, h) in SIZES {
        for p in DENSITIES {
            let g = random_grid(&mut rng, w, h, p);
            let text = text_of(&g, b'#');
            let rows: Vec<String> = String::from_utf8(text.clone())
                .expect("ascii")
                .lines()
                .map(String::from)
                .collect();
            let printable = w <= 256 && h <= 256;
            let mut want =
                json!({ "width": w, "height": h, "count": g.count(), "truncated": !printable });
            if printable {
                want["rows"] = rows.clone().into();
            }
            assert_eq!(ok_out(&["show", "--json"], &text), old_json(&want));
            want["rows"] = rows.clone().into();
            want["truncated"] = false.into();
            assert_eq!(
                ok_out(&["show", "--json", "--full"], &text),
                old_json(&want)
            );
            let plain = ok_out(&["show", "--full"], &text);
            assert_eq!(
                plain,
                format!(
                    "size: {w}x{h}\nset: {}\n{}",
                    g.count(),
                    rows.join("\n") + "\n"
                )
            );
        }
    }
}

#[test]
fn fill_json_is_the_old_output() {
    let mut rng = Rng::new(5);
    for (w, h) in SIZES {
        for p in [0, 30, 50] {
            let blocked = random_grid(&mut rng, w, h, p);
            let free = NaiveGrid::from_fn(w, h, |x, y| !blocked.get(x, y));
            let Some(&(x, y)) = free.cells().first() else {
                continue;
            };
            let text = text_of(&blocked, b'#');
            let from = format!("{x},{y}");
            for (c, conn) in [("4", Connectivity::Four), ("8", Connectivity::Eight)] {
                let seed = NaiveGrid::from_fn(w, h, |a, b| (a, b) == (x, y));
                let filled = naive::fill::fill(&seed, &free, conn);
                let cells: Vec<[usize; 2]> =
                    filled.cells().into_iter().map(|(a, b)| [a, b]).collect();
                // `fill --json` always wrote `size` before `cells`.
                let want = format!(
                    "{{\"size\":{},\"cells\":{}}}\n",
                    filled.count(),
                    serde_json::to_string(&cells).expect("json")
                );
                let got = ok_out(
                    &["fill", "--json", "--from", &from, "--connectivity", c],
                    &text,
                );
                assert_eq!(got, want, "{w}x{h} {p}% {c}");
            }
        }
    }
}
