//! The language's primitives, each played as its words say: a test a
//! primitive fails if the engine leaves it out or reads it otherwise.
//! (Their misuse is in `tests/invalid/`, with the diagnostics snapshotted.)

use crate::common;

use common::*;
use sow::{Game, Variant};

fn variant(text: &str) -> Variant {
    Variant::from_source("primitive.sow", text).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// A small two-row board with stores, sowing forward round both rows:
/// `sowing` in the `sow` block, a turn from an own pit where `start`
/// holds, and `rules` added.
fn board_text(sowing: &str, start: &str, rules: &str) -> String {
    format!(
        "variant primitive
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
sow {{
  take all
  {sowing}
}}
rule own at start {{
  require owner(origin) == mover and {start}
}}
{rules}
"
    )
}

/// The board, turns from any pit of the mover's holding seeds, ending when
/// the mover's row is empty.
fn board(sowing: &str, rules: &str) -> String {
    board_text(
        sowing,
        "seeds(origin) > 0",
        &format!("{rules}\nend done when seeds(side(mover)) == 0"),
    )
}

const LABELS: [&str; 8] = ["A", "B", "C", "D", "a", "b", "c", "d"];

/// `leave N when C`: a lifted pit for which C holds (`here`, before it is
/// lifted) keeps N seeds and the rest are sown from the next pit; where C
/// does not hold, every seed is sown.
#[test]
fn leave_keeps_seeds_in_the_pit_lifted_where_it_applies() {
    let v = variant(&board("leave 1 when seeds(here) > 1", ""));
    let mut g = game_from(&v.engine, &LABELS, &[3, 1, 0, 0, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(
        counts(&g, &LABELS),
        [1, 2, 1, 0, 1, 0, 0, 0],
        "A keeps one, sows two"
    );
    // A lone seed moves on (the condition does not hold for it).
    let mut g = game_from(&v.engine, &LABELS, &[0, 1, 0, 0, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "B")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 0, 1, 0, 1, 0, 0, 0]);
    // Without a condition it applies to every pit lifted, relays too: a
    // relay from b (2 seeds) leaves one there and sows one.
    let v = variant(&board(
        "leave 1",
        "rule on at land when seeds(last) > 1 and sowings < 3 {\n  relay\n}",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 3, 0, 1, 0, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    // D sows two (keeps one): a, b; b now holds 2, is relayed: keeps one,
    // sows one into c.
    assert_eq!(counts(&g, &LABELS), [0, 0, 0, 1, 1, 1, 1, 0]);
}

/// `leave N` with N read from the position, judged for the pit lifted
/// (`here`) before it is lifted: it keeps that many (all, if it has
/// fewer; none, if N is below one), and the rest are sown.
#[test]
fn leave_reads_its_count_from_the_position() {
    // Ryakati's four sown, the first back into the hole: all but three kept.
    let v = variant(&board("leave seeds(here) - 3", ""));
    for (a, after) in [
        (7, [4, 1, 1, 1, 0, 0, 0, 0]),
        // three or fewer: none kept, every seed sown
        (3, [0, 1, 1, 1, 0, 0, 0, 0]),
        (2, [0, 1, 1, 0, 0, 0, 0, 0]),
    ] {
        let mut g = game_from(&v.engine, &LABELS, &[a, 0, 0, 0, 0, 0, 0, 0], [0, 0], 0);
        g.play(turn(&g, "A")).unwrap();
        assert_eq!(counts(&g, &LABELS), after, "A held {a}");
    }
    // The count may read more than the pit: half of it, rounded down.
    let v = variant(&board("leave seeds(here) / 2 + seeds(d)", ""));
    let mut g = game_from(&v.engine, &LABELS, &[5, 0, 0, 0, 0, 0, 0, 1], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(counts(&g, &LABELS), [3, 1, 1, 0, 0, 0, 0, 1]);
}

/// A pit that keeps every seed it had (`leave 1` on a lone seed) sows
/// none: the sowing's last place is the pit itself, and the `land` rules
/// judge it there (Ludii's sowing whose first seed falls back into its
/// own hole, Ako Okwe's lone seed).
#[test]
fn a_pit_that_keeps_every_seed_is_its_own_last() {
    let v = variant(&board(
        "leave 1",
        "rule lone at land when last == origin and seeds(last) == 1 {
  capture last to store(mover)
}",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[0, 1, 2, 0, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "B")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 0, 2, 0, 1, 0, 0, 0]);
    assert_eq!(g.position().cells[8], 1, "B's seed taken where it stayed");
    // Two seeds: one stays, one is sown on, and the last place is D.
    let mut h = game_from(&v.engine, &LABELS, &[0, 1, 2, 0, 1, 0, 0, 0], [0, 0], 0);
    h.play(turn(&h, "C")).unwrap();
    assert_eq!(counts(&h, &LABELS), [0, 1, 1, 1, 1, 0, 0, 0]);
    assert_eq!(h.position().cells[8], 0);
}

/// `leave all when C`: the pit chosen keeps every seed, so the turn sows
/// none and the pit is its own last place; the `land` rules act on it
/// (English Wari's opening: a hole's seeds all moved into the next).
#[test]
fn a_pit_that_keeps_all_is_chosen_without_sowing() {
    let v = variant(&board(
        "leave all when seeds(here) == 2",
        "rule shift at land when last == origin {
  capture last to next(last)
}",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[0, 2, 3, 0, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "B")).unwrap();
    assert_eq!(
        counts(&g, &LABELS),
        [0, 0, 5, 0, 1, 0, 0, 0],
        "B's two moved into C, none sown"
    );
    // Where `when` does not hold, the pit is sown as ever.
    let mut h = game_from(&v.engine, &LABELS, &[0, 2, 3, 0, 1, 0, 0, 0], [0, 0], 0);
    h.play(turn(&h, "C")).unwrap();
    assert_eq!(counts(&h, &LABELS), [0, 2, 0, 1, 2, 1, 0, 0]);
}

/// `pits(REGION, C)`: the pits of a region for which C holds (`here`),
/// wherever a region goes: a capture, a sum, a count, `in`.
#[test]
fn pits_filters_a_region_wherever_a_region_goes() {
    let v = variant(&board(
        "",
        "rule evens at land when last in pits(side(opponent), seeds(here) % 2 == 0) {
  capture pits(side(opponent), seeds(here) % 2 == 0 and seeds(here) > 0) to store(mover)
}",
    ));
    // D's one seed makes a 2: every even opponent pit is taken (a 2, c 4),
    // the odd one (b 3) stays.
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 1, 1, 3, 4, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 0, 0, 0, 0, 3, 0, 0]);
    let n = v.engine.rules.pits.len();
    assert_eq!(g.position().cells[n], 2 + 4);
    // The last seed in an odd pit: `in pits(…)` does not hold, nothing is
    // taken.
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 1, 2, 3, 4, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 0, 0, 0, 3, 3, 4, 0]);

    // A sum and a count over a filtered region end the game and score it.
    let v = variant(&format!(
        "{}\nend big when seeds(pits(board, seeds(here) >= 5)) >= 10 winner south\n\
         score count(pits(side(player), seeds(here) > 0), true)",
        board("", "")
    ));
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 1, 4, 5, 0, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    let o = g
        .outcome()
        .expect("a and b hold 5 each: 10 in pits of 5 or more");
    assert_eq!((o.winner, &*o.reason), (Some(0), "big"));
}

/// `next(PLACE[, N])`, `prev(PLACE[, N])`: the place so many steps along
/// the mover's track as it is listed, round the ring.
#[test]
fn next_and_prev_step_along_the_track() {
    let v = variant(&board(
        "",
        "rule ahead at land when owner(last) == opponent {
  capture next(last) to store(mover)
  capture prev(last, 2) to store(mover)
}",
    ));
    // D's two seeds end in b: next(b) is c, taken; prev(b, 2) is D, just
    // emptied.
    let mut g = game_from(&v.engine, &LABELS, &[5, 0, 0, 2, 0, 0, 3, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(counts(&g, &LABELS), [5, 0, 0, 0, 1, 1, 0, 0]);
    let n = v.engine.rules.pits.len();
    assert_eq!(g.position().cells[n], 3, "c, next after b");
    // Round the ring: the last seed in d, next(d) is A; prev(d, 2) is b.
    let mut g = game_from(&v.engine, &LABELS, &[5, 0, 0, 4, 0, 1, 0, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 0, 0, 0, 1, 0, 1, 1]);
    assert_eq!(
        g.position().cells[n],
        5 + 2,
        "A (after d) and b (two before d)"
    );
    // Nine steps on a ring of eight is one.
    let v = variant(&board(
        "",
        "rule far at land when owner(last) == opponent {\n  capture next(last, 9) to store(mover)\n}",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 1, 0, 6, 0, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 0, 0, 0, 1, 0, 0, 0]);
}

/// The board, turns from a pit of two seeds or more, with `rules` added
/// (no end but theirs) and an `after` rule that marks it ran.
fn two_seed_board(rules: &str) -> String {
    board_text(
        "",
        "seeds(origin) > 1",
        &format!("var after_ran per game: no yes\nrule mark at after {{\n  set after_ran = yes\n}}\n{rules}"),
    )
}

/// `pass when C`: where C holds, a pass is the mover's turn (written
/// `pass`): the other player moves and nothing else changes, no `after`
/// rule runs; where it does not, a pass is not legal.
#[test]
fn a_pass_hands_the_move_on_and_changes_nothing_else() {
    let v = variant(&two_seed_board(
        "pass when no_legal_turn\nend empty when seeds(board) == 0",
    ));
    // South's pits hold one seed at most: South can only pass.
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 2, 0, 0], [0, 0], 0);
    assert_eq!(legal_labels(&g), ["pass"]);
    let before = g.position().clone();
    g.play(turn(&g, "pass")).unwrap();
    assert_eq!(g.position().to_move, Some(1));
    assert_eq!(g.position().cells, before.cells);
    assert_eq!(g.position().vars, before.vars, "no `after` rule ran");
    assert_eq!(g.plies(), 1);
    // North can move: no pass is offered, and `pass` is refused.
    assert_eq!(legal_labels(&g), ["b"]);
    let err = sow::notation::parse_turn(&g, "pass").unwrap_err();
    assert_eq!(err.message, "no pass here");
    // Without `pass`, a player without a turn has none at all.
    let v = variant(&two_seed_board("end empty when seeds(board) == 0"));
    let g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 2, 0, 0], [0, 0], 0);
    assert!(g.legal_turns().is_empty());
}

/// `no_legal_turn(P)`: whether another player would have a legal turn,
/// were they to move now, judged before a turn.
#[test]
fn no_legal_turn_of_a_player_looks_at_their_turns() {
    let v = variant(&two_seed_board(
        "pass when no_legal_turn\nend neither when no_legal_turn and no_legal_turn(opponent)",
    ));
    // Neither player has a pit of two: the game ends before South passes.
    let g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 1, 0, 0], [0, 0], 0);
    let o = g.outcome().expect("neither player can move");
    assert_eq!(&*o.reason, "neither");
    // North can move: South passes.
    let g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 2, 0, 0], [0, 0], 0);
    assert!(g.outcome().is_none());
    assert_eq!(legal_labels(&g), ["pass"]);
    // Of the mover, it is `no_legal_turn`.
    let v = variant(&two_seed_board("end stuck when no_legal_turn(mover)"));
    let g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 2, 0, 0], [0, 0], 0);
    assert_eq!(g.outcome().map(|o| &*o.reason), Some("stuck"));
}

