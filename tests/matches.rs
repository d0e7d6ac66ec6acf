//! Matches in rounds (`match ends when`, the `round` moment, `fill`,
//! `first`, `starter`, `round_winner`), each primitive played as its words
//! say: a test fails if the engine leaves the primitive out or reads it
//! otherwise (`reset` and `first(REGION, N)` too). The seven round games'
//! oracle matches are in `tests/catalogue.rs`, the Oware match's clauses in
//! `tests/oware_match.rs`.

use crate::common;

use common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sow::{Game, Variant};

/// A match on a 2×4 board: a round ends when South's row is empty (each
/// row then to its owner's store); `over` says when the match is, and
/// `round` is the `round` rule's actions.
fn match_text(over: &str, round: &str) -> String {
    format!(
        "variant rounds
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
region refill {{ south: D C B A; north: a b c d }}
var blocked per pit: no yes
sow {{
  take all
  skip when blocked(here) == yes
}}
rule own at start {{
  require owner(origin) == mover and seeds(origin) > 0 and blocked(origin) == no
}}
end done when seeds(side(south)) == 0
rule leftovers at end {{
  collect
}}
score seeds(store(player))
match ends when {over}
rule new_round at round {{
  {round}
}}
"
    )
}

fn variant(text: &str) -> Variant {
    Variant::from_source("rounds.sow", text).unwrap_or_else(|e| panic!("{}", e.render()))
}

const LABELS: [&str; 8] = ["A", "B", "C", "D", "a", "b", "c", "d"];

/// South to move with one seed in D (sown into a, emptying South's row:
/// the round ends), stores 10 and 9: after the collection 10 and 10.
fn round_ending(v: &Variant) -> Game {
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 1, 0, 0, 0, 0], [10, 9], 0);
    g.play(turn(&g, "D")).unwrap();
    g
}

fn state(v: &Variant, g: &Game) -> serde_json::Value {
    sow::json::position(v, g)["state"].clone()
}

const SET_UP: &str = "fill refill(south) to 3 from store(south)
  fill refill(north) to 4 from store(north)
  set blocked(pits(board, seeds(here) == 0)) = yes
  first north";

/// `fill REGION to N from PLACE`: each pit of the region in its order
/// brought to N seeds from the store while it holds enough, the rest kept;
/// the round's result and the position it ended in are kept.
#[test]
fn fill_brings_the_pits_in_order_to_n_while_the_store_has_enough() {
    let v = variant(&match_text("seeds(store(south)) < 3", SET_UP));
    let g = round_ending(&v);
    assert!(g.outcome().is_none(), "the match goes on");
    assert_eq!(g.rounds(), 1);
    let end = g.round_end().expect("the move ended a round");
    assert_eq!(end.outcome.winner, None, "10 against 10: a drawn round");
    assert_eq!(&*end.outcome.reason, "done");
    assert_eq!(&end.position.cells[8..], &[10, 10]);
    // South: D, C, B get 3 each (9 of 10), A would need 3 of the 1 left.
    // North: a and b get 4 each (8 of 10), c would need 4 of the 2 left.
    assert_eq!(counts(&g, &LABELS), [0, 3, 3, 3, 4, 4, 0, 0]);
    assert_eq!(&g.position().cells[8..], &[1, 2]);
    // Without the rule, the new round would start on an empty board.
    let bare = variant(&match_text(
        "seeds(store(south)) < 3",
        "set blocked(board) = no",
    ));
    let g = round_ending(&bare);
    assert_eq!(counts(&g, &LABELS), [0; 8]);
}

/// Pits the set-up leaves empty are blocked (`set blocked(pits(…)) = yes`):
/// never played, never sown.
#[test]
fn pits_left_empty_are_blocked_for_the_round() {
    let v = variant(&match_text("seeds(store(south)) < 3", SET_UP));
    let mut g = round_ending(&v);
    let blocked = &state(&v, &g)["blocked"];
    for (label, want) in [("A", "yes"), ("B", "no"), ("c", "yes"), ("d", "yes")] {
        assert_eq!(blocked[label], want, "{label}");
    }
    assert_eq!(legal_labels(&g), ["a", "b"]);
    // b's 4 seeds pass over c, d and A: into B, C, D and a.
    g.play(turn(&g, "b")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 4, 4, 4, 5, 0, 0, 0]);
}

/// `first P`: who moves first in the next round; `starter` is who moved
/// first in the round, `last_mover` who played its last turn, and
/// `round_winner` who won the last round.
#[test]
fn first_names_who_starts_the_next_round() {
    let set_up = |first: &str| {
        format!(
            "fill refill(south) to 3 from store(south)
  fill refill(north) to 4 from store(north)
  first {first}"
        )
    };
    let starts = |first: &str| {
        let v = variant(&match_text("seeds(store(south)) < 3", &set_up(first)));
        round_ending(&v).position().to_move
    };
    assert_eq!(starts("north"), Some(1));
    assert_eq!(starts("last_mover"), Some(0), "South played the last turn");
    // South started the first round (the position's player to move).
    assert_eq!(starts("opponent(starter)"), Some(1));
    assert_eq!(starts("starter"), Some(0));
    // A drawn round: `round_winner` names nobody, and the player to move
    // when the round ended (North) starts.
    assert_eq!(starts("round_winner"), Some(1));
    let v = variant(&match_text(
        "seeds(store(south)) < 3",
        &set_up("opponent(starter)"),
    ));
    let g = round_ending(&v);
    assert_eq!(
        state(&v, &g)["starter"],
        "north",
        "the new round's first mover"
    );
    assert_eq!(state(&v, &g)["round"], 1);
}

