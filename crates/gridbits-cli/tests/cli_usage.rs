//! End-to-end tests of the command line itself: version, bare invocation, completions, help
//! text, neighbourhood flag names and `--png` targets. The bench is the `gridbits-bench` crate,
//! tested there; here only that `gridbits bench` runs it.

use crate::common::*;

const COMMANDS: [&str; 12] = [
    "show",
    "demo",
    "components",
    "fill",
    "distance",
    "voronoi",
    "reach",
    "amazons",
    "tetris",
    "puyo",
    "completions",
    "bench",
];

#[test]
fn version() {
    let o = gridbits(&["--version"], b"");
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("gridbits "), "{}", stdout(&o));
    assert!(stdout(&o)
        .trim()
        .split(' ')
        .nth(1)
        .is_some_and(|v| v.contains('.')));
}

#[test]
fn bare_invocation_prints_help_to_stdout() {
    let o = gridbits(&[], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Usage: gridbits") && out.contains("Commands:"),
        "{out}"
    );
    assert_eq!(out, stdout(&gridbits(&["-h"], b"")));
}

#[test]
fn completions_for_each_shell() {
    for (shell, needle) in [
        ("bash", "_gridbits()"),
        ("zsh", "#compdef gridbits"),
        ("fish", "complete -c gridbits"),
    ] {
        let o = gridbits(&["completions", shell], b"");
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains(needle), "{shell}");
        assert!(
            out.contains("threshold") && out.contains("voronoi"),
            "{shell}"
        );
    }
    let o = gridbits(&["completions", "tcsh"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error: "));
}

#[test]
fn every_command_has_an_example_and_no_internal_references() {
    let mut all = stdout(&gridbits(&["--help"], b""));
    for cmd in COMMANDS {
        let o = gridbits(&["help", cmd], b"");
        assert_eq!(o.status.code(), Some(0), "{cmd}");
        let out = stdout(&o);
        assert!(out.contains("Example"), "help {cmd}: {out}");
        assert!(
            out.contains(&format!("gridbits {cmd}")),
            "help {cmd}: {out}"
        );
        all.push_str(&out);
    }
    let lower = all.to_lowercase();
    for word in ["cli.md", "games.md", "../shared", "seed", "issue"] {
        assert!(!lower.contains(word), "help mentions {word:?}");
    }
}

#[test]
fn image_options_only_on_image_commands() {
    for cmd in [
        "show",
        "components",
        "fill",
        "distance",
        "voronoi",
        "reach",
        "tetris",
    ] {
        let out = stdout(&gridbits(&["help", cmd], b""));
        assert!(
            out.contains("--threshold") && out.contains("--invert"),
            "{cmd}"
        );
    }
    let o = gridbits(&["amazons", "--invert"], b"");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn both_neighbourhood_names_everywhere() {
    let grid = b"#.#\n.#.\n#.#\n";
    let by = |args: &[&str]| json(&gridbits(args, grid));
    let a = by(&["components", "--json", "--connectivity", "8"]);
    let b = by(&["components", "--json", "--moves", "8"]);
    assert_eq!(a, b);
    assert_eq!(a["count"], 1);
    let free = b"...\n.#.\n...\n";
    let fill = |args: &[&str]| json(&gridbits(args, free));
    assert_eq!(
        fill(&["fill", "--from", "0,0", "--json", "--moves", "8"]),
        fill(&["fill", "--from", "0,0", "--json", "--connectivity", "8"])
    );
    let src = b"A..\n.#.\n...\n";
    for cmd in ["distance", "voronoi", "reach"] {
        for m in ["4", "8", "rook", "bishop", "queen"] {
            let a = json(&gridbits(&[cmd, "--json", "--moves", m], src));
            let b = json(&gridbits(&[cmd, "--json", "--connectivity", m], src));
            assert_eq!(a, b, "{cmd} {m}");
        }
    }
    let o = gridbits(&["distance", "--moves", "knight"], src);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("4, 8, rook, bishop or queen"),
        "{}",
        stderr(&o)
    );
    let o = gridbits(&["fill", "--from", "0,0", "--moves", "queen"], free);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("4 or 8"), "{}", stderr(&o));
}

