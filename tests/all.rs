//! The integration tests, one module a concern, built as one test binary:
//! one link of the library instead of one a file, and every test run in
//! one pool of threads. `cargo test --test all ludii::` runs one module;
//! a new file in `tests/` is declared here (`every_test_file_is_a_module`
//! says so when it is not: `autotests` is off in `Cargo.toml`). The one
//! file apart, `fuzz_corpus.rs`, is its own binary: the fuzz targets lower
//! the work a turn may do for the whole process.

mod common;

mod actions;
mod allocations;
mod analyze;
mod bao_clauses;
mod bao_descriptions;
mod bao_oracles;
mod book;
mod catalogue;
mod cli;
mod composition;
mod generality;
mod inputs;
mod kalah_openspiel;
mod layout;
mod ludii;
mod matches;
mod messages;
mod moments;
mod mutations;
mod no_game_names;
mod omweso;
mod oware_match;
mod oware_openspiel;
mod play;
mod primitives;
mod properties;
mod results;
mod serve;
mod snapshots;
mod solve;
mod svg;
mod transcripts;
mod wari;

/// Every `tests/*.rs` beside this file is one of its modules or a test
/// target of its own in `Cargo.toml`: with `autotests` off, a file left
/// out would compile and run nowhere.
#[test]
fn every_test_file_is_a_module() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests");
    let this = include_str!("all.rs");
    let manifest = include_str!("../Cargo.toml");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(module) = name.strip_suffix(".rs") {
            let declared = this.contains(&format!("\nmod {module};\n"))
                || manifest.contains(&format!("path = \"tests/{name}\""));
            if !declared {
                missing.push(name);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "neither tests/all.rs nor Cargo.toml declares {missing:?}"
    );
}
