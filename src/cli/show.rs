//! `sow show`: the variant as one file, what it builds on merged in; or,
//! with `--format json`, the variant as data (its board mapped).

use std::io::Write;

use clap::Args;

use super::args::Format;
use super::output::Failed;
use super::pick::{no_first, variant_of, Pick};
use crate::{json, load};

#[derive(Args, Debug)]
pub(super) struct Show {
    #[command(flatten)]
    pick: Pick,
    /// Output format: the variant as one file (`text`), or as data: its
    /// players, rows, stores, hands and options (`json`).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

impl Show {
    pub(super) fn run(self, out: &mut impl Write) -> Result<(), Failed> {
        show(out, &self.pick, self.format)
    }
}

fn show(out: &mut impl Write, pick: &Pick, format: Format) -> Result<(), Failed> {
    no_first(pick, "`show` prints the rules, not a game")?;
    let v = variant_of(pick, None)?;
    let _ = match format {
        Format::Text => write!(out, "{}", load::show(&v)),
        Format::Json => writeln!(out, "{}", json::variant(&v)),
    };
    Ok(())
}
