//! Playing at the seats (`sow play` without `--moves`): a person's turns on
//! standard input, one a line, with `undo`, `hint`, `save FILE` and
//! `quit`; the computer players (`src/play/ai/`) answering, reproducibly from a
//! seed, in every shipped variant.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;

use common::bin::Run;
use rayon::prelude::*;
use sow::ai::{self, Seat};
use sow::Game;

/// `sow ARGS` with `input` on standard input.
fn sow(args: &[&str], input: &str) -> Run {
    common::bin::sow_with(args, input)
}

fn last_line(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout.lines().last().expect("a line")).unwrap()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sow-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A whole game of Kalah against each computer player: the test is South,
/// reading each position sow prints and typing the first legal turn when it
/// is South's move; the game ends with a result.
#[test]
fn a_person_plays_a_whole_game_against_each_computer() {
    let v = common::shipped("kalah");
    for computer in ["random", "mcts", "minimax"] {
        let mut child = common::bin::spawn(&[
            "play", "kalah", "--north", computer, "--level", "1", "--seed", "3", "--format", "json",
        ]);
        let mut typed = child.stdin.take().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut plies = 0;
        let outcome = loop {
            let line: serde_json::Value =
                serde_json::from_str(&lines.next().expect("a line for each ply").unwrap()).unwrap();
            if !line["outcome"].is_null() {
                break line["outcome"].clone();
            }
            let position = &line["position"];
            if position["to_move"] == "south" {
                let game = sow::json::read_position(&v, &position.to_string()).unwrap();
                let first = sow::notation::write_turn(&game, game.legal_turns()[0]);
                writeln!(typed, "{first}").unwrap();
            }
            plies += 1;
            assert!(plies < 500, "{computer}: the game goes on");
        };
        drop(typed);
        assert!(child.wait().unwrap().success(), "{computer}");
        assert!(outcome["reason"].is_string(), "{computer}: {outcome}");
    }
}