/// `passed(P)`: whether P's last play was a pass, kept by the engine
/// (in a position's `state`) and set afresh each time P plays: Ludii's
/// player found without a move, who loses once the other has played.
#[test]
fn passed_says_whether_a_player_last_passed() {
    let v = variant(&two_seed_board(
        "pass when no_legal_turn\n\
         end stuck when last_mover != none and passed(opponent(last_mover)) == yes winner last_mover",
    ));
    let passed = |g: &Game| sow::json::position(&v, g)["state"]["passed"].clone();
    // South's pits hold one seed at most: South passes, and the game goes
    // on until North has played.
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 2, 0, 0], [0, 0], 0);
    assert_eq!(
        passed(&g),
        serde_json::json!({"south": "no", "north": "no"})
    );
    g.play(turn(&g, "pass")).unwrap();
    assert_eq!(
        passed(&g),
        serde_json::json!({"south": "yes", "north": "no"})
    );
    assert!(g.outcome().is_none());
    g.play(turn(&g, "b")).unwrap();
    let o = g.outcome().expect("South passed, North has played");
    assert_eq!((&*o.reason, o.winner), ("stuck", Some(1)));
    // Kept only where the rules read it.
    let plain = variant(&two_seed_board(
        "pass when no_legal_turn\nend empty when seeds(board) == 0",
    ));
    let g = game_from(&plain.engine, &LABELS, &[1, 0, 0, 0, 0, 0, 0, 3], [0, 0], 0);
    assert!(sow::json::position(&plain, &g)["state"]["passed"].is_null());
    // A turn played clears it: South passes, North's d sows A, B and C,
    // and South plays A.
    let v = variant(&two_seed_board(
        "pass when no_legal_turn\nend never when passed(south) == yes and seeds(board) > 99",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 0, 0, 3], [0, 0], 0);
    for (t, after) in [("pass", "yes"), ("d", "yes"), ("A", "no")] {
        g.play(turn(&g, t)).unwrap();
        let state = sow::json::position(&v, &g)["state"].clone();
        assert_eq!(state["passed"]["south"], after, "{t}");
    }
}

/// `if(C, A, B)` gives a place as well as a number: the place A where C
/// holds, else B.
#[test]
fn if_chooses_between_two_places() {
    let v = variant(&board(
        "direction forward",
        "rule take at land {\n  capture if(seeds(last) == 1, opposite(last), next(last)) to store(mover)\n}",
    ));
    let n = LABELS.len();
    // A (1) → B, which held none: c, facing it, is taken.
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 0, 3, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(g.position().cells[n], 3);
    // A (1) → B, which held one: C, after it, is taken.
    let mut g = game_from(&v.engine, &LABELS, &[1, 1, 4, 0, 0, 0, 3, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(g.position().cells[n], 4);
    assert_eq!(counts(&g, &LABELS), [0, 2, 0, 0, 0, 0, 3, 0]);
}

/// `remove REGION` at the `end` moment: the seeds leave the game and count
/// for nobody; the stores keep theirs.
#[test]
fn remove_takes_seeds_out_of_the_game() {
    let v = variant(&two_seed_board(
        "end few when seeds(board) <= 2\nrule leftovers at end {\n  remove side(north)\n}\n\
         score seeds(store(player)) + seeds(side(player))",
    ));
    let g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 1, 0, 0], [3, 4], 0);
    let o = g.outcome().expect("two seeds left");
    assert_eq!(counts(&g, &LABELS), [1, 0, 0, 0, 0, 0, 0, 0]);
    let n = v.engine.rules.pits.len();
    assert_eq!(&g.position().cells[n..], [3, 4], "the stores keep theirs");
    assert_eq!(o.scores, [4, 4], "North's seed counts for nobody");
}

/// `first(REGION)` and a capture into a pit (`to PLACE`): the seeds go
/// into that pit; where the place is none (`first` of no pit), nothing is
/// taken.
#[test]
fn a_capture_into_the_first_pit_of_a_region() {
    let v = variant(&board(
        "",
        "var keeper per pit: no yes
rule take at land when owner(last) == opponent and seeds(last) == 2 {
  capture last to first(pits(side(mover), keeper(here) == yes))
}",
    ));
    let base = v.engine.var_base(0);
    // B and C keep what is won: the first of them, B, gets a's seeds.
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 1, 1, 0, 0, 0], [0, 0], 0);
    let mut pos = g.position().clone();
    pos.vars[base + cell(&v.engine, "B")] = 1;
    pos.vars[base + cell(&v.engine, "C")] = 1;
    g = sow::Game::from_position(v.engine.clone(), pos, Vec::new()).unwrap();
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 2, 0, 0, 0, 0, 0, 0]);
    let n = v.engine.rules.pits.len();
    assert_eq!(&g.position().cells[n..], [0, 0], "no store gets them");
    // No keeper: no place to go, nothing taken.
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 1, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 0, 0, 0, 2, 0, 0, 0]);
}

/// `chain … from PLACE while C taking PLACE`: the walk starts at another
/// pit than the one captured, and takes, for each pit walked (`here`),
/// the place `taking` names.
#[test]
fn a_chain_walks_one_row_and_takes_the_other() {
    let v = variant(&board(
        "",
        "rule across at land when owner(last) == mover and seeds(last) == 1 and seeds(opposite(last)) > 0 {
  capture opposite(last) to store(mover) \\
      chain backward from last while seeds(here) == 0 and seeds(opposite(here)) > 0 \\
      taking opposite(here)
}",
    ));
    // (A faces d, B faces c.) A's one seed ends in B, empty before: B's
    // opposite c (2) is taken; walking back from B, A is empty and its
    // opposite d (3) is taken; then d, which holds seeds, stops the walk.
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 0, 2, 3], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 1, 0, 0, 0, 0, 0, 0]);
    let n = v.engine.rules.pits.len();
    assert_eq!(g.position().cells[n], 2 + 3);
    // Without `from` and `taking`, the walk goes back from c itself,
    // taking b (4), and stops at the empty a.
    let v = variant(&board(
        "",
        "rule across at land when owner(last) == mover and seeds(last) == 1 and seeds(opposite(last)) > 0 {
  capture opposite(last) to store(mover) chain backward while seeds(here) > 0
}",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 4, 2, 3], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 1, 0, 0, 0, 0, 0, 3]);
}

/// `chain … with PLACE`: each pit walked is taken with the place `with`
/// names for it; the walk judges every pit on the board as it was before
/// the chain took any (a pit taken as another's partner still counts).
#[test]
fn a_chain_takes_each_pit_with_its_partner_judged_before_any_is_taken() {
    let v = variant(&board(
        "",
        "rule pairs at land when seeds(last) == 2 {
  capture last to store(mover) chain backward while seeds(here) == 2 with opposite(here)
}",
    ));
    // (A faces d, B c, C b, D a.) B's four seeds make C, D, a and b 2
    // each: b is taken; back from it, a with D, then D (judged 2, though
    // taken with a) with a, then C with b; B, emptied, stops the walk.
    let mut g = game_from(&v.engine, &LABELS, &[0, 4, 1, 1, 1, 1, 0, 3], [0, 0], 0);
    g.play(turn(&g, "B")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 0, 0, 0, 0, 0, 0, 3]);
    let n = v.engine.rules.pits.len();
    assert_eq!(g.position().cells[n], 8);
}

