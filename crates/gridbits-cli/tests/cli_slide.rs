//! End-to-end tests of `gridbits reach` and `gridbits amazons`.

use crate::common::*;

const OPENING: &[u8] = b"...B..B...\n..........\n..........\nB........B\n..........\n\
                         ..........\nW........W\n..........\n..........\n...W..W...\n";

#[test]
fn reach_every_moves_value() {
    let grid = b"..#..\n.Q...\n....R\n";
    let cells = |moves: &str| -> Vec<(u64, u64)> {
        let v = json(&gridbits(&["reach", "--moves", moves, "--json"], grid));
        assert_eq!(
            v["count"].as_u64().unwrap() as usize,
            v["cells"].as_array().unwrap().len()
        );
        v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c[0].as_u64().unwrap(), c[1].as_u64().unwrap()))
            .collect()
    };
    // Q on (1, 1) and R on (4, 2), a wall on (2, 0); pieces block each other.
    assert_eq!(
        cells("rook"),
        vec![
            (1, 0),
            (4, 0),
            (0, 1),
            (2, 1),
            (3, 1),
            (4, 1),
            (0, 2),
            (1, 2),
            (2, 2),
            (3, 2)
        ]
    );
    assert_eq!(cells("bishop"), vec![(0, 0), (3, 1), (0, 2), (2, 2)]);
    assert_eq!(
        cells("4"),
        vec![(1, 0), (0, 1), (2, 1), (4, 1), (1, 2), (3, 2)]
    );
    assert_eq!(cells("8").len(), 10);
    let queen = cells("queen");
    assert_eq!(
        queen,
        cells("rook")
            .into_iter()
            .chain(cells("bishop"))
            .fold(Vec::new(), |mut v, c| {
                if !v.contains(&c) {
                    v.push(c);
                }
                v.sort_by_key(|&(x, y)| (y, x));
                v
            })
    );
    // Queen is the default.
    let v = json(&gridbits(&["reach", "--json"], grid));
    assert_eq!(v["moves"], "queen");
}

#[test]
fn reach_text_output_redraws_the_grid() {
    let o = gridbits(&["reach", "--moves", "rook"], b"..#..\n.Q...\n....R\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "reach (rook moves): 10 cells (*)\n.*#.*\n*Q***\n****R\n"
    );
}

#[test]
fn reach_errors() {
    assert_error(&gridbits(&["reach"], b"...\n..\n"), "line 2, column 3");
    assert_error(&gridbits(&["reach"], b""), "empty grid");
    let o = gridbits(&["reach", "--moves", "knight"], b"Q.\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("knight"));
    let png = std::env::temp_dir().join(format!("gridbits-reach-{}.png", std::process::id()));
    let o = gridbits(&["show", "--png", png.to_str().unwrap()], b"#.\n.#\n");
    assert_eq!(o.status.code(), Some(0));
    assert_error(
        &gridbits(&["reach", png.to_str().unwrap()], b""),
        "needs pieces: give --from X,Y",
    );
}

#[test]
fn reach_on_a_wide_grid() {
    // 130 columns: rows span three words; a rook crosses them.
    let mut rows = vec![".".repeat(130); 3];
    rows[1].replace_range(0..1, "R");
    let text = rows.join("\n");
    let v = json(&gridbits(
        &["reach", "--moves", "rook", "--json"],
        text.as_bytes(),
    ));
    assert_eq!(v["count"], 129 + 2);
}

#[test]
fn amazons_json_counts() {
    let v = json(&gridbits(&["amazons", "--json"], OPENING));
    for metric in ["queen", "king"] {
        let t = &v[metric];
        let sum: u64 = ["W", "B", "contested", "unreachable"]
            .iter()
            .map(|k| t[k].as_u64().unwrap())
            .sum();
        assert_eq!(sum, 92, "{metric}: {t}");
        assert_eq!(t["W"], t["B"]);
    }
    assert_eq!(v["queen"]["unreachable"], 0);
    assert_eq!(
        v["king"],
        serde_json::json!({"W": 38, "B": 38, "contested": 16, "unreachable": 0})
    );
}

#[test]
fn amazons_text_shows_the_territory() {
    let o = gridbits(&["amazons"], OPENING);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("position     queen        king\n"), "{out}");
    assert!(
        out.contains("...W..W...   wwwWwwWwww   wwwWwwWwww"),
        "{out}"
    );
    assert!(
        out.contains("king   W 38  B 38  contested 16  unreachable  0"),
        "{out}"
    );
}

#[test]
fn amazons_accepts_any_number_of_amazons_and_x_arrows() {
    let text = b"WWWWWWxxxx\n..........\n..........\n..........\n..........\n\
                 ..........\n..........\n..........\n..........\n#########B\n";
    let v = json(&gridbits(&["amazons", "--json"], text));
    assert_eq!(v["queen"]["unreachable"], 0);
    let none = b"..........\n".repeat(10);
    let v = json(&gridbits(&["amazons", "--json"], &none));
    assert_eq!(v["queen"]["unreachable"], 100);
}

#[test]
fn amazons_errors() {
    let nine = b"..........\n".repeat(9);
    assert_error(
        &gridbits(&["amazons"], &nine),
        "line 10, column 1: grid is 10x9, expected 10x10",
    );
    let mut bad = OPENING.to_vec();
    bad[11 * 2 + 4] = b'Q';
    assert_error(
        &gridbits(&["amazons"], &bad),
        "line 3, column 5: unknown character 'Q'",
    );
    assert_error(
        &gridbits(&["amazons"], b"W.B\n"),
        "line 1, column 4: grid is 3x1",
    );
    assert_error(&gridbits(&["amazons"], b"..\t\n"), "line 1, column 3: tab");
    assert_error(
        &gridbits(&["amazons", "/nonexistent/p.txt"], b""),
        "cannot read",
    );
}
