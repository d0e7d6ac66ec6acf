//! Bao la Kiswahili against the published record (tests/oracles/bao/):
//! the 19 published positions, perft from the start (agreed by two
//! engines), and de Voogt's never-ending move.

use crate::common;

use common::*;
use serde_json::{json, Value};
use sow::{Game, Variant};

/// Rows as published: physical, left to right as South sees them.
fn physical(row: &str) -> Vec<String> {
    match row {
        "b" => (1..=8).rev().map(|i| format!("b{i}")).collect(),
        "a" => (1..=8).rev().map(|i| format!("a{i}")).collect(),
        "A" => (1..=8).map(|i| format!("A{i}")).collect(),
        "B" => (1..=8).map(|i| format!("B{i}")).collect(),
        other => panic!("no row {other}"),
    }
}

/// A published case as a position of the contract's form.
fn position(case: &Value) -> String {
    let mut pits = serde_json::Map::new();
    for row in ["b", "a", "A", "B"] {
        for (label, v) in physical(row).iter().zip(case[row].as_array().unwrap()) {
            pits.insert(label.clone(), v.clone());
        }
    }
    let houses = case["houses"].as_array().unwrap();
    let status = |i: usize| {
        if houses[i].as_bool().unwrap() {
            "standing"
        } else {
            "gone"
        }
    };
    let hands = case["hands"].as_array().unwrap();
    json!({
        "to_move": if case["to_move"] == 0 { "south" } else { "north" },
        "pits": pits,
        "hands": { "south": hands[0], "north": hands[1] },
        "state": { "house_status": { "south": status(0), "north": status(1) } },
    })
    .to_string()
}

#[test]
fn the_19_published_positions() {
    let v = shipped("bao-la-kiswahili");
    let text = std::fs::read_to_string(oracle("bao/published_positions.json")).unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();
    let cases = data["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 19);
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let mut game =
            sow::json::read_position(&v, &position(case)).unwrap_or_else(|d| panic!("{id}: {d}"));
        for m in case["moves"].as_array().unwrap() {
            let m = m.as_str().unwrap();
            let t = v
                .parse_turn(&game, m)
                .unwrap_or_else(|d| panic!("{id}: {m}: {d}"));
            game.play(t).unwrap();
        }
        let expect = case["expect"].as_object().unwrap();
        for (key, want) in expect {
            match key.as_str() {
                "a" | "b" | "A" | "B" => {
                    let labels = physical(key);
                    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
                    let want: Vec<u32> = want
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_u64().unwrap() as u32)
                        .collect();
                    assert_eq!(counts(&game, &labels), want, "{id}: row {key}");
                }
                "houses" => {
                    let state = sow::json::position(&v, &game)["state"]["house_status"].clone();
                    for (i, p) in ["south", "north"].iter().enumerate() {
                        let kept = state[p] == "standing";
                        assert_eq!(kept, want[i].as_bool().unwrap(), "{id}: {p}'s house");
                    }
                }
                "winner" => {
                    let o = game
                        .outcome()
                        .unwrap_or_else(|| panic!("{id}: the game should be over"));
                    assert_eq!(o.winner, Some(want.as_u64().unwrap() as u8), "{id}: winner");
                    assert_eq!(&*o.reason, "inner_row_empty", "{id}");
                }
                label => assert_eq!(
                    counts(&game, &[label])[0] as u64,
                    want.as_u64().unwrap(),
                    "{id}: {label}"
                ),
            }
        }
    }
}

fn perft_from_start(v: &Variant, depth: u32) -> u64 {
    sow::play::perft(&Game::new(v.engine.clone()).unwrap(), depth).unwrap()
}

#[test]
fn perft_from_the_start() {
    // Two engines agree: depths 1–5 → 4, 14, 38, 124, 405.
    let v = shipped("bao-la-kiswahili");
    let counts: Vec<u64> = (1..=5).map(|d| perft_from_start(&v, d)).collect();
    assert_eq!(counts, [4, 14, 38, 124, 405]);
}