/// `skip lifted`: a sowing that comes round passes over the pit it
/// started from (a relay's), where `skip origin` passes over the turn's.
#[test]
fn skip_lifted_passes_over_the_pit_the_sowing_started_from() {
    let relay = "rule on at land when seeds(last) > 1 and sowings < 2 {\n  relay\n}";
    // A (1) ends in B (9): B is relayed, and its nine seeds go round
    // passing over B itself (`skip lifted`: C D a b c d A, then C D) or
    // over A (`skip origin`: C D a b c d B, then C D).
    let start = [1, 8, 0, 0, 0, 0, 0, 0];
    let v = variant(&board("skip lifted", relay));
    let mut g = game_from(&v.engine, &LABELS, &start, [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(counts(&g, &LABELS), [1, 0, 2, 2, 1, 1, 1, 1]);
    let v = variant(&board("skip origin", relay));
    let mut g = game_from(&v.engine, &LABELS, &start, [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 1, 2, 2, 1, 1, 1, 1]);
}

/// `sowings at most N`: a turn that would begin sowing N + 1 stops; the
/// seeds lifted for it leave the game and `cut` holds for the end rules,
/// which can end the game drawn (`draw`) or share the board (`divide`).
#[test]
fn a_turn_past_its_sowings_is_cut() {
    let relay = "rule on at land when seeds(last) > 1 {\n  relay\n}";
    let v = variant(&format!(
        "{}\nend endless when cut draw",
        board("sowings at most 2", relay).replace("end done when", "end done_ when")
    ));
    // A (1) → B (2): relayed, B's 2 → C, D; D (2) would be the third
    // sowing: its two seeds leave the game.
    let mut g = game_from(&v.engine, &LABELS, &[1, 1, 0, 1, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 0, 1, 0, 1, 0, 0, 0]);
    let o = g.outcome().expect("a cut turn ends the game");
    assert_eq!((&*o.reason, o.winner), ("endless", None));
    // `divide`: the board shared, the odd seed to the player named.
    let v = variant(&format!(
        "{}\nend endless when cut\nrule share at end when cut {{\n  divide board odd to north\n}}",
        board("sowings at most 2", relay).replace("end done when", "end done_ when")
    ));
    let mut g = game_from(&v.engine, &LABELS, &[1, 1, 0, 1, 2, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert!(g.outcome().is_some());
    assert_eq!(counts(&g, &LABELS), [0; 8]);
    let n = v.engine.rules.pits.len();
    assert_eq!(
        &g.position().cells[n..],
        [1, 2],
        "C's and a's three: the odd to North"
    );
}

/// The `drop` moment: rules judged at each seed where it falls (`here`),
/// `last_seed` the sowing's last; `skip when C` passes places over.
#[test]
fn drop_rules_judge_every_seed_where_it_falls() {
    // A hole made to hold 2 by a seed passing goes to its owner's store,
    // but for the last seed's.
    let v = variant(&board(
        "",
        "rule twos at drop when seeds(here) == 2 and not last_seed {\n  capture here to store(owner(here))\n}",
    ));
    // D's three seeds: a (1 → 2, North's: to North's store), b (1 → 2,
    // North's), c (1 → 2, the last seed: stays).
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 3, 1, 1, 1, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 0, 0, 0, 0, 0, 2, 0]);
    let n = v.engine.rules.pits.len();
    assert_eq!(&g.position().cells[n..], [0, 4]);
    // `remove here` at `drop`: the seed leaves the game; `skip when`: the
    // place gets none and the next gets it.
    let v = variant(&board(
        "skip when here == b",
        "rule gone at drop when here == c {\n  remove here\n}",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 3, 0, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(
        counts(&g, &LABELS),
        [0, 0, 0, 0, 1, 0, 0, 1],
        "a, b passed over, c's seed gone, d"
    );
    assert_eq!(g.position().total(), 2);
    // `total` counts the seeds in play after one has left.
    let v = variant(&board(
        "",
        "rule gone at drop when here == c {\n  remove here\n}\nend fewer when total < 3",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 3, 0, 0, 0, 0], [0, 0], 0);
    assert!(g.outcome().is_none());
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(g.outcome().map(|o| &*o.reason), Some("fewer"));
}

/// `relay from PLACE`: the relay lifts another pit and sows on from the
/// place after it; `capture` at `after`, once the turn is played.
#[test]
fn a_relay_from_another_pit_and_a_capture_after_the_turn() {
    let v = variant(&board(
        "",
        "rule on at land when seeds(next(last)) > 0 and sowings < 3 {\n  relay from next(last)\n}\n\
         rule sweep at after when seeds(side(opponent)) == 1 {\n  capture side(opponent) to store(mover)\n}",
    ));
    // A (1) ends in B; C after it holds 2: lifted, sown into D and a; b
    // after a is empty: the turn ends. North's row holds a lone seed: swept.
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 2, 0, 0, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 1, 0, 1, 0, 0, 0, 0]);
    let n = v.engine.rules.pits.len();
    assert_eq!(g.position().cells[n], 1, "a's seed, swept after the turn");
}

/// `enter any from store into PLACE`: a turn may sow 1 to all of the
/// mover's store (written `store:N`), the first seed into PLACE; `setup`'s
/// `stores N` fills the stores.
#[test]
fn a_turn_sown_from_the_store() {
    let v = variant(
        &board("enter any from store into B", "")
            .replace("  seeds 0\n", "  seeds 0\n  seeds 1: A a\n  stores 3\n"),
    );
    let g = sow::Game::new(v.engine.clone()).unwrap();
    let n = v.engine.rules.pits.len();
    assert_eq!(&g.position().cells[n..], [3, 3]);
    assert_eq!(legal_labels(&g), ["A", "store:1", "store:2", "store:3"]);
    let mut g2 = g.clone();
    g2.play(turn(&g2, "store:2")).unwrap();
    assert_eq!(counts(&g2, &LABELS), [1, 1, 1, 0, 1, 0, 0, 0], "B, then C");
    assert_eq!(&g2.position().cells[n..], [1, 3]);
    let err = sow::notation::parse_turn(&g, "store:4").unwrap_err();
    assert!(err.message.contains("not a turn here"), "{}", err.message);
}

/// `players NAME`, a solitaire: the one player moves every turn (with or
/// without `again`), end rules are judged for that player alone, and a
/// game ended `loser NAME` is won by no one.
#[test]
fn a_solitaire_player_moves_every_turn() {
    let text = "variant lone
players solo
board {
  row solo: A B C D
  store solo right
}
setup {
  seeds 1
}
track solo: A B C D store(solo)
sow {
  take all
}
rule from_a_hole at start {
  require seeds(origin) > 0
}
end filled when seeds(store(solo)) == 4 winner solo
end jammed when seeds(C) > 2 loser solo
";
    let v = variant(text);
    let mut g = sow::engine::Game::new(v.engine.clone()).unwrap();
    // A: the seed goes to B; no `again`, and the same player moves.
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(g.position().to_move, Some(0));
    assert_eq!(counts(&g, &["A", "B", "C", "D"]), [0, 2, 1, 1]);
    // B: two seeds to C and D; C is not yet jammed.
    g.play(turn(&g, "B")).unwrap();
    assert_eq!(counts(&g, &["A", "B", "C", "D"]), [0, 0, 2, 2]);
    assert!(g.outcome().is_none());
    // D: one to the store, one round to A: play goes on.
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(g.position().to_move, Some(0));
    assert_eq!(counts(&g, &["A", "B", "C", "D"]), [1, 0, 2, 0]);
    assert_eq!(legal_labels(&g), ["A", "C"]);
    // A: to B; then B to C: three seeds in C, the game is lost.
    g.play(turn(&g, "A")).unwrap();
    g.play(turn(&g, "B")).unwrap();
    let o = g.outcome().expect("jammed");
    assert_eq!(&*o.reason, "jammed");
    assert_eq!(o.winner, Some(1), "the seat no one sits in: lost");
    assert_eq!(v.engine.rules.player_name(1), None);
    // An end rule of a solitaire must say its result.
    let bad = text.replace(" loser solo", "");
    let Err(e) = Variant::from_source("lone.sow", &bad) else {
        panic!("an end rule without a result is refused in a solitaire");
    };
    assert!(e.render().contains("names its result"), "{}", e.render());
}

/// `owner follows VAR`: a pit's owner is the player its variable names,
/// where it names one: `owner(…)`, `side(…)` and `collect` follow it.
#[test]
fn an_owner_that_follows_a_variable() {
    let rules = "var held per pit: none south north
owner follows held
rule take_over at land when owner(last) == opponent and seeds(last) == 2 {
  set held(last) = mover
}
end gone when seeds(side(north)) == 0
rule gather at end {
  collect
}";
    let v = variant(&board_text("", "seeds(origin) > 0", rules));
    let held = |g: &sow::engine::Game, l: &str| {
        g.position().vars[v.engine.var_base(0) + cell(&v.engine, l)]
    };
    // South sows D (1) into North's `a` (1): two seeds there, South's now.
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 1, 1, 0, 1, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(held(&g, "a"), 1);
    // North may start only from its own: `c`, not `a` (`owner(origin)`).
    assert_eq!(legal_labels(&g), ["c"]);
    g.play(turn(&g, "c")).unwrap();
    // South may start from `a`, a pit of North's row that is South's.
    assert_eq!(legal_labels(&g), ["a"]);
    // `side(north)` is North's pits now: with `a` South's, North's side is
    // empty here, the game ends, and `collect` sends `a`'s seeds to South.
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 1, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    let o = g.outcome().expect("North owns nothing with seeds");
    assert_eq!(&*o.reason, "gone");
    let n = v.engine.rules.pits.len();
    assert_eq!(
        g.position().cells[n..n + 2],
        [2, 0],
        "`a`'s two seeds to South's store"
    );
    assert_eq!(o.winner, Some(0));
    // Without `owner follows`, `a` stays North's: the game goes on.
    let v = variant(&board_text(
        "",
        "seeds(origin) > 0",
        &rules.replace("owner follows held\n", ""),
    ));
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 1, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    assert!(g.outcome().is_none());
    assert_eq!(legal_labels(&g), ["a"]);
}

/// `if(C, A, B)` and `sum(REGION, N)`: a number chosen by a condition,
/// and a number added up over a region's pits (`here` each pit).
#[test]
fn conditional_numbers_and_sums_over_pits() {
    let v = variant(&board_text(
        "",
        "seeds(origin) > 0",
        "end now when true
score seeds(store(player)) + sum(side(player), if(seeds(here) > 0 and seeds(here) % 2 == 0, 2, 0))",
    ));
    // South: A 2, C 4 count 2 each (B odd, D empty): 4, and 1 in store.
    // North: c 2 counts 2 (a, b odd, d odd): 2.
    let g = game_from(&v.engine, &LABELS, &[2, 3, 4, 0, 1, 1, 2, 5], [1, 0], 0);
    let o = g.outcome().expect("ended at once");
    assert_eq!(o.scores, [5, 2]);
    assert_eq!(o.winner, Some(0));
    // The branch not taken is never judged: `if(false, …)` folds away.
    let v = variant(&board_text(
        "",
        "seeds(origin) > 0",
        "end now when true\nscore if(seeds(store(player)) > 0, 10, sum(side(player), 1))",
    ));
    let g = game_from(&v.engine, &LABELS, &[2, 3, 4, 0, 1, 1, 2, 5], [1, 0], 0);
    assert_eq!(
        g.outcome().expect("ended").scores,
        [10, 4],
        "North: one for each of its pits"
    );
}

/// `last_mover`: the player who played the turn that led to a position,
/// readable in end rules and scores (`none` before any turn), kept in the
/// position's `state`.
#[test]
fn the_player_who_moved_last() {
    let v = variant(&board_text(
        "",
        "seeds(origin) > 0",
        "rule take at land {
  capture last to store(mover)
}
end south_last when seeds(board) == 0 and last_mover == south winner south
end north_last when seeds(board) == 0 and last_mover == north winner north
score if(last_mover == player, 1, 0)",
    ));
    let slot = v.engine.var_base(0);
    assert_eq!(v.engine.rules.vars[0].name, "last_mover");
    let g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 0, 0, 1], [0, 0], 0);
    assert_eq!(g.position().vars[slot], 0, "none before a turn");
    // South's A: its seed to B, taken: North's d still holds one.
    let mut g2 = g.clone();
    g2.play(turn(&g2, "A")).unwrap();
    assert_eq!(g2.position().vars[slot], 1, "south moved last");
    assert!(g2.outcome().is_none());
    // North's d: its seed to A, taken: the board is empty, North moved last.
    g2.play(turn(&g2, "d")).unwrap();
    let o = g2.outcome().expect("the board is empty");
    assert_eq!(
        (&*o.reason, o.winner, o.scores),
        ("north_last", Some(1), [0, 1])
    );
    // Saved and read back, the position keeps who moved last.
    let mut g3 = g.clone();
    g3.play(turn(&g3, "A")).unwrap();
    let saved = sow::json::position(&v, &g3);
    assert_eq!(saved["state"]["last_mover"], "south");
    let back = sow::json::read_position(&v, &saved.to_string()).unwrap();
    assert_eq!(back.position(), g3.position());
}

/// `front(PLACE)`: the pit one row nearer the middle in the same column,
/// of the same owner; none for an inner row's (Ludii's "opposite pit" of
/// a hole in a player's outer row: Chiana wa Bwalo).
#[test]
fn front_is_the_pit_one_row_nearer_the_middle() {
    let v = variant(
        "variant f
players south north
board {
  row north outer: b2 b1
  row north inner: a2 a1
  row south inner: A1 A2
  row south outer: B1 B2
  store north left
  store south right
}
setup {
  seeds 1
}
track south: A1 A2 B2 B1
track north: a1 a2 b2 b1
rule own at start {
  require owner(origin) == mover and seeds(origin) > 0
}
rule take at land {
  capture front(last) to store(mover)
}
end done when seeds(side(mover)) == 0",
    );
    let labels = ["b2", "b1", "a2", "a1", "A1", "A2", "B1", "B2"];
    let start = || Game::new(v.engine.clone()).unwrap();
    let mut g = start();
    // South's B2 sows into B1, in front of which is A1.
    g.play(turn(&g, "B2")).unwrap();
    assert_eq!(counts(&g, &labels), [1, 1, 1, 1, 0, 1, 2, 0]);
    assert_eq!(g.position().cells[8..], [1, 0]);
    // North's b2 sows into b1, in front of which is a1.
    g.play(turn(&g, "b2")).unwrap();
    assert_eq!(counts(&g, &labels), [0, 2, 1, 0, 0, 1, 2, 0]);
    assert_eq!(g.position().cells[8..], [1, 1]);
    // South's A1 is empty; A2 sows into B2, in front of which is A2 itself,
    // just emptied; an inner row has nothing in front.
    let mut h = start();
    h.play(turn(&h, "A1")).unwrap();
    assert_eq!(counts(&h, &labels), [1, 1, 1, 1, 0, 2, 1, 1]);
    assert_eq!(h.position().cells[8..], [0, 0], "A2 is an inner row's");
}

/// `row [GROUP] { OWNER: labels … }`: a row the players share, each part
/// its owner's (the middle row of a three-row board); and `across(PLACE)`:
/// the pit one row nearer the side facing the mover's, in its column,
/// whoever owns it (Ludii's "opposite pit", and the one past it:
/// Abalala'e).
#[test]
fn a_shared_row_and_the_pit_across() {
    let v = variant(
        "variant s
players south north
board {
  row north: a2 a1
  row centre {
    north: b1
    south: B1
  }
  row south: A1 A2
  store north left
  store south right
}
setup {
  seeds 1
}
track south: A1 A2 B1 a1 a2 b1
track north: a1 a2 b1 B1 A2 A1
rule own at start {
  require owner(origin) == mover and seeds(origin) > 0
}
rule take at land when seeds(across(last)) > 0 {
  capture across(last) to store(mover)
}
end done when seeds(side(mover)) == 0",
    );
    let labels = ["a2", "a1", "b1", "B1", "A1", "A2"];
    let r = &v.engine.rules;
    let owner = |l: &str| r.pits.iter().find(|p| p.label == l).unwrap().owner;
    assert_eq!((owner("b1"), owner("B1")), (1, 0), "each part its owner's");
    let board = sow::json::variant(&v);
    assert_eq!(board["rows"][1]["owner"], serde_json::Value::Null);
    assert_eq!(
        board["rows"][1]["owners"],
        serde_json::json!(["north", "south"])
    );
    assert_eq!(board["rows"][1]["pits"], serde_json::json!(["b1", "B1"]));
    let mut g = Game::new(v.engine.clone()).unwrap();
    // South's A1 sows into A2: across it, one row up, is South's own B1.
    g.play(turn(&g, "A1")).unwrap();
    assert_eq!(counts(&g, &labels), [1, 1, 1, 0, 0, 2]);
    assert_eq!(g.position().cells[6..], [1, 0]);
    // North's b1 sows into B1: across it, one row down, is South's A2.
    g.play(turn(&g, "b1")).unwrap();
    assert_eq!(counts(&g, &labels), [1, 1, 0, 1, 0, 0]);
    assert_eq!(g.position().cells[6..], [1, 2]);
    // South's B1 sows into a1: across it, for South, is nothing (the far
    // row), and the turn takes none.
    g.play(turn(&g, "B1")).unwrap();
    assert_eq!(counts(&g, &labels), [1, 2, 0, 0, 0, 0]);
    assert_eq!(g.position().cells[6..], [1, 2]);
}

