//! The language's primitives, each played as its words say: a test a
//! primitive fails if the engine leaves it out or reads it otherwise.
//! (Their misuse is in `tests/invalid/`, with the diagnostics snapshotted.)

mod common;

use common::*;
use sow::Variant;

fn variant(text: &str) -> Variant {
    Variant::from_source("primitive.sow", text).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// A small two-row board with stores, sowing forward round both rows;
/// `sowing` in the `sow` block and `rules` added.
fn board(sowing: &str, rules: &str) -> String {
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
  require owner(origin) == mover and seeds(origin) > 0
}}
{rules}
end done when seeds(side(mover)) == 0
"
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
