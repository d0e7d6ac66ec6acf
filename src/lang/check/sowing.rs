//! How a sowing is made (`sow { … }`), and that it fits the board and
//! the notation.

use super::*;

impl Checker {
    pub(super) fn sowing(&mut self, s: &Statement, sowing: &mut Sowing, lw: &mut Lowerer) {
        let body = self.block(s);
        for st in body {
            self.no_block(st);
            let arg = st.args.first();
            match (st.word.name.as_str(), st.args.len()) {
                ("take", 1) => match &st.args[0].kind {
                    ExprKind::Word(w) if w == "all" => sowing.take = Take::All,
                    ExprKind::Int(_) => {
                        if let Some(n) = self.number(&st.args[0], "the number taken") {
                            if n == 0 {
                                self.err(
                                    Diagnostic::at(
                                        st.args[0].span,
                                        "a sowing must take at least one seed",
                                        "takes nothing",
                                    )
                                    .hint("write `take all` or `take 1` or more"),
                                );
                            }
                            sowing.take = Take::Count(n);
                        }
                    }
                    _ => self.err(
                        Diagnostic::at(
                            st.args[0].span,
                            "`take` is `all` or a count",
                            "expected `all` or a number",
                        )
                        .hint("write `take all`"),
                    ),
                },
                ("direction", _) => self.way(st, sowing, lw),
                ("leave", _) => self.leave(st, sowing, lw),
                ("sowings", _) => self.most(st, sowing),
                ("drop", _) => self.per_place(st, sowing, lw),
                ("enter", _) if st.args.first().and_then(Expr::as_word) == Some("any") => {
                    self.store_entry(st, sowing, lw)
                }
                // `skip when C`: the sowing, a chain and `next`/`prev` pass
                // over the places C holds for; `skip sowing when C`: only
                // the sowing does.
                ("skip", 2 | 3)
                    if st.args[st.args.len() - 2].as_word() == Some("when")
                        && (st.args.len() == 2 || st.args[0].as_word() == Some("sowing")) =>
                {
                    if sowing.skip_when.is_some() {
                        self.err(
                            Diagnostic::at(st.span, "`skip when` is declared twice", "second `skip when`")
                                .hint("keep one `skip when C`: join the conditions with `or`"),
                        );
                    } else {
                        sowing.skip_when = lw.cond_on_sown(&st.args[st.args.len() - 1]);
                        sowing.skip_walks = st.args.len() == 2;
                    }
                }
                ("skip", 1) => match arg.and_then(Expr::as_word) {
                    Some(w @ ("origin" | "lifted")) => {
                        let sk = if w == "origin" { Skip::Origin } else { Skip::Lifted };
                        let other = if w == "origin" { Skip::Lifted } else { Skip::Origin };
                        if sowing.skip.contains(&other) {
                            self.err(
                                Diagnostic::at(st.args[0].span, "a sowing skips `origin` or `lifted`, not both", "both skipped")
                                    .hint("`origin` is the turn's starting pit, `lifted` the pit the sowing going on started from (a relay's): keep one"),
                            );
                        } else if !sowing.skip.contains(&sk) {
                            sowing.skip.push(sk);
                        }
                    }
                    _ => match lw.place(&st.args[0]) {
                        Some(Place::Store(w)) if Skip::Store(w.clone()).store(0).is_some() => {
                            sowing.skip.push(Skip::Store(w))
                        }
                        Some(Place::Store(_)) => self.err(
                            Diagnostic::at(
                                st.args[0].span,
                                "a skipped store is the mover's, the opponent's or a named player's",
                                "not known before the turn",
                            )
                            .hint("write `skip store(opponent)`"),
                        ),
                        Some(_) => self.err(
                            Diagnostic::at(
                                st.args[0].span,
                                "a sowing skips `origin`, `lifted` or a store",
                                "cannot skip this",
                            )
                            .hint("write `skip origin`, `skip lifted` or `skip store(opponent)`"),
                        ),
                        None => {}
                    },
                },
                ("take" | "skip", _) => self.err(
                    Diagnostic::at(
                        st.span,
                        format!("`{}` takes one argument", st.word.name),
                        "wrong number of arguments",
                    )
                    .hint("one setting a line: `take all`, `direction forward`, `skip origin`, `skip when C`, `skip sowing when C`"),
                ),
                ("enter", _) => {
                    // enter N from hand [during PHASE]
                    let usage = "write `enter 1 from hand` (or `enter 1 from hand during PHASE`)";
                    let a = &st.args;
                    let ok = a.len() >= 3 && a[1].as_word() == Some("from") && a[2].as_word() == Some("hand");
                    let phase = match &a[3.min(a.len())..] {
                        [] => Some(None),
                        [d, p] if d.as_word() == Some("during") => self.phase_named(p).map(Some),
                        _ => None,
                    };
                    match (ok, phase) {
                        (true, Some(phase)) => {
                            if let Some(n) = self.number(&a[0], "the number entered") {
                                if n == 0 {
                                    self.err(Diagnostic::at(a[0].span, "an entry puts at least one seed", "enters nothing").hint(usage));
                                } else if sowing.entry.is_some() {
                                    self.err(Diagnostic::at(st.span, "the entry is declared twice", "second entry").hint("keep one `enter` line"));
                                } else {
                                    sowing.entry = Some(Entry { seeds: n, phase });
                                }
                            }
                        }
                        (false, _) => self.err(Diagnostic::at(st.span, "malformed entry", "expected `enter N from hand`").hint(usage)),
                        _ => {}
                    }
                }
                _ => self.unknown(st, &["take", "direction", "skip", "enter", "leave", "sowings", "drop"], "sowing statement"),
            }
        }
    }

