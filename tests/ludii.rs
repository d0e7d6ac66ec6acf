//! Ludii's sowing games against Ludii 1.3.12: every file of
//! `tests/oracles/ludii/SLUG.txt.gz` (30 random games a file, made from
//! Ludii's own data as `tests/oracles/README.md` says), ply by ply. The
//! game starts as a user starts it (the variant's own setup, `--first`
//! Ludii's first mover where the variant leaves it to the players). At
//! every decision the legal choices are Ludii's: each leads to Ludii's
//! position (every hole, and the seeds each player holds off the board:
//! a store or a hand, in Ludii's hand sites or its end stores), and ends
//! the game where Ludii's does; the line played reaches every ply with
//! Ludii's player to move, and ends as Ludii's game ends, with its winner.
//!
//! Ludii's board sites map to the variant's pits by the board as data
//! (`sow::json::variant`, `sow show --format json`): Ludii's row 0 is the
//! bottom row, the variant's last; columns count from the left in both.
//! A Ludii store site is the variant's store drawn on the same side.

use crate::common;

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde_json::Value;
use sow::{Game, Variant};

/// The Ludii games with data that no shipped variant plays yet: the work
/// issue 43 leaves to do. A game written comes off this list (the test
/// fails while a shipped variant stays on it, or a file has neither).
const NOT_YET_WRITTEN: &[&str] = &[
    "awagagae",
    "bao",
    "bao-kiswahili-dr-congo",
    "bao-kiswahili-east-africa",
    "baqura",
    "buqruru",
    "ceelkoqyuqkoqiji",
    "chiana-wa-kunja",
    "chisolo",
    "chonka",
    "dongjintian-four-players",
    "fergen-gobale",
    "gabata-adowa",
    "gabata-aksum",
    "gabata-ansaba",
    "gabata-ghinda",
    "gabata-oromo",
    "gabata-shoa-and-adegrat",
    "gabata-shoa-i",
    "gabata-wuqro",
    "hus-nama",
    "iyogh",
    "jimafesosh",
    "katro",
    "khutka-boia",
    "kiuthi",
    "kotu-baendum",
    "laomuzhu",
    "leyla",
    "lib-al-aqil",
    "lib-al-ghashim",
    "lontu-holo",
    "mangala-bedouin",
    "mangola",
    "mbelele",
    "mewegae",
    "mwendo",
    "nchuwa",
    "ngulungu",
    "o-an-quan",
    "okwe-achalla",
    "pic",
    "puhulmutu",
    "quendo",
    "rabe",
    "raja-pasu-mandiri",
    "sat-gol",
    "selus",
    "selus-massawa",
    "tchela",
    "the-concentration-game",
    "ti",
    "tsoro-baia",
    "tuz",
    "um-el-banat",
    "walak-pussa",
    "whyo",
    "yucebao",
];

/// The games whose holes carry marks that decide play (Ludii's site
/// states), with the variant's per-pit variable standing for them: a hole
/// Ludii marks (any state but 0) is one whose variable holds a value other
/// than its first. Where a reading is named, the marks are compared with
/// the seeds; elsewhere Ludii's states are its own bookkeeping.
const MARKS: &[(&str, &str)] = &[
    ("misoro-tsoro", "misoro"),
    ("misoro-tsoro-additional-capture", "misoro"),
    ("gamacha-nobility", "qasamo"),
];

/// The folder of the data.
fn folder() -> std::path::PathBuf {
    common::oracle("ludii")
}

/// Every game with data, by slug.
fn slugs() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(folder())
        .expect("tests/oracles/ludii")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".txt.gz").map(str::to_string)
        })
        .collect();
    out.sort();
    out
}

/// One legal move of a ply: where it was made (Ludii's from and to sites,
/// as the data writes them: `F`, `F>T`, `P` a pass, `-` none), the sites
/// whose seeds it changes (and, where its site states change, every
/// site's state, at the site's index past the last site: see [`Seen`]),
/// and whether it ends the game.
struct Move {
    place: String,
    delta: Vec<(usize, u32)>,
    ends: bool,
}