/// `capture … at most N` with N read from the position, judged when the
/// action runs: as many as it says, none where it is 0 or less, and all
/// a pit holds where it says more (Omangunta Peeta's middle holes shared
/// out by counts worked out at the round's end).
#[test]
fn a_capture_takes_at_most_a_count_read_from_the_position() {
    let v = variant(&board(
        "",
        "rule share at land when owner(last) == opponent {
  capture opposite(last) at most seeds(last) - 1 to store(mover)
}",
    ));
    // D's two seeds go to a and b; C faces b.
    let cases: [([u32; 8], [u32; 8], [u32; 2]); 3] = [
        // b now 3: two of C's five taken.
        ([0, 0, 5, 2, 0, 2, 0, 0], [0, 0, 3, 0, 1, 3, 0, 0], [2, 0]),
        // b empty before, one seed now: at most 0, none taken.
        ([0, 0, 5, 2, 0, 0, 0, 0], [0, 0, 5, 0, 1, 1, 0, 0], [0, 0]),
        // More than C holds: all of it.
        ([0, 0, 1, 2, 0, 6, 0, 0], [0, 0, 0, 0, 1, 7, 0, 0], [1, 0]),
    ];
    for (start, after, stores) in cases {
        let mut g = game_from(&v.engine, &LABELS, &start, [0, 0], 0);
        g.play(turn(&g, "D")).unwrap();
        assert_eq!(counts(&g, &LABELS), after, "from {start:?}");
        assert_eq!(g.position().cells[8..], stores, "from {start:?}");
    }
}

/// `remove PLACE` where the last seed lands (and at `after`): the seeds
/// leave the game, counting for nobody, and the seeds in play are counted
/// again (Sute: the opponent's hole behind the one facing the last seed).
#[test]
fn seeds_leave_the_game_where_the_last_seed_lands() {
    let v = variant(&board(
        "",
        "rule gone at land when owner(last) == opponent {
  remove last
}
rule tidy at after when seeds(C) == 2 {
  remove A
}",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 2, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    // D's two seeds to a and b: b's leave the game.
    assert_eq!(counts(&g, &LABELS), [0, 0, 0, 0, 2, 0, 0, 0]);
    assert_eq!(g.position().total(), 2, "the seed that left is not in play");
    // After B's seed makes C two, A's seeds leave.
    let mut h = game_from(&v.engine, &LABELS, &[2, 1, 1, 0, 0, 0, 0, 1], [0, 0], 0);
    h.play(turn(&h, "B")).unwrap();
    assert_eq!(counts(&h, &LABELS), [0, 0, 2, 0, 0, 0, 0, 1]);
    let mut k = game_from(&v.engine, &LABELS, &[2, 1, 0, 1, 0, 0, 0, 0], [0, 0], 0);
    k.play(turn(&k, "D")).unwrap();
    assert_eq!(
        counts(&k, &LABELS),
        [2, 1, 0, 0, 0, 0, 0, 0],
        "a's seed leaves"
    );
}

/// `passes`: the turns passed in a row just before now, 0 after a turn
/// that is not a pass (Ludii's game over once every player has passed in
/// a row), kept in the position's `state`.
#[test]
fn the_passes_in_a_row() {
    let v = variant(&board_text(
        "",
        "seeds(origin) > 1",
        "pass when no_legal_turn
end both_passed when passes == 2 draw
end empty when seeds(board) == 0",
    ));
    let slot = v.engine.var_base(0);
    assert_eq!(v.engine.rules.vars[0].name, "passes");
    // A pit of two seeds or more starts a turn: South's A can.
    let g = game_from(&v.engine, &LABELS, &[2, 0, 0, 0, 1, 1, 0, 0], [0, 0], 0);
    assert_eq!(g.position().vars[slot], 0);
    let mut g2 = g.clone();
    g2.play(turn(&g2, "A")).unwrap();
    assert_eq!(g2.position().vars[slot], 0, "a turn that sows is no pass");
    // North, without a pit of two, passes; South, its seeds now one a
    // pit, passes too.
    g2.play(turn(&g2, "pass")).unwrap();
    assert_eq!(g2.position().vars[slot], 1, "one pass");
    assert!(g2.outcome().is_none());
    let saved = sow::json::position(&v, &g2);
    assert_eq!(saved["state"]["passes"], 1);
    let back = sow::json::read_position(&v, &saved.to_string()).unwrap();
    assert_eq!(back.position(), g2.position());
    assert_eq!(back.legal_turns(), g2.legal_turns());
    g2.play(turn(&g2, "pass")).unwrap();
    let o = g2.outcome().expect("both passed");
    assert_eq!((&*o.reason, o.winner), ("both_passed", None));
    // A pass followed by a sowing counts from 0 again.
    let mut g3 = game_from(&v.engine, &LABELS, &[0, 0, 0, 0, 2, 0, 0, 0], [0, 0], 0);
    g3.play(turn(&g3, "pass")).unwrap();
    assert_eq!(g3.position().vars[slot], 1);
    g3.play(turn(&g3, "a")).unwrap();
    assert_eq!(g3.position().vars[slot], 0);
}

/// `next(PLACE)` follows the sowing: a place `skip when` passes over is
/// passed over by `next` too (Pallanguli PL13, PL16: the hole after the end
/// hole, skipping blocked holes).
#[test]
fn next_passes_over_the_places_a_sowing_skips() {
    let grab = "rule grab at land {\n  capture next(last) to store(mover)\n}";
    let after_b = |sowing: &str| {
        let v = variant(&board(sowing, grab));
        let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 3, 1, 0, 0, 0], [0, 0], 0);
        g.play(turn(&g, "A")).unwrap();
        (counts(&g, &LABELS), g.position().cells[8])
    };
    // A's seed lands in B; the place after B, C passed over, is D.
    assert_eq!(
        after_b("skip when here == C"),
        (vec![0, 1, 0, 0, 1, 0, 0, 0], 3)
    );
    // Where C is not passed over, next(B) is C, empty: nothing is taken.
    assert_eq!(
        after_b("skip when here == a"),
        (vec![0, 1, 0, 3, 1, 0, 0, 0], 0)
    );
}

/// A capture's chain passes over the places a sowing skips (`skip when`),
/// as over a store (Bechi BE13: blocked holes are skipped).
#[test]
fn a_chain_passes_over_the_places_a_sowing_skips() {
    let evens = "rule evens at land when seeds(last) == 2 {
  capture last to store(mover) chain forward while seeds(here) == 2
}";
    let store_after_a = |sowing: &str| {
        let v = variant(&board(sowing, evens));
        let mut g = game_from(&v.engine, &LABELS, &[1, 1, 0, 2, 1, 0, 0, 0], [0, 0], 0);
        g.play(turn(&g, "A")).unwrap();
        g.position().cells[8]
    };
    // B (2) is taken, C passed over, D (2) taken, a (1) stops the chain.
    assert_eq!(store_after_a("skip when here == C"), 4);
    // Where C is not passed over, the empty C stops it after B.
    assert_eq!(store_after_a("skip when here == d"), 2);
}

/// `chain forward every N`: the walk steps N places at a time (those a
/// sowing skips not counted), judging and taking only the places it steps
/// to (Olinda OL14: every second hole, across the empty one between).
#[test]
fn a_chain_every_n_steps_over_the_places_between() {
    let gaps = |step: &str| {
        format!(
            "rule gaps at land when seeds(next(last)) == 0 and seeds(next(last, 2)) > 0 {{
  capture next(last, 2) to store(mover) chain forward {step} while seeds(prev(here)) == 0 and seeds(here) > 0
}}"
        )
    };
    let store_after_a = |step: &str, cells: &[u32; 8]| {
        let v = variant(&board("", &gaps(step)));
        let mut g = game_from(&v.engine, &LABELS, cells, [0, 0], 0);
        g.play(turn(&g, "A")).unwrap();
        (counts(&g, &LABELS), g.position().cells[8])
    };
    // A's seed lands in B; C empty, D (2) taken; a empty, b (3) taken;
    // c empty, d (0): the walk stops.
    assert_eq!(
        store_after_a("every 2", &[1, 0, 0, 2, 0, 3, 0, 0]),
        (vec![0, 1, 0, 0, 0, 0, 0, 0], 5)
    );
    // A step of one judges a (empty, after D taken, `prev(a)` empty): stops.
    assert_eq!(
        store_after_a("every 1", &[1, 0, 0, 2, 0, 3, 0, 0]),
        (vec![0, 1, 0, 0, 0, 3, 0, 0], 2)
    );
    // The walk stops at the first step that fails: a holds seeds.
    assert_eq!(
        store_after_a("every 2", &[1, 0, 0, 2, 1, 3, 0, 0]),
        (vec![0, 1, 0, 0, 1, 3, 0, 0], 2)
    );
}

/// `first(REGION, N)`: the region's first N pits in the order it lists
/// them (all, if it has fewer), N judged on the position; cut from a
/// filtered region, the first N that pass (Lamlameta LM8: the two rightmost
/// of the holes allowed).
#[test]
fn first_n_of_a_region_keeps_its_first_n_pits_in_its_order() {
    let start = |rule: &str| {
        let text = board_text(
            "",
            "seeds(origin) > 0",
            &format!(
                "region from_right {{ south: D C B A; north: d c b a }}\n{rule}\nend done when seeds(side(mover)) == 0"
            ),
        );
        let v = variant(&text);
        let g = game_from(&v.engine, &LABELS, &[1, 2, 0, 3, 1, 1, 1, 1], [1, 0], 0);
        legal_labels(&g)
    };
    // The two rightmost holes of South's (D, C), C empty: D alone.
    assert_eq!(
        start("rule right at start {\n  require origin in first(from_right(mover), 2)\n}"),
        ["D"]
    );
    // The two rightmost of those holding seeds: D and B.
    assert_eq!(
        start("rule right at start {\n  require origin in first(pits(from_right(mover), seeds(here) > 0), 2)\n}"),
        ["B", "D"]
    );
    // N judged on the position: South's store holds 1, so one pit.
    assert_eq!(
        start("rule right at start {\n  require origin in first(pits(from_right(mover), seeds(here) > 0), seeds(store(south)))\n}"),
        ["D"]
    );
    // Filtered after the cut: of D and C, those holding seeds.
    assert_eq!(
        start("rule right at start {\n  require origin in pits(first(from_right(mover), 2), seeds(here) > 0)\n}"),
        ["D"]
    );
    // More than the region has: all of it.
    assert_eq!(
        start("rule right at start {\n  require origin in first(from_right(mover), 9)\n}"),
        ["A", "B", "D"]
    );
}

