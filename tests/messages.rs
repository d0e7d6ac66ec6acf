//! Messages that misled (a new user's trial and a design review): each now
//! says what is wrong, or the input is accepted as a user would expect.

use crate::common;

use std::process::Command;

use sow::Variant;

fn kalah() -> String {
    sow::variants::source("kalah").unwrap().to_string()
}

struct Run {
    code: i32,
    stderr: String,
}

fn sow(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code().expect("an exit code"),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `variant at-home` (a reserved word and `-`) and `variant kalah-3` (a
/// digit after `-`) were refused as syntax errors. A `-` joins letters and
/// digits into one word; a subtraction written without spaces gets a hint.
#[test]
fn names_with_a_hyphen_before_a_digit_or_after_a_reserved_word_are_names() {
    for name in ["at-home", "kalah-3", "when-in-doubt", "in-4"] {
        let text = kalah().replace("variant kalah", &format!("variant {name}"));
        let v = Variant::from_source("named.sow", &text)
            .unwrap_or_else(|e| panic!("{name}: {}", e.render()));
        assert_eq!(v.name(), name);
    }
    let text = kalah().replace(
        "end empty_row when",
        "end early when seeds(A) > total-1\nend empty_row when",
    );
    let Err(e) = Variant::from_source("minus.sow", &text) else {
        panic!("`total-1` is a name");
    };
    let shown = e.render();
    assert!(shown.contains("a subtraction has spaces"), "{shown}");
}

/// The values of a variable named like the players (`var held per pit:
/// south north`) could not be compared with `mover`, and the message
/// said a variable cannot be compared with a player. Such a variable
/// compares with a player, and is set to one.
#[test]
fn a_variable_valued_by_player_names_compares_with_players() {
    let text = kalah()
        .replace(
            "rule extra_turn",
            "var held per pit: south north\nrule mine at lift when held(here) != mover {\n  set held(here) = mover\n}\nrule extra_turn",
        )
        .replace(
            "end empty_row when",
            "end all_north when count(board, held(here) == north) == 12 or count(side(north), held(here) == owner(here)) == 6\nend empty_row when",
        );
    let v = Variant::from_source("held.sow", &text).unwrap_or_else(|e| panic!("{}", e.render()));
    let mut g = sow::Game::new(v.engine.clone()).unwrap();
    // South lifts B: held(B) stays south (the first value, where it
    // starts); North lifts a: held(a) becomes north.
    g.play(common::turn(&g, "B")).unwrap();
    g.play(common::turn(&g, "a")).unwrap();
    let base = v.engine.var_base(0);
    let cell = |l: &str| common::cell(&v.engine, l);
    assert_eq!(g.position().vars[base + cell("B")], 0, "south");
    assert_eq!(g.position().vars[base + cell("a")], 1, "north");
    // A variable whose values are not the players' names says so.
    let text = kalah().replace(
        "rule extra_turn",
        "var mark per pit: clear marked\nrule m at lift when mark(here) == mover {\n  stop\n}\nrule extra_turn",
    );
    let Err(e) = Variant::from_source("mark.sow", &text) else {
        panic!("`mark` holds no player");
    };
    let shown = e.render();
    assert!(
        shown.contains("values are not the players' names"),
        "{shown}"
    );
}

/// `players solo` opened with "the file declares no players". A
/// solitaire is a game now: a two-player file turned into one is told
/// which player there is, and nothing about a missing declaration.
#[test]
fn one_player_is_reported_where_it_is_named() {
    let text = kalah().replace("players south north", "players solo");
    let Err(e) = Variant::from_source("solo.sow", &text) else {
        panic!("rows of players not declared are refused");
    };
    let shown = e.render();
    assert!(shown.contains("`north` is not a player"), "{shown}");
    assert!(shown.contains("the only player is `solo`"), "{shown}");
    assert!(!shown.contains("declares no players"), "{shown}");
}

/// An unknown `--option` and a malformed one exited 1 (an input error)
/// instead of 2 (a usage error).
#[test]
fn a_bad_option_is_a_usage_error() {
    for args in [
        vec!["play", "oware-abapa", "--option", "no_such=1"],
        vec!["play", "oware-abapa", "--option", "grand_slam"],
        vec!["play", "oware-abapa", "--option", "grand_slam=sometimes"],
        vec!["moves", "kalah", "--option", "x=y"],
        vec!["perft", "oware-abapa", "1", "--option", "=forbidden"],
    ] {
        let r = sow(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(!r.stderr.is_empty());
    }
    // A good one, and an illegal move, are not usage errors.
    assert_eq!(
        sow(&["play", "oware-abapa", "--option", "grand_slam=forbidden"]).code,
        0
    );
    assert_eq!(sow(&["play", "oware-abapa", "--moves", "a"]).code, 1);
}

/// A move string beginning with `-` was read as a flag of the command.
#[test]
fn a_move_string_may_begin_with_a_hyphen() {
    let r = sow(&["play", "kalah", "--moves", "-A"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("`-A` is not a turn of kalah"),
        "{}",
        r.stderr
    );
}

/// A test whose oracle file is missing says which file and where it looked,
/// not a bare "No such file or directory".
#[test]
fn missing_oracle_data_is_named() {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracles");
    let e = common::oracle_in(&here, "no/such.json").unwrap_err();
    assert!(e.contains("no/such.json is missing"), "{e}");
    assert!(e.contains("tests/oracles"), "{e}");
}