#[test]
fn de_voogts_never_ending_move() {
    let v = shipped("bao-la-kiswahili");
    let text = std::fs::read_to_string(oracle("bao/never_ending.json")).unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();
    let mut game = Game::new(v.engine.clone()).unwrap();
    for m in data["moves"].as_array().unwrap() {
        let m = m.as_str().unwrap();
        let t = v
            .parse_turn(&game, m)
            .unwrap_or_else(|d| panic!("{m}: {d}"));
        game.play(t).unwrap();
    }
    // The 22 plies reach the published position.
    let after = &data["position_after"];
    let now = sow::json::position(&v, &game);
    assert_eq!(now["pits"], after["pits"]);
    assert_eq!(now["hands"], after["hands"]);
    assert_eq!(now["to_move"], after["to_move"]);
    assert_eq!(
        now["state"]["house_status"],
        json!({ "south": "gone", "north": "gone" })
    );
    // A3L never ends: it is found, and (the default) not a legal turn.
    let never = data["never_ending_move"].as_str().unwrap();
    let err = v.parse_turn(&game, never).unwrap_err().to_string();
    assert!(err.contains("would never end"), "{err}");
    assert!(game
        .endless_turns()
        .iter()
        .any(|&t| sow::notation::write_turn(&game, t) == never));
    assert!(
        !game.legal_turns().is_empty(),
        "South still has finite turns"
    );
}

/// The never-ending-turn policy is an option: with `draw` or `loss`, de
/// Voogt's A3L is legal and playing it ends the game.
#[test]
fn de_voogts_never_ending_move_under_each_policy() {
    let text = std::fs::read_to_string(oracle("bao/never_ending.json")).unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();
    let never = data["never_ending_move"].as_str().unwrap();
    for (policy, winner) in [("draw", None), ("loss", Some(1))] {
        let v = shipped("bao-la-kiswahili")
            .with_options(&[("endless_turns".into(), policy.into())])
            .unwrap();
        let mut game = Game::new(v.engine.clone()).unwrap();
        for m in data["moves"].as_array().unwrap() {
            let t = v.parse_turn(&game, m.as_str().unwrap()).unwrap();
            game.play(t).unwrap();
        }
        let t = v
            .parse_turn(&game, never)
            .unwrap_or_else(|d| panic!("{policy}: {never} is legal: {d}"));
        game.play(t).unwrap();
        let o = game.outcome().expect("the game ends");
        assert_eq!((&*o.reason, o.winner), ("endless_turn", winner), "{policy}");
    }
}

#[test]
fn kujifunza_perft_from_the_start() {
    // Two engines agree: depths 1–4 → 16, 108, 500, 1918.
    let v = shipped("bao-la-kujifunza");
    let counts: Vec<u64> = (1..=4).map(|d| perft_from_start(&v, d)).collect();
    assert_eq!(counts, [16, 108, 500, 1918]);
}

/// AbstractPlay's notation as ours: column `a`–`h` from South's left, row
/// 1 = B, 2 = A, 3 = a, 4 = b, `<`/`>` = L/R, `+` safari; `*` dropped.
fn from_abstractplay(m: &str) -> String {
    let b = m.as_bytes();
    let column = (b[0] - b'a') as usize;
    let label = match b[1] {
        b'1' => format!("B{}", column + 1),
        b'2' => format!("A{}", column + 1),
        b'3' => format!("a{}", 8 - column),
        b'4' => format!("b{}", 8 - column),
        other => panic!("row {other} in {m}"),
    };
    let rest: String = m[2..]
        .chars()
        .filter(|&c| c != '*')
        .map(|c| match c {
            '<' => 'L',
            '>' => 'R',
            c => c,
        })
        .collect();
    format!("{label}{rest}")
}

/// Plies where the engine knowingly differs from ours
/// (tests/oracles/README.md): it plays a winning turn on past the win,
/// and offers a safari there; ours ends the game when the inner row empties
/// (bao-interpretation.md, "End").
const PLAYS_ON_AFTER_THE_WIN: &[(&str, usize)] = &[("std_170.json", 23), ("std_21.json", 35)];