/// One decision: its mover (1-based, as Ludii counts), Ludii's phase (its
/// index in the layout's list), its legal moves, the one played. (Whether
/// it goes on the turn of the decision before, Ludii's same mover moving
/// again, is not read: a mover moving again is compared as any other decision.)
struct Ply {
    mover: u8,
    phase: usize,
    moves: Vec<Move>,
    chosen: Option<usize>,
}

/// One game: its start, its plies, its result.
struct Played {
    start: Seen,
    plies: Vec<Ply>,
    result: Value,
}

/// A data file: its layout line, its games.
struct Oracle {
    layout: Value,
    games: Vec<Played>,
}

/// Ludii's position as the data follows it: the seeds on each site, then
/// each site's state.
type Seen = Vec<u32>;

/// Every site's state from Ludii's `states` (`[site, state, …]`, the sites
/// not named in state 0), as changes to a [`Seen`] of `sites` sites.
fn states_delta(states: &Value, sites: usize) -> Vec<(usize, u32)> {
    let list: Vec<u32> = serde_json::from_value(states.clone()).expect("states");
    let mut delta: Vec<(usize, u32)> = (0..sites).map(|s| (sites + s, 0)).collect();
    for pair in list.chunks_exact(2) {
        delta[pair[0] as usize].1 = pair[1];
    }
    delta
}

/// A move as the data writes it; its site states read where `marks` (the
/// variant compares them: see `MARKS`).
fn read_move(text: &str, sites: usize, marks: bool) -> Move {
    let (place, rest) = text
        .split_once(':')
        .unwrap_or_else(|| panic!("a move: {text}"));
    let ends = rest.ends_with('!');
    let rest = rest.trim_end_matches('!');
    // Scores, site states and piece kinds, where they changed: Ludii's own
    // bookkeeping unless a variant's reading compares them (see `MARKS`).
    let (delta_text, changed) = match rest.find('{') {
        Some(i) => (&rest[..i], Some(&rest[i..])),
        None => (rest, None),
    };
    let mut delta: Vec<(usize, u32)> = delta_text
        .split(',')
        .filter(|d| !d.is_empty())
        .map(|d| {
            let (site, count) = d.split_once('=').unwrap_or_else(|| panic!("a change: {d}"));
            (site.parse().unwrap(), count.parse().unwrap())
        })
        .collect();
    if let Some(changed) = changed.filter(|_| marks) {
        let changed: Value = serde_json::from_str(changed).expect("a move's changes");
        if let Some(states) = changed.get("states") {
            delta.extend(states_delta(states, sites));
        }
    }
    Move {
        place: place.to_string(),
        delta,
        ends,
    }
}

fn read(slug: &str) -> Oracle {
    let text = common::gunzip(&folder().join(format!("{slug}.txt.gz")));
    let mut lines = text.lines();
    let layout: Value = serde_json::from_str(lines.next().expect("a layout")).unwrap();
    assert_eq!(layout["format"], "sow-ludii-1", "{slug}");
    let sites = layout["sites"].as_array().expect("the sites").len();
    let marks = MARKS.iter().any(|(s, _)| *s == slug);
    let mut games: Vec<Played> = Vec::new();
    for line in lines {
        let (kind, rest) = line.split_once(' ').unwrap_or((line, ""));
        match kind {
            "g" => {
                let start: Value = serde_json::from_str(rest).unwrap();
                let mut seen: Seen = serde_json::from_value(start["counts"].clone()).unwrap();
                assert_eq!(seen.len(), sites, "{slug}: a count a site");
                seen.resize(2 * sites, 0);
                if let Some(states) = start.get("states").filter(|_| marks) {
                    for (at, state) in states_delta(states, sites) {
                        seen[at] = state;
                    }
                }
                games.push(Played {
                    start: seen,
                    plies: Vec::new(),
                    result: Value::Null,
                });
            }
            "p" => {
                let mut words = rest.split(' ');
                let mut next = || words.next().expect("a ply's fields");
                let mover = next().parse().unwrap();
                let _same_turn = next();
                let phase = next().parse().unwrap();
                let chosen = next().parse().ok();
                let moves = words.map(|m| read_move(m, sites, marks)).collect();
                games.last_mut().unwrap().plies.push(Ply {
                    mover,
                    phase,
                    moves,
                    chosen,
                });
            }
            "r" => games.last_mut().unwrap().result = serde_json::from_str(rest).unwrap(),
            other => panic!("{slug}: a line of kind {other}"),
        }
    }
    Oracle { layout, games }
}

