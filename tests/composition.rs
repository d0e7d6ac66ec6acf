//! Building on a variant changes exactly what the file says: one line of a
//! block, a rule in its place, a name of its own.

use crate::common;

use common::*;
use sow::{Game, Variant};

fn derived(text: &str) -> Variant {
    Variant::from_source("derived.sow", text).unwrap_or_else(|e| panic!("{}", e.render()))
}

#[test]
fn one_line_of_a_block_is_replaced_or_removed() {
    // Oware with five seeds a pit: two lines of `setup` replaced.
    let five = derived(
        "variant oware-five\nextends oware-abapa\nreplace setup seeds 5\nreplace setup total 60\n",
    );
    let g = Game::new(five.engine.clone()).unwrap();
    assert_eq!(counts(&g, &["A", "F", "a", "f"]), [5, 5, 5, 5]);
    assert_eq!(g.position().total(), 60);
    assert_eq!(five.name(), "oware-five");
    // The rest of abapa is untouched.
    let abapa = shipped("oware-abapa");
    assert_eq!(five.engine.rules.rules, abapa.engine.rules.rules);

    // `remove sow skip`: a lap of 12 seeds or more no longer skips the origin.
    let labels = ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"];
    let seeds = [12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    let lap = |v: &Variant| {
        let mut g = game_from(&v.engine, &labels, &seeds, [0, 0], 0);
        g.play(turn(&g, "A")).unwrap();
        counts(&g, &["A", "B"])
    };
    assert_eq!(lap(&abapa), [0, 2], "abapa skips A and sows on into B");
    let no_skip = derived("variant no-skip\nextends oware-abapa\nremove sow skip\n");
    assert_eq!(
        lap(&no_skip),
        [1, 1],
        "without the skip, the 12th seed falls into A"
    );
}

#[test]
fn a_line_is_added_to_a_block() {
    // Oware with six seeds in each player's first pit: one `setup` line added.
    let v = derived(
        "variant heavy-a\nextends oware-abapa\nadd setup seeds 6: A a\nreplace setup total 52\n",
    );
    let g = Game::new(v.engine.clone()).unwrap();
    assert_eq!(counts(&g, &["A", "B", "a", "b"]), [6, 4, 6, 4]);
    assert_eq!(g.position().total(), 52);
    // The rest of the setup is the base's.
    let abapa = shipped("oware-abapa");
    assert_eq!(v.engine.rules.rules, abapa.engine.rules.rules);
}

#[test]
fn a_replaced_rule_keeps_its_place() {
    // Bao's land rules are judged in order: replacing the takasia stop
    // (the first) keeps it first, so it still decides before the relays.
    let v = derived(
        "variant kept\nextends bao-la-kiswahili\n\
         replace rule takasia_stop at land when takasia(last) == yes and seeds(last) > 0 {\n  stop\n}\n",
    );
    let names = |v: &Variant| -> Vec<String> {
        v.engine
            .rules
            .rules
            .iter()
            .map(|r| r.name.clone())
            .collect()
    };
    let (names, base_names) = (names(&v), names(&shipped("bao-la-kiswahili")));
    assert_eq!(names, base_names);
}

#[test]
fn lines_of_a_block_sharing_a_word_are_changed_one_each() {
    // North's two rows are two changes, not one made twice.
    let v = derived(
        "variant rows\nextends bao-la-kiswahili\n\
         replace board row north outer: b8 b7 b6 b5 b4 b3 b2 b1\n\
         replace board row north inner: a8 a7 a6 a5 a4 a3 a2 a1\n",
    );
    let base = shipped("bao-la-kiswahili");
    assert_eq!(v.engine.rules.rows, base.engine.rules.rows);
}
