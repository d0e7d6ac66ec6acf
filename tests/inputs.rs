//! Untrusted input never breaks sow: each input here once made it panic,
//! overflow its stack, hang, or fill the memory (found by fuzzing and a
//! design review). Each now gets a clear error or a result, quickly, and
//! what it prints stays small. The limits are those of `src/limits.rs`.

use crate::common;

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
    sow_fed(args, Vec::new(), secs)
}

/// Runs the binary with `input` on its standard input (written from a
/// thread, so that a large input cannot stall it), killing it after
/// `secs` seconds.
fn sow_fed(args: &[&str], input: Vec<u8>, secs: u64) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        // (A command that reads nothing may have closed its input.)
        let _ = stdin.write_all(&input);
    });
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
    let _ = feeder.join();
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
    // (SimpleCapt: Kalah's board written out pit by pit, which these
    // inputs edit; the shipped Kalah counts its pits from an option.)
    sow::variants::source("simplecapt").unwrap().to_string()
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
    let line = 1 + kalah()
        .lines()
        .position(|l| l.starts_with("track: A B"))
        .unwrap();
    assert!(
        r.stderr.contains(&format!("far.sow:{line}:70009]")),
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
    let text = kalah().replacen(
        "  store south right",
        &format!("{marks}  store south right"),
        1,
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
    let text = common::NEVER_ENDING_TURN;
    let file = temp("slow.sow", text.as_bytes());
    let r = sow(&["play", &file, "--moves", "A"], 60);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("run past the engine's limit"),
        "{}",
        r.stderr
    );
}

/// Issue 42, `tests/cases/turn-past-limit/`: a Mangola a new user wrote,
/// in two files that differ by one rule. After South's B8, listing
/// North's turns plays North's a8: with fifteen rules a relay that comes
/// back to a state it was in only after some 7.6 million sowings (a turn
/// that never ends, which Mangola forbids). The engine charged every
/// sowing the whole cost of all twenty `land` rules, actions included
/// (about 2,500 units, where judging them in order stops at the first
/// part that fails), and so gave up on the turn after 0.2 s of work, and
/// refused B8. A turn is charged for what it judges: B8 is played, and a8
/// is found endless and refused as such.
#[test]
fn a_long_turn_is_judged_to_its_end_however_many_rules_it_meets() {
    let case = "tests/cases/turn-past-limit";
    let from = format!("{case}/position.json");
    let fifteen = format!("{case}/mangola-15-rules.sow");
    let r = sow(&["play", &fifteen, "--from", &from, "--moves", "B8"], 60);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.trim_end().ends_with("north to move"),
        "{}",
        r.stdout
    );
    let r = sow(&["play", &fifteen, "--from", &from, "--moves", "B8 a8"], 60);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stderr.contains("`a8` would never end"), "{}", r.stderr);
    assert!(
        r.stderr.contains("legal turns: a2 a4 a7 b4 b5 b7"),
        "{}",
        r.stderr
    );
    // Without `take_15` the same a8 ends.
    let fourteen = format!("{case}/mangola-14-rules.sow");
    let r = sow(
        &["play", &fourteen, "--from", &from, "--moves", "B8 a8"],
        60,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("ply 2: a8"), "{}", r.stdout);
}

/// Issue 42, item 10: a position of more seeds than the setup lays out,
/// in a variant where seeds only leave the game, showed "-43 out of play";
/// and an option given as `holes=04` was kept as written, so that a
/// position saved so refused `holes=4`. The position is refused, naming
/// why; a number option's value is its number.
#[test]
fn positions_say_what_their_seeds_and_options_are() {
    let start = sow(&["play", "adi", "--moves", "", "--format", "json"], 60);
    let line: serde_json::Value =
        serde_json::from_str(start.stdout.lines().next().unwrap()).unwrap();
    let mut position = line["position"].clone();
    position["pits"]["A"] = 47.into();
    let file = temp("more-seeds.json", position.to_string().as_bytes());
    let r = sow(&["play", "adi", "--from", &file, "--moves", ""], 60);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("this position holds 91 seeds, more than the 48 the setup lays out"),
        "{}",
        r.stderr
    );
    let padded = sow(
        &[
            "play", "kalah", "--option", "holes=04", "--moves", "", "--format", "json",
        ],
        60,
    );
    assert_eq!(padded.code, 0, "{}", padded.stderr);
    let line: serde_json::Value =
        serde_json::from_str(padded.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(line["position"]["options"]["holes"], "4");
    let file = temp("holes.json", line["position"].to_string().as_bytes());
    for given in ["holes=4", "holes=04", "holes=+4"] {
        let r = sow(&["moves", "kalah", "--option", given, "--from", &file], 60);
        assert_eq!(r.code, 0, "{given}: {}", r.stderr);
    }
}

// --- The newer surfaces: interactive play, records, `draw`, `analyze`,
// the conversation (a probe of about 270 hostile inputs found each) ---

