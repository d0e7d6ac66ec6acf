//! `sow list`: the shipped variants, name and title, one a line.

use std::io::Write;

use super::output::Failed;
use crate::Variant;

pub(super) fn list(out: &mut impl Write) -> Result<(), Failed> {
    let names = crate::variants::names();
    let width = names.iter().map(|n| n.len()).max().unwrap_or(0);
    for name in names {
        let title = Variant::shipped(name).map_or(String::new(), |v| v.engine.rules.title.clone());
        let _ = writeln!(out, "{name:width$}  {title}");
    }
    Ok(())
}
