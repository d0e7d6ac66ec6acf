//! `sow check`: parse and validate variant files, reporting every problem.

use std::io::Write;
use std::path::Path;

use clap::Args;

use super::output::{err_text, Failed};
use crate::load;

#[derive(Args, Debug)]
pub(super) struct Check {
    /// Variant files (`.sow`) or shipped names.
    #[arg(required = true)]
    files: Vec<String>,
}

impl Check {
    pub(super) fn run(self, out: &mut impl Write) -> Result<(), Failed> {
        let files = &self.files;
        let mut failed = false;
        for f in files {
            match load::load(f, Path::new(""), &[]) {
                Ok(v) => {
                    let _ = writeln!(
                        out,
                        "{f}: ok ({}, {} rules)",
                        v.name(),
                        v.engine.rules.rules.len() + v.engine.rules.ends.len()
                    );
                    for o in &v.engine.rules.options {
                        let _ = match o.choices.describe() {
                            // A value the variant fixes (`option holes = 8`).
                            one if one == o.value => {
                                writeln!(out, "  option {} = {} (fixed)", o.name, o.value)
                            }
                            all => {
                                writeln!(out, "  option {}: {all} (default {})", o.name, o.value)
                            }
                        };
                    }
                    // Valid, but maybe not what it reads as: said, and
                    // the file still checks.
                    if !v.warnings.is_empty() {
                        let _ = writeln!(
                            out,
                            "{}{f}: {} warning(s)",
                            v.sources.render_all(&v.warnings),
                            v.warnings.len()
                        );
                    }
                }
                Err(e) => {
                    failed = true;
                    err_text!("{}", e.render());
                }
            }
        }
        if failed {
            Err(Failed::Input)
        } else {
            Ok(())
        }
    }
}