/// `undo` takes back the last turn (and a computer's reply to it); at the
/// start there is nothing to undo; `hint` names a turn.
#[test]
fn undo_takes_a_turn_back() {
    let r = sow(
        &["play", "kalah", "--format", "json"],
        "undo\nhint\nA\nundo\nB\n",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("nothing to undo"), "{}", r.stderr);
    assert!(
        r.stderr.contains("hint: "),
        "a hint names a turn: {}",
        r.stderr
    );
    let straight = sow(&["play", "kalah", "--moves", "B", "--format", "json"], "");
    assert_eq!(
        last_line(&r.stdout)["position"],
        last_line(&straight.stdout)["position"]
    );
    // Against a computer, the person's turn and the reply both go.
    let r = sow(
        &[
            "play",
            "oware-abapa",
            "--north",
            "random",
            "--seed",
            "1",
            "--format",
            "json",
        ],
        "C\nundo\nD\n",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Start, C, the reply, D, the reply: D was played from the start.
    assert_eq!(lines.len(), 5, "{}", r.stdout);
    assert_eq!(lines[3]["ply"], 1);
    assert_eq!(lines[3]["move"], "D");
}

/// `save FILE` writes the position; `--from FILE` resumes it.
#[test]
fn save_writes_a_position_that_resumes() {
    let file = temp("saved.json");
    let file = file.to_str().unwrap();
    let r = sow(
        &["play", "kalah", "--format", "json"],
        &format!("A\nb\nsave {file}\nquit\nB\n"),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("saved to"), "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 3, "quit stops before B");
    let resumed = sow(
        &[
            "play", "kalah", "--from", file, "--moves", "C", "--format", "json",
        ],
        "",
    );
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    let straight = sow(
        &["play", "kalah", "--moves", "A b C", "--format", "json"],
        "",
    );
    assert_eq!(
        last_line(&resumed.stdout)["position"],
        last_line(&straight.stdout)["position"]
    );
}

/// A turn that is not legal is refused with the message `--moves` gives,
/// and (not a terminal) ends the game with exit 1, the plies before kept.
#[test]
fn a_bad_turn_is_refused_with_its_message() {
    let r = sow(&["play", "kalah"], "A\nZ\n");
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("ply 1: A"), "{}", r.stdout);
    let moves = sow(&["play", "kalah", "--moves", "Z"], "");
    let message = |s: &str| s.lines().find(|l| l.contains('×')).map(str::to_string);
    assert!(message(&r.stderr).is_some(), "{}", r.stderr);
    assert_eq!(message(&r.stderr), message(&moves.stderr));
}

/// Two computers play a whole game, the same one from the same seed.
#[test]
fn computers_play_each_other_reproducibly() {
    let args = [
        "play",
        "oware-abapa",
        "--south",
        "mcts",
        "--north",
        "minimax",
        "--level",
        "1",
        "--seed",
        "7",
        "--format",
        "json",
    ];
    let a = sow(&args, "");
    let b = sow(&args, "");
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(a.stdout, b.stdout);
    assert!(
        !last_line(&a.stdout)["outcome"].is_null(),
        "the game is played to its end"
    );
}

/// Each computer player chooses a legal turn in every shipped variant, the
/// same from the same seed.
#[test]
fn the_computers_play_every_shipped_variant() {
    // Each variant on its own: spread over the cores (this is the longest
    // test of its file, and would otherwise hold one core alone).
    sow::variants::SHIPPED.par_iter().for_each(|(name, _)| {
        let v = common::shipped(name);
        for seat in [Seat::Random, Seat::Mcts, Seat::Minimax] {
            let mut game = Game::new(v.engine.clone()).unwrap();
            let mut again = game.clone();
            let mut a = ai::computer(seat, 1, 5).unwrap();
            let mut b = ai::computer(seat, 1, 5).unwrap();
            for _ in 0..6 {
                if game.outcome().is_some() {
                    break;
                }
                let t = a.choose(&game).unwrap();
                assert!(game.legal_turns().contains(&t), "{name} {seat:?}");
                assert_eq!(
                    b.choose(&again).unwrap(),
                    t,
                    "{name} {seat:?}: the same seed"
                );
                game.play(t).unwrap();
                again.play(t).unwrap();
            }
        }
    });
}

/// `--record` writes a game a person can read (a header saying what was
/// played, by whom, when, how it ended and by which sow; a move a line
/// with its number and player) that `--from-record` replays to the same
/// end; a person's undone turn is not in it.
#[test]
fn a_record_replays_the_game_it_records() {
    let file = temp("game.rec");
    let file = file.to_str().unwrap();
    let r = sow(
        &[
            "play", "dakon", "--south", "mcts", "--north", "random", "--level", "1", "--seed", "3",
            "--record", file, "--format", "json",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(file).unwrap();
    let end = last_line(&r.stdout);
    for line in [
        "variant = \"dakon\"",
        "title = \"Dakon\"",
        "players = { south = \"mcts\", north = \"random\" }",
        "level = 1",
        "seed = 3",
        &format!("sow = \"{}\"", env!("CARGO_PKG_VERSION")),
        "moves = '''",
        "1. south ",
    ] {
        assert!(text.contains(line), "no `{line}` in\n{text}");
    }
    assert!(text.contains("\ndate = \"20"), "{text}");
    let winner = end["outcome"]["winner"].as_str().unwrap();
    assert!(
        text.contains(&format!("result = \"{winner} wins")),
        "{text}"
    );
    let plies = r.stdout.lines().count() - 1;
    assert!(text.contains(&format!("plies = {plies}\n")), "{text}");
    assert!(text.contains(&format!("\n{plies}. ")), "{text}");
    let replayed = sow(&["play", "--from-record", file, "--format", "json"], "");
    assert_eq!(replayed.code, 0, "{}", replayed.stderr);
    assert_eq!(replayed.stdout, r.stdout, "the same plies, the same end");
    // The same record with Windows line breaks.
    std::fs::write(file, text.replace('\n', "\r\n")).unwrap();
    let crlf = sow(&["play", "--from-record", file, "--format", "json"], "");
    assert_eq!(crlf.code, 0, "{}", crlf.stderr);
    assert_eq!(crlf.stdout, r.stdout, "CRLF");

    // A person's game, a turn undone: the record has the turns that stand.
    let r = sow(
        &["play", "kalah", "--record", file, "--format", "json"],
        "A\nundo\nB\nc\nquit\n",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains("result = \"unfinished\""), "{text}");
    assert!(
        text.contains("moves = '''\n1. south B\n2. north c\n'''"),
        "{text}"
    );
}

/// Issue 42, item 9: a record written with a seed past 2^63 - 1 (TOML's
/// largest whole number) could not be read back. It is written in quotes,
/// and read back to the same game.
#[test]
fn a_record_of_any_seed_reads_back() {
    let file = temp("seed.rec");
    let file = file.to_str().unwrap();
    let r = sow(
        &[
            "play",
            "kalah",
            "--south",
            "random",
            "--north",
            "random",
            "--seed",
            "18446744073709551615",
            "--record",
            file,
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains("seed = \"18446744073709551615\"\n"), "{text}");
    let replayed = sow(&["play", "--from-record", file, "--format", "json"], "");
    assert_eq!(replayed.code, 0, "{}", replayed.stderr);
    assert_eq!(replayed.stdout, r.stdout);
    for (seed, ok) in [
        ("9223372036854775807", true),
        ("\"12\"", true),
        ("-1", false),
        ("\"x\"", false),
        // (Written as digits only: a sign is not what the writer writes.)
        ("\"+12\"", false),
    ] {
        let edited = text.replace("seed = \"18446744073709551615\"", &format!("seed = {seed}"));
        std::fs::write(file, edited).unwrap();
        let r = sow(&["play", "--from-record", file, "--format", "json"], "");
        assert_eq!(r.code == 0, ok, "seed = {seed}: {}", r.stderr);
        if !ok {
            assert!(r.stderr.contains("is not a seed"), "{}", r.stderr);
        }
    }
}

/// A record whose move is not legal, or is given to the wrong player, is
/// refused with the record's line and a caret under the move.
#[test]
fn a_bad_record_is_refused_where_it_is_wrong() {
    let file = temp("bad.rec");
    let file = file.to_str().unwrap();
    std::fs::write(
        file,
        "variant = \"kalah\"\nmoves = '''\n1. south C\n2. south Z\n'''\n",
    )
    .unwrap();
    let r = sow(&["play", "--from-record", file], "");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains(":4:10"),
        "line 4, column 10:\n{}",
        r.stderr
    );
    std::fs::write(
        file,
        "variant = \"kalah\"\nmoves = '''\n1. south A\n2. south b\n'''\n",
    )
    .unwrap();
    let r = sow(&["play", "--from-record", file], "");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("move 2 is south's, but north is to move"),
        "{}",
        r.stderr
    );
    std::fs::write(file, "variant = \"kalah\"\nmoves = '''\nC C\n'''\n").unwrap();
    let r = sow(&["play", "--from-record", file], "");
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("not a move line"), "{}", r.stderr);
    let r = sow(&["play", "kalah", "--from-record", file], "");
    assert_eq!(r.code, 2, "a variant besides a record: {}", r.stderr);
}

/// A variant's `estimate` is what `minimax` weighs positions by (its
/// `score` where it gives none): Kalah told that its own store is bad
/// plays otherwise from the start, and the engine's estimate is the
/// expression's value for each player.
#[test]
fn minimax_weighs_positions_by_the_variant_estimate() {
    let kalah = common::shipped("kalah");
    let src = "variant kalah-backwards\nextends kalah\nestimate 0 - seeds(store(player))\n";
    let backwards = sow::Variant::from_source("kalah-backwards.sow", src).expect("checks");
    let mut game = Game::new(backwards.engine.clone()).unwrap();
    game.play(game.legal_turns()[2]).unwrap(); // C: 4 seeds, the last in the store
    assert_eq!(backwards.engine.estimates(game.position()), [-1, 0]);
    assert_eq!(backwards.engine.scores(game.position()), [24, 24]);
    let choose = |v: &sow::Variant| {
        let game = Game::new(v.engine.clone()).unwrap();
        let mut ab = ai::computer(Seat::Minimax, 1, 0).unwrap();
        sow::notation::write_turn(&game, ab.choose(&game).unwrap())
    };
    // Kalah's own minimax sows into its store (C, the extra turn); told
    // that its store is bad, it keeps seeds out of it.
    assert_eq!(choose(&kalah), "C");
    assert_ne!(choose(&backwards), "C");
    // One expression, as for `score`.
    let bad = "variant k2\nextends kalah\nestimate 1 2\n";
    let Err(err) = sow::Variant::from_source("k2.sow", bad) else {
        panic!("two expressions refused");
    };
    assert!(
        format!("{err:?}").contains("`estimate` takes one expression"),
        "{err:?}"
    );
}

/// `help` at the prompt lists what may be typed; a bare `save` says that
/// a file name is missing (and, not at a terminal, ends the session with
/// an error, as any refused line does).
#[test]
fn help_and_a_bare_save_at_the_prompt() {
    let r = sow(&["play", "kalah"], "help\nA\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    for word in ["undo", "hint", "save FILE", "help", "quit"] {
        assert!(r.stderr.contains(word), "{word}: {}", r.stderr);
    }
    assert!(r.stdout.contains("ply 1: A"), "{}", r.stdout);
    let r = sow(&["play", "kalah"], "save\nA\n");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("`save` needs a file name: save FILE"),
        "{}",
        r.stderr
    );
    assert!(!r.stdout.contains("ply 1"), "{}", r.stdout);
}

