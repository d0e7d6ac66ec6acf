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
use crate::engine::{Game, Turn};
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

/// The most an answer may hold, in bytes of its JSON: a long game, each
/// position drawn and each turn shown step by step, fits many times over.
/// (A turn's steps hold the whole board at each seed sown: a board of
/// 100,000 seeds a pit would otherwise make megabytes a move.)
pub const MAX_ANSWER: usize = 8 << 20;

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
    /// `/api/analyze`: how many games, between whom, how long at most
    /// (`players` also names the seats of `/api/record`).
    games: Option<u64>,
    players: Option<Vec<String>>,
    max_plies: Option<u32>,
    /// `/api/moves`, `/api/play`: each position drawn (`svg`), each turn
    /// shown step by step (`steps`).
    #[serde(default)]
    draw: bool,
    #[serde(default)]
    steps: bool,
    /// `/api/record/read`: a game record's text.
    record: Option<String>,
    /// `/api/analyze`: only these games of the run (`[from, to)`), as a
    /// part; `/api/analyze/merge`: the parts to put together.
    range: Option<[u64; 2]>,
    parts: Option<Vec<analyze::Part>>,
}

/// Reads a request's body as an [`Ask`].
fn ask(body: &[u8]) -> Result<Ask, Answer> {
    let text = std::str::from_utf8(body).map_err(|_| bad("a request's body is UTF-8 JSON"))?;
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(_)) => {}
        Ok(_) => {
            return Err(bad(
                "a request's body is a JSON object: {\"variant\": \"kalah\", …}",
            ))
        }
        Err(e) => return Err(bad(format!("a request's body is JSON: {e}"))),
    }
    serde_json::from_str(text).map_err(|e| {
        bad(format!(
            "the request is not one this endpoint reads: {e} (an object with `variant` or `source`, and as the endpoint takes: `options`, `position`, `first`, `moves`, `player`, `level`, `seed`, `games`, `players`, `max_plies`, `draw`, `steps`, `record`, `range`, `parts`)"
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
    placed(&e.sources, &e.diagnostics)
}

/// Diagnostics placed in the texts they were found in, each with its
/// severity (`error`, or `warning`: the variant loads all the same).
fn placed(sources: &load::Sources, found: &[crate::diagnostic::Diagnostic]) -> Vec<Value> {
    found
        .iter()
        .map(|d| {
            let at = |offset: usize| sources.place_of(Span::new(offset, offset));
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
                "severity": if d.kind == crate::diagnostic::Kind::Warning { "warning" } else { "error" },
            })
        })
        .collect()
}

/// `POST /api/check`: the body is a variant's text; the answer its
/// problems (only warnings when it loads), each with `line` and `column`.
pub fn check(body: &[u8]) -> Answer {
    let Ok(text) = std::str::from_utf8(body) else {
        return bad("a variant's text is UTF-8");
    };
    match load::load_sealed("request.sow", text, &[]) {
        Ok(v) => (
            200,
            json!({ "ok": true, "name": v.name(), "diagnostics": placed(&v.sources, &v.warnings) }),
        ),
        Err(e) => (200, json!({ "ok": false, "diagnostics": diagnostics(&e) })),
    }
}

/// `POST /api/show`: the body is a variant's text; the answer the
/// variant as one file (`sow show`), its options and its players, or its
/// problems as `/api/check` gives them.
pub fn show(body: &[u8]) -> Answer {
    let Ok(text) = std::str::from_utf8(body) else {
        return bad("a variant's text is UTF-8");
    };
    match load::load_sealed("request.sow", text, &[]) {
        Ok(v) => (200, described(&v)),
        Err(e) => (200, json!({ "ok": false, "diagnostics": diagnostics(&e) })),
    }
}

/// What the playground shows of a variant beside its text: its name and
/// title, the one file it composes to, its options, its players, and
/// whether who moves first is chosen (`first`) rather than ruled.
fn described(v: &Variant) -> Value {
    let r = &v.engine.rules;
    let board = crate::json::variant(v);
    json!({
        "ok": true, "name": v.name(), "title": r.title, "show": load::show(v),
        "options": board["options"], "players": r.players,
        "first_chosen": r.setup.first_chosen, "board": board,
    })
}

/// `GET /api/language`: the language's words, as the checker knows them
/// (the editor colours them): statements and the words that build on a
/// variant, actions, moments, functions and the other built-in words.
pub fn language() -> Answer {
    use crate::ir::{ActionKind, Moment};
    use crate::lang::check::{statements, FUNCTIONS, WORDS};
    let statements: Vec<&str> = statements::suggested().collect();
    let actions: Vec<&str> = ActionKind::ALL.iter().map(|k| k.word()).collect();
    let moments: Vec<&str> = Moment::ALL.iter().map(|m| m.name()).collect();
    let body = json!({
        "statements": statements, "actions": actions, "moments": moments,
        "functions": FUNCTIONS, "words": WORDS,
    });
    (200, body)
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
    let mut body = described(&v);
    body["source"] = json!(text);
    (200, body)
}

/// `POST /api/moves`: every legal turn from the position, as `sow moves
/// --format json` lists them.
pub fn moves(body: &[u8]) -> Answer {
    with_game(body, |a, v, game| {
        let mut moves = Vec::new();
        let mut answer = Size::default();
        for &t in game.legal_turns() {
            let mut next = game.clone();
            next.play(t).map_err(|e| bad(e.to_string()))?;
            let mut m = json::moved(&v, &game, t, &next);
            m["pit"] = pit_of(&v, t);
            answer.add(&m)?;
            moves.push(m);
        }
        let mut answer = json!({ "position": json::position(&v, &game), "moves": moves });
        if a.draw {
            answer["svg"] = json!(crate::svg::board(&v, &game, None));
        }
        Ok(answer)
    })
}

/// `POST /api/play`: the moves played from the position, each ply as
/// `sow play --format json` prints it (ply 0 the position itself).
pub fn play(body: &[u8]) -> Answer {
    with_game(body, |a, v, game| {
        let moves = a.moves.clone().unwrap_or_default();
        let (plies, _) = played(&a, &v, game, moves.iter().map(|m| (m.as_str(), None)))?;
        Ok(json!({ "plies": plies }))
    })
}

/// The moves played from `game`, each ply as `sow play --format json`
/// prints it (ply 0 the position itself), with the pit its turn started
/// from, and where asked its picture and its steps. A move given with its
/// player (a record's) must be that player's. An answer past
/// [`MAX_ANSWER`] is refused before it is made.
fn played<'m>(
    a: &Ask,
    v: &Variant,
    mut game: Game,
    moves: impl ExactSizeIterator<Item = (&'m str, Option<&'m str>)>,
) -> Result<(Vec<Value>, Game), Answer> {
    game.show_turns(a.steps);
    let mut answer = Size::default();
    let mut line = |ply: usize, mv: Option<(&str, Turn)>, g: &Game| -> Result<Value, Answer> {
        let mut line = json!({
            "ply": ply, "move": mv.map(|m| m.0),
            "position": json::position(v, g), "outcome": json::outcome(v, g.outcome()),
        });
        if let Some((_, t)) = mv {
            line["pit"] = pit_of(v, t);
        }
        if let Some(end) = g.round_end() {
            line["round_end"] = json::outcome(v, Some(&end.outcome));
        }
        answer.add(&line)?;
        if a.draw {
            let svg = crate::svg::board(v, g, mv.map(|m| m.1.pit));
            answer.grow(svg.len(), "each position drawn (`draw`)")?;
            line["svg"] = json!(svg);
        }
        if let (true, Some(shown)) = (a.steps && mv.is_some(), g.shown()) {
            // (Counted before it is made: one turn's steps may be large.)
            answer.grow(
                steps_size(v, shown),
                "each turn shown step by step (`steps`)",
            )?;
            line["steps"] = json::steps(v, shown);
        }
        Ok(line)
    };
    let mut plies = vec![line(0, None, &game)?];
    let mut failed = None;
    play_moves(v, &mut game, moves, |ply, _, written, turn, g| {
        match line(ply, Some((written, turn)), g) {
            Ok(l) => plies.push(l),
            Err(e) => {
                failed.get_or_insert(e);
                return false;
            }
        }
        true
    })?;
    match failed {
        Some(e) => Err(e),
        None => Ok((plies, game)),
    }
}

