//! The JSON forms of the contract for programs (the book's "JSON
//! contract" chapter): positions and outcomes, written and read (with
//! every problem in a position file named).

use serde_json::{json, Map, Value};

use crate::diagnostic::{Diagnostic, Span};
use crate::engine::{Game, Outcome, Position, Shown, StepKind, Turn};
use crate::ir::{Rules, VarScope};
use crate::limits::MAX_SEEDS;
use crate::Variant;

/// The key of a position's `state` that says how many seeds have left the
/// game, where seeds can (`out_of_play` in the rules).
const OUT_OF_PLAY: &str = "out_of_play";

/// The position of a game, in the contract's form.
pub fn position(variant: &Variant, game: &Game) -> Value {
    let e = &variant.engine;
    let r = &e.rules;
    let pos = game.position();
    let board = seeds(variant, pos);
    let mut state = Map::new();
    if let Some(phase) = current_phase(variant, game) {
        state.insert("phase".into(), json!(phase));
    }
    for (i, v) in r.vars.iter().enumerate() {
        let base = e.var_base(i);
        let value = |slot: usize| match v.numbers {
            Some((low, _)) => json!(low + pos.vars[slot] as i64),
            None => json!(v.values[pos.vars[slot] as usize]),
        };
        let entry = match v.scope {
            VarScope::Game => value(base),
            VarScope::Player => per_player(r, |p| value(base + p)),
            VarScope::Pit => Value::Object(
                order(variant)
                    .map(|p| (r.pits[p].label.clone(), value(base + p)))
                    .collect(),
            ),
        };
        state.insert(v.name.clone(), entry);
    }
    if r.rounds.is_some() {
        state.insert("round".into(), json!(game.rounds()));
    }
    if r.seeds_leave() {
        state.insert(OUT_OF_PLAY.into(), json!(r.setup.out_of_play(pos.total())));
    }
    if e.tracks_repetition() {
        let len = game.record_len();
        let seen: Vec<Value> = game
            .seen()
            .chunks_exact(len)
            .map(|rec| Value::from(record_out(variant, rec)))
            .collect();
        state.insert("seen".into(), Value::Array(seen));
    }
    let options: serde_json::Map<String, Value> = r
        .options
        .iter()
        .map(|o| (o.name.clone(), Value::from(o.value.clone())))
        .collect();
    json!({
        "variant": r.name,
        "options": options,
        "to_move": pos.to_move.and_then(|p| r.player_name(p)),
        "pits": board["pits"],
        "hands": per_player(r, |p| pos.hands[p].into()),
        "stores": board["stores"],
        "state": state,
    })
}

/// The seeds of a position's pits and stores, in the contract's form:
/// `{"pits": {label: n, …}, "stores": {player: n, …}}` (the end of a round,
/// say, beside the position that follows it).
pub fn seeds(variant: &Variant, pos: &Position) -> Value {
    let r = &variant.engine.rules;
    let mut pits = Map::new();
    for i in order(variant) {
        pits.insert(r.pits[i].label.clone(), json!(pos.cells[i]));
    }
    let n = r.pits.len();
    json!({"pits": pits, "stores": per_player(r, |p| pos.cells[n + p].into())})
}

/// The phase the game is in, if the variant declares phases.
pub fn current_phase(variant: &Variant, game: &Game) -> Option<String> {
    let e = &variant.engine;
    e.phase(game.position())
        .map(|i| e.rules.phases[i].name.clone())
}

/// A `seen` record as written: the player to move, the pits in the order
/// `pits` lists them, then the stores, hands and variable slots as kept.
fn record_out(variant: &Variant, rec: &[u32]) -> Vec<u32> {
    let n = variant.engine.rules.pits.len();
    let mut out = vec![rec[0]];
    out.extend(order(variant).map(|i| rec[1 + i]));
    out.extend_from_slice(&rec[1 + n..]);
    out
}

/// A `seen` record as read, back in the engine's order.
fn record_in(variant: &Variant, rec: &[u32]) -> Vec<u32> {
    let n = variant.engine.rules.pits.len();
    let mut out = rec.to_vec();
    for (k, i) in order(variant).enumerate() {
        out[1 + i] = rec[1 + k];
    }
    out[1 + n..].copy_from_slice(&rec[1 + n..]);
    out
}