    /// The seeds each place takes (`drop 4`, or a count judged for the
    /// place, `here`: `drop if(seeds(here) == 0, 2, 1)`).
    fn per_place(&mut self, st: &Statement, sowing: &mut Sowing, lw: &mut Lowerer) {
        let usage = "write `drop 4` (four seeds into each place, the last taking what is left) \
                     or a count judged for the place (`here`): `drop if(seeds(here) == 0, 2, 1)`";
        let [n] = st.args.as_slice() else {
            return self
                .err(Diagnostic::at(st.span, "malformed `drop`", "expected `drop N`").hint(usage));
        };
        if sowing.per_place.is_some() {
            return self.err(
                Diagnostic::at(st.word.span, "`drop` is declared twice", "second `drop`")
                    .hint("keep one `drop` line: its count can say every case (`if(C, A, B)`)"),
            );
        }
        let Some(seeds) = lw.num_on_here(n) else {
            return;
        };
        if let Num::Int(k) = seeds {
            if k < 1 {
                return self.err(
                    Diagnostic::at(n.span, "a place takes at least one seed", "drops nothing")
                        .hint(usage),
                );
            }
            if k == 1 {
                return self.err(
                    Diagnostic::at(
                        st.span,
                        "`drop 1` is how every sowing sows",
                        "changes nothing",
                    )
                    .hint("remove the line, or drop more seeds into each place"),
                );
            }
        }
        sowing.per_place = Some(seeds);
    }

    /// A line of the direction: `direction forward|backward|choose`, and
    /// where it applies (`when C`, judged for the starting pit).
    fn way(&mut self, st: &Statement, sowing: &mut Sowing, lw: &mut Lowerer) {
        let usage = "write `direction forward`, `direction backward when C` or `direction choose` \
                     (with letters in `notation`)";
        let (word, when) = match st.args.as_slice() {
            [w] => (w, None),
            [w, k, c] if k.as_word() == Some("when") => (w, Some(c)),
            _ => {
                return self.err(
                    Diagnostic::at(
                        st.span,
                        "malformed direction",
                        "expected `direction WAY [when C]`",
                    )
                    .hint(usage),
                )
            }
        };
        let direction = match word.as_word() {
            Some("forward") => Some(Direction::Forward),
            Some("backward") => Some(Direction::Backward),
            Some("choose") => None,
            _ => {
                return self.err(
                    Diagnostic::at(
                        word.span,
                        "a direction is `forward` or `backward` along the track, or `choose`",
                        "unknown direction",
                    )
                    .hint(usage),
                )
            }
        };
        if let Some(always) = self.direction_always {
            return self.err(
                Diagnostic::at(
                    st.span,
                    "this direction never applies",
                    "after a line that always does",
                )
                .related(always, "always applies")
                .hint("the first line that applies decides: put the lines with `when` first"),
            );
        }
        if when.is_none() {
            self.direction_always = Some(st.span);
        }
        let when = match when {
            Some(c) => match lw.cond(c) {
                Some(c) => c,
                None => return,
            },
            None => Cond::True,
        };
        sowing.direction.push(Way { when, direction });
    }

