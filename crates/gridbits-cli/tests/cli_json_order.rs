//! The order of JSON keys, as docs/cli.md states it: sorted, except in `fill`, `transform`,
//! `skeleton` and `regionprops`, whose order the page lists; and the page's JSON examples
//! are the commands' output.

use crate::common::{gridbits, stdout};

/// docs/cli.md.
fn docs() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/cli.md");
    std::fs::read_to_string(path).expect("read docs/cli.md")
}

/// The keys of the outermost object of compact JSON `text`, in order.
fn top_keys(text: &str) -> Vec<String> {
    let (mut depth, mut keys, mut in_str, mut escaped) = (0, Vec::new(), false, false);
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    in_str = false;
                    if depth == 1 && chars.peek() == Some(&':') {
                        keys.push(std::mem::take(&mut current));
                    }
                    current.clear();
                }
                _ => current.push(c),
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            _ => {}
        }
    }
    keys
}

/// The JSON output of `args` on `stdin`.
fn run(args: &[&str], stdin: &[u8]) -> String {
    let o = gridbits(args, stdin);
    assert_eq!(o.status.code(), Some(0), "{args:?}");
    stdout(&o).trim_end().to_string()
}

#[test]
fn json_keys_are_in_the_documented_order() {
    let docs = docs();
    let grid = b".#.\n##.\n";
    // In a fixed order: the page names it.
    for (name, args) in [
        ("fill", &["fill", "--from", "0,0", "--json"][..]),
        ("transform", &["transform", "--json"]),
        ("skeleton", &["skeleton", "--json"]),
        ("regionprops", &["regionprops", "--json"]),
    ] {
        let keys = top_keys(&run(args, grid));
        let listed: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
        let text = format!("`{name}` ({}", listed.join(", "));
        let flat = docs.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(&text), "docs/cli.md does not say {text}");
    }
    // Sorted everywhere else.
    for (args, stdin) in [
        (&["show", "--json"][..], &grid[..]),
        (&["components", "--json"], grid),
        (&["morph", "dilate", "--json"], grid),
        (&["tetris", "--json"], grid),
        (&["distance", "--json"], b"A.\n.#\n"),
        (&["voronoi", "--json"], b"A.\n.B\n"),
        (&["reach", "--json"], b"Q.\n.#\n"),
        (&["puyo", "--json"], b"RRRR..\n"),
    ] {
        let keys = top_keys(&run(args, stdin));
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted, "{args:?}");
    }
}

#[test]
fn the_json_examples_are_the_output() {
    let docs = docs();
    for (args, stdin) in [
        (&["show", "--json"][..], &b".#.\n##.\n"[..]),
        (&["fill", "--from", "0,0", "--json"], b"..#\n.##\n#..\n"),
        (
            &["skeleton", "--json"],
            b".....\n.###.\n.###.\n.###.\n.....\n",
        ),
        (
            &["fill", "--from", "0,0", "--count", "--json"],
            b"..#\n.##\n#..\n",
        ),
    ] {
        let out = run(args, stdin);
        assert!(
            docs.contains(&format!("`{out}`")),
            "docs/cli.md lacks the output of {args:?}: {out}"
        );
    }
    let legend = run(&["voronoi", "--json"], b"A.\n.B\n");
    let legend = &legend[legend.find("\"legend\":").expect("legend") + 9..];
    let legend = &legend[..=legend.find('}').expect("end")];
    assert!(docs.contains(&format!("`{legend}`")), "{legend}");
}
