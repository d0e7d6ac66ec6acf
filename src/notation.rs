//! Turn notation: a pit's label, then the letter of the choice made (when
//! the variant declares letters), then any flags (`+`), then annotations to
//! ignore. Output always writes the letter; input may leave it out where
//! only one legal turn fits. Flags are written exactly.

use crate::diagnostic::{did_you_mean, Diagnostic, Span};
use crate::engine::{Game, Turn};

/// Writes a turn: the starting pit's label, the chosen letter, the flags.
pub fn write_turn(game: &Game, turn: Turn) -> String {
    let rules = &game.engine().rules;
    let mut out = rules.pits[turn.pit as usize].label.clone();
    if let Some(l) = rules.notation.letters.get(turn.choice as usize) {
        if rules.sowing.direction.is_none() {
            out.push_str(&l.letter);
        }
    }
    for (i, f) in rules.notation.flags.iter().enumerate() {
        if turn.flags & (1 << i) != 0 {
            out.push_str(f);
        }
    }
    out
}

/// Reads a turn and checks that it is legal in the game's position.
pub fn parse_turn(game: &Game, text: &str) -> Result<Turn, Diagnostic> {
    let rules = &game.engine().rules;
    let whole = Span::new(0, text.len());
    let (t, flags) = strip_marks(text.trim(), &rules.notation.ignore, &rules.notation.flags);
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
        .filter(|m| {
            m.pit as usize == pit
                && m.flags == flags
                && choice.is_none_or(|c| m.choice as usize == c)
        })
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

/// Removes annotations and flags (declared by the variant) from the end of
/// a turn, and says which flags were written.
fn strip_marks<'t>(mut t: &'t str, ignore: &[String], flags: &[String]) -> (&'t str, u8) {
    let mut marks: Vec<(&String, Option<usize>)> = ignore
        .iter()
        .map(|a| (a, None))
        .chain(flags.iter().enumerate().map(|(i, f)| (f, Some(i))))
        .collect();
    marks.sort_by_key(|(m, _)| std::cmp::Reverse(m.len()));
    let mut written = 0u8;
    loop {
        let before = t;
        for (m, flag) in &marks {
            if let Some(rest) = t.strip_suffix(m.as_str()) {
                t = rest;
                if let Some(i) = flag {
                    written |= 1 << i;
                }
            }
        }
        if t == before {
            return (t, written);
        }
    }
}
