//! The book (`docs/book/`) and the README tell the truth: every variant
//! snippet checks, every `sow` command shown runs, and the catalogue
//! chapter is the one the variant files and the oracle data make.
//!
//! A code block's first line says what it is:
//! - ```` ```sow ````: a whole variant file, which `sow check` accepts;
//! - ```` ```sow,excerpt=PATH ````: lines of the variant file PATH, found
//!   there in the same order (comments and spacing aside);
//! - ```` ```sow,extends=NAME ````: statements that `sow check` accepts
//!   in a variant built on the shipped variant NAME;
//! - ```` ```sh ````: commands; each line that starts with `sow` runs (in a
//!   folder that holds the repository's `variants`, `docs` and `tests`, and
//!   the tutorial's `simplecapt.sow`) and exits 0;
//! - any block: a line `$ sow …` is a command shown with its output, and
//!   runs likewise.
//!
//! `SOW_BLESS=1 cargo test --test all book::` writes the catalogue chapter anew.

use crate::common;

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sow::Variant;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The documents checked: the README and every chapter of the book.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![root().join("README.md")];
    let src = root().join("docs/book/src");
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(&src)
        .unwrap_or_else(|e| panic!("{}: {e}", src.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    chapters.sort();
    docs.extend(chapters);
    docs
}

/// A fenced code block: its info string, its text, and the line it starts
/// on.
struct Block {
    info: String,
    text: String,
    line: usize,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    info: info.trim().to_string(),
                    text: String::new(),
                    line: i + 1,
                })
            }
            (Some(_), Some(_)) => out.push(open.take().unwrap()),
            (Some(b), None) => {
                b.text.push_str(line);
                b.text.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a code block is not closed");
    out
}

/// A variant line as compared: no comment, spacing folded.
fn statement_line(line: &str) -> Option<String> {
    let code = match line.trim_start().starts_with('#') {
        true => "",
        false => line.split(" #").next().unwrap_or(""),
    };
    let folded = code.split_whitespace().collect::<Vec<_>>().join(" ");
    (!folded.is_empty()).then_some(folded)
}

/// Whether a block that is not marked `sow` starts as variant text does
/// (its first line a statement), with no placeholder in capitals (a
/// syntax template such as `rule NAME at MOMENT …` may stay unchecked).
fn looks_like_a_variant(text: &str) -> bool {
    const STATEMENTS: &[&str] = &[
        "variant ", "extends ", "players ", "board ", "setup ", "track", "sow {", "rule ", "end ",
        "let ", "pit ", "region ", "score ", "option ", "var ", "phase ",
    ];
    let Some(first) = text.lines().find_map(statement_line) else {
        return false;
    };
    let placeholder = text
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .any(|w| w.len() >= 3 && w.chars().all(|c| c.is_ascii_uppercase()));
    STATEMENTS.iter().any(|s| first.starts_with(s)) && !placeholder
}

#[test]
fn a_variant_in_a_text_block_is_noticed() {
    assert!(looks_like_a_variant("board {\n  row south: A B\n}\n"));
    assert!(looks_like_a_variant(
        "# a comment\nrule r at land {\n  relay\n}\n"
    ));
    assert!(!looks_like_a_variant(
        "rule NAME at MOMENT [when CONDITION] {\n  ACTION\n}\n"
    ));
    assert!(!looks_like_a_variant("$ sow play kalah\nstart\n"));
    assert!(!looks_like_a_variant("src/lib.rs   the crate\n"));
}

fn check(name: &str, text: &str) -> Result<(), String> {
    Variant::from_source(name, text)
        .map(|_| ())
        .map_err(|e| e.render())
}

