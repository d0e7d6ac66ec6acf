//! `sow play`: a game, each position printed: the moves given, then the
//! seats' players (a person at the prompt, or a computer).

use std::io::{self, Write};
use std::path::Path;

use clap::{Args, ValueEnum};

use super::args::SeatArg;
use super::output::{err_line, fail, fail_plain, read, Failed};
use super::pick::{game_at, no_first, Pick};
use crate::engine::{Game, Turn};
use crate::session::{self, Ended, Seats};
use crate::{ai, json, play, render};

#[derive(Args, Debug)]
pub(super) struct Play {
    /// A shipped variant's name or a path to a `.sow` file (with
    /// `--from-record`: the record's).
    #[arg(required_unless_present = "from_record")]
    variant: Option<String>,
    /// Give an option of the variant a value (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Who moves first, where the rules leave the choice open to the
    /// players (`first chosen`).
    #[arg(long, value_name = "PLAYER")]
    first: Option<String>,
    /// Start from this position file (JSON).
    #[arg(long, conflicts_with = "from_record")]
    from: Option<String>,
    /// The moves, separated by spaces (a move may begin with `-`); with
    /// them, nobody is asked for more (computer seats play on).
    #[arg(long, allow_hyphen_values = true, conflicts_with = "from_record")]
    moves: Option<String>,
    /// Replay a game record (`--record`): its variant, options and
    /// moves; then, as after `--moves`, computer seats play on.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["variant", "options", "first"])]
    from_record: Option<String>,
    /// Write the game's record here when it ends (or is left): the
    /// moves under a header of the variant, options, players, date,
    /// result and sow version.
    #[arg(long, value_name = "FILE")]
    record: Option<String>,
    /// Who plays the first player's seat.
    #[arg(long, value_enum, default_value = "human")]
    south: SeatArg,
    /// Who plays the second player's seat.
    #[arg(long, value_enum, default_value = "human")]
    north: SeatArg,
    /// How hard the computer players think, 1 to 9 (5: about 2 s a turn
    /// at most on a small machine).
    #[arg(long, default_value_t = ai::DEFAULT_LEVEL, value_parser = clap::value_parser!(u8).range(1..=9))]
    level: u8,
    /// The computer players' seed: the same seed plays the same game.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Stop after this many plies played at the seats.
    #[arg(long, default_value_t = 10_000)]
    max_plies: u32,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: PlayFormat,
    /// With `--format svg`: the folder the pictures go into (made if
    /// need be).
    #[arg(long, default_value = ".")]
    dir: String,
}

/// How `sow play` shows each ply.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum PlayFormat {
    /// The text board.
    Text,
    /// One JSON object a ply.
    Json,
    /// One picture a ply, `ply-0000.svg` … into `--dir`.
    Svg,
}

impl Play {
    pub(super) fn run(self, out: &mut impl Write) -> Result<(), Failed> {
        let Play {
            variant,
            options,
            first,
            from,
            moves,
            from_record,
            record,
            south,
            north,
            level,
            seed,
            max_plies,
            format,
            dir,
        } = self;
        let seats = Seats::new([south.seat(), north.seat()], level, seed);
        let pick = Pick {
            variant: variant.unwrap_or_default(),
            options,
            first,
        };
        let given = match (&from_record, moves) {
            (Some(path), _) => Given::Record(path.clone()),
            (None, Some(m)) => Given::Moves(m),
            (None, None) => Given::Nothing,
        };
        let keep = Keep {
            path: record,
            players: [south, north],
            level,
            seed,
        };
        let show = match format {
            PlayFormat::Text => Show::Text,
            PlayFormat::Json => Show::Json,
            PlayFormat::Svg => Show::Svg(dir),
        };
        play(
            out,
            pick,
            from.as_deref(),
            given,
            seats,
            keep,
            max_plies,
            show,
        )
    }
}

/// The moves `sow play` is given before the seats play.
enum Given {
    Nothing,
    /// `--moves`.
    Moves(String),
    /// `--from-record`: the record's path.
    Record(String),
}

/// A move given to `sow play`: where it is in its source, the player a
/// record says plays it, the move.
type Given1<'a> = (usize, Option<&'a str>, &'a str);

