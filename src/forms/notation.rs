//! Turn notation: a pit's label, then the letter of the choice made (when
//! the sowing's direction is chosen there), then any flags (`+`), then annotations to
//! ignore. Output always writes a chosen letter; input may leave it out
//! where only one legal turn fits. Flags are written exactly.

use crate::diagnostic::{did_you_mean, Diagnostic, Span};
use crate::engine::{Game, Turn};
use crate::ir::{Notation, Pit};

/// How a pass is written.
pub const PASS: &str = "pass";

/// How a turn sown from the store begins: `store:3` sows three.
pub const FROM_STORE: &str = "store:";

/// How a put begins (`put:B3` puts seeds into B3).
pub const PUT: &str = "put:";

/// How a take begins (`take:b3` takes b3's seeds out of the game).
pub const TAKE: &str = "take:";

/// What joins the two pits of a take into a pit the mover chose (`A>b`
/// moves A's seeds into b).
pub const MOVE_TO: &str = ">";

/// A kind of turn that sows nothing, as [`parse_turn`] reads it: the word
/// it begins with, which turns it writes, what it names.
type Unsown = (&'static str, fn(Turn) -> bool, &'static str);

/// Writes a turn: the starting pit's label, the chosen letter, the flags
/// (or `pass`, `store:N`, `put:LABEL`, `put:NLABEL` for a count chosen).
pub fn write_turn(game: &Game, turn: Turn) -> String {
    let rules = &game.engine().rules;
    if turn == Turn::PASS {
        return PASS.to_string();
    }
    if turn.seeds() > 0 {
        return format!("{FROM_STORE}{}", turn.seeds());
    }
    let label_of = |pit: u16| {
        rules
            .pits
            .get(pit as usize)
            .map_or("?", |p| p.label.as_str())
    };
    if let Some(into) = turn.destination() {
        return format!("{}{MOVE_TO}{}", label_of(turn.pit), label_of(into));
    }
    if let Some(n) = turn.put_seeds() {
        // (A count the mover chose goes before the pit: `put:3A`.)
        return format!("{PUT}{n}{}", label_of(turn.pit));
    }
    if turn.sows_nothing() {
        let label = label_of(turn.pit);
        let word = if turn.is_put() { PUT } else { TAKE };
        return format!("{word}{label}");
    }
    let letter = (turn.choice != Turn::NO_LETTER).then_some(turn.choice as usize);
    encode(
        &rules.pits,
        &rules.notation,
        turn.pit as usize,
        letter,
        turn.flags,
        turn.marks(),
    )
}

/// A turn as written: the starting pit (its index), the letter if one is
/// written (its index in the notation), the flags (a bit each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    /// The pit.
    pub pit: usize,
    /// The letter written, if any.
    pub letter: Option<usize>,
    /// The flags written.
    pub flags: u8,
    /// The sowings after which the per-sowing flag is written (see
    /// [`Turn::marks`]).
    pub marks: u32,
}

/// The text of a turn: the label of pit `pit`, the letter, the flags in
/// the order the notation declares them.
pub fn encode(
    pits: &[Pit],
    notation: &Notation,
    pit: usize,
    letter: Option<usize>,
    flags: u8,
    marks: u32,
) -> String {
    let mut out = pits[pit].label.clone();
    if let Some(l) = letter.and_then(|l| notation.letters.get(l)) {
        out.push_str(&l.letter);
    }
    for (i, f) in notation.flags.iter().enumerate() {
        if flags & (1 << i) != 0 {
            out.push_str(f);
        }
    }
    if let Some(f) = notation.per_sowing.and_then(|i| notation.flags.get(i)) {
        // The per-sowing flag, with the sowing it answers: `<2`.
        for k in 0..Turn::MARKED_SOWINGS {
            if marks >> k & 1 == 1 {
                out.push_str(&format!("{f}{}", k + 1));
            }
        }
    }
    out
}