#[test]
fn the_105_engine_games_agree_ply_by_ply() {
    let dir = oracle("bao/games");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 105);
    let mut plies_checked = 0;
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let g: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        let v = shipped(if name.starts_with("std_") {
            "bao-la-kiswahili"
        } else {
            "bao-la-kujifunza"
        });
        let mut game = Game::new(v.engine.clone()).unwrap();
        let plies = g["plies"].as_array().unwrap();
        for (i, p) in plies.iter().enumerate() {
            let ply = i + 1;
            let id = format!("{name} ply {ply}");
            let mut theirs: Vec<String> = p["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| from_abstractplay(m.as_str().unwrap()))
                .collect();
            theirs.sort();
            theirs.dedup();
            let mut ours: Vec<String> = game
                .legal_turns()
                .iter()
                .map(|&t| sow::notation::write_turn(&game, t))
                .collect();
            ours.sort();
            if PLAYS_ON_AFTER_THE_WIN.contains(&(name.as_str(), ply)) {
                // Theirs has extra safari turns: each is one of ours, played on.
                let extra: Vec<&String> = theirs.iter().filter(|m| !ours.contains(m)).collect();
                assert!(
                    !extra.is_empty() && ours.iter().all(|m| theirs.contains(m)),
                    "{id}"
                );
                for m in extra {
                    let base = m.strip_suffix('+').expect("a safari turn");
                    let mut g2 = game.clone();
                    g2.play(v.parse_turn(&g2, base).unwrap()).unwrap();
                    assert_eq!(
                        g2.outcome().map(|o| &*o.reason),
                        Some("inner_row_empty"),
                        "{id}: {base} wins"
                    );
                }
            } else {
                assert_eq!(ours, theirs, "{id}: the legal turns");
            }
            let mv = p["moveDonkers"].as_str().unwrap();
            let t = v
                .parse_turn(&game, mv)
                .unwrap_or_else(|d| panic!("{id}: {mv}: {d}"));
            game.play(t).unwrap();
            plies_checked += 1;
            if ply == plies.len() {
                // The last ply: the winner (the engine plays the turn on past
                // the win, so its board may differ).
                let o = game
                    .outcome()
                    .unwrap_or_else(|| panic!("{id}: the game should be over"));
                let winner = g["winner"][0].as_u64().unwrap();
                assert_eq!(o.winner, Some((winner - 1) as u8), "{id}: winner");
                continue;
            }
            let pos = sow::json::position(&v, &game);
            for row in ["A", "B", "a", "b"] {
                for (k, want) in p["board"][row].as_array().unwrap().iter().enumerate() {
                    let label = format!("{row}{}", k + 1);
                    assert_eq!(pos["pits"][&label], *want, "{id} ({mv}): pit {label}");
                }
            }
            assert_eq!(pos["hands"]["south"], p["inhand"][0], "{id}: south's hand");
            assert_eq!(pos["hands"]["north"], p["inhand"][1], "{id}: north's hand");
        }
    }
    assert!(plies_checked > 3000, "{plies_checked} plies");
}

/// A fixture's position (with `houses` and `phase` as plain fields) in the
/// contract's form for `bao-la-kiswahili`.
fn fixture_position(p: &Value) -> String {
    let houses = &p["houses"];
    let status = |k: &str| {
        if houses[k] == "destroyed" {
            "gone"
        } else {
            "standing"
        }
    };
    json!({
        "to_move": p["to_move"],
        "pits": p["pits"],
        "hands": p["hands"],
        "state": { "house_status": { "south": status("south"), "north": status("north") } },
    })
    .to_string()
}

#[test]
fn takasia_e30() {
    // K.I.B.A. §4.5: after South's takasa A7L, a4 is takasia'd; North's four
    // replies leave a4 with 6, 2, 5 and 2 seeds (a8L ends in a4 and stops).
    let v = shipped("bao-la-kiswahili");
    let text = std::fs::read_to_string(oracle("bao/e30_takasia.json")).unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();
    let mut game = sow::json::read_position(&v, &fixture_position(&data["before"])).unwrap();
    let mv = data["move"].as_str().unwrap();
    game.play(v.parse_turn(&game, mv).unwrap()).unwrap();
    let now = sow::json::position(&v, &game);
    assert_eq!(now["pits"], data["after"]["pits"]);
    let blocked: Vec<&str> = now["state"]["takasia"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, x)| *x == "yes")
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(blocked, [data["takasia"].as_str().unwrap()]);
    // North may not start from a4; the four replies are the legal turns.
    let mut legal: Vec<String> = game
        .legal_turns()
        .iter()
        .map(|&t| sow::notation::write_turn(&game, t))
        .collect();
    legal.sort();
    let mut replies: Vec<&String> = data["replies"].as_object().unwrap().keys().collect();
    replies.sort();
    assert_eq!(legal.iter().collect::<Vec<_>>(), replies);
    for (reply, board) in data["replies"].as_object().unwrap() {
        let mut g = game.clone();
        g.play(v.parse_turn(&g, reply).unwrap()).unwrap();
        let after = sow::json::position(&v, &g);
        assert_eq!(after["pits"], *board, "{reply}");
        // The takasia lasts North's turn only.
        assert!(
            after["state"]["takasia"]
                .as_object()
                .unwrap()
                .values()
                .all(|x| x == "no"),
            "{reply}"
        );
    }
}
