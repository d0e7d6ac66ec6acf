//! `sow random`: play random games and summarise them.

use std::io::Write;

use clap::Args;

use super::args::{Format, Many, RunArgs};
use super::output::{fail_plain, Failed};
use super::pick::{game_of, Pick};
use crate::play::{random, runs};

#[derive(Args, Debug)]
pub(super) struct Random {
    #[command(flatten)]
    pick: Pick,
    #[command(flatten)]
    many: Many,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    #[command(flatten)]
    run: RunArgs,
}

impl Random {
    pub(super) fn run(self, out: &mut impl Write) -> Result<(), Failed> {
        let Many {
            games,
            seed,
            max_plies,
        } = self.many;
        random(
            out,
            &self.pick,
            games,
            seed,
            max_plies,
            self.format,
            self.run,
        )
    }
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
    let json_out = format == Format::Json;
    let plan = random::Plan {
        games,
        seed,
        max_plies,
        moves: json_out,
    };
    runs::catch_interrupt();
    let summary = random::random_games(&fresh, plan, run.jobs(), run.quiet, |p| {
        if json_out {
            let _ = writeln!(out, "{}", p.json(&v));
        }
        true
    })
    .map_err(fail_plain)?;
    match format {
        Format::Json => {
            let _ = writeln!(out, "{}", summary.json(&v));
        }
        Format::Text => {
            let _ = write!(out, "{}", summary.text(&v));
        }
    }
    Ok(())
}