/// `capture PLACE at most N`: a capture takes N seeds of a pit at most,
/// the rest staying (Weg WG17: 2 of a child's seeds, or its 1).
#[test]
fn a_capture_at_most_n_leaves_the_rest() {
    let store_after_a = |most: &str, cells: &[u32; 8]| {
        let v = variant(&board(
            "",
            &format!("rule raid at land {{\n  capture last {most} to store(mover)\n}}"),
        ));
        let mut g = game_from(&v.engine, &LABELS, cells, [0, 0], 0);
        g.play(turn(&g, "A")).unwrap();
        (counts(&g, &LABELS), g.position().cells[8])
    };
    // A's seed makes B 5: 2 taken, 3 stay.
    assert_eq!(
        store_after_a("at most 2", &[1, 4, 0, 1, 0, 0, 0, 0]),
        (vec![0, 3, 0, 1, 0, 0, 0, 0], 2)
    );
    // B 1: its 1.
    assert_eq!(
        store_after_a("at most 2", &[1, 0, 0, 1, 0, 0, 0, 0]),
        (vec![0, 0, 0, 1, 0, 0, 0, 0], 1)
    );
    // Without a bound, all of them.
    assert_eq!(
        store_after_a("", &[1, 4, 0, 1, 0, 0, 0, 0]),
        (vec![0, 0, 0, 1, 0, 0, 0, 0], 5)
    );
    // N from each pit however often the capture comes to it: a region
    // listing D twice takes 2 of its seeds, not 4.
    let v = variant(&board(
        "",
        "region twice { south: D D; north: d d }\nrule raid at land {\n  capture twice(mover) at most 2 to store(mover)\n}",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 5, 0, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(
        (counts(&g, &LABELS), g.position().cells[8]),
        (vec![0, 1, 0, 3, 0, 0, 0, 0], 2)
    );
}

/// An end judged during a turn (`at once`) on an empty row and another
/// part holds the moment both do, even when the sowing that makes the
/// other part hold takes no seed from the row.
#[test]
fn an_end_at_once_holds_when_its_last_part_comes_to_hold() {
    let relay = "rule on at land when seeds(last) > 1 {
  relay
}";
    let end = "end north_bare at once when seeds(side(north)) == 0 and seeds(C) > 0 winner south";
    let v = variant(&board("direction forward", &format!("{relay}\n{end}")));
    // North's row is bare and C empty. A (1) → B (2), relayed: C, D; C
    // now holds a seed, and the game ends there (D's 2 would have been
    // relayed into North's row).
    let mut g = game_from(&v.engine, &LABELS, &[1, 1, 0, 1, 0, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 0, 1, 2, 0, 0, 0, 0]);
    let o = g.outcome().expect("ended during the turn");
    assert_eq!((&*o.reason, o.winner), ("north_bare", Some(0)));
    // The same when the row is left bare by a capture earlier in the turn.
    let take = "rule take at land when sowings == 1 and owner(last) == mover \
        and seeds(opposite(last)) > 0 {
  capture opposite(last) to store(mover)
  relay
}";
    let v = variant(&board(
        "direction forward",
        &format!("{take}\n{relay}\n{end}"),
    ));
    // A (1) → B (2): c taken; B relayed (2) → C, D.
    let mut g = game_from(&v.engine, &LABELS, &[1, 1, 0, 1, 0, 0, 1, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 0, 1, 2, 0, 0, 0, 0]);
    let o = g.outcome().expect("ended during the turn");
    assert_eq!((&*o.reason, o.winner), ("north_bare", Some(0)));
}

/// An end judged during a turn (`at once`) on an empty row holds after
/// the sowing in which seeds left the row otherwise than by a `land`
/// rule's capture or a lift from it: a `lift` rule's capture, a `drop`
/// rule's.
#[test]
fn an_end_at_once_sees_seeds_taken_at_lift_and_drop() {
    let relay = "rule on at land when seeds(last) > 1 {
  relay
}
end north_bare at once when seeds(side(north)) == 0 winner south";
    let cases = [
        // B's relay (the second sowing) takes c, opposite, as it lifts.
        (
            "rule grab at lift when sowings == 2 {\n  capture opposite(here) to store(mover)\n}",
            [1, 1, 0, 1, 0, 0, 1, 0],
        ),
        // The seed B's relay drops in C takes b, opposite.
        (
            "rule grab at drop when sowings == 2 and seeds(opposite(here)) > 0 {\n  \
             capture opposite(here) to store(mover)\n}",
            [1, 1, 0, 1, 0, 1, 0, 0],
        ),
    ];
    for (grab, start) in cases {
        let v = variant(&board("direction forward", &format!("{grab}\n{relay}")));
        // A (1) → B (2), relayed: C, D; D (2) would be relayed into
        // North's row, but North's row is bare after B's sowing.
        let mut g = game_from(&v.engine, &LABELS, &start, [0, 0], 0);
        g.play(turn(&g, "A")).unwrap();
        assert_eq!(counts(&g, &LABELS), [0, 0, 1, 2, 0, 0, 0, 0], "{grab}");
        let o = g.outcome().expect("ended during the turn");
        assert_eq!((&*o.reason, o.winner), ("north_bare", Some(0)), "{grab}");
    }
}

/// `resow from PLACE HEADING` sows what the rule captured without `to`;
/// where the resowing cannot start (its place is none or off the mover's
/// track, or the heading leads nowhere from it) nothing is taken for it:
/// the seeds stay where they were, none goes to a store.
#[test]
fn a_resowing_that_cannot_start_takes_nothing() {
    let take = |from: &str| {
        format!(
            "rule take at land when owner(last) == mover and seeds(last) == 1 \
             and seeds(opposite(last)) > 0 {{\n  capture opposite(last)\n  resow from {from} forward\n}}"
        )
    };
    // A (1) → B, empty before: c, opposite, is taken and sown from D.
    let v = variant(&board("direction forward", &take("D")));
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 0, 3, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 1, 0, 1, 1, 1, 0, 0]);
    // From a place that is none: c keeps its seeds.
    let v = variant(&board(
        "direction forward",
        &take("first(pits(board, seeds(here) > 99))"),
    ));
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 0, 3, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 1, 0, 0, 0, 0, 3, 0]);
    let n = v.engine.rules.pits.len();
    assert_eq!(&g.position().cells[n..], [0, 0], "no seed in a store");
    // Nor does a `capture` rule judge a capture that is not made: taking
    // c would leave North's row bare, and forbid the turn.
    let v = variant(&board(
        "direction forward",
        &format!(
            "{}\nrule guard at capture when seeds(side(opponent)) == 0 {{\n  forbid\n}}",
            take("first(pits(board, seeds(here) > 99))")
        ),
    ));
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 0, 0, 3, 0], [0, 0], 0);
    assert_eq!(legal_labels(&g), ["A"]);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 1, 0, 0, 0, 0, 3, 0]);
}

/// A rule that resows and says `stop`, `again` or `again from PLACE`:
/// the resowing is the turn's last sowing, where it ends not judged; the
/// turn ends there, the mover moving again (from PLACE as it was when the
/// rule ran, the pit the lap ended in for `last`). Without one, the turn
/// goes on from where the resowing ends.
#[test]
fn a_resowing_that_stops_or_moves_again_ends_the_turn() {
    // A (1) → B, empty before: c (3), opposite, is taken and sown from
    // D: D, a, b, ending in b, which held one.
    let start = [1, 0, 0, 0, 0, 1, 3, 0];
    for (ending, after, to_move, legal) in [
        // judged: b (2) is sown on: c, d
        ("", [0, 1, 0, 1, 1, 0, 1, 1], 1, vec!["a", "c", "d"]),
        ("stop", [0, 1, 0, 1, 1, 2, 0, 0], 1, vec!["a", "b"]),
        ("again", [0, 1, 0, 1, 1, 2, 0, 0], 0, vec!["B", "D"]),
        // from B, where the lap ended, not b, where the resowing did
        ("again from last", [0, 1, 0, 1, 1, 2, 0, 0], 0, vec!["B"]),
    ] {
        let v = variant(&board(
            "direction forward",
            &format!(
                "rule take at land when seeds(last) == 1 and owner(last) == mover \
                 and seeds(opposite(last)) > 0 {{\n  capture opposite(last)\n  \
                 resow from D forward\n  {ending}\n}}\n\
                 rule on at land when seeds(last) > 1 {{\n  relay\n}}"
            ),
        ));
        let mut g = game_from(&v.engine, &LABELS, &start, [0, 0], 0);
        g.play(turn(&g, "A")).unwrap();
        assert_eq!(counts(&g, &LABELS), after, "{ending:?}");
        assert_eq!(g.position().to_move, Some(to_move), "{ending:?}");
        assert_eq!(legal_labels(&g), legal, "{ending:?}");
    }
}

// --- Several actions in one rule, and `cancel`, act in their order ---

/// The board, the stores and the seeds of a game (South's store first).
fn board_and_stores(g: &sow::Game) -> (Vec<u32>, [u32; 2]) {
    let n = g.engine().rules.pits.len();
    let c = &g.position().cells;
    (counts(g, &LABELS), [c[n], c[n + 1]])
}

/// A capture puts its seeds where it sends them before the rule's next
/// action: `capture b to a` then `capture a to store(mover)` takes b's
/// seeds on with a's own.
#[test]
fn the_actions_of_a_rule_act_in_order() {
    let v = variant(&board(
        "",
        "rule raid at land when last == B {\n  capture b to a\n  capture a to store(mover)\n}",
    ));
    // A (1) → B: b's 3 go into a (4), then a's 4 into South's store.
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 1, 1, 3, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(board_and_stores(&g), (vec![0, 1, 0, 1, 0, 0, 0, 0], [4, 0]));
}

