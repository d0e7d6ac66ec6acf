//! `sow run`: a scripted game in TOML — the variant, an optional start
//! position, the moves, and expectations checked after given plies. A
//! failed expectation points at its line and column in the script.
//!
//! ```toml
//! variant = "oware-abapa"
//! options = { grand_slam = "forbidden" }
//! moves = "C a D"
//!
//! [[expect]]
//! ply = 1
//! pits = { C = 0, D = 5 }
//! to_move = "north"
//! ```

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostic::{Diagnostic, Span};
use crate::engine::Game;
use crate::play::play_written;
use crate::Variant;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Script {
    variant: Spanned<String>,
    #[serde(default)]
    options: Option<Spanned<BTreeMap<String, toml::Value>>>,
    from: Option<Spanned<String>>,
    #[serde(default)]
    moves: Option<Spanned<toml::Value>>,
    #[serde(default)]
    expect: Vec<Expect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    ply: Spanned<u32>,
    pits: Option<Spanned<BTreeMap<String, u32>>>,
    stores: Option<Spanned<BTreeMap<String, u32>>>,
    hands: Option<Spanned<BTreeMap<String, u32>>>,
    to_move: Option<Spanned<String>>,
    winner: Option<Spanned<String>>,
    reason: Option<Spanned<String>>,
    scores: Option<Spanned<BTreeMap<String, i64>>>,
    over: Option<Spanned<bool>>,
}

/// Why a script failed.
pub enum ScriptError {
    /// A problem in the script itself, with a span in it.
    Script(Diagnostic),
    /// The variant could not be loaded.
    Load(crate::load::LoadError),
    /// A problem in another file (the variant or the position): its name,
    /// its text and the diagnostics.
    Other(String, String, Vec<Diagnostic>),
}

fn span(r: Range<usize>) -> Span {
    Span::new(r.start, r.end)
}

/// Runs a script's text; `base` is the folder relative paths start from.
/// Returns a one-line summary.
pub fn run(text: &str, base: &Path, _out: &mut impl Write) -> Result<String, ScriptError> {
    let script: Script = toml::from_str(text).map_err(|e| {
        let s = e.span().map_or(Span::new(0, 0), span);
        ScriptError::Script(
            Diagnostic::at(
                s,
                format!("the script is not valid: {}", e.message()),
                "here",
            )
            .hint("a script has `variant`, optional `from` and `moves`, and `[[expect]]` tables"),
        )
    })?;
    let spec = script.variant.get_ref();
    // A path is relative to the script's folder, as `from` is.
    let mut options = Vec::new();
    if let Some(o) = &script.options {
        for (k, value) in o.get_ref() {
            let text = match value {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(n) => n.to_string(),
                _ => {
                    return Err(ScriptError::Script(
                        Diagnostic::at(
                            span(o.span()),
                            format!("option `{k}` is not a word or a number"),
                            "this table",
                        )
                        .hint("write `options = { grand_slam = \"forbidden\" }`"),
                    ))
                }
            };
            options.push((k.clone(), text));
        }
    }
    let v = crate::load::load(spec, base, &options).map_err(|e| {
        if e.sources.is_empty() || e.diagnostics.iter().all(|d| d.span.is_none()) {
            // Nothing in a file to point at: point at the script's line.
            let at = match &script.options {
                Some(o)
                    if e.diagnostics
                        .iter()
                        .any(|d| matches!(d.kind, crate::diagnostic::Kind::Option(_))) =>
                {
                    o.span()
                }
                _ => script.variant.span(),
            };
            let d = e
                .diagnostics
                .into_iter()
                .next()
                .unwrap_or_else(|| Diagnostic::new("cannot load the variant"));
            ScriptError::Script(Diagnostic {
                span: Some((span(at), "here".into())),
                ..d
            })
        } else {
            ScriptError::Load(e)
        }
    })?;
    let mut game = match &script.from {
        None => Game::new(v.engine.clone()).map_err(|_| {
            ScriptError::Script(Diagnostic::new(
                "the start position runs past the engine's limit",
            ))
        })?,
        Some(from) => {
            let path = base.join(from.get_ref());
            let name = path.display().to_string();
            let position = crate::limits::read_text(&path).map_err(|d| {
                ScriptError::Script(Diagnostic {
                    span: Some((span(from.span()), "this file".into())),
                    ..d.or_hint("the path is relative to the script")
                })
            })?;
            crate::json::read_position(&v, &position)
                .map_err(|d| ScriptError::Other(name, position.clone(), vec![d]))?
        }
    };
    // The moves, each with its span in the script: each is found in the
    // script's text, in order, within the value's span (so escapes and
    // multi-line strings do not shift the carets).
    let mut moves: Vec<(String, Span)> = Vec::new();
    if let Some(m) = &script.moves {
        let words: Vec<String> = match m.get_ref() {
            toml::Value::String(line) => line
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .map(String::from)
                .collect(),
            toml::Value::Array(items) if items.iter().all(toml::Value::is_str) => items
                .iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect(),
            _ => {
                return Err(ScriptError::Script(
                    Diagnostic::at(
                        span(m.span()),
                        "`moves` is a string of moves or a list of strings",
                        "not moves",
                    )
                    .hint("write `moves = \"C a D\"` or `moves = [\"C\", \"a\"]`"),
                ))
            }
        };
        let (mut at, end) = (m.span().start, m.span().end);
        for w in words {
            // A move written across an escaped line end is not in the text
            // as it reads: it points at the whole value.
            match text.get(at..end).and_then(|rest| rest.find(w.as_str())) {
                Some(i) => {
                    moves.push((w.clone(), Span::new(at + i, at + i + w.len())));
                    at += i + w.len();
                }
                None => moves.push((w.clone(), span(m.span()))),
            }
        }
    }
    for e in &script.expect {
        if *e.ply.get_ref() as usize > moves.len() {
            return Err(ScriptError::Script(
                Diagnostic::at(
                    span(e.ply.span()),
                    format!("no ply {} in this script", e.ply.get_ref()),
                    "beyond the last move",
                )
                .hint(format!(
                    "the script has {} moves: ply 0 is the start, ply {} after the last",
                    moves.len(),
                    moves.len()
                )),
            ));
        }
    }
    let mut held = 0;
    check_ply(&v, &game, 0, &script.expect, &mut held)?;
    for (i, (token, s)) in moves.iter().enumerate() {
        play_written(&mut game, 0, token).map_err(|mut d| {
            d.span = Some((*s, d.span.map_or("this move".into(), |x| x.1)));
            ScriptError::Script(d)
        })?;
        check_ply(&v, &game, i + 1, &script.expect, &mut held)?;
    }
    Ok(format!("{} moves, {held} expectations held", moves.len()))
}

