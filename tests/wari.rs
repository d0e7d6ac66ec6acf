//! Wari on top of Oware abapa, and Oware's grand-slam option: a move that
//! would capture every seed of the opponent captures nothing in abapa (O9),
//! is not allowed in Wari, and takes them all with `grand_slam=take_all`.

use crate::common;

use common::*;
use sow::{Game, Variant};

const LABELS: &[&str] = &["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"];

/// South to move; North holds 1 seed in `a` and in `b`; F (2 seeds) would
/// take both, a grand slam. South has `A` too when `other_move`.
fn slam(v: &Variant, other_move: bool) -> Game {
    let seeds = [other_move as u32, 0, 0, 0, 0, 2, 1, 1, 0, 0, 0, 0];
    game_from(&v.engine, LABELS, &seeds, [20, 22], 0)
}

fn oware(options: &[(&str, &str)]) -> Variant {
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    sow::load::load("oware-abapa", std::path::Path::new(""), &options).unwrap()
}

#[test]
fn abapa_plays_the_grand_slam_wari_forbids_it() {
    let abapa = shipped("oware-abapa");
    let mut g = slam(&abapa, true);
    assert_eq!(legal_labels(&g), ["A", "F"]);
    g.play(turn(&g, "F")).unwrap();
    // O9: the move is played and captures nothing.
    assert_eq!(counts(&g, &["a", "b", "F"]), [2, 2, 0]);
    assert_eq!(g.position().cells[12..], [20, 22]);

    let wari = shipped("wari");
    let g = slam(&wari, true);
    assert_eq!(legal_labels(&g), ["A"], "the grand slam is not allowed");
    // The same as abapa with the option set.
    assert_eq!(
        legal_labels(&slam(&oware(&[("grand_slam", "forbidden")]), true)),
        ["A"]
    );
}

#[test]
fn wari_a_player_left_with_no_allowed_move_passes_and_the_game_ends() {
    let wari = shipped("wari");
    let mut g = slam(&wari, false);
    assert!(g.outcome().is_none(), "the player passes first");
    assert_eq!(legal_labels(&g), ["pass"]);
    g.play(turn(&g, "pass")).unwrap();
    let o = g.outcome().expect("no allowed move ends the game");
    assert_eq!(&*o.reason, "no_allowed_move");
    // Each player takes the seeds on their side: South 20 + 2, North 22 + 2.
    assert_eq!(o.scores, [22, 24]);
    assert_eq!(o.winner, Some(1));
    // Abapa plays the grand slam instead (capturing nothing).
    let abapa = shipped("oware-abapa");
    let g = slam(&abapa, false);
    assert!(g.outcome().is_none());
    assert_eq!(legal_labels(&g), ["F"]);
}

#[test]
fn oware_take_all_lets_the_grand_slam_capture() {
    let v = oware(&[("grand_slam", "take_all")]);
    let mut g = slam(&v, true);
    g.play(turn(&g, "F")).unwrap();
    assert_eq!(counts(&g, &["a", "b"]), [0, 0]);
    // South captured 4; North's field is empty, so the game ends and
    // abapa's F3 gives South the seed left on its side.
    assert_eq!(g.position().cells[12], 20 + 4 + 1);
}

/// A rule an option turns off costs nothing: abapa's forbidding grand-slam
/// rule is off by default, so its turns are not played out in advance to be
/// listed (they are in Wari, and with the option set).
#[test]
fn a_rule_turned_off_by_an_option_costs_nothing() {
    assert!(!shipped("oware-abapa").engine.forbids_by_capture());
    assert!(shipped("wari").engine.forbids_by_capture());
    assert!(oware(&[("grand_slam", "forbidden")])
        .engine
        .forbids_by_capture());
}

/// Ludii's "Wari (Observed)" ends only when the player to move has no
/// allowed move: abapa ends at more than half the seeds captured (O12,
/// F2), Wari plays on. (The review found `wari.sow` ending games early
/// that Ludii plays on.)
#[test]
fn wari_plays_on_past_half_the_seeds_captured() {
    // South has captured 25 of 48; both sides still have seeds.
    let seeds = [2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1];
    let abapa = shipped("oware-abapa");
    let g = game_from(&abapa.engine, LABELS, &seeds, [25, 2], 0);
    assert_eq!(g.outcome().map(|o| &*o.reason), Some("score_gt_half"));
    let wari = shipped("wari");
    let mut g = game_from(&wari.engine, LABELS, &seeds, [25, 2], 0);
    assert!(g.outcome().is_none(), "Wari goes on");
    assert_eq!(legal_labels(&g), ["A", "B", "C", "D", "E", "F"]);
    g.play(turn(&g, "F")).unwrap();
    assert!(g.outcome().is_none());
}

/// Ludii 1.3.13's Wari, the kept-aside position where sow's Wari once
/// ended a game Ludii plays on: South to move with A, F, a and f holding
/// one seed each, stores 24 and 20. South's F takes a's 2, leaving one
/// seed a side; North's f would take South's last seed, a move not
/// allowed, so North passes (Ludii's forced pass) and only then does the
/// game end, each side's seed to its owner.
#[test]
fn wari_ends_after_the_pass_as_ludii_does() {
    let wari = shipped("wari");
    let seeds = [1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1];
    let mut g = game_from(&wari.engine, LABELS, &seeds, [24, 20], 0);
    g.play(turn(&g, "F")).unwrap();
    assert_eq!(counts(&g, LABELS), [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    assert_eq!(g.position().cells[12..], [26, 20]);
    assert!(g.outcome().is_none(), "Ludii plays on");
    assert_eq!(legal_labels(&g), ["pass"]);
    g.play(turn(&g, "pass")).unwrap();
    let o = g.outcome().expect("the pass ends the game");
    assert_eq!(&*o.reason, "no_allowed_move");
    assert_eq!((o.scores, o.winner), ([27, 21], Some(0)));
}