/// In a `round` rule, `fill … from store(south)` after `capture board to
/// store(south)` fills from the store as the capture left it.
#[test]
fn a_round_fills_from_the_seeds_a_capture_before_it_stored() {
    let v = variant(&board_text(
        "",
        "seeds(origin) > 0",
        "end over when seeds(A) == 0
match ends when seeds(store(north)) > 0
rule next at round {
  capture board to store(south)
  fill side(south) to 2 from store(south)
}",
    ));
    // A (1) → B; A is empty: the round is over with 8 seeds on the board,
    // all taken into South's store and 2 put back into each of A–D.
    let mut g = game_from(&v.engine, &LABELS, &[1, 1, 1, 1, 1, 1, 1, 1], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(g.rounds(), 1, "the round is over, the match goes on");
    assert!(g.outcome().is_none());
    assert_eq!(board_and_stores(&g), (vec![2, 2, 2, 2, 0, 0, 0, 0], [0, 0]));
}

/// `at most N` bounds each capture action on its own: `at most 1` then
/// `at most 2` from the same pit take 1 and then 2.
#[test]
fn at_most_n_counts_for_each_capture_action() {
    let v = variant(&board(
        "",
        "rule raid at land when last == B {
  capture b at most 1 to store(mover)
  capture b at most 2 to store(mover)
}",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 1, 0, 5, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(board_and_stores(&g), (vec![0, 1, 0, 1, 0, 2, 0, 0], [3, 0]));
}

/// At the `capture` moment, `cancel` gives back the seeds taken so far; a
/// `capture` after it, in the same rule or a later one, takes its seeds.
#[test]
fn a_capture_after_cancel_is_made() {
    // A (1) → B (2): B's 2 are taken, given back, and then d's 3 taken.
    let land = "rule take at land when last == B {\n  capture last to store(mover)\n}";
    for judged in [
        "rule undo at capture {\n  cancel\n  capture d to store(mover)\n}",
        "rule undo at capture {\n  cancel\n}\nrule other at capture {\n  capture d to store(mover)\n}",
    ] {
        let v = variant(&board("", &format!("{land}\n{judged}")));
        let mut g = game_from(&v.engine, &LABELS, &[1, 1, 0, 1, 0, 0, 0, 3], [0, 0], 0);
        g.play(turn(&g, "A")).unwrap();
        assert_eq!(
            board_and_stores(&g),
            (vec![0, 2, 0, 1, 0, 0, 0, 0], [3, 0]),
            "{judged}"
        );
    }
    // A capture before `cancel` is given back with the rest.
    let v = variant(&board(
        "",
        &format!("{land}\nrule undo at capture {{\n  capture d to store(mover)\n  cancel\n}}"),
    ));
    let mut g = game_from(&v.engine, &LABELS, &[1, 1, 0, 1, 0, 0, 0, 3], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(board_and_stores(&g), (vec![0, 2, 0, 1, 0, 0, 0, 3], [0, 0]));
}

/// At the `capture` moment, `captured` counts the seeds just taken (with
/// those taken earlier in the turn).
#[test]
fn captured_at_the_capture_moment_counts_the_seeds_just_taken() {
    let v = variant(&board(
        "",
        "rule take at land when last == B {\n  capture last to store(mover)\n}
rule seen at capture when captured == 2 {\n  capture d to store(mover)\n}",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[1, 1, 0, 1, 0, 0, 0, 3], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(board_and_stores(&g), (vec![0, 0, 0, 1, 0, 0, 0, 0], [5, 0]));
}

/// A definition's parameter stands for the count it is given where a
/// fixed number is needed: `let q(k) = next(last, k)` called as `q(2)` is
/// `next(last, 2)`; a count known only in play is refused with a hint
/// that says why.
#[test]
fn a_definition_parameter_gives_the_steps_of_next() {
    let play = |rules: &str| {
        let v = variant(&board("", rules));
        let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 3, 5, 0, 0], [0, 0], 0);
        g.play(turn(&g, "A")).unwrap();
        board_and_stores(&g)
    };
    let by_parameter = play("let q(k) = next(last, k)\nrule raid at land {\n  capture q(3)\n}");
    let written = play("rule raid at land {\n  capture next(last, 3)\n}");
    // A (1) → B; three steps on is a (3 seeds).
    assert_eq!(written, (vec![0, 1, 0, 0, 0, 5, 0, 0], [3, 0]));
    assert_eq!(by_parameter, written);
    let e = Variant::from_source(
        "steps.sow",
        &board(
            "",
            "let q(k) = next(last, k)\nrule raid at land {\n  capture q(seeds(last))\n}",
        ),
    )
    .unwrap_err()
    .render();
    assert!(e.contains("a fixed number from 1 to"), "{e}");
    assert!(e.contains("not known when the file is read"), "{e}");
}

/// `divide REGION odd to P into NAME`: the shares go into each player's
/// pit of a per-player pit instead of the stores (Rath RA27).
#[test]
fn divide_into_shares_into_each_players_pit() {
    let relay = "rule on at land when seeds(last) > 1 {\n  relay\n}";
    let v = variant(&format!(
        "{}\npit home {{ south: D; north: d }}\nend endless when cut\nrule share at end when cut {{\n  divide pits(board, here != D and here != d) odd to south into home\n}}",
        board("sowings at most 2", relay).replace("end done when", "end done_ when")
    ));
    // As above: C and a hold 1 and 2 after the cut, D and d nothing: the
    // three shared, one each into D and d, the odd one into South's D.
    let mut g = game_from(&v.engine, &LABELS, &[1, 1, 0, 1, 2, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert!(g.outcome().is_some());
    assert_eq!(counts(&g, &LABELS), [0, 0, 0, 2, 0, 0, 0, 1]);
    let n = v.engine.rules.pits.len();
    assert_eq!(&g.position().cells[n..], [0, 0], "the stores get nothing");
}

/// `skip when C` reading `last_seed`: a place passed over but by the
/// seed that is its lap's last (Rath RA12).
#[test]
fn a_skip_can_let_a_laps_last_seed_in() {
    let v = variant(&board("skip when here == b and not last_seed", ""));
    // D's three seeds: a, then b passed over (the next seed is not the
    // last), c, d; D's two: a, then b (the last seed goes in).
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 3, 0, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(
        counts(&g, &LABELS),
        [0, 0, 0, 0, 1, 0, 1, 1],
        "b passed over"
    );
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 2, 0, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(
        counts(&g, &LABELS),
        [0, 0, 0, 0, 1, 1, 0, 0],
        "the last seed goes in"
    );
}

/// The setup's `set`: a variable's instance starting at another value
/// than its first (Rath RA5), and pits named by the starter's region
/// (Sadeqa II SD4): each starter's layout. (`reset` laying out the one of
/// the round just ended's starter: Sadeqa II's matches, `catalogue.rs`.)
#[test]
fn a_setup_sets_variables_and_lays_out_from_the_starters_side() {
    let text = "variant primitive
players south north
board {
  row north: b a
  row south: A B
  store north left
  store south right
}
region first_hole { south: A; north: a }
var marked per pit: no yes
setup {
  seeds 1
  seeds 3: first_hole(starter)
  total 6
  first chosen
  set marked(B) = yes
}
track: A B a b
rule own at start {
  require owner(origin) == mover and seeds(origin) > 0
}
end done when seeds(side(mover)) == 0
score seeds(store(player))
";
    let v = variant(text);
    let start = |first| {
        sow::Game::from_position(
            v.engine.clone(),
            v.engine.start_position_for(first),
            Vec::new(),
        )
        .unwrap()
    };
    let labels = ["A", "B", "a", "b"];
    assert_eq!(counts(&start(0), &labels), [3, 1, 1, 1], "South starts");
    assert_eq!(counts(&start(1), &labels), [1, 1, 3, 1], "North starts");
    let g = start(0);
    assert_eq!(
        sow::json::position(&v, &g)["state"]["marked"],
        serde_json::json!({"A": "no", "B": "yes", "a": "no", "b": "no"})
    );
}

/// A run of labels (`COUNT from LABEL`, `reversed`) whose count is a number
/// option: the board's size is a parameter, its pits labelled as counted
/// (A, B, … and a, b, …), and the tracks, regions and rules written with
/// it follow; a variant of it fixes the number (`option holes = 5`).
#[test]
fn a_board_whose_size_is_an_option() {
    let text = "variant primitive
players south north
option holes default 4: 2..6
board {
  row north: holes from a reversed
  row south: holes from A
  store north left
  store south right
}
setup {
  seeds holes
  total 2 * holes * holes
}
track: holes from A holes from a
region rows_back { south: holes from A reversed; north: 2 from a1 }
rule own at start {
  require owner(origin) == mover and seeds(origin) > 0
}
rule across at land when owner(last) == opponent {
  capture next(last, holes) to store(mover)
}
end done when seeds(side(mover)) == 0
score seeds(store(player))
";
    let labels = |v: &Variant| -> Vec<String> {
        v.engine
            .rules
            .pits
            .iter()
            .map(|p| p.label.clone())
            .collect()
    };
    let v = Variant::from_source("primitive.sow", &text.replace("2 from a1", "a"))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(labels(&v), ["d", "c", "b", "a", "A", "B", "C", "D"]);
    let six = v
        .with_options(&[("holes".into(), "6".into())])
        .unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(
        labels(&six),
        ["f", "e", "d", "c", "b", "a", "A", "B", "C", "D", "E", "F"]
    );
    // Six seeds from F: a … f, the last in f; six steps on from f is F,
    // just emptied, so nothing is taken. From E: F, a … e; next(e, 6) is E.
    let mut g = sow::Game::new(six.engine.clone()).unwrap();
    let row = ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"];
    assert_eq!(counts(&g, &row), [6; 12], "6 seeds a hole from the setup");
    g.play(turn(&g, "F")).unwrap();
    assert_eq!(counts(&g, &row), [6, 6, 6, 6, 6, 0, 7, 7, 7, 7, 7, 7]);
    // The regions' runs: a region's run counts on a label's number.
    let err = Variant::from_source("primitive.sow", text).expect_err("no a1 on this board");
    assert!(
        err.render().contains("no pit is labelled `a1`"),
        "{}",
        err.render()
    );
    // A variant fixing the size: its value, and no other.
    let fixed = text.replace("option holes default 4: 2..6", "option holes = 5");
    let five = Variant::from_source("primitive.sow", &fixed.replace("2 from a1", "a"))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(five.engine.rules.pits.len(), 10);
    let refused = five
        .with_options(&[("holes".into(), "6".into())])
        .expect_err("the variant fixes holes");
    assert!(
        refused
            .render()
            .contains("`6` is not a value of option `holes`"),
        "{}",
        refused.render()
    );
}

/// `no_legal_turn(P)` once play is over: at the `end` moment (and
/// `scored`, `round`) and in `match ends`, whether P could move, were they
/// to move in the position as it stands.
#[test]
fn no_legal_turn_of_a_player_once_play_is_over() {
    let text = |extra: &str| {
        format!(
            "variant primitive
players south north
board {{
  row north: b a
  row south: A B
  store north left
  store south right
}}
setup {{
  seeds 0
  seeds 1: A
}}
track: A B a b
rule own at start {{
  require owner(origin) == mover and seeds(origin) > 0
}}
end stuck when no_legal_turn
score seeds(store(player))
{extra}
"
        )
    };
    // South sows A into B; North, to move, has no turn: the game ends.
    // At `end`, North could not move and South could (B holds a seed).
    let v = variant(&text(
        "rule north_stuck at end when no_legal_turn(north) {
  capture side(south) to store(north)
}
rule south_stuck at end when no_legal_turn(south) {
  capture side(south) to store(south)
}",
    ));
    let mut g = sow::Game::new(v.engine.clone()).unwrap();
    g.play(turn(&g, "A")).unwrap();
    let n = v.engine.rules.pits.len();
    assert_eq!(counts(&g, &["A", "B", "a", "b"]), [0, 0, 0, 0]);
    assert_eq!(
        [g.position().cells[n], g.position().cells[n + 1]],
        [0, 1],
        "B to North's store (south first, then north): only `no_legal_turn(north)` held"
    );
    assert_eq!(g.outcome().map(|o| o.winner), Some(Some(1)));
    // In a match: the match is over where its condition says so.
    let over = |cond: &str| {
        let v = variant(&text(&format!(
            "match ends when {cond}\nrule afresh at round {{\n  reset\n  first south\n}}"
        )));
        let mut g = sow::Game::new(v.engine.clone()).unwrap();
        for _ in 0..3 {
            if g.outcome().is_some() {
                break;
            }
            g.play(turn(&g, "A")).unwrap();
        }
        (g.outcome().is_some(), g.rounds())
    };
    assert_eq!(
        over("no_legal_turn(north)"),
        (true, 0),
        "North cannot move: over"
    );
    assert_eq!(
        over("no_legal_turn(south)"),
        (false, 3),
        "South could move: the rounds go on"
    );
}

/// `out_of_play`: the seeds the setup lays out less those in play, the
/// seeds that have left a game played from its setup; a position says it
/// (`state.out_of_play`) where seeds can leave, and checks it when read.
#[test]
fn out_of_play_counts_the_seeds_that_left() {
    let v = variant(
        "variant primitive
players south north
board {
  row north: b a
  row south: A B
}
setup {
  seeds 2
  total 8
}
track: A B a b
rule own at start {
  require owner(origin) == mover and seeds(origin) > 0
}
rule gone at drop when here == b {
  remove here
}
end three_gone when out_of_play >= 3
end stuck when no_legal_turn
score out_of_play + seeds(side(player))
",
    );
    let mut g = sow::Game::new(v.engine.clone()).unwrap();
    let state = |g: &sow::Game| sow::json::position(&v, g)["state"].clone();
    assert_eq!(state(&g)["out_of_play"], 0);
    // B's two seeds: a, then b: b's 3 leave the game as the seed drops.
    g.play(turn(&g, "B")).unwrap();
    assert_eq!(counts(&g, &["A", "B", "a", "b"]), [2, 0, 3, 0]);
    assert_eq!(state(&g)["out_of_play"], 3);
    assert!(g.outcome().is_some(), "`out_of_play >= 3` ended the game");
    // A position read back says the same, and a wrong count is an error.
    let mut text = sow::json::position(&v, &g);
    text["to_move"] = "north".into();
    assert!(sow::json::read_position(&v, &text.to_string()).is_ok());
    text["state"]["out_of_play"] = 2.into();
    let err = sow::json::read_position(&v, &text.to_string()).expect_err("a wrong count");
    assert!(
        err.message
            .contains("says 2, but this position has 3 seeds out of play"),
        "{}",
        err.message
    );
}

/// A relay lap that is a decision of its own: `again from last`.
const LAP: &str = "rule lap at land when seeds(last) > 1 {
  again from last
}";

/// `again from PLACE`: the mover moves again, and that next turn is the
/// sowing of the pit named, its only legal turn (the `start` rules do not
/// judge it: here it is the opponent's); the place is kept in the
/// position's `state` (`resume`) until that turn is played.
#[test]
fn again_from_a_place_is_a_turn_of_its_own_from_that_pit() {
    let v = variant(&board("", LAP));
    let resume = v
        .engine
        .rules
        .vars
        .iter()
        .position(|x| x.name == "resume")
        .expect("`again from` keeps `resume`");
    let slot = v.engine.var_base(resume);
    // South's C sows into D and a; a had a seed: South moves again, from a.
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 2, 0, 1, 0, 0, 1], [0, 0], 0);
    assert_eq!(g.position().vars[slot], 0, "none to begin with");
    g.play(turn(&g, "C")).unwrap();
    assert_eq!(counts(&g, &LABELS), [1, 0, 0, 1, 2, 0, 0, 1]);
    assert_eq!(g.position().to_move, Some(0), "South again");
    assert_eq!(
        legal_labels(&g),
        ["a"],
        "only the pit named, though it is North's"
    );
    let saved = sow::json::position(&v, &g);
    assert_eq!(saved["state"]["resume"], "a");
    let back = sow::json::read_position(&v, &saved.to_string()).unwrap();
    assert_eq!(back.legal_turns(), g.legal_turns());
    // a's two seeds to b and c: c is empty, so the turn ends and North
    // moves, from any of its pits.
    g.play(turn(&g, "a")).unwrap();
    assert_eq!(counts(&g, &LABELS), [1, 0, 0, 1, 0, 1, 1, 1]);
    assert_eq!(g.position().to_move, Some(1));
    assert_eq!(g.position().vars[slot], 0, "cleared by the turn after");
    assert_eq!(g.legal_turns().len(), 3);
}

/// `again from` goes on the way the turn that named it was written: where
/// the mover chose the direction, the next lap keeps it.
#[test]
fn again_from_keeps_the_way_the_turn_went() {
    let v = variant(&board_text(
        "direction choose",
        "seeds(origin) > 0",
        "notation {
  letter f: forward
  letter b: backward
}
rule lap at land when seeds(last) > 1 {
  again from last
}
end done when seeds(side(mover)) == 0",
    ));
    let start = [1, 1, 1, 0, 1, 0, 0, 0];
    let mut g = game_from(&v.engine, &LABELS, &start, [0, 0], 0);
    assert_eq!(legal_labels(&g), ["Ab", "Af", "Bb", "Bf", "Cb", "Cf"]);
    // B forward falls into C, which had a seed: C, forward only.
    g.play(turn(&g, "Bf")).unwrap();
    assert_eq!(legal_labels(&g), ["Cf"]);
    assert_eq!(sow::json::position(&v, &g)["state"]["resume"], "Cf");
    // B backward falls into A: A, backward only.
    let mut g = game_from(&v.engine, &LABELS, &start, [0, 0], 0);
    g.play(turn(&g, "Bb")).unwrap();
    assert_eq!(legal_labels(&g), ["Ab"]);
    let saved = sow::json::position(&v, &g);
    assert_eq!(saved["state"]["resume"], "Ab");
    let back = sow::json::read_position(&v, &saved.to_string()).unwrap();
    assert_eq!(back.legal_turns(), g.legal_turns());
    // A's two seeds backward: into d, then c (empty): North's turn.
    g.play(turn(&g, "Ab")).unwrap();
    assert_eq!(g.position().to_move, Some(1));
}

