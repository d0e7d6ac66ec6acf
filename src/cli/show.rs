//! `sow show`: the variant as one file, what it builds on merged in.

use std::io::Write;

use clap::Args;

use super::output::Failed;
use super::pick::{no_first, variant_of, Pick};
use crate::load;

#[derive(Args, Debug)]
pub(super) struct Show {
    #[command(flatten)]
    pick: Pick,
}

impl Show {
    pub(super) fn run(self, out: &mut impl Write) -> Result<(), Failed> {
        show(out, &self.pick)
    }
}

fn show(out: &mut impl Write, pick: &Pick) -> Result<(), Failed> {
    no_first(pick, "`show` prints the rules, not a game")?;
    let v = variant_of(pick, None)?;
    let _ = write!(out, "{}", load::show(&v));
    Ok(())
}
