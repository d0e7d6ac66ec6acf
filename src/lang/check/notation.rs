//! How turns are written (`notation { … }`), and the proof that every
//! turn written reads back as itself.

use super::*;

impl Checker {
    /// `notation { letter L: left … ignore: "*" "#" }`
    pub(super) fn notation(&mut self, s: &Statement, notation: &mut Notation) {
        let body = self.block(s);
        for st in body {
            self.no_block(st);
            match st.word.name.as_str() {
                "letter" => {
                    let usage = "write `letter L: left` (or right, forward, backward)";
                    let (Some(letter), [heading]) = (
                        st.args.first().and_then(|e| match &e.kind {
                            ExprKind::Word(w) | ExprKind::Str(w) => Some(w.clone()),
                            _ => None,
                        }),
                        tail(st),
                    ) else {
                        self.err(
                            Diagnostic::at(
                                st.span,
                                "a letter is `letter NAME: HEADING`",
                                "malformed letter",
                            )
                            .hint(usage),
                        );
                        continue;
                    };
                    let Some(heading) = self.heading(
                        heading,
                        "a letter names forward, backward, left or right",
                        usage,
                    ) else {
                        continue;
                    };
                    if letter.chars().count() > MAX_NAME {
                        self.err(
                            Diagnostic::limit(
                                st.span,
                                format!("a letter is at most {MAX_NAME} characters"),
                                "too long",
                            )
                            .hint(usage),
                        );
                        continue;
                    }
                    if notation.letters.iter().any(|l| l.letter == letter) {
                        self.err(
                            Diagnostic::at(
                                st.span,
                                format!("the letter `{letter}` is declared twice"),
                                "duplicate letter",
                            )
                            .hint("each letter names one heading"),
                        );
                        continue;
                    }
                    if let Some(same) = notation.letters.iter().find(|l| l.heading == heading) {
                        self.err(
                            Diagnostic::at(
                                st.span,
                                format!(
                                    "the letter `{letter}` names the heading `{}` names",
                                    same.letter
                                ),
                                "the same heading",
                            )
                            .hint("each heading has one letter"),
                        );
                        continue;
                    }
                    notation.letters.push(Letter { letter, heading });
                }
                "ignore" => {
                    for e in tail(st).iter().chain(st.args.iter()) {
                        match &e.kind {
                            ExprKind::Str(a) if !a.is_empty() && a.chars().count() <= MAX_NAME => {
                                notation.ignore.push(a.clone())
                            }
                            _ => self.err(
                                Diagnostic::at(
                                    e.span,
                                    "an annotation to ignore is a quoted string",
                                    "not a string",
                                )
                                .hint("write `ignore: \"*\" \"#\"`"),
                            ),
                        }
                    }
                }
                "flag" => {
                    // `flag "<" per sowing`: answered at each sowing.
                    let mut marks: Vec<&Expr> = tail(st).iter().chain(st.args.iter()).collect();
                    let words: Vec<Option<&str>> =
                        marks.iter().rev().take(2).map(|e| e.as_word()).collect();
                    let per_sowing = words == [Some("sowing"), Some("per")];
                    if per_sowing {
                        marks.truncate(marks.len() - 2);
                        if marks.len() != 1 || notation.per_sowing.is_some() {
                            self.err(
                                Diagnostic::at(
                                    st.span,
                                    "one flag is answered at each sowing",
                                    "more than one",
                                )
                                .hint("declare a single `flag \"<\" per sowing`; other flags hold for the whole turn"),
                            );
                        } else {
                            notation.per_sowing = Some(notation.flags.len());
                        }
                    }
                    for e in marks {
                        match &e.kind {
                            ExprKind::Str(f)
                                if !f.is_empty()
                                    && f.chars().count() <= MAX_NAME
                                    && !notation.flags.contains(f) =>
                            {
                                notation.flags.push(f.clone())
                            }
                            _ => self.err(
                                Diagnostic::at(
                                    e.span,
                                    "a flag is a quoted mark, declared once",
                                    "not a flag",
                                )
                                .hint("write `flag \"+\"`"),
                            ),
                        }
                    }
                    if notation.flags.len() > crate::limits::MAX_FLAGS {
                        notation.flags.truncate(crate::limits::MAX_FLAGS);
                        self.err(
                            Diagnostic::limit(
                                st.span,
                                format!("at most {} flags", crate::limits::MAX_FLAGS),
                                "too many flags",
                            )
                            .hint("keep the notation short"),
                        );
                    }
                }
                _ => self.unknown(st, &["letter", "flag", "ignore"], "notation statement"),
            }
        }
    }

    /// Every turn the notation writes reads back as itself, annotations
    /// after it or not: a mark that a label (or a letter) ends with, or
    /// that another mark ends with, would read one turn as another.
    pub(super) fn reads_back(&mut self, at: Span) {
        use crate::notation::{decode, encode, Written};
        let n = &self.notation;
        let letters: Vec<Option<usize>> = if n.letters.is_empty() {
            vec![None]
        } else {
            (0..n.letters.len()).map(Some).collect()
        };
        let shown = |w: &Written| {
            let mut t = format!("pit `{}`", self.pits[w.pit].label);
            if let Some(l) = w.letter {
                t.push_str(&format!(" with letter `{}`", n.letters[l].letter));
            }
            for (i, f) in n.flags.iter().enumerate() {
                if w.flags & (1 << i) != 0 {
                    t.push_str(&format!(" with flag `{f}`"));
                }
            }
            if w.marks != 0 {
                t.push_str(" with the per-sowing flag");
            }
            t
        };
        // The per-sowing flag is written with its sowings, never alone.
        let marks: &[u32] = if n.per_sowing.is_some() {
            &[0, 1, 0b101]
        } else {
            &[0]
        };
        for pit in 0..self.pits.len() {
            for &letter in &letters {
                for (flags, &marks) in (0..(1u16 << n.flags.len()))
                    .filter(|f| n.per_sowing.is_none_or(|i| f & 1 << i == 0))
                    .flat_map(|f| marks.iter().map(move |m| (f, m)))
                {
                    let flags = flags as u8;
                    let turn = Written {
                        pit,
                        letter,
                        flags,
                        marks,
                    };
                    let text = encode(&self.pits, n, pit, letter, flags, marks);
                    let annotated = std::iter::once(String::new()).chain(n.ignore.iter().cloned());
                    for a in annotated {
                        let written = format!("{text}{a}");
                        let read = decode(&self.pits, n, &written);
                        if read == Some(turn) {
                            continue;
                        }
                        let as_read = read.map_or("nothing".to_string(), |r| shown(&r));
                        let d = Diagnostic::at(
                            at,
                            format!(
                                "the notation writes `{written}` for {} and reads it as {as_read}",
                                shown(&turn)
                            ),
                            "a turn read two ways",
                        )
                        .hint(
                            "a letter, flag or annotation must not end a label, nor another mark",
                        );
                        self.err(d);
                        return;
                    }
                }
            }
        }
    }

    /// A heading word (`forward`, `backward`, `left`, `right`), or an error
    /// saying `what`.
    pub(super) fn heading(&mut self, e: &Expr, what: &str, usage: &str) -> Option<Heading> {
        match e.as_word() {
            Some("forward") => Some(Heading::Forward),
            Some("backward") => Some(Heading::Backward),
            Some("left") => Some(Heading::Left),
            Some("right") => Some(Heading::Right),
            _ => {
                self.err(
                    Diagnostic::at(e.span, what.to_string(), "unknown heading")
                        .hint(usage.to_string()),
                );
                None
            }
        }
    }
}
