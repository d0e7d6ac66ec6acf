//! Rules (`rule NAME at MOMENT … { actions }`): their moment, as the
//! moment table has it, and their actions.

use super::*;

impl Checker {
    pub(super) fn rule<'x>(
        &mut self,
        s: &Statement,
        scope: &dyn Fn(Context) -> Scope<'x>,
    ) -> Option<Rule> {
        // rule NAME at MOMENT [during PHASE] [when COND] { actions }
        let usage = "write `rule NAME at MOMENT [during PHASE] [when CONDITION] { … }`";
        let malformed = |this: &mut Self| {
            this.err(
                Diagnostic::at(
                    s.span,
                    "a rule is `rule NAME at MOMENT [during PHASE] [when CONDITION] { … }`",
                    "malformed rule",
                )
                .hint(usage),
            );
        };
        let args = s.args.as_slice();
        if args.len() < 3 || args[1].as_word() != Some("at") {
            malformed(self);
            return None;
        }
        let (name, moment_e) = (&args[0], &args[2]);
        let mut rest = &args[3..];
        let mut phase: Option<Cond> = None;
        if rest.len() >= 2 && rest[0].as_word() == Some("during") {
            phase = Some(Cond::InPhase(self.phase_named(&rest[1])?));
            rest = &rest[2..];
        }
        let cond_e = match rest {
            [] => None,
            [w, c] if w.as_word() == Some("when") => Some(c),
            _ => {
                malformed(self);
                return None;
            }
        };
        let Some(name) = name.as_word().map(str::to_string) else {
            self.err(
                Diagnostic::at(name.span, "a rule's name is a plain name", "not a name")
                    .hint(usage),
            );
            return None;
        };
        let Some(moment) = moment_e.as_word().and_then(Moment::named) else {
            let names: Vec<&str> = Moment::ALL.iter().map(|m| m.name()).collect();
            self.err(Diagnostic::unknown(
                Some(moment_e.span),
                moment_e.as_word().unwrap_or(""),
                "unknown moment",
                "not a moment of a turn",
                names.iter().copied(),
                format!("the moments are {}", names.join(", ")),
            ));
            return None;
        };
        let (when_ctx, body_ctx) = contexts(moment);
        let mut lw = Lowerer::new(scope(when_ctx));
        let when = cond_e.map_or(Some(Cond::True), |c| lw.cond(c));
        // What the `when` says names a player holds for the actions.
        let named = when.as_ref().map_or(Vec::new(), |w| lw.names_one(w));
        let scope = |c: Context| Scope {
            not_none: &named,
            ..scope(c)
        };
        let when = match (phase, when) {
            (None, w) => w,
            (Some(p), Some(Cond::True)) => Some(p),
            (Some(p), Some(w)) => Some(Cond::And(vec![p, w])),
            (Some(_), None) => None,
        };
        self.diagnostics.append(&mut lw.diagnostics);
        let body = self.block(s);
        let mut actions = Vec::new();
        let mut spans = Vec::new();
        for st in body {
            if let Some(a) = self.action(st, moment, body_ctx, &scope) {
                actions.push(a);
                spans.push(st.span);
            }
        }
        // (Whether it resows is read off the words: a `resow` the checker
        // refused still says where the captured seeds go.)
        let resows = body.iter().any(|st| st.word.name == "resow");
        self.destinations(moment, &actions, &spans, resows);
        if resows {
            self.no_relay_after_resowing(&actions, &spans);
        }
        if body.is_empty() && s.block.is_some() {
            self.err(
                Diagnostic::at(s.span, "this rule does nothing", "empty block")
                    .hint("add an action such as `stop`"),
            );
        }
        Some(Rule {
            name,
            moment,
            when: when?,
            actions,
        })
    }

    /// Where a rule's captured seeds go must exist: a store named, or the
    /// mover's store for a capture without `to` in a rule that does not
    /// resow; and a `resow` needs seeds to sow.
    pub(super) fn destinations(
        &mut self,
        moment: Moment,
        actions: &[Action],
        spans: &[Span],
        resows: bool,
    ) {
        let mut undirected = false;
        for (a, span) in actions.iter().zip(spans) {
            let to = match a {
                Action::Capture { to, .. } | Action::CaptureRegion { to, .. } => to,
                // No other action sends seeds anywhere.
                Action::Require(_)
                | Action::Prefer(_)
                | Action::Relay(_)
                | Action::RelayFrom(_)
                | Action::RelayGoing(_)
                | Action::Resow { .. }
                | Action::Set { .. }
                | Action::SetPlayer { .. }
                | Action::SetNumber { .. }
                | Action::Again
                | Action::AgainFrom(_)
                | Action::Stop
                | Action::Cancel
                | Action::Forbid
                | Action::Collect
                | Action::Reset
                | Action::Remove(_)
                | Action::RemoveRegion(_)
                | Action::Divide { .. }
                | Action::Fill { .. }
                | Action::First(_) => continue,
            };
            match to {
                Some(Place::Store(w)) => {
                    let needed: &[usize] = match w {
                        Who::Player(p) => &[*p as usize][..],
                        // Either player's, as play goes.
                        Who::Mover
                        | Who::Opponent
                        | Who::Owner(_)
                        | Who::Each
                        | Who::Var(_)
                        | Who::Other(_) => &[0, 1],
                    };
                    if needed.iter().any(|&p| self.stores[p].is_none()) {
                        self.err(
                            Diagnostic::at(
                                *span,
                                "the seeds go to a store the board does not have",
                                "no such store",
                            )
                            .hint("declare the stores in `board` (`store PLAYER left|right`)"),
                        );
                    }
                }
                Some(_) => {}
                None => {
                    undirected = true;
                    // At `capture`, seeds go where the capture they join
                    // goes: without stores, every capture at `land` resows.
                    if !resows
                        && moment != Moment::Capture
                        && self.stores.iter().any(Option::is_none)
                    {
                        self.err(
                            Diagnostic::at(*span, "the seeds go to the mover's store, and the board has no stores", "no store")
                                .hint("declare the stores in `board`, or sow the seeds on with `resow from PLACE HEADING`"),
                        );
                    }
                }
            }
        }
        let lowered = actions.iter().any(|a| matches!(a, Action::Resow { .. }));
        if lowered && !undirected {
            if let Some((_, span)) = actions
                .iter()
                .zip(spans)
                .find(|(a, _)| matches!(a, Action::Resow { .. }))
            {
                self.err(
                    Diagnostic::at(*span, "nothing to resow: every capture of this rule names its store", "sows nothing")
                        .hint("`resow` sows the seeds captured without `to`: write `capture opposite(last)`"),
                );
            }
        }
    }

    /// A rule that resows cannot relay: the turn goes on from where the
    /// resowing ends, judged there, or (`stop`, `again`) ends with it.
    fn no_relay_after_resowing(&mut self, actions: &[Action], spans: &[Span]) {
        for (a, span) in actions.iter().zip(spans) {
            // (`relay`, `relay from`, `relay backward`: one word.)
            if a.kind() == ActionKind::Relay {
                self.err(
                    Diagnostic::at(*span, "a rule that resows cannot relay: the turn goes on from where the resowing ends", "relays nothing")
                        .hint("relay in a rule judged where the resowing ends, or end the turn with the resowing: `stop`, `again` or `again from PLACE`"),
                );
            }
        }
    }

    pub(super) fn action<'x>(
        &mut self,
        st: &Statement,
        moment: Moment,
        ctx: Context,
        scope: &dyn Fn(Context) -> Scope<'x>,
    ) -> Option<Action> {
        self.no_block(st);
        // Which actions the moment allows: the moment table's.
        let allowed: Vec<&str> = moment.spec().actions.iter().map(|k| k.word()).collect();
        let w = st.word.name.as_str();
        if !allowed.contains(&w) {
            if ActionKind::named(w).is_some() {
                self.err(
                    Diagnostic::at(
                        st.word.span,
                        format!("`{w}` cannot be done at the `{}` moment", moment.name()),
                        "not at this moment",
                    )
                    .hint(format!("at this moment a rule can: {}", allowed.join(", "))),
                );
            } else {
                self.unknown(st, &allowed, "action");
            }
            return None;
        }
        let no_args = |this: &mut Self, a: Action| {
            if !st.args.is_empty() || st.tail.is_some() {
                this.err(
                    Diagnostic::at(
                        st.span,
                        format!("`{w}` takes no arguments"),
                        "unexpected arguments",
                    )
                    .hint(format!("write `{w}` alone")),
                );
                return None;
            }
            Some(a)
        };
        // (The moment allows it, so it names a kind.)
        let kind = ActionKind::named(w)?;
        match kind {
            ActionKind::Relay => match (st.args.as_slice(), &st.tail) {
                ([], None) => Some(Action::Relay(None)),
                ([f, p], None) if f.as_word() == Some("from") => {
                    let mut lw = Lowerer::new(scope(ctx));
                    let place = lw.place(p);
                    self.diagnostics.append(&mut lw.diagnostics);
                    Some(Action::RelayFrom(place?))
                }
                ([w], None) if w.as_word() == Some("forward") => {
                    Some(Action::RelayGoing(Heading::Forward))
                }
                ([w], None) if w.as_word() == Some("backward") => {
                    Some(Action::RelayGoing(Heading::Backward))
                }
                ([w], None) if w.as_word().is_some() => {
                    self.err(
                            Diagnostic::at(
                                w.span,
                                "a relay goes `forward` or `backward` along the track",
                                "not a heading of a relay",
                            )
                            .hint("write `relay`, `relay backward` or `relay 2`; `left` and `right` belong to `resow`"),
                        );
                    None
                }
                ([n], None) => self
                    .number(n, "the number relayed")
                    .map(|k| Action::Relay(Some(k.max(1)))),
                _ => {
                    self.err(
                        Diagnostic::at(
                            st.span,
                            "`relay` takes at most a count",
                            "unexpected arguments",
                        )
                        .hint("write `relay` (all the seeds), `relay 2`, `relay backward` (the other way along the track) or `relay from next(last)`"),
                    );
                    None
                }
            },
            ActionKind::Again => match (st.args.as_slice(), &st.tail) {
                ([], None) => Some(Action::Again),
                ([f, p], None) if f.as_word() == Some("from") => {
                    let mut lw = Lowerer::new(scope(ctx));
                    let place = lw.place(p);
                    self.diagnostics.append(&mut lw.diagnostics);
                    Some(Action::AgainFrom(place?))
                }
                _ => {
                    self.err(
                        Diagnostic::at(
                            st.span,
                            "`again` takes nothing, or `from` and a place",
                            "unexpected arguments",
                        )
                        .hint("write `again` (the mover moves again) or `again from last` (again, from that pit only)"),
                    );
                    None
                }
            },
            ActionKind::Stop => no_args(self, Action::Stop),
            ActionKind::Cancel => no_args(self, Action::Cancel),
            ActionKind::Forbid => no_args(self, Action::Forbid),
            ActionKind::Collect => {
                if self.stores.iter().any(Option::is_none) {
                    self.err(
                        Diagnostic::at(
                            st.span,
                            "`collect` needs a store for each player",
                            "no stores",
                        )
                        .hint("declare `store PLAYER left|right` in `board`"),
                    );
                    return None;
                }
                no_args(self, Action::Collect)
            }
            ActionKind::Reset => no_args(self, Action::Reset),
            ActionKind::Require | ActionKind::Prefer => {
                let mut lw = Lowerer::new(scope(ctx));
                let c = match st.args.as_slice() {
                    [e] => lw.cond(e),
                    _ => {
                        lw.diagnostics.push(
                            Diagnostic::at(
                                st.span,
                                format!("`{w}` takes one condition"),
                                "expected a condition",
                            )
                            .hint(format!("write `{w} seeds(origin) > 0`")),
                        );
                        None
                    }
                };
                self.diagnostics.append(&mut lw.diagnostics);
                Some(if kind == ActionKind::Require {
                    Action::Require(c?)
                } else {
                    Action::Prefer(c?)
                })
            }
            ActionKind::Capture => self.capture(st, ctx, scope),
            ActionKind::Remove => {
                let mut lw = Lowerer::new(scope(ctx));
                let usage = "write `remove here`, `remove board` or `remove pits(side(south), seeds(here) > 0)`";
                let removed = match st.args.as_slice() {
                    [e] => match lw.value(e) {
                        Some(Value::Region(r)) => Some(Action::RemoveRegion(r)),
                        Some(Value::Place(Place::Store(_))) => {
                            lw.diagnostics.push(
                                Diagnostic::at(
                                    e.span,
                                    "`remove` takes pits, not a store",
                                    "a store",
                                )
                                .hint(usage),
                            );
                            None
                        }
                        Some(Value::Place(p)) => Some(Action::Remove(p)),
                        Some(other) => {
                            lw.diagnostics.push(
                                Diagnostic::at(
                                    e.span,
                                    format!(
                                        "`remove` takes a pit or a region, not {}",
                                        other.kind()
                                    ),
                                    "not pits",
                                )
                                .hint(usage),
                            );
                            None
                        }
                        None => None,
                    },
                    _ => {
                        lw.diagnostics.push(
                            Diagnostic::at(
                                st.span,
                                "`remove` takes one region",
                                "expected a region",
                            )
                            .hint(usage),
                        );
                        None
                    }
                };
                self.diagnostics.append(&mut lw.diagnostics);
                removed
            }
            ActionKind::Divide => {
                let mut lw = Lowerer::new(scope(ctx));
                let usage = "write `divide board odd to south`: half the seeds to each store, the odd one to south's (`… into NAME`: to each player's pit NAME instead)";
                let (args, into) = match st.args.as_slice() {
                    [rest @ .., i, name] if i.as_word() == Some("into") => (rest, Some(name)),
                    all => (all, None),
                };
                let into = match into {
                    None => Ok(None),
                    Some(name) => match name.as_word().and_then(|w| self.named_index.get(w)) {
                        Some(&i) => Ok(Some(i)),
                        None => {
                            let word = name.as_word().unwrap_or("this");
                            lw.diagnostics.push(Diagnostic::unknown(
                                Some(name.span),
                                word,
                                format!("`{word}` is not a per-player pit"),
                                "not a pit of each player",
                                self.named_index.keys().map(String::as_str),
                                "declare one: `pit last_child { south: H; north: h }`",
                            ));
                            Err(())
                        }
                    },
                };
                let parsed = match args {
                    [r, odd, to, p]
                        if odd.as_word() == Some("odd") && to.as_word() == Some("to") =>
                    {
                        let region = region_of(&mut lw, r, "divide", usage);
                        let odd = lw.who(p);
                        region.zip(odd)
                    }
                    _ => {
                        lw.diagnostics.push(
                            Diagnostic::at(
                                st.span,
                                "malformed `divide`",
                                "expected `divide REGION odd to PLAYER`",
                            )
                            .hint(usage),
                        );
                        None
                    }
                };
                if into == Ok(None) && self.stores.iter().any(Option::is_none) {
                    lw.diagnostics.push(
                        Diagnostic::at(
                            st.span,
                            "`divide` needs a store for each player",
                            "no stores",
                        )
                        .hint("declare `store PLAYER left|right` in `board`, or share into a pit of each player: `divide … into NAME`"),
                    );
                }
                self.diagnostics.append(&mut lw.diagnostics);
                let (region, odd) = parsed?;
                Some(Action::Divide {
                    region,
                    odd,
                    into: into.ok()?,
                })
            }
            ActionKind::Set => self.set(st, ctx, scope),
            ActionKind::Resow => self.resow(st, ctx, scope),
            ActionKind::Fill => self.fill(st, ctx, scope),
            ActionKind::First => {
                let mut lw = Lowerer::new(scope(ctx));
                let who = match st.args.as_slice() {
                    [e] => lw.who(e),
                    _ => {
                        lw.diagnostics.push(
                            Diagnostic::at(
                                st.span,
                                "`first` takes one player",
                                "expected a player",
                            )
                            .hint("write `first last_mover` or `first opponent(starter)`"),
                        );
                        None
                    }
                };
                self.diagnostics.append(&mut lw.diagnostics);
                Some(Action::First(who?))
            }
        }
    }

    /// `fill REGION to N from PLACE`: each pit of the region, in its
    /// order, brought to N seeds from the place while it has enough.
    fn fill<'x>(
        &mut self,
        st: &Statement,
        ctx: Context,
        scope: &dyn Fn(Context) -> Scope<'x>,
    ) -> Option<Action> {
        let usage = "write `fill refill(south) to 7 from store(south)`: each pit of the region, in its order, brought to 7 seeds from the store while it holds enough";
        let mut lw = Lowerer::new(scope(ctx));
        let parsed = match st.args.as_slice() {
            [r, to, n, from, p] if to.as_word() == Some("to") && from.as_word() == Some("from") => {
                // A pit is filled as the region of that pit alone.
                let region = match lw.value(r) {
                    Some(Value::Place(p @ Place::Pit(_))) => Some(Region::Where(
                        Box::new(Region::Board),
                        Box::new(Cond::SamePlace(Place::Here, p)),
                    )),
                    value => a_region(&mut lw, r, value, "fill", usage),
                };
                let n = lw.num(n);
                let from = lw.place(p);
                match (region, n, from) {
                    (Some(r), Some(n), Some(f)) => Some((r, n, f)),
                    _ => None,
                }
            }
            _ => {
                lw.diagnostics.push(
                    Diagnostic::at(
                        st.span,
                        "malformed `fill`",
                        "expected `fill REGION to N from PLACE`",
                    )
                    .hint(usage),
                );
                None
            }
        };
        self.diagnostics.append(&mut lw.diagnostics);
        let (region, to, from) = parsed?;
        Some(Action::Fill { region, to, from })
    }

    pub(super) fn capture<'x>(
        &mut self,
        st: &Statement,
        ctx: Context,
        scope: &dyn Fn(Context) -> Scope<'x>,
    ) -> Option<Action> {
        // capture WHAT [at most N] [to PLACE] [chain forward|backward [every N] [from PLACE] while COND [taking PLACE] [with PLACE]]
        let usage = "write `capture last [at most N] [to store(mover)] [chain backward [every N] [from PLACE] while CONDITION [taking PLACE] [with PLACE]]`";
        let args = &st.args;
        let Some(what) = args.first() else {
            self.err(
                Diagnostic::at(
                    st.span,
                    "`capture` needs what it takes",
                    "nothing to capture",
                )
                .hint(usage),
            );
            return None;
        };
        let mut lw = Lowerer::new(scope(ctx));
        let target = lw.value(what);
        let mut to = None;
        let mut chain = None;
        let mut most = None;
        let mut i = 1;
        let mut ok = true;
        while i < args.len() {
            match args[i].as_word() {
                Some("to") if i + 1 < args.len() => {
                    // A store, or a pit that keeps what it wins; for a
                    // region, judged for each pit taken (`here`).
                    let p = if matches!(target, Some(Value::Region(_))) {
                        lw.place_on_here(&args[i + 1])
                    } else {
                        lw.place(&args[i + 1])
                    };
                    if let Some(p) = p {
                        to = Some(p);
                    }
                    i += 2;
                }
                Some("at")
                    if args.get(i + 1).and_then(Expr::as_word) == Some("most")
                        && i + 2 < args.len() =>
                {
                    // at most N: seeds taken from each pit (a count read
                    // from the position is judged when the action runs)
                    match lw.num(&args[i + 2]) {
                        Some(Num::Int(k)) if k < 1 => {
                            self.err(
                                Diagnostic::at(
                                    args[i + 2].span,
                                    "a capture's `at most` is 1 seed or more",
                                    "takes nothing",
                                )
                                .hint("write `at most 2` (or a count read from the position), or leave the capture out"),
                            );
                            ok = false;
                        }
                        Some(_) if most.is_some() => {
                            self.err(
                                Diagnostic::at(args[i].span, "`at most` is given twice", "again")
                                    .hint("a capture takes one `at most N`"),
                            );
                            ok = false;
                        }
                        Some(n) => most = Some(Box::new(n)),
                        None => ok = false,
                    }
                    i += 3;
                }
                Some("chain") if i + 1 < args.len() => {
                    let dir = match args[i + 1].as_word() {
                        Some("forward") => Some(Direction::Forward),
                        Some("backward") => Some(Direction::Backward),
                        _ => {
                            lw.diagnostics.push(Diagnostic::at(args[i + 1].span, "a chain runs `forward` or `backward`", "unknown direction")
                                .hint("`backward` walks against the sowing, towards where it came from"));
                            None
                        }
                    };
                    i += 2;
                    // [every N]: the walk's step, in places it does not pass over
                    let mut every = 1;
                    if args.get(i).and_then(Expr::as_word) == Some("every") && i + 1 < args.len() {
                        match self.number(&args[i + 1], "a chain's step") {
                            Some(n @ 1..=MAX_CHAIN_STEP) => every = n,
                            Some(_) => {
                                self.err(
                                    Diagnostic::at(
                                        args[i + 1].span,
                                        format!("a chain's step is 1 to {MAX_CHAIN_STEP}"),
                                        "out of range",
                                    )
                                    .hint("`every 2` takes every second place along the walk"),
                                );
                                ok = false;
                            }
                            None => ok = false,
                        }
                        i += 2;
                    }
                    // [from PLACE]
                    let mut from = None;
                    if args.get(i).and_then(Expr::as_word) == Some("from") && i + 1 < args.len() {
                        from = lw.place(&args[i + 1]);
                        ok &= from.is_some();
                        i += 2;
                    }
                    // while COND, on each pit walked (`here`)
                    if args.get(i).and_then(Expr::as_word) != Some("while") || i + 1 >= args.len() {
                        lw.diagnostics.push(
                            Diagnostic::at(
                                args[i.min(args.len() - 1)].span,
                                "a chain needs `while CONDITION`",
                                "expected `while`",
                            )
                            .hint(usage),
                        );
                        ok = false;
                        break;
                    }
                    // (the condition and places judged of each pit walked)
                    let c = lw.cond_on_here(&args[i + 1]);
                    i += 2;
                    // [taking PLACE], of each pit walked (`here`)
                    let mut taking = None;
                    if args.get(i).and_then(Expr::as_word) == Some("taking") && i + 1 < args.len() {
                        taking = lw.place_on_here(&args[i + 1]);
                        ok &= taking.is_some();
                        i += 2;
                    }
                    // [with PLACE], taken too for each pit walked
                    let mut with = None;
                    if args.get(i).and_then(Expr::as_word) == Some("with") && i + 1 < args.len() {
                        with = lw.place_on_here(&args[i + 1]);
                        ok &= with.is_some();
                        i += 2;
                    }
                    if let (Some(direction), Some(holds)) = (dir, c) {
                        chain = Some(Chain {
                            direction,
                            every,
                            from,
                            holds,
                            taking,
                            with,
                        });
                    } else {
                        ok = false;
                    }
                }
                _ => {
                    lw.diagnostics.push(
                        Diagnostic::at(
                            args[i].span,
                            "unexpected argument to `capture`",
                            "not understood",
                        )
                        .hint(usage),
                    );
                    ok = false;
                    break;
                }
            }
        }
        self.diagnostics.append(&mut lw.diagnostics);
        let action = match target? {
            Value::Place(Place::Store(_)) => {
                self.err(
                    Diagnostic::at(what.span, "a capture takes pits, not a store", "a store")
                        .hint("capture a pit (`last`, `opposite(last)`) or a region; a store's seeds stay in it"),
                );
                return None;
            }
            Value::Place(place) => Action::Capture {
                place,
                chain,
                to,
                most,
            },
            Value::Region(region) => {
                if chain.is_some() {
                    self.err(
                        Diagnostic::at(
                            st.span,
                            "a region capture has no chain",
                            "chain on a region",
                        )
                        .hint(usage),
                    );
                    return None;
                }
                Action::CaptureRegion { region, to, most }
            }
            other => {
                let d = match &other {
                    Value::Keyword(k) => Diagnostic::unknown(
                        Some(what.span),
                        k,
                        format!("unknown name `{k}`"),
                        "not a place",
                        sorted(self.labels.keys())
                            .into_iter()
                            .chain(["last", "origin"]),
                        "capture a place (`last`, `opposite(last)`) or a region",
                    ),
                    _ => Diagnostic::at(
                        what.span,
                        "capture takes a place or a region",
                        "not a place",
                    )
                    .hint(usage),
                };
                self.err(d);
                return None;
            }
        };
        ok.then_some(action)
    }

    /// `set NAME(x) = value`
    pub(super) fn set<'x>(
        &mut self,
        st: &Statement,
        ctx: Context,
        scope: &dyn Fn(Context) -> Scope<'x>,
    ) -> Option<Action> {
        let usage = "write `set NAME(mover) = value` for a declared variable";
        let (target, value) = match (st.args.as_slice(), tail(st)) {
            ([t], [v]) if st.tail.is_some() => (t, v),
            _ => {
                self.err(
                    Diagnostic::at(
                        st.span,
                        "`set` is `set VARIABLE = VALUE`",
                        "malformed `set`",
                    )
                    .hint(usage),
                );
                return None;
            }
        };
        let mut lw = Lowerer::new(scope(ctx));
        let v = lw.value(target);
        self.diagnostics.append(&mut lw.diagnostics);
        let target_var = match &v {
            Some(Value::Var(var, at) | Value::Num(Num::Var(var, at))) => Some((*var, at.clone())),
            _ => None,
        };
        let Some((var, at)) = target_var else {
            if v.is_some() {
                let name = match &target.kind {
                    ExprKind::Call(n, _) => n.name.clone(),
                    ExprKind::Word(w) => w.clone(),
                    _ => String::new(),
                };
                self.err(Diagnostic::unknown(
                    Some(target.span),
                    &name,
                    "only a variable can be set",
                    "not a variable",
                    self.vars.iter().map(|v| v.name.as_str()),
                    "declare it with `var NAME per player: values…`",
                ));
            }
            return None;
        };
        if expr::KEPT.contains(&self.vars[var].name.as_str()) {
            self.err(
                Diagnostic::at(
                    target.span,
                    format!("`{}` is kept by the engine", self.vars[var].name),
                    "not a rule's to set",
                )
                .hint("declare a variable of your own with `var NAME per game: values…`"),
            );
            return None;
        }
        if let Some((low, high)) = self.vars[var].numbers {
            let mut lw = Lowerer::new(scope(ctx));
            let to = lw.num(value);
            self.diagnostics.append(&mut lw.diagnostics);
            if let Some(Num::Int(k)) = &to {
                if !(low..=high).contains(k) {
                    self.err(
                        Diagnostic::at(
                            value.span,
                            format!("`{}` holds {low} to {high}, not {k}", self.vars[var].name),
                            "out of range",
                        )
                        .hint(format!("a number from {low} to {high}")),
                    );
                    return None;
                }
            }
            return to.map(|to| Action::SetNumber { var, at, to });
        }
        let values = &self.vars[var].values;
        if let Some(i) = value
            .as_word()
            .and_then(|w| values.iter().position(|x| x == w))
        {
            return Some(Action::Set { var, at, value: i });
        }
        // A player, for a variable whose values are the players' names.
        let mut lw = Lowerer::new(scope(ctx));
        let player = match lw.value(value) {
            Some(Value::Who(w)) => Some(lw.player_values(var, value).map(|_| w)),
            _ => None,
        };
        self.diagnostics.append(&mut lw.diagnostics);
        match player {
            Some(Some(to)) => return Some(Action::SetPlayer { var, at, to }),
            Some(None) => return None,
            None => {}
        }
        let values = &self.vars[var].values;
        let Some(w) = value.as_word() else {
            self.err(
                Diagnostic::at(value.span, "a value is a plain name", "not a value")
                    .hint(format!("one of: {}", values.join(", "))),
            );
            return None;
        };
        match values.iter().position(|x| x == w) {
            Some(value) => Some(Action::Set { var, at, value }),
            None => {
                let mut d = Diagnostic::at(
                    value.span,
                    format!("`{w}` is not a value of `{}`", self.vars[var].name),
                    "unknown value",
                );
                d = d.suggest(
                    w,
                    values.iter().map(String::as_str),
                    format!("one of: {}", values.join(", ")),
                );
                self.err(d);
                None
            }
        }
    }

    /// `resow from PLACE forward|backward|left|right`
    pub(super) fn resow<'x>(
        &mut self,
        st: &Statement,
        ctx: Context,
        scope: &dyn Fn(Context) -> Scope<'x>,
    ) -> Option<Action> {
        let usage = "write `resow from PLACE forward` (or backward, left, right)";
        let [from_kw, place, heading] = st.args.as_slice() else {
            self.err(
                Diagnostic::at(
                    st.span,
                    "`resow` is `resow from PLACE HEADING`",
                    "malformed `resow`",
                )
                .hint(usage),
            );
            return None;
        };
        if from_kw.as_word() != Some("from") {
            self.err(Diagnostic::at(from_kw.span, "expected `from`", "not `from`").hint(usage));
            return None;
        }
        let mut lw = Lowerer::new(scope(ctx));
        let from = lw.place(place);
        self.diagnostics.append(&mut lw.diagnostics);
        let heading = self.heading(
            heading,
            "a heading is forward, backward, left or right",
            usage,
        )?;
        Some(Action::Resow {
            from: from?,
            heading,
        })
    }

    /// Records a rule's (or end's) name; reports a second use of it with
    /// both places.
    pub(super) fn unique_rule_name(
        &mut self,
        names: &mut HashMap<String, Span>,
        name: &str,
        span: Span,
    ) -> bool {
        if let Some(first) = names.get(name) {
            self.err(
                Diagnostic::at(span, format!("two rules are named `{name}`"), "second rule")
                    .related(*first, "first rule here")
                    .hint("every rule and end has its own name"),
            );
            return false;
        }
        names.insert(name.to_string(), span);
        true
    }
}

/// What the `when` and the actions of a rule at each moment may refer to:
/// the moment table's.
fn contexts(m: Moment) -> (Context, Context) {
    let spec = m.spec();
    (
        Context {
            sees: spec.when,
            what: spec.what,
        },
        Context {
            sees: spec.actions_see,
            what: spec.actions_what,
        },
    )
}

/// The region an action takes (`divide`, `fill`), or its misuse named.
fn region_of(lw: &mut Lowerer, e: &Expr, action: &str, usage: &str) -> Option<Region> {
    let value = lw.value(e);
    a_region(lw, e, value, action, usage)
}

/// [`region_of`], of the value `e` was lowered to.
fn a_region(
    lw: &mut Lowerer,
    e: &Expr,
    value: Option<Value>,
    action: &str,
    usage: &str,
) -> Option<Region> {
    match value {
        Some(Value::Region(region)) => Some(region),
        Some(other) => {
            lw.diagnostics.push(
                Diagnostic::at(
                    e.span,
                    format!("`{action}` takes a region, not {}", other.kind()),
                    "not a region",
                )
                .hint(usage),
            );
            None
        }
        None => None,
    }
}
