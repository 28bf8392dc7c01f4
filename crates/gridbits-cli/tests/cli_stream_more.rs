//! The streamed output of `distance`, `voronoi` and `reach` against the per-cell oracle (in
//! the JSON format the old `serde_json::json!` objects had), a closed standard output (`|
//! head`), and no progress output when standard error is not a terminal.

use crate::cli_stream::{ok_out, old_json, random_grid, text_of, Rng, DENSITIES, SIZES};
use crate::common::*;
use gridbits::naive::{self, NaiveGrid};
use gridbits::Moves;
use serde_json::{json, Value};
use std::io::Read;
use std::process::{Command, Stdio};

/// A random map: `#` walls at `percent`, and up to `players` single-cell sources `A`, `B`,
/// ... on free cells. Returns the text, the walls and the source of each player.
fn random_map(
    rng: &mut Rng,
    w: usize,
    h: usize,
    percent: u64,
    players: usize,
) -> (Vec<u8>, NaiveGrid, Vec<NaiveGrid>) {
    let walls = random_grid(rng, w, h, percent);
    let mut text = text_of(&walls, b'#');
    let free = walls.cells().len() < w * h;
    let mut sources = Vec::new();
    for i in 0..players {
        if !free {
            break;
        }
        let (x, y) = loop {
            let (x, y) = ((rng.next() as usize) % w, (rng.next() as usize) % h);
            if text[y * (w + 1) + x] == b'.' {
                break (x, y);
            }
            if text.iter().all(|&c| c != b'.') {
                return (text, walls, sources);
            }
        };
        text[y * (w + 1) + x] = b'A' + i as u8;
        sources.push(NaiveGrid::from_fn(w, h, |a, b| (a, b) == (x, y)));
    }
    (text, walls, sources)
}

fn not(g: &NaiveGrid) -> NaiveGrid {
    NaiveGrid::from_fn(g.width(), g.height(), |x, y| !g.get(x, y))
}

fn union(gs: &[NaiveGrid], w: usize, h: usize) -> NaiveGrid {
    gs.iter().fold(NaiveGrid::new(w, h), |a, g| a.or(g))
}

#[test]
fn distance_json_is_the_old_output() {
    let mut rng = Rng::new(11);
    for (w, h) in SIZES {
        for p in DENSITIES {
            let (text, walls, sources) = random_map(&mut rng, w, h, p, 2);
            let all = union(&sources, w, h);
            for (name, moves) in [("4", Moves::Four), ("8", Moves::Eight)] {
                if sources.is_empty() {
                    // No source: an error naming what is missing (text and images alike).
                    let o = gridbits(&["distance", "--json", "--moves", name], &text);
                    assert_error(&o, "distance needs sources");
                    continue;
                }
                let d = naive::fill::distance_map(&all, &not(&walls), moves, None);
                let rows: Vec<Vec<Option<u32>>> = d.chunks(w).map(<[_]>::to_vec).collect();
                let got = ok_out(&["distance", "--json", "--moves", name], &text);
                assert_eq!(
                    got,
                    old_json(&json!({ "distance": rows })),
                    "{w}x{h} {p}% {name}"
                );
                // The text summary of a grid too large to draw comes without a map.
                if w > 256 {
                    let reached = d.iter().flatten().count();
                    let largest = d.iter().flatten().max().map_or("-".into(), u32::to_string);
                    let got = ok_out(&["distance", "--moves", name], &text);
                    let first = format!(
                        "{} sources, {reached} cells reached, largest distance {largest}\n",
                        sources.len()
                    );
                    assert!(got.starts_with(&first), "{got}");
                }
            }
        }
    }
}

