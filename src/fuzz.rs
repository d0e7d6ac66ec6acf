//! Fuzz targets: each takes arbitrary bytes as untrusted input and must
//! never panic, hang or exhaust memory; where a result is given, what sow
//! promises of it must hold (a printed position reads back as the same
//! game, a written turn reads back as itself, seeds are conserved). The
//! fuzzers in `fuzz/` (run with `cargo afl`) call these, and
//! `tests/fuzz_corpus.rs` replays the corpus they keep through them.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::engine::Game;
use crate::{json, limits, load, notation, play, render, script, variants, Variant};

/// How long a target plays on one input (the engine bounds each turn; this
/// bounds the number of them a fuzzer waits for).
const PLAYING: Duration = Duration::from_secs(2);

/// A fuzz target.
pub type Target = fn(&[u8]);

/// The targets, by name (the fuzzers' binaries and the corpus folders).
pub const TARGETS: &[(&str, Target)] = &[
    ("check", check),
    ("play", play),
    ("position", position),
    ("script", script),
    ("moves", moves),
    ("record", record),
    ("session", session),
    ("draw", draw),
    #[cfg(feature = "serve")]
    ("api", api),
    #[cfg(feature = "serve")]
    ("http", http),
    ("python", python),
];

/// The work a turn may do under a fuzzer: a fiftieth of the engine's
/// limit (the limit itself is tested, see `tests/inputs.rs`), so that an
/// input that runs into it does not look like a hang.
const FUZZ_WORK: u64 = limits::MAX_TURN_WORK / 50;

/// A variant file: parsed, checked (its errors rendered), and, when it is
/// accepted, shown as one file that checks again, and played.
pub fn check(data: &[u8]) {
    limits::set_turn_work(FUZZ_WORK);
    let Ok(text) = limits::read_bounded(data, "fuzz.sow") else {
        return;
    };
    match load::load_text("fuzz.sow", &text, Path::new(""), &[]) {
        Ok(v) => {
            let shown = load::show(&v);
            if let Err(e) = Variant::from_source("shown.sow", &shown) {
                panic!(
                    "`sow show` printed a file that does not check:\n{}",
                    e.render()
                );
            }
            if let Ok(game) = Game::new(v.engine.clone()) {
                random_play(&v, game, &[]);
            }
        }
        Err(e) => {
            let _ = e.render();
        }
    }
}

/// Random play of a shipped variant (the first byte picks it, the second
/// its options), the other bytes choosing each turn among the legal ones.
pub fn play(data: &[u8]) {
    limits::set_turn_work(FUZZ_WORK);
    let Some((v, rest)) = shipped(data) else {
        return;
    };
    if let Ok(game) = Game::new(v.engine.clone()) {
        random_play(&v, game, rest);
    }
}

/// A position of a shipped variant (the first bytes pick it), read with
/// every problem named; a position read is played.
pub fn position(data: &[u8]) {
    limits::set_turn_work(FUZZ_WORK);
    let Some((v, rest)) = shipped(data) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match json::read_position(&v, text) {
        Ok(game) => random_play(&v, game, &[]),
        Err(d) => {
            let _ = d.render("fuzz.json", text);
        }
    }
}

/// A script: run, its errors rendered.
pub fn script(data: &[u8]) {
    limits::set_turn_work(FUZZ_WORK);
    let Ok(text) = limits::read_bounded(data, "fuzz.toml") else {
        return;
    };
    match script::run(&text, Path::new(""), &mut std::io::sink()) {
        Ok(_) => {}
        Err(script::ScriptError::Script(d)) => {
            let _ = d.render("fuzz.toml", &text);
        }
        Err(script::ScriptError::Load(e)) => {
            let _ = e.render();
        }
        Err(script::ScriptError::Other(name, source, d)) => {
            let _ = crate::diagnostic::render_all(&d, &name, &source);
        }
    }
}

/// A move list for a shipped variant (the first bytes pick it), played
/// turn by turn as `sow play --moves` plays it.
pub fn moves(data: &[u8]) {
    limits::set_turn_work(FUZZ_WORK);
    let Some((v, rest)) = shipped(data) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(mut game) = Game::new(v.engine.clone()) else {
        return;
    };
    for (at, token) in play::tokens(text) {
        match play::play_written(&mut game, at, token) {
            Ok(_) => {
                let _ = render::board(&v, &game);
            }
            Err(d) => {
                let _ = d.render("--moves", text);
                return;
            }
        }
    }
}