/// How large an answer grows, in bytes of JSON, within [`MAX_ANSWER`].
#[derive(Default)]
struct Size(usize);

impl Size {
    /// Adds a part of `bytes`, refusing the answer past the limit (`what`
    /// names what makes it large).
    fn grow(&mut self, bytes: usize, what: &str) -> Result<(), Answer> {
        self.0 = self.0.saturating_add(bytes);
        if self.0 > MAX_ANSWER {
            return Err(bad(format!(
                "the answer would be larger than {} MiB: ask for fewer moves, or without {what}",
                MAX_ANSWER >> 20
            )));
        }
        Ok(())
    }

    /// Adds a value as its JSON is long.
    fn add(&mut self, value: &Value) -> Result<(), Answer> {
        self.grow(value.to_string().len(), "so many moves")
    }
}

/// About how many bytes a turn's steps take as JSON (`json::steps`), at
/// most: each frame holds every pit's and store's label and seeds.
fn steps_size(v: &Variant, shown: &crate::engine::Shown) -> usize {
    let r = &v.engine.rules;
    let labels: usize = r.pits.iter().map(|p| p.label.len() + 4).sum::<usize>()
        + r.players.iter().map(|p| 2 * (p.len() + 4)).sum::<usize>();
    // (A cell named in `at`: a pit's label or a player's store, quoted.)
    let longest = r
        .pits
        .iter()
        .map(|p| p.label.len())
        .chain(r.players.iter().map(String::len));
    let named = longest.max().unwrap_or(0) + 4;
    let digits = |n: u32| n.checked_ilog10().map_or(1, |d| d as usize + 1);
    shown
        .frames
        .iter()
        .map(|f| {
            64 + labels
                + f.cells.iter().map(|&c| digits(c)).sum::<usize>()
                + f.at.len() * named
                + f.hands.iter().map(|&h| digits(h)).sum::<usize>()
        })
        .sum()
}

