//! The `sow` command line (see `cli-contract.md` and the README). `main.rs`
//! only calls [`main`].

use std::io::{self, Write};
use std::path::Path;
use std::time::Instant;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::diagnostic::{render_all, Diagnostic, Kind};
use crate::engine::{Game, Turn};
use crate::limits::Line;
use crate::notation::write_turn;
use crate::session::{self, Ended, Seats};
use crate::{ai, analyze, json, load, play, render, runs, script, Variant};

/// sow: a rules language and interpreter for mancala games.
#[derive(Parser, Debug)]
#[command(name = "sow", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Output formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
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

/// Who plays a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum SeatArg {
    /// A person, typing turns on standard input.
    Human,
    /// Uniformly random turns.
    Random,
    /// Monte Carlo tree search.
    Mcts,
    /// Alpha-beta search on the variant's estimate (its score unless it gives one).
    Minimax,
}

impl SeatArg {
    fn seat(self) -> ai::Seat {
        match self {
            SeatArg::Human => ai::Seat::Human,
            SeatArg::Random => ai::Seat::Random,
            SeatArg::Mcts => ai::Seat::Mcts,
            SeatArg::Minimax => ai::Seat::Minimax,
        }
    }
}

/// Which variant, and the values of its options.
#[derive(Args, Debug, Clone)]
struct Pick {
    /// A shipped variant's name or a path to a `.sow` file.
    variant: String,
    /// Give an option of the variant a value (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Who moves first, where the rules leave it to the players (`first
    /// chosen`).
    #[arg(long, value_name = "PLAYER")]
    first: Option<String>,
}

/// How a long run is carried out.
#[derive(Args, Debug, Clone, Copy)]
struct RunArgs {
    /// How many threads play (default: one per core); the results are
    /// the same whatever the number.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: Option<u16>,
    /// No progress bar (none is drawn either when standard error is not a
    /// terminal).
    #[arg(long)]
    quiet: bool,
}

impl RunArgs {
    fn jobs(self) -> usize {
        self.jobs.map_or_else(runs::all_cores, usize::from)
    }
}

/// The seats a run of games takes (`analyze --players`): the computers,
/// every one but a person.
fn computer_seat() -> impl clap::builder::TypedValueParser<Value = SeatArg> {
    let computers = SeatArg::value_variants()
        .iter()
        .filter(|s| **s != SeatArg::Human)
        .filter_map(ValueEnum::to_possible_value);
    clap::builder::TypedValueParser::map(
        clap::builder::PossibleValuesParser::new(computers),
        |name: String| SeatArg::from_str(&name, false).expect("a value the parser offers"),
    )
}

