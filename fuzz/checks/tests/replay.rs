//! Replays every file of the committed fuzz corpus (`fuzz/corpus/TARGET/*`) through the
//! target's check: each input the fuzzer found stays fixed.

use gridbits_fuzz_checks::TARGETS;
use std::path::Path;

#[test]
fn corpus_replays_clean() {
    // Fixed boards of 64 x 64 cells take large stack frames in unoptimised builds: replay on
    // a thread with room for them.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(replay_all)
        .expect("a replay thread")
        .join()
        .expect("the replay passes");
}

fn replay_all() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut total = 0;
    for &(name, check) in TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no seed for target {name}");
        for path in files {
            let data = std::fs::read(&path).expect("a readable corpus file");
            let run = std::panic::catch_unwind(|| check(&data));
            assert!(run.is_ok(), "{name}: {} fails its check", path.display());
            total += 1;
        }
    }
    assert!(total >= TARGETS.len());
}

#[test]
fn every_target_has_a_fuzz_target() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz_targets");
    for &(name, _) in TARGETS {
        let src = std::fs::read_to_string(dir.join(format!("{name}.rs")))
            .unwrap_or_else(|e| panic!("fuzz target {name}: {e}"));
        assert!(
            src.contains("gridbits_fuzz_checks::"),
            "{name} calls its check"
        );
    }
}