/// `match ends when C`: judged once a round has ended, on the position
/// after its `end` rules; where it holds the match is over, the round's
/// result its result.
#[test]
fn the_match_ends_when_its_condition_holds_after_a_round() {
    let over = variant(&match_text("seeds(store(south)) >= 10", SET_UP));
    let g = round_ending(&over);
    let o = g.outcome().expect("the match is over");
    assert_eq!((o.winner, &*o.reason, o.scores), (None, "done", [10, 10]));
    assert!(g.round_end().is_none(), "no round follows");
    assert_eq!(g.rounds(), 0);
    // A round whose set-up ends it at once (South's row left empty) ends
    // the match: another set-up could only do the same.
    let empty = variant(&match_text(
        "seeds(store(south)) < 3",
        "fill refill(north) to 4 from store(north)",
    ));
    let g = round_ending(&empty);
    assert!(
        g.outcome().is_some(),
        "the second round ended before a turn"
    );
    assert_eq!(g.rounds(), 1);
}

/// A number kept in state and set at `scored`: the tally is kept once the
/// round is scored and before the match's end is judged (the match ends on
/// the tally that round made), a value past the variable's range is held
/// at its end, and the state says the number.
#[test]
fn a_tally_set_when_a_round_is_scored_decides_the_match() {
    let text = match_text("wins(south) == 2", SET_UP)
        + "var wins per player: 0..2
rule tally at scored when round_winner == none {
  set wins(south) = wins(south) + 5
}
";
    let v = variant(&text);
    let g = round_ending(&v);
    assert!(
        g.outcome().is_some(),
        "the tally of the drawn round ended it"
    );
    assert_eq!(
        state(&v, &g)["wins"],
        serde_json::json!({"south": 2, "north": 0})
    );
    // Where the tally is not reached, the match goes on with it kept.
    let text = match_text("wins(south) == 3", SET_UP)
        + "var wins per player: 0..3
rule tally at scored {
  set wins(south) = wins(south) + 1
}
";
    let v = variant(&text);
    let g = round_ending(&v);
    assert!(g.outcome().is_none(), "the match goes on");
    assert_eq!(
        state(&v, &g)["wins"],
        serde_json::json!({"south": 1, "north": 0})
    );
}

/// A match of these shipped matches saved mid-way (a round or more over)
/// and read back gives the same legal moves and the same rest of a random
/// game as the match played on without a break: one of each kind of round
/// (blocked holes, territory, a tally kept in numbers, points). (Every
/// variant's saved positions resume: `tests/properties.rs`; every round of
/// every catalogue match's 30 games: `tests/catalogue.rs`.)
#[test]
fn a_match_saved_mid_way_resumes_exactly() {
    for name in [
        "dakon",
        "pallanguli",
        "bechi",
        "olinda",
        "lamlameta",
        "namnam",
        "weg",
        "oware-match",
        "huroy",
        "urim",
    ] {
        resumes_exactly(name);
    }
}

