//! The catalogue games against MancalaGames 1.10.1: every game of
//! `tests/oracles/catalogue/SLUG.jsonl.gz` (30 random games a file),
//! ply by ply. At every ply the set of legal moves is the engine's, and
//! each move leads to the engine's pits, stores, player to move, end and
//! winner; the game started as a user starts it (the variant's setup,
//! `--first` the oracle's first player) and replayed move by move reaches
//! every record.
//! The rules are `docs/rules/catalogue/SLUG.md`; the variants cite
//! its clauses.

use crate::common;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use sow::{Game, Outcome, Variant};

/// A record: a position of a game, the moves legal in it and where each
/// leads. Pits and stores are kept as the file writes them (the records
/// run to a gigabyte of text: reading each into a map took most of the
/// test's time).
#[derive(Deserialize)]
struct Record<'a> {
    index: u64,
    ply: u64,
    round: u64,
    to_move: Value,
    #[serde(borrow)]
    pits: &'a RawValue,
    #[serde(borrow)]
    stores: &'a RawValue,
    state: Value,
    moves: Vec<Successor<'a>>,
    chosen: usize,
}

/// A legal move of a record and the position it leads to.
#[derive(Deserialize)]
struct Successor<'a> {
    text: String,
    #[serde(borrow)]
    pits: &'a RawValue,
    #[serde(borrow)]
    stores: &'a RawValue,
    state: Value,
    #[serde(default)]
    to_move: Value,
    #[serde(default)]
    ended: bool,
    #[serde(default)]
    winner: Value,
    #[serde(default)]
    round_over: bool,
    #[serde(default)]
    round_end: Value,
}

/// The pits, stores and state of a record or a move's result.
struct Written<'a> {
    pits: &'a RawValue,
    stores: &'a RawValue,
    state: &'a Value,
}

impl Record<'_> {
    fn seeds(&self) -> Written<'_> {
        Written {
            pits: self.pits,
            stores: self.stores,
            state: &self.state,
        }
    }
}

impl Successor<'_> {
    fn seeds(&self) -> Written<'_> {
        Written {
            pits: self.pits,
            stores: self.stores,
            state: &self.state,
        }
    }
}

impl Written<'_> {
    /// Whether `seen` (a game's pits, stores and state as the oracle
    /// writes them) is what the record says, the state as `map` compares
    /// it.
    fn agrees(&self, seen: &Value, map: &dyn Reading) -> bool {
        says(self.pits, &seen["pits"])
            && says(self.stores, &seen["stores"])
            && map.oracle_state(self.state) == seen["state"]
    }

    /// The record as the messages quote it.
    fn quoted(&self, map: &dyn Reading) -> String {
        format!(
            r#"{{"pits":{},"stores":{},"state":{}}}"#,
            self.pits,
            self.stores,
            map.oracle_state(self.state)
        )
    }
}

/// Whether the JSON text `raw` says `value`: the same text, or else the
/// same value once read.
fn says(raw: &RawValue, value: &Value) -> bool {
    serde_json::to_string(value).is_ok_and(|text| text == raw.get())
        || serde_json::from_str::<Value>(raw.get()).is_ok_and(|v| v == *value)
}

/// The games of an oracle file's text, by index, each its records in ply
/// order.
fn games<'a>(slug: &str, text: &'a str) -> Vec<Vec<Record<'a>>> {
    let mut games: Vec<Vec<Record>> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let r: Record = serde_json::from_str(line).expect("a JSON record");
        let index = r.index as usize;
        if games.len() <= index {
            games.resize_with(index + 1, Vec::new);
        }
        assert_eq!(
            r.ply,
            games[index].len() as u64,
            "{slug} game {index}: records in ply order"
        );
        games[index].push(r);
    }
    games
}

/// How a variant's positions and moves read as the oracle's.
trait Reading {
    /// Whether the variant's position holds more than its seeds (pits,
    /// stores) and the player to move: variables, phases, rounds.
    fn keeps_state(&self) -> bool {
        true
    }
    /// The oracle's `state` for a variant's position.
    fn to_oracle(&self, _sow: &Value) -> Value {
        json!({})
    }
    /// The oracle's `state` as it is compared: all of it, unless a
    /// counter stands for less (see `Lamlameta`).
    fn oracle_state(&self, state: &Value) -> Value {
        state.clone()
    }
    /// The oracle's stores for a variant's position.
    fn stores_to_oracle(&self, sow: &Value) -> Value {
        sow["stores"].clone()
    }
}

/// A game whose positions hold nothing beyond pits, stores and the player
/// to move.
struct NoState;

impl Reading for NoState {
    fn keeps_state(&self) -> bool {
        false
    }
}

/// What went wrong, where.
struct Mismatches {
    slug: &'static str,
    found: Vec<String>,
    plies: usize,
    moves: usize,
}

impl Mismatches {
    fn note(&mut self, index: u64, ply: u64, text: &str, what: String) {
        self.found.push(format!(
            "{} game {index} ply {ply} move {text}: {what}",
            self.slug
        ));
    }

