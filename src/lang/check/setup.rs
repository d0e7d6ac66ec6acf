//! The starting position (`setup { … }`) and the counts a file writes.

use super::*;

impl Checker {
    pub(super) fn setup<'x>(
        &mut self,
        s: &Statement,
        setup: &mut Setup,
        scope: &dyn Fn(Context) -> Scope<'x>,
    ) {
        let body = self.block(s);
        let mut total: Option<(u64, Span)> = None;
        // The pits' seeds when South starts and when North does (the same
        // unless a line names pits by the starter).
        let mut layouts = [setup.seeds.clone(), setup.seeds.clone()];
        let mut starter_named = false;
        for st in body {
            self.no_block(st);
            match st.word.name.as_str() {
                "seeds" => {
                    let Some(n) = st.args.first().and_then(|e| self.number(e, "a seed count"))
                    else {
                        continue;
                    };
                    if st.args.len() > 1 {
                        self.err(
                            Diagnostic::at(
                                st.args[1].span,
                                "`seeds` takes one count",
                                "extra argument",
                            )
                            .hint("write `seeds 4` for every pit or `seeds 6: A5 a5` for some"),
                        );
                        continue;
                    }
                    match &st.tail {
                        None => {
                            for layout in layouts.iter_mut() {
                                layout.iter_mut().for_each(|x| *x = n);
                            }
                        }
                        Some((_, t)) => {
                            for e in &self.label_list(t) {
                                let Some((pits, by_starter)) = self.setup_pits(e) else {
                                    continue;
                                };
                                starter_named |= by_starter;
                                for (layout, pits) in layouts.iter_mut().zip(pits) {
                                    for id in pits {
                                        layout[id as usize] = n;
                                    }
                                }
                            }
                        }
                    }
                }
                "hands" => {
                    if let Some(n) = self.each_count(st, "a hand", "write `hands 22`") {
                        setup.hands = [n, n];
                    }
                }
                "stores" => {
                    if self.stores.iter().any(Option::is_none) {
                        self.err(
                            Diagnostic::at(
                                st.span,
                                "`stores` but the board has no stores",
                                "no stores",
                            )
                            .hint("declare `store PLAYER left|right` in `board`"),
                        );
                    } else if let Some(n) = self.each_count(
                        st,
                        "a store",
                        "write `stores 10`: seeds in each player's store",
                    ) {
                        setup.stores = [n, n];
                    }
                }
                "first" => {
                    if let [e] = st.args.as_slice() {
                        let named = |w: &str| self.players.iter().flatten().any(|p| p == w);
                        if e.as_word() == Some("chosen") && !named("chosen") {
                            setup.first_chosen = true;
                        } else if let Some(p) = self.player(e) {
                            setup.first = p;
                        }
                    } else {
                        self.err(
                            Diagnostic::at(
                                st.span,
                                "`first` takes a player, or `chosen`",
                                "expected `first PLAYER`",
                            )
                            .hint("write `first south`, or `first chosen` where the players decide (`--first PLAYER`)"),
                        );
                    }
                }
                "total" => {
                    if let [e] = st.args.as_slice() {
                        if let Some(n) = self.number(e, "the total") {
                            total = Some((n as u64, st.span));
                        }
                    } else {
                        self.err(
                            Diagnostic::at(
                                st.span,
                                "`total` takes one count",
                                "expected `total N`",
                            )
                            .hint("write `total 48`"),
                        );
                    }
                }
                "set" => {
                    if let Some(start) = self.var_start(st, scope) {
                        setup.vars.push(start);
                    }
                }
                _ => self.unknown(
                    st,
                    &["seeds", "hands", "stores", "first", "total", "set"],
                    "setup statement",
                ),
            }
        }
        let [south, north] = layouts;
        setup.seeds = south.clone();
        setup.by_starter = starter_named.then_some([south, north]);
        if let Some((want, span)) = total {
            let pits: u64 = setup.seeds.iter().map(|&x| x as u64).sum();
            let other: u64 = setup
                .by_starter
                .as_ref()
                .map_or(pits, |[_, n]| n.iter().map(|&x| x as u64).sum());
            if other != pits {
                self.err(
                    Diagnostic::at(span, "the two starters' layouts hold different seeds", "not one total")
                        .hint(format!(
                            "the pits hold {pits} seeds when South starts and {other} when North does: the same seeds are laid out either way"
                        )),
                );
            }
            let hands: u64 = setup.hands.iter().map(|&x| x as u64).sum();
            let stores: u64 = setup.stores.iter().map(|&x| x as u64).sum();
            if pits + hands + stores != want {
                self.err(
                    Diagnostic::at(span, "the seeds do not add up", format!("says {want}")).hint(
                        format!(
                            "the setup puts {pits} seeds in pits, {hands} in hands and {stores} in stores, {} in all",
                            pits + hands + stores
                        ),
                    ),
                );
            }
        }
    }

    /// `set VAR = VALUE` in the setup: an instance known before the game
    /// (a player's by name, a pit by label, a player's region) given a
    /// value known before it (a word, a number, a player's name).
    fn var_start<'x>(
        &mut self,
        st: &Statement,
        scope: &dyn Fn(Context) -> Scope<'x>,
    ) -> Option<(usize, crate::ir::VarAt, usize)> {
        let ctx = Context {
            sees: Sees::PHASE,
            what: "in `setup`",
        };
        let action = self.set(st, ctx, scope)?;
        let (var, at, value) = match action {
            Action::Set { var, at, value } => (var, at, Some(value)),
            Action::SetNumber { var, at, to } => {
                let low = self.vars[var].numbers.map_or(0, |(low, _)| low);
                let value = match to {
                    Num::Int(k) => usize::try_from(k - low).ok(),
                    _ => None,
                };
                (var, at, value)
            }
            Action::SetPlayer { var, at, to } => {
                let value = match to {
                    Who::Player(p) => {
                        let name = self.players.as_ref().and_then(|ps| ps.get(p as usize));
                        self.vars[var].values.iter().position(|v| Some(v) == name)
                    }
                    _ => None,
                };
                (var, at, value)
            }
            _ => return None,
        };
        use crate::ir::VarAt;
        let fixed = match &at {
            VarAt::Game | VarAt::Player(Who::Player(_)) | VarAt::Pit(Place::Pit(_)) => true,
            VarAt::Pits(r) => matches!(
                r,
                Region::Board | Region::Side(Who::Player(_)) | Region::Named(_, Who::Player(_))
            ),
            VarAt::Player(_) | VarAt::Pit(_) => false,
        };
        match (fixed, value) {
            (true, Some(value)) => Some((var, at, value)),
            _ => {
                self.err(
                    Diagnostic::at(st.span, "a setup's `set` is known before the game", "not known before the game")
                        .hint("name the instance by a player's name, a label or a player's region, and give a word, a number or a player's name: `set child(H) = south`"),
                );
                None
            }
        }
    }

    /// The pits a `seeds` line names: a label, or a per-player region or
    /// pit of a player, of the starter or of the other player
    /// (`two(starter)`, `two(opponent(starter))`): the pits when South
    /// starts and when North does, and whether they depend on it.
    fn setup_pits(&mut self, e: &Expr) -> Option<([Vec<PitId>; 2], bool)> {
        let usage = "name pits by label (`seeds 6: A a`), or by a per-player region or pit of a player or of the starter (`seeds 2: two(starter)`)";
        let ExprKind::Call(name, args) = &e.kind else {
            let id = self.label(e)?;
            return Some(([vec![id], vec![id]], false));
        };
        // Whose: [when South starts, when North does].
        let whose: Option<[Player; 2]> = match args.as_slice() {
            [a] => match &a.kind {
                ExprKind::Word(w) if w == expr::STARTER => Some([0, 1]),
                ExprKind::Call(o, inner)
                    if o.name == "opponent"
                        && matches!(inner.as_slice(), [i] if i.as_word() == Some(expr::STARTER)) =>
                {
                    Some([1, 0])
                }
                ExprKind::Word(w) if self.players.iter().flatten().any(|p| p == w) => {
                    self.player(a).map(|p| [p, p])
                }
                _ => None,
            },
            _ => None,
        };
        let Some(whose) = whose else {
            self.err(
                Diagnostic::at(
                    e.span,
                    "a setup's pits are named by label, or by a player's or the starter's region",
                    "not a setup's pits",
                )
                .hint(usage),
            );
            return None;
        };
        let pits = |p: Player| -> Option<Vec<PitId>> {
            if let Some(&i) = self.region_index.get(&name.name) {
                return Some(self.regions[i].pits[p as usize & 1].clone());
            }
            let &i = self.named_index.get(&name.name)?;
            Some(vec![self.named_pits[i].pits[p as usize & 1]])
        };
        match (pits(whose[0]), pits(whose[1])) {
            (Some(a), Some(b)) => Some(([a, b], whose[0] != whose[1])),
            _ => {
                let known: Vec<&str> = self
                    .region_index
                    .keys()
                    .chain(self.named_index.keys())
                    .map(String::as_str)
                    .collect();
                self.err(Diagnostic::unknown(
                    Some(name.span),
                    &name.name,
                    format!("no per-player region or pit is named `{}`", name.name),
                    "undeclared region",
                    known,
                    "declare it: `region two { south: A; north: a }`",
                ));
                None
            }
        }
    }

    /// A count known when the file is read (`7`, `holes`, `2 * holes * holes`).
    pub(super) fn number(&mut self, e: &Expr, what: &str) -> Option<u32> {
        match self.fixed_number(e) {
            Some(n) if (0..=crate::limits::MAX_NUMBER).contains(&n) => Some(n as u32),
            Some(n) if n < 0 => {
                self.err(
                    Diagnostic::at(e.span, format!("{what} is not negative"), format!("is {n}"))
                        .hint("a count is 0 or more"),
                );
                None
            }
            Some(_) => {
                self.err(
                    Diagnostic::at(e.span, format!("{what} is at most 1000000"), "too large")
                        .hint("counts in a variant are at most 1000000"),
                );
                None
            }
            None => {
                self.err(
                    Diagnostic::at(e.span, format!("{what} is a whole number"), "not a number")
                        .hint("write a count such as `4`, a number option's name, or arithmetic on them (`2 * holes`)"),
                );
                None
            }
        }
    }

    /// `hands N`, `stores N`: one count, the same for each player (`what`
    /// names it in a message).
    fn each_count(&mut self, st: &Statement, what: &str, hint: &str) -> Option<u32> {
        if let [e] = st.args.as_slice() {
            return self.number(e, what);
        }
        let word = &st.word.name;
        self.err(
            Diagnostic::at(
                st.span,
                format!("`{word}` takes one count"),
                format!("expected `{word} N`"),
            )
            .hint(hint),
        );
        None
    }
}
