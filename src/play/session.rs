//! A game played at the seats: people typing turns (and `undo`, `hint`,
//! `save FILE`, `quit`), computer players answering. `sow play` without
//! `--moves` runs one on standard input.

use std::io::{BufRead, Write};

use crate::ai::{self, Agent, Seat};
use crate::diagnostic::{render_all, Diagnostic};
use crate::engine::{Game, TooLong, Turn};
use crate::ir::Player;
use crate::limits::Line;
use crate::notation::write_turn;
use crate::{json, play, Variant};

/// Who sits where, and the computer players.
pub struct Seats {
    kinds: [Seat; 2],
    agents: [Option<Box<dyn Agent>>; 2],
    /// The player a `hint` asks.
    hint: Box<dyn Agent>,
}

impl Seats {
    /// The seats' players, computers at `level`, from `seed` (each seat's
    /// computer from a seed of its own).
    pub fn new(kinds: [Seat; 2], level: u8, seed: u64) -> Seats {
        let agent = |i: u64| ai::computer(kinds[i as usize], level, seed.wrapping_add(i));
        Seats {
            kinds,
            agents: [agent(0), agent(1)],
            hint: ai::computer(Seat::Mcts, level, seed.wrapping_add(2)).expect("a computer"),
        }
    }

    /// Why a seat's player cannot play `game`'s variant, if one cannot
    /// (see [`ai::refusal`]): asked before the game starts.
    pub fn refusal(&self, game: &Game) -> Option<String> {
        ai::refusal(&self.kinds, game)
    }

    /// Whether a person plays some seat.
    pub fn has_human(&self) -> bool {
        self.kinds.contains(&Seat::Human)
    }

    fn human(&self, game: &Game) -> bool {
        self.kinds[ai::to_move(game) as usize & 1] == Seat::Human
    }
}

/// How a session ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    /// The game is over.
    Over,
    /// A person typed `quit`.
    Quit,
    /// The input ended (or there is none) with a person to move.
    InputEnded,
    /// The most plies allowed were played.
    MaxPlies,
    /// A turn ran past the engine's limit.
    TooLong,
    /// A line was refused where refusing ends the session (input that is
    /// not a terminal): the message, rendered.
    Refused(String),
}

/// Where a session writes: each ply (`print`: the game, its ply, the turn
/// as written) and its talk with a person (prompts, the legal turns,
/// errors and hints: only `talk` when asked, `interactive`).
pub struct Io<'a> {
    /// Lines typed, one a line; none: no person types.
    pub input: Option<&'a mut dyn BufRead>,
    /// Prompts, the legal turns and hints are shown, and a refused line
    /// is asked again (a terminal); otherwise a refused line ends the
    /// session.
    pub interactive: bool,
    /// Each ply, as `sow play` prints it.
    pub print: &'a mut dyn FnMut(&Game, usize, Option<&str>),
    /// Each ply played: its number, its player, the turn and as written
    /// (a ply undone is played again under its number).
    pub played: &'a mut dyn FnMut(usize, Player, Turn, &str),
    /// Messages for the person.
    pub talk: &'a mut dyn Write,
}

