//! The language is not tied to the shipped games: test-only variants with
//! other boards, labels, directions and capture rules play as written.

use crate::common;

use common::*;
use sow::{Game, Variant};

fn variant(file: &str) -> Variant {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/variants")
        .join(file);
    let src = std::fs::read_to_string(&path).unwrap();
    Variant::from_source(file, &src).unwrap()
}

const FOURS: [&str; 10] = ["p1", "p2", "p3", "p4", "p5", "q1", "q2", "q3", "q4", "q5"];

#[test]
fn clockwise_fours_sows_clockwise_through_its_own_store() {
    let v = variant("clockwise-fours.sow");
    let mut game = Game::new(v.engine.clone()).unwrap();
    // Top moves first; q2's 4 seeds go q3 q4 q5 and top's store.
    game.play(turn(&game, "q2")).unwrap();
    assert_eq!(counts(&game, &FOURS), [4, 4, 4, 4, 4, 4, 0, 5, 5, 5]);
    let n = v.engine.rules.pits.len();
    assert_eq!(game.position().cells[n + 1], 1, "top's store");
    // The last seed fell in top's store: top moves again.
    assert_eq!(game.position().to_move, Some(1));
    // q5's 5 seeds: top's store, then past bottom's store? No: bottom's
    // store is the opponent's and is skipped. p5 p4 p3 p2.
    game.play(turn(&game, "q5")).unwrap();
    assert_eq!(counts(&game, &FOURS), [4, 5, 5, 5, 5, 4, 0, 5, 5, 0]);
    assert_eq!(game.position().cells[n + 1], 2);
    assert_eq!(game.position().to_move, Some(0));
}

