//! Untrusted input never breaks sow: each input here once made it panic,
//! overflow its stack, hang, or fill the memory (found by fuzzing and a
//! design review). Each now gets a clear error or a result, quickly, and
//! what it prints stays small. The limits are those of `src/limits.rs`.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sow::limits;

/// What the binary did.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary, killing it after `secs` seconds (a failure: the input
/// made it hang).
fn sow(args: &[&str], secs: u64) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let start = Instant::now();
    // Read the pipes as the child writes, so that a large output cannot
    // stall it (and at most 64 MiB of each is kept).
    fn reader(r: impl std::io::Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = std::io::copy(&mut r.take(64 << 20), &mut v);
            v
        })
    }
    let o = reader(child.stdout.take().unwrap());
    let e = reader(child.stderr.take().unwrap());
    let status = loop {
        if let Some(s) = child.try_wait().expect("waits") {
            break s;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            panic!("sow {args:?} ran for more than {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let run = Run {
        code: status.code().expect("an exit code, not a signal (a crash)"),
        stdout: String::from_utf8_lossy(&o.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&e.join().unwrap()).into_owned(),
    };
    assert!(
        !run.stderr.contains("panicked") && !run.stderr.contains("overflow"),
        "sow {args:?} crashed:\n{}",
        &run.stderr[..run.stderr.len().min(2000)]
    );
    run
}

/// A file in a folder of this test run.
fn temp(name: &str, text: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("sow-inputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(name);
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text)
        .unwrap();
    path.display().to_string()
}

fn kalah() -> String {
    sow::variants::source("kalah").unwrap().to_string()
}

/// The `help:` and `×` lines of a rendering, and its size: what a reader
/// sees, without the long lines themselves.
fn small(out: &str, limit: usize) {
    assert!(out.len() < limit, "{} bytes printed", out.len());
}

/// Fuzzing: a caret past column 65,535 of a line made miette panic, in a
/// variant file, a position, a script and `--moves`. Each is drawn as a
/// window of the line, with the true line and column.
#[test]
fn a_caret_past_column_65535_is_drawn_in_every_kind_of_input() {
    let far = " ".repeat(70_000);
    let file = temp(
        "far.sow",
        kalah()
            .replace("track: A B", &format!("track: A{far}Q B"))
            .as_bytes(),
    );
    let r = sow(&["check", &file], 60);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("far.sow:23:70009]"),
        "{}",
        &r.stderr[..500.min(r.stderr.len())]
    );
    assert!(r.stderr.contains("no pit is labelled `Q`"));
    small(&r.stderr, 4000);

    let moves = format!("{far}Z");
    let r = sow(&["play", "kalah", "--moves", &moves], 60);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("--moves:1:70001]"), "{}", r.stderr);
    small(&r.stderr, 4000);

    let position = format!("{{\"to_move\": \"south\", \"pits\": {{}}{far}, \"x\": 1}}");
    let pos = temp("far.json", position.as_bytes());
    let r = sow(&["play", "kalah", "--from", &pos], 60);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("far.json:1:"), "{}", r.stderr);
    small(&r.stderr, 4000);

    let script = temp(
        "far.toml",
        format!("variant = \"kalah\"\nmoves = \"{far}Z\"\n").as_bytes(),
    );
    let r = sow(&["run", &script], 60);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("far.toml:2:70010]"), "{}", r.stderr);
    small(&r.stderr, 4000);
}

/// Fuzzing: the text board padded cells with the formatter, whose width
/// is at most 65,535: a pit drawn wider than that (its marks, here)
/// panicked. Labels and names are also limited now (`limits::MAX_NAME`).
#[test]
fn the_board_draws_a_row_wider_than_65535_columns() {
    let marks: String = (0..2100)
        .map(|_| format!("  mark \"{}\" when true\n", "m".repeat(32)))
        .collect();
    let text = kalah().replace(
        "  store south right\n",
        &format!("  store south right\n{marks}"),
    );
    let v =
        sow::Variant::from_source("wide.sow", &text).unwrap_or_else(|e| panic!("{}", e.render()));
    let game = sow::Game::new(v.engine.clone()).unwrap();
    let board = sow::render::board(&v, &game);
    assert!(board.lines().any(|l| l.chars().count() > 65_535 * 6));

    let long = "x".repeat(limits::MAX_NAME + 1);
    let text = kalah().replace(
        "row south: A B C D E F",
        &format!("row south: A B C D E {long}"),
    );
    let e = sow::Variant::from_source("long.sow", &text).unwrap_err();
    assert!(
        e.render().contains("a pit label is at most 32 characters"),
        "{}",
        e.render()
    );
    let text = kalah().replace("players south north", &format!("players south {long}"));
    let e = sow::Variant::from_source("long.sow", &text).unwrap_err();
    assert!(
        e.render().contains("too long for a player's name"),
        "{}",
        e.render()
    );
}