/// The board keeps its width from ply to ply: a count growing a digit, or
/// a mark appearing, does not shift the columns.
#[test]
fn the_board_keeps_its_width_from_ply_to_ply() {
    for variant in ["kalah", "bao-la-kiswahili"] {
        let r = sow(
            &[
                "play",
                variant,
                "--south",
                "random",
                "--north",
                "random",
                "--seed",
                "1",
                "--max-plies",
                "30",
            ],
            "",
        );
        assert_eq!(r.code, 0, "{variant}: {}", r.stderr);
        // Each board's widest line (the status line aside).
        let widths: Vec<usize> = r
            .stdout
            .split("\n\n")
            .map(|board| {
                board
                    .lines()
                    .filter(|l| !l.contains(" · ") && !l.starts_with("ply") && *l != "start")
                    .map(|l| l.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .filter(|&w| w > 0)
            .collect();
        assert!(widths.len() > 3, "{variant}: {widths:?}");
        assert!(
            widths.windows(2).all(|w| w[0] == w[1]),
            "{variant}: {widths:?}"
        );
    }
}

/// `perfect` plays the solver's best turn: two perfect players end a game
/// of Kalah(3,3) with the margin the solver gives its start (south wins by
/// 2), and a perfect South never does worse against any other player; a
/// variant it cannot play is refused before the game, with the reason.
#[test]
fn a_perfect_player_keeps_the_value_of_the_start() {
    let kalah = ["kalah", "--option", "holes=3", "--option", "pit_seeds=3"];
    let margin = |stdout: &str| {
        let end = last_line(stdout);
        let scores = &end["outcome"]["scores"];
        scores["south"].as_i64().unwrap() - scores["north"].as_i64().unwrap()
    };
    let both = [
        &["play"][..],
        &kalah,
        &[
            "--south", "perfect", "--north", "perfect", "--format", "json",
        ],
    ]
    .concat();
    let r = sow(&both, "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(margin(&r.stdout), 2, "{}", r.stdout);
    for (north, seed) in [
        ("random", "1"),
        ("random", "2"),
        ("mcts", "3"),
        ("minimax", "4"),
    ] {
        let args = [
            &["play"][..],
            &kalah,
            &[
                "--south", "perfect", "--north", north, "--level", "1", "--seed", seed, "--format",
                "json",
            ],
        ]
        .concat();
        let r = sow(&args, "");
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(margin(&r.stdout) >= 2, "against {north}: {}", r.stdout);
    }
    let r = sow(&["play", "oware-abapa", "--north", "perfect"], "");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("`perfect` cannot play this variant: it cannot be solved: its rule on repeated positions"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.is_empty(), "refused before the game: {}", r.stdout);
}