/// The pit `again from` names is the mover's alone: a look at what another
/// player could do (`no_legal_turn`) sees all of that player's pits.
#[test]
fn again_from_binds_the_mover_not_a_player_looked_at() {
    let v = variant(&board(
        "",
        &format!(
            "{LAP}\nend stuck when last_mover != none and no_legal_turn(opponent(last_mover))"
        ),
    ));
    // South's B sows into C, which had a seed: South is to go on from C.
    // North has no seed: it could not move, whatever South does next.
    let mut g = game_from(&v.engine, &LABELS, &[0, 1, 1, 0, 0, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "B")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 0, 2, 0, 0, 0, 0, 0]);
    assert_eq!(g.outcome().map(|o| &*o.reason), Some("stuck"));
    // With a seed in North's a, North could move: play goes on from C.
    let mut g = game_from(&v.engine, &LABELS, &[0, 1, 1, 0, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "B")).unwrap();
    assert!(g.outcome().is_none(), "North could move");
    assert_eq!(legal_labels(&g), ["C"]);
}

/// `path(A, B)`: the pits from A to B the way the sowing runs, both
/// included, round the track once at most (the pits a lap sowed:
/// `path(lifted, last)`); and a region captured `to store(owner(here))`
/// sends each pit's seeds to the store of that pit's owner.
#[test]
fn a_path_runs_from_the_pit_lifted_to_the_last_and_each_pit_goes_to_its_owner() {
    let v = variant(&board(
        "",
        "rule twos at land {
  capture pits(path(lifted, last), seeds(here) == 2) to store(owner(here))
}",
    ));
    let stores = |g: &Game| {
        let p = g.position();
        (p.cells[8], p.cells[9])
    };
    // B's three seeds to C, D and a: C and a make two, on the path from
    // B to a; b holds two off the path and keeps them.
    let mut g = game_from(&v.engine, &LABELS, &[1, 3, 1, 0, 1, 2, 0, 0], [0, 0], 0);
    g.play(turn(&g, "B")).unwrap();
    assert_eq!(counts(&g, &LABELS), [1, 0, 0, 1, 0, 2, 0, 0]);
    assert_eq!(
        stores(&g),
        (2, 2),
        "C's two to South's store, a's to North's"
    );
    // A's nine seeds go round the ring to B: the path is A and B alone
    // (round once at most), so C's two stay and B's two go.
    let mut h = game_from(&v.engine, &LABELS, &[9, 0, 0, 0, 0, 0, 0, 0], [0, 0], 0);
    h.play(turn(&h, "A")).unwrap();
    assert_eq!(counts(&h, &LABELS), [1, 0, 1, 1, 1, 1, 1, 1]);
    assert_eq!(stores(&h), (2, 0), "B's two to South's store");
}

/// A `direction` line whose `when` an option makes always hold leaves
/// the lines after it dead for that value only: not an error, and each
/// value sows its way. (A line after one written without `when` is dead
/// for every value: `tests/invalid/direction_never_applies.sow`.)
#[test]
fn an_option_may_fix_the_first_direction_line() {
    let text = board(
        "direction backward when way == cw\n  direction forward",
        "option way default ccw: ccw cw",
    );
    let v = variant(&text);
    let cw = v
        .with_options(&[("way".to_string(), "cw".to_string())])
        .unwrap_or_else(|e| panic!("{e:?}"));
    for (v, want) in [
        (&v, [0, 0, 1, 1, 0, 0, 0, 0]),
        (&cw, [1, 0, 0, 0, 0, 0, 0, 1]),
    ] {
        let mut g = game_from(&v.engine, &LABELS, &[0, 2, 0, 0, 0, 0, 0, 0], [0, 0], 0);
        g.play(turn(&g, "B")).unwrap();
        assert_eq!(counts(&g, &LABELS), want);
    }
}

/// `put N from hand|store into REGION when C`: a turn for each pit of the
/// region C holds for (`here`) whose count the mover holds, written
/// `put:LABEL`; the seeds go into the pit and nothing is sown (no `land`
/// rule), the `after` rules see the pit as `last`; a count read from the
/// position, a place for one pit, and the hand.
#[test]
fn a_put_moves_held_seeds_into_one_pit_sowing_nothing() {
    let text = board(
        "",
        "put 2 from store into side(mover) when seeds(here) == 0
rule grab at land {
  capture last to store(mover)
}
rule mark at after when last == C and origin == C {
  remove a
}",
    );
    let v = variant(&text);
    let n = v.engine.rules.pits.len();
    let g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 1, 1, 0, 0], [3, 0], 0);
    assert_eq!(legal_labels(&g), ["A", "put:B", "put:C", "put:D"]);
    let mut g2 = g.clone();
    g2.play(turn(&g2, "put:C")).unwrap();
    assert_eq!(
        counts(&g2, &LABELS),
        [1, 0, 2, 0, 0, 1, 0, 0],
        "two into C, no land rule; the after rule saw C as last and origin"
    );
    assert_eq!(&g2.position().cells[n..], [1, 0], "from South's store");
    assert_eq!(g2.position().to_move, Some(1), "the turn passes");
    // A store of one holds too few for a put of two.
    let g3 = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 1, 0, 0, 0], [1, 0], 0);
    assert_eq!(legal_labels(&g3), ["A"]);
    // The label alone plays the put where the pit has no sowing, the
    // sowing where it has one.
    assert_eq!(turn(&g, "B"), turn(&g, "put:B"));
    assert_eq!(sow::notation::write_turn(&g, turn(&g, "A")), "A");
    let err = sow::notation::parse_turn(&g, "put:A").unwrap_err();
    assert!(err.message.contains("not a turn here"), "{}", err.message);
    // Numbered after the pits' turns, one number a pit.
    let actions = sow::actions::Actions::of(&v.engine.rules);
    let put_b = turn(&g, "put:B");
    let k = actions.number(put_b).expect("a number");
    assert_eq!(
        actions.written(&v.engine.rules, k).as_deref(),
        Some("put:B")
    );
    // From the hand, into one place, a count read from the position.
    let v = variant(&board("", "put if(hand(mover) > 2, 3, 1) from hand into D"));
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 1, 0, 0, 0], [0, 0], 0);
    let mut pos = g.position().clone();
    pos.hands = [5, 0];
    g = sow::Game::from_position(v.engine.clone(), pos, Vec::new()).unwrap();
    assert_eq!(legal_labels(&g), ["A", "put:D"]);
    g.play(turn(&g, "put:D")).unwrap();
    assert_eq!(counts(&g, &LABELS)[3], 3, "three of five");
    assert_eq!(g.position().hands, [2, 0]);
    // `again from` names the one sowing; the puts its line allows are
    // offered beside it.
    let v = variant(&board(
        "",
        "put 1 from store into side(mover) when seeds(here) == 0
rule lap at land when seeds(last) > 1 {
  again from last
}",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[1, 1, 0, 0, 1, 0, 0, 0], [1, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(legal_labels(&g), ["B", "put:A", "put:C", "put:D"]);
}

/// `put LOW..HIGH from hand|store into REGION`: the mover chooses how
/// many, one turn for each pit and each count from LOW to HIGH that they
/// hold (both judged for the pit), written `put:NLABEL` and numbered one
/// for each pit and each count (Li'b al-'Aqil's opening: any number of
/// the seeds in hand into any hole).
#[test]
fn a_put_of_a_count_the_mover_chooses() {
    let v = variant(&board("", "put 2..hand(mover) from hand into side(mover)"));
    let mut pos = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 1, 0, 0, 0], [0, 0], 0)
        .position()
        .clone();
    pos.hands = [4, 0];
    let g = sow::Game::from_position(v.engine.clone(), pos, Vec::new()).unwrap();
    let legal = legal_labels(&g);
    assert_eq!(legal.len(), 1 + 4 * 3, "A, and 2, 3 or 4 into each pit");
    // (Listed sorted by what they write.)
    assert_eq!(&legal[..5], ["A", "put:2A", "put:2B", "put:2C", "put:2D"]);
    assert!(legal.contains(&"put:4D".to_string()));
    let mut g2 = g.clone();
    g2.play(turn(&g2, "put:3C")).unwrap();
    assert_eq!(counts(&g2, &LABELS), [1, 0, 3, 0, 1, 0, 0, 0]);
    assert_eq!(g2.position().hands, [1, 0], "one left in hand");
    // A count outside the range, or more than the hand holds, is no turn.
    for t in ["put:1C", "put:5C", "put:C"] {
        let err = sow::notation::parse_turn(&g, t).unwrap_err();
        assert!(
            err.message.contains("not a turn here"),
            "{t}: {}",
            err.message
        );
    }
    // Numbered one for each pit and each count, and written back.
    let actions = sow::actions::Actions::of(&v.engine.rules);
    let k = actions.number(turn(&g, "put:4B")).expect("a number");
    assert_eq!(
        actions.written(&v.engine.rules, k).as_deref(),
        Some("put:4B")
    );
    // A hand of one holds too few for the least count: no put.
    let mut pos = g.position().clone();
    pos.hands = [1, 0];
    let g3 = sow::Game::from_position(v.engine.clone(), pos, Vec::new()).unwrap();
    assert_eq!(legal_labels(&g3), ["A"]);
}

