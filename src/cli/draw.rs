//! `sow draw`: a position as a picture (SVG, on standard output).

use std::io::Write;

use clap::Args;

use super::output::{fail, fail_usage, read, Failed};
use super::pick::{variant_of, Pick};
use crate::json;

#[derive(Args, Debug)]
pub(super) struct Draw {
    /// A position file (JSON), as `--from` reads it.
    position: String,
    /// The variant, where the position's is not a shipped one (a path
    /// to its `.sow` file).
    #[arg(long)]
    variant: Option<String>,
    /// Give an option of the variant a value (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Ring this pit as the last move's (its label).
    #[arg(long, value_name = "LABEL")]
    last: Option<String>,
}

impl Draw {
    pub(super) fn run(self, out: &mut impl Write) -> Result<(), Failed> {
        draw(
            out,
            &self.position,
            self.variant,
            self.options,
            self.last.as_deref(),
        )
    }
}

fn draw(
    out: &mut impl Write,
    position: &str,
    variant: Option<String>,
    options: Vec<String>,
    last: Option<&str>,
) -> Result<(), Failed> {
    let text = read(position)?;
    // The variant the position names, unless one is given.
    let variant = match variant {
        Some(given) => given,
        None => {
            let named = json::saved_variant(&text).map_err(|d| fail(position, &text, &[d]))?;
            let Some(name) = named else {
                return Err(fail_usage(format!(
                    "`{position}` names no variant: give it with `--variant NAME|FILE`"
                )));
            };
            if crate::variants::source(&name).is_none() {
                return Err(fail_usage(format!(
                    "`{position}` is a position of `{}`, which is not a shipped variant: give its file with `--variant FILE`",
                    crate::diagnostic::shown(&name)
                )));
            }
            name
        }
    };
    let pick = Pick {
        variant,
        options,
        first: None,
    };
    // (A finished game's last position is drawn too.)
    let v = variant_of(&pick, Some(&(position, text.clone())))?;
    let game = json::read_board(&v, &text).map_err(|d| fail(position, &text, &[d]))?;
    let last = match last {
        None => None,
        Some(label) => match v.engine.rules.pits.iter().position(|p| p.label == label) {
            Some(i) => Some(i as u16),
            None => {
                return Err(fail_usage(format!(
                    "`--last {label}`: no pit of {} is labelled `{label}`",
                    v.name()
                )))
            }
        },
    };
    let _ = write!(out, "{}", crate::svg::board(&v, &game, last));
    Ok(())
}
