//! Omweso (docs/rules/omweso.md), clause by clause: no engine we have
//! plays it, so each clause is a position and what the rules page says
//! follows. The primitives the file needs are proven here too: `behind`
//! (OM13, OM14), `lifted` (OM15), `relay backward` (OM20), `forbid` at
//! `land` (OM18) and the flag answered at each sowing (OM19, OM20).

use crate::common;

use common::*;
use sow::engine::Game;

fn omweso() -> sow::Variant {
    shipped("omweso")
}

/// The position with `seeds` in the pits named (every other pit empty),
/// no seed in hand: play has begun.
fn position(v: &sow::Variant, seeds: &[(&str, u32)], to_move: u8) -> Game {
    let (labels, counts): (Vec<&str>, Vec<u32>) = seeds.iter().copied().unzip();
    game_from(&v.engine, &labels, &counts, [0, 0], to_move)
}

fn seeds(g: &Game, labels: &[&str]) -> Vec<u32> {
    counts(g, labels)
}

/// OM6–OM8: every seed starts in hand; the first player puts them into
/// their own holes one a turn, moving again until the hand is empty; the
/// other player then arranges; then the first player makes the first
/// move. `--first` (here, the start position's player) may be North.
#[test]
fn the_players_arrange_their_seeds_in_turn_before_play() {
    let v = omweso();
    for first in [0u8, 1] {
        let mut start = v.engine.start_position();
        start.to_move = Some(first);
        let mut g = Game::from_position(v.engine.clone(), start, Vec::new()).unwrap();
        let own = |p: u8| -> Vec<String> {
            let row = if p == 0 { ["A", "B"] } else { ["a", "b"] };
            let mut v: Vec<String> = row
                .iter()
                .flat_map(|r| (1..=8).map(move |i| format!("{r}{i}")))
                .collect();
            v.sort();
            v
        };
        for mover in [first, 1 - first] {
            for k in 0..32 {
                assert_eq!(g.position().to_move, Some(mover), "seed {k}");
                assert_eq!(legal_labels(&g), own(mover), "OM7: any own hole");
                // Two seeds in each hole of the outer row, as OM6 lays them.
                let label = format!("{}{}", if mover == 0 { "B" } else { "b" }, k % 8 + 1);
                g.play(turn(&g, &label)).unwrap();
            }
            assert_eq!(g.position().hands[mover as usize], 0);
        }
        assert_eq!(
            g.position().to_move,
            Some(first),
            "OM8: the first player moves first"
        );
        assert_eq!(g.plies(), 64);
        let outer = if first == 0 { "B1" } else { "b1" };
        assert_eq!(seeds(&g, &[outer]), [4]);
        // Play: holes of 4 in the outer row, each a legal start.
        assert!(legal_labels(&g)
            .iter()
            .all(|l| l.starts_with(if first == 0 { 'B' } else { 'b' })));
    }
}

/// OM9: a hole of one seed cannot be played; OM22: a player with none of
/// two or more loses at once.
#[test]
fn a_single_seed_is_never_played_and_a_player_without_a_move_loses() {
    let v = omweso();
    let g = position(&v, &[("B1", 1), ("B5", 2), ("a3", 1), ("b3", 2)], 0);
    assert_eq!(legal_labels(&g), ["B5"]);
    let g = position(&v, &[("B1", 1), ("B5", 1), ("a3", 1), ("b3", 2)], 0);
    let o = g.outcome().expect("South cannot move");
    assert_eq!((o.winner, &*o.reason), (Some(1), "stuck"));
}

/// OM11(b), OM13–OM15: the last seed in an occupied inner hole with both
/// holes opposite it occupied takes both (`opposite`, then `behind` it),
/// sown from the hole after the one last lifted (`lifted`), on round.
#[test]
fn a_capture_takes_both_holes_opposite_and_sows_them_from_after_the_anchor() {
    let v = omweso();
    // B7 (2) sows B8, A8: A8 held one. A8 faces a1, behind it b1.
    let mut g = position(
        &v,
        &[("B7", 2), ("A8", 1), ("a1", 3), ("b1", 2), ("b5", 3)],
        0,
    );
    g.play(turn(&g, "B7")).unwrap();
    // The five taken go from B8 (after B7, the anchor) on: B8 A8 A7 A6 A5.
    assert_eq!(
        seeds(&g, &["B7", "B8", "A8", "A7", "A6", "A5", "A4", "a1", "b1"]),
        [0, 2, 3, 1, 1, 1, 0, 0, 0]
    );
    assert_eq!(
        g.position().to_move,
        Some(1),
        "A5 was empty: the turn ends (OM11a)"
    );
    // OM13: one of the two holes empty: no capture; A8 is relayed.
    let mut g = position(&v, &[("B7", 2), ("A8", 1), ("a1", 3), ("b5", 3)], 0);
    g.play(turn(&g, "B7")).unwrap();
    assert_eq!(seeds(&g, &["A8", "A7", "A6", "a1"]), [0, 1, 1, 3]);
}

