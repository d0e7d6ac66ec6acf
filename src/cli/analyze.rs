//! `sow analyze`: play many games and measure the variant.

use std::io::Write;

use clap::Args;

use super::args::{Format, Many, RunArgs};
use super::output::{fail_plain, fail_usage, Failed};
use super::pick::{game_of, Pick};
use crate::{ai, analyze, runs};

#[derive(Args, Debug)]
pub(super) struct Analyze {
    #[command(flatten)]
    pick: Pick,
    #[command(flatten)]
    many: Many,
    /// Who plays: one player for both seats or two (`mcts,random`)
    /// taking the first seat in turn, the first named in even games; each
    /// random, mcts or minimax, at `--level` or at a level of its own
    /// (`mcts:3`).
    #[arg(long, value_parser = ai::computer_named, value_delimiter = ',', num_args = 1..=2, default_value = "random")]
    players: Vec<(ai::Seat, Option<u8>)>,
    /// How hard the computer players think, 1 to 9.
    #[arg(long, default_value_t = ai::DEFAULT_LEVEL, value_parser = clap::value_parser!(u8).range(1..=9))]
    level: u8,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    run: RunArgs,
}

impl Analyze {
    pub(super) fn run(self, out: &mut impl Write) -> Result<(), Failed> {
        let Analyze {
            pick,
            many:
                Many {
                    games,
                    seed,
                    max_plies,
                },
            players,
            level,
            format,
            run,
        } = self;
        let seat = |k: usize| players.get(k).or(players.first()).copied();
        let [a, b] = [seat(0), seat(1)].map(|s| s.unwrap_or((ai::Seat::Random, None)));
        let plan = analyze::Plan {
            games,
            seed,
            players: [a.0, b.0],
            levels: [a.1.unwrap_or(level), b.1.unwrap_or(level)],
            max_plies,
            keep: false,
        };
        match players.len() {
            0..=2 => report(out, &pick, plan, format, run),
            n => Err(fail_usage(format!(
                "`--players` names one player for both seats or two (`mcts,random`), not {n}"
            ))),
        }
    }
}

fn report(
    out: &mut impl Write,
    pick: &Pick,
    plan: analyze::Plan,
    format: Format,
    run: RunArgs,
) -> Result<(), Failed> {
    let (v, fresh) = game_of(pick, None)?;
    if let Some(why) = plan.refusal(&fresh) {
        return Err(fail_plain(why));
    }
    runs::catch_interrupt();
    let report = analyze::analyze(&v, &fresh, plan, run.jobs(), run.quiet);
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
