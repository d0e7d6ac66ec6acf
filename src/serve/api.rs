//! The playground's JSON API, in the terms of the JSON contract: each
//! endpoint a function from a request's body to a status and a JSON
//! answer, so that the server only carries bytes and the tests call these
//! directly. A bad request is answered `400` with `{"error": …}` naming
//! what is wrong and what would be right; no request reads a file.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{json, Value};

use crate::ai::{self, Seat};
use crate::analyze::{self, Plan};
use crate::engine::Game;
use crate::{json, load, Span, Variant};

/// The most games `/api/analyze` plays a request.
pub const MAX_GAMES: u64 = 1000;
/// The most turns a game of `/api/analyze` lasts, and the most moves
/// `/api/play` plays.
pub const MAX_PLIES: u32 = 10_000;
/// The highest level `/api/analyze` lets computer players think at (each
/// game's turns then take milliseconds; `/api/ai` takes any level for its
/// one turn).
pub const MAX_ANALYZE_LEVEL: u8 = 3;

/// An answer: an HTTP status and its JSON body.
pub type Answer = (u16, Value);

/// An endpoint taking a body: its request's body to its answer.
pub type Endpoint = fn(&[u8]) -> Answer;

fn bad(message: impl Into<String>) -> Answer {
    (400, json!({ "error": message.into() }))
}

/// What a game request says: the variant (a shipped name, or a file's
/// text), its options, and the position (else the start, `first` to
/// move where the rules leave it open).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Ask {
    variant: Option<String>,
    source: Option<String>,
    #[serde(default)]
    options: BTreeMap<String, Value>,
    position: Option<Value>,
    first: Option<String>,
    /// `/api/play`: the moves to play.
    moves: Option<Vec<String>>,
    /// `/api/ai`: who chooses (`mcts`, `minimax`, `random`), how hard,
    /// from which seed.
    player: Option<String>,
    level: Option<u8>,
    seed: Option<u64>,
    /// `/api/analyze`: how many games, between whom, how long at most.
    games: Option<u64>,
    players: Option<Vec<String>>,
    max_plies: Option<u32>,
}

/// Reads a request's body as an [`Ask`].
fn ask(body: &[u8]) -> Result<Ask, Answer> {
    let text = std::str::from_utf8(body).map_err(|_| bad("a request's body is UTF-8 JSON"))?;
    serde_json::from_str(text).map_err(|e| {
        bad(format!(
            "the request is not one this endpoint reads: {e} (an object with `variant` or `source`, and as the endpoint takes: `options`, `position`, `first`, `moves`, `player`, `level`, `seed`, `games`, `players`, `max_plies`)"
        ))
    })
}

/// The variant a request names, with its options.
fn variant(a: &Ask) -> Result<Variant, Answer> {
    let options: Vec<(String, String)> = a
        .options
        .iter()
        .map(|(k, v)| {
            let value = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (k.clone(), value)
        })
        .collect();
    let loaded = match (&a.variant, &a.source) {
        // (A shipped name only: `Variant::shipped` would read a path.)
        (Some(name), None) => {
            match crate::variants::source(name).and_then(|_| Variant::shipped(name)) {
                Some(v) if options.is_empty() => Ok(v),
                Some(v) => v.with_options(&options),
                None => {
                    let names = crate::variants::names().join(", ");
                    return Err(bad(format!(
                        "`{name}` is not a shipped variant (they are: {names})"
                    )));
                }
            }
        }
        (None, Some(text)) => load::load_sealed("request.sow", text, &options),
        _ => return Err(bad(
            "name the variant (`variant`, a shipped name) or give its text (`source`), one of them",
        )),
    };
    loaded.map_err(|e| {
        (
            400,
            json!({ "error": "the variant does not load", "diagnostics": diagnostics(&e) }),
        )
    })
}

