//! The moments of a turn, played as the checker accepts them: each rule
//! here was once accepted and silently played otherwise (an action
//! dropped, a word read at the wrong time). The checker and the engine now
//! read one table of moments (`ir::Moment::spec`), and one routine carries
//! out an action at every moment (`engine::act`).

use crate::common;

use common::*;
use sow::{Game, Variant};

fn variant(text: &str) -> Variant {
    Variant::from_source("moment.sow", text).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// A small two-row board with stores, sowing forward; `rules` added.
fn board(rules: &str) -> String {
    format!(
        "variant moment
players south north
board {{
  row north: d c b a
  row south: A B C D
  store north left
  store south right
}}
setup {{
  seeds 0
}}
track: A B C D a b c d
rule own at start {{
  require owner(origin) == mover and seeds(origin) > 0
}}
{rules}
end done when seeds(side(mover)) == 0
"
    )
}

const LABELS: [&str; 8] = ["A", "B", "C", "D", "a", "b", "c", "d"];

/// `capture … chain … while` at the `capture` moment was accepted and its
/// chain dropped: only the first pit was taken. A chain walks on wherever
/// a capture is made.
#[test]
fn a_chain_at_the_capture_moment_walks_on() {
    let v = variant(&board(
        "rule take at land when owner(last) == opponent and seeds(last) == 2 {
  capture last to store(mover)
}
rule more at capture when sowings == 1 {
  capture opposite(last) to store(mover) chain forward while seeds(here) > 0
}",
    ));
    // D's 4 seeds go a, b, c, d: d makes a 2 and is taken; the capture
    // rule then takes A (facing d) and walks on forward: B, C, stopping at
    // D (emptied by the sowing).
    let mut g = game_from(&v.engine, &LABELS, &[1, 1, 1, 4, 0, 0, 0, 1], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    let n = v.engine.rules.pits.len();
    assert_eq!(counts(&g, &LABELS), [0, 0, 0, 0, 1, 1, 1, 0]);
    assert_eq!(g.position().cells[n], 2 + 1 + 1 + 1, "d, then A, B, C");
}

/// `set` at the `end` moment was accepted (the README listed it) and never
/// carried out.
#[test]
fn set_at_the_end_moment_is_carried_out() {
    let v = variant(&board(
        "var over per game: no yes
rule mark_it at end {
  set over = yes
}
end south_empty when seeds(side(south)) == 0",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 1, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    assert!(g.outcome().is_some(), "South's row is empty");
    let base = v.engine.var_base(0);
    assert_eq!(g.position().vars[base], 1, "`over` is `yes`");
    let json = sow::json::position(&v, &g);
    assert_eq!(json["state"]["over"], "yes");
}

/// `sowings` at `lift` read the same before the first sowing and after it
/// (the lift rules were staged by the sowings made, not the one begun):
/// now it counts the sowing the lifted seeds begin.
#[test]
fn sowings_at_lift_counts_the_sowing_begun() {
    let v = variant(&board(
        "var lift_seen per pit: no first second
rule first_lift at lift when sowings == 1 {
  set lift_seen(here) = first
}
rule second_lift at lift when sowings == 2 {
  set lift_seen(here) = second
}
rule on at land when seeds(last) > 1 and sowings == 1 {
  relay
}",
    ));
    // A's 2 seeds go B, C; C held 1: relayed (its 2 go D, a).
    let mut g = game_from(&v.engine, &LABELS, &[2, 0, 1, 0, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    let base = v.engine.var_base(0);
    let lifted = |l: &str| g.position().vars[base + cell(&v.engine, l)];
    assert_eq!(lifted("A"), 1, "A begins the first sowing");
    assert_eq!(lifted("C"), 2, "C begins the second");
}

/// A phase was judged two ways: the position said one phase while a rule
/// `when PHASE` judged another. A phase is judged in one place
/// (`Engine::phase`), and a phase's condition sees only the position (the
/// checker refuses `no_legal_turn` there: see
/// `tests/invalid/phase_reads_no_legal_turn.sow`).
#[test]
fn a_rule_sees_the_phase_the_position_is_in() {
    let text = board("").replace(
        "rule own at start",
        "phase opening when seeds(store(south)) + seeds(store(north)) == 0\nphase middle\nrule own at start",
    ) + "rule sown at land when owner(last) == opponent and seeds(last) == 2 {\n  capture last to store(mover)\n}\n";
    let text = text.replace(
        "store south right\n",
        "store south right\n  mark \"*\" when middle\n",
    );
    let v = variant(&text);
    let start = game_from(&v.engine, &LABELS, &[2, 1, 2, 1, 1, 2, 1, 2], [0, 0], 0);
    let mut seen = [0, 0];
    for g in 0..20u64 {
        let mut game = start.clone();
        let mut k = g;
        while game.outcome().is_none() && game.plies() < 60 {
            let json = sow::json::position(&v, &game);
            let phase = json["state"]["phase"].as_str().unwrap().to_string();
            let marked = v.engine.marks(game.position(), 0).contains('*');
            assert_eq!(
                marked,
                phase == "middle",
                "the mark's `middle` is the position's"
            );
            seen[marked as usize] += 1;
            let legal = game.legal_turns();
            k = k.wrapping_mul(6364136223846793005).wrapping_add(1);
            let t = legal[(k >> 33) as usize % legal.len()];
            game.play(t).unwrap();
        }
    }
    assert!(seen[0] > 10 && seen[1] > 10, "{seen:?}");
}

/// Every moment the table names is one a rule can be judged at, and every
/// action it allows somewhere is carried out by the engine (a variant
/// using each action where it is allowed plays).
#[test]
fn the_moment_table_covers_every_action() {
    use sow::ir::{ActionKind, Moment};
    for k in ActionKind::ALL {
        assert!(
            Moment::ALL.iter().any(|m| m.allows(k)),
            "`{}` is allowed nowhere",
            k.word()
        );
        assert_eq!(ActionKind::named(k.word()), Some(k));
    }
    for m in Moment::ALL {
        assert_eq!(Moment::named(m.name()), Some(m));
    }
    let _ = Game::new(variant(&board("")).engine.clone()).unwrap();
}

/// `again` at the `after` moment: once the turn is played, its mover
/// moves again (a put that leaves seeds in hand), where the rule applies.
#[test]
fn again_after_a_turn_gives_the_mover_another() {
    let v = variant(&board(
        "put 1 from hand into side(mover) when seeds(here) == 0
rule more at after when hand(mover) > 0 {
  again
}",
    ));
    let g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 1, 0, 0, 0], [0, 0], 0);
    let mut pos = g.position().clone();
    pos.hands = [2, 0];
    let mut g = Game::from_position(v.engine.clone(), pos, Vec::new()).unwrap();
    g.play(turn(&g, "put:B")).unwrap();
    assert_eq!(g.position().to_move, Some(0), "a seed left in hand: again");
    g.play(turn(&g, "put:C")).unwrap();
    assert_eq!(g.position().to_move, Some(1), "the hand empty: North");
    assert_eq!(counts(&g, &LABELS), [1, 1, 1, 0, 1, 0, 0, 0]);
}

/// `again from PLACE` at the `after` moment: the mover's next turn is
/// the sowing of that pit, its only legal one.
#[test]
fn again_from_after_a_turn_names_the_next_sowing() {
    let v = variant(&board(
        "rule on at after when seeds(last) > 1 {
  again from last
}",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[1, 1, 1, 0, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(g.position().to_move, Some(0), "B holds two: again");
    assert_eq!(legal_labels(&g), ["B"], "from B alone");
}

/// `going` at the `turn` moment read the sowing's default way, never the
/// way the turn went: a `turn` rule that allowed only clockwise turns kept
/// none of them. It reads the way the turn's last sowing ran.
#[test]
fn going_at_the_turn_moment_reads_the_way_the_turn_went() {
    let v = variant(&board(
        "sow {
  direction choose
}
notation {
  letter f: forward
  letter b: backward
}
rule back_only at turn {
  require going(backward)
}",
    ));
    let g = game_from(&v.engine, &LABELS, &[0, 2, 0, 1, 1, 0, 0, 0], [0, 0], 0);
    assert_eq!(legal_labels(&g), ["Bb", "Db"]);
}