/// Where a Ludii site's seeds are in the variant: a pit (its cell), or
/// off the board with a player (their store and hand together).
#[derive(Clone, Copy, Debug)]
enum Slot {
    Pit(usize),
    Off(usize),
}

/// Ludii's sites mapped to the variant's cells, by the board as data.
fn slots(slug: &str, layout: &Value, variant: &Variant) -> Vec<Slot> {
    let r = &variant.engine.rules;
    let board = sow::json::variant(variant);
    let rows = board["rows"].as_array().unwrap();
    let cell = |label: &str| r.pits.iter().position(|p| p.label == label).unwrap();
    let mut seen = vec![false; r.pits.len()];
    let mut out = Vec::new();
    for site in layout["sites"].as_array().unwrap() {
        let slot = match site["kind"].as_str().unwrap() {
            "hole" => {
                let (row, col) = (
                    site["row"].as_u64().unwrap() as usize,
                    site["col"].as_u64().unwrap() as usize,
                );
                let label = rows
                    .len()
                    .checked_sub(row + 1)
                    .and_then(|i| rows[i]["pits"].get(col))
                    .and_then(Value::as_str)
                    .unwrap_or_else(|| {
                        panic!("{slug}: Ludii's row {row} column {col} is no pit of the variant")
                    });
                let c = cell(label);
                assert!(!seen[c], "{slug}: {label} stands for two Ludii sites");
                seen[c] = true;
                Slot::Pit(c)
            }
            "store" => {
                let side = if site["x"].as_f64().unwrap() < 0.0 {
                    "left"
                } else {
                    "right"
                };
                let owner = board["stores"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|s| s["side"] == side)
                    .unwrap_or_else(|| panic!("{slug}: the variant has no store at the {side}"))
                    ["owner"]
                    .as_str()
                    .unwrap()
                    .to_string();
                Slot::Off(r.players.iter().position(|p| *p == owner).unwrap())
            }
            "hand" => Slot::Off(site["player"].as_u64().unwrap() as usize - 1),
            other => panic!("{slug}: a site of kind {other}"),
        };
        out.push(slot);
    }
    if let Some(c) = seen.iter().position(|s| !s) {
        panic!(
            "{slug}: the variant's pit {} is no Ludii site",
            r.pits[c].label
        );
    }
    out
}

/// A position as it is compared: the seeds of each pit (in cell order),
/// then those each player holds off the board, then (where the variant
/// reads Ludii's marks) 1 for each marked pit, else 0.
type Key = Vec<u32>;

/// How a variant's positions are compared with Ludii's.
struct Compared {
    /// Ludii's sites in the variant.
    slots: Vec<Slot>,
    pits: usize,
    players: usize,
    /// The slots of the per-pit variable standing for Ludii's marks (see
    /// `MARKS`), where it has one: where its pit 0's is.
    marks: Option<usize>,
}

impl Compared {
    fn new(slug: &str, layout: &Value, variant: &Variant) -> Compared {
        let e = &variant.engine;
        let marks = MARKS.iter().find(|(s, _)| *s == slug).map(|(_, name)| {
            let v = e.rules.vars.iter().position(|v| v.name == *name);
            e.var_base(v.unwrap_or_else(|| panic!("{slug}: no variable {name}")))
        });
        Compared {
            slots: slots(slug, layout, variant),
            pits: e.rules.pits.len(),
            players: e.rules.players.len(),
            marks,
        }
    }

    fn ludii_key(&self, seen: &[u32]) -> Key {
        let (pits, sites) = (self.pits, self.slots.len());
        let marks = if self.marks.is_some() { pits } else { 0 };
        let mut key = vec![0; pits + self.players + marks];
        for (site, slot) in self.slots.iter().enumerate() {
            match *slot {
                Slot::Pit(c) => {
                    key[c] = seen[site];
                    if marks > 0 {
                        key[pits + self.players + c] = u32::from(seen[sites + site] != 0);
                    }
                }
                Slot::Off(p) => key[pits + p] += seen[site],
            }
        }
        key
    }