/// How many games a long run plays, and from which seed (`random`,
/// `analyze`).
#[derive(Args, Debug)]
struct Many {
    /// How many games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Game i is played from seed SEED + i; the same seed gives the same
    /// games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse and validate variant files, reporting every problem.
    Check {
        /// Variant files (`.sow`) or shipped names.
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Play a game, printing each position: the moves given, then the
    /// seats' players (a person types turns on standard input, one a line,
    /// with `undo`, `hint`, `save FILE` and `quit`; a computer answers).
    Play {
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
    },
    /// Draw a position as a picture (SVG, on standard output).
    Draw {
        /// A position file (JSON), as `--from` reads it.
        position: String,
        /// The variant, where the position's is not a shipped one (a path
        /// to its `.sow` file).
        #[arg(long)]
        variant: Option<String>,
        /// Give an option of the variant a value (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Ring this pit as the last move's (its label).
        #[arg(long, value_name = "LABEL")]
        last: Option<String>,
    },
    /// List every legal turn with the position it leads to.
    Moves {
        #[command(flatten)]
        pick: Pick,
        /// Start from this position file (JSON).
        #[arg(long)]
        from: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Count whole-turn paths of a given length.
    Perft {
        #[command(flatten)]
        pick: Pick,
        /// The number of turns (at most 64).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=crate::limits::MAX_PERFT_DEPTH as i64))]
        depth: u32,
        /// Start from this position file (JSON).
        #[arg(long)]
        from: Option<String>,
        /// Also print every path on which the game ends, with its result,
        /// and how many ended each way (on one thread).
        #[arg(long)]
        lines: bool,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Play random games and summarise them.
    Random {
        #[command(flatten)]
        pick: Pick,
        #[command(flatten)]
        many: Many,
        /// Stop a game unfinished after this many turns (so that a variant
        /// whose games need not end cannot make this run forever).
        #[arg(long, default_value_t = 10_000)]
        max_plies: u32,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Play many games and measure the variant: the first player's
    /// advantage, game lengths, branching, seeds conserved, and how often
    /// each rule and end condition fired (a rule that never fires is
    /// reported).
    Analyze {
        #[command(flatten)]
        pick: Pick,
        #[command(flatten)]
        many: Many,
        /// Who plays: one player for both seats, or two (`mcts,random`)
        /// taking the first seat in turn, the first named in even games.
        #[arg(long, value_parser = computer_seat(), value_delimiter = ',', num_args = 1..=2, default_value = "random")]
        players: Vec<SeatArg>,
        /// How hard the computer players think, 1 to 9.
        #[arg(long, default_value_t = ai::DEFAULT_LEVEL, value_parser = clap::value_parser!(u8).range(1..=9))]
        level: u8,
        /// Leave a game unfinished after this many turns.
        #[arg(long, default_value_t = 10_000)]
        max_plies: u32,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Print the variant as one file: what it builds on merged in, its
    /// options set to the values given.
    Show {
        #[command(flatten)]
        pick: Pick,
    },
    /// Run a scripted game (TOML) and check its expectations.
    Run {
        /// The script.
        script: String,
    },
    /// List the shipped variants: name and title, one a line.
    List,
    /// Print a completion script for a shell (`sow completions bash >
    /// ~/.local/share/bash-completion/completions/sow`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page, in roff (`sow man > sow.1; man ./sow.1`),
    /// or write it and a page for each command into a folder.
    Man {
        /// Write `sow.1` and `sow-COMMAND.1` here (the folder must exist).
        #[arg(long)]
        dir: Option<String>,
    },
}

/// Writes to stderr, ignoring a closed pipe (a panic there would be worse
/// than a lost message).
macro_rules! err_text {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($t)*);
    }};
}
macro_rules! err_line {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

/// An error already explained on stderr: in the input (exit 1) or in how
/// the command was called (exit 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failed {
    Input,
    Usage,
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let stdout = io::stdout();
    let mut out = Checked::new(io::BufWriter::new(stdout.lock()));
    let result = match cli.command {
        Command::Check { files } => check(&mut out, &files),
        Command::Play {
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
        } => {
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
                &mut out,
                pick,
                from.as_deref(),
                given,
                seats,
                keep,
                max_plies,
                show,
            )
        }
        Command::Draw {
            position,
            variant,
            options,
            last,
        } => draw(&mut out, &position, variant, options, last.as_deref()),
        Command::Moves { pick, from, format } if from.as_deref() == Some("-") => {
            converse(&mut out, &pick, format)
        }
        Command::Moves { pick, from, format } => moves(&mut out, &pick, from.as_deref(), format),
        Command::Perft {
            pick,
            depth,
            from,
            lines,
            run,
        } => perft_cmd(&mut out, &pick, depth, from.as_deref(), lines, run),
        Command::Show { pick } => show(&mut out, &pick),
        Command::List => list(&mut out),
        Command::Random {
            pick,
            many: Many { games, seed },
            max_plies,
            format,
            run,
        } => random(&mut out, &pick, games, seed, max_plies, format, run),
        Command::Analyze {
            pick,
            many: Many { games, seed },
            players,
            level,
            max_plies,
            format,
            run,
        } => {
            let seat = |k: usize| players.get(k).or(players.first()).map(|p| p.seat());
            let plan = analyze::Plan {
                games,
                seed,
                players: [seat(0), seat(1)].map(|s| s.unwrap_or(ai::Seat::Random)),
                level,
                max_plies,
                keep: false,
            };
            match players.len() {
                0..=2 => analyze_cmd(&mut out, &pick, plan, format, run),
                n => Err(fail_usage(format!(
                    "`--players` names one player for both seats or two (`mcts,random`), not {n}"
                ))),
            }
        }
        Command::Run { script } => run(&mut out, &script),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "sow", &mut out);
            Ok(())
        }
        Command::Man { dir: None } => clap_mangen::Man::new(Cli::command())
            .render(&mut out)
            .map_err(fail_plain),
        Command::Man { dir: Some(dir) } => clap_mangen::generate_to(Cli::command(), &dir)
            .map_err(|e| fail_plain(format!("cannot write the manual pages into `{dir}`: {e}"))),
    };
    let _ = out.flush();
    if let Some(e) = out.error.take() {
        // Output lost (a full disk, say) is a failure; a closed pipe too,
        // but the reader that closed it wants no message.
        if e.kind() != io::ErrorKind::BrokenPipe {
            err_line!("error: cannot write the output: {e}");
        }
        return 1;
    }
    match result {
        Ok(()) => 0,
        Err(Failed::Input) => 1,
        Err(Failed::Usage) => 2,
    }
}