/// A game record (`sow play --from-record`): read, its header checked,
/// and its moves replayed where it names a shipped variant.
pub fn record(data: &[u8]) {
    limits::set_turn_work(FUZZ_WORK);
    let Ok(text) = limits::read_bounded(data, "fuzz.toml") else {
        return;
    };
    let r = match crate::record::read(&text) {
        Ok(r) => r,
        Err(d) => {
            let _ = d.render("fuzz.toml", &text);
            return;
        }
    };
    // (A record may name a file; only shipped variants are played here.)
    if variants::source(&r.variant).is_none() {
        return;
    }
    let Some(v) = Variant::shipped(&r.variant) else {
        return;
    };
    if let Err(d) = r.check_players(&v.engine.rules.players) {
        let _ = d.render("fuzz.toml", &text);
        return;
    }
    let Ok(mut game) = Game::new(v.engine.clone()) else {
        return;
    };
    for (at, _, token) in &r.moves {
        if let Err(d) = play::play_written(&mut game, *at, token) {
            let _ = d.render("fuzz.toml", &text);
            return;
        }
    }
    if let Err(d) = r.check_result(&crate::record::result(&v, &game)) {
        let _ = d.render("fuzz.toml", &text);
    }
}

/// Lines typed at `sow play` (the first bytes pick a shipped variant, the
/// third whether the session is at a terminal): turns, `undo`, `hint`,
/// `help`, `save`, anything; the session ends or refuses a line with a
/// message, and never writes a file.
pub fn session(data: &[u8]) {
    limits::set_turn_work(FUZZ_WORK);
    let Some((v, rest)) = shipped(data) else {
        return;
    };
    let Some((&mode, typed)) = rest.split_first() else {
        return;
    };
    // (`save FILE` would write a file: the fuzzer's lines save nothing.)
    let typed: Vec<u8> = typed
        .split(|&b| b == b'\n')
        .filter(|l| !l.trim_ascii_start().starts_with(b"save"))
        .collect::<Vec<_>>()
        .join(&b'\n');
    let Ok(mut game) = Game::new(v.engine.clone()) else {
        return;
    };
    let mut seats = crate::session::Seats::new([crate::ai::Seat::Human; 2], 1, 0);
    let mut input = std::io::BufReader::new(&typed[..]);
    let _ = crate::session::run(
        &v,
        &mut game,
        &mut seats,
        crate::session::Io {
            input: Some(&mut input),
            interactive: mode & 1 == 1,
            print: &mut |g, _, _| {
                let _ = render::board(&v, g);
            },
            played: &mut |_, _, _, _| {},
            talk: &mut std::io::sink(),
        },
        200,
    );
}

/// A position of a shipped variant (the first bytes pick it, the third the
/// pit ringed) drawn as SVG: every character drawn is one XML allows.
pub fn draw(data: &[u8]) {
    limits::set_turn_work(FUZZ_WORK);
    let Some((v, rest)) = shipped(data) else {
        return;
    };
    let Some((&last, rest)) = rest.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let game = match json::read_position(&v, text) {
        Ok(game) => game,
        Err(d) => {
            let _ = d.render("fuzz.json", text);
            return;
        }
    };
    let pits = v.engine.rules.pits.len();
    let last = (pits > 0).then_some(u16::from(last) % pits.max(1) as u16);
    let svg = crate::svg::board(&v, &game, last);
    let xml = |c: char| matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..);
    assert!(
        svg.chars().all(xml),
        "the SVG holds a character XML does not allow"
    );
}

/// A request to the server's JSON API: the first byte picks the endpoint
/// (`/api/check` … `/api/analyze/merge`), the rest is its body, answered
/// as `sow serve` answers it (under a time limit of two seconds). Every
/// answer is JSON: `200`, or a `4xx` saying what is wrong, never larger
/// than the server's limit.
#[cfg(feature = "serve")]
pub fn api(data: &[u8]) {
    use crate::serve::api;
    limits::set_turn_work(FUZZ_WORK);
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let endpoints: [api::Endpoint; 9] = [
        api::check,
        api::show,
        api::record,
        api::record_read,
        api::moves,
        api::play,
        api::ai,
        api::analyze,
        api::analyze_merge,
    ];
    let endpoint = endpoints[pick as usize % endpoints.len()];
    let cancel = crate::runs::Cancel::until(Instant::now() + PLAYING);
    let (status, answer) = crate::runs::with_cancel(&cancel, || endpoint(body));
    if cancel.stopped() {
        // (Past the time limit the server answers 503, whatever was made.)
        return;
    }
    assert!(
        status == 200
            || (status == 400
                && (answer.get("error").is_some() || answer.get("diagnostics").is_some())),
        "answered {status}: {answer}"
    );
    assert!(
        answer.to_string().len() <= api::MAX_ANSWER + (1 << 20),
        "an answer past the server's limit"
    );
}

