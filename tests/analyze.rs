//! `sow analyze` (issue 12): every shipped variant measured, with every
//! field and figures that add up; rule coverage that counts what the
//! rules say; a rule that can never fire reported; the same results
//! whatever the number of threads (`--jobs`), for `analyze`, `random` and
//! `perft`.

use crate::common;

use common::bin::sow_with;
use common::shipped;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use sow::ai::Seat;
use sow::analyze::{self, Plan};
use sow::{Game, Variant};

fn sow(args: &[&str]) -> common::bin::Run {
    sow_with(args, "")
}

fn random_plan(games: u64, seed: u64, max_plies: u32) -> Plan {
    Plan {
        games,
        seed,
        players: [Seat::Random; 2],
        levels: [1; 2],
        max_plies,
        keep: true,
    }
}

fn report(v: &Variant, plan: Plan, jobs: usize) -> Value {
    let start = sow::Game::new(v.engine.clone()).expect("a start");
    analyze::analyze(v, &start, plan, jobs, true).json()
}

fn n(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("a count, not {v}"))
}

/// Every field the issue asks for is there, and the figures agree with
/// one another: results add up to the games, the histogram to the
/// finished games, each end condition's count to the games and rounds
/// ended, no rule fires in more turns than were played, and the rules
/// reported as never firing are those counted 0.
#[test]
fn every_shipped_variant_is_measured_and_its_figures_add_up() {
    for name in sow::variants::names() {
        let v = shipped(name);
        let r = &v.engine.rules;
        let j = report(&v, random_plan(4, 1, 3000), 2);
        let at = |k: &str| {
            j.get(k)
                .unwrap_or_else(|| panic!("{name}: no `{k}` in {j}"))
        };
        for k in [
            "results",
            "first_player",
            "draw_rate",
            "turns",
            "length",
            "branching",
            "endless",
            "seeds_conserved",
            "coverage",
        ] {
            at(k);
        }
        assert_eq!(n(at("games")), 4, "{name}");
        let results = at("results").as_object().unwrap();
        let sum: u64 = results.values().map(n).sum();
        assert_eq!(sum, 4, "{name}: results {results:?}");
        let finished = 4 - n(&results["unfinished"]) - n(&results["too_long"]);
        let turns = n(at("turns"));
        match at("length") {
            Value::Null => assert_eq!(finished, 0, "{name}"),
            l => {
                let bins: u64 = l["histogram"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| n(&b["games"]))
                    .sum();
                assert_eq!(bins, finished, "{name}: histogram");
                assert!(n(&l["min"]) <= n(&l["median"]), "{name}");
                assert!(n(&l["median"]) <= n(&l["p95"]), "{name}");
                assert!(n(&l["p95"]) <= n(&l["max"]), "{name}");
            }
        }
        let fp = at("first_player");
        assert!(n(&fp["wins"]) <= n(&fp["decided"]), "{name}");
        let verdict = fp["verdict"].as_str().unwrap();
        assert!(
            ["balanced", "favours_first", "favours_second", "unknown"].contains(&verdict),
            "{name}: {verdict}"
        );
        if turns > 0 {
            assert!(at("branching")["mean"].as_f64().unwrap() >= 1.0, "{name}");
        }
        let seeds = at("seeds_conserved");
        assert_eq!(seeds["checked"], !r.loses_seeds(), "{name}");
        if seeds["checked"] == true {
            assert_eq!(n(&seeds["positions_off"]), 0, "{name}: seeds not conserved");
        }
        let cov = &at("coverage");
        let rules = cov["rules"].as_array().unwrap();
        assert_eq!(rules.len(), r.rules.len(), "{name}: a count per rule");
        for rule in rules {
            assert!(n(&rule["turns"]) <= turns, "{name}: {rule}");
        }
        let ended: u64 = cov["ends"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| n(&e["ended"]))
            .sum();
        // Every finished game ended by an end rule; in a match every
        // round besides (a match stopped unfinished has ended rounds too).
        match j.get("rounds") {
            Some(rounds) => assert_eq!(ended, n(rounds), "{name}: rounds"),
            None => assert_eq!(ended, finished, "{name}: games ended"),
        }
        let dead: Vec<&str> = cov["never_fired"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap())
            .collect();
        // (Less the rules the options in force switch off, which never
        // fire.)
        let off: Vec<&Value> = cov["off"].as_array().unwrap().iter().collect();
        for name in &off {
            let rule = rules.iter().find(|x| &&x["name"] == name).unwrap();
            assert_eq!(n(&rule["turns"]), 0, "{name}: a rule switched off fired");
        }
        let zero = rules.iter().filter(|x| n(&x["turns"]) == 0).count() - off.len();
        let zero_ends = cov["ends"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| n(&e["ended"]) == 0 && e["name"] != "endless_turn")
            .count();
        assert_eq!(dead.len(), zero + zero_ends, "{name}: {dead:?}");
    }
}