    /// Notes a move that ends `what` (a round, the game) won by another
    /// than the oracle's `winner`.
    fn won(&mut self, index: u64, ply: u64, text: &str, what: &str, o: &Outcome, winner: &Value) {
        if player_name(o.winner) != *winner {
            self.note(
                index,
                ply,
                text,
                format!(
                    "ends {what} won by {:?} ({}, scores {:?}), not {winner}",
                    o.winner, o.reason, o.scores
                ),
            );
        }
    }
}

/// The pits, stores and state of a game as the oracle writes them.
fn seen(variant: &Variant, game: &Game, map: &dyn Reading) -> Value {
    let p = if map.keeps_state() {
        sow::json::position(variant, game)
    } else {
        sow::json::seeds(variant, game.position())
    };
    json!({"pits": p["pits"], "stores": map.stores_to_oracle(&p), "state": map.to_oracle(&p)})
}

fn player_name(p: Option<u8>) -> Value {
    match p {
        Some(0) => json!("south"),
        Some(1) => json!("north"),
        Some(other) => panic!("player {other}"),
        None => Value::Null,
    }
}

/// Plays every record of every game of `slug` against the shipped variant.
fn replay(slug: &'static str, map: &dyn Reading) -> Mismatches {
    replay_variant(slug, &common::shipped(slug), map)
}

/// Plays every record of every game of `slug` against `variant`.
fn replay_variant(slug: &'static str, variant: &Variant, map: &dyn Reading) -> Mismatches {
    let variant = variant.clone();
    let mut out = Mismatches {
        slug,
        found: Vec::new(),
        plies: 0,
        moves: 0,
    };
    let text = common::gunzip(&common::oracle(&format!("catalogue/{slug}.jsonl.gz")));
    let games = games(slug, &text);
    assert_eq!(games.len(), 30, "{slug}: 30 games");
    for records in &games {
        // The game as a user starts it: the variant's own setup, the
        // oracle's first player named as `--first` names it (a variant
        // that leaves clause 5 out refuses the name). Ply 0's record must
        // then be that start.
        let first = records[0].to_move.as_str().expect("a first player");
        let start = variant
            .start_position(Some(first))
            .unwrap_or_else(|e| panic!("{slug}: `--first {first}`: {e}"));
        let mut line = Game::from_position(variant.engine.clone(), start, Vec::new())
            .expect("a start within the engine's limits");
        for r in records {
            let (index, ply) = (r.index, r.ply);
            out.plies += 1;
            let here = seen(&variant, &line, map);
            let to_move = player_name(line.position().to_move);
            if line.rounds() as u64 != r.round {
                out.note(
                    index,
                    ply,
                    "-",
                    format!(
                        "replayed from the start, {} rounds are over, not {}",
                        line.rounds(),
                        r.round
                    ),
                );
                break;
            }
            if !r.seeds().agrees(&here, map) || to_move != r.to_move {
                out.note(index, ply, "-", format!(
                    "replayed from the start, the position is {here} with {to_move} to move, not {} with {}",
                    r.seeds().quoted(map), r.to_move
                ));
                break;
            }
            // The legal moves, as a set.
            let mut mine: Vec<String> = line
                .legal_turns()
                .iter()
                .map(|&t| sow::notation::write_turn(&line, t))
                .collect();
            let mut theirs: Vec<String> = r.moves.iter().map(|m| m.text.clone()).collect();
            mine.sort();
            theirs.sort();
            if mine != theirs {
                out.note(
                    index,
                    ply,
                    "-",
                    format!("legal moves {mine:?}, not {theirs:?}"),
                );
                continue;
            }
            for m in &r.moves {
                out.moves += 1;
                let text = m.text.as_str();
                let turn = sow::notation::parse_turn(&line, text)
                    .unwrap_or_else(|d| panic!("{slug} game {index} ply {ply}: {text}: {d}"));
                let mut after = line.clone();
                after.play(turn).expect("a move within the engine's limits");
                let got = seen(&variant, &after, map);
                if !m.seeds().agrees(&got, map) {
                    let want = m.seeds().quoted(map);
                    out.note(index, ply, text, format!("leads to {got}, not {want}"));
                }
                let (ended, round_over) = (m.ended, m.round_over);
                match (after.round_end(), round_over) {
                    (Some(end), true) => {
                        // The round as it ended, and its winner.
                        let p = sow::json::seeds(&variant, &end.position);
                        let got = json!({"pits": p["pits"], "stores": map.stores_to_oracle(&p)});
                        if got != m.round_end {
                            out.note(
                                index,
                                ply,
                                text,
                                format!("ends the round at {got}, not {}", m.round_end),
                            );
                        }
                        out.won(index, ply, text, "a round", &end.outcome, &m.winner);
                    }
                    (Some(end), false) => out.note(
                        index,
                        ply,
                        text,
                        format!("ends a round ({})", end.outcome.reason),
                    ),
                    (None, true) => out.note(index, ply, text, "does not end the round".into()),
                    (None, false) => {}
                }
                match after.outcome() {
                    Some(o) if ended => out.won(index, ply, text, "the game", o, &m.winner),
                    Some(o) => out.note(index, ply, text, format!("ends the game ({})", o.reason)),
                    None if ended => out.note(index, ply, text, "does not end the game".into()),
                    None => {
                        let to_move = player_name(after.position().to_move);
                        if to_move != m.to_move {
                            out.note(
                                index,
                                ply,
                                text,
                                format!("hands the move to {to_move}, not {}", m.to_move),
                            );
                        }
                    }
                }
            }
            // On along the line played.
            let chosen = &r.moves[r.chosen];
            let turn = sow::notation::parse_turn(&line, &chosen.text)
                .expect("the chosen move is legal on the line replayed");
            line.play(turn).expect("a move within the engine's limits");
        }
    }
    out
}