    fn sow_key(&self, game: &Game) -> Key {
        let pos = game.position();
        let pits = self.pits;
        let mut key = pos.cells[..pits].to_vec();
        for p in 0..self.players {
            key.push(pos.cells.get(pits + p).copied().unwrap_or(0) + pos.hands[p]);
        }
        if let Some(base) = self.marks {
            key.extend((0..pits).map(|c| u32::from(pos.vars[base + c] != 0)));
        }
        key
    }
}

/// What went wrong, where.
struct Mismatches {
    slug: String,
    found: Vec<String>,
    plies: usize,
    moves: usize,
}

impl Mismatches {
    fn note(&mut self, g: usize, ply: usize, what: String) {
        self.found
            .push(format!("{} game {g} ply {ply}: {what}", self.slug));
    }
}

/// A key written as the variant's labels (for messages).
fn describe(variant: &Variant, key: &Key) -> String {
    let r = &variant.engine.rules;
    let mut parts: Vec<String> = r
        .pits
        .iter()
        .zip(key)
        .map(|(p, n)| format!("{} {n}", p.label))
        .collect();
    for (p, name) in r.players.iter().enumerate() {
        parts.push(format!("{name} off {}", key[r.pits.len() + p]));
    }
    let marked: Vec<&str> = r
        .pits
        .iter()
        .zip(key.iter().skip(r.pits.len() + r.players.len()))
        .filter(|(_, &m)| m != 0)
        .map(|(p, _)| p.label.as_str())
        .collect();
    if !marked.is_empty() {
        parts.push(format!("marked {}", marked.join(" ")));
    }
    parts.join(", ")
}

/// Ludii's winner from its ranks: the one player ranked first alone, or
/// none (a draw, every player ranked alike).
fn ludii_winner(result: &Value) -> Option<usize> {
    let ranks: Vec<f64> = result["ranks"]
        .as_array()?
        .iter()
        .map(|r| r.as_f64().unwrap())
        .collect();
    let best = ranks.iter().cloned().fold(f64::INFINITY, f64::min);
    let first: Vec<usize> = (0..ranks.len()).filter(|&i| ranks[i] == best).collect();
    (first.len() == 1).then(|| first[0])
}

/// Plays every game of `slug` against the shipped variant of that name.
/// Ludii's choices at a ply from `counts`, each with the position it
/// leads to and whether it ends the game (and the moves leading there);
/// and the chosen move's position, with its counts.
#[allow(clippy::type_complexity)]
fn ludii_choices<'a>(
    ply: &'a Ply,
    counts: &[u32],
    compared: &Compared,
) -> (BTreeMap<(Key, bool), Vec<&'a str>>, Option<(Key, Seen)>) {
    let mut theirs: BTreeMap<(Key, bool), Vec<&str>> = BTreeMap::new();
    let mut chosen_key = None;
    for (k, m) in ply.moves.iter().enumerate() {
        let mut after = counts.to_vec();
        for &(site, n) in &m.delta {
            after[site] = n;
        }
        let key = compared.ludii_key(&after);
        if Some(k) == ply.chosen {
            chosen_key = Some((key.clone(), after));
        }
        theirs.entry((key, m.ends)).or_default().push(&m.place);
    }
    (theirs, chosen_key)
}

/// The variant's legal turns from `line`, by the position each leads to
/// and whether it ends the game: each turn's notation and the game after.
fn sow_choices(line: &Game, compared: &Compared) -> BTreeMap<(Key, bool), Vec<(String, Game)>> {
    let mut mine: BTreeMap<(Key, bool), Vec<(String, Game)>> = BTreeMap::new();
    for &t in line.legal_turns() {
        let mut after = line.clone();
        after.play(t).expect("a turn within the engine's limits");
        let key = compared.sow_key(&after);
        let over = after.outcome().is_some();
        mine.entry((key, over))
            .or_default()
            .push((sow::notation::write_turn(line, t), after));
    }
    mine
}

