//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod bao;
pub mod bin;

use std::path::PathBuf;
use std::sync::Arc;

use sow::{Engine, Game, Position, Turn, Variant};

/// A variant whose turn relays for ever without repeating (its rules read
/// `sowings` in a sum, so no two states look alike): only the engine's
/// work limit stops it (found by fuzzing).
pub const NEVER_ENDING_TURN: &str = "variant slow
players south north
board {
  row north: f e d c b a
  row south: A B C D E F
}
setup {
  seeds 4
}
track: A B C D E F a b c d e f
rule own at start {
  require owner(origin) == mover and seeds(origin) > 0
}
rule go at land when sowings * 0 + count(board, seeds(here) >= 0) > 0 {
  relay
}
end never when false
";

/// A path under the project's oracle data, `tests/oracles/`: a test whose
/// file is missing fails saying which.
pub fn oracle(path: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oracles");
    oracle_in(&root, path).unwrap_or_else(|e| panic!("{e}"))
}

/// A path under an oracle folder, or which file is missing from it.
pub fn oracle_in(root: &std::path::Path, path: &str) -> Result<PathBuf, String> {
    let p = root.join(path);
    match p.exists() {
        true => Ok(p),
        false => Err(format!(
            "the oracle file {path} is missing from {}",
            root.display()
        )),
    }
}

/// The text of a gzip file (the oracle data): a test whose file is
/// missing or damaged fails saying which.
pub fn gunzip(path: &std::path::Path) -> String {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(file), &mut text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text
}

/// Reads a JSON Lines file.
pub fn jsonl(path: &std::path::Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// A shipped variant.
pub fn shipped(name: &str) -> Variant {
    Variant::shipped(name).unwrap_or_else(|| panic!("shipped variant {name} loads"))
}

/// The cell index of a pit label.
pub fn cell(engine: &Engine, label: &str) -> usize {
    engine
        .rules
        .pits
        .iter()
        .position(|p| p.label == label)
        .unwrap_or_else(|| panic!("no pit {label}"))
}

/// The seeds of the given labels, in that order.
pub fn counts(game: &Game, labels: &[&str]) -> Vec<u32> {
    labels
        .iter()
        .map(|l| game.position().cells[cell(game.engine(), l)])
        .collect()
}

/// A game from seeds given in the order of `labels`.
pub fn game_from(
    engine: &Arc<Engine>,
    labels: &[&str],
    seeds: &[u32],
    stores: [u32; 2],
    to_move: u8,
) -> Game {
    let mut cells = vec![0; engine.cells()];
    for (l, &s) in labels.iter().zip(seeds) {
        cells[cell(engine, l)] = s;
    }
    let n = engine.rules.pits.len();
    cells[n] = stores[0];
    cells[n + 1] = stores[1];
    let pos = Position {
        cells,
        hands: [0, 0],
        to_move: Some(to_move),
        vars: engine.start_position().vars,
    };
    Game::from_position(engine.clone(), pos, Vec::new()).expect("a position that settles")
}

/// The legal turn written as `text`.
pub fn turn(game: &Game, text: &str) -> Turn {
    sow::notation::parse_turn(game, text).unwrap_or_else(|d| panic!("{text}: {d}"))
}

/// The labels of the legal turns, sorted.
pub fn legal_labels(game: &Game) -> Vec<String> {
    let mut v: Vec<String> = game
        .legal_turns()
        .iter()
        .map(|&t| sow::notation::write_turn(game, t))
        .collect();
    v.sort();
    v
}

/// What a shipped variant's file names as its rules: the first rules page
/// it cites (`docs/rules/….md`), or else the variant it builds on.
pub enum Cites {
    Page(&'static str),
    Base(&'static str),
}

pub fn cites(name: &str) -> Cites {
    let file = sow::variants::source(name).unwrap_or_else(|| panic!("no variant {name}"));
    let words = || file.split(|c: char| c.is_whitespace() || "(),".contains(c));
    if let Some(page) = words().find(|w| w.starts_with("docs/rules/") && w.ends_with(".md")) {
        return Cites::Page(page);
    }
    match words().skip_while(|w| *w != "extends").nth(1) {
        Some(base) => Cites::Base(base),
        None => panic!("{name}: its file cites no rules page"),
    }
}