/// Pits in the order positions list them: labels in natural order.
fn order(variant: &Variant) -> impl ExactSizeIterator<Item = usize> + '_ {
    variant
        .engine
        .pits_in_label_order()
        .iter()
        .map(|&p| usize::from(p))
}

/// The players' names in quotes, joined by `sep`.
fn quoted(r: &Rules, sep: &str) -> String {
    r.players
        .iter()
        .map(|p| format!("\"{p}\""))
        .collect::<Vec<_>>()
        .join(sep)
}

/// An object with a value for each player, keyed by name.
fn per_player(r: &Rules, value: impl Fn(usize) -> Value) -> Value {
    Value::Object(
        r.players
            .iter()
            .enumerate()
            .map(|(p, name)| (name.clone(), value(p)))
            .collect(),
    )
}

/// An outcome in the contract's form (`null` while the game goes on).
pub fn outcome(variant: &Variant, outcome: Option<&Outcome>) -> Value {
    let r = &variant.engine.rules;
    match outcome {
        None => Value::Null,
        Some(o) => {
            let mut v = json!({
                // A solitaire lost is won by no one (see `Rules::players`).
                "winner": o.winner.and_then(|p| r.player_name(p)),
                "reason": &*o.reason,
                "scores": per_player(r, |p| o.scores[p].into()),
            });
            // (So that a solitaire lost is not read as drawn.)
            if r.players.len() == 1 {
                v["lost"] = (o.winner == Some(1)).into();
            }
            v
        }
    }
}

/// An option's value as a position file writes it (a string or a number).
fn option_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Many games' results by player, as `random` and `analyze` write them:
/// each player's wins (a solitaire's games lost under `lost`), then the
/// draws.
pub fn wins(rules: &Rules, wins: [u64; 2], draws: u64) -> Map<String, Value> {
    let mut tally: Map<String, Value> = rules
        .players
        .iter()
        .zip(wins)
        .map(|(name, n)| (name.clone(), n.into()))
        .collect();
    if rules.seats() == 1 {
        tally.insert("lost".into(), wins[1].into());
    }
    tally.insert("draw".into(), draws.into());
    tally
}

/// A cell's name: a pit's label, a store by its player's name.
pub fn cell_name(variant: &Variant, cell: u16) -> String {
    let r = &variant.engine.rules;
    let c = cell as usize;
    match r.pits.get(c) {
        Some(p) => p.label.clone(),
        None => r.players.get(c - r.pits.len()).cloned().unwrap_or_default(),
    }
}

/// A turn's steps as [`crate::engine::Game::show_turns`] noted them: each
/// with what it did (`lift`, `sow`, `rule`), where (`at`: cells by
/// [`cell_name`]), and the seeds after it, as [`seeds`] gives them, with
/// the hands.
pub fn steps(variant: &Variant, shown: &Shown) -> Value {
    let r = &variant.engine.rules;
    let mut pos = Position::default();
    let frames: Vec<Value> = shown
        .frames
        .iter()
        .map(|f| {
            pos.cells.clone_from(&f.cells);
            let mut step = seeds(variant, &pos);
            let kind = match f.kind {
                StepKind::Lift => "lift",
                StepKind::Sow => "sow",
                StepKind::Put => "put",
                StepKind::Take => "take",
                StepKind::Rule => "rule",
            };
            step["kind"] = json!(kind);
            step["at"] = f.at.iter().map(|&c| cell_name(variant, c)).collect();
            step["hands"] = per_player(r, |p| f.hands[p].into());
            step
        })
        .collect();
    json!({ "frames": frames, "cut": shown.cut })
}

/// A legal turn as the command line and the conversation give it: the
/// turn as written in `game`, and the position and outcome it leads to.
pub fn moved(variant: &Variant, game: &Game, turn: Turn, next: &Game) -> Value {
    json!({
        "move": crate::notation::write_turn(game, turn),
        "position": position(variant, next),
        "outcome": outcome(variant, next.outcome()),
    })
}

/// The variant a position file names: `Ok(None)` where it names none (or
/// not as text), the syntax error where it is not JSON.
pub fn saved_variant(text: &str) -> Result<Option<String>, Diagnostic> {
    let value = parse(text)?;
    Ok(value
        .get("variant")
        .and_then(Value::as_str)
        .map(str::to_string))
}