fn replay(slug: &str) -> Mismatches {
    let variant = common::shipped(slug);
    let oracle = read(slug);
    let r = &variant.engine.rules;
    let compared = Compared::new(slug, &oracle.layout, &variant);
    let mut out = Mismatches {
        slug: slug.to_string(),
        found: Vec::new(),
        plies: 0,
        moves: 0,
    };
    assert_eq!(oracle.games.len(), 30, "{slug}: 30 games");
    for (g, played) in oracle.games.iter().enumerate() {
        // The game as a user starts it: the variant's setup, Ludii's first
        // mover named where the variant leaves it to the players.
        let first_mover = played.plies.first().map_or(1, |p| p.mover) as usize - 1;
        let first = r
            .setup
            .first_chosen
            .then(|| r.players[first_mover].as_str());
        let start = variant
            .start_position(first)
            .unwrap_or_else(|e| panic!("{slug}: `--first`: {e}"));
        let mut line = Game::from_position(variant.engine.clone(), start, Vec::new())
            .expect("a start within the engine's limits");
        let mut counts = played.start.clone();
        let mut ok = true;
        for (i, ply) in played.plies.iter().enumerate() {
            out.plies += 1;
            let here = compared.ludii_key(&counts);
            if compared.sow_key(&line) != here {
                out.note(
                    g,
                    i,
                    format!(
                        "replayed from the start, the position is {}, not Ludii's {}",
                        describe(&variant, &compared.sow_key(&line)),
                        describe(&variant, &here)
                    ),
                );
                ok = false;
                break;
            }
            let mover = ply.mover as usize - 1;
            if ply.moves.is_empty() {
                // Ludii's game stops with no move: the variant has none
                // either (over, or no legal turn).
                if line.outcome().is_none() && !line.legal_turns().is_empty() {
                    out.note(
                        g,
                        i,
                        "Ludii's mover has no move; the variant has some".into(),
                    );
                }
                ok = false;
                break;
            }
            match (line.outcome(), line.position().to_move) {
                (Some(o), _) => {
                    out.note(
                        g,
                        i,
                        format!("the variant's game is over ({}); Ludii's goes on", o.reason),
                    );
                    ok = false;
                    break;
                }
                (None, Some(p)) if p as usize != mover => {
                    out.note(
                        g,
                        i,
                        format!(
                            "{} is to move, not Ludii's {}",
                            r.players[p as usize], r.players[mover]
                        ),
                    );
                    ok = false;
                    break;
                }
                _ => {}
            }
            // Every choice, with what it leads to.
            let (theirs, chosen_key) = ludii_choices(ply, &counts, &compared);
            let mine = sow_choices(&line, &compared);
            out.moves += ply.moves.len();
            let same = theirs.len() == mine.len()
                && theirs
                    .iter()
                    .zip(&mine)
                    .all(|((a, x), (b, y))| a == b && x.len() == y.len());
            if !same {
                let missing: Vec<String> = theirs
                    .iter()
                    .filter(|(k, v)| mine.get(k).map_or(0, Vec::len) != v.len())
                    .map(|((key, ends), v)| {
                        format!(
                            "Ludii's {v:?} to {}{}",
                            describe(&variant, key),
                            if *ends { " (ends)" } else { "" }
                        )
                    })
                    .collect();
                let extra: Vec<String> = mine
                    .iter()
                    .filter(|(k, v)| theirs.get(k).map_or(0, Vec::len) != v.len())
                    .map(|((key, over), v)| {
                        let names: Vec<&str> = v.iter().map(|(n, _)| n.as_str()).collect();
                        format!(
                            "the variant's {names:?} to {}{}",
                            describe(&variant, key),
                            if *over { " (ends)" } else { "" }
                        )
                    })
                    .collect();
                out.note(
                    g,
                    i,
                    format!(
                        "the choices differ (mover {}, phase {}): {}; {}",
                        r.players[mover],
                        oracle.layout["phases"][ply.phase],
                        missing.join("; "),
                        extra.join("; ")
                    ),
                );
                ok = false;
                break;
            }
            // On along the line played: the variant's turn that leads
            // where Ludii's chosen move does, handing the move to Ludii's
            // next mover.
            let Some((key, after)) = chosen_key else {
                break;
            };
            let ends = ply.moves[ply.chosen.unwrap()].ends;
            let next_mover = played.plies.get(i + 1).map(|p| p.mover as usize - 1);
            let candidates = &mine[&(key, ends)];
            // Turns that lead to the same position may differ in what they
            // leave to the next decision (a lap kept going the way its turn
            // went): the one whose next choices are Ludii's next choices.
            let next_choices = played
                .plies
                .get(i + 1)
                .map(|next| ludii_choices(next, &after, &compared).0);
            let mover_ok =
                |a: &Game| next_mover.is_none_or(|n| a.position().to_move == Some(n as u8));
            let agrees = |a: &Game| {
                mover_ok(a)
                    && next_choices.as_ref().is_none_or(|want| {
                        candidates.len() == 1 || sow_choices(a, &compared).keys().eq(want.keys())
                    })
            };
            let pick = candidates
                .iter()
                .find(|(_, a)| agrees(a))
                .or_else(|| candidates.iter().find(|(_, a)| mover_ok(a)))
                .or(candidates.first())
                .unwrap();
            if let Some(n) = next_mover {
                if pick.1.position().to_move != Some(n as u8) {
                    out.note(
                        g,
                        i,
                        format!(
                            "after {}, {:?} is to move, not Ludii's {}",
                            pick.0,
                            pick.1.position().to_move.map(|p| &r.players[p as usize]),
                            r.players[n]
                        ),
                    );
                    ok = false;
                    break;
                }
            }
            line = pick.1.clone();
            counts = after;
        }
        if !ok {
            continue;
        }
        let result = &played.result;
        let last = played.plies.len();
        match (result["stop"].as_str().unwrap(), line.outcome()) {
            ("over", Some(o)) => {
                let want = ludii_winner(result);
                if o.winner.map(usize::from) != want {
                    out.note(
                        g,
                        last,
                        format!(
                            "won by {:?} ({}, scores {:?}), not Ludii's {:?} (ranks {})",
                            o.winner.map(|p| &r.players[p as usize]),
                            o.reason,
                            o.scores,
                            want.map(|p| &r.players[p]),
                            result["ranks"]
                        ),
                    );
                }
            }
            ("over", None) => out.note(
                g,
                last,
                "Ludii's game is over; the variant's goes on".into(),
            ),
            ("capped", Some(o)) => out.note(
                g,
                last,
                format!(
                    "the variant's game is over ({}); Ludii's went on to its cap",
                    o.reason
                ),
            ),
            ("capped", None) | ("no_moves", _) => {}
            (other, _) => panic!("{slug}: a stop {other}"),
        }
    }
    out
}

