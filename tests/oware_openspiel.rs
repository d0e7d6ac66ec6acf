//! Oware abapa against OpenSpiel's `oware` (tests/oracles/oware/):
//! every ply of every game, the special cases, the unit positions and the
//! 110-move playthrough. Nothing is skipped.

use crate::common;

use common::*;
use serde_json::Value;
use sow::Game;

/// OpenSpiel's board order: South's A…F, then North's a…f.
const BOARD: [&str; 12] = ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"];

fn label(player: u64, action: u64) -> &'static str {
    BOARD[(player * 6 + action) as usize]
}

fn nums(v: &Value) -> Vec<u32> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_u64().expect("a count") as u32)
        .collect()
}

fn stores(game: &Game) -> Vec<u32> {
    let n = game.engine().rules.pits.len();
    game.position().cells[n..].to_vec()
}

/// Asserts the pits (OpenSpiel's board order) and the stores (its scores).
fn assert_board(game: &Game, board: &Value, scores: &Value, what: &str) {
    assert_eq!(counts(game, &BOARD), nums(board), "{what}: board");
    assert_eq!(stores(game), nums(scores), "{what}: scores");
}

fn legal_from(player: u64, v: &Value) -> Vec<String> {
    let mut l: Vec<String> = v
        .as_array()
        .expect("legal")
        .iter()
        .map(|a| label(player, a.as_u64().unwrap()).to_string())
        .collect();
    l.sort();
    l
}

fn start(board: &Value, scores: &Value, to_move: u64) -> Game {
    let v = shipped("oware-abapa");
    let s = nums(scores);
    game_from(&v.engine, &BOARD, &nums(board), [s[0], s[1]], to_move as u8)
}

/// Replays one oracle game ply by ply, asserting everything it records.
fn replay(g: &Value) {
    let id = format!("game {} (seed {})", g["game"], g["seed"]);
    let init = &g["initial"];
    let mut game = start(
        &init["board"],
        &init["scores"],
        init["to_move"].as_u64().unwrap(),
    );
    let steps = g["steps"].as_array().unwrap();
    for step in steps {
        let ply = step["ply"].as_u64().unwrap();
        let player = step["player"].as_u64().unwrap();
        assert_eq!(
            game.position().to_move,
            Some(player as u8),
            "{id} ply {ply}: player to move"
        );
        assert_eq!(
            legal_labels(&game),
            legal_from(player, &step["legal"]),
            "{id} ply {ply}: legal moves before"
        );
        let mv = label(player, step["move"].as_u64().unwrap());
        game.play(turn(&game, mv)).unwrap();
        assert_board(
            &game,
            &step["board"],
            &step["scores"],
            &format!("{id} ply {ply} ({mv})"),
        );
        let terminal = step["terminal"].as_bool().unwrap();
        assert_eq!(
            game.outcome().is_some(),
            terminal,
            "{id} ply {ply}: terminal"
        );
        match step["to_move"].as_u64() {
            Some(p) => assert_eq!(
                game.position().to_move,
                Some(p as u8),
                "{id} ply {ply}: to move"
            ),
            None => assert_eq!(game.position().to_move, None, "{id} ply {ply}: to move"),
        }
    }
    let end = &g["end"];
    let o = game
        .outcome()
        .unwrap_or_else(|| panic!("{id}: the game should be over"));
    assert_eq!(
        &*o.reason,
        end["reason"].as_str().unwrap(),
        "{id}: end reason"
    );
    let fin = nums(&end["final_scores"]);
    assert_eq!(
        o.scores.to_vec(),
        fin.iter().map(|&x| x as i64).collect::<Vec<_>>(),
        "{id}: final scores"
    );
    let ret = end["returns"][0].as_f64().unwrap();
    let want = if ret > 0.0 {
        Some(0)
    } else if ret < 0.0 {
        Some(1)
    } else {
        None
    };
    assert_eq!(o.winner, want, "{id}: winner");
    assert_eq!(
        steps.len() as u64,
        g["num_plies"].as_u64().unwrap(),
        "{id}: length"
    );
}

