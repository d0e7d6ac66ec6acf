//! The Oware match (`variants/oware-match.sow`, built on `oware-abapa`),
//! clause by clause (docs/rules/oware-match.md, OR1–OR14): each test sets
//! up the last move of a round and checks the next round's set-up, or the
//! end of the match.

use crate::common;

use common::*;
use sow::{Game, Variant};

const LABELS: [&str; 12] = ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"];

fn variant() -> Variant {
    shipped("oware-match")
}

/// South to move with 3 seeds in F and North's a, b, c holding 1 each: F
/// makes them 2 and South captures the three (O7, O8), 6 seeds. `south`
/// holds South's A and the stores, `north` North's d and the stores; when
/// South then holds more than 24 the round ends (F2) and each takes what
/// is left in their row (F3).
fn last_capture(v: &Variant, (a, south): (u32, u32), (d, north): (u32, u32)) -> Game {
    let seeds = [a, 0, 0, 0, 0, 3, 1, 1, 1, d, 0, 0];
    let mut g = game_from(&v.engine, &LABELS, &seeds, [south, north], 0);
    assert!(
        g.round_end().is_none() && g.rounds() == 0,
        "the round is on"
    );
    g.play(turn(&g, "F")).unwrap();
    g
}

fn state(v: &Variant, g: &Game) -> serde_json::Value {
    sow::json::position(v, g)["state"].clone()
}

fn per_pit(v: &Variant, g: &Game, var: &str) -> Vec<String> {
    let s = state(v, g);
    LABELS
        .iter()
        .map(|l| s[var][l].as_str().unwrap().to_string())
        .collect()
}

/// OR2 the round ends as the single game does and is won by the higher
/// count; OR4 each player fills their own row from their left while they
/// have 4; OR5 the house North cannot fill (f) goes to South; OR6 South,
/// with 1 seed left, cannot fill it; OR7 so it is closed; OR8 the seeds
/// left stay in the stores; OR11 the winner starts.
#[test]
fn the_houses_a_player_cannot_fill_go_to_the_opponent() {
    let v = variant();
    let g = last_capture(&v, (0, 19), (4, 19));
    // South 19 + 6 = 25, North 19 + 4 = 23: South won the round.
    let end = g.round_end().expect("the round is over");
    assert_eq!(end.outcome.winner, Some(0));
    assert_eq!(&*end.outcome.reason, "score_gt_half");
    assert_eq!(g.rounds(), 1);
    assert!(g.outcome().is_none(), "the match goes on");
    assert_eq!(counts(&g, &LABELS), [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0]);
    assert_eq!(&g.position().cells[12..], &[1, 3], "OR8: 25 - 24, 23 - 20");
    let holder = per_pit(&v, &g, "holder");
    assert_eq!(holder[11], "south", "OR5: f is South's");
    assert!(holder[..11].iter().all(|h| h == "none"));
    let closed = per_pit(&v, &g, "closed");
    assert_eq!(closed[11], "yes", "OR7: nobody could fill f");
    assert!(closed[..11].iter().all(|c| c == "no"));
    assert_eq!(
        g.position().to_move,
        Some(0),
        "OR11: South won, South starts"
    );
}

/// OR6 the opponent fills the houses they gained from what they have left;
/// OR5 and plays them as their own.
#[test]
fn the_opponent_fills_and_plays_the_houses_gained() {
    let v = variant();
    // South 22 + 6 = 28, North 16 + 4 = 20: North fills a–e, South A–F and
    // then f with its last 4.
    let g = last_capture(&v, (0, 22), (4, 16));
    assert_eq!(counts(&g, &LABELS), [4; 12]);
    assert_eq!(&g.position().cells[12..], &[0, 0]);
    assert_eq!(per_pit(&v, &g, "holder")[11], "south");
    assert!(per_pit(&v, &g, "closed").iter().all(|c| c == "no"));
    assert_eq!(legal_labels(&g), ["A", "B", "C", "D", "E", "F", "f"]);
    // North 4 fills a alone; South's 22 + 6 + 16 = 44 fill A–F and b–f.
    let g = last_capture(&v, (16, 22), (4, 0));
    assert!(g.outcome().is_none(), "OR13: 4 seeds fill a house");
    assert_eq!(counts(&g, &LABELS), [4; 12]);
    let holder = per_pit(&v, &g, "holder");
    assert_eq!(
        &holder[6..],
        ["none", "south", "south", "south", "south", "south"]
    );
    assert_eq!(
        legal_labels(&g),
        ["A", "B", "C", "D", "E", "F", "b", "c", "d", "e", "f"]
    );
}