#[test]
fn png_must_be_png_or_stdout() {
    let grid = b"A.#\n...\n#.B\n";
    let jpg = tmp("out.jpg");
    let jpg = jpg.to_str().unwrap();
    for args in [
        vec!["show", "--png", jpg],
        vec!["fill", "--from", "1,1", "--png", jpg],
        vec!["voronoi", "--png", jpg],
        vec!["components", "--png", jpg],
    ] {
        assert_error(&gridbits(&args, grid), "must end in .png");
    }
    assert!(!std::path::Path::new(jpg).exists());
    assert_error(
        &gridbits(&["show", "--png", "-", "--json"], grid),
        "cannot go with --json",
    );
}

#[test]
fn png_to_standard_output() {
    let grid = b"#..\n.#.\n..#\n";
    for args in [
        vec!["show", "--png", "-"],
        vec!["fill", "--from", "1,0", "--png", "-"],
        vec!["voronoi", "--png", "-"],
        vec!["components", "--png", "-"],
    ] {
        let o = gridbits(&args, grid);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.starts_with(b"\x89PNG\r\n\x1a\n"), "{args:?}");
        let img = image::load_from_memory(&o.stdout).expect("decodes");
        assert_eq!((img.width(), img.height()), (3, 3));
    }
    // What `show --png -` writes reads back as the same grid.
    let o = gridbits(&["show", "--png", "-"], grid);
    let back = gridbits(&["show"], &o.stdout);
    assert_eq!(stdout(&back), "size: 3x3\nset: 3\n#..\n.#.\n..#\n");
}

#[test]
fn show_json_says_whether_rows_are_included() {
    let v = json(&gridbits(&["show", "--json"], b"#.\n"));
    assert_eq!(v["truncated"], false);
    assert_eq!(v["rows"], serde_json::json!(["#."]));
    let wide = format!("{}\n", ".".repeat(300));
    let v = json(&gridbits(&["show", "--json"], wide.as_bytes()));
    assert_eq!(v["truncated"], true);
    assert!(v.get("rows").is_none());
    let v = json(&gridbits(&["show", "--json", "--full"], wide.as_bytes()));
    assert_eq!(v["truncated"], false);
    assert_eq!(v["rows"][0].as_str().map(str::len), Some(300));
}

/// A copy of the `gridbits` binary alone in a folder of its own (`name`), so that what
/// stands next to it is up to the test.
fn lone_gridbits(name: &str) -> std::path::PathBuf {
    let dir = tmp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("folder");
    let exe = dir.join(format!("gridbits{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(env!("CARGO_BIN_EXE_gridbits"), &exe).expect("copy gridbits");
    exe
}

/// Runs `exe ARGS`. A program written a moment ago can be "busy" while another test
/// thread's child still holds it open between its fork and its exec: tried again then.
fn run_fresh(exe: &std::path::Path, args: &[&str]) -> std::process::Output {
    for _ in 0..20 {
        match std::process::Command::new(exe).args(args).output() {
            Ok(o) if !String::from_utf8_lossy(&o.stderr).contains("Text file busy") => return o,
            Ok(_) => {}
            Err(e) if e.raw_os_error() == Some(26) => {} // ETXTBSY
            Err(e) => panic!("run {}: {e}", exe.display()),
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("{} stayed busy", exe.display());
}

#[test]
fn bench_without_the_harness_says_how_to_build_it() {
    // `gridbits bench` runs the `gridbits-bench` program of its own folder; without one it
    // is an error (exit status 2) naming the cargo command that builds it.
    let exe = lone_gridbits("bench-missing");
    let o = run_fresh(&exe, &["bench", "--quick"]);
    assert_error(&o, "cargo build --release -p gridbits-bench");
    assert!(stderr(&o).contains("gridbits-bench"), "{}", stderr(&o));
    let help = stdout(&gridbits(&["--help"], b""));
    assert!(help.contains("bench"), "{help}");
}

#[cfg(unix)]
#[test]
fn bench_passes_its_arguments_and_exit_status_through() {
    use std::os::unix::fs::PermissionsExt;
    let exe = lone_gridbits("bench-fake");
    // A stand-in harness: prints its arguments, exits with status 3.
    let fake = exe.with_file_name("gridbits-bench");
    std::fs::write(&fake, "#!/bin/sh\necho \"args: $*\"\nexit 3\n").expect("script");
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let o = run_fresh(
        &exe,
        &[
            "bench",
            "--quick",
            "--json",
            "--filter",
            "fill 1024",
            "--help",
        ],
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "args: --quick --json --filter fill 1024 --help\n"
    );
}