#[test]
fn random_200_games_agree_ply_by_ply() {
    let games = jsonl(&oracle("oware/random_200.jsonl"));
    assert_eq!(games.len(), 200);
    let mut reasons = std::collections::BTreeMap::new();
    for g in &games {
        replay(g);
        *reasons
            .entry(g["end"]["reason"].as_str().unwrap().to_string())
            .or_insert(0) += 1;
    }
    // The README's tally: 158 above half, 25 cannot feed, 17 repetition.
    assert_eq!(reasons["score_gt_half"], 158);
    assert_eq!(reasons["cannot_feed"], 25);
    assert_eq!(reasons["repetition"], 17);
}

#[test]
fn greedy_20_games_agree_ply_by_ply() {
    let games = jsonl(&oracle("oware/greedy_20.jsonl"));
    assert_eq!(games.len(), 20);
    games.iter().for_each(replay);
}

#[test]
fn special_cases_agree() {
    let cases = jsonl(&oracle("oware/special_cases.jsonl"));
    assert_eq!(cases.len(), 57);
    for c in &cases {
        let id = format!("{} (ply {})", c["category"], c["ply"]);
        // Replay the whole history, so that the repetition rule sees it.
        let v = shipped("oware-abapa");
        let mut game = Game::new(v.engine.clone()).unwrap();
        let moves = c["moves"].as_array().unwrap();
        let ply = c["ply"].as_u64().unwrap() as usize;
        assert_eq!(moves.len(), ply, "{id}: history length");
        for (i, m) in moves.iter().enumerate() {
            let player = game.position().to_move.expect("the game goes on") as u64;
            let mv = label(player, m.as_u64().unwrap());
            if i + 1 == ply {
                let before = &c["before"];
                assert_board(
                    &game,
                    &before["board"],
                    &before["scores"],
                    &format!("{id} before"),
                );
                assert_eq!(player, before["to_move"].as_u64().unwrap(), "{id}: mover");
                assert_eq!(
                    legal_labels(&game),
                    legal_from(player, &c["legal_before"]),
                    "{id}: legal before"
                );
            }
            game.play(turn(&game, mv)).unwrap();
        }
        let after = &c["after"];
        assert_board(
            &game,
            &after["board"],
            &after["scores"],
            &format!("{id} after"),
        );
        assert_eq!(
            game.outcome().is_some(),
            after["terminal"].as_bool().unwrap(),
            "{id}: terminal"
        );
        if let Some(reason) = c["end_reason"].as_str() {
            let o = game.outcome().unwrap();
            assert_eq!(&*o.reason, reason, "{id}: reason");
            let ret = after["returns"][0].as_f64().unwrap();
            let want = if ret > 0.0 {
                Some(0)
            } else if ret < 0.0 {
                Some(1)
            } else {
                None
            };
            assert_eq!(o.winner, want, "{id}: winner");
        } else {
            assert_eq!(
                game.position().to_move,
                Some(after["to_move"].as_u64().unwrap() as u8),
                "{id}: to move after"
            );
        }
    }
}

