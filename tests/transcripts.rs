//! Text transcripts of known Oware sequences, for review: OpenSpiel's
//! 110-move playthrough, and one game of each special-case category. The
//! oracle tests (oware_openspiel.rs) assert these games ply by ply; the
//! snapshots let a reviewer read them.

use crate::common;

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

/// A complete random game of each Bao variant, a line a ply (the rows as
/// South sees them, the hands), then the final board.
#[test]
fn a_complete_game_of_each_bao_variant() {
    use rand::{Rng, SeedableRng};
    for name in ["bao-la-kiswahili", "bao-la-kujifunza"] {
        let v = shipped(name);
        let mut game = Game::new(v.engine.clone()).unwrap();
        let total = game.position().total();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let rows: [Vec<String>; 4] = [
            (1..=8).rev().map(|i| format!("b{i}")).collect(),
            (1..=8).rev().map(|i| format!("a{i}")).collect(),
            (1..=8).map(|i| format!("A{i}")).collect(),
            (1..=8).map(|i| format!("B{i}")).collect(),
        ];
        let mut out = String::new();
        let mut ply = 0;
        while game.outcome().is_none() {
            let legal = game.legal_turns();
            let t = legal[rng.gen_range(0..legal.len())];
            let mv = sow::notation::write_turn(&game, t);
            let mover = v.engine.rules.players[game.position().to_move.unwrap() as usize].clone();
            game.play(t).unwrap();
            ply += 1;
            assert_eq!(game.position().total(), total, "{name}: seeds conserved");
            let line: Vec<String> = rows
                .iter()
                .map(|r| {
                    let labels: Vec<&str> = r.iter().map(String::as_str).collect();
                    counts(&game, &labels)
                        .iter()
                        .map(|c| format!("{c:>2}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            let h = game.position().hands;
            out.push_str(&format!(
                "{ply:>3} {mover:<5} {mv:<5} | {} | hands {} {}\n",
                line.join(" | "),
                h[0],
                h[1]
            ));
        }
        out.push('\n');
        out.push_str(&sow::render::board(&v, &game));
        assert!(ply > 10, "{name}: a real game");
        insta::assert_snapshot!(name, out);
    }
}
