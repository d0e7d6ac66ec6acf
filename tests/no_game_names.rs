//! The engine and the grammar name no game: a rule is built from general
//! primitives, so no identifier or keyword in `src/` or `grammar/` may
//! contain the name of a game or of one game's rule. (Comments and string
//! literals may: the shipped variants are embedded by name.)

use std::path::{Path, PathBuf};

const FORBIDDEN: &[&str] = &[
    "oware",
    "abapa",
    "wari",
    "awale",
    "kalah",
    "mancala",
    "bao",
    "kujifunza",
    "zanzibar",
    "nyumba",
    "kichwa",
    "kimbi",
    "takasia",
    "takasa",
    "safari",
    "namua",
    "mtaji",
    "grandslam",
    "grand_slam",
    "toguz",
    "kumalak",
    "tuzdyk",
    "tuzdik",
    "omweso",
    // The catalogue's games (`docs/rules/catalogue/`) and their terms.
    "bohnenspiel",
    "ayoayo",
    "dakon",
    "pallanguli",
    "qelat",
    "walda",
    "enkeshui",
    "bechi",
    "namnam",
    "olinda",
    "alemungula",
    "deka",
    "azigo",
    "tchuka",
    "ruma",
    "cross_kalah",
    "lamlameta",
    "achochodi",
    "kale",
    "ahbochen",
    "tihbat",
    "songo",
    "kara",
    "mangala",
    "ba_awa",
    "baawa",
];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if matches!(p.extension().and_then(|x| x.to_str()), Some("rs" | "pest")) {
            out.push(p);
        }
    }
}

/// The text with comments and string literals blanked out.
fn code_only(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let b: Vec<char> = src.chars().collect();
    let mut i = 0;
    while i < b.len() {
        if b[i] == '/' && b.get(i + 1) == Some(&'/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if b[i] == '/' && b.get(i + 1) == Some(&'*') {
            while i + 1 < b.len() && !(b[i] == '*' && b[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if b[i] == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

#[test]
fn no_identifier_names_a_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    files(&root.join("src"), &mut all);
    files(&root.join("grammar"), &mut all);
    assert!(all.len() > 10);
    let mut found = Vec::new();
    for f in &all {
        let code = code_only(&std::fs::read_to_string(f).unwrap());
        for word in code.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            let lower = word.to_lowercase();
            if let Some(name) = FORBIDDEN.iter().find(|n| lower.contains(*n)) {
                found.push(format!(
                    "{}: `{word}` contains `{name}`",
                    f.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "game names in code:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_itself_would_catch_one() {
    let code = code_only("fn kichwa_rule() {} // kalah in a comment\nlet s = \"oware\";");
    assert!(code.contains("kichwa_rule"));
    assert!(!code.contains("kalah") && !code.contains("oware"));
}
