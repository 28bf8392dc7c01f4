//! Helpers shared by the end-to-end tests: run the `gridbits` binary, read its output,
//! check errors, make temporary files.
#![allow(dead_code)] // each test file uses its own subset

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `gridbits ARGS` with `stdin` as standard input.
pub fn gridbits(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridbits"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn gridbits");
    // The child may exit before reading everything (e.g. on a usage error).
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    child.wait_with_output().expect("wait gridbits")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Standard output parsed as JSON, after checking for success.
pub fn json(o: &Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(o));
    serde_json::from_slice(&o.stdout).expect("json on stdout")
}

/// Asserts exit status 2, an `error: ...` on stderr containing `needle`, nothing on stdout
/// and no panic.
pub fn assert_error(o: &Output, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(err.starts_with("error: "), "stderr: {err}");
    assert!(err.contains(needle), "expected {needle:?} in {err:?}");
    assert!(!err.contains("panicked"), "stderr: {err}");
    assert!(o.stdout.is_empty(), "stdout: {}", stdout(o));
}

/// A path in this test run's own temporary folder.
pub fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gridbits-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// A PNG whose `#` cells are white (set = wall) and others black.
pub fn walls_png(rows: &[&str]) -> Vec<u8> {
    let (w, h) = (rows[0].len() as u32, rows.len() as u32);
    let img = image::GrayImage::from_fn(w, h, |x, y| {
        image::Luma([if rows[y as usize].as_bytes()[x as usize] == b'#' {
            255
        } else {
            0
        }])
    });
    let mut out = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .expect("encode");
    out
}
