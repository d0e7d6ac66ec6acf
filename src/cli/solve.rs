//! `sow solve`: the exact value of a position under perfect play.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::args::{Format, RunArgs};
use super::output::{fail_plain, fail_usage, Failed};
use super::pick::{game_of, Pick};
use crate::play::runs;
use crate::render::thousands;
use crate::solve::{
    default_memory, Solution, Solver, TurnValue, Value, DEFAULT_DATABASES, MIN_MEMORY,
};
use crate::{notation, Game, Variant};

#[derive(Args, Debug)]
pub(super) struct Solve {
    #[command(flatten)]
    pick: Pick,
    /// Solve this position (a JSON file) rather than the start.
    #[arg(long)]
    from: Option<String>,
    /// The memory the search's table and the endgame databases may take:
    /// bytes, or with K, M or G (binary: 1G is 1,073,741,824 bytes). The
    /// databases take up to half, the table the rest (it grows within it
    /// as it fills: a small solve touches little of it). [default: half
    /// the machine's free memory, from 256M to 16G (a container's limit
    /// counted), the databases of it at most 128M unless `--db-seeds` is
    /// given]
    #[arg(long, value_name = "SIZE")]
    memory: Option<String>,
    /// Keep the endgame databases in this folder: levels found there are
    /// read instead of built, and those built are written (a variant
    /// whose rules differ only in the setup shares them). A solve stopped
    /// short (Ctrl-C) keeps its table there too, and the next solve of
    /// the variant goes on from it.
    #[arg(long, value_name = "DIR", value_parser = folder)]
    db: Option<String>,
    /// The most seeds in the pits an endgame database holds (half those
    /// in play unless told, as many as half of `--memory` holds, or 128M
    /// where `--memory` is not given; 0: none).
    #[arg(long, value_name = "N")]
    db_seeds: Option<usize>,
    /// Solve only the best first turns exactly: each other is searched
    /// only as far as it takes to show it worth less (its value then a
    /// bound, `at most a draw`), which can take far fewer positions.
    #[arg(long)]
    best_only: bool,
    /// Stop once this many positions are searched, as Ctrl-C stops the
    /// solve (what is known printed; with `--db`, the table kept): a large
    /// solve run in spells of a given size.
    #[arg(long, value_name = "N")]
    max_positions: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    run: RunArgs,
}

/// A folder named: not an empty name (which would write into the
/// current folder, unasked).
fn folder(s: &str) -> Result<String, String> {
    match s.trim() {
        "" => Err("`--db` names a folder (`--db kalah-db`), not an empty name".into()),
        _ => Ok(s.to_string()),
    }
}

