//! Turns on one pit that sow nothing: a put of seeds held off the board
//! into it (`put N from hand|store into REGION [when C]`), a take of its
//! seeds out of the game, to a place or into a pit the mover chooses
//! (`take all|N from REGION [to PLACE | into REGION] [when C]`).

use super::*;
use crate::ir::{Held, Put, Taking};

impl Checker {
    pub(super) fn put<'x>(
        &mut self,
        s: &Statement,
        scope: &dyn Fn(Context) -> Scope<'x>,
        put: &mut Option<Option<Put>>,
    ) {
        self.no_block(s);
        let usage = "write `put 7 from store into side(mover) when seeds(here) == 0`: \
                     a turn puts that many of the mover's seeds into one pit of the region \
                     for which the condition holds (`put 1..hand(mover) from hand …`: as many \
                     as the mover chooses)";
        if put.is_some() {
            return self.err(
                Diagnostic::at(s.word.span, "`put` is declared twice", "second `put`")
                    .hint("keep one `put` line: its count and condition can say every case (`if(C, A, B)`)"),
            );
        }
        *put = Some(None);
        let malformed = Diagnostic::at(
            s.span,
            "malformed `put`",
            "expected `put N from hand|store into REGION [when C]`",
        )
        .hint(usage);
        let (n, from, held, into, target, when) = match s.args.as_slice() {
            [n, from, held, into, target] => (n, from, held, into, target, None),
            [n, from, held, into, target, w, c] if w.as_word() == Some("when") => {
                (n, from, held, into, target, Some(c))
            }
            _ => return self.err(malformed),
        };
        if from.as_word() != Some("from") || into.as_word() != Some("into") {
            return self.err(malformed);
        }
        let from = match held.as_word() {
            Some("hand") => Held::Hand,
            Some("store") if self.stores.iter().any(Option::is_none) => {
                return self.err(
                    Diagnostic::at(
                        held.span,
                        "puts from the store need a store for each player",
                        "no stores",
                    )
                    .hint("declare `store PLAYER left|right` in `board`, or put from `hand`"),
                )
            }
            Some("store") => Held::Store,
            _ => {
                return self.err(
                    Diagnostic::at(
                        held.span,
                        "seeds are put from the mover's `hand` or `store`",
                        "not where seeds are held",
                    )
                    .hint(usage),
                )
            }
        };
        let mut lw = Lowerer::new(scope(Context {
            sees: Sees::PIT_TURN,
            what: "in `put`",
        }));
        // A range: the mover chooses how many, one turn a count.
        let (seeds, upto) = match lw.counts_on_here(n) {
            Some((seeds, upto)) => (Some(seeds), Some(upto)),
            None => (None, None),
        };
        if let Some(Num::Int(k)) = seeds {
            if k < 1 {
                lw.diagnostics.push(
                    Diagnostic::at(n.span, "a put puts at least one seed", "puts nothing")
                        .hint("write `put 1 from hand into …`, or a count read from the position"),
                );
            }
        }
        let into = pits_of(&mut lw, target, "put into", "into");
        let when = match when {
            Some(c) => lw.cond_on_here(c),
            None => Some(Cond::True),
        };
        self.diagnostics.append(&mut lw.diagnostics);
        if let (Some(seeds), Some(upto), Some(into), Some(when)) = (seeds, upto, into, when) {
            *put = Some(Some(Put {
                seeds,
                upto,
                from,
                into,
                when,
            }));
        }
    }

    pub(super) fn take<'x>(
        &mut self,
        s: &Statement,
        scope: &dyn Fn(Context) -> Scope<'x>,
        take: &mut Option<Option<Taking>>,
    ) {
        self.no_block(s);
        let usage = "write `take all from side(opponent) when seeds(here) > 0`: \
                     a turn takes the seeds of one pit of the region for which the \
                     condition holds out of the game (or `to store(mover)`, or \
                     `into pits(board, here != origin)`: into a pit the mover chooses)";
        if take.is_some() {
            return self.err(
                Diagnostic::at(s.word.span, "`take` is declared twice", "second `take`")
                    .hint("keep one `take` line: its count and condition can say every case (`if(C, A, B)`)"),
            );
        }
        *take = Some(None);
        let malformed = Diagnostic::at(
            s.span,
            "malformed `take`",
            "expected `take all|N from REGION [to PLACE | into REGION] [when C]`",
        )
        .hint(usage);
        // take N from REGION [to PLACE | into REGION] [when C]
        let (n, from, target, rest) = match s.args.as_slice() {
            [n, from, target, rest @ ..] => (n, from, target, rest),
            _ => return self.err(malformed),
        };
        let (dest, when) = match rest {
            [] => (None, None),
            [t, p] if matches!(t.as_word(), Some("to" | "into")) => (Some((t, p)), None),
            [w, c] if w.as_word() == Some("when") => (None, Some(c)),
            [t, p, w, c]
                if matches!(t.as_word(), Some("to" | "into")) && w.as_word() == Some("when") =>
            {
                (Some((t, p)), Some(c))
            }
            _ => return self.err(malformed),
        };
        let (to, into) = match dest {
            Some((t, p)) if t.as_word() == Some("to") => (Some(p), None),
            Some((_, r)) => (None, Some(r)),
            None => (None, None),
        };
        if from.as_word() != Some("from") {
            return self.err(malformed);
        }
        let mut lw = Lowerer::new(scope(Context {
            sees: Sees::PIT_TURN,
            what: "in `take`",
        }));
        let seeds = if n.as_word() == Some("all") {
            Some(None)
        } else {
            let seeds = lw.num_on_here(n);
            if let Some(Num::Int(k)) = seeds {
                if k < 1 {
                    lw.diagnostics.push(
                        Diagnostic::at(n.span, "a take takes at least one seed", "takes nothing")
                            .hint("write `take all from …`, `take 1 from …`, or a count read from the position"),
                    );
                }
            }
            seeds.map(Some)
        };
        let from = pits_of(&mut lw, target, "taken from", "from");
        let to = match to {
            Some(p) => lw.place_on_here(p).map(Some),
            None => Some(None),
        };
        let when = match when {
            Some(c) => lw.cond_on_here(c),
            None => Some(Cond::True),
        };
        self.diagnostics.append(&mut lw.diagnostics);
        // The pits the mover may choose to move the seeds into, judged
        // for each pit taken from (`origin`).
        let into = match into {
            Some(r) => {
                let mut lw = Lowerer::new(scope(Context {
                    sees: Sees::PIT_MOVE,
                    what: "in `take … into`",
                }));
                let into = pits_of(&mut lw, r, "moved into", "into");
                self.diagnostics.append(&mut lw.diagnostics);
                into.map(Some)
            }
            None => Some(None),
        };
        if let (Some(seeds), Some(from), Some(to), Some(into), Some(when)) =
            (seeds, from, to, into, when)
        {
            *take = Some(Some(Taking {
                seeds,
                from,
                to,
                into,
                when,
            }));
        }
    }
}

/// The pits a put fills or a take empties: a region, or one place, not a
/// store. `done` says what befalls their seeds ("put into"), `word` is
/// the word before the pits ("into").
fn pits_of(lw: &mut Lowerer, target: &Expr, done: &str, word: &str) -> Option<Region> {
    match lw.value(target) {
        Some(expr::Value::Region(r)) => Some(r),
        Some(expr::Value::Place(Place::Store(_))) => {
            lw.diagnostics.push(
                Diagnostic::at(
                    target.span,
                    format!("seeds are {done} a pit, not a store"),
                    "a store",
                )
                .hint(format!(
                    "name pits of the board: `{word} side(mover)`, `{word} first(…)`"
                )),
            );
            None
        }
        Some(expr::Value::Place(p)) => Some(Region::Where(
            Box::new(Region::Board),
            Box::new(Cond::SamePlace(Place::Here, p)),
        )),
        Some(_) => {
            lw.diagnostics.push(
                Diagnostic::at(target.span, format!("seeds are {done} a region or a place"), "not a region or a place")
                    .hint(format!("write `{word} side(mover)`, `{word} pits(side(mover), seeds(here) == 0)` or `{word} first(…)`")),
            );
            None
        }
        None => None,
    }
}
