//! The fuzzers' corpus (`fuzz/corpus/TARGET/`), replayed through the same
//! targets (`sow::fuzz`) as ordinary tests: each input was found or seeded
//! for the fuzzers (`fuzz/README.md`), and none may make a target panic.

use std::path::Path;

#[test]
fn the_corpus_replays_through_every_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let mut replayed = 0;
    for (name, target) in sow::fuzz::TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(files.len() >= 5, "{name}: {} inputs", files.len());
        for f in files {
            let data = std::fs::read(&f).unwrap();
            let run = std::panic::catch_unwind(|| target(&data));
            assert!(run.is_ok(), "{name}: {} made the target panic", f.display());
            replayed += 1;
        }
    }
    assert!(replayed >= 100, "{replayed} inputs replayed");
}
