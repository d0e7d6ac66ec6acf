//! How the game ends (`end …`), what a turn that never ends does
//! (`endless`), and the score.

use super::*;

impl Checker {
    pub(super) fn end<'x>(
        &mut self,
        s: &Statement,
        scope: &dyn Fn(Context) -> Scope<'x>,
    ) -> Option<End> {
        // end NAME [at once] when COND [winner|loser PLAYER | draw]
        self.no_block(s);
        let usage =
            "write `end NAME [at once] when CONDITION [winner PLAYER | loser PLAYER | draw]`";
        let malformed = |this: &mut Self| {
            this.err(
                Diagnostic::at(
                    s.span,
                    "an end rule is `end NAME [at once] when CONDITION [winner|loser PLAYER | draw]`",
                    "malformed end rule",
                )
                .hint(usage),
            );
        };
        let args = s.args.as_slice();
        let Some(name_e) = args.first() else {
            malformed(self);
            return None;
        };
        let mut rest = &args[1..];
        let at_once =
            rest.len() >= 2 && rest[0].as_word() == Some("at") && rest[1].as_word() == Some("once");
        if at_once {
            rest = &rest[2..];
        }
        let (cond, result) = match rest {
            [w, c] if w.as_word() == Some("when") => (c, None),
            [w, c, d] if w.as_word() == Some("when") && d.as_word() == Some("draw") => {
                (c, Some((true, None)))
            }
            [w, c, k, p]
                if w.as_word() == Some("when")
                    && matches!(k.as_word(), Some("winner" | "loser")) =>
            {
                (c, Some((k.as_word() == Some("winner"), Some(p))))
            }
            _ => {
                malformed(self);
                return None;
            }
        };
        if let (None, Some([one])) = (&result, self.players.as_deref()) {
            // No opponent's score to compare with: the rule must say.
            self.err(
                Diagnostic::at(
                    s.span,
                    "a solitaire's end rule names its result",
                    "no result",
                )
                .hint(format!(
                    "end it with `winner {one}`, `loser {one}` or `draw`"
                )),
            );
            return None;
        }
        let Some(name) = name_e.as_word().map(str::to_string) else {
            self.err(
                Diagnostic::at(
                    name_e.span,
                    "an end rule's name is a plain name",
                    "not a name",
                )
                .hint(usage),
            );
            return None;
        };
        let mut lw = Lowerer::new(scope(if at_once {
            Context {
                sees: Sees::END_AT_ONCE,
                what: "in an end rule judged during a turn (`at once`)",
            }
        } else {
            Context {
                sees: Sees::END_RULE,
                what: "in an `end` rule",
            }
        }));
        let when = lw.cond(cond);
        let result = match result {
            None => None,
            Some((_, None)) => Some(Some(Decision::Draw)),
            Some((wins, Some(p))) => Some(lw.who(p).map(|w| {
                if wins {
                    Decision::Winner(w)
                } else {
                    Decision::Loser(w)
                }
            })),
        };
        self.diagnostics.append(&mut lw.diagnostics);
        let result = match result {
            None => None,
            Some(d) => Some(d?),
        };
        Some(End {
            name,
            when: when?,
            result,
            at_once,
        })
    }

    /// `endless: forbid|draw|loss` (or an option naming one).
    pub(super) fn endless(&mut self, s: &Statement, endless: &mut Endless) {
        self.no_block(s);
        let choice = match (s.args.as_slice(), tail(s)) {
            ([], [w]) | ([w], []) => self.option_value(w).or(w.as_word()),
            _ => None,
        };
        match choice {
            Some("forbid") => *endless = Endless::Forbid,
            Some("draw") => *endless = Endless::Draw,
            Some("loss") => *endless = Endless::Loss,
            _ => self.err(
                Diagnostic::at(
                    s.span,
                    "`endless` is `forbid`, `draw` or `loss`",
                    "unknown policy",
                )
                .hint("write `endless: forbid` (a turn that would never end is not legal)"),
            ),
        }
    }

    /// `score EXPR` (each player's, `player`, at the end) or `estimate
    /// EXPR` (each player's, on any position, for the computer players).
    pub(super) fn score<'x>(
        &mut self,
        s: &Statement,
        scope: &dyn Fn(Context) -> Scope<'x>,
        score: &mut Option<Num>,
        which: Scored,
    ) {
        self.no_block(s);
        let (word, what, hint) = match which {
            Scored::Score => (
                "score",
                "in `score`",
                "write `score seeds(store(player)) + seeds(side(player))`",
            ),
            Scored::Estimate => (
                "estimate",
                "in `estimate`",
                "write `estimate seeds(store(player)) * 2 + seeds(side(player))`",
            ),
        };
        let mut lw = Lowerer::new(scope(Context {
            sees: Sees::SCORE,
            what,
        }));
        match s.args.as_slice() {
            [e] => *score = lw.num(e),
            _ => self.err(
                Diagnostic::at(
                    s.span,
                    format!("`{word}` takes one expression"),
                    format!("expected `{word} EXPR`"),
                )
                .hint(hint),
            ),
        }
        self.diagnostics.append(&mut lw.diagnostics);
    }
}