/// `take all|N from REGION when C`: a turn for each pit of the region C
/// holds for (`here`) that holds the count, written `take:LABEL`; the
/// seeds leave the game and nothing is sown (no `land` rule), the `after`
/// rules see the pit as `last` and no sowing (`sowings == 0`); a count
/// read from the position.
#[test]
fn a_take_empties_one_pit_out_of_the_game_sowing_nothing() {
    let text = board(
        "",
        "take all from side(opponent) when seeds(here) > 1
rule grab at land {
  capture last to store(mover)
}
rule mark at after when sowings == 0 and last == b and origin == b {
  remove A
}",
    );
    let v = variant(&text);
    let n = v.engine.rules.pits.len();
    let g = game_from(&v.engine, &LABELS, &[1, 1, 0, 0, 1, 3, 2, 0], [0, 0], 0);
    assert_eq!(legal_labels(&g), ["A", "B", "take:b", "take:c"]);
    let mut g2 = g.clone();
    g2.play(turn(&g2, "take:b")).unwrap();
    assert_eq!(
        counts(&g2, &LABELS),
        [0, 1, 0, 0, 1, 0, 2, 0],
        "b emptied, no land rule; the after rule saw b as last and origin, no sowing"
    );
    assert_eq!(&g2.position().cells[n..], [0, 0], "no store gains");
    assert_eq!(
        (g.position().total(), g2.position().total()),
        (8, 4),
        "b's three and A's one are out of the game"
    );
    assert_eq!(g2.position().to_move, Some(1), "the turn passes");
    // The label alone plays the take where the pit has no sowing.
    assert_eq!(turn(&g, "b"), turn(&g, "take:b"));
    let err = sow::notation::parse_turn(&g, "take:a").unwrap_err();
    assert!(err.message.contains("not a turn here"), "{}", err.message);
    // Numbered after the pits' turns, one number a pit.
    let actions = sow::actions::Actions::of(&v.engine.rules);
    let k = actions.number(turn(&g, "take:c")).expect("a number");
    assert_eq!(
        actions.written(&v.engine.rules, k).as_deref(),
        Some("take:c")
    );
    // A count read from the position: one seed fewer than the pit holds,
    // where that is one at least.
    let v = variant(&board("", "take seeds(here) - 1 from side(opponent)"));
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 1, 3, 0, 0], [0, 0], 0);
    assert_eq!(legal_labels(&g), ["A", "take:b"]);
    g.play(turn(&g, "take:b")).unwrap();
    assert_eq!(
        counts(&g, &LABELS),
        [1, 0, 0, 0, 1, 1, 0, 0],
        "two of three"
    );
    // To a place: the seeds go to the mover's store, not out of the game.
    let v = variant(&board("", "take all from side(opponent) to store(mover)"));
    let mut g = game_from(&v.engine, &LABELS, &[1, 0, 0, 0, 1, 3, 0, 0], [0, 0], 0);
    g.play(turn(&g, "take:b")).unwrap();
    assert_eq!(counts(&g, &LABELS), [1, 0, 0, 0, 1, 0, 0, 0]);
    assert_eq!(
        &g.position().cells[n..],
        [3, 0],
        "b's three in South's store"
    );
}

/// `take all|N from REGION into REGION2 when C`: a turn for each pit of
/// the first region C holds for (`here`) and each pit of the second, judged
/// with `origin` the pit taken from, but that pit itself, written `A>c`;
/// the seeds move into the pit chosen and nothing is sown (no `land`
/// rule), the `after` rules see the pit taken from as `origin` and the pit
/// chosen as `last`.
#[test]
fn a_take_into_moves_seeds_into_a_pit_the_mover_chooses() {
    let text = board(
        "",
        "take all from side(mover) into pits(board, here != opposite(origin)) when seeds(here) > 1
rule grab at land {
  capture last to store(mover)
}",
    );
    let v = variant(&text);
    let n = v.engine.rules.pits.len();
    let g = game_from(&v.engine, &LABELS, &[0, 3, 1, 0, 1, 0, 0, 0], [0, 0], 0);
    // B (3) may go anywhere but into itself and c, opposite it; C (1)
    // holds too few to move, but sows.
    assert_eq!(
        legal_labels(&g),
        ["B", "B>A", "B>C", "B>D", "B>a", "B>b", "B>d", "C"],
    );
    let mut g2 = g.clone();
    let err = sow::notation::parse_turn(&g2, "B>c").unwrap_err();
    assert!(err.message.contains("not a turn here"), "{}", err.message);
    g2.play(turn(&g2, "B>a")).unwrap();
    assert_eq!(
        counts(&g2, &LABELS),
        [0, 0, 1, 0, 4, 0, 0, 0],
        "B's three moved into a, no land rule"
    );
    assert_eq!(&g2.position().cells[n..], [0, 0], "nothing captured");
    assert_eq!(g2.position().to_move, Some(1), "the turn passes");
    // Written with `take:` too; the label alone is B's sowing.
    assert_eq!(turn(&g, "take:B>a"), turn(&g, "B>a"));
    assert_ne!(turn(&g, "B"), turn(&g, "B>a"));
    // The after rule saw B as origin and the pit chosen as last.
    let mut g3 = g.clone();
    g3.play(turn(&g3, "B>d")).unwrap();
    assert_eq!(counts(&g3, &LABELS), [0, 0, 1, 0, 1, 0, 0, 3], "into d");
    let v2 = variant(&board(
        "",
        "take all from side(mover) into pits(board, here != opposite(origin)) when seeds(here) > 1
rule mark at after when sowings == 0 and last == b and origin == B {
  remove a
}",
    ));
    let mut g4 = game_from(&v2.engine, &LABELS, &[0, 3, 1, 0, 1, 0, 0, 0], [0, 0], 0);
    g4.play(turn(&g4, "B>b")).unwrap();
    assert_eq!(
        counts(&g4, &LABELS),
        [0, 0, 1, 0, 0, 3, 0, 0],
        "the after rule saw origin B and last b: a removed"
    );
    // Numbered after the pits' turns, one number for each pit and each.
    let actions = sow::actions::Actions::of(&v.engine.rules);
    let k = actions.number(turn(&g, "B>d")).expect("a number");
    assert_eq!(actions.written(&v.engine.rules, k).as_deref(), Some("B>d"));
    assert_eq!(
        actions.count(),
        n + n * n,
        "a pit's sowing, then every pair"
    );
}

/// `drop N` in the sowing: each place takes N seeds, judged for the place
/// (`here`) before they fall, the last what is left; a place passed over
/// takes none; whole laps are sown so too.
#[test]
fn drop_sows_that_many_seeds_into_each_place() {
    let text = board(
        "drop 2",
        "rule grab at land when seeds(last) == 1 {
  capture last to store(mover)
}",
    );
    let v = variant(&text);
    let mut g = game_from(&v.engine, &LABELS, &[5, 0, 0, 1, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    // A's five: two into B and C, the last one into D (which held 1).
    assert_eq!(counts(&g, &LABELS), [0, 2, 2, 2, 1, 0, 0, 0]);
    // Twenty seeds: ten places, two each, round the track past A.
    let mut g = game_from(&v.engine, &LABELS, &[20, 0, 0, 0, 0, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(counts(&g, &LABELS), [2, 4, 4, 2, 2, 2, 2, 2]);
    // The last place is `last`: A's three end with one in C, taken.
    let mut g = game_from(&v.engine, &LABELS, &[3, 0, 0, 0, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    assert_eq!(counts(&g, &LABELS), [0, 2, 0, 0, 1, 0, 0, 0]);
    assert_eq!(g.position().cells[v.engine.rules.pits.len()], 1);
    // Judged for each place: two into an empty hole, one into another.
    let v = variant(&board(
        "drop if(seeds(here) == 0, 2, 1)\n  skip when here == D",
        "",
    ));
    let mut g = game_from(&v.engine, &LABELS, &[6, 1, 0, 0, 1, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "A")).unwrap();
    // B (1) takes one, C (0) two, D is passed over, a (1) one, b (0) two.
    assert_eq!(counts(&g, &LABELS), [0, 2, 2, 0, 2, 2, 0, 0]);
}

/// `turns_passed`: whole turns passed in a row just before now. A pass
/// its mover makes moving again (the turn begun with a sowing) is no turn
/// passed, and counts 0, where `passes` counts it (Ludii's "all passed").
#[test]
fn turns_passed_counts_whole_turns() {
    let text = board_text(
        "skip store(opponent)",
        "seeds(origin) > 0",
        "rule home at land when last == store(mover) {
  again
}
pass when no_legal_turn
end all_passed when turns_passed == 2 and passes == 3 - 1 draw",
    )
    .replace(
        "track: A B C D a b c d",
        "track: A B C D store(south) a b c d store(north)",
    );
    let v = variant(&text);
    let slot = |name: &str| {
        let i = v
            .engine
            .rules
            .vars
            .iter()
            .position(|x| x.name == name)
            .unwrap();
        v.engine.var_base(i)
    };
    let (passes, turns) = (slot("passes"), slot("turns_passed"));
    let mut g = game_from(&v.engine, &LABELS, &[0, 0, 0, 1, 0, 0, 0, 0], [0, 0], 0);
    g.play(turn(&g, "D")).unwrap();
    assert_eq!(g.position().to_move, Some(0), "into the store: again");
    g.play(turn(&g, "pass")).unwrap();
    let at = |g: &sow::Game| (g.position().vars[passes], g.position().vars[turns]);
    assert_eq!(at(&g), (1, 0), "a pass ending a turn that sowed");
    g.play(turn(&g, "pass")).unwrap();
    assert_eq!(at(&g), (2, 1), "North's whole turn passed");
    assert!(g.outcome().is_none());
    g.play(turn(&g, "pass")).unwrap();
    let o = g.outcome().expect("every player's last turn a pass");
    assert_eq!(&*o.reason, "all_passed");
}

/// `along(PLACE, N)`: the place N steps on along the mover's track as it
/// is listed (back, when N is negative), every place counted, those a
/// `skip when` passes over too (where `next` and `prev` pass over them),
/// N judged on the position.
#[test]
fn along_counts_every_place_of_the_track() {
    // b is never sown into; it holds three.
    let start = [0, 0, 0, 2, 0, 3, 0, 0];
    let n = LABELS.len();
    for (rule, taken) in [
        // D's two seeds go to a and, past b, to c: two places on from D
        // as the track is listed is b.
        ("along(origin, before(seeds(origin)))", 3),
        // one place back from c is b (where `prev(last)` is a)
        ("along(last, -1)", 3),
        ("prev(last)", 1),
        // round the ring: nine places on from c is d, empty
        ("along(last, 9)", 0),
    ] {
        let v = variant(&board(
            "skip when here == b",
            &format!("rule take at land {{\n  capture {rule} to store(mover)\n}}"),
        ));
        let mut g = game_from(&v.engine, &LABELS, &start, [0, 0], 0);
        g.play(turn(&g, "D")).unwrap();
        assert_eq!(g.position().cells[n], taken, "{rule}");
    }
}
