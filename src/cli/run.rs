//! `sow run`: a scripted game (TOML), its expectations checked.

use std::io::Write;
use std::path::Path;

use clap::Args;

use super::output::{err_text, fail, read, Failed};
use crate::script;

#[derive(Args, Debug)]
pub(super) struct Run {
    /// The script.
    script: String,
}

impl Run {
    pub(super) fn run(self, out: &mut impl Write) -> Result<(), Failed> {
        run(out, &self.script)
    }
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
