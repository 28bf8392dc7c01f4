//! End-to-end tests of `gridbits fill`, `distance` and `voronoi`.

use crate::common::{assert_error, gridbits, json, stderr};

use serde_json::{json, Value};

fn ok_json(args: &[&str], stdin: &[u8]) -> Value {
    json(&gridbits(args, stdin))
}

fn ok_text(args: &[&str], stdin: &[u8]) -> String {
    let o = gridbits(args, stdin);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    String::from_utf8(o.stdout).expect("utf8")
}

fn assert_fails(args: &[&str], stdin: &[u8], needle: &str) {
    assert_error(&gridbits(args, stdin), needle);
}

const ROOM: &[u8] = b"..#.\n..#.\n.##.\n....\n";

#[test]
fn fill_json_and_text() {
    let v = ok_json(
        &["fill", "--from", "0,0", "--json"],
        b"..#.\n..#.\n###.\n....\n",
    );
    assert_eq!(v["size"], 4);
    assert_eq!(v["cells"], json!([[0, 0], [1, 0], [0, 1], [1, 1]]));
    let t = ok_text(&["fill", "--from", "3,0"], ROOM);
    assert_eq!(
        t,
        "filled 12 cells (o) from (3, 0), 4-connected\noo#o\noo#o\no##o\noooo\n"
    );
}

#[test]
fn fill_count_prints_the_number_alone() {
    let grid = b"..#.\n..#.\n###.\n....\n";
    let v = ok_json(&["fill", "--from", "0,0", "--count", "--json"], grid);
    assert_eq!(v, json!({"size": 4}));
    let t = ok_text(&["fill", "--from", "3,3", "--count"], grid);
    assert_eq!(t, "filled 7 cells from (3, 3), 4-connected\n");
    let v = ok_json(
        &["fill", "--from", "0,0", "--count", "--moves", "8", "--json"],
        b".#\n#.\n",
    );
    assert_eq!(v["size"], 2);
    assert_fails(
        &["fill", "--from", "2,0", "--count"],
        grid,
        "--from 2,0 is a blocked cell ('#')",
    );
    assert_fails(
        &["fill", "--from", "0,0", "--count", "--png", "out.png"],
        grid,
        "--png",
    );
}

/// `--count` agrees with the cells `--json` lists, on a noise grid larger than the count's
/// first windows (2048 x 1100: 17,600 words), from pockets and from the large region.
#[test]
fn fill_count_agrees_with_the_cells_on_a_large_grid() {
    let (w, h) = (2048usize, 1100usize);
    let mut s = 7u64;
    let mut text = Vec::with_capacity((w + 1) * h);
    for _ in 0..h {
        for _ in 0..w {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            text.push(if s % 100 < 45 { b'#' } else { b'.' });
        }
        text.push(b'\n');
    }
    let free: Vec<(usize, usize)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| text[y * (w + 1) + x] == b'.')
        .step_by(250_000)
        .collect();
    for (x, y) in free {
        for conn in ["4", "8"] {
            let from = format!("{x},{y}");
            let base = ["fill", "--from", &from, "--moves", conn, "--json"];
            let counted = ok_json(&[&base[..], &["--count"]].concat(), &text);
            let listed = ok_json(&base, &text);
            assert_eq!(
                counted["size"], listed["size"],
                "from {from}, {conn}-connected"
            );
            assert_eq!(
                listed["cells"].as_array().map(Vec::len),
                listed["size"].as_u64().map(|n| n as usize)
            );
        }
    }
}

#[test]
fn fill_eight_connected_crosses_diagonals() {
    let grid = b".#\n#.\n";
    assert_eq!(
        ok_json(&["fill", "--from", "0,0", "--json"], grid)["size"],
        1
    );
    let v = ok_json(
        &["fill", "--from", "0,0", "--connectivity", "8", "--json"],
        grid,
    );
    assert_eq!(v["size"], 2);
}

#[test]
fn fill_from_a_blocked_cell_is_an_error() {
    assert_fails(
        &["fill", "--from", "2,0", "--json"],
        ROOM,
        "--from 2,0 is a blocked cell ('#')",
    );
}

#[test]
fn fill_errors() {
    assert_fails(&["fill", "--from", "4,0"], ROOM, "outside the 4x4 grid");
    assert_fails(&["fill", "--from", "1;2"], ROOM, "X,Y");
    assert_fails(&["fill", "--from", "-1,2"], ROOM, "X,Y");
    assert_fails(&["fill"], ROOM, "--from");
    assert_fails(&["fill", "--from", "0,0"], b"..\n...\n", "line 2, column 3");
    assert_fails(&["fill", "--from", "0,0", "--connectivity", "6"], ROOM, "6");
}