/// OM12, OM15, OM17: after a relay the anchor is the relayed hole, and a
/// second capture is sown from the hole after it too.
#[test]
fn the_anchor_moves_with_each_relay() {
    let v = omweso();
    // B1 (2) sows B2, B3: B3 held 1 and is relayed: B4, B5; B5 held 3
    // and is relayed (the anchor is now B5): B6, B7, B8, A8; A8 held 1,
    // both holes opposite full: a1 + b1 (4) are sown from B6, the hole
    // after the anchor (from the origin's B2, were the anchor the
    // origin): B6, B7, B8, A8; A8 is relayed (its opposite now empty):
    // A7, A6, A5, empty, and the turn ends.
    let mut g = position(
        &v,
        &[
            ("B1", 2),
            ("B3", 1),
            ("B5", 3),
            ("A8", 1),
            ("a1", 2),
            ("b1", 2),
            ("b5", 3),
        ],
        0,
    );
    g.play(turn(&g, "B1")).unwrap();
    assert_eq!(
        seeds(
            &g,
            &["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "A8", "A7", "a1", "b1"]
        ),
        [0, 1, 0, 1, 0, 2, 2, 2, 0, 1, 0, 0]
    );
}

/// OM18 (`forbid` at `land`): a turn from a leftmost hole may go
/// clockwise (`cw`, `backward`) only where that lap ends in a capture.
#[test]
fn a_clockwise_start_must_capture_at_once() {
    let v = omweso();
    // A1 cw sows A2, A3: A3 held one, faces a6 and b6, both full.
    let g = position(
        &v,
        &[
            ("A1", 2),
            ("A3", 1),
            ("A2", 2),
            ("a6", 1),
            ("b6", 1),
            ("b2", 3),
        ],
        0,
    );
    let legal = legal_labels(&g);
    assert!(legal.contains(&"A1cw".to_string()), "{legal:?}");
    assert!(legal.contains(&"A1ccw".to_string()), "{legal:?}");
    // A2 cw would end in A4, empty: no capture, so not a legal turn.
    assert!(!legal.contains(&"A2cw".to_string()), "{legal:?}");
    assert!(legal.contains(&"A2ccw".to_string()), "{legal:?}");
    // A hole that is not leftmost has no choice.
    let g = position(&v, &[("A5", 2), ("b2", 3)], 0);
    assert_eq!(legal_labels(&g), ["A5"]);
}

/// OM19 (the flag answered at each sowing): seeds a clockwise lap
/// captured may be sown clockwise again, where that lap captures too; the
/// turn is written with the sowing whose end the answer follows (`<1`).
#[test]
fn reverse_captured_seeds_may_go_clockwise_again() {
    let v = omweso();
    let g = position(
        &v,
        &[
            ("A1", 2),
            ("A3", 1),
            ("A4", 1),
            ("a6", 2),
            ("b6", 1),
            ("a5", 1),
            ("b5", 1),
            ("b2", 3),
        ],
        0,
    );
    let labels = [
        "A1", "A2", "A3", "A4", "B1", "B2", "B3", "a6", "b6", "a5", "b5",
    ];
    let legal = legal_labels(&g);
    let with_marks: Vec<&String> = legal.iter().filter(|l| l.starts_with("A1cw")).collect();
    assert_eq!(with_marks, ["A1cw", "A1cw<1"], "{legal:?}");
    // A1 cw: A2, A3 (held 1): a6 + b6 (3) taken, sown counter-clockwise
    // from B1 (OM16), the hole after A1 that way: B1, B2, B3.
    let mut plain = g.clone();
    plain.play(turn(&g, "A1cw")).unwrap();
    assert_eq!(seeds(&plain, &labels), [0, 1, 2, 1, 1, 1, 1, 0, 0, 1, 1]);
    // `<1`: after the first sowing, clockwise from A2 (after A1 that
    // way): A2, A3, A4; A4 held 1, a5 + b5 full: a capture, so allowed;
    // its two seeds go counter-clockwise from B1 (no `<2`): B1, B2.
    let mut back = g.clone();
    back.play(turn(&g, "A1cw<1")).unwrap();
    assert_eq!(seeds(&back, &labels), [0, 2, 3, 2, 1, 1, 0, 0, 0, 0, 0]);
    // `<1<2` would sow those two clockwise from A2: A2, A3, which
    // captures nothing (a6, b6 are empty): not a legal turn (OM19).
    let err = sow::notation::parse_turn(&g, "A1cw<1<2").unwrap_err();
    assert!(err.message.contains("not a legal turn"), "{}", err.message);
}

/// OM20: a relay from a leftmost hole may go clockwise, where that lap
/// captures (`relay backward`).
#[test]
fn a_relay_from_a_leftmost_hole_may_turn_clockwise() {
    let v = omweso();
    let g = position(
        &v,
        &[("A4", 3), ("B1", 1), ("a7", 1), ("b7", 1), ("b2", 3)],
        0,
    );
    // A4 (3): A3, A2, A1 (empty): the turn ends; nothing to choose.
    assert_eq!(legal_labels(&g), ["A4"]);
    // B1 held 1: A4 (4): A3 A2 A1 B1 → B1 is relayed (2): counter-
    // clockwise B2, B3; or clockwise A1, A2: A2 held 1, faces a7 + b7:
    // a capture, so `A4<1` is legal.
    let g = position(
        &v,
        &[
            ("A4", 4),
            ("B1", 1),
            ("A2", 0),
            ("a7", 1),
            ("b7", 1),
            ("b2", 3),
        ],
        0,
    );
    let legal = legal_labels(&g);
    assert_eq!(legal, ["A4", "A4<1"], "{legal:?}");
    let mut back = g.clone();
    back.play(turn(&g, "A4<1")).unwrap();
    // B1 relayed clockwise: A1 (2), A2 (2): A2 faces a7 + b7, taken (2)
    // and sown counter-clockwise from B2 (after B1, the anchor): B2, B3.
    assert_eq!(
        seeds(
            &back,
            &["A4", "A3", "A2", "A1", "B1", "B2", "B3", "a7", "b7"]
        ),
        [0, 1, 2, 2, 0, 1, 1, 0, 0]
    );
}
