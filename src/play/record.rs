//! Game records (`sow play --record FILE`, `--from-record FILE`): the
//! moves of a game, one a line with its number and player, under a header
//! saying what was played, by whom, when and how it ended. A record is a
//! TOML file a person can read, and sow reads back.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostic::{Diagnostic, Span};

/// What a record says, as written.
#[derive(Debug, Clone)]
pub struct Header {
    /// The variant, as named on the command line (a shipped name or a
    /// path).
    pub variant: String,
    /// Its title.
    pub title: String,
    /// The options in force, by name.
    pub options: Vec<(String, String)>,
    /// The player who moved first, where the rules leave it open.
    pub first: Option<String>,
    /// Who played each seat (`mcts`, `human` …).
    pub players: Vec<(String, String)>,
    /// The computer players' level.
    pub level: u8,
    /// The computer players' seed.
    pub seed: u64,
    /// How the game ended (or that it had not).
    pub result: String,
    /// The final scores by player, once it ended.
    pub scores: Vec<(String, i64)>,
    /// The position it started from, where that was not the setup (as
    /// a position file has it).
    pub start: Option<String>,
}

impl Header {
    /// The header of a game of `v` named `variant` that has reached `end`:
    /// its title, options, result and scores; no first player, seats,
    /// level, seed or start position, for the caller to give.
    pub fn of(v: &crate::Variant, end: &crate::Game, variant: String) -> Header {
        let r = &v.engine.rules;
        Header {
            variant,
            title: r.title.clone(),
            options: r
                .options
                .iter()
                .map(|o| (o.name.clone(), o.value.clone()))
                .collect(),
            first: None,
            players: Vec::new(),
            level: 0,
            seed: 0,
            result: result(v, end),
            scores: match end.outcome() {
                Some(o) => r.players.iter().cloned().zip(o.scores).collect(),
                None => Vec::new(),
            },
            start: None,
        }
    }
}

/// The record of a game: the header, then each move with its player.
pub fn write(h: &Header, moves: &[(String, String)], date: &str) -> String {
    use std::fmt::Write as _;
    let q = |s: &str| toml::Value::String(s.to_string()).to_string();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# A game of {} recorded by sow {}; replay it with `sow play --from-record FILE`.",
        // (A comment holds no control character.)
        h.title.replace(|c: char| c.is_control(), " "),
        env!("CARGO_PKG_VERSION")
    );
    let _ = writeln!(s, "variant = {}", q(&h.variant));
    let _ = writeln!(s, "title = {}", q(&h.title));
    if !h.options.is_empty() {
        let o: Vec<String> = h
            .options
            .iter()
            .map(|(k, v)| format!("{k} = {}", q(v)))
            .collect();
        let _ = writeln!(s, "options = {{ {} }}", o.join(", "));
    }
    if let Some(f) = &h.first {
        let _ = writeln!(s, "first = {}", q(f));
    }
    let seats: Vec<String> = h
        .players
        .iter()
        .map(|(seat, who)| format!("{seat} = {}", q(who)))
        .collect();
    let _ = writeln!(s, "players = {{ {} }}", seats.join(", "));
    let _ = writeln!(s, "level = {}", h.level);
    // (TOML's whole numbers stop at 2^63 - 1: a seed past it is written
    // as its digits in quotes, which the reader takes too.)
    match i64::try_from(h.seed) {
        Ok(seed) => writeln!(s, "seed = {seed}"),
        Err(_) => writeln!(s, "seed = {}", q(&h.seed.to_string())),
    }
    .unwrap_or_default();
    let _ = writeln!(s, "date = {}", q(date));
    let _ = writeln!(s, "sow = {}", q(env!("CARGO_PKG_VERSION")));
    let _ = writeln!(s, "result = {}", q(&h.result));
    if !h.scores.is_empty() {
        let sc: Vec<String> = h.scores.iter().map(|(p, n)| format!("{p} = {n}")).collect();
        let _ = writeln!(s, "scores = {{ {} }}", sc.join(", "));
    }
    let _ = writeln!(s, "plies = {}", moves.len());
    if let Some(start) = &h.start {
        let _ = writeln!(s, "start = {}", q(start.trim()));
    }
    let _ = writeln!(s, "moves = '''");
    for (i, (player, mv)) in moves.iter().enumerate() {
        let _ = writeln!(s, "{}. {player} {mv}", i + 1);
    }
    let _ = writeln!(s, "'''");
    s
}

/// How a game ended, as a record writes it (`unfinished` while it goes
/// on).
pub fn result(v: &crate::Variant, game: &crate::Game) -> String {
    match game.outcome() {
        Some(o) => crate::render::result_text(&v.engine.rules, o),
        None => "unfinished".to_string(),
    }
}

