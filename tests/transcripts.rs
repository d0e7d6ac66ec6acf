//! Text transcripts of known Oware sequences, for review: OpenSpiel's
//! 110-move playthrough, and one game of each special-case category. The
//! oracle tests (oware_openspiel.rs) assert these games ply by ply; the
//! snapshots let a reviewer read them.

mod common;

use common::*;
use serde_json::Value;
use sow::Game;

const BOARD: [&str; 12] = ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"];

/// One line a ply, then the final board.
fn transcript(actions: &[u64]) -> String {
    let v = shipped("oware-abapa");
    let mut game = Game::new(v.engine.clone()).unwrap();
    let n = v.engine.rules.pits.len();
    let mut out = String::new();
    for (i, a) in actions.iter().enumerate() {
        let p = game.position().to_move.expect("the game goes on") as u64;
        let mv = BOARD[(p * 6 + a) as usize];
        game.play(turn(&game, mv)).unwrap();
        let c = counts(&game, &BOARD);
        let s = &game.position().cells[n..];
        let row = |r: &[u32]| {
            r.iter()
                .map(|x| format!("{x:>2}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        out.push_str(&format!(
            "{:>3} {} {mv} | {} | {} | {:>2} {:>2}\n",
            i + 1,
            v.engine.rules.players[p as usize],
            row(&c[..6]),
            row(&c[6..]),
            s[0],
            s[1]
        ));
    }
    out.push('\n');
    out.push_str(&sow::render::board(&v, &game));
    out
}

fn nums(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

#[test]
fn playthrough_110_moves() {
    let text = std::fs::read_to_string(oracle("oware/playthrough_check.json")).unwrap();
    let p: Value = serde_json::from_str(&text).unwrap();
    let t = transcript(&nums(&p["actions"]));
    // The oracle's final observation: 21–27, board empty, North wins.
    assert!(
        t.contains("game over (") && t.contains("north wins, south 21 – north 27"),
        "{t}"
    );
    insta::assert_snapshot!(t);
}

#[test]
fn one_game_per_special_case_category() {
    let cases = jsonl(&oracle("oware/special_cases.jsonl"));
    let mut seen = std::collections::BTreeSet::new();
    for c in &cases {
        let cat = c["category"].as_str().unwrap().to_string();
        if !seen.insert(cat.clone()) {
            continue;
        }
        let t = transcript(&nums(&c["moves"]));
        insta::assert_snapshot!(cat, t);
    }
    assert_eq!(seen.len(), 19);
}