/// The options a position file was saved with (nothing when it cannot be
/// read: reading the position reports that).
pub fn saved_options(text: &str) -> Vec<(String, String)> {
    let Ok(value) = parse(text) else {
        return Vec::new();
    };
    value
        .get("options")
        .and_then(Value::as_object)
        .map(|o| {
            o.iter()
                .filter_map(|(k, v)| Some((k.clone(), option_text(v)?)))
                .collect()
        })
        .unwrap_or_default()
}

/// Reads a position file's JSON: a syntax error, or a key given twice in
/// one object (which JSON readers settle each their own way), is an error
/// at its place.
pub fn parse(text: &str) -> Result<Value, Diagnostic> {
    let strict: Strict = serde_json::from_str(text).map_err(|err| {
        let at = offset(text, err.line(), err.column());
        Diagnostic::at(
            Span::new(at, (at + 1).min(text.len())),
            format!("the position is not valid JSON: {err}"),
            "here",
        )
        .hint("a position is a JSON object as `sow play --format json` prints it")
    })?;
    Ok(strict.0)
}

/// A JSON value whose objects hold each key once.
struct Strict(Value);

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(Value::from(n))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key `{}` is given twice in one object",
                    crate::diagnostic::shown(&key)
                )));
            }
            let Strict(v) = map.next_value()?;
            object.insert(key, v);
        }
        Ok(Value::Object(object))
    }
}

/// Reads a position file for a variant and starts a game from it. Every
/// error names the key at fault and what would be right. A finished
/// game's position (`"to_move": null`) is refused: nothing can be played
/// from it (see [`read_board`], [`read_finished`]).
pub fn read_position(variant: &Variant, text: &str) -> Result<Game, Diagnostic> {
    read_any(variant, text, Over::Refused)
}

/// Reads a position file as [`read_position`] does, a finished game's
/// (`"to_move": null`) too: a board to draw (a game over with no turn to
/// play, its result not known).
pub fn read_board(variant: &Variant, text: &str) -> Result<Game, Diagnostic> {
    read_any(variant, text, Over::Board)
}

/// Reads a position file as [`read_position`] does, a finished game's
/// too, with its result as [`outcome`] writes it: the game as it ended (a
/// pickled game read back).
pub fn read_finished(variant: &Variant, text: &str, result: &Value) -> Result<Game, Diagnostic> {
    read_any(variant, text, Over::With(result))
}

/// What a position of a finished game (`"to_move": null`) reads as.
#[derive(Clone, Copy)]
enum Over<'a> {
    /// It is refused.
    Refused,
    /// A board, its result unknown.
    Board,
    /// The game ended with this result ([`outcome`]'s form).
    With(&'a Value),
}

/// The result of a finished game as [`outcome`] writes it, read back:
/// the winner a player or null, the reason one of the variant's ends,
/// a score for each player.
fn read_outcome(variant: &Variant, v: &Value) -> Result<Outcome, Diagnostic> {
    let r = &variant.engine.rules;
    let bad = |what: String| {
        Diagnostic::new(format!("the game's result: {what}"))
            .hint("a result as sow writes it: {\"winner\": PLAYER or null, \"reason\": END, \"scores\": {PLAYER: N, …}}")
    };
    let winner = match v.get("winner") {
        // (A solitaire lost: won by the seat no one sits in.)
        Some(Value::Null) if r.players.len() == 1 && v.get("lost") == Some(&Value::Bool(true)) => {
            Some(1)
        }
        Some(Value::Null) => None,
        Some(Value::String(w)) => Some(
            r.players
                .iter()
                .position(|p| p == w)
                .ok_or_else(|| bad(format!("`{w}` is not a player")))? as u8,
        ),
        _ => return Err(bad("no `winner`".into())),
    };
    let reason = v
        .get("reason")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("no `reason`".into()))?;
    let reason = variant
        .engine
        .reasons()
        .iter()
        .find(|known| &***known == reason)
        .cloned()
        .ok_or_else(|| bad(format!("`{reason}` is not an end of {}", r.name)))?;
    let mut scores = [0i64; 2];
    for (p, name) in r.players.iter().enumerate() {
        scores[p] = v
            .get("scores")
            .and_then(|s| s.get(name))
            .and_then(Value::as_i64)
            .ok_or_else(|| bad(format!("no score for {name}")))?;
    }
    Ok(Outcome {
        winner,
        reason,
        scores,
    })
}

