//! `sow serve` (issue 26): every endpoint of the JSON API answers in the
//! contract's terms, a bad request is a 4xx naming what is wrong (bad
//! JSON, unknown fields, bodies too large, a variant whose turn never
//! ends, a file named), and a server started as a user starts it answers
//! thousands of requests, some at once and some malformed, in bounded
//! memory.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{json, Value};
use sow::serve::api::{self, Endpoint};

fn post(endpoint: Endpoint, body: Value) -> (u16, Value) {
    endpoint(body.to_string().as_bytes())
}

/// Answers' entries without what the playground adds to the contract's
/// lines (`pit`, the pit a turn starts from).
fn contract(list: &Value) -> Vec<Value> {
    let mut list = list.as_array().unwrap().clone();
    for item in &mut list {
        item.as_object_mut().unwrap().remove("pit");
    }
    list
}

fn error(answer: &(u16, Value)) -> &str {
    assert_eq!(answer.0, 400, "{}", answer.1);
    answer.1["error"].as_str().unwrap_or("")
}

/// `/api/moves` lists what `sow moves --format json` lists, from the start
/// or from a position; `/api/play` plays moves as `sow play --format json`
/// prints them.
#[test]
fn moves_and_play_answer_as_the_command_line() {
    let cli = common::bin::sow_with(&["moves", "kalah", "--format", "json"], "");
    let expected: Vec<Value> = cli
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (status, moves) = post(api::moves, json!({"variant": "kalah"}));
    assert_eq!(status, 200);
    assert_eq!(contract(&moves["moves"]), expected);
    let cli = common::bin::sow_with(
        &["play", "oware-abapa", "--moves", "C d", "--format", "json"],
        "",
    );
    let expected: Vec<Value> = cli
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (status, played) = post(
        api::play,
        json!({"variant": "oware-abapa", "moves": ["C", "d"]}),
    );
    assert_eq!(status, 200);
    assert_eq!(contract(&played["plies"]), expected);
    // From the position the play reached, the moves are those of it.
    let position = expected[2]["position"].clone();
    let (_, from) = post(
        api::moves,
        json!({"variant": "oware-abapa", "position": position}),
    );
    assert_eq!(from["position"], expected[2]["position"]);
    assert!(!from["moves"].as_array().unwrap().is_empty());
}

/// `/api/check` places each problem by line and column (and where it
/// ends); a variant that loads has none but its warnings.
#[test]
fn check_places_each_problem() {
    let kalah = sow::variants::source("simplecapt").unwrap();
    let (status, fine) = api::check(kalah.as_bytes());
    assert_eq!(
        (status, fine["ok"].clone(), fine["name"].clone()),
        (200, json!(true), json!("simplecapt"))
    );
    let broken = kalah.replacen("seeds 4", "seeds 4\n  sedes 3", 1);
    let line = broken.lines().position(|l| l.contains("sedes")).unwrap() + 1;
    let (status, found) = api::check(broken.as_bytes());
    assert_eq!((status, found["ok"].clone()), (200, json!(false)));
    let d = &found["diagnostics"][0];
    assert_eq!(d["line"], line, "{d}");
    assert_eq!(d["column"], 3, "{d}");
    assert!(d["end_column"].as_u64().unwrap() > 3, "{d}");
    assert!(d["hint"].as_str().unwrap_or("").contains("seeds"), "{d}");
    assert_eq!(d["severity"], "error", "{d}");
    assert_eq!(error(&api::check(b"\xff\xfe")), "a variant's text is UTF-8");
    // A variant that loads with a warning: ok, and the warning placed.
    let warned = "extends kalah\nvariant warned\nrule give at end {\n  capture side(last_mover) to store(south)\n}\n";
    let (status, found) = api::check(warned.as_bytes());
    assert_eq!((status, found["ok"].clone()), (200, json!(true)), "{found}");
    let w = &found["diagnostics"][0];
    assert_eq!(
        (
            w["severity"].clone(),
            w["line"].clone(),
            w["column"].clone()
        ),
        (json!("warning"), json!(4), json!(16)),
        "{w}"
    );
}

/// No request reads a file: a variant sent as text builds only on
/// shipped variants, and a name is only ever a shipped one.
#[test]
fn no_request_reads_a_file() {
    let (_, found) = api::check(b"variant x\nextends \"/etc/hostname\"\n");
    let text = found["diagnostics"].to_string();
    assert!(
        text.contains("is not a shipped variant, and here no file is read"),
        "{text}"
    );
    let named = post(api::moves, json!({"variant": "variants/kalah.sow"}));
    assert!(error(&named).contains("is not a shipped variant"));
    let extended = "variant mine\nextends kalah\n";
    let (status, _) = post(api::moves, json!({"source": extended}));
    assert_eq!(status, 200, "a shipped base is read from the binary");
}