/// Every game with data either ships, agreeing with Ludii on every ply of
/// its 30 games, or is still to be written.
#[test]
fn every_ludii_game_agrees_or_is_still_to_be_written() {
    let all = slugs();
    assert_eq!(all.len(), 186, "the data's 186 games");
    for slug in NOT_YET_WRITTEN {
        assert!(all.iter().any(|s| s == slug), "{slug}: no such data");
        assert!(
            sow::variants::source(slug).is_none(),
            "{slug} ships: take it off NOT_YET_WRITTEN"
        );
    }
    // (`SOW_LUDII=slug,slug` replays only those: for writing a game.)
    let only = std::env::var("SOW_LUDII").ok();
    let written: Vec<&String> = all
        .iter()
        .filter(|s| !NOT_YET_WRITTEN.contains(&s.as_str()))
        .filter(|s| {
            only.as_ref()
                .is_none_or(|o| o.split(',').any(|o| o == s.as_str()))
        })
        .collect();
    let results: Vec<Mismatches> = written.par_iter().map(|s| replay(s)).collect();
    let mut failed = Vec::new();
    for out in &results {
        eprintln!(
            "{}: {} plies, {} moves{}",
            out.slug,
            out.plies,
            out.moves,
            if out.found.is_empty() {
                " agree".to_string()
            } else {
                format!(", {} mismatches", out.found.len())
            }
        );
        assert!(
            out.moves > 0 || !out.found.is_empty(),
            "{}: no move was checked",
            out.slug
        );
        failed.extend(out.found.iter().take(4).cloned());
    }
    eprintln!(
        "{} of {} Ludii games written; {} to write",
        written.len(),
        all.len(),
        NOT_YET_WRITTEN.len()
    );
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
