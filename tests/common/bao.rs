//! Helpers for Bao positions (the four rows `A`, `B`, `a`, `b`).

use serde_json::{json, Value};
use sow::{Game, Variant};

use super::counts;

/// A position: the non-empty pits, the hands, whose houses stand, who moves.
pub fn position(
    v: &Variant,
    pits: &[(&str, u32)],
    hands: [u32; 2],
    houses: [bool; 2],
    to_move: &str,
) -> Game {
    let mut all = serde_json::Map::new();
    for row in ["A", "B", "a", "b"] {
        for i in 1..=8 {
            all.insert(format!("{row}{i}"), json!(0));
        }
    }
    for (l, n) in pits {
        all.insert(l.to_string(), json!(n));
    }
    let status = |b: bool| if b { "standing" } else { "gone" };
    let text = json!({
        "to_move": to_move,
        "pits": all,
        "hands": { "south": hands[0], "north": hands[1] },
        "state": { "house_status": { "south": status(houses[0]), "north": status(houses[1]) } },
    })
    .to_string();
    sow::json::read_position(v, &text).unwrap_or_else(|d| panic!("{d}"))
}

pub fn legal(game: &Game) -> Vec<String> {
    let mut l: Vec<String> = game
        .legal_turns()
        .iter()
        .map(|&t| sow::notation::write_turn(game, t))
        .collect();
    l.sort();
    l
}

pub fn play(v: &Variant, game: &mut Game, m: &str) {
    let t = v.parse_turn(game, m).unwrap_or_else(|d| panic!("{m}: {d}"));
    game.play(t).unwrap();
}

pub fn pit(game: &Game, label: &str) -> u32 {
    counts(game, &[label])[0]
}

pub fn state(v: &Variant, game: &Game) -> Value {
    sow::json::position(v, game)["state"].clone()
}
