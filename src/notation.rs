//! Turn notation: how a turn is written and read.

use crate::diagnostic::{did_you_mean, Diagnostic, Span};
use crate::engine::{Game, Turn};

/// Writes a turn as its notation (the starting pit's label).
pub fn write_turn(game: &Game, turn: Turn) -> String {
    game.engine().rules.pits[turn.pit as usize].label.clone()
}

/// Reads a turn and checks that it is legal in the game's position.
pub fn parse_turn(game: &Game, text: &str) -> Result<Turn, Diagnostic> {
    let rules = &game.engine().rules;
    let t = text.trim();
    let whole = Span::new(0, text.len());
    if game.outcome().is_some() {
        return Err(Diagnostic::at(
            whole,
            format!("cannot play `{t}`: the game is over"),
            "after the end",
        )
        .hint("no turn can follow the end of the game"));
    }
    let legal: Vec<String> = game
        .legal_turns()
        .iter()
        .map(|&m| write_turn(game, m))
        .collect();
    let list = if legal.is_empty() {
        "none".to_string()
    } else {
        legal.join(" ")
    };
    let Some(pit) = rules.pits.iter().position(|p| p.label == t) else {
        let mut d = Diagnostic::at(
            whole,
            format!("`{t}` is not a turn: no pit has that label"),
            "unknown label",
        );
        d = match did_you_mean(t, rules.pits.iter().map(|p| p.label.as_str())) {
            Some(s) if legal.iter().any(|l| l == s) => {
                d.hint(format!("did you mean `{s}`? legal turns: {list}"))
            }
            _ => d.hint(format!("legal turns: {list}")),
        };
        return Err(d);
    };
    let turn = Turn { pit: pit as u16 };
    if !game.legal_turns().contains(&turn) {
        let mover = game
            .position()
            .to_move
            .map_or("", |p| rules.players[p as usize].as_str());
        return Err(Diagnostic::at(
            whole,
            format!("`{t}` is not a legal turn for {mover} here"),
            "illegal turn",
        )
        .hint(format!("legal turns: {list}")));
    }
    Ok(turn)
}