fn read_any(variant: &Variant, text: &str, over: Over) -> Result<Game, Diagnostic> {
    let value = parse(text)?;
    let e = &variant.engine;
    let r = &e.rules;
    let whole = Span::new(0, text.len());
    // Points at a key: `"parent.key"` is looked for after `"parent"`, so
    // that a key of `stores` is not taken for the same word elsewhere.
    let bad = |path: &str, what: String, hint: String| -> Diagnostic {
        let mut at = whole;
        let mut from = 0;
        let mut key = path;
        for part in path.split('.') {
            key = part;
            match text[from..].find(&format!("\"{part}\"")) {
                Some(i) => {
                    at = Span::new(from + i, from + i + part.len() + 2);
                    from = at.end;
                }
                None => break,
            }
        }
        Diagnostic::at(at, what, format!("`{key}`")).hint(hint)
    };
    let Some(obj) = value.as_object() else {
        return Err(
            Diagnostic::at(whole, "a position is a JSON object", "not an object")
                .hint("write `{ \"to_move\": …, \"pits\": { … }, … }`"),
        );
    };
    let known = [
        "variant", "options", "to_move", "pits", "hands", "stores", "state",
    ];
    for k in obj.keys() {
        if !known.contains(&k.as_str()) {
            return Err(bad(
                k,
                format!("unknown key `{k}` in the position"),
                format!("the keys are {}", known.join(", ")),
            ));
        }
    }
    if let Some(v) = obj.get("options") {
        let Some(o) = v.as_object() else {
            return Err(bad(
                "options",
                "`options` is not an object".into(),
                "write \"options\": { \"NAME\": \"VALUE\", … }".into(),
            ));
        };
        for (k, given) in o {
            let here = &format!("options.{k}");
            let Some(setting) = r.options.iter().find(|s| s.name == *k) else {
                let names: Vec<&str> = r.options.iter().map(|s| s.name.as_str()).collect();
                let hint = if names.is_empty() {
                    format!("{} has no options: write \"options\": {{}}", r.name)
                } else {
                    format!("the options of {} are: {}", r.name, names.join(", "))
                };
                return Err(bad(
                    here,
                    format!("`{k}` is not an option of {}", r.name),
                    hint,
                ));
            };
            // (A number as its digits: `04` is `4`.)
            let given = option_text(given).map(|g| setting.choices.value_of(&g).unwrap_or(g));
            if given.as_deref() != Some(setting.value.as_str()) {
                return Err(bad(
                    here,
                    format!(
                        "the position was saved with {k} = {}, and the variant is loaded with {k} = {}",
                        given.unwrap_or_else(|| "?".into()),
                        setting.value
                    ),
                    format!("load the variant with `--option {k}=…` as the position has it"),
                ));
            }
        }
    }
    if let Some(v) = obj.get("variant") {
        if v.as_str() != Some(r.name.as_str()) {
            return Err(bad(
                "variant",
                format!("this position is for `{}`, not `{}`", v, r.name),
                format!(
                    "set \"variant\": \"{}\" or load the matching variant",
                    r.name
                ),
            ));
        }
    }
    let player = |v: &Value| -> Option<u8> {
        v.as_str()
            .and_then(|s| r.players.iter().position(|p| p == s))
            .map(|p| p as u8)
    };
    let to_move = match obj.get("to_move") {
        Some(Value::Null) if !matches!(over, Over::Refused) => None,
        Some(v) => match player(v) {
            Some(p) => Some(p),
            None => {
                return Err(bad(
                    "to_move",
                    format!("`to_move` is {v}, not a player"),
                    format!(
                        "write {}; a finished game cannot be resumed",
                        quoted(r, " or ")
                    ),
                ))
            }
        },
        None => {
            return Err(
                Diagnostic::at(whole, "the position has no `to_move`", "missing key")
                    .hint(format!("add \"to_move\": \"{}\"", r.players[0])),
            )
        }
    };
    let count = |key: &str, v: &Value| -> Result<u32, Diagnostic> {
        v.as_u64()
            .filter(|&n| n <= MAX_SEEDS)
            .map(|n| n as u32)
            .ok_or_else(|| {
                let name = key.rsplit('.').next().unwrap_or(key);
                bad(
                    key,
                    format!("`{name}` holds {v}, not a seed count"),
                    format!("counts are whole numbers from 0 to {MAX_SEEDS}"),
                )
            })
    };
    let n = r.pits.len();
    let mut cells = vec![0u32; n + 2];
    let Some(pits) = obj.get("pits").and_then(Value::as_object) else {
        return Err(bad(
            "pits",
            "the position has no `pits` object".into(),
            "list every pit by label: \"pits\": { \"A\": 4, … }".into(),
        ));
    };
    for (label, v) in pits {
        let Some(i) = r.pits.iter().position(|p| &p.label == label) else {
            let labels: Vec<&str> = r.pits.iter().map(|p| p.label.as_str()).collect();
            return Err(bad(
                label,
                format!("`{label}` is not a pit of {}", r.name),
                format!("the pits are {}", labels.join(" ")),
            ));
        };
        cells[i] = count(&format!("pits.{label}"), v)?;
    }
    let missing: Vec<&str> = order(variant)
        .map(|i| r.pits[i].label.as_str())
        .filter(|l| !pits.contains_key(*l))
        .collect();
    if !missing.is_empty() {
        let (what, verb) = if missing.len() == 1 {
            ("pit", "is")
        } else {
            ("pits", "are")
        };
        return Err(bad(
            "pits",
            format!(
                "{what} {} {verb} missing",
                missing
                    .iter()
                    .map(|l| format!("`{l}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            "list every pit of the board".into(),
        ));
    }
    let mut hands = [0u32; 2];
    for (key, target) in [("stores", 0usize), ("hands", 1)] {
        if let Some(v) = obj.get(key) {
            let Some(m) = v.as_object() else {
                return Err(bad(
                    key,
                    format!("`{key}` is not an object"),
                    format!(
                        "write \"{key}\": {{ {} }}",
                        r.players
                            .iter()
                            .map(|p| format!("\"{p}\": 0"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            };
            for (name, v) in m {
                let Some(p) = player(&Value::String(name.clone())) else {
                    return Err(bad(
                        &format!("{key}.{name}"),
                        format!("`{name}` is not a player"),
                        r.players_are(),
                    ));
                };
                let c = count(&format!("{key}.{name}"), v)?;
                if target == 0 {
                    if c > 0 && r.stores[p as usize].is_none() {
                        return Err(bad(
                            key,
                            format!("{name} has no store in {}", r.name),
                            "stores hold 0 in a variant without stores".into(),
                        ));
                    }
                    cells[n + p as usize] = c;
                } else {
                    hands[p as usize] = c;
                }
            }
        }
    }
    let mut seen = Vec::new();
    let mut rounds = 0;
    let mut vars = e.start_position().vars;
    let mut phase_claim: Option<(String, Diagnostic)> = None;
    let mut out_claim: Option<(i64, Diagnostic)> = None;
    if let Some(state) = obj.get("state") {
        let Some(state) = state.as_object() else {
            return Err(bad(
                "state",
                "`state` is not an object".into(),
                "write \"state\": {}".into(),
            ));
        };
        let mut keys: Vec<String> = r.vars.iter().map(|v| v.name.clone()).collect();
        if !r.phases.is_empty() {
            keys.push("phase".into());
        }
        if e.tracks_repetition() {
            keys.push("seen".into());
        }
        if r.rounds.is_some() {
            keys.push("round".into());
        }
        if r.seeds_leave() {
            keys.push(OUT_OF_PLAY.into());
        }
        for (k, v) in state {
            if let Some(i) = r.vars.iter().position(|var| &var.name == k) {
                read_var(variant, i, v, &mut vars, &bad)?;
                continue;
            }
            match k.as_str() {
                "phase" if !r.phases.is_empty() => {
                    let Some(claim) = v.as_str().map(str::to_string) else {
                        let names: Vec<&str> = r.phases.iter().map(|p| p.name.as_str()).collect();
                        return Err(bad(
                            "state.phase",
                            format!("`phase` holds {v}, not a phase's name"),
                            format!("the phases are {}", names.join(", ")),
                        ));
                    };
                    phase_claim = Some((claim, bad("phase", String::new(), String::new())));
                }
                OUT_OF_PLAY if r.seeds_leave() => {
                    let Some(claim) = v.as_i64() else {
                        return Err(bad(
                            "state.out_of_play",
                            format!("`out_of_play` holds {v}, not a count of seeds"),
                            "the seeds that have left the game: 0, 1, 2, …".into(),
                        ));
                    };
                    out_claim = Some((claim, bad(OUT_OF_PLAY, String::new(), String::new())));
                }
                "round" if r.rounds.is_some() => {
                    rounds = v
                        .as_u64()
                        .and_then(|x| u32::try_from(x).ok())
                        .ok_or_else(|| {
                            bad(
                                "state.round",
                                format!("`round` holds {v}, not a count of rounds"),
                                "the rounds of the match ended so far: 0, 1, 2, …".into(),
                            )
                        })?;
                }
                "seen" if e.tracks_repetition() => {
                    let len = n + 5 + e.var_slots();
                    let records = v.as_array().ok_or_else(|| {
                        bad(
                            "seen",
                            "`seen` is not a list".into(),
                            "a list of earlier positions".into(),
                        )
                    })?;
                    for rec in records {
                        let nums: Option<Vec<u32>> = rec.as_array().and_then(|a| {
                            a.iter()
                                .map(|x| x.as_u64().and_then(|x| u32::try_from(x).ok()))
                                .collect()
                        });
                        match nums {
                            Some(v) if v.len() == len && v[0] <= 1 => seen.extend(record_in(variant, &v)),
                            _ => return Err(bad("seen", "an entry of `seen` is malformed".into(), format!("each entry is [player to move (0 or 1), {n} pit counts in the order `pits` lists them, 2 stores, 2 hands, {} variable slots]", e.var_slots()))),
                        }
                    }
                }
                _ => {
                    let hint = if keys.is_empty() {
                        "this variant keeps no state".to_string()
                    } else {
                        format!("the state keys of {} are {}", r.name, keys.join(", "))
                    };
                    return Err(bad(
                        k,
                        format!("`{k}` is not a state key of {}", r.name),
                        hint,
                    ));
                }
            }
        }
    }
    let pos = Position {
        cells,
        hands,
        to_move,
        vars,
    };
    if pos.total() > MAX_SEEDS {
        return Err(bad(
            "pits",
            format!("the position holds {} seeds in all", pos.total()),
            format!("a position holds at most {MAX_SEEDS} seeds (pits, stores and hands)"),
        ));
    }
    if let Some((claim, at)) = phase_claim {
        let actual = e
            .phase(&pos)
            .map(|i| e.rules.phases[i].name.clone())
            .unwrap_or_default();
        if claim != actual {
            return Err(Diagnostic {
                message: format!(
                    "`state.phase` says `{claim}`, but this position is in phase `{actual}`"
                ),
                hint: Some(
                    "the phase follows from the position; remove `phase` or correct it".into(),
                ),
                ..at
            });
        }
    }
    if r.seeds_leave() && pos.total() > r.setup.total() {
        // (Seeds leave the game in this variant, and never come into it:
        // more than the setup's would be a negative count out of play.)
        return Err(bad(
            "pits",
            format!(
                "this position holds {} seeds, more than the {} the setup lays out",
                pos.total(),
                r.setup.total()
            ),
            format!(
                "in {} seeds only ever leave the game: a position holds at most the setup's",
                r.name
            ),
        ));
    }
    if let Some((claim, at)) = out_claim {
        let actual = r.setup.out_of_play(pos.total());
        if claim != actual {
            return Err(Diagnostic {
                message: format!(
                    "`state.out_of_play` says {claim}, but this position has {actual} seeds out of play"
                ),
                hint: Some(format!(
                    "it follows from the position: the setup's {} seeds less the {} in play; remove `out_of_play` or correct it",
                    r.setup.total(),
                    pos.total()
                ).into()),
                ..at
            });
        }
    }
    if let (Some(p), Over::With(_)) = (pos.to_move, over) {
        return Err(bad(
            "to_move",
            format!(
                "a result is given, but this position is not a finished game's: {} is to move",
                r.players[p as usize]
            ),
            "a finished game's position has `\"to_move\": null`; give no result for a game in play"
                .into(),
        ));
    }
    if pos.to_move.is_none() {
        // A finished game's position (see `Over`).
        let result = match over {
            Over::With(v) => Some(read_outcome(variant, v)?),
            Over::Board | Over::Refused => None,
        };
        let mut game = Game::ended_at(e.clone(), pos, result);
        game.set_rounds(rounds);
        return Ok(game);
    }
    let mut game = Game::from_position(e.clone(), pos, seen).map_err(|_| {
        Diagnostic::new("judging the legal turns of this position ran past the engine's limit")
            .hint(crate::limits::TOO_LONG)
    })?;
    game.set_rounds(game.rounds().saturating_add(rounds));
    Ok(game)
}

/// Reads one variable's entry of `state`.
fn read_var(
    variant: &Variant,
    i: usize,
    v: &Value,
    vars: &mut [u32],
    bad: &dyn Fn(&str, String, String) -> Diagnostic,
) -> Result<(), Diagnostic> {
    let e = &variant.engine;
    let r = &e.rules;
    let var = &r.vars[i];
    let base = e.var_base(i);
    let value = |x: &Value| -> Result<u32, Diagnostic> {
        if let Some((low, high)) = var.numbers {
            return x
                .as_i64()
                .filter(|n| (low..=high).contains(n))
                .map(|n| (n - low) as u32)
                .ok_or_else(|| {
                    bad(
                        &var.name,
                        format!("{x} is not a value of `{}`", var.name),
                        format!("a whole number from {low} to {high}"),
                    )
                });
        }
        x.as_str()
            .and_then(|s| var.values.iter().position(|w| w == s))
            .map(|p| p as u32)
            .ok_or_else(|| {
                bad(
                    &var.name,
                    format!("{x} is not a value of `{}`", var.name),
                    format!("one of: {}", var.values.join(", ")),
                )
            })
    };
    let entries = |what: &str| -> Result<&Map<String, Value>, Diagnostic> {
        v.as_object().ok_or_else(|| {
            bad(
                &var.name,
                format!("`{}` holds one value per {what}", var.name),
                format!("write an object keyed by {what}"),
            )
        })
    };
    match var.scope {
        VarScope::Game => vars[base] = value(v)?,
        VarScope::Player => {
            for (name, x) in entries("player")? {
                let Some(p) = r.players.iter().position(|p| p == name) else {
                    return Err(bad(
                        &format!("{}.{name}", var.name),
                        format!("`{name}` is not a player"),
                        r.players_are(),
                    ));
                };
                vars[base + p] = value(x)?;
            }
        }
        VarScope::Pit => {
            for (label, x) in entries("pit")? {
                let Some(p) = r.pits.iter().position(|p| &p.label == label) else {
                    return Err(bad(
                        label,
                        format!("`{label}` is not a pit"),
                        "use the variant's labels".into(),
                    ));
                };
                vars[base + p] = value(x)?;
            }
        }
    }
    Ok(())
}

fn offset(text: &str, line: usize, column: usize) -> usize {
    let mut at = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return (at + column.saturating_sub(1)).min(text.len());
        }
        at += l.len();
    }
    text.len().saturating_sub(1)
}

/// The variant as data, for programs that map its board without reading
/// its text (`sow show --format json`, `/api/show`, Python's
/// `Variant.board`): its name and title, the players in order (the first
/// drawn at the bottom), the rows as drawn from top to bottom (each its
/// owner, or, for a row the players share, none and each pit's owner; its
/// group; its labels from left to right), the stores with
/// their owner and the side they are drawn at, the players who hold
/// seeds in hand, and its options with the values in force.
pub fn variant(variant: &Variant) -> Value {
    let r = &variant.engine.rules;
    let name = |p: u8| r.players[p as usize].clone();
    let rows: Vec<Value> = r
        .rows
        .iter()
        .map(|row| {
            let labels: Vec<&str> = row
                .pits
                .iter()
                .map(|&p| r.pits[p as usize].label.as_str())
                .collect();
            match row.owner {
                Some(owner) => json!({"owner": name(owner), "group": row.group, "pits": labels}),
                // (A row the players share: each pit's owner, in order.)
                None => {
                    let owners: Vec<String> = row
                        .pits
                        .iter()
                        .map(|&p| name(r.pits[p as usize].owner))
                        .collect();
                    json!({"owner": null, "owners": owners, "group": row.group, "pits": labels})
                }
            }
        })
        .collect();
    let stores: Vec<Value> = (0..r.players.len())
        .filter_map(|p| r.stores[p].map(|side| json!({"owner": name(p as u8), "side": side})))
        .collect();
    let hands: Vec<String> = if r.uses_hands() {
        r.players.clone()
    } else {
        Vec::new()
    };
    let options: Vec<Value> = r
        .options
        .iter()
        .map(|o| json!({ "name": o.name, "value": o.value, "choices": o.choices }))
        .collect();
    json!({
        "name": r.name,
        "title": r.title,
        "players": r.players,
        "rows": rows,
        "stores": stores,
        "hands": hands,
        "options": options,
    })
}