    /// Seeds a pit keeps when it is lifted: `leave N [when C]`, C judged
    /// for the pit lifted (`here`) before it is lifted.
    fn leave(&mut self, st: &Statement, sowing: &mut Sowing, lw: &mut Lowerer) {
        let usage = "write `leave 1`, `leave 1 when seeds(here) > 1` (the pit lifted is `here`), \
                     a count read from the position (`leave seeds(here) - 3`) \
                     or `leave all when C` (the pit keeps every seed: the turn sows none)";
        let (n, when) = match st.args.as_slice() {
            [n] => (n, None),
            [n, k, c] if k.as_word() == Some("when") => (n, Some(c)),
            _ => {
                return self.err(
                    Diagnostic::at(st.span, "malformed `leave`", "expected `leave N [when C]`")
                        .hint(usage),
                )
            }
        };
        let seeds = match &n.kind {
            ExprKind::Word(w) if w == "all" => Keep::All,
            ExprKind::Int(_) => {
                let Some(seeds) = self.number(n, "the seeds left") else {
                    return;
                };
                if seeds == 0 {
                    return self.err(
                        Diagnostic::at(n.span, "`leave 0` leaves nothing", "leaves no seed").hint(
                            "a lifted pit keeps none of its seeds without `leave`: remove the line",
                        ),
                    );
                }
                Keep::Count(seeds)
            }
            // A count read from the position, judged for the pit lifted.
            _ => {
                let known = lw.diagnostics.len();
                match (lw.num_on_here(n), n.as_word()) {
                    (Some(seeds), _) => Keep::Seeds(seeds),
                    (None, Some(w)) => {
                        // (A word that names no number says more so.)
                        lw.diagnostics.truncate(known);
                        return self.err(
                            Diagnostic::at(
                                n.span,
                                format!("`leave {w}`: a pit keeps a number of seeds or `all`"),
                                "not a count",
                            )
                            .hint(usage),
                        );
                    }
                    (None, None) => return,
                }
            }
        };
        if sowing.leave.is_some() {
            return self.err(
                Diagnostic::at(st.span, "`leave` is declared twice", "second `leave`")
                    .hint("keep one `leave` line (its `when` can say where it applies)"),
            );
        }
        let when = match when {
            Some(c) => match lw.cond_on_here(c) {
                Some(c) => c,
                None => return,
            },
            None => Cond::True,
        };
        sowing.leave = Some(Leave { seeds, when });
    }

    /// Turns sown from the store: `enter any from store into PLACE`.
    fn store_entry(&mut self, st: &Statement, sowing: &mut Sowing, lw: &mut Lowerer) {
        let usage = "write `enter any from store into PLACE`: a turn may sow 1 to all of the mover's store, the first seed into PLACE";
        let malformed = Diagnostic::at(
            st.span,
            "malformed entry from the store",
            "expected `enter any from store into PLACE`",
        )
        .hint(usage);
        let [_any, from, store, into, place] = st.args.as_slice() else {
            return self.err(malformed);
        };
        if from.as_word() != Some("from")
            || store.as_word() != Some("store")
            || into.as_word() != Some("into")
        {
            return self.err(malformed);
        }
        if self.stores.iter().any(Option::is_none) {
            return self.err(
                Diagnostic::at(
                    st.span,
                    "turns from the store need a store for each player",
                    "no stores",
                )
                .hint("declare `store PLAYER left|right` in `board`"),
            );
        }
        if sowing.from_store.is_some() {
            return self.err(
                Diagnostic::at(
                    st.span,
                    "the entry from the store is declared twice",
                    "second entry",
                )
                .hint("keep one `enter any from store into PLACE`"),
            );
        }
        sowing.from_store = lw.place(place);
    }

    /// The most sowings a turn makes: `sowings at most N`.
    fn most(&mut self, st: &Statement, sowing: &mut Sowing) {
        let usage = "write `sowings at most 75`: a turn that would begin its 76th sowing stops";
        let n = match st.args.as_slice() {
            [at, most, n] if at.as_word() == Some("at") && most.as_word() == Some("most") => n,
            _ => {
                return self.err(
                    Diagnostic::at(
                        st.span,
                        "malformed `sowings`",
                        "expected `sowings at most N`",
                    )
                    .hint(usage),
                )
            }
        };
        let Some(n) = self.number(n, "the most sowings") else {
            return;
        };
        if n == 0 {
            return self.err(
                Diagnostic::at(st.args[2].span, "a turn makes at least one sowing", "none")
                    .hint(usage),
            );
        }
        if sowing.most.is_some() {
            return self.err(
                Diagnostic::at(
                    st.span,
                    "`sowings at most` is declared twice",
                    "second limit",
                )
                .hint("keep one `sowings at most N`"),
            );
        }
        sowing.most = Some(n);
    }

    /// The sowing fits the board and the notation: stores to skip, letters
    /// to choose a direction by.
    pub(super) fn sowing_fits(&mut self, sowing: &mut Sowing) {
        // Where no line applies, the sowing goes forward.
        if sowing.direction.last().is_none_or(|w| w.when != Cond::True) {
            sowing.direction.push(Way {
                when: Cond::True,
                direction: Some(Direction::Forward),
            });
        }
        for sk in &sowing.skip {
            if let Skip::Store(_) = sk {
                if self.stores.iter().all(Option::is_none) {
                    self.err(
                        Diagnostic::new("`skip store(…)` but the board has no stores")
                            .hint("declare `store PLAYER left|right` in `board`"),
                    );
                }
            }
        }
        let chosen = sowing.direction.iter().any(|w| w.direction.is_none());
        if chosen && self.notation.letters.is_empty() {
            self.err(
                Diagnostic::new("`direction choose` but the notation declares no letters").hint(
                    "declare the letters in `notation { letter L: left  …  letter R: right }`",
                ),
            );
        }
        if !chosen && !self.notation.letters.is_empty() {
            self.err(
                Diagnostic::new("the notation declares letters but the sowing direction is fixed")
                    .hint("write `direction choose` in `sow`, or remove the letters"),
            );
        }
    }
}