/// Standard output, remembering the first write that failed: the commands
/// write line by line and go on, and the exit code says the output was
/// lost.
struct Checked<W: Write> {
    inner: W,
    error: Option<io::Error>,
}

impl<W: Write> Checked<W> {
    fn new(inner: W) -> Self {
        Checked { inner, error: None }
    }

    /// Whether some output was lost.
    fn lost(&self) -> bool {
        self.error.is_some()
    }
}

impl<W: Write> Write for Checked<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.error.is_some() {
            // Nothing more reaches the output once some of it was lost.
            return Ok(buf.len());
        }
        match self.inner.write_all(buf) {
            Ok(()) => Ok(buf.len()),
            Err(e) => {
                self.error = Some(e);
                Ok(buf.len())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.error.is_none() {
            if let Err(e) = self.inner.flush() {
                self.error = Some(e);
            }
        }
        Ok(())
    }
}

fn fail(name: &str, source: &str, diagnostics: &[Diagnostic]) -> Failed {
    err_text!("{}", render_all(diagnostics, name, source));
    Failed::Input
}

// (What an input wrote is shown, never acted on by a terminal: see
// `diagnostic::shown`.)
fn fail_plain(message: impl std::fmt::Display) -> Failed {
    err_line!("error: {}", crate::diagnostic::shown(&message.to_string()));
    Failed::Input
}

fn fail_usage(message: impl std::fmt::Display) -> Failed {
    err_line!("error: {}", crate::diagnostic::shown(&message.to_string()));
    Failed::Usage
}

fn read(path: &str) -> Result<String, Failed> {
    crate::limits::read_text(Path::new(path)).map_err(fail_plain)
}

/// Reads `NAME=VALUE` options.
fn parse_options(given: &[String]) -> Result<Vec<(String, String)>, Failed> {
    given
        .iter()
        .map(|o| match o.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() && !v.trim().is_empty() => {
                Ok((k.trim().to_string(), v.trim().to_string()))
            }
            _ => Err(fail_usage(format!(
                "`--option {o}` is not NAME=VALUE (write `--option grand_slam=forbidden`)"
            ))),
        })
        .collect()
}

/// Refuses `--first` where no new game is started.
fn no_first(pick: &Pick, why: &str) -> Result<(), Failed> {
    match pick.first {
        Some(_) => Err(fail_usage(format!(
            "`--first` sets who starts a new game: {why}"
        ))),
        None => Ok(()),
    }
}

/// The variant picked, with the options given and those a position file
/// was saved with; and the game, from the start or from the position.
fn game_of(pick: &Pick, from: Option<&str>) -> Result<(Variant, Game), Failed> {
    if from.is_some() {
        no_first(pick, "a position read with `--from` says who is to move")?;
    }
    let position = match from {
        Some(path) => Some((path, read(path)?)),
        None => None,
    };
    game_at(pick, position)
}

/// The variant picked and its game, from the start or from a position
/// file's name and text.
fn game_at(pick: &Pick, position: Option<(&str, String)>) -> Result<(Variant, Game), Failed> {
    let v = variant_of(pick, position.as_ref())?;
    let game = match &position {
        None => {
            let first = pick.first.as_deref();
            let start = v
                .start_position(first)
                .map_err(|e| fail_usage(format!("`--first {}`: {e}", first.unwrap_or_default())))?;
            Game::from_position(v.engine.clone(), start, Vec::new())
                .map_err(|_| fail_plain("the start position's turns run past the engine's limit"))?
        }
        Some((path, text)) => json::read_position(&v, text).map_err(|d| fail(path, text, &[d]))?,
    };
    Ok((v, game))
}

