//! Turn notation: a pit's label, then the letter of the choice made (when
//! the variant declares letters), then annotations to ignore. Output always
//! writes the letter; input may leave it out where only one legal turn fits.

use crate::diagnostic::{did_you_mean, Diagnostic, Span};
use crate::engine::{Game, Turn};

/// Writes a turn: the starting pit's label and the chosen letter.
pub fn write_turn(game: &Game, turn: Turn) -> String {
    let rules = &game.engine().rules;
    let label = &rules.pits[turn.pit as usize].label;
    match rules.notation.letters.get(turn.choice as usize) {
        Some(l) if rules.sowing.direction.is_none() => format!("{label}{}", l.letter),
        _ => label.clone(),
    }
}

/// Reads a turn and checks that it is legal in the game's position.
pub fn parse_turn(game: &Game, text: &str) -> Result<Turn, Diagnostic> {
    let rules = &game.engine().rules;
    let whole = Span::new(0, text.len());
    let t = strip_annotations(text.trim(), &rules.notation.ignore);
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
    // The label, and the letter if one is written.
    let choices = &rules.notation.letters;
    let split = rules.pits.iter().enumerate().find_map(|(i, p)| {
        let rest = t.strip_prefix(p.label.as_str())?;
        if rest.is_empty() {
            Some((i, None))
        } else {
            choices
                .iter()
                .position(|l| l.letter == rest)
                .map(|c| (i, Some(c)))
        }
    });
    let Some((pit, choice)) = split else {
        let mut d = Diagnostic::at(
            whole,
            format!("`{t}` is not a turn of {}", rules.name),
            "not understood",
        );
        d = match did_you_mean(t, legal.iter().map(String::as_str)) {
            Some(s) => d.hint(format!("did you mean `{s}`? legal turns: {list}")),
            None => d.hint(format!(
                "a turn is a pit's label{}; legal turns: {list}",
                if choices.is_empty() {
                    ""
                } else {
                    " and a letter"
                }
            )),
        };
        return Err(d);
    };
    let fits: Vec<Turn> = game
        .legal_turns()
        .iter()
        .copied()
        .filter(|m| m.pit as usize == pit && choice.is_none_or(|c| m.choice as usize == c))
        .collect();
    match fits.as_slice() {
        [one] => Ok(*one),
        [] if game
            .endless_turns()
            .iter()
            .any(|m| m.pit as usize == pit && choice.is_none_or(|c| m.choice as usize == c)) =>
        {
            Err(Diagnostic::at(
                whole,
                format!("`{t}` would never end: its sowing comes back to a state it was in"),
                "a turn that never ends",
            )
            .hint(format!(
                "{} forbids such turns; legal turns: {list}",
                rules.name
            )))
        }
        [] => {
            let mover = game
                .position()
                .to_move
                .map_or("", |p| rules.players[p as usize].as_str());
            Err(Diagnostic::at(
                whole,
                format!("`{t}` is not a legal turn for {mover} here"),
                "illegal turn",
            )
            .hint(format!("legal turns: {list}")))
        }
        many => {
            let names: Vec<String> = many.iter().map(|&m| write_turn(game, m)).collect();
            Err(Diagnostic::at(
                whole,
                format!("`{t}` is ambiguous"),
                "more than one turn fits",
            )
            .hint(format!("write one of: {}", names.join(" "))))
        }
    }
}

/// Removes annotations (declared by the variant) from the end of a turn.
fn strip_annotations<'t>(mut t: &'t str, ignore: &[String]) -> &'t str {
    let mut sorted: Vec<&String> = ignore.iter().collect();
    sorted.sort_by_key(|a| std::cmp::Reverse(a.len()));
    loop {
        let before = t;
        for a in &sorted {
            if let Some(rest) = t.strip_suffix(a.as_str()) {
                t = rest;
            }
        }
        if t == before {
            return t;
        }
    }
}
