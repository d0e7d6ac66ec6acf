//! `sow completions`: a completion script for a shell.

use std::io::Write;

use clap::{Args, CommandFactory};

use super::output::Failed;
use super::Cli;

#[derive(Args, Debug)]
pub(super) struct Completions {
    /// The shell.
    shell: clap_complete::Shell,
}

impl Completions {
    pub(super) fn run(self, out: &mut impl Write) -> Result<(), Failed> {
        clap_complete::generate(self.shell, &mut Cli::command(), "sow", out);
        Ok(())
    }
}
