//! The variant and the game a command's arguments name: a shipped name or
//! a file, the options given (and those a position was saved with), who
//! moves first, and the position to start from.

use std::path::Path;

use clap::Args;

use super::output::{err_line, err_text, fail, fail_plain, fail_usage, read, Failed};
use crate::diagnostic::Kind;
use crate::engine::Game;
use crate::{json, load, Variant};

/// Which variant, and the values of its options.
#[derive(Args, Debug, Clone)]
pub(super) struct Pick {
    /// A shipped variant's name or a path to a `.sow` file.
    pub(super) variant: String,
    /// Give an option of the variant a value (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub(super) options: Vec<String>,
    /// Who moves first, where the rules leave it to the players (`first
    /// chosen`).
    #[arg(long, value_name = "PLAYER")]
    pub(super) first: Option<String>,
}

/// Reads `NAME=VALUE` options.
pub(super) fn parse_options(given: &[String]) -> Result<Vec<(String, String)>, Failed> {
    given
        .iter()
        .map(|o| match o.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() && !v.trim().is_empty() => {
                Ok((k.trim().to_string(), v.trim().to_string()))
            }
            _ => Err(fail_usage(format!(
                "`--option {o}` is not NAME=VALUE (write `--option grand_slam=forbidden`)"
            ))),
        })
        .collect()
}

/// Refuses `--first` where no new game is started.
pub(super) fn no_first(pick: &Pick, why: &str) -> Result<(), Failed> {
    match pick.first {
        Some(_) => Err(fail_usage(format!(
            "`--first` sets who starts a new game: {why}"
        ))),
        None => Ok(()),
    }
}

/// The variant picked, with the options given and those a position file
/// was saved with; and the game, from the start or from the position.
pub(super) fn game_of(pick: &Pick, from: Option<&str>) -> Result<(Variant, Game), Failed> {
    if from.is_some() {
        no_first(pick, "a position read with `--from` says who is to move")?;
    }
    let position = match from {
        Some(path) => Some((path, read(path)?)),
        None => None,
    };
    game_at(pick, position)
}

/// The variant picked and its game, from the start or from a position
/// file's name and text.
pub(super) fn game_at(
    pick: &Pick,
    position: Option<(&str, String)>,
) -> Result<(Variant, Game), Failed> {
    let v = variant_of(pick, position.as_ref())?;
    let game = match &position {
        None => {
            let first = pick.first.as_deref();
            let start = v
                .start_position(first)
                .map_err(|e| fail_usage(format!("`--first {}`: {e}", first.unwrap_or_default())))?;
            Game::from_position(v.engine.clone(), start, Vec::new())
                .map_err(|_| fail_plain("the start position's turns run past the engine's limit"))?
        }
        Some((path, text)) => json::read_position(&v, text).map_err(|d| fail(path, text, &[d]))?,
    };
    Ok((v, game))
}

/// The variant picked, with the options given and those the position file
/// (its path and text) was saved with.
pub(super) fn variant_of(
    pick: &Pick,
    position: Option<&(&str, String)>,
) -> Result<Variant, Failed> {
    let mut options = parse_options(&pick.options)?;
    let mut saved = Vec::new();
    if let Some((path, text)) = position {
        // A position keeps the options it was played with.
        for (k, v) in json::saved_options(text) {
            // (A number is its number: `04` is `4`; a word never starts
            // with a digit.)
            let same = |a: &str, b: &str| match (a.parse::<i64>(), b.parse::<i64>()) {
                (Ok(x), Ok(y)) => x == y,
                _ => a == b,
            };
            match options.iter().find(|(n, _)| *n == k) {
                Some((_, given)) if !same(given, &v) => {
                    return Err(fail_plain(format!(
                        "`{path}` was saved with option {k}={v}, not {k}={given}"
                    )))
                }
                Some(_) => {}
                None => {
                    saved.push(format!("{k}={v}"));
                    options.push((k, v));
                }
            }
        }
    }
    load::load(&pick.variant, Path::new(""), &options).map_err(|e| {
        if let (Some((path, _)), false) = (position, saved.is_empty()) {
            err_line!(
                "error: `{path}` was saved with options {}",
                saved.join(", ")
            );
        }
        err_text!("{}", e.render());
        // An `--option` the variant does not have, or a value it does not
        // allow, is a usage error.
        let given = |name: &str| {
            pick.options
                .iter()
                .any(|o| o.split('=').next().map(str::trim) == Some(name))
        };
        let usage = e
            .diagnostics
            .iter()
            .any(|d| matches!(&d.kind, Kind::Option(name) if given(name)));
        if usage {
            Failed::Usage
        } else {
            Failed::Input
        }
    })
}