fn check_ply(
    v: &Variant,
    game: &Game,
    ply: usize,
    expects: &[Expect],
    held: &mut usize,
) -> Result<(), ScriptError> {
    let r = &v.engine.rules;
    let pos = game.position();
    let n = r.pits.len();
    let fail = |s: Range<usize>, what: String, hint: String| {
        Err(ScriptError::Script(
            Diagnostic::at(
                span(s),
                format!("expectation failed after ply {ply}: {what}"),
                "does not hold",
            )
            .hint(hint),
        ))
    };
    let player = |name: &str, s: Range<usize>| -> Result<usize, ScriptError> {
        r.players.iter().position(|p| p == name).ok_or_else(|| {
            ScriptError::Script(
                Diagnostic::at(
                    span(s),
                    format!("`{name}` is not a player"),
                    "unknown player",
                )
                .hint(r.players_are()),
            )
        })
    };
    for e in expects.iter().filter(|e| *e.ply.get_ref() as usize == ply) {
        if let Some(pits) = &e.pits {
            for (label, want) in pits.get_ref() {
                let Some(i) = r.pits.iter().position(|p| &p.label == label) else {
                    return fail(
                        pits.span(),
                        format!("`{label}` is not a pit"),
                        "use the variant's labels".into(),
                    );
                };
                if pos.cells[i] != *want {
                    return fail(
                        pits.span(),
                        format!("pit {label} holds {}, not {want}", pos.cells[i]),
                        format!("the board is {}", board_line(v, game)),
                    );
                }
            }
        }
        for (key, map, offset) in [("stores", &e.stores, 0usize), ("hands", &e.hands, 1)] {
            if let Some(m) = map {
                for (name, want) in m.get_ref() {
                    let p = player(name, m.span())?;
                    let have = if offset == 0 {
                        pos.cells[n + p]
                    } else {
                        pos.hands[p]
                    };
                    if have != *want {
                        return fail(
                            m.span(),
                            format!(
                                "{name}'s {} holds {have}, not {want}",
                                &key[..key.len() - 1]
                            ),
                            format!("the board is {}", board_line(v, game)),
                        );
                    }
                }
            }
        }
        if let Some(t) = &e.to_move {
            let have = pos
                .to_move
                .map_or("nobody (the game is over)".to_string(), |p| {
                    r.player_name(p).unwrap_or_default().to_string()
                });
            if have != *t.get_ref() {
                return fail(
                    t.span(),
                    format!("{have} is to move, not {}", t.get_ref()),
                    "to_move names the player to move".into(),
                );
            }
        }
        if let Some(over) = &e.over {
            if game.outcome().is_some() != *over.get_ref() {
                return fail(
                    over.span(),
                    format!(
                        "the game is {}over",
                        if game.outcome().is_some() { "" } else { "not " }
                    ),
                    "`over` says whether the game has ended".into(),
                );
            }
        }
        let outcome = game.outcome();
        if let Some(w) = &e.winner {
            let have = match outcome {
                None => "nobody yet (the game goes on)".to_string(),
                // A solitaire the player lost is won by nobody.
                Some(o) => o.winner.map_or("draw".to_string(), |p| {
                    r.player_name(p).unwrap_or("nobody").to_string()
                }),
            };
            if have != *w.get_ref() {
                return fail(
                    w.span(),
                    format!("the winner is {have}, not {}", w.get_ref()),
                    "write a player's name, \"draw\", or \"nobody\" for a solitaire lost".into(),
                );
            }
        }
        if let Some(reason) = &e.reason {
            let have = outcome.map_or("none (the game goes on)".to_string(), |o| {
                o.reason.to_string()
            });
            if have != *reason.get_ref() {
                return fail(
                    reason.span(),
                    format!("the game ended by {have}, not {}", reason.get_ref()),
                    "reason names the end rule that fired".into(),
                );
            }
        }
        if let Some(scores) = &e.scores {
            for (name, want) in scores.get_ref() {
                let p = player(name, scores.span())?;
                let have = outcome.map(|o| o.scores[p]);
                if have != Some(*want) {
                    return fail(
                        scores.span(),
                        format!(
                            "{name}'s score is {}, not {want}",
                            have.map_or("not final".into(), |h| h.to_string())
                        ),
                        "scores exist once the game is over".into(),
                    );
                }
            }
        }
        *held += 1;
    }
    Ok(())
}

fn board_line(v: &Variant, game: &Game) -> String {
    let r = &v.engine.rules;
    let pos = game.position();
    v.engine
        .pits_in_label_order()
        .iter()
        .map(|&i| format!("{}={}", r.pits[i as usize].label, pos.cells[i as usize]))
        .collect::<Vec<_>>()
        .join(" ")
}