/// A match of `name` saved past its first round, at 4 random points.
fn resumes_exactly(name: &str) {
    let v = shipped(name);
    let mut resumed_at = 0;
    for seed in 0..40u64 {
        if resumed_at == 4 {
            return;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(v.engine.clone()).unwrap();
        // On to a position past the first round (a match over in its first
        // round is passed over).
        while game.outcome().is_none() && (game.rounds() == 0 || !game.plies().is_multiple_of(7)) {
            let legal = game.legal_turns();
            game.play(legal[rng.gen_range(0..legal.len())]).unwrap();
        }
        if game.outcome().is_some() {
            continue;
        }
        resumed_at += 1;
        let rest = ChaCha8Rng::seed_from_u64(seed + 100);
        let seed = format!("{name} seed {seed}");
        let saved = sow::json::position(&v, &game).to_string();
        let mut resumed = sow::json::read_position(&v, &saved).unwrap();
        assert_eq!(resumed.rounds(), game.rounds(), "seed {seed}");
        let mut a = rest;
        let mut b = a.clone();
        let mut plies = 0;
        while game.outcome().is_none() && plies < 2000 {
            assert_eq!(game.legal_turns(), resumed.legal_turns(), "seed {seed}");
            let n = game.legal_turns().len();
            let (i, j) = (a.gen_range(0..n), b.gen_range(0..n));
            game.play(game.legal_turns()[i]).unwrap();
            resumed.play(resumed.legal_turns()[j]).unwrap();
            assert_eq!(
                sow::json::position(&v, &game),
                sow::json::position(&v, &resumed),
                "seed {seed}, {plies} plies on"
            );
            plies += 1;
        }
        assert_eq!(game.outcome(), resumed.outcome(), "seed {seed}");
        assert_eq!(game.rounds(), resumed.rounds(), "seed {seed}");
    }
    panic!("{name}: only {resumed_at} of 40 matches went past their first round");
}

/// Ownership between rounds (`owner follows VAR`, the variable set at
/// `round`): a pit South cannot fill goes to North, who fills it and plays
/// it in the next round.
#[test]
fn a_pit_changes_owner_between_rounds() {
    let text = |round: &str| {
        match_text("seeds(store(south)) < 3", round)
            .replace("north: a b c d }", "north: A a b }")
            .replace(
                "var blocked per pit: no yes",
                "var blocked per pit: no yes\nvar holder per pit: none south north\nowner follows holder",
            )
    };
    let set_up = |lose: &str| {
        format!(
            "fill refill(south) to 3 from store(south)
  {lose}
  fill refill(north) to 4 from store(north)
  first north"
        )
    };
    let v = variant(&text(&set_up(
        "set holder(pits(side(south), seeds(here) == 0)) = north",
    )));
    let g = round_ending(&v);
    // South fills D, C, B (1 left); North fills A and a (2 left).
    assert_eq!(counts(&g, &LABELS), [4, 3, 3, 3, 4, 0, 0, 0]);
    assert_eq!(&g.position().cells[8..], &[1, 2]);
    assert_eq!(state(&v, &g)["holder"]["A"], "north");
    assert_eq!(legal_labels(&g), ["A", "a"], "North plays the pit won");
    // Without the change of owner, A stays South's.
    let v = variant(&text(&set_up("")));
    let g = round_ending(&v);
    assert_eq!(counts(&g, &LABELS), [4, 3, 3, 3, 4, 0, 0, 0]);
    assert_eq!(state(&v, &g)["holder"]["A"], "none");
    assert_eq!(legal_labels(&g), ["a"]);
}

/// A match's round count reads back from `state` as written, and a count
/// that is not one is refused with the key named.
#[test]
fn the_round_count_reads_back_and_a_bad_one_is_refused() {
    let v = shipped("dakon");
    let game = Game::new(v.engine.clone()).unwrap();
    let mut pos = sow::json::position(&v, &game);
    for n in [3u64, u32::MAX as u64] {
        pos["state"]["round"] = n.into();
        let read = sow::json::read_position(&v, &pos.to_string()).unwrap();
        assert_eq!(read.rounds() as u64, n);
    }
    for bad in [
        serde_json::json!(-1),
        serde_json::json!("two"),
        serde_json::json!(1u64 << 40),
    ] {
        pos["state"]["round"] = bad.clone();
        let d = sow::json::read_position(&v, &pos.to_string()).expect_err("refused");
        assert!(d.to_string().contains("round"), "{bad}: {d}");
    }
}

/// `reset`: every pit, store and hand holds again what the setup puts
/// there, whatever the round ended with (Weg WG26, NamNam NN27: the board
/// set up afresh); the pits a territory gives are `first(REGION, N)` of an
/// order, N worked out from the seeds won.
#[test]
fn reset_lays_the_setup_out_again_and_territory_is_the_first_n_pits() {
    let text = |round: &str| {
        match_text("seeds(store(south)) < 3", round)
            .replace("seeds 0\n", "seeds 2\n")
            .replace(
                "var blocked per pit: no yes",
                "var blocked per pit: no yes\nvar holder per pit: none south north\nowner follows holder\nregion ccw { south: A B C D a b c d; north: a b c d A B C D }",
            )
    };
    let territory = "set holder(board) = north
  set holder(first(ccw(south), seeds(store(south)) / 4)) = south";
    // The round ends with stores 10 and 10 (round_ending); South's 10
    // give it 2 holes: A and B.
    let v = variant(&text(&format!("{territory}\n  reset\n  first north")));
    let g = round_ending(&v);
    assert_eq!(
        counts(&g, &LABELS),
        [2; 8],
        "every pit as the setup lays it"
    );
    assert_eq!(&g.position().cells[8..], &[0, 0], "the stores empty");
    let holder = &state(&v, &g)["holder"];
    let held: Vec<&str> = LABELS.iter().map(|l| holder[l].as_str().unwrap()).collect();
    assert_eq!(
        held,
        ["south", "south", "north", "north", "north", "north", "north", "north"]
    );
    assert_eq!(
        legal_labels(&g),
        ["C", "D", "a", "b", "c", "d"],
        "North plays what it holds"
    );
    // Without `reset` the seeds stay where the round left them.
    let v = variant(&text(&format!("{territory}\n  first north")));
    let g = round_ending(&v);
    assert_eq!(counts(&g, &LABELS), [0; 8]);
    assert_eq!(&g.position().cells[8..], &[10, 10]);
}
