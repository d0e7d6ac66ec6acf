//! The layout shows the design: the engine's modules read one way, in the
//! order `src/engine/mod.rs` lists them, and each command of the command
//! line has its own file in `src/cli/`.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

/// The engine's modules in the order its documentation lists them (the
/// backquoted names on its `//! - ` lines).
fn listed_order(engine: &Path) -> Vec<String> {
    let doc = std::fs::read_to_string(engine.join("mod.rs")).expect("src/engine/mod.rs");
    let mut order = Vec::new();
    let mut in_list = false;
    for line in doc.lines().take_while(|l| l.starts_with("//!")) {
        let text = line.trim_start_matches("//!");
        if text.starts_with(" - ") {
            in_list = true;
            // Only the names before the colon: the description may quote
            // others.
            let head = text.split(':').next().unwrap_or("");
            order.extend(head.split('`').skip(1).step_by(2).map(str::to_string));
        } else if in_list && !text.starts_with("   ") {
            in_list = false;
        }
    }
    order
}

/// The engine's modules: its files and folders.
fn modules(engine: &Path) -> BTreeSet<String> {
    std::fs::read_dir(engine)
        .expect("src/engine")
        .map(|e| e.expect("an entry").path())
        .filter_map(|p| match p.extension() {
            Some(x) if x == "rs" => p.file_stem().map(|s| s.to_string_lossy().into_owned()),
            None if p.is_dir() => p.file_name().map(|s| s.to_string_lossy().into_owned()),
            _ => None,
        })
        .filter(|m| m != "mod")
        .collect()
}

/// The code of a module (its folder's files too), tests and comments left
/// out.
fn code(engine: &Path, module: &str) -> String {
    let file = engine.join(format!("{module}.rs"));
    let paths: Vec<_> = if file.exists() {
        vec![file]
    } else {
        std::fs::read_dir(engine.join(module))
            .expect("a module folder")
            .map(|e| e.expect("an entry").path())
            .collect()
    };
    let mut all = String::new();
    for p in paths {
        let text = std::fs::read_to_string(&p).expect("a source file");
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        for line in text.lines() {
            let line = line.split("//").next().unwrap_or("");
            all.push_str(line);
            all.push('\n');
        }
    }
    all
}

/// The sibling modules `code` uses (by `super::m`, `crate::engine::m`,
/// and, for the types the engine re-exports, `super::{Game, …}`).
fn uses(code: &str, modules: &BTreeSet<String>, me: &str) -> BTreeSet<String> {
    let reexported = [("Game", "game"), ("RoundEnd", "game"), ("TooLong", "turn")];
    let mut found = BTreeSet::new();
    for prefix in ["super::", "crate::engine::"] {
        for (at, _) in code.match_indices(prefix) {
            let rest = &code[at + prefix.len()..];
            let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                let group = group.split('}').next().unwrap_or("");
                group
                    .split(',')
                    .map(|n| n.trim().split("::").next().unwrap_or(""))
                    .collect()
            } else {
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                vec![&rest[..end]]
            };
            for n in names {
                let m = reexported
                    .iter()
                    .find(|(t, _)| *t == n)
                    .map_or(n, |(_, m)| *m);
                if m != me && modules.contains(m) {
                    found.insert(m.to_string());
                }
            }
        }
    }
    found
}

#[test]
fn the_engines_modules_read_one_way() {
    let engine = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/engine");
    let order = listed_order(&engine);
    let modules = modules(&engine);
    let listed: BTreeSet<String> = order.iter().cloned().collect();
    assert_eq!(
        listed, modules,
        "src/engine/mod.rs lists each of the engine's modules once"
    );
    assert_eq!(listed.len(), order.len(), "a module is listed twice");
    for (i, m) in order.iter().enumerate() {
        let later: Vec<_> = uses(&code(&engine, m), &modules, m)
            .into_iter()
            .filter(|u| !order[..i].contains(u))
            .collect();
        assert!(
            later.is_empty(),
            "engine module `{m}` uses {later:?}, listed after it in src/engine/mod.rs: \
             the modules read one way"
        );
    }
}

#[test]
fn the_check_sees_a_module_used_out_of_order() {
    // The test above fails on a module that uses one listed after it.
    let modules: BTreeSet<String> = ["eval", "game", "turn"].map(String::from).into();
    let code =
        "use super::{Game, NONE};\nuse super::turn::Step;\nlet x = crate::engine::eval::f();";
    let found = uses(code, &modules, "site");
    assert_eq!(found, ["eval", "game", "turn"].map(String::from).into());
}

#[test]
fn each_command_has_its_own_file() {
    let help = common::bin::sow_with(&["--help"], "");
    assert_eq!(help.code, 0);
    let commands: Vec<&str> = help
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // (A description runs on in lines indented further.)
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 10, "sow --help lists its commands");
    let cli = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    for c in commands {
        assert!(
            cli.join(format!("{c}.rs")).exists(),
            "`sow {c}` has no file of its own in src/cli/"
        );
    }
}

#[test]
fn the_book_lists_every_source_file() {
    // The contributing chapter's file list names every file in `src/`.
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let book = std::fs::read_to_string(root.join("docs/book/src/contributing.md"))
        .expect("the contributing chapter");
    let listed: BTreeSet<&str> = book
        .lines()
        .filter(|l| l.starts_with("src/"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut files = BTreeSet::new();
    let mut folders = vec![root.join("src")];
    while let Some(dir) = folders.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let name = path.strip_prefix(&root).expect("under the root");
                files.insert(name.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let missing: Vec<_> = files
        .iter()
        .filter(|f| !listed.contains(f.as_str()))
        .collect();
    let gone: Vec<_> = listed.iter().filter(|f| !files.contains(**f)).collect();
    assert!(
        missing.is_empty() && gone.is_empty(),
        "docs/book/src/contributing.md's file list: missing {missing:?}, names files that are gone {gone:?}"
    );
}