/// Today's date (UTC) as `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The date `days` after 1970-01-01 (the proleptic Gregorian calendar).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[derive(Deserialize)]
struct Raw {
    variant: Spanned<String>,
    #[serde(default)]
    options: BTreeMap<String, toml::Value>,
    first: Option<String>,
    start: Option<String>,
    moves: Spanned<String>,
    // What the rest of the header says is checked, where it is given.
    players: Option<Spanned<BTreeMap<String, Spanned<String>>>>,
    level: Option<Spanned<i64>>,
    // (Any number from 0 up, in quotes past TOML's largest whole number:
    // read only so that TOML refuses the rest.)
    seed: Option<Spanned<toml::Value>>,
    plies: Option<Spanned<i64>>,
    result: Option<Spanned<String>>,
}

/// A record read back: what to play, and each move with where it is in
/// the file (a byte offset), its number and its player.
#[derive(Debug)]
pub struct Read {
    /// The variant, as the record names it.
    pub variant: String,
    /// The options, by name.
    pub options: Vec<(String, String)>,
    /// Who moved first, where the rules leave it open.
    pub first: Option<String>,
    /// The start position's file text, where the record has one.
    pub start: Option<String>,
    /// Each move: (byte offset of the move, its player, the move).
    pub moves: Vec<(usize, String, String)>,
    /// The seats as the header names them (each with where its kind is
    /// written), and where the table is: checked against the variant's
    /// players by [`Read::check_players`].
    pub players: Option<(Span, Vec<(String, Span)>)>,
    /// The result the header says the moves lead to, and where it is:
    /// checked once they are played ([`Read::check_result`]).
    pub result: Option<(String, Span)>,
}

impl Read {
    /// The header's seats are the variant's players, each played by a
    /// kind of seat sow has.
    pub fn check_players(&self, players: &[String]) -> Result<(), Diagnostic> {
        let Some((table, seats)) = &self.players else {
            return Ok(());
        };
        let names: Vec<&str> = seats.iter().map(|(s, _)| s.as_str()).collect();
        let mut wanted: Vec<&str> = players.iter().map(String::as_str).collect();
        let mut named = names.clone();
        wanted.sort_unstable();
        named.sort_unstable();
        if wanted != named {
            return Err(Diagnostic::at(
                *table,
                format!(
                    "the record's players are {}, not the variant's ({})",
                    names.join(", "),
                    players.join(", ")
                ),
                "these seats",
            )
            .hint(
                "a record names each player of its variant once, as `sow play --record` writes it",
            ));
        }
        Ok(())
    }

    /// Move `ply` (from 1), written `token` at byte `at`, is `player`'s
    /// as the record says, and `to_move` is to move.
    pub fn check_mover(
        ply: usize,
        (at, token): (usize, &str),
        player: &str,
        to_move: &str,
    ) -> Result<(), Diagnostic> {
        if player == to_move {
            return Ok(());
        }
        Err(Diagnostic::at(
            Span::new(at, at + token.len()),
            format!("move {ply} is {player}'s, but {to_move} is to move"),
            "not this player's turn",
        )
        .hint("a record's moves are as `sow play --record` wrote them"))
    }

    /// The header's result is what the moves led to (`result`, as
    /// [`crate::render::result_text`] writes it, or `unfinished`).
    pub fn check_result(&self, result: &str) -> Result<(), Diagnostic> {
        match &self.result {
            Some((said, at)) if said != result => Err(Diagnostic::at(
                *at,
                format!(
                    "the record says the game ended `{said}`, but its moves lead to `{result}`"
                ),
                "not what the moves lead to",
            )
            .hint("a record's result is the one its moves reach; mend it or leave `result` out")),
            Some(_) | None => Ok(()),
        }
    }
}