#[test]
fn every_variant_snippet_checks() {
    let mut checked = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for b in blocks(&text) {
            let at = format!("{}:{}", doc.display(), b.line);
            let mut parts = b.info.split(',');
            if parts.next() != Some("sow") {
                // (Other languages' blocks, `toml` or `sh`, are what they say.)
                let plain = matches!(b.info.as_str(), "" | "text");
                assert!(
                    !(plain && looks_like_a_variant(&b.text)),
                    "{at}: this block reads as sow but is not checked: mark it ```sow \
                     (whole, excerpt= or extends=), or write it as a template (NAME, PLACE …)"
                );
                continue;
            }
            match parts.next() {
                None => check(&at, &b.text).unwrap_or_else(|e| panic!("{at}: {e}")),
                Some(p) if p.starts_with("excerpt=") => {
                    let path = &p["excerpt=".len()..];
                    let file = std::fs::read_to_string(root().join(path))
                        .unwrap_or_else(|e| panic!("{at}: {path}: {e}"));
                    check(path, &file).unwrap_or_else(|e| panic!("{at}: {path}: {e}"));
                    let mut have = file.lines().filter_map(statement_line);
                    for want in b.text.lines().filter_map(statement_line) {
                        assert!(
                            have.any(|h| h == want),
                            "{at}: `{want}` is not in {path} (in this order)"
                        );
                    }
                }
                Some(p) if p.starts_with("extends=") => {
                    let base = &p["extends=".len()..];
                    assert!(Variant::shipped(base).is_some(), "{at}: no variant {base}");
                    let text = format!("extends {base}\nvariant book_snippet\n{}", b.text);
                    check(&at, &text).unwrap_or_else(|e| panic!("{at}: {e}"));
                }
                Some(other) => {
                    panic!("{at}: `{other}`: a sow block is whole, excerpt= or extends=")
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} snippets checked");
}

/// A folder to run the commands in: the repository's folders the
/// commands read, and the tutorial's file.
fn workdir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sow-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for d in ["variants", "docs", "tests"] {
        let link = dir.join(d);
        if !link.exists() {
            std::os::unix::fs::symlink(root().join(d), &link).unwrap();
        }
    }
    std::fs::copy(
        root().join("docs/book/src/tutorial/simplecapt.sow"),
        dir.join("simplecapt.sow"),
    )
    .unwrap();
    dir
}

/// Runs a command line as a shell would, `sow` being the binary under
/// test, expecting exit code `code`; what it printed on error, or nothing.
fn run(line: &str, dir: &Path, code: i32) -> Result<(), String> {
    let bin = Path::new(env!("CARGO_BIN_EXE_sow")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            return Err("ran for more than 120 s".into());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut err);
    match status.code() == Some(code) {
        true => Ok(()),
        false => Err(format!("{status}, not exit {code}: {err}")),
    }
}

#[test]
fn every_command_shown_runs() {
    let dir = workdir();
    let mut ran = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for b in blocks(&text) {
            for (i, line) in b.text.lines().enumerate() {
                let command = match (b.info.as_str(), line.strip_prefix("$ ")) {
                    (_, Some(c)) if c.starts_with("sow ") => c,
                    ("sh", None) if line.starts_with("sow ") => line,
                    _ => continue,
                };
                // (A comment after the command is the reader's; `# exit N`
                // says the exit code it shows.)
                let (command, comment) = command.split_once("  #").unwrap_or((command, ""));
                let command = command.trim();
                let code = comment
                    .trim()
                    .strip_prefix("exit ")
                    .map_or(0, |n| n.parse::<i32>().expect("an exit code"));
                let at = format!("{}:{}", doc.display(), b.line + 1 + i);
                run(command, &dir, code).unwrap_or_else(|e| panic!("{at}: `{command}`: {e}"));
                ran += 1;
            }
        }
    }
    assert!(ran >= 10, "only {ran} commands ran");
}

// --- The catalogue chapter ---

/// The rules page a variant's file cites first, or what it builds on.
fn rules_of(name: &str) -> String {
    match common::cites(name) {
        common::Cites::Page(page) => format!("`{page}`"),
        common::Cites::Base(base) => format!("built on `{base}` ({})", rules_of(base)),
    }
}