/// Plays the moves on `game` (at most [`MAX_PLIES`]), each legal, and
/// given with its player (a record's) that player's; `each` is told of
/// every move played: its number (from 1), its player, the move as
/// written, the turn, and the game after it (it stops the moves by
/// returning false).
fn play_moves<'m>(
    v: &Variant,
    game: &mut Game,
    moves: impl ExactSizeIterator<Item = (&'m str, Option<&'m str>)>,
    mut each: impl FnMut(usize, &str, &str, Turn, &Game) -> bool,
) -> Result<(), Answer> {
    if moves.len() > MAX_PLIES as usize {
        return Err(bad(format!("at most {MAX_PLIES} moves a request")));
    }
    for (i, (m, player)) in moves.enumerate() {
        if crate::runs::stopped() {
            // (Past the time limit: the server answers so.)
            return Err((503, json!({ "error": "stopped" })));
        }
        let to_move = &v.engine.rules.players[ai::to_move(game) as usize];
        if let Some(p) = player.filter(|_| game.outcome().is_none()) {
            if p != to_move {
                return Err(bad(format!(
                    "move {} (`{m}`) is {p}'s, but {to_move} is to move",
                    i + 1
                )));
            }
        }
        let (turn, written) = crate::play::play_written(game, 0, m)
            .map_err(|d| bad(format!("move {} (`{m}`): {}", i + 1, d)))?;
        if !each(i + 1, to_move, &written, turn, game) {
            break;
        }
    }
    Ok(())
}

/// The pit a turn starts from, or the pit a put fills or a take empties,
/// by its label (`null` for a pass, or a turn from a store).
fn pit_of(v: &Variant, t: Turn) -> Value {
    match v.engine.rules.pits.get(t.pit as usize) {
        Some(p) if t != Turn::PASS && t.seeds() == 0 => json!(p.label),
        Some(_) | None => Value::Null,
    }
}