#[test]
fn clockwise_fours_captures_exactly_four_and_the_run_before() {
    let v = variant("clockwise-fours.sow");
    let n = v.engine.rules.pits.len();
    // Bottom sows p1's 3 seeds: its own store, q1, q2. q2 and q1 become 4:
    // q2 is taken, then q1 before it; the store stops the run.
    let mut g = game_from(
        &v.engine,
        &FOURS,
        &[3, 0, 0, 0, 1, 3, 3, 0, 0, 1],
        [0, 0],
        0,
    );
    g.play(turn(&g, "p1")).unwrap();
    assert_eq!(counts(&g, &FOURS), [0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    assert_eq!(g.position().cells[n], 9, "1 sown and 8 captured");
    // With q1 at 2 (it becomes 3) the run stops: only q2 is taken.
    let mut g = game_from(
        &v.engine,
        &FOURS,
        &[3, 0, 0, 0, 1, 2, 3, 0, 0, 1],
        [0, 0],
        0,
    );
    g.play(turn(&g, "p1")).unwrap();
    assert_eq!(counts(&g, &FOURS), [0, 0, 0, 0, 1, 3, 0, 0, 0, 1]);
    assert_eq!(g.position().cells[n], 5);
    // Five is not four: nothing is taken.
    let mut g = game_from(
        &v.engine,
        &FOURS,
        &[3, 0, 0, 0, 1, 3, 4, 0, 0, 1],
        [0, 0],
        0,
    );
    g.play(turn(&g, "p1")).unwrap();
    assert_eq!(counts(&g, &FOURS), [0, 0, 0, 0, 1, 4, 5, 0, 0, 1]);
    assert_eq!(g.position().cells[n], 1);
}

const RELAY: [&str; 16] = [
    "A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4", "c1", "c2", "c3", "c4", "d1", "d2", "d3", "d4",
];

#[test]
fn two_way_relay_letters_choose_the_direction() {
    let v = variant("two-way-relay.sow");
    let game = Game::new(v.engine.clone()).unwrap();
    // Every pit has 2 seeds; each of South's 8 pits may go left or right,
    // but capturing is compulsory: A2L and A3R (which relay round to an
    // empty pit without capturing) are not legal.
    let legal: Vec<String> = game
        .legal_turns()
        .iter()
        .map(|&t| sow::notation::write_turn(&game, t))
        .collect();
    assert_eq!(legal.len(), 14, "{legal:?}");
    assert!(!legal.contains(&"A2L".to_string()) && !legal.contains(&"A3R".to_string()));
    assert!(v
        .parse_turn(&game, "A2L")
        .unwrap_err()
        .to_string()
        .contains("not a legal turn"));
    // A1R sows A2 A3; the last seed in A3 (occupied) faces c2: c2's two
    // seeds are taken and resown from A1 rightwards: A1, A2. A2 now faces
    // c3 (occupied): taken, resown A1, A2. c3 is then empty: the turn ends.
    let mut g = game.clone();
    g.play(turn(&g, "A1R")).unwrap();
    assert_eq!(
        counts(&g, &RELAY),
        [2, 5, 3, 2, 2, 2, 2, 2, 2, 0, 0, 2, 2, 2, 2, 2]
    );
    // The first capture ends the opening phase: the variable says so.
    let state = sow::json::position(&v, &g);
    assert_eq!(state["state"]["captures"]["south"], "some");
    assert_eq!(state["state"]["phase"], "middle");
    // A1L goes round the end of the row into B1, B2; B2 (occupied, opening
    // phase) is lifted and sown on: B3 B4 A4; A4 faces c1: captured, resown.
    let mut g = game.clone();
    g.play(turn(&g, "A1L")).unwrap();
    assert_eq!(
        counts(&g, &RELAY),
        [2, 4, 2, 3, 3, 0, 3, 3, 0, 2, 0, 2, 2, 2, 2, 2]
    );
    // Without its letter, `A1` is ambiguous; with an annotation it is not.
    assert!(v
        .parse_turn(&game, "A1")
        .unwrap_err()
        .to_string()
        .contains("ambiguous"));
    assert_eq!(v.parse_turn(&game, "A1R*").unwrap(), turn(&game, "A1R"));
}

const OWARE: [&str; 12] = ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"];

/// OpenSpiel's grand-slam position: North's `c` would take every South seed.
fn grand_slam(v: &Variant) -> Game {
    game_from(
        &v.engine,
        &OWARE,
        &[1, 1, 1, 1, 1, 0, 0, 0, 8, 0, 0, 1],
        [0, 0],
        1,
    )
}

/// Oware with its grand-slam rule's action replaced.
fn oware_with(action: &str) -> Variant {
    let src = sow::variants::source("oware-abapa").unwrap();
    let changed = src.replace("  cancel\n", &format!("  {action}\n"));
    assert_ne!(src, changed);
    Variant::from_source("changed.sow", &changed).unwrap()
}

#[test]
fn a_capture_of_everything_can_capture_nothing_be_forbidden_or_take_all() {
    let n = 12;
    // O9 as shipped: the move is played and captures nothing.
    let v = shipped("oware-abapa");
    let mut g = grand_slam(&v);
    g.play(turn(&g, "c")).unwrap();
    assert_eq!(counts(&g, &OWARE), [2, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 2]);
    assert_eq!(g.position().cells[n + 1], 0);
    // Forbidden (Wari's reading): `c` is not a legal turn.
    let v = oware_with("forbid");
    let g = grand_slam(&v);
    assert!(!legal_labels(&g).contains(&"c".to_string()));
    assert_eq!(legal_labels(&g), ["f"]);
    // Take all: the capture takes every seed of South's side.
    let v = oware_with("capture side(opponent)");
    let mut g = grand_slam(&v);
    g.play(turn(&g, "c")).unwrap();
    // 10 of the position's 14 seeds captured: more than half, the game
    // ends (F2) and North's leftover 4 seeds are collected (F3).
    let o = g.outcome().expect("the game is over");
    assert_eq!((&*o.reason, o.scores), ("score_gt_half", [0, 14]));
}

/// Relay on every occupied landing pit, on a 2 × 2 board: some turns come
/// back to where they were and would sow for ever.
const CYCLE: &str =
    "variant cycle\nplayers south north\nboard {\n  row north: b a\n  row south: A B\n}\n\
setup { seeds 2; total 8 }\ntrack: A B a b\n\
rule own at start { require owner(origin) == mover and seeds(origin) > 0 }\n\
rule go at land when seeds(last) > 1 { relay }\nend stuck when no_legal_turn\n";

/// An independent sowing of this variant's turn: true if it ends within
/// `limit` sowings, false if it meets a state it was in before.
fn ends_by_hand(board: [u32; 4], start: usize) -> bool {
    let mut cells = board;
    let mut seen = std::collections::HashSet::new();
    let mut from = start;
    loop {
        if !seen.insert((cells, from)) {
            return false;
        }
        let mut seeds = std::mem::take(&mut cells[from]);
        let mut at = from;
        while seeds > 0 {
            at = (at + 1) % 4;
            cells[at] += 1;
            seeds -= 1;
        }
        if cells[at] <= 1 {
            return true;
        }
        from = at;
    }
}

#[test]
fn turns_that_never_end_are_found_exactly_and_left_out() {
    let v = Variant::from_source("cycle.sow", CYCLE).unwrap();
    // Track order A B a b, as the hand sowing numbers them.
    let order = ["A", "B", "a", "b"];
    let mut found = 0;
    for seed in 0..200u64 {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(v.engine.clone()).unwrap();
        while game.outcome().is_none() {
            let board: Vec<u32> = counts(&game, &order);
            let board = [board[0], board[1], board[2], board[3]];
            let mover = game.position().to_move.unwrap();
            let own: &[usize] = if mover == 0 { &[0, 1] } else { &[2, 3] };
            for &i in own {
                if board[i] == 0 {
                    continue;
                }
                let t =
                    sow::Turn::from_pit(cell(game.engine(), order[i]) as u16, sow::Turn::NO_LETTER);
                let finite = ends_by_hand(board, i);
                // Legal exactly when the hand sowing ends; left out otherwise.
                assert_eq!(
                    game.legal_turns().contains(&t),
                    finite,
                    "{board:?} from {}",
                    order[i]
                );
                assert_eq!(game.endless_turns().contains(&t), !finite);
                if !finite {
                    found += 1;
                    let err = v.parse_turn(&game, order[i]).unwrap_err().to_string();
                    assert!(err.contains("would never end"), "{err}");
                }
            }
            let legal = game.legal_turns();
            if legal.is_empty() {
                break;
            }
            let t = legal[rng.gen_range(0..legal.len())];
            game.play(t).unwrap();
        }
    }
    assert!(found > 0, "no turn that never ends came up");
}