/// Asserts that a game agrees with its oracle everywhere.
fn agrees(slug: &'static str, map: &dyn Reading) {
    assert_agreement(slug, replay(slug, map));
}

/// The variant the book's tutorial writes, step by step, from the rules
/// page of SimpleCapt (shipped too, as `simplecapt`): the file it ends with
/// agrees with MancalaGames on every ply of its 30 games.
#[test]
fn the_tutorial_variant_agrees_with_its_oracle() {
    let path = "docs/book/src/tutorial/simplecapt.sow";
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let v = Variant::from_source(path, &text).unwrap_or_else(|e| panic!("{}", e.render()));
    assert_agreement("simplecapt", replay_variant("simplecapt", &v, &NoState));
}

fn assert_agreement(slug: &str, out: Mismatches) {
    assert!(
        out.found.is_empty(),
        "{} mismatches in {} plies, {} moves; the first:\n{}",
        out.found.len(),
        out.plies,
        out.moves,
        out.found[..out.found.len().min(12)].join("\n")
    );
    assert!(out.moves > 0, "{slug}: no move was checked");
    eprintln!("{slug}: {} plies, {} moves agree", out.plies, out.moves);
}

#[test]
fn tihbat() {
    agrees("tihbat", &NoState);
}

#[test]
fn mangala_ii() {
    agrees("mangala-ii", &NoState);
}

#[test]
fn songo() {
    agrees("songo", &NoState);
}

#[test]
fn leb_bbut_ahbochen() {
    agrees("leb-bbut-ahbochen", &NoState);
}

#[test]
fn tchuka_ruma() {
    agrees("tchuka-ruma", &NoState);
}

#[test]
fn bohnenspiel() {
    agrees("bohnenspiel", &NoState);
}

#[test]
fn kale() {
    agrees("kale", &NoState);
}

#[test]
fn wari_mg() {
    agrees("wari-mg", &NoState);
}

#[test]
fn cross_kalah() {
    agrees("cross-kalah", &NoState);
}

#[test]
fn kalah_mg() {
    agrees("kalah-mg", &NoState);
}

#[test]
fn achochodi() {
    agrees("achochodi", &NoState);
}

/// The variable `barred` as the oracle's `undo_barred`, if a hole is.
fn barred_to_oracle(p: &Value, state: &mut serde_json::Map<String, Value>) {
    let barred: Vec<&String> = p["state"]["barred"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, v)| v.as_str() == Some("yes"))
        .map(|(l, _)| l)
        .collect();
    match barred.as_slice() {
        [] => {}
        [one] => {
            state.insert("undo_barred".into(), json!(one));
        }
        many => panic!("holes barred at once: {many:?}"),
    }
}

/// Alemungula: the hole barred (AL7) is the per-pit variable `barred`; a
/// direction chosen in the middle hole (AL8) is written as the oracle
/// writes it (`Cccw`, `Ccw`).
struct Alemungula;

impl Reading for Alemungula {
    fn to_oracle(&self, p: &Value) -> Value {
        let mut state = serde_json::Map::new();
        barred_to_oracle(p, &mut state);
        Value::Object(state)
    }
}

#[test]
fn alemungula() {
    agrees("alemungula", &Alemungula);
}

/// The variable `child` as the oracle's children, if there are any.
fn children_to_oracle(p: &Value, state: &mut serde_json::Map<String, Value>) {
    let children: serde_json::Map<String, Value> = p["state"]["child"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, v)| v.as_str() != Some("none"))
        .map(|(l, v)| (l.clone(), v.clone()))
        .collect();
    if !children.is_empty() {
        state.insert("children".into(), Value::Object(children));
    }
}

/// Toguz Kumalak: a child (TK11) is the per-pit variable `child`.
struct Children;

impl Reading for Children {
    fn to_oracle(&self, p: &Value) -> Value {
        let mut state = serde_json::Map::new();
        children_to_oracle(p, &mut state);
        Value::Object(state)
    }
}

/// A match whose holes become children (the per-pit variable `child`),
/// its rounds started in turn (`starter`): Leyla-Gobale's rounds.
struct ChildrenMatch;

impl Reading for ChildrenMatch {
    fn to_oracle(&self, p: &Value) -> Value {
        let mut state = serde_json::Map::new();
        state.insert("starter".into(), p["state"]["starter"].clone());
        children_to_oracle(p, &mut state);
        Value::Object(state)
    }
}

#[test]
fn toguz_kumalak() {
    agrees("toguz-kumalak", &Children);
}

/// Kâra: a pass (KR7) is written `pass` by both.
#[test]
fn kara() {
    agrees("kara", &NoState);
}

/// Qelat: children (QL14) are the per-pit variable `child`, the hole
/// barred (QL7) the per-pit variable `barred`.
struct Qelat;