/// `POST /api/record`: a game's record, as `sow play --record` writes it:
/// the variant (a shipped name, else the file's own name), its options,
/// who played each seat (`players`), the moves, and how it ended.
pub fn record(body: &[u8]) -> Answer {
    with_game(body, |a, v, game| {
        let r = &v.engine.rules;
        let start_text = a.position.as_ref().map(Value::to_string);
        let words = a.players.clone().unwrap_or_default();
        if words.len() > r.players.len() {
            return Err(bad(format!(
                "`players` names at most one seat a player ({})",
                r.players.len()
            )));
        }
        let mut seats = Vec::new();
        for (i, p) in r.players.iter().enumerate() {
            let word = words.get(i).map_or("human", String::as_str);
            let seat = match word {
                "human" => "human".to_string(),
                w => ai::computer_named(w).map_err(bad)?.0.name().to_string(),
            };
            seats.push((p.clone(), seat));
        }
        let level = a.level.unwrap_or(ai::DEFAULT_LEVEL);
        if !ai::LEVELS.contains(&level) {
            return Err(bad(format!("a level is 1 to 9, not {level}")));
        }
        let mut end = game;
        let moves = a.moves.clone().unwrap_or_default();
        let mut written = Vec::new();
        play_moves(
            &v,
            &mut end,
            moves.iter().map(|m| (m.as_str(), None)),
            |_, mover, w, _, _| {
                written.push((mover.to_string(), w.to_string()));
                true
            },
        )?;
        let header = crate::record::Header {
            first: a.first.clone(),
            players: seats,
            level,
            seed: a.seed.unwrap_or(0),
            start: start_text,
            ..crate::record::Header::of(&v, &end, a.variant.clone().unwrap_or(r.name.clone()))
        };
        let text = crate::record::write(&header, &written, &crate::record::today());
        Ok(json!({ "record": text }))
    })
}

/// `POST /api/record/read`: a record (`record`, its text) played again:
/// its variant (shipped, or the `source` given), options and start, each
/// move checked to be its player's, and the result its header says. The
/// answer is `/api/play`'s, with what the header says.
pub fn record_read(body: &[u8]) -> Answer {
    let answer = ask(body).and_then(|mut a| {
        let text = a.record.take().ok_or_else(|| bad("give the record's text as `record`"))?;
        let r = crate::record::read(&text).map_err(|d| bad(format!("the record: {d}")))?;
        if a.source.is_none() {
            a.variant = Some(r.variant.clone());
        }
        a.first = r.first.clone();
        a.position = match &r.start {
            Some(s) => Some(json::parse(s).map_err(|d| bad(format!("the record's start: {d}")))?),
            None => None,
        };
        // The variant given is the record's before its options are set
        // (another variant may not have them).
        if a.source.is_some() {
            let given = variant(&a)?;
            if given.name() != r.variant {
                return Err(bad(format!(
                    "the record is of `{}`, not of the variant given (`{}`)",
                    r.variant,
                    given.name()
                )));
            }
        }
        a.options = r.options.iter().map(|(k, x)| (k.clone(), json!(x))).collect();
        let v = variant(&a)?;
        r.check_players(&v.engine.rules.players).map_err(|d| bad(d.to_string()))?;
        let g = game(&v, &a)?;
        let moves = r.moves.iter().map(|(_, p, m)| (m.as_str(), Some(p.as_str())));
        let (plies, end) = played(&a, &v, g, moves)?;
        r.check_result(&crate::record::result(&v, &end))
            .map_err(|d| bad(d.to_string()))?;
        Ok(json!({
            "variant": r.variant, "options": a.options, "first": r.first,
            "players": r.players.as_ref().map(|(_, seats)| seats.iter().map(|(s, _)| s.clone()).collect::<Vec<_>>()),
            "plies": plies,
        }))
    });
    answer.map_or_else(|e| e, |v| (200, v))
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
        if let Some(why) = ai::refusal(&[seat], &game) {
            return Err(bad(why));
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
        if let Some(why) = plan.refusal(&start) {
            return Err(bad(why));
        }
        let jobs = crate::runs::all_cores();
        if let Some([from, to]) = a.range {
            if from > to || to > games {
                return Err(bad(format!(
                    "`range` is [from, to] with from ≤ to ≤ games ({games}), not [{from}, {to}]"
                )));
            }
            let part = analyze::analyze_part(&v, &start, plan, from..to, jobs, true);
            return Ok(json!({ "part": part }));
        }
        Ok(analyze::analyze(&v, &start, plan, jobs, true).json())
    })
}

/// `POST /api/analyze/merge`: the report of an analysis's parts (each
/// `/api/analyze` with a `range`), as one run of their games makes it.
pub fn analyze_merge(body: &[u8]) -> Answer {
    with_game(body, |a, v, _| {
        let parts = a.parts.clone().unwrap_or_default();
        let report = analyze::Report::merged(&v, parts).map_err(bad)?;
        Ok(report.json())
    })
}