/// The game a request is about: its position, else the variant's start.
fn game(v: &Variant, a: &Ask) -> Result<Game, Answer> {
    match &a.position {
        Some(p) => {
            if a.first.is_some() {
                return Err(bad(
                    "a position says who is to move: give `first` only without one",
                ));
            }
            json::read_position(v, &p.to_string()).map_err(|d| bad(d.to_string()))
        }
        None => {
            let start = v.start_position(a.first.as_deref()).map_err(bad)?;
            Game::from_position(v.engine.clone(), start, Vec::new()).map_err(|e| bad(e.to_string()))
        }
    }
}

/// Answers a game request: `work` is given the request, its variant and
/// its game, and gives the answer's body (or a 4xx).
fn with_game(
    body: &[u8],
    work: impl FnOnce(Ask, Variant, Game) -> Result<Value, Answer>,
) -> Answer {
    let asked = ask(body).and_then(|a| {
        let v = variant(&a)?;
        let g = game(&v, &a)?;
        work(a, v, g)
    });
    asked.map_or_else(|e| e, |v| (200, v))
}

/// A variant's problems, each placed by line and column (from 1) where it
/// has a place in the text, its end too (for underlining), with its hint.
fn diagnostics(e: &load::LoadError) -> Vec<Value> {
    e.diagnostics
        .iter()
        .map(|d| {
            let at = |offset: usize| e.sources.place_of(Span::new(offset, offset));
            let (start, end) = match &d.span {
                Some((s, _)) => (at(s.start), at(s.end)),
                None => (None, None),
            };
            json!({
                "file": start.map(|p| p.0.to_string()),
                "line": start.map(|p| p.1),
                "column": start.map(|p| p.2),
                "end_line": end.map(|p| p.1),
                "end_column": end.map(|p| p.2),
                "message": d.message,
                "hint": d.hint,
            })
        })
        .collect()
}

/// `POST /api/check`: the body is a variant's text; the answer its
/// problems (none when it loads), each with `line` and `column`.
pub fn check(body: &[u8]) -> Answer {
    let Ok(text) = std::str::from_utf8(body) else {
        return bad("a variant's text is UTF-8");
    };
    match load::load_sealed("request.sow", text, &[]) {
        Ok(v) => (
            200,
            json!({ "ok": true, "name": v.name(), "diagnostics": [] }),
        ),
        Err(e) => (200, json!({ "ok": false, "diagnostics": diagnostics(&e) })),
    }
}

/// `GET /api/variants`: the shipped variants, name and title.
pub fn variants() -> Answer {
    let list: Vec<Value> = crate::variants::names()
        .iter()
        .map(|&name| {
            let title =
                Variant::shipped(name).map_or(String::new(), |v| v.engine.rules.title.clone());
            json!({ "name": name, "title": title })
        })
        .collect();
    (200, json!({ "variants": list }))
}

/// `GET /api/variants/NAME`: a shipped variant's file, as one file
/// (`sow show`), and its options.
pub fn variant_file(name: &str) -> Answer {
    let Some(text) = crate::variants::source(name) else {
        return (
            404,
            json!({ "error": format!("no shipped variant is called `{name}`") }),
        );
    };
    let Some(v) = Variant::shipped(name) else {
        return (404, json!({ "error": format!("`{name}` does not load") }));
    };
    let options: Vec<Value> = v
        .engine
        .rules
        .options
        .iter()
        .map(|o| json!({ "name": o.name, "value": o.value }))
        .collect();
    let body = json!({
        "name": name, "title": v.engine.rules.title, "source": text,
        "show": load::show(&v), "options": options,
    });
    (200, body)
}

/// `POST /api/moves`: every legal turn from the position, as `sow moves
/// --format json` lists them.
pub fn moves(body: &[u8]) -> Answer {
    with_game(body, |_, v, game| {
        let mut moves = Vec::new();
        for &t in game.legal_turns() {
            let mut next = game.clone();
            next.play(t).map_err(|e| bad(e.to_string()))?;
            moves.push(json::moved(&v, &game, t, &next));
        }
        Ok(json!({ "position": json::position(&v, &game), "moves": moves }))
    })
}

