//! The layout shows the design: the engine's modules read one way, in the
//! order `src/engine/mod.rs` lists them, and each command of the command
//! line has its own file in `src/cli/`.

use crate::common;

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

/// The code of a module (its folder's files too), its tests and comments
/// left out.
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
        for line in text.lines() {
            // A file's tests are its last item.
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            all.push_str(line.split("//").next().unwrap_or(""));
            all.push('\n');
        }
    }
    all
}

/// The paths a `use` tree names, its groups expanded: `a::{b, c::{d, e}}`
/// is `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.split_whitespace().collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    // The group's items, split at the commas outside nested groups.
    let (mut items, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items
        .into_iter()
        .filter(|i| !i.is_empty())
        .flat_map(|i| expand(&format!("{prefix}{i}")))
        .collect()
}

/// Every path `code` names: each `use` tree expanded, and every other path
/// written in the code.
fn paths(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        let tail = &rest[at + 4..];
        let end = tail.find(';').unwrap_or(tail.len());
        if before.is_none_or(|c| !(c.is_alphanumeric() || c == '_')) {
            found.extend(expand(&tail[..end]));
        }
        rest = &tail[end..];
    }
    for prefix in ["super::", "crate::engine::"] {
        for (at, _) in code.match_indices(prefix) {
            let tail = &code[at..];
            let end = tail
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(tail.len());
            found.push(tail[..end].to_string());
        }
    }
    found
}

/// The names `src/engine/mod.rs` brings in from its modules (`use
/// plan::{Plan, …}`, `pub use game::Game`): `super::Plan` is the plan's.
fn aliases(engine: &Path, modules: &BTreeSet<String>) -> Vec<(String, String)> {
    let root = std::fs::read_to_string(engine.join("mod.rs")).expect("src/engine/mod.rs");
    let mut out = Vec::new();
    for path in paths(&root) {
        let mut parts = path.split("::");
        if let (Some(m), Some(name)) = (parts.next(), path.rsplit("::").next()) {
            if modules.contains(m) && name != m {
                out.push((name.to_string(), m.to_string()));
            }
        }
    }
    out
}

/// The sibling modules `code` uses: by its paths (`super::m`,
/// `crate::engine::m`, `crate::{engine::m}`, a name `mod.rs` brings in
/// from `m`), and by calling a method another module adds to the engine
/// (`methods`: each `impl Engine` method with its module).
fn uses(
    code: &str,
    modules: &BTreeSet<String>,
    aliases: &[(String, String)],
    methods: &[(String, String)],
    me: &str,
) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for path in paths(code) {
        let first = ["super::", "crate::engine::", "crate::engine"]
            .iter()
            .find_map(|p| path.strip_prefix(p))
            .and_then(|rest| rest.split("::").find(|s| !s.is_empty()));
        let Some(first) = first else { continue };
        let m = aliases
            .iter()
            .find(|(name, _)| name == first)
            .map_or(first, |(_, m)| m.as_str());
        if m != me && modules.contains(m) {
            found.insert(m.to_string());
        }
    }
    // An engine is `self` in its own methods, and `e`, `me` or `engine`
    // elsewhere.
    let inside = engine_blocks(code).concat();
    for (name, m) in methods {
        let called = ["e.", "me.", "engine.", "Engine::"]
            .iter()
            .any(|r| code.contains(&format!("{r}{name}(")))
            || inside.contains(&format!("self.{name}("));
        if m != me && called {
            found.insert(m.clone());
        }
    }
    found
}

/// The `impl Engine { … }` blocks of some code.
fn engine_blocks(code: &str) -> Vec<&str> {
    let mut blocks = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("impl Engine {") {
        let block = &rest[at..];
        let (mut depth, mut end) = (0, block.len());
        for (i, c) in block.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        blocks.push(&block[..end]);
        rest = &block[end..];
    }
    blocks
}

/// The methods each module adds to the engine (`impl Engine { fn … }`),
/// with the module.
fn engine_methods(engine: &Path, modules: &BTreeSet<String>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for m in modules {
        let code = code(engine, m);
        for block in engine_blocks(&code) {
            for (i, _) in block.match_indices("fn ") {
                let name: String = block[i + 3..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push((name, m.clone()));
            }
        }
    }
    out
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
    let aliases = aliases(&engine, &modules);
    let methods = engine_methods(&engine, &modules);
    assert!(
        aliases.iter().any(|(n, m)| n == "Plan" && m == "plan"),
        "the names mod.rs brings in are read"
    );
    assert!(
        methods.iter().any(|(n, m)| n == "cond" && m == "eval"),
        "the engine's methods are read"
    );
    for (i, m) in order.iter().enumerate() {
        let later: Vec<_> = uses(&code(&engine, m), &modules, &aliases, &methods, m)
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
    // The test above fails on a module that uses one listed after it, in
    // each way one module can use another.
    let modules: BTreeSet<String> = ["eval", "game", "turn", "plan", "act"]
        .map(String::from)
        .into();
    let aliases = [("Plan".to_string(), "plan".to_string())];
    let methods = [("run".to_string(), "act".to_string())];
    let seen = |code: &str| uses(code, &modules, &aliases, &methods, "site");
    let one = |m: &str| BTreeSet::from([m.to_string()]);
    assert_eq!(
        seen("use super::{eval::{Ctx, Foresight}, turn::Step};"),
        ["eval", "turn"].map(String::from).into()
    );
    assert_eq!(
        seen("use crate::{engine::game::Game, ir::Player};"),
        one("game")
    );
    assert_eq!(seen("let x = crate::engine::eval::f();"), one("eval"));
    assert_eq!(seen("fn f(p: &super::Plan) {}"), one("plan"));
    assert_eq!(seen("use super::{Plan, NONE};"), one("plan"));
    assert_eq!(
        seen("impl Engine {\n fn f(&self) { self.run(rule, pos); }\n}"),
        one("act")
    );
    assert_eq!(seen("fn g(e: &Engine) { e.run(rule, pos); }"), one("act"));
    assert_eq!(
        seen("impl Compiler { fn f(&self) { self.run(x); } }"),
        BTreeSet::new()
    );
    assert_eq!(
        seen("use crate::ir::Direction; let reuse = 1;"),
        BTreeSet::new()
    );
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
    // The contributing chapter's file list names every file in `src/`
    // (the playground's built assets among them).
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
            } else {
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
