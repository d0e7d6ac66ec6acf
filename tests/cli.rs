//! The real `sow` binary, every command: what it prints, what it accepts
//! and refuses, and its exit codes (0 success, 1 rule or input error, 2
//! usage error). Nothing may panic.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::bin::Run;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn sow(args: &[&str]) -> Run {
    common::bin::sow_with(args, "")
}

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sow-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn check_accepts_the_shipped_variants_and_reports_every_problem() {
    let ok = sow(&[
        "check",
        "variants/oware-abapa.sow",
        "variants/kalah.sow",
        "kalah",
    ]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    assert!(ok.stdout.contains("variants/oware-abapa.sow: ok"));
    let bad = sow(&[
        "check",
        "tests/invalid/undefined_label.sow",
        "tests/invalid/empty_range.sow",
    ]);
    assert_eq!(bad.code, 1);
    // file:line:col, a caret, a hint — for both files.
    assert!(
        bad.stderr
            .contains("[tests/invalid/undefined_label.sow:17:14]"),
        "{}",
        bad.stderr
    );
    assert!(
        bad.stderr.contains("tests/invalid/empty_range.sow:"),
        "{}",
        bad.stderr
    );
    assert!(bad.stderr.contains("┬") && bad.stderr.contains("help:"));
    let missing = sow(&["check", "no/such/file.sow"]);
    assert_eq!(missing.code, 1);
    assert!(missing.stderr.contains("cannot read `no/such/file.sow`"));
    assert_eq!(sow(&["check"]).code, 2);
    assert_eq!(sow(&["frobnicate"]).code, 2);
}

#[test]
fn play_prints_every_position_as_json_lines() {
    let r = sow(&["play", "oware-abapa", "--moves", "C a", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["ply"], 0);
    assert_eq!(lines[0]["move"], serde_json::Value::Null);
    assert_eq!(lines[1]["move"], "C");
    assert_eq!(lines[1]["position"]["pits"]["D"], 5);
    assert_eq!(lines[2]["position"]["to_move"], "south");
    assert_eq!(lines[2]["outcome"], serde_json::Value::Null);
    // Every line has the contract's keys.
    for l in &lines {
        for k in [
            "variant", "options", "to_move", "pits", "hands", "stores", "state",
        ] {
            assert!(l["position"].get(k).is_some(), "missing {k}");
        }
    }
}

#[test]
fn play_text_draws_the_board() {
    let r = sow(&["play", "oware-abapa", "--moves", "C a"]);
    assert_eq!(r.code, 0);
    insta::assert_snapshot!(r.stdout);
}

#[test]
fn an_illegal_move_keeps_the_lines_before_and_exits_1() {
    let r = sow(&["play", "oware-abapa", "--moves", "C C", "--format", "json"]);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout.lines().count(),
        2,
        "the start and the first move stay printed"
    );
    assert!(
        r.stderr.contains("`C` is not a legal turn for north"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("legal turns: a b c d e f"));
    let r = sow(&["play", "oware-abapa", "--moves", "Z"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("`Z` is not a turn of oware-abapa"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_move_after_the_end_is_refused() {
    // A position where South must feed North and cannot: the game is over
    // at once (O10), so any move is refused.
    let pos = temp(
        "over.json",
        r#"{"to_move":"south","pits":{"A":1,"B":0,"C":0,"D":0,"E":0,"F":0,"a":0,"b":0,"c":0,"d":0,"e":0,"f":0},"stores":{"south":24,"north":23}}"#,
    );
    let r = sow(&[
        "play",
        "oware-abapa",
        "--from",
        &pos,
        "--moves",
        "A",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 1);
    let first: serde_json::Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["outcome"]["reason"], "cannot_feed");
    assert!(r.stderr.contains("the game is over"), "{}", r.stderr);
}

#[test]
fn malformed_positions_are_named() {
    let cases = [
        ("{ not json", "not valid JSON"),
        (
            r#"{"to_move":"south","pits":{"A":4}}"#,
            "pits `B`, `C`, `D`",
        ),
        (
            r#"{"to_move":"south","pits":{"Q":4}}"#,
            "`Q` is not a pit of oware-abapa",
        ),
        (r#"{"to_move":"east","pits":{}}"#, "not a player"),
        (r#"{"pits":{}}"#, "no `to_move`"),
        (r#"{"to_move":"south","pits":{"A":-1}}"#, "not a seed count"),
        (
            r#"{"to_move":"south","pits":{"A":4,"B":4,"C":4,"D":4,"E":4,"F":4,"a":4,"b":4,"c":4,"d":4,"e":4,"f":4},"state":{"colour":1}}"#,
            "`colour` is not a state key of oware-abapa",
        ),
        (
            r#"{"variant":"kalah","to_move":"south","pits":{}}"#,
            "this position is for",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let pos = temp(&format!("bad{i}.json"), text);
        let r = sow(&["moves", "oware-abapa", "--from", &pos]);
        assert_eq!(r.code, 1, "{text}");
        assert!(
            r.stderr.contains(want),
            "{text}: expected `{want}` in\n{}",
            r.stderr
        );
    }
    let r = sow(&["moves", "oware-abapa", "--from", "no/such.json"]);
    assert_eq!(r.code, 1);
}

#[test]
fn moves_lists_each_turn_with_the_position_it_leads_to() {
    let r = sow(&["moves", "kalah", "--format", "json"]);
    assert_eq!(r.code, 0);
    let lines: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let names: Vec<&str> = lines.iter().map(|l| l["move"].as_str().unwrap()).collect();
    assert_eq!(names, ["A", "B", "C", "D", "E", "F"]);
    // L3: C ends in South's store, so South is to move again.
    assert_eq!(lines[2]["position"]["to_move"], "south");
    assert_eq!(lines[3]["position"]["to_move"], "north");
}

/// A pass (Kâra KR7) is a move like any other: listed as `pass`, played
/// by `play --moves pass`.
#[test]
fn a_pass_is_listed_and_played_as_pass() {
    let pos = temp(
        "pass.json",
        r#"{"variant":"kara","to_move":"south","pits":{"A":0,"B":0,"C":0,"D":0,"E":0,"F":0,"a":3,"b":0,"c":0,"d":0,"e":0,"f":0},"hands":{"south":0,"north":0},"stores":{"south":40,"north":41},"state":{}}"#,
    );
    let pos = pos.as_str();
    let r = sow(&["moves", "kara", "--from", pos, "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(line["move"], "pass");
    assert_eq!(line["position"]["to_move"], "north");
    assert_eq!(line["position"]["pits"]["a"], 3);
    let r = sow(&[
        "play", "kara", "--from", pos, "--moves", "pass a", "--format", "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout.lines().count(),
        3,
        "the start, the pass and North's turn"
    );
    // South cannot pass where it can move.
    let r = sow(&["play", "kara", "--moves", "pass"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("no pass here"), "{}", r.stderr);
}

/// TS9: the solitaire has exactly one winning line, found from the command
/// line by listing every line the game allows within 20 turns.
#[test]
fn perft_lists_the_one_winning_line_of_the_solitaire() {
    let r = sow(&["perft", "tchuka-ruma-solitaire", "20", "--lines"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let wins: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("solo wins"))
        .collect();
    assert_eq!(wins, ["solo wins (won): C D C D B D"], "{}", r.stdout);
    let losses = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("solo loses (lost): "))
        .count();
    assert_eq!(losses, 14, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("ended within 20 turns: 14 solo loses (lost), 1 solo wins (won)"),
        "{}",
        r.stdout
    );
    // Every line ends: the count is the same at any greater depth, and
    // it is the last line, bare.
    assert_eq!(r.stdout.lines().last(), Some("15"));
    // The winning line played out: the game is won, every seed in the ruma.
    let r = sow(&[
        "play",
        "tchuka-ruma-solitaire",
        "--moves",
        "C D C D B D",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let last: serde_json::Value = serde_json::from_str(r.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(last["outcome"]["winner"], "solo");
    assert_eq!(last["position"]["stores"], serde_json::json!({ "solo": 8 }));
    assert_eq!(last["position"]["hands"], serde_json::json!({ "solo": 0 }));
}

/// `first chosen`: who starts is named on the command line, by any game
/// command that starts a game; refused where the rules say who starts,
/// for a name that is no player, and beside a position read.
#[test]
fn first_names_who_starts_where_the_rules_leave_it_open() {
    let kalah = std::fs::read_to_string(root().join("variants/kalah.sow")).unwrap();
    let open = kalah.replace("  first south ", "  first chosen ");
    assert_ne!(open, kalah);
    let path = temp("first_chosen.sow", &open);
    let start = |args: &[&str]| -> serde_json::Value {
        let mut all = vec!["play", path.as_str(), "--moves", "", "--format", "json"];
        all.extend(args);
        let r = sow(&all);
        assert_eq!(r.code, 0, "{}", r.stderr);
        serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap()
    };
    assert_eq!(
        start(&[])["position"]["to_move"],
        "south",
        "the first player by default"
    );
    assert_eq!(start(&["--first", "north"])["position"]["to_move"], "north");
    // North's pits are the legal turns, and perft counts from there too.
    let r = sow(&["moves", &path, "--first", "north", "--format", "json"]);
    assert!(
        r.stdout
            .lines()
            .all(|l| l.contains(r#""move":"#) && !l.contains(r#""move":"A""#)),
        "{}",
        r.stdout
    );
    assert_eq!(r.stdout.lines().count(), 6);
    let r = sow(&[
        "random", &path, "--first", "north", "--games", "2", "--seed", "1", "--format", "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let game: serde_json::Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    assert!(
        game["moves"][0]
            .as_str()
            .unwrap()
            .chars()
            .all(|c| c.is_ascii_lowercase()),
        "{game}"
    );
    // The errors, each a usage error.
    for (args, says) in [
        (
            vec!["play", "kalah", "--first", "north"],
            "the rules of kalah say who moves first (south)",
        ),
        (
            vec!["play", path.as_str(), "--first", "east"],
            "`east` is not a player (the players are south and north)",
        ),
        (
            vec![
                "moves",
                path.as_str(),
                "--first",
                "north",
                "--from",
                "x.json",
            ],
            "a position read with `--from` says who is to move",
        ),
        (
            vec!["show", path.as_str(), "--first", "north"],
            "`show` prints the rules",
        ),
    ] {
        let r = sow(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
}

/// Every shipped variant whose rules page says the first player is chosen
/// by lot takes `--first` for either player (its setup says `first
/// chosen`): read from the pages the variant files cite, so that a file
/// that leaves the clause out fails here.
#[test]
fn every_variant_whose_rules_choose_the_first_player_by_lot_takes_first() {
    let mut open = 0;
    // The page a variant's file cites, or the page of the variant it
    // extends (Wari has none of its own).
    let page = |mut name: &str| loop {
        match common::cites(name) {
            common::Cites::Page(page) => return page,
            common::Cites::Base(base) => name = base,
        }
    };
    for (name, _) in sow::variants::SHIPPED {
        let page = page(name);
        let rules = std::fs::read_to_string(root().join(page))
            .unwrap_or_else(|e| panic!("{name}: {page}: {e}"));
        if !rules.contains("chosen by lot") {
            continue;
        }
        open += 1;
        for first in ["south", "north"] {
            let r = sow(&[
                "play", name, "--first", first, "--moves", "", "--format", "json",
            ]);
            assert_eq!(r.code, 0, "{name} --first {first}: {}", r.stderr);
            let line: serde_json::Value =
                serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
            assert_eq!(line["position"]["to_move"], first, "{name}");
        }
    }
    assert_eq!(
        open, 138,
        "the variants whose rules leave the first player to lot"
    );
}

/// Kalah(3,3): solved at once.
const KALAH_3_3: [&str; 5] = ["kalah", "--option", "holes=3", "--option", "pit_seeds=3"];

#[test]
fn solve_gives_the_value_and_each_first_turns() {
    let r = sow(&[&["solve"][..], &KALAH_3_3, &["--format", "json"]].concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let j: serde_json::Value = serde_json::from_str(&r.stdout).expect("one JSON object");
    assert_eq!(j["variant"], "kalah");
    assert_eq!(j["to_move"], "south");
    assert_eq!(j["complete"], true);
    assert_eq!(j["result"], "win");
    assert_eq!(j["margin"], 2);
    assert_eq!(j["lower"], j["upper"]);
    assert_eq!(j["best_moves"], serde_json::json!(["A", "B"]));
    let moves = j["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 3);
    assert_eq!(
        moves[2],
        serde_json::json!({"move": "C", "result": "loss", "margin": -4})
    );
    assert!(j["positions"].as_u64().expect("a count") > 0);
    assert!(j["seconds"].as_f64().is_some());
    // Solved from a position: North, after B, loses by what B won by.
    let after = sow(&[
        &["play"][..],
        &KALAH_3_3,
        &["--moves", "B", "--format", "json"],
    ]
    .concat());
    let last: serde_json::Value =
        serde_json::from_str(after.stdout.lines().last().expect("a line")).expect("JSON");
    let pos = temp("solve-from.json", &last["position"].to_string());
    let r = sow(&["solve", "kalah", "--from", &pos]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with(
            "kalah (holes=3, pit_seeds=3, empty_capture=no): loss by 2 for north, the player to move"
        ),
        "{}",
        r.stdout
    );
    // The best turns only: C, a loss by 4, is bounded below the value.
    let r = sow(&[
        &["solve"][..],
        &KALAH_3_3,
        &["--best-only", "--jobs", "1", "--format", "json"],
    ]
    .concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let j: serde_json::Value = serde_json::from_str(&r.stdout).expect("one JSON object");
    assert_eq!(j["complete"], true);
    assert_eq!((&j["result"], &j["margin"]), (&"win".into(), &2.into()));
    assert_eq!(j["best_moves"], serde_json::json!(["A", "B"]));
    let c = &j["moves"].as_array().expect("moves")[2];
    assert_eq!(c["move"], "C");
    assert_eq!(c["lower"], serde_json::Value::Null);
    let upper = &c["upper"];
    assert!(
        upper["result"] != "win" || upper["margin"].as_i64() < Some(2),
        "{c}"
    );
    // What cannot be solved is named; a size that is not one is a usage
    // error.
    let r = sow(&["solve", "oware-abapa"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("cannot be solved: its rule on repeated positions"),
        "{}",
        r.stderr
    );
    // The endgame databases: written to the folder given, read back from
    // it by the next run, which finds the same value.
    let dir = std::env::temp_dir().join(format!("sow-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.to_str().expect("a path");
    let args = [&["solve"][..], &KALAH_3_3, &["--db", db, "--db-seeds", "5"]].concat();
    let first = sow(&args);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        first
            .stdout
            .contains("endgame databases: every position of up to 5 seeds in the pits"),
        "{}",
        first.stdout
    );
    let folders: Vec<_> = std::fs::read_dir(&dir).expect("written").collect();
    assert_eq!(folders.len(), 1);
    let folder = folders[0].as_ref().expect("a folder").path();
    assert_eq!(
        std::fs::read_dir(&folder).expect("levels").count(),
        6,
        "levels 0 to 5"
    );
    let again = sow(&args);
    assert_eq!(again.stdout.lines().next(), first.stdout.lines().next());
    // Kalah(3,2) has the same rules but its setup: it reads the same levels.
    let other = sow(&[
        "solve",
        "kalah",
        "--option",
        "holes=3",
        "--option",
        "pit_seeds=2",
        "--db",
        db,
        "--db-seeds",
        "5",
    ]);
    assert_eq!(other.code, 0, "{}", other.stderr);
    assert_eq!(
        std::fs::read_dir(&dir).expect("written").count(),
        1,
        "one set shared"
    );
    let _ = std::fs::remove_dir_all(&dir);
    solve_in_spells();
    let r = sow(&["solve", "kalah", "--memory", "lots"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("`--memory lots`: a size is a number"),
        "{}",
        r.stderr
    );
    solve_takes_the_memory_the_machine_has_free();
}

/// Issue 42, item 12: a solve took 256M unless told, whatever the
/// machine. Now half the memory free to it (256M to 16G), as `--help`
/// says: its table holds as many entries as that, less the databases'
/// (at most 128M unless `--db-seeds` is given).
fn solve_takes_the_memory_the_machine_has_free() {
    let help = sow(&["solve", "--help"]);
    let said = help.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        said.contains("[default: half the machine's free memory, from 256M to 16G"),
        "{said}"
    );
    let r = sow(&[&["solve"][..], &KALAH_3_3].concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let of: u64 = r
        .stdout
        .split("(of ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .map(|n| n.replace(',', "").parse().expect("a count"))
        .expect("the table's size");
    // (Free memory moves as other programs run: within a quarter either way.)
    let memory = sow::solve::default_memory() as u64;
    let table = of * 24;
    assert!(
        table <= memory / 4 * 5 && table + (128 << 20) >= memory / 5 * 4,
        "a table of {table} bytes, for a default of {memory}"
    );
}

/// Issue 42, item 6: `sow solve` believed any database level it found:
/// another variant's levels copied into `--db`, or a damaged entry, gave
/// wrong values with exit 0 (a win by 6 for a win by 2). Each level
/// carries the rules it was built for, its seeds and a checksum; one that
/// does not match is built again, and the solve says why. `--db ''` is
/// refused (it wrote into the current folder).
#[test]
fn a_database_level_of_other_rules_or_damaged_is_built_again() {
    let root = std::env::temp_dir().join(format!("sow-levels-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let solve = |db: &std::path::Path, more: &[&str]| {
        let db = db.to_str().expect("a path");
        let args = [
            &["solve"][..],
            &KALAH_3_3,
            more,
            &["--db", db, "--db-seeds", "5", "--format", "json"],
        ]
        .concat();
        let r = sow(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        serde_json::from_str::<serde_json::Value>(&r.stdout).expect("one JSON object")
    };
    let (ours, theirs) = (root.join("standard"), root.join("empty-capture"));
    let standard = solve(&ours, &[]);
    assert_eq!(
        (&standard["result"], &standard["margin"]),
        (&"win".into(), &2.into())
    );
    assert_eq!(standard["databases"]["rebuilt"], serde_json::json!([]));
    solve(&theirs, &["--option", "empty_capture=yes"]);
    let folder = |dir: &std::path::Path| {
        std::fs::read_dir(dir)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path()
    };
    let (ours, theirs) = (folder(&ours), folder(&theirs));
    // The other rules' levels: as large, not the same values.
    let (a, b) = (
        std::fs::read(ours.join("level-005.bin")).unwrap(),
        std::fs::read(theirs.join("level-005.bin")).unwrap(),
    );
    assert_eq!(a.len(), b.len());
    assert_ne!(a, b);
    for n in 0..=5 {
        let level = format!("level-{n:03}.bin");
        std::fs::copy(theirs.join(&level), ours.join(&level)).unwrap();
    }
    let copied = solve(ours.parent().unwrap(), &[]);
    assert_eq!(
        (&copied["result"], &copied["margin"]),
        (&"win".into(), &2.into())
    );
    let rebuilt = copied["databases"]["rebuilt"].as_array().unwrap();
    assert_eq!(rebuilt.len(), 6, "{rebuilt:?}");
    assert!(
        rebuilt[0]
            .as_str()
            .unwrap()
            .contains("a level of other rules or seeds"),
        "{rebuilt:?}"
    );
    // Built again and written over: read back at once next time.
    assert_eq!(
        solve(ours.parent().unwrap(), &[])["databases"]["rebuilt"],
        serde_json::json!([])
    );
    // One entry damaged.
    let level = ours.join("level-005.bin");
    let mut bytes = std::fs::read(&level).unwrap();
    let at = bytes.len() / 2;
    bytes[at] = bytes[at].wrapping_add(7);
    std::fs::write(&level, &bytes).unwrap();
    let damaged = solve(ours.parent().unwrap(), &[]);
    assert_eq!(damaged["margin"], 2);
    let rebuilt = damaged["databases"]["rebuilt"].as_array().unwrap();
    assert_eq!(rebuilt.len(), 1, "{rebuilt:?}");
    assert!(
        rebuilt[0]
            .as_str()
            .unwrap()
            .contains("level-005.bin is not read: its checksum"),
        "{rebuilt:?}"
    );
    // The text says so too.
    let db = ours.parent().unwrap().to_str().unwrap();
    std::fs::write(&level, &bytes).unwrap();
    let r = sow(&[&["solve"][..], &KALAH_3_3, &["--db", db, "--db-seeds", "5"]].concat());
    assert!(r.stdout.contains("is damaged; built again"), "{}", r.stdout);
    let r = sow(&[&["solve"][..], &KALAH_3_3, &["--db", ""]].concat());
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("`--db` names a folder"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&root);
}

/// Issue 42, item 10: two solves stopped short on one `--db` wrote their
/// tables one over the other, the last writer winning, so that a smaller
/// table could replace a larger one. A solve that keeps its table looks,
/// under a lock of the folder's, at what another kept there meanwhile.
#[test]
fn two_solves_on_one_db_keep_the_larger_table() {
    let dir = std::env::temp_dir().join(format!("sow-two-solves-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.to_str().expect("a path");
    let kalah_5_4 = [
        "solve",
        "kalah",
        "--option",
        "holes=5",
        "--db",
        db,
        "--db-seeds",
        "0",
        "--jobs",
        "1",
        "--format",
        "json",
    ];
    // A small solve, started first: it finds no table kept.
    let small = common::bin::spawn(&[&kalah_5_4[..], &["--memory", "1M"]].concat());
    std::thread::sleep(std::time::Duration::from_millis(500));
    // A larger one stops short meanwhile and keeps its table.
    let large = sow(&[
        &kalah_5_4[..],
        &["--memory", "64M", "--max-positions", "2000000"],
    ]
    .concat());
    assert_eq!(large.code, 0, "{}", large.stderr);
    let large: serde_json::Value = serde_json::from_str(&large.stdout).unwrap();
    let kept = large["table"]["written"]["entries"].as_u64().expect("kept");
    let file = large["table"]["written"]["file"]
        .as_str()
        .unwrap()
        .to_string();
    let before = std::fs::read(&file).unwrap();
    // The small one, stopped, does not write over it.
    common::bin::interrupt(&small);
    let out = small.wait_with_output().unwrap();
    let small: serde_json::Value = serde_json::from_slice(&out.stdout).expect("its JSON");
    assert_eq!(small["complete"], false);
    let why = small["table"]["written"]["error"]
        .as_str()
        .expect("not written");
    assert!(
        why.contains("is not replaced") && why.contains("another solve kept more"),
        "{why}"
    );
    assert!(why.contains(&sow::render::thousands(kept)), "{why}");
    assert!(std::fs::read(&file).unwrap() == before, "replaced");
    let parts: Vec<_> = std::fs::read_dir(std::path::Path::new(&file).parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".part"))
        .collect();
    assert!(parts.is_empty(), "{parts:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 42, item 10: a second Ctrl-C while a stopped solve wrote its
/// table ended the process at once and left the part written behind
/// (`table-….bin.part-PID`). The process removes it as it goes.
#[test]
fn a_second_ctrl_c_leaves_no_part_written() {
    let dir = std::env::temp_dir().join(format!("sow-second-ctrl-c-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.to_str().expect("a path");
    let solve = common::bin::spawn(&[
        "solve",
        "kalah",
        "--option",
        "holes=6",
        "--db",
        db,
        "--db-seeds",
        "0",
        "--memory",
        "1G",
        "--jobs",
        "1",
    ]);
    let interrupt = || common::bin::interrupt(&solve);
    std::thread::sleep(std::time::Duration::from_secs(4));
    interrupt();
    // The table is being written: a part beside its place.
    let part = |dir: &std::path::Path| {
        walk(dir)
            .into_iter()
            .find(|p| p.to_string_lossy().contains(".part-"))
    };
    fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        entries
            .filter_map(|e| e.ok())
            .flat_map(|e| match e.path().is_dir() {
                true => walk(&e.path()),
                false => vec![e.path()],
            })
            .collect()
    }
    let started = std::time::Instant::now();
    while part(&dir).is_none() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "no part written"
        );
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
    interrupt();
    let out = solve.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(part(&dir), None, "left behind");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 42, item 2: a variant whose end holds before the first turn
/// (accepted by `sow check`) made `sow analyze` panic and `sow random`
/// call every game unfinished. A game over at its start is a game of no
/// turns with a result: `check` warns of it, and every command says so.
#[test]
fn a_game_over_at_its_start_is_a_game_of_no_turns_with_a_result() {
    let file = "tests/cases/over-at-start/over-at-start.sow";
    let r = sow(&["check", file]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let said = format!("{}{}", r.stdout, r.stderr);
    assert!(
        said.contains(
            "every game is over before its first turn: the end `over` holds at the start"
        ),
        "{said}"
    );
    for players in ["random", "mcts", "minimax", "perfect"] {
        let r = sow(&[
            "analyze",
            file,
            "--games",
            "4",
            "--players",
            players,
            "--level",
            "1",
            "--format",
            "json",
        ]);
        assert_eq!(r.code, 0, "{players}: {}", r.stderr);
        let j: serde_json::Value = serde_json::from_str(&r.stdout).expect("one JSON object");
        assert_eq!(j["results"]["draw"], 4, "{players}: {j}");
        assert_eq!(
            (&j["turns"], &j["results"]["unfinished"]),
            (&0.into(), &0.into()),
            "{players}"
        );
    }
    let r = sow(&["random", file, "--games", "3", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let summary: serde_json::Value =
        serde_json::from_str(r.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(
        (&summary["wins"]["draw"], &summary["unfinished"]),
        (&3.into(), &0.into()),
        "{summary}"
    );
    let r = sow(&["play", file, "--moves", ""]);
    assert!(r.stdout.contains("game over (over): draw"), "{}", r.stdout);
    let r = sow(&["moves", file]);
    assert!(
        r.stdout.contains("the game is over (over): no legal turns"),
        "{}",
        r.stdout
    );
    let r = sow(&["solve", file]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("the game is over here, before any turn (draw (over))"),
        "{}",
        r.stderr
    );
}

/// A solve stopped short with `--db` keeps its table, and the next goes
/// on from it; a kept table is not replaced by a smaller one, nor when it
/// could not be read.
fn solve_in_spells() {
    let dir = std::env::temp_dir().join(format!("sow-spells-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.to_str().expect("a path");
    let kalah_4_4 = [
        "solve",
        "kalah",
        "--option",
        "holes=4",
        "--option",
        "pit_seeds=4",
        "--option",
        "empty_capture=yes",
        "--db",
        db,
        "--jobs",
        "1",
        "--format",
        "json",
    ];
    let spell = |more: &[&str]| {
        let r = sow(&[&kalah_4_4[..], more].concat());
        assert_eq!(r.code, 0, "{}", r.stderr);
        serde_json::from_str::<serde_json::Value>(&r.stdout).expect("one JSON object")
    };
    // (Without databases, so that it keeps more than a 1M table holds.)
    let first = spell(&["--db-seeds", "0", "--max-positions", "300000"]);
    assert_eq!(first["complete"], false);
    assert_eq!(first["table"]["read"], serde_json::Value::Null);
    let written = &first["table"]["written"];
    let entries = written["entries"].as_u64().expect("entries written");
    assert!(entries > 1000, "{written}");
    let file = written["file"].as_str().expect("a file").to_string();
    assert!(file.ends_with("table-032.bin"), "{file}");
    // Irving et al.'s Table 9: Kalah(4,4) is won by 2.
    let second = spell(&[]);
    assert_eq!(second["table"]["read"]["entries"], entries);
    assert_eq!(
        (&second["result"], &second["margin"]),
        (&"win".into(), &2.into())
    );
    assert_eq!(
        second["table"]["written"],
        serde_json::Value::Null,
        "solved"
    );
    // Read into a table too small to hold it: not replaced.
    let kept = std::fs::read(&file).expect("kept");
    let small = spell(&[
        "--memory",
        "1M",
        "--db-seeds",
        "0",
        "--max-positions",
        "100000",
    ]);
    assert_eq!(small["complete"], false);
    let why = small["table"]["written"]["error"]
        .as_str()
        .expect("refused");
    assert!(why.contains("is not replaced"), "{why}");
    assert!(std::fs::read(&file).expect("kept") == kept, "replaced");
    // Damaged: not read, not replaced.
    let mut bytes = std::fs::read(&file).expect("kept");
    let at = bytes.len() - 100;
    bytes[at] ^= 1;
    std::fs::write(&file, &bytes).expect("written");
    let damaged = spell(&["--max-positions", "100000"]);
    let why = damaged["table"]["read"]["error"].as_str().expect("refused");
    assert!(why.contains("damaged"), "{why}");
    let why = damaged["table"]["written"]["error"]
        .as_str()
        .expect("refused");
    assert!(why.contains("not read, so it is not replaced"), "{why}");
    assert_eq!(std::fs::read(&file).expect("kept"), bytes);
    // The text says so too.
    let r = sow(&[&kalah_4_4[..12], &["--max-positions", "100000"]].concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("stopped at --max-positions")
            && r.stdout.contains("its checksum is not that of its entries")
            && r.stdout.contains("the solve went on without it"),
        "{}",
        r.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn perft_ends_with_a_bare_integer() {
    let r = sow(&["perft", "oware-abapa", "3"]);
    assert_eq!(r.code, 0);
    let last = r.stdout.lines().last().unwrap();
    let game =
        sow::Game::new(sow::Variant::shipped("oware-abapa").unwrap().engine.clone()).unwrap();
    assert_eq!(
        last.parse::<u64>().unwrap(),
        sow::play::perft(&game, 3).unwrap()
    );
    assert_eq!(sow(&["perft", "oware-abapa", "three"]).code, 2);
}

#[test]
fn random_replays_the_same_games_from_the_same_seed() {
    let run = || {
        sow(&[
            "random",
            "oware-abapa",
            "--games",
            "5",
            "--seed",
            "7",
            "--format",
            "json",
        ])
    };
    let (a, b) = (run(), run());
    assert_eq!(a.code, 0);
    let games = |r: &Run| {
        r.stdout
            .lines()
            .take(5)
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(games(&a), games(&b));
    let summary: serde_json::Value =
        serde_json::from_str(a.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["games"], 5);
    let wins = &summary["wins"];
    let total = wins["south"].as_u64().unwrap()
        + wins["north"].as_u64().unwrap()
        + wins["draw"].as_u64().unwrap();
    assert_eq!(total + summary["unfinished"].as_u64().unwrap(), 5);
    assert!(summary["turns_per_second"].as_f64().unwrap() > 0.0);
    let capped = sow(&[
        "random",
        "kalah",
        "--games",
        "3",
        "--seed",
        "1",
        "--max-plies",
        "2",
        "--format",
        "json",
    ]);
    let summary: serde_json::Value =
        serde_json::from_str(capped.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["unfinished"], 3);
    let text = sow(&["random", "kalah", "--games", "10", "--seed", "1"]);
    assert!(text.stdout.contains("turns per second"));
}

#[test]
fn unknown_variant_names_the_shipped_ones() {
    let r = sow(&["moves", "owari"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("no shipped variant is called `owari`"));
    assert!(r.stderr.contains("oware-abapa"));
}

fn script(name: &str) -> String {
    let r = sow(&["run", &format!("tests/scripts/{name}")]);
    format!(
        "exit {}\n--- stdout\n{}--- stderr\n{}",
        r.code, r.stdout, r.stderr
    )
}

#[test]
fn run_scripts() {
    for (name, code) in [
        ("oware_opening.toml", 0),
        ("grand_slam.toml", 0),
        ("kalah_extra_turn.toml", 0),
        ("fail_expectation.toml", 1),
        ("fail_illegal_move.toml", 1),
        ("fail_unknown_key.toml", 1),
        ("grand_slam_forbidden.toml", 0),
        ("fail_forbidden_grand_slam.toml", 1),
        ("fail_unknown_option.toml", 1),
        ("oware_match_rounds.toml", 0),
    ] {
        let out = script(name);
        assert!(out.starts_with(&format!("exit {code}\n")), "{name}:\n{out}");
        insta::assert_snapshot!(name, out);
    }
    assert!(Path::new(&root().join("tests/scripts/positions/grand_slam.json")).exists());
}

#[test]
fn a_turn_past_the_engine_limits_is_stopped_with_an_error() {
    // A million seeds in every pit, relayed round and round for ever: each
    // sowing is huge, and the work a turn may do (a few seconds) runs out
    // long before a cycle could be found.
    let south: Vec<String> = (0..20).map(|i| format!("p{i}")).collect();
    let north: Vec<String> = (0..20).map(|i| format!("q{i}")).collect();
    let v = temp(
        "huge.sow",
        &format!(
            "variant huge\nplayers south north\nboard {{\n  row north: {n}\n  row south: {s}\n}}\n\
             setup {{\n  seeds 1000000\n}}\ntrack: {s} {n}\n\
             rule own at start {{ require owner(origin) == mover and seeds(origin) > 0 }}\n\
             rule go at land when seeds(last) > 0 {{ relay }}\nend stuck when no_legal_turn\n",
            n = north.join(" "),
            s = south.join(" ")
        ),
    );
    let r = sow(&["random", &v, "--games", "1", "--seed", "1"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("did not end within") || r.stderr.contains("past the engine's limit"),
        "{}",
        r.stderr
    );
}

#[test]
fn options_are_given_listed_and_kept_in_positions() {
    // `sow check` lists a variant's options with their values and default.
    let checked = sow(&["check", "oware-abapa", "wari"]);
    assert_eq!(checked.code, 0, "{}", checked.stderr);
    assert!(checked.stdout.contains(
        "option grand_slam: capture_nothing | forbidden | take_all (default capture_nothing)"
    ));
    assert!(
        checked.stdout.contains("(default forbidden)"),
        "wari's own default"
    );
    // A game command takes options; the position it prints records them.
    let played = sow(&[
        "play",
        "oware-abapa",
        "--option",
        "grand_slam=forbidden",
        "--moves",
        "A",
        "--format",
        "json",
    ]);
    assert_eq!(played.code, 0, "{}", played.stderr);
    let last: serde_json::Value =
        serde_json::from_str(played.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(last["position"]["options"]["grand_slam"], "forbidden");
    // Resuming that position keeps the option; contradicting it is an error.
    let saved = temp("forbidden.json", &last["position"].to_string());
    let resumed = sow(&["moves", "oware-abapa", "--from", &saved, "--format", "json"]);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert!(resumed.stdout.contains("\"grand_slam\":\"forbidden\""));
    let clash = sow(&[
        "moves",
        "oware-abapa",
        "--from",
        &saved,
        "--option",
        "grand_slam=take_all",
    ]);
    assert_eq!(clash.code, 1);
    assert!(
        clash
            .stderr
            .contains("was saved with option grand_slam=forbidden"),
        "{}",
        clash.stderr
    );
    // Unknown options, bad values and malformed flags are usage errors.
    for (args, says) in [
        (
            vec![
                "perft",
                "oware-abapa",
                "2",
                "--option",
                "grand_slm=forbidden",
            ],
            "has no option `grand_slm`",
        ),
        (
            vec!["perft", "oware-abapa", "2", "--option", "grand_slam=never"],
            "`never` is not a value of option `grand_slam`",
        ),
        (
            vec!["perft", "oware-abapa", "2", "--option", "grand_slam"],
            "is not NAME=VALUE",
        ),
        (
            vec![
                "random",
                "simplecapt",
                "--games",
                "1",
                "--seed",
                "1",
                "--option",
                "x=y",
            ],
            "this variant has no options",
        ),
    ] {
        let r = sow(&args);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn show_prints_one_file_that_checks() {
    let shown = sow(&["show", "bao-zanzibar"]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert!(shown.stdout.starts_with("variant bao-zanzibar\n"));
    assert!(!shown.stdout.contains("extends") && !shown.stdout.contains("takasia"));
    let file = temp("zanzibar-shown.sow", &shown.stdout);
    let checked = sow(&["check", &file]);
    assert_eq!(checked.code, 0, "{}", checked.stderr);
    // Options given to `show` become the printed defaults.
    let draw = sow(&["show", "bao-la-kiswahili", "--option", "endless_turns=draw"]);
    assert!(draw
        .stdout
        .contains("option endless_turns default draw: forbid draw loss"));
}

/// `sow show --format json`: the variant as data. Its rows are the board
/// as drawn (top to bottom, labels left to right), and every pit of every
/// shipped variant is in one row exactly once; stores carry their owner
/// and side, hands the players who hold seeds in hand.
#[test]
fn show_as_json_maps_the_board() {
    let shown = sow(&["show", "kalah", "--format", "json", "--option", "holes=3"]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    let v: serde_json::Value = serde_json::from_str(&shown.stdout).expect("JSON");
    assert_eq!(
        v,
        serde_json::json!({
            "name": "kalah", "title": "Kalah", "players": ["south", "north"],
            "rows": [
                {"owner": "north", "group": null, "pits": ["c", "b", "a"]},
                {"owner": "south", "group": null, "pits": ["A", "B", "C"]},
            ],
            "stores": [{"owner": "south", "side": "right"}, {"owner": "north", "side": "left"}],
            "hands": [],
            "options": [
                {"name": "holes", "value": "3", "choices": {"range": [1, 12]}},
                {"name": "pit_seeds", "value": "4", "choices": {"range": [1, 20]}},
                {"name": "empty_capture", "value": "no", "choices": {"words": ["no", "yes"]}},
            ],
        })
    );
    let bao = sow(&["show", "bao-la-kiswahili", "--format", "json"]);
    let bao: serde_json::Value = serde_json::from_str(&bao.stdout).expect("JSON");
    assert_eq!(bao["rows"][0]["pits"][0], "b8");
    assert_eq!(bao["rows"][3]["group"], "outer");
    assert_eq!(bao["hands"], serde_json::json!(["south", "north"]));
    for name in sow::variants::names() {
        let v = sow::Variant::shipped(name).unwrap();
        let data = sow::json::variant(&v);
        let mut labels: Vec<&str> = data["rows"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| {
                r["pits"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| l.as_str().unwrap())
            })
            .collect();
        labels.sort_unstable();
        let mut pits: Vec<&str> = v
            .engine
            .rules
            .pits
            .iter()
            .map(|p| p.label.as_str())
            .collect();
        pits.sort_unstable();
        assert_eq!(labels, pits, "{name}");
    }
}

/// `sow list` (docs/book/src/contract.md): every shipped variant, one a
/// line, its name then its title.
#[test]
fn list_names_every_shipped_variant_with_its_title() {
    let listed = sow(&["list"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let lines: Vec<&str> = listed.stdout.lines().collect();
    let names = sow::variants::names();
    assert_eq!(lines.len(), names.len(), "{}", listed.stdout);
    for (line, name) in lines.iter().zip(&names) {
        let title = &sow::Variant::shipped(name).unwrap().engine.rules.title;
        let (first, rest) = line.split_once(' ').expect("a name, then a title");
        assert_eq!(first, *name);
        assert_eq!(rest.trim(), title, "{line}");
    }
}

/// `sow moves VARIANT --from - --format json` (docs/book/src/contract.md):
/// each position read from standard input is answered at once by one line,
/// the same turns `moves --from FILE` lists, or an error that does not stop
/// the next.
#[test]
fn moves_converses_a_position_a_line() {
    use std::io::{BufRead, BufReader, Write};
    let played = sow(&["play", "kalah", "--moves", "C d", "--format", "json"]);
    let last: serde_json::Value =
        serde_json::from_str(played.stdout.lines().last().unwrap()).unwrap();
    let position = last["position"].to_string();
    let file = temp("conversed.json", &position);
    let listed: Vec<serde_json::Value> =
        sow(&["moves", "kalah", "--from", &file, "--format", "json"])
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
    assert!(!listed.is_empty());
    let mut child = common::bin::spawn(&["moves", "kalah", "--from", "-", "--format", "json"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |line: &str| -> serde_json::Value {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        // Read before the next line is written: the answer came at once.
        let mut answer = String::new();
        stdout.read_line(&mut answer).unwrap();
        serde_json::from_str(&answer).unwrap()
    };
    assert_eq!(
        ask(&position)["moves"],
        serde_json::Value::Array(listed.clone())
    );
    let bad = ask("{\"variant\": \"kalah\", \"pits\": 3}");
    assert!(
        bad["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{bad}"
    );
    assert_eq!(ask(&position)["moves"], serde_json::Value::Array(listed));
    drop(stdin);
    assert!(child.wait().unwrap().success());
    // Text output is not a conversation.
    assert_eq!(sow(&["moves", "kalah", "--from", "-"]).code, 2);
}

/// Review: output lost to a full disk exited 0. Every command's output is
/// checked: a write that fails is an error (exit 1).
#[test]
fn output_lost_to_a_full_disk_is_an_error() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    for args in [
        vec!["play", "kalah", "--moves", "A b"],
        vec!["moves", "kalah", "--format", "json"],
        vec!["random", "kalah", "--games", "3", "--seed", "1"],
        vec!["perft", "kalah", "2"],
        vec!["show", "kalah"],
        vec!["check", "kalah"],
        vec!["list"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_sow"))
            .args(&args)
            .current_dir(root())
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("cannot write the output"),
            "{args:?}: {stderr}"
        );
    }
}

/// A match position saved past a round end and resumed with `--from`
/// gives the same legal moves and the same rest of the match as the
/// match played on without a break (issue 11).
#[test]
fn a_match_saved_mid_way_resumes_with_from() {
    use rand::{Rng, SeedableRng};
    let variant = sow::Variant::shipped("pallanguli").unwrap();
    // A random match that goes 40 plies past its first round, the last 30
    // of them after the position saved.
    let moves = (0..100u64)
        .find_map(|seed| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut game = sow::Game::new(variant.engine.clone()).unwrap();
            let mut moves = Vec::new();
            let mut after_round = 0;
            while game.outcome().is_none() && after_round < 40 {
                let legal = game.legal_turns();
                let t = legal[rng.gen_range(0..legal.len())];
                moves.push(sow::notation::write_turn(&game, t));
                game.play(t).unwrap();
                if game.rounds() > 0 {
                    after_round += 1;
                }
            }
            (after_round == 40).then_some(moves)
        })
        .expect("a match past its first round");
    let (before, rest) = moves.split_at(moves.len() - 30);
    let last = |r: &Run| -> serde_json::Value {
        assert_eq!(r.code, 0, "{}", r.stderr);
        serde_json::from_str::<serde_json::Value>(r.stdout.lines().last().unwrap()).unwrap()
            ["position"]
            .clone()
    };
    let saved = last(&sow(&[
        "play",
        "pallanguli",
        "--moves",
        &before.join(" "),
        "--format",
        "json",
    ]));
    assert!(saved["state"]["round"].as_u64().unwrap() > 0, "{saved}");
    let file = temp("mid-match.json", &saved.to_string());
    // The same legal moves as the library lists at that point.
    let listed = sow(&["moves", "pallanguli", "--from", &file, "--format", "json"]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let mut line = sow::Game::new(variant.engine.clone()).unwrap();
    for m in before {
        line.play(sow::notation::parse_turn(&line, m).unwrap())
            .unwrap();
    }
    for &t in line.legal_turns().iter() {
        let text = sow::notation::write_turn(&line, t);
        assert!(
            listed.stdout.contains(&format!("\"{text}\"")),
            "{text}: {}",
            listed.stdout
        );
    }
    // The rest of the match from the file ends where the whole match does.
    let resumed = last(&sow(&[
        "play",
        "pallanguli",
        "--from",
        &file,
        "--moves",
        &rest.join(" "),
        "--format",
        "json",
    ]));
    let whole = last(&sow(&[
        "play",
        "pallanguli",
        "--moves",
        &moves.join(" "),
        "--format",
        "json",
    ]));
    assert_eq!(resumed, whole);
}

/// Shell completions and the manual page come from the same definitions
/// as `--help`: every command and option is in them.
#[test]
fn completions_and_the_manual_page_cover_every_command() {
    let help = sow(&["--help"]);
    let bash = sow(&["completions", "bash"]);
    assert_eq!(bash.code, 0, "{}", bash.stderr);
    let man = sow(&["man"]);
    assert_eq!(man.code, 0, "{}", man.stderr);
    assert!(
        man.stdout.starts_with(".ie") || man.stdout.contains(".TH sow 1"),
        "{}",
        man.stdout
    );
    for command in [
        "check",
        "play",
        "moves",
        "perft",
        "random",
        "analyze",
        "draw",
        "show",
        "run",
        "list",
        "completions",
        "man",
    ] {
        assert!(
            help.stdout.contains(&format!("\n  {command} ")),
            "--help: {command}"
        );
        assert!(
            bash.stdout
                .contains(&format!("cmd=\"sow__subcmd__{command}\"")),
            "bash completions: {command}"
        );
        assert!(
            man.stdout.contains(&format!("sow\\-{command}(1)")),
            "man page: {command}"
        );
    }
    for option in [
        "--from-record",
        "--record",
        "--jobs",
        "--players",
        "--level",
    ] {
        assert!(bash.stdout.contains(option), "bash completions: {option}");
    }
    let zsh = sow(&["completions", "zsh"]);
    assert!(zsh.stdout.contains("#compdef sow"), "{}", zsh.stdout);
    let dir = std::env::temp_dir().join(format!("sow-man-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pages = sow(&["man", "--dir", dir.to_str().unwrap()]);
    assert_eq!(pages.code, 0, "{}", pages.stderr);
    let play = std::fs::read_to_string(dir.join("sow-play.1")).unwrap();
    assert!(play.contains("from\\-record"), "{play}");
    let none = sow(&["man", "--dir", "/nonexistent/folder"]);
    assert_eq!(none.code, 1);
    assert!(
        none.stderr.contains("cannot write the manual pages"),
        "{}",
        none.stderr
    );
}

/// `random` takes `analyze`'s defaults (1,000 games from seed 0), and a
/// rate prints as a whole number.
#[test]
fn random_has_defaults_and_whole_rates() {
    let r = sow(&["random", "kalah", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let summary: serde_json::Value =
        serde_json::from_str(r.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["games"], 1000);
    assert!(summary["turns_per_second"].is_u64(), "{summary}");
    let again = sow(&[
        "random", "kalah", "--format", "json", "--seed", "0", "--games", "1000",
    ]);
    let first = |s: &str| s.lines().next().unwrap().to_string();
    assert_eq!(first(&r.stdout), first(&again.stdout), "seed 0 by default");
    let r = sow(&["random", "kalah", "--games", "3"]);
    let rate = r.stdout.lines().last().unwrap();
    assert!(rate.contains(" turns per second"), "{rate}");
    assert!(!rate.split(": ").last().unwrap().contains('.'), "{rate}");
}