/// Invalid UTF-8 on `play`'s standard input ended the game silently with
/// exit 0, dropping every later line: it is refused, naming the byte.
#[test]
fn invalid_utf8_typed_at_play_is_refused() {
    let r = sow_fed(&["play", "kalah"], b"C\n\xff\xfe\nc\n".to_vec(), 30);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("a line is UTF-8 text (byte 1"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("ply 1: C"), "{}", r.stdout);
    assert!(!r.stdout.contains("ply 2"), "{}", r.stdout);
}

/// A very long line typed at `play` was read whole (400 MB used 2.5 GB):
/// at most `limits::MAX_FILE_BYTES` of a line is held, and the line is
/// refused.
#[test]
fn a_very_long_line_typed_at_play_is_refused() {
    let mut input = vec![b'C'; 3 << 20];
    input.extend(b"\nc\n");
    let r = sow_fed(&["play", "kalah"], input, 60);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "a line is at most {} bytes",
            limits::MAX_FILE_BYTES
        )),
        "{}",
        r.stderr
    );
    small(&r.stderr, 10_000);
}

/// A FIFO named as a path hung for ever (nothing writes to it): as a
/// record, as a record's or a position's variant, and as `save FILE`, it
/// is refused at once.
#[test]
fn a_fifo_named_as_a_path_is_refused() {
    let fifo = std::env::temp_dir().join(format!("sow-fifo-{}", std::process::id()));
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // (no mkfifo on this machine)
    }
    let f = fifo.display().to_string();
    let record = temp(
        "fifo-record.toml",
        format!("variant = \"{f}\"\nmoves = '''\n1. south C\n'''\n").as_bytes(),
    );
    let says = format!("cannot read `{f}`: it is a FIFO, not a file");
    for args in [
        vec!["play", "--from-record", f.as_str()],
        vec!["play", "--from-record", record.as_str()],
        vec!["play", f.as_str(), "--moves", "C"],
        vec!["check", f.as_str()],
    ] {
        let r = sow(&args, 20);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(&says), "{args:?}: {}", r.stderr);
    }
    let r = sow_fed(
        &["play", "kalah"],
        format!("C\nsave {f}\n").into_bytes(),
        20,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains(&format!("cannot write `{f}`: it is a FIFO")),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_file(&fifo);
}

/// A variant whose title holds control characters: its record did not
/// read back (the title went raw into the header's comment), and `draw`
/// wrote it (and U+FFFE) into the SVG unescaped.
#[test]
fn a_title_with_control_characters_is_recorded_and_drawn_safely() {
    let title = "Kal\u{7}ah\u{1b}[31m \u{fffe} \u{b}";
    let file = temp(
        "title.sow",
        kalah()
            .replace("title \"SimpleCapt\"", &format!("title \"{title}\""))
            .as_bytes(),
    );
    assert!(std::fs::read_to_string(&file).unwrap().contains(title));
    let rec = std::env::temp_dir().join(format!("sow-title-{}.toml", std::process::id()));
    let rec = rec.display().to_string();
    let r = sow(&["play", &file, "--moves", "A a", "--record", &rec], 20);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = sow(&["play", "--from-record", &rec, "--format", "json"], 20);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 3, "{}", r.stdout);
    let _ = std::fs::remove_file(&rec);
    // Drawn: every character one XML allows.
    let pos = temp("title.json", r.stdout.lines().last().unwrap().as_bytes());
    let line: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&pos).unwrap()).unwrap();
    let pos = temp(
        "title-position.json",
        line["position"].to_string().as_bytes(),
    );
    let r = sow(&["draw", &pos, "--variant", &file], 20);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let xml = |c: char| matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..);
    assert!(r.stdout.chars().all(xml), "{:?}", r.stdout);
    assert!(r.stdout.contains("Kal\u{fffd}ah"), "{}", r.stdout);
}

/// Error messages echoed control characters and terminal escape sequences
/// raw (typed lines, a position's variant name, `--last`), and a NUL made
/// "`C` is not a turn … did you mean `C`?": each is shown as its escape.
#[test]
fn control_characters_in_messages_are_shown_as_escapes() {
    let clean = |r: &Run| {
        assert!(
            !r.stderr.chars().any(|c| c.is_control() && c != '\n'),
            "{:?}",
            r.stderr
        );
    };
    let r = sow_fed(&["play", "kalah"], b"C\x00\n".to_vec(), 20);
    assert_eq!(r.code, 1, "{}", r.stderr);
    clean(&r);
    assert!(r.stderr.contains("C\\u{0}"), "{}", r.stderr);
    let r = sow_fed(&["play", "kalah"], b"\x1b[2J\n".to_vec(), 20);
    assert_eq!(r.code, 1, "{}", r.stderr);
    clean(&r);
    assert!(r.stderr.contains("\\u{1b}[2J"), "{}", r.stderr);
    let pos = temp(
        "escape.json",
        br#"{"variant": "kal\u001b[31mah", "to_move": "south"}"#,
    );
    let r = sow(&["draw", &pos], 20);
    assert_eq!(r.code, 2, "{}", r.stderr);
    clean(&r);
    assert!(r.stderr.contains("kal\\u{1b}[31mah"), "{}", r.stderr);
    let start = sow(&["play", "kalah", "--moves", "", "--format", "json"], 20);
    let line: serde_json::Value =
        serde_json::from_str(start.stdout.lines().next().unwrap()).unwrap();
    let pos = temp("kalah-start.json", line["position"].to_string().as_bytes());
    let r = sow(&["draw", &pos, "--last", "\u{1b}[31m"], 20);
    assert_eq!(r.code, 2, "{}", r.stderr);
    clean(&r);
    assert!(r.stderr.contains("\\u{1b}[31m"), "{}", r.stderr);
}