#[test]
fn voronoi_json_is_the_old_output() {
    let mut rng = Rng::new(12);
    for (w, h) in SIZES {
        for p in [0, 30, 50] {
            let (text, walls, sources) = random_map(&mut rng, w, h, p, 3);
            if sources.is_empty() {
                continue;
            }
            let v = naive::fill::voronoi(&sources, &not(&walls), Moves::Four, None);
            let owner: Vec<String> = (0..h)
                .map(|y| {
                    (0..w)
                        .map(|x| {
                            if walls.get(x, y) {
                                '#'
                            } else if v.contested.get(x, y) {
                                '+'
                            } else {
                                v.owned
                                    .iter()
                                    .position(|o| o.get(x, y))
                                    .map_or('.', |i| (b'A' + i as u8) as char)
                            }
                        })
                        .collect()
                })
                .collect();
            let mut players = serde_json::Map::new();
            for (i, o) in v.owned.iter().enumerate() {
                players.insert(((b'A' + i as u8) as char).to_string(), o.count().into());
            }
            let unreachable = (0..w * h)
                .filter(|&i| !walls.get(i % w, i / w) && v.depth[i].is_none())
                .count();
            let want = json!({
                "players": Value::Object(players),
                "contested": v.contested.count(),
                "unreachable": unreachable,
                "owner": owner,
                "legend": { "contested": "+", "unreachable": ".", "wall": "#" },
            });
            assert_eq!(
                ok_out(&["voronoi", "--json"], &text),
                old_json(&want),
                "{w}x{h} {p}%"
            );
        }
    }
}

#[test]
fn reach_json_is_the_old_output() {
    let mut rng = Rng::new(13);
    for (w, h) in SIZES {
        for p in [0, 30, 70] {
            let (text, walls, sources) = random_map(&mut rng, w, h, p, 3);
            let pieces = union(&sources, w, h);
            let free = not(&walls).and_not(&pieces);
            for (name, moves) in [
                ("rook", Moves::Rook),
                ("queen", Moves::Queen),
                ("8", Moves::Eight),
            ] {
                let r = naive::slide::reach(&pieces, &free, moves);
                let cells: Vec<[usize; 2]> = r.cells().into_iter().map(|(x, y)| [x, y]).collect();
                let want = json!({
                    "width": w, "height": h, "moves": name, "count": r.count(), "cells": cells,
                });
                let got = ok_out(&["reach", "--json", "--moves", name], &text);
                assert_eq!(got, old_json(&want), "{w}x{h} {p}% {name}");
            }
        }
    }
}

#[test]
fn small_outputs_byte_for_byte() {
    // Captured from the implementation that built whole `serde_json::Value` objects.
    let cases: [(&[&str], &[u8], &str); 5] = [
        (&["show", "--json"], b".#.\n##.\n", "{\"count\":3,\"height\":2,\"rows\":[\".#.\",\"##.\"],\"truncated\":false,\"width\":3}\n"),
        (&["fill", "--json", "--from", "0,0"], b"..#\n.##\n#..\n", "{\"size\":3,\"cells\":[[0,0],[1,0],[0,1]]}\n"),
        (&["distance", "--json"], b"A..\n.#.\n...\n", "{\"distance\":[[0,1,2],[1,null,3],[2,3,4]]}\n"),
        (&["voronoi", "--json"], b"A...\n....\n...B\n", "{\"contested\":0,\"legend\":{\"contested\":\"+\",\"unreachable\":\".\",\"wall\":\"#\"},\"owner\":[\"AAAB\",\"AABB\",\"ABBB\"],\"players\":{\"A\":6,\"B\":6},\"unreachable\":0}\n"),
        (&["reach", "--json", "--moves", "rook"], b"....\n.Q#.\n....\n", "{\"cells\":[[1,0],[0,1],[1,2]],\"count\":3,\"height\":3,\"moves\":\"rook\",\"width\":4}\n"),
    ];
    for (args, input, want) in cases {
        assert_eq!(ok_out(args, input), want, "{args:?}");
    }
    // Characters JSON must escape, as serde_json escapes them.
    let got = ok_out(&["voronoi", "--json"], b"\"..\\\n");
    let v: Value = serde_json::from_str(&got).expect("json");
    assert_eq!(v["owner"], json!(["\"\"\\\\"]));
    assert_eq!(v["players"], json!({ "\"": 2, "\\": 2 }));
}