/// The variant picked, with the options given and those the position file
/// (its path and text) was saved with.
fn variant_of(pick: &Pick, position: Option<&(&str, String)>) -> Result<Variant, Failed> {
    let mut options = parse_options(&pick.options)?;
    let mut saved = Vec::new();
    if let Some((path, text)) = position {
        // A position keeps the options it was played with.
        for (k, v) in json::saved_options(text) {
            match options.iter().find(|(n, _)| *n == k) {
                Some((_, given)) if *given != v => {
                    return Err(fail_plain(format!(
                        "`{path}` was saved with option {k}={v}, not {k}={given}"
                    )))
                }
                Some(_) => {}
                None => {
                    saved.push(format!("{k}={v}"));
                    options.push((k, v));
                }
            }
        }
    }
    load::load(&pick.variant, Path::new(""), &options).map_err(|e| {
        if let (Some((path, _)), false) = (position, saved.is_empty()) {
            err_line!(
                "error: `{path}` was saved with options {}",
                saved.join(", ")
            );
        }
        err_text!("{}", e.render());
        // An `--option` the variant does not have, or a value it does not
        // allow, is a usage error.
        let given = |name: &str| {
            pick.options
                .iter()
                .any(|o| o.split('=').next().map(str::trim) == Some(name))
        };
        let usage = e
            .diagnostics
            .iter()
            .any(|d| matches!(&d.kind, Kind::Option(name) if given(name)));
        if usage {
            Failed::Usage
        } else {
            Failed::Input
        }
    })
}