/// Plays `game` on at the seats until it is over, a person quits or the
/// input ends, or `max_plies` plies have been played in the session.
pub fn run(v: &Variant, game: &mut Game, seats: &mut Seats, io: Io, max_plies: u32) -> Ended {
    let Io {
        mut input,
        interactive,
        print,
        played,
        talk,
    } = io;
    // The game before each ply played in the session, for `undo`.
    let mut history: Vec<Game> = Vec::new();
    let mut line = Vec::new();
    loop {
        if game.outcome().is_some() {
            return Ended::Over;
        }
        if history.len() >= max_plies as usize {
            return Ended::MaxPlies;
        }
        let ply = game.plies() as usize + 1;
        if !seats.human(game) {
            let seat = ai::to_move(game) as usize & 1;
            let agent = seats.agents[seat].as_mut().expect("a computer's seat");
            let Ok(turn) = agent.choose(game) else {
                return Ended::TooLong;
            };
            let written = write_turn(game, turn);
            history.push(game.clone());
            let mover = ai::to_move(game);
            if game.play(turn).is_err() {
                return Ended::TooLong;
            }
            played(ply, mover, turn, &written);
            print(game, ply, Some(&written));
            continue;
        }
        let Some(input) = input.as_deref_mut() else {
            return Ended::InputEnded;
        };
        if interactive {
            let legal: Vec<String> = game
                .legal_turns()
                .iter()
                .map(|&t| write_turn(game, t))
                .collect();
            let player = &v.engine.rules.players[ai::to_move(game) as usize];
            let _ = write!(talk, "{player} to move ({}) > ", legal.join(" "));
            let _ = talk.flush();
        }
        let text = match crate::limits::read_line(input, &mut line) {
            Ok(Line::Read) => match std::str::from_utf8(&line) {
                Ok(text) => text.trim(),
                Err(e) => {
                    let message = format!(
                        "error: a line is UTF-8 text (byte {} of this one is not)",
                        e.valid_up_to() + 1
                    );
                    if !interactive {
                        return Ended::Refused(message);
                    }
                    let _ = writeln!(talk, "{message}");
                    continue;
                }
            },
            Ok(Line::TooLong) => {
                let message = format!(
                    "error: a line is at most {} bytes",
                    crate::limits::MAX_FILE_BYTES
                );
                if !interactive {
                    return Ended::Refused(message);
                }
                let _ = writeln!(talk, "{message}");
                continue;
            }
            Ok(Line::End) => return Ended::InputEnded,
            Err(e) => return Ended::Refused(format!("error: cannot read standard input: {e}")),
        };
        let mut words = text.split_whitespace();
        match (words.next(), words.next()) {
            (None, _) => {}
            (Some("quit"), None) => return Ended::Quit,
            (Some("undo"), None) => {
                // Back to the last position a person was to move in.
                let mut undone = false;
                while let Some(before) = history.pop() {
                    *game = before;
                    undone = true;
                    if seats.human(game) {
                        break;
                    }
                }
                if undone {
                    let _ = writeln!(talk, "undone: back to ply {}", game.plies());
                    if interactive {
                        let _ = writeln!(talk, "{}", crate::render::board(v, game));
                    }
                } else {
                    let _ = writeln!(talk, "nothing to undo");
                }
            }
            (Some("help"), None) => {
                let _ = writeln!(talk, "{HELP}");
            }
            (Some("save"), None) => {
                let message = "error: `save` needs a file name: save FILE".to_string();
                if !interactive {
                    return Ended::Refused(message);
                }
                let _ = writeln!(talk, "{message}");
            }
            (Some("hint"), None) => match seats.hint.choose(game) {
                Ok(t) => {
                    let _ = writeln!(talk, "hint: {}", write_turn(game, t));
                }
                Err(TooLong) => return Ended::TooLong,
            },
            (Some("save"), Some(file)) if words.next().is_none() => {
                let saved = json::position(v, game).to_string();
                match crate::limits::write_text(std::path::Path::new(file), &(saved + "\n")) {
                    Ok(()) => {
                        let _ = writeln!(talk, "saved to {file} (resume with --from {file})");
                    }
                    Err(d) => {
                        let message = format!("error: {d}");
                        if !interactive {
                            return Ended::Refused(message);
                        }
                        let _ = writeln!(talk, "{message}");
                    }
                }
            }
            _ => {
                let before = game.clone();
                match play::play_written(game, 0, text) {
                    Ok((turn, written)) => {
                        played(ply, ai::to_move(&before), turn, &written);
                        history.push(before);
                        print(game, ply, Some(&written));
                    }
                    Err(d) => {
                        let message = refusal(&d, text);
                        if !interactive {
                            return Ended::Refused(message);
                        }
                        let _ = write!(talk, "{message}");
                        let _ = writeln!(talk, "(a turn, or: help, undo, hint, save FILE, quit)");
                    }
                }
            }
        }
    }
}

/// What `help` says at the prompt.
const HELP: &str =
    "Type a turn as the variant writes it (the legal turns are listed at the prompt), or:
  undo       take back your last turn (and the computer's answer)
  hint       the turn the computer would play
  save FILE  write the position to FILE (resume with `sow play VARIANT --from FILE`)
  help       this list
  quit       stop here";

/// A refused line's message, drawn under the line as typed.
fn refusal(d: &Diagnostic, text: &str) -> String {
    render_all(std::slice::from_ref(d), "input", text)
}
