//! The starting position (`setup { … }`) and the counts a file writes.

use super::*;

impl Checker {
    pub(super) fn setup(&mut self, s: &Statement, setup: &mut Setup) {
        let body = self.block(s);
        let mut total: Option<(u64, Span)> = None;
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
                        None => setup.seeds.iter_mut().for_each(|x| *x = n),
                        Some((_, t)) => {
                            for e in t {
                                if let Some(id) = self.label(e) {
                                    setup.seeds[id as usize] = n;
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
                _ => self.unknown(
                    st,
                    &["seeds", "hands", "stores", "first", "total"],
                    "setup statement",
                ),
            }
        }
        if let Some((want, span)) = total {
            let pits: u64 = setup.seeds.iter().map(|&x| x as u64).sum();
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

    pub(super) fn number(&mut self, e: &Expr, what: &str) -> Option<u32> {
        if let Some(n) = self.option_value(e).and_then(|v| v.parse::<u32>().ok()) {
            return Some(n);
        }
        match &e.kind {
            ExprKind::Int(n) if (0..=1_000_000).contains(n) => Some(*n as u32),
            ExprKind::Int(_) => {
                self.err(
                    Diagnostic::at(e.span, format!("{what} is at most 1000000"), "too large")
                        .hint("counts in a variant are at most 1000000"),
                );
                None
            }
            _ => {
                self.err(
                    Diagnostic::at(e.span, format!("{what} is a whole number"), "not a number")
                        .hint("write a count such as `4`"),
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