/// Fuzzing: in a script, a multi-line `moves` string with a line-ending
/// backslash before a multi-byte character sliced the script inside that
/// character.
#[test]
fn a_script_move_across_an_escaped_line_end_is_reported() {
    let script = temp(
        "escaped.toml",
        "variant = \"kalah\"\nmoves = \"\"\"é\\\n  ab c\"\"\"\n".as_bytes(),
    );
    let r = sow(&["run", &script], 60);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("`éab` is not a turn of kalah"),
        "{}",
        r.stderr
    );
}

/// Fuzzing: a comment ended by a carriage return alone (a line end to
/// the grammar) hid the brackets after it from the depth check, and the
/// parser recursed into them until the stack overflowed.
#[test]
fn nesting_after_a_comment_ended_by_a_carriage_return_is_refused() {
    let deep = format!("{}1{}", "(".repeat(50_000), ")".repeat(50_000));
    for text in [
        format!("{}\n# a comment\r let x = {deep}\n", kalah()),
        format!("{}\nlet y = \"a string\rlet x = {deep}\n", kalah()),
    ] {
        let e = sow::Variant::from_source("deep.sow", &text).unwrap_err();
        let shown = e.render();
        assert!(
            shown.contains("nested more than 64 deep"),
            "{}",
            &shown[..shown.len().min(800)]
        );
        small(&shown, 4000);
    }
}

/// Fuzzing: a chain of definitions each using the last (1,800 of them
/// overflowed the stack) is refused past `limits::MAX_EXPANDED_DEPTH`.
#[test]
fn a_long_chain_of_definitions_is_refused() {
    let mut text = kalah();
    text.push_str("let d0 = seeds(A)\n");
    for i in 1..3000 {
        text.push_str(&format!("let d{i} = d{} + 1\n", i - 1));
    }
    text.push_str("end deep when d2999 > 0\n");
    let e = sow::Variant::from_source("chain.sow", &text).unwrap_err();
    let shown = e.render();
    assert!(
        shown.contains("nests more than 256 deep once definitions are expanded"),
        "{shown}"
    );
    assert_eq!(e.diagnostics.len(), 1, "{shown}");
    // Shorter chains are fine.
    let mut text = kalah();
    text.push_str("let d0 = seeds(A)\n");
    for i in 1..100 {
        text.push_str(&format!("let d{i} = d{} + 1\n", i - 1));
    }
    text.push_str("end deep when d99 > 1000\n");
    sow::Variant::from_source("chain.sow", &text).unwrap_or_else(|e| panic!("{}", e.render()));
}

/// Fuzzing: a track of 24,000 places, each a duplicate, gave a diagnostic
/// each, every one reprinting the whole line: 2.3 GB of output and 4.7 GB
/// of memory. A long line is now drawn as a window, and at most
/// `limits::MAX_SHOWN` diagnostics are drawn, the rest counted.
#[test]
fn a_track_of_many_duplicates_prints_little() {
    let places = " A".repeat(24_000);
    let text = kalah().replace(
        "store(south) a b c d e f store(north)",
        &format!("store(south) a b c d e f store(north){places}"),
    );
    let file = temp("dupes.sow", text.as_bytes());
    let r = sow(&["check", &file], 60);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("24000 problem(s)"),
        "{}",
        &r.stderr[r.stderr.len().saturating_sub(300)..]
    );
    assert!(r.stderr.contains("… and 23900 more problem(s), not shown"));
    small(&r.stderr, 200_000);
}

/// Fuzzing: 20,000 rules took 2.9 GB (each compiled for every stage of a
/// turn and every pit). A variant has at most `limits::MAX_RULES` rules,
/// and rules are specialised only within `limits::MAX_COMPILED`.
#[test]
fn too_many_rules_are_refused() {
    let with = |n: usize| {
        let mut text = sow::variants::source("bao-la-kiswahili")
            .unwrap()
            .to_string();
        for i in 0..n {
            text.push_str(&format!(
                "rule r{i} at land when seeds(last) == {} {{ stop }}\n",
                i % 50
            ));
        }
        temp(&format!("rules{n}.sow"), text.as_bytes())
    };
    let r = sow(&["check", &with(20_000)], 60);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("a variant has at most 10000 statements"),
        "{}",
        r.stderr
    );
    let r = sow(&["check", &with(1_500)], 60);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("a variant has at most 1000 rules"),
        "{}",
        r.stderr
    );
    // Within the limit, the game is compiled within a budget and plays.
    let r = sow(&["perft", &with(950), "2"], 60);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.lines().last(), Some("14"));
}