/// A PBM (P4) noise image of `w` x `h` written to the test folder.
fn noise_pbm(name: &str, w: usize, h: usize) -> String {
    let mut rng = Rng::new(w as u64 * 31 + h as u64);
    let mut bytes = format!("P4\n{w} {h}\n").into_bytes();
    bytes.extend((0..w.div_ceil(8) * h).map(|_| rng.next() as u8));
    let path = tmp(name);
    std::fs::write(&path, bytes).expect("write pbm");
    path.to_str().expect("path").to_string()
}

#[test]
fn closed_standard_output_is_a_clean_exit() {
    let pbm = noise_pbm("stream-pipe.pbm", 600, 600);
    for args in [
        vec!["components", "--json", pbm.as_str()],
        vec!["show", "--full", pbm.as_str()],
        vec![
            "distance",
            "--json",
            "--from",
            "0,0",
            "--moves",
            "8",
            pbm.as_str(),
        ],
        vec![
            "reach",
            "--json",
            "--moves",
            "queen",
            "--from",
            "1,1",
            "--from",
            "300,300",
            pbm.as_str(),
        ],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gridbits"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn gridbits");
        // Read a little, as `| head -c 100` does, then close the pipe (the output is far
        // larger than a pipe's buffer, so the writer meets the closed pipe).
        let mut stdout = child.stdout.take().expect("stdout");
        let mut head = [0u8; 100];
        let _ = stdout.read(&mut head);
        drop(stdout);
        let out = child.wait_with_output().expect("wait");
        let err = String::from_utf8_lossy(&out.stderr);
        // `--from` cells may be walls of the noise: then it is a usage error, not a pipe.
        if err.contains("is a wall") && args[0] != "components" && args[0] != "show" {
            continue;
        }
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

#[test]
fn no_progress_output_when_standard_error_is_not_a_terminal() {
    // 4096 x 4096 cells: large enough for a progress indicator on a terminal.
    let pbm = noise_pbm("stream-progress.pbm", 4096, 4096);
    for args in [
        vec!["components", "--summary", pbm.as_str()],
        vec!["components", pbm.as_str()],
        vec!["fill", "--from", "0,0", "--invert", pbm.as_str()],
    ] {
        let o = gridbits(&args, b"");
        let err = stderr(&o);
        if err.contains("blocked cell") {
            continue;
        }
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        assert!(o.stderr.is_empty(), "{args:?}: {err}");
        assert!(!o.stdout.is_empty());
    }
}

#[test]
fn progress_on_a_terminal_names_the_phase_and_is_cleared() {
    // `script` runs the command with a terminal as standard error (util-linux; skipped
    // where it is missing).
    let pbm = noise_pbm("stream-progress-tty.pbm", 4096, 4096);
    let json = tmp("stream-progress-tty.json");
    let log = tmp("stream-progress-tty.log");
    let command = format!(
        "{} components --summary --json {pbm} > {}",
        env!("CARGO_BIN_EXE_gridbits"),
        json.display()
    );
    let Ok(status) = Command::new("script")
        .args(["-qec", &command])
        .arg(&log)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    else {
        return;
    };
    assert!(status.success());
    let terminal = String::from_utf8_lossy(&std::fs::read(&log).expect("log")).into_owned();
    assert!(terminal.contains("counting components"), "{terminal}");
    // Nothing of it in the result, which is whole.
    let out = std::fs::read(&json).expect("json");
    let v: Value = serde_json::from_slice(&out).expect("json output");
    assert!(v["count"].as_u64().expect("count") > 0);
    assert!(!String::from_utf8_lossy(&out).contains("counting"));
}
