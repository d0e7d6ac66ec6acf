//! `sow moves`: every legal turn with the position it leads to; with
//! `--from -`, the conversation mode (see `converse`).

use std::io::Write;

use clap::Args;

use super::args::Format;
use super::output::{fail_plain, Checked, Failed};
use super::pick::{game_of, Pick};
use crate::notation::write_turn;
use crate::{json, render};

#[derive(Args, Debug)]
pub(super) struct Moves {
    #[command(flatten)]
    pick: Pick,
    /// Start from this position file (JSON).
    #[arg(long)]
    from: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

impl Moves {
    pub(super) fn run<W: Write>(self, out: &mut Checked<W>) -> Result<(), Failed> {
        match self.from.as_deref() {
            Some("-") => super::converse::converse(out, &self.pick, self.format),
            from => moves(out, &self.pick, from, self.format),
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
        next.play(t).map_err(fail_plain)?;
        match format {
            Format::Json => {
                let _ = writeln!(out, "{}", json::moved(&v, &game, t, &next));
            }
            Format::Text => {
                let written = write_turn(&game, t);
                let _ = writeln!(out, "{written}\n{}", render::board(&v, &next));
            }
        }
    }
    Ok(())
}