/// `/api/ai` gives a computer's turn and the position it leads to;
/// `/api/analyze` the report `sow analyze --format json` gives.
#[test]
fn ai_and_analyze_answer() {
    let (status, turn) = post(api::ai, json!({"variant": "kalah", "player": "minimax:2"}));
    assert_eq!(status, 200, "{turn}");
    let legal: Vec<Value> = post(api::moves, json!({"variant": "kalah"})).1["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].clone())
        .collect();
    assert!(legal.contains(&turn["move"]), "{turn}");
    let cli = common::bin::sow_with(
        &[
            "analyze", "kalah", "--games", "40", "--seed", "3", "--level", "1", "--format", "json",
        ],
        "",
    );
    let (status, report) = post(
        api::analyze,
        json!({"variant": "kalah", "games": 40, "seed": 3}),
    );
    assert_eq!(status, 200);
    assert_eq!(report, serde_json::from_str::<Value>(&cli.stdout).unwrap());
    // A perfect player's turn is one the solver finds best; a variant it
    // cannot play is a 400 saying why.
    let small = json!({"holes": "3", "pit_seeds": "3"});
    let (status, turn) = post(
        api::ai,
        json!({"variant": "kalah", "options": small, "player": "perfect"}),
    );
    assert_eq!(status, 200, "{turn}");
    assert!(
        ["A", "B"].contains(&turn["move"].as_str().unwrap()),
        "{turn}"
    );
    let (status, why) = post(
        api::ai,
        json!({"variant": "oware-abapa", "player": "perfect"}),
    );
    assert_eq!(status, 400);
    assert!(
        why["error"].as_str().unwrap().contains("cannot be solved"),
        "{why}"
    );
    let (status, why) = post(
        api::analyze,
        json!({"variant": "oware-abapa", "games": 2, "players": ["perfect"]}),
    );
    assert_eq!(status, 400);
    assert!(
        why["error"].as_str().unwrap().contains("cannot be solved"),
        "{why}"
    );
}

/// Each bad request is a 400 naming what is wrong and what would be
/// right.
#[test]
fn bad_requests_say_what_is_wrong() {
    let cases: Vec<(Endpoint, &[u8], &str)> = vec![
        (
            api::moves,
            b"{",
            "a request's body is JSON: EOF while parsing an object at line 1 column 1",
        ),
        (api::moves, b"[]", "a request's body is a JSON object"),
        (api::moves, b"\xff", "a request's body is UTF-8 JSON"),
        (
            api::moves,
            br#"{"variant":"kalah","colour":1}"#,
            "unknown field `colour`",
        ),
        (api::moves, br#"{}"#, "name the variant"),
        (
            api::moves,
            br#"{"variant":"kalah","source":"x"}"#,
            "one of them",
        ),
        (
            api::moves,
            br#"{"variant":"kalha"}"#,
            "`kalha` is not a shipped variant",
        ),
        (
            api::moves,
            br#"{"variant":"kalah","position":{"pits":1}}"#,
            "the position has no `to_move`",
        ),
        (api::moves, br#"{"variant":"kalah","first":"east"}"#, "east"),
        (
            api::play,
            br#"{"variant":"kalah","moves":["Z"]}"#,
            "move 1 (`Z`)",
        ),
        (
            api::ai,
            br#"{"variant":"kalah","player":"human"}"#,
            "not a computer player",
        ),
        (
            api::ai,
            br#"{"variant":"kalah","player":"mcts:2","level":3}"#,
            "give the level once",
        ),
        (
            api::ai,
            br#"{"variant":"kalah","level":12}"#,
            "a level is 1 to 9, not 12",
        ),
        (
            api::analyze,
            br#"{"variant":"kalah","games":100000}"#,
            "at most 1000 games",
        ),
        (
            api::analyze,
            br#"{"variant":"kalah","players":["mcts:9"]}"#,
            "levels 1 to 3",
        ),
        (
            api::analyze,
            br#"{"variant":"kalah","players":["a","b","c"]}"#,
            "one player for both seats or two",
        ),
        (
            api::analyze,
            br#"{"variant":"kalah","max_plies":0}"#,
            "`max_plies` is 1 to",
        ),
    ];
    for (endpoint, body, says) in cases {
        let answer = endpoint(body);
        let message = error(&answer);
        assert!(
            message.contains(says),
            "{}: {message}",
            String::from_utf8_lossy(body)
        );
    }
    let many: Vec<&str> = vec!["A"; 10_001];
    let answer = post(api::play, json!({"variant": "kalah", "moves": many}));
    assert!(
        error(&answer).contains("at most 10000 moves a request"),
        "{}",
        answer.1
    );
    let broken = post(api::moves, json!({"source": "variant x\n"}));
    assert_eq!(broken.0, 400);
    assert!(
        !broken.1["diagnostics"].as_array().unwrap().is_empty(),
        "{}",
        broken.1
    );
    let over = post(
        api::ai,
        json!({"variant": "kalah", "position": {
        "variant": "kalah", "to_move": null,
        "pits": {"A":0,"B":0,"C":0,"D":0,"E":0,"F":0,"a":0,"b":0,"c":0,"d":0,"e":0,"f":0},
        "stores": {"south": 24, "north": 24}, "hands": {"south": 0, "north": 0}, "state": {}}}),
    );
    assert!(
        error(&over).contains("over") || error(&over).contains("to_move"),
        "{}",
        over.1
    );
}

/// A variant whose turn never ends nor repeats: the engine's work limit
/// stops it, and the request is answered (within seconds).
#[test]
fn a_turn_that_never_ends_is_answered() {
    let text = common::NEVER_ENDING_TURN;
    let started = std::time::Instant::now();
    let answer = post(api::moves, json!({"source": text}));
    assert_eq!(answer.0, 400, "{}", answer.1);
    assert!(error(&answer).contains("engine's limit"), "{}", answer.1);
    assert!(started.elapsed() < Duration::from_secs(60));
}

/// A server started as a user starts it, on a free port of loopback.
struct Server {
    child: std::process::Child,
    address: String,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[])
    }

    fn start_with(more: &[&str]) -> Server {
        let mut args = vec!["serve", "--port", "0"];
        args.extend_from_slice(more);
        let mut child = common::bin::spawn(&args);
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "sow serve: http://127.0.0.1:PORT/ (Ctrl-C stops it)"
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap()
            .to_string();
        Server { child, address }
    }

    /// One request on a connection of its own: the status and the body.
    fn ask(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        // (A server may refuse a body too large before it is all sent.)
        let _ = stream.write_all(body);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer).into_owned();
        let status = text
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let body = text
            .split_once("\r\n\r\n")
            .map_or(String::new(), |(_, b)| b.to_string());
        (status, body)
    }

    /// The processor time the server has used, in clock ticks (1/100 s).
    fn cpu(&self) -> u64 {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // (After the command's name in parentheses: utime and stime are
        // the 12th and 13th fields.)
        let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
        let fields: Vec<u64> = rest
            .split_whitespace()
            .filter_map(|f| f.parse().ok())
            .collect();
        fields.get(10).unwrap_or(&0) + fields.get(11).unwrap_or(&0)
    }

    /// The server's resident memory, in KiB.
    fn memory(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Over HTTP: every endpoint and the page, a body too large (413), a
/// page that is not there (404).
#[test]
fn the_server_answers_over_http() {
    let server = Server::start();
    let (status, page) = server.ask("GET", "/", b"");
    assert_eq!(status, 200);
    assert!(page.contains(r#"<script src="/app.js">"#), "{page}");
    for asset in ["/app.js", "/app.css"] {
        let (status, text) = server.ask("GET", asset, b"");
        assert_eq!(status, 200, "{asset}");
        assert!(text.len() > 1000, "{asset}");
    }
    let (status, words) = server.ask("GET", "/api/language", b"");
    assert_eq!(status, 200);
    assert!(words.contains("\"capture\""));
    let (status, list) = server.ask("GET", "/api/variants", b"");
    assert_eq!(status, 200);
    let list: Value = serde_json::from_str(&list).unwrap();
    assert_eq!(
        list["variants"].as_array().unwrap().len(),
        sow::variants::names().len()
    );
    let (status, file) = server.ask("GET", "/api/variants/kalah", b"");
    assert_eq!(status, 200);
    assert!(file.contains("\"source\""));
    assert_eq!(server.ask("GET", "/api/variants/nope", b"").0, 404);
    let moves = br#"{"variant":"kalah"}"#;
    for path in [
        "/api/moves",
        "/api/play",
        "/api/ai",
        "/api/analyze",
        "/api/record",
    ] {
        let (status, body) = server.ask("POST", path, moves);
        assert_eq!(status, 200, "{path}: {body}");
    }
    assert_eq!(server.ask("POST", "/api/check", b"variant x\n").0, 200);
    assert_eq!(server.ask("POST", "/api/show", b"variant x\n").0, 200);
    let huge = vec![b'x'; sow::serve::MAX_BODY + 1];
    let (status, body) = server.ask("POST", "/api/check", &huge);
    assert_eq!(status, 413);
    assert!(
        body.contains(r#"{"error":"a request's body is at most"#),
        "{body}"
    );
    assert_eq!(server.ask("GET", "/etc/passwd", b"").0, 404);
    let (status, body) = server.ask("GET", "/api/moves", b"");
    assert_eq!(status, 405);
    assert!(body.contains("POST for the other /api/ pages"), "{body}");
}

/// A load from this process (issue 42's bounded load test): 3,000
/// requests from 8 threads at once, a third of them malformed or
/// oversized, while 100 slow clients hold connections half sent and a
/// watcher asks a trivial request every 50 ms. Every request is answered
/// or refused within its limit, the trivial one always within a second,
/// the server's memory stays bounded, and Ctrl-C ends it.
#[test]
fn thousands_of_requests_are_all_answered() {
    let mut server = Server::start();
    let warm = server.ask("POST", "/api/moves", br#"{"variant":"bao-la-kiswahili"}"#);
    assert_eq!(warm.0, 200);
    let before = server.memory();
    let huge = vec![b' '; sow::serve::MAX_BODY + 1];
    let bodies: [(&str, &[u8], u16); 7] = [
        ("/api/moves", br#"{"variant":"bao-la-kiswahili"}"#, 200),
        (
            "/api/play",
            br#"{"variant":"oware-abapa","moves":["C","d","E"]}"#,
            200,
        ),
        ("/api/check", b"variant x\nplayers a b\n", 200),
        ("/api/moves", b"{\"variant\":", 400),
        ("/api/ai", br#"{"variant":"kalah","player":"nobody"}"#, 400),
        ("/api/moves", b"\xff\xff", 400),
        ("/api/check", &huge, 413),
    ];
    // Slow clients: each sends part of a request, and no more.
    let slow: Vec<TcpStream> = (0..100)
        .map(|i| {
            let mut stream = TcpStream::connect(&server.address).unwrap();
            let part: &[u8] = match i % 3 {
                0 => b"",
                1 => b"POST /api/check HTTP/1.1\r\nHost: x\r\n",
                _ => b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\nvar",
            };
            stream.write_all(part).unwrap();
            stream
        })
        .collect();
    let answered = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::atomic::AtomicBool::new(false);
    let slowest = std::sync::Mutex::new(Duration::ZERO);
    std::thread::scope(|s| {
        let (server, answered, done, slowest) = (&server, &answered, &done, &slowest);
        s.spawn(move || {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let asked = std::time::Instant::now();
                assert_eq!(server.ask("POST", "/api/check", b"variant x\n").0, 200);
                let took = asked.elapsed();
                let mut most = slowest.lock().unwrap();
                *most = (*most).max(took);
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let workers: Vec<_> = (0..8)
            .map(|t| {
                let bodies = &bodies;
                s.spawn(move || {
                    for i in 0..375 {
                        let (path, body, expected) = bodies[(t + i) % bodies.len()];
                        let (status, text) = server.ask("POST", path, body);
                        assert_eq!(status, expected, "{path}: {text}");
                        answered.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                })
            })
            .collect();
        for w in workers {
            w.join().unwrap();
        }
        done.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    assert_eq!(answered.into_inner(), 3000);
    let slowest = slowest.into_inner().unwrap();
    assert!(
        slowest < Duration::from_secs(1),
        "a trivial request took {slowest:?}"
    );
    let after = server.memory();
    // (The figures, for a reader of the test's output.)
    eprintln!(
        "3,000 requests answered; the slowest trivial one {slowest:?}; memory {before} KiB before, {after} KiB after"
    );
    assert!(
        after < before + 200 * 1024,
        "memory grew from {before} KiB to {after} KiB"
    );
    // Ctrl-C ends it, the slow clients still connected.
    common::bin::interrupt(&server.child);
    let (status, _) = common::bin::ended_within(&mut server.child, 10);
    assert!(status.success(), "{status:?}");
    drop(slow);
}

/// A request whose work takes longer than the server allows is answered
/// 503 at the limit, saying so; the server goes on answering.
#[test]
fn work_past_the_time_limit_is_answered_at_the_limit() {
    let server = Server::start_with(&["--time-limit", "0.5"]);
    let long = br#"{"variant":"oware-abapa","games":1000,"players":["mcts:3"]}"#;
    let started = std::time::Instant::now();
    let (status, body) = server.ask("POST", "/api/analyze", long);
    assert_eq!(status, 503, "{body}");
    assert!(
        body.contains("took longer than this server allows (0.5 s)"),
        "{body}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(server.ask("GET", "/api/variants", b"").0, 200);
    // The analysis stops handing out games at the limit: the server goes
    // quiet within seconds.
    let quiet = (0..30).any(|_| {
        let before = server.cpu();
        std::thread::sleep(Duration::from_secs(1));
        server.cpu() - before < 20
    });
    assert!(quiet, "the server still works on the request it gave up");
    let refused = common::bin::sow_with(&["serve", "--time-limit", "0"], "");
    assert!(
        refused.stderr.contains("not a number of seconds"),
        "{}",
        refused.stderr
    );
}

/// Issue 42, item 4: work past the time limit went on for 8 to 14 s after
/// its 503, holding its work slot, so that four such requests kept a
/// trivial one waiting 46 s. Now every slot taken at once by long work (an
/// analysis of long games, a computer player's turn at level 9) is
/// answered 503 at the limit, the work stops (the slots come free at
/// once: a trivial request waiting for one is answered soon after the
/// limit), and the server goes quiet.
#[test]
fn work_past_the_time_limit_stops_and_frees_its_slot() {
    let server = Server::start_with(&["--time-limit", "1"]);
    let slots = 2 * std::thread::available_parallelism().map_or(1, |n| n.get());
    let long: [(&str, &[u8]); 3] = [
        (
            "/api/analyze",
            br#"{"variant":"bao-la-kiswahili","games":1,"players":["mcts:3"],"max_plies":10000}"#,
        ),
        (
            "/api/ai",
            br#"{"variant":"bao-la-kiswahili","player":"mcts","level":9}"#,
        ),
        (
            "/api/analyze",
            br#"{"variant":"oware-abapa","games":1000,"players":["minimax:3"]}"#,
        ),
    ];
    let started = std::time::Instant::now();
    std::thread::scope(|s| {
        let asked: Vec<_> = (0..slots)
            .map(|i| {
                let (server, (path, body)) = (&server, long[i % long.len()]);
                s.spawn(move || (path, server.ask("POST", path, body)))
            })
            .collect();
        std::thread::sleep(Duration::from_millis(300));
        let (status, body) = server.ask("POST", "/api/check", b"variant x\n");
        assert_eq!(status, 200, "{body}");
        let waited = started.elapsed();
        assert!(waited < Duration::from_secs(4), "answered after {waited:?}");
        for a in asked {
            let (path, (status, body)) = a.join().unwrap();
            assert_eq!(status, 503, "{path}: {body}");
            assert!(
                body.contains("took longer than this server allows (1 s)"),
                "{body}"
            );
        }
    });
    let quiet = (0..3).any(|_| {
        let before = server.cpu();
        std::thread::sleep(Duration::from_secs(1));
        server.cpu() - before < 20
    });
    assert!(quiet, "the server still works on requests it gave up");
}

/// Issue 42, item 9: `/api/record` wrote records its reader refused (a
/// level of 0 or 255, a seed past 2^63 - 1). A level off 1 to 9 is refused
/// as the request is made; any seed reads back.
#[test]
fn what_api_record_writes_reads_back() {
    for level in [0, 10, 255] {
        let answer = post(
            api::record,
            json!({"variant": "kalah", "moves": ["A"], "level": level}),
        );
        assert!(error(&answer).contains("a level is 1 to 9"), "{}", answer.1);
    }
    for seed in [0, u64::MAX] {
        let (status, made) = post(
            api::record,
            json!({"variant": "kalah", "moves": ["A", "a"], "level": 9, "seed": seed}),
        );
        assert_eq!(status, 200, "{made}");
        let (status, read) = post(api::record_read, json!({"record": made["record"]}));
        assert_eq!(status, 200, "{read}");
        assert_eq!(read["plies"].as_array().unwrap().len(), 3);
    }
}

/// Issue 42, item 1: `/api/play` with `steps` on a board of 100,000 seeds
/// a pit made some 34 MB a move, 10,000 moves a request, and took the
/// server down. An answer past `MAX_ANSWER` is refused, before it is made,
/// naming the limit and what makes it large; a smaller one is answered.
#[test]
fn an_answer_too_large_is_refused_before_it_is_made() {
    let many = "variant many\nplayers south north\nboard {\n  row north: 64 from a1 reversed\n  row south: 64 from A1\n}\nsetup { seeds 100000 }\ntrack: 64 from A1 64 from a1\nsow { take all }\nrule own at start { require owner(origin) == mover and seeds(origin) > 0 }\nend never when seeds(board) == 0\n";
    let (status, loaded) = api::check(many.as_bytes());
    assert_eq!((status, &loaded["ok"]), (200, &json!(true)), "{loaded}");
    // South sows A1, A2, …, North a1, a2, …: each pit full again by its turn.
    let moves: Vec<String> = (0..10_000)
        .map(|i| match i % 2 {
            0 => format!("A{}", i / 2 % 64 + 1),
            _ => format!("a{}", i / 2 % 64 + 1),
        })
        .collect();
    let started = std::time::Instant::now();
    let answer = post(
        api::play,
        json!({"source": many, "moves": moves, "steps": true}),
    );
    let message = error(&answer);
    assert!(
        message.contains("the answer would be larger than 8 MiB"),
        "{message}"
    );
    assert!(
        message.contains("without each turn shown step by step (`steps`)"),
        "{message}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    let answer = post(
        api::play,
        json!({"source": many, "moves": moves, "draw": true}),
    );
    assert!(
        error(&answer).contains("without each position drawn (`draw`)"),
        "{}",
        answer.1
    );
    // A long game of Bao, each position drawn and each turn shown step by
    // step, is answered well within the limit.
    let game = common::bin::sow_with(
        &[
            "random",
            "bao-la-kiswahili",
            "--games",
            "1",
            "--seed",
            "6",
            "--format",
            "json",
        ],
        "",
    );
    let played: Value = serde_json::from_str(game.stdout.lines().next().unwrap()).unwrap();
    let moves = played["moves"].clone();
    assert!(moves.as_array().unwrap().len() > 100, "{played}");
    let (status, whole) = post(
        api::play,
        json!({"variant": "bao-la-kiswahili", "moves": moves, "steps": true, "draw": true}),
    );
    assert_eq!(status, 200, "{whole}");
    // (About 20 KB a ply: some 400 plies of Bao fit.)
    assert!(whole.to_string().len() < api::MAX_ANSWER / 3);
}

/// Issue 42, item 7: a request half sent stayed open for ever, so that
/// 1,100 of them made the server unreachable. A client that does not send
/// its headers (or nothing at all) within `HEADER_TIMEOUT` is closed, one
/// that does not send its body within `BODY_TIMEOUT` is answered 408; the
/// server answers others meanwhile.
#[test]
fn slow_clients_are_timed_out() {
    let server = Server::start();
    let started = std::time::Instant::now();
    let open = |sent: &[u8]| {
        let mut stream = TcpStream::connect(&server.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream.write_all(sent).unwrap();
        stream
    };
    let mut silent = open(b"");
    let mut headers = open(b"POST /api/check HTTP/1.1\r\nHost: x\r\n");
    let mut body =
        open(b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nvariant");
    // Many idle connections beside them.
    let idle: Vec<TcpStream> = (0..200).map(|_| open(b"")).collect();
    let (status, _) = server.ask("POST", "/api/check", b"variant x\n");
    assert_eq!(status, 200);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let answered = |stream: &mut TcpStream| {
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    };
    assert_eq!(answered(&mut silent), "");
    assert_eq!(answered(&mut headers), "");
    let answer = answered(&mut body);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive within 10 s"), "{answer}");
    let waited = started.elapsed();
    assert!(
        (sow::serve::HEADER_TIMEOUT..sow::serve::HEADER_TIMEOUT + Duration::from_secs(5))
            .contains(&waited),
        "closed after {waited:?}"
    );
    drop(idle);
    assert_eq!(server.ask("GET", "/api/variants", b"").0, 200);
}

/// Issue 42, item 8: Ctrl-C did not stop the server while a client held a
/// request half sent, nor did more Ctrl-Cs. It stops within
/// `SHUTDOWN_GRACE` and a moment, whatever the clients do.
#[test]
fn ctrl_c_stops_the_server_whatever_the_clients_do() {
    let mut server = Server::start();
    let mut half = TcpStream::connect(&server.address).unwrap();
    half.write_all(b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nvar")
        .unwrap();
    let _idle = TcpStream::connect(&server.address).unwrap();
    // A request at work too.
    let address = server.address.clone();
    let working = std::thread::spawn(move || {
        let mut stream = TcpStream::connect(&address).unwrap();
        let body = br#"{"variant":"oware-abapa","games":1000,"players":["mcts:3"]}"#;
        let head = format!(
            "POST /api/analyze HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body).unwrap();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
    });
    std::thread::sleep(Duration::from_millis(500));
    common::bin::interrupt(&server.child);
    let (status, took) = common::bin::ended_within(&mut server.child, 15);
    assert!(status.success(), "{status:?}");
    assert!(
        took < sow::serve::SHUTDOWN_GRACE + Duration::from_secs(3),
        "{took:?}"
    );
    working.join().unwrap();
}

/// Issue 42, item 10: `options` of many unknown keys took time that grew
/// faster than the keys (118,000 keys: 20 to 30 s, a 23 MB answer). Past
/// `MAX_GIVEN_OPTIONS` they are refused at once, in one line; a number
/// option's value is read as its number (`04` is `4`).
#[test]
fn many_options_are_refused_at_once() {
    let options: serde_json::Map<String, Value> =
        (0..118_000).map(|i| (format!("k{i}"), json!(1))).collect();
    let started = std::time::Instant::now();
    let answer = post(api::moves, json!({"variant": "kalah", "options": options}));
    assert_eq!(answer.0, 400);
    assert!(
        answer.1.to_string().len() < 2000,
        "{}",
        answer.1.to_string().len()
    );
    assert!(
        answer
            .1
            .to_string()
            .contains("118000 options are given: at most 256 are"),
        "{}",
        answer.1
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let (status, four) = post(
        api::moves,
        json!({"variant": "kalah", "options": {"holes": "04"}}),
    );
    assert_eq!(status, 200, "{four}");
    assert_eq!(four["position"]["options"]["holes"], "4");
    let (status, _) = post(
        api::moves,
        json!({"variant": "kalah", "options": {"holes": 4}, "position": four["position"]}),
    );
    assert_eq!(status, 200);
}

/// Issue 42, item 2: `/api/analyze` answered 500 for a variant whose end
/// holds before the first turn. Its games are games of no turns, drawn.
#[test]
fn an_analysis_of_a_game_over_at_its_start() {
    let source = std::fs::read_to_string("tests/cases/over-at-start/over-at-start.sow").unwrap();
    let (status, report) = post(api::analyze, json!({"source": source, "games": 5}));
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["results"]["draw"], 5, "{report}");
    let (status, checked) = api::check(source.as_bytes());
    assert_eq!(status, 200);
    assert_eq!(
        checked["diagnostics"][0]["severity"], "warning",
        "{checked}"
    );
}

/// `/api/show` gives a text's one file as `sow show` does, its options
/// and players; `/api/language` the checker's words.
#[test]
fn show_and_language() {
    let text = sow::variants::source("oware-abapa").unwrap();
    let (status, shown) = api::show(text.as_bytes());
    assert_eq!(status, 200);
    let cli = common::bin::sow_with(&["show", "oware-abapa"], "");
    assert_eq!(shown["show"].as_str().unwrap(), cli.stdout);
    assert_eq!(shown["players"], json!(["south", "north"]));
    let cli = common::bin::sow_with(&["show", "oware-abapa", "--format", "json"], "");
    assert_eq!(shown["board"].to_string() + "\n", cli.stdout);
    assert_eq!(shown["first_chosen"], false);
    assert_eq!(api::variant_file("dakon").1["first_chosen"], true);
    assert_eq!(shown["options"][0]["name"], "grand_slam");
    assert_eq!(
        shown["options"][0]["choices"],
        json!({"words": ["capture_nothing", "forbidden", "take_all"]})
    );
    let (_, broken) = api::show(b"variant x\nplayers a\n");
    assert_eq!(broken["ok"], false);
    assert!(!broken["diagnostics"].as_array().unwrap().is_empty());
    let (status, words) = api::language();
    assert_eq!(status, 200);
    for (list, word) in [
        ("statements", "rule"),
        ("actions", "capture"),
        ("moments", "land"),
        ("functions", "opposite"),
        ("words", "mover"),
    ] {
        assert!(
            words[list].as_array().unwrap().contains(&json!(word)),
            "{list}: {word}"
        );
    }
}

/// `draw` gives each position's picture, every pit a `data-pit` with its
/// seeds; `steps` each turn seed by seed: Kalah's C lifts four seeds and
/// sows D, E, F and the store.
#[test]
fn a_turn_drawn_and_shown_step_by_step() {
    let (status, moves) = post(api::moves, json!({"variant": "kalah", "draw": true}));
    assert_eq!(status, 200);
    let svg = moves["svg"].as_str().unwrap();
    for label in ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"] {
        assert!(
            svg.contains(&format!(r#"data-pit="{label}" data-seeds="4""#)),
            "{label}"
        );
    }
    assert!(svg.contains(r#"data-store="south" data-seeds="0""#));
    let pits: Vec<&str> = moves["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["pit"].as_str().unwrap())
        .collect();
    assert_eq!(pits, ["A", "B", "C", "D", "E", "F"]);
    let (status, played) = post(
        api::play,
        json!({"variant": "kalah", "moves": ["C"], "steps": true, "draw": true}),
    );
    assert_eq!(status, 200);
    let ply = &played["plies"][1];
    assert_eq!(ply["pit"], "C");
    let frames = ply["steps"]["frames"].as_array().unwrap();
    let seen: Vec<(String, String)> = frames
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap().into(),
                f["at"][0].as_str().unwrap().into(),
            )
        })
        .collect();
    let expected = [
        ("lift", "C"),
        ("sow", "D"),
        ("sow", "E"),
        ("sow", "F"),
        ("sow", "south"),
    ];
    assert_eq!(seen, expected.map(|(k, a)| (k.to_string(), a.to_string())));
    assert_eq!(frames[0]["pits"]["C"], 0);
    assert_eq!(frames[2]["pits"]["E"], 5);
    assert_eq!(frames[4]["stores"]["south"], 1);
    assert_eq!(frames[4]["pits"], ply["position"]["pits"]);
    assert!(ply["svg"]
        .as_str()
        .unwrap()
        .contains(r#"data-pit="C" data-seeds="0""#));
    // A capture is a rule's step: the pits it took from.
    let (_, cap) = post(
        api::play,
        json!({"variant": "kalah", "moves": ["F", "e", "A", "f", "E"], "steps": true}),
    );
    let kinds: Vec<Value> = cap["plies"]
        .as_array()
        .unwrap()
        .iter()
        .skip(1)
        .flat_map(|p| p["steps"]["frames"].as_array().unwrap().clone())
        .filter(|f| f["kind"] == "rule")
        .collect();
    assert!(!kinds.is_empty(), "the line captures");
    for f in &kinds {
        assert!(!f["at"].as_array().unwrap().is_empty());
    }
}

/// A record written by `/api/record` is `sow play --record`'s, and
/// `/api/record/read` plays it back to the same plies; a record whose
/// moves are not its players', or whose result is not theirs, is refused.
#[test]
fn a_record_written_and_read_back() {
    let moves = ["C", "F", "e", "A"];
    let (status, written) = post(
        api::record,
        json!({"variant": "kalah", "moves": moves, "players": ["human", "mcts"], "level": 2}),
    );
    assert_eq!(status, 200, "{written}");
    let text = written["record"].as_str().unwrap();
    assert!(text.contains("variant = \"kalah\""));
    assert!(
        text.contains("players = { south = \"human\", north = \"mcts\" }"),
        "{text}"
    );
    assert!(
        text.contains("1. south C\n2. south F\n3. north e\n4. south A\n"),
        "{text}"
    );
    let path = std::env::temp_dir().join(format!("sow-serve-record-{}.toml", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let cli = common::bin::sow_with(
        &[
            "play",
            "--from-record",
            path.to_str().unwrap(),
            "--format",
            "json",
        ],
        "",
    );
    let _ = std::fs::remove_file(&path);
    assert!(cli.stderr.is_empty(), "{}", cli.stderr);
    let expected: Vec<Value> = cli
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (status, read) = post(api::record_read, json!({"record": text}));
    assert_eq!(status, 200, "{read}");
    let plies: Vec<Value> = read["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| json!({"ply": p["ply"], "move": p["move"], "position": p["position"], "outcome": p["outcome"]}))
        .collect();
    assert_eq!(plies, expected);
    let wrong = text.replace("3. north e", "3. south e");
    assert!(error(&post(api::record_read, json!({"record": wrong})))
        .contains("move 3 (`e`) is south's, but north is to move"));
    let wrong = text.replace("result = \"unfinished\"", "result = \"south wins\"");
    assert!(error(&post(api::record_read, json!({"record": wrong})))
        .contains("its moves lead to `unfinished`"));
    assert!(
        error(&post(api::record_read, json!({"record": "nonsense"})))
            .starts_with("the record: not a game record")
    );
    let oware = sow::variants::source("oware-abapa").unwrap();
    assert!(error(&post(
        api::record_read,
        json!({"record": text, "source": oware})
    ))
    .contains("the record is of `kalah`, not of the variant given (`oware-abapa`)"));
    assert!(error(&post(api::record_read, json!({"variant": "kalah"})))
        .contains("give the record's text as `record`"));
}

/// An analysis in parts (`range`), put together (`/api/analyze/merge`),
/// is the analysis of all its games at once; parts of another run are
/// refused.
#[test]
fn an_analysis_in_parts_is_the_whole() {
    let ask = |more: Value| {
        let mut body = json!({"variant": "kalah", "games": 25, "seed": 3});
        body.as_object_mut()
            .unwrap()
            .extend(more.as_object().unwrap().clone());
        body
    };
    let (_, whole) = post(api::analyze, ask(json!({})));
    let mut parts = Vec::new();
    for range in [[0, 10], [10, 11], [11, 25]] {
        let (status, part) = post(api::analyze, ask(json!({"range": range})));
        assert_eq!(status, 200, "{part}");
        parts.push(part["part"].clone());
    }
    let (status, merged) = post(api::analyze_merge, ask(json!({"parts": parts.clone()})));
    assert_eq!(status, 200, "{merged}");
    assert_eq!(merged, whole);
    let (_, other) = post(api::analyze, ask(json!({"range": [0, 10], "seed": 4})));
    let mixed = vec![other["part"].clone(), parts[1].clone(), parts[2].clone()];
    assert!(
        error(&post(api::analyze_merge, ask(json!({"parts": mixed})))).contains("different runs")
    );
    assert!(error(&post(
        api::analyze_merge,
        ask(json!({"parts": parts[1..].to_vec()}))
    ))
    .contains("games"));
    assert!(error(&post(api::analyze, ask(json!({"range": [5, 30]}))))
        .contains("`range` is [from, to]"));
    assert!(error(&post(api::analyze_merge, ask(json!({})))).contains("no parts"));
}

/// A body past the limit is answered 413 (before it is read, where its
/// length says so); one that stops arriving (the client closed its side)
/// is answered 400, not taken for one too large.
#[test]
fn a_body_too_large_or_cut_short_says_which() {
    let limit = Duration::from_secs(5);
    let ask = |request: String| {
        let answer = sow::serve::answer_bytes(request.as_bytes(), limit).expect("answered");
        String::from_utf8_lossy(&answer).into_owned()
    };
    let said = sow::serve::MAX_BODY + 1;
    let large = ask(format!(
        "POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: {said}\r\n\r\nvariant"
    ));
    assert!(large.starts_with("HTTP/1.1 413"), "{large}");
    assert!(large.contains("is at most"), "{large}");
    let short =
        ask("POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nvariant".into());
    assert!(short.starts_with("HTTP/1.1 400"), "{short}");
    assert!(short.contains("could not be read"), "{short}");
}
