//! # sow — a rules language and interpreter for mancala games
//!
//! A variant file describes a game; sow checks it, lowers it to a rules IR
//! and plays it. The whole pipeline:
//!
//! ```
//! use sow::{Game, Variant};
//!
//! // source text ──parse──▶ syntax tree ──check──▶ rules IR ──▶ engine
//! let variant = Variant::shipped("oware-abapa").expect("a shipped variant");
//! let mut game = Game::new(variant.engine.clone()).unwrap();
//! assert_eq!(game.legal_turns().len(), 6);
//! let turn = variant.parse_turn(&game, "C").unwrap();
//! game.play(turn).unwrap();
//! assert_eq!(game.position().to_move, Some(1)); // North moves next
//! assert!(game.outcome().is_none());
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The pipeline, a folder a stage (see the book's "Contributing"):
// the language (source text to rules IR), the IR, the engine that plays
// it, the forms a position takes, and play (computer players, sessions,
// records, scripts, long runs, analysis); the command line over them all;
// diagnostics and limits beneath every layer.
pub mod cli;
pub mod diagnostic;
pub mod engine;
pub mod forms;
pub mod fuzz;
pub mod ir;
pub mod lang;
pub mod limits;
pub mod play;
#[cfg(feature = "serve")]
pub mod serve;

pub use forms::{actions, json, notation, render, svg, tensor};
pub use lang::{check, load, syntax, variants};
pub use play::{ai, analyze, record, runs, script, session, solve, tournament};

use std::sync::Arc;

pub use diagnostic::{Diagnostic, Span};
pub use engine::{Engine, Game, Outcome, Position, Turn};

/// A loaded variant: its source, its rules and the engine that plays them.
#[derive(Debug, Clone)]
pub struct Variant {
    /// The file name (or shipped name) it came from.
    pub origin: String,
    /// Its source text.
    pub source: String,
    /// What `sow check` warns of: valid, but maybe not what it reads as.
    pub warnings: Vec<Diagnostic>,
    /// The engine, with the rules IR inside.
    pub engine: Arc<Engine>,
    /// Its statements once the variants it builds on are merged in.
    pub statements: Vec<syntax::ast::Statement>,
    /// The texts of every file it was loaded from.
    pub sources: load::Sources,
}

/// Parses and checks one variant file on its own (no `extends`), returning
/// the rules IR or every problem found.
pub fn compile(source: &str) -> Result<ir::Rules, Vec<Diagnostic>> {
    let statements = syntax::parse(source).map_err(|d| vec![d])?;
    check::check(&statements, &[])
}

impl Variant {
    pub(crate) fn new(
        origin: &str,
        source: &str,
        rules: ir::Rules,
        statements: Vec<syntax::ast::Statement>,
        sources: load::Sources,
        mut warnings: Vec<Diagnostic>,
    ) -> Variant {
        let engine = Arc::new(Engine::new(rules));
        // A game over before its first turn is a game of no turns with a
        // result: allowed, and said.
        if let Some(over) = Game::new(engine.clone())
            .ok()
            .and_then(|g| g.outcome().cloned())
        {
            warnings.push(
                Diagnostic::new(format!(
                    "every game is over before its first turn: the end `{}` holds at the start",
                    over.reason
                ))
                .hint("a game of no turns has its result at once; check the end's condition against the setup")
                .kind(diagnostic::Kind::Warning),
            );
        }
        Variant {
            origin: origin.to_string(),
            source: source.to_string(),
            warnings,
            engine,
            statements,
            sources,
        }
    }

    /// Compiles a variant from source text, with its options at their
    /// defaults; `origin` names it in messages. A variant it extends is a
    /// shipped one or a file relative to the current folder.
    pub fn from_source(origin: &str, source: &str) -> Result<Variant, load::LoadError> {
        load::load_text(origin, source, std::path::Path::new(""), &[])
    }

    /// A variant shipped with sow, by name (`oware-abapa`, `kalah`), with
    /// its options at their defaults.
    pub fn shipped(name: &str) -> Option<Variant> {
        load::load(name, std::path::Path::new(""), &[]).ok()
    }

    /// The same variant with other values for its options.
    pub fn with_options(&self, options: &[(String, String)]) -> Result<Variant, load::LoadError> {
        let statements = self.statements.clone();
        let (rules, warnings) =
            check::check_warned(&statements, options).map_err(|diagnostics| load::LoadError {
                sources: self.sources.clone(),
                diagnostics,
            })?;
        Ok(Variant::new(
            &self.origin,
            &self.source,
            rules,
            statements,
            self.sources.clone(),
            warnings,
        ))
    }

    /// The variant's name as its file declares it.
    pub fn name(&self) -> &str {
        &self.engine.rules.name
    }

    /// The player `name`, who is to start a new game where the rules leave
    /// who starts to the players (the setup says `first chosen`; the
    /// command line's `--first`). Names what is wrong otherwise: not a
    /// player, or rules that say who starts.
    pub fn first_player(&self, name: &str) -> Result<ir::Player, String> {
        let r = &self.engine.rules;
        let Some(p) = r.players.iter().position(|p| p == name) else {
            return Err(format!("`{name}` is not a player ({})", r.players_are()));
        };
        if !r.setup.first_chosen {
            return Err(format!(
                "the rules of {} say who moves first ({}); a first player is named only for variants whose setup says `first chosen`",
                r.name,
                r.players[r.setup.first as usize]
            ));
        }
        Ok(p as ir::Player)
    }

    /// The starting position, with the player `first` names to move (see
    /// [`Variant::first_player`]) or, without it, the setup's first player.
    pub fn start_position(&self, first: Option<&str>) -> Result<Position, String> {
        Ok(match first {
            Some(name) => self.engine.start_position_for(self.first_player(name)?),
            None => self.engine.start_position(),
        })
    }

    /// Reads a turn in the variant's notation and checks it is legal now.
    pub fn parse_turn(&self, game: &Game, text: &str) -> Result<Turn, Diagnostic> {
        notation::parse_turn(game, text)
    }
}