#[test]
fn fill_reads_images() {
    let dir = std::env::temp_dir().join(format!("gridbits-cli-fill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pbm = dir.join("wall.pbm");
    // 1 = black = blocked: a wall in column 1.
    std::fs::write(&pbm, b"P1\n3 2\n0 1 0\n0 1 0\n").unwrap();
    let v = ok_json(
        &["fill", "--from", "0,0", "--json", pbm.to_str().unwrap()],
        b"",
    );
    assert_eq!(v["size"], 2);
    let png = dir.join("filled.png");
    ok_text(
        &[
            "fill",
            "--from",
            "2,1",
            "--png",
            png.to_str().unwrap(),
            pbm.to_str().unwrap(),
        ],
        b"",
    );
    let back = ok_json(&["show", "--json", png.to_str().unwrap()], b"");
    assert_eq!(back["rows"], json!(["..#", "..#"]));
}

#[test]
fn distance_json() {
    let v = ok_json(&["distance", "--json"], b"A.#.\n..#.\n....\n");
    assert_eq!(
        v["distance"],
        json!([[0, 1, null, 7], [1, 2, null, 6], [2, 3, 4, 5]])
    );
    // Two sources: each cell takes the nearer.
    let v = ok_json(&["distance", "--json"], b"A..B\n");
    assert_eq!(v["distance"], json!([[0, 1, 1, 0]]));
    // Walled off: null.
    let v = ok_json(&["distance", "--json"], b"A#.\n");
    assert_eq!(v["distance"], json!([[0, null, null]]));
}

#[test]
fn distance_moves() {
    let grid = b"A...\n....\n....\n";
    let four = ok_json(&["distance", "--json"], grid);
    assert_eq!(four["distance"][2][3], 5);
    let eight = ok_json(&["distance", "--json", "--moves", "8"], grid);
    assert_eq!(eight["distance"][2][3], 3);
    let queen = ok_json(&["distance", "--json", "--moves", "queen"], grid);
    assert_eq!(queen["distance"][2][3], 2);
    assert_eq!(queen["distance"][0][3], 1);
    // Sources block sliding: B stops A's ray along the row.
    let v = ok_json(&["distance", "--json", "--moves", "queen"], b"A.B.\n");
    assert_eq!(v["distance"], json!([[0, 1, 0, 1]]));
}

#[test]
fn distance_text_and_errors() {
    let t = ok_text(&["distance"], b"A.#\n...\n");
    assert_eq!(
        t,
        "1 sources, 5 cells reached, largest distance 3\n0 1 #\n1 2 3\n"
    );
    assert_fails(&["distance"], b"A.\t\n", "line 1, column 3: tab");
    assert_fails(&["distance"], b"", "empty grid");
    assert_fails(&["distance", "--moves", "knight"], b"A.\n", "knight");
    assert_eq!(
        ok_text(&["distance", "--moves", "rook"], b"A..\n"),
        "1 sources, 3 cells reached, largest distance 1\n0 1 1\n"
    );
    let dir = std::env::temp_dir().join(format!("gridbits-cli-dist-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pbm = dir.join("a.pbm");
    std::fs::write(&pbm, b"P1\n1 1\n1\n").unwrap();
    assert_fails(
        &["distance", pbm.to_str().unwrap()],
        b"",
        "needs sources: give --from X,Y",
    );
}

#[test]
fn voronoi_json() {
    let v = ok_json(&["voronoi", "--json"], b"A...B\n##.##\n#...#\n");
    assert_eq!(v["players"], json!({"A": 2, "B": 2}));
    assert_eq!(v["contested"], 5);
    assert_eq!(v["unreachable"], 0);
    assert_eq!(v["owner"], json!(["AA+BB", "##+##", "#+++#"]));
    // A player walled off and an unreachable pocket.
    let v = ok_json(&["voronoi", "--json"], b"A.#C\n..#.\n###.\n.#..\n");
    assert_eq!(v["players"], json!({"A": 4, "C": 5}));
    assert_eq!(v["unreachable"], 1);
    assert_eq!(v["owner"], json!(["AA#C", "AA#C", "###C", ".#CC"]));
}

#[test]
fn voronoi_players_and_moves() {
    // Many players, characters sorted; queen moves.
    let v = ok_json(
        &["voronoi", "--json", "--moves", "queen"],
        b"1.....2\n.......\n3.....4\n",
    );
    let p = v["players"].as_object().unwrap();
    assert_eq!(p.keys().collect::<Vec<_>>(), ["1", "2", "3", "4"]);
    let total: u64 = p.values().map(|c| c.as_u64().unwrap()).sum();
    assert_eq!(total + v["contested"].as_u64().unwrap(), 21);
    // Several sources for one player.
    let v = ok_json(&["voronoi", "--json"], b"A..B..A\n");
    assert_eq!(v["owner"], json!(["AABBBAA"]));
}

#[test]
fn voronoi_text_png_and_errors() {
    let t = ok_text(&["voronoi"], b"A.B\n");
    assert_eq!(
        t,
        "player A: 1 cells\nplayer B: 1 cells\ncontested (+): 1\nunreachable (.): 0\n\nA+B\n"
    );
    let dir = std::env::temp_dir().join(format!("gridbits-cli-vor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("v.png");
    ok_text(
        &["voronoi", "--png", png.to_str().unwrap()],
        b"A..#\n...B\n",
    );
    let img = image::open(&png).expect("png").to_rgb8();
    assert_eq!(img.dimensions(), (4, 2));
    assert_eq!(img.get_pixel(3, 0).0, [48, 48, 48], "walls are dark");
    assert_ne!(
        img.get_pixel(1, 0).0,
        img.get_pixel(2, 1).0,
        "players differ"
    );
    // `+` may name a player: contested cells are then drawn with another mark.
    assert!(ok_text(&["voronoi"], b"A.+\n").ends_with("A*+\n"));
    assert_fails(&["voronoi"], b"A..\nB.\n", "line 2, column 3");
}

#[test]
fn help_has_examples() {
    for cmd in ["fill", "distance", "voronoi"] {
        let t = ok_text(&["help", cmd], b"");
        assert!(t.contains("Example"), "{cmd}: {t}");
    }
}