impl Solve {
    pub(super) fn run(self, out: &mut impl Write) -> Result<(), Failed> {
        // Told the memory, the databases take up to half of it; else the
        // solve takes half the machine's free memory (the table grows
        // within it as it fills), the databases of it at most
        // DEFAULT_DATABASES (built in seconds: larger ones pay off kept
        // in `--db` and read again, or asked for with `--db-seeds`).
        let (memory, databases_most) = match &self.memory {
            Some(given) => {
                let m = parse_memory(given).map_err(fail_usage)?;
                (m, m / 2)
            }
            None => {
                let m = default_memory();
                let most = match self.db_seeds {
                    Some(_) => m / 2,
                    None => DEFAULT_DATABASES.min(m / 2),
                };
                (m, most)
            }
        };
        let (v, game) = game_of(&self.pick, self.from.as_deref())?;
        if let Some(over) = game.outcome() {
            let result = crate::render::result_text(&v.engine.rules, over);
            return Err(fail_plain(format!(
                "{}: the game is over here, before any turn ({result}): there is nothing to solve",
                v.name()
            )));
        }
        // The databases take up to half the memory, the table the rest.
        let databases_bytes = match self.db_seeds {
            Some(0) => 0,
            most => Solver::database_bytes(&game, databases_most as u64, most),
        };
        let table = memory
            .saturating_sub(databases_bytes as usize)
            .max(MIN_MEMORY);
        let mut solver =
            Solver::new(&game, table).map_err(|e| fail_plain(format!("{}: {e}", v.name())))?;
        if self.best_only {
            solver = solver.best_only();
        }
        if let Some(n) = self.max_positions {
            solver = solver.with_limit(n);
        }
        runs::catch_interrupt();
        let databases = self.databases(&solver, &game, databases_most as u64)?;
        let dir = self.db.as_deref().map(std::path::Path::new);
        let mut kept = Kept::default();
        if let Some(dir) = dir {
            let read = || solver.read_table(&v.engine, dir);
            kept.read = self
                .move_table("reading the table", &solver, read)?
                .transpose();
        }
        let of = game.legal_turns().len() as u64;
        let (root, jobs) = (game.clone(), self.run.jobs());
        let bar = runs::Progress::without_eta(of, "first turns solved", self.run.quiet);
        let solver = &solver;
        let solution = with_bar(
            &bar,
            move || solver.solve(&root, jobs),
            |bar| {
                bar.show(
                    solver.turns_solved() as u64,
                    format!("{} positions", thousands(solver.positions())),
                )
            },
        )?
        .map_err(|e| fail_plain(format!("{}: {e}", v.name())))?;
        drop(bar);
        if let (Some(dir), None) = (dir, solution.value()) {
            kept.written = Some(self.keep_table(solver, &v, dir, &kept.read)?);
        }
        let _ = match self.format {
            Format::Text => write!(
                out,
                "{}{}{}",
                text(&v, &game, &solution),
                databases.text(),
                kept.text()
            ),
            Format::Json => {
                let mut j = json(&v, &game, &solution);
                j["databases"] = databases.json();
                j["table"] = kept.json();
                writeln!(out, "{j}")
            }
        };
        Ok(())
    }

    /// Keeps the table of a solve stopped short in `dir`, unless that would
    /// lose what is kept there: a table that was not read (damaged, or
    /// numbered otherwise), or one of more entries than this one holds
    /// (read into a smaller table: see [`Solver::write_table`]).
    fn keep_table(
        &self,
        solver: &Solver,
        v: &Variant,
        dir: &std::path::Path,
        read: &Option<Result<(PathBuf, u64), String>>,
    ) -> Result<Result<(PathBuf, u64), String>, Failed> {
        let least = match read {
            Some(Err(_)) => {
                return Ok(Err(
                    "the table kept there was not read, so it is not replaced \
                     (remove it to keep this solve's)"
                        .to_string(),
                ))
            }
            Some(Ok((_, n))) => *n,
            None => 0,
        };
        let write = || solver.write_table(&v.engine, dir, least);
        self.move_table("writing the table", solver, write)
    }

    /// Writes or reads the table kept on disk (`work`), with a bar.
    fn move_table<T: Send>(
        &self,
        what: &str,
        solver: &Solver,
        work: impl FnOnce() -> T + Send,
    ) -> Result<T, Failed> {
        let bar = runs::Progress::new(0, "entries", self.run.quiet);
        let moved = with_bar(&bar, work, |bar| {
            let (done, of) = solver.table_moving();
            bar.show_of(done, of, what.to_string());
        });
        drop(bar);
        moved
    }

    /// The endgame databases of `bytes`, where the variant allows them
    /// (else the search goes on without, and says why), with a bar.
    fn databases(&self, solver: &Solver, game: &Game, bytes: u64) -> Result<Databases, Failed> {
        if self.db_seeds == Some(0) {
            return Ok(Databases::Off);
        }
        let dir = self.db.as_deref().map(std::path::Path::new);
        let (root, jobs, most) = (game.clone(), self.run.jobs(), self.db_seeds);
        let started = std::time::Instant::now();
        let bar = runs::Progress::new(0, "entries", self.run.quiet);
        let built = with_bar(
            &bar,
            move || solver.build_databases(&root, bytes, most, dir, jobs),
            |bar| {
                let (level, done, of) = solver.building();
                bar.show_of(done, of, format!("endgame database, {level} seeds"));
            },
        )?;
        drop(bar);
        Ok(match built {
            Ok(most) => Databases::Built {
                most,
                seconds: started.elapsed().as_secs_f64(),
                rebuilt: solver.databases_rebuilt(),
            },
            Err(why) => Databases::Refused(why),
        })
    }
}