impl Reading for Qelat {
    fn to_oracle(&self, p: &Value) -> Value {
        let mut state = serde_json::Map::new();
        children_to_oracle(p, &mut state);
        barred_to_oracle(p, &mut state);
        Value::Object(state)
    }
}

#[test]
fn qelat() {
    agrees("qelat", &Qelat);
}

/// Enkeshui: children (bulls, EK16) are the per-pit variable `child`.
#[test]
fn enkeshui() {
    agrees("enkeshui", &Children);
}

/// Ayoayo, the two sowings cut at 75 laps (AY12, AY21) among them.
#[test]
fn ayoayo() {
    agrees("ayoayo", &NoState);
}

/// Deka: blocked holes (DE10) are the per-pit variable `blocked`, the first
/// turn (DE14) the variable `opening`. The board has no stores (DE2) and
/// a seed reaching a blocked hole leaves the game (DE10); the engine's
/// records count those seeds in South's store, which is compared with the
/// seeds sow says are out of play (the position's `out_of_play`).
struct Deka;

impl Reading for Deka {
    fn to_oracle(&self, p: &Value) -> Value {
        let mut state = serde_json::Map::new();
        blocked_to_oracle(p, &mut state);
        if p["state"]["opening"] == json!("yes") {
            state.insert("captures_inhibited".into(), json!(true));
        }
        Value::Object(state)
    }
    fn stores_to_oracle(&self, p: &Value) -> Value {
        // DE10: the seeds that left the game, where the engine keeps them.
        left_in_south(p)
    }
}

/// A board without stores whose seeds leave the game: the engine's records
/// count those that left in South's store, sow's position in
/// `out_of_play`.
fn left_in_south(p: &Value) -> Value {
    let out = &p["state"]["out_of_play"];
    assert!(out.is_u64(), "a position of a game seeds leave: {p}");
    json!({"south": out, "north": 0})
}

/// A game without stores whose closed holes (the oracle's `blocked`) are
/// the per-pit variable `blocked`, and whose seeds leave the game as holes
/// close: the engine's records count them in South's store (Nambayi N2,
/// Embeli EM2: the pages' notes).
struct Leaving;

impl Reading for Leaving {
    fn to_oracle(&self, p: &Value) -> Value {
        let mut state = serde_json::Map::new();
        blocked_to_oracle(p, &mut state);
        Value::Object(state)
    }
    fn stores_to_oracle(&self, p: &Value) -> Value {
        left_in_south(p)
    }
}

/// Ali Guli Mane: a match whose holes may be blocked, read as `Blocked`
/// reads Pallanguli's; the repeat turns taken in a row (AGM15, the
/// oracle's `repeat_turns_taken`, absent while 0) are the game's number
/// variable `repeats`.
struct AliGuliMane;

impl Reading for AliGuliMane {
    fn to_oracle(&self, p: &Value) -> Value {
        let mut state = BLOCKED_STARTER.to_oracle(p);
        if p["state"]["repeats"] != 0 {
            state["repeat_turns_taken"] = p["state"]["repeats"].clone();
        }
        state
    }
}

#[test]
fn deka() {
    agrees("deka", &Deka);
}

/// Ba-awa: a pass (BA7) is written `pass` by both.
#[test]
fn ba_awa() {
    agrees("ba-awa", &NoState);
}

/// Pallanguli, a single game: a pass (PS8) is written `pass` by both.
#[test]
fn pallanguli_single() {
    agrees("pallanguli-single", &NoState);
}

/// Azigo: a turn sown from the store (AZ7) is written `store:N` by both.
#[test]
fn azigo() {
    agrees("azigo", &NoState);
}

/// A match in rounds whose holes may be blocked (`blocked`, the per-pit
/// variable of that name): Dakon, Pallanguli. The oracle's `starter` is the
/// engine's where the variant reads it; the engine's `last_mover` and
/// `round` are not the oracle's state (the rounds are compared as the
/// records count them).
struct Blocked {
    /// The variant reads who started the round (`starter`).
    starter: bool,
    /// Holes are locked until played (`locked`, a per-pit variable).
    locked: bool,
}

/// The per-pit variable `blocked` as the oracle's list, if any is.
fn blocked_to_oracle(p: &Value, state: &mut serde_json::Map<String, Value>) {
    listed_to_oracle(p, "blocked", state)
}

/// A per-pit variable of `yes` and `no` as the oracle's list under the
/// same name, if any pit is `yes`.
fn listed_to_oracle(p: &Value, key: &str, state: &mut serde_json::Map<String, Value>) {
    let listed: Vec<Value> = p["state"][key]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, v)| v.as_str() == Some("yes"))
        .map(|(l, _)| json!(l))
        .collect();
    if !listed.is_empty() {
        state.insert(key.into(), Value::Array(listed));
    }
}

impl Reading for Blocked {
    fn to_oracle(&self, p: &Value) -> Value {
        let mut state = serde_json::Map::new();
        blocked_to_oracle(p, &mut state);
        if self.starter {
            state.insert("starter".into(), p["state"]["starter"].clone());
        }
        if self.locked {
            listed_to_oracle(p, "locked", &mut state);
        }
        Value::Object(state)
    }
}