impl Checker {
    /// Where the player to move may pass: `pass when C` (or `pass`, at any
    /// turn), judged before the turn once no end rule has ended the game.
    pub(super) fn pass<'x>(
        &mut self,
        s: &Statement,
        scope: &dyn Fn(Context) -> Scope<'x>,
        pass: &mut Option<Option<Cond>>,
    ) {
        self.no_block(s);
        if pass.is_some() {
            return self.err(
                Diagnostic::at(s.word.span, "`pass` is declared twice", "second `pass`")
                    .hint("keep one `pass when …` (its condition can say every case)"),
            );
        }
        let mut lw = Lowerer::new(scope(Context {
            sees: Sees::PASS,
            what: "in `pass`",
        }));
        match s.args.as_slice() {
            [] => *pass = Some(Some(Cond::True)),
            [w, c] if w.as_word() == Some("when") => *pass = Some(lw.cond(c)),
            _ => self.err(
                Diagnostic::at(s.span, "malformed `pass`", "expected `pass when CONDITION`")
                    .hint("write `pass when no_legal_turn`: a player without a legal turn passes"),
            ),
        }
        self.diagnostics.append(&mut lw.diagnostics);
    }
}

impl Checker {
    /// `match ends when C`: the game is a match played in rounds, over
    /// when C holds once a round has ended.
    pub(super) fn match_ends<'x>(
        &mut self,
        s: &Statement,
        scope: &dyn Fn(Context) -> Scope<'x>,
        rounds: &mut Option<Option<Cond>>,
    ) {
        self.no_block(s);
        if rounds.is_some() {
            return self.err(
                Diagnostic::at(s.word.span, "`match` is declared twice", "second `match`")
                    .hint("keep one `match ends when …` (its condition can say every case)"),
            );
        }
        let mut lw = Lowerer::new(scope(Context {
            sees: Sees::MATCH,
            what: "in `match ends`",
        }));
        match s.args.as_slice() {
            [ends, w, c] if ends.as_word() == Some("ends") && w.as_word() == Some("when") => {
                *rounds = Some(lw.cond(c))
            }
            _ => self.err(
                Diagnostic::at(s.span, "malformed `match`", "expected `match ends when CONDITION`")
                    .hint("write `match ends when seeds(store(south)) < 7 or seeds(store(north)) < 7`: judged when a round ends"),
            ),
        }
        self.diagnostics.append(&mut lw.diagnostics);
    }
}

/// Which of a player's numbers a statement gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scored {
    /// `score`: the final score, which decides a game the end rule leaves
    /// to it.
    Score,
    /// `estimate`: how good a position is for a player, as the computer
    /// players judge it (the score where there is none).
    Estimate,
}

/// The score without a `score` statement: a player's store, side and hand.
pub(super) fn default_score() -> Num {
    Num::Arith(
        crate::ir::ArithOp::Add,
        Box::new(Num::Seeds(Place::Store(Who::Each))),
        Box::new(Num::Arith(
            crate::ir::ArithOp::Add,
            Box::new(Num::SeedsIn(Region::Side(Who::Each))),
            Box::new(Num::Hand(Who::Each)),
        )),
    )
}