/// Bytes sent to the server on one connection (a request's line, headers
/// and body, or anything), then the connection closed: answered as `sow
/// serve` answers, with HTTP, within its limits; never a panic or a hang.
#[cfg(feature = "serve")]
pub fn http(data: &[u8]) {
    limits::set_turn_work(FUZZ_WORK);
    match crate::serve::answer_bytes(data, PLAYING) {
        // (In the request's version: an HTTP/1.0 request is answered so.)
        Ok(answer) => assert!(
            answer.is_empty()
                || answer.starts_with(b"HTTP/1.1 ")
                || answer.starts_with(b"HTTP/1.0 "),
            "not an HTTP answer: {:?}",
            String::from_utf8_lossy(&answer[..answer.len().min(200)])
        ),
        Err(e) => panic!("the connection: {e}"),
    }
}

/// What the Python package (`python/`) asks of the library, in an order
/// the bytes choose: a shipped variant (the first bytes), then calls, a
/// byte each and what it takes after it: the legal moves and actions, a
/// move as written, an action by number, the tensor, a pickle's round
/// trip (the position read back, the turns played set, the actions of a
/// turn half chosen taken again), an action's notation, a perft, random
/// games, an analysis's part, and parts merged from JSON. Each gives a
/// result or an error; what a pickle keeps reads back as the same game.
/// All within [`PLAYING`], as a Python call interrupted is stopped (a
/// call under way when the time is up stops, and nothing after it runs).
pub fn python(data: &[u8]) {
    let cancel = crate::runs::Cancel::until(Instant::now() + PLAYING);
    crate::runs::with_cancel(&cancel, || python_calls(data));
}

fn python_calls(data: &[u8]) {
    use crate::actions::{Actions, Chosen};
    limits::set_turn_work(FUZZ_WORK);
    let Some((v, mut rest)) = shipped(data) else {
        return;
    };
    let Ok(mut game) = Game::new(v.engine.clone()) else {
        return;
    };
    let numbered = Actions::of(&v.engine.rules);
    let mut partial = None;
    let start = Instant::now();
    let mut take = |n: usize| -> Option<&[u8]> {
        let (head, tail) = rest.split_at_checked(n)?;
        rest = tail;
        Some(head)
    };
    while let Some(&[op]) = take(1) {
        if start.elapsed() > PLAYING {
            return;
        }
        match op % 11 {
            0 => {
                let _: Vec<String> = numbered
                    .open(&game, partial)
                    .map(|t| notation::write_turn(&game, t))
                    .collect();
                let _ = numbered.legal(&game, partial);
            }
            1 => {
                let Some(&[n]) = take(1) else { return };
                let Some(text) = take(usize::from(n % 16)) else {
                    return;
                };
                let Ok(text) = std::str::from_utf8(text) else {
                    continue;
                };
                if partial.is_none() && !text.trim().is_empty() {
                    let _ = play::play_written(&mut game, 0, text.trim());
                }
            }
            2 => {
                let Some(&[a, b]) = take(2) else { return };
                let action = usize::from(u16::from_le_bytes([a, b]));
                match numbered.choose(&game, partial, action) {
                    Some(Chosen::Whole(turn)) => {
                        if game.play(turn).is_err() {
                            return;
                        }
                        partial = None;
                    }
                    Some(Chosen::Partial(p)) => partial = Some(p),
                    None => {}
                }
            }
            3 => {
                let mut out = Vec::new();
                crate::tensor::write(&v, game.position(), partial, &mut out);
                assert_eq!(out.len(), crate::tensor::size(&v), "the tensor's size");
            }
            4 => {
                // A pickle: the position (and a finished game's result),
                // the turns played, the actions of a turn half chosen.
                let printed = json::position(&v, &game).to_string();
                let read = match game.outcome() {
                    Some(o) => json::read_finished(&v, &printed, &json::outcome(&v, Some(o))),
                    None => json::read_position(&v, &printed),
                };
                let mut back = match read {
                    Ok(back) => back,
                    // (Stopped as its turns were listed.)
                    Err(_) if crate::runs::stopped() => return,
                    Err(d) => panic!("a pickled position does not read back: {d}"),
                };
                assert_eq!(back.outcome(), game.outcome(), "a pickle's result");
                back.set_plies(game.plies());
                let mut again = None;
                for &a in partial
                    .map(|p| numbered.taken(p))
                    .unwrap_or_default()
                    .iter()
                {
                    match numbered.choose(&back, again, a) {
                        Some(Chosen::Partial(p)) => again = Some(p),
                        other => panic!("a turn half chosen does not read back: {other:?}"),
                    }
                }
                assert_eq!(back.position(), game.position(), "a pickle's position");
                assert_eq!(numbered.legal(&back, again), numbered.legal(&game, partial));
            }
            5 => {
                let Some(&[a, b]) = take(2) else { return };
                let _ = numbered.written(&v.engine.rules, usize::from(u16::from_le_bytes([a, b])));
            }
            6 => {
                let Some(&[d]) = take(1) else { return };
                let _ = play::perft(&game, u32::from(d % 4));
            }
            7 => {
                let Some(&[n, seed]) = take(2) else { return };
                let plan = play::random::Plan {
                    games: u64::from(n % 4),
                    seed: u64::from(seed),
                    max_plies: 200,
                    moves: true,
                };
                let _ = play::random::random_games(&game, plan, 1, true, |_| true);
            }
            8 | 9 => {
                let Some(&[n, from, seat]) = take(3) else {
                    return;
                };
                let seats = [
                    crate::ai::Seat::Random,
                    crate::ai::Seat::Mcts,
                    crate::ai::Seat::Minimax,
                ];
                let plan = crate::analyze::Plan {
                    games: u64::from(n % 4),
                    seed: 0,
                    players: [seats[usize::from(seat % 3)], crate::ai::Seat::Random],
                    levels: [1, 1],
                    max_plies: 100,
                    keep: false,
                };
                if plan.refusal(&game).is_some() {
                    continue;
                }
                let from = u64::from(from) % (plan.games + 1);
                let part = crate::analyze::analyze_part(
                    &v,
                    &game,
                    plan.clone(),
                    from..plan.games,
                    1,
                    true,
                );
                let whole = crate::analyze::analyze_part(&v, &game, plan, 0..from, 1, true);
                if crate::runs::stopped() {
                    // (Stopped: the parts are short of their games.)
                    return;
                }
                if let Err(why) = crate::analyze::Report::merged(&v, vec![part, whole]) {
                    panic!("the parts of one run do not merge: {why}");
                }
            }
            _ => {
                // Parts as JSON, as a host may hand them back.
                let Some(&[n]) = take(1) else { return };
                let Some(text) = take(usize::from(n)) else {
                    return;
                };
                let Ok(parts) = serde_json::from_slice::<Vec<crate::analyze::Part>>(text) else {
                    continue;
                };
                let _ = crate::analyze::Report::merged(&v, parts).map(|r| r.json());
            }
        }
    }
}