#[test]
fn dakon() {
    agrees(
        "dakon",
        &Blocked {
            starter: false,
            locked: false,
        },
    );
}

#[test]
fn pallanguli() {
    agrees(
        "pallanguli",
        &Blocked {
            starter: true,
            locked: false,
        },
    );
}

#[test]
fn bechi() {
    agrees(
        "bechi",
        &Blocked {
            starter: true,
            locked: true,
        },
    );
}

/// Olinda: a match whose holes may be blocked, read as `Blocked` reads
/// Pallanguli's; each player's direction for the round (the oracle's
/// `dirs`, absent before a round's first move) is the per-player variable
/// `heading` (`forward` is `ccw`, `unnamed` before it is named); moves are
/// written as the oracle writes them (`Accw`, `Acw`).
struct Olinda;

const OLINDA_ROUNDS: Blocked = Blocked {
    starter: true,
    locked: false,
};

impl Reading for Olinda {
    fn to_oracle(&self, p: &Value) -> Value {
        let mut state = OLINDA_ROUNDS.to_oracle(p);
        if let Some(dirs) = dirs_to_oracle(p) {
            state["dirs"] = dirs;
        }
        state
    }
}

/// The variable `heading` as the oracle's `dirs`, once both are named.
fn dirs_to_oracle(p: &Value) -> Option<Value> {
    let dir = |p: &Value| match p.as_str() {
        Some("forward") => Some(json!("ccw")),
        Some("backward") => Some(json!("cw")),
        _ => None,
    };
    let h = &p["state"]["heading"];
    let (s, n) = (dir(&h["south"])?, dir(&h["north"])?);
    Some(json!({"south": s, "north": n}))
}

/// A single game whose players' directions, once the first move names
/// one, are the per-player variable `heading` (the oracle's `dirs`), read
/// as Olinda's; moves are written as the oracle writes them (`Accw`).
struct Headings;

impl Reading for Headings {
    fn to_oracle(&self, p: &Value) -> Value {
        match dirs_to_oracle(p) {
            Some(dirs) => json!({ "dirs": dirs }),
            None => json!({}),
        }
    }
}

#[test]
fn olinda() {
    agrees("olinda", &Olinda);
}

/// Lamlameta: a match whose holes may be blocked, read as `Blocked` reads
/// Dakon's. The oracle counts the round's moves and turns
/// (`round_moves`, `round_turns`) and says while captures are inhibited
/// (`captures_inhibited`); what decides play is only whether the round's
/// first turn is still to be played (LM8, LM13, LM17: no move earns a
/// repeat turn, so its first move is its first turn), the game variable
/// `opening`. The test asserts the three agree on that in every record,
/// and compares it.
struct Lamlameta;

const LAMLAMETA_ROUNDS: Blocked = Blocked {
    starter: false,
    locked: false,
};

/// Whether an oracle's state is at a round's first turn, the counters and
/// the inhibition of captures agreeing on it.
fn opening(state: &Value) -> bool {
    let count = |k: &str| state[k].as_u64().unwrap_or(0);
    // (Lami's records count the moves only: no move earns a repeat turn.)
    let first = match state.get("round_turns") {
        Some(_) => count("round_turns") == 0,
        None => count("round_moves") == 0,
    };
    assert_eq!(count("round_moves") == 0, first, "{state}");
    assert_eq!(
        state["captures_inhibited"].as_bool().unwrap_or(false),
        first,
        "{state}"
    );
    first
}

impl Reading for Lamlameta {
    fn oracle_state(&self, oracle: &Value) -> Value {
        let mut state = serde_json::Map::new();
        if let Some(blocked) = oracle.get("blocked") {
            state.insert("blocked".into(), blocked.clone());
        }
        state.insert("opening".into(), json!(opening(oracle)));
        Value::Object(state)
    }
    fn to_oracle(&self, p: &Value) -> Value {
        let mut state = LAMLAMETA_ROUNDS.to_oracle(p);
        state["opening"] = json!(p["state"]["opening"] == "yes");
        state
    }
}

#[test]
fn lamlameta() {
    agrees("lamlameta", &Lamlameta);
}

/// The per-pit variable `holder` as the oracle's `owners`, if some hole
/// belongs to the other side (South's holes are labelled in capitals).
fn owners_to_oracle(p: &Value, state: &mut serde_json::Map<String, Value>) {
    let row = |l: &str| {
        if l.starts_with(char::is_uppercase) {
            "south"
        } else {
            "north"
        }
    };
    let owners: serde_json::Map<String, Value> = p["state"]["holder"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(l, h)| {
            let h = h.as_str().unwrap();
            (l.clone(), json!(if h == "none" { row(l) } else { h }))
        })
        .collect();
    if owners.iter().any(|(l, o)| o != row(l)) {
        state.insert("owners".into(), Value::Object(owners));
    }
}

struct Territory {
    /// Holes become children (`children`, the per-pit variable `child`).
    children: bool,
    /// The starters alternate (`starter`, the engine's).
    starter: bool,
    /// Nothing is captured in a round's first turn (the oracle's
    /// `captures_inhibited`, the game variable `opening`: Lam Waladach
    /// LW17).
    opening: bool,
}