/// What became of the endgame databases.
enum Databases {
    /// None asked for (`--db-seeds 0`).
    Off,
    /// Built or read: the most seeds a level holds, the time taken, and
    /// why the levels found in `--db` but built again were not read.
    Built {
        most: usize,
        seconds: f64,
        rebuilt: Vec<String>,
    },
    /// Not for this variant: why.
    Refused(String),
}

impl Databases {
    fn text(&self) -> String {
        match self {
            Databases::Off => String::new(),
            Databases::Built {
                most,
                seconds,
                rebuilt,
            } => {
                let mut t = String::new();
                for why in rebuilt {
                    t.push_str(&format!("{why}; built again\n"));
                }
                t + &format!(
                    "endgame databases: every position of up to {most} seeds in the pits, built or read in {seconds:.3} s\n"
                )
            }
            Databases::Refused(why) => format!("{why}\n"),
        }
    }

    fn json(&self) -> serde_json::Value {
        match self {
            Databases::Off => serde_json::Value::Null,
            Databases::Built {
                most,
                seconds,
                rebuilt,
            } => {
                serde_json::json!({ "seeds": most, "seconds": seconds, "rebuilt": rebuilt })
            }
            Databases::Refused(why) => serde_json::json!({ "none": why }),
        }
    }
}

/// What became of the table kept on disk (`--db`): read at the start
/// (none: no table kept there), written at a stop short of the value;
/// each where and the entries, or why not.
#[derive(Default)]
struct Kept {
    read: Option<Result<(PathBuf, u64), String>>,
    written: Option<Result<(PathBuf, u64), String>>,
}

impl Kept {
    fn text(&self) -> String {
        let line = |k: &Option<Result<(PathBuf, u64), String>>, done: &str, failed: &str| match k {
            Some(Ok((file, n))) => format!(
                "table: {} entries {}\n",
                thousands(*n),
                done.replace("FILE", &file.display().to_string())
            ),
            Some(Err(why)) => format!("{why}{failed}\n"),
            None => String::new(),
        };
        let read = "read from FILE (a solve stopped short kept them)";
        let written = "written to FILE: a solve with the same --db goes on from them";
        line(&self.read, read, "; the solve went on without it") + &line(&self.written, written, "")
    }

    fn json(&self) -> serde_json::Value {
        let one = |k: &Option<Result<(PathBuf, u64), String>>| match k {
            Some(Ok((file, n))) => serde_json::json!({ "file": file, "entries": n }),
            Some(Err(why)) => serde_json::json!({ "error": why }),
            None => serde_json::Value::Null,
        };
        serde_json::json!({ "read": one(&self.read), "written": one(&self.written) })
    }
}

/// Runs `work` on a thread of its own while `show` keeps the bar up to
/// date; what it returned.
fn with_bar<T: Send>(
    bar: &runs::Progress,
    work: impl FnOnce() -> T + Send,
    show: impl Fn(&runs::Progress),
) -> Result<T, Failed> {
    std::thread::scope(|s| {
        let run = s.spawn(work);
        while !run.is_finished() {
            show(bar);
            std::thread::sleep(Duration::from_millis(20));
        }
        run.join()
    })
    .map_err(|_| fail_plain("the solver's thread failed"))
}

/// A size in bytes: a number, with K, M or G (binary) after it or not.
fn parse_memory(given: &str) -> Result<usize, String> {
    let t = given.trim();
    let (digits, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => {
            return Err(format!(
                "`--memory {given}`: a size is a number with K, M or G after it (`512M`, `2G`)"
            ))
        }
    };
    let n: usize = digits.parse().map_err(|_| {
        format!("`--memory {given}`: a size is a number with K, M or G after it (`512M`, `2G`)")
    })?;
    let bytes = n
        .checked_mul(1 << shift)
        .filter(|&b| b <= 1 << 40)
        .ok_or_else(|| format!("`--memory {given}`: at most 1024G"))?;
    if bytes < MIN_MEMORY {
        return Err(format!("`--memory {given}`: at least 1M"));
    }
    Ok(bytes)
}