/// The shipped variant the first byte names, with option values the
/// second byte picks, and the bytes after them.
fn shipped(data: &[u8]) -> Option<(Variant, &[u8])> {
    let (&pick, rest) = data.split_first()?;
    let (&options, rest) = rest.split_first()?;
    let names = variants::names();
    let v = Variant::shipped(names[pick as usize % names.len()])?;
    let given: Vec<(String, String)> = v
        .engine
        .rules
        .options
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let value = match &o.choices {
                crate::ir::Choices::Words(w) => w[(options as usize >> i) % w.len()].clone(),
                crate::ir::Choices::Range(lo, _) => lo.to_string(),
            };
            (o.name.clone(), value)
        })
        .collect();
    Some((v.with_options(&given).ok()?, rest))
}

/// Plays turns chosen by `choices` (then the first legal turn each time),
/// checking at every position what sow promises of it.
fn random_play(v: &Variant, mut game: Game, choices: &[u8]) {
    let start = Instant::now();
    let total = game.position().total();
    for k in 0..200usize {
        if game.outcome().is_some() || start.elapsed() > PLAYING {
            return;
        }
        let _ = render::board(v, &game);
        // A printed position reads back as the same game.
        let printed = json::position(v, &game).to_string();
        match json::read_position(v, &printed) {
            Ok(back) => {
                assert_eq!(back.position(), game.position(), "a position read back");
                assert_eq!(back.legal_turns(), game.legal_turns(), "its legal turns");
            }
            Err(d) => panic!("sow refused the position it printed: {d}\n{printed}"),
        }
        let legal = game.legal_turns().to_vec();
        if legal.is_empty() {
            return;
        }
        for &t in &legal {
            let written = notation::write_turn(&game, t);
            match notation::parse_turn(&game, &written) {
                Ok(back) => assert_eq!(back, t, "`{written}` reads back as itself"),
                Err(d) => panic!("`{written}` does not read back: {d}"),
            }
        }
        let pick = choices.get(k).copied().unwrap_or(0) as usize;
        if game.play(legal[pick % legal.len()]).is_err() {
            return;
        }
        if !v.engine.rules.loses_seeds() {
            assert_eq!(game.position().total(), total, "seeds are conserved");
        }
    }
}