/// A Ludii game's proof: its Ludii name and file, the source Ludii cites
/// (its rules page's), and its data counted.
fn ludii_proof(name: &str, data: &std::path::Path) -> String {
    let text = common::gunzip(data);
    let mut lines = text.lines();
    let layout: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    let (mut games, mut positions, mut moves) = (0, 0, 0);
    for line in lines {
        match line.split(' ').next() {
            Some("g") => games += 1,
            Some("p") => {
                positions += 1;
                moves += line.split(' ').count() - 5;
            }
            _ => {}
        }
    }
    let page = std::fs::read_to_string(root().join(format!("docs/rules/ludii/{name}.md"))).unwrap();
    let source = page
        .split("\n## Source\n\n")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .unwrap_or_else(|| panic!("docs/rules/ludii/{name}.md: no source"));
    format!(
        "Ludii 1.3.12's \"{}\" (`{}`; source: {}): {games} random games, every legal move \
         of every ply ({positions} positions, {moves} moves; `tests/ludii.rs`)",
        layout["game"].as_str().unwrap(),
        layout["lud"].as_str().unwrap(),
        source.trim_end_matches('.'),
    )
}

/// What proves a variant: its oracle data counted, or its file's
/// `# Proven by:` line (which names a test file that exists).
fn proof_of(name: &str) -> String {
    let ludii = root().join(format!("tests/oracles/ludii/{name}.txt.gz"));
    if ludii.exists() {
        return ludii_proof(name, &ludii);
    }
    let data = root().join(format!("tests/oracles/catalogue/{name}.jsonl.gz"));
    if data.exists() {
        // (Only the fields counted are read: the records are large.)
        #[derive(serde::Deserialize)]
        struct Record {
            index: u64,
            moves: Vec<serde::de::IgnoredAny>,
        }
        let text = common::gunzip(&data);
        let (mut games, mut positions, mut moves) = (0, 0, 0);
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let r: Record = serde_json::from_str(line).unwrap();
            positions += 1;
            moves += r.moves.len();
            games = games.max(r.index + 1);
        }
        return format!(
            "MancalaGames 1.10.1: {games} random games, every legal move of every ply \
             ({positions} positions, {moves} moves; `tests/catalogue.rs`)"
        );
    }
    let file = sow::variants::source(name).unwrap();
    // The line, and the comment lines after it until the test is named.
    let mut proof = String::new();
    let mut reading = false;
    for l in file.lines() {
        match (
            reading,
            l.strip_prefix("# Proven by: "),
            l.strip_prefix("# "),
        ) {
            (false, Some(p), _) => {
                proof.push_str(p);
                reading = true;
            }
            (true, _, Some(more)) if !proof.ends_with(')') => {
                proof.push(' ');
                proof.push_str(more);
            }
            (true, _, _) => break,
            (false, None, _) => {}
        }
    }
    assert!(!proof.is_empty(), "{name}: no `# Proven by:` line");
    let test = proof
        .split('`')
        .find(|w| w.starts_with("tests/") && w.ends_with(".rs"))
        .unwrap_or_else(|| panic!("{name}: its proof names no test file"));
    assert!(root().join(test).exists(), "{name}: {test} does not exist");
    proof
}

fn catalogue() -> String {
    let mut out = String::from(
        "# Catalogue\n\n\
         The variants sow ships, embedded in the binary (`sow list`; sources in\n\
         `variants/`), each with its rules page and what it is proven against.\n\
         This chapter is made by `tests/book.rs` from the variant files and the\n\
         oracle data (`SOW_BLESS=1 cargo test --test all book::`); it is not edited\n\
         by hand.\n\n\
         | name | title | rules | proven against |\n|---|---|---|---|\n",
    );
    for (name, _) in sow::variants::SHIPPED {
        let v = Variant::shipped(name).unwrap();
        out.push_str(&format!(
            "| `{name}` | {} | {} | {} |\n",
            v.engine.rules.title,
            rules_of(name),
            proof_of(name)
        ));
    }
    out
}

#[test]
fn the_catalogue_chapter_is_made_from_the_variants_and_their_data() {
    let path = root().join("docs/book/src/catalogue.md");
    let made = catalogue();
    if std::env::var_os("SOW_BLESS").is_some() {
        std::fs::write(&path, &made).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == made,
        "docs/book/src/catalogue.md is out of date: run `SOW_BLESS=1 cargo test --test all book::`"
    );
}