/// A value as bounds read: `win by 10`, or `at least a draw`, or
/// `between loss by 2 and win by 4`.
fn bounds_text(lower: Option<Value>, upper: Option<Value>, solo: bool) -> String {
    match (lower, upper) {
        (Some(l), Some(u)) if l == u => l.text(solo),
        (Some(l), Some(u)) => format!("between {} and {}", l.text(solo), u.text(solo)),
        (Some(l), None) => format!("at least {}", l.text(solo)),
        (None, Some(u)) => format!("at most {}", u.text(solo)),
        (None, None) => "not known".to_string(),
    }
}

/// The variant's name, with the options in force: `kalah (holes=4,
/// pit_seeds=3, empty_capture=no)`.
fn titled(v: &Variant) -> String {
    match v.engine.rules.options_text() {
        options if options.is_empty() => v.name().to_string(),
        options => format!("{} ({options})", v.name()),
    }
}

fn text(v: &Variant, game: &Game, s: &Solution) -> String {
    let rules = &v.engine.rules;
    let mover = &rules.players[usize::from(game.position().to_move.unwrap_or(0) & 1)];
    let mut t = String::new();
    let value = bounds_text(s.lower, s.upper, s.solo);
    let name = titled(v);
    if s.value().is_some() {
        t.push_str(&format!(
            "{name}: {value} for {mover}, the player to move\n"
        ));
    } else {
        let why = if runs::stopped() {
            "stopped by Ctrl-C"
        } else {
            "stopped at --max-positions"
        };
        t.push_str(&format!(
            "{name}: {why}; for {mover}, the player to move, {value}\n"
        ));
    }
    let width = s
        .turns
        .iter()
        .map(|tv| notation::write_turn(game, tv.turn).len())
        .max()
        .unwrap_or(0);
    t.push_str("first turns, the best first:\n");
    for tv in &s.turns {
        t.push_str(&format!(
            "  {:width$}  {}\n",
            notation::write_turn(game, tv.turn),
            bounds_text(tv.lower, tv.upper, s.solo)
        ));
    }
    let rate = s.positions as f64 / s.seconds.max(1e-9);
    t.push_str(&format!(
        "{} positions in {:.3} s ({} a second); table of {} entries in use (of {})\n",
        thousands(s.positions),
        s.seconds,
        thousands(rate as u64),
        thousands(s.table_entries as u64),
        thousands(s.table_capacity as u64),
    ));
    t
}

fn turn_json(game: &Game, tv: &TurnValue) -> serde_json::Value {
    let mut m = serde_json::json!({ "move": notation::write_turn(game, tv.turn) });
    match tv.exact() {
        Some(x) => {
            m["result"] = x.result.word().into();
            m["margin"] = x.margin.into();
        }
        None => {
            m["lower"] = serde_json::to_value(tv.lower).unwrap_or_default();
            m["upper"] = serde_json::to_value(tv.upper).unwrap_or_default();
        }
    }
    m
}

fn json(v: &Variant, game: &Game, s: &Solution) -> serde_json::Value {
    let rules = &v.engine.rules;
    let mover = &rules.players[usize::from(game.position().to_move.unwrap_or(0) & 1)];
    let value = s.value();
    serde_json::json!({
        "variant": v.name(),
        "to_move": mover,
        "complete": value.is_some(),
        "result": value.map(|x| x.result.word()),
        "margin": value.map(|x| x.margin),
        "lower": s.lower,
        "upper": s.upper,
        "best_moves": s.best().iter().map(|&t| notation::write_turn(game, t)).collect::<Vec<_>>(),
        "moves": s.turns.iter().map(|tv| turn_json(game, tv)).collect::<Vec<_>>(),
        "positions": s.positions,
        "seconds": s.seconds,
    })
}