/// Kalah L2: a turn starts from a non-empty pit of the mover's row, and
/// `own_pit` says so of every turn; L3: the last seed in the mover's store
/// gives another turn, and `extra_turn` fires in exactly the turns after
/// which the mover is to move again (counted here by replaying the same
/// games, which analysing random against random shares with `sow
/// random`).
#[test]
fn kalah_coverage_counts_what_the_clauses_say() {
    let v = shipped("kalah");
    let r = &v.engine.rules;
    let rule = |name: &str| r.rules.iter().position(|r| r.name == name).unwrap();
    let (own, extra) = (rule("own_pit"), rule("extra_turn"));
    let start = sow::Game::new(v.engine.clone()).expect("a start");
    let rep = analyze::analyze(&v, &start, random_plan(50, 7, 1000), 2, true);
    for (i, g) in rep.games.iter().enumerate() {
        assert_eq!(g.fired[own], u64::from(g.plies), "game {i}: L2");
        let mut game = Game::new(v.engine.clone()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(7 + i as u64);
        let mut moves = Vec::new();
        sow::play::random_game(&mut game, &mut rng, Some(1000), Some(&mut moves)).unwrap();
        assert_eq!(moves.len() as u32, g.plies, "game {i}: the same game");
        let mut replay = Game::new(v.engine.clone()).unwrap();
        let mut again = 0;
        for m in &moves {
            // L2: sown from the pit the move names (the `k`-th of its
            // owner's row, from `a`/`A`), round a circuit of 13 places
            // (the opponent's store passed over), the owner's store the
            // seventh: the last seed falls into it when k + seeds is 6
            // past a multiple of 13.
            let pit = r.pits.iter().position(|p| p.label == *m).unwrap();
            let k = m.to_ascii_lowercase().as_bytes()[0] - b'a';
            let seeds = replay.position().cells[pit];
            again += u64::from((u32::from(k) + seeds) % 13 == 6);
            let t = sow::notation::parse_turn(&replay, m).unwrap();
            replay.play(t).unwrap();
        }
        assert_eq!(g.fired[extra], again, "game {i}: L3");
    }
}

/// Tracing the rules changes no game: analysing random against random
/// gives the results `sow random` gives from the same seed.
#[test]
fn analysing_plays_the_games_random_plays() {
    for name in ["oware-abapa", "bao-la-kiswahili", "dakon", "weg"] {
        let r = sow(&[
            "random", name, "--games", "20", "--seed", "11", "--format", "json",
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let summary: Value = serde_json::from_str(r.stdout.lines().last().unwrap()).unwrap();
        let a = report(&shipped(name), random_plan(20, 11, 10_000), 2);
        assert_eq!(a["turns"], summary["turns"], "{name}");
        for (player, wins) in summary["wins"].as_object().unwrap() {
            assert_eq!(&a["results"][player], wins, "{name}: {player}");
        }
    }
}

/// A rule whose condition can never hold (48 seeds in all, never more
/// than 48 in a pit) is reported as a warning.
#[test]
fn a_rule_that_can_never_fire_is_reported() {
    let dir = std::env::temp_dir().join(format!("sow-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("dead.sow");
    std::fs::write(
        &path,
        "variant dead-rule\nextends kalah\n\
         rule overflowing at land when seeds(last) > 48 {\n  again\n}\n",
    )
    .unwrap();
    let path = path.display().to_string();
    let r = sow(&["analyze", &path, "--games", "20"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("warning: rule overflowing never fired in 20 games"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("rule extra_turn never"), "{}", r.stdout);
    let j = sow(&["analyze", &path, "--games", "20", "--format", "json"]);
    let j: Value = serde_json::from_str(&j.stdout).unwrap();
    assert_eq!(
        j["coverage"]["never_fired"],
        serde_json::json!(["rule overflowing"])
    );
}

/// The same seed gives the same output with one thread and with two:
/// `random --format json` byte for byte (but the seconds it took),
/// `analyze` byte for byte (computer players included), `perft` the same
/// count.
#[test]
fn the_number_of_jobs_changes_no_result() {
    let random = |jobs: &str| {
        let r = sow(&[
            "random",
            "oware-abapa",
            "--games",
            "150",
            "--seed",
            "3",
            "--format",
            "json",
            "--jobs",
            jobs,
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        // The games' lines as printed; the summary less the time it took.
        let (games, summary) = r.stdout.trim_end().rsplit_once('\n').unwrap();
        let mut summary: Value = serde_json::from_str(summary).unwrap();
        let summary = summary.as_object_mut().unwrap();
        assert!(summary.remove("seconds").is_some());
        assert!(summary.remove("turns_per_second").is_some());
        (games.to_string(), summary.clone())
    };
    let one = random("1");
    assert_eq!(one.0.lines().count(), 150);
    assert_eq!(one, random("2"), "byte for byte, the seconds aside");
    // `analyze` with the arguments given and `--jobs`.
    let analyze = |args: &[&str], jobs: &str| {
        let mut all = vec!["analyze"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--format", "json", "--jobs", jobs]);
        let r = sow(&all);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    // Enough games for every thread to reuse its game across batches.
    let many = ["bao-la-kiswahili", "--games", "300"];
    assert_eq!(analyze(&many, "1"), analyze(&many, "3"));
    let computers = [
        "kalah",
        "--games",
        "6",
        "--players",
        "mcts,random",
        "--level",
        "1",
    ];
    assert_eq!(analyze(&computers, "1"), analyze(&computers, "2"));
    let perft = |jobs: &str| sow(&["perft", "bao-la-kiswahili", "6", "--jobs", jobs]).stdout;
    let (a, b) = (perft("1"), perft("2"));
    assert_eq!(a.lines().last(), b.lines().last());
    assert!(
        a.lines().last().unwrap().parse::<u64>().unwrap() > 1000,
        "{a}"
    );
}

/// A run split into parts at any games, each part played on its own and
/// carried as JSON (as workers on other machines would), then put
/// together, reports what the whole run reports: random players, and two
/// different computer players at different levels (whose seats swap with
/// the game's number, so an odd split point matters). Parts that do not
/// make one run are refused, saying which games.
#[test]
fn parts_of_a_run_put_together_report_the_whole_run() {
    let v = shipped("kalah");
    let start = sow::Game::new(v.engine.clone()).expect("a start");
    let mixed = Plan {
        players: [Seat::Mcts, Seat::Random],
        levels: [1, 2],
        ..random_plan(9, 5, 2000)
    };
    for plan in [random_plan(200, 21, 2000), mixed] {
        let whole = analyze::analyze(&v, &start, plan.clone(), 2, true).json();
        let n = plan.games;
        for cuts in [vec![], vec![1], vec![n / 2 + 1], vec![3, 4, n - 1]] {
            let mut edges = vec![0];
            edges.extend(&cuts);
            edges.push(n);
            // Played in reverse, as workers may finish.
            let parts: Vec<analyze::Part> = edges
                .windows(2)
                .rev()
                .map(|w| {
                    let p = analyze::analyze_part(&v, &start, plan.clone(), w[0]..w[1], 1, true);
                    let carried = serde_json::to_string(&p).unwrap();
                    serde_json::from_str(&carried).unwrap()
                })
                .collect();
            let merged = analyze::Report::merged(&v, parts).unwrap().json();
            assert_eq!(merged, whole, "{:?} cut at {cuts:?}", plan.players);
        }
    }
    let part = |plan: &Plan, games: std::ops::Range<u64>| {
        analyze::analyze_part(&v, &start, plan.clone(), games, 1, true)
    };
    let plan = random_plan(10, 1, 2000);
    let refused = |parts: Vec<analyze::Part>| match analyze::Report::merged(&v, parts) {
        Ok(_) => panic!("parts that make no run were put together"),
        Err(e) => e,
    };
    let gap = refused(vec![part(&plan, 0..4), part(&plan, 5..10)]);
    assert_eq!(gap, "games 4..5 are in no part");
    let short = refused(vec![part(&plan, 0..4)]);
    assert_eq!(short, "games 4..10 are in no part");
    let twice = refused(vec![part(&plan, 0..6), part(&plan, 4..10)]);
    assert_eq!(twice, "games 4..6 are in two parts");
    let other = Plan {
        seed: 2,
        ..plan.clone()
    };
    let mixed = refused(vec![part(&plan, 0..5), part(&other, 5..10)]);
    assert_eq!(mixed, "the parts are of different runs: seed 1 and 2");
    let oware = shipped("oware-abapa");
    let foreign = analyze::analyze_part(
        &oware,
        &sow::Game::new(oware.engine.clone()).expect("a start"),
        plan.clone(),
        5..10,
        1,
        true,
    );
    let foreign = refused(vec![part(&plan, 0..5), foreign]);
    assert_eq!(foreign, "games 5..10 are of oware-abapa, not kalah");
    // The same variant under another option's value is another variant.
    let options = [("grand_slam".to_string(), "forbidden".to_string())];
    let forbidden = sow::load::load("oware-abapa", std::path::Path::new(""), &options).unwrap();
    let start = sow::Game::new(oware.engine.clone()).expect("a start");
    let other = analyze::analyze_part(&forbidden, &start, plan.clone(), 5..10, 1, true);
    let own = analyze::analyze_part(&oware, &start, plan.clone(), 0..5, 1, true);
    let other = analyze::Report::merged(&oware, vec![own, other])
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        other,
        "games 5..10 are of oware-abapa under other rules or options"
    );
    assert_eq!(refused(vec![]), "no parts to put together");
}

/// A player at a level of its own: `mcts:3`; a level past 9 or a person
/// is refused, saying what a player is.
#[test]
fn a_player_may_have_a_level_of_its_own() {
    let r = sow(&[
        "analyze",
        "kalah",
        "--games",
        "2",
        "--players",
        "minimax:1,minimax:2",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let j: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(j["players"], serde_json::json!(["minimax:1", "minimax:2"]));
    assert_eq!(j["level"], serde_json::json!([1, 2]));
    let high = sow(&["analyze", "kalah", "--players", "mcts:12"]);
    assert_eq!(high.code, 2);
    assert!(
        high.stderr.contains("`mcts:12`: a level is 1 to 9"),
        "{}",
        high.stderr
    );
    let person = sow(&["analyze", "kalah", "--players", "human"]);
    assert!(
        person
            .stderr
            .contains("not a computer player: random, mcts, minimax or perfect"),
        "{}",
        person.stderr
    );
}

/// A player's name in JSON is its name on the command line.
#[test]
fn a_seat_is_written_by_its_name() {
    for s in Seat::ALL {
        assert_eq!(serde_json::to_value(s).unwrap(), s.name());
    }
}

/// Ctrl-C stops a long run cleanly: it exits 0 with the summary of the
/// games played so far (of `perft`, the paths counted so far, said to be
/// incomplete, with no bare count last), saying it was stopped.
#[cfg(unix)]
#[test]
fn ctrl_c_prints_the_summary_so_far() {
    use std::process::{Command, Stdio};
    for (args, said) in [
        (
            &["random", "kalah", "--games", "1000000000", "--seed", "1"][..],
            "stopped by Ctrl-C",
        ),
        (
            &[
                "analyze",
                "kalah",
                "--games",
                "1000000000",
                "--format",
                "json",
            ][..],
            "\"interrupted\":true",
        ),
        (
            &["perft", "oware-abapa", "20"][..],
            "the count is not complete",
        ),
    ] {
        let child = Command::new(env!("CARGO_BIN_EXE_sow"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let kill = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stdout}");
        assert!(stdout.contains(said), "{args:?}: {stdout}");
    }
}

/// Oware O9 and its `grand_slam` option: a rule the options switch off is
/// reported as off, not as never firing; a `forbid` rule fires where it
/// rules out a turn the mover might have played (a turn never played).
#[test]
fn a_forbidding_rule_counts_the_turns_it_rules_out() {
    let run = |option: &str| {
        let r = sow(&[
            "analyze",
            "oware-abapa",
            "--games",
            "200",
            "--option",
            option,
            "--format",
            "json",
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        serde_json::from_str::<Value>(&r.stdout).unwrap()
    };
    let turns = |j: &Value, rule: &str| {
        let rules = j["coverage"]["rules"].as_array().unwrap();
        n(&rules.iter().find(|r| r["name"] == rule).unwrap()["turns"])
    };
    let forbidden = run("grand_slam=forbidden");
    assert!(turns(&forbidden, "grand_slam_forbidden") > 0);
    assert_eq!(turns(&forbidden, "grand_slam"), 0);
    assert_eq!(
        forbidden["coverage"]["off"],
        serde_json::json!(["grand_slam"])
    );
    assert_eq!(forbidden["coverage"]["never_fired"], serde_json::json!([]));
    let nothing = run("grand_slam=capture_nothing");
    assert!(turns(&nothing, "grand_slam") > 0);
    assert_eq!(
        nothing["coverage"]["off"],
        serde_json::json!(["grand_slam_forbidden"])
    );
}