/// `analyze --players a,b,c` dropped the third player silently.
#[test]
fn analyze_refuses_three_players() {
    let r = sow(
        &[
            "analyze",
            "kalah",
            "--players",
            "random,random,random",
            "--games",
            "2",
        ],
        20,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("names one player for both seats or two"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("not 3"), "{}", r.stderr);
}

/// A record's header (`plies`, `result`, `level`, `seed`, players) was not
/// checked on replay: each is now, where it is given.
#[test]
fn a_record_header_is_checked_on_replay() {
    let record = |header: &str| {
        temp(
            "header.toml",
            format!("variant = \"kalah\"\n{header}\nmoves = '''\n1. south A\n2. north a\n'''\n")
                .as_bytes(),
        )
    };
    let good = record("players = { south = \"human\", north = \"mcts\" }\nlevel = 5\nseed = 7\nresult = \"unfinished\"\nplies = 2");
    let r = sow(&["play", "--from-record", &good, "--format", "json"], 20);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for (header, says) in [
        ("plies = 3", "the record says 3 plies, but it lists 2 moves"),
        (
            "result = \"south wins\"",
            "but its moves lead to `unfinished`",
        ),
        (
            "level = 12",
            "level 12 is not a level of the computer players",
        ),
        ("seed = -1", "seed"),
        ("seed = \"x\"", "seed"),
        (
            "players = { south = \"human\", north = \"robot\" }",
            "`robot` is not a kind of player",
        ),
        (
            "players = { south = \"human\", east = \"mcts\" }",
            "not the variant's (south, north)",
        ),
        (
            "players = { south = \"human\" }",
            "not the variant's (south, north)",
        ),
    ] {
        let r = sow(&["play", "--from-record", &record(header)], 20);
        assert_eq!(r.code, 1, "{header}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{header}: {}", r.stderr);
    }
}

/// `draw` without `--variant` reported any malformed JSON as "names no
/// variant"; a position from a variant file now asks for that file.
#[test]
fn draw_names_what_is_wrong_with_a_position() {
    let r = sow(
        &["draw", &temp("broken.json", b"{\"variant\": \"kalah\",")],
        20,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("not valid JSON"), "{}", r.stderr);
    let r = sow(
        &["draw", &temp("nameless.json", b"{\"to_move\": \"south\"}")],
        20,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("names no variant"), "{}", r.stderr);
    let r = sow(
        &["draw", &temp("own.json", b"{\"variant\": \"my-game\"}")],
        20,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("give its file with `--variant FILE`"),
        "{}",
        r.stderr
    );
}

/// Duplicate JSON keys were accepted, the last winning: a key given twice
/// in one object is an error at its place, wherever a position is read.
#[test]
fn a_key_given_twice_in_a_position_is_refused() {
    let start = sow(&["play", "kalah", "--moves", "", "--format", "json"], 20);
    let line: serde_json::Value =
        serde_json::from_str(start.stdout.lines().next().unwrap()).unwrap();
    let text = line["position"].to_string();
    let twice = text.replacen(
        "\"to_move\":\"south\"",
        "\"to_move\":\"south\",\"to_move\":\"north\"",
        1,
    );
    assert_ne!(twice, text);
    let dup = temp("twice.json", twice.as_bytes());
    for args in [
        vec!["play", "kalah", "--from", dup.as_str(), "--moves", ""],
        vec!["moves", "kalah", "--from", dup.as_str()],
        vec!["draw", dup.as_str()],
    ] {
        let r = sow(&args, 20);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("the key `to_move` is given twice"),
            "{args:?}: {}",
            r.stderr
        );
    }
    let r = sow_fed(
        &["moves", "kalah", "--from", "-", "--format", "json"],
        format!("{twice}\n\n{text}\n").into_bytes(),
        20,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let answers: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(answers.len(), 2, "a blank line asks nothing: {answers:?}");
    assert!(answers[0].contains("given twice"), "{}", answers[0]);
    assert!(answers[1].contains("\"moves\""), "{}", answers[1]);
}
