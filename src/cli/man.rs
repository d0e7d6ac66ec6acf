//! `sow man`: the manual page, in roff, or a page for each command.

use std::io::Write;

use clap::{Args, CommandFactory};

use super::output::{fail_plain, Failed};
use super::Cli;

#[derive(Args, Debug)]
pub(super) struct Man {
    /// Write `sow.1` and `sow-COMMAND.1` here (the folder must exist).
    #[arg(long)]
    dir: Option<String>,
}

impl Man {
    pub(super) fn run(self, out: &mut impl Write) -> Result<(), Failed> {
        match self.dir {
            None => clap_mangen::Man::new(Cli::command())
                .render(out)
                .map_err(fail_plain),
            Some(dir) => clap_mangen::generate_to(Cli::command(), &dir).map_err(|e| {
                fail_plain(format!("cannot write the manual pages into `{dir}`: {e}"))
            }),
        }
    }
}
