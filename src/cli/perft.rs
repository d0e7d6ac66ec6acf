//! `sow perft`: count the whole-turn paths of a given length.

use std::io::Write;
use std::time::Instant;

use clap::Args;

use super::args::RunArgs;
use super::output::{fail_plain, Failed};
use super::pick::{game_of, Pick};
use crate::{play, render, runs};

#[derive(Args, Debug)]
pub(super) struct Perft {
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
}

impl Perft {
    pub(super) fn run(self, out: &mut impl Write) -> Result<(), Failed> {
        perft(
            out,
            &self.pick,
            self.depth,
            self.from.as_deref(),
            self.lines,
            self.run,
        )
    }
}

fn perft(
    out: &mut impl Write,
    pick: &Pick,
    depth: u32,
    from: Option<&str>,
    lines: bool,
    run: RunArgs,
) -> Result<(), Failed> {
    let (v, game) = game_of(pick, from)?;
    let t = Instant::now();
    let too_long = fail_plain;
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