/// How `sow play` shows each ply (`--format`).
#[derive(PartialEq, Eq)]
enum Show {
    Text,
    Json,
    /// Pictures into this folder.
    Svg(String),
}

/// What `--record` needs besides the game.
struct Keep {
    path: Option<String>,
    players: [SeatArg; 2],
    level: u8,
    seed: u64,
}

#[allow(clippy::too_many_arguments)]
fn play(
    out: &mut impl Write,
    mut pick: Pick,
    from: Option<&str>,
    given: Given,
    mut seats: Seats,
    keep: Keep,
    max_plies: u32,
    show: Show,
) -> Result<(), Failed> {
    // A record names the variant, its options and the start.
    let record = match &given {
        Given::Record(path) => {
            let text = read(path)?;
            let r = crate::record::read(&text).map_err(|d| fail(path, &text, &[d]))?;
            pick = Pick {
                variant: r.variant.clone(),
                options: r.options.iter().map(|(k, v)| format!("{k}={v}")).collect(),
                first: r.first.clone(),
            };
            Some((path.clone(), text, r))
        }
        Given::Nothing | Given::Moves(_) => None,
    };
    let start_text = match (&record, from) {
        (Some((_, _, r)), _) => r.start.clone(),
        (None, Some(path)) => Some(read(path)?),
        (None, None) => None,
    };
    if start_text.is_some() {
        no_first(&pick, "a position read with `--from` says who is to move")?;
    }
    let start_name = match &record {
        Some((path, _, _)) => format!("the start position of {path}"),
        None => from.unwrap_or("").to_string(),
    };
    let (v, mut game) = game_at(&pick, start_text.clone().map(|t| (start_name.as_str(), t)))?;
    if let Some(why) = seats.refusal(&game).filter(|_| game.outcome().is_none()) {
        return Err(fail_plain(why));
    }
    if let Some((path, text, r)) = &record {
        r.check_players(&v.engine.rules.players)
            .map_err(|d| fail(path, text, &[d]))?;
    }
    // The moves played, each with its player, for the record; the pit the
    // last started from, for a picture.
    let mut played: Vec<(String, String)> = Vec::new();
    let last_pit: std::cell::Cell<Option<u16>> = std::cell::Cell::new(None);
    if let Show::Svg(dir) = &show {
        std::fs::create_dir_all(dir)
            .map_err(|e| fail_plain(format!("cannot make the folder `{dir}`: {e}")))?;
    }
    // (A picture that cannot be written is reported once, and the game
    // stops being drawn.)
    let mut unwritten: Option<String> = None;
    let mut print = |out: &mut dyn Write, game: &Game, ply: usize, mv: Option<&str>| {
        match &show {
            Show::Json => {
                let mut line = serde_json::json!({
                    "ply": ply, "move": mv,
                    "position": json::position(&v, game),
                    "outcome": json::outcome(&v, game.outcome()),
                });
                // A move that ended a round of a match: how it ended (the
                // position is the next round's start).
                if let Some(end) = game.round_end() {
                    line["round_end"] = json::outcome(&v, Some(&end.outcome));
                }
                let _ = writeln!(out, "{line}");
            }
            Show::Text => {
                let head = match mv {
                    None => "start".to_string(),
                    Some(m) => format!("ply {ply}: {m}"),
                };
                if let Some(end) = game.round_end() {
                    let _ = writeln!(
                        out,
                        "{head}: round {} over, {}; round {} begins",
                        game.rounds(),
                        render::result_text(&v.engine.rules, &end.outcome),
                        game.rounds() + 1
                    );
                    let _ = writeln!(out, "{}", render::board(&v, game));
                } else {
                    let _ = writeln!(out, "{head}\n{}", render::board(&v, game));
                }
            }
            Show::Svg(dir) if unwritten.is_none() => {
                // The pit the move started from, ringed.
                let last = mv.and(last_pit.get());
                let picture = crate::svg::board(&v, game, last);
                let path = Path::new(dir).join(format!("ply-{ply:04}.svg"));
                match crate::limits::write_text(&path, &picture) {
                    Ok(()) => {
                        let _ = writeln!(out, "{}", path.display());
                    }
                    Err(d) => unwritten = Some(d.to_string()),
                }
            }
            Show::Svg(_) => {}
        }
        let _ = out.flush();
    };
    // (A ply undone and played again replaces the one it undid.)
    let note = |played: &mut Vec<(String, String)>, ply: usize, mover: u8, turn: Turn, mv: &str| {
        played.truncate(ply.saturating_sub(1));
        played.push((
            v.engine.rules.players[mover as usize].clone(),
            mv.to_string(),
        ));
        last_pit.set(Some(turn.pit));
    };
    print(out, &game, 0, None);
    // The moves given: each where it is in its source, with the player a
    // record says plays it.
    let (source, text, moves): (&str, &str, Vec<Given1>) = match &given {
        Given::Nothing => ("", "", Vec::new()),
        Given::Moves(m) => {
            let tokens = play::tokens(m).into_iter().map(|(at, t)| (at, None, t));
            ("--moves", m.as_str(), tokens.collect())
        }
        Given::Record(_) => {
            let (path, text, r) = record.as_ref().expect("a record read");
            let lines = r.moves.iter();
            let moves = lines.map(|(at, who, t)| (*at, Some(who.as_str()), t.as_str()));
            (path.as_str(), text.as_str(), moves.collect())
        }
    };
    for (ply, (at, player, token)) in moves.into_iter().enumerate() {
        let mover = ai::to_move(&game);
        let to_move = &v.engine.rules.players[mover as usize];
        if let Some(player) = player.filter(|_| game.outcome().is_none()) {
            crate::record::Read::check_mover(ply + 1, (at, token), player, to_move)
                .map_err(|d| fail(source, text, &[d]))?;
        }
        match play::play_written(&mut game, at, token) {
            Ok((turn, written)) => {
                note(&mut played, ply + 1, mover, turn, &written);
                print(out, &game, ply + 1, Some(&written));
            }
            Err(d) => {
                let _ = out.flush();
                return Err(fail(source, text, &[d]));
            }
        }
    }
    // A record's header says what its moves lead to.
    if let Some((path, text, r)) = &record {
        let result = crate::record::result(&v, &game);
        if let Err(d) = r.check_result(&result) {
            let _ = out.flush();
            return Err(fail(path, text, &[d]));
        }
    }
    // Then the seats: a person types on standard input unless moves were
    // given; a computer answers.
    let stdin = io::stdin();
    let mut typed = io::BufReader::new(stdin.lock());
    let interactive = show == Show::Text && io::IsTerminal::is_terminal(&io::stdin());
    let mut talk = io::stderr();
    let ended = session::run(
        &v,
        &mut game,
        &mut seats,
        session::Io {
            input: match given {
                Given::Moves(_) | Given::Record(_) => None,
                Given::Nothing => Some(&mut typed),
            },
            interactive,
            print: &mut |game, ply, mv| print(out, game, ply, mv),
            played: &mut |ply, mover, turn, mv| note(&mut played, ply, mover, turn, mv),
            talk: &mut talk,
        },
        max_plies,
    );
    played.truncate(game.plies() as usize);
    if let Some(path) = &keep.path {
        let header = crate::record::Header {
            first: pick.first.clone(),
            players: v
                .engine
                .rules
                .players
                .iter()
                .zip(keep.players)
                .map(|(name, seat)| (name.clone(), seat.seat().name().to_string()))
                .collect(),
            level: keep.level,
            seed: keep.seed,
            start: start_text,
            ..crate::record::Header::of(&v, &game, pick.variant.clone())
        };
        let text = crate::record::write(&header, &played, &crate::record::today());
        if let Err(d) = crate::limits::write_text(Path::new(path), &text) {
            return Err(fail_plain(d));
        }
    }
    if let Some(message) = unwritten {
        return Err(fail_plain(message));
    }
    match ended {
        Ended::Over | Ended::Quit | Ended::InputEnded | Ended::MaxPlies => Ok(()),
        Ended::TooLong => Err(fail_plain(crate::engine::TooLong)),
        Ended::Refused(message) => {
            let _ = out.flush();
            err_line!("{}", message.trim_end());
            Err(Failed::Input)
        }
    }
}