#[test]
fn openspiel_unit_positions_agree() {
    let text = std::fs::read_to_string(oracle("oware/unit_tests.json")).unwrap();
    let tests: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(tests.len(), 8);
    for t in &tests {
        let name = t["name"].as_str().unwrap();
        let s = &t["start"];
        let mover = s["to_move"].as_u64().unwrap();
        let mut game = start(&s["board"], &s["scores"], mover);
        let exp = &t["expected"];
        if let Some(actions) = t["actions"].as_array() {
            // The repetition test: play all but the last two, check, then finish.
            let split = actions.len() - exp["then"].as_array().unwrap().len();
            for (i, a) in actions.iter().enumerate() {
                if i == split {
                    assert_board(
                        &game,
                        &exp["not_terminal_board"],
                        &exp["not_terminal_scores"],
                        name,
                    );
                    assert!(game.outcome().is_none(), "{name}: not over yet");
                }
                let p = game.position().to_move.unwrap() as u64;
                game.play(turn(&game, label(p, a.as_u64().unwrap())))
                    .unwrap();
            }
            assert_board(&game, &exp["final_board"], &exp["final_scores"], name);
            assert_eq!(
                game.outcome().map(|o| &*o.reason),
                t["mirror_end_reason"].as_str(),
                "{name}"
            );
            continue;
        }
        match t["action"].as_u64() {
            None => assert_eq!(
                legal_labels(&game),
                legal_from(mover, &exp["legal"]),
                "{name}: legal"
            ),
            Some(a) => {
                game.play(turn(&game, label(mover, a))).unwrap();
                assert_board(&game, &exp["board"], &exp["scores"], name);
            }
        }
    }
}

#[test]
fn playthrough_110_moves() {
    let text = std::fs::read_to_string(oracle("oware/playthrough_check.json")).unwrap();
    let p: Value = serde_json::from_str(&text).unwrap();
    let v = shipped("oware-abapa");
    let mut game = Game::new(v.engine.clone()).unwrap();
    let actions = p["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 110);
    for a in actions {
        let player = game.position().to_move.expect("the game goes on") as u64;
        game.play(turn(&game, label(player, a.as_u64().unwrap())))
            .unwrap();
    }
    // "to_move | south north | 12 pits"
    let obs = p["final_observation"].as_str().unwrap();
    let parts: Vec<&str> = obs.split('|').map(str::trim).collect();
    let scores: Vec<u32> = parts[1]
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    let board: Vec<u32> = parts[2]
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(stores(&game), scores);
    assert_eq!(counts(&game, &BOARD), board);
    let o = game.outcome().expect("the playthrough ends the game");
    assert_eq!(o.winner, Some(1), "returns {}", p["returns"]);
}

/// F1 through a saved position: OpenSpiel's repetition test, saved to JSON
/// after ten moves and resumed; the positions seen travel in `state.seen`.
#[test]
fn repetition_survives_save_and_resume() {
    let text = std::fs::read_to_string(oracle("oware/unit_tests.json")).unwrap();
    let tests: Vec<Value> = serde_json::from_str(&text).unwrap();
    let t = tests
        .iter()
        .find(|t| t["actions"].is_array())
        .expect("the repetition test");
    let s = &t["start"];
    let v = shipped("oware-abapa");
    let mut game = start(&s["board"], &s["scores"], s["to_move"].as_u64().unwrap());
    let actions: Vec<u64> = t["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_u64().unwrap())
        .collect();
    for &a in &actions[..10] {
        let p = game.position().to_move.unwrap() as u64;
        game.play(turn(&game, label(p, a))).unwrap();
    }
    let saved = sow::json::position(&v, &game).to_string();
    assert!(saved.contains("\"seen\":[["), "{saved}");
    let mut resumed = sow::json::read_position(&v, &saved).unwrap();
    for &a in &actions[10..] {
        let p = resumed.position().to_move.unwrap() as u64;
        resumed.play(turn(&resumed, label(p, a))).unwrap();
    }
    assert_eq!(resumed.outcome().map(|o| &*o.reason), Some("repetition"));
    // Without the history the same moves do not end the game.
    let mut forgetful: Value = serde_json::from_str(&saved).unwrap();
    forgetful["state"]["seen"] = serde_json::json!([]);
    let mut g = sow::json::read_position(&v, &forgetful.to_string()).unwrap();
    for &a in &actions[10..] {
        let p = g.position().to_move.unwrap() as u64;
        g.play(turn(&g, label(p, a))).unwrap();
    }
    assert!(g.outcome().is_none());
}