/// Fuzzing: `extends`, `check`, `--from` and `run` read `/dev/zero` and
/// `/dev/urandom` without end. Every file is read up to
/// `limits::MAX_FILE_BYTES`.
#[test]
fn endless_files_are_refused() {
    for dev in ["/dev/zero", "/dev/urandom"] {
        if !std::path::Path::new(dev).exists() {
            continue;
        }
        let base = temp(
            "endless.sow",
            format!("extends \"{dev}\"\nvariant endless\n").as_bytes(),
        );
        for args in [
            vec!["check", dev],
            vec!["check", base.as_str()],
            vec!["play", "kalah", "--from", dev],
            vec!["run", dev],
        ] {
            let r = sow(&args, 60);
            assert_eq!(r.code, 1, "{args:?}");
            assert!(
                r.stderr.contains("is larger than 1048576 bytes"),
                "{args:?}: {}",
                r.stderr
            );
        }
    }
}

/// Fuzzing: rendering many diagnostics was quadratic (each copied the
/// whole source; 40,000 took 48 s). A file of 40,000 errors is reported
/// at once, and shows `limits::MAX_SHOWN` of them.
#[test]
fn many_diagnostics_render_at_once() {
    let labels: String = (0..40_000).map(|i| format!(" q{i}")).collect();
    let text = kalah().replace(
        "store(south) a b c d e f store(north)",
        &format!("store(south) a b c d e f store(north){labels}"),
    );
    let file = temp("many.sow", text.as_bytes());
    let start = Instant::now();
    let r = sow(&["check", &file], 60);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("40000 problem(s)"),
        "{}",
        &r.stderr[r.stderr.len().saturating_sub(300)..]
    );
    small(&r.stderr, 100_000);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

/// Fuzzing: "did you mean" compared a long word with every name letter
/// by letter (two words of 100,000 letters took 16 s).
#[test]
fn did_you_mean_on_a_long_word_is_quick() {
    let long = "q".repeat(100_000);
    let text = format!(
        "{}\nrule x at land when {} > 0 {{\n stop\n}}\n",
        kalah().replace(
            "row south: A B C D E F",
            &format!("row south: A B C D E {long}")
        ),
        "r".repeat(100_000)
    );
    let start = Instant::now();
    let e = sow::Variant::from_source("long.sow", &text).unwrap_err();
    assert!(!e.render().is_empty());
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(
        sow::diagnostic::did_you_mean(&long, ["q", long.as_str()]),
        None
    );
    assert_eq!(
        sow::diagnostic::did_you_mean("seeds", ["seed", "sows"]),
        Some("seed")
    );
}

/// Fuzzing: `extends` searched the base's statements for each statement
/// of the file (30,000 took 52 s). Statements are found by key now, and a
/// variant has at most `limits::MAX_STATEMENTS`.
#[test]
fn extends_over_many_statements_is_quick() {
    let many = |n: usize| -> String {
        let mut t = String::from("extends kalah\nvariant big\n");
        for i in 0..n {
            t.push_str(&format!("let x{i} = seeds(A) + {}\n", i % 10));
        }
        t
    };
    let start = Instant::now();
    let v = sow::Variant::from_source("big.sow", &many(9_000))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(v.name(), "big");
    let e = sow::Variant::from_source("big.sow", &many(30_000)).unwrap_err();
    assert!(
        e.render()
            .contains("a variant has at most 10000 statements"),
        "{}",
        e.render()
    );
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}

/// Fuzzing: a 725-byte file produced 33,000 diagnostics (21 MB): one
/// mistake inside a definition, reported at each of its uses. It is
/// reported once now, with its first uses.
#[test]
fn a_mistake_inside_a_definition_is_reported_once() {
    let mut text = kalah();
    text.push_str("let a0 = seeds(nosuch)\n");
    for i in 1..=16 {
        text.push_str(&format!("let a{i} = a{} + a{}\n", i - 1, i - 1));
    }
    text.push_str("end bomb when a16 > 0\n");
    assert!(text.len() - kalah().len() < 725);
    let e = sow::Variant::from_source("bomb.sow", &text).unwrap_err();
    let shown = e.render();
    assert!(
        e.diagnostics.len() <= 2,
        "{} diagnostics:\n{shown}",
        e.diagnostics.len()
    );
    assert!(shown.contains("nosuch"), "{shown}");
    small(&shown, 10_000);
}

/// Fuzzing: a turn whose relay never ends nor repeats (its rules read
/// `sowings` in a sum, so no two states look alike) ran 108 s before the
/// engine's limit stopped it. The limit is on work now, a few seconds.
#[test]
fn a_turn_that_never_ends_nor_repeats_stops_within_seconds() {
    let text = "variant slow
players south north
board {
  row north: f e d c b a
  row south: A B C D E F
}
setup {
  seeds 4
}
track: A B C D E F a b c d e f
rule own at start {
  require owner(origin) == mover and seeds(origin) > 0
}
rule go at land when sowings * 0 + count(board, seeds(here) >= 0) > 0 {
  relay
}
end never when false
";
    let file = temp("slow.sow", text.as_bytes());
    let r = sow(&["play", &file, "--moves", "A"], 60);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("run past the engine's limit"),
        "{}",
        r.stderr
    );
}
