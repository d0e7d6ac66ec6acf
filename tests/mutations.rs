//! Bad input never panics: every shipped variant file, changed at random
//! (characters dropped, tokens inserted, lines swapped or doubled), is
//! either accepted or rejected with diagnostics that render; an accepted
//! one plays a few random turns. Files built on others are changed too, so
//! composition errors are exercised.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sow::Game;

/// Words and symbols the language uses, to insert where they do not belong.
const TOKENS: &[&str] = &[
    "rule",
    "replace",
    "remove",
    "extends",
    "option",
    "let",
    "var",
    "end",
    "when",
    "at",
    "and",
    "or",
    "not",
    "(",
    ")",
    "{",
    "}",
    "==",
    "..",
    "=",
    ":",
    "\\\n",
    "\n",
    "-",
    "999999999999",
    "0",
    "last",
    "here",
    "mover",
    "seeds(",
    "count(",
    "relay",
    "capture",
    "\"",
    "#",
    ";",
    "default",
    "bao-la-kiswahili",
    "oware-abapa",
    "\"x.sow\"",
    "phase",
    "during",
    "setup",
];

fn mutate(src: &str, rng: &mut ChaCha8Rng) -> String {
    let mut s = src.to_string();
    for _ in 0..rng.gen_range(1..4) {
        let at = |s: &str, rng: &mut ChaCha8Rng| {
            let mut i = rng.gen_range(0..=s.len());
            while !s.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        match rng.gen_range(0..4) {
            0 if !s.is_empty() => {
                let i = at(&s, rng);
                let mut j = (i + rng.gen_range(1..12)).min(s.len());
                while !s.is_char_boundary(j) {
                    j -= 1;
                }
                s.replace_range(i..j, "");
            }
            1 => {
                let i = at(&s, rng);
                let t = TOKENS[rng.gen_range(0..TOKENS.len())];
                s.insert_str(i, &format!(" {t} "));
            }
            2 => {
                let mut lines: Vec<&str> = s.lines().collect();
                if lines.len() > 1 {
                    let (a, b) = (rng.gen_range(0..lines.len()), rng.gen_range(0..lines.len()));
                    lines.swap(a, b);
                }
                s = lines.join("\n");
            }
            _ => {
                let lines: Vec<&str> = s.lines().collect();
                if !lines.is_empty() {
                    let k = rng.gen_range(0..lines.len());
                    let doubled = format!("{}\n", lines[k]);
                    let i = s.find(lines[k]).unwrap_or(0);
                    s.insert_str(i, &doubled);
                }
            }
        }
    }
    s
}

#[test]
fn mutated_variant_files_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut accepted, mut rejected) = (0, 0);
    for name in sow::variants::names() {
        let src = sow::variants::source(name).unwrap();
        for _ in 0..150 {
            let text = mutate(src, &mut rng);
            match sow::load::load_text("mutated.sow", &text, std::path::Path::new(""), &[]) {
                Ok(v) => {
                    accepted += 1;
                    let _ = sow::load::show(&v);
                    if let Ok(mut g) = Game::new(v.engine.clone()) {
                        for _ in 0..5 {
                            let legal = g.legal_turns();
                            if legal.is_empty() {
                                break;
                            }
                            let t = legal[rng.gen_range(0..legal.len())];
                            if g.play(t).is_err() {
                                break;
                            }
                        }
                    }
                }
                Err(e) => {
                    rejected += 1;
                    assert!(!e.diagnostics.is_empty());
                    let shown = e.render();
                    assert!(shown.contains("problem"), "{shown}");
                }
            }
        }
    }
    assert!(
        accepted > 50 && rejected > 300,
        "{accepted} accepted, {rejected} rejected"
    );
}