/// OR9 a house lost in one round is its row's owner's again when they can
/// fill it in a later one; OR7 a closed house is passed over by the sowing.
#[test]
fn a_house_lost_is_won_back_and_a_closed_one_is_passed_over() {
    let v = variant();
    // Round 1 ends with f South's and closed.
    let g = last_capture(&v, (0, 19), (4, 19));
    assert_eq!(legal_labels(&g), ["A", "B", "C", "D", "E", "F"]);
    // Later in round 2: North to move, its e holding 1, South's A 1, B and
    // C 2 each; stores South 19, North 23.
    let mut saved = sow::json::position(&v, &g);
    for (l, n) in LABELS.iter().zip([1, 2, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0]) {
        saved["pits"][l] = n.into();
    }
    saved["stores"] = serde_json::json!({"south": 19, "north": 23});
    saved["to_move"] = "north".into();
    let mut g = sow::json::read_position(&v, &saved.to_string()).unwrap();
    // e's seed passes over the closed f into A, making 2: North captures
    // them, 25 > 24; South takes B and C (F3): 23.
    g.play(turn(&g, "e")).unwrap();
    let end = g.round_end().expect("the round is over");
    assert_eq!(end.outcome.winner, Some(1));
    assert_eq!(
        &end.position.cells[..12],
        &[0; 12],
        "F3: every house emptied"
    );
    assert_eq!(&end.position.cells[12..], &[23, 25]);
    // South's 23 fill A–E (3 left); F goes to North, whose 25 fill a–f
    // (1 left): F is closed, f North's own again.
    assert_eq!(counts(&g, &LABELS), [4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4]);
    assert_eq!(&g.position().cells[12..], &[3, 1]);
    let holder = per_pit(&v, &g, "holder");
    assert_eq!(holder[5], "north", "OR5: F is North's");
    assert_eq!(holder[11], "none", "OR9: f is its row's owner's again");
    let closed = per_pit(&v, &g, "closed");
    assert_eq!(closed[5], "yes");
    assert_eq!(closed[11], "no");
    assert_eq!(
        g.position().to_move,
        Some(1),
        "OR11: North won, North starts"
    );
}

/// OR12 after a drawn round the player who did not start it starts.
#[test]
fn after_a_draw_the_other_player_starts() {
    let v = variant();
    // South to move in a round South started (F4), South's row empty and
    // North's a holding 1: South has no move (O10), North takes a (F3): 24
    // each. (Without OR12 the player to move, South, would start.)
    let g = game_from(
        &v.engine,
        &LABELS,
        &[0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
        [24, 23],
        0,
    );
    let end = g.round_end().expect("the round is over");
    assert_eq!(end.outcome.winner, None, "24 each: a draw");
    assert_eq!(counts(&g, &LABELS), [4; 12]);
    assert_eq!(
        g.position().to_move,
        Some(1),
        "South started the drawn round: North starts"
    );
    assert_eq!(state(&v, &g)["starter"], "north");
}

/// OR13 the match is over when a player holds fewer than 4 seeds after a
/// round; OR14 its winner is the last round's.
#[test]
fn the_match_ends_when_a_player_cannot_fill_a_house() {
    let v = variant();
    // South 22 + 6 + 17 = 45, North 3.
    let g = last_capture(&v, (17, 22), (3, 0));
    let o = g.outcome().expect("the match is over");
    assert_eq!(o.winner, Some(0));
    assert_eq!(g.rounds(), 0, "no round is set up");
    assert_eq!(&g.position().cells[12..], &[45, 3]);
}