/// Reads a record (the rest of the header is for people).
pub fn read(text: &str) -> Result<Read, Diagnostic> {
    let raw: Raw = toml::from_str(text).map_err(|e| {
        let s = e.span().map_or(Span::new(0, 0), |r| Span::new(r.start, r.end));
        Diagnostic::at(s, format!("not a game record: {}", e.message()), "here")
            .hint("a record as `sow play --record` writes it: `variant`, then `moves = '''` with a line `N. PLAYER MOVE` for each move")
    })?;
    let mut options = Vec::new();
    for (k, v) in raw.options {
        let v = match v {
            toml::Value::String(s) => s,
            toml::Value::Integer(n) => n.to_string(),
            other => {
                return Err(Diagnostic::new(format!(
                    "option `{k}` is {other}: a record's options are words or numbers"
                )))
            }
        };
        options.push((k, v));
    }
    // The moves' text, read where it stands in the file (for the offsets
    // of errors): after `'''` and the line break right after it, which
    // TOML drops, up to the closing `'''`. A literal string keeps the rest
    // as is (but for line breaks, `\r\n` read as `\n`).
    let span = raw.moves.span();
    let mut at = span.start + 3;
    let rest = text.get(at..).unwrap_or("");
    at += if rest.starts_with("\r\n") {
        2
    } else {
        usize::from(rest.starts_with('\n'))
    };
    let literal = text.get(span.start..).is_some_and(|t| t.starts_with("'''"));
    let body = match text.get(at..span.end.saturating_sub(3)) {
        Some(b) if literal && b.replace("\r\n", "\n") == *raw.moves.get_ref() => b,
        _ => {
            return Err(Diagnostic::at(
                Span::new(span.start, span.end),
                "the moves are not a multi-line literal string",
                "here",
            )
            .hint("write them between `'''` and `'''`, one `N. PLAYER MOVE` a line"))
        }
    };
    let mut moves = Vec::new();
    let mut offset = at;
    for line in body.split_inclusive('\n') {
        let words: Vec<(usize, &str)> = crate::play::tokens(line);
        match words.as_slice() {
            [] => {}
            [(k, n), (_, player), (m, mv)]
                if n.strip_suffix('.')
                    .is_some_and(|n| n.parse::<u32>().is_ok()) =>
            {
                if n.trim_end_matches('.') != (moves.len() + 1).to_string() {
                    return Err(Diagnostic::at(
                        Span::new(offset + k, offset + k + n.len()),
                        format!("move {n} where move {}. was expected", moves.len() + 1),
                        "out of order",
                    )
                    .hint("the moves are numbered from 1, one a line"));
                }
                moves.push((offset + m, player.to_string(), mv.to_string()));
            }
            _ => {
                return Err(Diagnostic::at(
                    Span::new(offset, offset + line.trim_end().len()),
                    "not a move line",
                    "here",
                )
                .hint("each line of `moves` is `N. PLAYER MOVE`, as in `1. south C`"))
            }
        }
        offset += line.len();
    }
    let span = |s: std::ops::Range<usize>| Span::new(s.start, s.end);
    if let Some(plies) = &raw.plies {
        if *plies.get_ref() != moves.len() as i64 {
            return Err(Diagnostic::at(
                span(plies.span()),
                format!(
                    "the record says {} plies, but it lists {} moves",
                    plies.get_ref(),
                    moves.len()
                ),
                "not the number of moves",
            )
            .hint("`plies` counts the lines of `moves`; mend it or leave it out"));
        }
    }
    if let Some(seed) = &raw.seed {
        let whole = match seed.get_ref() {
            toml::Value::Integer(n) => u64::try_from(*n).is_ok(),
            // (Digits only, as the writer writes them: not `+12`.)
            toml::Value::String(s) => {
                s.bytes().all(|b| b.is_ascii_digit()) && s.parse::<u64>().is_ok()
            }
            _ => false,
        };
        if !whole {
            return Err(Diagnostic::at(
                span(seed.span()),
                format!("seed {} is not a seed", seed.get_ref()),
                "not a seed",
            )
            .hint("a seed is a whole number from 0 to 18446744073709551615"));
        }
    }
    if let Some(level) = &raw.level {
        if !crate::ai::LEVELS.contains(&u8::try_from(*level.get_ref()).unwrap_or(0)) {
            return Err(Diagnostic::at(
                span(level.span()),
                format!(
                    "level {} is not a level of the computer players",
                    level.get_ref()
                ),
                "out of range",
            )
            .hint("a level is 1 to 9"));
        }
    }
    let players = match raw.players {
        None => None,
        Some(table) => {
            let at = span(table.span());
            let mut seats = Vec::new();
            for (seat, kind) in table.into_inner() {
                if crate::ai::Seat::named(kind.get_ref()).is_none() {
                    let kinds: Vec<&str> = crate::ai::Seat::ALL.iter().map(|s| s.name()).collect();
                    return Err(Diagnostic::at(
                        span(kind.span()),
                        format!("`{}` is not a kind of player", kind.get_ref()),
                        "unknown",
                    )
                    .hint(format!("a seat is played by one of: {}", kinds.join(", "))));
                }
                seats.push((seat, span(kind.span())));
            }
            Some((at, seats))
        }
    };
    Ok(Read {
        variant: raw.variant.into_inner(),
        options,
        first: raw.first,
        start: raw.start,
        moves,
        players,
        result: raw.result.map(|r| {
            let at = span(r.span());
            (r.into_inner(), at)
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_dated_by_the_gregorian_calendar() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(civil(20_788), (2026, 12, 1));
    }
}