/// Reads the text of a turn against the pits' labels and the notation,
/// without the game: annotations to ignore and flags come off the end,
/// then the label and a letter are told apart. One function for reading
/// and for the checker's proof that every turn reads back.
pub fn decode(pits: &[Pit], notation: &Notation, text: &str) -> Option<Written> {
    let (t, flags, marks) = strip_marks(text.trim(), notation);
    (0..pits.len()).find_map(|i| {
        let rest = t.strip_prefix(pits[i].label.as_str())?;
        if rest.is_empty() {
            Some(Written {
                pit: i,
                letter: None,
                flags,
                marks,
            })
        } else {
            notation
                .letters
                .iter()
                .position(|l| l.letter == rest)
                .map(|c| Written {
                    pit: i,
                    letter: Some(c),
                    flags,
                    marks,
                })
        }
    })
}

/// Reads a turn and checks that it is legal in the game's position.
pub fn parse_turn(game: &Game, text: &str) -> Result<Turn, Diagnostic> {
    let rules = &game.engine().rules;
    let whole = Span::new(0, text.len());
    let t = strip_marks(text.trim(), &rules.notation).0;
    if game.outcome().is_some() {
        return Err(Diagnostic::at(
            whole,
            format!("cannot play `{t}`: the game is over"),
            "after the end",
        )
        .hint("no turn can follow the end of the game"));
    }
    // The legal turns as written, for a message: made only on an error (a
    // listing of hundreds of turns, each read back, would be quadratic).
    let legal = || -> Vec<String> {
        game.legal_turns()
            .iter()
            .map(|&m| write_turn(game, m))
            .collect()
    };
    let list = || match legal() {
        none if none.is_empty() => "none".to_string(),
        some => some.join(" "),
    };
    if let Some(n) = t.strip_prefix(FROM_STORE) {
        let seeds: Option<u32> = n.parse().ok().filter(|&n| n > 0);
        let found = game
            .legal_turns()
            .iter()
            .find(|m| m.seeds() > 0 && Some(m.seeds()) == seeds);
        return found.copied().ok_or_else(|| {
            Diagnostic::at(whole, format!("`{t}` is not a turn here"), "not a legal turn").hint(
                format!(
                    "a turn from the store names 1 to the seeds it holds, where the variant has `enter any from store into …`; legal turns: {list}", list = list()),
            )
        });
    }
    // A take into a pit the mover chose: `A>b` (or `take:A>b`).
    if let Some((from, into)) = t.strip_prefix(TAKE).unwrap_or(t).split_once(MOVE_TO) {
        let pit = |l: &str| rules.pits.iter().position(|p| p.label == l);
        if let (Some(from), Some(into)) = (pit(from), pit(into)) {
            let found = game
                .legal_turns()
                .iter()
                .find(|m| m.pit as usize == from && m.destination() == Some(into as u16));
            return found.copied().ok_or_else(|| {
                Diagnostic::at(whole, format!("`{t}` is not a turn here"), "not a legal turn").hint(
                    format!(
                        "`A{MOVE_TO}b` moves A's seeds into b, where the variant's `take … from … into …` lets the mover now; legal turns: {list}", list = list()),
                )
            });
        }
    }
    // (Each: how it begins, which turns it writes, what it names.)
    let unsown: [Unsown; 2] = [
        (
            PUT,
            Turn::is_put,
            "a put names a pit the variant's `put … into …` lets the mover fill now (and, where the mover chooses how many seeds, the count first: `put:3A`)",
        ),
        (
            TAKE,
            |m| m.is_take() && m.destination().is_none(),
            "a take names a pit the variant's `take … from …` lets the mover empty now",
        ),
    ];
    for (word, is, what) in unsown {
        let Some(label) = t.strip_prefix(word) else {
            continue;
        };
        // (A put of a count the mover chose names it first: `put:3A`.)
        let digits = label.len() - label.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (count, label) = label.split_at(digits);
        let count: Option<u32> = count.parse().ok();
        let found = game.legal_turns().iter().find(|m| {
            is(**m)
                && m.put_seeds() == count
                && rules
                    .pits
                    .get(m.pit as usize)
                    .is_some_and(|p| p.label == label)
        });
        return found.copied().ok_or_else(|| {
            Diagnostic::at(
                whole,
                format!("`{t}` is not a turn here"),
                "not a legal turn",
            )
            .hint(format!("{what}; legal turns: {list}", list = list()))
        });
    }
    if t == PASS {
        if game.legal_turns().contains(&Turn::PASS) {
            return Ok(Turn::PASS);
        }
        return Err(
            Diagnostic::at(whole, "no pass here", "not a legal turn").hint(format!(
                "{} lets a player pass only where its `pass when …` holds; legal turns: {list}",
                rules.name,
                list = list()
            )),
        );
    }
    // The label, and the letter if one is written.
    let choices = &rules.notation.letters;
    let Some(Written {
        pit,
        letter: choice,
        flags,
        marks,
    }) = decode(&rules.pits, &rules.notation, text)
    else {
        let mut d = Diagnostic::at(
            whole,
            format!("`{t}` is not a turn of {}", rules.name),
            "not understood",
        );
        d = match did_you_mean(t, legal().iter().map(String::as_str)) {
            Some(s) => d.hint(format!(
                "did you mean `{s}`? legal turns: {list}",
                list = list()
            )),
            None => d.hint(format!(
                "a turn is a pit's label{}; legal turns: {list}",
                if choices.is_empty() {
                    ""
                } else {
                    " and a letter"
                },
                list = list()
            )),
        };
        return Err(d);
    };
    let mut fits: Vec<Turn> = game
        .legal_turns()
        .iter()
        .copied()
        .filter(|m| {
            m.pit as usize == pit
                && m.flags == flags
                && m.marks() == marks
                && choice.is_none_or(|c| m.choice as usize == c)
        })
        .collect();
    // A label alone is the pit's sowing where there is one, else the put
    // into it or the take from it.
    if fits.iter().any(|m| !m.sows_nothing()) {
        fits.retain(|m| !m.sows_nothing());
    }
    // (A move names the pit its seeds go into too.)
    fits.retain(|m| m.destination().is_none());
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
                rules.name,
                list = list()
            )))
        }
        [] => {
            let mover = game
                .position()
                .to_move
                .and_then(|p| rules.player_name(p))
                .unwrap_or_default();
            Err(Diagnostic::at(
                whole,
                format!("`{t}` is not a legal turn for {mover} here"),
                "illegal turn",
            )
            .hint(format!("legal turns: {list}", list = list())))
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
/// a turn, and says which flags were written, and after which sowings the
/// per-sowing flag was (`<2`).
fn strip_marks<'t>(mut t: &'t str, notation: &Notation) -> (&'t str, u8, u32) {
    let per_sowing = notation.per_sowing.and_then(|i| notation.flags.get(i));
    let mut marks: Vec<(&String, Option<usize>)> = notation
        .ignore
        .iter()
        .map(|a| (a, None))
        .chain(
            notation
                .flags
                .iter()
                .enumerate()
                .filter(|&(i, _)| notation.per_sowing != Some(i))
                .map(|(i, f)| (f, Some(i))),
        )
        .collect();
    marks.sort_by_key(|(m, _)| std::cmp::Reverse(m.len()));
    let (mut written, mut sowings) = (0u8, 0u32);
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
        if let Some(f) = per_sowing {
            // The flag and a sowing from 1 to 31.
            let digits = t.len() - t.trim_end_matches(|c: char| c.is_ascii_digit()).len();
            let (rest, n) = t.split_at(t.len() - digits);
            let k: Option<u32> = n
                .parse()
                .ok()
                .filter(|k| (1..=Turn::MARKED_SOWINGS).contains(k));
            if let (Some(k), Some(rest)) = (k, rest.strip_suffix(f.as_str())) {
                t = rest;
                sowings |= 1 << (k - 1);
            }
        }
        if t == before {
            return (t, written, sowings);
        }
    }
}