fn check(out: &mut impl Write, files: &[String]) -> Result<(), Failed> {
    let mut failed = false;
    for f in files {
        match load::load(f, Path::new(""), &[]) {
            Ok(v) => {
                let _ = writeln!(
                    out,
                    "{f}: ok ({}, {} rules)",
                    v.name(),
                    v.engine.rules.rules.len() + v.engine.rules.ends.len()
                );
                for o in &v.engine.rules.options {
                    let _ = writeln!(
                        out,
                        "  option {}: {} (default {})",
                        o.name,
                        o.choices.describe(),
                        o.value
                    );
                }
            }
            Err(e) => {
                failed = true;
                err_text!("{}", e.render());
            }
        }
    }
    if failed {
        Err(Failed::Input)
    } else {
        Ok(())
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
        if let Some(player) = player.filter(|p| game.outcome().is_none() && p != to_move) {
            let d = Diagnostic::at(
                crate::diagnostic::Span::new(at, at + token.len()),
                format!("move {} is {player}'s, but {to_move} is to move", ply + 1),
                "not this player's turn",
            )
            .hint("a record's moves are as `sow play --record` wrote them");
            return Err(fail(source, text, &[d]));
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
        let r = &v.engine.rules;
        let header = crate::record::Header {
            variant: pick.variant.clone(),
            title: r.title.clone(),
            options: r
                .options
                .iter()
                .map(|o| (o.name.clone(), o.value.clone()))
                .collect(),
            first: pick.first.clone(),
            players: r
                .players
                .iter()
                .zip(keep.players)
                .map(|(name, seat)| (name.clone(), seat.seat().name().to_string()))
                .collect(),
            level: keep.level,
            seed: keep.seed,
            result: crate::record::result(&v, &game),
            scores: match game.outcome() {
                Some(o) => r.players.iter().cloned().zip(o.scores).collect(),
                None => Vec::new(),
            },
            start: start_text,
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
        Ended::TooLong => Err(fail_plain("a turn ran past the engine's limit")),
        Ended::Refused(message) => {
            let _ = out.flush();
            err_line!("{}", message.trim_end());
            Err(Failed::Input)
        }
    }
}

fn moves(
    out: &mut impl Write,
    pick: &Pick,
    from: Option<&str>,
    format: Format,
) -> Result<(), Failed> {
    let (v, game) = game_of(pick, from)?;
    if format == Format::Text {
        if let Some(o) = game.outcome() {
            let _ = writeln!(out, "the game is over ({}): no legal turns", o.reason);
            return Ok(());
        }
    }
    for &t in game.legal_turns() {
        let mut next = game.clone();
        next.play(t)
            .map_err(|_| fail_plain("a turn ran past the engine's limit"))?;
        let written = write_turn(&game, t);
        match format {
            Format::Json => {
                let line = serde_json::json!({
                    "move": written,
                    "position": json::position(&v, &next),
                    "outcome": json::outcome(&v, next.outcome()),
                });
                let _ = writeln!(out, "{line}");
            }
            Format::Text => {
                let _ = writeln!(out, "{written}\n{}", render::board(&v, &next));
            }
        }
    }
    Ok(())
}

/// `moves --from -`: positions read as JSON Lines on standard input, each
/// answered by one line, `{"moves": [...]}` or `{"error": "..."}`, flushed
/// at once; an error in one position does not stop the next.
fn converse<W: Write>(out: &mut Checked<W>, pick: &Pick, format: Format) -> Result<(), Failed> {
    no_first(pick, "each position read says who is to move")?;
    if format != Format::Json {
        return Err(fail_usage(
            "`--from -` answers each position in JSON: add `--format json`",
        ));
    }
    let v = variant_of(pick, None)?;
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    loop {
        let read = crate::limits::read_line(&mut input, &mut line)
            .map_err(|e| fail_plain(format!("cannot read standard input: {e}")))?;
        let answer = match read {
            Line::End => return Ok(()),
            // A blank line asks nothing.
            Line::Read if line.trim_ascii().is_empty() => continue,
            Line::Read => answer(&v, &line),
            Line::TooLong => serde_json::json!({
                "error": format!("a position is at most {} bytes", crate::limits::MAX_FILE_BYTES)
            }),
        };
        let _ = writeln!(out, "{answer}");
        let _ = out.flush();
        if out.lost() {
            return Ok(());
        }
    }
}

/// The answer to one line of a conversation.
fn answer(v: &Variant, line: &[u8]) -> serde_json::Value {
    let error = |message: String| serde_json::json!({ "error": message });
    let Ok(text) = std::str::from_utf8(line) else {
        return error("a position is UTF-8 text".into());
    };
    let game = match json::read_position(v, text.trim_end()) {
        Ok(game) => game,
        Err(d) => {
            return error(match &d.hint {
                Some(h) => format!("{} ({h})", d.message),
                None => d.message.clone(),
            })
        }
    };
    let mut moves = Vec::new();
    for &t in game.legal_turns() {
        let mut next = game.clone();
        if next.play(t).is_err() {
            return error("a turn ran past the engine's limit".into());
        }
        moves.push(serde_json::json!({
            "move": write_turn(&game, t),
            "position": json::position(v, &next),
            "outcome": json::outcome(v, next.outcome()),
        }));
    }
    serde_json::json!({ "moves": moves })
}

fn perft_cmd(
    out: &mut impl Write,
    pick: &Pick,
    depth: u32,
    from: Option<&str>,
    lines: bool,
    run: RunArgs,
) -> Result<(), Failed> {
    let (v, game) = game_of(pick, from)?;
    let t = Instant::now();
    let too_long = |_| fail_plain("a turn ran past the engine's limit");
    let n = if lines {
        // Each way the game ended (who, by which end rule), with how often.
        let mut tally: Vec<(String, u64)> = Vec::new();
        let n = play::finished_lines(&game, depth, &mut |line, end| {
            let result = render::result_text(&v.engine.rules, end.outcome().expect("ended"));
            let _ = writeln!(out, "{result}: {}", line.join(" "));
            match tally.iter_mut().find(|(r, _)| *r == result) {
                Some((_, k)) => *k += 1,
                None => tally.push((result, 1)),
            }
        })
        .map_err(too_long)?;
        let ways: Vec<String> = tally.iter().map(|(r, k)| format!("{k} {r}")).collect();
        let _ = writeln!(
            out,
            "ended within {depth} turns: {}",
            if ways.is_empty() {
                "none".to_string()
            } else {
                ways.join(", ")
            }
        );
        n
    } else {
        // (Listing the lines cannot stop half way: Ctrl-C ends it as usual.)
        runs::catch_interrupt();
        let (n, done, of) =
            play::perft_split(&game, depth, run.jobs(), run.quiet).map_err(too_long)?;
        if done < of {
            // (No bare count last: a program reading it would take a part
            // for the whole.)
            let _ = writeln!(
                out,
                "stopped by Ctrl-C: {n} paths after {done} of the {of} first turns, in {:.3} s; the count is not complete",
                t.elapsed().as_secs_f64()
            );
            return Ok(());
        }
        n
    };
    let secs = t.elapsed().as_secs_f64();
    let _ = writeln!(
        out,
        "perft {depth}: {n} paths in {secs:.3} s ({:.0} leaves per second)",
        n as f64 / secs.max(1e-9)
    );
    let _ = writeln!(out, "{n}");
    Ok(())
}

fn random(
    out: &mut impl Write,
    pick: &Pick,
    games: u64,
    seed: u64,
    max_plies: u32,
    format: Format,
    run: RunArgs,
) -> Result<(), Failed> {
    let (v, fresh) = game_of(pick, None)?;
    let start = fresh.position().clone();
    let (mut wins, mut draws, mut unfinished, mut turns) = ([0u64; 2], 0u64, 0u64, 0u64);
    // In a match: the rounds played to their end, the last round of a
    // finished match included.
    let mut rounds = 0u64;
    let is_match = v.engine.rules.rounds.is_some();
    let json_out = format == Format::Json;
    let clock = Instant::now();
    runs::catch_interrupt();
    let progress = runs::Progress::new(games, "games", run.quiet);
    let mut failed = None;
    let played = runs::in_order(
        games,
        run.jobs(),
        &progress,
        // Each thread's new game, and the game it plays from it.
        || runs::fresh_games(&v.engine, &start),
        |games, i| {
            let game_seed = seed.wrapping_add(i);
            let mut rng = ChaCha8Rng::seed_from_u64(game_seed);
            // (`game_of` made the same game: this cannot fail.)
            let Some((fresh, game)) = games else {
                return Some(Err((0, "(the start)".to_string())));
            };
            // (The thread's game keeps the turns it found never to end from
            // one game to the next, as one game would: that saves the work
            // of finding them again, and changes no result short of the
            // engine's limit.)
            game.copy_from(fresh);
            let mut moves = Vec::new();
            let record = json_out.then_some(&mut moves);
            let played = play::random_game(game, &mut rng, Some(max_plies), record);
            let ended = (
                game.outcome().cloned(),
                game.rounds().saturating_sub(fresh.rounds()),
            );
            Some(played.map(|plies| (ended, plies, moves)))
        },
        |i, played| {
            let game_seed = seed.wrapping_add(i);
            let ((outcome, rounds_ended), plies, moves) = match played {
                Ok(p) => p,
                Err((ply, turn)) => {
                    failed = Some(format!(
                        "game {i} (seed {game_seed}), ply {ply}: turn `{turn}` did not end within the engine's limit ({})",
                        crate::limits::TOO_LONG
                    ));
                    return false;
                }
            };
            turns += plies as u64;
            let played = rounds_ended as u64 + outcome.is_some() as u64;
            rounds += played;
            match &outcome {
                Some(o) => match o.winner {
                    Some(p) => wins[p as usize] += 1,
                    None => draws += 1,
                },
                None => unfinished += 1,
            }
            if json_out {
                let mut line = serde_json::json!({
                    "game": i, "seed": game_seed, "moves": moves, "plies": plies,
                    "outcome": json::outcome(&v, outcome.as_ref()),
                });
                if is_match {
                    line["rounds"] = played.into();
                }
                let _ = writeln!(out, "{line}");
            }
            true
        },
    );
    drop(progress);
    if let Some(message) = failed {
        return Err(fail_plain(message));
    }
    let interrupted = played < games;
    let games = played;
    let secs = clock.elapsed().as_secs_f64();
    let tps = turns as f64 / secs.max(1e-9);
    let r = &v.engine.rules;
    match format {
        Format::Json => {
            // A solitaire's games the player did not win are lost or drawn.
            let mut tally: serde_json::Map<String, serde_json::Value> = r
                .players
                .iter()
                .zip(wins)
                .map(|(name, n)| (name.clone(), n.into()))
                .collect();
            if r.seats() == 1 {
                tally.insert("lost".into(), wins[1].into());
            }
            tally.insert("draw".into(), draws.into());
            let mut line = serde_json::json!({
                "games": games,
                "wins": tally,
                "unfinished": unfinished, "turns": turns, "seconds": secs, "turns_per_second": tps.round() as u64,
            });
            if is_match {
                line["rounds"] = rounds.into();
            }
            if interrupted {
                line["interrupted"] = true.into();
            }
            let _ = writeln!(out, "{line}");
        }
        Format::Text => {
            if interrupted {
                let _ = writeln!(out, "stopped by Ctrl-C: the games played so far");
            }
            let mut tally: Vec<String> = r
                .players
                .iter()
                .zip(wins)
                .map(|(name, n)| format!("{name} {n} wins"))
                .collect();
            if r.seats() == 1 {
                tally.push(format!("{} losses", wins[1]));
            }
            let _ = writeln!(
                out,
                "{games} games of {}: {}, {draws} draws, {unfinished} unfinished",
                v.name(),
                tally.join(", ")
            );
            if is_match {
                let _ = writeln!(out, "{rounds} rounds played");
            }
            let _ = writeln!(
                out,
                "{turns} turns in {secs:.3} s: {tps:.0} turns per second"
            );
        }
    }
    Ok(())
}

fn draw(
    out: &mut impl Write,
    position: &str,
    variant: Option<String>,
    options: Vec<String>,
    last: Option<&str>,
) -> Result<(), Failed> {
    let text = read(position)?;
    // The variant the position names, unless one is given.
    let variant = match variant {
        Some(given) => given,
        None => {
            let j = json::parse(&text).map_err(|d| fail(position, &text, &[d]))?;
            let Some(name) = j.get("variant").and_then(|n| n.as_str()) else {
                return Err(fail_usage(format!(
                    "`{position}` names no variant: give it with `--variant NAME|FILE`"
                )));
            };
            if crate::variants::source(name).is_none() {
                return Err(fail_usage(format!(
                    "`{position}` is a position of `{}`, which is not a shipped variant: give its file with `--variant FILE`",
                    crate::diagnostic::shown(name)
                )));
            }
            name.to_string()
        }
    };
    let pick = Pick {
        variant,
        options,
        first: None,
    };
    let (v, game) = game_at(&pick, Some((position, text)))?;
    let last = match last {
        None => None,
        Some(label) => match v.engine.rules.pits.iter().position(|p| p.label == label) {
            Some(i) => Some(i as u16),
            None => {
                return Err(fail_usage(format!(
                    "`--last {label}`: no pit of {} is labelled `{label}`",
                    v.name()
                )))
            }
        },
    };
    let _ = write!(out, "{}", crate::svg::board(&v, &game, last));
    Ok(())
}

fn analyze_cmd(
    out: &mut impl Write,
    pick: &Pick,
    plan: analyze::Plan,
    format: Format,
    run: RunArgs,
) -> Result<(), Failed> {
    let (v, fresh) = game_of(pick, None)?;
    runs::catch_interrupt();
    let report = analyze::analyze(&v, fresh.position(), plan, run.jobs(), run.quiet);
    match format {
        Format::Json => {
            let _ = writeln!(out, "{}", report.json());
        }
        Format::Text => {
            let _ = write!(out, "{}", report.text());
        }
    }
    Ok(())
}

fn list(out: &mut impl Write) -> Result<(), Failed> {
    let names = crate::variants::names();
    let width = names.iter().map(|n| n.len()).max().unwrap_or(0);
    for name in names {
        let title = Variant::shipped(name).map_or(String::new(), |v| v.engine.rules.title.clone());
        let _ = writeln!(out, "{name:width$}  {title}");
    }
    Ok(())
}

fn show(out: &mut impl Write, pick: &Pick) -> Result<(), Failed> {
    no_first(pick, "`show` prints the rules, not a game")?;
    let v = variant_of(pick, None)?;
    let _ = write!(out, "{}", load::show(&v));
    Ok(())
}

fn run(out: &mut impl Write, path: &str) -> Result<(), Failed> {
    let text = read(path)?;
    let base = Path::new(path).parent().unwrap_or(Path::new("."));
    match script::run(&text, base, out) {
        Ok(summary) => {
            let _ = writeln!(out, "{path}: ok ({summary})");
            Ok(())
        }
        Err(script::ScriptError::Script(d)) => Err(fail(path, &text, &[d])),
        Err(script::ScriptError::Load(e)) => {
            err_text!("{}", e.render());
            Err(Failed::Input)
        }
        Err(script::ScriptError::Other(name, source, d)) => Err(fail(&name, &source, &d)),
    }
}