/// `POST /api/play`: the moves played from the position, each ply as
/// `sow play --format json` prints it (ply 0 the position itself).
pub fn play(body: &[u8]) -> Answer {
    with_game(body, |a, v, mut game| {
        let moves = a.moves.clone().unwrap_or_default();
        if moves.len() > MAX_PLIES as usize {
            return Err(bad(format!("at most {MAX_PLIES} moves a request")));
        }
        let line = |ply: usize, mv: Option<&str>, g: &Game| {
            json!({
                "ply": ply, "move": mv,
                "position": json::position(&v, g), "outcome": json::outcome(&v, g.outcome()),
            })
        };
        let mut plies = vec![line(0, None, &game)];
        for (i, m) in moves.iter().enumerate() {
            crate::play::play_written(&mut game, 0, m)
                .map_err(|d| bad(format!("move {} (`{m}`): {}", i + 1, d)))?;
            plies.push(line(i + 1, Some(m), &game));
        }
        Ok(json!({ "plies": plies }))
    })
}

/// `POST /api/ai`: the turn a computer player chooses in the position,
/// and the position it leads to.
pub fn ai(body: &[u8]) -> Answer {
    with_game(body, |a, v, game| {
        let word = a.player.as_deref().unwrap_or("mcts");
        let (seat, at) = ai::computer_named(word).map_err(bad)?;
        let level = match (at, a.level) {
            (Some(_), Some(_)) => return Err(bad("give the level once: `mcts:3` or `level`")),
            (Some(l), None) | (None, Some(l)) => l,
            (None, None) => ai::DEFAULT_LEVEL,
        };
        if !ai::LEVELS.contains(&level) {
            return Err(bad(format!("a level is 1 to 9, not {level}")));
        }
        if game.outcome().is_some() {
            return Err(bad("the game is over: there is no turn to choose"));
        }
        let mut agent = ai::computer(seat, level, a.seed.unwrap_or(0))
            .ok_or_else(|| bad("a person is not a computer player"))?;
        let turn = agent.choose(&game).map_err(|e| bad(e.to_string()))?;
        let mut next = game.clone();
        next.play(turn).map_err(|e| bad(e.to_string()))?;
        Ok(json::moved(&v, &game, turn, &next))
    })
}

/// `POST /api/analyze`: `sow analyze --format json` over at most
/// [`MAX_GAMES`] games.
pub fn analyze(body: &[u8]) -> Answer {
    with_game(body, |a, v, start| {
        let games = a.games.unwrap_or(100);
        if games > MAX_GAMES {
            return Err(bad(format!(
                "at most {MAX_GAMES} games a request, not {games}"
            )));
        }
        let max_plies = a.max_plies.unwrap_or(MAX_PLIES);
        if !(1..=MAX_PLIES).contains(&max_plies) {
            return Err(bad(format!("`max_plies` is 1 to {MAX_PLIES}")));
        }
        let level = a.level.unwrap_or(1);
        let words = a.players.clone().unwrap_or_else(|| vec!["random".into()]);
        if !(1..=2).contains(&words.len()) {
            return Err(bad("`players` names one player for both seats or two"));
        }
        let named = words
            .iter()
            .map(|w| ai::computer_named(w).map_err(bad))
            .collect::<Result<Vec<_>, _>>()?;
        let seat = |k: usize| named.get(k).or(named.first()).copied();
        let [p, q] = [seat(0), seat(1)].map(|s| s.unwrap_or((Seat::Random, None)));
        let levels = [p.1.unwrap_or(level), q.1.unwrap_or(level)];
        if levels.iter().any(|l| !(1..=MAX_ANALYZE_LEVEL).contains(l)) {
            return Err(bad(format!(
                "an analysis here plays at levels 1 to {MAX_ANALYZE_LEVEL} (the command line, at any)"
            )));
        }
        let plan = Plan {
            games,
            seed: a.seed.unwrap_or(0),
            players: [p.0, q.0],
            levels,
            max_plies,
            keep: false,
        };
        let jobs = crate::runs::all_cores();
        Ok(analyze::analyze(&v, start.position(), plan, jobs, true).json())
    })
}