impl Reading for Territory {
    fn to_oracle(&self, p: &Value) -> Value {
        let mut state = serde_json::Map::new();
        if self.starter {
            state.insert("starter".into(), p["state"]["starter"].clone());
        }
        owners_to_oracle(p, &mut state);
        if self.children {
            children_to_oracle(p, &mut state);
        }
        if self.opening && p["state"]["opening"] == "yes" {
            state.insert("captures_inhibited".into(), json!(true));
        }
        Value::Object(state)
    }
    fn oracle_state(&self, oracle: &Value) -> Value {
        let mut state = oracle.clone();
        if !self.starter {
            state.as_object_mut().unwrap().remove("starter");
        }
        state
    }
}

#[test]
fn namnam() {
    agrees(
        "namnam",
        &Territory {
            children: false,
            starter: true,
            opening: false,
        },
    );
}

#[test]
fn weg() {
    agrees(
        "weg",
        &Territory {
            children: true,
            starter: true,
            opening: false,
        },
    );
}

/// A variant file tried against a catalogue game before it ships:
/// `SOW_TRY=FILE SOW_TRY_SLUG=SLUG [SOW_TRY_READING=NAME] cargo test --test
/// catalogue try_a_file -- --ignored`. `NAME` is how the oracle's state
/// reads (`none`, `children`, `qelat`, `blocked`, `blocked-starter`,
/// `territory`, `territory-children`, `territory-no-starter`, `wins`,
/// `points`, `first-turn`, `first-two-turns`); it prints every mismatch, as
/// a test of a shipped game would.
#[test]
#[ignore = "run by hand on a file being written"]
fn try_a_file() {
    let path = std::env::var("SOW_TRY").expect("SOW_TRY=the variant file");
    let slug: &'static str = std::env::var("SOW_TRY_SLUG")
        .expect("SOW_TRY_SLUG=the catalogue game")
        .leak();
    let reading = std::env::var("SOW_TRY_READING").unwrap_or_else(|_| "none".into());
    let blocked = |starter| Blocked {
        starter,
        locked: false,
    };
    let map: Box<dyn Reading> = match reading.as_str() {
        "none" => Box::new(NoState),
        "children" => Box::new(Children),
        "blocked" => Box::new(blocked(false)),
        "blocked-starter" => Box::new(blocked(true)),
        "qelat" => Box::new(Qelat),
        "territory" => Box::new(Territory {
            children: false,
            starter: true,
            opening: false,
        }),
        "territory-children" => Box::new(Territory {
            children: true,
            starter: true,
            opening: false,
        }),
        "territory-no-starter" => Box::new(Territory {
            children: false,
            starter: false,
            opening: false,
        }),
        "wins" => Box::new(WINS),
        "lamlameta" => Box::new(Lamlameta),
        "adji-boto" => Box::new(FirstTurns {
            upto: 2,
            locked: true,
        }),
        "headings" => Box::new(Headings),
        "children-match" => Box::new(ChildrenMatch),
        "first-turn" => Box::new(FirstTurns {
            upto: 1,
            locked: false,
        }),
        "ali-guli-mane" => Box::new(AliGuliMane),
        "leaving" => Box::new(Leaving),
        "first-two-turns" => Box::new(FirstTurns {
            upto: 2,
            locked: false,
        }),
        "points" => Box::new(POINTS),
        other => panic!("SOW_TRY_READING={other}: not a reading this test knows"),
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v = Variant::from_source(&path, &text).unwrap_or_else(|e| panic!("{}", e.render()));
    assert_agreement(slug, replay_variant(slug, &v, map.as_ref()));
}

/// A test for each game given, replaying its oracle with the reading
/// given: `test_name: "slug" => reading;`.
macro_rules! agree {
    ($($(#[$doc:meta])* $test:ident: $slug:literal => $map:expr;)*) => {
        $(
            $(#[$doc])*
            #[test]
            fn $test() {
                agrees($slug, &$map);
            }
        )*
    };
}

/// The blocked holes of a match whose round's first player is the last
/// round's last mover (as Dakon's).
const BLOCKED: Blocked = Blocked {
    starter: false,
    locked: false,
};

/// The blocked holes of a match whose starters alternate (as
/// Pallanguli's).
const BLOCKED_STARTER: Blocked = Blocked {
    starter: true,
    locked: false,
};

/// Holes won between rounds, the starters alternating (as NamNam's).
const TERRITORY: Territory = Territory {
    children: false,
    starter: true,
    opening: false,
};

/// Holes won between rounds, and children (as Weg's).
const TERRITORY_CHILDREN: Territory = Territory {
    children: true,
    starter: true,
    opening: false,
};

/// Holes won between rounds, the next round's starter read from the last
/// (its winner, or its last mover), not kept.
const OWNERS: Territory = Territory {
    children: false,
    starter: false,
    opening: false,
};

/// LW20: the round's starter takes the seeds left when 1 to 6 remain
/// (MancalaGames' `PICK2XLASTSEEDS`: twice the 3 seeds a hole starts with),
/// and so the starter is compared. (LW17: no capture in a round's first
/// turn, the game variable `opening`.)
#[test]
fn lam_waladach() {
    agrees(
        "lam-waladach",
        &Territory {
            children: false,
            starter: true,
            opening: true,
        },
    );
}

/// M13: the chain runs clockwise whichever way the mover sowed.
#[test]
fn mbangbi() {
    agrees("mbangbi", &NoState);
}

/// AIN11: a hole sown to 4 in passing is taken only in the mover's row,
/// by the mover.
#[test]
fn adi_ii_no_rounds() {
    agrees("adi-ii-no-rounds", &NoState);
}

/// AI11, as AIN11 of its single game.
#[test]
fn adi_ii() {
    agrees("adi-ii", &TERRITORY);
}

/// BA17: the round's starter takes the seeds left when 1 to 8 remain.
#[test]
fn ba_awa_match() {
    agrees("ba-awa-match", &TERRITORY);
}

/// HI10: a hole sown to 4 in passing goes to the mover.
#[test]
fn hoyito_i() {
    agrees("hoyito-i", &BLOCKED_STARTER);
}

/// HI17: the seeds left are counted in the opponent's row, and the mover
/// then takes the whole board.
#[test]
fn hoyito_ii() {
    agrees("hoyito-ii", &BLOCKED_STARTER);
}

/// A match whose rounds are counted for the players (the oracle's
/// `round_wins` or `round_points`, absent while both are 0) as the
/// per-player variable `var`, each round started by the player who did
/// not start the last (`starter`).
struct Tally {
    /// The oracle's key.
    key: &'static str,
    /// The variant's variable.
    var: &'static str,
}

impl Reading for Tally {
    fn to_oracle(&self, p: &Value) -> Value {
        let mut state = serde_json::Map::new();
        state.insert("starter".into(), p["state"]["starter"].clone());
        let counts = &p["state"][self.var];
        if counts["south"] != 0 || counts["north"] != 0 {
            state.insert(self.key.into(), counts.clone());
        }
        Value::Object(state)
    }
}

/// A game whose first turns capture nothing: the oracle counts the turns
/// (`round_turns`, where it keeps them) and says while captures are
/// inhibited (`captures_inhibited`); what decides play is only how many of
/// the first `upto` turns have been played, the game's number variable
/// `turns` (held at `upto`). The test asserts the oracle's two agree on
/// that in every record, and compares it.
struct FirstTurns {
    upto: i64,
    /// Holes are locked until played (the oracle's `locked`, the per-pit
    /// variable `locked`: Adji-boto AB7).
    locked: bool,
}

impl FirstTurns {
    /// The turns played, up to `upto`, of an oracle record.
    fn played(&self, state: &Value) -> i64 {
        let inhibited = state["captures_inhibited"].as_bool().unwrap_or(false);
        let played = match state["round_turns"].as_i64() {
            Some(n) => n.min(self.upto),
            // (Kept only while captures are inhibited, where no count is.)
            None if inhibited => 0,
            None => self.upto,
        };
        assert_eq!(inhibited, played < self.upto, "{state}");
        let known = |k: &String| {
            k == "captures_inhibited" || k == "round_turns" || (self.locked && k == "locked")
        };
        assert!(state.as_object().unwrap().keys().all(known), "{state}");
        played
    }
}

impl Reading for FirstTurns {
    fn oracle_state(&self, oracle: &Value) -> Value {
        let mut state = json!({ "turns": self.played(oracle) });
        if let Some(locked) = oracle.get("locked") {
            state["locked"] = locked.clone();
        }
        state
    }
    fn to_oracle(&self, p: &Value) -> Value {
        let mut state = serde_json::Map::new();
        state.insert("turns".into(), p["state"]["turns"].clone());
        if self.locked {
            listed_to_oracle(p, "locked", &mut state);
        }
        Value::Object(state)
    }
}

/// Round wins counted (the oracle's `round_wins`) as the variable `wins`.
const WINS: Tally = Tally {
    key: "round_wins",
    var: "wins",
};

/// Points scored over the rounds (the oracle's `round_points`) as the
/// variable `points`.
const POINTS: Tally = Tally {
    key: "round_points",
    var: "points",
};

agree! {
    ot_tjin: "ot-tjin" => NoState;
    ot_tjin_2: "ot-tjin-2" => NoState;
    ot_tjin_4: "ot-tjin-4" => NoState;
    ot_tjin_5: "ot-tjin-5" => NoState;
    modiar: "modiar" => FirstTurns { upto: 1, locked: false };
    mandoli: "mandoli" => FirstTurns { upto: 2, locked: false };
    gelech: "gelech" => WINS;
    nambayi: "nambayi" => Leaving;
    embeli: "embeli" => Leaving;
    ali_guli_mane: "ali-guli-mane" => AliGuliMane;
    adji_boto: "adji-boto" => FirstTurns { upto: 2, locked: true };
    sowopdirs: "sowopdirs" => Headings;
    lami: "lami" => Lamlameta;
    sadeqa_ii: "sadeqa-ii" => TERRITORY_CHILDREN;
    rath: "rath" => Children;
    leyla_gobale_rounds: "leyla-gobale-rounds" => ChildrenMatch;
    huroy: "huroy" => WINS;
    urim: "urim" => POINTS;
    bohnenspiel_rounds: "bohnenspiel-rounds" => POINTS;
    simplecapt: "simplecapt" => NoState;
    crosscapt: "crosscapt" => NoState;
    crosscapt_four: "crosscapt-four" => NoState;
    crosscapt_five: "crosscapt-five" => NoState;
    simplecapt_lastcapt: "simplecapt-lastcapt" => NoState;
    kalah_maybe_fair: "kalah-maybe-fair" => NoState;
    nocapt: "nocapt" => NoState;
    oware_mg: "oware-mg" => NoState;
    cross_wari: "cross-wari" => NoState;
    micro_wari: "micro-wari" => NoState;
    waurie: "waurie" => NoState;
    dabuda_two: "dabuda-two" => NoState;
    hufesay: "hufesay" => NoState;
    pandi_no_rounds: "pandi-no-rounds" => NoState;
    pallam_kuzhi_no_rounds: "pallam-kuzhi-no-rounds" => NoState;
    longbeu_a_cha_walak_pussa: "longbeu-a-cha-walak-pussa" => NoState;
    longbeu_a_cha: "longbeu-a-cha" => NoState;
    endodoi_j_odu: "endodoi-j-odu" => NoState;
    endodoi: "endodoi" => NoState;
    voleur_evens: "voleur-evens" => NoState;
    voleur: "voleur" => NoState;
    valah: "valah" => NoState;
    giuthi: "giuthi" => NoState;
    ayo_no_rounds: "ayo-no-rounds" => NoState;
    j_odu_no_rounds: "j-odu-no-rounds" => NoState;
    adi_no_rounds: "adi-no-rounds" => NoState;
    obridjie: "obridjie" => NoState;
    adji_kui_i: "adji-kui-i" => NoState;
    djenon_aboure: "djenon-aboure" => NoState;
    olowuka: "olowuka" => NoState;
    vai_lun_thlan: "vai-lun-thlan" => NoState;
    halusa: "halusa" => NoState;
    goat: "goat" => NoState;
    cow: "cow" => NoState;
    bakuk: "bakuk" => NoState;
    dakon_4: "dakon-4" => BLOCKED;
    dakon_5: "dakon-5" => BLOCKED;
    dakon_6: "dakon-6" => BLOCKED;
    dakon_8: "dakon-8" => BLOCKED;
    dakon_9: "dakon-9" => BLOCKED;
    dakon_10: "dakon-10" => BLOCKED;
    jongkak: "jongkak" => BLOCKED;
    erherhe: "erherhe" => BLOCKED;
    raja_pasu: "raja-pasu" => BLOCKED;
    al_manqala: "al-manqala" => NoState;
    songo_douala: "songo-douala" => NoState;
    anywoli: "anywoli" => NoState;
    anywoli_yit_jani: "anywoli-yit-jani" => NoState;
    anywoli_yit_nuri: "anywoli-yit-nuri" => NoState;
    bule_perga: "bule-perga" => NoState;
    sadeqa_iii: "sadeqa-iii" => NoState;
    azigo_twenty: "azigo-twenty" => NoState;
    bay_khom: "bay-khom" => NoState;
    toguz_kumalak_5: "toguz-kumalak-5" => Children;
    toguz_kumalak_6: "toguz-kumalak-6" => Children;
    toguz_kumalak_7: "toguz-kumalak-7" => Children;
    toguz_kumalak_8: "toguz-kumalak-8" => Children;
    toguz_xorgol: "toguz-xorgol" => Children;
    krur: "krur" => Children;
    onlychild: "onlychild" => Children;
    leyla_gobale: "leyla-gobale" => Children;
    qelat_ii: "qelat-ii" => Children;
    andot: "andot" => Qelat;
    weg_4_2: "weg-4-2" => TERRITORY_CHILDREN;
    weg_6_3: "weg-6-3" => TERRITORY_CHILDREN;
    weg_10_4: "weg-10-4" => TERRITORY_CHILDREN;
    adi: "adi" => OWNERS;
    numnum: "numnum" => OWNERS;
    adji_kui_ii: "adji-kui-ii" => TERRITORY;
    nsa_isong: "nsa-isong" => TERRITORY;
    j_odu: "j-odu" => OWNERS;
    san_yao: "san-yao" => OWNERS;
    ohvulhu: "ohvulhu" => BLOCKED_STARTER;
    ohvulhu_6: "ohvulhu-6" => BLOCKED_STARTER;
    ohvulhu_7: "ohvulhu-7" => BLOCKED_STARTER;
    ohvulhu_9: "ohvulhu-9" => BLOCKED_STARTER;
    ohvulhu_10: "ohvulhu-10" => BLOCKED_STARTER;
    pandi: "pandi" => BLOCKED_STARTER;
    pallanguli_pandi: "pallanguli-pandi" => BLOCKED_STARTER;
    pallanguli_longbeu_a_cha: "pallanguli-longbeu-a-cha" => BLOCKED_STARTER;
    pallam_kuzhi: "pallam-kuzhi" => BLOCKED_STARTER;
    rio_kadalis: "rio-kadalis" => BLOCKED_STARTER;
    bosh: "bosh" => BLOCKED_STARTER;
}
