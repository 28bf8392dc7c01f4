//! End-to-end tests of output files that cannot be written: every error of a write or of
//! the final flush is `error: cannot write FILE: ...` with exit status 2, for small images
//! too (their bytes sit in the writer's buffer until the flush).

use crate::common::{assert_error, gridbits, tmp};

/// A path that is a link to `/dev/full`, where every write fails with "No space left on
/// device"; `None` where there is no `/dev/full`.
#[cfg(unix)]
fn full_disk(name: &str) -> Option<String> {
    if !std::path::Path::new("/dev/full").exists() {
        return None;
    }
    let path = tmp(name);
    let _ = std::fs::remove_file(&path);
    std::os::unix::fs::symlink("/dev/full", &path).expect("symlink");
    Some(path.to_str().expect("utf8 path").to_string())
}

#[cfg(unix)]
#[test]
fn full_disk_is_an_error_for_every_output_file() {
    let Some(png) = full_disk("full.png") else {
        return;
    };
    let Some(npy) = full_disk("full.npy") else {
        return;
    };
    let grid = b".#.\n##.\n";
    let cases: Vec<(Vec<&str>, &[u8], &str)> = vec![
        (vec!["show", "--png", &png], grid, &png),
        (vec!["components", "--png", &png], grid, &png),
        (vec!["components", "--labels", &npy], grid, &npy),
        (vec!["components", "--labels", &png], grid, &png),
        (vec!["morph", "dilate", "--png", &png], grid, &png),
        (vec!["skeleton", "--png", &png], grid, &png),
        (vec!["fill", "--from", "0,0", "--png", &png], grid, &png),
        (vec!["voronoi", "--png", &png], b"A.\n.B\n", &png),
        (vec!["distance", "--png", &png], b"A.\n..\n", &png),
        (vec!["distance", "--npy", &npy], b"A.\n..\n", &npy),
        (vec!["transform", "--png", &png], grid, &png),
        (vec!["transform", "--npy", &npy], grid, &npy),
    ];
    for (args, stdin, path) in cases {
        let o = gridbits(&args, stdin);
        assert_error(&o, &format!("cannot write {path}"));
    }
}
